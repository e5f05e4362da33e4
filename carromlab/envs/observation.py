"""What a seat sees between two shots: the observation of the reinforcement-learning
environments, as a :class:`gymnasium.spaces.Dict` and the arrays that fill it."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..rules.state import GameState

__all__ = ["POSITION_LIMIT", "QUEEN_CODES", "observation_space", "observe"]

#: Bound of the ``positions`` entries, m: every board's playing surface fits in
#: [-1, 1] m (carrom 0.74 m square, Hikone 0.6 m, crokinole 0.66 m across).
POSITION_LIMIT = 1.0
#: Code of each queen status in the ``queen`` entry (0 where the variant has no queen).
QUEEN_CODES = {"none": 0, "board": 1, "pending": 2, "covered": 3}
_SCORE_LIMIT = 10_000
_COUNT_LIMIT = 1_000_000


def observation_space(state: GameState) -> spaces.Dict:
    """The observation space of games like ``state`` (same variant and seats).

    Entries (``n`` = number of game pieces, fixed for a variant and its options; the
    striker is not a piece; "own" is the observing seat's team, "others" every other
    team together):

    ``positions`` : float32 (n, 2)
        Centre of each piece in the board frame (origin at the centre), m; 0 for a
        piece not on the board. Bounded by :data:`POSITION_LIMIT`.
    ``on_board`` : MultiBinary(n)
        1 where the piece is on the board.
    ``own`` : MultiBinary(n)
        1 where the piece has the own team's colour (carrom: changes with the break).
    ``counts`` : int64 (2, 3)
        Rows own, others; columns pieces on the board, in hand (crokinole discs not
        yet played), off the board (pocketed, ditch or 20-hole).
    ``scores`` : int64 (2,)
        Game total of the own team and the best total of the others, points.
    ``dues`` : int64 (2,)
        Coins or pucks owed back to the centre by the own team and by the others.
    ``turn`` : int64 (5,)
        Board number (from 1), shots on this board, shots already taken in this turn,
        failed break attempts, and the observing seat's shots on this board.
    ``queen`` : Discrete(4)
        Queen status (:data:`QUEEN_CODES`).
    ``queen_team`` : Discrete(3)
        Team whose cover is pending or who covered the queen: 0 none, 1 own, 2 others.

    Parameters
    ----------
    state : GameState
        Any state of the games.

    Returns
    -------
    gymnasium.spaces.Dict
    """
    n = len(state.pieces)

    def ints(shape: tuple[int, ...], low: int, high: int) -> spaces.Box:
        return spaces.Box(low, high, shape, dtype=np.int64)

    return spaces.Dict({
        "positions": spaces.Box(-POSITION_LIMIT, POSITION_LIMIT, (n, 2), dtype=np.float32),
        "on_board": spaces.MultiBinary(n),
        "own": spaces.MultiBinary(n),
        "counts": ints((2, 3), 0, n),
        "scores": ints((2,), -_SCORE_LIMIT, _SCORE_LIMIT),
        "dues": ints((2,), 0, n),
        "turn": ints((5,), 0, _COUNT_LIMIT),
        "queen": spaces.Discrete(len(QUEEN_CODES)),
        "queen_team": spaces.Discrete(3),
    })  # fmt: skip


def observe(state: GameState, seat: int) -> dict[str, Any]:
    """The observation of ``state`` by ``seat`` (see :func:`observation_space`).

    Parameters
    ----------
    state : GameState
        The position.
    seat : int
        The observing seat, in [0, state.n_players).

    Returns
    -------
    dict of str to numpy.ndarray or int

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> obs = observe(icf.new_game(), 0)
    >>> obs["counts"].tolist(), obs["queen"]
    ([[9, 0, 0], [9, 0, 0]], 1)
    """
    team = state.team_of(seat)
    own_colour = state.colours[team]
    n = len(state.pieces)
    positions = np.zeros((n, 2), dtype=np.float32)
    on_board = np.zeros(n, dtype=np.int8)
    own = np.zeros(n, dtype=np.int8)
    counts = np.zeros((2, 3), dtype=np.int64)
    column = {"board": 0, "hand": 1}
    for i, p in enumerate(state.pieces):
        own[i] = p.kind == own_colour
        if p.where == "board":
            on_board[i] = 1
            positions[i] = (p.x, p.y)
        if p.kind in state.colours:
            counts[0 if own[i] else 1, column.get(p.where, 2)] += 1
    others = [t for t in range(state.n_teams) if t != team]
    scores = np.array([state.game_scores[team], max(state.game_scores[t] for t in others)], dtype=np.int64)
    dues = np.array([state.dues[team], sum(state.dues[t] for t in others)], dtype=np.int64)
    turn = np.array([state.board_number, state.board_shots, state.shot_in_turn, state.break_attempts,
                     state.seat_shots[seat]], dtype=np.int64)  # fmt: skip
    queen_team = 0 if state.queen_team is None else (1 if state.queen_team == team else 2)
    return {"positions": positions, "on_board": on_board, "own": own, "counts": counts, "scores": scores,
            "dues": dues, "turn": turn, "queen": QUEEN_CODES[state.queen_status], "queen_team": queen_team}  # fmt: skip
