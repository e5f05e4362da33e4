"""Walton impact model: definitions, textbook limits and conservation laws."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from carromlab.physics.impacts import (
    effective_restitution,
    resolve_fixed,
    resolve_pair,
    walton_impulses,
)

KAPPA = 0.5  # uniform disc, I = m R^2 / 2
COIN_M, COIN_R = 0.0052, 0.0155

# Hypothesis ranges: carrom-like scales, widened to stress the formulas.
masses = st.floats(1e-3, 1.0)
radii = st.floats(1e-3, 0.05)
speeds = st.floats(-10.0, 10.0)
spins = st.floats(-500.0, 500.0)
angles = st.floats(0.0, 2 * np.pi)
restitutions = st.floats(0.0, 1.0)
frictions = st.floats(0.0, 2.0)
betas = st.floats(-1.0, 1.0)


def unit(phi: float) -> np.ndarray:
    return np.array([np.cos(phi), np.sin(phi)])


def tangent(n: np.ndarray) -> np.ndarray:
    return np.array([-n[1], n[0]])


def pair_state(m1, R1, m2, R2, vn, vt, v2x, v2y, w1, w2, phi):
    """Approaching pair: disc 2's velocity is free, disc 1's is built from vn > 0 and vt."""
    n = unit(phi)
    v2 = np.array([v2x, v2y])
    v1 = v2 + vn * n + vt * tangent(n)
    return dict(
        v1=v1, w1=w1, m1=m1, I1=KAPPA * m1 * R1**2, R1=R1,
        v2=v2, w2=w2, m2=m2, I2=KAPPA * m2 * R2**2, R2=R2, n=n,
    )


def kinetic_energy(v1, w1, v2, w2, s) -> float:
    return 0.5 * (
        s["m1"] * v1 @ v1 + s["I1"] * w1**2 + s["m2"] * v2 @ v2 + s["I2"] * w2**2
    )


pair_states = st.builds(
    pair_state,
    masses, radii, masses, radii,
    st.floats(1e-3, 10.0), speeds, speeds, speeds, spins, spins, angles,
)


def call_pair(s, e, mu_c, beta0):
    return resolve_pair(
        s["v1"], s["w1"], s["m1"], s["I1"], s["R1"],
        s["v2"], s["w2"], s["m2"], s["I2"], s["R2"],
        s["n"], e, mu_c, beta0,
    )


# --- effective restitution -------------------------------------------------------------


def test_effective_restitution_is_zero_below_plastic_speed_only():
    assert effective_restitution(0.9e-3, 0.8, 1e-3) == 0.0
    assert effective_restitution(1e-3, 0.8, 1e-3) == 0.8
    np.testing.assert_array_equal(
        effective_restitution(np.array([0.0, 5e-4, 2e-3, 3.0]), 0.7, 1e-3), [0.0, 0.0, 0.7, 0.7]
    )


def test_effective_restitution_is_one_within_the_contact_duration():
    """TC model: elastic while the previous impact is less than contact_duration ago, at any speed."""
    since = np.array([0.0, 4.9e-5, 5e-5, np.inf])
    np.testing.assert_array_equal(effective_restitution(0.5, 0.2, 1e-3, since, 5e-5), [1.0, 1.0, 0.2, 0.2])
    np.testing.assert_array_equal(effective_restitution(1e-4, 0.2, 1e-3, since, 5e-5), [1.0, 1.0, 0.0, 0.0])
    assert effective_restitution(0.5, 0.2, 1e-3, 0.0, 0.0) == 0.2  # contact_duration 0: TC off


# --- disc-disc ---------------------------------------------------------------------------


@pytest.mark.parametrize("phi", [0.0, 0.7, 2.5, -1.9])
@pytest.mark.parametrize(("u1", "u2"), [(1.0, 0.0), (2.5, -1.0), (0.3, 0.1), (-0.2, -3.0)])
def test_head_on_equal_masses_elastic_frictionless_exchange_velocities(phi, u1, u2):
    n = unit(phi)
    if u1 - u2 <= 0:  # make disc 1 the one behind, so that the pair approaches
        n = -n
    I = KAPPA * COIN_M * COIN_R**2
    v1, w1, v2, w2 = resolve_pair(
        u1 * n, 0.0, COIN_M, I, COIN_R, u2 * n, 0.0, COIN_M, I, COIN_R, n, 1.0, 0.0, -1.0
    )
    np.testing.assert_allclose(v1, u2 * n, rtol=0, atol=1e-12)
    np.testing.assert_allclose(v2, u1 * n, rtol=0, atol=1e-12)
    assert w1 == 0.0 and w2 == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_restitution_definition_post_normal_speed_is_minus_e_times_pre(seed):
    rng = np.random.default_rng(seed)
    for e in np.linspace(0.0, 1.0, 11):
        s = pair_state(
            *rng.uniform(1e-3, 0.05, 4) * [10, 1, 10, 1],
            rng.uniform(0.01, 5), *rng.uniform(-5, 5, 3), *rng.uniform(-300, 300, 2),
            rng.uniform(0, 2 * np.pi),
        )
        vn = (s["v1"] - s["v2"]) @ s["n"]
        v1, _, v2, _ = call_pair(s, e, rng.uniform(0, 1), rng.uniform(-1, 1))
        assert (v1 - v2) @ s["n"] == pytest.approx(-e * vn, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("seed", range(3))
def test_ninety_degree_rule_equal_masses_elastic_frictionless_cut(seed):
    rng = np.random.default_rng(seed)
    I = KAPPA * COIN_M * COIN_R**2
    for cut in rng.uniform(-np.pi / 2 + 0.01, np.pi / 2 - 0.01, 20):
        speed = rng.uniform(0.1, 8.0)
        v = np.array([speed, 0.0])
        n = unit(cut)  # contact normal at the cut angle to the cue direction
        v1, _, v2, _ = resolve_pair(
            v, rng.uniform(-100, 100), COIN_M, I, COIN_R,
            np.zeros(2), 0.0, COIN_M, I, COIN_R, n, 1.0, 0.0, -1.0,
        )
        assert v1 @ v2 == pytest.approx(0.0, abs=1e-12 * speed**2)
        np.testing.assert_allclose(v2, speed * np.cos(cut) * n, rtol=0, atol=1e-12 * speed)
        assert v1 @ v1 + v2 @ v2 == pytest.approx(speed**2, rel=1e-12)


@settings(deadline=None)
@given(pair_states, restitutions, frictions, betas)
@example(pair_state(0.005, 0.0155, 0.015, 0.02, 1.0, 0.3, 0.0, 0.0, 50.0, -80.0, 0.4), 0.9, 2.0, 1.0)
def test_pair_conserves_linear_and_angular_momentum(s, e, mu_c, beta0):
    v1, w1, v2, w2 = call_pair(s, e, mu_c, beta0)
    p_before = s["m1"] * s["v1"] + s["m2"] * s["v2"]
    p_after = s["m1"] * v1 + s["m2"] * v2
    scale = s["m1"] * np.abs(s["v1"]).max() + s["m2"] * np.abs(s["v2"]).max()
    np.testing.assert_allclose(p_after, p_before, rtol=0, atol=1e-12 * scale)
    # Angular momentum about the centre of disc 1 (disc 2 sits at (R1 + R2) n).
    r2 = (s["R1"] + s["R2"]) * s["n"]

    def angular(v2_, w1_, w2_):
        return s["I1"] * w1_ + s["I2"] * w2_ + s["m2"] * (r2[0] * v2_[1] - r2[1] * v2_[0])

    # Bound on every term, including the moment of the impulse, for the rounding tolerance.
    L_scale = s["I1"] * abs(s["w1"]) + s["I2"] * abs(s["w2"]) + (s["R1"] + s["R2"]) * 2 * scale
    assert angular(v2, w1, w2) == pytest.approx(angular(s["v2"], s["w1"], s["w2"]), abs=1e-12 * L_scale)


@settings(deadline=None)
@given(pair_states, restitutions, frictions, betas)
@example(pair_state(0.005, 0.0155, 0.005, 0.0155, 2.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0), 1.0, 2.0, 1.0)
@example(pair_state(0.005, 0.0155, 0.015, 0.02, 2.0, 0.0, 0.0, 0.0, 300.0, 0.0, 1.0), 0.0, 0.5, -1.0)
def test_pair_kinetic_energy_never_increases(s, e, mu_c, beta0):
    E0 = kinetic_energy(s["v1"], s["w1"], s["v2"], s["w2"], s)
    E1 = kinetic_energy(*call_pair(s, e, mu_c, beta0), s)
    assert E1 <= E0 * (1 + 1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_pair_rough_elastic_limit_conserves_energy(seed):
    """e = 1 and sticking with beta0 = 1 reverses both contact speeds: no energy is lost."""
    rng = np.random.default_rng(seed)
    s = pair_state(
        rng.uniform(1e-3, 0.02), rng.uniform(0.005, 0.03), rng.uniform(1e-3, 0.02),
        rng.uniform(0.005, 0.03), rng.uniform(0.1, 3), *rng.uniform(-3, 3, 3),
        *rng.uniform(-200, 200, 2), rng.uniform(0, 2 * np.pi),
    )
    E0 = kinetic_energy(s["v1"], s["w1"], s["v2"], s["w2"], s)
    # mu_c = 1e6 keeps the Coulomb branch far above beta0 = 1: the contact sticks.
    E1 = kinetic_energy(*call_pair(s, 1.0, 1e6, 1.0), s)
    assert E1 == pytest.approx(E0, rel=1e-12)


@settings(deadline=None)
@given(pair_states, restitutions, frictions, betas)
def test_pair_tangential_contact_speed_and_coulomb_bound(s, e, mu_c, beta0):
    n, t = s["n"], tangent(s["n"])
    vn = (s["v1"] - s["v2"]) @ n
    c = (s["v1"] - s["v2"]) @ t + s["R1"] * s["w1"] + s["R2"] * s["w2"]
    v1, w1, v2, w2 = call_pair(s, e, mu_c, beta0)
    c_after = (v1 - v2) @ t + s["R1"] * w1 + s["R2"] * w2
    J = -s["m1"] * (v1 - s["v1"])  # impulse on disc 1 is -Jn n - Jt t
    Jn, Jt = J @ n, J @ t
    Wn = 1 / s["m1"] + 1 / s["m2"]
    Wt = Wn + s["R1"] ** 2 / s["I1"] + s["R2"] ** 2 / s["I2"]
    assert Jn == pytest.approx((1 + e) * vn / Wn, rel=1e-12)
    # Jt is recovered from a velocity difference: allow its rounding, ~1e-16 m |v|.
    rounding = 1e-12 * s["m1"] * (np.abs(s["v1"]).max() + np.abs(v1).max())
    assert abs(Jt) <= mu_c * Jn * (1 + 1e-9) + rounding
    if abs(c) > 1e-9:  # beta itself is ill-conditioned for a vanishing contact speed
        beta = min(beta0, -1 + mu_c * (1 + e) * vn * Wt / (Wn * abs(c)))
        assert c_after == pytest.approx(-beta * c, rel=1e-9, abs=1e-12 * (abs(c) + abs(vn)))


def test_pair_separating_or_grazing_is_unchanged():
    I = KAPPA * COIN_M * COIN_R**2
    n = np.array([1.0, 0.0])
    for v1 in ([-1.0, 0.3], [0.0, 2.0]):  # receding, and sliding past with vn = 0
        out = resolve_pair(
            v1, 10.0, COIN_M, I, COIN_R, [0.0, 0.0], -5.0, COIN_M, I, COIN_R, n, 0.9, 0.5, -1.0
        )
        np.testing.assert_array_equal(out[0], v1)
        assert out[1] == 10.0 and out[3] == -5.0
        np.testing.assert_array_equal(out[2], [0.0, 0.0])


def test_pair_with_huge_second_mass_matches_fixed_obstacle():
    rng = np.random.default_rng(7)
    for _ in range(20):
        v, w, n = rng.uniform(-3, 3, 2), rng.uniform(-200, 200), unit(rng.uniform(0, 2 * np.pi))
        v = v + 2 * abs(v @ n) * n  # approaching the obstacle
        e, mu_c, beta0 = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(-1, 1)
        I = KAPPA * COIN_M * COIN_R**2
        big = 1e15
        v1, w1, _, _ = resolve_pair(
            v, w, COIN_M, I, COIN_R, np.zeros(2), 0.0, big, big, COIN_R, n, e, mu_c, beta0
        )
        vf, wf = resolve_fixed(v, w, COIN_M, I, COIN_R, n, e, mu_c, beta0)
        np.testing.assert_allclose(v1, vf, rtol=1e-9, atol=1e-9)
        assert w1 == pytest.approx(wf, rel=1e-9, abs=1e-9)


def test_pair_broadcasts_over_leading_axes():
    rng = np.random.default_rng(11)
    k = 6
    phi = rng.uniform(0, 2 * np.pi, k)
    n = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    v1, v2 = rng.uniform(-2, 2, (k, 2)), rng.uniform(-2, 2, (k, 2))
    w1, w2 = rng.uniform(-100, 100, k), rng.uniform(-100, 100, k)
    m1, m2, R1, R2 = (rng.uniform(0.004, 0.02, k) for _ in range(4))
    I1, I2 = KAPPA * m1 * R1**2, KAPPA * m2 * R2**2
    e, mu_c, beta0 = rng.uniform(0, 1, k), rng.uniform(0, 1, k), rng.uniform(-1, 1, k)
    batch = resolve_pair(v1, w1, m1, I1, R1, v2, w2, m2, I2, R2, n, e, mu_c, beta0)
    for i in range(k):
        one = resolve_pair(
            v1[i], w1[i], m1[i], I1[i], R1[i], v2[i], w2[i], m2[i], I2[i], R2[i],
            n[i], e[i], mu_c[i], beta0[i],
        )
        for b, o in zip(batch, one):
            np.testing.assert_allclose(b[i], o, rtol=1e-15, atol=0)


# --- disc on a fixed obstacle ------------------------------------------------------------


@pytest.mark.parametrize("e", [1.0, 0.9, 0.75, 0.5, 0.2])
@pytest.mark.parametrize("theta_in_deg", [0.0, 10.0, 35.0, 60.0, 80.0])
def test_cushion_frictionless_reflection_law(e, theta_in_deg):
    theta_in = np.radians(theta_in_deg)
    speed = 2.0
    n = np.array([1.0, 0.0])  # cushion at x = +L/2
    v = speed * np.array([np.cos(theta_in), np.sin(theta_in)])
    I = KAPPA * COIN_M * COIN_R**2
    v_out, w_out = resolve_fixed(v, 30.0, COIN_M, I, COIN_R, n, e, 0.0, -1.0)
    assert v_out[0] == pytest.approx(-e * v[0], rel=1e-12)
    assert v_out[1] == pytest.approx(v[1], rel=1e-12, abs=1e-15)
    theta_out = np.arctan2(v_out[1], -v_out[0])
    assert np.tan(theta_out) == pytest.approx(np.tan(theta_in) / e, rel=1e-12, abs=1e-15)
    assert w_out == 30.0


@pytest.mark.parametrize("phi", [0.0, 1.1, -2.4])
@pytest.mark.parametrize(
    ("mu_c", "beta0", "branch"),
    [(2.0, -1.0, "stick"), (2.0, 0.4, "stick"), (0.05, 0.4, "slide"), (0.08, -0.5, "slide")],
)
def test_fixed_tangential_contact_speed_reverses_by_beta(phi, mu_c, beta0, branch):
    n = unit(phi)
    t = tangent(n)
    e, vn, vt, w = 0.75, 1.5, 0.8, 40.0
    v = vn * n + vt * t
    I = KAPPA * COIN_M * COIN_R**2
    c = vt + COIN_R * w
    Wn, Wt = 1 / COIN_M, 1 / COIN_M + COIN_R**2 / I
    beta_coulomb = -1 + mu_c * (1 + e) * vn * Wt / (Wn * abs(c))
    assert (beta_coulomb > beta0) == (branch == "stick")  # the case exercises its branch
    beta = min(beta0, beta_coulomb)
    v_out, w_out = resolve_fixed(v, w, COIN_M, I, COIN_R, n, e, mu_c, beta0)
    assert v_out @ t + COIN_R * w_out == pytest.approx(-beta * c, rel=1e-12)
    assert v_out @ n == pytest.approx(-e * vn, rel=1e-12)
    J = -COIN_M * (v_out - v)
    Jn, Jt = J @ n, J @ t
    assert abs(Jt) <= mu_c * Jn * (1 + 1e-12)
    if branch == "slide":
        assert abs(Jt) == pytest.approx(mu_c * Jn, rel=1e-12)


@settings(deadline=None)
@given(masses, radii, st.floats(1e-3, 10.0), speeds, spins, angles, restitutions, frictions, betas)
def test_fixed_energy_never_increases_and_coulomb_bound(m, R, vn, vt, w, phi, e, mu_c, beta0):
    n = unit(phi)
    v = vn * n + vt * tangent(n)
    I = KAPPA * m * R**2
    v_out, w_out = resolve_fixed(v, w, m, I, R, n, e, mu_c, beta0)
    E0 = 0.5 * (m * v @ v + I * w**2)
    E1 = 0.5 * (m * v_out @ v_out + I * w_out**2)
    assert E1 <= E0 * (1 + 1e-12)
    J = -m * (v_out - v)
    rounding = 1e-12 * m * (np.abs(v).max() + np.abs(v_out).max())
    assert abs(J @ tangent(n)) <= mu_c * (J @ n) * (1 + 1e-9) + rounding


def test_walton_impulses_zero_tangential_speed_gives_no_tangential_impulse():
    Jn, Jt = walton_impulses(2.0, 0.0, 400.0, 1200.0, 0.5, 0.3, 1.0)
    assert Jn == pytest.approx(1.5 * 2.0 / 400.0, rel=1e-15)
    assert Jt == 0.0
