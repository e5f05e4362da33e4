"""Friction laws against closed forms, limits and published worked values.

Tolerances: F and T are exact closed forms (1e-9 against SciPy's elliptic integrals);
integrated kinematics are compared with closed-form solutions to 5e-9 m and 1e-9 s
(the documented error bound of the integrated segments).
"""

import math

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.special import ellipe, ellipk

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.physics.friction import FRICTION_LAWS, get_law, slide_spin_factors

G = 9.81
R = 0.0155


def _farkas_scipy(eps):
    """F and T from the closed forms with SciPy's K(m), E(m), m = k^2."""
    F, T = np.empty_like(eps), np.empty_like(eps)
    for n, e in enumerate(eps):
        if e == 1.0:
            F[n], T[n] = 8 / (3 * np.pi), 8 / (9 * np.pi)
        elif e < 1.0:
            K, E = ellipk(e * e), ellipe(e * e)
            F[n] = 4 * ((1 + e * e) * E - (1 - e * e) * K) / (3 * np.pi * e)
            T[n] = 4 * ((4 - 2 * e * e) * E + (e * e - 1) * K) / (9 * np.pi)
        else:
            K, E = ellipk(1 / e**2), ellipe(1 / e**2)
            F[n] = 4 * ((1 + e * e) * E - (e * e - 1) * K) / (3 * np.pi)
            T[n] = 4 * e * ((4 - 2 * e * e) * E + (2 * e * e - 5 + 3 / e**2) * K) / (9 * np.pi)
    return F, T


def test_F_T_against_closed_forms():
    eps = np.concatenate([np.linspace(0.02, 3.0, 600), np.geomspace(3.0, 15.0, 50)])
    F, T = slide_spin_factors(eps)
    Fr, Tr = _farkas_scipy(eps)
    np.testing.assert_allclose(F, Fr, atol=1e-9)
    np.testing.assert_allclose(T, Tr, atol=1e-9)


def test_F_T_limits():
    F, T = slide_spin_factors(np.array([0.0, 1e-6, 1.0, 1e6]))
    assert F[0] == 0.0 and T[0] == pytest.approx(2 / 3, abs=1e-12)
    assert F[1] == pytest.approx(1e-6, rel=1e-9)  # F ~ eps for small eps
    assert F[2] == pytest.approx(8 / (3 * np.pi), abs=1e-12)
    assert T[2] == pytest.approx(8 / (9 * np.pi), abs=1e-12)
    assert F[3] == pytest.approx(1.0, abs=1e-12)
    assert T[3] * 4e6 == pytest.approx(1.0, rel=1e-9)  # T ~ 1/(4 eps)
    # continuity across the switch points of the evaluation
    for e in (0.01, 20.0, 100.0):
        lo, hi = slide_spin_factors(np.array([e * (1 - 1e-9), e * (1 + 1e-9)]))
        assert abs(lo[1] - lo[0]) < 1e-9 and abs(hi[1] - hi[0]) < 1e-9


def test_eps0_fixed_point_is_an_attractor():
    """2 eps T(eps) = F(eps) at eps0 = 0.6530; eps tends to it before the stop."""
    eps0 = brentq(lambda e: 2 * e * slide_spin_factors(e)[1][0] - slide_spin_factors(e)[0][0], 0.3, 0.9)
    assert eps0 == pytest.approx(0.6530, abs=5e-5)
    law = get_law("slide_spin")
    p = PhysicsParams(mu=0.1, friction_law="slide_spin")
    for v0, w0 in [(1.0, 10.0), (1.0, 300.0), (2.0, 150.0)]:
        _, _, _, t_stop = law.kinematics(p, R, v0, w0, np.array([0.0]))
        eps = []
        for frac in (0.99, 0.999, 0.99999):
            _, v, w, _ = law.kinematics(p, R, v0, w0, np.array([frac * t_stop]))
            eps.append(v[0] / (R * w[0]))
        # approached from either side, closer and closer
        assert abs(eps[2] - eps0) < abs(eps[0] - eps0) and eps[2] == pytest.approx(eps0, rel=1e-2)


@pytest.mark.parametrize(("v0", "w0"), [(1.0, 10.0), (1.0, 100.0), (0.5, 300.0), (2.0, 1000.0)])
def test_slide_and_spin_stop_together(v0, w0):
    law = get_law("slide_spin")
    p = PhysicsParams(mu=0.1, friction_law="slide_spin")
    _, _, w, t_stop = law.kinematics(p, R, v0, w0, np.array([0.0]))
    _, v_end, w_end, _ = law.kinematics(p, R, v0, w0, np.array([t_stop]))
    assert v_end[0] == 0.0
    assert abs(w_end[0]) < 1e-6 * w0


