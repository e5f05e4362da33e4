"""Fixed-step reference integrator against closed forms of the model in docs/physics.md.

Tolerances: sliding is integrated with its exact closed form, so a free disc's path is
exact up to rounding (1e-9 m) and only event times are quantised to the step (within dt).
An impact is detected up to one step late, which shifts positions by at most the distance
travelled in a step (v0 dt) and speeds by at most the deceleration over a step (mu g dt).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from carromlab.engine.reference import IN_DITCH, IN_HOLE, ON_BOARD, simulate_reference
from carromlab.physics.params import PhysicsParams

R, M = 0.0155, 0.0052  # ICF coin radius (m) and mass (kg)
PARAMS = PhysicsParams(mu=0.12, friction_law="coulomb")  # the closed forms below are the Coulomb law's
A = PARAMS.deceleration  # m/s^2


def run(positions, velocities, *, omegas=None, radii=None, masses=None, **kwargs):
    n = len(positions)
    return simulate_reference(
        positions,
        velocities,
        np.zeros(n) if omegas is None else omegas,
        np.full(n, R) if radii is None else radii,
        np.full(n, M) if masses is None else masses,
        **{"half_size": 2.0, "params": PARAMS, "dt": 1e-3, **kwargs},
    )


def time_to_travel(v0: float, s: float) -> float:
    """Time to slide a path length s from speed v0 at deceleration A (docs/physics.md form)."""
    return 2 * s / (v0 + math.sqrt(v0**2 - 2 * A * s))


# --- sliding and spin --------------------------------------------------------------------


@pytest.mark.parametrize("dt", [1e-3, 5e-4])
@pytest.mark.parametrize("angle", [0.0, 0.6, 2.2, -1.3])
def test_single_disc_stops_at_closed_form_distance_and_time(dt, angle):
    v0 = 2.0
    u = np.array([np.cos(angle), np.sin(angle)])
    start = np.array([0.1, -0.2])
    res = run([start], [v0 * u], half_size=5.0, dt=dt)
    np.testing.assert_allclose(res.positions[0], start + v0**2 / (2 * A) * u, rtol=0, atol=1e-9)
    t_stop = v0 / A
    assert t_stop - 1e-12 <= res.t_end <= t_stop + dt + 1e-12
    np.testing.assert_array_equal(res.velocities, 0.0)
    assert not res.truncated and res.impacts == [] and res.status[0] == ON_BOARD


def test_spin_decays_at_four_thirds_mu_g_over_r_and_does_not_move_the_disc():
    w0, dt = 60.0, 1e-3
    alpha = 4 / 3 * A / R  # rad/s^2
    mid = run([[0.0, 0.0]], [[0.0, 0.0]], omegas=[w0], t_max=0.2, dt=dt)
    assert mid.omegas[0] == pytest.approx(w0 - alpha * 0.2, abs=1e-9)
    assert mid.truncated
    res = run([[0.0, 0.0]], [[0.0, 0.0]], omegas=[-w0], dt=dt)
    assert res.omegas[0] == 0.0
    assert w0 / alpha - 1e-12 <= res.t_end <= w0 / alpha + dt + 1e-12
    np.testing.assert_array_equal(res.positions, [[0.0, 0.0]])
    spinning = run([[0.0, 0.0]], [[1.0, 0.5]], omegas=[200.0])
    plain = run([[0.0, 0.0]], [[1.0, 0.5]])
    np.testing.assert_allclose(spinning.positions, plain.positions, rtol=0, atol=1e-12)


# --- impacts -----------------------------------------------------------------------------


def head_on_exact(x0: float, v0: float) -> tuple[float, float]:
    """Contact time (s) and speed (m/s) of a disc at x0 < 0 sliding into a disc at rest at 0."""
    gap = -x0 - 2 * R
    v_c = math.sqrt(v0**2 - 2 * A * gap)
    return (v0 - v_c) / A, v_c


def test_head_on_elastic_collision_transfers_the_velocity():
    x0, v0, dt = -0.3, 1.5, 1e-3
    params = PARAMS.with_(e_disc=1.0, mu_contact=0.0)
    t_c, v_c = head_on_exact(x0, v0)
    t_mid = 0.5  # after the impact, the struck disc still sliding
    assert t_c < t_mid < t_c + v_c / A
    mid = run([[x0, 0.0], [0.0, 0.0]], [[v0, 0.0], [0.0, 0.0]], params=params, dt=dt, t_max=t_mid)
    np.testing.assert_allclose(mid.velocities[0], 0.0, atol=1e-9)
    np.testing.assert_allclose(mid.velocities[1], [v_c - A * (t_mid - t_c), 0.0], rtol=0, atol=A * dt)

    res = run([[x0, 0.0], [0.0, 0.0]], [[v0, 0.0], [0.0, 0.0]], params=params, dt=dt)
    np.testing.assert_allclose(res.positions[0], [-2 * R, 0.0], rtol=0, atol=v0 * dt)
    np.testing.assert_allclose(res.positions[1], [v_c**2 / (2 * A), 0.0], rtol=0, atol=v0 * dt)
    assert [(r.kind, r.i, r.j) for r in res.impacts] == [("disc", 0, 1)]
    assert t_c <= res.impacts[0].t <= t_c + dt


@pytest.mark.parametrize("e", [0.75, 0.4])
def test_cushion_bounce_returns_with_e_times_the_impact_speed(e):
    half, v0, dt = 0.5, 2.0, 1e-3
    params = PARAMS.with_(e_cushion=e)
    gap = half - R
    v_c = math.sqrt(v0**2 - 2 * A * gap)
    t_c = time_to_travel(v0, gap)
    t_mid = round(t_c + 0.3, 3)
    mid = run([[0.0, 0.0]], [[v0, 0.0]], half_size=half, params=params, dt=dt, t_max=t_mid)
    v_mid = e * v_c - A * (t_mid - t_c)
    np.testing.assert_allclose(mid.velocities[0], [-v_mid, 0.0], rtol=0, atol=A * dt)
    res = run([[0.0, 0.0]], [[v0, 0.0]], half_size=half, params=params, dt=dt)
    assert res.positions[0, 0] == pytest.approx(gap - (e * v_c) ** 2 / (2 * A), abs=v0 * dt)
    assert [(r.kind, r.i, r.j) for r in res.impacts] == [("cushion", 0, 1)]
    assert t_c <= res.impacts[0].t <= t_c + dt


@pytest.mark.parametrize("theta_deg", [0.0, 20.0, 45.0, 70.0])
def test_frictionless_oblique_cushion_bounce_obeys_the_reflection_law(theta_deg):
    e, theta, v0, half = 0.6, math.radians(theta_deg), 1.2, 0.4
    params = PARAMS.with_(e_cushion=e, mu_cushion=0.0)
    start = np.array([-0.3, 0.2])
    u = np.array([math.sin(theta), math.cos(theta)])  # theta from the normal of y = +L/2
    s_c = (half - R - start[1]) / u[1]
    v_c = math.sqrt(v0**2 - 2 * A * s_c)
    speed_out = v_c * math.hypot(u[0], e * u[1])
    t_mid = round(time_to_travel(v0, s_c) + 0.5 * speed_out / A, 3)  # half-way to the stop
    mid = run([start], [v0 * u], half_size=half, params=params, t_max=t_mid)
    assert [(r.kind, r.j) for r in mid.impacts] == [("cushion", 3)]
    vx, vy = mid.velocities[0]
    # The speed decays along a straight line, so the direction is exact in the reference.
    assert vy < 0
    assert vx / -vy == pytest.approx(math.tan(theta) / e, rel=1e-9, abs=1e-12)


def test_peg_bounce_returns_with_e_peg_times_the_impact_speed():
    e_peg, v0, dt, r_peg = 0.6, 1.5, 1e-3, 0.0032
    params = PARAMS.with_(e_peg=e_peg)
    gap = 0.3 - r_peg - R
    v_c, t_c = math.sqrt(v0**2 - 2 * A * gap), time_to_travel(v0, gap)
    t_mid = round(t_c + 0.2, 3)
    mid = run([[0.0, 0.0]], [[v0, 0.0]], pegs=[(0.3, 0.0, r_peg)], params=params, dt=dt, t_max=t_mid)
    v_mid = e_peg * v_c - A * (t_mid - t_c)
    np.testing.assert_allclose(mid.velocities[0], [-v_mid, 0.0], rtol=0, atol=A * dt)
    assert [(r.kind, r.i, r.j) for r in mid.impacts] == [("peg", 0, 0)]


def test_a_line_of_touching_discs_passes_the_impulse_on_within_the_step():
    """Newton's cradle, numbered against the direction of travel: all impacts happen at once."""
    v0, x_striker, dt = 1.5, 0.3, 1e-3
    params = PARAMS.with_(e_disc=1.0, mu_contact=0.0)
    line = [[-4 * R, 0.0], [-2 * R, 0.0], [0.0, 0.0]]
    gap = x_striker - 2 * R
    v_c, t_c = math.sqrt(v0**2 - 2 * A * gap), time_to_travel(v0, gap)
    res = run(line + [[x_striker, 0.0]], [[0.0, 0.0]] * 3 + [[-v0, 0.0]], params=params, dt=dt)
    assert [(r.kind, r.i, r.j) for r in res.impacts] == [("disc", 2, 3), ("disc", 1, 2), ("disc", 0, 1)]
    assert all(t_c <= r.t <= t_c + dt for r in res.impacts)
    expected = [-4 * R - v_c**2 / (2 * A), -2 * R, 0.0, 2 * R]
    np.testing.assert_allclose(res.positions[:, 0], expected, rtol=0, atol=v0 * dt)


