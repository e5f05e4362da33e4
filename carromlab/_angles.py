"""Angles given in radians or in degrees (``angle`` / ``angle_deg``), and the ``_deg``
columns of output tables.

Every public entry point that takes an angle in radians also takes it in degrees under the
same name with ``_deg`` appended. A radian value beyond one full turn (2 pi) is almost
certainly degrees typed in the wrong place, so it is an error that names the ``_deg``
spelling; in degrees the same turn bounds the value (+-360); giving both spellings is an
error too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
import pandas as pd

from ._validation import check_array, check_real

__all__ = ["TURN", "angle_array", "angle_value", "with_deg_columns"]

#: Largest magnitude of an angle given in radians: one full turn, 2 pi rad.
TURN = 2.0 * math.pi


def _pick(name: str, rad: object, deg: object, *, required: bool) -> tuple[object, bool]:
    """The given value and whether it is in degrees."""
    if rad is not None and deg is not None:
        raise ValueError(f"Give the angle either as {name!r} (rad) or as '{name}_deg' (degrees), not both. Got {name}={rad!r} and {name}_deg={deg!r}.")
    if rad is None and deg is None and required:
        raise ValueError(f"The {name!r} parameter (rad) or '{name}_deg' (degrees) is required.")
    return (deg, True) if deg is not None else (rad, False)


def angle_array(name: str, rad: npt.ArrayLike | None, deg: npt.ArrayLike | None, *, required: bool = True) -> npt.NDArray[np.float64] | None:
    """An angle (or array of angles) in radians from its radian or degree spelling.

    Parameters
    ----------
    name : str
        The radian parameter's name (``"angle"``); the degree one is ``name + "_deg"``.
    rad, deg : array_like or None
        The value in radians, or in degrees; at most one of them.
    required : bool
        Whether one of them must be given. Default True.

    Returns
    -------
    numpy.ndarray or None
        Radians (at least 1-D), or None when neither is given and ``required`` is False.

    Raises
    ------
    ValueError
        If both or (when required) neither are given, a value is not finite, a radian
        value lies beyond +-2 pi (the message suggests the ``_deg`` spelling) or a degree
        value beyond +-360.

    Examples
    --------
    >>> angle_array("angle", None, [90.0, -45.0]).round(4).tolist()
    [1.5708, -0.7854]
    >>> angle_array("angle", [90.0], None)
    Traceback (most recent call last):
    ...
    ValueError: The 'angle' parameter is in radians and must lie in [-2π, 2π] (±6.283 rad). Got 90 rad (5156.6 degrees) instead; did you mean angle_deg=90?
    """
    value, in_deg = _pick(name, rad, deg, required=required)
    if value is None:
        return None
    if in_deg:
        return np.radians(np.atleast_1d(check_array(f"{name}_deg", value, low=-360.0, high=360.0, unit="deg")))
    arr = np.atleast_1d(check_array(name, value, unit="rad"))
    beyond = np.abs(arr) > TURN
    if beyond.any():
        raise _beyond_turn(name, float(arr[np.argmax(beyond)]))
    return arr


def _beyond_turn(name: str, v: float) -> ValueError:
    """The error for a radian value ``v`` beyond one full turn (degrees typed as radians)."""
    return ValueError(
        f"The {name!r} parameter is in radians and must lie in [-2π, 2π] (±{TURN:.3f} rad). Got {v:g} rad "
        f"({math.degrees(v):.1f} degrees) instead; did you mean {name}_deg={v:g}?"
    )


def angle_value(name: str, rad: float | None, deg: float | None) -> float:
    """One angle in radians from its radian or degree spelling (see :func:`angle_array`).

    Examples
    --------
    >>> round(angle_value("angle", None, 180.0), 4)
    3.1416
    """
    value, in_deg = _pick(name, rad, deg, required=True)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        # anything but one plain number: the array checks (and their messages)
        arr = angle_array(name, rad, deg)
        assert arr is not None
        if arr.size != 1:
            raise ValueError(f"The {name!r} parameter must be one number. Got {arr.size} values instead.")
        return float(arr[0])
    x = check_real(f"{name}_deg", value, low=-360.0, high=360.0, unit="deg") if in_deg else check_real(name, value, unit="rad")
    if in_deg:
        return math.radians(x)
    if abs(x) > TURN:
        raise _beyond_turn(name, x)
    return x


def with_deg_columns(df: pd.DataFrame, columns: Iterable[str]) -> pd.DataFrame:
    """``df`` with a ``<column>_deg`` column (degrees) right after each radian column
    present (in place; returned for chaining).

    Examples
    --------
    >>> with_deg_columns(pd.DataFrame({"angle": [math.pi], "speed": [2.0]}), ["angle", "cut"]).columns.tolist()
    ['angle', 'angle_deg', 'speed']
    """
    for col in columns:
        if col in df.columns and f"{col}_deg" not in df.columns:
            df.insert(df.columns.get_loc(col) + 1, f"{col}_deg", np.degrees(df[col].to_numpy(dtype=float)))
    return df
