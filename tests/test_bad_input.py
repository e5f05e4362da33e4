"""Bad input to the API: each case of issue 13 is a ValueError (or a TypeError for a wrong
type) naming the parameter or the file and line, the value and what is allowed; a
hypothesis fuzz checks that no malformed value gets through as anything else."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carromlab import Board, DiscSpec, PhysicsParams, Scene, Shot, simulate, simulate_batch
from carromlab.fitting.calibration_io import read_calibration, save_calibration
from carromlab.fitting.camera import BoardCalibration
from carromlab.fitting.tracks import Tracks, read_tracks, write_tracks
from carromlab.rules import GameState, icf

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
BREAK_Y = -0.2526


# -- placements: pegs, capture circles and holes are obstacles like pieces -------------------
def test_striker_overlapping_a_crokinole_peg_is_rejected():
    scene = Scene.crokinole_empty()
    peg = scene.board.pegs[0]
    with pytest.raises(ValueError, match=r"peg at \(0\.03888, 0\.09387\) m"):
        simulate(scene, Shot(peg.x + 0.01, peg.y, angle=0.0, speed=3.0))


def test_striker_in_the_20_hole_is_rejected():
    with pytest.raises(ValueError, match=r"capture circle of hole '20'"):
        simulate(Scene.crokinole_empty(), Shot(0.003, 0.0, angle=0.0, speed=6.0))


def test_striker_in_a_pocket_capture_circle_is_rejected_in_single_and_batch_shots():
    scene = Scene.icf_break()
    with pytest.raises(ValueError, match=r"capture circle of hole 'ne'.*by"):
        simulate(scene, Shot(0.3475, 0.3475, angle=math.pi, speed=1.0))
    with pytest.raises(ValueError, match=r"at shot 1, overlapping the capture circle of hole 'ne'"):
        simulate_batch(scene, [0.0, 0.3475], [BREAK_Y, 0.3475], math.pi / 2, 2.0)


def test_placement_just_clear_of_a_peg_is_accepted():
    scene = Scene.crokinole_empty()
    peg, r = scene.board.pegs[0], scene.specs["dark"].radius
    d = peg.radius + r + 1e-6
    res = simulate(scene, Shot(peg.x + d, peg.y, angle=0.0, speed=0.5))
    assert res.striker_fate in ("board", "pocketed", "ditch")


# -- wrong types -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "name", "got"),
    [({"angle": ["a"]}, "angle", "'a'"), ({"speed": 3 + 1j}, "speed", "(3+1j)"), ({"x": [0.0, None]}, "x", "None")],
)
def test_batch_rejects_non_numbers_by_name(kwargs, name, got):
    args = {"x": 0.0, "y": BREAK_Y, "angle": math.pi / 2, "speed": 3.0} | kwargs
    with pytest.raises(TypeError, match=rf"The '{name}' parameter must hold real numbers.*Got {__import__('re').escape(got)}"):
        simulate_batch(Scene.icf_break(), **args)


def test_params_given_as_a_powder_name_suggests_from_powder():
    with pytest.raises(TypeError, match=r"'params' parameter must be a PhysicsParams.*from_powder\('club'\)"):
        simulate(Scene.icf_break(), Shot(0.0, BREAK_Y, math.pi / 2, 3.0), params="club")
    with pytest.raises(TypeError, match=r"'params'"):
        simulate_batch(Scene.icf_break(), 0.0, BREAK_Y, math.pi / 2, 3.0, params="club")


@pytest.mark.parametrize("call", [lambda: simulate(None, Shot(0.0, BREAK_Y, 1.5, 3.0)), lambda: simulate_batch(None, 0.0, BREAK_Y, 1.5, 3.0)])
def test_scene_none_is_a_type_error_naming_scene(call):
    with pytest.raises(TypeError, match=r"The 'scene' parameter must be a Scene.*Got None"):
        call()


def test_shot_none_is_a_type_error_naming_shot():
    with pytest.raises(TypeError, match=r"The 'shot' parameter must be a Shot"):
        simulate(Scene.icf_break(), None)


def test_a_billion_shots_are_refused_up_front_with_the_memory_needed():
    speed = np.broadcast_to(3.0, (10**9,))  # no memory behind it
    with pytest.raises(ValueError, match=r"1,000,000,000 shots need about 256 GB .* memory\. Run the shots in parts"):
        simulate_batch(Scene.icf_break(), 0.0, BREAK_Y, math.pi / 2, speed)


def test_a_grid_or_break_study_too_large_for_memory_is_refused_before_any_shot():
    """A success map of 10**8 placements was numpy's MemoryError (a traceback from the CLI);
    a break study's rows, all returned at once, ran out of memory after the sweep."""
    from carromlab.analysis import ShotGrid, StrikerLine
    from carromlab.analysis.breaks import break_study

    scene = Scene.icf_break()
    huge = ShotGrid(placement=np.zeros(10**4), angle=np.zeros(10**4), speed=np.ones(10**3))
    with pytest.raises(ValueError, match=r"^100,000,000,000 cells need about 1\.6e\+04 GB .* memory\. Use fewer placements"):
        huge.cells(scene, StrikerLine.for_scene(scene))
    breaks = ShotGrid(placement=np.zeros(10**3), angle=np.zeros(10**3), speed=[6.0], aim="pack")
    with pytest.raises(ValueError, match=r"^2,097,152,000,000 noisy breaks need about .* memory\. Use fewer replicas or breaks\.$"):
        break_study(scene, breaks, replicas=2**21, progress=False)


