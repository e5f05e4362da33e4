"""Parameter checks that name the parameter, the allowed range and the value received.

They follow the NumPy convention: a TypeError when the argument is of the wrong type
(text, a bool or None where a number is wanted, a dict where a PhysicsParams is
wanted), a ValueError when the type is right and the value is not allowed (NaN, a
negative speed, an unknown preset name).
"""

from __future__ import annotations

import csv
import dataclasses
import difflib
import io
import json
import math
import operator
import os
import sys
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, published as tomli before it joined the standard library
    import tomli as tomllib

__all__ = [
    "check_real",
    "check_int",
    "check_bool",
    "check_str",
    "check_choice",
    "check_array",
    "check_type",
    "check_table",
    "check_sequence",
    "check_mapping",
    "check_keys",
    "type_text",
    "check_memory",
    "check_fields",
    "check_suffix",
    "read_text",
    "parse_csv",
    "parse_json",
    "parse_toml",
    "physical_memory",
    "value_text",
]


def _number(x: float) -> str:
    return str(x) if isinstance(x, (int, np.integer)) else f"{x:g}"


def value_text(value: Any) -> str:
    """``value`` as a message shows a value of the wrong type: its repr, cut to 80
    characters (a DataFrame's runs to pages), and its type."""
    text = " ".join(repr(value).split())
    return f"{text if len(text) <= 80 else text[:77] + '...'} ({type(value).__name__})"


