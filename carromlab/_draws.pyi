"""Type stubs of the compiled uniform draws (carromlab/_draws.pyx)."""

import numpy as np
from numpy.typing import NDArray

def uniforms(rngs: list[np.random.Generator], m: int) -> NDArray[np.float64]: ...
