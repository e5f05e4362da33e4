"""Standard ICF carrom (rules ICF-1..ICF-16; seeds 000 and 004)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .._angles import angle_value
from .._validation import check_choice, check_int, check_type
from ..equipment.board import Board
from .carrom import CarromPolicy, adjudicate_carrom, carrom_region, new_carrom_game
from .outcome import ShotOutcome
from .placement import placement_functions
from .ruling import Ruling
from .state import GameState, register_json_type

__all__ = ["ICFOptions", "new_game", "check_placement", "snap_placement", "snap_placements", "placement_region", "adjudicate"]

_IDS = {
    "pocket": "ICF-4", "queen": "ICF-5", "same_shot_cover": "ICF-6", "win": "ICF-7",
    "score": "ICF-8", "queen_cap": "ICF-9", "game": "ICF-10", "striker": "ICF-11", "off_board": "ICF-12",
    "return_place": "ICF-13", "opp_last": "ICF-14", "own_last": "ICF-15", "opening": "ICF-16",
}


@register_json_type
@dataclass(frozen=True)
class ICFOptions:
    """Readings of the ambiguous ICF rules.

    Parameters
    ----------
    own_last_coin : {"shooter_loses_3", "opponent_gains_3"}
        ICF-15, pocketing one's own last coin before the queen is covered: the opponent
        scores 1 point per own coin left and the shooter loses 3 points (default, the
        stated reading of seed 000), or the opponent gains the 3 points instead.

    Examples
    --------
    >>> ICFOptions(own_last_coin="opponent_gains_3").own_last_coin
    'opponent_gains_3'
    """

    own_last_coin: Literal["shooter_loses_3", "opponent_gains_3"] = "shooter_loses_3"

    def __post_init__(self) -> None:
        check_choice("own_last_coin", self.own_last_coin, ("shooter_loses_3", "opponent_gains_3"))


def _policy(options: ICFOptions) -> CarromPolicy:
    return CarromPolicy(
        ids=_IDS,
        queen_with_first_coin=False,
        foul_continue_with_queen=False,
        opening="baseline",
        last_coin="icf",
        own_last_reading=options.own_last_coin,
        loser_penalty=3,
        queen_points=3,
        queen_cap_basis="leader",
        min_board_points=0,
        game_target=25,
        extra_boards_on_tie=False,
        next_board_first="alternate",
        return_circle="centre",
        timeouts=False,
    )


def new_game(
    players: int = 2,
    *,
    options: ICFOptions | None = None,
    board: Board | None = None,
    radii: Mapping[str, float] | None = None,
    rotation: float | None = None,
    rotation_deg: float | None = None,
) -> GameState:
    """A new ICF game at the first break.

    The break arrangement is the equipment's ICF layout (ICF-1), turned by ``rotation``.
    Seat 0 won the toss: their team plays white and breaks (ICF-2); seats follow
    counter-clockwise, singles face each other (south, north), doubles partners too
    (seats 0 and 2 against 1 and 3). Piece ids are the layout's rows (queen 0); the
    striker is id 19, as in the engine.

    Parameters
    ----------
    players : {2, 4}
        Singles or doubles.
    options : ICFOptions, optional
        Ambiguity readings. Default ``ICFOptions()``.
    board : Board, optional
        Default :meth:`Board.icf`.
    radii : mapping of str to float, optional
        Radius (m) of ``"white"``, ``"black"``, ``"queen"``, ``"striker"`` overriding the
        equipment defaults.
    rotation : float, optional
        Counter-clockwise rotation of the break arrangement chosen by the breaker, rad,
        in [-2 pi, 2 pi]. Default: none.
    rotation_deg : float, optional
        The rotation in degrees instead, in [-360, 360]; at most one of ``rotation``
        and ``rotation_deg``.

    Returns
    -------
    GameState

    Raises
    ------
    ValueError
        If an argument is out of range, e.g. a rotation beyond one turn (a radian value
        beyond 2 pi is taken for degrees given as radians: use ``rotation_deg``).

    Examples
    --------
    >>> state = new_game()
    >>> state.count("white"), state.count("black"), state.queen_status, state.colours
    (9, 9, 'board', ('white', 'black'))
    >>> import math
    >>> new_game(rotation_deg=30) == new_game(rotation=math.radians(30))
    True
    """
    options = ICFOptions() if options is None else check_type("options", options, (ICFOptions, type(None)))
    turn = 0.0 if rotation is None and rotation_deg is None else angle_value("rotation", rotation, rotation_deg)
    return new_carrom_game("icf", options, check_int("players", players, low=2, high=4), board, radii, turn)


check_placement, snap_placement, snap_placements, placement_region = placement_functions(
    "ICF-3", lambda state, board, r: carrom_region(state, board, r, rule="ICF-3", centre_line=False)
)


def adjudicate(state: GameState, outcome: ShotOutcome) -> Ruling:
    """Apply the ICF rules to one shot.

    Own coins continue the turn, opponent coins alone pass it and count for the
    opponent (ICF-4); the queen needs an own coin already down and a cover on the same
    or the next shot (ICF-5, ICF-6); a pocketed striker costs a coin or a due (ICF-11);
    coins off the board come back (ICF-12) onto the centre circle (ICF-13); a failed
    break is retaken up to 3 times (ICF-16); last coins end the board (ICF-7, ICF-14,
    ICF-15), which is scored (ICF-8, ICF-9) and may end the game (ICF-10).

    Parameters
    ----------
    state : GameState
        An ICF game in progress (never modified).
    outcome : ShotOutcome
        What happened in the shot.

    Returns
    -------
    Ruling

    Raises
    ------
    ValueError
        If the outcome is inconsistent with the state (unknown id, a piece already
        pocketed, a timed-out shot, ...) or the game is over.
    """
    if state.variant != "icf":
        raise ValueError(f"The 'state' parameter must be an ICF game. Got a {state.variant!r} game instead.")
    return adjudicate_carrom(state, outcome, _policy(state.options))
