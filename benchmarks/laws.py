"""CPU time per varied ICF break under each friction law (median over shots, one core).

Breaks from random baseline placements x in [-0.1, 0.1] m at y = -0.2526 m, angles
pi/2 +- 10 deg, speeds 4-9 m/s. Each shot is timed alone through the compiled batch loop
(no Python per event), so the median is the engine's cost of one break.

    python benchmarks/laws.py [--shots 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from carromlab import PhysicsParams, Scene
from carromlab.engine import _core
from carromlab.engine.simulate import engine_setup

LAWS = {
    "coulomb": {},
    "slide_spin": {"friction_law": "slide_spin"},
    "linear (mu_v 0.02)": {"friction_law": "linear", "mu_v": 0.02},
    "stribeck": {"friction_law": "stribeck"},
    "coulomb + air_drag 0.03": {"air_drag": 0.03},
    "slide_spin + air_drag 0.03": {"friction_law": "slide_spin", "air_drag": 0.03},
}


def time_law(scene: Scene, shots: np.ndarray, params: PhysicsParams) -> tuple[float, float, int]:
    """Median and mean CPU time per shot (s) and the total number of events."""
    setup = engine_setup(scene, params)
    base = np.ascontiguousarray(scene.arrays["xy"]).reshape(-1, 2)
    n, m = scene.n_pieces + 1, len(shots)
    outs = [np.zeros(m, np.uint64), np.zeros(m, np.uint64), np.zeros(m, np.int8), np.zeros(m, np.int16),
            np.zeros(m, np.int32), np.zeros(m, np.uint8), np.zeros(m), np.zeros(m, np.float32),
            np.zeros((0, 0, 2), np.float32)]  # fmt: skip
    detail = [np.zeros((0, n), np.int8), np.zeros((0, n), np.float32), np.zeros(0, np.int8),
              np.zeros(0, np.float32), np.zeros(0, np.uint64)]  # fmt: skip
    times = np.empty(m)
    for k in range(m):
        t0 = time.perf_counter_ns()
        _core.run_batch(setup, base, shots, k, k + 1, *outs, 0, 0.0, 1.0, *detail)
        times[k] = (time.perf_counter_ns() - t0) * 1e-9
    return float(np.median(times)), float(times.mean()), int(outs[4].sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    m = args.shots
    shots = np.ascontiguousarray(np.column_stack([
        rng.uniform(-0.1, 0.1, m), np.full(m, -0.2526), math.pi / 2 + np.radians(rng.uniform(-10, 10, m)),
        rng.uniform(4.0, 9.0, m), np.zeros(m)]))  # fmt: skip
    scene = Scene.icf_break()
    base = None
    print(f"{'law':28s} {'median us':>10s} {'mean us':>9s} {'x coulomb':>9s} {'events':>8s}")
    for name, kw in LAWS.items():
        med, mean, ev = time_law(scene, shots, PhysicsParams(**kw))
        base = base or med
        print(f"{name:28s} {med * 1e6:10.1f} {mean * 1e6:9.1f} {med / base:9.2f} {ev:8d}")


if __name__ == "__main__":
    main()
