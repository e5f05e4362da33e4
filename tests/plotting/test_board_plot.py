"""draw_board / draw_pieces: artists, colours, proportions; rendering to PNG."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from matplotlib.patches import Circle

from carromlab.equipment import Board, crokinole_empty, default_specs, hikone_start, icf_break
from carromlab.plotting import CATEGORY_COLORS, PIECE_COLORS, draw_board, draw_pieces

LAYOUTS = {"icf": icf_break, "hikone": hikone_start, "crokinole": crokinole_empty}


@pytest.fixture(autouse=True)
def _no_show(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("plt.show() must never be called")

    monkeypatch.setattr(plt, "show", refuse)


def pieces(ax):
    return [p for p in ax.patches if (p.get_gid() or "").startswith("piece:")]


@pytest.mark.parametrize("name", ["icf", "hikone", "crokinole"])
def test_board_and_layout_render_to_png(name, tmp_path):
    board = Board.preset(name)
    ax = draw_board(board)
    frame = LAYOUTS[name]()
    draw_pieces(frame, default_specs(name), ax=ax)
    assert ax.get_aspect() == 1.0
    lo, hi = ax.get_xlim()
    assert lo < -board.half_size - board.frame_width and hi > board.half_size + board.frame_width
    assert ax.get_ylim() == (lo, hi)
    assert len(pieces(ax)) == len(frame)
    out = tmp_path / f"{name}.png"
    ax.figure.savefig(out, dpi=60)
    assert out.stat().st_size > 1000


def test_draw_board_uses_the_given_axes_and_draws_every_hole_and_peg():
    fig, ax = plt.subplots()
    board = Board.crokinole()
    assert draw_board(board, ax) is ax
    black = [p for p in ax.patches if isinstance(p, Circle) and p.get_facecolor() == to_rgba("black")]
    assert len(black) == len(board.holes)
    peg_centres = {tuple(np.round(p.center, 9)) for p in ax.patches if isinstance(p, Circle)}
    for peg in board.pegs:
        assert (round(peg.x, 9), round(peg.y, 9)) in peg_centres


def test_icf_marks_are_drawn():
    board = Board.icf()
    ax = draw_board(board)
    # 4 pockets; 8 base circles with their red fills; centre circle as an unfilled ring round
    # a small dot (a filled coin-sized red circle would look like the queen); outer circle
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    radii = np.round([c.radius for c in circles], 6)
    assert (radii == round(board.holes[0].radius, 6)).sum() == 4
    assert (radii == 0.0159).sum() == 8 + 1  # base circles + centre ring
    centre = [c for c in circles if c.center == (0.0, 0.0) and c.radius <= 0.0159 + 1e-9]
    assert sorted(round(c.radius, 6) for c in centre) == [round(0.25 * 0.0159, 6), 0.0159]
    assert [c.get_facecolor()[3] for c in centre if c.radius == 0.0159] == [0.0]
    queen = to_rgba(PIECE_COLORS["queen"])
    assert all(c.get_facecolor() != queen for c in circles)
    assert (radii == 0.0127).sum() == 8
    assert (radii == 0.085).sum() == 1
    # 8 baselines + 4 arrows, each with a two-stroke head
    assert len(ax.lines) == 8 + 4 * 3


def test_hikone_marks_are_drawn():
    board = Board.hikone()
    ax = draw_board(board)
    assert len(ax.lines) == 4  # the area lines
    radii = np.round([p.radius for p in ax.patches if isinstance(p, Circle)], 6)
    assert (radii == 0.12).sum() == 1 and (radii == 0.017).sum() == 1 and (radii == 0.016).sum() == 4


def test_mark_style_keywords_are_forwarded():
    ax = draw_board(Board.icf(), linewidth=2.5, mark_color="navy")
    assert {line.get_linewidth() for line in ax.lines} == {2.5}
    assert {line.get_color() for line in ax.lines} == {"navy"}


def test_draw_pieces_colours_and_sizes():
    specs = default_specs("icf")
    frame = pd.DataFrame({"kind": ["white", "black", "queen", "striker"], "x": [0.0, 0.1, 0.2, 0.0], "y": [0.0, 0.0, 0.0, -0.25]})
    ax = draw_pieces(frame, specs, alpha=0.5)
    drawn = pieces(ax)
    assert [p.get_gid() for p in drawn] == [f"piece:{k}" for k in frame["kind"]]
    for p, kind in zip(drawn, frame["kind"]):
        assert p.get_facecolor()[:3] == pytest.approx(to_rgba(PIECE_COLORS[kind])[:3])
        assert p.radius == specs[kind].radius
        assert p.get_alpha() == 0.5
    assert ax.get_aspect() == 1.0


def test_every_default_kind_has_its_own_colour():
    kinds = {k for g in ("icf", "hikone", "crokinole") for k in default_specs(g)}
    assert kinds <= set(PIECE_COLORS)
    assert len(set(PIECE_COLORS.values())) == len(PIECE_COLORS)


#: Dichromat vision in linear RGB (G. M. Machado, M. M. Oliveira, L. A. F. Fernandes, IEEE TVCG
#: 15, 1291, 2009, severity 1).
DICHROMAT = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
}


def _lab(color, vision=None):
    """CIELAB (D65) of a matplotlib colour, as seen with ``vision`` (a DICHROMAT key) if given."""
    c = np.array(to_rgba(color)[:3])
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    if vision is not None:
        lin = np.clip(DICHROMAT[vision] @ lin, 0.0, 1.0)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ lin
    f = np.cbrt(np.maximum(xyz / [0.95047, 1.0, 1.08883], 0.008856**3))  # all board colours are far above the knee
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("game", ["icf", "hikone", "crokinole"])
def test_the_pieces_of_a_game_differ_in_lightness_and_stand_out_from_the_surface(game):
    # lightness survives colour blindness: Hikone's red and green pucks were 6 L* apart
    kinds = sorted(k for k in default_specs(game) if k != "striker")
    lightness = {k: _lab(PIECE_COLORS[k])[0] for k in kinds}
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            assert abs(lightness[a] - lightness[b]) >= 15, (a, b, lightness)
    surface = _lab(draw_board.__kwdefaults__["surface_color"])
    for k in kinds:  # crokinole's light discs were 3 units from the surface
        assert np.linalg.norm(_lab(PIECE_COLORS[k]) - surface) >= 12, k


@pytest.mark.parametrize("vision", [None, *DICHROMAT])
def test_category_colours_stay_apart_for_colour_blind_readers(vision):
    # tab10 (matplotlib's C0, C1, ...) has pairs 7 units apart with deuteranopia, 5 with protanopia
    lab = [_lab(c, vision) for c in CATEGORY_COLORS]
    gaps = [np.linalg.norm(a - b) for i, a in enumerate(lab) for b in lab[i + 1:]]
    assert min(gaps) >= 15, gaps


@pytest.mark.parametrize(
    ("call", "param", "error"),
    [
        (lambda: draw_board("icf"), "board", TypeError),
        (lambda: draw_board(Board.icf(), ax="axes"), "ax", TypeError),
        (lambda: draw_pieces(pd.DataFrame({"kind": ["white"]}), default_specs("icf")), "frame", ValueError),
        (lambda: draw_pieces(icf_break().to_dict(), default_specs("icf")), "frame", TypeError),
        (lambda: draw_pieces(icf_break(), default_specs("hikone")), "specs", ValueError),
        (lambda: draw_pieces(icf_break(), {"white": 0.0107}), "specs[white]", TypeError),
    ],
)
def test_bad_inputs_name_the_parameter(call, param, error):
    with pytest.raises(error, match=re.escape(f"'{param}' parameter")) as info:
        call()
    assert type(info.value) is error


def test_plot_shot_names_a_result_that_is_not_one():
    from carromlab.plotting import plot_shot

    with pytest.raises(TypeError, match="'result' parameter must be a ShotResult"):
        plot_shot("x")


def test_crokinole_quadrant_lines_divide_the_5_zone_only():
    # rule CRK-1: the shot disc touches the shooting line in the shooter's quadrant. The four
    # quadrant lines divide the 5 zone, the ring between the 10 ring and the shooting line
    # (NCA board): they ran on to the edge of the surface, across the unmarked rim outside
    # the shooting line.
    board = Board.crokinole()
    m = board.marks
    ax = draw_board(board)
    radial = []
    for line in ax.lines:
        (x0, x1), (y0, y1) = line.get_xdata(), line.get_ydata()
        radial.append((np.hypot(x0, y0), np.hypot(x1, y1), np.arctan2(y1, x1) % (2 * np.pi)))
    assert len(radial) == 4  # no other line marks on a crokinole board
    inner, outer, angle = np.array(radial).T
    np.testing.assert_allclose(inner, m.ring_10_radius, rtol=0, atol=1e-12)
    np.testing.assert_allclose(outer, m.shooting_line_radius, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.sort(angle), m.quadrant_angles, rtol=0, atol=1e-12)
