"""Hikone carrom, singles and doubles (rules HIK-1..HIK-11; seed 001).

Returned pucks and the jack are stacked on the jack spot in play; a flat model cannot
stack, so each one is placed at the free spot nearest the jack spot, in stacking order
(the jack first, as it goes on top and so stays on the spot; then the opponent's pucks,
which go underneath; then the shooter's).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .._validation import check_bool, check_int, check_type
from ..equipment.board import Board, Segment
from ..equipment.layout import default_specs, hikone_start
from .ledger import Ledger, check_outcome, next_seat
from .outcome import ShotOutcome
from .placement import Area, Region, band_grid, disc_grid, placement_functions
from .ruling import Ruling
from .spots import clear_of, occupied
from .state import GameState, Piece, register_json_type

__all__ = ["HikoneOptions", "new_game", "check_placement", "snap_placement", "snap_placements", "placement_region", "adjudicate", "call_time", "inside_own_area"]

#: Pucks of each colour (HIK-1), and the score for pocketing the jack (HIK-11).
PUCKS = 12
JACK_SCORE = 100
#: Clearance below which the striker counts as touching a piece, m (doubles, HIK-2).
CONTACT = 1e-6


@register_json_type
@dataclass(frozen=True)
class HikoneOptions:
    """Readings of the Hikone rules.

    Parameters
    ----------
    void_pucks_with_jack : bool
        False (default, the digest's HIK-6: "Last own puck(s) and jack in the same
        shot"): own pucks pocketed on the same shot as the jack are void only when they
        were the shooter's last ones (6 back); otherwise they count (HIK-3) and the jack
        penalty is the 5 pucks of HIK-5. True (seed 001's sentence read for any such
        shot): own pucks pocketed with the jack are always void and go back with the 5.
    every_direct_hit : bool
        HIK-9 in doubles. False (default, seed 001): the striker may hit a piece inside
        the own area "indirectly, by first hitting a puck or the jack outside the area
        line, or the frame outside it (the sides or the front)", so only its first
        contact can be a direct hit, and not after such a frame. True (a stricter
        reading of the digest's "must not directly hit"): every striker hit on a piece
        wholly inside the own area is a foul until the striker has hit such a frame,
        also after a first hit outside the area.
    """

    void_pucks_with_jack: bool = False
    every_direct_hit: bool = False

    def __post_init__(self) -> None:
        for name in ("void_pucks_with_jack", "every_direct_hit"):
            check_bool(name, getattr(self, name))


def new_game(
    players: int = 2,
    *,
    options: HikoneOptions | None = None,
    board: Board | None = None,
    radii: Mapping[str, float] | None = None,
) -> GameState:
    """A new Hikone game (HIK-1).

    The 24 pucks alternate on the centre circle with the jack on the jack spot (the
    equipment's layout: jack id 0, pucks 1-24, red first); the striker is id 25. Seat 0
    won rock-paper-scissors and plays red, first; play goes clockwise (HIK-3): singles
    south and north, doubles south, west, north, east with partners facing each other.

    Parameters
    ----------
    players : {2, 4}
        Singles or doubles.
    options : HikoneOptions, optional
        Default ``HikoneOptions()``.
    board : Board, optional
        Default :meth:`Board.hikone`.
    radii : mapping of str to float, optional
        Radius (m) of ``"red"``, ``"green"``, ``"jack"``, ``"striker"`` overriding the
        equipment defaults.

    Returns
    -------
    GameState
    """
    players = check_int("players", players, low=2, high=4)
    if players == 3:
        raise ValueError("The 'players' parameter must be 2 or 4. Got 3 instead.")
    options = HikoneOptions() if options is None else check_type("options", options, (HikoneOptions, type(None)))
    board = Board.hikone() if board is None else board
    specs = default_specs("hikone")
    specs = {k: s.with_(radius=dict(radii or {}).get(k, s.radius)) for k, s in specs.items()}
    df = hikone_start(puck=specs["red"], jack=specs["jack"], board=board)
    pieces = tuple(Piece(i, k, "board", float(x), float(y)) for i, (k, x, y) in enumerate(zip(df["kind"], df["x"], df["y"])))
    return GameState(
        variant="hikone",
        options=options,
        board=board,
        radii=tuple(sorted((k, s.radius) for k, s in specs.items())),
        colours=("red", "green"),
        seat_sides=("south", "north") if players == 2 else ("south", "west", "north", "east"),
        pieces=pieces,
        striker_id=len(pieces),
    )


def inside_own_area(state: GameState, seat: int, x: float, y: float, radius: float) -> bool:
    """Whether a disc lies wholly between ``seat``'s area line and their cushion (HIK-9).

    A disc touching or overlapping the line, seen from above, is on the line, not inside.

    Parameters
    ----------
    state : GameState
        The game.
    seat : int
        The shooter.
    x, y : float
        Disc centre, m.
    radius : float
        Disc radius, m.
    """
    _, depth = state.board.side_coordinates(state.seat_sides[seat], x, y)
    return bool(depth + radius < state.board.marks.area_line_offset)


def _lies_inside(state: GameState, seat: int, pid: int) -> bool:
    """Whether piece ``pid`` lay wholly inside ``seat``'s area before the shot (HIK-9)."""
    p = state.piece(pid)
    return inside_own_area(state, seat, p.x, p.y, state.radius(p.kind))


def _region(state: GameState, board: Board, radius: float) -> Region:
    """Legal striker centres (HIK-2): the tee spot first, then the area line."""
    seat = state.shooter
    side = state.seat_sides[seat]
    discs = occupied(state.pieces, state.radius)
    blockers = [("HIK-2: the striker must not overlap a piece", discs, 0.0)]
    if state.n_players == 4:
        inside = np.array([(p.x, p.y, state.radius(p.kind)) for p in state.pieces if p.position is not None
                           and inside_own_area(state, seat, p.x, p.y, state.radius(p.kind))]).reshape(-1, 3)
        blockers.append(("HIK-2: in doubles the striker must not touch a piece inside the own area line", inside, CONTACT))
    tee = board.area_line(side).tee_spot  # type: ignore[arg-type]
    first = state.seat_shots[seat] == 0
    blocked = first and not clear_of(np.array([tee.x]), np.array([tee.y]), radius, discs)[0]
    return Region(_area(board, side, radius, first, bool(blocked)), blockers)


@functools.lru_cache(maxsize=256)
def _area(board: Board, side: str, radius: float, first: bool, tee_blocked: bool) -> Area:
    """The constraint of :func:`_region` on the marks of one side: the tee spot (its
    outline when blocked) for the seat's first shot, else the area line."""
    line = board.area_line(side)  # type: ignore[arg-type]
    if first:
        tee = line.tee_spot
        if not tee_blocked:
            reach = tee.radius
            text = "HIK-2: the first shot is played from the own tee spot"
        else:
            reach = tee.radius + radius
            text = "HIK-2: the tee spot is blocked; the striker must touch its outline"
        # the tee spot as a segment of no length: the same distance as hypot(x - tee.x, y - tee.y)
        return Area.near_segment("HIK-2", text, Segment(tee.x, tee.y, tee.x, tee.y), reach, disc_grid((tee.x, tee.y), reach), radius)
    text = "HIK-2: the striker must be placed on the own area line"
    return Area.near_segment("HIK-2", text, line.line, radius, band_grid(line.line, radius, radius), radius)


check_placement, snap_placement, snap_placements, placement_region = placement_functions("HIK-2", _region)


def call_time(state: GameState) -> GameState:
    """The match time has run out (HIK-10).

    Play goes on until the last seat of the round has played; then the side with fewer
    pucks on the board wins, or, if equal, rounds are played one at a time until one
    side has fewer. A turn skipped for the 10-second limit is a timed-out outcome.

    Parameters
    ----------
    state : GameState
        A Hikone game in progress.

    Returns
    -------
    GameState
        The same state with ``time_called`` set.
    """
    if state.variant != "hikone" or state.game_over:
        raise ValueError("The 'state' parameter must be a Hikone game in progress.")
    return state.with_(time_called=True)


def _finish(state: GameState, led: Ledger, cont: bool) -> Ruling:
    seat = state.shooter
    nxt = seat if cont else next_seat(state, seat)
    led.place((0.0, 0.0))
    if state.time_called and not cont and nxt == 0:
        led.note("HIK-10")
        left = [led.count(c) for c in state.colours]
        if left[0] != left[1]:
            winner = int(np.argmin(left))
            points = tuple(PUCKS - n for n in left)
            return led.ruling(
                turn_continues=False, next_shooter=nxt, board_over=True, board_winner=winner, board_points=points,
                game_scores=points, board_history=(points,), game_over=True, winner=winner,
            )
    return led.ruling(turn_continues=cont, next_shooter=nxt)


def adjudicate(state: GameState, outcome: ShotOutcome) -> Ruling:
    """Apply the Hikone rules to one shot.

    Own pucks continue the turn, opponent pucks are a service (HIK-3); the jack wins
    once all own pucks are in (HIK-4, scored by HIK-11), else it costs 5 pucks (HIK-5),
    or, with the last own pucks, those pucks plus 5 (HIK-6; any own pucks of the shot
    with ``HikoneOptions(void_pucks_with_jack=True)``); a striker pocketed, off the board or on
    the frame voids own pucks and costs one more (HIK-7); pucks off the board or on the
    frame come back without penalty (HIK-8); in doubles a direct hit on a piece lying
    wholly inside the own area (any piece of ``outcome.touched_before_frame``, not only
    the first) voids the shot and costs a puck (HIK-9). Missing pucks become debts, paid by the
    next pucks of that colour to fall; a payment cites the rules the debt came from
    (``GameState.dues_from``; HIK-5 for a debt of no recorded origin). Returned pieces go
    to the jack spot (see the module notes).

    Parameters
    ----------
    state : GameState
        A Hikone game in progress (never modified).
    outcome : ShotOutcome
        What happened in the shot.

    Returns
    -------
    Ruling

    Raises
    ------
    ValueError
        If the outcome is inconsistent with the state or the game is over.
    """
    if state.variant != "hikone":
        raise ValueError(f"The 'state' parameter must be a Hikone game. Got a {state.variant!r} game instead.")
    check_outcome(state, outcome)
    seat, team = state.shooter, state.team_of(state.shooter)
    own, opp = state.colours[team], state.colours[1 - team]
    led = Ledger(state, outcome)
    if outcome.timed_out:
        led.note("HIK-10")
        return _finish(state, led, False)
    direct = outcome.touched_before_frame or ()  # None (unknown) only in singles: check_outcome refuses it in doubles
    if not state.options.every_direct_hit:
        direct = tuple(pid for pid in direct if pid == outcome.first_touch)
    inside = [pid for pid in direct if state.n_players == 4 and _lies_inside(state, seat, pid)]
    if inside:
        led.foul("HIK-9", f"the striker hit piece {inside[0]} inside the own area line directly; the shot is void")
        led.penalty(own, 1, "HIK-9")
        return _finish(state, led, False)
    led.apply_motion()
    jack = next(p.id for p in state.pieces if p.kind == "jack")
    kinds = {pid: state.piece(pid).kind for pid in outcome.pocketed_ids}
    own_now = [pid for pid, k in kinds.items() if k == own]
    off = outcome.left_board + outcome.on_frame
    striker_foul = outcome.striker_fate != "board"
    jack_now, jack_off = jack in kinds, jack in off
    if jack_now and not striker_foul and state.count(own) == 0:
        led.note("HIK-4", "HIK-11")
        loser_left = led.count(opp)
        points = [0, 0]
        points[team], points[1 - team] = JACK_SCORE + PUCKS, PUCKS - loser_left
        return led.ruling(
            turn_continues=False, next_shooter=seat, board_over=True, board_winner=team, board_points=tuple(points),
            game_scores=tuple(points), board_history=(tuple(points),), game_over=True, winner=team,
        )
    if jack_now or jack_off:
        led.send_back([jack], "HIK-5")
    for colour in (opp, own):
        led.send_back([pid for pid in off if state.piece(pid).kind == colour], "HIK-8")
    if any(pid != jack for pid in off):
        led.note("HIK-8")
    if any(k != "jack" for k in kinds.values()):
        led.note("HIK-3")
    if striker_foul:
        led.foul("HIK-7", f"striker {outcome.striker_fate.replace('_', ' ')}")
        led.send_back(own_now, "HIK-7")
        led.penalty(own, 1, "HIK-7")
    if jack_now or jack_off:
        last = state.count(own) == len(own_now)
        voided = led.still_pocketed(own_now) if jack_now and (state.options.void_pucks_with_jack or last) else []
        if voided:
            led.foul("HIK-6", "the jack fell with own pucks: no win, those pucks are void")
            led.send_back(voided, "HIK-6")
        led.foul("HIK-5", "jack pocketed before all own pucks" if jack_now else "jack off the board or on the frame")
        led.penalty(own, 5, "HIK-5")
    cont = bool(led.still_pocketed(own_now)) and not (striker_foul or jack_now or jack_off)
    led.pay_dues("HIK-5", shooter_only=False)  # seed 001: the next pucks of the colour to fall, whoever pockets them
    return _finish(state, led, cont)
