"""Position files: a scene saved as JSON or CSV loads back exactly (board, every disc spec,
shot disc, pieces), and changing one disc's spec keeps the other discs' defaults."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carromlab import Board, DiscSpec, Scene, Shot, simulate
from carromlab.equipment.layout import default_specs


def assert_same_scene(a, b):
    assert a.board == b.board
    assert a.specs == b.specs
    assert a.striker == b.striker
    pd.testing.assert_frame_equal(a.pieces, b.pieces, check_exact=True)


def test_one_spec_changed_keeps_the_other_defaults():
    heavy = DiscSpec.icf_striker().with_(mass=0.02)
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.1], "y": [0.1]}), {"striker": heavy})
    assert scene.specs["striker"] is heavy or scene.specs["striker"] == heavy
    assert {k: v for k, v in scene.specs.items() if k != "striker"} == {k: v for k, v in default_specs("icf").items() if k != "striker"}
    assert scene.arrays["mass"][-1] == 0.02


def test_presets_take_changed_specs():
    big = DiscSpec.icf_coin().with_(radius=0.016)
    scene = Scene.icf_break(specs={"white": big, "black": big.with_(kind="black"), "queen": DiscSpec.icf_queen().with_(radius=0.016)})
    assert set(scene.pieces["radius"]) == {0.016}
    light = DiscSpec.crokinole_disc().with_(mass=0.004)
    assert Scene.crokinole_empty(specs={"dark": light}).specs["dark"].mass == 0.004


@pytest.mark.parametrize("suffix", [".json", ".csv"])
@pytest.mark.parametrize("make", [lambda: Scene.icf_break(0.3), Scene.hikone_start, lambda: Scene.crokinole_empty("light")])
def test_presets_round_trip_exactly(tmp_path, suffix, make):
    scene = make()
    assert_same_scene(Scene.load(scene.save(tmp_path / f"p{suffix}")), scene)


@settings(max_examples=40, deadline=None)
@given(
    suffix=st.sampled_from([".json", ".csv"]),
    xy=st.lists(st.tuples(st.floats(-0.3, 0.3), st.floats(-0.3, 0.3)), max_size=6),
    radius=st.floats(0.01, 0.025),
    mass=st.floats(1e-3, 0.05),
    thickness=st.floats(1e-3, 0.02),
)
def test_random_positions_and_specs_round_trip_exactly(tmp_path_factory, suffix, xy, radius, mass, thickness):
    specs = {"striker": DiscSpec("striker", radius=radius, mass=mass, thickness=thickness),
             "black": DiscSpec.icf_coin("black").with_(mass=mass / 3.0)}  # fmt: skip
    rows = []
    for x, y in xy:  # keep the pieces that fit
        try:
            Scene.from_frame(Board.icf(), pd.DataFrame([*rows, ("white", x, y)], columns=["kind", "x", "y"]), specs)
        except ValueError:
            continue
        rows.append(("white", x, y))
    scene = Scene.from_frame(Board.icf(), pd.DataFrame(rows, columns=["kind", "x", "y"]), specs)
    path = tmp_path_factory.mktemp("pos") / f"p{suffix}"
    assert_same_scene(Scene.load(scene.save(path)), scene)


def test_a_replayed_shot_from_a_loaded_position_is_identical(tmp_path):
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white", "black"], "x": [0.15, -0.1], "y": [0.22, 0.05]}),
                             {"striker": DiscSpec.icf_striker().with_(mass=0.0135)})  # fmt: skip
    shot = Shot.from_deg(0.05, -0.2526, angle_deg=70.0, speed=3.0)
    a = simulate(scene, shot)
    b = simulate(Scene.load(scene.save(tmp_path / "p.csv")), shot)
    pd.testing.assert_frame_equal(a.events, b.events, check_exact=True)


def test_a_plain_table_needs_a_board_and_gets_its_standard_discs(tmp_path):
    path = tmp_path / "plain.csv"
    pd.DataFrame({"kind": ["white"], "x": [0.1], "y": [0.2]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"'board' parameter must be given for the plain table"):
        Scene.load(path)
    scene = Scene.load(path, board=Board.icf())
    assert scene.specs == default_specs("icf") and scene.pieces["x"].tolist() == [0.1]


def test_board_dict_round_trip():
    for name in ("icf", "hikone", "crokinole"):
        board = Board.preset(name)
        assert Board.from_dict(board.to_dict()) == board
    with pytest.raises(ValueError, match=r"marks type"):
        Board.from_dict(Board.icf().to_dict() | {"marks": {"type": "Snooker"}})
    assert math.isclose(Board.from_dict(Board.icf(size=0.8).to_dict()).size, 0.8)
    assert np.all(np.isfinite([h.x for h in Board.from_dict(Board.icf().to_dict()).holes]))


@pytest.mark.parametrize(
    ("call", "name", "allowed"),
    [
        ("save", "p.txt", r"\['\.json', '\.csv'\]"),
        ("save", "p.parquet", r"\['\.json', '\.csv'\]"),  # a saved position has a header: no Parquet
        ("load", "p.txt", r"\['\.json', '\.csv', '\.parquet'\]"),
    ],
)
def test_a_bad_suffix_names_the_path_parameter_its_value_and_the_suffixes(tmp_path, call, name, allowed):
    # the message said "The 'position file suffix' parameter", a parameter no one passed
    path = tmp_path / name
    with pytest.raises(ValueError, match=rf"^The 'path' parameter must be a file name ending in one of {allowed} .*Got '.*{name}' instead\.$"):
        Scene.icf_break().save(path) if call == "save" else Scene.load(path)
    assert not path.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a short row read "Got np.float64(nan) on line 3": pandas' filler, not what the file holds
        ("kind,x,y\nwhite,0,0\nblack,0.1\n", r"plain\.csv' must hold finite numbers \(m\) in column 'y'\. Got no value on line 3 instead\.$"),
        ("kind,x,y\nwhite,0,0\nblack,0.1,oops\n", r"Got 'oops' on line 3 instead\.$"),
        # the scene's checks count table rows from 0 ("in row 1"); a file's reader counts its
        # lines, the header first and blank lines too (an editor's numbers)
        ("kind,x,y\nwhite,0.1,0.1\nwhtie,0.2,0.1\n", r"plain\.csv' holds an invalid position: .*Got 'whtie' on line 3 instead\.$"),
        ("kind,x,y\nwhite,0.1,0.1\n\nblack,0.1,0.105\n", r"Got lines 2 and 4 overlapping by 0\.026 m instead\.$"),
        # a value more on every row shifted the columns (kind read 0.1, y the extra value)
        ("kind,x,y\nwhite,0.1,0.1,1\nblack,0.2,0.1,1\n", r"plain\.csv' must have no more values in a row than names in its header .*Got 4 values for 3 names on line 2"),
    ],
)
def test_a_bad_row_of_a_plain_table_is_named_by_its_line_in_the_file(tmp_path, text, message):
    path = tmp_path / "plain.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        Scene.load(path, board=Board.icf())


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        # read_pieces (the fouls command's --position) passed inf on: the error came later, naming no file
        ("inf.csv", "kind,x,y\nwhite,0,0\nblack,inf,0.1\n", r"inf\.csv' must hold finite numbers \(m\) in column 'x'\. Got inf on line 3 instead\.$"),
        # "Shape of passed values is (1, 1), indices imply (1, 3)"
        ("number.json", '{"pieces": [5]}', r"number\.json' must hold a list of pieces, each with kind, x and y\. Got \[5\] instead\.$"),
        # pyarrow's "Could not open Parquet input source", the only error not starting "The position file"
        ("garbage.parquet", "kind,x,y\n", r"garbage\.parquet' must be a Parquet table with the columns kind, x, y\. Got an unreadable file \(.*magic bytes"),
    ],
)
def test_read_pieces_refuses_what_read_position_refuses_naming_the_file(tmp_path, name, body, message):
    from carromlab.engine.position_file import read_pieces, read_position

    path = tmp_path / name
    path.write_text(body)
    for read in (read_pieces, lambda p: read_position(p, board=Board.icf())):
        with pytest.raises(ValueError, match=rf"^The position file '.*{message}"):
            read(path)


def test_a_trailing_comma_on_every_row_is_read_as_nothing(tmp_path):
    """It made pandas take the kinds for the row index: 'must hold finite numbers in column y'."""
    path = tmp_path / "plain.csv"
    path.write_text("kind,x,y\nwhite,0.1,0.1,\nblack,0.2,0.1,\n")
    assert Scene.load(path, board=Board.icf()).pieces[["kind", "x", "y"]].values.tolist() == [["white", 0.1, 0.1], ["black", 0.2, 0.1]]


def test_an_invalid_saved_position_names_the_line_of_the_file(tmp_path):
    saved = tmp_path / "saved.csv"
    Scene.icf_break().save(saved)
    text = saved.read_text().splitlines()
    text[4] = "whtie" + text[4][text[4].index(","):]  # the table's third row, after the header line and the column names
    saved.write_text("\n".join(text) + "\n")
    with pytest.raises(ValueError, match=r"saved\.csv' holds an invalid position: .*Got 'whtie' on line 5 instead\.$"):
        Scene.load(saved)


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("plain.csv", "kind,x,y\nwhite,0.1,0.1\nwhtie,0.2,0.1\n"),
        ("plain.parquet", None),
        ("saved.json", None),
    ],
)
def test_an_invalid_position_names_the_files_pieces_not_a_parameter_the_user_never_passed(tmp_path, name, body):
    # "holds an invalid position: The 'frame' parameter must have a kind ..." ('pieces' for a
    # saved file): the names of the scene's parameters, not of anything in the call or the file
    path = tmp_path / name
    if name.endswith(".csv"):
        path.write_text(body)
    elif name.endswith(".parquet"):
        pd.DataFrame({"kind": ["white", "whtie"], "x": [0.1, 0.2], "y": [0.1, 0.1]}).to_parquet(path)
    else:
        Scene.icf_break().save(path)
        path.write_text(path.read_text().replace('"kind": "white"', '"kind": "whtie"', 1))
    with pytest.raises(ValueError, match=rf"^The position file '.*{name}' holds an invalid position: its pieces must have a kind in .*'whtie'"):
        Scene.load(path, board=Board.icf())
