"""Type stubs of the compiled nearest clear candidate scan (carromlab/rules/_nearest.pyx)."""

import numpy as np
from numpy.typing import NDArray

def nearest_clear(
    cx: NDArray[np.float64],
    cy: NDArray[np.float64],
    key: NDArray[np.float64],
    order: NDArray[np.intp],
    qx: NDArray[np.float64],
    qy: NDArray[np.float64],
    qkey: NDArray[np.float64],
    disc_x: NDArray[np.float64],
    disc_y: NDArray[np.float64],
    reach2: NDArray[np.float64],
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]: ...