def _range_text(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    lo = "-inf" if low is None else _number(low)
    hi = "inf" if high is None else _number(high)
    left = "(" if (low is None or low_open) else "["
    right = ")" if (high is None or high_open) else "]"
    return f"{left}{lo}, {hi}{right}"


def check_real(
    name: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    unit: str = "",
) -> float:
    """Return ``value`` as a float if it is finite and inside the range, else raise.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    value : object
        Value received.
    low, high : float or None
        Bounds of the allowed range (None: unbounded).
    low_open, high_open : bool
        Whether the bound itself is excluded.
    unit : str
        Unit appended to the range in the message (e.g. ``"m"``).

    Returns
    -------
    float
        The checked value.

    Raises
    ------
    TypeError
        If ``value`` is not a real number: a bool, text (even a numeral), None, a
        complex number, an array or a list.
    ValueError
        ``The 'mu' parameter must be a finite real number in the range (0, 2]. Got -1 instead.``
        (also for NaN and infinity).
    """
    # a bool, text (even "0.1") or a complex number is not taken for a number
    x = None
    if not isinstance(value, (bool, np.bool_, str, bytes, complex, np.complexfloating)):
        try:
            x = float(value)
        except (TypeError, ValueError):
            pass
    # the message is only built for a bad value (checks run on every shot)
    if x is None or not math.isfinite(x) or (low is not None and (x < low or (low_open and x == low))) or (
        high is not None and (x > high or (high_open and x == high))
    ):
        rng = _range_text(low, high, low_open, high_open) + (f" {unit}" if unit else "")
        got = value_text(value) if x is None else repr(value)
        raise (TypeError if x is None else ValueError)(
            f"The {name!r} parameter must be a finite real number in the range {rng}. Got {got} instead."
        )
    return x


def check_int(name: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int if it is an integer inside ``[low, high]``, else raise.

    An int, a NumPy integer or a 0-d integer array is an integer; a bool or a float
    (even ``2.0``) is not.

    Raises
    ------
    TypeError
        If ``value`` is not an integer.
    ValueError
        If it lies outside ``[low, high]``.
    """
    n = None
    if not isinstance(value, (bool, np.bool_)):
        try:
            n = operator.index(value)
        except TypeError:
            pass
    if n is None or (low is not None and n < low) or (high is not None and n > high):
        rng = _range_text(low, high, False, False)  # built only for a bad value (checks run on every shot)
        got = value_text(value) if n is None else repr(value)
        raise (TypeError if n is None else ValueError)(f"The {name!r} parameter must be an int in the range {rng}. Got {got} instead.")
    return n


def check_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a bool (or a NumPy bool), else raise TypeError: a
    truthy string such as ``"no"`` is no answer."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"The {name!r} parameter must be a bool (True or False). Got {value_text(value)} instead.")
    return bool(value)


def check_str(name: str, value: Any, *, what: str = "a non-empty str") -> str:
    """Return ``value`` if it is a str with some text (not blank), else raise naming the
    parameter and ``what`` it must be: a TypeError if it is no str, a ValueError if it is
    empty or blank."""
    if not isinstance(value, str):
        raise TypeError(f"The {name!r} parameter must be {what}. Got {value_text(value)} instead.")
    if not value.strip():
        raise ValueError(f"The {name!r} parameter must be {what}. Got {value!r} instead.")
    return value


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise listing them: a TypeError
    if ``value`` is not a str, a ValueError if it is another name."""
    options = sorted(choices)
    if not isinstance(value, str):
        raise TypeError(f"The {name!r} parameter must be one of {options}. Got {value_text(value)} instead.")
    if value not in options:
        raise ValueError(f"The {name!r} parameter must be one of {options}. Got {value!r} instead.")
    return value


def check_array(
    name: str,
    value: Any,
    *,
    shape: tuple[int | None, ...] | None = None,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    unit: str = "",
) -> np.ndarray:
    """Return ``value`` as a float64 array after checking shape, finiteness and range.

    ``shape`` entries of None accept any length along that axis. The message names
    the first offending element; a value that holds no real numbers (text, complex
    numbers, objects) is a TypeError naming the parameter.
    """
    arr = _real_array(name, value)
    if shape is not None:
        ok = arr.ndim == len(shape) and all(s is None or s == n for s, n in zip(shape, arr.shape))
        if not ok:
            want = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ")"
            raise ValueError(
                f"The {name!r} parameter must have shape {want}. Got shape {arr.shape} instead."
            )
    bad = ~np.isfinite(arr)
    if low is not None:
        bad |= (arr <= low) if low_open else (arr < low)
    if high is not None:
        bad |= arr > high
    if bad.any():
        rng = _range_text(low, None if high is None else high, low_open, False) + (f" {unit}" if unit else "")
        if arr.ndim == 0:
            raise ValueError(
                f"The {name!r} parameter must be a finite real number in the range {rng}. "
                f"Got {float(arr)!r} instead."
            )
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"The {name!r} parameter must contain finite real numbers in the range {rng}. "
            f"Got {float(arr[idx])!r} at index {idx if len(idx) > 1 else idx[0]} instead."
        )
    return arr


def _real_array(name: str, value: Any) -> np.ndarray:
    """``value`` as a float64 array; TypeError naming ``name`` if it holds no real numbers."""
    try:
        raw = np.asarray(value)
    except ValueError:  # ragged nesting
        raw = np.asarray([value], dtype=object)
    if raw.dtype.kind in "iuf":
        return np.asarray(raw, dtype=float)
    wrong = (complex, np.complexfloating, str, bytes, bool, type(None))
    try:
        if raw.dtype.kind != "O" or any(isinstance(v, wrong) for v in raw.flat):
            raise TypeError
        return np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        flat = [v for v in raw.flat if isinstance(v, wrong)] or list(raw.flat)
        got = flat[0] if flat else value
        got = got.item() if isinstance(got, np.generic) else got
        raise TypeError(
            f"The {name!r} parameter must hold real numbers (a float or an array of floats). "
            f"Got {got!r} ({type(got).__name__}) instead."
        ) from None


def check_type(name: str, value: Any, cls: type | tuple[type, ...], *, hint: str = "") -> Any:
    """Return ``value`` if it is an instance of ``cls``, else raise TypeError naming the
    parameter, the type wanted (and ``hint``, e.g. how to build one) and the value received
    (``type(None)`` in ``cls`` reads "or None")."""
    if not isinstance(value, cls):
        raise TypeError(f"The {name!r} parameter must be {type_text(cls)}{f' ({hint})' if hint else ''}. Got {value_text(value)} instead.")
    return value


def _type_names(cls: type | tuple[type, ...]) -> str:
    """``cls`` as a message names it: "int", "Board or None"."""
    return " or ".join("None" if c is type(None) else c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))


def type_text(cls: type | tuple[type, ...]) -> str:
    """``cls`` as a message names it, with its article by the first letter: "an int",
    "a Board or None", "an Axes"."""
    want = _type_names(cls)
    return f"{'an' if want[:1].lower() in 'aeiou' else 'a'} {want}"


