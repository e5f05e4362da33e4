"""Type stubs of the compiled geometry tests of a board (carromlab/equipment/_marks.pyx)."""

import numpy as np
from numpy.typing import NDArray

_F = NDArray[np.float64]
_U = NDArray[np.uint8]

def distances(px: _F, py: _F, x0: _F, y0: _F, dx: _F, dy: _F, ll: _F, flat: _U) -> _F: ...
def striker_allowed(
    px: _F, py: _F, x0: _F, y0: _F, dx: _F, dy: _F, ll: _F, flat: _U, cx: _F, cy: _F, cr: _F, r: float, eps: float
) -> NDArray[np.bool_]: ...
def contains(px: _F, py: _F, r: _F, square: bool, h: float) -> NDArray[np.bool_]: ...
