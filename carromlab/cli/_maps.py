"""``carromlab success-map`` and ``carromlab best-shot``: how likely a pot is, over a grid of
shots or at the most forgiving shot of each route (the shot planner), from a position."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (add_backend_options, add_disc_options, add_noise_option, add_output_options, add_physics_options,
                      add_subcommand,
                      backend, float_list, name_list, noise_model, physics, positive_int, pyplot,
                      save_figure, speed_list, write_tables)  # fmt: skip
from ._positions import add_position_options, scene_of

SUCCESS_EXAMPLES = """\
  carromlab success-map                                   # the 'cut' example: white at (0.15, 0.22), any pocket
  carromlab success-map --pocket ne --noise expert --placements 60 --angles 81
  carromlab success-map --position my_position.csv --target queen --speed 2.5,3.5
  carromlab success-map --variant hikone --replicas 400 --format parquet
"""

BEST_EXAMPLES = """\
  carromlab best-shot                                     # the 'cut' example, club noise: the best shot of each route
  carromlab best-shot --position my_position.csv --target 3 --pocket nw --noise beginner
  carromlab best-shot --routes direct,cut --per-route 3   # three options of each of two routes
  carromlab best-shot --opponent-falls allowed            # an opponent piece falling too still counts as a success
  carromlab best-shot --speed 2,3,4                       # only these speeds, m/s
  carromlab best-shot --placements 5 --angle-step-deg 2 --speed 1:8:3 --replicas 8,16,64,400 --refine 1   # quick
"""


def _add_shared(p: argparse.ArgumentParser, *, store: bool) -> None:
    """Position, target and physics options of both subcommands (``store``: with --store)."""
    p.add_argument("--variant", choices=["icf", "online", "hikone"], default="icf",
                   help="board and pieces: icf and online play on the ICF board, hikone on the Hikone board "
                        "(default icf; online gives the icf numbers: the maps read no rule the books differ on)")  # fmt: skip
    add_position_options(p, default="cut")
    g = p.add_argument_group("goal")
    g.add_argument("--target", default="0", help="piece to pocket: its row in the position (from 0) or a kind with one piece, "
                                                 "e.g. queen (default 0)")  # fmt: skip
    g.add_argument("--pocket", choices=["any", "sw", "se", "ne", "nw"], default="any", help="pocket it must fall in (default any)")
    add_noise_option(p)
    add_physics_options(p)
    add_disc_options(p, ("icf", "hikone"))
    add_backend_options(p, store=store)
    add_output_options(p)


def add_parsers(sub: Any) -> None:
    s = add_subcommand(
        sub, "success-map", run=run_success_map, help="success probability of a pot over placement x aim x speed",
        description="Play every cell of a grid (placement on the line x aim around the ghost-disc aim x speed) with "
                    "execution noise; write one row per cell with the success probability and its confidence "
                    "interval, and a PNG of the map on the board and over placement x aim.",
        examples=SUCCESS_EXAMPLES,
    )  # fmt: skip
    _add_shared(s, store=True)
    g = s.add_argument_group("grid")
    g.add_argument("--placements", type=positive_int, default=30, help="placements over the whole line (default 30)")
    g.add_argument("--angles", type=positive_int, default=41, help="aims, evenly over the aim range (default 41)")
    g.add_argument("--angle-range-deg", type=float, default=6.0, help="aims from -A to +A degrees around the ghost-disc aim (default 6)")
    g.add_argument("--speed", type=speed_list, default=[3.0],
                   help="speeds, m/s: comma-separated (2.5,3.5) or LOW:HIGH:N geometric (1:8:8) (default 3)")  # fmt: skip
    s.add_argument("--replicas", type=positive_int, default=100, help="noisy shots per cell (default 100)")

    b = add_subcommand(
        sub, "best-shot", run=run_best_shot, help="the shot planner: the most forgiving shot of each route for a pot",
        description="Plan a pot: search the placements, the whole circle of directions and the speeds for the shots "
                    "that pocket the target when played exactly, refine the most forgiving of each route (direct, "
                    "cut, bank, combination; named from what the simulated shot does), and report each with its "
                    "success probability from fresh noisy replicas, its 95 % interval and its aim window in "
                    "degrees. Writes the options table and a PNG of the best shot on the board.",
        examples=BEST_EXAMPLES,
    )  # fmt: skip
    _add_shared(b, store=False)
    g = b.add_argument_group("goal accounting")
    g.add_argument("--opponent-falls", choices=["spoils", "allowed"], default="spoils",
                   help="an opponent piece falling in the same shot: spoils the pot (default) or is allowed")  # fmt: skip
    g = b.add_argument_group("search")
    g.add_argument("--routes", type=_routes, default=None, help="routes to plan, comma-separated (default all: direct,cut,bank,combination)")
    g.add_argument("--per-route", type=positive_int, default=1, help="options per route (default 1)")
    g.add_argument("--placements", type=positive_int, default=15, help="coarse placements over the whole line (default 15)")
    g.add_argument("--angle-step-deg", type=float, default=0.25, help="coarse directions: every A degrees of the full circle (default 0.25)")
    g.add_argument("--speed", type=speed_list, default=speed_list("1:8:8"),
                   help="coarse speeds, m/s: comma-separated (2,3,4) or LOW:HIGH:N geometric (default 1:8:8, "
                        "8 speeds from 1 to 8)")  # fmt: skip
    g.add_argument("--replicas", type=float_list(4, int), default=[32, 128, 1000, 4000],
                   help="replicas per shot of the coarse stage, the refinement, the comparison and the fresh evaluation "
                        "(default 32,128,1000,4000)")  # fmt: skip
    g.add_argument("--refine", type=int, default=3, help="refinement rounds (default 3)")
    g.add_argument("--window-replicas", type=positive_int, default=200, help="replicas per aim of the aim-window scan (default 200)")


def _path(r: Any) -> str:
    """What an option's exact shot does, in words (from its labels)."""
    if r.striker_first == "cushion":
        return f"the striker hits a cushion, then the {r.first_contact_kind}"
    text = f"the striker hits the {r.first_contact_kind} first (cut {r.cut_deg:+.1f} deg)"
    if r.route == "bank":
        return text + ", which falls off a cushion"
    if r.route == "combination":
        struck = f"{r.first_contact_kind} {r.first_contact}"
        return text + (", which falls after touching another piece" if struck in r.fell.split(", ") else ", which moves the piece that falls")
    return text


