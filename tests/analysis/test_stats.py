"""Binomial confidence intervals and the Student t interval of a mean."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest
from scipy.stats import t as student_t

from carromlab.analysis import binomial_ci, clustered_binomial_ci, mean_ci


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


#: Scores of 2000 noisy ICF breaks (default weights, 6 m/s at the pack from the centre of the
#: baseline, club noise), value: count; skewed and discrete, as break scores are.
ICF_SCORES = {-2.0: 1, -1.5: 1, -1.0: 11, -0.5: 108, 0.0: 582, 0.5: 138, 1.0: 350, 1.5: 259, 2.0: 415, 2.5: 23,
              3.0: 104, 4.0: 8}  # fmt: skip


@given(n=st.integers(2, 500), level=st.sampled_from([0.8, 0.95, 0.99]), mean=st.floats(-10, 10), sem=st.floats(0, 5))
def test_mean_interval_matches_scipy(n, level, mean, sem):
    low, high = mean_ci(mean, sem, n, confidence=level)
    ref = student_t.interval(level, n - 1, loc=mean, scale=sem) if sem > 0 else (mean, mean)
    assert low[0] == pytest.approx(ref[0], abs=1e-9) and high[0] == pytest.approx(ref[1], abs=1e-9)


def test_mean_interval_needs_two_draws_and_a_level():
    low, high = mean_ci([1.0, 1.0, np.nan], [0.1, np.nan, np.nan], [1, 0, 0])
    assert np.isnan(low).all() and np.isnan(high).all()
    with pytest.raises(ValueError, match="'confidence'"):
        mean_ci(1.0, 0.1, 10, confidence=0.0)
    with pytest.raises(ValueError, match="'n'"):
        mean_ci(1.0, 0.1, -1)


@pytest.mark.parametrize("draws, n", [("normal", 5), ("icf break scores", 100)])
def test_mean_interval_covers_the_mean_at_its_level(rng, draws, n):
    # 20,000 samples of n draws, the interval of each from its mean and s / sqrt(n) (ddof 1):
    # exact for normal draws; for the skewed break scores the central limit theorem brings it
    # within 0.005 of 95 % at 100 draws (measured 0.948). Tolerance: 0.006 for the normal draws
    # (4 Monte-Carlo standard errors), 0.011 for the scores (their 0.005 and 4 of those errors)
    k = 20000
    if draws == "normal":
        x, mu = rng.normal(3.0, 2.0, size=(k, n)), 3.0
    else:
        values, counts = np.array(list(ICF_SCORES)), np.array(list(ICF_SCORES.values()))
        x, mu = rng.choice(values, size=(k, n), p=counts / counts.sum()), float(values @ counts / counts.sum())
    low, high = mean_ci(x.mean(axis=1), x.std(axis=1, ddof=1) / np.sqrt(n), n)
    coverage = np.mean((low <= mu) & (mu <= high))
    assert abs(coverage - 0.95) <= (0.006 if draws == "normal" else 0.011)
