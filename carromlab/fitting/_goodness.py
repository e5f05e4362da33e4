"""Goodness of fit from the residuals: the runs test on their signs, and the warning a
suspect fit emits.

A model that follows the data leaves residuals whose signs alternate at random; a model
that misses a feature of the motion (an impact the detector did not see, a wrong friction
law) leaves long runs of one sign. The Wald–Wolfowitz runs test (A. Wald and J. Wolfowitz,
*Ann. Math. Stat.* 11, 147, 1940, doi:10.1214/aoms/1177731909) compares the number of runs
R of n1 positive and n2 negative signs with its mean 2 n1 n2 / n + 1 and variance
2 n1 n2 (2 n1 n2 - n) / (n^2 (n - 1)) under independence (normal approximation).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr

__all__ = ["FitWarning", "runs_test"]


class FitWarning(UserWarning):
    """A fit failed its goodness-of-fit check: its estimates and intervals are suspect."""


def runs_test(residuals: np.ndarray) -> tuple[int, float, float]:
    """Runs of the signs of ``residuals`` (zeros skipped): (runs, expected runs, one-sided
    p-value of so few runs); p is NaN when every residual has the same sign or there are
    fewer than two of each.

    Examples
    --------
    >>> runs_test(np.array([1.0, 2.0, 3.0, 4.0, -1.0, -2.0, -3.0, -4.0]))[:2]
    (2, 5.0)
    """
    s = np.sign(residuals[residuals != 0.0])
    n1 = int(np.sum(s > 0))
    n2 = len(s) - n1
    runs = 1 + int(np.sum(s[1:] != s[:-1])) if len(s) else 0
    if n1 < 2 or n2 < 2:
        return runs, math.nan, math.nan
    n = n1 + n2
    mean = 2.0 * n1 * n2 / n + 1.0
    var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0))
    return runs, mean, float(ndtr((runs - mean) / math.sqrt(var)))
