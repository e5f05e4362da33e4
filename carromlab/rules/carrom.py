"""Machinery shared by the carrom variants (ICF and the online rules): setup, striker
placement on the baselines, queen and cover, striker fouls, board and game scoring.

Each variant states its reading of the rules as a :class:`CarromPolicy`; the rule ids
recorded in rulings come from the policy, so ICF and ONL rulings cite their own rules.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .._angles import angle_value
from ..equipment.board import Board
from ..equipment.disc import DiscSpec
from ..equipment.layout import default_specs, icf_break
from .ledger import Ledger, check_outcome, far_side_point, next_seat
from .outcome import ShotOutcome
from .placement import Area, Region, band_grid
from .ruling import Ruling
from .spots import occupied
from .state import GameState, Piece

__all__ = ["CarromPolicy", "new_carrom_game", "rotate_break", "carrom_region", "adjudicate_carrom"]

#: Tolerance for "on the centre line" in online placement, m.
LINE_TOL = 1e-6


@dataclass(frozen=True)
class CarromPolicy:
    """One variant's reading of the common carrom rules.

    Parameters
    ----------
    ids : mapping of str to str
        Rule id cited for each concept: ``pocket``, ``queen``, ``same_shot_cover``,
        ``win``, ``score``, ``queen_cap``, ``game``, ``striker``, ``off_board``,
        ``return_place``, ``opp_last``, ``own_last``, ``opening`` and, with
        ``timeouts``, ``timeout``.
    queen_with_first_coin : bool
        The queen may fall on the same shot as the shooter's first own coin (ONL-2);
        False: only after an own coin is already down (ICF-5).
    foul_continue_with_queen : bool
        After a striker foul the shooter continues if the queen fell too (ONL-3), not
        only when own coins fell (ICF-11).
    opening : {"baseline", "miss"}
        Break retake condition: the striker did not leave the baseline area (ICF-16), or
        it missed every coin (ONL-9).
    last_coin : {"icf", "online"}
        Last-coin rules: ICF-14/ICF-15, or ONL-5.
    own_last_reading : {"shooter_loses_3", "opponent_gains_3"}
        ICF-15: the shooter loses 3 points, or the opponent gains them.
    loser_penalty : int
        Points the shooter loses under ICF-14/ICF-15.
    queen_points : int
        Value of the covered queen.
    queen_cap_basis : {"leader", "winner"}
        Queen points stop once the leader's total (ICF-9) or the winner's previous total
        (ONL-6) reaches 22.
    min_board_points : int
        Smallest board score of the winner (ONL-6: 1).
    game_target : int
        Total that ends the game.
    extra_boards_on_tie : bool
        A tie after 8 boards is played on (ONL-7) instead of being a draw (ICF-10).
    next_board_first : {"alternate", "loser"}
        Who breaks the next board.
    return_circle : {"centre", "outer"}
        Circle that returned coins are placed on (ICF-13 centre circle, ONL-3 outer).
    timeouts : bool
        Whether a timed-out shot is possible (ONL-8).
    """

    ids: Mapping[str, str]
    queen_with_first_coin: bool
    foul_continue_with_queen: bool
    opening: Literal["baseline", "miss"]
    last_coin: Literal["icf", "online"]
    own_last_reading: Literal["shooter_loses_3", "opponent_gains_3"]
    loser_penalty: int
    queen_points: int
    queen_cap_basis: Literal["leader", "winner"]
    min_board_points: int
    game_target: int
    extra_boards_on_tie: bool
    next_board_first: Literal["alternate", "loser"]
    return_circle: Literal["centre", "outer"]
    timeouts: bool

    #: Queen points stop at this total (ICF-9, ONL-6).
    queen_cap = 22
    #: Boards after which the game ends (ICF-10, ONL-7).
    max_boards = 8


def no_time_limit(name: str, variant: str) -> ValueError:
    """The error for a timed-out shot (ONL-8) in a game without a time limit; ``name``
    is the outcome parameter's."""
    why = "OnlineHouseRules.turn_time is None; ONL-8 needs 30 or 60 s" if variant == "online" else "ICF play is untimed"
    return ValueError(f"The {name!r} parameter must not be timed out: this {variant} game has no time limit ({why}). Got timed_out=True instead.")


