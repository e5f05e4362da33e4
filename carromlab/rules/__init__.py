"""Adjudication of carrom, Hikone carrom and crokinole shots (the numbered rules of the
rulebook, docs/rulebook.md).

Each variant module (:mod:`~carromlab.rules.icf`, :mod:`~carromlab.rules.online`,
:mod:`~carromlab.rules.hikone`, :mod:`~carromlab.rules.crokinole`) provides
``new_game``, ``check_placement``, ``snap_placement``, ``snap_placements``, ``placement_region`` and ``adjudicate``. The functions
here dispatch on ``state.variant``.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import numpy.typing as npt

from .._validation import check_choice, check_type
from ..equipment.board import Board
from ..physics.params import PhysicsParams, check_params
from . import crokinole, hikone, icf, online
from .carrom import rotate_break
from .outcome import KINDS, STRIKER_FATES, Pocketing, ShotOutcome
from .placement import PlacementCheck, Region
from .ruling import Foul, Placement, Ruling
from .state import GameState, Piece

__all__ = [
    "VARIANTS",
    "KINDS",
    "STRIKER_FATES",
    "Foul",
    "GameState",
    "Piece",
    "Placement",
    "PlacementCheck",
    "Region",
    "Pocketing",
    "Ruling",
    "ShotOutcome",
    "adjudicate",
    "check_placement",
    "game_physics",
    "placement_region",
    "crokinole",
    "hikone",
    "icf",
    "online",
    "rotate_break",
    "snap_placement",
    "snap_placements",
    "variant",
]

#: The variant modules by name (the value of ``GameState.variant``).
VARIANTS: dict[str, ModuleType] = {"icf": icf, "online": online, "hikone": hikone, "crokinole": crokinole}


def variant(state: GameState) -> ModuleType:
    """The module implementing the rules of ``state``'s variant."""
    check_type("state", state, GameState)
    return VARIANTS[check_choice("state.variant", state.variant, VARIANTS)]


def game_physics(state: GameState, params: PhysicsParams | None = None) -> PhysicsParams:
    """The physics a game is played with: the user's, or the board of its rules.

    Games, matches, their greedy players' beliefs, foul probabilities and the
    environments take their physics from here. The online house rules choose the board
    by their ``powder`` (ONL-10, ``rules.online.OnlineHouseRules.physics``: powder on,
    ``PhysicsParams()``; off, an unpowdered board, mu 0.20 [EST]); every other variant
    plays on ``PhysicsParams()``.

    Parameters
    ----------
    state : GameState
        The game (its variant and options are read).
    params : PhysicsParams, optional
        Physics given by the user: returned as given (the online rules refuse those that
        contradict ``powder=False``, see ``rules.online.OnlineHouseRules.physics``). Default
        None: the board of the rules.

    Returns
    -------
    PhysicsParams

    Examples
    --------
    >>> game_physics(online.new_game(rules=online.OnlineHouseRules(powder=False))).mu
    0.2
    >>> game_physics(icf.new_game()) is game_physics(online.new_game())   # one powdered board
    True
    """
    check_type("state", state, GameState)
    if state.variant == "online":
        return state.options.physics(params)  # type: ignore[no-any-return]
    return online.POWDER_PHYSICS[True] if params is None else check_params(params)


def adjudicate(state: GameState, outcome: ShotOutcome) -> Ruling:
    """Adjudicate one shot under the rules of ``state.variant``.

    Parameters
    ----------
    state : GameState
        The state before the shot (never modified).
    outcome : ShotOutcome
        What happened.

    Returns
    -------
    Ruling
        Fouls, returned pieces, turn, scores and the new state.

    Raises
    ------
    ValueError
        If the outcome is inconsistent with the state.
    """
    return variant(state).adjudicate(state, outcome)


def check_placement(
    state: GameState, x: float, y: float, striker_radius: float, board: Board | None = None
) -> PlacementCheck:
    """Check a striker placement under the placement rule of ``state.variant`` (ICF-3,
    ONL-1, HIK-2 or CRK-1; the variant module's ``check_placement``).

    Parameters
    ----------
    state : GameState
        The state; the seat to shoot is ``state.shooter``.
    x, y : float
        Centre of the striker (crokinole: the disc played), m, board frame.
    striker_radius : float
        Its radius, m, in (0, 0.1].
    board : Board, optional
        Board whose marks are used. Default ``state.board``.

    Returns
    -------
    PlacementCheck
        Legality, the rule, the first condition violated and the distance (m) to the
        nearest legal spot (``nearest``, m).

    Raises
    ------
    ValueError
        If ``x`` or ``y`` is not finite, or ``striker_radius`` is outside (0, 0.1] m.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> verdict = check_placement(icf.new_game(), 0.0, -0.2526, 0.0206)
    >>> verdict.ok, verdict.rule
    (True, 'ICF-3')
    """
    return variant(state).check_placement(state, x, y, striker_radius, board)


def snap_placement(
    state: GameState, x: float, y: float, striker_radius: float, board: Board | None = None
) -> tuple[float, float]:
    """The legal striker spot nearest a wanted placement under the placement rule of
    ``state.variant`` (the variant module's ``snap_placement``).

    Parameters
    ----------
    state : GameState
        The state; the seat to shoot is ``state.shooter``.
    x, y : float
        Wanted centre of the striker (crokinole: the disc played), m, board frame.
    striker_radius : float
        Its radius, m, in (0, 0.1].
    board : Board, optional
        Board whose marks are used. Default ``state.board``.

    Returns
    -------
    tuple of float
        ``(x, y)`` itself when legal, else the nearest legal spot, m (see
        ``PlacementCheck.distance`` for its precision).

    Raises
    ------
    ValueError
        If an input is out of range (as :func:`check_placement`), or the seat has no
        legal spot at all.

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> snap_placement(icf.new_game(), 0.0, -0.2526, 0.0206)
    (0.0, -0.2526)
    """
    return variant(state).snap_placement(state, x, y, striker_radius, board)


def placement_region(state: GameState, striker_radius: float, board: Board | None = None) -> Region:
    """The legal striker region of ``state.shooter`` (m) under the rules of ``state.variant``,
    for :func:`carromlab.rules.placement.nearest_spots`; see the variant's function."""
    return variant(state).placement_region(state, striker_radius, board)  # type: ignore[no-any-return]


def snap_placements(
    state: GameState, x: npt.ArrayLike, y: npt.ArrayLike, striker_radius: float, board: Board | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The legal striker spots (m) nearest many centres (x, y) under the rules of
    ``state.variant``, found on arrays; see the variant's function."""
    return variant(state).snap_placements(state, x, y, striker_radius, board)