def check_sequence(
    name: str, value: Any, cls: type | tuple[type, ...] | None = None, *, length: int | None = None, nonempty: bool = False, what: str = ""
) -> tuple[Any, ...]:
    """Return ``value`` as a tuple if it is a sequence (any iterable but text or a mapping)
    whose items are instances of ``cls`` (any items with None), else raise naming the
    parameter and ``what`` it must be (default "a sequence of <cls>"): a TypeError if
    ``value`` is no sequence or an item is of the wrong type (the message gives the item
    and its index), a ValueError if it has not ``length`` items or, with ``nonempty``,
    none."""
    want = what or ("a sequence" if cls is None else f"a sequence of {_type_names(cls)}")
    items = None
    if not isinstance(value, (str, bytes, Mapping)):
        try:
            items = tuple(value)
        except TypeError:
            pass
    if items is None:
        raise TypeError(f"The {name!r} parameter must be {want}. Got {value_text(value)} instead.")
    if cls is not None:
        for i, item in enumerate(items):
            if not isinstance(item, cls):
                raise TypeError(f"The {name!r} parameter must be {want}. Got {value_text(item)} at index {i} instead.")
    if (length is not None and len(items) != length) or (nonempty and not items):
        raise ValueError(f"The {name!r} parameter must be {want}. Got {value!r} ({len(items)} items) instead.")
    return items


def check_mapping(
    name: str, value: Any, keys: type | tuple[type, ...], values: type | tuple[type, ...], *, nonempty: bool = False, what: str = ""
) -> Mapping[Any, Any]:
    """Return ``value`` if it is a mapping of ``keys`` instances to ``values`` instances,
    else raise naming the parameter and ``what`` it must be (default "a mapping of <keys>
    to <values>"): a TypeError if it is no mapping or a key or value is of the wrong type
    (the message names the entry, e.g. ``specs[white]``), a ValueError if it is empty
    and ``nonempty`` asks for an entry."""
    want = what or f"a mapping of {_type_names(keys)} to {_type_names(values)}"
    if not isinstance(value, Mapping):
        raise TypeError(f"The {name!r} parameter must be {want}. Got {value_text(value)} instead.")
    if nonempty and not value:
        raise ValueError(f"The {name!r} parameter must be {want} with at least one entry. Got {value!r} instead.")
    for key, item in value.items():
        if not isinstance(key, keys):
            raise TypeError(f"The {name!r} parameter must be {want}. Got the key {value_text(key)} instead.")
        check_type(f"{name}[{key}]", item, values)
    return value


