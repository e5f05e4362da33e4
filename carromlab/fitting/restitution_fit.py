"""Fit restitution and contact friction from velocities just before and after impacts.

For every classified impact (see :mod:`carromlab.fitting.segments`) the velocity of each
disc just before and just after the contact time is estimated from the ``window`` points
nearest to it on each side: a least-squares polynomial in time per coordinate (a parabola
by default; a straight line after removing a known friction deceleration along the
motion), with covariances from the position noise. With contact normal n (from the disc to
the other body; a cushion's outward normal, or the direction to the other disc's or peg's
centre) and tangent t = z x n, the relative velocity u = v_disc - v_other gives, in
Walton's model (``docs/physics.md``; O. R. Walton, 1993; S. Luding et al., *Phys. Rev. E*
50, 4113, 1994, doi:10.1103/PhysRevE.50.4113):

* normal restitution  e = -u'.n / u.n,
* impulse ratio  |Jt| / Jn = |du.t| / |du.n|, which equals the contact friction mu_c when
  the contact slides throughout the impact, and is smaller when it sticks,
* tangential contact speed  c = u.t + R_1 w_1 + R_2 w_2  before, and after
  c' = c + (1 + 1/kappa) du.t with kappa = 1/2 for uniform discs (also for a cushion).

An impact *slides* when c' keeps the sign of c by more than three standard errors; only
sliding impacts estimate mu_c. The spins before the impact come from the tracked ``angle``
when there is one. Without angles, a disc at rest before the impact does not spin, and the
spin of a moving disc is unknown (``spin_known`` False: the impact cannot be classified and
gives no mu_c) unless ``assume_no_spin``. The impulse ratio is reported for every impact: it
is a lower bound of mu_c.

Uncertainties are propagated to every impact by the delta method, and the impacts of one
kind are pooled by an inverse-variance weighted mean whose standard error is inflated by
the Birge ratio sqrt(chi^2 / (k - 1)) when the impacts scatter more than their errors
(R. T. Birge, *Phys. Rev.* 40, 207, 1932, doi:10.1103/PhysRev.40.207): restitution of real
discs falls with impact speed (Gerl & Zippelius, *Phys. Rev. E* 59, 2361, 1999), which the
per-impact table shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_int, check_real
from ..physics.params import PhysicsParams, check_params
from .segments import Segmentation, segmentation_of
from .tracks import Tracks

__all__ = ["RestitutionFit", "fit_restitution"]

#: Walton's tangential-to-normal inverse-mass ratio Wt / Wn = 1 + 1/kappa for uniform discs
#: (kappa = I / (m R^2) = 1/2), the same for disc-disc and disc-obstacle contacts.
_WT_OVER_WN = 3.0
#: PhysicsParams fields estimated from each impact kind: (restitution, contact friction).
_FIELDS = {"disc": ("e_disc", "mu_contact"), "cushion": ("e_cushion", "mu_cushion"), "peg": ("e_peg", "mu_peg")}
_NORMALS = {"east": (1.0, 0.0), "west": (-1.0, 0.0), "north": (0.0, 1.0), "south": (0.0, -1.0)}
#: How far the paths before and after an impact may miss each other at the contact beyond
#: five standard errors, m: a contact time off by 0.5 ms with a 4 m/s velocity change.
_MEET_SLACK = 2e-3


@dataclass(frozen=True, eq=False)
class RestitutionFit:
    """Result of :func:`.fit_restitution`.

    Attributes
    ----------
    impacts : pandas.DataFrame
        One row per classified impact: ``t`` (s), ``kind``, ``disc``, ``other``, ``where``,
        ``vn`` (normal approach speed, m/s), ``vn_se``, ``e``, ``e_se``, ``mu_ratio``
        (``|Jt| / Jn``), ``mu_ratio_se``, ``c_before``, ``c_after`` (tangential contact speed,
        m/s), ``c_after_se``, ``sliding`` (bool), ``spin_known`` (bool: the spins before
        the impact were measured or known to be zero), ``used`` (bool: entered the pooled
        estimates) and ``note`` (why an impact was not used).
    estimates : pandas.DataFrame
        One row per estimated PhysicsParams field (``e_disc``, ``mu_contact``,
        ``e_cushion``, ``mu_cushion``, ``e_peg``, ``mu_peg``, as the impacts allow):
        ``parameter``, ``estimate``, ``std_error``, ``ci_low``, ``ci_high`` (95 %),
        ``n_impacts``, ``birge`` (sqrt(chi^2 / (k - 1)); NaN for one impact).
    """

    impacts: pd.DataFrame
    estimates: pd.DataFrame

    def __repr__(self) -> str:
        est = ", ".join(f"{r.parameter} = {r.estimate:.3g} +- {r.std_error:.2g}" for r in self.estimates.itertuples())
        used = int(self.impacts["used"].sum()) if "used" in self.impacts else 0
        return f"RestitutionFit({est or 'no estimates'}; {used} of {len(self.impacts)} impacts used)"

    def _repr_html_(self) -> str:
        from ..plotting.display import rich_html

        used = int(self.impacts["used"].sum()) if "used" in self.impacts else 0
        return rich_html("RestitutionFit", {"impacts": len(self.impacts), "used": used}, table=self.estimates)

    def table(self) -> pd.DataFrame:
        """The pooled estimates (a copy of ``estimates``)."""
        return self.estimates.copy()

    def params(self, base: PhysicsParams | None = None) -> PhysicsParams:
        """``base`` (default ``PhysicsParams()``) with the estimated fields, clipped to
        their allowed ranges.

        Raises
        ------
        TypeError
            If ``base`` is not a PhysicsParams or None.

        Examples
        --------
        >>> fit = RestitutionFit(pd.DataFrame(), pd.DataFrame({"parameter": ["e_cushion"], "estimate": [0.8]}))
        >>> fit.params().e_cushion
        0.8
        """
        hi = {"e": 1.0, "mu": 2.0}
        changes = {
            r.parameter: float(np.clip(r.estimate, 0.0, hi[r.parameter.split("_")[0]]))
            for r in self.estimates.itertuples(index=False)
        }
        return check_params(base, "base").with_(**changes)


def _local_state(
    t: np.ndarray, p: np.ndarray, tc: float, sigma: float, deceleration: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """Position and velocity at ``tc`` from points ``p`` (n, 2) at times ``t``.

    Returns the state (x, y, vx, vy) and its 4x4 covariance. A parabola per coordinate, or
    a line after removing ``-deceleration / 2 u (t - tc)^2`` along the direction u of motion
    (not for a disc at rest).
    """
    tau = t - tc
    if deceleration is None:
        X = np.c_[np.ones_like(tau), tau, tau**2]
        q = p
    else:
        X = np.c_[np.ones_like(tau), tau]
        v = np.linalg.lstsq(X, p, rcond=None)[0][1]
        speed = float(np.hypot(*v))
        # a disc at rest (or stopping within the window) feels no steady deceleration
        moving = speed > deceleration * float(np.ptp(tau))
        q = p + 0.5 * deceleration * np.outer(tau**2, v / speed) if moving else p
    coef = np.linalg.lstsq(X, q, rcond=None)[0]
    inv = np.linalg.inv(X.T @ X)[:2, :2] * sigma**2
    cov = np.zeros((4, 4))
    cov[np.ix_([0, 2], [0, 2])] = inv  # x: position, velocity
    cov[np.ix_([1, 3], [1, 3])] = inv  # y
    return np.array([coef[0, 0], coef[0, 1], coef[1, 0], coef[1, 1]]), cov


def _local_spin(t: np.ndarray, angle: np.ndarray, tc: float, sigma: float) -> tuple[float, float]:
    """Spin (rad/s) at ``tc`` and its variance from a parabola through unwrapped angles
    (friction slows the spin by about 100 rad/s^2 for a coin: a line would be biased)."""
    tau = t - tc
    X = np.c_[np.ones_like(tau), tau, tau**2]
    coef = np.linalg.lstsq(X, np.unwrap(angle), rcond=None)[0]
    return float(coef[1]), float(np.linalg.inv(X.T @ X)[1, 1] * sigma**2)


def _impact_quantities(z: np.ndarray, meta: dict[str, Any]) -> np.ndarray:
    """(vn, e, mu_ratio, c_before, c_after) from the stacked inputs ``z``: the disc's
    position, velocity before and velocity after; the other body's position, velocity
    before and after; the two spins before."""
    p1, v1, v1a, p2, v2, v2a = z[0:2], z[2:4], z[4:6], z[6:8], z[8:10], z[10:12]
    w1, w2 = z[12], z[13]
    if meta["normal"] is not None:
        n = np.asarray(meta["normal"])
    else:
        # the centres' line at contact: move the incoming paths to the time they touch
        dp, dv = p2 - p1, v2 - v1
        a, b, c0 = dv @ dv, 2.0 * dp @ dv, dp @ dp - meta["dist"] ** 2
        disc = b * b - 4.0 * a * c0
        shift = (-b - math.sqrt(disc)) / (2.0 * a) if disc >= 0.0 else -b / (2.0 * a)
        n = (dp + dv * shift) / np.hypot(*(dp + dv * shift))
    tan = np.array([-n[1], n[0]])
    u, ua = v1 - v2, v1a - v2a
    du = ua - u
    vn = u @ n
    c = u @ tan + meta["r1"] * w1 + meta["r2"] * w2
    return np.array([vn, -(ua @ n) / vn, abs(du @ tan) / abs(du @ n), c, c + _WT_OVER_WN * (du @ tan)])


def _delta_method(z: np.ndarray, cov: np.ndarray, meta: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Values and standard errors of :func:`_impact_quantities` (central differences)."""
    f0 = _impact_quantities(z, meta)
    J = np.zeros((len(f0), len(z)))
    for i in range(len(z)):
        if cov[i, i] == 0.0:
            continue
        h = 1e-6 * max(abs(z[i]), 1.0)
        zp, zm = z.copy(), z.copy()
        zp[i] += h
        zm[i] -= h
        J[:, i] = (_impact_quantities(zp, meta) - _impact_quantities(zm, meta)) / (2 * h)
    return f0, np.sqrt(np.einsum("ij,jk,ik->i", J, cov, J))


