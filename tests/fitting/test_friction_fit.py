"""Friction fits: exact recovery without noise, robustness, reports and bad input."""

import numpy as np
import pandas as pd
import pytest

from carromlab import PhysicsParams
from carromlab.fitting import (
    EXAMPLE_ANGLE_NOISE,
    EXAMPLE_PARAMS,
    FITTABLE,
    Tracks,
    compare_laws,
    fit_friction,
    make_synthetic_tracks,
    segment_tracks,
)

from .scenarios import shot


def clean(seed, law, **camera):
    """The shot of ``seed`` filmed without outliers and dropouts."""
    syn = shot(seed, law)
    r = syn.result
    return make_synthetic_tracks(r.scene, r.shot, r.params, outlier_rate=0.0, dropout=0.0, seed=seed, **camera)


@pytest.mark.parametrize("law", list(EXAMPLE_PARAMS))
def test_noiseless_tracks_give_the_generating_values(law):
    syn = clean(0, law, pixel_noise=1e-3)
    fit = fit_friction(segment_tracks(syn.tracks(), breaks=syn.breaks()), law)
    for row in fit.estimates.itertuples(index=False):
        assert row.estimate == pytest.approx(getattr(EXAMPLE_PARAMS[law], row.parameter), rel=2e-3), row
    assert fit.success and fit.noise["position"] < 5e-6


@pytest.mark.parametrize(("law", "seed"), [("slide_spin", 107), ("slide_spin", 141), ("stribeck", 147)])
def test_every_segment_spin_follows_its_angles(law, seed):
    """Every segment's spin ends in the angles' basin, also where the positions alone put a
    short segment's spin far off (up to its 5000 rad/s bound: slide_spin) or leave the law
    undetermined (stribeck seed 147 never slides slowly in view: mu_static ran to its bound
    and took the spins along). A wrong basin leaves angle residuals spread over (-pi, pi],
    rms 1.8 rad; here every segment's is at the camera noise."""
    fit = fit_friction(shot(seed, law, angle_noise=EXAMPLE_ANGLE_NOISE).tracks(), law)
    rms = fit.residuals.groupby("segment")["res_angle"].agg(lambda r: float(np.sqrt(np.mean(r**2))))
    assert (rms < 2 * EXAMPLE_ANGLE_NOISE).all(), rms
    assert fit.segments["omega0"].abs().max() < 200.0  # the shots start below 60 rad/s


def test_outliers_are_down_weighted_and_reported():
    syn = shot(4, "coulomb")
    robust = fit_friction(syn.tracks(), "coulomb")
    plain = fit_friction(syn.tracks(), "coulomb", loss="linear")
    truth = syn.truth[~syn.truth["dropped"]][["disc", "frame", "outlier"]].rename(columns={"outlier": "displaced"})
    res = robust.residuals.assign(frame=np.round(robust.residuals["t"] * 120).astype(int)).merge(truth, on=["disc", "frame"])
    assert res["displaced"].sum() >= 3
    assert res.loc[res["displaced"], "outlier"].all() and (res.loc[res["displaced"], "weight"] < 0.2).all()
    assert res.loc[~res["displaced"], "outlier"].mean() < 0.005
    # least squares is dragged by the outliers: its scale (the RMS residual) is several times
    # the camera's; the robust fit's Gaussian-equivalent noise is the camera's 0.5 mm
    assert plain.noise_scale["position"] > 3 * robust.noise_scale["position"]
    assert abs(robust.noise["position"] / 5e-4 - 1.0) < 0.15  # a median of ~500 residuals: +-6 %
    assert abs(robust.params.mu - 0.12) < 3 * robust.estimates["std_error"].iat[0]


def test_a_wrong_law_leaves_a_pattern_and_loses():
    comp = compare_laws(shot(1, "linear").tracks(), ["coulomb", "linear"])
    assert comp.best == "linear" and comp.criteria["delta_bic"].iat[1] > 10
    table = comp.table()
    assert {"mu", "mu_se", "mu_v", "mu_v_se"} <= set(table.columns) and np.isnan(table.set_index("law").at["coulomb", "mu_v"])


def test_result_tables():
    fit = fit_friction(shot(2, "coulomb").tracks(), "coulomb", parameters=("mu", "air_drag"))
    assert fit.estimates["parameter"].tolist() == ["mu", "air_drag"]
    assert fit.covariance.shape == (2, 2) and np.allclose(fit.covariance, fit.covariance.T)
    assert np.all(np.diag(fit.covariance) >= 0) and fit.params.air_drag == fit.estimates["estimate"].iat[1]
    assert fit.n_params == 2 + 4 * len(fit.segments) + 1
    assert fit.bic > fit.aic  # log n > 2
    curves = fit.curves(n=50)
    assert len(curves) == 50 * len(fit.segments) and (np.diff(curves.groupby("segment")["speed"].first()) != 0).any()


