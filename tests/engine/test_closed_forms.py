"""The event engine against closed-form results (docs/physics.md).

Tolerances: event times and positions come from closed forms and bracketed roots, so they
are compared to 1e-9 relative (rounding only); impact laws to 1e-12 relative.
"""

import math

import numpy as np
import pytest

from carromlab import PhysicsParams, Shot, simulate

from .helpers import equal_discs, open_board, scene_with

G = 9.81


@pytest.mark.parametrize("speed", [0.3, 1.0, 2.5])
@pytest.mark.parametrize("mu", [0.075, 0.12, 0.2])
@pytest.mark.parametrize("angle_deg", [0.0, 37.0, 90.0, 211.0])
def test_stopping_distance_and_time(speed, mu, angle_deg):
    """A lone disc stops after v^2/(2 mu g) in v/(mu g)."""
    scene = scene_with([], board=open_board(12.0))
    res = simulate(scene, Shot.from_deg(0.0, 0.0, angle_deg=angle_deg, speed=speed), PhysicsParams(mu=mu))
    end = res.final.iloc[-1]
    dist = math.hypot(end.x, end.y)
    assert dist == pytest.approx(speed**2 / (2 * mu * G), rel=1e-9)
    assert res.duration == pytest.approx(speed / (mu * G), rel=1e-9)
    assert math.atan2(end.y, end.x) == pytest.approx(math.atan2(math.sin(math.radians(angle_deg)), math.cos(math.radians(angle_deg))), abs=1e-9)
    assert list(res.events["kind"]) == ["stop"]


