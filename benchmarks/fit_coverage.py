"""Bias and coverage of fit_friction on synthetic filmed shots with known truth.

Each trial is a random cut shot of ``tests/fitting/scenarios.py`` (a striker into one coin,
cushion bounces, the disc sliding to rest) simulated under a known law, filmed at a frame
rate with Gaussian position noise (no dropouts or outliers) and, optionally, frame-timing
jitter, written as a track file (CSV and sidecar) and read back with ``read_tracks``, split
at the true impacts and fitted. A cell's row gives, per parameter: the share of trials
whose 95 % interval holds the truth with its Clopper-Pearson 95 % interval (a cell whose
interval lies below 0.95 is marked ``low``, above ``high``), and the z-scores (estimate
minus truth over standard error): their mean with its standard error (bias) and their
standard deviation (1 when the standard errors are right; below 1, intervals wider than
needed).

    PYTHONPATH=$PWD python benchmarks/fit_coverage.py --cells laws jitter --trials 40 --workers 2
    PYTHONPATH=$PWD python benchmarks/fit_coverage.py --cells stribeck --trials 20 --workers 2

One trial takes about 0.5 s (Coulomb friction) to 30 s (Stribeck, whose numerical
kinematics dominate) on one core.
"""

from __future__ import annotations

import argparse
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.stats import binomial_ci
from carromlab.fitting import FitWarning, fit_friction, read_tracks, segment_tracks
from carromlab.physics.friction import get_law
from tests.fitting.scenarios import ANGLE_NOISE, GENERATING, shot

#: (label, law, frames/s, timing jitter of the camera s, timing_jitter given to the fit s,
#: air drag 1/m (fitted when > 0), with angles)
CELLS = {
    "laws": [
        ("coulomb 30 fps", "coulomb", 30.0, 0.0, 0.0, 0.0, False),
        ("coulomb 60 fps", "coulomb", 60.0, 0.0, 0.0, 0.0, False),
        ("coulomb 240 fps", "coulomb", 240.0, 0.0, 0.0, 0.0, False),
        ("coulomb + drag 60 fps", "coulomb", 60.0, 0.0, 0.0, 0.1, False),
        ("linear 30 fps", "linear", 30.0, 0.0, 0.0, 0.0, False),
        ("linear 240 fps", "linear", 240.0, 0.0, 0.0, 0.0, False),
        ("slide_spin 60 fps, angles", "slide_spin", 60.0, 0.0, 0.0, 0.0, True),
    ],
    "stribeck": [("stribeck 60 fps", "stribeck", 60.0, 0.0, 0.0, 0.0, False)],
    "jitter": [
        ("coulomb 30 fps, 5 ms jitter", "coulomb", 30.0, 0.005, 0.0, 0.0, False),
        ("coulomb 30 fps, 5 ms jitter, fitted", "coulomb", 30.0, 0.005, 0.005, 0.0, False),
        ("linear 30 fps, 2 ms jitter", "linear", 30.0, 0.002, 0.0, 0.0, False),
        ("linear 30 fps, 5 ms jitter", "linear", 30.0, 0.005, 0.0, 0.0, False),
        ("linear 30 fps, 5 ms jitter, fitted", "linear", 30.0, 0.005, 0.005, 0.0, False),
        ("linear 240 fps, 0.2 ms jitter", "linear", 240.0, 0.0002, 0.0, 0.0, False),
        ("linear 240 fps, 1 ms jitter", "linear", 240.0, 0.001, 0.0, 0.0, False),
        ("linear 240 fps, 1 ms jitter, fitted", "linear", 240.0, 0.001, 0.001, 0.0, False),
    ],
}
#: Position noise of the camera, px at 1000 px/m: 1 mm.
PIXEL_NOISE = 1.0


def trial(job: tuple[tuple, int]) -> list[dict]:
    """One filmed shot fitted: a row per parameter."""
    (label, law, fps, jitter, fit_jitter, drag, angles), seed = job
    params = GENERATING[law].with_(air_drag=drag)
    syn = shot(
        seed, law, params=params, angle_noise=ANGLE_NOISE if angles else None, fps=fps, pixel_noise=PIXEL_NOISE,
        dropout=0.0, outlier_rate=0.0, timing_jitter=jitter,
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as d:
        syn.write(Path(d) / "shot.csv")
        tracks = read_tracks(Path(d) / "shot.csv")
    names = get_law(law).parameters + (("air_drag",) if drag else ())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitWarning)
        fit = fit_friction(segment_tracks(tracks, breaks=syn.breaks()), law, parameters=names, timing_jitter=fit_jitter)
    rows = []
    for r in fit.estimates.itertuples(index=False):
        truth = getattr(params, r.parameter)
        rows.append({"cell": label, "seed": seed, "parameter": r.parameter, "z": (r.estimate - truth) / r.std_error,
                     "covered": bool(r.ci_low <= truth <= r.ci_high)})  # fmt: skip
    return rows


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per cell and parameter: trials, coverage with its Clopper-Pearson interval and
    verdict, z-score mean (and its standard error) and standard deviation."""
    g = df.groupby(["cell", "parameter"], sort=False)
    out = g.agg(n=("z", "size"), k=("covered", "sum"), z_mean=("z", "mean"), z_sd=("z", "std")).reset_index()
    lo, hi = binomial_ci(out["k"].to_numpy(), out["n"].to_numpy(), method="clopper-pearson")
    out["coverage"] = out["k"] / out["n"]
    out["ci"] = [f"{a:.2f}-{b:.2f}" for a, b in zip(lo, hi)]
    out["verdict"] = np.where(hi < 0.95, "low", np.where(lo > 0.95, "high", "ok"))
    out["z_mean_se"] = out["z_sd"] / np.sqrt(out["n"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", choices=sorted(CELLS), nargs="+", default=sorted(CELLS))
    ap.add_argument("--trials", type=int, default=40, help="seeds 0 .. trials-1 per cell (default 40)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--csv", help="also write every trial's z-scores here")
    args = ap.parse_args()
    jobs = [(cell, seed) for name in args.cells for cell in CELLS[name] for seed in range(args.trials)]
    with ProcessPoolExecutor(args.workers) as pool:
        df = pd.DataFrame([row for rows in pool.map(trial, jobs, chunksize=1) for row in rows])
    if args.csv:
        df.to_csv(args.csv, index=False)
    print("| cell | parameter | trials | covered | 95 % interval of the coverage | z mean (se) | z sd |")
    print("|---|---|---|---|---|---|---|")
    for r in summary(df).itertuples(index=False):
        flag = "" if r.verdict == "ok" else f" ({r.verdict})"
        print(f"| {r.cell} | {r.parameter} | {r.n} | {r.coverage:.2f}{flag} | {r.ci} | "
              f"{r.z_mean:+.2f} ({r.z_mean_se:.2f}) | {r.z_sd:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