def test_full_covariance_holds_the_law_and_every_segment():
    fit = fit_friction(shot(2, "coulomb").tracks(), "coulomb", parameters=("mu", "air_drag"))
    full, k = fit.full_covariance, len(fit.covariance)
    assert full.shape == (k + 4 * len(fit.segments),) * 2 and np.allclose(full, full.T, equal_nan=True)
    np.testing.assert_array_equal(full.iloc[:k, :k], fit.covariance)
    for row in fit.segments.itertuples():
        for name in ("x0", "y0", "direction", "v0"):
            assert np.sqrt(full.at[f"{name}[{row.segment}]", f"{name}[{row.segment}]"]) == getattr(row, f"{name}_se")


def test_speed_standard_error_is_the_delta_method_of_the_covariance():
    # Coulomb without drag slides at v0 - mu g t: var v = var v0 + (g t)^2 var mu - 2 g t cov(v0, mu)
    fit = fit_friction(shot(2, "coulomb").tracks(), "coulomb")
    assert fit.params.air_drag == 0.0
    curves, cov, g = fit.curves(n=40), fit.full_covariance, fit.params.g
    for row in fit.segments.itertuples():
        c = curves[curves["segment"] == row.segment]
        t = (c["t"] - row.t_ref).to_numpy()
        v0 = f"v0[{row.segment}]"
        var = cov.at[v0, v0] + (g * t) ** 2 * cov.at["mu", "mu"] - 2 * g * t * cov.at[v0, "mu"]
        moving = c["speed"].to_numpy() > 0.0
        np.testing.assert_allclose(c["speed_se"].to_numpy()[moving], np.sqrt(var[moving]), rtol=1e-6)
        assert c["speed_se"].iat[0] == pytest.approx(row.v0_se, rel=1e-6)  # at the start, v0's alone


def test_bad_input_is_named():
    tracks = shot(0, "coulomb").tracks()
    with pytest.raises(ValueError, match=r"The 'law' parameter must be one of \['coulomb'.*Got 'viscous'"):
        fit_friction(tracks, "viscous")
    with pytest.raises(TypeError, match=r"The 'law' parameter must be one of \['coulomb'.*Got \['coulomb'\]"):
        fit_friction(tracks, ["coulomb"])  # not a raw "unhashable type: 'list'"
    with pytest.raises(ValueError, match=r'The "initial\[.mu.\]" parameter must be .* \[1e-06, 2\]\. Got -1'):
        fit_friction(tracks, initial={"mu": -1})
    with pytest.raises(ValueError, match=r"'loss' parameter must be one of \['huber', 'linear', 'soft_l1'\]"):
        fit_friction(tracks, loss="cauchy")
    with pytest.raises(ValueError, match="'parameters' parameter must be one of"):
        fit_friction(tracks, parameters=("mu", "e_disc"))
    with pytest.raises(ValueError, match=r"parameters the 'coulomb' law uses, one of \['mu', 'air_drag'\]\. Got 'mu_v'"):
        fit_friction(tracks, "coulomb", parameters=("mu", "mu_v"))
    with pytest.raises(ValueError, match=r"the 'linear' law uses, one of \['mu', 'mu_v', 'air_drag'\]\. Got 'stribeck_speed'"):
        fit_friction(tracks, "linear", parameters=("stribeck_speed",))
    with pytest.raises(TypeError, match=r"'data' parameter must be a Tracks or Segmentation \(e\.g\. from read_tracks\)"):
        fit_friction(pd.DataFrame({"disc": [0], "t": [0.0], "x": [0.0], "y": [0.0]}))
    # as the fits: not segment_tracks' "'tracks' parameter", nor an AttributeError of a path
    for data in (pd.DataFrame({"disc": [0], "t": [0.0], "x": [0.0], "y": [0.0]}), "shot.csv"):
        with pytest.raises(TypeError, match=r"^The 'data' parameter must be a Tracks or Segmentation \(e\.g\. from read_tracks\)"):
            compare_laws(data, ["coulomb"])
    with pytest.raises(ValueError, match="'parameters' option cannot be passed"):
        compare_laws(tracks, parameters=("mu",))
    with pytest.raises(ValueError, match="distinct friction laws"):
        compare_laws(tracks, ["coulomb", "coulomb"])
    with pytest.raises(ValueError, match=r"The 'laws' parameter must be one of \['coulomb'.*Got 'colomb'"):
        compare_laws(tracks, ["coulomb", "colomb"])
    # a string is not iterated letter by letter ("Got 'c'"): the message shows the list meant
    with pytest.raises(TypeError, match=r"sequence of friction law names, e\.g\. \['coulomb', 'linear'\]\. Got the string 'coulomb,linear'"):
        compare_laws(tracks, "coulomb,linear")
    with pytest.raises(TypeError, match=r"sequence of parameter names, e\.g\. \('mu_v',\)\. Got the string 'mu_v'"):
        fit_friction(tracks, "linear", parameters="mu_v")  # was "Got 'm'": the string's first letter
    # a powder name where PhysicsParams goes: a TypeError pointing at from_powder, not "no attribute 'with_'"
    with pytest.raises(TypeError, match=r"'params' parameter must be a PhysicsParams or None \(e\.g\. PhysicsParams\.from_powder\('club'\)\)"):
        fit_friction(tracks, params="club")
    with pytest.raises(TypeError, match=r"from_powder\('club'\)"):
        compare_laws(tracks, ["coulomb"], params="club")


