"""Type stubs of the compiled free-spot scan (carromlab/rules/_spots.pyx)."""

import numpy as np
from numpy.typing import NDArray

_F = NDArray[np.float64]
_I = NDArray[np.intp]

def clear_distance(target: _F, centres: _F, reach: _F) -> _F: ...
def window_spots(
    tx: _F, ty: _F, radius: float, disc_x: _F, disc_y: _F, disc_r: _F, within: _F, limit_size: float, span: float,
    step: float, half: int, ix: _I, iy: _I, rings: _F, hole_x: _F, hole_y: _F, hole_r: _F, square: bool,
    half_size: float,
) -> tuple[NDArray[np.bool_], _F]: ...
