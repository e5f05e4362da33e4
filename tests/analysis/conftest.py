"""Shared scenes of the analysis tests."""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, Scene

BOARD = Board.icf()
#: Right end of the south striker line and the NE pocket.
PLACE = (0.2191, -0.2526)
NE = next(h for h in BOARD.holes if h.name == "ne")
#: Direction from PLACE to the NE pocket, rad.
STRAIGHT = math.atan2(NE.y - PLACE[1], NE.x - PLACE[0])
#: Speed at which the straight shot pockets the coin and the striker stops short, m/s.
SOFT = 1.3


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n, written out here to check
    carromlab's ``binomial_ci`` and what shows it: centre (k + z^2 / 2) / (n + z^2),
    half-width z / (n + z^2) * sqrt(k (n - k) / n + z^2 / 4)."""
    centre = (k + z * z / 2.0) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4.0)
    return centre - half, centre + half


@pytest.fixture(scope="session")
def straight_scene() -> Scene:
    """One white coin 10 cm in front of the NE pocket, on the line from PLACE."""
    back = 0.10
    x = NE.x - back * math.cos(STRAIGHT)
    y = NE.y - back * math.sin(STRAIGHT)
    return Scene.from_frame(BOARD, pd.DataFrame({"kind": ["white"], "x": [x], "y": [y]}))


@pytest.fixture(scope="session")
def two_coin_scene() -> Scene:
    """A white coin near the NE pocket and a black one in the middle."""
    return Scene.from_frame(BOARD, pd.DataFrame({"kind": ["white", "black"], "x": [0.15, -0.1], "y": [0.22, 0.05]}))


@pytest.fixture
def small_grid_args() -> dict:
    """A small grid of cut shots (48 cells)."""
    return dict(placement=np.linspace(-0.2, 0.2, 4), angle=np.radians(np.linspace(-3, 3, 6)), speed=[2.5, 3.5])