def test_slow_disc_impacts_are_plastic_and_leave_the_discs_touching():
    """Below plastic_speed e = 0: a pair slides off together, a disc stops at a cushion or peg."""
    params = PARAMS.with_(e_disc=1.0, e_cushion=1.0, e_peg=1.0, mu_contact=0.0, plastic_speed=0.5)
    v0, x0 = 1.0, -0.35  # arrives at 0.43 m/s, below plastic_speed
    t_c, v_c = head_on_exact(x0, v0)
    assert v_c < params.plastic_speed
    pair = run([[x0, 0.0], [0.0, 0.0]], [[v0, 0.0], [0.0, 0.0]], params=params)
    slide = (v_c / 2) ** 2 / (2 * A)  # equal masses share the momentum
    np.testing.assert_allclose(pair.positions[:, 0], [-2 * R + slide, slide], rtol=0, atol=v0 * 1e-3)
    assert pair.positions[1, 0] - pair.positions[0, 0] == pytest.approx(2 * R, abs=1e-9)
    assert len(pair.impacts) == 1

    half = 0.35 + R  # the cushion is met after the same 0.35 m
    cushion = run([[0.0, 0.0]], [[v0, 0.0]], half_size=half, params=params)
    assert cushion.positions[0, 0] == pytest.approx(half - R, abs=1e-9)
    peg = run([[0.0, 0.0]], [[v0, 0.0]], pegs=[(0.35 + R + 0.003, 0.0, 0.003)], params=params)
    assert peg.positions[0, 0] == pytest.approx(0.35, abs=1e-9)
    fast = run([[0.0, 0.0]], [[2.0, 0.0]], half_size=half, params=params, t_max=0.5)
    assert fast.velocities[0, 0] < 0  # above plastic_speed the elastic cushion returns it


