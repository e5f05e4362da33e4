"""Binomial confidence intervals."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from carromlab.analysis import binomial_ci, clustered_binomial_ci


@given(n=st.integers(1, 500), frac=st.floats(0.0, 1.0), level=st.sampled_from([0.8, 0.95, 0.99]))
def test_intervals_match_scipy_and_contain_the_estimate(n, frac, level):
    k = int(round(frac * n))
    for method, scipy_method in (("wilson", "wilson"), ("clopper-pearson", "exact")):
        low, high = binomial_ci(k, n, method=method, confidence=level)
        ref = binomtest(k, n).proportion_ci(confidence_level=level, method=scipy_method)
        assert low[0] == pytest.approx(ref.low, abs=1e-9)
        assert high[0] == pytest.approx(ref.high, abs=1e-9)
        assert 0.0 <= low[0] <= k / n <= high[0] <= 1.0


def test_wilson_ends_and_monotonicity():
    n = 40
    low, high = binomial_ci(np.arange(n + 1), n)
    assert low[0] == 0.0 and high[-1] == 1.0
    assert np.all(np.diff(low) > 0) and np.all(np.diff(high) > 0)
    wide = binomial_ci(np.arange(n + 1), n, confidence=0.99)
    assert np.all(wide[0] <= low) and np.all(wide[1] >= high)


def test_wilson_coverage_is_close_to_nominal(rng):
    p, n = 0.3, 50
    k = rng.binomial(n, p, size=20000)
    low, high = binomial_ci(k, n)
    assert 0.93 <= np.mean((low <= p) & (p <= high)) <= 0.97


def test_empty_cells_and_errors():
    low, high = binomial_ci([0, 3], [0, 4])
    assert np.isnan(low[0]) and np.isnan(high[0]) and np.isfinite(low[1])
    with pytest.raises(ValueError, match="0 <= k <= n. Got k=5, n=4"):
        binomial_ci(5, 4)
    with pytest.raises(ValueError, match="'method'"):
        binomial_ci(1, 4, method="wald")
    with pytest.raises(ValueError, match="'confidence'"):
        binomial_ci(1, 4, confidence=1.0)


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
def test_clustered_interval_covers_the_proportion_of_correlated_clusters(rng, method):
    # 100 clusters of 20 trials whose success probabilities vary (beta, intra-cluster correlation
    # 0.5, mean 0.3): the plain interval of the 2000 trials covers p about half the time; the
    # clustered one holds 95 % within 0.02 (Monte-Carlo error 0.003 over 4000 studies)
    p, rho, m, r = 0.3, 0.5, 100, 20
    a, b = p * (1 / rho - 1), (1 - p) * (1 / rho - 1)
    counts = rng.binomial(r, rng.beta(a, b, size=(4000, m)))
    low, high, n_eff = clustered_binomial_ci(counts, r, method=method)
    assert 0.93 <= np.mean((low <= p) & (p <= high)) <= 0.98
    assert np.all((m <= n_eff) & (n_eff <= m * r))
    plain = binomial_ci(counts.sum(axis=1), m * r, method=method)
    assert np.mean((plain[0] <= p) & (p <= plain[1])) < 0.6


def test_clustered_interval_of_single_trials_is_the_binomial_one():
    counts = np.array([[0, 1, 1, 0, 1, 0, 0, 0], [0] * 8, [1] * 8])
    low, high, n_eff = clustered_binomial_ci(counts, 1, method="clopper-pearson", confidence=0.9)
    ref = binomial_ci(counts.sum(axis=1), 8, method="clopper-pearson", confidence=0.9)
    np.testing.assert_allclose(low, ref[0], atol=1e-12)
    np.testing.assert_allclose(high, ref[1], atol=1e-12)
    assert n_eff.tolist() == [8.0, 8.0, 8.0]
    with pytest.raises(ValueError, match="'counts' parameter must lie in \\[0, size=1\\]. Got 2"):
        clustered_binomial_ci([0, 2], 1)


@pytest.mark.parametrize("n", [5, 10, 100])
def test_exact_coverage_as_documented(n):
    # coverage summed over the binomial pmf on 999 values of p: Clopper-Pearson never below 95 %;
    # Wilson near 95 % on average (within 0.01) but down to 0.83-0.90 next to p = 0 and 1, as its docstring says
    from scipy.stats import binom

    ps, k = np.linspace(0.001, 0.999, 999), np.arange(n + 1)
    pmf = binom.pmf(k[None, :], n, ps[:, None])
    for method in ("wilson", "clopper-pearson"):
        low, high = binomial_ci(k, n, method=method)
        coverage = np.sum(pmf * ((low <= ps[:, None]) & (ps[:, None] <= high)), axis=1)
        if method == "clopper-pearson":
            assert coverage.min() >= 0.95 - 1e-9
        else:
            assert abs(coverage.mean() - 0.95) < 0.01
            assert 0.82 < coverage.min() < 0.91
