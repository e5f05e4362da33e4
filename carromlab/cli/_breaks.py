"""``carromlab break-study``: the opening shot swept over placement, aim and speed."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from ._common import (add_backend_options, add_disc_options, add_noise_option, add_output_options, add_physics_options,
                      add_subcommand, backend, disc_specs, noise_model, physics, positive_int, pyplot, save_figure,
                      write_tables)  # fmt: skip

EXAMPLES = """\
  carromlab break-study                                  # ICF, default grid (189 breaks), 100 replicas
  carromlab break-study --variant hikone --noise expert --out out/hikone
  carromlab break-study --replicas 1000 --store runs/icf-break   # rerun the same line to resume
  carromlab break-study --scheduler tcp://10.0.0.5:8786 --format parquet
  carromlab break-study --small --quiet                  # a seconds-long smoke run
"""

#: --small: 3 placements x 3 aims x 1 speed, 8 replicas.
SMALL_REPLICAS = 8
#: Fresh noisy shots of the best break, replayed free of the selection (BreakStudy.replay).
REPLAY_REPLICAS = 1000


def add_parser(sub: Any) -> None:
    s = add_subcommand(
        sub, "break-study", run=run, help="sweep the break: outcomes per placement, aim and speed, best break",
        description="Play every break of a grid (placement on the line x aim relative to the pack x speed) with "
                    "execution noise; write one row per nominal break (best first) and one per noisy shot, and a PNG "
                    "of the outcome histograms and the expected own pieces over placement x aim.",
        examples=EXAMPLES,
    )  # fmt: skip
    s.add_argument("--variant", choices=["icf", "hikone"], default="icf",
                   help="layout and scoring: the ICF break from the baseline, or the Hikone break from the tee spot "
                        "(default icf)")  # fmt: skip
    s.add_argument("--replicas", type=positive_int, default=None, help=f"noisy shots per break (default 100; {SMALL_REPLICAS} with --small)")
    s.add_argument("--small", action="store_true", help="a tiny grid (3 placements x 3 aims x 1 speed) for a seconds-long run")
    add_noise_option(s)
    add_physics_options(s)
    add_disc_options(s, ("icf", "hikone"))
    add_backend_options(s)
    add_output_options(s)


def _small_grid(scene: Any) -> Any:
    import numpy as np

    from ..analysis import ShotGrid, StrikerLine

    h = StrikerLine.for_scene(scene).half_length
    placement = [0.0] if scene.board.name == "hikone" else [-h / 2, 0.0, h / 2]
    return ShotGrid(placement=placement, angle=np.radians([-2.0, 0.0, 2.0]).tolist(), speed=[6.0], aim="pack")


def run(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..analysis import break_study, default_break_grid
    from ..engine.scene import Scene
    from ..plotting.analysis import plot_break_heatmap, plot_break_outcomes

    specs = disc_specs(args, args.variant)
    scene = Scene.icf_break(specs=specs) if args.variant == "icf" else Scene.hikone_start(specs=specs)
    grid = _small_grid(scene) if args.small else default_break_grid(scene)
    replicas = args.replicas or (SMALL_REPLICAS if args.small else 100)
    params = physics(args)
    with backend(args) as run_on:
        study = break_study(scene, grid, noise=noise_model(args.noise), replicas=replicas, params=params,
                            seed=args.seed, store=args.store, **run_on)  # fmt: skip
    files = write_tables(out, {"break_cells": study.ranking(), "break_shots": study.shots}, args.format)
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(13.0, 4.8), gridspec_kw={"width_ratios": [1.0, 1.15]})
    plot_break_outcomes(study, ax=left)
    # one placement (the Hikone tee spot): show the speeds instead
    x = "placement" if study.cells["placement"].nunique() > 1 else "speed"
    plot_break_heatmap(study, x=x, ax=right)
    over = "mean over speeds" if x == "placement" else f"from placement {study.cells['placement'].iat[0]:g} m"
    right.set_title(f"expected own ({study.weights.own}) pieces per break, {over}", fontsize="small")
    right.set_ylabel("aim from the pack's centroid (deg)")
    fig.axes[-1].set_ylabel(f"{study.weights.own} pieces pocketed per break")  # the heatmap's colour bar
    name = "ICF" if args.variant == "icf" else "Hikone"
    fig.suptitle(f"{name} break study: {len(study.cells)} breaks x {replicas} replicas, {args.noise} noise, "
                 f"mu = {params.mu:g}", fontsize="medium")  # fmt: skip
    files.append(save_figure(fig, out / "break_study.png"))

    b, own = study.best, study.weights.own
    print(
        f"{args.variant} break study: {len(study.cells)} breaks x {replicas} replicas = {len(study.shots):,} shots "
        f"({args.noise} noise, mu = {params.mu:g})."
    )
    print(
        f"best break: placement {b['placement']:+.3f} m (x = {b['x']:+.3f}, y = {b['y']:+.3f}), aim {math.degrees(b['aim']):+.1f} deg "
        f"from the pack (direction {math.degrees(b['angle']):.1f} deg), {b['speed']:g} m/s: {b[f'mean_{own}']:.2f} own "
        f"{own} pieces per break, foul rate {b['p_foul']:.1%}, score {b['mean_score']:.2f} (95 % CI {b['score_low']:.2f} "
        f"to {b['score_high']:.2f}; the best of {len(study.cells)}, so optimistic)."
    )
    r = study.replay(replicas=REPLAY_REPLICAS, workers=args.workers, progress=not args.quiet).iloc[0]
    print(
        f"replayed with {REPLAY_REPLICAS} fresh noisy breaks: {r[f'mean_{own}']:.2f} own {own} pieces per break, foul rate "
        f"{r['p_foul']:.1%}, score {r['mean_score']:.2f} (95 % CI {r['score_low']:.2f} to {r['score_high']:.2f})."
    )
    return files
