"""Disc tracks from video: loading, calibration to board metres, checks and a noise estimate.

A track file is a CSV table with one row per detected disc per frame, and optionally a
JSON *sidecar* of the same name (``shot.csv`` + ``shot.json``) carrying what the CSV
cannot: units, frame rate, camera calibration, board and disc radii. Two column layouts are
read:

* carromlab layout: ``disc`` (int), ``t`` (s) or ``frame`` (int), ``x``, ``y`` (pixels or
  metres), optional ``angle`` (rad, counter-clockwise in the image for pixel tracks);
* trackpy layout: ``frame``, ``particle``, ``x``, ``y`` (pixels), with the frame rate
  given separately (D. B. Allan et al., trackpy, doi:10.5281/zenodo.1213240).

Missing frames (a disc not detected in some frames) are simply absent rows. A missing
value (NaN) inside a row is an error: drop such detections from the file instead.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_choice, check_real, parse_csv, parse_json, read_text, value_text
from ..equipment.board import BOARD_PRESETS, Board
from .camera import BoardCalibration

__all__ = ["Tracks", "read_tracks", "write_tracks"]

_REQUIRED = ("disc", "t", "x", "y")
#: Sidecar format name and version written by :func:`write_tracks`.
SIDECAR_FORMAT = ("carromlab-tracks", 1)


def _second_differences(t: np.ndarray, z: np.ndarray, *, wrap: bool) -> np.ndarray:
    """Normalised second differences of samples ``z`` (n, k) at times ``t`` (n,).

    For three consecutive samples at spacings h1, h2 the combination
    ``h2 z0 - (h1 + h2) z1 + h1 z2`` vanishes on a straight line and has standard deviation
    ``sigma sqrt(h1^2 + (h1 + h2)^2 + h2^2)`` for independent noise of standard deviation
    sigma; the normalised combinations therefore have standard deviation sigma. With
    ``wrap`` (angles known modulo 2 pi) only equally spaced triples are used, where the
    combination ``z0 - 2 z1 + z2`` can be wrapped into (-pi, pi].
    """
    h1, h2 = np.diff(t)[:-1, None], np.diff(t)[1:, None]
    if wrap:
        equal = np.isclose(h1[:, 0], h2[:, 0], rtol=1e-6, atol=0.0)
        d2 = z[:-2][equal] - 2.0 * z[1:-1][equal] + z[2:][equal]
        return (((d2 + np.pi) % (2 * np.pi)) - np.pi).ravel() / math.sqrt(6.0)
    d2 = h2 * z[:-2] - (h1 + h2) * z[1:-1] + h1 * z[2:]
    return (d2 / np.sqrt(h1**2 + (h1 + h2) ** 2 + h2**2)).ravel()


def first_bad(column: pd.Series, bad: np.ndarray) -> tuple[int, Any]:
    """The first row (0-based position) where ``bad`` holds, and ``column``'s value there
    as the user typed it (a NumPy scalar as its Python value), for an error message."""
    row = int(np.argmax(bad))
    got = column.iat[row]
    return row, got.item() if isinstance(got, np.generic) else got


@dataclass(frozen=True)
class _Table:
    """How the checks name the table the user gave (``"The 'data' parameter"``, ``"The
    track file 'a.csv'"``) and one of its rows: by its 0-based position, or, for a file, by
    its line (1-based, as an editor shows it), ``lines[row]``."""

    name: str
    lines: np.ndarray | None = None

    def __str__(self) -> str:
        return self.name

    def at(self, row: int) -> str:
        """Where row ``row`` (0-based position in the table) is, for a message."""
        return f"at row {row}" if self.lines is None else f"at line {int(self.lines[row])}"


#: How the checks name the table the user passed when :class:`Tracks` is built directly.
_DATA = _Table("The 'data' parameter")


def _finite_column(df: pd.DataFrame, c: str, shown: str | None = None, who: _Table = _DATA) -> np.ndarray:
    """Column ``c`` of ``df`` as floats; raise naming the first row that is not a finite
    number, the column as ``shown`` (its name in the user's table; default ``c``) and the
    table as ``who`` (``"The 'frame' parameter"``, ``"The track file 'a.csv'"``)."""
    col = pd.to_numeric(df[c].reset_index(drop=True), errors="coerce").astype(float).to_numpy()
    bad = ~np.isfinite(col)
    if bad.any():
        row, got = first_bad(df[c], bad)
        raise ValueError(
            f"{who} must contain finite numbers in column {shown or c!r} (drop rows of "
            f"missing detections instead of leaving NaN). Got {got!r} {who.at(row)} instead."
        )
    return col


def _check_columns(df: Any, names: Mapping[str, str] | None = None, who: _Table = _DATA) -> pd.DataFrame:
    """A numeric copy of the track columns of ``df``; rows named by position, columns by
    ``names`` (column of ``df`` -> its name in the user's table, e.g. ``{"disc":
    "particle"}`` for trackpy's layout; default their own), the table by ``who``."""
    names = names or {}
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{who} must be a pandas DataFrame. Got {value_text(df)} instead.")
    missing = [c for c in _REQUIRED if c not in df.columns]
    if missing:
        raise ValueError(
            f"{who} must have the columns {list(_REQUIRED)} (optional: angle, frame). "
            f"Got columns {list(df.columns)} instead (missing {missing})."
        )
    if len(df) == 0:
        raise ValueError(f"{who} must have at least one row. Got an empty table instead.")
    keep = [c for c in (*_REQUIRED, "angle", "frame") if c in df.columns]
    out = pd.DataFrame(index=pd.RangeIndex(len(df)))
    for c in keep:
        out[c] = _finite_column(df, c, names.get(c), who)
    for c in ("disc", "frame"):
        if c in out and not np.all(out[c] == np.round(out[c])):
            row = int(np.argmax(out[c] != np.round(out[c])))
            raise ValueError(
                f"{who} must contain integers in column {names.get(c, c)!r}. Got {float(out[c].iat[row])!r} {who.at(row)} instead."
            )
        if c in out:
            out[c] = out[c].astype(np.int64)
    for disc, g in out.groupby("disc", sort=False):
        dt = np.diff(g["t"].to_numpy())
        if np.any(dt <= 0):
            k = int(np.argmax(dt <= 0))
            row = int(g.index[k + 1])
            raise ValueError(
                f"{who} must have strictly increasing times t within each disc. "
                f"Got t = {float(g['t'].iat[k + 1])!r} s after t = {float(g['t'].iat[k])!r} s {who.at(row)} ({names.get('disc', 'disc')} {disc}) instead."
            )
    return out


#: Largest median time step between consecutive points of a disc, s: a frame rate below
#: 1 frame/s is no video of a shot, and almost certainly times not in seconds (ms?).
MAX_MEDIAN_STEP = 1.0


def _check_time_unit(data: pd.DataFrame, who: _Table = _DATA) -> None:
    """Raise if the median time step between consecutive points of a disc exceeds
    :data:`.MAX_MEDIAN_STEP` (times in milliseconds, or frame numbers, taken as seconds)."""
    steps = [np.diff(g.to_numpy()) for _, g in data.groupby("disc", sort=False)["t"] if len(g) >= 2]
    dt = np.concatenate(steps) if steps else np.empty(0)
    if dt.size and (median := float(np.median(dt))) > MAX_MEDIAN_STEP:
        raise ValueError(
            f"{who} must give times t in seconds, with a median step between consecutive "
            f"points of a disc in the range (0, {MAX_MEDIAN_STEP:g}] s (a frame rate of at least "
            f"{1.0 / MAX_MEDIAN_STEP:g} frame/s). Got a median step of {median:g} s (a frame rate of "
            f"{1.0 / median:.3g} frame/s) instead: times in milliseconds, or frame numbers? Give t in s, or "
            "frame with fps."
        )


#: How far beyond the board's edge a tracked centre may lie, m (tracking noise, and a crokinole
#: disc in the 5 cm ditch), and the reach allowed without a board, m (no board is 2 m wide).
OFF_BOARD_TOL = 0.1
NO_BOARD_REACH = 2.0


def _check_on_board(data: pd.DataFrame, board: Board | None, who: _Table = _DATA) -> None:
    """Raise if a position lies off the board by more than :data:`OFF_BOARD_TOL` (or beyond
    :data:`NO_BOARD_REACH` without a board): pixel coordinates taken as metres. ``data``
    must be in input order: the message names the first such row by its position."""
    reach = np.hypot(data["x"].to_numpy(), data["y"].to_numpy()) if board is None or board.shape == "round" else (
        np.maximum(np.abs(data["x"].to_numpy()), np.abs(data["y"].to_numpy())))  # fmt: skip
    limit = NO_BOARD_REACH if board is None else board.half_size + OFF_BOARD_TOL
    off = reach > limit
    if off.any():
        row = int(np.argmax(off))  # the first offending row (positions of the input)
        where = "" if board is None else f" ({board.name} board, half size {board.half_size:g} m, + {OFF_BOARD_TOL:g} m)"
        raise ValueError(
            f"{who} must hold board coordinates in metres, within {limit:g} m of the centre{where}. "
            f"Got (x, y) = ({data['x'].iat[row]:g}, {data['y'].iat[row]:g}) {who.at(row)} instead: pixel coordinates? "
            "Give a camera calibration (calibration=BoardCalibration.from_scale(px_per_m, origin_px=...), or "
            "units 'px' and a calibration in the sidecar JSON)."
        )


def _board_from(value: Board | str | Mapping[str, Any] | None) -> Board | None:
    if value is None or isinstance(value, Board):
        return value
    if isinstance(value, str):  # named as the 'board' the user passed, not Board.preset's 'name'
        return Board.preset(check_choice("board", value, BOARD_PRESETS))
    if isinstance(value, Mapping) and {"name", "shape", "size"} <= set(value):
        if value["name"] in BOARD_PRESETS:
            preset = Board.preset(value["name"])
            if preset.size == value["size"] and preset.shape == value["shape"]:
                return preset
        return Board(str(value["name"]), value["shape"], value["size"])
    raise ValueError(
        "The 'board' parameter must be a Board, a preset name, a mapping with name, shape and size, "
        f"or None. Got {value!r} instead."
    )


def _checked_radius(radius: float | Mapping[Any, float]) -> float | dict[int, float]:
    """A radius, m, or radii by disc id (keys read as integers: a JSON sidecar's are strings), checked."""
    if not isinstance(radius, Mapping):
        return check_real("radius", radius, low=0.0, high=0.1, low_open=True, unit="m")
    out = {}
    for k, v in radius.items():
        try:
            disc = int(k)
        except (TypeError, ValueError):
            raise ValueError(f"The 'radius' parameter must be keyed by disc ids (integers). Got the key {k!r} instead.") from None
        out[disc] = check_real(f"radius[{k}]", v, low=0.0, high=0.1, low_open=True, unit="m")
    return out


def _radius_map(radius: float | Mapping[Any, float] | None, discs: np.ndarray) -> dict[int, float]:
    if radius is None:
        return {}
    checked = _checked_radius(radius)
    if not isinstance(checked, dict):
        return {int(d): checked for d in discs}
    absent = [int(d) for d in discs if int(d) not in checked]
    if absent:
        raise ValueError(
            f"The 'radius' parameter must give the radius of every disc in the tracks. Got no radius for discs {absent} instead."
        )
    return checked


@dataclass(frozen=True, eq=False)
class Tracks:
    """Positions of discs over time, in board metres.

    Build with :meth:`from_frame` (a DataFrame in pixels or metres) or :func:`.read_tracks`
    (a CSV file and its sidecar).

    Parameters
    ----------
    data : pandas.DataFrame
        One row per detection: ``disc`` (int), ``t`` (s, strictly increasing within a disc),
        ``x``, ``y`` (m, board coordinates), optionally ``angle`` (rad, counter-clockwise on
        the board; known modulo 2 pi) and ``frame`` (int). Validated and copied; rows are
        sorted by disc, keeping each disc's time order.
    radius : mapping of int to float
        Disc radius by disc id, m (needed by spin-coupled friction laws and to classify
        impacts). Default: unknown.
    board : Board or None
        The board the shot was played on (needed to classify cushion impacts).
    fps : float or None
        Frame rate, frames/s (used to count missing frames).
    source : str
        Where the tracks came from (a file name), for reports.

    Raises
    ------
    ValueError
        For a missing column, an empty table, a NaN or infinite value, a non-integer disc
        id, a time that does not increase within a disc or a position off the board (pixel
        coordinates taken as metres); the message names the column, the first offending
        row (0-based position in the input) and the value. Also if the median time step
        between consecutive points of a disc exceeds :data:`.MAX_MEDIAN_STEP` (1 s): times
        not in seconds.

    Examples
    --------
    >>> df = pd.DataFrame({"disc": 0, "t": [0.0, 0.1, 0.2], "x": [0.0, 0.1, 0.19], "y": 0.0})
    >>> Tracks(df).discs
    [0]
    >>> Tracks(df, fps=10.0)
    Tracks(1 disc, 3 points over 0.2 s, 10 frames/s)
    >>> Tracks(df.assign(t=[0.0, 0.2, 0.1]))
    Traceback (most recent call last):
    ...
    ValueError: The 'data' parameter must have strictly increasing times t within each disc. Got t = 0.1 s after t = 0.2 s at row 2 (disc 0) instead.
    """

    data: pd.DataFrame
    radius: Mapping[int, float] = field(default_factory=dict)
    board: Board | None = None
    fps: float | None = None
    source: str = ""

    def __post_init__(self) -> None:
        data, board = _check_columns(self.data), _board_from(self.board)
        _check_on_board(data, board)  # before sorting: rows named as in the input
        _check_time_unit(data)
        fps = None if self.fps is None else check_real("fps", self.fps, low=0.0, low_open=True, unit="1/s")
        self._fill(data, _radius_map(dict(self.radius) or None, data["disc"].unique()), board, fps, self.source)

    def _fill(self, data: pd.DataFrame, radius: dict[int, float], board: Board | None, fps: float | None, source: str) -> None:
        """Set the fields from checked values (``data`` in input order, grouped by disc here)."""
        object.__setattr__(self, "data", data.sort_values("disc", kind="stable", ignore_index=True))
        object.__setattr__(self, "radius", radius)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "fps", fps)
        object.__setattr__(self, "source", source)

    @classmethod
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        calibration: BoardCalibration | None = None,
        fps: float | None = None,
        radius: float | Mapping[int, float] | None = None,
        board: Board | str | None = None,
        source: str = "",
    ) -> Tracks:
        """Tracks from a table in pixels (with a calibration) or in metres.

        Parameters
        ----------
        frame : pandas.DataFrame
            carromlab layout (``disc``, ``t`` or ``frame``, ``x``, ``y``, optional ``angle``)
            or trackpy layout (``frame``, ``particle``, ``x``, ``y``). Not modified.
        calibration : BoardCalibration, optional
            Pixel-to-board map; omit when ``x``, ``y`` are already board metres.
        fps : float, optional
            Frame rate, frames/s; required when the table has frames but no ``t``.
        radius : float or mapping of int to float, optional
            Disc radius, m: one value for every disc or one per disc id.
        board : Board or str, optional
            The board, or a preset name (``"icf"``, ``"hikone"``, ``"crokinole"``).
        source : str
            Label for reports.

        Returns
        -------
        Tracks

        Examples
        --------
        >>> px = pd.DataFrame({"frame": [0, 1, 3], "particle": 4, "x": [960.0, 970.0, 990.0], "y": 540.0})
        >>> cal = BoardCalibration.from_scale(1000.0, origin_px=(960.0, 540.0))
        >>> tr = Tracks.from_frame(px, calibration=cal, fps=100.0)
        >>> tr.data[["disc", "t", "x", "y"]].round(3).values.tolist()
        [[4.0, 0.0, 0.0, 0.0], [4.0, 0.01, 0.01, 0.0], [4.0, 0.03, 0.03, 0.0]]
        """
        return cls._from_table(frame, _Table("The 'frame' parameter"), calibration=calibration, fps=fps, radius=radius, board=board,
                               source=source)  # fmt: skip

    @classmethod
    def _from_table(
        cls,
        frame: pd.DataFrame,
        who: _Table,
        *,
        calibration: BoardCalibration | None,
        fps: float | None,
        radius: float | Mapping[int, float] | None,
        board: Board | str | None,
        source: str,
    ) -> Tracks:
        """:meth:`from_frame`, its errors naming the table as ``who`` (the 'frame'
        parameter, or the track file read by :func:`read_tracks` and its lines)."""
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"{who} must be a pandas DataFrame. Got {value_text(frame)} instead.")
        df = frame.copy()
        names: dict[str, str] = {}  # carromlab's column -> the name in the given table, for messages
        if "disc" not in df.columns and "particle" in df.columns:
            df = df.rename(columns={"particle": "disc"})
            names["disc"] = "particle"
        missing = [c for c in ("disc", "x", "y") if c not in df.columns] + ([] if {"t", "frame"} & set(df.columns) else ["t or frame"])
        if missing:
            raise ValueError(
                f"{who} must have the columns disc (or particle), t (or frame, with fps), x, y "
                f"(optional: angle). Got columns {list(frame.columns)} instead (missing {missing})."
            )
        if fps is not None:
            fps = check_real("fps", fps, low=0.0, low_open=True, unit="1/s")
        if "t" not in df.columns:
            if "frame" not in df.columns or fps is None:
                raise ValueError(
                    "The 'fps' parameter must be given (frames/s) when the tracks have a 'frame' column "
                    f"but no time column 't'. Got fps={fps!r} and columns {list(frame.columns)} instead."
                )
            df["t"] = _finite_column(df, "frame", None, who) / fps  # a bad time is the user's bad frame
        df = _check_columns(df, names, who)
        if calibration is not None:
            x, y = calibration.to_board(df["x"].to_numpy(), df["y"].to_numpy())
            df["x"], df["y"] = x, y
            if "angle" in df:
                df["angle"] = calibration.angle_sign * df["angle"]
        if "frame" not in df and fps is not None:
            df["frame"] = np.round(df["t"].to_numpy() * fps).astype(np.int64)
        radius_map = _radius_map(radius, df["disc"].unique())
        board_obj = _board_from(board)
        _check_on_board(df, board_obj, who)  # checked here to name the table as the user gave it
        _check_time_unit(df, who)
        tracks = cls.__new__(cls)  # checked: __init__ would check it again, as its 'data'
        tracks._fill(df, radius_map, board_obj, fps, source)
        return tracks

    def __repr__(self) -> str:
        # one line: the dataclass repr printed the whole table and the board
        t = self.data["t"]
        parts = [
            f"{len(self.discs)} disc{'s' * (len(self.discs) != 1)}, {len(self.data)} points over {t.max() - t.min():.3g} s",
            *([f"{self.board.name} board"] if self.board is not None else []),
            *([f"{self.fps:g} frames/s"] if self.fps is not None else []),
            *(["angles"] if self.has_angle else []),
        ]
        return f"Tracks({self.source + ': ' if self.source else ''}{', '.join(parts)})"

    # -- derived -------------------------------------------------------------------
    @property
    def discs(self) -> list[int]:
        """Disc ids, ascending."""
        return sorted(int(d) for d in self.data["disc"].unique())

    @property
    def has_angle(self) -> bool:
        """Whether the tracks carry disc orientations (an ``angle`` column)."""
        return "angle" in self.data

    def disc(self, disc: int) -> pd.DataFrame:
        """The rows of one disc, in time order (a copy)."""
        return self.data[self.data["disc"] == disc].reset_index(drop=True)

    @cached_property
    def position_noise(self) -> float:
        """Robust estimate of the position noise, m, pooled over discs and both coordinates:
        1.4826 times the median absolute normalised second difference of consecutive
        positions (straight-line motion cancels; impacts and outliers barely move a median)."""
        return self._noise(["x", "y"], wrap=False)

    @cached_property
    def angle_noise(self) -> float:
        """Robust estimate of the orientation noise, rad (NaN without an ``angle`` column)."""
        return self._noise(["angle"], wrap=True) if self.has_angle else math.nan

    def _noise(self, columns: list[str], *, wrap: bool) -> float:
        # 1.4826 x median absolute value: a Gaussian scale that impacts and outliers do not move
        parts = [
            _second_differences(g["t"].to_numpy(), g[columns].to_numpy(), wrap=wrap)
            for _, g in self.data.groupby("disc", sort=True)
            if len(g) >= 3
        ]
        d2 = np.concatenate(parts) if parts else np.empty(0)
        return float(1.4826 * np.median(np.abs(d2))) if d2.size else math.nan

    def report(self) -> pd.DataFrame:
        """One row per disc: ``disc``, ``n_points``, ``t_start``, ``t_end`` (s),
        ``missing_frames`` (frames without a detection between the first and last, from
        ``frame`` or ``fps``; NaN if unknown), ``longest_gap`` (s, largest time step) and
        ``radius`` (m, NaN if unknown).

        Examples
        --------
        >>> df = pd.DataFrame({"disc": 0, "frame": [0, 1, 4], "t": [0.0, 0.01, 0.04], "x": 0.0, "y": 0.0})
        >>> Tracks(df).report()[["n_points", "missing_frames"]].values.tolist()
        [[3, 2]]
        """
        rows = []
        for d, g in self.data.groupby("disc", sort=True):
            t = g["t"].to_numpy()
            frames = g["frame"].to_numpy() if "frame" in g else None
            missing = frames[-1] - frames[0] + 1 - len(frames) if frames is not None else math.nan
            rows.append(
                {
                    "disc": int(d), "n_points": len(g), "t_start": t[0], "t_end": t[-1],
                    "missing_frames": missing, "longest_gap": float(np.max(np.diff(t), initial=0.0)),
                    "radius": self.radius.get(int(d), math.nan),
                }  # fmt: skip
            )
        return pd.DataFrame(rows)


