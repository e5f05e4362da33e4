"""Inelastic collapse and the TC model (docs/physics.md, "Restitution rules against inelastic collapse").

With e < 1 a touching pack can produce infinitely many impacts in a finite time; the TC
model (Luding & McNamara, Granular Matter 1, 113, 1998) makes an impact elastic when one
of its discs had an impact less than ``contact_duration`` ago. Checked: a plastic head-on
pair leaves together; momentum is conserved and kinetic energy never rises through a
collapse, event by event; the result converges as the contact duration shrinks; breaks at
every restitution finish within 600 events (a CI sample here, the 201-placement grid as a
slow test); with the TC model off the same break collapses (so the tests can fail).
"""

import math

import numpy as np
import pytest

from carromlab import PhysicsParams, Scene, Shot, simulate
from carromlab.engine.batch import simulate_batch

from .helpers import equal_discs, open_board, scene_with

G = 9.81
BREAK_Y = -0.2526
MAX_EVENTS = 600


def _break(x: float) -> Shot:
    return Shot(x, BREAK_Y, math.pi / 2, 9.0)


def test_plastic_head_on_pair_leaves_together():
    """e = 0 head on: both discs leave at half the arrival speed, touching, and stop together."""
    specs = equal_discs()
    scene = scene_with([("white", 0.0, 0.3)], specs=specs)
    mu, v0 = 0.1, 2.0
    res = simulate(scene, Shot(0.0, 0.0, math.pi / 2, v0), PhysicsParams(mu=mu, e_disc=0.0, mu_contact=0.0))
    hits = res.events[res.events["kind"] == "disc"]
    assert len(hits) == 1
    hit = hits.iloc[0]
    v_in = math.sqrt(v0**2 - 2 * mu * G * (0.3 - 2 * specs["white"].radius))
    assert hit.vy == pytest.approx(v_in / 2, rel=1e-12)
    assert hit.other_vy == pytest.approx(v_in / 2, rel=1e-12)
    f = res.final  # id 0 the coin, id 1 the striker
    assert f.y[0] - f.y[1] == pytest.approx(2 * specs["white"].radius, abs=1e-10)
    stops = res.events[res.events["kind"] == "stop"]
    assert stops.t.max() - stops.t.min() == pytest.approx(0.0, abs=1e-12)


def _energy_and_momentum(res, scene, t):
    s = res.positions_at(t)
    m = np.asarray(scene.arrays["mass"])[s.id.to_numpy()]
    r = np.asarray(scene.arrays["radius"])[s.id.to_numpy()]
    s = s.assign(px=m * s.vx, py=m * s.vy, ke=0.5 * m * (s.vx**2 + s.vy**2) + 0.25 * m * r**2 * s.omega**2)
    g = s.groupby("t")[["px", "py", "ke"]].sum()
    return g.px.to_numpy(), g.py.to_numpy(), g.ke.to_numpy()


def test_collapse_conserves_momentum_and_never_gains_energy():
    """Through the first milliseconds of a low-restitution break (friction made negligible,
    g = 1e-4 m/s^2, before any cushion): total momentum stays that of the striker to 1e-9
    relative and kinetic energy (with spin) does not rise from one event to the next."""
    scene = Scene.icf_break()
    params = PhysicsParams(e_disc=0.1, g=1e-4)
    res = simulate(scene, _break(0.061), params)
    ev = res.events
    t0 = ev.t[ev["kind"] == "disc"].min()
    window = ev[(ev.t >= t0) & (ev.t <= t0 + 2e-3)]
    assert set(window["kind"]) == {"disc"}
    assert len(window) >= 20  # a cascade through the pack
    t = np.unique(np.concatenate([[t0 - 1e-6], window.t.to_numpy()]))
    px, py, ke = _energy_and_momentum(res, scene, t)
    p0 = math.hypot(px[0], py[0])
    np.testing.assert_allclose(px, px[0], atol=1e-9 * p0)
    np.testing.assert_allclose(py, py[0], atol=1e-9 * p0)
    assert np.all(np.diff(ke) <= 1e-12 * ke[0])


