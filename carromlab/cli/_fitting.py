"""``carromlab fit-friction``: friction laws fitted to tracked discs and compared."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from ..fitting.calibration_io import CALIBRATION_SUFFIXES
from ._common import (add_output_options, add_physics_options, add_subcommand, name_list, physics, positive_int, pyplot,
                      save_figure, unwritable, write_tables)  # fmt: skip

EXAMPLES = """\
  carromlab fit-friction --example cushion                  # a bundled synthetic track file (about a minute)
  carromlab fit-friction --example slide                    # the short one: the striker alone off one cushion (seconds)
  carromlab fit-friction --tracks shot.csv --laws coulomb,linear --save-calibration my_board.toml
  carromlab fit-friction --tracks frames.csv --fps 120 --radius 0.0155 --loss soft_l1
  carromlab fit-friction --example slide --air-drag         # the drag fitted with every law
  carromlab break-study --calibration my_board.toml         # then analyse with the fitted physics
"""

#: --example names: the synthetic track files of the data/ folder (see data/README.md).
TRACK_EXAMPLES = {"cushion": "cushion_shot.csv", "slide": "slide_shot.csv", "spin": "spin_shot.csv", "trackpy": "trackpy_frames.csv"}


def add_parser(sub: Any) -> None:
    s = add_subcommand(
        sub, "fit-friction", run=run, help="fit friction laws to tracked discs, compare them, save a calibration",
        description="Split tracks into free-sliding segments, fit every friction law to them and rank the laws by an "
                    "information criterion; write the comparison and parameter tables, a PNG of the residuals along "
                    "the path per law and a PNG of speed against time.",
        examples=EXAMPLES,
    )  # fmt: skip
    g = s.add_argument_group("tracks").add_mutually_exclusive_group(required=True)
    g.add_argument("--tracks", metavar="FILE", help="track CSV (carromlab or trackpy layout, see data/README.md), with its "
                                                    "optional JSON sidecar (units, fps, camera calibration, radii)")  # fmt: skip
    g.add_argument("--example", choices=list(TRACK_EXAMPLES), help="a bundled synthetic track file (source checkout)")
    t = s.add_argument_group("track overrides (default: from the sidecar)")
    t.add_argument("--fps", type=float, default=None, help="frame rate, frames/s (tracks with frames but no t column)")
    t.add_argument("--radius", type=float, default=None, help="disc radius, m, for every disc")
    t.add_argument("--board", choices=["icf", "hikone", "crokinole"], default=None, help="the board")
    f = s.add_argument_group("fit")
    f.add_argument("--laws", type=name_list, default=["coulomb", "slide_spin", "linear"],
                   help="comma-separated friction laws to compare (default coulomb,slide_spin,linear; also stribeck)")
    f.add_argument("--air-drag", action="store_true", help="also fit the quadratic air drag (1/m) with every law; "
                                                          "without it the drag stays at the physics' value")  # fmt: skip
    f.add_argument("--criterion", choices=["bic", "aic"], default="bic", help="ranking criterion (default bic)")
    f.add_argument("--loss", choices=["huber", "soft_l1", "linear"], default="huber", help="least-squares loss (default huber, robust)")
    f.add_argument("--max-passes", type=positive_int, default=4, help="fits with re-estimated noise scales (default 4)")
    f.add_argument("--save-calibration", metavar="FILE", type=_file_to_write, default=None, help="save the best law's fit as a calibration (.toml or .json)")
    f.add_argument("--name", default=None, help="name of the saved calibration (default: fit-<tracks file name>)")
    add_physics_options(s, what="fixed parameters and starting values")
    add_output_options(s)


def _file_to_write(text: str) -> str:
    """A .toml or .json file in an existing, writable folder: checked when the options are
    read, not after the fit."""
    if Path(text).suffix.lower() not in CALIBRATION_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"must be a file name ending in one of {list(CALIBRATION_SUFFIXES)} (the suffix chooses the format). "
            f"Got {text!r} instead."
        )
    folder = Path(text).parent
    why = unwritable(folder)
    if why:
        raise argparse.ArgumentTypeError(f"must be a file in an existing, writable folder. Got {text!r} ({why}: folder {str(folder)!r}) instead.")
    return text


def _tracks(args: argparse.Namespace) -> Any:
    from ..fitting import data_path, read_tracks

    if args.example:
        try:
            path = data_path(TRACK_EXAMPLES[args.example])
        except FileNotFoundError as exc:
            raise ValueError(f"The '--example' option needs a source checkout: {exc}") from None
    else:
        path = Path(args.tracks)
        if not path.is_file():
            raise ValueError(f"The '--tracks' option must name an existing track CSV file. Got {str(path)!r} instead.")
    return read_tracks(path, fps=args.fps, radius=args.radius, board=args.board), path


def run(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..fitting import segment_tracks
    from ..fitting.calibration_io import save_calibration
    from ..fitting.compare import compare_laws
    from ..physics.friction import FRICTION_LAWS
    from ..plotting.fitting import plot_residuals, plot_speed

    tracks, path = _tracks(args)
    laws = args.laws
    if any(law not in FRICTION_LAWS for law in laws):
        raise ValueError(f"The '--laws' option must list friction laws among {list(FRICTION_LAWS)}. Got {','.join(laws)!r} instead.")
    seg = segment_tracks(tracks)
    if not args.quiet:
        print(f"fitting {len(laws)} friction laws to {len(seg.usable)} free-sliding segments of {path.name} ...", file=sys.stderr)
    comp = compare_laws(seg, laws, criterion=args.criterion, params=physics(args), loss=args.loss, max_passes=args.max_passes,
                        air_drag=args.air_drag)  # fmt: skip
    fits = [comp.fits[law] for law in comp.criteria["law"]]  # best first
    tables = {"friction_laws": comp.table(), "friction_parameters": pd.concat([f.table() for f in fits], ignore_index=True)}
    files = write_tables(out, tables, args.format)

    plt = pyplot()
    fig, axes = plt.subplots(len(fits), 1, figsize=(7.5, 2.6 * len(fits) + 0.6), sharex=True, squeeze=False, layout="constrained")
    for fit, ax in zip(fits, axes[:, 0]):
        plot_residuals(fit, ax=ax)
        if ax is not axes[-1, 0]:
            ax.set_xlabel("")
    fig.suptitle(f"{path.name}: residuals along the path, best law first ({args.criterion.upper()})", fontsize="medium")
    files.append(save_figure(fig, out / "friction_residuals.png"))
    ax = plot_speed(fits)
    ax.set_title(f"{path.name}: tracked speed and the fitted laws", fontsize="small")
    files.append(save_figure(ax.get_figure(), out / "friction_speed.png"))

    best = comp.fits[comp.best]
    if args.save_calibration:
        files.append(save_calibration(best.params, args.save_calibration, name=args.name or f"fit-{path.stem}",
                                      notes=f"{comp.best} law fitted by 'carromlab fit-friction' to {path.name}.",
                                      uncertainty=best.estimates))  # fmt: skip
    crit = comp.criteria
    print(f"friction laws fitted to {len(seg.usable)} segments of {path.name}, ranked by {args.criterion.upper()}:")
    for r in crit.itertuples():
        est = comp.fits[r.law].estimates
        values = ", ".join(f"{e.parameter} = {e.estimate:.4g} [{e.ci_low:.4g}, {e.ci_high:.4g}]" for e in est.itertuples())
        delta = getattr(r, f"delta_{args.criterion}")
        flag = " (suspect: fails the goodness-of-fit check)" if r.suspect else ""
        rank = f"delta {args.criterion.upper()} {delta:.1f}, weight {r.weight:.3f}" if r.identifiable else "not identifiable from these tracks, not ranked"
        print(f"  {r.law}: {rank}{flag}; {values}")
    print(f"best law: {comp.best} (position noise {best.noise['position'] * 1e3:.2f} mm).")
    return files