def test_too_few_points():
    t = np.arange(5) / 120.0
    df = pd.DataFrame({"disc": 0, "t": t, "x": 2.0 * t, "y": 0.0})
    with pytest.raises(ValueError, match="Too few points"):
        fit_friction(Tracks(df), "coulomb")


def test_spin_coupled_law_needs_radii():
    tracks = shot(0, "coulomb").tracks()
    bare = Tracks(tracks.data, board=tracks.board, fps=tracks.fps)
    with pytest.raises(ValueError, match="'radius' of the tracks must be known"):
        fit_friction(bare, "slide_spin")
    assert fit_friction(bare, "coulomb").success  # positions alone do not need radii


def test_fittable_ranges_match_physics_params():
    for name, (lo, hi, _) in FITTABLE.items():
        PhysicsParams(**{name: hi})
        if lo > 0:
            PhysicsParams(**{name: lo})


def test_suspect_points_at_segment_ends_are_left_out():
    # seed 1 (Coulomb with drag): two segments start with a point taken one frame before
    # the impact that begins them, which the outlier screen flags
    seg = segment_tracks(shot(1, "coulomb", params=PhysicsParams(friction_law="coulomb", mu=0.12, air_drag=0.1)).tracks())
    fit = fit_friction(seg, "coulomb", parameters=("mu", "air_drag"))
    used = fit.residuals.merge(seg.points[["disc", "t", "suspect"]], on=["disc", "t"])
    for _, g in used.groupby("segment"):
        assert not g["suspect"].iat[0] and not g["suspect"].iat[-1]
    ends = seg.points.groupby("segment")["suspect"].agg(["first", "last"]).loc[fit.segments["segment"]]
    assert ends.to_numpy().any()  # the tracks have such points
    assert len(used) < int(seg.segments.set_index("segment").loc[fit.segments["segment"], "n_points"].sum())


def test_a_calibration_scale_error_moves_the_law_as_documented():
    """docs/fitting.md, 'What the intervals leave out': tracks whose lengths are all 1 % too
    long (a calibration scale off by s = 1.01) fit mu s times, air_drag 1/s times and mu_v
    unchanged; the intervals, of the tracking noise alone, do not include this."""
    syn = shot(3, "linear", params=PhysicsParams(friction_law="linear", mu=0.1, mu_v=0.03, air_drag=0.1))
    tracks, s = syn.tracks(), 1.01
    scaled = Tracks(tracks.data.assign(x=tracks.data["x"] * s, y=tracks.data["y"] * s), tracks.radius, tracks.board, tracks.fps)
    est = [
        fit_friction(segment_tracks(tr, breaks=syn.breaks()), "linear", parameters=("mu", "mu_v", "air_drag"))
        .estimates.set_index("parameter")["estimate"]
        for tr in (tracks, scaled)
    ]
    np.testing.assert_allclose((est[1] / est[0])[["mu", "mu_v", "air_drag"]], [s, 1.0, 1.0 / s], rtol=1e-5)


def test_compare_laws_with_air_drag_is_not_fooled_by_drag():
    """Coulomb friction with a coin's air drag (0.03 1/m): compared without drag, the
    linear law wins by a BIC of 14.6 with a spurious mu_v of 0.005 s/m; with
    ``air_drag=True`` Coulomb friction wins and the drag is recovered."""
    truth = PhysicsParams(friction_law="coulomb", mu=0.12, air_drag=0.03)
    seg = segment_tracks(shot(101, "coulomb", params=truth).tracks())
    assert compare_laws(seg, ["coulomb", "linear"]).best == "linear"
    comp = compare_laws(seg, ["coulomb", "linear"], air_drag=True)
    assert comp.best == "coulomb"
    est = comp.fits["coulomb"].estimates.set_index("parameter")
    assert list(est.index) == ["mu", "air_drag"]
    assert est.at["air_drag", "ci_low"] <= truth.air_drag <= est.at["air_drag", "ci_high"]
    with pytest.raises(TypeError, match=r"'air_drag' parameter must be a bool \(True or False\)\. Got 'yes' \(str\) instead"):
        compare_laws(seg, ["coulomb"], air_drag="yes")