# -- copies with changed fields: an unknown field is named, with the close and valid ones ------------
@pytest.mark.parametrize(
    ("make", "where", "close"),
    [
        (lambda: PhysicsParams().with_(muu=0.1), r"PhysicsParams\.with_", "'mu'"),
        (lambda: PhysicsParams.from_powder("club", e_dsc=0.8), r"PhysicsParams\.from_powder", "'e_disc'"),
        (lambda: DiscSpec.icf_coin().with_(radus=0.016), r"DiscSpec\.with_", "'radius'"),
        (lambda: icf.new_game(2).with_(shoter=1), r"GameState\.with_", "'shooter'"),
    ],
)
def test_with_an_unknown_field_names_it_and_the_close_and_valid_fields(make, where, close):
    # dataclasses.replace said only "__init__() got an unexpected keyword argument"
    with pytest.raises(TypeError, match=rf"{where} got an unknown field '\w+' \(did you mean {close}.*\)\. The fields of \w+ are \["):
        make()


def test_with_a_far_off_name_lists_the_fields_without_a_guess():
    with pytest.raises(TypeError, match=r"unknown field 'zzz'\. The fields of PhysicsParams are \['mu', 'g', "):
        PhysicsParams().with_(zzz=1)


# -- calibration files ------------------------------------------------------------------------
@pytest.fixture
def calibration_text(tmp_path):
    return save_calibration(PhysicsParams(), tmp_path / "c.toml", name="club").read_text()


def test_malformed_toml_names_file_and_line(tmp_path, calibration_text):
    path = tmp_path / "bad.toml"
    path.write_text(calibration_text.replace("mu = 0.12", "mu = "))
    with pytest.raises(ValueError, match=r"calibration file '.*bad\.toml' must be valid TOML.*line 9"):
        read_calibration(path)


def test_malformed_json_names_file_and_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"calibration": {"format": "carromlab-calibration",\n "version": 1,,}}')
    with pytest.raises(ValueError, match=r"calibration file '.*bad\.json' must be valid JSON.*line 2, column 15"):
        read_calibration(path)


def test_calibration_without_params_is_an_error_not_defaults(tmp_path, calibration_text):
    path = tmp_path / "noparams.toml"
    path.write_text(calibration_text.split("[params]")[0])
    with pytest.raises(ValueError, match=r"must have a \[params\] table.*Got no \[params\] table"):
        read_calibration(path)