def _sidecar_path(path: Path) -> Path:
    return path.with_suffix(".json")


def _board_to_dict(board: Board) -> dict[str, Any]:
    return {"name": board.name, "shape": board.shape, "size": board.size}


def read_tracks(
    path: str | Path,
    *,
    calibration: BoardCalibration | None = None,
    fps: float | None = None,
    radius: float | Mapping[int, float] | None = None,
    board: Board | str | None = None,
) -> Tracks:
    """Read a track file (CSV) and its optional JSON sidecar into board metres.

    Parameters
    ----------
    path : str or Path
        The CSV file (carromlab or trackpy layout, see the module docstring). A sidecar
        with the same name and a ``.json`` suffix, if present, supplies ``units``
        (``"px"`` or ``"m"``), ``fps``, ``calibration`` (see
        :meth:`BoardCalibration.from_dict`), ``board`` and ``radius``.
    calibration, fps, radius, board
        Override the sidecar (see :meth:`Tracks.from_frame`).

    Returns
    -------
    Tracks

    Raises
    ------
    ValueError
        If the sidecar's units are neither ``"px"`` nor ``"m"``, the sidecar says ``"m"``
        and a calibration is given, the file is in pixels and no calibration is known, or a
        check of :class:`Tracks` fails (the message names the file and the line, 1-based
        with the header as line 1, of the first offending row).

    Examples
    --------
    >>> from carromlab.fitting import data_path
    >>> tr = read_tracks(data_path("cushion_shot.csv"))
    >>> tr.discs, tr.board.name
    ([0, 1], 'icf')
    """
    path = Path(path)
    meta: dict[str, Any] = {}
    side = _sidecar_path(path)
    if side.exists():
        meta = parse_json(read_text(side, "track sidecar"), side, "track sidecar")
        if not isinstance(meta, dict):
            raise ValueError(f"The track sidecar {str(side)!r} must hold a JSON object (units, fps, calibration, ...). Got {meta!r:.60} instead.")
    units = meta.get("units", "m")
    if units not in ("px", "m"):  # "cm", "mm", "pixels" would otherwise pass as pixels or metres
        raise ValueError(
            f"The track sidecar {str(side)!r} must give units \"px\" or \"m\" (convert other units to metres "
            f"or give a pixel calibration). Got {units!r} instead."
        )
    frame, lines = _read_csv(path)
    if calibration is None and "calibration" in meta:
        calibration = _from_sidecar(side, "calibration", BoardCalibration.from_dict, meta["calibration"])
    if meta.get("units") == "m" and calibration is not None:
        # a pixel calibration applied to metres moves every point near the image origin
        raise ValueError(
            f"The track sidecar {str(side)!r} gives units \"m\" and a pixel calibration is given too (in the "
            "sidecar or as 'calibration'): tracks in metres take no calibration, pixel tracks need units \"px\"."
        )
    if units == "px" and calibration is None:
        raise ValueError(
            f"The 'calibration' parameter must be given for track files in pixels ({path.name} has units 'px' "
            "and its sidecar has no calibration). Got None instead."
        )
    if radius is None and "radius" in meta:
        radius = _from_sidecar(side, "radius", _checked_radius, meta["radius"])
    if board is None and "board" in meta:
        board = _from_sidecar(side, "board", _board_from, meta["board"])
    if fps is None and meta.get("fps") is not None:  # "fps": null is no frame rate, as before
        fps = _from_sidecar(side, "fps", lambda v: check_real("fps", v, low=0.0, low_open=True, unit="1/s"), meta["fps"])
    return Tracks._from_table(
        frame,
        _Table(f"The track file {str(path)!r}", lines),
        calibration=calibration,
        fps=fps,
        radius=radius,
        board=board,
        source=path.name,
    )


