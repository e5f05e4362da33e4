"""Type stubs of the compiled striker placement search (carromlab/rules/_placement.pyx)."""

import numpy as np
from numpy.typing import NDArray

_F = NDArray[np.float64]

def nearest_clear(
    key: _F, other: _F, order: NDArray[np.intp], runs: NDArray[np.intp], swept_x: bool, qx: _F, qy: _F, qkey: _F,
    qother: _F, bound: _F, disc_x: _F, disc_y: _F, reach2: _F,
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]: ...
def clear(x: _F, y: _F, which: NDArray[np.intp], discs: _F, radius: _F) -> NDArray[np.bool_]: ...
def reaching(
    discs: _F, which: NDArray[np.intp], radius: float, x0: float, x1: float, y0: float, y1: float
) -> tuple[_F, _F, _F, _F]: ...
def midpoints(bx: _F, by: _F, dx: _F, dy: _F, lo: _F, width: float, steps: int, px: _F, py: _F) -> None: ...
def advance(
    legal: NDArray[np.uint8], px: _F, py: _F, disc_x: _F, disc_y: _F, reach: _F, lo: _F, width: float, steps: int
) -> float: ...
def bisect(
    bx: _F, by: _F, dx: _F, dy: _F, disc_x: _F, disc_y: _F, reach: _F, near: tuple[float | bool, ...], baseline: tuple[object, ...], steps: int,
) -> _F: ...
