"""Confidence intervals of a success probability estimated from k successes in n trials, and
of a mean estimated from independent draws."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.stats import beta, norm
from scipy.stats import t as student_t

from .._validation import check_array, check_choice, check_int, check_real

__all__ = ["CI_METHODS", "binomial_ci", "clustered_binomial_ci", "mean_ci"]

#: Interval methods: Wilson's score interval and the Clopper-Pearson exact interval.
CI_METHODS = ("wilson", "clopper-pearson")
#: Width of a confidence interval of a success rate above which a success map calls a cell
#: wide and its board hatches the cell's wedge (+-0.1: at 95 % a cell of 100 valid replicas
#: stays below it at any rate, one of 20 only at a rate of 0 or 1).
WIDE_INTERVAL = 0.2


def check_confidence(confidence: Any, default: float | None = None) -> float:
    """The level of a confidence interval: ``confidence``, a real number in (0, 1), else
    a TypeError or ValueError naming it; ``default`` when it is None and a default is
    given (a replay keeps the level of what it replays)."""
    if confidence is None and default is not None:
        return default
    return check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)


def binomial_ci(
    k: npt.ArrayLike, n: npt.ArrayLike, *, method: str = "wilson", confidence: float = 0.95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Two-sided confidence interval of a binomial proportion, vectorised.

    Parameters
    ----------
    k, n : array_like of int
        Successes and trials, 0 <= k <= n; broadcast against each other. Where n = 0 the
        interval is (nan, nan).
    method : {"wilson", "clopper-pearson"}
        ``"wilson"``: the score interval without continuity correction (E. B. Wilson,
        *J. Am. Stat. Assoc.* 22, 209, 1927, doi:10.1080/01621459.1927.10502953): its
        coverage averaged over p is close to the nominal level even for small n, but at
        p within about 1/n of 0 or 1 it falls below (at 95 %: down to 0.83 for n = 5,
        0.84 for n = 10, 0.90 for n = 100; L. D. Brown, T. T. Cai & A. DasGupta, *Stat.
        Sci.* 16, 101, 2001). ``"clopper-pearson"``: the exact interval from beta
        quantiles (C. J. Clopper & E. S. Pearson, *Biometrika* 26, 404, 1934,
        doi:10.1093/biomet/26.4.404), at least the nominal coverage for every p, wider.
        Prefer it for cells expected near p = 0 or 1. Default ``"wilson"``.
    confidence : float
        Confidence level, in (0, 1). Default 0.95.

    Returns
    -------
    low, high : numpy.ndarray of float64
        Bounds of the interval, in [0, 1].

    Examples
    --------
    >>> low, high = binomial_ci(10, 10)
    >>> round(float(low[0]), 4), float(high[0])
    (0.7225, 1.0)
    >>> [round(float(b[0]), 4) for b in binomial_ci(0, 10, method="clopper-pearson")]
    [0.0, 0.3085]
    """
    check_choice("method", method, CI_METHODS)
    level = check_confidence(confidence)
    k_arr, n_arr = np.broadcast_arrays(np.atleast_1d(check_array("k", k, low=0.0)), check_array("n", n, low=0.0))
    if np.any(k_arr > n_arr):  # (negative counts are refused by check_array)
        i = int(np.argmax(k_arr > n_arr))
        raise ValueError(f"The 'k' parameter must satisfy 0 <= k <= n. Got k={k_arr.flat[i]:g}, n={n_arr.flat[i]:g} instead.")
    alpha = 1.0 - level
    empty = n_arr == 0
    n_safe = np.where(empty, 1.0, n_arr)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "wilson":
            z = norm.ppf(1.0 - alpha / 2)
            p = k_arr / n_safe
            denom = 1.0 + z * z / n_safe
            centre = (p + z * z / (2 * n_safe)) / denom
            half = z / denom * np.sqrt(p * (1 - p) / n_safe + z * z / (4 * n_safe * n_safe))
            low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
            # exact ends: the score interval reaches 0 (k = 0) and 1 (k = n)
            low = np.where(k_arr == 0, 0.0, low)
            high = np.where(k_arr == n_arr, 1.0, high)
        else:
            low = np.where(k_arr == 0, 0.0, beta.ppf(alpha / 2, k_arr, n_safe - k_arr + 1))
            high = np.where(k_arr == n_arr, 1.0, beta.ppf(1 - alpha / 2, k_arr + 1, n_safe - k_arr))
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def clustered_binomial_ci(
    counts: npt.ArrayLike, size: int, *, method: str = "wilson", confidence: float = 0.95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Confidence interval of a proportion estimated from clusters of correlated trials.

    Each of m clusters holds ``size`` trials that share a cause (the noisy replicas of one
    drawn shot), so the m * size trials are not independent and :func:`binomial_ci` of
    their total would be too narrow. The variance of the proportion is estimated from the
    spread of the clusters' own proportions (the design effect of cluster sampling,
    L. Kish, *Survey Sampling*, Wiley, 1965), and the interval is :func:`binomial_ci` at the
    effective number of independent trials n_eff = p (1 - p) / var(p), bounded by
    [m, m * size] (E. L. Korn & B. I. Graubard, *Survey Methodology* 24, 193, 1998). With
    ``size`` = 1, or clusters whose proportions vary only by chance, this is the plain
    binomial interval. Where the proportion is 0 or 1 (no spread to measure) or there is
    one cluster, n_eff = m: every cluster counts as one trial.

    Parameters
    ----------
    counts : array_like of int
        Successes in each cluster, in [0, size]; the last axis runs over the clusters (at
        least one), any leading axes over separate proportions.
    size : int
        Trials per cluster, >= 1.
    method : {"wilson", "clopper-pearson"}
        As in :func:`binomial_ci`. Default ``"wilson"``.
    confidence : float
        Confidence level, in (0, 1). Default 0.95.

    Returns
    -------
    low, high : numpy.ndarray of float64
        Bounds of the interval, in [0, 1], one per proportion (the leading axes).
    n_eff : numpy.ndarray of float64
        Effective number of independent trials, in [m, m * size].

    Examples
    --------
    >>> low, high, n_eff = clustered_binomial_ci([0, 4, 0, 4, 0, 4], 4)  # whole clusters agree: 6 trials
    >>> float(n_eff[0]), [round(float(b[0]), 4) for b in (low, high)]
    (6.0, [0.1876, 0.8124])
    >>> [round(float(b[0]), 4) for b in binomial_ci(12, 24)]            # 24 independent trials
    [0.3143, 0.6857]
    """
    r = check_int("size", size, low=1)
    y = np.asarray(counts, dtype=float)
    if y.ndim == 0 or y.shape[-1] == 0:
        raise ValueError(f"The 'counts' parameter must hold at least one cluster. Got shape {y.shape} instead.")
    if np.any((y < 0) | (y > r)):
        raise ValueError(f"The 'counts' parameter must lie in [0, size={r}]. Got {y[(y < 0) | (y > r)].flat[0]:g} instead.")
    m = y.shape[-1]
    share = y / r
    p = share.mean(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = p * (1 - p) / (share.var(axis=-1, ddof=1) / m)
    measured = np.isfinite(ratio) & (p > 0) & (p < 1)
    n_eff = np.atleast_1d(np.where(measured, np.clip(ratio, m, m * r), float(m)))
    low, high = binomial_ci(p * n_eff, n_eff, method=method, confidence=confidence)
    return low, high, n_eff


def mean_ci(
    mean: npt.ArrayLike, sem: npt.ArrayLike, n: npt.ArrayLike, *, confidence: float = 0.95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Student t confidence interval of a mean of n independent draws, vectorised.

    The interval is mean +- t(n - 1) * sem, with sem = s / sqrt(n) from the sample
    standard deviation s (ddof = 1) and t(n - 1) the two-sided quantile of Student's t
    with n - 1 degrees of freedom ("Student", *Biometrika* 6, 1, 1908,
    doi:10.1093/biomet/6.1.1). It is exact for normal draws and, by the central limit
    theorem, close to the level for any draws of finite variance once n is large; with
    few draws of a skewed or mostly constant quantity it falls below the level (a
    sample whose draws are all equal has sem 0 and a zero-width interval).

    Parameters
    ----------
    mean, sem : array_like of float
        Sample means and their standard errors s / sqrt(n), in the draws' unit;
        broadcast against ``n``.
    n : array_like of int
        Draws behind each mean, >= 0. Where n < 2 (no spread to measure) the interval
        is (nan, nan).
    confidence : float
        Confidence level, in (0, 1). Default 0.95.

    Returns
    -------
    low, high : numpy.ndarray of float64
        Bounds of the interval, in the draws' unit.

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> low, high = mean_ci(x.mean(), x.std(ddof=1) / 2.0, 4)
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (0.4457, 4.5543)
    """
    level = check_confidence(confidence)
    n_arr = np.atleast_1d(check_array("n", n, low=0.0))
    m, se, n_arr = np.broadcast_arrays(np.asarray(mean, dtype=float), np.asarray(sem, dtype=float), n_arr)
    with np.errstate(invalid="ignore"):
        half = student_t.ppf(0.5 + level / 2, np.where(n_arr >= 2, n_arr - 1.0, np.nan)) * se
    return m - half, m + half