@pytest.mark.parametrize(
    ("w0", "dist", "dist_tol", "time", "time_tol"),
    [(0.0, 0.51, 0.005, 1.02, 0.005), (100.0, 0.83, 0.005, 1.67, 0.005), (300.0, 2.09, 0.005, 3.8, 0.05)],
)
def test_worked_table_of_physics_notes(w0, dist, dist_tol, time, time_tol):
    """PHYSICS.md: mu = 0.1, R = 15.5 mm, v0 = 1 m/s (values given to their last digit)."""
    law = get_law("slide_spin")
    s, _, _, t_stop = law.kinematics(PhysicsParams(mu=0.1, friction_law="slide_spin"), R, 1.0, w0, np.array([1e3]))
    assert s[0] == pytest.approx(dist, abs=dist_tol)
    assert t_stop == pytest.approx(time, abs=time_tol)


def test_coulomb_closed_form_through_both_paths():
    """The integrated path reproduces the closed form exactly for constant friction."""
    p = PhysicsParams(mu=0.12)
    t = np.linspace(0.0, 2.0, 101)
    s, v, _, t_stop = get_law("coulomb").kinematics(p, R, 2.0, 0.0, t)
    a = 0.12 * G
    tt = np.minimum(t, 2.0 / a)
    np.testing.assert_allclose(s, 2.0 * tt - 0.5 * a * tt**2, atol=1e-12)
    assert t_stop == pytest.approx(2.0 / a, rel=1e-12)


def test_linear_mu_closed_form():
    """mu(v) = mu0 + mu1 v: v(t) = (v0 + c) exp(-g mu1 t) - c with c = mu0 / mu1."""
    m0, m1, v0 = 0.1, 0.05, 2.0
    p = PhysicsParams(mu=m0, mu_v=m1, friction_law="linear")
    t = np.linspace(0.0, 3.0, 301)
    s, v, _, t_stop = get_law("linear").kinematics(p, R, v0, 0.0, t)
    c, k = m0 / m1, G * m1
    ts = math.log((v0 + c) / c) / k
    tt = np.minimum(t, ts)
    assert t_stop == pytest.approx(ts, abs=1e-9)
    np.testing.assert_allclose(v, np.maximum((v0 + c) * np.exp(-k * tt) - c, 0.0), atol=5e-9)
    np.testing.assert_allclose(s, (v0 + c) * (1 - np.exp(-k * tt)) / k - c * tt, atol=5e-9)


def test_air_drag_closed_form():
    """dv/dt = -a - k v^2: v = sqrt(a/k) tan(theta0 - sqrt(a k) t)."""
    mu, k, v0 = 0.1, 0.5, 3.0
    a = mu * G
    p = PhysicsParams(mu=mu, air_drag=k)
    th0 = math.atan(v0 * math.sqrt(k / a))
    ts = th0 / math.sqrt(a * k)
    t = np.linspace(0.0, 1.5 * ts, 200)
    s, v, _, t_stop = get_law("coulomb").kinematics(p, R, v0, 0.0, t)
    tt = np.minimum(t, ts)
    assert t_stop == pytest.approx(ts, abs=1e-9)
    np.testing.assert_allclose(v, math.sqrt(a / k) * np.tan(th0 - math.sqrt(a * k) * tt), atol=5e-9)
    np.testing.assert_allclose(s, np.log(np.cos(th0 - math.sqrt(a * k) * tt) / math.cos(th0)) / k, atol=5e-9)


def test_stribeck_limits():
    """Far below the Stribeck speed the deceleration is mu_static g, far above mu g."""
    p = PhysicsParams(mu=0.1, mu_static=0.2, stribeck_speed=0.01, friction_law="stribeck")
    law = get_law("stribeck")
    _, v, _, _ = law.kinematics(p, R, 2.0, 0.0, np.array([0.0, 0.1]))
    assert (v[0] - v[1]) / 0.1 == pytest.approx(0.1 * G, rel=1e-6)
    _, v, _, t_stop = law.kinematics(p, R, 0.001, 0.0, np.array([0.0]))
    assert t_stop == pytest.approx(0.001 / (0.2 * G), rel=1e-2)


def test_constant_mu_engine_unchanged_by_the_numeric_path():
    """The Coulomb law with a vanishing drag (tabulated segments, conservative
    advancement) agrees with the closed-form engine to 5e-9 m on a few-impact shot."""
    import pandas as pd

    from carromlab.equipment.layout import default_specs

    h = Board.icf().half_size
    frame = pd.DataFrame([("white", 0.05, 0.0), ("black", -0.1, 0.15), ("white", 0.2, 0.2)], columns=["kind", "x", "y"])
    scene = Scene(Board.icf(), frame, default_specs("icf"))
    for angle in np.linspace(1.2, 1.9, 8):
        shot = Shot(0.0, -h + 0.1174, angle, 3.0)
        a = simulate(scene, shot, PhysicsParams(friction_law="coulomb", air_drag=1e-15)).final
        b = simulate(scene, shot, PhysicsParams(friction_law="coulomb")).final
        np.testing.assert_allclose(a[["x", "y"]], b[["x", "y"]], atol=5e-9)
        assert list(a["status"]) == list(b["status"])


