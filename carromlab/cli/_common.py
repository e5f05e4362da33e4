"""What every subcommand shares: one-line usage errors, the common options, the physics,
noise and backend they select, and the writing of tables and figures."""

from __future__ import annotations

import argparse
import difflib
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd

from .._validation import parse_csv, read_text

__all__ = [
    "CliParser",
    "HelpFormatter",
    "UsageError",
    "DISC_OPTIONS",
    "add_backend_options",
    "add_disc_options",
    "add_noise_option",
    "add_output_options",
    "add_physics_options",
    "add_subcommand",
    "backend",
    "changed_discs",
    "disc_specs",
    "float_list",
    "name_list",
    "noise_model",
    "output_dir",
    "physics",
    "positive_int",
    "pyplot",
    "read_table",
    "report",
    "save_figure",
    "speed_list",
    "unwritable",
    "write_tables",
]


class UsageError(Exception):
    """A command line argparse rejects; the message is the one line to print."""


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block) and exit status 2,
    which reads a negative comma list (``--angle-range-deg -30,30``) as a value, and which
    takes options only as spelled: an abbreviation (``--angle`` for ``--angle-deg``, which
    would read 1.57 as degrees) is refused with the options it may have meant. The
    subcommands' parsers are of this class too.

    Attributes
    ----------
    options : dict of str to argparse.Action
        Every option of this parser by its long option string (``"--out"``), in its
        argument groups too, recorded as it is added (argparse keeps its list private).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.options: dict[str, argparse.Action] = {}  # before argparse's __init__, which adds --help
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})
        # argparse's own test for "a negative number, not an option", extended to lists
        self._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d*\.?\d+(,-?\d*\.?\d+)+$")

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        return _recorded(self.options, super().add_argument(*args, **kwargs))

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        return _RecordingGroup(super().add_argument_group(*args, **kwargs), self.options)

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        return _RecordingGroup(super().add_mutually_exclusive_group(**kwargs), self.options)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:  # type: ignore[override]
        # a subcommand's parser sees its own options: name the unknown one and what was meant
        # here (the main parser would only list the subcommand's leftover arguments)
        parsed, extras = super().parse_known_args(args, namespace)
        for arg in extras:
            if arg.startswith("--"):
                self.error(f"unrecognized option {arg.split('=', 1)[0]!r}{self._did_you_mean(arg.split('=', 1)[0])}")
        return parsed, extras

    def _did_you_mean(self, option: str) -> str:
        """``"; did you mean --a or --b?"`` for the options ``option`` abbreviates (or is
        close to); empty when none."""
        options = sorted(self.options)
        if longer := [o for o in options if o.startswith(option)]:
            return f"; did you mean {' or '.join(longer)}? (options are not abbreviated)"
        close = difflib.get_close_matches(option, options, n=3)
        return f"; did you mean {' or '.join(close)}?" if close else ""

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


def _recorded(options: dict[str, argparse.Action], action: argparse.Action) -> argparse.Action:
    """``action``, with its long option strings entered in ``options``."""
    options.update((o, action) for o in action.option_strings if o.startswith("--"))
    return action


class _RecordingGroup:
    """An argument group (or mutually exclusive group) of a :class:`CliParser` that enters
    each option added to it in the parser's ``options``; anything else, argparse's own
    use of the group included, is the group's."""

    def __init__(self, group: Any, options: dict[str, argparse.Action]) -> None:
        self._group, self._options = group, options

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        return _recorded(self._options, self._group.add_argument(*args, **kwargs))

    def add_mutually_exclusive_group(self, **kwargs: Any) -> _RecordingGroup:
        return _RecordingGroup(self._group.add_mutually_exclusive_group(**kwargs), self._options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._group, name)


