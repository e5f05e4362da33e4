"""Fixed-step pure-NumPy reference integrator of the carromlab physics model.

A deliberately simple, first-order-in-``dt`` integrator of the model in
``docs/physics.md``, written independently of the event-driven engine so that tests can
check the engine against it: as ``dt`` decreases the two must agree better and better.
Clarity comes before speed; only the obviously vectorisable parts (sliding, overlap
detection) use array operations.

Each step of length ``dt``:

1. every disc on the board slides along its velocity under the friction law of
   ``params.friction_law``: the constant Coulomb law in closed form (clamped at the stop, so
   a disc that stops inside a step stops at the right place; its spin decays at
   ``(4/3) mu g / R`` toward zero); every other law by one classical Runge-Kutta step of
   ``dv/dt = -g mu(v) F(eps) - k v^2``, ``dw/dt = -(2 g mu(v) / R) T(eps)`` (or the
   independent spin decay ``(4/3) g mu(0) / R`` for laws without slide-spin coupling), with
   ``F`` and ``T`` from :func:`carromlab.physics.friction.slide_spin_factors`, and a disc
   whose speed would reach zero inside the step stops after ``v^2 / (2 a)`` at its current
   deceleration ``a``;
2. captures: a disc whose centre is inside a capture circle falls into that hole, a disc
   beyond the edge of a round board falls into the ditch;
3. contacts: every overlapping pair, disc-cushion and disc-peg contact that is
   approaching gets a Walton impact (:mod:`carromlab.physics.impacts`, with the TC model
   on the step times and the low-speed plastic rule), and overlaps are removed by moving the discs apart along the normal.
   Sweeps over all contacts, in a fixed order, repeat until a sweep resolves no impact
   (at most ``max_sweeps`` times per step).

The error of an impact is set by how late in its step the contact is found (the overlap,
up to the approach speed times ``dt``, tilts the normal), not by ``dt`` alone: halving ``dt``
finds a contact that falls in the second half of a coarse step at the same instant, so a
shot whose every contact does that ends exactly as at the coarse step. Convergence checks
should average over step sizes that do not nest (``tests/engine/test_vs_reference.py``).

The sticky merge of pushing pairs (rule 2 of the low-speed rules, and the continuing
contact of a pair meeting again within the contact duration) is not modelled: a pair
that is touching but not approaching is only kept from interpenetrating, and a pusher that
catches up again within a step meets a plastic impact, which gives the same common normal
velocity to first order in ``dt``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._validation import check_array, check_choice, check_int, check_real, check_type
from ..physics.friction import slide_spin_factors
from ..physics.impacts import effective_restitution, resolve_fixed, resolve_pair
from ..physics.params import PhysicsParams

__all__ = [
    "ON_BOARD",
    "IN_HOLE",
    "IN_DITCH",
    "KAPPA",
    "ImpactRecord",
    "ReferenceResult",
    "simulate_reference",
]

#: Status codes of a disc at the end of a shot.
ON_BOARD, IN_HOLE, IN_DITCH = 0, 1, 2

#: Moment-of-inertia factor I = KAPPA m R^2 of a uniform disc.
KAPPA = 0.5

#: Outward unit normals of the four cushions of a square board, indexed by cushion number:
#: 0 at x = -L/2, 1 at x = +L/2, 2 at y = -L/2, 3 at y = +L/2.
_CUSHION_NORMALS = np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])


class ImpactRecord(NamedTuple):
    """One resolved impact.

    Attributes
    ----------
    t : float
        Time at the end of the step in which the impact was resolved, s.
    kind : str
        ``"disc"``, ``"cushion"`` or ``"peg"``.
    i : int
        Index of the (first) disc.
    j : int
        Index of the second disc (``kind == "disc"``, ``i < j``), of the cushion
        (0: x = -L/2, 1: x = +L/2, 2: y = -L/2, 3: y = +L/2) or of the peg.
    """

    t: float
    kind: str
    i: int
    j: int


@dataclass(frozen=True)
class ReferenceResult:
    """Final state of a shot integrated by :func:`simulate_reference`.

    Attributes
    ----------
    positions : ndarray, shape (n, 2)
        Final centre positions, m. A captured disc keeps the position it had when it fell.
    velocities : ndarray, shape (n, 2)
        Final velocities, m/s (zero for a captured disc).
    omegas : ndarray, shape (n,)
        Final spins, rad/s, counter-clockwise positive (zero for a captured disc).
    status : ndarray of int, shape (n,)
        ``ON_BOARD`` (0), ``IN_HOLE`` (1, a hole or pocket) or ``IN_DITCH`` (2).
    hole : ndarray of int, shape (n,)
        Index into ``holes`` of the hole each disc fell into, -1 if none.
    capture_time : ndarray, shape (n,)
        Time at the end of the step in which the disc fell, s; NaN if it did not.
    impacts : list of ImpactRecord
        Every resolved impact ``(t, kind, i, j)`` in the order of resolution.
    t_end : float
        Time at the end of the last step, s.
    truncated : bool
        True if ``t_max`` was reached while a disc was still moving or spinning.
    """

    positions: NDArray[np.float64]
    velocities: NDArray[np.float64]
    omegas: NDArray[np.float64]
    status: NDArray[np.int64]
    hole: NDArray[np.int64]
    capture_time: NDArray[np.float64]
    impacts: list[ImpactRecord]
    t_end: float
    truncated: bool


def _geometry(name: str, value: Sequence[Sequence[float]] | ArrayLike) -> NDArray[np.float64]:
    """``(k, 3)`` array of ``(x, y, radius)`` rows, checked (an empty sequence gives k = 0)."""
    arr = np.asarray(value, dtype=float)
    if arr.size == 0:
        arr = arr.reshape(0, 3)
    arr = check_array(name, arr, shape=(None, 3))
    check_array(f"{name} radius", arr[:, 2], low=0.0, low_open=True, unit="m")
    return arr


def _slide(
    pos: NDArray[np.float64],
    vel: NDArray[np.float64],
    omg: NDArray[np.float64],
    radii: NDArray[np.float64],
    on: NDArray[np.bool_],
    a: float,
    dt: float,
) -> None:
    """Advance discs on the board by ``dt`` under constant deceleration ``a`` (in place)."""
    speed = np.hypot(vel[:, 0], vel[:, 1])
    moving = on & (speed > 0.0)
    s0 = speed[moving]
    s1 = np.maximum(s0 - a * dt, 0.0)
    # Path length (s0^2 - s1^2) / (2a), factored to avoid cancellation for small dt; it is
    # the exact closed form also when the disc stops inside the step (s1 = 0).
    ds = (s0 - s1) * (s0 + s1) / (2.0 * a)
    u = vel[moving] / s0[:, None]
    pos[moving] += u * ds[:, None]
    vel[moving] = u * s1[:, None]
    # Spin decays independently of the slide (docs/physics.md, Coulomb law).
    spin_decay = (4.0 / 3.0) * a / radii[on] * dt
    omg[on] = np.sign(omg[on]) * np.maximum(np.abs(omg[on]) - spin_decay, 0.0)


def _mu_of_v(params: PhysicsParams, v: NDArray[np.float64]) -> NDArray[np.float64]:
    """Friction coefficient mu(v) of the law ``params.friction_law`` at speeds ``v`` (m/s)."""
    law = params.friction_law
    if law == "linear":
        return params.mu + params.mu_v * v
    if law == "stribeck":
        return params.mu + (params.mu_static - params.mu) * np.exp(-((v / params.stribeck_speed) ** 2))
    return np.full_like(v, params.mu)


def _rates(
    params: PhysicsParams, v: NDArray[np.float64], w: NDArray[np.float64], radii: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """dv/dt (m/s^2) and d|w|/dt (rad/s^2) of sliding discs at speed v and spin magnitude w."""
    v = np.maximum(v, 0.0)
    w = np.maximum(w, 0.0)
    mu = _mu_of_v(params, v)
    if params.friction_law == "slide_spin":
        spinning = w > 0.0
        f = np.ones_like(v)
        torque = np.zeros_like(v)
        if spinning.any():
            f[spinning], torque[spinning] = slide_spin_factors(v[spinning] / (radii[spinning] * w[spinning]))
        dw = -2.0 * params.g * mu * torque / radii
    else:
        f = np.ones_like(v)
        dw = np.where(w > 0.0, -(4.0 / 3.0) * params.g * _mu_of_v(params, np.zeros_like(v)) / radii, 0.0)
    dv = np.where(v > 0.0, -params.g * mu * f - params.air_drag * v * v, 0.0)
    return dv, dw


def _slide_law(
    pos: NDArray[np.float64],
    vel: NDArray[np.float64],
    omg: NDArray[np.float64],
    radii: NDArray[np.float64],
    on: NDArray[np.bool_],
    params: PhysicsParams,
    dt: float,
) -> None:
    """Advance discs on the board by ``dt`` under any friction law (in place): one classical
    Runge-Kutta step of (distance, speed, spin magnitude); a disc whose speed would reach
    zero inside the step stops after v^2 / (2 a) at its deceleration a at the step start."""
    idx = np.flatnonzero(on & ((np.hypot(vel[:, 0], vel[:, 1]) > 0.0) | (omg != 0.0)))
    if len(idx) == 0:
        return
    v0 = np.hypot(vel[idx, 0], vel[idx, 1])
    w0 = np.abs(omg[idx])
    r = radii[idx]
    k1v, k1w = _rates(params, v0, w0, r)
    k2v, k2w = _rates(params, v0 + 0.5 * dt * k1v, w0 + 0.5 * dt * k1w, r)
    k3v, k3w = _rates(params, v0 + 0.5 * dt * k2v, w0 + 0.5 * dt * k2w, r)
    k4v, k4w = _rates(params, v0 + dt * k3v, w0 + dt * k3w, r)
    v1 = v0 + dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)
    w1 = np.maximum(w0 + dt / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w), 0.0)
    ds = dt / 6.0 * (v0 + 2.0 * (v0 + 0.5 * dt * k1v) + 2.0 * (v0 + 0.5 * dt * k2v) + v0 + dt * k3v)
    stops = (v0 > 0.0) & ((v1 <= 0.0) | (v0 + dt * k1v <= 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        ds = np.where(stops, v0 * v0 / (2.0 * -k1v), ds)
    v1 = np.where(stops | (v0 <= 0.0), 0.0, v1)
    ds = np.where(v0 > 0.0, ds, 0.0)
    with np.errstate(invalid="ignore"):
        u = np.where(v0[:, None] > 0.0, vel[idx] / v0[:, None], 0.0)
    pos[idx] += u * ds[:, None]
    vel[idx] = u * v1[:, None]
    omg[idx] = np.sign(omg[idx]) * w1


def _capture(
    t: float,
    pos: NDArray[np.float64],
    vel: NDArray[np.float64],
    omg: NDArray[np.float64],
    status: NDArray[np.int64],
    hole: NDArray[np.int64],
    capture_time: NDArray[np.float64],
    was_inside: NDArray[np.bool_],
    holes: NDArray[np.float64],
    capture_radius: NDArray[np.float64],
    round_board: bool,
    half_size: float,
    capture_speed_max: NDArray[np.float64],
) -> None:
    """Let discs fall into holes and the ditch at time ``t`` (in place).

    A disc falls into a hole when it enters the capture circle no faster than that hole's
    ``capture_speed_max`` (k,), or when it is at rest inside it. ``was_inside`` (n, k) holds the
    inside-state of the previous check, so that a fast disc that passed over a hole is
    not taken when it slows down while still crossing.
    """
    on = status == ON_BOARD
    speed = np.hypot(vel[:, 0], vel[:, 1])
    if len(holes):
        dist = np.hypot(pos[:, None, 0] - holes[None, :, 0], pos[:, None, 1] - holes[None, :, 1])
        # NaN capture radii (hole not larger than the disc) compare False: never inside.
        inside = dist <= capture_radius
        entered = inside & ~was_inside
        slow_entry = entered & (speed[:, None] <= capture_speed_max[None, :])
        falls = on[:, None] & inside & (slow_entry | (speed[:, None] == 0.0))
        for i in np.flatnonzero(falls.any(axis=1)):
            status[i], hole[i], capture_time[i] = IN_HOLE, int(np.argmax(falls[i])), t
        was_inside[:] = inside
    if round_board:
        out = (status == ON_BOARD) & (np.hypot(pos[:, 0], pos[:, 1]) > half_size)
        status[out], capture_time[out] = IN_DITCH, t
    gone = on & (status != ON_BOARD)
    vel[gone] = 0.0
    omg[gone] = 0.0


def _contacts(
    t: float,
    pos: NDArray[np.float64],
    vel: NDArray[np.float64],
    omg: NDArray[np.float64],
    radii: NDArray[np.float64],
    masses: NDArray[np.float64],
    inertia: NDArray[np.float64],
    on: NDArray[np.bool_],
    square_board: bool,
    half_size: float,
    pegs: NDArray[np.float64],
    params: PhysicsParams,
    max_sweeps: int,
    records: list[ImpactRecord],
    last: NDArray[np.float64],
) -> None:
    """Resolve approaching contacts and remove overlaps, sweeping in a fixed order (in place).

    Order within a sweep: disc pairs by (i, j) with i < j, then cushions by disc and
    cushion number, then pegs by disc and peg number. ``last`` holds each disc's last
    impact time (s, for the TC model) and is updated.
    """
    idx = np.flatnonzero(on)
    ps, tc = params.plastic_speed, params.contact_duration
    for _ in range(max_sweeps):
        n_impacts = 0

        p = pos[idx]
        gap = np.hypot(p[None, :, 0] - p[:, None, 0], p[None, :, 1] - p[:, None, 1])
        touching = np.triu(gap < radii[idx][:, None] + radii[idx][None, :], k=1)
        for a, b in zip(*np.nonzero(touching)):
            i, j = int(idx[a]), int(idx[b])
            d_vec = pos[j] - pos[i]
            d = math.hypot(d_vec[0], d_vec[1])
            r_sum = radii[i] + radii[j]
            if d >= r_sum:  # separated by an earlier push in this sweep
                continue
            # Coincident centres have no normal; any fixed direction keeps the run deterministic.
            n = d_vec / d if d > 0.0 else np.array([1.0, 0.0])
            vn = float(np.dot(vel[i] - vel[j], n))
            if vn > 0.0:
                e = effective_restitution(vn, params.e_disc, ps, t - max(last[i], last[j]), tc)
                vel[i], omg[i], vel[j], omg[j] = resolve_pair(
                    vel[i], omg[i], masses[i], inertia[i], radii[i],
                    vel[j], omg[j], masses[j], inertia[j], radii[j],
                    n, e, params.mu_contact, params.beta0_disc,
                )
                last[i] = last[j] = t
                records.append(ImpactRecord(t, "disc", i, j))
                n_impacts += 1
            # Mass-weighted push keeps the pair's centre of mass in place.
            m_sum = masses[i] + masses[j]
            pos[i] -= (r_sum - d) * masses[j] / m_sum * n
            pos[j] += (r_sum - d) * masses[i] / m_sum * n

        if square_board:
            for i in idx:
                for k, n in enumerate(_CUSHION_NORMALS):
                    depth = float(np.dot(pos[i], n)) + radii[i] - half_size
                    if depth < 0.0:
                        continue
                    vn = float(np.dot(vel[i], n))
                    if vn > 0.0:
                        e = effective_restitution(vn, params.e_cushion, ps, t - last[i], tc)
                        vel[i], omg[i] = resolve_fixed(
                            vel[i], omg[i], masses[i], inertia[i], radii[i],
                            n, e, params.mu_cushion, params.beta0_cushion,
                        )
                        last[i] = t
                        records.append(ImpactRecord(t, "cushion", int(i), k))
                        n_impacts += 1
                    pos[i] -= depth * n

        for i in idx:
            for k, (x, y, r_peg) in enumerate(pegs):
                d_vec = np.array([x, y]) - pos[i]
                d = math.hypot(d_vec[0], d_vec[1])
                r_sum = radii[i] + r_peg
                if d >= r_sum:
                    continue
                n = d_vec / d if d > 0.0 else np.array([1.0, 0.0])
                vn = float(np.dot(vel[i], n))
                if vn > 0.0:
                    e = effective_restitution(vn, params.e_peg, ps, t - last[i], tc)
                    vel[i], omg[i] = resolve_fixed(
                        vel[i], omg[i], masses[i], inertia[i], radii[i],
                        n, e, params.mu_peg, params.beta0_peg,
                    )
                    last[i] = t
                    records.append(ImpactRecord(t, "peg", int(i), k))
                    n_impacts += 1
                pos[i] -= (r_sum - d) * n

        if n_impacts == 0:
            break


def simulate_reference(
    positions: ArrayLike,
    velocities: ArrayLike,
    omegas: ArrayLike,
    radii: ArrayLike,
    masses: ArrayLike,
    *,
    half_size: float,
    shape: str = "square",
    holes: Sequence[Sequence[float]] | ArrayLike = (),
    pegs: Sequence[Sequence[float]] | ArrayLike = (),
    params: PhysicsParams,
    dt: float,
    t_max: float = 30.0,
    max_sweeps: int = 10,
) -> ReferenceResult:
    """Integrate a shot with fixed steps: the slow, independent reference of the engine.

    Parameters
    ----------
    positions : array_like, shape (n, 2)
        Initial disc centres, m, board centre at the origin.
    velocities : array_like, shape (n, 2)
        Initial velocities, m/s.
    omegas : array_like, shape (n,)
        Initial spins, rad/s, counter-clockwise positive.
    radii : array_like, shape (n,)
        Disc radii, m (> 0).
    masses : array_like, shape (n,)
        Disc masses, kg (> 0). Moments of inertia are ``KAPPA m R^2`` (uniform discs).
    half_size : float
        Half the side of a square playing surface (cushions at ``x, y = +-half_size``), or
        the radius of a round one, m.
    shape : {"square", "round"}
        ``"square"``: a disc touches a cushion when ``|x| + R >= half_size`` (or in y).
        ``"round"``: no cushion; a disc whose centre is farther than ``half_size`` from
        the origin falls into the ditch.
    holes : sequence of (x, y, radius) or (x, y, radius, capture_speed_max)
        Round holes and pockets, m (and m/s). A disc of radius r falls when its centre is
        within ``sqrt(radius^2 - r^2)`` of the hole centre (never if ``radius <= r``); a
        hole's own ``capture_speed_max`` (inf: no limit; see :class:`~carromlab.equipment.Hole`) and
        ``params.capture_speed_max``, the smaller, bound the crossing speed that falls.
    pegs : sequence of (x, y, radius)
        Fixed round pegs, m.
    params : PhysicsParams
        Friction, impact and capture parameters; every friction law is implemented (the
        Coulomb law in closed form per step, the others by a Runge-Kutta step).
    dt : float
        Time step, s (> 0). The results are first-order accurate in ``dt``.
    t_max : float
        Time limit of the shot, s (> 0); rounded up to a whole number of steps.
    max_sweeps : int
        Maximum number of contact sweeps per step (>= 1).

    Returns
    -------
    ReferenceResult
        Final state, capture information and the list of impacts.

    Raises
    ------
    ValueError
        If an input has the wrong shape or is out of range.

    Notes
    -----
    The first capture check runs at ``t = 0``, so a disc placed inside a capture circle
    falls at once (if it is not faster than ``capture_speed_max``). Crossing speeds for
    ``capture_speed_max`` are the speeds at the end of the step. The shot ends when every
    disc on the board has zero velocity and zero spin, or at ``t_max``.

    Examples
    --------
    A disc launched at 1 m/s stops after v^2 / (2 mu g):

    >>> params = PhysicsParams(mu=0.1, g=10.0)
    >>> res = simulate_reference([[0.0, 0.0]], [[1.0, 0.0]], [0.0], [0.0155], [0.005],
    ...                          half_size=1.0, params=params, dt=1e-3)
    >>> round(float(res.positions[0, 0]), 9), res.t_end
    (0.5, 1.0)
    """
    pos = check_array("positions", positions, shape=(None, 2), unit="m").copy()
    n_discs = len(pos)
    vel = check_array("velocities", velocities, shape=(n_discs, 2), unit="m/s").copy()
    omg = check_array("omegas", omegas, shape=(n_discs,), unit="rad/s").copy()
    radii = check_array("radii", radii, shape=(n_discs,), low=0.0, low_open=True, unit="m")
    masses = check_array("masses", masses, shape=(n_discs,), low=0.0, low_open=True, unit="kg")
    half_size = check_real("half_size", half_size, low=0.0, low_open=True, unit="m")
    check_choice("shape", shape, ("square", "round"))
    hole_rows = np.asarray(holes, dtype=float)
    if hole_rows.ndim == 2 and hole_rows.shape[1] == 4:
        hole_arr, hole_vmax = _geometry("holes", hole_rows[:, :3]), hole_rows[:, 3]
    else:
        hole_arr = _geometry("holes", holes)
        hole_vmax = np.full(len(hole_arr), np.inf)
    peg_arr = _geometry("pegs", pegs)
    check_type("params", params, PhysicsParams, hint="e.g. PhysicsParams()")
    dt = check_real("dt", dt, low=0.0, low_open=True, unit="s")
    t_max = check_real("t_max", t_max, low=0.0, low_open=True, unit="s")
    max_sweeps = check_int("max_sweeps", max_sweeps, low=1)

    inertia = KAPPA * masses * radii**2
    a = params.deceleration
    closed_form = params.friction_law == "coulomb" and params.air_drag == 0.0
    with np.errstate(invalid="ignore"):  # NaN marks holes too small to take the disc
        capture_radius = np.sqrt(hole_arr[None, :, 2] ** 2 - radii[:, None] ** 2)
    status = np.full(n_discs, ON_BOARD, dtype=np.int64)
    hole = np.full(n_discs, -1, dtype=np.int64)
    capture_time = np.full(n_discs, np.nan)
    was_inside = np.zeros((n_discs, len(hole_arr)), dtype=bool)
    records: list[ImpactRecord] = []
    last_impact = np.full(n_discs, -np.inf)
    round_board = shape == "round"

    def capture(t: float) -> None:
        _capture(t, pos, vel, omg, status, hole, capture_time, was_inside, hole_arr,
                 capture_radius, round_board, half_size, np.minimum(hole_vmax, params.capture_speed_max))

    def still(on: NDArray[np.bool_]) -> bool:
        return not (np.any(vel[on] != 0.0) or np.any(omg[on] != 0.0))

    capture(0.0)
    # Tolerance on the ratio so that t_max = k * dt in floating point gives exactly k steps.
    n_steps = math.ceil(t_max / dt * (1.0 - 1e-12))
    t = 0.0
    for step in range(1, n_steps + 1):
        if still(status == ON_BOARD):
            break
        t = step * dt  # not accumulated, so no drift over many steps
        if closed_form:
            _slide(pos, vel, omg, radii, status == ON_BOARD, a, dt)
        else:
            _slide_law(pos, vel, omg, radii, status == ON_BOARD, params, dt)
        capture(t)
        _contacts(t, pos, vel, omg, radii, masses, inertia, status == ON_BOARD,
                  not round_board, half_size, peg_arr, params, max_sweeps, records, last_impact)
    truncated = not still(status == ON_BOARD)

    return ReferenceResult(
        positions=pos,
        velocities=vel,
        omegas=omg,
        status=status,
        hole=hole,
        capture_time=capture_time,
        impacts=records,
        t_end=t,
        truncated=truncated,
    )