def cites_return_place(p: CarromPolicy, striker_returns: Any) -> Any:
    """Whether the rule placing returned pieces is cited, given whether pieces go back
    under the striker rule (bool, or one per game). ICF-13 places every returned coin;
    ONL-3 is the striker rule itself and places only what it returns (a queen back
    after a failed cover returns under ONL-2, a coin off the board under ICF-12)."""
    return striker_returns | (p.ids["return_place"] != p.ids["striker"])


# ---------------------------------------------------------------------------- setup
def break_pieces(radii: Mapping[str, float], rotation: float) -> tuple[Piece, ...]:
    """The carrom men and queen of the break (ICF-1's layout) with the given radii, m,
    rotated by ``rotation``, rad: also the array rules' layout of a new board."""
    coin = DiscSpec.icf_coin().with_(radius=radii["white"])
    queen = DiscSpec.icf_queen().with_(radius=radii["queen"])
    df = icf_break(rotation, coin=coin, queen=queen)
    return tuple(Piece(i, k, "board", float(x), float(y)) for i, (k, x, y) in enumerate(zip(df["kind"], df["x"], df["y"])))


def _fresh_board(n_players: int, n_teams: int, radii: Mapping[str, float], first: int, rotation: float = 0.0) -> dict[str, Any]:
    """Fields of a state at the start of a board broken by seat ``first`` (ICF-1, ICF-2)."""
    breaker = first % n_teams
    return {
        "pieces": break_pieces(radii, rotation),
        "colours": ("white", "black") if breaker == 0 else ("black", "white"),
        "shooter": first,
        "board_first": first,
        "shot_in_turn": 0,
        "board_shots": 0,
        "break_attempts": 0,
        "seat_shots": (0,) * n_players,
        "queen_status": "board",
        "queen_team": None,
        "dues": (0,) * n_teams,
    }


def new_carrom_game(
    variant: str, options: Any, players: int, board: Board | None, radii: Mapping[str, float] | None, rotation: float
) -> GameState:
    """A carrom game at its first break (ICF-1, ICF-2), the arrangement turned by
    ``rotation`` (rad, already checked); see ``icf.new_game``."""
    if players not in (2, 4):
        raise ValueError(f"The 'players' parameter must be 2 or 4. Got {players!r} instead.")
    board = Board.icf() if board is None else board
    sizes = {k: s.radius for k, s in default_specs("icf").items()} | dict(radii or {})
    sides = ("south", "north") if players == 2 else ("south", "east", "north", "west")
    return GameState(
        variant=variant,
        options=options,
        board=board,
        radii=tuple(sorted(sizes.items())),
        seat_sides=sides,
        striker_id=19,
        **_fresh_board(players, 2, sizes, 0, rotation),
    )


def rotate_break(state: GameState, angle: float | None = None, *, angle_deg: float | None = None) -> GameState:
    """Rotate the break arrangement before the break (ICF-1: the breaker's choice).

    Parameters
    ----------
    state : GameState
        A carrom state before the first attempt at the break.
    angle : float, optional
        Counter-clockwise rotation about the centre, rad, in [-2 pi, 2 pi].
    angle_deg : float, optional
        The rotation in degrees instead, in [-360, 360]. Give exactly one of ``angle``
        and ``angle_deg``.

    Returns
    -------
    GameState
        The same state with the coins and queen turned by the angle.

    Raises
    ------
    ValueError
        If the board has already been broken or attempted, or the angle is missing,
        given twice or out of range.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> turned = rotate_break(icf.new_game(), angle_deg=30)
    >>> round(turned.piece(1).x, 4) != round(icf.new_game().piece(1).x, 4)
    True
    """
    if state.variant not in ("icf", "online") or state.board_shots or state.break_attempts:
        raise ValueError("The 'state' parameter must be a carrom board before its break (ICF-1). Got a broken board instead.")
    return state.with_(pieces=break_pieces(dict(state.radii), angle_value("angle", angle, angle_deg)))


