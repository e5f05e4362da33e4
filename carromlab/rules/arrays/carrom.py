"""ICF and online carrom on arrays: the array form of
:func:`carromlab.rules.carrom.adjudicate_carrom`, read branch by branch under one
:class:`~carromlab.rules.carrom.CarromPolicy`."""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from .. import icf, online
from ..carrom import CarromPolicy, break_pieces, cites_return_place, no_time_limit
from ..ledger import side_direction
from .games import QUEEN, GameArrays, row_any
from .ledger import ArrayLedger, RulingArrays, check_outcomes
from .outcomes import FATES, OutcomeArrays

__all__ = ["POLICIES", "rules_of", "adjudicate_carrom"]

#: The policy of each carrom variant from its options.
POLICIES = {"icf": icf._policy, "online": online._policy}

BoolArray = npt.NDArray[np.bool_]
Q_BOARD, Q_PENDING, Q_COVERED = (QUEEN.index(s) for s in ("board", "pending", "covered"))


def rules_of(p: CarromPolicy) -> tuple[str, ...]:
    """The rule ids a carrom policy cites, sorted."""
    return tuple(sorted(set(p.ids.values())))


@functools.lru_cache(maxsize=16)
def _policy_of(variant: str, options: object) -> tuple[CarromPolicy, tuple[str, ...]]:
    """The policy of a carrom variant's options and the rule ids it cites (made once per options)."""
    p = POLICIES[variant](options)
    return p, rules_of(p)


def adjudicate_carrom(games: GameArrays, outcomes: OutcomeArrays, *, place: bool = True) -> RulingArrays:
    """Adjudicate N carrom shots (ICF or online rules, from ``games.variant``); see
    :func:`carromlab.rules.arrays.adjudicate_arrays`."""
    p, rules = _policy_of(games.variant, games.options)
    check_outcomes(games, outcomes)
    o, ids = outcomes, p.ids
    n, rows = len(games), np.arange(len(games))
    seat, team = games.shooter, games.team
    own, opp = games.colours[rows, team], games.colours[rows, 1 - team]
    queen = games.kind.tolist().index(games.code("queen"))
    pending = (games.queen_status == Q_PENDING) & (games.queen_team == team)
    status, qteam = games.queen_status.copy(), games.queen_team.copy()
    led = ArrayLedger(games, o, rules)
    queen_col = np.zeros((n, games.n_pieces), bool)
    queen_col[:, queen] = True

    def queen_back(m: BoolArray, rule: str) -> None:
        if not np.count_nonzero(m):  # (the queen rarely goes back)
            return
        led.send_back(m[:, None] & queen_col, rule)
        led.note(m, rule)
        status[m], qteam[m] = Q_BOARD, -1

    cont = np.zeros(n, bool)
    timed = o.timed_out
    if timed.any() and not p.timeouts:
        raise no_time_limit("outcomes", games.variant)
    if p.timeouts:
        led.note(timed, ids["timeout"])
    queen_back(timed & pending, ids["queen"])

    # a failed break (ICF-16, ONL-9) is decided on the state alone: nothing moves
    breaking = ~timed & (games.board_shots == 0)
    if not np.count_nonzero(breaking):  # (a board's first shot only)
        failed = breaking
    elif p.opening == "baseline":
        moved = row_any(led.fell) | row_any(o.left_board > 0)
        stayed = breaking & ~o.striker_left_baseline
        bad = stayed & (moved | o.touched.any(axis=1) | (o.fate != FATES.index("board")))
        if bad.any():
            g = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"The 'outcomes' parameter is inconsistent with the game state of game {g}: a striker that never left "
                "the baseline area cannot touch, pocket or move a coin, nor fall or leave the board."
            )
        failed = stayed
    else:
        failed = breaking & (o.first_touch < 0) & ~(row_any(led.fell) | row_any(o.left_board > 0))
    dropped = (p.opening == "miss") & (o.fate == FATES.index("pocketed"))
    retake = failed & ~dropped & (games.break_attempts + 1 < 3)
    led.note(failed, ids["opening"])
    led.change(failed & ~retake, board_shots=0, break_attempts=0)

    m = ~timed & ~failed
    led.apply_motion(m)
    off = (o.left_board > 0) | (o.on_frame > 0)
    if np.count_nonzero(off):  # (a few shots)
        off_order = np.where(o.left_board > 0, o.left_board, o.on_frame + o.left_board.max(axis=1, initial=0)[:, None])
        led.send_back(m[:, None] & off, ids["off_board"], off_order)
        led.note(m & row_any(off), ids["off_board"])
    fell_order = o.fell[:, :-1]
    own_now = m[:, None] & led.fell & led.of_kind(own)
    opp_now = m[:, None] & led.fell & led.of_kind(opp)
    any_own, any_opp = row_any(own_now), row_any(opp_now)
    queen_now = m & led.fell[:, queen]

    foul = m & (o.fate == FATES.index("pocketed"))
    led.foul(foul, ids["striker"])
    led.send_back(foul[:, None] & own_now, ids["striker"], fell_order)
    led.penalty(foul, team, 1, ids["striker"])
    queen_back(foul & queen_now, ids["striker"])
    queen_back(foul & pending, ids["queen"])
    cont[foul] = (any_own | (p.foul_continue_with_queen & queen_now))[foul]

    clean = m & ~foul
    cont[clean] = any_own[clean]
    led.note(clean & (any_own | any_opp), ids["pocket"])
    cover = clean & pending & any_own
    status[cover] = Q_COVERED
    led.note(cover, ids["queen"])
    queen_back(clean & pending & ~any_own, ids["queen"])
    pocketing = clean & queen_now
    if np.count_nonzero(pocketing):  # (the queen falls in a few shots)
        allowed = (games.count(own, "pocketed") >= 1) | (p.queen_with_first_coin & any_own)
        queen_back(pocketing & ~allowed, ids["queen"])
        same = pocketing & allowed & any_own
        status[same], qteam[same] = Q_COVERED, team[same]
        led.note(same, ids["same_shot_cover"])
        later = pocketing & allowed & ~any_own
        status[later], qteam[later] = Q_PENDING, team[later]
        cont |= later
        led.note(later, ids["queen"])
    led.pay_dues(m, ids["striker"], shooter_only=True)

    over, winner, points = _board_result(games, led, p, m, own, opp, own_now, opp_now, status, qteam)
    game_over, first = _close_board(games, led, p, over, winner, points)
    led.drop_returns(over & ~game_over)  # a new board is laid out: nothing is put back

    play = ~failed & ~over
    nxt = np.where(cont, seat, (seat + 1) % games.n_players)
    nxt = np.where(failed, np.where(retake, seat, (seat + 1) % games.n_players), nxt)
    # a game that ends keeps its last position: the pieces due back are put on it
    put, towards = play | game_over, np.where(game_over, seat, nxt)
    marks = games.board.marks
    circle = marks.centre_circle_radius if p.return_circle == "centre" else marks.outer_circle_radius
    reach = circle + dict(games.radii)["white"]
    if np.count_nonzero(led.returning):  # (pieces go back in a few shots)
        led.note(put & led.returning & cites_return_place(p, led.queued_under(ids["striker"])), ids["return_place"])
    far = _towards_seats(games.seat_sides)[towards] * -reach
    led.lead(queen)  # a returned queen takes the centre (ICF-5, ONL-2), then the coins
    led.place(put, (0.0, 0.0), within=reach, far=far, enabled=place)
    led.change(play | game_over, queen_status=status, queen_team=qteam)  # a game that ends keeps the queen's last status
    next_shooter = np.where(over, np.where(game_over, seat, first), nxt)
    return led.ruling(
        turn_continues=np.where(failed, retake, cont & play),
        next_shooter=next_shooter,
        retake=retake,
        board_over=over,
        board_winner=np.where(over, winner, -1),
        board_points=points,
    )


