"""Saved calibrations: fitted physics parameters with a name, notes and uncertainties.

A calibration file holds a :class:`~carromlab.physics.params.PhysicsParams` (every field,
or only some: missing fields take the PhysicsParams defaults), its name, free-text notes
and the standard errors of the fitted fields, as JSON (``.json``) or TOML (``.toml``);
only ``[params]`` is required::

    [calibration]
    format = "carromlab-calibration"
    version = 1
    name = "club-board-2024"
    notes = "Starch powder; 12 shots filmed at 120 fps."

    [params]
    friction_law = "coulomb"
    mu = 0.0781
    e_cushion = 0.71

    [uncertainty]
    mu = 0.0004

A file becomes a named preset with :func:`.register_calibration`; :func:`.load_calibration`
accepts a registered name or a path. The registry lives in the running process only: no
preset is read from a home directory or any other implicit place.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .. import __version__
from .._validation import check_real, check_str, check_suffix, check_type, parse_json, parse_toml, read_text, value_text
from ..physics.params import PhysicsParams

__all__ = ["CALIBRATION_SUFFIXES", "Calibration", "save_calibration", "read_calibration", "load_calibration", "register_calibration", "calibration_names"]

FORMAT = ("carromlab-calibration", 1)
#: The suffixes of calibration files, which choose their format.
CALIBRATION_SUFFIXES = (".json", ".toml")
_REGISTRY: dict[str, Path] = {}


@dataclass(frozen=True)
class Calibration:
    """A saved calibration.

    Attributes
    ----------
    name : str
        Preset name.
    params : PhysicsParams
        The calibrated parameters.
    notes : str
        Free text (board, powder, how it was measured).
    uncertainty : dict of str to float
        Standard errors of fitted fields, in their units.
    source : str
        The file it was read from ("" if not read from a file).
    """

    name: str
    params: PhysicsParams
    notes: str = ""
    uncertainty: dict[str, float] = field(default_factory=dict)
    source: str = ""


def _check_suffix(path: Path) -> str:
    return check_suffix("path", path, CALIBRATION_SUFFIXES)


def _uncertainty_map(uncertainty: Mapping[str, float] | pd.DataFrame | None) -> dict[str, float]:
    if uncertainty is None:
        return {}
    check_type("uncertainty", uncertainty, (Mapping, pd.DataFrame), hint="standard errors by PhysicsParams field")
    if isinstance(uncertainty, pd.DataFrame):
        uncertainty = dict(zip(uncertainty["parameter"], uncertainty["std_error"]))
    names = PhysicsParams.field_names()
    out = {}
    for k, v in uncertainty.items():
        if k not in names:
            raise ValueError(f"The 'uncertainty' parameter must name PhysicsParams fields {list(names)}. Got {k!r} instead.")
        out[str(k)] = check_real(f"uncertainty[{k!r}]", v, low=0.0)
    return out


def _toml_value(v: Any) -> str:
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return repr(float(v))  # repr writes inf and nan as TOML does


def save_calibration(
    params: PhysicsParams,
    path: str | Path,
    *,
    name: str,
    notes: str = "",
    uncertainty: Mapping[str, float] | pd.DataFrame | None = None,
) -> Path:
    """Write a calibration file (JSON or TOML, by the suffix of ``path``).

    Parameters
    ----------
    params : PhysicsParams
        The calibrated parameters; every field is written.
    path : str or Path
        Destination ending in ``.json`` or ``.toml``.
    name : str
        Preset name (non-empty).
    notes : str
        Free text.
    uncertainty : mapping of str to float, or DataFrame, optional
        Standard errors by field name, or an ``estimates`` table of a fit (columns
        ``parameter`` and ``std_error``).

    Returns
    -------
    Path
        The file written.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = save_calibration(PhysicsParams(mu=0.08), Path(d) / "b.toml", name="starch-board")
    ...     load_calibration(p).mu
    0.08
    """
    check_type("params", params, PhysicsParams, hint="e.g. a fit's params")
    check_str("name", name)
    suffix = _check_suffix(path)
    path = Path(path)
    header = {"format": FORMAT[0], "version": FORMAT[1], "name": name, "notes": str(notes), "carromlab_version": __version__}
    values = params.to_dict()
    unc = _uncertainty_map(uncertainty)
    if suffix == ".json":
        # JSON has no infinity: write it as the string "inf"
        values = {k: ("inf" if isinstance(v, float) and math.isinf(v) else v) for k, v in values.items()}
        text = json.dumps({"calibration": header, "params": values, "uncertainty": unc}, indent=2) + "\n"
    else:
        lines = ["[calibration]", *(f"{k} = {_toml_value(v)}" for k, v in header.items()), "", "[params]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in values.items()]
        lines += ["", "[uncertainty]", *(f"{k} = {_toml_value(v)}" for k, v in unc.items())]
        text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def read_calibration(path: str | Path) -> Calibration:
    """Read a calibration file written by :func:`.save_calibration` (or by hand).

    Parameters
    ----------
    path : str or Path
        A ``.json`` or ``.toml`` file.

    Returns
    -------
    Calibration

    Raises
    ------
    ValueError
        If the file is missing, is not valid JSON/TOML (the message names the file and
        line), says it is another format (``[calibration] format``), has no ``[params]``
        table, names an unknown parameter, or a value is out of its range (the message of
        :class:`.PhysicsParams`), or its ``[uncertainty]`` table is not one of standard
        errors (>= 0) by PhysicsParams field, or its ``[calibration]`` name is blank.
    TypeError
        If its ``[calibration]`` name or notes is no str (a JSON null, a number); the
        message names the file and the entry.

    Notes
    -----
    The ``[calibration]`` header (``format``, ``name``, ``notes``) is optional: a file
    holding only a ``[params]`` table is read, named after the file's stem.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = save_calibration(PhysicsParams(), Path(d) / "c.json", name="club", uncertainty={"mu": 0.002})
    ...     read_calibration(p).uncertainty
    {'mu': 0.002}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "my_board.toml").write_text("[params]\\nmu = 0.09\\n")
    ...     cal = read_calibration(Path(d) / "my_board.toml")
    >>> cal.name, cal.params.mu
    ('my_board', 0.09)
    """
    suffix = _check_suffix(path)
    path = Path(path)
    text = read_text(path, "calibration file")
    data = parse_json(text, path, "calibration file") if suffix == ".json" else parse_toml(text, path, "calibration file")
    if not isinstance(data, dict):
        raise ValueError(
            f"The file {path.name!r} must hold a [params] table of PhysicsParams fields (e.g. mu = 0.12). "
            f"Got {type(data).__name__} {data!r} instead."
        )
    # the [calibration] header is optional (a hand-written file may hold [params] alone);
    # when present it must not say the file is something else
    head = data.get("calibration", {})
    if not isinstance(head, dict) or head.get("format", FORMAT[0]) != FORMAT[0]:
        got = head.get("format") if isinstance(head, dict) else head
        raise ValueError(
            f"The file {path.name!r} must be a carromlab calibration ([calibration] format = {FORMAT[0]!r}, "
            f"or no [calibration] table). Got format {got!r} instead."
        )
    values = data.get("params")
    if not isinstance(values, dict):
        raise ValueError(
            f"The file {path.name!r} must have a [params] table of PhysicsParams fields (e.g. mu = 0.12). "
            f"Got {'no [params] table' if values is None else repr(values)} instead."
        )
    values = dict(values)
    names = PhysicsParams.field_names()
    for k in values:
        if k not in names:
            raise ValueError(f"The file {path.name!r} must set only PhysicsParams fields {list(names)}. Got {k!r} instead.")
    if values.get("capture_speed_max") == "inf":
        values["capture_speed_max"] = math.inf
    try:
        params = PhysicsParams(**values)
    except (TypeError, ValueError) as exc:  # a value of the wrong type is a bad file too
        bad = next((k for k in values if f"{k!r} parameter" in str(exc)), None)
        key = re.compile(rf'^\s*"?{re.escape(bad or "")}"?\s*[=:]')
        line = next((i for i, t in enumerate(text.splitlines(), 1) if bad and key.match(t)), None)
        raise ValueError(f"The file {path.name!r}{f', line {line}' if line else ''}: {exc}") from None
    try:
        uncertainty = _uncertainty_map(data.get("uncertainty"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"The file {path.name!r} must have an [uncertainty] table of standard errors: {exc}") from None
    texts = {"name": head.get("name", path.stem), "notes": head.get("notes", "")}
    for key, value in texts.items():
        if not isinstance(value, str):  # str() made a null name 'None'
            raise TypeError(f"The file {path.name!r} must have a str [calibration] {key}. Got {value_text(value)} instead.")
    if not texts["name"].strip():  # as save_calibration refuses to write one
        raise ValueError(f"The file {path.name!r} must have a non-empty [calibration] name. Got {texts['name']!r} instead.")
    return Calibration(**texts, params=params, uncertainty=uncertainty, source=str(path))


def register_calibration(path: str | Path, *, name: str | None = None) -> str:
    """Make a calibration file available by name to :func:`.load_calibration`.

    Parameters
    ----------
    path : str or Path
        The calibration file (read now, to check it).
    name : str, optional
        Preset name; default the name stored in the file.

    Returns
    -------
    str
        The registered name.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = save_calibration(PhysicsParams(mu=0.07), Path(d) / "s.toml", name="starch")
    ...     register_calibration(p), load_calibration("starch").mu
    ('starch', 0.07)
    """
    cal = read_calibration(path)
    key = cal.name if name is None else name
    check_str("name", key)
    _REGISTRY[key] = Path(path)
    return key


def calibration_names() -> list[str]:
    """Names registered with :func:`.register_calibration`, sorted."""
    return sorted(_REGISTRY)


def load_calibration(path_or_name: str | Path) -> PhysicsParams:
    """The parameters of a registered calibration name or of a calibration file.

    Parameters
    ----------
    path_or_name : str or Path
        A name registered with :func:`.register_calibration`, or a file path.

    Returns
    -------
    PhysicsParams

    Raises
    ------
    ValueError
        If the name is not registered and no such file exists (the message lists the
        registered names), or the file is invalid.

    Examples
    --------
    >>> load_calibration("no-such-preset")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The 'path_or_name' parameter must be a registered calibration name (registered: [...]) or an existing .json or .toml file. Got 'no-such-preset' instead.
    """
    if isinstance(path_or_name, str) and path_or_name in _REGISTRY:
        return read_calibration(_REGISTRY[path_or_name]).params
    path = Path(path_or_name)
    if not path.is_file():
        raise ValueError(
            f"The 'path_or_name' parameter must be a registered calibration name (registered: {calibration_names()}) "
            f"or an existing .json or .toml file. Got {str(path_or_name)!r} instead."
        )
    return read_calibration(path).params
