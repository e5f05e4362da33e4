"""The continuous action of the reinforcement-learning environments and the shot it
stands for."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..engine.scene import Shot
from ..match.geometry import facings, placement_targets
from ..match.policies import FORWARD, SPEED_RANGES
from ..rules.arrays import GameArrays
from ..rules.state import GameState

__all__ = ["SPIN_LIMIT", "action_space", "shot_of_action", "shots_of_actions"]

#: Largest spin of an action, rad/s: a flick 3.6 mm off the striker's centre line at
#: 3 m/s (omega = 2 v e / R^2, as in the noise presets of
#: :data:`carromlab.analysis.noise.NOISE_PRESETS`), about seven expert spreads.
SPIN_LIMIT = 50.0


def action_space() -> spaces.Box:
    """The action space: four numbers in [-1, 1] (float32), mapped by :func:`.shot_of_action`.

    Returns
    -------
    gymnasium.spaces.Box
    """
    return spaces.Box(-1.0, 1.0, (4,), dtype=np.float32)


def shot_of_action(state: GameState, action: Any) -> Shot:
    """The intended shot of an action of ``state.shooter``: the one-game case of
    :func:`.shots_of_actions`.

    ``action = (placement, aim, speed, spin)``, each in [-1, 1]:

    placement
        Where along the shooter's placement line
        (:func:`carromlab.match.geometry.placement_target`): -1 its left end, +1 its
        right end (the shooter's left and right; the Hikone tee spot for a seat's first
        shot of a board). A spot made illegal by a piece or a mark is moved to the
        nearest legal one when the shot is executed (ICF-3, ONL-1, HIK-2, CRK-1).
    aim
        Direction relative to the facing direction at the placement
        (:func:`carromlab.match.geometry.facing`), ``aim * pi/2`` rad, counter-clockwise
        positive: the forward half-plane.
    speed
        Linearly from the variant's lowest to its highest speed of
        :data:`carromlab.match.policies.SPEED_RANGES`, m/s (carrom 0.5-6, Hikone
        0.5-5, crokinole 0.3-1.6).
    spin
        ``spin * SPIN_LIMIT`` rad/s (:data:`.SPIN_LIMIT`), counter-clockwise positive.

    Parameters
    ----------
    state : GameState
        The position; the seat to shoot is ``state.shooter``.
    action : array_like
        Four finite numbers in [-1, 1].

    Returns
    -------
    Shot
        Placement m, angle rad, speed m/s, spin rad/s.

    Raises
    ------
    ValueError
        If the action is not four finite numbers in [-1, 1].

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> shot = shot_of_action(icf.new_game(), [0.0, 0.0, 1.0, 0.0])
    >>> round(shot.x, 4), round(shot.y, 4), round(shot.angle, 4), shot.speed
    (0.0, -0.2526, 1.5708, 6.0)
    """
    return Shot(*shots_of_actions(GameArrays.from_states([state]), action_row(action)[None, :])[0].tolist())


def action_row(action: Any) -> npt.NDArray[np.float64]:
    """One action as a float64 array of shape (4,), checked as :func:`.shot_of_action` checks it
    (for :func:`.shots_of_actions` of one game: :func:`.shot_of_action`, ``CarromEnv.step``).

    Parameters
    ----------
    action : array_like
        Four finite numbers in [-1, 1]: placement, aim, speed, spin.

    Returns
    -------
    numpy.ndarray of float64, shape (4,)

    Raises
    ------
    ValueError
        If the action is not four finite numbers in [-1, 1].
    """
    a = _numbers(action)
    if a is None or a.shape != (4,) or not _in_range(a):
        raise ValueError(f"The 'action' parameter must be 4 finite numbers in [-1, 1] (placement, aim, speed, spin). Got {action!r} instead.")
    return a


def shots_of_actions(games: GameArrays, actions: Any) -> npt.NDArray[np.float64]:
    """The intended shots of N actions, one per game, mapped as :func:`.shot_of_action`
    maps one (the same shots), on arrays: the placements and facing directions of all
    games at once (:func:`~carromlab.match.geometry.placement_targets`,
    :func:`~carromlab.match.geometry.facings`); the rows are those of
    :meth:`Shot.array <carromlab.Shot.array>`, whose checks they pass by construction.

    Parameters
    ----------
    games : GameArrays
        N positions of one variant; in each the seat to shoot is ``shooter``.
    actions : array_like, shape (N, 4)
        One action per game, four finite numbers in [-1, 1] each.

    Returns
    -------
    numpy.ndarray, shape (N, 5)
        One shot per game, rows ``x, y`` (placement, m), ``angle`` (rad), ``speed``
        (m/s), ``spin`` (rad/s).

    Raises
    ------
    ValueError
        If ``actions`` is not of shape (N, 4) or holds a number that is not finite or
        not in [-1, 1].

    Examples
    --------
    >>> from carromlab.rules import icf
    >>> from carromlab.rules.arrays import GameArrays
    >>> games = GameArrays.from_states([icf.new_game()] * 2)
    >>> shots = shots_of_actions(games, [[-1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    >>> [round(float(x), 4) for x in shots[:, 0]]
    [-0.2191, 0.2191]
    """
    a = _numbers(actions)
    if a is None or a.shape != (len(games), 4) or not _in_range(a):
        shape = "?" if a is None else a.shape
        raise ValueError(
            f"The 'actions' parameter must have shape ({len(games)}, 4) (placement, aim, speed, spin per game), "
            f"every number finite and in [-1, 1]. Got shape {shape} instead, or a number out of range."
        )
    if not len(games):
        return np.zeros((0, 5))
    x, y = placement_targets(games, 0.5 * (a[:, 0] + 1.0))
    normal = facings(games, x, y)
    angle = np.arctan2(normal[:, 1], normal[:, 0]) + a[:, 1] * FORWARD
    lo, hi = SPEED_RANGES[games.variant]
    speed = lo + 0.5 * (a[:, 2] + 1.0) * (hi - lo)
    spin = a[:, 3] * SPIN_LIMIT
    # in Shot's ranges by construction (|angle| <= 3 pi/2, the speeds and spins of checked
    # actions): stacked without Shot.array's checks, the same rows
    return np.column_stack([x, y, angle, speed, spin])


def _numbers(values: Any) -> npt.NDArray[np.float64] | None:
    """``values`` as a float64 array, None if they are not numbers."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        return None


def _in_range(a: npt.NDArray[np.float64]) -> bool:
    """Whether every number is finite and in [-1, 1]."""
    return bool(np.all(np.abs(a) <= 1.0))  # NaN compares False