def _routes(text: str) -> list[str]:
    from ..analysis.routes import ROUTES

    routes = name_list(text)
    if any(r not in ROUTES for r in routes):
        raise argparse.ArgumentTypeError(f"must be comma-separated routes of {','.join(ROUTES)}. Got {text!r} instead.")
    return routes


def _goal(args: argparse.Namespace, scene: Any) -> Any:
    from ..analysis import PocketPiece

    if scene.n_pieces == 0:  # a file with no rows (the examples all hold pieces)
        raise ValueError(f"The '--position' file {args.position!r} must hold the target piece. Got a position with no pieces instead.")
    target: int | str = int(args.target) if args.target.lstrip("-").isdigit() else args.target
    goal = PocketPiece(target, None if args.pocket == "any" else args.pocket,
                       opponent_falls=getattr(args, "opponent_falls", "spoils"))  # fmt: skip
    try:
        goal.check(scene)
    except ValueError as exc:
        raise ValueError(f"The '--target' option must name a piece of the position (a row from 0, or a kind with one piece): {exc}") from None
    return goal


def _position_note(args: argparse.Namespace) -> str:
    return args.position if args.position else f"example {args.example or args.default_example!r}"


def _target_note(scene: Any, goal: Any, pocket: str) -> str:
    """E.g. "the white (piece 0) into any pocket"."""
    target = goal.target(scene)
    kind = scene.pieces["kind"].iat[target.piece]
    return f"the {kind} (piece {target.piece}) into {'any pocket' if pocket == 'any' else 'the ' + pocket.upper() + ' pocket'}"


