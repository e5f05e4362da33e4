"""Robust losses as error models: the loss of a fit and the likelihood of its residuals.

SciPy's ``least_squares`` minimises ``0.5 sum(k^2 rho_s((u / k)^2))`` over standardised
residuals ``u = r / sigma`` with ``f_scale = k``. Each loss here is read as the error density
``p(u) = exp(-rho(u)) / Z`` with ``rho(u) = 0.5 k^2 rho_s(u^2 / k^2)``, a proper density for
the three losses offered ("linear" is the Gaussian). That gives, with one reading:

* the fit (a maximum-likelihood fit of the location parameters at a fixed scale),
* the noise scale sigma (its maximum-likelihood value given the residuals),
* a log-likelihood for AIC and BIC that a few gross outliers cannot dominate (under the
  Gaussian they would: one 40-pixel outlier outweighs a thousand good points),
* the covariance of the estimates by Huber's formula for M-estimators, ``K^2 A^-1 B A^-1``
  with ``A = sum_c mean_c(psi') J_c^T J_c`` and ``B = sum_c s_c^2 J_c^T J_c`` (P. J. Huber,
  *Robust Statistics*, 1981, sec. 7.6), channel by channel so that each channel keeps its
  own effective noise level (see ``friction_fit._covariance``); for the Gaussian it is
  ``s^2 (J^T J)^-1``.

The tuning constants k give 95 % efficiency at Gaussian noise: 1.345 for Huber's loss
(P. J. Huber, *Robust Statistics*, Wiley, 1981, doi:10.1002/0471725250; P. W. Holland and
R. E. Welsch, *Commun. Stat.* 6, 813, 1977, doi:10.1080/03610927708827533) and 1.287 for
the soft-l1 (pseudo-Huber) loss [CALC, by quadrature].
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import k1e, ndtr

from .._validation import check_choice


@dataclass(frozen=True)
class Loss:
    """A robust loss: its SciPy name, tuning constant k, and its error density."""

    name: str
    k: float

    def rho(self, u: np.ndarray) -> np.ndarray:
        """Negative log-density of standardised residuals, up to the constant log Z."""
        k = self.k
        if self.name == "linear":
            return 0.5 * u**2
        if self.name == "huber":
            a = np.abs(u)
            return np.where(a <= k, 0.5 * u**2, k * a - 0.5 * k * k)
        return k * k * (np.sqrt(1.0 + (u / k) ** 2) - 1.0)

    def psi(self, u: np.ndarray) -> np.ndarray:
        """Derivative of :meth:`rho`."""
        if self.name == "linear":
            return u
        if self.name == "huber":
            return np.clip(u, -self.k, self.k)
        return u / np.sqrt(1.0 + (u / self.k) ** 2)

    def dpsi(self, u: np.ndarray) -> np.ndarray:
        """Second derivative of :meth:`rho`."""
        if self.name == "linear":
            return np.ones_like(u)
        if self.name == "huber":
            return (np.abs(u) <= self.k).astype(float)
        return (1.0 + (u / self.k) ** 2) ** -1.5

    def weight(self, u: np.ndarray) -> np.ndarray:
        """Weight psi(u) / u of each residual in the fit: 1 for a fully counted point,
        smaller for a point the loss down-weights."""
        with np.errstate(invalid="ignore", divide="ignore"):
            w = self.psi(u) / u
        return np.where(u == 0.0, 1.0, w)

    @property
    def log_norm(self) -> float:
        """log of Z = integral of exp(-rho(u)) du."""
        k = self.k
        if self.name == "linear":
            return 0.5 * math.log(2.0 * math.pi)
        if self.name == "huber":
            return math.log(math.sqrt(2.0 * math.pi) * (2.0 * ndtr(k) - 1.0) + 2.0 * math.exp(-0.5 * k * k) / k)
        return math.log(2.0 * k * k1e(k * k))

    def loglik(self, r: np.ndarray, sigma: float) -> float:
        """Log-likelihood of residuals ``r`` at scale ``sigma``."""
        return float(-np.sum(self.rho(r / sigma)) - r.size * (math.log(sigma) + self.log_norm))

    @property
    def gaussian_scale(self) -> float:
        """Maximum-likelihood scale of Gaussian noise of unit standard deviation (1 for
        "linear", 0.871 for Huber's loss, 0.741 for soft-l1), by Gauss-Hermite quadrature:
        a fit's noise scale over this is the sigma of Gaussian noise."""
        u, w = np.polynomial.hermite_e.hermegauss(101)
        w = w / math.sqrt(2.0 * math.pi)
        res = minimize_scalar(
            lambda ls: float(np.sum(w * self.rho(u / math.exp(ls)))) + ls,
            bounds=(-3.0, 3.0),
            method="bounded",
            options={"xatol": 1e-8},
        )
        return float(math.exp(res.x))

    def scale(self, r: np.ndarray, start: float) -> float:
        """Maximum-likelihood scale of residuals ``r`` (closed form for the Gaussian)."""
        if self.name == "linear":
            return float(math.sqrt(np.mean(r**2)))
        res = minimize_scalar(
            lambda ls: -self.loglik(r, math.exp(ls)),
            bounds=(math.log(start) - 7.0, math.log(start) + 7.0),
            method="bounded",
            options={"xatol": 1e-6},
        )
        return float(math.exp(res.x))


def gaussian_sigma(r: np.ndarray, leverage: np.ndarray) -> float:
    """Gaussian-equivalent standard deviation of residuals ``r``: 1.4826 times the median of
    ``|r| / sqrt(1 - h)`` (the median absolute deviation, consistent for Gaussian noise,
    and robust to outliers; each residual rescaled by its leverage h, the share of its
    noise the fitted parameters absorb). Whatever the loss, this is the sigma of the
    noise's Gaussian core; a loss's maximum-likelihood scale is not (Huber's at k = 1.345
    is 0.87 sigma for Gaussian noise)."""
    return float(1.4826 * np.median(np.abs(r) / np.sqrt(1.0 - leverage)))


LOSSES = {"linear": Loss("linear", 1.0), "huber": Loss("huber", 1.345), "soft_l1": Loss("soft_l1", 1.287)}


def get_loss(name: str) -> Loss:
    """Look a loss up by name (``"linear"``, ``"huber"``, ``"soft_l1"``)."""
    return LOSSES[check_choice("loss", name, LOSSES)]
