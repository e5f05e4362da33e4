"""Type stubs of the compiled event-driven engine (carromlab/engine/_core.pyx)."""

from typing import Any

import numpy as np
from numpy.typing import NDArray

class _Setup:
    grid_cells: int
    def __init__(
        self,
        round_board: bool,
        h: float,
        holes: NDArray[np.float64],
        pegs: NDArray[np.float64],
        params: tuple[float, ...],
        law: dict[str, Any],
        radius: NDArray[np.float64],
        mass: NDArray[np.float64],
        decel: NDArray[np.float64],
        spin_decel: NDArray[np.float64],
        fixed: NDArray[np.float64],
        reach: NDArray[np.float64],
        lim: float,
    ) -> None: ...

def placement_fault(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    pieces: NDArray[np.float64],
    present: NDArray[np.uint8],
    fixed: NDArray[np.float64],
    reach: NDArray[np.float64],
    round_board: bool,
    lim: float,
) -> tuple[int, int, float]: ...
def simulate_one(
    setup: _Setup,
    pieces: NDArray[np.float64],
    x: float,
    y: float,
    angle: float,
    speed: float,
    spin: float,
    record: bool,
) -> dict[str, Any] | tuple[int, float]: ...
def run_batch(
    setup: _Setup,
    pieces: NDArray[np.float64],
    present: NDArray[np.uint8],
    shots: NDArray[np.float64],
    start: int,
    stop: int,
    pocketed: NDArray[np.uint64],
    ditched: NDArray[np.uint64],
    striker_status: NDArray[np.int8],
    first_contact: NDArray[np.int16],
    n_events: NDArray[np.int32],
    truncated: NDArray[np.uint8],
    t_end: NDArray[np.float64],
    spread: NDArray[np.float32],
    final_xy: NDArray[np.float64],
    own: int,
    forward: NDArray[np.float64],
    hole_out: NDArray[np.int8],
    t_out: NDArray[np.float32],
    striker_first: NDArray[np.int8],
    reach: NDArray[np.float32],
    chain: NDArray[np.uint64],
    touched: NDArray[np.uint64],
    frame_reach: float,
    direct: NDArray[np.uint64],
) -> None: ...
