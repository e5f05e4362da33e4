"""The camera model of the synthetic tracks: determinism, noise, dropouts, outliers, angles."""

import numpy as np
import pytest

from .scenarios import shot


def test_same_seed_same_film():
    a, b = shot(3, "coulomb"), shot(3, "coulomb")
    assert a.pixels.equals(b.pixels) and not a.pixels.equals(shot(4, "coulomb").pixels)


def test_camera_model_statistics():
    syn = shot(0, "coulomb")
    truth, px = syn.truth, syn.pixels
    seen = truth[~truth["dropped"]].reset_index(drop=True)
    assert len(seen) == len(px)
    on_board = truth[truth["status"] == "board"]
    assert on_board["dropped"].mean() == pytest.approx(0.05, abs=0.03)
    u, v = syn.calibration.to_pixels(seen["x"], seen["y"])
    err = np.hypot(px["x"] - u, px["y"] - v)
    good = ~seen["outlier"].to_numpy()
    assert np.sqrt(np.mean(err[good] ** 2) / 2) == pytest.approx(0.5, rel=0.1)  # px per coordinate
    assert np.all((err[~good] > 8.0) & (err[~good] < 42.0))


def test_angles_integrate_the_spin():
    syn = shot(1, "slide_spin", angle_noise=0.0)
    tr = syn.truth[(syn.truth["disc"] == 1) & (syn.truth["status"] == "board")]
    # d(angle)/dt from the truth table equals the mean spin between frames
    dt = np.diff(tr["t"])
    rate = np.diff(tr["angle"]) / dt
    mean_spin = 0.5 * (tr["omega"].to_numpy()[1:] + tr["omega"].to_numpy()[:-1])
    smooth = np.abs(np.diff(tr["omega"])) < 1.0  # no impact in the frame gap
    np.testing.assert_allclose(rate[smooth], mean_spin[smooth], atol=0.05)
    # the image's sense of rotation is the board's mirrored (v points down)
    assert syn.calibration.angle_sign == -1


def test_bad_settings():
    syn = shot(0, "coulomb")
    r = syn.result
    from carromlab.fitting import BoardCalibration, make_synthetic_tracks

    with pytest.raises(ValueError, match="'dropout' parameter .* \\[0, 1\\)"):
        make_synthetic_tracks(r.scene, r.shot, dropout=1.0)
    with pytest.raises(ValueError, match="'px_per_m' parameter must be None when a camera is given"):
        make_synthetic_tracks(r.scene, r.shot, px_per_m=900.0, camera=BoardCalibration.metres())


def test_true_angles_are_the_truth_of_the_camera_model_in_any_row_order():
    """true_angles is step 6 of make_synthetic_tracks (the same seed: the same angles), and
    gives each row its angle whatever the order of the rows."""
    from carromlab.fitting import EXAMPLE_PARAMS, make_synthetic_tracks, random_cut_shot, true_angles

    scene, play = random_cut_shot(2)
    syn = make_synthetic_tracks(scene, play, EXAMPLE_PARAMS["slide_spin"], angle_noise=0.0, seed=5)
    truth = syn.truth
    np.testing.assert_array_equal(true_angles(syn.result, truth["disc"], truth["t_taken"], seed=5), truth["angle"])
    order = np.random.default_rng(0).permutation(len(truth))
    shuffled = true_angles(syn.result, truth["disc"].to_numpy()[order], truth["t_taken"].to_numpy()[order], seed=5)
    np.testing.assert_allclose(shuffled, truth["angle"].to_numpy()[order], rtol=0, atol=1e-9)


def test_true_angles_bad_input():
    from carromlab.fitting import true_angles

    res = shot(0, "coulomb").result
    with pytest.raises(TypeError, match="'result' parameter"):
        true_angles(res.events, [0], [0.0])
    with pytest.raises(ValueError, match=r"'disc' parameter must contain .* in the range \[0, 1\]. Got 2.0"):
        true_angles(res, [2], [0.0])
    with pytest.raises(ValueError, match="'disc' parameter must hold disc ids, whole numbers. Got 0.5"):
        true_angles(res, [0.5], [0.0])
    with pytest.raises(ValueError, match=r"'t' parameter must have shape \(1\)"):
        true_angles(res, [0], [0.0, 1.0])
    with pytest.raises(ValueError, match="'t' parameter must contain .* s. Got -1.0"):
        true_angles(res, [0], [-1.0])
