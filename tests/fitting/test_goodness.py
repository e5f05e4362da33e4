"""Fits say when they are wrong: the goodness-of-fit check, the meaning of the noise, and
the laws a comparison cannot identify."""

import warnings

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot
from carromlab.fitting import FitWarning, compare_laws, fit_friction, make_synthetic_tracks, segment_tracks
from carromlab.fitting._goodness import runs_test
from carromlab.fitting.friction_fit import _unwrap

from .scenarios import shot

EMPTY = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": [], "x": [], "y": []}))
COULOMB = PhysicsParams(friction_law="coulomb", mu=0.12)


def test_runs_test_against_counts():
    assert runs_test(np.array([1.0, -1, 1, -1, 1, -1])) == (6, 4.0, pytest.approx(0.9375, abs=0.03))
    runs, mean, p = runs_test(np.r_[np.ones(20), -np.ones(20)])
    assert (runs, mean) == (2, 21.0) and p < 1e-9
    assert np.isnan(runs_test(np.ones(10))[2])


@pytest.mark.parametrize("seed", [0, 1])
def test_a_missed_cushion_impact_is_flagged(seed):
    # a disc creeping into the east cushion (normal speed 0.13 m/s) between two fast cushion
    # impacts: left out of the breaks, as a detector misses an impact below its limit
    syn = make_synthetic_tracks(EMPTY, Shot.from_deg(0.25, -0.2, angle_deg=84.0, speed=2.6), COULOMB, seed=seed)
    breaks = syn.breaks()
    assert (breaks["where"] == "east").sum() == 1
    seg = segment_tracks(syn.tracks(), breaks=breaks[breaks["where"] != "east"])
    with pytest.warns(FitWarning, match="segment 1 .* runs where .* expected"):
        fit = fit_friction(seg, "coulomb")
    full = fit_friction(segment_tracks(syn.tracks(), breaks=breaks), "coulomb")  # with the impact: clean
    assert not full.suspect and full.warnings == ()
    # the fit is off by more than 3 standard errors of the right fit (its own, from the
    # channel's pooled misfit, are about twice as wide) ...
    assert abs(fit.estimates.iloc[0].estimate - 0.12) > 3.0 * full.estimates.iloc[0].std_error
    assert fit.suspect and fit.warnings  # ... and says so


@pytest.mark.parametrize("seed", range(3))
def test_right_fits_pass_the_check(seed):
    fit = fit_friction(shot(seed, "coulomb").tracks(), "coulomb")  # a FitWarning would fail the test
    assert not fit.suspect


def test_noise_is_the_gaussian_sigma():
    # 0.5 px at 1000 px/m: 0.5 mm; the Huber loss's scale is about 0.87 of it
    ratios, scales = [], []
    for seed in range(4):
        syn = make_synthetic_tracks(EMPTY, Shot.from_deg(0.0, -0.2, angle_deg=80.0 + 3 * seed, speed=2.5), COULOMB,
                                    outlier_rate=0.0, seed=seed)  # fmt: skip
        fit = fit_friction(syn.tracks(), "coulomb")
        ratios.append(fit.noise["position"] / 5e-4)
        scales.append(fit.noise_scale["position"] / 5e-4)
    assert abs(np.mean(ratios) - 1.0) < 0.04, ratios
    assert 0.8 < np.mean(scales) < 0.92, scales
    outliers = fit_friction(shot(0, "coulomb").tracks(), "coulomb")  # 1 % outliers of 10-40 px
    assert abs(outliers.noise["position"] / 5e-4 - 1.0) < 0.1


def test_compare_laws_marks_what_positions_cannot_identify():
    comp = compare_laws(shot(1, "coulomb").tracks(), ["coulomb", "slide_spin"])
    table = comp.criteria.set_index("law")
    assert not table.loc["slide_spin", "identifiable"] and table.loc["coulomb", "identifiable"]
    assert comp.best == "coulomb" and comp.criteria["law"].iat[-1] == "slide_spin"
    assert np.isnan(table.loc["slide_spin", "weight"]) and table.loc["coulomb", "weight"] == 1.0
    with pytest.raises(ValueError, match="'laws' parameter must include a law these tracks can identify"):
        compare_laws(shot(1, "coulomb").tracks(), ["slide_spin"])


SPIN_SHOT = {"x": 0.0, "y": -0.25, "angle_deg": 60, "speed": 1.5}
SLIDE_SPIN = PhysicsParams(friction_law="slide_spin", mu=0.15)


def spun(spin, seed, law="slide_spin", **camera):
    """A straight shot of ``spin`` rad/s filmed with angles (120 fps)."""
    params = SLIDE_SPIN.with_(friction_law=law)
    return make_synthetic_tracks(EMPTY, Shot.from_deg(**SPIN_SHOT, spin=spin), params, angle_noise=0.03, seed=seed, **camera)


def assert_right(fit, spin):
    """mu within 3 standard errors of 0.15, the spin and the angle noise those filmed."""
    row = fit.estimates.iloc[0]
    assert abs(row.estimate - 0.15) < 3 * row.std_error, row
    assert fit.segments["omega0"].tolist() == pytest.approx([spin], abs=2.0)
    assert fit.noise["angle"] < 0.06 and not fit.suspect


@pytest.mark.parametrize(("spin", "seed", "law", "dropout"), [
    (250.0, 3, "slide_spin", 0.0),  # positions alone gave mu 1.5 and 2500 rad/s: the spin went to 590 rad/s, mu 0.35
    (250.0, 0, "slide_spin", 0.05),  # dropped frames: turns of 4.2 rad across a gap of two frames
    (300.0, 3, "coulomb", 0.05),  # the spin ran to its -5000 rad/s bound
])  # fmt: skip
def test_fast_spins_below_the_frame_rate_limit_are_fitted(spin, seed, law, dropout):
    with warnings.catch_warnings():
        warnings.simplefilter("error", FitWarning)
        fit = fit_friction(spun(spin, seed, law, dropout=dropout).tracks(), law)
    assert_right(fit, spin)


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("dropout", [0.0, 0.05])
def test_an_ordinary_spin_is_neither_flagged_nor_biased(seed, dropout):
    with warnings.catch_warnings():
        warnings.simplefilter("error", FitWarning)
        fit = fit_friction(spun(150.0, seed, dropout=dropout).tracks(), "slide_spin")
    assert_right(fit, 150.0)


@pytest.mark.parametrize("law", ["slide_spin", "coulomb"])
def test_a_spin_the_angles_cannot_resolve_is_flagged(law):
    # 450 rad/s turns the disc by 3.75 rad a frame at 120 fps, beyond pi x fps = 377 rad/s
    with pytest.warns(FitWarning, match="angle residuals have a noise of .* implausibly large.* higher frame rate"):
        fit = fit_friction(spun(450.0, 3, law, dropout=0.0).tracks(), law)
    assert fit.suspect and any("wrong 2 pi basin" in w for w in fit.warnings)


def test_unwrapping_bridges_gaps_of_dropped_frames():
    # 250 rad/s at 120 fps: 2.08 rad a frame, 4.17 rad across a gap of two frames
    frames = np.array([0, 1, 2, 4, 5, 6, 8, 9, 11, 12, 13])
    t = frames / 120.0
    turned = 250.0 * t - 40.0 * t**2
    unwrapped = _unwrap(t, (turned + np.pi) % (2 * np.pi) - np.pi)
    assert unwrapped - unwrapped[0] == pytest.approx(turned - turned[0], abs=1e-9)
    assert np.ptp(np.unwrap(turned % (2 * np.pi)) - turned) > 1.0  # what numpy's unwrap makes of it
