"""Fit a friction law's parameters to tracked positions of freely sliding discs.

Every usable segment (see :mod:`carromlab.fitting.segments`) is a disc sliding freely on a
straight line; it is fitted without the suspect points at its ends, which may lie across an
impact the camera did not resolve. Its model has *nuisance* parameters of its own, taken at the time
``t_ref`` of its first point: position ``x0``, ``y0`` (m), direction of travel (rad),
speed ``v0`` (m/s) and, when needed, spin ``omega0`` (rad/s) and orientation ``theta0``
(rad). The friction law's parameters (``mu``, ...) are shared by all segments. With
s(t), v(t), w(t) the law's free-sliding kinematics (the compiled engine's),

    x(t) = x0 + cos(direction) s(t - t_ref),    y(t) = y0 + sin(direction) s(t - t_ref),
    angle(t) = theta0 + integral of w from t_ref to t        (tracks with an ``angle``).

The spin is a nuisance parameter when it can matter: for a law that couples spin into
sliding (``slide_spin``), and for every law when the tracks carry angles (their spin-down
also depends on mu). Without angles its sign cannot be seen and it is fitted as >= 0.

The fit is :func:`scipy.optimize.least_squares` (trust-region reflective, bounded) on
residuals standardised by the noise scale of their channel (positions in m, angles in rad),
with a robust loss, a Jacobian that is exact where the model is linear (position, direction,
orientation offset) and by forward differences elsewhere, grouped so that one evaluation of
the model serves one nuisance parameter of every segment, and the noise scales re-estimated
by maximum likelihood until they settle (see :mod:`carromlab.fitting._robust`). With angles
the fit starts from a positions-only fit and spins fitted to the unwrapped angles, because
wrapped angle residuals have a local minimum every 2 pi. Unwrapping needs the disc to turn
by less than pi between consecutive frames: spins below pi times the frame rate (377 rad/s
at 120 fps); across a gap of dropped frames the turn is predicted from the spin the
neighbouring consecutive frames show (with no consecutive frames at all the limit is pi
times the frame rate over the largest gap in frames). Where the positions leave a law
parameter undetermined or on a bound, or the joint fit leaves angle residuals no tracker
makes (see :data:`.ANGLE_NOISE_LIMIT`), the joint fit is also started from the given
starting values, and the likelier of the fits is kept. A fit whose angle residuals stay
implausibly large, or whose spin turns the disc by more than pi between consecutive
frames, is flagged ``suspect`` with a :class:`FitWarning`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import OptimizeResult, least_squares
from scipy.stats import t as student_t

from .._validation import check_choice, check_int, check_real
from ..physics.friction import FrictionLaw, get_law
from ..physics.params import PhysicsParams, check_params
from ._goodness import FitWarning, runs_test
from ._kinematics import NOMINAL_RADIUS, free_slide, spin_moves_disc
from ._robust import Loss, gaussian_sigma, get_loss
from .segments import Segmentation, segmentation_of
from .tracks import Tracks

__all__ = ["FrictionFit", "fit_friction", "FITTABLE"]

#: Parameters the friction fit can estimate: (lower bound, upper bound, typical size), in
#: the units of :class:`~carromlab.physics.params.PhysicsParams`. Open lower bounds of
#: PhysicsParams are closed here a little above zero.
FITTABLE: dict[str, tuple[float, float, float]] = {
    "mu": (1e-6, 2.0, 0.1),
    "mu_v": (0.0, 10.0, 0.01),
    "mu_static": (1e-6, 2.0, 0.1),
    "stribeck_speed": (1e-4, 10.0, 0.1),
    "air_drag": (0.0, 10.0, 0.01),
}
#: Bounds and typical sizes of the nuisance parameters of a segment (the spin is >= 0 only
#: without angles, where its sign cannot be seen).
_NUISANCE = {
    "x0": (-np.inf, np.inf, 0.1),
    "y0": (-np.inf, np.inf, 0.1),
    "direction": (-np.inf, np.inf, 1.0),
    "v0": (0.0, 30.0, 1.0),
    "omega0": (-5000.0, 5000.0, 10.0),
    "theta0": (-np.inf, np.inf, 1.0),
}
#: A residual beyond this many times its channel's loss scale (``FrictionFit.noise_scale``)
#: is reported as an outlier.
OUTLIER_SIGMAS = 5.0
#: Chance that the goodness-of-fit check flags a fit of the right law to tracks whose
#: impacts were all seen (the runs tests of all segments together, Bonferroni).
MISFIT_ALPHA = 1e-4
#: Largest Gaussian-equivalent noise (rad) of a segment's angle residuals that a fit may leave
#: unflagged. Trackers measure orientations to a few hundredths of a radian; angles fitted in
#: a wrong 2 pi basin (a spin the angles cannot resolve) leave residuals spread over
#: (-pi, pi], about 2.3 rad.
ANGLE_NOISE_LIMIT = 0.5
_REL_STEP = 1e-4  # forward differences: truncation ~1e-4 relative, engine error 5e-9 m / step


@dataclass(frozen=True, eq=False)
class FrictionFit:
    """Result of :func:`.fit_friction`.

    Attributes
    ----------
    law : str
        Name of the fitted friction law.
    params : PhysicsParams
        The base parameters with ``friction_law`` and the estimates filled in: a ready
        preset (see :func:`carromlab.fitting.save_calibration`).
    estimates : pandas.DataFrame
        One row per law parameter: ``parameter``, ``estimate``, ``std_error``, ``ci_low``,
        ``ci_high`` (95 % Wald interval: estimate +- the Student t quantile with n - p
        degrees of freedom times the standard error, clipped to the allowed range), ``at_bound`` (the estimate sits on a bound of its range: its
        interval is then only indicative). Units of PhysicsParams.
    covariance : pandas.DataFrame
        Covariance of the law parameters (rows and columns named by parameter).
    full_covariance : pandas.DataFrame
        Covariance of every fitted parameter: the law parameters (as in ``covariance``),
        then each segment's nuisance parameters, named ``"<name>[<segment>]"`` (e.g.
        ``"v0[3]"``); the fitted speed's standard error (:meth:`curves`) needs the
        covariance of the law parameters with a segment's ``v0`` and ``omega0``. Rows and
        columns of a parameter the data cannot identify are NaN.
    segments : pandas.DataFrame
        One row per fitted segment: ``segment``, ``disc``, ``t_ref``, ``t_end`` (s),
        ``n_points``, ``radius`` (m), the nuisance estimates ``x0``, ``y0`` (m),
        ``direction`` (rad), ``v0`` (m/s), ``omega0`` (rad/s), ``theta0`` (rad) (NaN when
        not fitted) and their standard errors ``*_se``.
    residuals : pandas.DataFrame
        One row per fitted point: ``disc``, ``segment``, ``t`` (s), ``x``, ``y``, ``x_fit``,
        ``y_fit``, ``res_x``, ``res_y`` (data minus fit, m); with angles also ``angle``,
        ``angle_fit``, ``res_angle`` (rad, wrapped into (-pi, pi]); ``weight`` (smallest
        weight the robust loss gave the point's residuals: 1 = fully counted) and
        ``outlier`` (a residual beyond :data:`.OUTLIER_SIGMAS` times its channel's
        ``noise_scale``), over all channels; the same per channel: ``weight_position``,
        ``outlier_position`` (x or y) and, with angles, ``weight_angle``, ``outlier_angle``.
    noise : dict of str to float
        Gaussian-equivalent standard deviation of the noise of each channel:
        ``"position"`` (m, per coordinate) and, with angles, ``"angle"`` (rad): the
        leverage-corrected median absolute residual times 1.4826, which is the sigma of
        Gaussian noise whatever the loss, and of the Gaussian core of noise with outliers.
    noise_scale : dict of str to float
        The loss's maximum-likelihood scale of each channel, the unit the residuals are
        standardised by (for "linear" the root-mean-square residual; for Huber's loss
        about 0.87 ``noise`` with Gaussian noise).
    suspect : bool
        The goodness-of-fit check failed (see ``warnings``): some residuals run in long
        stretches of one sign, as when an impact was missed or the law is wrong; or, with
        angles, a segment's angle residuals have a noise above :data:`.ANGLE_NOISE_LIMIT` or
        its fitted spin turns the disc by more than pi between consecutive frames (a spin
        the angles cannot resolve). The estimates and intervals are then not to be trusted.
        A :class:`FitWarning` was emitted.
    warnings : tuple of str
        What the check found, one message per failing segment and direction (and per
        segment failing the angle check).
    loss : str
        The loss used.
    loglik : float
        Log-likelihood of the residuals under the loss's error model.
    n_obs : int
        Number of residuals (two per point, plus one per angle).
    n_params : int
        Number of fitted parameters: law, nuisance and noise scales.
    aic, bic : float
        Akaike and Bayesian information criteria, 2 k - 2 log L and k log n - 2 log L.
    success : bool
        Whether the optimiser reported convergence.
    message : str
        The optimiser's message, and a note for parameters that cannot be identified.
    """

    law: str
    params: PhysicsParams
    estimates: pd.DataFrame
    covariance: pd.DataFrame
    full_covariance: pd.DataFrame
    segments: pd.DataFrame
    residuals: pd.DataFrame
    noise: dict[str, float]
    noise_scale: dict[str, float]
    suspect: bool
    warnings: tuple[str, ...]
    loss: str
    loglik: float
    n_obs: int
    n_params: int
    aic: float
    bic: float
    success: bool
    message: str

    def __repr__(self) -> str:
        est = ", ".join(f"{r.parameter} = {r.estimate:.4g} +- {r.std_error:.2g}" for r in self.estimates.itertuples())
        return (
            f"FrictionFit({self.law}: {est}; position noise {self.noise['position'] * 1e3:.2g} mm, "
            f"{len(self.segments)} segments, BIC {self.bic:.1f}{'' if self.success else '; not converged'})"
        )

    def _repr_html_(self) -> str:
        from ..plotting.display import figure_png, rich_html

        def draw(ax: Any) -> None:
            r = self.residuals
            ax.plot(r["x"], r["y"], ".", ms=2, color="0.5", label="tracked")
            for _, g in r.groupby("segment"):
                ax.plot(g["x_fit"], g["y_fit"], color="#1565c0", lw=1.2)
            ax.plot([], [], color="#1565c0", label="fitted")
            ax.set_aspect("equal")
            ax.set_xlabel("x (m)")
            ax.set_ylabel("y (m)")
            ax.legend(fontsize="x-small")

        rows = {"law": self.law, "loss": self.loss, "segments": len(self.segments), "points": len(self.residuals),
                "position noise": f"{self.noise['position'] * 1e3:.3g} mm", "AIC / BIC": f"{self.aic:.1f} / {self.bic:.1f}",
                "converged": self.success}  # fmt: skip
        return rich_html(f"FrictionFit: {self.law}", rows, picture=figure_png(draw), table=self.estimates)

    def table(self) -> pd.DataFrame:
        """The estimates with the law's name, ready to print or concatenate.

        Examples
        --------
        >>> from carromlab.fitting import read_tracks, data_path
        >>> fit = fit_friction(read_tracks(data_path("slide_shot.csv")), "coulomb")
        >>> fit.table().columns.tolist()
        ['law', 'parameter', 'estimate', 'std_error', 'ci_low', 'ci_high', 'at_bound']
        """
        return self.estimates.assign(law=self.law)[["law", *self.estimates.columns]]

    def curves(self, n: int = 200) -> pd.DataFrame:
        """The fitted motion of every segment on a fine time grid.

        Parameters
        ----------
        n : int
            Points per segment, >= 2. Default 200.

        Returns
        -------
        pandas.DataFrame
            ``segment``, ``disc``, ``t`` (s), ``x``, ``y`` (m), ``speed`` (m/s), ``omega``
            (rad/s), ``speed_se`` (m/s): the standard error of the fitted speed, by the
            delta method from ``full_covariance`` over the law parameters and the segment's
            ``v0`` (and ``omega0`` when fitted); NaN where one of them is not identifiable.

        Examples
        --------
        >>> from carromlab.fitting import read_tracks, data_path
        >>> fit = fit_friction(read_tracks(data_path("slide_shot.csv")), "coulomb")
        >>> float(fit.curves()["speed"].min()) >= 0.0
        True
        """
        law = get_law(self.law)
        frames = []
        for row in self.segments.itertuples(index=False):
            t = np.linspace(row.t_ref, row.t_end, n)
            w0 = 0.0 if np.isnan(row.omega0) else row.omega0
            s, v, w, _ = free_slide(law, self.params, row.radius, row.v0, w0, t - row.t_ref, with_angle=False)
            frames.append(
                pd.DataFrame(
                    {
                        "segment": row.segment, "disc": row.disc, "t": t,
                        "x": row.x0 + math.cos(row.direction) * s, "y": row.y0 + math.sin(row.direction) * s,
                        "speed": v, "omega": w, "speed_se": self._speed_se(law, row, t - row.t_ref, v),
                    }  # fmt: skip
                )
            )
        return pd.concat(frames, ignore_index=True)

    def _speed_se(self, law: FrictionLaw, row: Any, dt: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Standard error (m/s) of the fitted speed ``v`` of segment ``row`` at ``dt`` (s)
        after its start: sqrt(g^T C g), g the speed's gradient in the law parameters, v0 and
        omega0 (forward differences of a hundredth of a standard error, towards the inside
        of the bounds), C their block of ``full_covariance``."""
        own = ["v0"] + ([] if np.isnan(row.omega0) else ["omega0"])
        names = [*self.covariance.index, *own]
        labels = [*self.covariance.index, *(f"{name}[{row.segment}]" for name in own)]
        cov = self.full_covariance.loc[labels, labels].to_numpy()
        values = {**{name: float(getattr(self.params, name)) for name in self.covariance.index},
                  "v0": float(row.v0), "omega0": 0.0 if np.isnan(row.omega0) else float(row.omega0)}  # fmt: skip
        grad = np.zeros((len(names), len(v)))
        for k, name in enumerate(names):
            h = 0.01 * math.sqrt(cov[k, k]) if cov[k, k] > 0.0 else 0.0  # NaN and 0: no step
            if h == 0.0:
                continue
            if values[name] + h > (FITTABLE[name][1] if name in FITTABLE else _NUISANCE[name][1]):
                h = -h
            moved = {**values, name: values[name] + h}
            params = self.params.with_(**{p: moved[p] for p in self.covariance.index})
            grad[k] = (free_slide(law, params, row.radius, moved["v0"], moved["omega0"], dt, with_angle=False)[1] - v) / h
        return np.sqrt(np.maximum(np.einsum("in,ij,jn->n", grad, cov, grad), 0.0))


@dataclass
class _Segment:
    segment: int
    disc: int
    t_ref: float
    t: np.ndarray  # relative to t_ref, s
    x: np.ndarray
    y: np.ndarray
    angle: np.ndarray | None
    radius: float
    stamp: np.ndarray  # the times as the tracks give them, s: the points of one frame share theirs


@dataclass
class _Model:
    """The least-squares problem: parameter layout, residuals and their Jacobian."""

    law: FrictionLaw
    base: PhysicsParams
    names: tuple[str, ...]
    local: tuple[str, ...]
    segs: list[_Segment]
    sigma: dict[str, float]
    jitter: float = 0.0
    #: the loss's maximum-likelihood scale of unit Gaussian noise (Loss.gaussian_scale)
    gaussian_scale: float = 1.0
    rows: list[slice] = field(default_factory=list)
    _cache: tuple[bytes, list] | None = None
    #: the timing whitening: unit vectors b_hat of every frame as the columns of a sparse
    #: (residuals x frames) matrix, and the frames' factors f
    _white: tuple[sparse.csr_array, np.ndarray] | None = None

    def __post_init__(self) -> None:
        start = 0
        angle_rows = []
        for s in self.segs:
            n = len(s.t)
            width = n * (3 if self.angles else 2)
            self.rows.append(slice(start, start + width))
            angle_rows.append(np.arange(start + 2 * n, start + width))
            start += width
        self.n_res = start
        self.angle_rows = np.concatenate(angle_rows)
        stamps = np.concatenate([np.tile(s.stamp, 3 if self.angles else 2) for s in self.segs])
        #: the frame of every residual (an index into the distinct time stamps)
        self.frame = np.unique(stamps, return_inverse=True)[1].ravel()

    @property
    def angles(self) -> bool:
        """Whether the model has the angle channel."""
        return "theta0" in self.local

    @property
    def k(self) -> int:
        return len(self.names)

    @property
    def q(self) -> int:
        return len(self.local)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        lo = [FITTABLE[n][0] for n in self.names]
        hi = [FITTABLE[n][1] for n in self.names]
        spin_lo = _NUISANCE["omega0"][0] if self.angles else 0.0
        for _ in self.segs:
            lo += [spin_lo if n == "omega0" else _NUISANCE[n][0] for n in self.local]
            hi += [_NUISANCE[n][1] for n in self.local]
        return np.array(lo), np.array(hi)

    def typical(self) -> np.ndarray:
        return np.array([FITTABLE[n][2] for n in self.names] + [_NUISANCE[n][2] for n in self.local] * len(self.segs))

    def params(self, theta: np.ndarray) -> PhysicsParams:
        return self.base.with_(friction_law=self.law.name, **dict(zip(self.names, map(float, theta[: self.k]))))

    def local_values(self, theta: np.ndarray, j: int) -> dict[str, float]:
        """Nuisance parameters of segment ``j``, by name."""
        return dict(zip(self.local, theta[self.k + j * self.q : self.k + (j + 1) * self.q]))

    def slides(self, theta: np.ndarray) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """Distance slid (m) and angle turned (rad, or None) of every segment. The last
        evaluation is kept: least_squares asks for residuals and Jacobian at one point."""
        key = theta.tobytes()
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        params = self.params(theta)
        out = []
        for j, s in enumerate(self.segs):
            loc = self.local_values(theta, j)
            dist, _, _, turned = free_slide(
                self.law, params, s.radius, loc["v0"], loc.get("omega0", 0.0), s.t, with_angle=self.angles
            )
            out.append((dist, turned))
        self._cache = (key, out)
        return out

    def predict(self, theta: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
        """Fitted x, y (m) and angle (rad, or None) of every segment."""
        out = []
        for j, (dist, turned) in enumerate(self.slides(theta)):
            loc = self.local_values(theta, j)
            x = loc["x0"] + math.cos(loc["direction"]) * dist
            y = loc["y0"] + math.sin(loc["direction"]) * dist
            out.append((x, y, None if turned is None else loc["theta0"] + turned))
        return out

    def raw(self, theta: np.ndarray) -> dict[str, np.ndarray]:
        """Residuals fit minus data by channel, whitened for the timing jitter: ``position``
        (m), ``angle`` (rad, wrapped)."""
        u = self.residuals(theta)
        angle = self.channel == 1
        out = {"position": u[~angle] * self.sigma["position"]}
        if self.angles:
            out["angle"] = u[angle] * self.sigma["angle"]
        return out

    def residuals(self, theta: np.ndarray) -> np.ndarray:
        """Standardised residuals, segment after segment (x, y, then angle), whitened for
        the timing jitter (see :meth:`reweight`)."""
        return self.whiten(self._standardised(theta))

    def reweight(self, theta: np.ndarray) -> None:
        """Set the whitening for the frame-timing jitter at ``theta`` and the current noise
        scales (kept fixed until the next call, so that the Jacobian is that of a fixed
        linear map of the standardised residuals).

        A frame's timestamp error dt of standard deviation ``jitter`` moves each of its
        detections by g dt, g = (v cos(direction), v sin(direction)[, omega]) of its disc:
        the same dt for every channel of a point and for every disc in the frame. The
        standardised residuals e of a frame (all its discs' channels) then have a
        covariance proportional to I + b b^T, b = jitter g / sigma with sigma the Gaussian
        noise of each channel (its loss scale over ``gaussian_scale``), which
        e - (1 - 1 / sqrt(1 + |b|^2)) (b_hat . e) b_hat whitens (the effective variance
        of J. Orear, Am. J. Phys. 50, 912, 1982, doi:10.1119/1.12972, for a vector of
        residuals; frames are independent of one another). Treated disc by disc instead,
        the n discs sliding in one frame would count as n independent looks at the time
        error and, where it dominates, the intervals come out up to sqrt(n) too narrow."""
        if self.jitter == 0.0:
            return
        params = self.params(theta)
        sigma = {ch: value / self.gaussian_scale for ch, value in self.sigma.items()}
        g = []
        for j, s in enumerate(self.segs):
            loc = self.local_values(theta, j)
            _, v, w, _ = free_slide(self.law, params, s.radius, loc["v0"], loc.get("omega0", 0.0), s.t, with_angle=False)
            g += [v * math.cos(loc["direction"]) / sigma["position"], v * math.sin(loc["direction"]) / sigma["position"]]
            if self.angles:
                g.append(w / sigma["angle"])
        b = self.jitter * np.concatenate(g)  # in the order of the residuals
        size = np.sqrt(np.bincount(self.frame, weights=b**2))
        unit = np.divide(b, size[self.frame], out=np.zeros_like(b), where=size[self.frame] > 0.0)
        columns = sparse.csr_array((unit, (np.arange(self.n_res), self.frame)), shape=(self.n_res, len(size)))
        self._white = (columns, 1.0 - 1.0 / np.sqrt(1.0 + size**2))

    def whiten(self, a: np.ndarray) -> np.ndarray:
        """Residuals (or Jacobian rows) whitened for the timing jitter, in place."""
        if self._white is None:
            return a
        columns, f = self._white
        a -= columns @ (f.reshape(f.shape + (1,) * (a.ndim - 1)) * (columns.T @ a))
        return a

    def log_det(self) -> float:
        """Log-determinant of the whitening (0 without jitter): the log-likelihood's
        change of variables."""
        return 0.0 if self._white is None else float(np.sum(np.log1p(-self._white[1])))

    def _standardised(self, theta: np.ndarray) -> np.ndarray:
        """Residuals fit minus data over their channel's noise scale, segment after
        segment (x, y, then angle)."""
        out = np.empty(self.n_res)
        for s, sl, (x, y, a) in zip(self.segs, self.rows, self.predict(theta)):
            n = len(s.t)
            block = out[sl]
            block[:n] = (x - s.x) / self.sigma["position"]
            block[n : 2 * n] = (y - s.y) / self.sigma["position"]
            if a is not None:
                block[2 * n :] = _wrap(a - s.angle) / self.sigma["angle"]
        return out

    @property
    def channel(self) -> np.ndarray:
        """Channel of every residual: 0 for positions, 1 for angles."""
        out = np.zeros(self.n_res, dtype=int)
        out[self.angle_rows] = 1
        return out

    def jacobian(self, theta: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Jacobian of :meth:`residuals`: exact for position, direction and orientation
        offset; forward differences (backward at an upper bound) for the speed, the spin and
        the law's parameters. A nuisance parameter moves only its own segment's residuals,
        so it is perturbed in every segment at once."""
        # Fortran order: LAPACK's layout (a C-ordered J is copied by every SVD of the solver)
        J = np.zeros((self.n_res, len(theta)), order="F")
        base = self._standardised(theta)
        sp = self.sigma["position"]
        col = {name: i for i, name in enumerate(self.local)}
        for j, (s, sl, (dist, _)) in enumerate(zip(self.segs, self.rows, self.slides(theta))):
            n, r0, c0 = len(s.t), sl.start, self.k + j * self.q
            phi = theta[c0 + col["direction"]]
            J[r0 : r0 + n, c0 + col["x0"]] = 1.0 / sp
            J[r0 + n : r0 + 2 * n, c0 + col["y0"]] = 1.0 / sp
            J[r0 : r0 + n, c0 + col["direction"]] = -math.sin(phi) * dist / sp
            J[r0 + n : r0 + 2 * n, c0 + col["direction"]] = math.cos(phi) * dist / sp
            if self.angles:
                J[r0 + 2 * n : r0 + 3 * n, c0 + col["theta0"]] = 1.0 / self.sigma["angle"]
        h = _REL_STEP * np.maximum(np.abs(theta), self.typical())
        groups = [[i] for i in range(self.k)]
        groups += [[self.k + j * self.q + col[name] for j in range(len(self.segs))] for name in ("v0", "omega0") if name in col]
        for cols in groups:
            c = np.array(cols)
            step = np.where(theta[c] + h[c] <= hi[c], h[c], -h[c])
            tp = theta.copy()
            tp[c] += step
            diff = self._standardised(tp) - base
            if self.angles:
                sa = self.sigma["angle"]
                diff[self.angle_rows] = _wrap(diff[self.angle_rows] * sa) / sa
            if len(cols) == 1:
                J[:, cols[0]] = diff / step[0]
            else:
                for j, cj in enumerate(cols):
                    J[self.rows[j], cj] = diff[self.rows[j]] / step[j]
        return self.whiten(J)


def _wrap(a: np.ndarray) -> np.ndarray:
    """Angles wrapped into [-pi, pi)."""
    return (a + np.pi) % (2 * np.pi) - np.pi


def _initial_segment(s: _Segment, needs_spin: bool) -> dict[str, float]:
    """Starting values of a segment's position, direction, speed (and spin if it couples
    into sliding) from its first points."""
    m = min(len(s.t), 12)
    cx = np.polyfit(s.t[:m], s.x[:m], 2)
    cy = np.polyfit(s.t[:m], s.y[:m], 2)
    v = np.array([cx[1], cy[1]])
    first = np.median(np.c_[s.x[:3], s.y[:3]], axis=0)
    last = np.median(np.c_[s.x[-3:], s.y[-3:]], axis=0)
    d = last - first
    direction = math.atan2(d[1], d[0]) if np.hypot(*d) > 0 else math.atan2(v[1], v[0])
    v0 = float(np.clip(np.hypot(*v), 0.01, 29.0))
    out = {"x0": cx[2], "y0": cy[2], "direction": direction, "v0": v0}
    if needs_spin:
        # a spin of v0 / (3 R) starts the search where the spin clearly acts (eps = 3):
        # at zero spin the positions do not depend on it to first order
        out["omega0"] = v0 / (3.0 * s.radius)
    return out


def _consecutive(dt: np.ndarray) -> np.ndarray:
    """Which time steps (s, not empty) join consecutive frames: those within 1.5 times the
    shortest (a longer step spans dropped frames)."""
    return dt <= 1.5 * dt.min()


def _unwrap(t: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """Angles unwrapped across gaps of dropped frames. A step between consecutive frames
    (the shortest time step of the segment) is taken as the wrapped turn (below pi); a
    step across a gap as the turn the spin of the nearest consecutive frames predicts,
    plus the wrapped remainder, so a gap of k frames needs the spin to stay below pi times
    the frame rate and to change by less than pi per gap, not to turn by less than pi in
    k frames. Without two steps between consecutive frames, plain :func:`numpy.unwrap`."""
    dt = np.diff(t)
    turn = _wrap(np.diff(angle))
    if len(dt) == 0:
        return angle.astype(float)
    short = _consecutive(dt)
    if short.sum() < 2 or short.all():
        return np.unwrap(angle)
    mid = 0.5 * (t[1:] + t[:-1])
    spin = np.interp(mid, mid[short], turn[short] / dt[short])
    predicted = spin * dt
    steps = np.where(short, turn, predicted + _wrap(np.diff(angle) - predicted))
    return angle[0] + np.concatenate([[0.0], np.cumsum(steps)])


def _initial_angles(model: _Model, theta: np.ndarray, spin: dict[int, float]) -> list[tuple[float, float]]:
    """Spin and orientation of every segment fitted to its unwrapped angles, with the law
    and the speeds of a positions-only fit. Unwrapped angles (consecutive frames turning by
    less than pi) have no 2 pi ambiguity, so this start lies in the right basin of the
    joint fit, whose wrapped angle residuals have a local minimum every 2 pi."""
    params = model.params(theta)
    out = []
    for j, s in enumerate(model.segs):
        loc = dict(zip(model.local, theta[model.k + j * model.q : model.k + (j + 1) * model.q]))
        assert s.angle is not None  # called for tracks with angles only
        a = _unwrap(s.t, s.angle)
        m = min(len(s.t), 8)
        slope = float(np.polyfit(s.t[:m], a[:m], 1)[0])
        # starts: the angles' early slope and, for a spin-coupled law, the spin's size from
        # the positions-only fit with the angles' sign (on a short segment that size can be
        # far off, even at its bound): the start whose fit follows the angles better wins
        starts = [slope] + ([math.copysign(spin[j], slope)] if j in spin else [])

        def turned(w0: float) -> np.ndarray:
            angle = free_slide(model.law, params, s.radius, loc["v0"], w0, s.t, with_angle=True)[3]
            assert angle is not None  # with_angle=True
            return angle

        def res(w: np.ndarray) -> np.ndarray:
            r = a - turned(float(w[0]))
            return r - np.median(r)

        best = min((least_squares(res, [w], loss="soft_l1", f_scale=0.1) for w in starts), key=lambda r: r.cost)
        w0 = float(best.x[0])
        out.append((w0, float(np.median(a - turned(w0)))))
    return out


#: Parameters every law can fit besides its own: the engine's quadratic air drag acts under
#: every friction law.
ANY_LAW = ("air_drag",)


def _check_parameters(law: FrictionLaw, parameters: Sequence[str] | None) -> tuple[str, ...]:
    """The names to fit: keys of :data:`FITTABLE` that ``law`` uses (or ``air_drag``)."""
    if isinstance(parameters, str):  # else each letter would be taken for a parameter name
        raise TypeError(
            f"The 'parameters' parameter must be a sequence of parameter names, e.g. {(parameters,)!r}. "
            f"Got the string {parameters!r} instead."
        )
    names = tuple(law.parameters if parameters is None else parameters)
    allowed = list(law.parameters) + [n for n in ANY_LAW if n not in law.parameters]
    for n in names:
        check_choice("parameters", n, FITTABLE)
        if n not in allowed:
            raise ValueError(
                f"The 'parameters' parameter must name parameters the {law.name!r} law uses, one of {allowed!r}. "
                f"Got {n!r} instead (the {law.name!r} law does not use it, so the tracks cannot determine it)."
            )
    if len(set(names)) != len(names) or not names:
        raise ValueError(f"The 'parameters' parameter must name distinct fittable parameters. Got {list(names)!r} instead.")
    return names


def fit_friction(
    data: Tracks | Segmentation,
    law: str = "coulomb",
    *,
    params: PhysicsParams | None = None,
    parameters: Sequence[str] | None = None,
    initial: Mapping[str, float] | None = None,
    loss: str = "huber",
    max_passes: int = 4,
    timing_jitter: float = 0.0,
) -> FrictionFit:
    """Fit a friction law to the free-sliding segments of tracked discs.

    Parameters
    ----------
    data : Tracks or Segmentation
        Tracks (segmented with :func:`~carromlab.fitting.segment_tracks` defaults) or a
        segmentation (e.g. with given breaks).
    law : str
        Friction law name, one of :data:`carromlab.physics.friction.FRICTION_LAWS`.
        Default ``"coulomb"``.
    params : PhysicsParams, optional
        Values of everything not fitted (``g``, impacts, ...) and the starting values of
        the fitted parameters. Default ``PhysicsParams()``.
    parameters : sequence of str, optional
        Parameters to fit: any of the law's ``parameters`` (the others keep their values
        in ``params``), and ``"air_drag"``, which every law can fit. Default: the law's
        ``parameters``; add ``"air_drag"`` to fit drag too.
    initial : mapping of str to float, optional
        Starting values overriding ``params``.
    loss : {"huber", "soft_l1", "linear"}
        Loss of the least-squares fit. Default ``"huber"`` (robust to outliers; "linear" is
        ordinary least squares).
    max_passes : int
        Most fits with re-estimated noise scales, >= 1. Default 4 (the scales change by
        less than 2 % after two passes on typical tracks).
    timing_jitter : float
        Standard deviation of the errors of the tracks' times, s, >= 0: a camera whose
        frames are not taken at the times the file gives (a phone's variable frame rate
        written as a constant one). A time error dt moves a detection along its path by
        v dt (and turns it by omega dt), which the fit then counts as noise of that size
        (an errors-in-variables, effective-variance fit: a lone point is weighted along its
        path by sigma / sqrt(sigma^2 + (v timing_jitter)^2)). Every disc of a frame (the
        points with the same time) shares its time error, so their residuals are weighted
        together, with their correlation. Default 0 (exact times). Left out, a jitter
        whose v dt is comparable to the position noise makes the intervals too narrow (see
        docs/fitting.md).

    Returns
    -------
    FrictionFit

    Warns
    -----
    FitWarning
        When the fit is ``suspect`` (see :class:`FrictionFit`): residuals that run in long
        stretches of one sign, or, with angles, angle residuals noisier than
        :data:`.ANGLE_NOISE_LIMIT` or a spin turning the disc by more than pi between
        consecutive frames.

    Raises
    ------
    ValueError
        For an unknown law, loss or parameter, or a parameter the law does not use (say
        ``mu_v`` with the ``coulomb`` law); if no segment is usable (too few points,
        or no disc moving); if there are no more residuals than parameters; or if a
        spin-coupled law is fitted without disc radii.
    TypeError
        If ``params`` is not a PhysicsParams (a powder name points at
        :meth:`~carromlab.PhysicsParams.from_powder`).

    Examples
    --------
    >>> from carromlab.fitting import read_tracks, data_path
    >>> fit = fit_friction(read_tracks(data_path("slide_shot.csv")), "coulomb")
    >>> row = fit.estimates.iloc[0]
    >>> bool(row.ci_low < 0.12 < row.ci_high)   # the file was made with mu = 0.12
    True
    """
    friction = get_law(law, parameter="law")
    names = _check_parameters(friction, parameters)
    lossfn = get_loss(loss)
    # checked before use, so an error names initial['mu'], not PhysicsParams' mu
    for n, v in (initial or {}).items():
        check_real(f"initial[{n!r}]", v, low=FITTABLE[check_choice("initial", n, FITTABLE)][0], high=FITTABLE[n][1])
    base = check_params(params).with_(friction_law=friction.name, **dict(initial or {}))
    max_passes = check_int("max_passes", max_passes, low=1)
    jitter = check_real("timing_jitter", timing_jitter, low=0.0, high=1.0, unit="s")
    seg = segmentation_of(data)
    tracks = seg.tracks
    needs_spin = spin_moves_disc(friction, base)
    if needs_spin and not tracks.radius:
        raise ValueError(
            f"The 'radius' of the tracks must be known to fit the {friction.name!r} law, whose spin "
            "couples into sliding. Got tracks without radii instead."
        )
    segs = _segments(seg, tracks)
    local: tuple[str, ...] = ("x0", "y0", "direction", "v0")
    if tracks.has_angle:
        local += ("omega0", "theta0")
    elif needs_spin:
        local += ("omega0",)
    sigma = {"position": _positive(tracks.position_noise, 1e-4)}
    if tracks.has_angle:
        sigma["angle"] = _positive(tracks.angle_noise, 1e-2)
    model = _Model(friction, base, names, local, segs, sigma, jitter, lossfn.gaussian_scale)
    n_par = model.k + model.q * len(segs)
    if model.n_res <= n_par + len(sigma):
        raise ValueError(
            f"Too few points to fit the {friction.name!r} law: the usable segments give {model.n_res} residuals "
            f"for {n_par + len(sigma)} parameters. Track the discs over more frames."
        )
    starts = [_initial_segment(s, needs_spin) for s in segs]
    if not tracks.has_angle:
        theta, res = _solve(model, _pack(model, base, starts), lossfn, max_passes)
        return _announce(_result(model, theta, lossfn, res))
    # positions first, then spins from the unwrapped angles, then everything
    first = _Model(friction, base, names, local[:4] + (("omega0",) if needs_spin else ()), segs, {"position": sigma["position"]}, jitter, lossfn.gaussian_scale)
    theta1, _ = _solve(first, _pack(first, base, starts), lossfn, max_passes)
    for st, row in zip(starts, theta1[first.k :].reshape(len(segs), first.q)):
        st.update(zip(first.local, row))
    law_starts = [first.params(theta1)]
    if _law_undetermined(first, theta1, lossfn):
        # the spins are started under the law, so a law the positions left undetermined (say
        # mu_static of a shot that never slides slowly) can put them in wrong 2 pi basins:
        # the given starting values get their own joint fit, and the likelier fit is kept
        law_starts.append(base)
    fits = []
    for law_start in law_starts:
        th = theta1.copy()
        th[: first.k] = [getattr(law_start, n) for n in names]
        seg_starts = [dict(st) for st in starts]
        spins = {j: st["omega0"] for j, st in enumerate(seg_starts) if "omega0" in st}
        for st, (w0, a0) in zip(seg_starts, _initial_angles(first, th, spins)):
            st.update(omega0=w0, theta0=a0)
        joint = _Model(friction, base, names, local, segs, dict(sigma), jitter, lossfn.gaussian_scale)
        theta, res = _solve(joint, _pack(joint, law_start, seg_starts), lossfn, max_passes)
        fits.append((_loglik(joint, theta, lossfn), joint, theta, res))
        if len(law_starts) == 1 and _angle_misfit(joint, theta):
            # spins started under a law the positions got wrong (slide_spin trades mu for
            # spin) can end in wrong 2 pi basins: try the given starting values too
            law_starts.append(base)
    _, joint, theta, res = max(fits, key=lambda f: f[0])
    return _announce(_result(joint, theta, lossfn, res))


def _announce(fit: FrictionFit) -> FrictionFit:
    if fit.suspect:
        warnings.warn(f"The {fit.law!r} fit is suspect: " + "; ".join(fit.warnings), FitWarning, stacklevel=3)
    return fit


def _misfit(model: _Model, theta: np.ndarray) -> tuple[str, ...]:
    """The goodness-of-fit check: a runs test on the signs of every segment's position
    residuals along and across its direction of travel; the segments and directions whose
    p-value is below :data:`MISFIT_ALPHA` divided by the number of tests."""
    tests = []
    for j, (s, (x, y, _)) in enumerate(zip(model.segs, model.predict(theta))):
        phi = model.local_values(theta, j)["direction"]
        rx, ry = s.x - x, s.y - y
        for side, r in (("along", rx * math.cos(phi) + ry * math.sin(phi)), ("across", ry * math.cos(phi) - rx * math.sin(phi))):
            tests.append((s, side, *runs_test(r)))
    limit = MISFIT_ALPHA / max(len(tests), 1)
    return tuple(
        f"segment {s.segment} (disc {s.disc}, t = {s.t_ref:.3f}-{s.t_ref + s.t[-1]:.3f} s): the residuals {side} "
        f"the track change sign in {runs} runs where {mean:.1f} are expected (p = {p:.1e}); an impact the "
        "detector missed (give the breaks, or lower its threshold) or a law that does not fit"
        for s, side, runs, mean, p in tests
        if p < limit
    )


def _angle_misfit(model: _Model, theta: np.ndarray) -> tuple[str, ...]:
    """The angle check of a fit with angles: the segments whose angle residuals have a
    Gaussian-equivalent noise (1.4826 times their median absolute value) above
    :data:`.ANGLE_NOISE_LIMIT`, or whose fitted spin turns the disc by more than pi between
    consecutive frames (its shortest time step), where angles cannot tell it from its
    aliases; empty without angles."""
    if not model.angles:
        return ()
    out = []
    for j, (s, (_, _, a), (_, turned)) in enumerate(zip(model.segs, model.predict(theta), model.slides(theta))):
        assert s.angle is not None and a is not None and turned is not None  # a model with angles
        where = f"segment {s.segment} (disc {s.disc}, t = {s.t_ref:.3f}-{s.t_ref + s.t[-1]:.3f} s)"
        advice = (
            "film at a higher frame rate (or with fewer dropped frames), or fit the tracks without their "
            "angle column; the estimates are not to be trusted"
        )
        noise = 1.4826 * float(np.median(np.abs(_wrap(s.angle - a))))
        if noise > ANGLE_NOISE_LIMIT:
            out.append(
                f"{where}: the angle residuals have a noise of {noise:.2g} rad, implausibly large for tracked "
                f"angles (above {ANGLE_NOISE_LIMIT} rad; random angles give about 2.3 rad): the spin "
                f"({model.local_values(theta, j)['omega0']:.4g} rad/s at the start) is likely in a wrong 2 pi "
                f"basin, as when the disc turns by about pi or more between detections; {advice}"
            )
        dt = np.diff(s.t)
        if len(dt):
            turn = float(np.max(np.abs(np.diff(turned))[_consecutive(dt)]))
            if turn > math.pi:
                out.append(
                    f"{where}: the fitted spin turns the disc by up to {turn:.2f} rad between consecutive frames "
                    f"({dt.min() * 1e3:.3g} ms), more than pi: beyond what the angles can resolve (spins up to pi "
                    f"times the frame rate, {math.pi / dt.min():.0f} rad/s); {advice}"
                )
    return tuple(out)


def _law_undetermined(model: _Model, theta: np.ndarray, lossfn: Loss) -> bool:
    """Whether a law parameter of a fit is not identifiable or sits on a bound."""
    lo, hi = model.bounds()
    _, bad, _ = _covariance(model.jacobian(theta, lo, hi), model.residuals(theta), lossfn, model.channel)
    return any(i < model.k for i in bad) or bool(_at_bound(theta, lo, hi)[: model.k].any())


def _at_bound(theta: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Parameters within 1e-6 of their range (or of 1 for an open range) of a bound."""
    tol = 1e-6 * np.where(np.isfinite(hi - lo), hi - lo, 1.0)
    return (theta - lo <= tol) | (hi - theta <= tol)


def _loglik(model: _Model, theta: np.ndarray, lossfn: Loss) -> float:
    """Log-likelihood of a fit's residuals, every channel at its fitted noise scale."""
    return sum(lossfn.loglik(r, model.sigma[ch]) for ch, r in model.raw(theta).items()) + model.log_det()


def _pack(model: _Model, base: PhysicsParams, starts: list[dict[str, float]]) -> np.ndarray:
    """Parameter vector from starting values, nudged strictly inside the bounds."""
    lo, hi = model.bounds()
    theta = np.array([getattr(base, n) for n in model.names] + [st[n] for st in starts for n in model.local])
    pad = 1e-9 * np.where(np.isfinite(hi - lo), hi - lo, 1.0)
    return np.clip(theta, lo + pad, hi - pad)


def _single_thread_blas() -> AbstractContextManager[object]:
    """One BLAS thread while solving and for the covariance, when ``threadpoolctl`` is
    installed: their SVDs are small (a few thousand by a few dozen), and threaded OpenBLAS
    makes each of them hundreds of times slower as soon as another process keeps a core busy."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _solve(model: _Model, theta: np.ndarray, lossfn: Loss, max_passes: int) -> tuple[np.ndarray, OptimizeResult]:
    """Robust least squares, refitted while the maximum-likelihood noise scales move by
    more than 2 % (``model.sigma`` is updated in place)."""
    with _single_thread_blas():
        return _passes(model, theta, lossfn, max_passes)


def _passes(model: _Model, theta: np.ndarray, lossfn: Loss, max_passes: int) -> tuple[np.ndarray, OptimizeResult]:
    lo, hi = model.bounds()
    model.reweight(theta)
    for _ in range(max_passes):
        res = least_squares(
            model.residuals, theta, jac=lambda th: model.jacobian(th, lo, hi), bounds=(lo, hi),
            loss=lossfn.name, f_scale=lossfn.k, x_scale="jac", method="trf",
        )  # fmt: skip
        theta = res.x
        new = {ch: _positive(lossfn.scale(r, model.sigma[ch]), 1e-12) for ch, r in model.raw(theta).items()}
        settled = all(abs(new[ch] / model.sigma[ch] - 1.0) < 0.02 for ch in new)
        model.sigma = new
        model.reweight(theta)
        if settled:
            break
    return theta, res


def _positive(value: float, fallback: float) -> float:
    return value if math.isfinite(value) and value > 0.0 else fallback


def _segments(seg: Segmentation, tracks: Tracks) -> list[_Segment]:
    """The usable segments, each without the suspect points at its ends (a segment left
    with fewer than 3 points is dropped)."""
    kept = [(s, g) for s in seg.usable if len(g := _trim_suspect_ends(seg.segment_points(s))) >= 3]
    if not kept:
        counts = seg.segments[["n_points", "moving"]].to_dict("records")
        raise ValueError(
            "Too few points: no segment has a moving disc with at least the required number of points "
            f"(segments found: {counts}). Track the discs over more frames, or check the impact detection."
        )
    out = []
    for s, g in kept:
        t = g["t"].to_numpy()
        disc = int(g["disc"].iat[0])
        out.append(
            _Segment(
                s, disc, float(t[0]), t - t[0], g["x"].to_numpy(), g["y"].to_numpy(),
                g["angle"].to_numpy() if "angle" in g else None, tracks.radius.get(disc, NOMINAL_RADIUS), t,
            )  # fmt: skip
        )
    return out


def _trim_suspect_ends(g: pd.DataFrame) -> pd.DataFrame:
    """A segment's points without the runs of suspect points (see
    :mod:`~carromlab.fitting.segments`) at its start and end. Next to an impact a point
    that agrees with no window of its segment may lie on the other side of the impact (one
    the camera saw as a single break with the next), where it biases the fit however the
    loss weights it; inside a segment such a point can only be an outlier."""
    good = np.flatnonzero(~g["suspect"].to_numpy(dtype=bool))
    return g.iloc[good[0] : good[-1] + 1].reset_index(drop=True) if len(good) else g.iloc[:0]


def _covariance(J: np.ndarray, u: np.ndarray, lossfn: Loss, channel: np.ndarray) -> tuple[np.ndarray, list[int], np.ndarray]:
    """Covariance of an M-estimator by Huber's formula, channel by channel; the columns that
    the data cannot identify; and the leverage h of every residual.

    J is standardised and ``channel`` labels each residual's channel (positions, angles).
    Each channel c carries its own effective noise level: with m_c the mean of psi'(u) and
    s_c^2 = sum psi(u)^2 / (n_c (1 - p / n)) over its residuals, A = sum_c m_c J_c^T J_c,
    B = sum_c s_c^2 J_c^T J_c and the covariance is K^2 A^-1 B A^-1, with Huber's
    small-sample factor K = 1 + (p / n) var(psi') / mean(psi')^2 (P. J. Huber,
    *Robust Statistics*, Wiley, 1981, sec. 7.6, doi:10.1002/0471725250). For one channel
    this is K^2 s^2 / m^2 (J^T J)^-1, and for least squares the textbook s^2 (J^T J)^-1.
    Averaging psi^2 and psi' over a channel rather than weighting residual by residual (the
    heteroscedasticity-consistent sandwich) matters for the drag: the few fast, long
    segments that determine it make a residual-by-residual meat noisy and biased low (on
    replicas of one shot its standard error of air_drag varied by up to +-20 % and came out
    4-12 % below this one). h is the leverage of a residual in the psi'-weighted J (for
    :func:`~._robust.gaussian_sigma`). A column is not identifiable when a direction of
    the column-scaled, psi'-weighted J has a singular value below 1e-9 of the largest.
    """
    n, p = J.shape
    psi, dpsi = lossfn.psi(u), lossfn.dpsi(u)
    norms = np.linalg.norm(J, axis=0)
    norms[norms == 0.0] = 1.0
    Js = J / norms
    with _single_thread_blas():
        U, sv, vt = np.linalg.svd(np.sqrt(dpsi)[:, None] * Js, full_matrices=False)
    null = sv < 1e-9 * sv[0]
    h = np.minimum(np.sum(U[:, ~null] ** 2, axis=1), 0.99)
    m, s2 = np.empty(n), np.empty(n)
    for c in np.unique(channel):
        rows = channel == c
        m[rows] = max(float(np.mean(dpsi[rows])), 1e-12)
        s2[rows] = float(np.sum(psi[rows] ** 2)) / (rows.sum() * (1.0 - p / n))
    K = 1.0 + p / n * float(np.var(dpsi)) / float(np.mean(dpsi)) ** 2
    # with sqrt(m) Js = W S V^T: A^-1 B A^-1 = C C^T, C = V S^-1 W^T diag(sqrt(s2 / m)),
    # positive semi-definite by construction, where forming A and B would cancel
    with _single_thread_blas():
        W, sa, va = np.linalg.svd(np.sqrt(m)[:, None] * Js, full_matrices=False)
    keep = sa >= 1e-9 * sa[0]
    C = va[keep].T @ ((W[:, keep] * np.sqrt(s2 / m)[:, None]).T / sa[keep][:, None])
    cov = K**2 * (C @ C.T) / np.outer(norms, norms)
    bad = sorted({int(i) for v in vt[null] for i in np.flatnonzero(np.abs(v) > 0.1)})
    cov[bad, :] = np.nan
    cov[:, bad] = np.nan
    return cov, bad, h


def _result(model: _Model, theta: np.ndarray, lossfn: Loss, res: OptimizeResult) -> FrictionFit:
    lo, hi = model.bounds()
    u = model.residuals(theta)
    J = model.jacobian(theta, lo, hi)
    cov, bad, h = _covariance(J, u, lossfn, model.channel)
    n, p = J.shape
    k = model.k
    se = np.sqrt(np.diag(cov))
    tq = float(student_t.ppf(0.975, n - p))
    at_bound = _at_bound(theta, lo, hi)
    estimates = pd.DataFrame(
        {
            "parameter": list(model.names),
            "estimate": theta[:k],
            "std_error": se[:k],
            "ci_low": np.maximum(theta[:k] - tq * se[:k], lo[:k]),
            "ci_high": np.minimum(theta[:k] + tq * se[:k], hi[:k]),
            "at_bound": at_bound[:k],
        }
    )
    covariance = pd.DataFrame(cov[:k, :k], index=list(model.names), columns=list(model.names))
    labels = list(model.names) + [f"{name}[{s.segment}]" for s in model.segs for name in model.local]
    full_covariance = pd.DataFrame(cov, index=labels, columns=labels)
    seg_rows = []
    for j, s in enumerate(model.segs):
        sl = slice(k + j * model.q, k + (j + 1) * model.q)
        vals = dict(zip(model.local, theta[sl]))
        ses = dict(zip(model.local, se[sl]))
        row = {
            "segment": s.segment, "disc": s.disc, "t_ref": s.t_ref, "t_end": s.t_ref + s.t[-1],
            "n_points": len(s.t), "radius": s.radius,
        }  # fmt: skip
        for name in _NUISANCE:
            row[name] = vals.get(name, math.nan)
        for name in _NUISANCE:
            row[f"{name}_se"] = ses.get(name, math.nan)
        seg_rows.append(row)
    residuals = _residual_table(model, theta, u, lossfn)
    misfit = _misfit(model, theta) + _angle_misfit(model, theta)
    loglik = _loglik(model, theta, lossfn)
    n_params = p + len(model.sigma)
    message = str(res.message)
    if bad:
        labels = [model.names[i] if i < k else f"{model.local[(i - k) % model.q]} of segment {model.segs[(i - k) // model.q].segment}" for i in bad]
        message += f" Not identifiable from these tracks (standard errors set to NaN): {', '.join(labels)}."
    return FrictionFit(
        law=model.law.name,
        params=model.params(theta),
        estimates=estimates,
        covariance=covariance,
        full_covariance=full_covariance,
        segments=pd.DataFrame(seg_rows),
        residuals=residuals,
        noise=_gaussian_noise(model, u, h),
        noise_scale=dict(model.sigma),
        suspect=bool(misfit),
        warnings=misfit,
        loss=lossfn.name,
        loglik=loglik,
        n_obs=n,
        n_params=n_params,
        aic=2.0 * n_params - 2.0 * loglik,
        bic=n_params * math.log(n) - 2.0 * loglik,
        success=bool(res.success),
        message=message,
    )


def _gaussian_noise(model: _Model, u: np.ndarray, h: np.ndarray) -> dict[str, float]:
    """Gaussian-equivalent noise of each channel (see :func:`~._robust.gaussian_sigma`)."""
    angle = model.channel == 1
    out = {"position": gaussian_sigma(u[~angle], h[~angle]) * model.sigma["position"]}
    if model.angles:
        out["angle"] = gaussian_sigma(u[angle], h[angle]) * model.sigma["angle"]
    return out


def _residual_table(model: _Model, theta: np.ndarray, u: np.ndarray, lossfn: Loss) -> pd.DataFrame:
    frames = []
    for s, sl, (x, y, a) in zip(model.segs, model.rows, model.predict(theta)):
        n = len(s.t)
        us = u[sl].reshape(-1, n)  # rows: x, y[, angle]
        df = pd.DataFrame(
            {
                "disc": s.disc, "segment": s.segment, "t": s.t_ref + s.t,
                "x": s.x, "y": s.y, "x_fit": x, "y_fit": y, "res_x": s.x - x, "res_y": s.y - y,
            }  # fmt: skip
        )
        if a is not None:
            df["angle"], df["angle_fit"] = s.angle, a
            df["res_angle"] = _wrap(s.angle - a)
        weight, beyond = lossfn.weight(us), np.abs(us) > OUTLIER_SIGMAS
        df["weight"], df["outlier"] = weight.min(axis=0), beyond.any(axis=0)
        df["weight_position"], df["outlier_position"] = weight[:2].min(axis=0), beyond[:2].any(axis=0)
        if a is not None:
            df["weight_angle"], df["outlier_angle"] = weight[2], beyond[2]
        frames.append(df)
    return pd.concat(frames, ignore_index=True)

