"""Online "standard reference" carrom with house rules (rules ONL-1..ONL-10; seed 002).

Equipment, setup and everything not listed in ONL-1..ONL-10 follow ICF (two players,
the first takes white).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .._validation import check_bool, check_choice, check_int, check_real, check_type
from ..equipment.board import Board
from ..physics.params import POWDERS, PhysicsParams, check_params
from .carrom import CarromPolicy, adjudicate_carrom, carrom_region, new_carrom_game
from .outcome import ShotOutcome
from .placement import placement_functions
from .ruling import Ruling
from .state import GameState, register_json_type

__all__ = ["POWDER_PHYSICS", "OnlineHouseRules", "new_game", "check_placement", "snap_placement", "snap_placements", "placement_region", "adjudicate", "match_points"]

_IDS = {
    "pocket": "ONL-4", "queen": "ONL-2", "same_shot_cover": "ONL-2", "win": "ICF-7", "score": "ONL-6",
    "queen_cap": "ONL-6", "game": "ONL-7", "striker": "ONL-3", "off_board": "ICF-12", "return_place": "ONL-3",
    "opp_last": "ONL-5", "own_last": "ONL-5", "opening": "ONL-9", "timeout": "ONL-8",
}

#: The board of the ``powder`` house rule (ONL-10) for games given no physics. On: the
#: powdered board of ``PhysicsParams()``, the ``"club"`` powder, mu = 0.12 [EST inside the
#: measured 0.11-0.15 of flour layers (Iizawa) and the ICF run test's mu <~ 0.13,
#: docs/physics.md]. Off: ``PhysicsParams.from_powder("unpowdered")``, mu = 0.20 [EST: no
#: measured friction of a bare board was found; 0.20 is above every measured powder
#: (0.05-0.15) and is the pymunk peer's yardstick]. One object each, so that the games on
#: one board share their engine calls.
POWDER_PHYSICS: dict[bool, PhysicsParams] = {True: PhysicsParams(), False: PhysicsParams.from_powder("unpowdered")}
#: Friction coefficients of the powdered presets: given physics with one of them
#: contradict ``powder=False``.
_POWDERED_MU = {mu: name for name, (mu, _) in POWDERS.items() if name != "unpowdered"}


@register_json_type
@dataclass(frozen=True)
class OnlineHouseRules:
    """The house rules of the online game (ONL-10), with the seed's defaults.

    Parameters
    ----------
    queen_points : int
        Points of the covered queen for the board winner, in [0, 25]. Default 3.
    game_target : int
        Total that wins the game, in [1, 1000]. Default 25.
    powder : bool
        Powder applied before the first shot, which makes the board more slippery: the
        board friction of games given no physics (:meth:`physics`, :data:`POWDER_PHYSICS`:
        mu = 0.12 on, 0.20 off, both [EST]). Default True.
    turn_time : float or None
        Time per turn, s (the host may set 30 or 60); None: no limit (default), and a
        timed-out outcome is refused. A turn that runs out passes with no coin returned
        (ONL-8).
    next_board_first : {"alternate", "loser"}
        Who starts the next board. Default ``"alternate"``.
    draw_value : float
        Rating value of a ranked draw, between a loss (0) and a win (1). Default 0.5.

    Examples
    --------
    >>> OnlineHouseRules(turn_time=45)
    Traceback (most recent call last):
    ...
    ValueError: The 'turn_time' parameter must be one of [30, 60] or None. Got 45 instead.
    """

    queen_points: int = 3
    game_target: int = 25
    powder: bool = True
    turn_time: float | None = None
    next_board_first: Literal["alternate", "loser"] = "alternate"
    draw_value: float = 0.5

    def __post_init__(self) -> None:
        check_int("queen_points", self.queen_points, low=0, high=25)
        check_int("game_target", self.game_target, low=1, high=1000)
        check_bool("powder", self.powder)
        if self.turn_time is not None and check_int("turn_time", self.turn_time) not in (30, 60):
            raise ValueError(f"The 'turn_time' parameter must be one of [30, 60] or None. Got {self.turn_time!r} instead.")
        check_choice("next_board_first", self.next_board_first, ("alternate", "loser"))
        check_real("draw_value", self.draw_value, low=0.0, high=1.0)

    def physics(self, params: PhysicsParams | None = None) -> PhysicsParams:
        """The physics of a game under these house rules (ONL-10: ``powder``).

        Parameters
        ----------
        params : PhysicsParams, optional
            Physics given by the user. They win: they describe the board whole, its
            friction included (a calibration, a fitted or measured mu, a preset), and
            are returned as given, except under ``powder=False`` with the mu of a
            powdered preset of ``POWDERS`` (``PhysicsParams()``'s 0.12 included), which
            contradicts the house rule and raises. ``powder=True``, the default, takes
            any physics given (e.g. the command line's ``--powder unpowdered``, which
            sets no house rule). Default None: the board of the house rule,
            :data:`POWDER_PHYSICS` (powder on: ``PhysicsParams()``, mu 0.12; off:
            ``PhysicsParams.from_powder("unpowdered")``, mu 0.20).

        Returns
        -------
        PhysicsParams

        Raises
        ------
        TypeError
            If ``params`` is not a PhysicsParams.
        ValueError
            If ``params`` has a powdered preset's mu and the powder is off.

        Examples
        --------
        >>> OnlineHouseRules().physics().mu, OnlineHouseRules(powder=False).physics().mu
        (0.12, 0.2)
        >>> OnlineHouseRules(powder=False).physics(PhysicsParams(mu=0.23)).mu   # a measured bare board
        0.23
        >>> OnlineHouseRules(powder=False).physics(PhysicsParams(e_disc=0.85))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: The 'params' parameter contradicts OnlineHouseRules(powder=False): its mu = 0.12 is the 'club' powder's...
        """
        if params is None:
            return POWDER_PHYSICS[self.powder]
        params = check_params(params)
        if not self.powder and params.mu in _POWDERED_MU:
            bare = POWDER_PHYSICS[False].mu
            raise ValueError(
                f"The 'params' parameter contradicts OnlineHouseRules(powder=False): its mu = {params.mu} is the "
                f"{_POWDERED_MU[params.mu]!r} powder's, and the house rules play on an unpowdered board (mu = {bare} "
                f"[EST]). Give the board's friction (e.g. params.with_(mu={bare})), leave params out, or set powder=True."
            )
        return params


def _policy(rules: OnlineHouseRules) -> CarromPolicy:
    return CarromPolicy(
        ids=_IDS,
        queen_with_first_coin=True,
        foul_continue_with_queen=True,
        opening="miss",
        last_coin="online",
        own_last_reading="shooter_loses_3",
        loser_penalty=0,
        queen_points=rules.queen_points,
        queen_cap_basis="winner",
        min_board_points=1,
        game_target=rules.game_target,
        extra_boards_on_tie=True,
        next_board_first=rules.next_board_first,
        return_circle="outer",
        timeouts=rules.turn_time is not None,
    )


def new_game(
    *,
    rules: OnlineHouseRules | None = None,
    board: Board | None = None,
    radii: Mapping[str, float] | None = None,
) -> GameState:
    """A new two-player online game; seat 0 takes white and breaks.

    Parameters
    ----------
    rules : OnlineHouseRules, optional
        House rules. Default ``OnlineHouseRules()``.
    board : Board, optional
        Default :meth:`Board.icf`.
    radii : mapping of str to float, optional
        Piece radii (m) overriding the equipment defaults.

    Returns
    -------
    GameState
    """
    rules = OnlineHouseRules() if rules is None else check_type("rules", rules, (OnlineHouseRules, type(None)))
    return new_carrom_game("online", rules, 2, board, radii, 0.0)


check_placement, snap_placement, snap_placements, placement_region = placement_functions(
    "ONL-1", lambda state, board, r: carrom_region(state, board, r, rule="ONL-1", centre_line=True)
)


def adjudicate(state: GameState, outcome: ShotOutcome) -> Ruling:
    """Apply the online rules to one shot.

    As ICF, except: the queen may fall with the first own coin and is covered on the
    same or the next shot (ONL-2); a pocketed striker returns one coin (or the next one
    pocketed) and the shooter continues if own coins or the queen fell (ONL-3), the
    returned coins going onto the outer centre circle; either colour's last coin before
    the cover loses the board (ONL-5); the winner gets the queen's points whoever
    covered it, below 22 points, and at least 1 point (ONL-6); a tie after 8 boards is
    played on (ONL-7); a timed-out turn passes (ONL-8); a break that misses every coin
    is retaken twice, or passes if the striker drops (ONL-9).

    Parameters
    ----------
    state : GameState
        An online game in progress (never modified).
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
    if state.variant != "online":
        raise ValueError(f"The 'state' parameter must be an online game. Got a {state.variant!r} game instead.")
    return adjudicate_carrom(state, outcome, _policy(state.options))


def match_points(state: GameState) -> tuple[float, ...]:
    """Rating result of each player of a finished game: 1 win, 0 loss, a draw counts
    ``draw_value`` (ONL-10).

    Raises
    ------
    ValueError
        If the game is not over.
    """
    if not state.game_over:
        raise ValueError("The 'state' parameter must be a finished game. Got a game in progress instead.")
    if state.winner is None:
        return (state.options.draw_value,) * state.n_teams
    return tuple(1.0 if t == state.winner else 0.0 for t in range(state.n_teams))
