"""Hikone carrom on arrays: the array form of :func:`carromlab.rules.hikone.adjudicate`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..hikone import JACK_SCORE, PUCKS
from .games import GameArrays, row_any, row_counts
from .ledger import ArrayLedger, RulingArrays, check_outcomes
from .outcomes import FATES, OutcomeArrays, entry_rows

__all__ = ["RULES", "adjudicate_hikone", "inside_own_area"]

#: The rule ids of the Hikone rulings.
RULES = ("HIK-3", "HIK-4", "HIK-5", "HIK-6", "HIK-7", "HIK-8", "HIK-9", "HIK-10", "HIK-11")

BoolArray = npt.NDArray[np.bool_]


def inside_own_area(games: GameArrays, xy: npt.NDArray[np.float64], radius: npt.ArrayLike) -> BoolArray:
    """Whether discs lie wholly between each shooter's area line and cushion (HIK-9);
    the array form of :func:`carromlab.rules.hikone.inside_own_area`.

    Parameters
    ----------
    games : GameArrays
        The games (their shooters' sides).
    xy : numpy.ndarray, shape (N, ..., 2)
        Disc centres, m: one or more per game (row ``g`` seen by game ``g``'s shooter).
    radius : array_like, shape (N, ...) or broadcasting to it
        Disc radii, m.
    """
    return _inside(games, games.shooter, xy, radius)


def _inside(games: GameArrays, seat: npt.NDArray[np.int64], xy: npt.NDArray[np.float64], radius: npt.ArrayLike) -> BoolArray:
    """:func:`inside_own_area` of discs ``xy`` (M, ..., 2) seen by the seats ``seat`` (M,) of ``games``."""
    depth = np.full(xy.shape[:-1], np.nan)
    for k in set(seat.tolist()):  # the seats shooting (a few games: often none)
        rows = seat == k
        depth[rows] = games.board.side_coordinates(games.seat_sides[k], xy[rows, ..., 0], xy[rows, ..., 1])[1]
    return depth + np.asarray(radius) < games.board.marks.area_line_offset


def adjudicate_hikone(games: GameArrays, outcomes: OutcomeArrays, *, place: bool = True) -> RulingArrays:
    """Adjudicate N Hikone shots; see :func:`carromlab.rules.arrays.adjudicate_arrays`."""
    check_outcomes(games, outcomes)
    o = outcomes
    n, p, rows = len(games), games.n_pieces, np.arange(len(games))
    seat, team = games.shooter, games.team
    own = games.colours[rows, team]
    led = ArrayLedger(games, o, RULES)
    timed = o.timed_out
    led.note(timed, "HIK-10")

    m = ~timed
    if games.n_players == 4:  # the pieces hit directly, one (game, piece) pair each
        if games.options.every_direct_hit:
            g, j = np.divmod(np.flatnonzero(o.touched_before_frame & m[:, None]), p)  # np.nonzero, quicker
        else:  # the first piece touched, if hit directly
            g = np.flatnonzero(m & (o.first_touch >= 0))
            g = g[o.touched_before_frame[g, o.first_touch[g]]]
            j = o.first_touch[g]
        hit_inside = np.zeros(n, bool)
        hit_inside[g[_inside(games, seat[g], games.xy[g, j], games.radius_of()[j])]] = True
        led.foul(hit_inside, "HIK-9")
        led.penalty(hit_inside, team, 1, "HIK-9")
        m &= ~hit_inside
    led.apply_motion(m)
    jack = games.kind.tolist().index(games.code("jack"))
    not_jack = np.arange(p) != jack
    fell_order = o.fell[:, :-1]
    own_now = m[:, None] & led.fell & led.of_kind(own)
    off = (o.left_board > 0) | (o.on_frame > 0)
    striker_foul = o.fate != FATES.index("board")
    jack_now, jack_off = m & led.fell[:, jack], m & off[:, jack]
    jack_moved = jack_now | jack_off
    won, last = np.zeros(n, bool), np.zeros(n, bool)
    won_points = np.zeros((n, 2), np.int64)  # read in the games won only
    g_jack = jack_now.nonzero()[0]  # own pucks on the board before the shot, where the jack fell (few games)
    if g_jack.size:
        own_on_board = games.count(own[g_jack], rows=g_jack)
        won[g_jack] = ~striker_foul[g_jack] & (own_on_board == 0)
        last[g_jack] = own_on_board == row_counts(own_now[g_jack])
        g_won = won.nonzero()[0]
        led.note(g_won, "HIK-4", "HIK-11")
        t_won = team[g_won]
        won_points[g_won, t_won] = JACK_SCORE + PUCKS
        won_points[g_won, 1 - t_won] = PUCKS - led.count(games.colours[g_won, 1 - t_won], rows=g_won)

    r = m & ~won
    g_jacked = (r & jack_moved).nonzero()[0]
    if g_jacked.size:
        led.send_back(np.broadcast_to(~not_jack, (len(g_jacked), p)), "HIK-5", rows=g_jacked)
    g_off = entry_rows(off)  # the games with pieces off the board (few)
    if g_off.size:
        left_off, frame_off = o.left_board[g_off], o.on_frame[g_off]
        off_order = np.where(left_off > 0, left_off, frame_off + left_off.max(axis=1, initial=0)[:, None])
        going = r[g_off, None] & off[g_off]
        for colour in (games.colours[g_off, 1 - team[g_off]], own[g_off]):
            led.send_back(going & led.of_kind(colour), "HIK-8", off_order, rows=g_off)
        led.note(g_off[row_any(going & not_jack)], "HIK-8")
    led.note(r & row_any(led.fell & not_jack), "HIK-3")
    g_fouled = (r & striker_foul).nonzero()[0]
    if g_fouled.size:
        led.foul(g_fouled, "HIK-7")
        led.send_back(own_now[g_fouled], "HIK-7", fell_order[g_fouled], rows=g_fouled)
        led.penalty(g_fouled, team, 1, "HIK-7")
    if g_jacked.size:
        voiding = jack_now[g_jacked] & (games.options.void_pucks_with_jack | last[g_jacked])
        voided = voiding[:, None] & led.still_pocketed(own_now[g_jacked], rows=g_jacked)
        led.foul(g_jacked[row_any(voided)], "HIK-6")
        led.send_back(voided, "HIK-6", fell_order[g_jacked], rows=g_jacked)
        led.foul(g_jacked, "HIK-5")
        led.penalty(g_jacked, team, 5, "HIK-5")
    cont = r & row_any(led.still_pocketed(own_now)) & ~(striker_foul | jack_moved)
    led.pay_dues(r, "HIK-5", shooter_only=False)

    # _finish: every game but the won ones
    play = ~won
    nxt = np.where(cont, seat, (seat + 1) % games.n_players)
    led.place(play, (0.0, 0.0), enabled=place)
    decided = np.zeros(n, bool)
    left = np.zeros((n, 2), np.int64)  # read in the games whose round ended only
    if np.count_nonzero(games.time_called):  # (a timed game only)
        g_end = (play & games.time_called & ~cont & (nxt == 0)).nonzero()[0]
        led.note(g_end, "HIK-10")
        if g_end.size:
            left[g_end] = np.stack([led.count(games.colours[g_end, t], rows=g_end) for t in range(2)], axis=1)
            decided[g_end] = left[g_end, 0] != left[g_end, 1]
    over = won | decided
    if np.count_nonzero(over):  # (a board ends: rarely)
        points = np.where(won[:, None], won_points, np.where(decided[:, None], PUCKS - left, 0))
        winner = np.where(won, team, np.where(decided, np.argmin(left, axis=1), -1))
        history = {g: (tuple(int(v) for v in points[g]),) for g in np.flatnonzero(over).tolist()}
        led.change(over, game_scores=points, board_history=history, game_over=True, winner=winner)
    else:
        points, winner = won_points, np.full(n, -1)
    return led.ruling(
        turn_continues=cont & ~decided,
        next_shooter=np.where(won, seat, nxt),
        retake=np.zeros(n, bool),
        board_over=over,
        board_winner=winner,
        board_points=points,
    )
