"""``carromlab simulate``: one shot, its event log, a PNG of the paths, optionally a GIF."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ._common import add_output_options, add_physics_options, add_subcommand, output_dir, physics, report, save_figure, write_tables

EXAMPLES = """\
  carromlab simulate                               # the ICF break, 6 m/s straight up
  carromlab simulate --speed 4 --angle-deg 80 --x 0.05 --out out/cut
  carromlab simulate --layout hikone --powder starch
  carromlab simulate --gif --slowdown 2            # and an animation at half speed
"""


def _default_y(board: Any) -> float:
    """The south player's striker line: ICF baseline centre, Hikone tee spot, crokinole
    shooting line, m."""
    if board.name == "icf":
        return float(board.baseline("south").centre.y0)
    if board.name == "hikone":
        return float(board.area_line("south").tee_spot.y)
    return -float(board.shooting_line("south").radius)


def add_parser(sub: Any) -> None:
    s = add_subcommand(
        sub, "simulate", help="simulate one shot: events table, final state and a PNG of the paths",
        description="Simulate one shot from a starting layout; write its event log, the final state and a PNG "
                    "of the paths (and a GIF with --gif).",
        examples=EXAMPLES,
    )  # fmt: skip
    s.add_argument("--layout", choices=["icf", "hikone", "crokinole"], default="icf", help="starting position (default: the ICF break)")
    s.add_argument("--x", type=float, default=0.0, help="striker x, m (default 0)")
    s.add_argument("--y", type=float, default=None, help="striker y, m (default: the shooter's baseline)")
    s.add_argument("--angle-deg", type=float, default=90.0, help="direction, degrees counter-clockwise from +x (default 90: up the board)")
    s.add_argument("--speed", type=float, default=6.0, help="speed, m/s (default 6)")
    s.add_argument("--spin", type=float, default=0.0, help="spin, rad/s (default 0)")
    s.add_argument("--gif", action="store_true", help="also write an animation, shot.gif")
    s.add_argument("--slowdown", type=float, default=1.0, help="GIF playback slowdown (default 1: real time)")
    add_physics_options(s)
    add_output_options(s)
    s.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..engine.scene import Scene, Shot
    from ..engine.simulate import simulate
    from ..plotting.shot import plot_shot

    started = time.perf_counter()
    scene = {"icf": Scene.icf_break, "hikone": Scene.hikone_start, "crokinole": Scene.crokinole_empty}[args.layout]()
    shot = Shot.from_deg(args.x, _default_y(scene.board) if args.y is None else args.y,
                         angle_deg=args.angle_deg, speed=args.speed, spin=args.spin)  # fmt: skip
    res = simulate(scene, shot, physics(args))
    out = output_dir(args)
    files = write_tables(out, {"events": res.events, "final": res.final}, args.format)
    files.append(save_figure(plot_shot(res).get_figure(), out / "trajectories.png"))
    if args.gif:
        from ..plotting.animation import animate_shot

        files.append(animate_shot(res, out / "shot.gif", slowdown=args.slowdown))
    pocketed = ", ".join(f"{k} ({p})" for k, p in zip(res.pocketed["kind"], res.pocketed["pocket"])) or "nothing"
    print(
        f"{scene.board.name} {args.layout} shot: {res.n_events} events in {res.duration:.3f} s of play; "
        f"pocketed: {pocketed}; striker: {res.striker_fate}."
    )
    report(files, started)
    return 0