# ---------------------------------------------------------------------------- placement
def carrom_region(state: GameState, board: Board, radius: float, *, rule: str, centre_line: bool) -> Region:
    """Legal striker centres of the seat to shoot (ICF-3; ONL-1 with ``centre_line``).

    The striker touches both baselines, covers each base circle completely or keeps
    clear of it, does not touch an arrow (the board's :meth:`Baseline.striker_allowed`)
    and does not overlap a piece. Online, it also slides on the baselines' centre line.
    """
    area = side_area(board, state.seat_sides[state.shooter], radius, rule, centre_line)
    return Region(area, [(f"{rule}: the striker must not overlap a piece", occupied(state.pieces, state.radius), 0.0)])


@functools.lru_cache(maxsize=256)
def side_area(board: Board, side: str, radius: float, rule: str, centre_line: bool) -> Area:
    """The constraints of :func:`carrom_region` on the marks of one side."""
    line = board.baseline(side)  # type: ignore[arg-type]
    constraints = [
        (
            f"{rule}: the striker must touch both baselines, cover each base circle completely or not "
            "touch it, and not touch an arrow",
            lambda x, y: line.striker_allowed(x, y, radius),
        ),
    ]
    if centre_line:
        constraints.insert(
            0, (f"{rule}: the striker slides on the centre line of the baselines", lambda x, y: line.centre.distance(x, y) <= LINE_TOL)
        )
    across = 0.0 if centre_line else max(line.striker_band(radius), 0.0)
    grid = band_grid(line.centre, across, 0.0 if centre_line else radius)
    return Area(rule, constraints, grid, radius, near=(line.centre, LINE_TOL) if centre_line else None, baseline=line)


# ---------------------------------------------------------------------------- adjudication
def _opening(state: GameState, outcome: ShotOutcome, p: CarromPolicy) -> Ruling | None:
    """The ruling on a failed break (ICF-16, ONL-9), or None when the break counts.

    Under ICF-16 a striker that never left the baseline area
    (:meth:`~carromlab.equipment.Baseline.area_contains`) is still on the board: the
    pockets and the frame lie outside the area, as every coin of the break's pack.
    """
    moved = bool(outcome.pocketed_ids or outcome.left_board)
    if p.opening == "baseline":
        if outcome.striker_left_baseline:
            return None
        if moved or outcome.striker_touched or outcome.striker_fate != "board":
            raise ValueError(
                "The 'outcome' parameter is inconsistent with the game state: a striker that never left "
                "the baseline area cannot touch, pocket or move a coin, nor fall or leave the board. Got "
                f"striker_touched {list(outcome.striker_touched)}, pocketed {list(outcome.pocketed_ids)}, "
                f"left_board {list(outcome.left_board)}, striker_fate {outcome.striker_fate!r}."
            )
    elif outcome.first_touch is not None or moved:
        return None
    led = Ledger(state, outcome)
    led.note(p.ids["opening"])
    seat = state.shooter
    dropped = p.opening == "miss" and outcome.striker_fate == "pocketed"
    if not dropped and state.break_attempts + 1 < 3:
        return led.ruling(turn_continues=True, retake=True, next_shooter=seat)
    return led.ruling(turn_continues=False, next_shooter=next_seat(state, seat), board_shots=0, break_attempts=0)