def test_bad_calibration_value_names_file_line_and_parameter(tmp_path, calibration_text):
    path = tmp_path / "mu.toml"
    path.write_text(calibration_text.replace("e_peg = 0.6", "e_peg = 7"))
    with pytest.raises(ValueError, match=r"'mu\.toml', line 22: The 'e_peg' parameter .* \[0, 1\]\. Got 7"):
        read_calibration(path)


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("uncertainty = [0.1]", r"The 'uncertainty' parameter must be a Mapping or DataFrame .*Got \[0\.1\] \(list\)"),
        ("[uncertainty]\nmu = -0.1", r"The \"uncertainty\['mu'\]\" parameter must be a finite real number in the range \[0, inf\)\. Got -0\.1"),
        ("[uncertainty]\nmu = 'small'", r".*Got 'small' \(str\)"),
    ],
)
def test_a_bad_uncertainty_table_names_the_file(tmp_path, calibration_text, table, words):
    """A list was an AttributeError (a traceback from the CLI); a bad value did not say which file."""
    path = tmp_path / "u.toml"
    path.write_text(table + "\n" + calibration_text.split("[uncertainty]")[0])
    with pytest.raises(ValueError, match=rf"^The file 'u\.toml' must have an \[uncertainty\] table of standard errors: {words}"):
        read_calibration(path)


@pytest.mark.parametrize(("entry", "value", "got"), [("name", "null", "None (NoneType)"), ("name", "3", "3 (int)"), ("notes", "null", "None (NoneType)")])
def test_a_calibration_name_or_notes_of_no_str_is_refused_naming_file_and_entry(tmp_path, entry, value, got):
    """A null name became the name 'None'."""
    path = tmp_path / "n.json"
    path.write_text(f'{{"calibration": {{"{entry}": {value}}}, "params": {{"mu": 0.1}}}}')
    with pytest.raises(TypeError, match=rf"^The file 'n\.json' must have a str \[calibration\] {entry}\. Got {re.escape(got)} instead\.$"):
        read_calibration(path)


@pytest.mark.parametrize("name", ["", "   "])
def test_a_blank_calibration_name_is_refused_as_save_calibration_refuses_it(tmp_path, name):
    path = tmp_path / "b.json"
    path.write_text(f'{{"calibration": {{"name": "{name}"}}, "params": {{"mu": 0.1}}}}')
    with pytest.raises(ValueError, match=rf"^The file 'b\.json' must have a non-empty \[calibration\] name\. Got '{name}' instead\.$"):
        read_calibration(path)


# -- track files --------------------------------------------------------------------------------
def test_empty_tracks_csv_names_the_file(tmp_path):
    (tmp_path / "e.csv").write_text("")
    with pytest.raises(ValueError, match=r"track file '.*e\.csv' must hold a CSV table.*empty file"):
        read_tracks(tmp_path / "e.csv")


def test_a_track_row_of_a_value_more_than_the_header_is_refused_not_shifted(tmp_path):
    """Pandas made the disc column the index and read t as disc, x as t, y as x: wrong
    tracks, or an error about integers in the 'disc' column."""
    (tmp_path / "t.csv").write_text("disc,t,x,y\n0,0,0.10,0.2,0\n0,1,0.11,0.2,0\n")
    with pytest.raises(ValueError, match=r"track file '.*t\.csv' must have no more values in a row than names in its header .*Got 5 values for 4 names on line 2"):
        read_tracks(tmp_path / "t.csv")
    (tmp_path / "t.csv").write_text("disc,t,x,y\n0,0,0.10,0.2,\n0,1,0.11,0.2,\n")  # a trailing comma: read as nothing
    assert read_tracks(tmp_path / "t.csv").data["x"].tolist() == [0.10, 0.11]


def test_malformed_sidecar_names_file_and_line(tmp_path):
    (tmp_path / "t.csv").write_text("disc,t,x,y\n0,0,0,0\n0,0.01,0.01,0\n")
    (tmp_path / "t.json").write_text('{"fps": 100,\n')
    with pytest.raises(ValueError, match=r"track sidecar '.*t\.json' must be valid JSON.*line 2"):
        read_tracks(tmp_path / "t.csv")


