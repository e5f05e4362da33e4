"""The event-based peer of ``benchmarks/run.py``: pooltool-billiards 0.6 on its own 9-ball break.

A different game (pool balls on a pool table, pooltool's own physics), measured for what
an event-based engine does per event and per break. ``run.py`` runs this file in a
subprocess with the interpreter of ``--pooltool-python`` (pooltool may live in its own
environment: see ``benchmarks/README.md``) and reads the one JSON object it prints::

    python benchmarks/pooltool_break.py --n 20 --seed 2024 --budget 20

The breaks vary as carromlab's do: every break is a fresh seeded 9-ball rack (pooltool's
rack jitter, ``spacing_factor`` 1e-3), the cue ball is placed at a uniform x across the
middle 60 % of the table just behind the head string, aimed at the 1 ball within
+-``AIM_DEG`` and struck at a cue speed uniform in ``SPEED``. Each break is timed
(``time.process_time`` and wall) around ``pooltool.simulate`` alone; the first call,
which compiles (or loads from numba's cache) the kernels, is timed apart as ``warmup_s``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

AIM_DEG = 2.0  # cue ball aimed at the 1 ball +- this (deg): the rack is about +-6 deg wide
SPEED = (5.0, 9.0)  # cue speed V0, m/s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20, help="breaks to time (at most)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--budget", type=float, default=20.0, help="stop after this many CPU seconds of breaks")
    args = ap.parse_args()
    try:
        import numpy as np
        import pooltool as pt
    except Exception as exc:  # noqa: BLE001 - any import failure makes the peer unavailable
        print(json.dumps({"unavailable": f"import pooltool failed: {type(exc).__name__}: {exc}"}))
        return 0

    table = pt.Table.default()
    rng = np.random.default_rng(args.seed)

    def system(k: int) -> pt.System:
        random.seed(args.seed + k)  # get_rack draws the ball order and jitter from these
        np.random.seed(args.seed + k)
        balls = pt.get_rack(pt.GameType.NINEBALL, table)
        r = balls["cue"].params.R
        balls["cue"].state.rvw[0][:2] = (rng.uniform(0.2, 0.8) * table.w, table.l / 4 - 2 * r)
        sys_ = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))
        phi = pt.aim.at_ball(sys_, "1") + rng.uniform(-AIM_DEG, AIM_DEG)
        sys_.cue.set_state(V0=rng.uniform(*SPEED), phi=phi)
        return sys_

    t0 = time.perf_counter()
    pt.simulate(system(-1), inplace=True)
    warmup = time.perf_counter() - t0
    cpu, wall, events, duration = [], [], [], []
    for k in range(args.n):
        s = system(k)
        w0, c0 = time.perf_counter(), time.process_time()
        pt.simulate(s, inplace=True)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        events.append(len(s.events))
        duration.append(float(s.t))
        if sum(cpu) > args.budget:
            break
    print(json.dumps({
        "pooltool": pt.__version__, "breaks": len(cpu), "median_s": statistics.median(wall),
        "median_cpu_s": statistics.median(cpu), "events_per_break": statistics.median(events),
        "events_per_cpu_s": sum(events) / sum(cpu), "breaks_per_cpu_s": len(cpu) / sum(cpu),
        "mean_duration_s": statistics.fmean(duration), "warmup_s": warmup,
        "aim_deg": AIM_DEG, "speed": list(SPEED),
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