def test_positions_follow_the_kinematics():
    """s(t) = v t - mu g t^2 / 2 at sampled times, and rest afterwards."""
    scene = scene_with([], board=open_board(12.0))
    mu, v = 0.1, 2.0
    res = simulate(scene, Shot(0.0, 0.0, 0.0, v), PhysicsParams(mu=mu))
    t = np.linspace(0.0, 3.0, 31)
    pos = res.positions_at(t)
    tau = np.minimum(t, v / (mu * G))
    np.testing.assert_allclose(pos["x"], v * tau - 0.5 * mu * G * tau**2, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(pos["vx"], np.maximum(v - mu * G * t, 0.0), atol=1e-12)


def _head_on(e, speed=2.0, gap=0.3, mu_c=0.0):
    specs = equal_discs()
    scene = scene_with([("white", 0.0, gap)], specs=specs)
    params = PhysicsParams(mu=0.1, e_disc=e, mu_contact=mu_c)
    res = simulate(scene, Shot(0.0, 0.0, math.pi / 2, speed), params)
    hit = res.events[res.events["kind"] == "disc"].iloc[0]
    travel = gap - 2 * specs["white"].radius
    v_in = math.sqrt(speed**2 - 2 * 0.1 * G * travel)
    return res, hit, v_in


def test_head_on_equal_mass_elastic_transfers_velocity():
    """e = 1, equal masses, head on: the striker stops and the coin takes its velocity."""
    res, hit, v_in = _head_on(1.0)
    assert hit.t == pytest.approx((2.0 - v_in) / (0.1 * G), rel=1e-9)
    sid = res.striker_id
    striker = (hit.vx, hit.vy) if hit.disc == sid else (hit.other_vx, hit.other_vy)
    coin = (hit.other_vx, hit.other_vy) if hit.disc == sid else (hit.vx, hit.vy)
    assert np.hypot(*striker) < 1e-12
    assert coin[1] == pytest.approx(v_in, rel=1e-12)
    assert abs(coin[0]) < 1e-12


@pytest.mark.parametrize("e", [0.0, 0.3, 0.75, 0.9, 1.0])
def test_restitution_definition(e):
    """Relative normal speed after a head-on impact is e times the speed before."""
    res, hit, v_in = _head_on(e)
    rel = abs(hit.vy - hit.other_vy)
    assert rel == pytest.approx(e * v_in, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("offset", [0.2, 0.5, 0.8, 0.95])
def test_ninety_degree_rule(offset):
    """Frictionless, elastic, equal masses: after a cut the two paths are perpendicular."""
    specs = equal_discs()
    r = specs["white"].radius
    scene = scene_with([("white", offset * 2 * r, 0.3)], specs=specs)
    res = simulate(scene, Shot(0.0, 0.0, math.pi / 2, 2.0), PhysicsParams(e_disc=1.0, mu_contact=0.0))
    hit = res.events[res.events["kind"] == "disc"].iloc[0]
    a, b = np.array([hit.vx, hit.vy]), np.array([hit.other_vx, hit.other_vy])
    assert abs(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b)) < 1e-12
    # the coin leaves along the line of centres: sin(cut) = offset
    coin = b if hit.other == 0 else a
    assert abs(coin[0] / np.linalg.norm(coin)) == pytest.approx(offset, rel=1e-9)


@pytest.mark.parametrize("e", [0.5, 0.75, 1.0])
@pytest.mark.parametrize("angle_deg", [10.0, 25.0, 40.0])
def test_cushion_reflection_angle(e, angle_deg):
    """Frictionless cushion: tangential speed kept, normal speed times e, so
    tan(out) = tan(in) / e measured from the cushion normal."""
    board = open_board(1.0)
    scene = scene_with([], board=board)
    params = PhysicsParams(mu=0.05, e_cushion=e, mu_cushion=0.0)
    res = simulate(scene, Shot.from_deg(0.0, 0.0, angle_deg=angle_deg, speed=3.0), params)
    hit = res.events[res.events["kind"] == "cushion"].iloc[0]
    assert hit["where"] == "east"
    # speed just before: along the same line, decelerated over the path so far
    path = (0.5 - scene.specs["striker"].radius) / math.cos(math.radians(angle_deg))
    v_in = math.sqrt(9.0 - 2 * 0.05 * G * path)
    vin = v_in * np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
    assert hit.vx == pytest.approx(-e * vin[0], rel=1e-9)
    assert hit.vy == pytest.approx(vin[1], rel=1e-9)
    if e < 1:
        out = math.degrees(math.atan2(abs(hit.vy), abs(hit.vx)))
        assert math.tan(math.radians(out)) == pytest.approx(math.tan(math.radians(angle_deg)) / e, rel=1e-9)


def test_cushion_friction_walton():
    """With contact friction the tangential contact speed obeys c' = -beta c (Walton)."""
    scene = scene_with([], board=open_board(1.0))
    e, mu_c = 0.7, 0.1
    params = PhysicsParams(mu=0.05, e_cushion=e, mu_cushion=mu_c, beta0_cushion=0.0)
    res = simulate(scene, Shot.from_deg(0.0, 0.0, angle_deg=30.0, speed=3.0), params)
    hit = res.events[res.events["kind"] == "cushion"].iloc[0]
    path = (0.5 - scene.specs["striker"].radius) / math.cos(math.radians(30.0))
    v_in = math.sqrt(9.0 - 2 * 0.05 * G * path)
    vn, vt = v_in * math.cos(math.radians(30)), v_in * math.sin(math.radians(30))
    r = scene.specs["striker"].radius
    # cushion normal +x, tangent (0, 1): c = v_t + R w (no spin before); Wt/Wn = 3
    beta = min(0.0, -1 + mu_c * (1 + e) * vn * 3.0 / abs(vt))
    assert hit.vy + r * hit.omega == pytest.approx(-beta * vt, rel=1e-9)
    assert hit.vx == pytest.approx(-e * vn, rel=1e-9)
    assert hit.omega != 0.0


def test_impact_conserves_momentum_and_creates_spin():
    """Disc-disc impact with contact friction: total momentum and angular momentum about
    the contact point are conserved; the coin picks up spin."""
    specs = equal_discs()
    specs["white"] = type(specs["white"])("white", 0.0151, 0.0055, 0.007)
    specs["striker"] = type(specs["striker"])("striker", 0.0206, 0.015, 0.007)
    scene = scene_with([("white", 0.02, 0.3)], specs=specs)
    params = PhysicsParams(mu=0.1, e_disc=0.8, mu_contact=0.3)
    res = simulate(scene, Shot(0.0, 0.0, math.pi / 2, 2.0), params)
    hit = res.events[res.events["kind"] == "disc"].iloc[0]
    travel_t = hit.t
    v_in = 2.0 - 0.1 * G * travel_t
    p_before = np.array([0.0, 0.015 * v_in])
    st_first = hit.disc == res.striker_id
    ms, mc = 0.015, 0.0055
    vs = np.array([hit.vx, hit.vy]) if st_first else np.array([hit.other_vx, hit.other_vy])
    vc = np.array([hit.other_vx, hit.other_vy]) if st_first else np.array([hit.vx, hit.vy])
    np.testing.assert_allclose(ms * vs + mc * vc, p_before, rtol=1e-12, atol=1e-15)
    w_coin = hit.other_omega if st_first else hit.omega
    assert abs(w_coin) > 0.1


def test_capture_radius_and_speed_limit():
    """A disc tips into a hole when its centre comes within sqrt(Rh^2 - r^2); with a
    capture speed limit a fast disc passes over and a slow one still falls."""
    from carromlab import Board, Scene

    scene = Scene.crokinole_empty(board=Board.crokinole(hole_capture_speed=None))
    hole = scene.board.holes[0]
    r = scene.specs["dark"].radius
    rho = math.sqrt(hole.radius**2 - r**2)
    res = simulate(scene, Shot(0.0, -0.3048, math.pi / 2, 2.0))
    ev = res.events.iloc[0]
    assert ev.kind == "pocket" and math.hypot(ev.x, ev.y) == pytest.approx(rho, rel=1e-9)
    fast = simulate(scene, Shot(0.0, -0.3048, math.pi / 2, 2.0), PhysicsParams(capture_speed_max=0.5))
    assert "pass" in list(fast.events["kind"]) and fast.striker_fate != "pocketed"
    # just enough speed to stop on the hole's centre: it stops inside and falls
    v = math.sqrt(2 * PhysicsParams().mu * G * 0.3048)
    slow = simulate(scene, Shot(0.0, -0.3048, math.pi / 2, v), PhysicsParams(capture_speed_max=0.5))
    assert slow.striker_fate == "pocketed"
    # too fast to fall on entry, it passes, stops inside and falls: the log says so
    strict = simulate(scene, Shot(0.0, -0.3048, math.pi / 2, v), PhysicsParams(capture_speed_max=1e-3))
    ev = strict.events
    assert list(ev["kind"]) == ["pass", "stop", "pocket"] and ev["t"].iloc[1] == ev["t"].iloc[2]
    assert ev["where"].iloc[2] == strict.pocketed["pocket"].iloc[0] and ev["vn"].iloc[2] == 0.0


def test_crokinole_hole_takes_only_slow_discs_by_default():
    """The 20-hole's default capture speed 2 rho sqrt(g / h) (free fall of half the 3/8 in
    thickness while crossing the capture circle): a disc arriving at 6 m/s passes, one
    arriving just under the limit falls, one just over passes (Coulomb law: the arrival
    speed is sqrt(v0^2 - 2 mu g s) exactly)."""
    from carromlab import Scene

    scene = Scene.crokinole_empty()
    hole = scene.board.holes[0]
    rho = math.sqrt(hole.radius**2 - scene.specs["dark"].radius ** 2)
    assert hole.capture_speed_max == pytest.approx(2 * rho * math.sqrt(9.81 / (0.375 * 0.0254)), rel=0.01)
    params = PhysicsParams(friction_law="coulomb")
    y0 = -0.3048
    fast = simulate(scene, Shot(0.0, y0, math.pi / 2, 6.0), params)
    assert fast.striker_fate != "pocketed" and "pass" in list(fast.events["kind"])
    for factor, falls in ((0.98, True), (1.02, False)):
        arrive = factor * hole.capture_speed_max
        v0 = math.sqrt(arrive**2 + 2 * params.mu * params.g * (abs(y0) - rho))
        res = simulate(scene, Shot(0.0, y0, math.pi / 2, v0), params)
        assert res.events["kind"].iloc[0] == ("pocket" if falls else "pass")
        assert res.events["vn"].iloc[0] == pytest.approx(arrive, rel=1e-9)