@pytest.mark.parametrize("units", ["cm", "mm", "pixels", None])
def test_sidecar_units_other_than_px_or_m_are_refused(tmp_path, units):
    """Units "cm" with a pixel calibration were read as pixels, without a word."""
    (tmp_path / "t.csv").write_text("disc,t,x,y\n0,0,960,540\n0,0.01,970,540\n")
    cal = {"px_per_m": 1000.0, "origin_px": [960.0, 540.0]}
    (tmp_path / "t.json").write_text(json.dumps({"units": units, "fps": 100, "calibration": cal}))
    with pytest.raises(ValueError, match=rf"track sidecar '.*t\.json' must give units \"px\" or \"m\".*Got {units!r} instead"):
        read_tracks(tmp_path / "t.csv")
    (tmp_path / "t.json").write_text(json.dumps({"units": "px", "fps": 100, "calibration": cal}))
    assert read_tracks(tmp_path / "t.csv").data["x"].tolist() == pytest.approx([0.0, 0.01])


def test_metre_tracks_with_a_pixel_calibration_are_refused(tmp_path):
    """A sidecar saying units "m" that also holds a calibration (a copied template) put every
    point near (-0.96, 0.54) m: the metres went through the pixel map, without a word."""
    (tmp_path / "t.csv").write_text("disc,t,x,y\n0,0,0.0,-0.2\n0,0.01,0.01,-0.2\n0,0.02,0.02,-0.2\n")
    cal = {"px_per_m": 1000.0, "origin_px": [960.0, 540.0]}
    (tmp_path / "t.json").write_text(json.dumps({"units": "m", "fps": 100, "calibration": cal}))
    with pytest.raises(ValueError, match=r"track sidecar '.*t\.json' gives units \"m\" and a pixel calibration is given too"):
        read_tracks(tmp_path / "t.csv")
    (tmp_path / "t.json").write_text(json.dumps({"units": "m", "fps": 100}))
    assert read_tracks(tmp_path / "t.csv").data["y"].tolist() == [-0.2, -0.2, -0.2]
    with pytest.raises(ValueError, match=r"'calibration' parameter must be None for units='m'"):
        write_tracks(pd.read_csv(tmp_path / "t.csv"), tmp_path / "w.csv", units="m", calibration=BoardCalibration.from_dict(cal))


BACKWARDS = pd.DataFrame({"disc": 0, "t": [0.0, 0.2, 0.1], "x": [0.0, 0.1, 0.19], "y": 0.0})


def test_track_errors_name_the_argument_passed(tmp_path):
    # every check said "The 'tracks' parameter", a parameter no one passed
    times = r"must have strictly increasing times t within each disc"
    with pytest.raises(ValueError, match=rf"^The 'data' parameter {times}"):
        Tracks(data=BACKWARDS)
    with pytest.raises(TypeError, match=r"^The 'data' parameter must be a pandas DataFrame"):
        Tracks(data=[1, 2])
    with pytest.raises(ValueError, match=rf"^The 'frame' parameter {times}"):
        Tracks.from_frame(BACKWARDS)
    with pytest.raises(ValueError, match=r"^The 'frame' parameter must hold board coordinates in metres"):
        Tracks.from_frame(BACKWARDS.assign(t=[0.0, 0.1, 0.2], x=[0.0, 900.0, 0.0]))
    with pytest.raises(ValueError, match=r"^The 'frame' parameter must give times t in seconds"):
        Tracks.from_frame(BACKWARDS.assign(t=[0.0, 1000.0, 2000.0]))
    BACKWARDS.to_csv(tmp_path / "b.csv", index=False)
    with pytest.raises(ValueError, match=rf"^The track file '.*b\.csv' {times}"):
        read_tracks(tmp_path / "b.csv")


@pytest.mark.parametrize("read", [True, False])
def test_an_unknown_board_name_names_the_board_parameter(tmp_path, read):
    # it said "The 'name' parameter" (Board.preset's), a parameter no one passed
    tracks = BACKWARDS.assign(t=[0.0, 0.1, 0.2])
    tracks.to_csv(tmp_path / "ok.csv", index=False)
    with pytest.raises(ValueError, match=r"^The 'board' parameter must be one of \['crokinole', 'hikone', 'icf'\]\. Got 'icff' instead\.$"):
        read_tracks(tmp_path / "ok.csv", board="icff") if read else Tracks(tracks, board="icff")
    (tmp_path / "ok.json").write_text(json.dumps({"units": "m", "board": "icff"}))
    with pytest.raises(ValueError, match=r"track sidecar '.*ok\.json' must give a valid board: The 'board' parameter .*Got 'icff'"):
        read_tracks(tmp_path / "ok.csv")