def fit_restitution(
    data: Tracks | Segmentation,
    *,
    window: int = 8,
    deceleration: float | None = None,
    assume_no_spin: bool = False,
) -> RestitutionFit:
    """Estimate normal restitution and contact friction of disc-disc, cushion and peg impacts.

    Parameters
    ----------
    data : Tracks or Segmentation
        Tracks with disc radii (and a board for cushion and peg impacts), or their
        segmentation (e.g. with breaks from the engine's events).
    window : int
        Most points on each side of an impact used for its velocities, >= 4 (>= 3 with a
        known deceleration); an impact with fewer clean points on a side of a disc is not
        used. Default 8.
    deceleration : float, optional
        Friction deceleration to remove before fitting straight lines, m/s^2 (e.g.
        ``fit.params.deceleration`` of a Coulomb :class:`~carromlab.fitting.FrictionFit`):
        about four times more precise velocities than parabolas. Default: parabolas.
    assume_no_spin : bool
        Without an ``angle`` column, take the unknown spin of a moving disc before an
        impact as zero (right for a striker played without spin before its first impact;
        wrong after an impact with contact friction). Default False: such impacts give no
        contact-friction estimate.

    Returns
    -------
    RestitutionFit

    Raises
    ------
    ValueError
        If the tracks have no disc radii, or an argument is out of range.

    Examples
    --------
    >>> from carromlab.fitting import read_tracks, data_path
    >>> fit = fit_restitution(read_tracks(data_path("cushion_shot.csv")), deceleration=0.12 * 9.81)
    >>> fit.estimates["parameter"].tolist()   # no angles: the contact friction needs spins
    ['e_disc', 'e_cushion']
    """
    seg = segmentation_of(data)
    tracks = seg.tracks
    if not tracks.radius:
        raise ValueError("The 'radius' of the tracks must be known to fit impacts. Got tracks without radii instead.")
    need = 3 if deceleration is not None else 4  # points that leave one degree of freedom
    window = check_int("window", window, low=need)
    if deceleration is not None:
        deceleration = check_real("deceleration", deceleration, low=0.0, unit="m/s^2")
    sigma = seg.noise
    sigma_angle = tracks.angle_noise
    rows = []
    for imp in seg.impacts.itertuples(index=False):
        row: dict[str, Any] = {
            "t": imp.t, "kind": imp.kind, "disc": imp.disc, "other": imp.other, "where": imp.where,
            "spin_known": True, "used": False, "note": "",
        }  # fmt: skip
        rows.append(row)
        if imp.kind not in _FIELDS:
            row["note"] = "unclassified impact"
            continue
        if imp.kind == "disc" and imp.other not in tracks.radius:
            row["note"] = f"no radius for disc {imp.other}"
            continue
        sides = [(imp.disc, imp.segment_before, imp.segment_after)]
        if imp.kind == "disc":
            sides.append((imp.other, imp.other_before, imp.other_after))
        states, covs, spins, spin_vars = [], [], [], []
        for disc, before, after in sides:
            for s_id, is_before in ((before, True), (after, False)):
                g = seg.segment_points(s_id)
                g = g[~g["suspect"]]
                g = g[g["t"] < imp.t].tail(window) if is_before else g[g["t"] > imp.t].head(window)
                if len(g) < need:
                    row["note"] = f"fewer than {need} clean points {'before' if is_before else 'after'} the impact (disc {disc})"
                    break
                tt = g["t"].to_numpy()
                st, cv = _local_state(tt, g[["x", "y"]].to_numpy(), imp.t, sigma, deceleration)
                states.append(st)
                covs.append(cv)
                if is_before:
                    if tracks.has_angle:
                        w, wv = _local_spin(tt, g["angle"].to_numpy(), imp.t, sigma_angle)
                    else:
                        # a disc at rest does not spin; any other spin is unknown
                        at_rest = not bool(seg.segments.loc[seg.segments["segment"] == s_id, "moving"].iat[0])
                        w, wv = 0.0, 0.0
                        row["spin_known"] &= at_rest or assume_no_spin
                    spins.append(w)
                    spin_vars.append(wv)
            if row["note"]:
                break
        if row["note"]:
            continue
        for n, (disc, _, _) in enumerate(sides):
            # the paths before and after must meet at the contact: a second impact hidden
            # in the frame gap (a corner double bounce) makes them miss by centimetres
            gap = float(np.hypot(*(states[2 * n][:2] - states[2 * n + 1][:2])))
            spread = math.sqrt(np.trace(covs[2 * n][:2, :2] + covs[2 * n + 1][:2, :2]) / 2.0)
            if gap > 5.0 * spread + _MEET_SLACK:
                row["note"] = f"paths of disc {disc} before and after miss each other by {gap * 1e3:.1f} mm at the contact"
        if row["note"]:
            continue
        if imp.kind != "disc":
            states += [np.zeros(4), np.zeros(4)]
            covs += [np.zeros((4, 4)), np.zeros((4, 4))]
            spins.append(0.0)
            spin_vars.append(0.0)
        # stack: p1, v1 (before), v1 (after), p2, v2 (before), v2 (after), w1, w2
        z = np.concatenate([states[0][:2], states[0][2:], states[1][2:], states[2][:2], states[2][2:], states[3][2:], spins])
        cov = np.zeros((14, 14))
        for k, (b, a) in enumerate(((0, 1), (2, 3))):
            o = 6 * k
            cov[o : o + 4, o : o + 4] = covs[b]  # position and velocity before
            cov[o + 4 : o + 6, o + 4 : o + 6] = covs[a][2:, 2:]  # velocity after
        cov[12, 12], cov[13, 13] = spin_vars
        r2 = tracks.radius[imp.other] if imp.kind == "disc" else 0.0
        meta = {
            "normal": _obstacle_normal(tracks, imp, states[0][:2]),
            "r1": tracks.radius[imp.disc],
            "r2": r2,
            "dist": tracks.radius[imp.disc] + r2,
        }
        val, se = _delta_method(z, cov, meta)
        vn, e, mu, c, c_after = val
        row.update(
            vn=vn, vn_se=se[0], e=e, e_se=se[1], mu_ratio=mu, mu_ratio_se=se[2],
            c_before=c, c_after=c_after, c_after_se=se[4],
            sliding=bool(row["spin_known"] and c != 0.0 and c_after * math.copysign(1.0, c) > 3.0 * se[4]),
        )  # fmt: skip
        if not vn > 3.0 * se[0]:
            row["note"] = "normal approach speed not significant"
            continue
        row["used"] = True
    cols = ["t", "kind", "disc", "other", "where", "vn", "vn_se", "e", "e_se", "mu_ratio", "mu_ratio_se",
            "c_before", "c_after", "c_after_se", "sliding", "spin_known", "used", "note"]  # fmt: skip
    impacts = pd.DataFrame(rows, columns=cols)
    impacts["sliding"] = impacts["sliding"].astype("boolean").fillna(False).astype(bool)
    return RestitutionFit(impacts, _pool(impacts))


