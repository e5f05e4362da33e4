"""Seeded synthetic shots for the fitting tests: one coin, one striker, the ICF board.

``GENERATING`` holds the parameters each law is tested with. The speed-dependent laws use
values whose effect is larger than the documented camera noise (0.5 px at 1000 px/m):
``stribeck_speed`` = 0.3 m/s instead of the 0.05 m/s default, whose effect (the last
millimetre of a slide) no camera at that noise level can see.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from carromlab import Board, PhysicsParams, Scene, Shot
from carromlab.fitting import SyntheticTracks, make_synthetic_tracks

GENERATING = {
    "coulomb": PhysicsParams(friction_law="coulomb", mu=0.12),
    "linear": PhysicsParams(friction_law="linear", mu=0.10, mu_v=0.03),
    "stribeck": PhysicsParams(friction_law="stribeck", mu=0.10, mu_static=0.16, stribeck_speed=0.3),
    "slide_spin": PhysicsParams(friction_law="slide_spin", mu=0.12),
}
#: Orientation noise of the tests with tracked angles, rad: a mark 15 px from the disc
#: centre located to 0.75 px.
ANGLE_NOISE = 0.05


def shot(
    seed: int, law: str, *, angle_noise: float | None = None, params: PhysicsParams | None = None, **camera: float
) -> SyntheticTracks:
    """A random cut shot (the striker from the south baseline at 2-3.5 m/s with up to
    60 rad/s of spin, into a coin in the middle of the board), filmed with the default
    camera model or the ``camera`` settings of ``make_synthetic_tracks`` given;
    reproducible from ``seed``. Simulated with ``params`` (default ``GENERATING[law]``)."""
    rng = np.random.default_rng([seed, 7])
    cx, cy = rng.uniform(-0.15, 0.15), rng.uniform(-0.05, 0.15)
    sx, sy = rng.uniform(-0.15, 0.15), -0.25
    angle = math.atan2(cy - sy, cx - sx) + rng.uniform(-0.03, 0.03)
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [cx], "y": [cy]}))
    play = Shot(sx, sy, angle, rng.uniform(2.0, 3.5), rng.uniform(-60.0, 60.0))
    return make_synthetic_tracks(scene, play, params or GENERATING[law], angle_noise=angle_noise, seed=rng, **camera)