def test_overlap_removal_keeps_the_pair_centre_of_mass():
    m_heavy, m_light, overlap, v0, dt = 0.015, 0.0052, 0.002, 1.0, 1e-3
    # The light disc moves away from the heavy one: no impact, only the push apart.
    res = run(
        [[0.0, 0.0], [2 * R - overlap, 0.0]], [[0.0, 0.0], [v0, 0.0]],
        masses=[m_heavy, m_light], dt=dt,
    )
    assert res.impacts == []
    left = overlap - (v0**2 - (v0 - A * dt) ** 2) / (2 * A)  # after the first slide
    m_sum = m_heavy + m_light
    assert res.positions[0, 0] == pytest.approx(-left * m_light / m_sum, abs=1e-12)
    x_light = 2 * R - overlap + left * m_heavy / m_sum + v0**2 / (2 * A)
    assert res.positions[1, 0] == pytest.approx(x_light, abs=1e-9)


# --- holes and the ditch -----------------------------------------------------------------

HOLE_X, HOLE_R = 0.3, 0.02225  # ICF pocket: 4.45 cm diameter
RHO = math.sqrt(HOLE_R**2 - R**2)  # capture radius, m
S_CAPTURE = HOLE_X - RHO  # path length to the capture circle, m


@pytest.mark.parametrize("dt", [1e-3, 2.5e-4])
def test_disc_rolling_straight_into_a_hole_is_captured_on_the_capture_circle(dt):
    v0 = 1.0
    holes = [(-HOLE_X, 0.0, HOLE_R), (HOLE_X, 0.0, HOLE_R)]
    res = run([[0.0, 0.0]], [[v0, 0.0]], omegas=[200.0], holes=holes, dt=dt)  # still spinning
    assert res.status[0] == IN_HOLE and res.hole[0] == 1
    t_star = time_to_travel(v0, S_CAPTURE)
    assert t_star <= res.capture_time[0] <= t_star + dt
    assert RHO - v0 * dt <= HOLE_X - res.positions[0, 0] <= RHO
    np.testing.assert_array_equal(res.velocities, 0.0)
    np.testing.assert_array_equal(res.omegas, 0.0)


