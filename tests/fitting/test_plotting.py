"""Plots of fits: they draw what they say, on the axes given, and refuse bad options."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PolyCollection

from carromlab.fitting import compare_laws, fit_friction, segment_tracks
from carromlab.plotting.fitting import plot_residuals, plot_speed

from .scenarios import shot


@pytest.fixture(scope="module")
def comparison():
    syn = shot(0, "linear", angle_noise=0.05)
    return compare_laws(segment_tracks(syn.tracks()), ["coulomb", "linear"])


def test_residuals_on_given_axes(comparison):
    fig, ax = plt.subplots()
    fit = comparison.fits["linear"]
    assert plot_residuals(fit, ax, component="across") is ax
    drawn = np.concatenate([c.get_offsets()[:, 1] for c in ax.collections if len(c.get_offsets())])
    assert len(drawn) == len(fit.residuals)  # every point once (outliers clipped to the edge)
    assert ax.get_ylabel() == "residual across the path (mm)"
    assert plot_residuals(fit, component="angle").get_ylabel() == "residual in angle (rad)"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "down-weighted by the loss in position" in labels and any(lab.startswith("position outlier (>") for lab in labels)
    assert not any(lab.startswith("disc 0") for lab in labels) or "r = " in " ".join(labels)


def test_speed_curves_of_several_laws(comparison):
    ax = plot_speed(comparison.fits.values())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "coulomb (fit)" in labels and "linear (fit)" in labels
    # each law its own colour and width, so overlapping curves stay apart
    handles = {t.get_text(): h for t, h in zip(ax.get_legend().get_texts(), ax.get_legend().legend_handles)}
    assert handles["coulomb (fit)"].get_color() != handles["linear (fit)"].get_color()
    assert handles["coulomb (fit)"].get_linewidth() > handles["linear (fit)"].get_linewidth()
    n_segments = len(comparison.fits["linear"].segments)
    assert len([ln for ln in ax.lines if len(ln.get_xdata())]) == 2 * n_segments


def test_speed_band_spans_two_standard_errors_of_the_fit(comparison):
    fit = comparison.fits["linear"]
    ax = plot_speed(fit)
    bands = [c for c in ax.collections if isinstance(c, PolyCollection) and len(c.get_paths())]
    curves = fit.curves()
    assert len(bands) == len(fit.segments)
    for poly, (_, c) in zip(bands, curves.groupby(["disc", "segment"], sort=True)):
        xy = poly.get_paths()[0].vertices
        assert xy[:, 0].min() == pytest.approx(c["t"].min()) and xy[:, 0].max() == pytest.approx(c["t"].max())
        high = (c["speed"] + 2 * c["speed_se"]).to_numpy()
        low = (c["speed"] - 2 * c["speed_se"]).clip(lower=0.0).to_numpy()
        assert xy[:, 1].max() == pytest.approx(high.max(), rel=1e-9) and xy[:, 1].min() == pytest.approx(low.min(), abs=1e-12)
    assert (curves["speed_se"] > 0).any()
    width = 2 * curves["speed_se"].max()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"linear: ±2 standard errors of the fit (at most ±{width:.2g} m/s)" in labels
    ax = plot_speed(fit, band=False)
    assert not [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert not any("standard errors" in t.get_text() for t in ax.get_legend().get_texts())


def test_bad_options(comparison):
    fit = comparison.fits["coulomb"]
    with pytest.raises(ValueError, match="'component' parameter must be one of"):
        plot_residuals(fit, component="z")
    with pytest.raises(ValueError, match="'stride' parameter"):
        plot_speed(fit, stride=0)
    with pytest.raises(TypeError, match="'band' parameter"):
        plot_speed(fit, band="yes")
    with pytest.raises(ValueError, match=r"'fits' parameter must be a FrictionFit or a non-empty sequence of them\. Got \[\] \(0 items\)"):
        plot_speed([])
    plain = fit_friction(shot(0, "coulomb").tracks(), "coulomb")
    with pytest.raises(ValueError, match="only for a fit of tracks with angles"):
        plot_residuals(plain, component="angle")


def test_discs_are_named_by_their_role():
    from carromlab.fitting import data_path, fit_friction, read_tracks

    fit = fit_friction(read_tracks(data_path("cushion_shot.csv")), "coulomb")
    labels = [t.get_text() for t in plot_residuals(fit).get_legend().get_texts()]
    assert "coin (disc 0)" in labels and "striker (disc 1)" in labels



def _marker_is(collection, marker):
    from matplotlib.markers import MarkerStyle

    style = MarkerStyle(marker)
    want = style.get_path().transformed(style.get_transform()).vertices
    got = collection.get_paths()[0].vertices
    return got.shape == want.shape and np.allclose(got, want)


def test_markers_and_band_read_the_shown_channel_only():
    from carromlab.fitting import data_path, read_tracks

    fit = fit_friction(read_tracks(data_path("spin_shot.csv")), "slide_spin")
    res = fit.residuals
    # the premise: position outliers that are no angle outliers, and points down-weighted in one channel only
    assert res["outlier_position"].any() and not res["outlier_angle"].any()
    assert (res["outlier"] == res["outlier_position"] | res["outlier_angle"]).all()
    assert np.array_equal(res["weight"], np.minimum(res["weight_position"], res["weight_angle"]))
    assert ((res["weight_position"] < 1) != (res["weight_angle"] < 1)).any()
    for component, channel, to_unit in (("angle", "angle", 1.0), ("x", "position", 1e3)):
        ax = plot_residuals(fit, component=component)
        sigma = fit.noise[channel] * to_unit
        in_view = np.abs(res["res_angle" if channel == "angle" else "res_x"] * to_unit) <= 8 * sigma
        drawn = [c for c in ax.collections if len(c.get_offsets())]
        crosses = sum(len(c.get_offsets()) for c in drawn if _marker_is(c, "x"))
        hollow = sum(len(c.get_offsets()) for c in drawn if _marker_is(c, "o") and len(c.get_facecolors()) == 0)
        assert crosses == (res[f"outlier_{channel}"] & in_view).sum()
        assert hollow == ((res[f"weight_{channel}"] < 1) & ~res[f"outlier_{channel}"] & in_view).sum()
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        cut = 5 * fit.noise_scale[channel] * to_unit
        assert any(lab.startswith(f"{channel} outlier (> 5 noise scales: {cut:.3g} ") for lab in labels), labels
        band = next(p for p in ax.patches if p.get_label() == "±2 σ")
        assert band.get_y() == pytest.approx(-2 * sigma) and band.get_height() == pytest.approx(4 * sigma)
        assert f"{channel} noise σ = {sigma:.3g}" in ax.get_title()


def test_residuals_beside_speeds_stay_readable(comparison):
    """The layout of notebook 02 (residuals left, speeds right): the residual plot's title
    lies inside the figure and its legend clear of the speed axes. Before, the title ran
    past the figure's left edge and the legend, drawn outside the axes, sat under the
    speed plot."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4), layout="constrained")
    plot_residuals(comparison.fits["coulomb"], ax=axes[0])
    plot_speed(comparison.fits.values(), ax=axes[1])
    fig.canvas.draw()
    title = axes[0].title.get_window_extent()
    assert title.x0 >= 0.0 and title.x1 <= axes[1].get_window_extent().x0
    assert axes[0].get_legend().get_window_extent().x1 <= axes[1].get_tightbbox().x0
    plt.close(fig)


def test_residual_legend_under_the_axes_leaves_them_the_width(comparison):
    ax = plot_residuals(comparison.fits["coulomb"])
    fig = ax.figure
    fig.canvas.draw()
    legend, box = ax.get_legend().get_window_extent(), ax.get_window_extent()
    assert legend.y1 <= box.y0 and legend.y0 >= 0.0  # under the axes, inside the figure
    assert box.width >= 0.8 * fig.bbox.width  # beside them, the legend took 40 % of the width
    plt.close(fig)


def test_speed_title_gives_the_estimate_with_its_standard_error(comparison):
    fit = comparison.fits["coulomb"]
    mu = fit.estimates.set_index("parameter").loc["mu"]
    ax = plot_speed(fit)
    assert ax.get_title() == f"coulomb fit: mu = {mu['estimate']:.4g} ± {mu['std_error']:.2g} (± standard error)"
    plt.close(ax.figure)
    ax = plot_speed(comparison.fits.values())
    assert ax.get_title() == f"speed of the tracks and of {len(comparison.fits)} fitted laws"
    plt.close(ax.figure)