def _board_result(state: GameState, led: Ledger, p: CarromPolicy, team: int, own_now: list[int], opp_now: list[int], status: str, qteam: int | None) -> tuple[int, list[int]] | None:
    """Winner and points of each team if the shot ended the board (ICF-7/8/9/14/15, ONL-5/6)."""
    own, opp = state.colours[team], state.colours[1 - team]
    own_left, opp_left = led.count(own), led.count(opp)
    own_last = own_left == 0 and bool(led.still_pocketed(own_now))
    opp_last = opp_left == 0 and bool(led.still_pocketed(opp_now))
    covered = status == "covered"
    left = {team: own_left, 1 - team: opp_left}
    points = [0, 0]

    def bonus(winner: int) -> int:
        if not covered or (p.queen_cap_basis == "leader" and qteam != winner):
            return 0
        basis = max(state.game_scores) if p.queen_cap_basis == "leader" else state.game_scores[winner]
        if basis >= p.queen_cap:
            led.note(p.ids["queen_cap"])
            return 0
        return p.queen_points

    if p.last_coin == "icf":
        if opp_last:
            winner = 1 - team
            led.foul(p.ids["opp_last"], "pocketed the opponent's last coin")
            points[team] -= p.loser_penalty
        elif own_last and not covered:
            winner = 1 - team
            led.foul(p.ids["own_last"], "pocketed the last own coin before the queen was covered")
            points[winner] += left[winner]
            if p.own_last_reading == "shooter_loses_3":
                points[team] -= p.loser_penalty
            else:
                points[winner] += p.loser_penalty
            return winner, points
        elif own_last:
            winner = team
            led.note(p.ids["win"])
        else:
            return None
    elif (own_last or opp_last) and not covered:
        winner = 1 - team
        led.foul(p.ids["own_last"], "pocketed a last coin before the queen was covered")
    elif covered and (own_last or opp_last):
        winner = team if own_last else 1 - team
        led.note(p.ids["win"])
    else:
        return None
    led.note(p.ids["score"])
    points[winner] += max(p.min_board_points, left[1 - winner] + bonus(winner))
    return winner, points


def _close_board(state: GameState, led: Ledger, p: CarromPolicy, winner: int, points: list[int], status: str, qteam: int | None) -> Ruling:
    """Score a finished board, end the game or set up the next board (ICF-10, ONL-7, ONL-10);
    a game that ends keeps the queen's last status (``status``, ``qteam``)."""
    scores = tuple(s + d for s, d in zip(state.game_scores, points))
    top = max(scores)
    leaders = [t for t, s in enumerate(scores) if s == top]
    over = top >= p.game_target or state.board_number >= p.max_boards
    if over and len(leaders) > 1 and p.extra_boards_on_tie:
        over = False
    if over or state.board_number >= p.max_boards:
        led.note(p.ids["game"])
    common = {
        "board_history": state.board_history + (tuple(points),),
        "game_scores": scores,
    }
    if over:  # the game ends on this position: the pieces due back are put on it
        _put_back(state, led, p, state.shooter)
        return led.ruling(
            turn_continues=False, next_shooter=state.shooter, board_over=True, board_winner=winner,
            board_points=tuple(points), game_over=True, winner=leaders[0] if len(leaders) == 1 else None,
            queen_status=status, queen_team=qteam, **common,
        )
    if p.next_board_first == "alternate":
        first = next_seat(state, state.board_first)
    else:
        order = [(state.board_first + k) % state.n_players for k in range(1, state.n_players + 1)]
        first = next(s for s in order if s % state.n_teams != winner)
    led.drop_returns()  # a new board is laid out: nothing is put back
    fresh = _fresh_board(state.n_players, state.n_teams, dict(state.radii), first)
    led.pieces = {pc.id: pc for pc in fresh.pop("pieces")}
    led.dues = list(fresh.pop("dues"))
    return led.ruling(
        turn_continues=False, next_shooter=first, board_over=True, board_winner=winner,
        board_points=tuple(points), board_number=state.board_number + 1, **fresh, **common,
    )