def run_success_map(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..analysis import ShotGrid, StrikerLine, success_map
    from ..plotting.analysis import plot_parameter_heatmap, plot_success_board

    scene = scene_of(args, args.variant)
    goal = _goal(args, scene)
    h = StrikerLine.for_scene(scene).half_length
    a = args.angle_range_deg
    if not (0.0 <= a <= 90.0):
        raise ValueError(f"The '--angle-range-deg' option must be in [0, 90] degrees. Got {a!r} instead.")
    grid = ShotGrid(placement=np.linspace(-h, h, args.placements).tolist(),
                    angle=np.radians(np.linspace(-a, a, args.angles)).tolist(), speed=args.speed, aim="ghost")  # fmt: skip
    with backend(args) as run_on:
        df = success_map(scene, goal, grid, noise=noise_model(args.noise), replicas=args.replicas, params=physics(args),
                         seed=args.seed, store=args.store, **run_on)  # fmt: skip
    best = df.ranking(1).iloc[0]
    again = df.replay(workers=args.workers, progress=not args.quiet).iloc[0]
    optimistic = f"the best of {len(df)} cells, so optimistic" if len(df) > 1 else "the only cell"
    replayed = f"replayed with {again['n_valid'] + again['n_invalid']:,} fresh noisy shots"
    files = write_tables(out, {"success_map": df}, args.format)
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(13.0, 5.6), gridspec_kw={"width_ratios": [1.0, 1.1]})
    plot_success_board(df, scene, ax=left)
    plot_parameter_heatmap(df, interval="overlap", ax=right)  # rings the best cell of df.ranking() in red
    right.set_ylabel("aim around the ghost-disc aim (deg)")
    # under the axes, clear of the map: the best cell's own rate, then its replay (95 % intervals)
    right.text(0.0, -0.13, f"red ring: the best cell, p(success) {best['p_success']:.3f} [{best['ci_low']:.3f}, "
               f"{best['ci_high']:.3f}] ({optimistic});\n{replayed}: p(success) {again['p_success']:.3f} "
               f"[{again['ci_low']:.3f}, {again['ci_high']:.3f}] (95 % intervals)", transform=right.transAxes,
               fontsize="small", va="top")  # fmt: skip
    # above the heatmap's title of three lines (it ran into them at the default height)
    fig.suptitle(f"{_target_note(scene, goal, args.pocket)}, {_position_note(args)}: {len(df)} cells x "
                 f"{args.replicas} replicas, {args.noise} noise", fontsize="medium", y=1.02)  # fmt: skip
    files.append(save_figure(fig, out / "success_map.png"))

    print(f"success map: {len(df)} cells x {args.replicas} replicas = {len(df) * args.replicas:,} shots ({args.noise} noise); "
          f"{int((df['p_success'] >= 0.5).sum())} cells succeed at least half the time.")  # fmt: skip
    print(
        f"best cell: placement {best['placement']:+.3f} m, aim {best['aim_deg']:+.2f} deg from the ghost-disc aim "
        f"(direction {best['angle_deg']:.2f} deg), {best['speed']:g} m/s: p(success) = {best['p_success']:.3f} "
        f"[95 % CI {best['ci_low']:.3f}, {best['ci_high']:.3f}], foul rate {best['p_foul']:.1%} ({optimistic})."
    )
    print(
        f"{replayed}: p(success) = {again['p_success']:.3f} [95 % CI {again['ci_low']:.3f}, {again['ci_high']:.3f}], "
        f"foul rate {again['p_foul']:.1%}."
    )
    return files


def run_best_shot(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..analysis import StrikerLine, plan_shots
    from ..analysis.routes import ROUTES
    from ..plotting.analysis import plot_best_shot

    scene, params = scene_of(args, args.variant), physics(args)
    goal = _goal(args, scene)
    step = args.angle_step_deg
    if not (0.0 < step <= 90.0):
        raise ValueError(f"The '--angle-step-deg' option must be in (0, 90] degrees. Got {step!r} instead.")
    replicas = tuple(args.replicas)
    h = StrikerLine.for_scene(scene).half_length
    with backend(args) as run_on:
        plan = plan_shots(
            scene, goal, noise=noise_model(args.noise), placement=np.linspace(-h, h, args.placements),
            angle_deg=np.arange(-180.0, 180.0, step), speed=np.asarray(args.speed),
            routes=args.routes or ROUTES, per_route=args.per_route, candidates=max(4, args.per_route),
            replicas=replicas, refine=args.refine, window_replicas=args.window_replicas, params=params,
            seed=args.seed, **run_on,
        )  # fmt: skip
    if plan.empty:
        raise ValueError("The planner found no shot that pockets the target when played exactly (try more --placements, "
                         "a smaller --angle-step-deg or more --speed values).")  # fmt: skip
    files = write_tables(out, {"best_shots": plan}, args.format)
    ax = plot_best_shot(plan, scene, params=params)
    files.append(save_figure(ax.get_figure(), out / "best_shot.png"))

    print(f"shot plan to pocket {_target_note(scene, goal, args.pocket)}, {_position_note(args)}, {args.noise} noise "
          f"(p from {replicas[3]} fresh replicas each; an opponent piece falling: {args.opponent_falls}):")  # fmt: skip
    for r in plan.itertuples():
        print(
            f"  {r.rank}. {r.route:<11} p(success) = {r.p_success:.3f} [95 % CI {r.ci_low:.3f}, {r.ci_high:.3f}], "
            f"aim window {r.aim_window_deg:.2f} deg (margin +-{r.margin_deg:.2f}): placement {r.placement:+.3f} m, "
            f"direction {r.angle_deg:7.2f} deg, {r.speed:.2f} m/s, {r.technique}; {_path(r)}; falls: {r.fell or 'nothing'}"
        )
    return files
