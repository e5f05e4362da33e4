"""The ``carromlab`` command line.

One subcommand per job (``simulate``, ``break-study``, ``success-map``, ``best-shot``,
``fouls``, ``fit-friction``, ``match``). Every subcommand writes its tables (CSV, or
Parquet with ``--format parquet``) and a PNG into ``--out``, prints a short summary,
shows progress bars unless ``--quiet``, and on bad input prints one line and exits with
status 2. ``carromlab <subcommand> --help`` ends with examples. See ``docs/cli.md``.

Layout: ``_common.py`` holds what the subcommands share (options, backend, files),
``_positions.py`` the positions of the analyses, and each ``_<job>.py`` one job.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import _breaks, _fitting, _fouls, _maps, _match, _simulate
from ._common import CliParser, HelpFormatter, UsageError

__all__ = ["main"]

_DESCRIPTION = """\
Shot analysis for carrom, Hikone carrom and crokinole. Every subcommand writes tables
(CSV or Parquet) and a PNG into --out and prints a short summary."""

_EXAMPLES = """\
examples:
  carromlab break-study --out carromlab-out       # the ICF break study on the built-in defaults
  carromlab simulate --gif                        # one ICF break, its events and an animation
  carromlab success-map --pocket ne               # a cut into the NE pocket, club noise
  carromlab <subcommand> --help                   # options and examples of each job
"""


def _parser() -> CliParser:
    p = CliParser(prog="carromlab", description=_DESCRIPTION, epilog=_EXAMPLES, formatter_class=HelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="<subcommand>")
    _simulate.add_parser(sub)
    _breaks.add_parser(sub)
    _maps.add_parsers(sub)
    _fouls.add_parser(sub)
    _fitting.add_parser(sub)
    _match.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input, 130 when
    interrupted with Ctrl-C)."""
    try:
        args = _parser().parse_args(argv)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except (ValueError, OSError) as exc:
        # one line whatever the message: bad input is reported, not traced back
        print(f"carromlab {args.command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # what a store holds is whole (parts are written atomically), so a rerun resumes
        again = " (the same command with the same --store resumes)" if getattr(args, "store", None) else ""
        print(f"carromlab {args.command}: interrupted{again}", file=sys.stderr)
        return 130