def _obstacle_normal(tracks: Tracks, imp: Any, p1: np.ndarray) -> tuple[float, float] | None:
    """Contact normal of an obstacle impact; None for a disc-disc impact (from positions)."""
    if imp.kind == "cushion":
        return _NORMALS[imp.where]
    if imp.kind == "peg":
        assert tracks.board is not None
        peg = tracks.board.pegs[int(imp.where)]
        d = np.array([peg.x, peg.y]) - p1
        return tuple(d / np.hypot(*d))
    return None


def _pool(impacts: pd.DataFrame) -> pd.DataFrame:
    """Inverse-variance weighted means by impact kind, Birge-inflated."""
    out = []
    for kind, (e_name, mu_name) in _FIELDS.items():
        sel = impacts[impacts["used"] & (impacts["kind"] == kind)]
        for name, col, rows in ((e_name, "e", sel), (mu_name, "mu_ratio", sel[sel["sliding"]])):
            if rows.empty:
                continue
            x, s = rows[col].to_numpy(float), rows[f"{col}_se"].to_numpy(float)
            w = 1.0 / np.maximum(s, 1e-12) ** 2
            mean = float(np.sum(w * x) / np.sum(w))
            se = float(1.0 / math.sqrt(np.sum(w)))
            birge = float(math.sqrt(np.sum(w * (x - mean) ** 2) / (len(x) - 1))) if len(x) > 1 else math.nan
            se *= max(1.0, birge) if len(x) > 1 else 1.0
            out.append(
                {
                    "parameter": name, "estimate": mean, "std_error": se, "ci_low": mean - 1.96 * se,
                    "ci_high": mean + 1.96 * se, "n_impacts": len(x), "birge": birge,
                }  # fmt: skip
            )
    return pd.DataFrame(out, columns=["parameter", "estimate", "std_error", "ci_low", "ci_high", "n_impacts", "birge"])