@pytest.mark.parametrize(
    ("entry", "value", "words"),
    [
        ("radius", {"0": None}, r"'radius\[0\]' parameter must be a finite real number.*Got None"),
        ("radius", {"striker": 0.02}, r"'radius' parameter must be keyed by disc ids \(integers\)\. Got the key 'striker'"),
        ("radius", [0.01, 0.02], r"'radius' parameter must be a finite real number.*Got \[0\.01, 0\.02\] \(list\)"),
        ("radius", {"0": 15.5}, r"'radius\[0\]' parameter must be a finite real number in the range \(0, 0\.1\] m\. Got 15\.5"),
        ("fps", "120", r"'fps' parameter must be a finite real number.*Got '120' \(str\)"),
        ("fps", float("nan"), r"'fps' parameter must be a finite real number.*Got nan"),
        ("calibration", [960, 540], r"'calibration' parameter must be a dict.*Got \[960, 540\] \(list\)"),
    ],
)
def test_a_bad_sidecar_entry_names_the_sidecar(tmp_path, entry, value, words):
    """These said "invalid literal for int()", "float() argument must be ...", or "The 'fps'
    parameter" (none passed), without the file; a list for the calibration was an AttributeError."""
    BACKWARDS.assign(t=[0.0, 0.1, 0.2]).to_csv(tmp_path / "t.csv", index=False)
    (tmp_path / "t.json").write_text(json.dumps({"units": "m", entry: value}))
    with pytest.raises(ValueError, match=rf"^The track sidecar '.*t\.json' must give a valid {entry}: The {words}"):
        read_tracks(tmp_path / "t.csv")


@pytest.mark.parametrize(
    ("columns", "missing"), [({"frame": [0, 1], "particle": 0, "y": [0.0, 0.01]}, "'x'"), ({"disc": 0, "x": [0.0, 0.01], "y": 0.0}, "'t or frame'")]
)
def test_tracks_missing_columns_blame_the_columns_not_fps(columns, missing):
    with pytest.raises(ValueError, match=rf"missing \[{missing}\]") as info:
        Tracks.from_frame(pd.DataFrame(columns))
    assert "'fps' parameter" not in str(info.value)


def test_pixels_taken_as_metres_are_an_error_suggesting_a_calibration():
    frame = pd.DataFrame({"frame": np.arange(10), "particle": 0, "x": np.linspace(900.0, 1283.0, 10), "y": 540.0})
    # the first offending row of the input is named (row 0), not the farthest point
    with pytest.raises(ValueError, match=r"within 0\.47 m of the centre \(icf board.*Got \(x, y\) = \(900, 540\) at row 0.*calibration"):
        Tracks.from_frame(frame, fps=240.0, board="icf")
    with pytest.raises(ValueError, match=r"within 2 m .*pixel coordinates\?"):
        Tracks.from_frame(frame, fps=240.0)


def test_game_state_from_json_missing_a_field_names_it():
    body = json.loads(icf.new_game(2).to_json())
    del body["board"]
    with pytest.raises(ValueError, match=r"missing \['board'\]"):
        GameState.from_json(json.dumps(body))


# -- position files -----------------------------------------------------------------------------
def test_empty_position_file_names_the_file(tmp_path):
    from carromlab.engine.position_file import read_position

    (tmp_path / "p.csv").write_text("")
    with pytest.raises(ValueError, match=r"position file '.*p\.csv' must hold a table.*empty file"):
        read_position(tmp_path / "p.csv", board=Board.icf())


def test_bad_number_in_a_position_file_names_the_line(tmp_path):
    from carromlab.engine.position_file import read_position

    (tmp_path / "p.csv").write_text("kind,x,y\nwhite,0.1,0.2\nblack,abc,0\n")
    with pytest.raises(ValueError, match=r"column 'x'\. Got 'abc' on line 3"):
        read_position(tmp_path / "p.csv", board=Board.icf())


