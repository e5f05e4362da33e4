"""Angles given in radians or in degrees (``angle`` / ``angle_deg``), and the ``_deg``
columns of output tables.

Every public entry point that takes an angle in radians also takes it in degrees under the
same name with ``_deg`` appended. A radian value beyond one full turn (2 pi) is almost
certainly degrees typed in the wrong place, so it is an error that names the ``_deg``
spelling; in degrees the same turn bounds the value (+-360); giving both spellings is an
error too. An angle with a narrower range (a spread, a limit) is bounded alike in both
spellings, and a radian value outside it that would be inside it read as degrees also
suggests the ``_deg`` spelling.
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
        raise TypeError(f"The {name!r} parameter (rad) or '{name}_deg' (degrees) is required.")
    return (deg, True) if deg is not None else (rad, False)


def angle_array(
    name: str, rad: npt.ArrayLike | None, deg: npt.ArrayLike | None, *, required: bool = True, bound: float = TURN,
) -> npt.NDArray[np.float64] | None:  # fmt: skip
    """An angle (or array of angles) in radians from its radian or degree spelling.

    Parameters
    ----------
    name : str
        The radian parameter's name (``"angle"``); the degree one is ``name + "_deg"``.
    rad, deg : array_like or None
        The value in radians, or in degrees; at most one of them.
    required : bool
        Whether one of them must be given. Default True.
    bound : float
        Largest magnitude of the angle, rad, at most one turn; the degree spelling's is the
        same in degrees. Default one turn, 2 pi.

    Returns
    -------
    numpy.ndarray or None
        Radians (at least 1-D), or None when neither is given and ``required`` is False.

    Raises
    ------
    TypeError
        If neither is given and one is required (as Python does for a missing argument).
    ValueError
        If both are given, a value is not finite, or a value
        lies beyond ``bound`` (a radian value that is likely degrees, beyond one turn or
        inside ``bound`` when read as degrees, gets a message that suggests the ``_deg``
        spelling).

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
        limit = math.degrees(bound)
        return np.radians(np.atleast_1d(check_array(f"{name}_deg", value, low=-limit, high=limit, unit="deg")))
    arr = np.atleast_1d(check_array(name, value, unit="rad"))
    beyond = np.abs(arr) > bound
    if beyond.any():
        v = float(arr[np.argmax(beyond)])
        if bound == TURN:
            raise _beyond_turn(name, v)
        if abs(v) > TURN or abs(math.radians(v)) <= bound:
            raise _suggest_deg(name, v, f"[{-bound:g}, {bound:g}] rad")
        check_array(name, arr, low=-bound, high=bound, unit="rad")  # raises: not degrees either
    return arr


def _beyond_turn(name: str, v: float) -> ValueError:
    """The error for a radian value ``v`` beyond one full turn (degrees typed as radians)."""
    return _suggest_deg(name, v, "[-2π, 2π] (±6.283 rad)")


def _suggest_deg(name: str, v: float, allowed: str) -> ValueError:
    """The error for a radian value ``v`` outside ``allowed`` that is likely degrees."""
    return ValueError(
        f"The {name!r} parameter is in radians and must lie in {allowed}. Got {v:g} rad "
        f"({math.degrees(v):.1f} degrees) instead; did you mean {name}_deg={v:g}?"
    )


def angle_value(
    name: str, rad: float | None, deg: float | None, *, default: float | None = None,
    low: float = -TURN, high: float = TURN, low_open: bool = False,
) -> float:  # fmt: skip
    """One angle in radians from its radian or degree spelling (see :func:`angle_array`).

    Parameters
    ----------
    name : str
        The radian parameter's name (``"angle"``); the degree one is ``name + "_deg"``.
    rad, deg : float or None
        The value in radians, or in degrees; at most one of them.
    default : float, optional
        Radians to return when neither is given. Default None: one of them is required.
    low, high : float
        Range of the angle, rad; the degree spelling's range is the same in degrees.
        Default one turn either way, [-2 pi, 2 pi].
    low_open : bool
        Whether ``low`` itself is excluded. Default False.

    Returns
    -------
    float
        Radians.

    Raises
    ------
    TypeError
        If neither is given and there is no default.
    ValueError
        If both are given, or the value is not one finite
        number inside the range. A radian value outside the range that is likely degrees
        (beyond one turn, or inside the range when read as degrees) gets a message that
        suggests the ``_deg`` spelling.

    Examples
    --------
    >>> round(angle_value("angle", None, 180.0), 4)
    3.1416
    >>> angle_value("spread", 2, None, low=0.0, high=math.pi / 4)
    Traceback (most recent call last):
    ...
    ValueError: The 'spread' parameter is in radians and must lie in [0, 0.785398] rad. Got 2 rad (114.6 degrees) instead; did you mean spread_deg=2?
    """
    value, in_deg = _pick(name, rad, deg, required=default is None)
    if value is None:
        assert default is not None
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        # anything but one plain number: the array checks (and their messages)
        arr = np.atleast_1d(check_array(f"{name}_deg", value, unit="deg") if in_deg else check_array(name, value, unit="rad"))
        if arr.size != 1:
            raise ValueError(f"The {name!r} parameter must be one number. Got {arr.size} values instead.")
        value = float(arr[0])
    if in_deg:
        low_deg, high_deg = math.degrees(low), math.degrees(high)
        return math.radians(check_real(f"{name}_deg", value, low=low_deg, high=high_deg, low_open=low_open, unit="deg"))
    x = check_real(name, value, unit="rad")
    if low < x <= high or x == low and not low_open:
        return x
    if (low, high) == (-TURN, TURN):
        raise _beyond_turn(name, x)
    if abs(x) > TURN or low < math.radians(x) <= high or math.radians(x) == low and not low_open:
        raise _suggest_deg(name, x, f"{'(' if low_open else '['}{low:g}, {high:g}] rad")
    return check_real(name, value, low=low, high=high, low_open=low_open, unit="rad")  # raises: not degrees either


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