def test_disc_placed_inside_a_capture_circle_falls_at_once():
    res = run([[HOLE_X - 0.5 * RHO, 0.0]], [[0.3, 0.0]], holes=[(HOLE_X, 0.0, HOLE_R)])
    assert res.status[0] == IN_HOLE and res.capture_time[0] == 0.0
    assert res.positions[0, 0] == HOLE_X - 0.5 * RHO


def test_disc_stopping_short_of_the_capture_circle_stays_on_the_board():
    v0 = math.sqrt(2 * A * (S_CAPTURE - 0.002))
    res = run([[0.0, 0.0]], [[v0, 0.0]], holes=[(HOLE_X, 0.0, HOLE_R)])
    assert res.status[0] == ON_BOARD and res.hole[0] == -1 and math.isnan(res.capture_time[0])
    assert res.positions[0, 0] == pytest.approx(S_CAPTURE - 0.002, abs=1e-9)


def test_capture_speed_limit_lets_fast_discs_pass_but_takes_discs_stopping_inside():
    params = PARAMS.with_(capture_speed_max=0.5)
    fast = run([[0.0, 0.0]], [[2.0, 0.0]], holes=[(HOLE_X, 0.0, HOLE_R)], params=params)
    assert fast.status[0] == ON_BOARD
    assert fast.positions[0, 0] == pytest.approx(2.0**2 / (2 * A), abs=1e-9)
    # Enters at sqrt(2 A 5 mm) = 0.11 m/s, below the limit: falls when it enters.
    v0 = math.sqrt(2 * A * (S_CAPTURE + 0.005))
    slow = run([[0.0, 0.0]], [[v0, 0.0]], holes=[(HOLE_X, 0.0, HOLE_R)], params=params)
    assert slow.status[0] == IN_HOLE
    # Same entry at 0.11 m/s, now above the limit: it passes over, stops inside and falls.
    strict = PARAMS.with_(capture_speed_max=0.05)
    stops_inside = run([[0.0, 0.0]], [[v0, 0.0]], holes=[(HOLE_X, 0.0, HOLE_R)], params=strict)
    assert stops_inside.status[0] == IN_HOLE
    assert v0 / A <= stops_inside.capture_time[0] <= v0 / A + 1e-3


def test_round_board_disc_crossing_the_edge_falls_into_the_ditch():
    half, v0, dt = 0.33, 1.5, 1e-3
    u = np.array([1.0, 1.0]) / math.sqrt(2)
    res = run([[0.0, 0.0]], [v0 * u], shape="round", half_size=half, dt=dt)
    assert res.status[0] == IN_DITCH and res.hole[0] == -1
    t_star = time_to_travel(v0, half)
    assert t_star <= res.capture_time[0] <= t_star + dt
    short = run([[0.0, 0.0]], [0.9 * math.sqrt(2 * A * half) * u], shape="round", half_size=half)
    assert short.status[0] == ON_BOARD


# --- convergence, robustness, API --------------------------------------------------------


def test_head_on_error_shrinks_linearly_as_dt_decreases():
    """Mean error of the final positions over start offsets that sample the step phase."""
    v0 = 1.5
    params = PARAMS.with_(e_disc=1.0, mu_contact=0.0)
    errors = []
    for dt in (1e-3, 5e-4, 2.5e-4):
        err = []
        for offset in 0.37e-3 * np.arange(6):  # not a multiple of a step's travel
            x0 = -0.3 - offset
            _, v_c = head_on_exact(x0, v0)
            res = run([[x0, 0.0], [0.0, 0.0]], [[v0, 0.0], [0.0, 0.0]], params=params, dt=dt)
            err.append(abs(res.positions[0, 0] + 2 * R) + abs(res.positions[1, 0] - v_c**2 / (2 * A)))
        errors.append(np.mean(err))
        assert errors[-1] <= v0 * dt  # the first-order bound of the module docstring
    assert errors[1] < 0.7 * errors[0]
    assert errors[2] < 0.7 * errors[1]


