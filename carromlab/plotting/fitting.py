"""Plots of friction fits: residuals against time, and speed against time with fitted curves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validation import check_bool, check_choice, check_int, check_sequence, check_type
from ..equipment.layout import default_specs
from .board import CATEGORY_COLORS
from .board import axes_or_new as board_axes
from ..fitting.friction_fit import OUTLIER_SIGMAS, FrictionFit

__all__ = ["plot_residuals", "plot_speed"]

_COMPONENTS = ("along", "across", "x", "y", "angle")
_LAW_STYLES = ("-", "--", ":", "-.")


def axes_or_new(ax: Axes | None, height: float = 3.6) -> Axes:
    return board_axes(ax, figsize=(7.0, height))


def _disc_colors(discs: Iterable[int]) -> dict[int, str]:
    return {d: CATEGORY_COLORS[k % len(CATEGORY_COLORS)] for k, d in enumerate(sorted(set(discs)))}


def _role(radius: float) -> str:
    """What a disc of this radius is in the standard equipment: striker, coin, jack or
    crokinole disc; empty when no standard disc has it (within 0.01 mm)."""
    for game, coin in (("icf", "coin"), ("hikone", "puck"), ("crokinole", "disc")):
        for kind, spec in default_specs(game).items():
            if abs(spec.radius - radius) < 1e-5:
                return "striker" if kind == "striker" else ("jack" if kind == "jack" else coin)
    return ""


def _disc_names(fit: FrictionFit) -> dict[int, str]:
    """Legend name of every disc: its role from its radius (``"striker (disc 1)"``)."""
    radius = fit.segments.groupby("disc")["radius"].first()
    names = {}
    for d, r in radius.items():
        role = _role(float(r))
        names[int(d)] = f"{role} (disc {d})" if role else f"disc {d} (r = {r * 1e3:.4g} mm)"
    return names


def plot_residuals(fit: FrictionFit, ax: Axes | None = None, *, component: str = "along", **kwargs: Any) -> Axes:
    """Residuals (data minus fit) against time, one colour per disc.

    Along the path a wrong friction law leaves a systematic pattern (an arch or an S per
    segment); across it only noise remains. Marker shapes read the shown channel (position,
    or angle) alone: points the robust loss down-weighted in it are drawn hollow, its
    outliers (a residual beyond :data:`~carromlab.fitting.friction_fit.OUTLIER_SIGMAS` times
    the channel's ``fit.noise_scale``; for position in x or y) as crosses; residuals beyond
    8 sigma are drawn at the edge as triangles pointing out. The band shows +-2 sigma, sigma
    being the channel's Gaussian-equivalent noise ``fit.noise``.

    Parameters
    ----------
    fit : FrictionFit
        A friction fit.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    component : {"along", "across", "x", "y", "angle"}
        Residual shown: along or across the segment's path, a board coordinate (all in mm),
        or the orientation (rad; tracks with angles only). Default ``"along"``.
    **kwargs
        Passed to the scatter of the points (e.g. ``s=6``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from carromlab.fitting import fit_friction, read_tracks, data_path
    >>> fit = fit_friction(read_tracks(data_path("slide_shot.csv")), "coulomb")
    >>> plot_residuals(fit).get_ylabel()
    'residual along the path (mm)'
    """
    check_type("fit", fit, FrictionFit, hint="from carromlab.fitting.fit_friction")
    check_choice("component", component, _COMPONENTS)
    res = fit.residuals
    channel = "angle" if component == "angle" else "position"
    if component == "angle":
        if "res_angle" not in res:
            raise ValueError("The 'component' parameter can be 'angle' only for a fit of tracks with angles. Got 'angle' instead.")
        r, to_unit, unit = res["res_angle"].to_numpy(), 1.0, "rad"
    else:
        phi = res["segment"].map(fit.segments.set_index("segment")["direction"]).to_numpy()
        c, s = np.cos(phi), np.sin(phi)
        rx, ry = res["res_x"].to_numpy(), res["res_y"].to_numpy()
        r = {"along": rx * c + ry * s, "across": -rx * s + ry * c, "x": rx, "y": ry}[component] * 1e3
        to_unit, unit = 1e3, "mm"
    sigma, cut = fit.noise[channel] * to_unit, OUTLIER_SIGMAS * fit.noise_scale[channel] * to_unit
    weight, outlier = res[f"weight_{channel}"].to_numpy(), res[f"outlier_{channel}"].to_numpy()
    ax = axes_or_new(ax, height=4.4)  # room for the legend under the axes
    lim = 8.0 * sigma
    colors = _disc_colors(res["disc"])
    t = res["t"].to_numpy()
    style = {"s": 8, "linewidths": 0.8, **kwargs}
    names = _disc_names(fit)
    for d, color in colors.items():
        sel = res["disc"].to_numpy() == d
        full = sel & (weight >= 1.0) & (np.abs(r) <= lim)
        down = sel & (weight < 1.0) & ~outlier & (np.abs(r) <= lim)
        out = sel & outlier & (np.abs(r) <= lim)
        ax.scatter(t[full], r[full], color=color, label=names.get(d, f"disc {d}"), **style)
        ax.scatter(t[down], r[down], facecolors="none", edgecolors=color, **style)
        ax.scatter(t[out], r[out], marker="x", color=color, **style)
        for sign, marker in ((1, "^"), (-1, "v")):
            clip = sel & (sign * r > lim)
            ax.scatter(t[clip], np.full(clip.sum(), sign * lim), marker=marker, color=color, **style)
    # what the marker shapes mean (drawn in grey: the colours are the discs)
    ax.scatter([], [], facecolors="none", edgecolors="0.3", label=f"down-weighted by the loss in {channel}", **style)
    cut_text = f"{cut:.3g} {unit}" + (" in x or y" if channel == "position" else "")
    ax.scatter([], [], marker="x", color="0.3", label=f"{channel} outlier (> {OUTLIER_SIGMAS:g} noise scales: {cut_text})", **style)
    ax.scatter([], [], marker="^", color="0.3", label="beyond 8 σ (at the edge)", **style)
    ax.axhspan(-2 * sigma, 2 * sigma, color="0.85", zorder=0, label="±2 σ")
    ax.axhline(0.0, color="0.4", linewidth=0.8)
    ax.set_ylim(-1.1 * lim, 1.1 * lim)
    where = {"along": "along the path", "across": "across the path", "x": "in x", "y": "in y", "angle": "in angle"}
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"residual {where[component]} ({unit})")
    ax.set_title(
        # two short lines: one line ran wider than an axes half a figure wide, past its edge
        f"{fit.law}: {channel} noise σ = {sigma:.3g} {unit}\n"
        f"in {channel} {int(outlier.sum())} outliers, {int((weight < 1).sum())} down-weighted points",
        fontsize="small",
    )
    # under the axes: beside them it took 40 % of the figure's width from the data
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    return ax


def _data_speeds(res: pd.DataFrame, stride: int) -> pd.DataFrame:
    """Finite-difference speeds of the non-outlier points of every segment, m/s."""
    rows = []
    for (d, s), g in res[~res["outlier"]].groupby(["disc", "segment"], sort=True):
        t, x, y = g["t"].to_numpy(), g["x"].to_numpy(), g["y"].to_numpy()
        if len(t) <= stride:
            continue
        dt = t[stride:] - t[:-stride]
        v = np.hypot(x[stride:] - x[:-stride], y[stride:] - y[:-stride]) / dt
        rows.append(pd.DataFrame({"disc": d, "segment": s, "t": 0.5 * (t[stride:] + t[:-stride]), "speed": v}))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=["disc", "segment", "t", "speed"])


def plot_speed(
    fits: FrictionFit | Iterable[FrictionFit],
    ax: Axes | None = None,
    *,
    stride: int = 2,
    band: bool = True,
    **kwargs: Any,
) -> Axes:
    """Speed against time: finite differences of the tracked positions and the fitted laws.

    The data points are coloured by disc (named by role: coin, striker, ...), each law's
    curves have their own colour, line style and width (the first law widest, so that
    curves lying on each other still show). The shaded band around a law's curves spans
    +-2 standard errors of the fitted speed (``speed_se`` of :meth:`.FrictionFit.curves`:
    the fit's parameter covariance, law parameters and each segment's initial speed and
    spin, by the delta method); its legend entry gives its largest half-width, as a
    well-determined fit's band is narrower than the line. It shows how well the curve is
    known, not where the data scatter (:func:`plot_residuals`). The title gives a single
    fit's estimates with their standard errors.

    Parameters
    ----------
    fits : FrictionFit or iterable of FrictionFit
        One fit, or several fits of the same tracks (e.g. ``comparison.fits.values()``):
        each law's curves get their own line style. The data points come from the first.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    stride : int
        Speeds are ``norm(p[i + stride] - p[i]) / (t[i + stride] - t[i])`` over non-outlier points
        of a segment, >= 1. Default 2 (halves the noise of neighbouring differences).
    band : bool
        Shade +-2 standard errors around every fitted curve (left out where the fit could not
        identify a parameter the speed depends on). Default True.
    **kwargs
        Passed to every fitted curve (e.g. ``linewidth=2``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from carromlab.fitting import fit_friction, read_tracks, data_path
    >>> fit = fit_friction(read_tracks(data_path("slide_shot.csv")), "coulomb")
    >>> plot_speed(fit).get_ylabel()
    'speed (m/s)'
    """
    stride = check_int("stride", stride, low=1)
    band = check_bool("band", band)
    fits = (fits,) if isinstance(fits, FrictionFit) else check_sequence("fits", fits, FrictionFit, nonempty=True, what="a FrictionFit or a non-empty sequence of them")
    ax = axes_or_new(ax)
    names = _disc_names(fits[0])
    data = _data_speeds(fits[0].residuals, stride)
    for (d, g), shade in zip(data.groupby("disc", sort=True), ("0.5", "#f4a261", "0.75", "#9fb8c9")):
        ax.scatter(g["t"], g["speed"], s=6, color=shade, linewidths=0, label=f"{names.get(d, f'disc {d}')}: data")
    # no orange (the striker's data); neighbours of the palette far apart, as the curves lie on each other
    law_colors = tuple(CATEGORY_COLORS[k] for k in (0, 5, 2, 3, 6, 4))
    for k, fit in enumerate(fits):
        curves = fit.curves()
        style = {"linewidth": 3.2 - 1.8 * k / max(1, len(fits) - 1) if len(fits) > 1 else 1.6,
                 "linestyle": _LAW_STYLES[k % len(_LAW_STYLES)], "color": law_colors[k % len(law_colors)],
                 **kwargs}  # fmt: skip
        for _, g in curves.groupby(["disc", "segment"], sort=True):
            ax.plot(g["t"], g["speed"], **style)
            if band:
                low, high = g["speed"] - 2.0 * g["speed_se"], g["speed"] + 2.0 * g["speed_se"]
                ax.fill_between(g["t"], low.clip(lower=0.0), high, color=style["color"], alpha=0.3, linewidth=0)
        ax.plot([], [], label=f"{fit.law} (fit)", **style)
        width = float(2.0 * curves["speed_se"].max())  # NaN where no segment has a band
        if band and np.isfinite(width):
            ax.fill_between([], [], [], color=style["color"], alpha=0.3, linewidth=0,
                            label=f"{fit.law}: ±2 standard errors of the fit (at most ±{width:.2g} m/s)")  # fmt: skip
    ax.set_xlabel("time (s)")
    ax.set_ylabel("speed (m/s)")
    ax.set_ylim(bottom=0.0)
    if len(fits) == 1:
        est = ", ".join(f"{r.parameter} = {r.estimate:.4g} ± {r.std_error:.2g}" for r in fits[0].estimates.itertuples())
        ax.set_title(f"{fits[0].law} fit: {est} (± standard error)", fontsize="small")
    else:
        ax.set_title(f"speed of the tracks and of {len(fits)} fitted laws", fontsize="small")
    ax.legend(fontsize="x-small", loc="upper right", markerscale=2.0)
    return ax
