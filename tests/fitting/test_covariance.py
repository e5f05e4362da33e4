"""The sandwich covariance of the fits against Monte Carlo spread on a linear model.

Two channels of residuals, as in a fit with positions and angles: parameter b0 is seen by
channel A only, b1 by both. Channel A's assumed noise scale is right, channel B's is half
the truth (a mis-estimated or misfitting channel). The reported standard errors must match
the spread of the estimates over repeated noise draws to within 10 % (200 draws: the
sampling error of a standard deviation is 5 %); a covariance pooled over the two channels
would be wrong for both parameters.
"""

import numpy as np
import pytest
from scipy.optimize import least_squares

from carromlab.fitting._robust import get_loss
from carromlab.fitting.friction_fit import _covariance

N = 300
SIGMA_A, SIGMA_B = 0.01, 0.02  # true noise
ASSUMED = np.r_[np.full(N, 0.01), np.full(N, 0.01)]  # channel B's scale assumed half the truth
CHANNEL = np.r_[np.zeros(N, dtype=int), np.ones(N, dtype=int)]


def design() -> np.ndarray:
    t = np.linspace(0.0, 1.0, N)
    a = np.c_[np.ones(N), t]  # channel A: b0 + b1 t
    b = np.c_[np.zeros(N), 1.0 + t**2]  # channel B: b1 (1 + t^2)
    return np.r_[a, b]


@pytest.mark.parametrize("loss", ["linear", "huber"])
def test_standard_errors_match_the_spread(loss):
    X, lossfn = design(), get_loss(loss)
    beta = np.array([0.5, -0.2])
    rng = np.random.default_rng(11)
    estimates, ses = [], []
    for _ in range(200):
        y = X @ beta + np.r_[rng.normal(0.0, SIGMA_A, N), rng.normal(0.0, SIGMA_B, N)]

        def res(b, y=y):
            return (X @ b - y) / ASSUMED

        fit = least_squares(res, np.zeros(2), loss=lossfn.name, f_scale=lossfn.k)
        cov, bad, _ = _covariance(X / ASSUMED[:, None], res(fit.x), lossfn, CHANNEL)
        assert bad == []
        estimates.append(fit.x)
        ses.append(np.sqrt(np.diag(cov)))
    spread = np.std(estimates, axis=0, ddof=1)
    np.testing.assert_allclose(np.mean(ses, axis=0), spread, rtol=0.10)


def test_unidentifiable_columns_are_named():
    X = design()
    X = np.c_[X, X[:, 0]]  # a third parameter that only repeats the first
    u = np.random.default_rng(0).normal(size=len(X))
    cov, bad, _ = _covariance(X, u, get_loss("huber"), CHANNEL)
    assert bad == [0, 2] and np.isnan(cov[0, 0]) and np.isfinite(cov[1, 1]) and cov[1, 1] > 0


def test_covariance_runs_on_one_blas_thread(monkeypatch):
    """The covariance's SVDs run on one BLAS thread, as the solver's do: threaded OpenBLAS
    made each of them hundreds of times slower while another process kept a core busy
    (1.3 s rather than 1 ms for a 982 x 45 Jacobian of a docstring example)."""
    from threadpoolctl import threadpool_info

    threads = []
    svd = np.linalg.svd

    def counting_svd(*args, **kwargs):
        threads.append(max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"))
        return svd(*args, **kwargs)

    monkeypatch.setattr(np.linalg, "svd", counting_svd)
    _covariance(design(), np.zeros(2 * N), get_loss("huber"), CHANNEL)
    assert threads == [1, 1]