def check_keys(name: str, value: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    """Raise a ValueError if a key of ``value`` is not one of ``allowed``, naming the
    parameter, ``what`` its keys name (e.g. "kinds of the icf discs"), the allowed keys and
    the others: a misspelt key would otherwise go unused, silently."""
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        raise ValueError(f"The {name!r} parameter must name {what} {sorted(set(allowed))}. Got {unknown} instead.")


def check_table(name: str, value: Any, columns: Iterable[str], what: str = "a DataFrame", *, rows: bool = True) -> Any:
    """Return ``value`` if it is a pandas DataFrame with at least ``columns`` (and, with
    ``rows``, one row); else a TypeError if it is not a DataFrame, a ValueError if it
    lacks a column or a row, naming the parameter, ``what`` it must be (e.g. "a boards
    table") and the columns wanted or received."""
    needed = list(columns)
    if not isinstance(value, pd.DataFrame):
        raise TypeError(f"The {name!r} parameter must be {what} with columns {needed}. Got {value_text(value)} instead.")
    if not set(needed) <= set(value.columns):
        raise ValueError(f"The {name!r} parameter must be {what} with columns {needed}. Got {list(value.columns)} instead.")
    if rows and value.empty:
        raise ValueError(f"The {name!r} parameter must have at least one row. Got an empty table instead.")
    return value


def check_fields(where: str, cls: type, names: Iterable[str]) -> None:
    """Raise TypeError if a name in ``names`` is not an init field of the dataclass ``cls``;
    the message names ``where`` (e.g. ``"PhysicsParams.with_"``), the unknown name, the
    close field names and all of them (``dataclasses.replace`` said only "unexpected
    keyword argument")."""
    valid = [f.name for f in dataclasses.fields(cls) if f.init]
    unknown = [n for n in names if n not in valid]
    if unknown:
        bad = unknown[0]
        close = difflib.get_close_matches(str(bad), valid, n=3)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        raise TypeError(f"{where} got an unknown field {bad!r}{hint}. The fields of {cls.__name__} are {valid}.")


def check_suffix(name: str, path: str | Path, suffixes: Iterable[str]) -> str:
    """The lower-case suffix of the file ``path`` if it is one of ``suffixes`` (which
    chooses the file's format), else a ValueError naming the parameter, the path and the
    suffixes allowed (a TypeError if ``path`` is no str or path)."""
    allowed = list(suffixes)
    check_type(name, path, (str, os.PathLike))
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise ValueError(
            f"The {name!r} parameter must be a file name ending in one of {allowed} (the suffix chooses the format). "
            f"Got {str(path)!r} instead."
        )
    return suffix


def physical_memory() -> int:
    """Physical memory of this machine, bytes (0 if the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):  # pragma: no cover - non-POSIX systems
        return 0


def check_memory(name: str, n: int, bytes_each: int, *, hint: str = "") -> int:
    """Return ``n`` if ``n`` items (``name``, plural: "shots") of ``bytes_each`` bytes fit in
    half the physical memory,
    else raise ValueError with the size needed, the memory there is and ``hint``.

    Checked before the arrays are made, so a too-large request fails at once with this
    message instead of a MemoryError (or swapping) part-way.
    """
    need, have = n * bytes_each, physical_memory()
    if have and need > have // 2:
        raise ValueError(
            f"{n:,} {name} need about {need / 1e9:.3g} GB of arrays, more than half of this machine's "
            f"{have / 1e9:.3g} GB of memory.{f' {hint}' if hint else ''}"
        )
    return n


def read_text(path: str | Path, what: str) -> str:
    """The text of the file ``path``, without the byte order mark some editors write at the
    start of UTF-8 (Excel's "CSV UTF-8", Notepad); ValueError naming ``what`` (e.g.
    "calibration file") if it does not exist, is not a file, or is not UTF-8 text."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"The {what} {str(path)!r} must be an existing file. Got no such file.")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"The {what} {str(path)!r} must be UTF-8 text. Got undecodable bytes at byte {exc.start}.") from None


def parse_csv(text: str, path: str | Path, what: str, holds: str, *, first_line: int = 1, **options: Any) -> tuple[pd.DataFrame, list[int]]:
    """``text`` (read from ``path``, from its line ``first_line`` on) parsed as a CSV table
    (``pandas.read_csv`` with ``options``), and the line of the file (1-based) each row
    came from: pandas skips blank lines, which a file's line numbers count. ValueError
    naming the file if the text is empty (it must hold ``holds``), no CSV table (with
    pandas' line, counted from ``first_line``), or has rows of more values than its header
    has names (the first such line named; a trailing comma on every row is read as nothing)."""
    if not text.strip():
        raise ValueError(f"The {what} {str(path)!r} must hold {holds}. Got an empty file.")
    start = f" (line numbers from line {first_line})" if first_line != 1 else ""
    try:
        with warnings.catch_warnings():
            # rows of more values than the header has names: without index_col=False pandas
            # made the first column the index and shifted every other one; with it, it
            # drops the extra values with this warning (a trailing comma is read as nothing)
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(io.StringIO(text), index_col=False, **options)
    except pd.errors.ParserError as exc:
        raise ValueError(f"The {what} {str(path)!r} must be a CSV table{start}: {exc}") from None
    except pd.errors.ParserWarning as warning:
        rows = [(first_line + k, row) for k, row in enumerate(csv.reader(io.StringIO(text))) if row]  # blank lines skipped
        names = len(rows[0][1])
        long = next(((line, len(row)) for line, row in rows if len(row) > names and any(row[names:])), None)
        if long is None:  # another parser warning
            raise ValueError(f"The {what} {str(path)!r} must be a CSV table{start}: {warning}") from None
        raise ValueError(
            f"The {what} {str(path)!r} must have no more values in a row than names in its header (a trailing comma "
            f"is fine). Got {long[1]} values for {names} names on line {long[0]} instead."
        ) from None
    filled = [first_line + k for k, line in enumerate(text.splitlines()) if line.strip()]
    return frame, filled[1 : len(frame) + 1]  # the first is the header


def parse_json(text: str, path: str | Path, what: str) -> Any:
    """``text`` (read from ``path``) parsed as JSON; ValueError naming the file and line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"The {what} {str(path)!r} must be valid JSON. Got an error at line {exc.lineno}, column {exc.colno}: {exc.msg}."
        ) from None


def parse_toml(text: str, path: str | Path, what: str) -> dict[str, Any]:
    """``text`` (read from ``path``) parsed as TOML; ValueError naming the file and line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"The {what} {str(path)!r} must be valid TOML. Got an error: {exc}.") from None
