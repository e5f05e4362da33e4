"""Layouts: the ICF break (ICF-1), the Hikone start (HIK-1), custom layouts."""

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carromlab.equipment.board import Board, Peg
from carromlab.equipment.disc import DiscSpec
from carromlab.equipment.layout import (
    COLUMNS,
    RowNames,
    crokinole_empty,
    default_specs,
    from_frame,
    hikone_start,
    icf_break,
)


def distances(df):
    x, y = df["x"].to_numpy(), df["y"].to_numpy()
    return np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])


def assert_layout_frame(df, n):
    assert list(df.columns) == list(COLUMNS)
    assert len(df) == n
    assert pd.api.types.is_string_dtype(df["kind"])
    assert df["x"].dtype == np.float64 and df["y"].dtype == np.float64
    assert isinstance(df.index, pd.RangeIndex)


# --------------------------------------------------------------------------- ICF break
def test_icf_break_counts():  # rule ICF-1
    df = icf_break()
    assert_layout_frame(df, 19)
    assert df["kind"].value_counts().to_dict() == {"white": 9, "black": 9, "queen": 1}
    assert "striker" not in set(df["kind"])
    q = df[df["kind"] == "queen"]
    assert (q["x"].item(), q["y"].item()) == (0.0, 0.0)


@pytest.mark.parametrize("rotation", [0.0, 0.3, -2.0, math.pi])
@pytest.mark.parametrize("gap", [0.0, 1e-4])
def test_icf_break_is_a_touching_hexagonal_pack(rotation, gap):
    coin = DiscSpec.icf_coin()
    d = 2 * coin.radius + gap
    df = icf_break(rotation, gap=gap)
    dist = distances(df)
    iu = np.triu_indices(len(df), 1)
    # no overlaps, and 42 pairs exactly at the touching distance (a hexagon of 19)
    assert (dist[iu] >= d - 1e-12).all()
    touching = np.abs(dist[iu] - d) <= 1e-12
    assert touching.sum() == 42
    radii = np.sort(np.round(np.hypot(df["x"], df["y"]) / d, 12))
    np.testing.assert_allclose(radii, [0] + [1] * 6 + [math.sqrt(3)] * 6 + [2] * 6)
    # the queen touches the whole inner ring
    assert (np.abs(dist[0, 1:7] - d) <= 1e-12).all()


def test_icf_break_rings_alternate_and_whites_form_a_y():
    df = icf_break()
    d = 2 * DiscSpec.icf_coin().radius
    rho = np.hypot(df["x"], df["y"]).to_numpy()
    theta = np.arctan2(df["y"], df["x"]).to_numpy()
    inner = df[np.isclose(rho, d)]
    order = np.argsort(np.mod(theta[inner.index], 2 * np.pi))
    colours = inner["kind"].to_numpy()[order]
    assert all(colours[i] != colours[(i + 1) % 6] for i in range(6))
    inner_white = np.sort(np.mod(theta[(np.isclose(rho, d)) & (df["kind"] == "white").to_numpy()], 2 * np.pi))
    outer_white = np.sort(np.mod(theta[(np.isclose(rho, 2 * d)) & (df["kind"] == "white").to_numpy()], 2 * np.pi))
    assert len(inner_white) == len(outer_white) == 3
    # each inner white is continued outward on the same ray: the arms of the Y
    np.testing.assert_allclose(outer_white, inner_white, atol=1e-12)
    np.testing.assert_allclose(np.diff(inner_white), 2 * np.pi / 3)
    # seed 004: one white straight below the queen, towards the breaker
    bottom = df[(df["x"] == 0.0) & (df["y"] < 0)]
    assert set(bottom["kind"]) == {"white"}
    assert sorted(bottom["y"]) == pytest.approx([-2 * d, -d])


def test_icf_break_fits_the_outer_circle():
    board = Board.icf()
    coin = DiscSpec.icf_coin()
    df = icf_break()
    reach = (np.hypot(df["x"], df["y"]) + coin.radius).max()
    assert 2 * reach == pytest.approx(5 * 2 * coin.radius)  # outer diameter 5d [CALC]
    assert 2 * reach < board.marks.outer_circle_diameter  # inside the 17 cm circle
    biggest = DiscSpec("white", radius=0.0159, mass=0.0055, thickness=0.009)
    big = icf_break(coin=biggest, queen=biggest.with_(kind="queen"))
    assert 5 * 0.0318 < 0.17
    assert (np.hypot(big["x"], big["y"]) + 0.0159).max() == pytest.approx(2.5 * 0.0318)


