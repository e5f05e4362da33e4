"""The event engine under every friction law against the fixed-step reference integrator.

The reference (carromlab.engine.reference) integrates each law's speed and spin equations
by the explicit midpoint method and resolves contacts after each step, independently of
the engine's tables and contact search. A lone spinning disc must stop where the engine
stops it, the error shrinking with dt; one head-on impact must agree to O(v dt) (the
reference detects an impact up to one step late).
"""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.equipment.layout import default_specs
from tests.engine.test_vs_reference import _reference

LAWS = {
    "coulomb": {},
    "slide_spin": {"friction_law": "slide_spin"},
    "linear": {"friction_law": "linear", "mu_v": 0.05},
    "stribeck": {"friction_law": "stribeck", "mu_static": 0.25, "stribeck_speed": 0.3},
    "coulomb+drag": {"air_drag": 0.3},
    "slide_spin+drag": {"friction_law": "slide_spin", "air_drag": 0.3},
}
SPECS = default_specs("icf")


@pytest.mark.parametrize("law", sorted(LAWS))
def test_lone_spinning_disc_stops_where_the_reference_stops_it(law):
    scene = Scene(Board.icf(), pd.DataFrame([("white", 0.3, 0.3)], columns=["kind", "x", "y"]), SPECS)
    shot = Shot(-0.2, -0.25, 1.1, 0.9, spin=60.0)  # stops near (-0.07, 0.0), clear of everything
    params = PhysicsParams(mu=0.15, **LAWS[law])
    exact = simulate(scene, shot, params).final[["x", "y"]].to_numpy()[-1]
    errors = [np.abs(_reference(scene, shot, params, dt).positions[-1] - exact).max() for dt in (4e-4, 1e-4)]
    print(law, "lone disc: final-position error (m) at dt 4e-4, 1e-4:", errors)
    assert errors[1] < errors[0] or errors[1] < 1e-9
    assert errors[1] < 1e-5


@pytest.mark.parametrize("law", sorted(LAWS))
def test_head_on_impact_matches_the_reference(law):
    scene = Scene(Board.icf(), pd.DataFrame([("white", 0.0, 0.0)], columns=["kind", "x", "y"]), SPECS)
    shot = Shot(0.0, -0.2, math.pi / 2, 2.0)
    params = PhysicsParams(e_disc=0.5, mu_contact=0.0, **LAWS[law])
    exact = simulate(scene, shot, params).final[["x", "y"]].to_numpy()
    for dt in (2e-4, 1e-4):
        ref = _reference(scene, shot, params, dt).positions
        print(law, "head-on: error (m) at dt", dt, np.abs(ref - exact).max())
        assert np.abs(ref - exact).max() < 2.0 * 2.0 * dt
