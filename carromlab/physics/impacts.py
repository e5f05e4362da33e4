"""Walton's impact model for flat discs: disc-disc and disc-obstacle impulses.

Small pure functions on floats or NumPy arrays (broadcasting over leading axes), used by
the reference integrator and by the tests as the executable form of the impact equations
of ``docs/physics.md``. Vectors are 2-vectors in the board plane (last axis of length 2),
spins are counter-clockwise positive (rad/s), and the tangent of a contact normal ``n`` is
``t = z x n = (-n_y, n_x)``.

References
----------
.. [1] O. R. Walton, "Numerical simulation of inelastic, frictional particle-particle
   interactions", in *Particulate Two-Phase Flow*, M. C. Roco (ed.), Butterworth-Heinemann,
   1993, pp. 884-911.
.. [2] S. Luding, E. Clement, A. Blumen, J. Rajchenbach, J. Duran, "Studies of columns of
   beads under external vibrations", *Phys. Rev. E* 50, 4113 (1994),
   doi:10.1103/PhysRevE.50.4113.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["effective_restitution", "walton_impulses", "resolve_pair", "resolve_fixed"]

#: A float for scalar inputs (NumPy scalars are floats), an ndarray for array inputs.
FloatOrArray = float | NDArray[np.float64]


def _tangent(n: NDArray[np.float64]) -> NDArray[np.float64]:
    """Unit tangent ``z x n = (-n_y, n_x)`` of unit normals ``n`` (last axis of length 2)."""
    return np.stack((-n[..., 1], n[..., 0]), axis=-1)


def effective_restitution(
    vn: ArrayLike,
    e: ArrayLike,
    plastic_speed: float,
    since_impact: ArrayLike = np.inf,
    contact_duration: float = 0.0,
) -> FloatOrArray:
    """Normal restitution after the TC model and the low-speed rule.

    An impact of a body whose previous impact was less than ``contact_duration`` ago is
    elastic; otherwise an impact slower than ``plastic_speed`` is plastic.

    Parameters
    ----------
    vn : float or array_like
        Normal approach speed of the impact, m/s (positive when approaching).
    e : float or array_like
        Normal restitution of the contact pair (dimensionless), in [0, 1].
    plastic_speed : float
        Normal speed below which an impact is plastic, m/s (``PhysicsParams.plastic_speed``).
    since_impact : float or array_like
        Time since the more recent previous impact of the two bodies, s (``inf`` if none;
        a fixed obstacle has no memory, so only the disc's own impacts count).
    contact_duration : float
        Contact duration t_c of the TC model, s (``PhysicsParams.contact_duration``);
        0 switches the TC model off.

    Returns
    -------
    float or ndarray
        ``1`` where ``since_impact < contact_duration``, else ``0`` where
        ``vn < plastic_speed``, else ``e`` (dimensionless).

    Notes
    -----
    The TC model of Luding & McNamara (*Granular Matter* 1, 113, 1998,
    doi:10.1007/s100350050016) switches dissipation off in the rapid multiple impacts that
    would otherwise collapse; the low-speed rule makes isolated slow impacts plastic
    ("Restitution rules against inelastic collapse" in ``docs/physics.md``).

    Examples
    --------
    >>> float(effective_restitution(5e-4, 0.9, 1e-3)), float(effective_restitution(0.5, 0.9, 1e-3))
    (0.0, 0.9)
    >>> float(effective_restitution(0.5, 0.1, 1e-3, since_impact=0.0, contact_duration=1e-4))
    1.0
    """
    slow = np.where(np.asarray(vn, dtype=float) < plastic_speed, 0.0, np.asarray(e, dtype=float))
    out = np.where(np.asarray(since_impact, dtype=float) < contact_duration, 1.0, slow)
    return out[()]


def walton_impulses(
    vn: ArrayLike,
    c: ArrayLike,
    Wn: ArrayLike,
    Wt: ArrayLike,
    e: ArrayLike,
    mu_c: ArrayLike,
    beta0: ArrayLike,
) -> tuple[FloatOrArray, FloatOrArray]:
    """Normal and tangential impulses of one impact in Walton's model.

    Parameters
    ----------
    vn : float or array_like
        Normal approach speed ``(v_i - v_j) . n``, m/s (positive when approaching).
    c : float or array_like
        Tangential contact speed ``(v_i - v_j) . t + R_i w_i + R_j w_j``, m/s.
    Wn : float or array_like
        Normal inverse mass ``1/m_i + 1/m_j``, 1/kg (``1/m_j = 0`` for a fixed obstacle).
    Wt : float or array_like
        Tangential inverse mass ``Wn + R_i^2/I_i + R_j^2/I_j``, 1/kg.
    e : float or array_like
        Normal restitution (dimensionless), in [0, 1].
    mu_c : float or array_like
        Contact (impact) friction coefficient (dimensionless), >= 0.
    beta0 : float or array_like
        Tangential restitution limit (dimensionless), in [-1, 1].

    Returns
    -------
    Jn : float or ndarray
        Normal impulse ``(1 + e) vn / Wn``, N s (kg m/s).
    Jt : float or ndarray
        Tangential impulse ``(1 + beta) c / Wt``, N s, with
        ``beta = min(beta0, -1 + mu_c (1 + e) vn Wt / (Wn |c|))``; zero when ``c == 0``.

    Notes
    -----
    A contact that is not approaching (``vn <= 0``) is no impact: both impulses are zero.
    The second argument of the ``min`` is the sliding (Coulomb) branch, where
    ``|Jt| = mu_c Jn`` exactly; ``beta0`` caps the sticking branch. After the impact the
    normal approach speed is ``-e vn`` and the tangential contact speed ``-beta c``.
    Multiplying out, ``|Jt| = min((1 + beta0) |c| / Wt, mu_c Jn)``, which is how it is
    computed (no division by ``|c|``).

    References
    ----------
    Walton (1993); Luding et al., *Phys. Rev. E* 50, 4113 (1994),
    doi:10.1103/PhysRevE.50.4113 (see the module docstring).

    Examples
    --------
    Two equal 5 g discs, head-on, frictionless and elastic:

    >>> Jn, Jt = walton_impulses(1.0, 0.0, 2 / 0.005, 6 / 0.005, 1.0, 0.0, -1.0)
    >>> round(float(Jn), 12), float(Jt)
    (0.005, 0.0)
    """
    vn, c, Wn, Wt, e, mu_c, beta0 = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (vn, c, Wn, Wt, e, mu_c, beta0))
    )
    approaching = vn > 0.0
    Jn = np.where(approaching, (1.0 + e) * vn / Wn, 0.0)
    # (1 + beta) |c| / Wt with beta = min(beta0, -1 + mu_c Jn Wt / |c|) is
    # min((1 + beta0) |c| / Wt, mu_c Jn): the same formula without dividing by |c|, so a
    # tiny or zero c needs no special case and cannot overflow.
    Jt = np.sign(c) * np.minimum((1.0 + beta0) * np.abs(c) / Wt, mu_c * Jn)
    return Jn[()], Jt[()]


def resolve_pair(
    v1: ArrayLike,
    w1: ArrayLike,
    m1: ArrayLike,
    I1: ArrayLike,
    R1: ArrayLike,
    v2: ArrayLike,
    w2: ArrayLike,
    m2: ArrayLike,
    I2: ArrayLike,
    R2: ArrayLike,
    n: ArrayLike,
    e: ArrayLike,
    mu_c: ArrayLike,
    beta0: ArrayLike,
) -> tuple[NDArray[np.float64], FloatOrArray, NDArray[np.float64], FloatOrArray]:
    """Velocities and spins of two discs just after a Walton impact.

    Parameters
    ----------
    v1, v2 : array_like, shape (..., 2)
        Velocities of disc 1 and disc 2 before the impact, m/s.
    w1, w2 : float or array_like, shape (...)
        Spins before the impact, rad/s, counter-clockwise positive.
    m1, m2 : float or array_like
        Masses, kg.
    I1, I2 : float or array_like
        Moments of inertia about the disc axes, kg m^2 (``m R^2 / 2`` for a uniform disc).
    R1, R2 : float or array_like
        Radii, m.
    n : array_like, shape (..., 2)
        Unit contact normal pointing from the centre of disc 1 to the centre of disc 2.
    e : float or array_like
        Normal restitution (dimensionless), in [0, 1]. Apply the low-speed rule with
        :func:`effective_restitution` before calling, if wanted.
    mu_c : float or array_like
        Contact friction coefficient (dimensionless), >= 0.
    beta0 : float or array_like
        Tangential restitution limit (dimensionless), in [-1, 1].

    Returns
    -------
    v1_new : ndarray, shape (..., 2)
        Velocity of disc 1 after the impact, m/s.
    w1_new : float or ndarray
        Spin of disc 1 after the impact, rad/s.
    v2_new : ndarray, shape (..., 2)
        Velocity of disc 2 after the impact, m/s.
    w2_new : float or ndarray
        Spin of disc 2 after the impact, rad/s.

    Notes
    -----
    With ``vn = (v1 - v2) . n`` and ``c = (v1 - v2) . t + R1 w1 + R2 w2`` the impulses are
    those of :func:`walton_impulses` with ``Wn = 1/m1 + 1/m2`` and
    ``Wt = Wn + R1^2/I1 + R2^2/I2``. Disc 1 receives ``-Jn n - Jt t`` and
    ``dw1 = -R1 Jt / I1``; disc 2 receives ``+Jn n + Jt t`` and ``dw2 = -R2 Jt / I2`` (both
    contact points feel a torque of the same sign because they sit on opposite sides of the
    contact). Linear momentum and angular momentum are conserved; kinetic energy does not
    increase for ``0 <= e <= 1`` and ``-1 <= beta0 <= 1``. A pair that is not approaching
    (``vn <= 0``) is returned unchanged.

    References
    ----------
    Walton (1993); Luding et al., *Phys. Rev. E* 50, 4113 (1994),
    doi:10.1103/PhysRevE.50.4113 (see the module docstring).

    Examples
    --------
    Equal discs, head-on, elastic and frictionless: the velocities are exchanged.

    >>> m, R = 0.005, 0.0155
    >>> v1, w1, v2, w2 = resolve_pair([1.0, 0.0], 0.0, m, m * R**2 / 2, R,
    ...                               [0.0, 0.0], 0.0, m, m * R**2 / 2, R,
    ...                               [1.0, 0.0], 1.0, 0.0, -1.0)
    >>> np.round(v1, 12).tolist(), np.round(v2, 12).tolist()
    ([0.0, 0.0], [1.0, 0.0])
    """
    v1, v2, n = (np.asarray(x, dtype=float) for x in (v1, v2, n))
    w1, m1, I1, R1 = (np.asarray(x, dtype=float) for x in (w1, m1, I1, R1))
    w2, m2, I2, R2 = (np.asarray(x, dtype=float) for x in (w2, m2, I2, R2))
    t = _tangent(n)
    dv = v1 - v2
    vn = np.sum(dv * n, axis=-1)
    c = np.sum(dv * t, axis=-1) + R1 * w1 + R2 * w2
    Wn = 1.0 / m1 + 1.0 / m2
    Wt = Wn + R1**2 / I1 + R2**2 / I2
    Jn, Jt = walton_impulses(vn, c, Wn, Wt, e, mu_c, beta0)
    Jn, Jt = np.asarray(Jn), np.asarray(Jt)
    impulse = Jn[..., None] * n + Jt[..., None] * t
    v1_new = v1 - impulse / m1[..., None]
    v2_new = v2 + impulse / m2[..., None]
    w1_new = (w1 - R1 * Jt / I1)[()]
    w2_new = (w2 - R2 * Jt / I2)[()]
    return v1_new, w1_new, v2_new, w2_new


def resolve_fixed(
    v: ArrayLike,
    w: ArrayLike,
    m: ArrayLike,
    I: ArrayLike,
    R: ArrayLike,
    n: ArrayLike,
    e: ArrayLike,
    mu_c: ArrayLike,
    beta0: ArrayLike,
) -> tuple[NDArray[np.float64], FloatOrArray]:
    """Velocity and spin of a disc just after a Walton impact on a fixed obstacle.

    A cushion or a peg is a body of infinite mass that does not move or rotate, so only the
    disc's terms enter the inverse masses: ``Wn = 1/m`` and ``Wt = 1/m + R^2/I``.

    Parameters
    ----------
    v : array_like, shape (..., 2)
        Disc velocity before the impact, m/s.
    w : float or array_like, shape (...)
        Disc spin before the impact, rad/s, counter-clockwise positive.
    m : float or array_like
        Disc mass, kg.
    I : float or array_like
        Disc moment of inertia about its axis, kg m^2.
    R : float or array_like
        Disc radius, m.
    n : array_like, shape (..., 2)
        Unit contact normal pointing from the disc centre toward the obstacle (for the
        cushion at ``x = +L/2`` this is ``(1, 0)``).
    e : float or array_like
        Normal restitution of the obstacle (dimensionless), in [0, 1].
    mu_c : float or array_like
        Contact friction coefficient of the obstacle (dimensionless), >= 0.
    beta0 : float or array_like
        Tangential restitution limit of the obstacle (dimensionless), in [-1, 1].

    Returns
    -------
    v_new : ndarray, shape (..., 2)
        Disc velocity after the impact, m/s.
    w_new : float or ndarray
        Disc spin after the impact, rad/s.

    Notes
    -----
    With ``vn = v . n`` and ``c = v . t + R w`` the disc receives ``-Jn n - Jt t`` and
    ``dw = -R Jt / I`` (:func:`walton_impulses`). Frictionless, the velocity component
    along the cushion is kept and the normal one becomes ``-e vn``, so the angle to the
    normal obeys ``tan(theta_out) = tan(theta_in) / e``. A disc that is not approaching
    (``vn <= 0``) is returned unchanged.

    References
    ----------
    Walton (1993); Luding et al., *Phys. Rev. E* 50, 4113 (1994),
    doi:10.1103/PhysRevE.50.4113 (see the module docstring).

    Examples
    --------
    >>> m, R = 0.005, 0.0155
    >>> v, w = resolve_fixed([1.0, 0.5], 0.0, m, m * R**2 / 2, R, [1.0, 0.0], 0.5, 0.0, -1.0)
    >>> np.round(v, 12).tolist(), float(w)
    ([-0.5, 0.5], 0.0)
    """
    v, n = np.asarray(v, dtype=float), np.asarray(n, dtype=float)
    w, m, I, R = (np.asarray(x, dtype=float) for x in (w, m, I, R))
    t = _tangent(n)
    vn = np.sum(v * n, axis=-1)
    c = np.sum(v * t, axis=-1) + R * w
    Wn = 1.0 / m
    Wt = Wn + R**2 / I
    Jn, Jt = walton_impulses(vn, c, Wn, Wt, e, mu_c, beta0)
    Jn, Jt = np.asarray(Jn), np.asarray(Jt)
    v_new = v - (Jn[..., None] * n + Jt[..., None] * t) / m[..., None]
    w_new = (w - R * Jt / I)[()]
    return v_new, w_new
