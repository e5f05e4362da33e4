"""Parameter checks that name the parameter, the allowed range and the value received."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["check_real", "check_int", "check_choice", "check_array"]


def _number(x: float) -> str:
    return str(x) if isinstance(x, (int, np.integer)) else f"{x:g}"


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
    ValueError
        ``The 'mu' parameter must be a finite real number in the range (0, 2]. Got -1 instead.``
    """
    rng = _range_text(low, high, low_open, high_open) + (f" {unit}" if unit else "")
    msg = f"The {name!r} parameter must be a finite real number in the range {rng}. Got {value!r} instead."
    if isinstance(value, bool):
        raise ValueError(msg)
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(msg) from None
    if not math.isfinite(x):
        raise ValueError(msg)
    if low is not None and (x < low or (low_open and x == low)):
        raise ValueError(msg)
    if high is not None and (x > high or (high_open and x == high)):
        raise ValueError(msg)
    return x


def check_int(name: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int if it is an integer inside ``[low, high]``, else raise ValueError."""
    rng = _range_text(low, high, False, False)
    msg = f"The {name!r} parameter must be an int in the range {rng}. Got {value!r} instead."
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(msg)
    v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(msg)
    return v


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing them."""
    options = sorted(choices)
    if not isinstance(value, str) or value not in options:
        raise ValueError(
            f"The {name!r} parameter must be one of {options}. Got {value!r} instead."
        )
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
    the first offending element.
    """
    arr = np.asarray(value, dtype=float)
    if shape is not None:
        ok = arr.ndim == len(shape) and all(s is None or s == n for s, n in zip(shape, arr.shape))
        if not ok:
            want = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ")"
            raise ValueError(
                f"The {name!r} parameter must have shape {want}. Got shape {arr.shape} instead."
            )
    rng = _range_text(low, None if high is None else high, low_open, False) + (f" {unit}" if unit else "")
    bad = ~np.isfinite(arr)
    if low is not None:
        bad |= (arr <= low) if low_open else (arr < low)
    if high is not None:
        bad |= arr > high
    if bad.any():
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