def _board_result(
    games: GameArrays, led: ArrayLedger, p: CarromPolicy, m: BoolArray, own: npt.NDArray, opp: npt.NDArray,
    own_now: BoolArray, opp_now: BoolArray, status: npt.NDArray, qteam: npt.NDArray,
) -> tuple[BoolArray, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Games whose board the shot ended, their winner and each team's points
    (ICF-7/8/9/14/15, ONL-5/6); see :func:`carromlab.rules.carrom._board_result`."""
    n, rows, team = len(games), np.arange(len(games)), games.team
    no_end = np.zeros(n, bool), np.full(n, -1, np.int64), np.zeros((n, 2), np.int64)
    own_sunk = m & row_any(led.still_pocketed(own_now))
    opp_sunk = m & row_any(led.still_pocketed(opp_now))
    if not (own_sunk | opp_sunk).any():  # no coin went in (most shots): no board ends
        return no_end
    own_left, opp_left = led.count(own), led.count(opp)
    own_last, opp_last = own_sunk & (own_left == 0), opp_sunk & (opp_left == 0)
    if not (own_last | opp_last).any():  # no last coin went in
        return no_end
    covered = status == Q_COVERED
    left = np.zeros((n, 2), np.int64)
    left[rows, team], left[rows, 1 - team] = own_left, opp_left
    points = np.zeros((n, 2), np.int64)
    winner = np.full(n, -1, np.int64)
    ids = p.ids
    if p.last_coin == "icf":
        lose_opp = opp_last
        led.foul(lose_opp, ids["opp_last"])
        points[rows[lose_opp], team[lose_opp]] -= p.loser_penalty
        lose_own = ~opp_last & own_last & ~covered
        led.foul(lose_own, ids["own_last"])
        w = 1 - team
        points[rows[lose_own], w[lose_own]] += left[rows, w][lose_own]
        loser = rows[lose_own], (team if p.own_last_reading == "shooter_loses_3" else w)[lose_own]
        points[loser] += -p.loser_penalty if p.own_last_reading == "shooter_loses_3" else p.loser_penalty
        win = ~opp_last & own_last & covered
        led.note(win, ids["win"])
        winner[lose_opp | lose_own] = w[lose_opp | lose_own]
        winner[win] = team[win]
        scored = lose_opp | win
        over = scored | lose_own
    else:
        lose = (own_last | opp_last) & ~covered
        led.foul(lose, ids["own_last"])
        win = covered & (own_last | opp_last)
        led.note(win, ids["win"])
        winner[lose] = 1 - team[lose]
        winner[win] = np.where(own_last, team, 1 - team)[win]
        scored = over = lose | win
    led.note(scored, ids["score"])
    w = np.maximum(winner, 0)
    bonus = np.zeros(n, np.int64)
    gets = scored & covered & ((p.queen_cap_basis != "leader") | (qteam == winner))
    basis = games.game_scores.max(axis=1) if p.queen_cap_basis == "leader" else games.game_scores[rows, w]
    capped = gets & (basis >= p.queen_cap)
    led.note(capped, ids["queen_cap"])
    bonus[gets & ~capped] = p.queen_points
    points[rows[scored], w[scored]] += np.maximum(p.min_board_points, left[rows, 1 - w] + bonus)[scored]
    return over, winner, points


def _close_board(games: GameArrays, led: ArrayLedger, p: CarromPolicy, over: BoolArray, winner: npt.NDArray[np.int64], points: npt.NDArray[np.int64]) -> tuple[BoolArray, npt.NDArray[np.int64]]:
    """Score the finished boards; end the games or set up their next board (ICF-10,
    ONL-7, ONL-10). Returns the games that ended and the seat to break each next board
    (read where a board is over only)."""
    n, rows = len(games), np.arange(len(games))
    if not over.any():  # (most shots)
        return np.zeros(n, bool), games.board_first
    scores = games.game_scores + points
    top = scores.max(axis=1)
    n_leaders = np.count_nonzero(scores == top[:, None], axis=1)
    last_board = games.board_number >= p.max_boards
    ends = over & ((top >= p.game_target) | last_board)
    if p.extra_boards_on_tie:
        ends &= n_leaders == 1
    led.note(over & (ends | last_board), p.ids["game"])
    history = {g: games.board_history[g] + (tuple(int(v) for v in points[g]),) for g in np.flatnonzero(over).tolist()}
    led.change(over, board_history=history, game_scores=scores)
    led.change(ends, game_over=True, winner=np.where(n_leaders == 1, np.argmax(scores, axis=1), -1))
    if p.next_board_first == "alternate":
        first = (games.board_first + 1) % games.n_players
    else:
        order = (games.board_first[:, None] + np.arange(1, games.n_players + 1)) % games.n_players
        pick = np.argmax(order % games.n_teams != np.maximum(winner, 0)[:, None], axis=1)
        first = order[rows, pick]
    fresh = over & ~ends
    if fresh.any():
        led.where[fresh] = 0
        led.xy[fresh] = _layout_xy(games.radii)
        led.by[fresh] = -1
        led.dues[fresh] = 0
        white, black = games.code("white"), games.code("black")
        colours = np.where((first % games.n_teams == 0)[:, None], [white, black], [black, white])
        led.change(
            fresh, colours=colours, board_first=first, shot_in_turn=0, board_shots=0, break_attempts=0,
            seat_shots=0, queen_status=Q_BOARD, queen_team=-1, board_number=games.board_number + 1,
        )  # fmt: skip
    return ends, first


@functools.lru_cache(maxsize=16)
def _towards_seats(seat_sides: tuple[str, ...]) -> npt.NDArray[np.float64]:
    """Unit vector from the board centre towards each seat (read-only), shape (S, 2)."""
    out = np.array([side_direction(s) for s in seat_sides])
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=16)
def _layout_xy(radii: tuple[tuple[str, float], ...]) -> npt.NDArray[np.float64]:
    """Centres of the pieces of a new board (ICF-2, unrotated) in piece order, m, shape
    (P, 2), for the discs' radii: laid out once per radii (read-only)."""
    xy = np.array([(pc.x, pc.y) for pc in break_pieces(dict(radii), 0.0)])
    xy.flags.writeable = False
    return xy
