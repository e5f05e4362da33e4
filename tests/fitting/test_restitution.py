"""Restitution and contact friction from the velocities around impacts."""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot
from carromlab.fitting import Tracks, fit_restitution, make_synthetic_tracks

# e_disc 0.9, e_cushion 0.75, mu_contact = mu_cushion = 0.12; the Coulomb law, whose constant
# deceleration is what fit_restitution(deceleration=...) removes around an impact
TRUTH = PhysicsParams(friction_law="coulomb")


def glancing(seed, **camera):
    """A thin cut (impact parameter 0.8 of the radii): the contact slides, and the coin and
    striker bounce off several cushions."""
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.05]}))
    sx, sy, reach = 0.05, -0.25, 0.0155 + 0.02065
    aim = math.atan2(0.05 - sy, -sx) + math.asin(0.8 * reach / math.hypot(sx, 0.05 - sy))
    camera = {"angle_noise": 0.05, **camera}
    return make_synthetic_tracks(scene, Shot(sx, sy, aim, 3.0), TRUTH, seed=seed, **camera)


def test_nearly_noiseless_impacts_give_walton_values():
    syn = glancing(0, pixel_noise=0.01, outlier_rate=0.0, dropout=0.0, angle_noise=1e-3)
    fit = fit_restitution(syn.tracks(), deceleration=TRUTH.deceleration)
    used = fit.impacts[fit.impacts["used"]]
    assert set(used["kind"]) == {"disc", "cushion"}
    e_true = np.where(used["kind"] == "disc", TRUTH.e_disc, TRUTH.e_cushion)
    np.testing.assert_allclose(used["e"], e_true, atol=0.01)
    sliding = used[used["sliding"]]
    assert len(sliding) >= 2 and set(sliding["kind"]) == {"disc", "cushion"}
    np.testing.assert_allclose(sliding["mu_ratio"], 0.12, atol=0.01)
    assert (used.loc[~used["sliding"], "mu_ratio"] <= 0.12 + 0.01).all()  # sticking: a lower bound


@pytest.mark.parametrize("seed", range(3))
def test_estimates_cover_the_truth(seed):
    fit = fit_restitution(glancing(seed).tracks(), deceleration=TRUTH.deceleration)
    est = fit.estimates.set_index("parameter")
    for name in ("e_disc", "e_cushion", "mu_cushion"):
        assert abs(est.at[name, "estimate"] - getattr(TRUTH, name)) < 3 * est.at[name, "std_error"], name
    params = fit.params()
    assert params.e_cushion == pytest.approx(est.at["e_cushion", "estimate"])


def test_without_angles_moving_spins_are_unknown():
    syn = glancing(0)
    bare = syn.tracks()
    tracks = Tracks(bare.data.drop(columns="angle"), bare.radius, bare.board, bare.fps)
    fit = fit_restitution(tracks)  # parabolas: no deceleration given
    assert not fit.impacts["spin_known"].all() and not fit.impacts["sliding"].any()
    assert not fit.estimates["parameter"].str.startswith("mu").any()
    assumed = fit_restitution(tracks, assume_no_spin=True)
    assert assumed.impacts["spin_known"].all()


def test_bad_input():
    tracks = glancing(0).tracks()
    with pytest.raises(ValueError, match="'window' parameter must be an int in the range \\[4, inf\\)"):
        fit_restitution(tracks, window=3)
    with pytest.raises(ValueError, match="'deceleration' parameter"):
        fit_restitution(tracks, deceleration=-1.0)
    with pytest.raises(ValueError, match="'radius' of the tracks must be known"):
        fit_restitution(Tracks(tracks.data, board=tracks.board))
    from carromlab.fitting.restitution_fit import RestitutionFit

    fit = RestitutionFit(pd.DataFrame(), pd.DataFrame({"parameter": ["e_cushion"], "estimate": [0.8]}))
    assert fit.params(PhysicsParams.from_powder("club")).e_cushion == 0.8
    with pytest.raises(TypeError, match=r"The 'base' parameter must be .*PhysicsParams.from_powder\('club'\).*Got 'club'"):
        fit.params(base="club")
