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
