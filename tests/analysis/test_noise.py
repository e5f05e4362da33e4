"""Noise presets, counter-based draws and fitting spreads from recorded shots."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import ndtri

from carromlab.analysis import NOISE_PRESETS, NoiseModel, fit_noise
from carromlab.analysis._random import standard_normal, standard_uniform
from carromlab.analysis.noise import DIMENSIONS


@pytest.mark.parametrize("name", sorted(NOISE_PRESETS))
def test_presets_are_valid_and_documented(name):
    model = NoiseModel.preset(name)
    spreads, reasoning = NOISE_PRESETS[name]
    assert model.angle == pytest.approx(math.radians(spreads[2]))
    assert name == "none" or "[EST]" in reasoning


def test_presets_are_ordered_by_skill():
    levels = [NoiseModel.preset(n).spreads for n in ("none", "expert", "club", "beginner")]
    for lo, hi in zip(levels, levels[1:]):
        assert all(lo[k] < hi[k] for k in DIMENSIONS)


def test_preset_errors_name_the_parameter():
    with pytest.raises(ValueError, match=r"'name' parameter must be one of \['beginner', 'club', 'expert', 'none'\]. Got 'pro'"):
        NoiseModel.preset("pro")
    with pytest.raises(ValueError, match=r"'placement' parameter .* range \[0, 0.1\] m. Got -0.001"):
        NoiseModel(placement=-0.001)
    with pytest.raises(ValueError, match=r"'speed' parameter .* range \[0, 1\]. Got 2"):
        NoiseModel(speed=2)
    with pytest.raises(ValueError, match="'distribution'"):
        NoiseModel(distribution="cauchy")
    with pytest.raises(ValueError, match="'factor'"):
        NoiseModel.preset("club").scaled(-1.0)


def test_draws_are_keyed_by_seed_cell_and_replica():
    cell = np.repeat(np.arange(100), 50)
    rep = np.tile(np.arange(50), 100)
    a = standard_normal(7, cell, rep, 2)
    # any subset, in any order, gives the same values for the same keys
    idx = np.random.default_rng(0).permutation(len(cell))[:300]
    np.testing.assert_array_equal(standard_normal(7, cell[idx], rep[idx], 2), a[idx])
    assert not np.allclose(standard_normal(8, cell, rep, 2), a)
    assert not np.allclose(standard_normal(7, cell, rep, 3), a)
    assert abs(a.mean()) < 0.05 and abs(a.std() - 1.0) < 0.05
    u = standard_uniform(7, cell, rep, 0)
    assert 0.0 < u.min() and u.max() < 1.0
    # several dimensions in one call (broadcast along a leading axis) are the one-dimension draws
    both = standard_uniform(7, cell[None], rep[None], np.array([[0], [2]]))
    np.testing.assert_array_equal(both[0], u)
    np.testing.assert_array_equal(ndtri(both[1]), a)
    # a tuple is one seed's entropy (a search stage's streams), an array one seed per draw
    staged = standard_uniform((7, 1), cell, rep, 0)
    assert staged.shape == u.shape and not np.allclose(staged, u)
    per_draw = standard_uniform(np.where(cell % 2 == 0, 7, 8), cell, rep, 0)
    np.testing.assert_array_equal(per_draw[cell % 2 == 0], u[cell % 2 == 0])
    np.testing.assert_array_equal(per_draw[cell % 2 == 1], standard_uniform(8, cell, rep, 0)[cell % 2 == 1])


def test_uniform_distribution_has_the_spread_as_standard_deviation():
    e = NoiseModel(angle=0.01, distribution="uniform").errors(3, np.arange(20000), 0)["angle"]
    assert np.abs(e).max() <= 0.01 * math.sqrt(3.0)
    assert e.std() == pytest.approx(0.01, rel=0.03)


def _recorded(rng, n, spreads, bias=0.0):
    intended = {
        "placement": rng.uniform(-0.2, 0.2, n), "depth": np.zeros(n), "angle": rng.uniform(-math.pi, math.pi, n),
        "speed": rng.uniform(1.0, 6.0, n), "spin": np.zeros(n),
    }  # fmt: skip
    cols = {}
    for name, v in intended.items():
        err = bias + spreads[name] * rng.standard_normal(n)
        cols[f"intended_{name}"] = v
        cols[f"executed_{name}"] = v * (1.0 + err) if name == "speed" else v + err
    return pd.DataFrame(cols)


def test_fit_recovers_known_spreads(rng):
    truth = NoiseModel.preset("club").spreads
    fit = fit_noise(_recorded(rng, 4000, truth))
    for name, value in truth.items():
        assert fit.model.spreads[name] == pytest.approx(value, rel=0.05)
        row = fit.table.set_index("dimension").loc[name]
        assert row["spread_low"] < value < row["spread_high"]


def test_fit_reports_bias_separately_and_wraps_angles(rng):
    n = 2000
    aim = np.full(n, math.pi - 0.001)
    executed = aim + 0.004 + 0.01 * rng.standard_normal(n)  # crosses +-pi
    fit = fit_noise(pd.DataFrame({"intended_angle": aim, "executed_angle": executed}), base=NoiseModel.preset("expert"))
    row = fit.table.iloc[0]
    assert row["bias"] == pytest.approx(0.004, abs=1e-3)
    assert fit.model.angle == pytest.approx(0.01, rel=0.06)
    assert fit.model.speed == NoiseModel.preset("expert").speed  # not recorded: from base


def test_fit_errors():
    with pytest.raises(ValueError, match="'recorded' parameter must have at least one pair of columns"):
        fit_noise(pd.DataFrame({"angle": [1.0, 2.0]}))
    with pytest.raises(ValueError, match="at least 2 rows"):
        fit_noise(pd.DataFrame({"intended_angle": [1.0], "executed_angle": [1.0]}))
    with pytest.raises(ValueError, match="intended_speed > 0"):
        fit_noise(pd.DataFrame({"intended_speed": [0.0, 1.0], "executed_speed": [1.0, 1.0]}))
    with pytest.raises(ValueError, match="finite values in column 'executed_angle'"):
        fit_noise(pd.DataFrame({"intended_angle": [0.0, 1.0], "executed_angle": [np.nan, 1.0]}))
    with pytest.raises(ValueError, match="'angle' parameter"):  # a spread beyond the model's range
        fit_noise(pd.DataFrame({"intended_angle": [0.0, 0.0, 0.0], "executed_angle": [-2.0, 0.0, 2.0]}))


def test_fit_takes_the_aim_in_degrees_and_refuses_degrees_in_the_radian_columns(rng):
    # a coach records aims in degrees: 90 +- 0.8 deg
    aim = rng.uniform(60.0, 120.0, 4000)
    executed = aim + rng.normal(0.0, 0.8, 4000)
    fit = fit_noise(pd.DataFrame({"intended_angle_deg": aim, "executed_angle_deg": executed}))
    assert fit.model.angle == pytest.approx(math.radians(0.8), rel=0.05)
    assert fit.table["dimension"].tolist() == ["angle"]
    # the same numbers under the radian names: refused by column, not fitted as a 0.8 rad spread
    with pytest.raises(ValueError, match=r"column 'intended_angle' is in radians .* intended_angle_deg / executed_angle_deg"):
        fit_noise(pd.DataFrame({"intended_angle": aim, "executed_angle": executed}))
    both = pd.DataFrame({"intended_angle": [1.0, 1.1], "executed_angle": [1.0, 1.1],
                         "intended_angle_deg": [57.0, 63.0], "executed_angle_deg": [57.0, 63.0]})  # fmt: skip
    with pytest.raises(ValueError, match="not both"):
        fit_noise(both)
