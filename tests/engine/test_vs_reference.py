"""The exact event engine against the independent fixed-step reference integrator.

On sparse random scenes (a few coins, no touching pairs, a handful of impacts) the
reference converges to the event engine at first order in dt. Its error comes from the
impacts: one is resolved at the end of the step in which the discs first overlap, a time
delta in [0, dt) after the contact, at the overlapped positions, so its normal is off by
about v delta / (R_i + R_j). The error of a shot thus depends on where each contact falls
inside its step, not on dt alone: with halved steps (nested grids) a contact in the second
half of a coarse step is found at the same instant, and a shot whose every contact does
that ends exactly as at the coarse step. The test therefore averages each scene's error
over three steps 1 : 1.3 : 1.6 apart (contacts at unrelated phases) at two levels 4.4
apart (no nested steps), and checks the medians over scenes.
"""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.engine.reference import simulate_reference
from carromlab.equipment.layout import default_specs

H = Board.icf().half_size


def _random_scene(rng):
    specs = default_specs("icf")
    r = specs["white"].radius
    pts: list[tuple[str, float, float]] = []
    while len(pts) < 4:
        x, y = rng.uniform(-0.25, 0.25), rng.uniform(-0.1, 0.3)
        if all(math.hypot(x - px, y - py) > 4 * r for _, px, py in pts):
            pts.append((("white", "black")[len(pts) % 2], x, y))
    scene = Scene(Board.icf(), pd.DataFrame(pts, columns=["kind", "x", "y"]), specs)
    shot = Shot(rng.uniform(-0.1, 0.1), -H + 0.1174, rng.uniform(1.3, 1.85), rng.uniform(1.5, 3.0))
    return scene, shot


def _reference(scene, shot, params, dt):
    xy = np.vstack([scene.arrays["xy"], [[shot.x, shot.y]]])
    vel = np.zeros_like(xy)
    vel[-1] = shot.velocity
    b = scene.board
    return simulate_reference(
        xy, vel, np.zeros(len(xy)), scene.arrays["radius"], scene.arrays["mass"],
        half_size=b.half_size, holes=[(h.x, h.y, h.radius) for h in b.holes], params=params, dt=dt,
    )  # fmt: skip


LAWS = {
    "coulomb": {},
    "slide_spin": {},
    "linear": {"mu_v": 0.03},
    "stribeck": {"mu_static": 0.2, "stribeck_speed": 0.1},
    "coulomb+drag": {"air_drag": 0.05},
    "slide_spin+drag": {"air_drag": 0.05},
}


#: Steps of one level, as multiples of its base step: contacts at unrelated phases.
PHASE_STEPS = (1.0, 1.3, 1.6)
#: Base step of the fine level over that of the coarse one: first order predicts the error
#: to fall by this factor; not an integer, so that no fine step nests in a coarse one.
LEVEL_RATIO = 4.4


@pytest.mark.parametrize(
    "law", [pytest.param(k, marks=() if k in ("coulomb", "slide_spin") else pytest.mark.slow) for k in LAWS]
)
def test_reference_converges_to_the_event_engine(law):
    """Under every friction law (the reference integrates each law on its own, with F and T
    from the exact elliptic-integral forms), the median over scenes of the phase-averaged
    final-position error falls at least half as fast as first order predicts from the
    coarse level (base step 2e-4 s for Coulomb, 4e-4 s for the other laws, whose reference
    steps cost more) to the fine one (LEVEL_RATIO times smaller). A bias of the engine
    would stay at the fine level and fail it."""
    rng = np.random.default_rng(7)
    params = PhysicsParams(mu=0.15, e_disc=0.9, mu_contact=0.1, e_cushion=0.75, mu_cushion=0.1,
                           friction_law=law.split("+")[0], **LAWS[law])  # fmt: skip
    coarse = 2e-4 if law == "coulomb" else 4e-4
    levels = (coarse, coarse / LEVEL_RATIO)
    errors = []
    for _ in range(4 if law == "coulomb" else 3):
        scene, shot = _random_scene(rng)
        exact = simulate(scene, shot, params).final
        row = []
        for base in levels:
            level = []
            for dt in np.multiply(base, PHASE_STEPS):
                ref = _reference(scene, shot, params, dt)
                same = np.array(["board", "pocketed", "ditch"])[ref.status] == exact["status"].to_numpy()
                err = np.abs(ref.positions - exact[["x", "y"]].to_numpy()).max()
                level.append(err if same.all() else np.inf)
            row.append(np.mean(level))
        errors.append(row)
    med = np.median(np.array(errors), axis=0)
    print("median phase-averaged final-position error (m) at base dt", levels, ":", med)
    assert med[1] < 2.0 * med[0] / LEVEL_RATIO, f"no first-order convergence: median errors {med} m at dt {levels}"


@pytest.mark.parametrize("e", [0.5, 1.0])
def test_head_on_collision_matches_reference(e):
    """A single head-on impact: engine and reference agree to O(v dt)."""
    specs = default_specs("icf")
    scene = Scene(Board.icf(), pd.DataFrame([("white", 0.0, 0.0)], columns=["kind", "x", "y"]), specs)
    shot = Shot(0.0, -0.2, math.pi / 2, 2.0)
    params = PhysicsParams(e_disc=e, mu_contact=0.0)
    exact = simulate(scene, shot, params).final[["x", "y"]].to_numpy()
    for dt in (1e-4, 2.5e-5):
        ref = _reference(scene, shot, params, dt).positions
        assert np.abs(ref - exact).max() < 2.0 * 2.0 * dt