def test_icf_break_rotation_turns_every_piece():
    a, b = icf_break(0.0), icf_break(0.7)
    c, s = math.cos(0.7), math.sin(0.7)
    np.testing.assert_allclose(b["x"], c * a["x"] - s * a["y"], atol=1e-15)
    np.testing.assert_allclose(b["y"], s * a["x"] + c * a["y"], atol=1e-15)
    assert (a["kind"] == b["kind"]).all()


def test_icf_break_is_valid_on_the_board():
    board, specs = Board.icf(), default_specs("icf")
    for rot in np.linspace(0, 2 * np.pi, 7):
        from_frame(icf_break(rot), board, specs)


@pytest.mark.parametrize(
    ("kwargs", "param", "error"),
    [
        ({"rotation": float("nan")}, "rotation", ValueError),
        ({"rotation": "north"}, "rotation", TypeError),  # text for an angle, as for every angle (carromlab._angles)
        ({"gap": -1e-3}, "gap", ValueError),
        ({"gap": 0.5}, "gap", ValueError),
        ({"coin": "coin"}, "coin", TypeError),
        ({"queen": 1.0}, "queen", TypeError),
        ({"queen": DiscSpec("queen", radius=0.02, mass=0.005, thickness=0.008)}, "queen", ValueError),
    ],
)
def test_icf_break_bad_inputs(kwargs, param, error):
    with pytest.raises(error, match=f"'{param}' parameter") as info:
        icf_break(**kwargs)
    assert type(info.value) is error


# --------------------------------------------------------------------------- Hikone start
def test_hikone_start():  # rule HIK-1
    board = Board.hikone()
    df = hikone_start()
    assert_layout_frame(df, 25)
    assert df["kind"].value_counts().to_dict() == {"red": 12, "green": 12, "jack": 1}
    jack = df[df["kind"] == "jack"]
    assert (jack["x"].item(), jack["y"].item()) == (0.0, 0.0)  # on the jack spot
    pucks = df[df["kind"] != "jack"]
    np.testing.assert_allclose(np.hypot(pucks["x"], pucks["y"]), 0.5 * board.marks.centre_circle_diameter)
    order = np.argsort(np.mod(np.arctan2(pucks["y"], pucks["x"]), 2 * np.pi))
    colours = pucks["kind"].to_numpy()[order]
    assert all(colours[i] != colours[(i + 1) % 24] for i in range(24))  # alternating
    assert pucks.iloc[0]["kind"] == "red" and pucks.iloc[0]["y"] < 0  # first player's colour nearest them
    from_frame(df, board, default_specs("hikone"))


def test_hikone_start_on_another_board_and_bad_sizes():
    board = Board.hikone(centre_circle_diameter=0.30, size=0.7)
    df = hikone_start(board=board)
    np.testing.assert_allclose(np.hypot(df["x"], df["y"])[1:], 0.15)
    with pytest.raises(ValueError, match="'puck' parameter.*<= 0.0156"):
        hikone_start(puck=DiscSpec("red", radius=0.02, mass=0.005, thickness=0.01))
    small = Board.hikone(centre_circle_diameter=0.08)
    tiny = DiscSpec("red", radius=0.005, mass=0.001, thickness=0.005)
    assert len(hikone_start(puck=tiny, board=small)) == 25
    with pytest.raises(ValueError, match="'jack' parameter.*<= 0.035"):
        hikone_start(puck=tiny, jack=DiscSpec("jack", radius=0.04, mass=0.005, thickness=0.01), board=small)
    with pytest.raises(TypeError, match="'puck' parameter must be a DiscSpec or None. Got 'red' \\(str\\)"):
        hikone_start(puck="red")
    with pytest.raises(TypeError, match="'board' parameter must be a Board or None. Got 'hikone' \\(str\\)"):
        hikone_start(board="hikone")
    with pytest.raises(ValueError, match="no Hikone puck spots"):
        hikone_start(board=Board.icf())


# --------------------------------------------------------------------------- crokinole
def test_crokinole_empty():
    df = crokinole_empty()
    assert_layout_frame(df, 0)
    assert from_frame(df, Board.crokinole(), default_specs("crokinole")).empty


