"""Type stubs of the compiled free-spot scan (carromlab/rules/_spots.pyx)."""

import numpy as np
from numpy.typing import NDArray

_F = NDArray[np.float64]
_I = NDArray[np.intp]

def first_free(
    tx: _F, ty: _F, first: _I, ix: _I, iy: _I, step: float, radius: float, disc_x: _F, disc_y: _F, disc_r: _F,
    hole_x: _F, hole_y: _F, hole_r: _F, square: bool, half_size: float, within: _F,
) -> _I: ...