def test_break_of_a_hexagonal_pack_ends_without_overlaps_inside_the_board():
    d = 2 * R
    ring = [(d * math.cos(k * math.pi / 3), d * math.sin(k * math.pi / 3)) for k in range(6)]
    pack = [(0.0, 0.0), *ring]
    positions = np.array([(0.0, -0.3), *pack])
    velocities = np.zeros_like(positions)
    velocities[0] = (0.05, 4.0)
    radii = np.array([0.0206] + [R] * 7)
    masses = np.array([0.015] + [M] * 7)
    res = run(positions, velocities, radii=radii, masses=masses, half_size=0.37)
    assert not res.truncated
    assert len(res.impacts) > 7
    on = res.status == ON_BOARD
    p, r = res.positions[on], radii[on]
    gaps = np.hypot(*(p[:, None, :] - p[None, :, :]).transpose(2, 0, 1)) - (r[:, None] + r[None, :])
    assert gaps[np.triu_indices(len(p), 1)].min() >= -1e-9
    assert np.all(np.abs(p) + r[:, None] <= 0.37 + 1e-9)


def test_inputs_are_not_mutated_and_runs_are_deterministic():
    positions = np.array([[-0.3, 0.01], [0.0, 0.0], [0.05, 0.03]])
    velocities = np.array([[2.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    omegas = np.array([30.0, 0.0, 0.0])
    copies = positions.copy(), velocities.copy(), omegas.copy()
    first = run(positions, velocities, omegas=omegas, half_size=0.37)
    second = run(positions, velocities, omegas=omegas, half_size=0.37)
    for arr, copy in zip((positions, velocities, omegas), copies):
        np.testing.assert_array_equal(arr, copy)
    np.testing.assert_array_equal(first.positions, second.positions)
    assert first.impacts == second.impacts


def test_invalid_input_names_the_parameter():
    with pytest.raises(ValueError, match="'radii' parameter"):
        run([[0.0, 0.0]], [[1.0, 0.0]], radii=[-0.01])
    with pytest.raises(ValueError, match="'dt' parameter"):
        run([[0.0, 0.0]], [[1.0, 0.0]], dt=0.0)
    with pytest.raises(ValueError, match="'shape' parameter"):
        run([[0.0, 0.0]], [[1.0, 0.0]], shape="oval")


@pytest.mark.parametrize(("w0", "dist", "time"), [(100.0, 0.83, 1.67), (300.0, 2.09, 3.77)])
def test_slide_spin_worked_values(w0, dist, time):
    """PHYSICS.md worked table (mu = 0.1, R = 15.5 mm, v0 = 1 m/s; values to their last digit):
    the reference's own Runge-Kutta integration of the Farkas law reproduces it, and slide and
    spin stop in the same step (Farkas et al. 2003)."""
    params = PhysicsParams(mu=0.1, friction_law="slide_spin")
    res = run([[0.0, 0.0]], [[1.0, 0.0]], omegas=[w0], params=params, dt=1e-3, half_size=10.0)
    assert res.positions[0, 0] == pytest.approx(dist, abs=0.005)
    assert res.t_end == pytest.approx(time, abs=0.005 + 1e-3)


@pytest.mark.parametrize(("law", "extra"), [("linear", {"mu_v": 0.05}), ("stribeck", {}), ("coulomb", {"air_drag": 0.5})])
def test_speed_dependent_laws_against_quadrature(law, extra):
    """Stopping distance int_0^v0 u du / f(u), f = g mu(u) + k u^2, by quadrature (scipy) vs the
    reference's Runge-Kutta steps: within 1e-6 m at dt = 1e-3 s."""
    from scipy.integrate import quad

    params = PhysicsParams(mu=0.1, friction_law=law, **extra)
    g, k = params.g, params.air_drag

    def mu(u: float) -> float:
        if law == "linear":
            return params.mu + params.mu_v * u
        if law == "stribeck":
            return params.mu + (params.mu_static - params.mu) * math.exp(-((u / params.stribeck_speed) ** 2))
        return params.mu

    expected = quad(lambda u: u / (g * mu(u) + k * u * u), 0.0, 1.5, epsabs=1e-13)[0]
    res = run([[0.0, 0.0]], [[1.5, 0.0]], params=params, dt=1e-3, half_size=10.0)
    assert res.positions[0, 0] == pytest.approx(expected, abs=1e-6)
