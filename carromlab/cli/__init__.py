"""The ``carromlab`` command line.

One subcommand per job (``simulate``, ``break-study``, ``success-map``, ``best-shot``,
``fouls``, ``fit-friction``, ``match``). Every subcommand writes its tables (CSV, or
Parquet with ``--format parquet``) and a PNG into ``--out``, prints a short summary,
shows progress bars unless ``--quiet``, and on bad input prints one line (naming the
option) and exits with status 2; a warning (a damaged part of a ``--store``) is one line
too; a stdout closed early (``carromlab simulate | head -1``) ends it quietly with status
141. ``carromlab <subcommand> --help`` ends with examples. See ``docs/cli.md``.

Layout: ``_common.py`` holds what the subcommands share (options, backend, files),
``_positions.py`` the positions of the analyses, ``_rules.py`` the variants' options
(``--rules``), and each ``_<job>.py`` one job.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from . import _breaks, _fitting, _fouls, _maps, _match, _simulate
from ._common import CliParser, HelpFormatter, UsageError, load_libraries, output_dir, report

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


#: Library parameters set by an option of another name (else the option is ``--<dest>``).
_OPTION_OF = {"path_or_name": "calibration", "n_games": "games", "params": "powder"}


def _in_option_names(message: str, args: argparse.Namespace) -> str:
    """``message`` with "The 'seed' parameter" read as "The '--seed' option" where the
    parameter is set by an option the user gave: the library names its parameters, the
    user typed options."""
    sub = args.parser  # the subcommand's (see add_subcommand)
    given = {a.dest: option for option, a in sub.options.items() if getattr(args, a.dest, None) != sub.get_default(a.dest)}

    def option(m: re.Match[str]) -> str:
        name = m.group(1)
        flag = name if name.startswith("--") else given.get(_OPTION_OF.get(name, name))
        return f"The '{flag}' option" if flag else m.group(0)

    return re.sub(r"The '([\w-]+)' parameter", option, message)


@contextmanager
def _one_line_warnings(command: str) -> Iterator[None]:
    """Warnings shown as one line, ``carromlab <command>: warning: ...``, without the
    file, line and source line of Python's format (the user ran a command, not code)."""
    shown = warnings.formatwarning
    warnings.formatwarning = lambda message, *_, **__: f"carromlab {command}: warning: {' '.join(str(message).split())}\n"
    try:
        yield
    finally:
        warnings.formatwarning = shown


#: The exit status when stdout is closed early (``carromlab simulate | head -1``): 128 + SIGPIPE,
#: what the shell reports for a tool the closed pipe stopped (as 130 is 128 + SIGINT).
CLOSED_STDOUT = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input, 130 when
    interrupted with Ctrl-C, 141 when stdout is closed early)."""
    try:
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # here, not at exit, so that a closed stdout is caught below
    except BrokenPipeError:
        # the reader (``| head -1``) has what it wanted: no message, and stdout on devnull so the
        # interpreter's flush at exit does not raise again (Python's note on SIGPIPE, signal module)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_STDOUT


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        with _one_line_warnings(args.command):
            out = output_dir(args)  # a bad --out fails now, not after the computation
            load_libraries()
            started = time.perf_counter()  # the time reported is the job's, without the loading
            report(args.func(args, out), started)
            return 0
    except BrokenPipeError:
        raise  # stdout closed early: not an error of the input (see main)
    except (TypeError, ValueError, OSError) as exc:
        # one line whatever the message: bad input (of a wrong type or value) is reported, not traced back
        message = _in_option_names(" ".join(str(exc).split()), args)
        print(f"carromlab {args.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # what a store holds is whole (parts are written atomically), so a rerun resumes
        again = " (the same command with the same --store resumes)" if getattr(args, "store", None) else ""
        print(f"carromlab {args.command}: interrupted{again}", file=sys.stderr)
        return 130
