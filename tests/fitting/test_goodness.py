"""Fits say when they are wrong: the goodness-of-fit check, the meaning of the noise, and
the laws a comparison cannot identify."""

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot
from carromlab.fitting import FitWarning, compare_laws, fit_friction, make_synthetic_tracks, segment_tracks
from carromlab.fitting._goodness import runs_test

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
