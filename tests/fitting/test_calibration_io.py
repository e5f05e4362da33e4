"""Saved calibrations: JSON and TOML round trips, presets by name, and file checks."""

import math

import pandas as pd
import pytest

from carromlab import PhysicsParams
from carromlab.fitting import calibration_names, load_calibration, read_calibration, register_calibration, save_calibration


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_round_trip_keeps_every_field(tmp_path, suffix):
    params = PhysicsParams(friction_law="stribeck", mu=0.0913, mu_static=0.151, stribeck_speed=0.27, e_cushion=0.71)
    notes = 'Starch, "club" board;\nfilmed at 120 fps — ünïcode'
    path = save_calibration(params, tmp_path / f"board{suffix}", name="club", notes=notes, uncertainty={"mu": 4e-4})
    cal = read_calibration(path)
    assert cal.params == params and math.isinf(cal.params.capture_speed_max)
    assert cal.name == "club" and cal.notes == notes and cal.uncertainty == {"mu": 4e-4}


def test_uncertainty_from_an_estimates_table(tmp_path):
    table = pd.DataFrame({"parameter": ["mu", "e_cushion"], "std_error": [1e-3, 0.01]})
    path = save_calibration(PhysicsParams(), tmp_path / "a.toml", name="a", uncertainty=table)
    assert read_calibration(path).uncertainty == {"mu": 1e-3, "e_cushion": 0.01}


def test_registered_name_is_a_preset(tmp_path):
    path = save_calibration(PhysicsParams(mu=0.077), tmp_path / "s.json", name="starch-test")
    assert register_calibration(path) == "starch-test" and "starch-test" in calibration_names()
    assert load_calibration("starch-test").mu == 0.077
    assert load_calibration(path).mu == 0.077


def test_hand_written_file_with_some_fields(tmp_path):
    path = tmp_path / "h.toml"
    path.write_text('[calibration]\nformat = "carromlab-calibration"\nname = "h"\n\n[params]\nmu = 0.09\n')
    assert load_calibration(path) == PhysicsParams(mu=0.09)


@pytest.mark.parametrize("suffix, text", [(".toml", "[params]\nmu = 0.09\n"), (".json", '{"params": {"mu": 0.09}}'),
                                           (".toml", '[calibration]\nname = "h"\n\n[params]\nmu = 0.09\n')])
def test_hand_written_file_without_the_format_header(tmp_path, suffix, text):
    """docs/fitting.md: a hand-written file may set only some fields; [params] alone is a calibration."""
    path = tmp_path / f"my_board{suffix}"
    path.write_text(text)
    cal = read_calibration(path)
    assert cal.params == PhysicsParams(mu=0.09) and cal.name == ("h" if "name" in text else "my_board")


@pytest.mark.parametrize(
    "text, match",
    [
        ('[calibration]\nformat = "other"\n', r"must be a carromlab calibration \(\[calibration\] format = 'carromlab-calibration', or no \[calibration\] table\)\. Got format 'other'"),
        ('[calibration]\nname = "h"\n', r"must have a \[params\] table of PhysicsParams fields \(e.g. mu = 0.12\)\. Got no \[params\] table"),
        ('[param]\nmu = 0.1\n', r"must have a \[params\] table"),
        ('[calibration]\nformat = "carromlab-calibration"\n[params]\nmuu = 0.1\n', "only PhysicsParams fields.*'muu'"),
        ('[calibration]\nformat = "carromlab-calibration"\n[params]\nmu = -0.1\n', r"'mu' parameter .* \[1e-06, 2\]"),
    ],
)
def test_bad_files(tmp_path, text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        read_calibration(path)


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match=r"'path' parameter must be a file name ending in one of"):
        save_calibration(PhysicsParams(), tmp_path / "a.yaml", name="a")
    with pytest.raises(ValueError, match="'name' parameter must be a non-empty str"):
        save_calibration(PhysicsParams(), tmp_path / "a.json", name=" ")
    with pytest.raises(ValueError, match="'uncertainty' parameter must name PhysicsParams fields"):
        save_calibration(PhysicsParams(), tmp_path / "a.json", name="a", uncertainty={"friction": 0.1})
    with pytest.raises(ValueError, match="registered calibration name"):
        load_calibration("never-registered")
