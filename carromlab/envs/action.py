"""The continuous action of the reinforcement-learning environments and the shot it
stands for."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from gymnasium import spaces

from ..engine.scene import Shot
from ..match.geometry import facing, placement_target
from ..match.policies import FORWARD, SPEED_RANGES
from ..rules.state import GameState

__all__ = ["SPIN_LIMIT", "action_space", "shot_of_action"]

#: Largest spin of an action, rad/s: a flick 3.6 mm off the striker's centre line at
#: 3 m/s (omega = 2 v e / R^2, as in the noise presets of
#: :data:`carromlab.analysis.noise.NOISE_PRESETS`), about seven expert spreads.
SPIN_LIMIT = 50.0


def action_space() -> spaces.Box:
    """The action space: four numbers in [-1, 1] (float32), mapped by :func:`shot_of_action`.

    Returns
    -------
    gymnasium.spaces.Box
    """
    return spaces.Box(-1.0, 1.0, (4,), dtype=np.float32)


def shot_of_action(state: GameState, action: Any) -> Shot:
    """The intended shot of an action of ``state.shooter``.

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
        ``spin * SPIN_LIMIT`` rad/s (:data:`SPIN_LIMIT`), counter-clockwise positive.

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
    bad = ValueError(
        f"The 'action' parameter must be 4 finite numbers in [-1, 1] (placement, aim, speed, spin). Got {action!r} instead."
    )
    try:
        a = np.asarray(action, dtype=float)
    except (TypeError, ValueError):
        raise bad from None
    if a.shape != (4,) or not np.all(np.isfinite(a)) or np.any(np.abs(a) > 1.0):
        raise bad
    place, aim, speed, spin = (float(v) for v in a)
    x, y = (float(v) for v in placement_target(state, 0.5 * (place + 1.0)))
    nx, ny = facing(state, x, y)
    lo, hi = SPEED_RANGES[state.variant]
    angle = math.atan2(ny, nx) + aim * FORWARD
    return Shot(x, y, angle, lo + 0.5 * (speed + 1.0) * (hi - lo), spin * SPIN_LIMIT)
