"""What a seat sees between two shots: the observation of the reinforcement-learning
environments, as a :class:`gymnasium.spaces.Dict` and the arrays that fill it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .._validation import check_int
from ..match.clock import MatchClock
from ..match.game import Game
from ..match.lockstep import stacked
from ..rules.arrays import QUEEN, WHERE, GameArrays
from ..rules.arrays.games import of_colours
from ..rules.state import GameState

__all__ = ["POSITION_LIMIT", "QUEEN_CODES", "observation_space", "observe", "observe_games", "observe_many"]

#: Bound of the ``positions`` entries, m: every board's playing surface fits in
#: [-1, 1] m (carrom 0.74 m square, Hikone 0.6 m, crokinole 0.66 m across).
POSITION_LIMIT = 1.0
#: Code of each queen status in the ``queen`` entry (0 where the variant has no queen).
QUEEN_CODES = {"none": 0, "board": 1, "pending": 2, "covered": 3}
# bound of the scores, dues and counters, which the rules do not bound: a debt grows with
# every penalty that finds too few pieces to return (ICF-11, ONL-3, HIK-5, HIK-7), a game
# target may be 10,000 points (CrokinoleOptions) and a round takes a game past it
_COUNT_LIMIT = 1_000_000
_BOARD = WHERE.index("board")
# column of ``counts`` of each location code of WHERE: on the board, in hand, off
_COLUMN = np.array([{"board": 0, "hand": 1}.get(w, 2) for w in WHERE], dtype=np.intp)
_QUEEN_CODE = np.array([QUEEN_CODES[q] for q in QUEEN], dtype=np.int64)
_DISCRETE = ("queen", "queen_team", "shooter")


def observation_space(state: GameState, clock: MatchClock | None = None) -> spaces.Dict:
    """The observation space of games like ``state`` (same variant and seats, and the
    same match clock).

    Entries (``n`` = number of game pieces, fixed for a variant and its options; the
    striker is not a piece; "own" is the observing seat's team, "others" every other
    team together):

    ``positions`` : float32 (n, 2)
        Centre of each piece in the board frame (origin at the centre), m; 0 for a
        piece not on the board. Bounded by :data:`.POSITION_LIMIT`.
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
        failed break attempts, and the shots on this board of the seat to shoot next
        (Hikone: its first is from the tee spot, HIK-2).
    ``shooter`` : Discrete(n_players)
        The seat to shoot next: the side of the board its placement line is on (in
        doubles the observing team shoots from two sides).
    ``queen`` : Discrete(4)
        Queen status (:data:`.QUEEN_CODES`).
    ``queen_team`` : Discrete(3)
        Team whose cover is pending or who covered the queen: 0 none, 1 own, 2 others.
    ``time_left`` : float32 (1,)
        Only in games with a match clock (Hikone, HIK-10): the match time left before
        time is called, s, in [0, ``clock.limit_s``]
        (:meth:`MatchClock.left <carromlab.match.MatchClock.left>`).

    Parameters
    ----------
    state : GameState
        Any state of the games.
    clock : MatchClock, optional
        The games' match clock. Default None: untimed games, no ``time_left``.

    Returns
    -------
    gymnasium.spaces.Dict
    """
    n = len(state.pieces)

    def ints(shape: tuple[int, ...], low: int, high: int) -> spaces.Box:
        return spaces.Box(low, high, shape, dtype=np.int64)

    entries = {
        "positions": spaces.Box(-POSITION_LIMIT, POSITION_LIMIT, (n, 2), dtype=np.float32),
        "on_board": spaces.MultiBinary(n),
        "own": spaces.MultiBinary(n),
        "counts": ints((2, 3), 0, n),
        "scores": ints((2,), -_COUNT_LIMIT, _COUNT_LIMIT),
        "dues": ints((2,), 0, _COUNT_LIMIT),
        "turn": ints((5,), 0, _COUNT_LIMIT),
        "queen": spaces.Discrete(len(QUEEN_CODES)),
        "queen_team": spaces.Discrete(3),
        "shooter": spaces.Discrete(state.n_players),
    }  # fmt: skip
    if clock is not None:
        entries["time_left"] = spaces.Box(0.0, clock.limit_s, (1,), dtype=np.float32)
    return spaces.Dict(entries)


def observe(state: GameState, seat: int) -> dict[str, Any]:
    """The observation of ``state`` by ``seat`` (see :func:`~carromlab.envs.observation_space`): the
    one-game case of :func:`.observe_many`.

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
    return first_observation(observe_many(GameArrays.from_states([state]), seat))


