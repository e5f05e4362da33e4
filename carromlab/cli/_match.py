"""``carromlab match``: whole games played by policies with execution noise."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ._common import (add_disc_options, add_noise_option, add_output_options, add_physics_options, add_subcommand,
                      changed_discs, name_list, noise_model, physics, positive_int, save_figure,
                      write_tables)  # fmt: skip
from ._positions import board_name
from ._rules import add_rules_option, with_rules

EXAMPLES = """\
  carromlab match                                          # 2 ICF games, greedy players, club noise
  carromlab match --policy greedy,random --games 20 --workers 2
  carromlab match --variant hikone --players 4 --policy random --noise beginner
  carromlab match --variant hikone --clock 6   # the championship's 5-minute clock, 6 s of thought a shot (HIK-10)
  carromlab match --variant crokinole --games 10 --format parquet
  carromlab match --variant online --rules powder=false,game_target=29   # house rules: a bare board, games to 29
  carromlab match --striker-mass 0.02 --striker-radius 0.022   # a heavier, larger striker
  carromlab match --games 50 --max-shots-per-board 300 --quiet   # cap long random boards
  carromlab match --policy random --games 10000 --store icf-games   # Parquet, resumable: rerun to continue
"""

_POLICIES = ("random", "greedy")


def add_parser(sub: Any) -> None:
    from ..match import MAX_BOARDS, MAX_SHOTS_PER_BOARD

    s = add_subcommand(
        sub, "match", run=run, help="play whole games: shots, boards and games tables, score progression PNG",
        description="Play games of a variant: each seat's policy chooses the intended shot, the noise model "
                    "executes it, the engine plays it and the rules adjudicate it. Write one row per shot, per board "
                    "and per game, and a PNG of the score progression.",
        examples=EXAMPLES,
    )  # fmt: skip
    s.add_argument("--variant", choices=["icf", "online", "hikone", "crokinole"], default="icf", help="rules (default icf)")
    s.add_argument("--players", type=int, choices=[2, 4], default=2, help="seats: singles or doubles, 4 crokinole players (default 2)")
    add_rules_option(s)
    s.add_argument("--games", type=positive_int, default=2, help="games to play (default 2)")
    s.add_argument("--policy", type=name_list, default=["greedy"],
                   help="random or greedy, for every seat, or one per seat comma-separated, e.g. greedy,random "
                        "(default greedy; greedy players simulate 200 candidate shots with the match's physics)")  # fmt: skip
    add_noise_option(s)
    s.add_argument("--max-shots-per-board", type=positive_int, default=MAX_SHOTS_PER_BOARD,
                   help=f"abandon a board (and its game) after this many shots (default {MAX_SHOTS_PER_BOARD})")  # fmt: skip
    s.add_argument("--clock", type=float, metavar="THINK_S", default=None,
                   help="Hikone: play the championship's 5-minute match clock (HIK-10), each shot taking THINK_S seconds "
                        "of thought (at most 10 in the last minute) plus its motion; at time the round is played out "
                        "and the side with fewer pucks wins (default: untimed, as the final)")  # fmt: skip
    s.add_argument("--max-boards", type=positive_int, default=MAX_BOARDS, help=f"stop a game after this many boards (default {MAX_BOARDS})")
    g = s.add_argument_group("run")
    g.add_argument("--seed", type=int, default=0, help="seed of the match, >= 0 (default 0); game g replays alone")
    g.add_argument("--workers", type=positive_int, default=None, help="processes playing games (default: all cores, at most one per game)")
    g.add_argument("--store", metavar="DIR", default=None,
                   help="write every shot, board and game to Parquet datasets in DIR/shots, DIR/boards, DIR/games, "
                        "chunk by chunk; rerunning the same command resumes an interrupted run. Memory holds a chunk at a "
                        "time and the summary reads back only the boards and games; without --store every table is held "
                        "in memory (the shots about 0.35 MB a random ICF game, 3.5 GB for 10,000)")  # fmt: skip
    g.add_argument("--chunk-games", type=positive_int, default=256,
                   help="games per stored chunk, played in lockstep (default 256)")
    add_physics_options(s)
    add_disc_options(s, ("icf", "hikone", "crokinole"))
    add_output_options(s)


def _policies(names: list[str], players: int, params: Any) -> list[Any]:
    from ..match import GreedyPolicy, RandomPolicy

    text = ",".join(names)
    if len(names) == 1:
        names = names * players  # not *=, which would change the parsed --policy
    if len(names) != players or any(n not in _POLICIES for n in names):
        raise ValueError(f"The '--policy' option must be random or greedy, or {players} of them comma-separated (one per seat). Got {text!r} instead.")
    return [GreedyPolicy(params=params) if n == "greedy" else RandomPolicy() for n in names]


def _clock(think_s: float | None) -> Any:
    """The match clock of ``--clock`` (None: untimed)."""
    from ..match import MatchClock

    if think_s is None:
        return None
    try:
        return MatchClock(think_s=think_s)
    except ValueError as exc:
        raise ValueError(str(exc).replace("'think_s' parameter", "'--clock' option")) from None


def run(args: argparse.Namespace, out: Path) -> list[Path]:
    from ..match import new_state, play_match
    from ..plotting.match import plot_match_summary

    params = physics(args, rules_board=True)
    policies = _policies(args.policy, args.players, params)
    discs = changed_discs(args, board_name(args.variant))
    options = with_rules({args.variant: new_state(args.variant, args.players).options}, args.rules)[args.variant] if args.rules else None
    workers = args.workers or min(args.games, os.cpu_count() or 1)
    rec = play_match(
        args.variant, args.games, players=args.players, options=options, discs=discs, policies=policies, params=params,
        noise=noise_model(args.noise), seed=args.seed, max_shots_per_board=args.max_shots_per_board,
        max_boards=args.max_boards, clock=_clock(args.clock), workers=workers, progress=not args.quiet, store=args.store,
        chunk_games=args.chunk_games,
    )  # fmt: skip
    files = [Path(args.store)] if args.store else write_tables(
        out, {"match_shots": rec.shots, "match_boards": rec.boards, "match_games": rec.games}, args.format)
    ax = plot_match_summary(rec.boards)
    ax.set_title(f"{args.variant}, {args.players} players ({', '.join(p.name for p in policies)}; {args.noise} noise): "
                 "game score after each board (x: abandoned boards)", fontsize="small")  # fmt: skip
    files.append(save_figure(ax.get_figure(), out / "match_summary.png"))

    g = rec.games
    timed = f", {g['clock_s'].mean() / 60:.1f} minutes on the clock" if args.clock is not None else ""
    teams = [t for t in range(4) if g[f"score_{t}"].notna().any()]
    ends = ", ".join(f"{n} {end}" for end, n in g["end"].value_counts().items())
    wins = ", ".join(f"team {t} {int((g['winner'] == t).sum())}" for t in teams)
    scores = ", ".join(f"team {t} {g[f'score_{t}'].astype(float).mean():.1f}" for t in teams)
    print(f"{args.variant} match, {args.players} players ({', '.join(p.name for p in policies)}; {args.noise} noise): "
          f"{len(g)} game{'s' * (len(g) != 1)} ({ends}), {g['n_boards'].mean():.1f} boards and {g['n_shots'].mean():.0f} shots per game{timed}.")  # fmt: skip
    print(f"wins: {wins}, no winner {int(g['winner'].isna().sum())}; mean final score: {scores}.")
    return files
