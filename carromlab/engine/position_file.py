"""Position files: a scene (board, disc specs, shot disc, pieces) saved as JSON or CSV.

JSON (``.json``)::

    {"format": "carromlab-position", "version": 1, "board": {...Board.to_dict()...},
     "specs": {"striker": {"radius": 0.02065, "mass": 0.015, "thickness": 0.0072}, ...},
     "striker": "striker", "pieces": [{"kind": "white", "x": 0.15, "y": 0.22}, ...]}

CSV (``.csv``): one ``# carromlab-position {...}`` comment line holding the same header (all
but the pieces) as JSON, then the pieces table with the columns ``kind, x, y`` (m). A CSV
or Parquet table of ``kind, x, y`` without that line (the table of ``--position`` files) is a
plain position: its board must be given, and its discs are the board's standard ones.

Floats are written with Python's shortest round-trip repr (JSON, and the CSV table) and
pandas reads them back exactly, so a saved scene loads back exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_suffix, check_type, parse_csv, parse_json, read_text
from ..equipment.board import Board
from ..equipment.disc import DiscSpec
from ..equipment.layout import RowNames
from .scene import Scene

__all__ = ["FORMAT", "read_pieces", "read_position", "write_position"]

#: Format tag and version of a position file.
FORMAT = ("carromlab-position", 1)
_TAG = "# " + FORMAT[0] + " "
_SUFFIXES = (".json", ".csv", ".parquet")


def _suffix(path: Path, allowed: tuple[str, ...] = _SUFFIXES) -> str:
    return check_suffix("path", path, allowed)


def _header(scene: Scene) -> dict[str, Any]:
    specs = {k: {"radius": s.radius, "mass": s.mass, "thickness": s.thickness} for k, s in scene.specs.items()}
    return {"format": FORMAT[0], "version": FORMAT[1], "board": scene.board.to_dict(), "specs": specs, "striker": scene.striker}


def write_position(scene: Scene, path: str | Path) -> Path:
    """Write ``scene`` to ``path`` (``.json`` or ``.csv``); returns the path.

    Parameters
    ----------
    scene : Scene
        The position.
    path : str or Path
        Destination; the suffix chooses the format (see the module docstring).
    """
    check_type("scene", scene, Scene)
    path = Path(path)
    _suffix(path, (".json", ".csv"))  # a position is saved with its header: not as Parquet
    pieces = scene.pieces[["kind", "x", "y"]]
    if path.suffix.lower() == ".json":
        body = {**_header(scene), "pieces": pieces.to_dict(orient="records")}
        path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    else:
        table = pieces.to_csv(index=False, float_format=lambda v: repr(float(v)))
        path.write_text(_TAG + json.dumps(_header(scene)) + "\n" + table, encoding="utf-8")
    return path


def _invalid(exc: Exception, path: Path) -> ValueError:
    """The error for a position the scene refuses."""
    return ValueError(f"The position file {str(path)!r} holds an invalid position: {exc}")


def _rows(lines: Sequence[int] | None) -> RowNames:
    """How the scene's messages name the pieces read from a file ("its pieces", after the
    file's name) and their rows: by their lines in the file (``lines``: the file line of
    each row), or by position (None: a JSON or Parquet file)."""
    return RowNames(table="its pieces") if lines is None else RowNames("line", "on", lines.__getitem__, "its pieces")


def _from_header(head: Any, path: Path, pieces: pd.DataFrame, lines: Sequence[int] | None, specs: Mapping[str, DiscSpec] | None) -> Scene:
    if not isinstance(head, dict) or head.get("format") != FORMAT[0]:
        raise ValueError(f"The position file {str(path)!r} must be a carromlab position (format {FORMAT[0]!r}). Got {head!r:.80} instead.")
    if head.get("version") != FORMAT[1]:
        raise ValueError(f"The position file {str(path)!r} must have version {FORMAT[1]}. Got {head.get('version')!r} instead.")
    missing = [k for k in ("board", "specs", "striker") if k not in head]
    if missing:
        raise ValueError(f"The position file {str(path)!r} must have the entries board, specs and striker. Missing {missing}.")
    try:
        board = Board.from_dict(head["board"])
        saved = {k: DiscSpec(k, **v) for k, v in dict(head["specs"]).items()}
        return Scene._made(board, pieces, {**saved, **(specs or {})}, head["striker"], name="pieces", rows=_rows(lines))
    except (TypeError, ValueError) as exc:
        raise _invalid(exc, path) from None


def _table(text: str, path: Path, first_line: int) -> tuple[pd.DataFrame, list[int]]:
    """The pieces table of a CSV text starting on line ``first_line`` of the file, and the
    file line of each of its rows; errors name the file and line."""
    frame, lines = parse_csv(
        text, path, "position file", "a table with the columns kind, x, y (m)", first_line=first_line, dtype={"kind": str}
    )
    return _checked(frame, path, lines), lines


def _checked(frame: pd.DataFrame, path: Path, lines: Sequence[int] | None) -> pd.DataFrame:
    missing = [c for c in ("kind", "x", "y") if c not in frame.columns]
    if missing:
        raise ValueError(f"The position file {str(path)!r} must have the columns kind, x, y. Got {list(frame.columns)} (missing {missing}).")
    for col in ("x", "y"):
        values = pd.to_numeric(frame[col], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(values)  # text, no value, nan or inf
        if bad.any():
            i = int(bad.argmax())
            at = f"line {lines[i]}" if lines is not None else f"row {i}"
            got = _cell_text(frame[col].iat[i])
            raise ValueError(
                f"The position file {str(path)!r} must hold finite numbers (m) in column {col!r}. "
                f"Got {got} on {at} instead."
            )
    return frame.loc[:, ["kind", "x", "y"]]


def _cell_text(value: Any) -> str:
    """A table cell as an error message shows it: "no value" for an empty one (an empty or short row)."""
    if isinstance(value, (float, np.floating)):
        return "no value" if np.isnan(value) else f"{value:g}"
    return "no value" if value is None or value is pd.NA else repr(value)


def read_position(path: str | Path, *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
    """Read a position file (see the module docstring) into a :class:`Scene`.

    Parameters
    ----------
    path : str or Path
        A ``.json``, ``.csv`` or ``.parquet`` file.
    board : Board, optional
        The board of a plain table (ignored for a saved position, which names its own).
    specs : mapping of str to DiscSpec, optional
        Discs that replace those of the file (or of the board's standard discs).

    Raises
    ------
    ValueError
        If the file is missing, empty or malformed (the message names the file and line),
        or a plain table is read without a board.
    """
    path = Path(path)
    suffix = _suffix(path)
    if suffix == ".parquet":
        return _plain(_parquet(path), None, path, board, specs)
    text = read_text(path, "position file")
    if suffix == ".json":
        body = parse_json(text, path, "position file")
        pieces = body.get("pieces", []) if isinstance(body, dict) else None
        if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces):
            raise ValueError(
                f"The position file {str(path)!r} must hold a list of pieces, each with kind, x and y. Got {pieces!r:.80} instead."
            )
        frame = pd.DataFrame(pieces, columns=["kind", "x", "y"]) if pieces else pd.DataFrame(columns=["kind", "x", "y"])
        return _from_header(body, path, _checked(frame, path, None), None, specs)
    first, _, rest = text.partition("\n")
    if first.startswith(_TAG):
        head = parse_json(first[len(_TAG):], path, "position file header (line 1)")
        return _from_header(head, path, *_table(rest, path, 2), specs)
    return _plain(*_table(text, path, 1), path, board, specs)


def read_pieces(path: str | Path) -> pd.DataFrame:
    """The pieces (``kind``, ``x``, ``y`` in m) of a position file, saved or plain, checked
    only for their columns and numbers (errors name the file and line)."""
    path = Path(path)
    if _suffix(path) == ".parquet":
        return _parquet(path)
    text = read_text(path, "position file")
    if path.suffix.lower() == ".json":
        return read_position(path).pieces[["kind", "x", "y"]]
    first, _, rest = text.partition("\n")
    return (_table(rest, path, 2) if first.startswith(_TAG) else _table(text, path, 1))[0]


def _parquet(path: Path) -> pd.DataFrame:
    """The checked pieces table of a Parquet position file; errors name the file."""
    if not path.is_file():
        raise ValueError(f"The position file {str(path)!r} must be an existing file. Got no such file.")
    try:
        frame = pd.read_parquet(path)
    except (OSError, ValueError) as exc:  # pyarrow's errors derive from these
        raise ValueError(f"The position file {str(path)!r} must be a Parquet table with the columns kind, x, y. Got an unreadable file ({exc}).") from None
    return _checked(frame, path, None)


def _plain(frame: pd.DataFrame, lines: Sequence[int] | None, path: Path, board: Board | None, specs: Mapping[str, DiscSpec] | None) -> Scene:
    if board is None:
        raise ValueError(
            f"The 'board' parameter must be given for the plain table {str(path)!r} (a kind, x, y table names no board). "
            "Got None instead."
        )
    try:
        return Scene._from_frame(board, frame, specs, rows=_rows(lines))
    except (TypeError, ValueError) as exc:
        raise _invalid(exc, path) from None