class HelpFormatter(argparse.HelpFormatter):
    """Wraps the description; keeps the ``examples:`` epilog as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def add_subcommand(
    sub: Any, name: str, *, run: Callable[[argparse.Namespace, Path], list[Path]], help: str, description: str, examples: str
) -> CliParser:
    """A subcommand parser whose --help ends with its ``examples:`` block.

    ``run(args, out)`` does the job: it writes its files into the --out folder ``out``
    (created and checked writable before it is called), prints its summary and returns
    the files, which :func:`carromlab.cli.main` reports with the time taken. The parsed
    arguments hold ``run`` as ``func`` and the parser as ``parser`` (to name its options
    in messages)."""
    parser: CliParser = sub.add_parser(
        name, help=help, description=description, epilog="examples:\n" + examples,
        formatter_class=HelpFormatter,
    )  # fmt: skip
    parser.set_defaults(func=run, parser=parser)
    return parser


# -- argument types: argparse turns their ValueError into a one-line usage error ----------
def positive_int(text: str) -> int:
    """An int >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an int >= 1. Got {text!r} instead.") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an int >= 1. Got {value} instead.")
    return value


def float_list(n: int | None = None, kind: type = float) -> Callable[[str], list[Any]]:
    """Comma-separated numbers of type ``kind`` (exactly ``n`` of them if given)."""

    def parse(text: str) -> list[Any]:
        try:
            values = [kind(v) for v in text.split(",")]
        except ValueError:
            values = []
        if not values or (n is not None and len(values) != n):
            what = f"{n or ''} comma-separated {'ints' if kind is int else 'numbers'}".lstrip()
            raise argparse.ArgumentTypeError(f"must be {what}. Got {text!r} instead.")
        return values

    return parse


def name_list(text: str) -> list[str]:
    """Comma-separated names, the spaces around each dropped (``icf, online``); an empty
    entry (``icf,,online``, a trailing comma) is refused, not skipped."""
    names = [name.strip() for name in text.split(",")]
    if "" in names:
        raise argparse.ArgumentTypeError(f"must be comma-separated names, none empty. Got {text!r} instead.")
    return names


def speed_list(text: str) -> list[float]:
    """Speeds, m/s, each > 0: a comma list (``2.5,3.5``) or ``LOW:HIGH:N``, N speeds spaced
    geometrically from LOW to HIGH (``1:8:8`` is 1, 1.35, ..., 8)."""
    import numpy as np

    values: list[float] = []
    try:
        if ":" in text:
            low, high, n = text.split(":")
            if float(low) > 0.0 and float(high) > 0.0 and int(n) >= 1:
                values = np.geomspace(float(low), float(high), int(n)).tolist()
        else:
            values = [float(v) for v in text.split(",")]
    except ValueError:
        pass
    if not values or not all(0.0 < v < float("inf") for v in values):
        raise argparse.ArgumentTypeError(f"must be speeds in m/s > 0, comma-separated (2.5,3.5) or LOW:HIGH:N, N speeds "
                                         f"geometric from LOW to HIGH (1:8:8). Got {text!r} instead.")  # fmt: skip
    return values


# -- the common options --------------------------------------------------------------------
def add_output_options(p: argparse.ArgumentParser) -> None:
    """--out, --format, --quiet."""
    g = p.add_argument_group("output")
    g.add_argument("--out", default="carromlab-out", help="output folder, created if needed (default carromlab-out)")
    g.add_argument("--format", choices=["csv", "parquet"], default="csv", help="table format (default csv)")
    g.add_argument("--quiet", action="store_true", help="no progress bars")


def add_physics_options(p: argparse.ArgumentParser, *, what: str = "board physics") -> None:
    """--powder or --calibration, and --mu."""
    from ..physics.params import POWDERS

    g = p.add_argument_group("physics")
    one = g.add_mutually_exclusive_group()
    one.add_argument("--powder", choices=list(POWDERS), default=None, help=f"{what}: a powder preset (default: PhysicsParams(), mu 0.12)")
    one.add_argument("--calibration", metavar="FILE", default=None, help=f"{what}: a calibration file (.toml/.json, e.g. from fit-friction)")
    g.add_argument("--mu", type=float, default=None, metavar="MU",
                   help="board sliding friction coefficient, in [1e-6, 2]; replaces the powder's or calibration's")  # fmt: skip


#: The disc options of each game: option stem -> the piece kinds it sets.
DISC_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "icf": {"striker": ("striker",), "coin": ("white", "black"), "queen": ("queen",)},
    "hikone": {"striker": ("striker",), "puck": ("red", "green"), "jack": ("jack",)},
    "crokinole": {"disc": ("dark", "light", "green", "red", "black", "white")},
}


