"""Type stubs of the compiled free-spot scan (carromlab/rules/_spots.pyx)."""

import numpy as np
from numpy.typing import NDArray

_F = NDArray[np.float64]
_I = NDArray[np.intp]

def clear_distance(target: _F, centres: _F, reach: _F) -> _F: ...
def spots_in_turn(
    target: _F, piece_r: _F, xy: _F, order: _I, within: _F, far: _F, overlap: float, grid_step: float, size: float,
    square: bool, half_size: float, holes: _F,
) -> _F: ...
