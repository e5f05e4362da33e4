"""Crokinole on arrays: the array form of :func:`carromlab.rules.crokinole.adjudicate`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..crokinole import HOLE_POINTS
from .games import GameArrays
from .ledger import BOARD, DITCH, HAND, HOLE, ArrayLedger, RulingArrays, check_outcomes
from .outcomes import FATES, OutcomeArrays

__all__ = ["RULES", "adjudicate_crokinole", "round_totals"]

#: The rule ids of the crokinole rulings.
RULES = ("CRK-2", "CRK-3", "CRK-4", "CRK-5")


def round_totals(games: GameArrays, where: npt.NDArray[np.int8], xy: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Points of each player on the board (CRK-4), shape (N, T); the array form of
    :func:`carromlab.rules.crokinole.round_totals`.

    Parameters
    ----------
    games : GameArrays
        The games (kinds, colours, board).
    where : numpy.ndarray of int8, shape (N, P)
        Location codes of the pieces.
    xy : numpy.ndarray, shape (N, P, 2)
        Their positions, m.

    Raises
    ------
    ValueError
        If a disc on the board has no known position.
    """
    on = where == BOARD
    if (on & np.isnan(xy[..., 0])).any():
        g, j = np.argwhere(on & np.isnan(xy[..., 0]))[0]
        raise ValueError(f"The position of disc {j} on the board of game {g} is unknown; it cannot be scored.")
    reach = np.hypot(xy[..., 0], xy[..., 1]) + games.radius_of()
    value = np.zeros(where.shape, np.int64)
    for pts, ring in reversed(games.board.marks.scoring_rings):
        value[reach < ring] = pts
    value = np.where(on, value, 0) + np.where(where == HOLE, HOLE_POINTS, 0)
    owner = games.kind[None, :] == games.colours[:, :, None]  # (N, T, P)
    return (owner * value[:, None, :]).sum(axis=2)


def adjudicate_crokinole(games: GameArrays, outcomes: OutcomeArrays, *, place: bool = True) -> RulingArrays:
    """Adjudicate N crokinole shots; see :func:`carromlab.rules.arrays.adjudicate_arrays`.
    Nothing is ever put back in crokinole, so ``place`` changes nothing."""
    o = outcomes
    n, rows, p = len(games), np.arange(len(games)), games.n_pieces
    disc = o.striker
    if ((disc < 0) | (disc >= p)).any():
        g = int(np.flatnonzero((disc < 0) | (disc >= p))[0])
        raise ValueError(f"The 'outcomes.striker' parameter must be the id of the disc played. Got {int(disc[g])} in game {g}.")
    check_outcomes(games, o, shot_piece=disc)
    seat, team = games.shooter, games.team
    own = games.colours[rows, team]
    if ((games.where[rows, disc] != HAND) | (games.kind[disc] != own)).any():
        raise ValueError("The 'outcomes.striker' parameter must be a disc of the shooter's colour in hand.")
    fate = o.fate
    in_hole = o.fell[rows, disc] > 0
    allowed = np.isin(fate, [FATES.index(f) for f in ("board", "pocketed", "ditch")])
    if (o.timed_out | ~allowed | ((fate == FATES.index("pocketed")) != in_hole)).any():
        raise ValueError(
            "The 'outcomes' parameter is inconsistent with the game state: a crokinole disc ends on the board, "
            "in the hole (listed in pocketed) or in the ditch."
        )
    led = ArrayLedger(games, o, RULES)
    led.apply_motion(np.ones(n, bool), pocket_to=HOLE)
    on_board = fate == FATES.index("board")
    if (on_board & np.isnan(led.xy[rows, disc, 0])).any():
        raise ValueError("The 'outcomes.final_positions' parameter must give the position of a disc left on the board.")
    played = np.zeros((n, p), bool)
    played[rows, disc] = True
    led.set((o.left_board > 0) | (played & (fate == FATES.index("ditch"))[:, None]), DITCH)
    opponents = ((games.where == BOARD) & ~led.of_kind(own)).any(axis=1)
    struck = (o.chain & ~led.of_kind(own)).any(axis=1)
    led.note(opponents & struck, "CRK-3")
    missed = opponents & ~struck
    led.foul(missed, "CRK-3")
    led.set(missed[:, None] & (played | o.chain), DITCH)
    open_board = ~opponents
    led.note(open_board, "CRK-2")
    xy = np.nan_to_num(led.xy[rows, disc], nan=0.0)
    beyond = on_board & (np.hypot(xy[:, 0], xy[:, 1]) - games.radius_of()[disc] > games.board.marks.ring_15_radius)
    outside = open_board & (beyond | (fate == FATES.index("ditch")))
    led.foul(outside, "CRK-2")
    led.set(outside[:, None] & played, DITCH)
    nxt = (seat + 1) % games.n_players
    done = ~(led.where == HAND).any(axis=1)
    points, winner, over, first = _close_round(games, led, done)
    return led.ruling(
        turn_continues=np.zeros(n, bool),
        next_shooter=np.where(done & ~over, first, nxt),
        retake=np.zeros(n, bool),
        board_over=done,
        board_winner=winner,
        board_points=points,
    )


def _close_round(games: GameArrays, led: ArrayLedger, done: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int64], ...]:
    """Score the rounds that ended (CRK-4, CRK-5); end the games or deal the discs again.
    Returns each team's points, the round winner (-1: none or tie), the games that ended
    and the seat to open each next round."""
    n, t = len(games), games.n_teams
    points = np.zeros((n, t), np.int64)
    winner = np.full(n, -1, np.int64)
    first = (games.board_first + 1) % games.n_players
    over = np.zeros(n, bool)
    if not done.any():
        return points, winner, over, first
    totals = np.zeros((n, t), np.int64)
    totals[done] = round_totals(games.take(done), led.where[done], led.xy[done])
    led.note(done, "CRK-4")
    top = totals.max(axis=1)
    unique = np.count_nonzero(totals == top[:, None], axis=1) == 1
    if t == 2:
        diff = totals[:, 0] - totals[:, 1]
        points = np.stack([np.maximum(diff, 0), np.maximum(-diff, 0)], axis=1)
        winner = np.where(diff == 0, -1, (diff < 0).astype(np.int64))
    else:
        led.note(done, "CRK-5")
        points = totals
        winner = np.where(unique, np.argmax(totals, axis=1), -1)
    points = np.where(done[:, None], points, 0)
    winner = np.where(done, winner, -1)
    scores = games.game_scores + points
    best = scores.max(axis=1)
    over = done & (best >= games.options.game_target) & (np.count_nonzero(scores == best[:, None], axis=1) == 1)
    history = {g: games.board_history[g] + (tuple(int(v) for v in points[g]),) for g in np.flatnonzero(done).tolist()}
    led.change(done, board_history=history, game_scores=scores)
    led.change(over, game_over=True, winner=np.argmax(scores, axis=1))
    fresh = done & ~over
    led.where[fresh], led.xy[fresh], led.by[fresh] = HAND, np.nan, -1
    led.change(fresh, board_first=first, board_number=games.board_number + 1, board_shots=0, seat_shots=0)
    return points, winner, over, first