# -- files saved with a byte order mark (Excel's "CSV UTF-8", Notepad) ---------------------------
def _saved_files(tmp_path):
    """A file of each kind a reader takes, and how to read it."""
    from carromlab.engine.position_file import read_position, write_position

    df = pd.DataFrame({"disc": 0, "t": [0.0, 0.01, 0.02], "x": [0.0, 0.01, 0.02], "y": 0.0})
    return {
        "position.json": (write_position(Scene.icf_break(), tmp_path / "position.json"), read_position),
        "position.csv": (write_position(Scene.icf_break(), tmp_path / "position.csv"), read_position),
        "calibration.json": (save_calibration(PhysicsParams(mu=0.07), tmp_path / "c.json", name="c"), read_calibration),
        "calibration.toml": (save_calibration(PhysicsParams(mu=0.07), tmp_path / "c.toml", name="c"), read_calibration),
        "track sidecar": (write_tracks(df, tmp_path / "t.csv", units="m", fps=100.0)[1], lambda p: read_tracks(p.with_suffix(".csv"))),
    }


@pytest.mark.parametrize("kind", ["position.json", "position.csv", "calibration.json", "calibration.toml", "track sidecar"])
def test_a_file_with_a_byte_order_mark_reads_as_without(tmp_path, kind):
    """JSON and TOML refused the mark, and a saved CSV position lost its header line to it."""
    path, read = _saved_files(tmp_path)[kind]
    plain = read(path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert repr(read(path)) == repr(plain)


# -- fuzz: malformed values are ValueError or TypeError naming the parameter ----------------------
junk = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e12, max_value=1e12),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.text(max_size=3),
    st.complex_numbers(allow_nan=False, max_magnitude=10.0),
    st.none(),
    st.booleans(),
    st.lists(st.floats(allow_nan=True), max_size=3),
)


@FAST
@given(field=st.sampled_from(["x", "y", "angle", "speed", "spin"]), value=junk)
def test_fuzz_shot_fields(field, value):
    args = {"x": 0.0, "y": BREAK_Y, "angle": math.pi / 2, "speed": 3.0, "spin": 0.0} | {field: value}
    try:
        Shot(**args)
    except (ValueError, TypeError) as exc:
        assert f"'{field}'" in str(exc)


@FAST
@given(field=st.sampled_from(["x", "y", "angle", "speed", "spin"]), value=junk)
def test_fuzz_batch_fields(field, value):
    args = {"x": 0.0, "y": BREAK_Y, "angle": math.pi / 2, "speed": 3.0, "spin": 0.0} | {field: value}
    try:
        df = simulate_batch(Scene.icf_break(), **args, workers=1)
    except (ValueError, TypeError) as exc:
        assert f"'{field}'" in str(exc) or "striker placement" in str(exc) or "broadcast" in str(exc)
    else:
        assert np.isfinite(df["t_end"]).all()


@FAST
@given(field=st.sampled_from(["radius", "mass", "thickness"]), value=junk)
def test_fuzz_disc_spec(field, value):
    args = {"radius": 0.0155, "mass": 0.005, "thickness": 0.008} | {field: value}
    try:
        spec = DiscSpec("white", **args)
    except (ValueError, TypeError) as exc:
        assert f"'{field}'" in str(exc)
    else:
        assert 0 < getattr(spec, field) <= 1.0


@FAST
@given(field=st.sampled_from(["mu", "e_disc", "e_cushion", "mu_contact", "air_drag", "g"]), value=junk)
def test_fuzz_physics_params(field, value):
    try:
        PhysicsParams(**{field: value})
    except (ValueError, TypeError) as exc:
        assert f"'{field}'" in str(exc)


@FAST
@given(x=st.floats(-0.4, 0.4), y=st.floats(-0.4, 0.4), board=st.sampled_from(["icf", "crokinole"]))
def test_fuzz_placement_is_checked_or_played_cleanly(x, y, board):
    scene = Scene.icf_break() if board == "icf" else Scene.crokinole_empty()
    try:
        res = simulate(scene, Shot(x, y, angle=1.0, speed=2.0), record=False)
    except ValueError as exc:
        assert "striker placement" in str(exc)
        return
    final = res.final
    assert np.isfinite(final[["x", "y", "vx", "vy", "omega"]].to_numpy()).all()
    assert (final["status"] != "pocketed").all() or res.duration > 0  # nothing falls at t = 0
