"""Crokinole, two players or four individual players (rules CRK-1..CRK-5; seed 003).

Discs start in the players' hands; every shot plays one disc, and turns alternate
(one shot each) until all discs are played. A disc in the 20-hole is taken off and
scores 20 for its owner; a disc removed by the rules goes to the ditch.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_type
from ..equipment.board import Board
from ..equipment.disc import DiscSpec
from .ledger import Ledger, check_outcome, next_seat
from .outcome import ShotOutcome
from .placement import Area, Region, arc_grid, placement_functions
from .ruling import Ruling
from .spots import occupied
from .state import GameState, Piece, register_json_type

__all__ = ["CrokinoleOptions", "new_game", "check_placement", "snap_placement", "snap_placements", "placement_region", "adjudicate", "round_totals"]

#: Player colours: two players, or four individual players (CRK-5, seed order).
COLOURS = {2: ("dark", "light"), 4: ("green", "red", "black", "white")}
#: Points of a disc in the 20-hole (CRK-2).
HOLE_POINTS = 20


@register_json_type
@dataclass(frozen=True)
class CrokinoleOptions:
    """Crokinole settings.

    Parameters
    ----------
    discs_per_player : int or None
        Discs of each player, in [1, 24]; None: 12 for two players (standard
        equipment), 6 for four (CRK-5).
    game_target : int
        Total that ends the game, in [1, 10000]. Default 100 (CRK-5, "traditionally").
    """

    discs_per_player: int | None = None
    game_target: int = 100

    def __post_init__(self) -> None:
        if self.discs_per_player is not None:
            check_int("discs_per_player", self.discs_per_player, low=1, high=24)
        check_int("game_target", self.game_target, low=1, high=10000)


def _hand(colours: tuple[str, ...], per_player: int) -> tuple[Piece, ...]:
    return tuple(Piece(i * per_player + j, c, "hand") for i, c in enumerate(colours) for j in range(per_player))


def new_game(
    players: int = 2,
    *,
    options: CrokinoleOptions | None = None,
    board: Board | None = None,
    disc_radius: float | None = None,
) -> GameState:
    """A new crokinole game: every disc in hand, seat 0 (drawn by lot) shoots first.

    Disc ids run player by player: seat s owns ids ``s * n .. s * n + n - 1``. Seats sit
    south and north (two players) or south, west, north, east (four, clockwise).

    Parameters
    ----------
    players : {2, 4}
        Two players (dark, light) or four individual players (green, red, black, white).
    options : CrokinoleOptions, optional
        Default ``CrokinoleOptions()``.
    board : Board, optional
        Default :meth:`Board.crokinole`.
    disc_radius : float, optional
        Disc radius, m. Default the equipment's crokinole disc.

    Returns
    -------
    GameState

    Examples
    --------
    >>> state = new_game(4)
    >>> state.colours, state.count("red", "hand")
    (('green', 'red', 'black', 'white'), 6)
    """
    players = check_int("players", players, low=2, high=4)
    if players not in COLOURS:
        raise ValueError(f"The 'players' parameter must be 2 or 4. Got {players} instead.")
    options = CrokinoleOptions() if options is None else check_type("options", options, (CrokinoleOptions, type(None)))
    spec = DiscSpec.crokinole_disc()
    r = spec.radius if disc_radius is None else spec.with_(radius=disc_radius).radius
    colours = COLOURS[players]
    per_player = options.discs_per_player or (12 if players == 2 else 6)
    return GameState(
        variant="crokinole",
        options=options,
        board=Board.crokinole() if board is None else board,
        radii=tuple((c, r) for c in colours),
        colours=colours,
        seat_sides=("south", "north") if players == 2 else ("south", "west", "north", "east"),
        pieces=_hand(colours, per_player),
        striker_id=None,
    )


def _region(state: GameState, board: Board, radius: float) -> Region:
    """Legal disc centres (CRK-1): touching the shooting line in the own quadrant."""
    discs = occupied(state.pieces, state.radius)
    return Region(_area(board, state.seat_sides[state.shooter], radius), [("CRK-1: the disc must not overlap a disc on the board", discs, 0.0)])


@functools.lru_cache(maxsize=256)
def _area(board: Board, side: str, radius: float) -> Area:
    """The constraint of :func:`_region` on the shooting line of one side."""
    line = board.shooting_line(side)  # type: ignore[arg-type]
    constraints = [("CRK-1: the disc must touch the shooting line in the own quadrant", lambda x, y: line.touches(x, y, radius))]
    grid = arc_grid(line.radius - radius, line.radius + radius, line.start_angle, line.end_angle)
    return Area("CRK-1", constraints, grid, radius)


check_placement, snap_placement, snap_placements, placement_region = placement_functions("CRK-1", _region)


def round_totals(state: GameState) -> tuple[int, ...]:
    """Points of each player on the board now (CRK-4).

    A disc counts for the zone it lies wholly inside (15, 10 or 5); a disc touching a
    line counts for the lower zone, beyond the shooting line for nothing; each disc in
    the 20-hole counts 20.

    Returns
    -------
    tuple of int
        One total per player (colour).

    Raises
    ------
    ValueError
        If a disc on the board has no known position.
    """
    totals = [0] * state.n_teams
    rings = state.board.marks.scoring_rings
    for p in state.pieces:
        team = state.colours.index(p.kind)
        if p.where == "hole":
            totals[team] += HOLE_POINTS
        elif p.where == "board":
            if p.position is None:
                raise ValueError(f"The position of disc {p.id} on the board is unknown; it cannot be scored.")
            reach = math.hypot(p.x, p.y) + state.radius(p.kind)
            totals[team] += next((pts for pts, ring in rings if reach < ring), 0)
    return tuple(totals)


def _close_round(state: GameState, led: Ledger, nxt: int) -> Ruling:
    """Score the round (CRK-4, CRK-5) and end the game or deal the discs again."""
    done = state.with_(pieces=tuple(led.pieces.values()))
    totals = round_totals(done)
    led.note("CRK-4")
    if state.n_teams == 2:
        diff = totals[0] - totals[1]
        points = (max(diff, 0), max(-diff, 0))
        winner = None if diff == 0 else int(diff < 0)
    else:
        led.note("CRK-5")
        points = totals
        winner = int(np.argmax(totals)) if totals.count(max(totals)) == 1 else None
    scores = tuple(s + p for s, p in zip(state.game_scores, points))
    top = max(scores)
    over = top >= state.options.game_target and scores.count(top) == 1
    common = {"board_history": state.board_history + (points,), "game_scores": scores}
    if over:
        return led.ruling(turn_continues=False, next_shooter=nxt, board_over=True, board_winner=winner,
                          board_points=points, game_over=True, winner=scores.index(top), **common)
    first = next_seat(state, state.board_first)
    per_player = len(state.pieces) // state.n_teams
    led.pieces = {p.id: p for p in _hand(state.colours, per_player)}
    return led.ruling(
        turn_continues=False, next_shooter=first, board_over=True, board_winner=winner, board_points=points,
        shooter=first, board_first=first, board_number=state.board_number + 1, board_shots=0,
        seat_shots=(0,) * state.n_players, **common,
    )


def adjudicate(state: GameState, outcome: ShotOutcome) -> Ruling:
    """Apply the crokinole rules to one shot.

    With no opponent disc on the board, a disc in the hole scores 20 and any other disc
    played must end inside the 15 ring or on its line, else it goes to the ditch
    (CRK-2: a foul, also when it flew into the ditch by itself). With opponent discs on the board, the disc played must strike one,
    directly or through own discs (``outcome.chain``), else it and every own disc it
    struck go to the ditch (CRK-3). Discs knocked into the hole score 20 for their
    owner. When all discs are played the round is scored (CRK-4, CRK-5).

    Parameters
    ----------
    state : GameState
        A crokinole game in progress (never modified).
    outcome : ShotOutcome
        The shot; ``outcome.striker`` is the id of the disc played (from the shooter's
        hand), ``striker_fate`` is ``"board"``, ``"pocketed"`` (the 20-hole) or
        ``"ditch"``, and a disc left on the board needs its final position.

    Returns
    -------
    Ruling

    Raises
    ------
    ValueError
        If the outcome is inconsistent with the state or the game is over.
    """
    if state.variant != "crokinole":
        raise ValueError(f"The 'state' parameter must be a crokinole game. Got a {state.variant!r} game instead.")
    disc = outcome.striker
    if disc is None or disc not in {p.id for p in state.pieces}:
        raise ValueError(f"The 'outcome.striker' parameter must be the id of the disc played. Got {disc!r} instead.")
    check_outcome(state, outcome, shot_piece=disc)
    seat = state.shooter
    own = state.colours[state.team_of(seat)]
    piece = state.piece(disc)
    if piece.where != "hand" or piece.kind != own:
        raise ValueError(f"The 'outcome.striker' parameter must be a {own} disc in hand. Got disc {disc} ({piece.kind}, {piece.where}) instead.")
    fate = outcome.striker_fate
    if outcome.timed_out or fate not in ("board", "pocketed", "ditch") or (fate == "pocketed") != (disc in outcome.pocketed_ids):
        raise ValueError(
            "The 'outcome' parameter is inconsistent with the game state: a crokinole disc ends on the board, "
            f"in the hole (listed in pocketed) or in the ditch. Got striker_fate {fate!r}."
        )
    led = Ledger(state, outcome)
    led.apply_motion(pocket_to="hole")
    if fate == "board" and led.pieces[disc].position is None:
        raise ValueError("The 'outcome.final_positions' parameter must give the position of a disc left on the board.")
    for pid in outcome.left_board + ((disc,) if fate == "ditch" else ()):
        led.set(pid, "ditch")
    if any(p.where == "board" and p.kind != own for p in state.pieces):
        if any(state.piece(pid).kind != own for pid in outcome.chain):
            led.note("CRK-3")
        else:
            led.foul("CRK-3", "no opponent disc was struck: the disc and the own discs it struck are removed")
            for pid in (disc,) + outcome.chain:
                led.set(pid, "ditch")
    else:
        led.note("CRK-2")
        x, y = led.pieces[disc].position or (0.0, 0.0)
        if fate == "ditch" or (fate == "board" and math.hypot(x, y) - state.radius(own) > state.board.marks.ring_15_radius):
            led.foul("CRK-2", "the disc ended outside the 15 ring with no opponent disc on the board")
            led.set(disc, "ditch")
    nxt = next_seat(state, seat)
    if all(p.where != "hand" for p in led.pieces.values()):
        return _close_round(state, led, nxt)
    return led.ruling(turn_continues=False, next_shooter=nxt)