def add_disc_options(p: argparse.ArgumentParser, games: tuple[str, ...]) -> None:
    """--<piece>-radius and --<piece>-mass for the pieces of ``games`` (SI units), e.g.
    --striker-radius, --coin-mass, --puck-radius, --jack-mass, --disc-radius."""
    g = p.add_argument_group("discs (SI units; default: each game's standard pieces)")
    stems = {stem: [game for game in games if stem in DISC_OPTIONS[game]] for game in games for stem in DISC_OPTIONS[game]}
    for stem, in_games in stems.items():
        kinds = sorted({k for game in in_games for k in DISC_OPTIONS[game][stem]})
        what = f"{stem} ({', '.join(kinds)})" if kinds != [stem] else stem
        g.add_argument(f"--{stem}-radius", type=float, default=None, metavar="M", help=f"{what} radius, m, in (0, 0.1]")
        g.add_argument(f"--{stem}-mass", type=float, default=None, metavar="KG", help=f"{what} mass, kg, in (0, 1]")


def add_noise_option(p: argparse.ArgumentParser, *, default: str = "club") -> None:
    """--noise: an execution-noise preset."""
    from ..analysis.noise import NOISE_PRESETS

    p.add_argument("--noise", choices=list(NOISE_PRESETS), default=default, help=f"execution-noise preset (default {default})")


def add_backend_options(p: argparse.ArgumentParser, *, store: bool = True) -> None:
    """--seed, --workers, --scheduler and (for sweeps) --store."""
    g = p.add_argument_group("run")
    g.add_argument("--seed", type=int, default=0, help="seed of the noise, >= 0 (default 0); same seed, same numbers")
    one = g.add_mutually_exclusive_group()  # the cluster's workers are its own: refused before connecting
    one.add_argument("--workers", type=positive_int, default=None, help="local threads (default: all cores)")
    one.add_argument("--scheduler", metavar="ADDRESS", default=None,
                     help="run on a Dask cluster: distributed.Client(ADDRESS), e.g. tcp://10.0.0.5:8786; not with --workers")  # fmt: skip
    if store:
        g.add_argument("--store", metavar="DIR", default=None,
                       help="stream the shots to a Parquet dataset in DIR; rerunning resumes an interrupted run")  # fmt: skip


# -- what the options select ---------------------------------------------------------------
def physics(args: argparse.Namespace, *, rules_board: bool = False) -> Any:
    """The PhysicsParams of --powder / --calibration (default ``PhysicsParams()``), with --mu;
    with ``rules_board``, None when none of them is given: the board of the game's rules
    (``rules.game_physics``, which follows ``--rules powder=false``)."""
    from .._validation import check_real
    from ..physics.params import MU_MIN, PhysicsParams

    if rules_board and not any(getattr(args, name, None) is not None for name in ("calibration", "powder", "mu")):
        return None
    if getattr(args, "calibration", None):
        from ..fitting.calibration_io import load_calibration

        params = load_calibration(args.calibration)
    else:
        params = PhysicsParams.from_powder(args.powder) if getattr(args, "powder", None) else PhysicsParams()
    if getattr(args, "mu", None) is not None:
        params = params.with_(mu=check_real("--mu", args.mu, low=MU_MIN, high=2.0))
    return params


