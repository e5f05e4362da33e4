"""Plots of fits: they draw what they say, on the axes given, and refuse bad options."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

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
    assert "down-weighted by the loss" in labels and any(lab.startswith("outlier (>") for lab in labels)
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


def test_bad_options(comparison):
    fit = comparison.fits["coulomb"]
    with pytest.raises(ValueError, match="'component' parameter must be one of"):
        plot_residuals(fit, component="z")
    with pytest.raises(ValueError, match="'stride' parameter"):
        plot_speed(fit, stride=0)
    with pytest.raises(ValueError, match="at least one FrictionFit"):
        plot_speed([])
    plain = fit_friction(shot(0, "coulomb").tracks(), "coulomb")
    with pytest.raises(ValueError, match="only for a fit of tracks with angles"):
        plot_residuals(plain, component="angle")


def test_discs_are_named_by_their_role():
    from carromlab.fitting import data_path, fit_friction, read_tracks

    fit = fit_friction(read_tracks(data_path("cushion_shot.csv")), "coulomb")
    labels = [t.get_text() for t in plot_residuals(fit).get_legend().get_texts()]
    assert "coin (disc 0)" in labels and "striker (disc 1)" in labels