@pytest.mark.parametrize("law", sorted(FRICTION_LAWS))
def test_every_law_stops_a_lone_disc_on_a_straight_line(law):
    """A spinning disc does not curve (Farkas et al. 2003), whatever the law."""
    from tests.engine.helpers import scene_with

    scene = scene_with([])
    res = simulate(scene, Shot(0.0, -0.3, 1.2, 0.8, spin=40.0), PhysicsParams(friction_law=law, mu_v=0.05))
    x, y = res.final["x"].iat[0], res.final["y"].iat[0]
    assert math.atan2(y + 0.3, x) == pytest.approx(1.2, abs=1e-9)
    assert res.final["vx"].iat[0] == 0.0 and res.final["vy"].iat[0] == 0.0


@pytest.mark.parametrize(
    ("law", "extra", "mu0"),
    [("coulomb", {}, 0.1), ("linear", {"mu_v": 0.5}, 0.1), ("stribeck", {"mu_static": 0.2}, 0.2)],
)
def test_spin_of_an_uncoupled_law_decays_at_the_rate_of_mu_at_rest(law, extra, mu0):
    """Without the slide-spin coupling the spin of a sliding disc decays linearly at
    (4/3) mu(0) g / R (Farkas et al. 2003, eps -> 0: T(0) = 2/3), with mu at v = 0 whatever
    the speed: docs/physics.md. Exact to rounding (1e-9 rad/s)."""
    p = PhysicsParams(mu=0.1, friction_law=law, **extra)
    t = np.array([0.0, 0.1, 0.3])
    _, v, w, _ = get_law(law).kinematics(p, R, 1.0, 300.0, t)
    assert v[1] > 0.5  # still sliding fast, where mu(v) differs from mu(0) for linear and Stribeck
    np.testing.assert_allclose(w, 300.0 - 4.0 * mu0 * G * t / (3.0 * R), atol=1e-9)


@pytest.mark.parametrize(
    "law, extra",
    [("stribeck", {"stribeck_speed": 0.3, "mu_static": 0.16}), ("linear", {"mu_v": 0.03}), ("coulomb", {"air_drag": 0.05})],
)
def test_speed_table_built_only_up_to_the_speed_asked(law, extra):
    """Law.kinematics scales the speed by a power of 2 for a disc slower than the speed
    table's top, so that the table need only reach its speed: the results are those of the
    full table bit for bit (over speeds from 0.1 mm/s to above the top, and the spin), from
    a shorter table: for a disc at 2 m/s one up to 3.125 m/s, 1/8 as long for the Stribeck
    law at mu = 0.1, 1/2.3-1/2.8 for the others (their deceleration grows with speed),
    which a slower disc under the same parameters then reuses."""
    from carromlab.physics import _kinematics
    from carromlab.physics.friction import SPEED_TABLE_TOP

    rng = np.random.default_rng(4)
    t = np.sort(rng.uniform(0.0, 6.0, 60))
    for mu in (0.05, 0.12, 0.4):
        params = PhysicsParams(friction_law=law, mu=mu, **extra)
        engine = get_law(law).engine(params)
        for v0 in (1e-4, 0.003, 0.3, 2.0, 12.4, 24.9, 30.0):
            s, v, w, t_stop = get_law(law).kinematics(params, R, v0, -40.0, t)
            s_full, v_full, w_full, t_full, _ = _kinematics.kinematics(engine, R, v0, 40.0, t)
            assert np.array_equal(s, s_full) and np.array_equal(v, v_full) and np.array_equal(w, -w_full), (mu, v0)
            assert t_stop == t_full
    params = PhysicsParams(friction_law=law, mu=0.1001, **extra)  # a parameter set not built yet
    _kinematics._CACHE.clear()
    get_law(law).kinematics(params, R, 2.0, 0.0, t)
    get_law(law).kinematics(params, R, 0.5, 0.0, t)  # a slower disc reuses that table
    (built,) = _kinematics._CACHE.values()
    full = _kinematics.CompiledLaw(get_law(law).engine(params))
    assert len(built.speed_table[0]) < len(full.speed_table[0]) / 2
    assert built.speed_table[1][-1] * 0.125 == pytest.approx(3.125, rel=0.01)
    assert full.speed_table[1][-1] >= SPEED_TABLE_TOP
