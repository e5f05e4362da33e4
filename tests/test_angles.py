"""Angles in degrees wherever an angle is taken: each conversion, each error (radians beyond
2π suggest the _deg spelling; both spellings at once), and the _deg columns of tables."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, Scene, Shot, simulate_batch
from carromlab.match.policies import GreedyPolicy, RandomPolicy
from carromlab.analysis import (
    NoiseModel,
    PocketPiece,
    ShotGrid,
    ShotPopulation,
    cut_aim,
    ghost_aim,
    margin_of_error,
    success_map,
    target_geometry,
)

SCENE = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.25], "y": [0.25]}))
TARGET = PocketPiece(0, "ne").target(SCENE)
BEYOND = "The 'angle' parameter is in radians and must lie in [-2π, 2π] (±6.283 rad). Got 90 rad (5156.6 degrees) instead; did you mean angle_deg=90?"


def test_shot_takes_degrees():
    assert Shot(0, -0.2526, angle_deg=90, speed=3).angle == math.pi / 2
    assert Shot(0, -0.2526, angle_deg=-30.0, speed=3) == Shot(0, -0.2526, math.radians(-30.0), 3)
    assert Shot(0, -0.2526, 2 * math.pi, 3).angle == 2 * math.pi  # one full turn is still radians
    assert Shot.from_deg(0, -0.2526, angle_deg=45, speed=3).angle_deg == pytest.approx(45.0)


def test_shot_degree_errors():
    with pytest.raises(ValueError, match=re.escape(BEYOND)):
        Shot(0, -0.2526, angle=90, speed=3)
    with pytest.raises(ValueError, match="did you mean angle_deg=-7"):
        Shot(0, -0.2526, -7.0, 3)
    with pytest.raises(ValueError, match="either as 'angle' .* or as 'angle_deg'"):
        Shot(0, -0.2526, angle=1.0, angle_deg=57.3, speed=3)
    with pytest.raises(TypeError, match="'angle' parameter \\(rad\\) or 'angle_deg'"):  # missing, as Python says
        Shot(0, -0.2526, speed=3)
    with pytest.raises(ValueError, match="'angle_deg' parameter"):
        Shot(0, -0.2526, angle_deg=float("nan"), speed=3)
    # one turn bounds degrees as it bounds radians, so a shot's row is a shot again
    with pytest.raises(ValueError, match=re.escape("'angle_deg' parameter must be a finite real number in the range [-360, 360] deg. Got 400")):
        Shot(0, -0.2526, angle_deg=400, speed=3)
    turn = Shot(0, -0.2526, angle_deg=-360, speed=3)
    assert Shot(*turn.row) == turn


def test_batch_takes_degrees():
    scene = Scene.icf_break()
    deg = simulate_batch(scene, [0.0, 0.05], -0.2526, angle_deg=[90.0, 80.0], speed=6.0)
    rad = simulate_batch(scene, [0.0, 0.05], -0.2526, np.radians([90.0, 80.0]), 6.0)
    pd.testing.assert_frame_equal(deg, rad)
    with pytest.raises(ValueError, match=re.escape(BEYOND)):
        simulate_batch(scene, 0.0, -0.2526, 90, 6.0)
    with pytest.raises(ValueError, match="either as 'angle' .* or as 'angle_deg'"):
        simulate_batch(scene, 0.0, -0.2526, 1.0, 6.0, angle_deg=57.3)
    with pytest.raises(TypeError, match="'speed' parameter \\(m/s\\) is required"):
        simulate_batch(scene, 0.0, -0.2526, angle_deg=90)


def test_grid_and_population_take_degrees():
    assert ShotGrid(placement=[0.0], angle_deg=[80, 90], speed=[2.0]) == ShotGrid([0.0], np.radians([80, 90]), [2.0])
    assert ShotGrid(placement=[0.0], angle_deg=[-20.0], speed=[2.0], aim="cut").angle == (math.radians(-20.0),)
    with pytest.raises(ValueError, match=re.escape(BEYOND)):
        ShotGrid(placement=[0.0], angle=[90], speed=[2.0])
    with pytest.raises(ValueError, match="not both"):
        ShotGrid(placement=[0.0], angle=[1.0], angle_deg=[57.0], speed=[2.0])
    # offsets from the ghost or pack aim lie within half a turn, cut angles within a quarter:
    # degrees typed as radians are refused with the hint (before, -4 and 4 were taken as radians)
    assert ShotGrid(placement=[0.0], angle=[-math.pi, math.pi], speed=[2.0], aim="pack").angle == (-math.pi, math.pi)
    for aim, bad, first, allowed in (("ghost", [-4, 0, 4], -4, "[-3.14159, 3.14159]"), ("pack", [0.0, 10.0], 10, "[-3.14159, 3.14159]"),
                                     ("cut", [5.0], 5, "[-1.5708, 1.5708]")):  # fmt: skip
        with pytest.raises(ValueError, match=re.escape(f"must lie in {allowed} rad. Got {first:g} rad") + ".*did you mean angle_deg"):
            ShotGrid(placement=[0.0], angle=bad, speed=[2.0], aim=aim)
    with pytest.raises(ValueError, match=re.escape("'angle_deg' parameter must contain finite real numbers in the range [-180, 180] deg")):
        ShotGrid(placement=[0.0], angle_deg=[200.0], speed=[2.0], aim="ghost")
    pop = ShotPopulation(angle_deg=(-10.0, 10.0), speed=(1.0, 2.0), n=3)
    assert pop.angle == pytest.approx((math.radians(-10.0), math.radians(10.0)))
    with pytest.raises(ValueError, match="did you mean angle_deg=-50"):
        ShotPopulation(angle=(-50, 50), speed=(1.0, 2.0), n=3)


def test_aiming_functions_take_degrees():
    x, y = 0.1, -0.2526
    assert cut_aim(SCENE, TARGET, x, y, cut_deg=20.0) == pytest.approx(cut_aim(SCENE, TARGET, x, y, math.radians(20.0)))
    with pytest.raises(ValueError, match="did you mean cut_deg=30"):
        cut_aim(SCENE, TARGET, x, y, 30.0)
    # a cut beyond a quarter turn misses: no aim gives it (95 deg read as 89.9, -200 as 20 before)
    for kw, text in (({"cut_deg": 95}, "'cut_deg' parameter must lie in the range [-90, 90] deg"),
                     ({"cut_deg": [20.0, -200.0]}, "'cut_deg' parameter .* Got -200 deg at index 1"),
                     ({"cut": 1.6}, "'cut' parameter must lie in the range [-π/2, π/2] rad")):  # fmt: skip
        with pytest.raises(ValueError, match=text.replace("[", r"\[").replace("]", r"\]")):
            cut_aim(SCENE, TARGET, x, y, **kw)
    assert np.isfinite(cut_aim(SCENE, TARGET, x, y, cut_deg=[-90.0, 90.0])).all()  # grazing is the limit
    angle, cut = ghost_aim(SCENE, TARGET, x, y)
    geo = target_geometry(SCENE, TARGET, x, y, angle_deg=np.degrees(angle))
    assert geo["cut"].to_numpy() == pytest.approx(cut) and geo["cut_deg"].to_numpy() == pytest.approx(np.degrees(cut))
    with pytest.raises(ValueError, match="not both"):
        target_geometry(SCENE, TARGET, x, y, angle, angle_deg=np.degrees(angle))


def test_tables_carry_degree_columns():
    grid = ShotGrid(placement=[0.0], angle_deg=np.linspace(-4, 4, 9), speed=[2.5, 3.0], aim="ghost")
    df = success_map(SCENE, PocketPiece(0, "ne"), grid, noise=NoiseModel.preset("none"), replicas=1, progress=False)
    for col in ("aim", "angle", "cut"):
        assert df.columns.get_loc(f"{col}_deg") == df.columns.get_loc(col) + 1
        np.testing.assert_allclose(df[f"{col}_deg"], np.degrees(df[col]))
    assert df["aim_deg"].tolist() == pytest.approx(np.tile(np.repeat(np.linspace(-4, 4, 9), 2), 1).tolist())
    m = margin_of_error(df)
    for col in ("best_aim", "best_angle", "aim_low", "aim_high", "aim_window", "margin", "cut"):
        np.testing.assert_allclose(m[f"{col}_deg"], np.degrees(m[col]))


def test_break_rotation_takes_degrees():
    pd.testing.assert_frame_equal(Scene.icf_break(rotation_deg=30.0).pieces, Scene.icf_break(math.radians(30.0)).pieces)
    with pytest.raises(ValueError, match="did you mean rotation_deg=90"):
        Scene.icf_break(90)


@pytest.mark.parametrize(
    ("make", "name", "degrees", "low", "high"),
    [
        (lambda **kw: NoiseModel(**kw), "angle", 0.8, 0.0, 45.0),
        (lambda **kw: GreedyPolicy(**kw), "cut_limit", 60.0, 0.0, 90.0),
        (lambda **kw: RandomPolicy(**kw), "spread", 45.0, 0.0, 180.0),
    ],
    ids=["NoiseModel.angle", "GreedyPolicy.cut_limit", "RandomPolicy.spread"],
)
def test_spreads_and_limits_take_degrees(make, name, degrees, low, high):
    assert getattr(make(**{f"{name}_deg": degrees}), name) == math.radians(degrees)
    assert make(**{f"{name}_deg": degrees}) == make(**{name: math.radians(degrees)})
    # degrees typed as radians: out of the radian range, inside it read as degrees
    with pytest.raises(ValueError, match=re.escape(f"'{name}' parameter is in radians and must lie in ")
                       + f".* Got {degrees:g} rad .* did you mean {name}_deg={degrees:g}\\?"):  # fmt: skip
        make(**{name: degrees})
    with pytest.raises(ValueError, match="not both"):
        make(**{name: math.radians(degrees), f"{name}_deg": degrees})
    with pytest.raises(ValueError, match=re.escape(f"'{name}_deg' parameter must be a finite real number in the range ")
                       + f"[\\[(]{low:g}, {high:g}\\] deg. Got {high + 1:g}"):  # fmt: skip
        make(**{f"{name}_deg": high + 1})
    # out of range either way: the plain range message, no degree hint
    with pytest.raises(ValueError, match=f"'{name}' parameter must be a finite real number in the range .* rad. Got -0.01 instead"):
        make(**{name: -0.01})


def test_default_spreads_and_limits_are_unchanged():
    assert NoiseModel().angle == 0.0 and NoiseModel.preset("club").angle == math.radians(0.8)
    assert GreedyPolicy().cut_limit == math.radians(75.0) and RandomPolicy().spread == math.pi / 2
