"""The ``carromlab`` command line.

Every subcommand writes its tables (CSV, or Parquet with ``--format parquet``) and a PNG
into ``--out``, prints a short summary, and exits with status 2 and one clear line on bad
input.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from .equipment.board import Board

__all__ = ["main"]

_EXAMPLES_SIMULATE = """examples:
  carromlab simulate                               # the ICF break, 6 m/s straight up
  carromlab simulate --speed 4 --angle-deg 80 --x 0.05 --out out/cut
  carromlab simulate --layout hikone --powder starch
  carromlab simulate --gif --slowdown 2            # and an animation at half speed
"""


def _write(df: pd.DataFrame, path: Path, fmt: str) -> Path:
    path = path.with_suffix("." + fmt)
    if fmt == "parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
    return path


def _default_y(board: Board) -> float:
    """The south player's striker line: ICF baseline centre, Hikone tee spot, crokinole
    shooting line, m."""
    if board.name == "icf":
        return board.baseline("south").centre.y0
    if board.name == "hikone":
        return board.area_line("south").tee_spot.y
    return -board.shooting_line("south").radius


def _cmd_simulate(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from .engine.scene import Scene, Shot
    from .engine.simulate import simulate
    from .physics.params import PhysicsParams
    from .plotting.shot import plot_shot

    scene = {"icf": Scene.icf_break, "hikone": Scene.hikone_start, "crokinole": Scene.crokinole_empty}[args.layout]()
    params = PhysicsParams.from_powder(args.powder) if args.powder else PhysicsParams()
    shot = Shot.from_deg(args.x, _default_y(scene.board) if args.y is None else args.y,
                         angle_deg=args.angle_deg, speed=args.speed, spin=args.spin)  # fmt: skip
    res = simulate(scene, shot, params)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    files = [
        _write(res.events, out / "events", args.format),
        _write(res.final, out / "final", args.format),
    ]
    ax = plot_shot(res)
    png = out / "trajectories.png"
    ax.get_figure().savefig(png, dpi=120, bbox_inches="tight")  # type: ignore[union-attr]
    files.append(png)
    if args.gif:
        from .plotting.animation import animate_shot

        files.append(animate_shot(res, out / "shot.gif", slowdown=args.slowdown))
    pocketed = ", ".join(f"{k} ({p})" for k, p in zip(res.pocketed["kind"], res.pocketed["pocket"])) or "nothing"
    print(
        f"{scene.board.name} {args.layout} shot: {res.n_events} events in {res.duration:.3f} s of play; "
        f"pocketed: {pocketed}; striker: {res.striker_fate}."
    )
    print("wrote " + ", ".join(str(f) for f in files))
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="carromlab", description="Shot analysis for carrom, Hikone carrom and crokinole.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser(
        "simulate",
        help="simulate one shot: events table, final state and a PNG of the paths",
        epilog=_EXAMPLES_SIMULATE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--layout", choices=["icf", "hikone", "crokinole"], default="icf", help="starting position (default: the ICF break)")
    s.add_argument("--x", type=float, default=0.0, help="striker x, m (default 0)")
    s.add_argument("--y", type=float, default=None, help="striker y, m (default: the shooter's baseline)")
    s.add_argument("--angle-deg", type=float, default=90.0, help="direction, degrees counter-clockwise from +x (default 90: up the board)")
    s.add_argument("--speed", type=float, default=6.0, help="speed, m/s (default 6)")
    s.add_argument("--spin", type=float, default=0.0, help="spin, rad/s (default 0)")
    s.add_argument("--powder", default=None, help="board powder preset (default: club)")
    s.add_argument("--out", default="carromlab-out", help="output folder (default carromlab-out)")
    s.add_argument("--format", choices=["csv", "parquet"], default="csv", help="table format (default csv)")
    s.add_argument("--gif", action="store_true", help="also write an animation, shot.gif")
    s.add_argument("--slowdown", type=float, default=1.0, help="GIF playback slowdown (default 1: real time)")
    s.set_defaults(func=_cmd_simulate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except ValueError as exc:
        print(f"carromlab {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