def _from_sidecar(side: Path, key: str, make: Any, value: Any) -> Any:
    """``make(value)`` for the entry ``key`` of the sidecar ``side``; its error names the sidecar."""
    try:
        return make(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"The track sidecar {str(side)!r} must give a valid {key}: {exc}") from None


def _read_csv(path: Path) -> tuple[pd.DataFrame, np.ndarray]:
    """The CSV table at ``path`` and the line of the file (1-based) each of its rows came
    from; errors name the file (and line)."""
    text = read_text(path, "track file")
    frame, lines = parse_csv(text, path, "track file", "a CSV table (disc, t, x, y or trackpy's frame, particle, x, y)")
    return frame, np.array(lines)


def write_tracks(
    frame: pd.DataFrame,
    path: str | Path,
    *,
    units: str,
    calibration: BoardCalibration | None = None,
    fps: float | None = None,
    radius: Mapping[int, float] | None = None,
    board: Board | None = None,
    extra: Mapping[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Write a track table as CSV with a JSON sidecar that :func:`.read_tracks` understands.

    Parameters
    ----------
    frame : pandas.DataFrame
        Track rows (carromlab or trackpy layout), written as they are.
    path : str or Path
        CSV file to write; the sidecar gets the same name with a ``.json`` suffix.
    units : {"px", "m"}
        Units of the ``x``, ``y`` columns.
    calibration : BoardCalibration, optional
        Required for ``units="px"``; not allowed for ``units="m"``.
    fps : float, optional
        Frame rate, frames/s.
    radius : mapping of int to float, optional
        Disc radii, m.
    board : Board, optional
        The board (stored as name, shape and size).
    extra : mapping, optional
        Further JSON-serialisable metadata (e.g. how the file was generated).

    Returns
    -------
    csv_path, sidecar_path : Path

    Examples
    --------
    >>> import tempfile
    >>> df = pd.DataFrame({"disc": 0, "t": [0.0, 0.01, 0.02], "x": [0.0, 0.01, 0.02], "y": 0.0})
    >>> with tempfile.TemporaryDirectory() as d:
    ...     csv, _ = write_tracks(df, Path(d) / "a.csv", units="m", fps=100.0)
    ...     read_tracks(csv).fps
    100.0
    """
    if units not in ("px", "m"):
        raise ValueError(f"The 'units' parameter must be one of ['m', 'px']. Got {units!r} instead.")
    if units == "px" and calibration is None:
        raise ValueError("The 'calibration' parameter must be given for units='px'. Got None instead.")
    if units == "m" and calibration is not None:  # read_tracks would refuse the file
        raise ValueError(f"The 'calibration' parameter must be None for units='m'. Got {calibration!r} instead.")
    path = Path(path)
    meta: dict[str, Any] = {"format": SIDECAR_FORMAT[0], "version": SIDECAR_FORMAT[1], "units": units}
    if fps is not None:
        meta["fps"] = fps
    if calibration is not None:
        meta["calibration"] = calibration.to_dict()
    if board is not None:
        meta["board"] = _board_to_dict(board)
    if radius:
        meta["radius"] = {str(k): v for k, v in radius.items()}
    meta.update(extra or {})
    frame.to_csv(path, index=False)
    side = _sidecar_path(path)
    side.write_text(json.dumps(meta, indent=2) + "\n")
    return path, side