# --------------------------------------------------------------------------- default specs
def test_default_specs():
    icf = default_specs("icf")
    assert set(icf) == {"white", "black", "queen", "striker"}
    assert icf["striker"] == DiscSpec.icf_striker()
    assert set(default_specs("hikone")) == {"red", "green", "jack", "striker"}
    assert set(default_specs("crokinole")) == {"dark", "light"}
    for specs in map(default_specs, ("icf", "hikone", "crokinole")):
        assert all(spec.kind == kind for kind, spec in specs.items())
    with pytest.raises(ValueError, match=r"'game'.*\['crokinole', 'hikone', 'icf'\].*'pool'"):
        default_specs("pool")


# --------------------------------------------------------------------------- from_frame
@pytest.fixture
def icf_setup():
    return Board.icf(), default_specs("icf")


def test_from_frame_returns_a_clean_copy(icf_setup):
    board, specs = icf_setup
    raw = pd.DataFrame(
        {"kind": ["white", "queen"], "x": [0, 0.1], "y": [0.0, -0.2], "note": ["a", "b"]},
        index=[10, 20],
    )
    before = raw.copy(deep=True)
    out = from_frame(raw, board, specs)
    pd.testing.assert_frame_equal(raw, before)  # input not mutated
    assert_layout_frame(out, 2)
    assert out["x"].tolist() == [0.0, 0.1]
    out.loc[0, "x"] = 0.3
    assert raw.loc[10, "x"] == 0


def test_from_frame_allows_touching_discs(icf_setup):
    board, specs = icf_setup
    r = specs["white"].radius
    df = pd.DataFrame({"kind": ["white", "black"], "x": [0.0, 2 * r - 5e-10], "y": [0.0, 0.0]})
    assert len(from_frame(df, board, specs)) == 2


@pytest.mark.parametrize(
    ("frame", "pattern"),
    [
        ({"kind": ["white"], "x": [0.0]}, r"'df' parameter must have the columns.*Missing \['y'\]"),
        ({"kind": ["white", "blue"], "x": [0.0, 0.1], "y": [0.0, 0.0]}, r"'df'.*kind in \[.*\].*'blue' in row 1"),
        ({"kind": ["white"], "x": [float("nan")], "y": [0.0]}, r"'df'.*finite.*'x'.*nan in row 0"),
        ({"kind": ["white"], "x": [0.0], "y": ["up"]}, r"'df'.*finite.*'y'.*'up' in row 0"),
        ({"kind": ["white"], "x": [0.0], "y": [None]}, r"'df'.*finite.*'y'.*in row 0"),
        ({"kind": ["white", "white"], "x": [0.0, 0.36], "y": [0.0, 0.0]}, r"'df'.*wholly on the board \(\|x\|, \|y\| <= 0.3545 m.*x=0.36, y=0.0 in row 1"),
        ({"kind": ["white"], "x": [0.345], "y": [0.345]}, r"'df'.*capture radius.*'ne'.*row 0"),
        ({"kind": ["white", "black", "queen"], "x": [0.0, 0.2, 0.03], "y": [0.0, 0.0, 0.0]}, r"'df'.*overlapping.*rows 0 and 2 overlapping by 0.001 m"),
    ],
)
def test_from_frame_errors_name_row_value_and_range(icf_setup, frame, pattern):
    board, specs = icf_setup
    with pytest.raises(ValueError, match=pattern):
        from_frame(pd.DataFrame(frame), board, specs)


def test_a_kind_that_is_no_text_is_a_type_error(icf_setup):
    board, specs = icf_setup
    with pytest.raises(TypeError, match=r"^The 'df' parameter must have a kind \(str\) in .*Got 3 \(int\) in row 1 instead"):
        from_frame(pd.DataFrame({"kind": ["white", 3], "x": [0.0, 0.1], "y": [0.0, 0.0]}), board, specs)


