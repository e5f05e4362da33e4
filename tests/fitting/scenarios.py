"""Seeded synthetic shots for the fitting tests: :func:`~carromlab.fitting.random_cut_shot`
made under :data:`~carromlab.fitting.EXAMPLE_PARAMS` and filmed with the same generator."""

from __future__ import annotations

import numpy as np

from carromlab import PhysicsParams
from carromlab.fitting import EXAMPLE_PARAMS, SyntheticTracks, make_synthetic_tracks, random_cut_shot


def shot(
    seed: int, law: str, *, angle_noise: float | None = None, params: PhysicsParams | None = None, **camera: float
) -> SyntheticTracks:
    """A random cut shot filmed with the default camera model or the ``camera`` settings
    of ``make_synthetic_tracks`` given; reproducible from ``seed``. Simulated with
    ``params`` (default ``EXAMPLE_PARAMS[law]``)."""
    rng = np.random.default_rng([seed, 7])
    scene, play = random_cut_shot(rng)
    return make_synthetic_tracks(scene, play, params or EXAMPLE_PARAMS[law], angle_noise=angle_noise, seed=rng, **camera)
