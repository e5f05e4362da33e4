"""Bias and coverage of fit_friction on synthetic filmed shots with known truth.

A trial is a random cut shot (``carromlab.fitting.random_cut_shot``: the striker from the
south baseline at 2-3.5 m/s with up to 60 rad/s of spin into a coin; cushion bounces; both
discs slide to rest) simulated under a known law (``carromlab.fitting.EXAMPLE_PARAMS``), filmed at a frame rate with
Gaussian position noise (no dropouts or outliers) and, optionally, frame-timing jitter
(frame i taken at i / fps + dt, dt Gaussian, and reported at i / fps), written as a track
file (CSV in pixels and JSON sidecar), read back with ``read_tracks``, split at the true
impacts and fitted. A cell's row gives, per parameter: the share of trials whose 95 %
interval holds the truth, its Clopper-Pearson 95 % interval (``low`` when that interval
lies below 0.95, ``high`` above), and the z-scores (estimate minus truth over standard
error): their mean with its standard error (bias) and their standard deviation (1 when the
standard errors are right; below 1, intervals wider than needed).

    PYTHONPATH=$PWD python benchmarks/fit_coverage.py --cells laws jitter --trials 40 --workers 2

``--noise-seeds 0 1`` films every shot twice, with other noise (and jitter) draws.
``--selection`` runs ``compare_laws`` instead, on shots of each law filmed at 120 frames/s
with the impacts detected automatically:

    PYTHONPATH=$PWD python benchmarks/fit_coverage.py --selection --trials 6 --noise-seeds 5 One trial takes about
0.5 s (Coulomb friction, 30 frames/s) to 2-10 s (Stribeck, whose speed tables dominate)
on one core.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab import simulate
from carromlab.analysis.stats import binomial_ci
from carromlab.fitting import (
    EXAMPLE_ANGLE_NOISE,
    EXAMPLE_PARAMS,
    BoardCalibration,
    FitWarning,
    breaks_from_events,
    compare_laws,
    fit_friction,
    random_cut_shot,
    read_tracks,
    segment_tracks,
    true_angles,
    write_tracks,
)
from carromlab.physics.friction import get_law

#: (label, law, frames/s, camera's timing jitter s, timing_jitter given to the fit s, air
#: drag 1/m (fitted when > 0), with angles)
CELLS = {
    "laws": [
        ("coulomb 30 fps", "coulomb", 30.0, 0.0, 0.0, 0.0, False),
        ("coulomb 60 fps", "coulomb", 60.0, 0.0, 0.0, 0.0, False),
        ("coulomb 240 fps", "coulomb", 240.0, 0.0, 0.0, 0.0, False),
        ("coulomb + drag 60 fps", "coulomb", 60.0, 0.0, 0.0, 0.1, False),
        ("linear 30 fps", "linear", 30.0, 0.0, 0.0, 0.0, False),
        ("linear 60 fps", "linear", 60.0, 0.0, 0.0, 0.0, False),
        ("linear 240 fps", "linear", 240.0, 0.0, 0.0, 0.0, False),
        ("slide_spin 60 fps, angles", "slide_spin", 60.0, 0.0, 0.0, 0.0, True),
    ],
    "stribeck": [("stribeck 60 fps", "stribeck", 60.0, 0.0, 0.0, 0.0, False)],
    "jitter": [
        ("coulomb 30 fps, 2 ms jitter", "coulomb", 30.0, 0.002, 0.0, 0.0, False),
        ("coulomb 30 fps, 5 ms jitter", "coulomb", 30.0, 0.005, 0.0, 0.0, False),
        ("coulomb 240 fps, 1 ms jitter", "coulomb", 240.0, 0.001, 0.0, 0.0, False),
        ("coulomb 240 fps, 3 ms jitter", "coulomb", 240.0, 0.003, 0.0, 0.0, False),
        ("linear 30 fps, 2 ms jitter", "linear", 30.0, 0.002, 0.0, 0.0, False),
        ("linear 30 fps, 5 ms jitter", "linear", 30.0, 0.005, 0.0, 0.0, False),
        ("linear 240 fps, 0.2 ms jitter", "linear", 240.0, 0.0002, 0.0, 0.0, False),
        ("linear 240 fps, 1 ms jitter", "linear", 240.0, 0.001, 0.0, 0.0, False),
        ("linear 240 fps, 3 ms jitter", "linear", 240.0, 0.003, 0.0, 0.0, False),
    ],
    "jitter-fitted": [
        ("coulomb 30 fps, 5 ms jitter, fitted", "coulomb", 30.0, 0.005, 0.005, 0.0, False),
        ("linear 30 fps, 5 ms jitter, fitted", "linear", 30.0, 0.005, 0.005, 0.0, False),
        ("linear 240 fps, 1 ms jitter, fitted", "linear", 240.0, 0.001, 0.001, 0.0, False),
    ],
}
#: Gaussian position noise, mm (pixels at 1000 px/m).
NOISE_MM = 1.0
PX_PER_M = 1000.0


def film(law: str, seed: int, fps: float, jitter: float, drag: float, angles: bool, noise_seed: int, path: Path):
    """Simulate shot ``seed`` and write what the camera saw to ``path``; its true breaks."""
    scene, shot = random_cut_shot(np.random.default_rng([seed, 11]))
    res = simulate(scene, shot, EXAMPLE_PARAMS[law].with_(air_drag=drag))
    rng = np.random.default_rng([seed, noise_seed, 12])  # the camera's noise and jitter
    n = int(math.floor((res.duration + 0.25) * fps)) + 1
    nominal = np.arange(n) / fps
    taken = np.clip(nominal + rng.normal(0.0, jitter, n), 0.0, None) if jitter else nominal
    pos = res.positions_at(taken).rename(columns={"id": "disc"})
    pos["frame"] = pos["t"].map(dict(zip(taken, range(n))))
    pos = pos.sort_values(["disc", "frame"], ignore_index=True)
    if angles:
        pos["angle"] = true_angles(res, pos["disc"], pos["t"], rng)
    seen = pos[pos["status"] == "board"].reset_index(drop=True)
    camera = BoardCalibration.from_scale(PX_PER_M, origin_px=(960.0, 540.0))
    u, v = camera.to_pixels(seen["x"].to_numpy(), seen["y"].to_numpy())
    sd = NOISE_MM * 1e-3 * PX_PER_M
    df = pd.DataFrame({"disc": seen["disc"], "frame": seen["frame"], "t": seen["frame"] / fps,
                       "x": np.round(u + rng.normal(0, sd, len(u)), 3), "y": np.round(v + rng.normal(0, sd, len(u)), 3)})  # fmt: skip
    if angles:
        a = camera.angle_sign * (seen["angle"].to_numpy() + rng.normal(0, EXAMPLE_ANGLE_NOISE, len(u)))
        df["angle"] = np.round((a + math.pi) % (2 * math.pi) - math.pi, 5)
    df["t"] = df["t"].round(7)
    radius = {i: float(r) for i, r in enumerate(scene.arrays["radius"])}
    write_tracks(df, path, units="px", calibration=camera, fps=fps, radius=radius, board=scene.board)
    return breaks_from_events(res.events)


def trial(job: tuple[tuple, int, int]) -> list[dict]:
    """One filmed shot fitted: a row per parameter."""
    (label, law, fps, jitter, fit_jitter, drag, angles), seed, noise_seed = job
    with tempfile.TemporaryDirectory() as d:
        breaks = film(law, seed, fps, jitter, drag, angles, noise_seed, Path(d) / "shot.csv")
        tracks = read_tracks(Path(d) / "shot.csv")
    names = get_law(law).parameters + (("air_drag",) if drag else ())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitWarning)
        fit = fit_friction(segment_tracks(tracks, breaks=breaks), law, parameters=names, timing_jitter=fit_jitter)
    truth = EXAMPLE_PARAMS[law].with_(air_drag=drag)
    return [
        {"cell": label, "seed": seed, "parameter": r.parameter, "z": (r.estimate - getattr(truth, r.parameter)) / r.std_error,
         "covered": bool(r.ci_low <= getattr(truth, r.parameter) <= r.ci_high), "noise": fit.noise["position"]}
        for r in fit.estimates.itertuples(index=False)
    ]  # fmt: skip


#: Laws compared in the model-selection runs (those positions can identify: not slide_spin).
SELECTION_LAWS = ["coulomb", "linear", "stribeck"]


def selection(job: tuple[str, int, int]) -> dict:
    """Model selection on one shot of ``law`` at 120 frames/s (no jitter), impacts detected
    automatically: the law BIC picks and every law's BIC above the best."""
    law, seed, noise_seed = job
    with tempfile.TemporaryDirectory() as d:
        film(law, seed, 120.0, 0.0, 0.0, False, noise_seed, Path(d) / "shot.csv")
        tracks = read_tracks(Path(d) / "shot.csv")
    comp = compare_laws(tracks, SELECTION_LAWS)
    delta = comp.criteria.set_index("law")["delta_bic"]
    return {"law": law, "seed": seed, "best": comp.best, **{f"delta_bic_{n}": delta[n] for n in SELECTION_LAWS}}


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per cell and parameter: trials, coverage with its Clopper-Pearson interval and
    verdict, z-score mean (and its standard error) and standard deviation, fitted noise."""
    g = df.groupby(["cell", "parameter"], sort=False)
    out = g.agg(n=("z", "size"), k=("covered", "sum"), z_mean=("z", "mean"), z_sd=("z", "std"), noise=("noise", "mean"))
    out = out.reset_index()
    lo, hi = binomial_ci(out["k"].to_numpy(), out["n"].to_numpy(), method="clopper-pearson")
    out["coverage"], out["ci_low"], out["ci_high"] = out["k"] / out["n"], lo, hi
    out["verdict"] = np.where(hi < 0.95, "low", np.where(lo > 0.95, "high", "ok"))
    out["z_mean_se"] = out["z_sd"] / np.sqrt(out["n"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", choices=sorted(CELLS), nargs="+", default=["laws", "jitter", "jitter-fitted"])
    ap.add_argument("--trials", type=int, default=40, help="shots (seeds first .. first + trials - 1) per cell and noise seed; default 40")
    ap.add_argument("--first-seed", type=int, default=0, help="the first shot's seed; default 0")
    ap.add_argument("--noise-seeds", type=int, nargs="+", default=[0], help="noise draws of every shot (default 0)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--csv", help="also write every trial's z-scores (or comparisons) to this file")
    ap.add_argument("--selection", action="store_true", help="model selection (compare_laws) instead of coverage")
    args = ap.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.trials)
    if args.selection:
        jobs_s = [(law, seed, noise_seed) for law in SELECTION_LAWS for noise_seed in args.noise_seeds for seed in seeds]
        with ProcessPoolExecutor(args.workers) as pool:
            sel = pd.DataFrame(list(pool.map(selection, jobs_s, chunksize=1)))
        if args.csv:
            sel.to_csv(args.csv, index=False)
        for law, g in sel.groupby("law", sort=False):
            others = g[[f"delta_bic_{n}" for n in SELECTION_LAWS if n != law]].min(axis=1)
            print(f"{law}: BIC picks it in {(g['best'] == law).sum()} of {len(g)} shots; the next law's BIC is "
                  f"{others.min():.1f}-{others.max():.1f} higher")  # fmt: skip
        return
    jobs = [
        (cell, seed, noise_seed)
        for name in args.cells for cell in CELLS[name] for noise_seed in args.noise_seeds for seed in seeds
    ]  # fmt: skip
    with ProcessPoolExecutor(args.workers) as pool:
        df = pd.DataFrame([row for rows in pool.map(trial, jobs, chunksize=1) for row in rows])
    if args.csv:
        df.to_csv(args.csv, index=False)
    print("| cell | parameter | trials | covered (95 % interval) | z mean (se) | z sd | noise (mm) |")
    print("|---|---|---|---|---|---|---|")
    for r in summary(df).itertuples(index=False):
        flag = "" if r.verdict == "ok" else f", {r.verdict}"
        print(f"| {r.cell} | {r.parameter} | {r.n} | {r.coverage:.2f} ({r.ci_low:.2f}-{r.ci_high:.2f}{flag}) | "
              f"{r.z_mean:+.2f} ({r.z_mean_se:.2f}) | {r.z_sd:.2f} | {r.noise * 1e3:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