def first_observation(obs: dict[str, npt.NDArray[Any]]) -> dict[str, Any]:
    """The first game's observation of an :func:`observe_many` batch, as :func:`observe` gives it
    (:func:`observe`, ``CarromEnv``'s observations).

    Parameters
    ----------
    obs : dict of str to numpy.ndarray
        A batch of :func:`observe_many`.

    Returns
    -------
    dict of str to numpy.ndarray or int
        The arrays of its first game; the discrete entries as int.
    """
    return {k: int(v[0]) if k in _DISCRETE else v[0] for k, v in obs.items()}


def observe_many(games: GameArrays, seat: int) -> dict[str, npt.NDArray[Any]]:
    """The observations of N games by ``seat``, batched (first axis the game, as
    :func:`gymnasium.vector.utils.batch_space` of :func:`~carromlab.envs.observation_space`), computed
    on the games' arrays at once.

    Parameters
    ----------
    games : GameArrays
        The positions of N games of one variant.
    seat : int
        The observing seat, in [0, games.n_players).

    Returns
    -------
    dict of str to numpy.ndarray
        The entries of :func:`~carromlab.envs.observation_space`, each with a first axis of N
        (``queen``, ``queen_team`` and ``shooter`` int64 of shape (N,)).

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> from carromlab.rules.arrays import GameArrays
    >>> obs = observe_many(GameArrays.from_states([icf.new_game()] * 3), 1)
    >>> obs["positions"].shape, obs["own"].sum(axis=1).tolist()
    ((3, 19, 2), [9, 9, 9])
    """
    seat = check_int("seat", seat, low=0, high=games.n_players - 1)
    team = seat % games.n_teams
    n = len(games)
    on = games.where == _BOARD
    positions = games.xy.astype(np.float32)
    positions[~on] = 0.0
    own = games.kind[None, :] == games.colours[:, team, None]
    rows = np.stack([own, of_colours(games.kind, games.colours) & ~own], axis=1)  # (N, 2, P): own, others
    # counts[g, r, c]: the pieces of row r of game g in column c, one count of cell keys
    cell = (6 * np.arange(n)[:, None, None] + np.array([0, 3])[:, None]) + _COLUMN[games.where][:, None, :]
    counts = np.bincount(cell[rows], minlength=6 * n).reshape(n, 2, 3)
    others = np.arange(games.n_teams) != team
    scores = np.stack([games.game_scores[:, team], games.game_scores[:, others].max(axis=1)], axis=1)
    dues = np.stack([games.dues[:, team], games.dues[:, others].sum(axis=1)], axis=1)
    turn = np.stack([games.board_number, games.board_shots, games.shot_in_turn, games.break_attempts,
                     games.seat_shots[np.arange(len(games)), games.shooter]], axis=1)  # fmt: skip
    queen_team = np.where(games.queen_team < 0, 0, np.where(games.queen_team == team, 1, 2))
    return {
        "positions": positions, "on_board": on.astype(np.int8), "own": own.astype(np.int8), "counts": counts,
        "scores": scores.astype(np.int64), "dues": dues.astype(np.int64), "turn": turn.astype(np.int64),
        "queen": _QUEEN_CODE[games.queen_status], "queen_team": queen_team.astype(np.int64),
        "shooter": games.shooter.astype(np.int64),
    }  # fmt: skip


def observe_games(games: Sequence[Game], seat: int) -> dict[str, npt.NDArray[Any]]:
    """The observations of N games in progress by ``seat``, batched:
    :func:`~carromlab.envs.observe_many` of their positions (``match.lockstep.stacked``),
    and ``time_left`` when they are played with a match clock
    (:func:`~carromlab.envs.observation_space`). What the environments observe.

    Parameters
    ----------
    games : sequence of Game
        At least one game, all of one variant and with the same settings.
    seat : int
        The observing seat, in [0, n_players).

    Returns
    -------
    dict of str to numpy.ndarray
        As :func:`~carromlab.envs.observe_many`, with ``time_left`` (float32 of shape
        (N, 1), s) in timed games.

    Examples
    --------
    >>> from carromlab.match import Game, MatchClock, RandomPolicy, new_state
    >>> game = Game(new_state("hikone", 2), RandomPolicy(), seed=1, clock=MatchClock(think_s=6.0))
    >>> _ = game.shoot()
    >>> obs = observe_games([game], 0)
    >>> obs["time_left"].shape, abs(float(obs["time_left"][0, 0]) - (300.0 - game.clock_s)) < 1e-4
    ((1, 1), True)
    """
    obs = observe_many(stacked(games), seat)
    clock = games[0].settings.clock
    if clock is not None:
        obs["time_left"] = clock.left([g.clock_s for g in games]).astype(np.float32)[:, None]
    return obs
