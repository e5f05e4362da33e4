"""Free sliding of one disc along a straight line, as the fitting tools need it.

The engine's friction laws give the distance slid, the speed and the spin of a free disc
(:meth:`carromlab.physics.friction.Law.kinematics`). The fitting tools also need the
disc's orientation (to compare with a tracked ``angle``), which is the time integral of
the spin, and need to know whether the spin changes the path at all.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import cumulative_trapezoid

from ..physics.friction import FrictionLaw
from ..physics.params import PhysicsParams

#: Radius used where the radius cannot change the fitted positions (a law whose spin does
#: not couple into sliding, fitted without angles): an ICF coin, m.
NOMINAL_RADIUS = 0.0155
#: Largest time step of the grid on which the spin is integrated into an angle, s. The
#: trapezoid rule is exact for the linear spin decay of the constant law and, for the
#: smooth spin of the other laws, errs by far less than a tracked angle can resolve.
ANGLE_STEP = 1e-3


def spin_moves_disc(law: FrictionLaw, params: PhysicsParams) -> bool:
    """Whether a disc's spin changes how far it slides under ``law`` (True for slide-spin).

    Probed numerically, so laws registered by users are handled: a 1 m/s disc of nominal
    radius is slid for 1 s without spin and with a spin of 100 rad/s.
    """
    t = np.array([1.0])
    a = law.kinematics(params, NOMINAL_RADIUS, 1.0, 0.0, t)[0]
    b = law.kinematics(params, NOMINAL_RADIUS, 1.0, 100.0, t)[0]
    return bool(abs(a[0] - b[0]) > 1e-9)


def free_slide(
    law: FrictionLaw,
    params: PhysicsParams,
    radius: float,
    v0: float,
    omega0: float,
    t: np.ndarray,
    *,
    with_angle: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Distance (m), speed (m/s), spin (rad/s) and, if asked, turned angle (rad) of a free
    disc at times ``t`` >= 0 (s, in any order) after it had speed ``v0`` and spin ``omega0``.

    The angle is the integral of the spin from 0, by the trapezoid rule on the data times
    refined to steps of at most :data:`ANGLE_STEP`.
    """
    if not with_angle:
        s, v, w, _ = law.kinematics(params, radius, v0, omega0, t)
        return s, v, w, None
    t_max = float(t.max()) if len(t) else 0.0
    grid = np.union1d(t, np.linspace(0.0, t_max, max(2, math.ceil(t_max / ANGLE_STEP) + 1)))
    s, v, w, _ = law.kinematics(params, radius, v0, omega0, grid)
    theta = cumulative_trapezoid(w, grid, initial=0.0)
    k = np.searchsorted(grid, t)
    return s[k], v[k], w[k], theta[k]