def adjudicate_carrom(state: GameState, outcome: ShotOutcome, p: CarromPolicy) -> Ruling:
    """Adjudicate one carrom shot under policy ``p``; see ``icf.adjudicate``."""
    check_outcome(state, outcome)
    seat, team = state.shooter, state.team_of(state.shooter)
    ids = p.ids
    own, opp = state.colours[team], state.colours[1 - team]
    queen_id = next(pc.id for pc in state.pieces if pc.kind == "queen")
    pending = state.queen_status == "pending" and state.queen_team == team
    status, qteam = state.queen_status, state.queen_team
    led = Ledger(state, outcome)

    def queen_back(rule: str) -> None:
        nonlocal status, qteam
        led.send_back([queen_id], rule)
        led.note(rule)
        status, qteam = "board", None

    if outcome.timed_out:
        if not p.timeouts:
            raise no_time_limit("outcome", state.variant)
        led.note(ids["timeout"])
        if pending:
            queen_back(ids["queen"])
        cont = False
    else:
        if state.board_shots == 0:
            retake = _opening(state, outcome, p)
            if retake is not None:
                return retake
        led.apply_motion()
        led.send_back(outcome.left_board + outcome.on_frame, ids["off_board"])
        if outcome.left_board or outcome.on_frame:
            led.note(ids["off_board"])
        kinds = {pid: state.piece(pid).kind for pid in outcome.pocketed_ids}
        own_now = [pid for pid, k in kinds.items() if k == own]
        opp_now = [pid for pid, k in kinds.items() if k == opp]
        queen_now = queen_id in kinds
        if outcome.striker_fate == "pocketed":
            led.foul(ids["striker"], "striker pocketed")
            led.send_back(own_now, ids["striker"])
            led.penalty(own, 1, ids["striker"])
            if queen_now:
                queen_back(ids["striker"])
            if pending:
                queen_back(ids["queen"])
            cont = bool(own_now) or (p.foul_continue_with_queen and queen_now)
        else:
            cont = bool(own_now)
            if own_now or opp_now:
                led.note(ids["pocket"])
            if pending:
                if own_now:
                    status = "covered"
                    led.note(ids["queen"])
                else:
                    queen_back(ids["queen"])
            if queen_now:
                if not (state.count(own, "pocketed") >= 1 or (p.queen_with_first_coin and own_now)):
                    queen_back(ids["queen"])
                elif own_now:
                    status, qteam = "covered", team
                    led.note(ids["same_shot_cover"])
                else:
                    status, qteam = "pending", team
                    cont = True
                    led.note(ids["queen"])
        led.pay_dues(ids["striker"], shooter_only=True)  # "the next coin you pocket" (seed 002, ONL-3; ICF-11)
        result = _board_result(state, led, p, team, own_now, opp_now, status, qteam)
        if result is not None:
            return _close_board(state, led, p, *result, status, qteam)
    nxt = seat if cont else next_seat(state, seat)
    _put_back(state, led, p, nxt)
    return led.ruling(turn_continues=cont, next_shooter=nxt, queen_status=status, queen_team=qteam)


def _put_back(state: GameState, led: Ledger, p: CarromPolicy, seat: int) -> None:
    """Place the returned pieces on the return circle, else beyond it as seen by ``seat``
    (ICF-13, ONL-3): a returned queen first, so that it takes the centre (ICF-5, ONL-2:
    it returns to the centre), then the coins in the order they were sent back."""
    led.lead(next(pc.id for pc in state.pieces if pc.kind == "queen"))
    marks = state.board.marks
    circle = marks.centre_circle_radius if p.return_circle == "centre" else marks.outer_circle_radius
    reach = circle + state.radius("white")
    if led.returning and cites_return_place(p, led.queued_under(p.ids["striker"])):
        led.note(p.ids["return_place"])
    led.place((0.0, 0.0), within=reach, far=far_side_point(state, seat, reach))
