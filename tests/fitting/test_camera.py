"""Pixel-to-board calibrations: exact maps, inverses and input checks."""

import numpy as np
import pytest

from carromlab.fitting import BoardCalibration

H = 0.37


def test_corners_reproduce_a_perspective_camera(rng):
    corners = [[600.0, 905.0], [1320.0, 915.0], [1300.0, 180.0], [615.0, 170.0]]
    cal = BoardCalibration.from_corners(corners, 2 * H)
    x, y = cal.to_board(*np.array(corners).T)
    np.testing.assert_allclose(x, [-H, H, H, -H], atol=1e-12)
    np.testing.assert_allclose(y, [-H, -H, H, H], atol=1e-12)
    bx, by = rng.uniform(-H, H, (2, 50))
    np.testing.assert_allclose(cal.to_board(*cal.to_pixels(bx, by)), (bx, by), atol=1e-12)


def test_overhead_scale_and_orientation():
    cal = BoardCalibration.from_scale(1000.0, origin_px=(960.0, 540.0))
    assert cal.px_per_m == pytest.approx(1000.0)
    assert [float(c) for c in cal.to_board(1060.0, 440.0)] == pytest.approx([0.1, 0.1])
    assert cal.angle_sign == -1  # image v points down: its rotations are mirrored
    assert BoardCalibration.metres().angle_sign == 1


def test_corners_of_an_overhead_camera_give_the_same_map():
    cal = BoardCalibration.from_scale(800.0, origin_px=(500.0, 400.0))
    corners = np.column_stack(cal.to_pixels([-H, H, H, -H], [-H, -H, H, H]))
    again = BoardCalibration.from_corners(corners, 2 * H)
    np.testing.assert_allclose(again.homography, cal.homography, rtol=1e-9, atol=1e-12)


def test_known_length_and_dict_round_trip():
    cal = BoardCalibration.from_length((100.0, 50.0), (100.0, 520.0), 0.47, origin_px=(0.0, 0.0))
    assert cal.px_per_m == pytest.approx(1000.0)
    for c in (cal, BoardCalibration.from_corners([[0, 10], [10, 10], [10, 0], [0, 0]], 0.74), BoardCalibration.metres()):
        np.testing.assert_allclose(BoardCalibration.from_dict(c.to_dict()).homography, c.homography)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: BoardCalibration.from_corners([[0, 0], [1, 1], [2, 2], [0, 5]], 0.74), "collinear"),
        (lambda: BoardCalibration.from_corners([[0, 0], [1, 1]], 0.74), r"shape \(4, 2\)"),
        (lambda: BoardCalibration.from_corners([[0, 0], [1, 0], [1, 1], [0, np.nan]], 0.74), "finite"),
        (lambda: BoardCalibration.from_scale(-5.0, origin_px=(0, 0)), "'px_per_m'.*\\(0, inf\\)"),
        (lambda: BoardCalibration.from_length((1, 1), (1, 1), 0.5, origin_px=(0, 0)), "'p2_px'"),
        (lambda: BoardCalibration.from_dict({"scale": 3}), "calibration"),
        (lambda: BoardCalibration(np.zeros((3, 3))), "invertible"),
    ],
)
def test_bad_calibrations_are_named(make, match):
    with pytest.raises(ValueError, match=match):
        make()
