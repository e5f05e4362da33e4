"""``carromlab simulate``: one shot, its event log, a PNG of the paths, optionally a GIF."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ._common import (add_disc_options, add_output_options, add_physics_options, add_subcommand, disc_specs,
                      physics, save_figure, write_tables)  # fmt: skip

EXAMPLES = """\
  carromlab simulate                               # the ICF break, 6 m/s straight up
  carromlab simulate --speed 4 --angle-deg 80 --x 0.05 --out out/cut
  carromlab simulate --layout hikone --powder starch
  carromlab simulate --gif --slowdown 2            # and an animation at half speed
  carromlab simulate --position mypos.json --x 0.05 --angle-deg 120.9 --speed 2.5   # replay a shot
  carromlab simulate --striker-mass 0.018 --coin-radius 0.016 --mu 0.09
"""

#: Event rows printed (all of them are in events.csv).
SHOWN_EVENTS = 30


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
        sub, "simulate", run=run, help="simulate one shot: events table, final state and a PNG of the paths",
        description="Simulate one shot from a starting layout; write its event log, the final state and a PNG "
                    "of the paths (and a GIF with --gif).",
        examples=EXAMPLES,
    )  # fmt: skip
    s.add_argument("--layout", choices=["icf", "hikone", "crokinole"], default="icf",
                   help="starting position (default: the ICF break); with --position, the board of a plain kind, x, y table")  # fmt: skip
    s.add_argument("--position", metavar="FILE", default=None,
                   help="start from a position file: a saved position (.json/.csv, Scene.save) or a kind, x, y table (m)")  # fmt: skip
    s.add_argument("--x", type=float, default=0.0, help="striker x, m (default 0)")
    s.add_argument("--y", type=float, default=None, help="striker y, m (default: the shooter's baseline)")
    s.add_argument("--angle-deg", type=float, default=90.0, help="direction, degrees counter-clockwise from +x (default 90: up the board)")
    s.add_argument("--speed", type=float, default=6.0, help="speed, m/s (default 6)")
    s.add_argument("--spin", type=float, default=0.0, help="spin, rad/s (default 0)")
    s.add_argument("--gif", action="store_true", help="also write an animation, shot.gif")
    s.add_argument("--slowdown", type=float, default=1.0, help="GIF playback slowdown (default 1: real time)")
    add_physics_options(s)
    add_disc_options(s, ("icf", "hikone", "crokinole"))
    add_output_options(s)


def _scene(args: argparse.Namespace) -> Any:
    """The starting scene: --position, else the --layout preset, with the disc options."""
    from ..engine.scene import Scene
    from ..equipment.board import Board

    game = args.layout
    if args.position is not None:
        scene = Scene.load(args.position, board=Board.preset(game))
        game = scene.board.name if scene.board.name in ("icf", "hikone", "crokinole") else game
        return Scene(scene.board, scene.pieces[["kind", "x", "y"]], disc_specs(args, game, scene.specs), scene.striker)
    specs = disc_specs(args, game)
    return {"icf": Scene.icf_break, "hikone": Scene.hikone_start, "crokinole": Scene.crokinole_empty}[game](specs=specs)


def run(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..engine.scene import Shot
    from ..engine.simulate import STATUS_TEXT, simulate
    from ..plotting.shot import plot_shot

    scene = _scene(args)
    shot = Shot.from_deg(args.x, _default_y(scene.board) if args.y is None else args.y,
                         angle_deg=args.angle_deg, speed=args.speed, spin=args.spin)  # fmt: skip
    res = simulate(scene, shot, physics(args))
    files = write_tables(out, {"events": res.events, "final": res.final}, args.format)
    files.append(save_figure(plot_shot(res).get_figure(), out / "trajectories.png"))
    if args.gif:
        from ..plotting.animation import animate_shot

        files.append(animate_shot(res, out / "shot.gif", slowdown=args.slowdown))
    pocketed = ", ".join(f"{k} ({p})" for k, p in zip(res.pocketed["kind"], res.pocketed["pocket"])) or "nothing"
    source = args.position or f"the {args.layout} start"
    print(
        f"shot from {source} on the {scene.board.name} board: ({shot.x:g}, {shot.y:g}) m, {args.angle_deg:g} deg, "
        f"{shot.speed:g} m/s, spin {shot.spin:g} rad/s: {res.n_events} events in {res.duration:.3f} s of play; "
        f"pocketed: {pocketed}; striker: {STATUS_TEXT[res.striker_fate]}."
    )
    ev = res.events[["t", "kind", "disc", "disc_kind", "other", "where", "vn"]].rename(columns={"t": "t (s)", "vn": "vn (m/s)"})
    if len(ev):
        print(ev.head(SHOWN_EVENTS).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if len(ev) > SHOWN_EVENTS:
        print(f"... {len(ev) - SHOWN_EVENTS} more events in events.{args.format}")
    return files