@pytest.mark.parametrize(
    ("frame", "said"),
    [
        ({"kind": ["white", "blue"], "x": [0.0, 0.1], "y": [0.0, 0.0]}, "Got 'blue' on line 3 instead."),
        ({"kind": ["white"], "x": [float("nan")], "y": [0.0]}, "Got nan on line 2 instead."),
        ({"kind": ["white", "white"], "x": [0.0, 0.36], "y": [0.0, 0.0]}, "Got x=0.36, y=0.0 on line 3 instead."),
        ({"kind": ["white"], "x": [0.345], "y": [0.345]}, "m on line 2 instead."),
        ({"kind": ["white", "black", "queen"], "x": [0.0, 0.2, 0.03], "y": [0.0, 0.0, 0.0]}, "Got lines 2 and 4 overlapping by 0.001 m instead."),
    ],
)
def test_from_frame_names_rows_as_the_caller_calls_them(icf_setup, frame, said):
    # a file's reader names its lines (header and blank lines counted) without rewriting the message
    board, specs = icf_setup
    with pytest.raises(ValueError, match=re.escape(said) + "$"):
        from_frame(pd.DataFrame(frame), board, specs, rows=RowNames("line", "on", lambda i: i + 2))


def test_from_frame_round_board_and_pegs():
    board, specs = Board.crokinole(), default_specs("crokinole")
    h = board.half_size
    ok = pd.DataFrame({"kind": ["dark", "light"], "x": [h, 0.0], "y": [0.0, 0.2]})
    assert len(from_frame(ok, board, specs)) == 2  # round board: centre within the edge
    with pytest.raises(ValueError, match=r"sqrt\(x\^2 \+ y\^2\) <= 0.3302 m.*row 0"):
        from_frame(pd.DataFrame({"kind": ["dark"], "x": [h + 1e-6], "y": [0.0]}), board, specs)
    peg = board.pegs[0]
    on_peg = pd.DataFrame({"kind": ["light"], "x": [peg.x], "y": [peg.y]})
    with pytest.raises(ValueError, match="'df'.*clear of every peg.*row 0"):
        from_frame(on_peg, board, specs)
    in_hole = pd.DataFrame({"kind": ["light"], "x": [0.001], "y": [0.0]})
    with pytest.raises(ValueError, match="'df'.*hole '20'"):
        from_frame(in_hole, board, specs)


@pytest.mark.parametrize(
    ("args", "param", "error"),
    [
        (("frame", Board.icf(), default_specs("icf")), "df", TypeError),
        ((pd.DataFrame(columns=["kind", "x", "y"]), "icf", default_specs("icf")), "board", TypeError),
        ((pd.DataFrame(columns=["kind", "x", "y"]), Board.icf(), {}), "specs", ValueError),
        ((pd.DataFrame(columns=["kind", "x", "y"]), Board.icf(), {"white": 0.0155}), "specs[white]", TypeError),
        ((pd.DataFrame(columns=["kind", "x", "y"]), Board.icf(), [DiscSpec.icf_coin()]), "specs", TypeError),
    ],
)
def test_from_frame_bad_arguments(args, param, error):
    with pytest.raises(error, match=re.escape(f"'{param}' parameter")) as info:
        from_frame(*args)
    assert type(info.value) is error


@settings(max_examples=60, deadline=None)
@given(
    pts=st.lists(
        st.tuples(
            st.sampled_from(["white", "black", "queen", "striker"]),
            st.floats(-0.4, 0.4),
            st.floats(-0.4, 0.4),
        ),
        min_size=0,
        max_size=8,
    )
)
def test_from_frame_accepts_only_valid_layouts(pts):
    board, specs = Board.icf(), default_specs("icf")
    df = pd.DataFrame(pts, columns=["kind", "x", "y"]) if pts else crokinole_empty()
    try:
        out = from_frame(df, board, specs)
    except ValueError as exc:
        assert "'df' parameter" in str(exc)
        return
    r = np.array([specs[k].radius for k in out["kind"]])
    assert board.contains(out["x"], out["y"], r).all()
    if len(out) > 1:
        gap = distances(out) - (r[:, None] + r[None, :])
        np.fill_diagonal(gap, np.inf)
        assert gap.min() >= -1e-9
    for hole in board.holes:
        for (x, y), ri in zip(out[["x", "y"]].to_numpy(), r):
            assert math.hypot(x - hole.x, y - hole.y) >= hole.capture_radius(ri)


def test_peg_spec_in_custom_board():
    board = Board("pegged", "square", 0.5, pegs=(Peg(0.0, 0.0, 0.01),))
    specs = {"white": DiscSpec.icf_coin()}
    r = specs["white"].radius
    assert len(from_frame(pd.DataFrame({"kind": ["white"], "x": [r + 0.01], "y": [0.0]}), board, specs)) == 1