def disc_specs(args: argparse.Namespace, game: str, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The discs of ``game`` (or ``base``, kind -> DiscSpec) with the --<piece>-radius and
    --<piece>-mass options applied; an option for another game's pieces is an error."""
    from .._validation import check_real
    from ..equipment.layout import default_specs

    specs = dict(base if base is not None else default_specs(game))
    for stem in dict.fromkeys(stem for options in DISC_OPTIONS.values() for stem in options):
        for field, high, unit in (("radius", 0.1, "m"), ("mass", 1.0, "kg")):
            value = getattr(args, f"{stem}_{field}", None)
            if value is None:
                continue
            option = f"--{stem}-{field}"
            if stem not in DISC_OPTIONS[game]:
                games = [g for g, options in DISC_OPTIONS.items() if stem in options]
                raise ValueError(f"The '{option}' option sets pieces of {' and '.join(games)}; this run plays {game}. Got {value!r}.")
            value = check_real(option, value, low=0.0, high=high, low_open=True, unit=unit)
            for kind in DISC_OPTIONS[game][stem]:
                if kind in specs:
                    specs[kind] = specs[kind].with_(**{field: value})
    return specs


def changed_discs(args: argparse.Namespace, game: str) -> dict[str, Any] | None:
    """The discs of ``game`` that the --<piece>-radius and --<piece>-mass options change
    (kind -> DiscSpec), or None when they change none (for game states, which keep the
    standard discs unless told)."""
    from ..equipment.layout import default_specs

    standard = default_specs(game)
    changed = {k: s for k, s in disc_specs(args, game).items() if s != standard[k]}
    return changed or None


def noise_model(name: str) -> Any:
    from ..analysis.noise import NoiseModel

    return NoiseModel.preset(name)


@contextmanager
def backend(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """Keyword arguments ``client``, ``workers``, ``progress`` for an analysis; with
    --scheduler, a ``distributed.Client`` connected for the duration."""
    options = {"client": None, "workers": args.workers, "progress": not args.quiet}
    if args.scheduler is None:
        yield options
        return
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is an optional dependency
        raise ValueError("The '--scheduler' option needs dask.distributed: pip install 'carromlab[dask]'.") from None
    try:
        client = Client(args.scheduler, timeout="10s")
    except (OSError, ValueError) as exc:
        raise ValueError(f"The '--scheduler' option must be the address of a running Dask scheduler. Got {args.scheduler!r} ({exc}).") from None
    with client:
        yield {**options, "client": client}


# -- files -----------------------------------------------------------------------------------
def output_dir(args: argparse.Namespace) -> Path:
    """The --out folder, created if missing and checked writable; :func:`carromlab.cli.main`
    calls it before a subcommand runs, so that a bad --out fails at once, not after the work."""
    out = Path(args.out)
    why = "a file" if out.is_file() else unwritable(out, create=True)
    if why:
        raise ValueError(f"The '--out' option must be a writable folder (created if missing). Got {args.out!r} ({why}) instead.")
    return out


def unwritable(folder: Path, *, create: bool = False) -> str | None:
    """Why no file can be written in ``folder`` (made first, with its parents, if ``create``),
    or None when one can: writing a temporary file there is the one sure test."""
    try:
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def write_tables(out: Path, tables: Mapping[str, pd.DataFrame], fmt: str) -> list[Path]:
    """Write every table as ``out/<name>.<fmt>``; returns the paths."""
    paths = []
    for name, df in tables.items():
        path = out / f"{name}.{fmt}"
        if fmt == "parquet":
            df.to_parquet(path, index=False)
        else:
            df.to_csv(path, index=False)
        paths.append(path)
    return paths


def read_table(path: str | Path, what: str) -> pd.DataFrame:
    """A CSV or Parquet table (by suffix); a missing, empty or unreadable file is a
    ValueError naming ``what`` and the file (and the line of a CSV file)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"The '{what}' option must name an existing CSV or Parquet file. Got {str(path)!r} instead.")
    if path.suffix.lower() != ".parquet":
        return parse_csv(read_text(path, f"'{what}' file"), path, f"'{what}' file", "a CSV table")[0]
    try:
        return pd.read_parquet(path)
    except (OSError, ValueError) as exc:  # pyarrow's errors derive from these
        raise ValueError(f"The '{what}' file {str(path)!r} must be a Parquet table. Got an unreadable file ({exc}).") from None


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (the CLI only writes files)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> Path:
    fig.savefig(path, dpi=120, bbox_inches="tight")
    pyplot().close(fig)
    return path


def load_libraries() -> None:
    """Import what every job draws and computes with (matplotlib, the plots, the analyses),
    so that the time :func:`report` gives is the job's, not seconds of loading them."""
    pyplot()
    from .. import analysis, plotting  # noqa: F401


def report(files: list[Path], started: float) -> None:
    """The last summary line: what was written, and how long it took."""
    print(f"wrote {', '.join(str(f) for f in files)} ({time.perf_counter() - started:.1f} s)")
