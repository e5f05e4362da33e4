"""``carromlab fouls``: how often a population of shots fouls under each rule variant."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd

from ._common import (add_backend_options, add_disc_options, add_noise_option, add_output_options, add_physics_options,
                      add_subcommand, backend, changed_discs, float_list, name_list, noise_model, physics, positive_int, read_table,
                      save_figure, write_tables)  # fmt: skip
from ._positions import add_position_options, board_name, position
from ._rules import add_rules_option, with_rules

EXAMPLES = """\
  carromlab fouls                                         # ICF vs online rules, 300 shots from the 'midgame' example
  carromlab fouls --variants hikone,hikone-doubles --n 1000 --noise beginner
  carromlab fouls --variants hikone-doubles --rules every_direct_hit=true   # the strict reading of HIK-9
  carromlab fouls --variants icf,online --shots carromlab-out/match_shots.csv   # the shots of a match run
  carromlab fouls --position my_position.csv --angle-range-deg -30,30 --speed-range 2,5 --replicas 4
"""

#: Suffixes of a --variants entry meaning four seats (doubles, or four crokinole players).
_FOUR = ("-doubles", "-4")
_TWO = ("-singles", "-2")


def add_parser(sub: Any) -> None:
    s = add_subcommand(
        sub, "fouls", run=run, help="foul probabilities of a population of shots under several rule variants",
        description="Play the same shots, with the same execution errors, from the same position under several "
                    "rule variants and let the rules call the fouls; write one row per (variant, rule) with the "
                    "probability and its confidence interval, and a grouped bar PNG.",
        examples=EXAMPLES,
    )  # fmt: skip
    s.add_argument("--variants", type=name_list, default=["icf", "online"],
                   help="comma-separated variants to compare, all on one board: icf, online, hikone, crokinole; "
                        "add -doubles or -4 for four seats, e.g. hikone,hikone-doubles (default icf,online)")  # fmt: skip
    add_rules_option(s)
    add_position_options(s, default="midgame")
    g = s.add_argument_group("shots (a parametric population, or --shots)")
    g.add_argument("--shots", metavar="FILE", default=None,
                   help="intended shots: a table with x, y, angle (rad) or angle_deg, speed (, spin), or the match_shots table of "
                        "'carromlab match' (its seat-0 rows are used)")  # fmt: skip
    g.add_argument("--n", type=positive_int, default=300, help="shots drawn uniformly from the ranges (default 300)")
    g.add_argument("--angle-range-deg", type=float_list(2), default=[-50.0, 50.0],
                   help="aim range LOW,HIGH in degrees from straight ahead (default -50,50)")  # fmt: skip
    g.add_argument("--speed-range", type=float_list(2), default=[1.0, 4.0], help="speed range LOW,HIGH in m/s (default 1,4)")
    g.add_argument("--placement-range", type=float_list(2), default=None,
                   help="placement range LOW,HIGH in m along the shooter's line from its middle (default: all of it)")  # fmt: skip
    s.add_argument("--replicas", type=positive_int, default=1, help="noisy executions of every shot (default 1)")
    add_noise_option(s)
    add_physics_options(s)
    add_disc_options(s, ("icf", "hikone", "crokinole"))
    add_backend_options(s)
    add_output_options(s)


def _specs(names: list[str]) -> list[tuple[str, str, int]]:
    """(name, variant, players) of every --variants entry."""
    from ..rules import VARIANTS

    specs, text = [], ",".join(names)
    for name in names:
        variant, players = name, 2
        for suffixes, n in ((_FOUR, 4), (_TWO, 2)):
            for suffix in suffixes:
                if name.endswith(suffix):
                    variant, players = name[: -len(suffix)], n
        if variant not in VARIANTS:
            raise ValueError(f"The '--variants' option must list variants among {sorted(VARIANTS)} (optionally with -doubles or -4). Got {name!r} instead.")
        specs.append((name, variant, players))
    if len({s[0] for s in specs}) != len(specs):
        raise ValueError(f"The '--variants' option must list distinct variants. Got {text!r} instead.")
    if len({board_name(v) for _, v, _ in specs}) > 1:
        raise ValueError(f"The '--variants' option must list variants played on one board (icf/online, hikone or crokinole). Got {text!r} instead.")
    return specs


def _states(frame: pd.DataFrame, specs: list[tuple[str, str, int]], discs: dict[str, Any] | None) -> dict[str, Any]:
    """The position as a game state of every variant entry, with ``discs`` (kind -> DiscSpec)."""
    from ..analysis import comparable_states
    from ..match import new_state
    from ..rules.engine_bridge import scene_for

    states = {}
    for name, variant, players in specs:
        try:
            # the same seats in other colours (four crokinole players): map kinds by seat
            two, mine = new_state(variant).colours, new_state(variant, players).colours
            kinds = frame["kind"].map(lambda k: mine[two.index(k)] if k in two and k not in mine else k)
            queen = board_name(variant) == "icf" and "queen" not in set(kinds)
            changes: dict[str, Any] = {"queen_status": "covered", "queen_team": 0} if queen else {}
            state = comparable_states(frame.assign(kind=kinds), [variant], players=players, **changes)[variant]
            states[name] = state.with_discs(discs) if discs else state
            scene_for(states[name])  # the pieces, resized, still lie on the board without overlapping
        except (TypeError, ValueError) as exc:
            raise ValueError(f"The '--variants' entry {name!r} cannot hold the position: {exc}") from None
    return states


def _range(option: str, values: list[float], low: float, high: float, unit: str) -> tuple[float, float]:
    """The range LOW,HIGH of ``option``, within [low, high] (in ``unit``) and ordered."""
    lo, hi = values
    if not low <= lo <= hi <= high:
        raise ValueError(f"The '{option}' option must be a range LOW,HIGH with {low:g} <= LOW <= HIGH <= {high:g} {unit}. "
                         f"Got {lo:g},{hi:g} instead.")  # fmt: skip
    return lo, hi


def _shots(args: argparse.Namespace, states: dict[str, Any]) -> Any:
    from ..analysis import ShotPopulation
    from ..analysis.fouls import placement_line, state_scene
    from ..engine.scene import MAX_SPEED

    if args.shots is None:
        placement = None
        if args.placement_range is not None:
            # the shortest line of the states' shooters (one board: the same line, or the crokinole arc)
            h = min(placement_line(st, state_scene(st)[0]).half_length for st in states.values())
            placement = _range("--placement-range", args.placement_range, -h, h, "m (along the shooter's line)")
        return ShotPopulation(angle_deg=_range("--angle-range-deg", args.angle_range_deg, -180.0, 180.0, "degrees"),
                              speed=_range("--speed-range", args.speed_range, 0.0, MAX_SPEED, "m/s"), n=args.n,
                              placement=placement, seed=args.seed)  # fmt: skip
    table = read_table(args.shots, "--shots")
    if "seat" in table.columns:  # a match's shots: the seat on the shooter's side
        table = table[table["seat"] == 0]
        if table.empty:
            raise ValueError(f"The '--shots' file must hold shots of seat 0 (the shooter). Got none in {args.shots!r}.")
    return table


def run(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..analysis import ANY_FOUL, foul_probabilities
    from ..plotting.analysis import plot_foul_probabilities

    specs = _specs(args.variants)
    frame = position(args, board_name(specs[0][1]))
    states = _states(frame, specs, changed_discs(args, board_name(specs[0][1])))
    if args.rules:
        options = with_rules({name: st.options for name, st in states.items()}, args.rules)
        states = {name: st.with_(options=options[name]) for name, st in states.items()}
    shots = _shots(args, states)
    with backend(args) as run_on:
        df = foul_probabilities(states, shots, noise=noise_model(args.noise), replicas=args.replicas,
                                params=physics(args, rules_board=True), seed=args.seed, store=args.store, **run_on)  # fmt: skip
    files = write_tables(out, {"fouls": df}, args.format)
    files.append(save_figure(plot_foul_probabilities(df).get_figure(), out / "fouls.png"))

    source = f"the shots of {args.shots}" if args.shots else f"{args.n} random shots"
    where = args.position if args.position else f"the {args.example or args.default_example!r} example"
    print(f"foul probabilities: {source}, {args.replicas} noisy execution{'s' * (args.replicas != 1)} each, from {where}, "
          f"{args.noise} noise:")
    for name in states:
        rows = df[df["variant"] == name]
        any_ = rows[rows["rule"] == ANY_FOUL].iloc[0]
        fouls = ", ".join(f"{r.rule} {r.p:.3f}" for r in rows.itertuples() if r.rule != ANY_FOUL)
        print(f"  {name}: any foul p = {any_['p']:.3f} [{any_['ci_low']:.3f}, {any_['ci_high']:.3f}] of {any_['n']} shots ({fouls})")
    return files