@pytest.mark.parametrize("x", [0.061, -0.03, 0.02])
def test_result_converges_as_contact_duration_shrinks(x):
    """Below about 1e-7 s only simultaneous impacts of a touching pack are made elastic:
    the final positions no longer change (to 1e-9 m) as contact_duration shrinks."""
    scene = Scene.icf_break()
    finals = []
    for tc in (1e-8, 1e-10, 1e-12):
        res = simulate(scene, _break(x), PhysicsParams(e_disc=0.1, contact_duration=tc))
        assert not res.truncated
        finals.append(res.final[["x", "y"]].to_numpy())
    np.testing.assert_allclose(finals[1], finals[0], atol=1e-9)
    np.testing.assert_allclose(finals[2], finals[1], atol=1e-9)


def test_without_the_tc_model_a_low_restitution_break_collapses():
    with pytest.warns(RuntimeWarning, match="truncated"):
        res = simulate(Scene.icf_break(), _break(-0.077), PhysicsParams(e_disc=0.1, contact_duration=0.0, max_events=5000))
    assert res.truncated


def _grid(e_disc: float, x: np.ndarray):
    return simulate_batch(Scene.icf_break(), x, BREAK_Y, math.pi / 2, 9.0, params=PhysicsParams(e_disc=e_disc))


@pytest.mark.parametrize("e_disc", [0.03, 0.1, 0.45])
def test_breaks_do_not_collapse_ci_sample(e_disc):
    """A few placements of the grid below (including the once-truncated x = 0.061 m)."""
    df = _grid(e_disc, np.array([-0.1, -0.03, 0.0, 0.061]))
    assert not df.truncated.any()
    assert df.n_events.max() <= MAX_EVENTS


@pytest.mark.slow
@pytest.mark.parametrize("e_disc", [0.03, 0.1, 0.2, 0.3, 0.45, 0.9])
def test_breaks_do_not_collapse(e_disc):
    """201 placements x in [-0.1, 0.1] m at 9 m/s: none truncated, none above 600 events."""
    df = _grid(e_disc, np.linspace(-0.1, 0.1, 201))
    assert not df.truncated.any()
    assert df.n_events.max() <= MAX_EVENTS


# shots whose impact left a rounding residual into the east cushion before the fix
ROUNDING_SHOTS = [
    (20.149719303722456, 1.8994466273134392),
    (22.557507146573766, 1.1128454969112092),
    (21.955190826271394, 3.7626557596966355),
    (15.83634204480077, 2.2096765553830586),
    (26.5722561190585, 1.1898693646758223),
]


@pytest.mark.parametrize("law", ["slide_spin", "coulomb"])
@pytest.mark.parametrize(("angle_deg", "speed"), ROUNDING_SHOTS + [(a, 2.0) for a in (30.0, 60.0, 75.0)])
def test_plastic_frictionless_cushion_impact_happens_once_and_keeps_the_spin(law, angle_deg, speed):
    """e = 0, no cushion friction: one impact at the first cushion; the disc leaves along
    it (normal velocity exactly 0, rounding included) with its tangential speed and its
    spin unchanged (Walton's model with mu = 0 gives no tangential impulse). Rounding used
    to leave ~1e-17 m/s into the cushion: a second impact at the same instant that merged
    the disc with the cushion and stopped its spin (found by test_mirror_symmetry)."""
    scene = scene_with([], board=open_board(1.0))
    params = PhysicsParams(mu=0.1, friction_law=law, e_cushion=0.0, mu_cushion=0.0)
    res = simulate(scene, Shot.from_deg(0.0, 0.0, angle_deg=angle_deg, speed=speed, spin=30.0), params)
    ev = res.events
    t_hit = ev.loc[ev["kind"] == "cushion", "t"].min()
    hits = ev[ev["t"] == t_hit]
    assert len(hits) == 1
    hit, before = hits.iloc[0], res.positions_at(t_hit * (1 - 1e-12)).iloc[0]
    normal, tangent = ("vx", "vy") if hit["where"] == "east" else ("vy", "vx")
    assert hit[normal] == 0.0
    assert hit[tangent] == pytest.approx(before[tangent], rel=1e-9)
    assert hit.omega == pytest.approx(before.omega, rel=1e-9)
    if law == "slide_spin":
        assert hit.omega != 0.0  # sliding and spinning stop together: still spinning here
