"""Boards: preset sizes against the equipment notes (PHYSICS.md), marks, validation."""

import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from carromlab.equipment.board import (
    SIDES,
    AreaLine,
    Board,
    Circle,
    CrokinoleMarks,
    HikoneMarks,
    Hole,
    IcfMarks,
    Peg,
    Segment,
    ShootingLine,
)
from carromlab.equipment.disc import DiscSpec

INCH = 0.0254


def turn(k, x, y):
    """Counter-clockwise quarter turns, for the side-symmetry checks."""
    for _ in range(k % 4):
        x, y = -y, x
    return x, y


# --------------------------------------------------------------------------- ICF board
@pytest.fixture(scope="module")
def icf():
    return Board.icf()


def test_icf_surface_and_pockets(icf):
    assert icf.shape == "square"
    assert 0.735 <= icf.size <= 0.740  # [SPEC]
    assert icf.half_size == pytest.approx(0.37)
    assert [h.name for h in icf.holes] == ["sw", "se", "ne", "nw"]
    for hole in icf.holes:
        assert 2 * hole.radius == pytest.approx(0.0445)  # [SPEC]
        # [EST] the pocket circle touches both cushions of its corner
        assert abs(hole.x) + hole.radius == pytest.approx(icf.half_size, abs=1e-15)
        assert abs(hole.y) + hole.radius == pytest.approx(icf.half_size, abs=1e-15)
    assert icf.pegs == ()


def test_capture_radius_striker_in_icf_pocket(icf):
    # PHYSICS.md [CALC]: 0.83 cm for a 4.13 cm striker in a 4.45 cm pocket
    assert icf.holes[0].capture_radius(DiscSpec.icf_striker().radius) == pytest.approx(0.0083, abs=5e-5)


@pytest.mark.parametrize("coin_diameter", [0.0302, 0.0310, 0.0318])
def test_capture_radius_coins_in_icf_pocket(icf, coin_diameter):
    # PHYSICS.md [CALC]: 1.56-1.63 cm for an ICF coin
    cr = icf.holes[0].capture_radius(coin_diameter / 2)
    assert 1.56 <= round(cr * 100, 2) <= 1.63


def test_capture_radius_formula_and_bridging():
    hole = Hole(0.0, 0.0, 0.02, "h")
    assert hole.capture_radius(0.012) == pytest.approx(0.016)  # 3-4-5 triangle
    assert hole.capture_radius(0.02) == 0.0
    assert hole.capture_radius(0.05) == 0.0
    with pytest.raises(ValueError, match="'disc_radius'.*Got -1"):
        hole.capture_radius(-1)


@given(r=st.floats(min_value=1e-6, max_value=0.05))
@example(r=0.02225)
def test_capture_radius_never_negative_and_decreasing(r):
    hole = Hole(0.0, 0.0, 0.02225, "h")
    c = hole.capture_radius(r)
    assert 0.0 <= c < hole.radius
    assert hole.capture_radius(r * 1.01) <= c


def test_icf_baselines_south(icf):
    b = icf.baseline("south")
    h = icf.half_size
    assert b.outer.y0 == b.outer.y1 == pytest.approx(-(h - 0.1015))  # 10.15 cm from the frame
    assert b.inner.y0 - b.outer.y0 == pytest.approx(0.0318)  # 3.18 cm inside it
    assert b.gap == pytest.approx(0.0318)
    assert b.centre.y0 == pytest.approx(0.5 * (b.outer.y0 + b.inner.y0))
    # the base circles touch both lines at the ends of the lines
    for circle, end in zip(b.base_circles, (b.centre.x0, b.centre.x1)):
        assert 2 * circle.radius == pytest.approx(0.0318)
        assert circle.x == pytest.approx(end)
        assert circle.y == pytest.approx(b.centre.y0)
        assert circle.y - circle.radius == pytest.approx(b.outer.y0)
        assert circle.y + circle.radius == pytest.approx(b.inner.y0)
    assert 2 * b.fill_radius == pytest.approx(0.0254)
    # overall length of the mark, circles included: 47 cm
    assert b.centre.length + 2 * b.base_circles[0].radius == pytest.approx(0.47)
    assert b.outer.length == pytest.approx(b.centre.length)


def test_icf_arrows(icf):
    b = icf.baseline("south")
    left, right = b.arrows
    for arrow, pocket_name in ((left, "sw"), (right, "se")):
        assert arrow.length == pytest.approx(0.267)
        # 45 degrees, on the diagonal through the centre, pointing at the pocket
        assert abs(arrow.x0) == pytest.approx(abs(arrow.y0))
        assert abs(arrow.x1) == pytest.approx(abs(arrow.y1))
        pocket = next(h for h in icf.holes if h.name == pocket_name)
        end_to_rim = math.hypot(pocket.x - arrow.x1, pocket.y - arrow.y1) - pocket.radius
        assert end_to_rim == pytest.approx(0.05)  # ends 5.0 cm from the pocket
        assert math.hypot(pocket.x - arrow.x0, pocket.y - arrow.y0) > math.hypot(pocket.x - arrow.x1, pocket.y - arrow.y1)
        # the arrow stays outside the outer circle
        assert math.hypot(arrow.x0, arrow.y0) > 0.5 * icf.marks.outer_circle_diameter


def test_icf_base_circles_of_adjacent_sides_clear_of_each_other_and_the_arrow(icf):
    south, east = icf.baseline("south"), icf.baseline("east")
    a, b = south.base_circles[1], east.base_circles[0]  # both near the SE pocket
    assert math.hypot(a.x - b.x, a.y - b.y) > a.radius + b.radius
    striker = DiscSpec.icf_striker().radius
    shared = south.arrows[1]
    assert east.arrows[0] == shared
    # a striker covering the base circle does not touch the arrow (ICF-3 is satisfiable)
    assert shared.distance(a.x, a.y) > striker


def test_icf_centre_marks(icf):
    assert icf.marks.centre_circle_diameter == pytest.approx(0.0318)
    assert icf.marks.outer_circle_diameter == pytest.approx(0.17)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_icf_sides_are_quarter_turns_of_south(icf, k):
    south, other = icf.baseline("south"), icf.baseline(SIDES[k])
    assert other.side == SIDES[k]
    for s_seg, o_seg in ((south.outer, other.outer), (south.inner, other.inner), (south.centre, other.centre)):
        assert turn(k, s_seg.x0, s_seg.y0) == (o_seg.x0, o_seg.y0)
        assert turn(k, s_seg.x1, s_seg.y1) == (o_seg.x1, o_seg.y1)
    for s_c, o_c in zip(south.base_circles, other.base_circles):
        assert turn(k, s_c.x, s_c.y) == (o_c.x, o_c.y)
    for s_a, o_a in zip(south.arrows, other.arrows):
        assert turn(k, s_a.x1, s_a.y1) == (o_a.x1, o_a.y1)


def test_striker_placement_rule_icf3(icf):
    """ICF-3: the striker touches both baselines. By hand: lines 3.18 cm apart (zero
    width), striker 4.13 cm across, so the centre may be at most 2.065 - 1.59 = 0.475 cm
    from the midline; a base circle (radius 1.59 cm) is covered when the centre is within
    0.475 cm of its centre and clear beyond 1.59 + 2.065 = 3.655 cm."""
    b = icf.baseline("south")
    r = DiscSpec.icf_striker().radius
    assert r == pytest.approx(0.02065) and b.gap == pytest.approx(0.0318)
    band, cover, clear = 0.00475, 0.00475, 0.03655
    assert b.striker_band(r) == pytest.approx(band, abs=1e-12)
    yc = b.centre.y0
    right = b.base_circles[1]
    eps = 1e-6
    cases = {
        "middle of the lines": ((0.0, yc), True),
        "just inside the band, outer side": ((0.0, yc - band + eps), True),
        "just inside the band, inner side": ((0.1, yc + band - eps), True),
        "just outside the band, outer side": ((0.0, yc - band - eps), False),
        "just outside the band, inner side": ((-0.1, yc + band + eps), False),
        "centre on the outer line: 1.1 cm short of the inner one": ((0.0, b.outer.y0), False),
        "centre between the lines, off the band": ((0.0, yc + 0.01), False),
        "covers the base circle": ((right.x, right.y), True),
        # past the lines' end, away from the arrow (direction (0.6, -0.8)): only covering counts
        "covers it, past the lines' end": ((right.x + 0.6 * (cover - eps), right.y - 0.8 * (cover - eps)), True),
        "past the lines' end, not covering it": ((right.x + 0.6 * (cover + eps), right.y - 0.8 * (cover + eps)), False),
        "covers it, off the midline": ((right.x, right.y - cover + eps), True),
        "partly on the base circle": ((right.x - 0.01, yc), False),
        "clear of the base circle": ((right.x - clear - eps, yc), True),
        "clear of it, at the band's edge": ((right.x - clear - eps, yc + band - eps), True),
        "just touching the base circle": ((right.x - clear + eps, yc), False),
        "beyond the lines": ((right.x + 0.03, yc), False),
    }
    x = [p[0] for p, _ in cases.values()]
    y = [p[1] for p, _ in cases.values()]
    got = b.striker_allowed(x, y, r)
    assert got.shape == (len(cases),)
    assert dict(zip(cases, got.tolist())) == {k: v for k, (_, v) in cases.items()}


def test_striker_narrower_than_the_gap_never_touches_both_lines(icf):
    b = icf.baseline("south")
    assert b.striker_band(0.015) < 0
    assert not b.striker_allowed(np.linspace(-0.2, 0.2, 41), b.centre.y0, 0.015).any()


def test_striker_touching_the_arrow_is_refused(icf):
    b = icf.baseline("south")
    c = b.base_circles[1]
    d = b.arrows[1].distance(c.x, c.y)
    assert b.striker_allowed(c.x, c.y, d * 0.999)
    assert not b.striker_allowed(c.x, c.y, d * 1.001)  # covers the circle but touches the arrow


def test_striker_rule_same_on_every_side(icf):
    r = DiscSpec.icf_striker().radius
    south = icf.baseline("south")
    u = np.linspace(-0.26, 0.26, 53)
    v = np.linspace(south.outer.y0 - 0.003, south.inner.y0 + 0.003, 11)
    uu, vv = np.meshgrid(u, v)
    ref = south.striker_allowed(uu, vv, r)
    assert ref.any() and not ref.all()
    for k in (1, 2, 3):
        xx, yy = turn(k, uu, vv)
        np.testing.assert_array_equal(icf.baseline(SIDES[k]).striker_allowed(xx, yy, r), ref)



@pytest.mark.parametrize("k", range(4))
def test_baseline_area_by_hand_rule_icf16(icf, k):
    """ICF-16: the baseline area is the strip between the two lines (y from -0.2685 to
    -0.2367 m on the south side, PHYSICS.md: outer line 10.15 cm from the 0.37 m
    half-board, inner line 3.18 cm inside it) from one end of the lines to the other
    (x = +-(0.47 / 2 - 0.0159) = +-0.2191 m), and the base circles (radius 0.0159 m,
    centred at the ends on the midline y = -0.2526 m); on every side alike."""
    points = {
        (0.0, -0.2526): True,  # the middle of the lines
        (0.0, -0.2368): True,  # just inside the inner line
        (0.0, -0.2366): False,  # just beyond it (forward)
        (0.0, -0.2684): True,  # just inside the outer line
        (0.0, -0.2686): False,  # just behind it (backwards)
        (-0.2190, -0.2370): True,  # a corner of the strip, inside
        (0.2300, -0.2526): True,  # past the line's end, 0.0109 m from the circle's centre
        (-0.2349, -0.2526): True,  # 0.0158 m from the left circle's centre
        (0.2351, -0.2526): False,  # 0.0160 m: past the base circle (sideways)
        (0.2300, -0.2400): False,  # past the end, 0.0167 m from the circle's centre: outside it
        (0.2191 + 0.0159 / math.sqrt(2) - 1e-6, -0.2526 + 0.0159 / math.sqrt(2) - 1e-6): True,  # on the circle's rim
    }
    u, v = (np.array(c) for c in zip(*points))
    x, y = turn(k, u, v)
    assert icf.baseline(SIDES[k]).area_contains(x, y).tolist() == list(points.values())
    # a legal placement (ICF-3) has its centre in the area
    r = DiscSpec.icf_striker().radius
    uu, vv = np.meshgrid(np.linspace(-0.26, 0.26, 105), np.linspace(-0.28, -0.225, 23))
    xx, yy = turn(k, uu, vv)
    line = icf.baseline(SIDES[k])
    legal = line.striker_allowed(xx, yy, r)
    assert legal.any() and line.area_contains(xx[legal], yy[legal]).all()

# --------------------------------------------------------------------------- Hikone board
@pytest.fixture(scope="module")
def hikone():
    return Board.hikone()


def test_hikone_surface_and_pockets(hikone):
    assert hikone.size == pytest.approx(0.60)  # about 60 cm [EST]
    assert len(hikone.holes) == 4
    for hole in hikone.holes:
        assert 2 * hole.radius > 0.0445  # larger than ICF pockets [reported]
        assert abs(hole.x) + hole.radius == pytest.approx(hikone.half_size)
    # every Hikone piece can fall in: the jack too
    assert hikone.holes[0].capture_radius(DiscSpec.hikone_jack().radius) > 0.01


def test_hikone_centre_circle_holds_24_pucks(hikone):
    puck = DiscSpec.hikone_puck()
    spots = hikone.puck_spots()
    assert spots.shape == (24, 2)
    radius = 0.5 * hikone.marks.centre_circle_diameter
    np.testing.assert_allclose(np.hypot(spots[:, 0], spots[:, 1]), radius)
    assert tuple(spots[0]) == (0.0, -radius)  # first spot towards the first player
    gaps = np.hypot(*(np.roll(spots, -1, axis=0) - spots).T)
    assert gaps.min() >= 2 * puck.radius
    assert radius - puck.radius > DiscSpec.hikone_jack().radius  # clears the jack


def test_hikone_area_lines_and_tee_spots(hikone):
    h = hikone.half_size
    a = hikone.area_line("south")
    assert a.side == "south"
    assert a.line.y0 == a.line.y1 == pytest.approx(-(h - hikone.marks.area_line_offset))
    assert a.line.x0 < 0 < a.line.x1
    assert a.line.length == pytest.approx(hikone.marks.area_line_length)
    assert (a.tee_spot.x, a.tee_spot.y) == (0.0, a.line.y0)
    assert 2 * a.tee_spot.radius >= 0.0315  # a registered striker fits in it
    # lines stay outside the centre circle and clear of the pockets
    assert abs(a.line.y0) > 0.5 * hikone.marks.centre_circle_diameter + DiscSpec.hikone_puck().diameter
    east = hikone.area_line("east")
    assert (east.line.x0, east.line.y0) == turn(1, a.line.x0, a.line.y0)
    assert (east.tee_spot.x, east.tee_spot.y) == turn(1, a.tee_spot.x, a.tee_spot.y)


# --------------------------------------------------------------------------- crokinole board
@pytest.fixture(scope="module")
def crok():
    return Board.crokinole()


def test_crokinole_nca_sizes(crok):
    m = crok.marks
    assert crok.shape == "round"
    assert crok.size == pytest.approx(26 * INCH)  # 66.0 cm
    assert crok.size == pytest.approx(0.6604)
    assert m.ring_15_radius == pytest.approx(4 * INCH)
    assert m.ring_10_radius == pytest.approx(8 * INCH)
    assert m.shooting_line_radius == pytest.approx(12 * INCH)
    assert m.ditch_width == pytest.approx(2 * INCH)
    assert m.scoring_rings == ((15, m.ring_15_radius), (10, m.ring_10_radius), (5, m.shooting_line_radius))
    (hole,) = crok.holes
    assert (hole.x, hole.y, hole.name) == (0.0, 0.0, "20")
    assert 2 * hole.radius == pytest.approx(0.0349, abs=1e-4)  # 1 3/8 in
    # PHYSICS.md [CALC]: about 1.5 mm of centre travel with the disc wholly inside
    assert hole.radius - DiscSpec.crokinole_disc().radius == pytest.approx(0.0015, abs=1e-4)


def test_crokinole_pegs(crok):
    assert len(crok.pegs) == 8
    angles = sorted(math.degrees(math.atan2(p.y, p.x)) % 360 for p in crok.pegs)
    np.testing.assert_allclose(angles, [22.5 + 45 * k for k in range(8)])
    for peg in crok.pegs:
        assert math.hypot(peg.x, peg.y) == pytest.approx(crok.marks.ring_15_radius)
        assert 2 * peg.radius == pytest.approx(0.25 * INCH)
    quadrants = np.degrees(crok.marks.quadrant_angles)
    np.testing.assert_allclose(quadrants, [45, 135, 225, 315])
    # no peg on a quadrant line: 22.5 degrees from the nearest one
    off = [min(abs((a - q + 180) % 360 - 180) for q in quadrants) for a in angles]
    np.testing.assert_allclose(off, 22.5)


def test_crokinole_shooting_line(crok):
    south = crok.shooting_line("south")
    assert south.radius == pytest.approx(12 * INCH)
    assert math.degrees(south.start_angle) == pytest.approx(-135)
    assert math.degrees(south.end_angle) == pytest.approx(-45)
    r = DiscSpec.crokinole_disc().radius
    R = south.radius
    x = [0.0, 0.0, 0.0, R, 0.0, R * math.cos(-math.pi / 4 - 0.01)]
    y = [-R, -R - r, -R - r - 1e-6, 0.0, R, R * math.sin(-math.pi / 4 - 0.01)]
    assert south.touches(x, y, r).tolist() == [True, True, False, False, False, True]
    north = crok.shooting_line("north")
    assert north.touches(0.0, R, r) and not north.touches(0.0, -R, r)
    west = crok.shooting_line("west")  # its quadrant straddles the +-pi cut
    assert west.touches(-R, 0.0, r) and west.touches(-R * math.cos(0.1), -R * math.sin(0.1), r)


# --------------------------------------------------------------------------- contains, sides
def test_contains_square_vectorised(icf):
    h, r = icf.half_size, 0.0155
    x = np.array([0.0, h - r, h - r + 1e-9, -(h - r), 0.0])
    y = np.array([0.0, h - r, 0.0, 0.0, -h])
    assert icf.contains(x, y, r).tolist() == [True, True, False, True, False]
    got = icf.contains(x[:, None], y[None, :], r)
    assert got.shape == (5, 5)
    radii = np.array([0.0, 0.02, 0.5])
    assert icf.contains(0.3, 0.0, radii).tolist() == [True, True, False]


def test_contains_round_uses_the_centre_only(crok):
    h = crok.half_size
    assert crok.contains([0.0, h, h + 1e-9, h / math.sqrt(2)], [0.0, 0.0, 0.0, h / math.sqrt(2)], 0.016).tolist() == [
        True,
        True,
        False,
        True,
    ]


def test_contains_rejects_negative_radius(icf):
    with pytest.raises(ValueError, match="'radius'"):
        icf.contains(0.0, 0.0, -0.01)


def test_side_coordinates(icf):
    h = icf.half_size
    along, depth = icf.side_coordinates("south", [0.1, 0.0], [-h, 0.0])
    np.testing.assert_allclose(along, [0.1, 0.0])
    np.testing.assert_allclose(depth, [0.0, h])
    # east player sits at x > 0; their right is +y
    along, depth = icf.side_coordinates("east", h - 0.1, 0.2)
    assert (float(along), float(depth)) == pytest.approx((0.2, 0.1))
    along, depth = icf.side_coordinates("north", 0.1, h - 0.05)
    assert (float(along), float(depth)) == pytest.approx((-0.1, 0.05))
    with pytest.raises(ValueError, match="'side'.*Got 'up'"):
        icf.side_coordinates("up", 0.0, 0.0)


# --------------------------------------------------------------------------- presets, errors
def test_preset_by_name_with_overrides():
    assert Board.preset("icf") == Board.icf()
    assert Board.preset("hikone", size=0.62).size == pytest.approx(0.62)
    assert Board.preset("crokinole", peg_count=0).pegs == ()
    small = Board.icf(size=0.735, pocket_diameter=0.046)
    assert small.holes[0].radius == pytest.approx(0.023)
    assert abs(small.holes[0].x) + small.holes[0].radius == pytest.approx(0.3675)


def test_unknown_preset_lists_names():
    with pytest.raises(ValueError, match=r"'name'.*\['crokinole', 'hikone', 'icf'\].*'pool'"):
        Board.preset("pool")


def test_marks_of_another_game_are_refused(icf, hikone, crok):
    with pytest.raises(ValueError, match="no ICF baselines"):
        hikone.baseline("south")
    with pytest.raises(ValueError, match="no Hikone area lines"):
        icf.area_line("south")
    with pytest.raises(ValueError, match="no crokinole shooting line"):
        icf.shooting_line("south")
    with pytest.raises(ValueError, match="no Hikone puck spots"):
        crok.puck_spots()
    with pytest.raises(ValueError, match="'side'.*Got 'top'"):
        icf.baseline("top")


def test_plain_board():
    b = Board("plain", "square", 0.5)
    assert b.holes == () and b.pegs == () and b.marks is None
    assert Board("list", "square", 0.5, holes=[Hole(0, 0, 0.01, "c")]).holes == (Hole(0, 0, 0.01, "c"),)


@pytest.mark.parametrize(
    ("kwargs", "param", "error"),
    [
        ({"name": ""}, "name", ValueError),
        ({"name": 3}, "name", TypeError),
        ({"shape": "hex"}, "shape", ValueError),
        ({"size": 0.0}, "size", ValueError),
        ({"size": -1.0}, "size", ValueError),
        ({"size": float("nan")}, "size", ValueError),
        ({"frame_width": -0.01}, "frame_width", ValueError),
        ({"holes": [Hole(0.49, 0.0, 0.02, "out")]}, "holes", ValueError),
        ({"holes": ["pocket"]}, "holes", TypeError),
        ({"holes": 3}, "holes", TypeError),
        ({"pegs": [Peg(0.0, 0.5, 0.01)]}, "pegs", ValueError),
        ({"holes": [Hole(0, 0, 0.02, "c")], "pegs": [Peg(0.025, 0.0, 0.01)]}, "pegs", ValueError),
        ({"marks": "icf"}, "marks", TypeError),
        ({"marks": CrokinoleMarks(0.1, 0.2, 0.3, 0.05)}, "marks", ValueError),
    ],
)
def test_board_validation_names_the_parameter(kwargs, param, error):
    base = {"name": "b", "shape": "square", "size": 1.0}
    with pytest.raises(error, match=f"'{param}' parameter") as info:
        Board(**{**base, **kwargs})
    assert type(info.value) is error


def test_round_board_checks_holes_by_radius():
    with pytest.raises(ValueError, match="'holes'.*sqrt"):
        Board("r", "round", 1.0, holes=[Hole(0.4, 0.3, 0.01, "edge")])


@pytest.mark.parametrize(
    ("factory", "kwargs", "param"),
    [
        (Board.icf, {"size": -0.74}, "size"),
        (Board.icf, {"pocket_diameter": 0.0}, "pocket_diameter"),
        (Board.icf, {"pocket_diameter": 0.5}, "pocket_diameter"),
        (Board.icf, {"baseline_offset": -0.1}, "baseline_offset"),
        (Board.icf, {"baseline_offset": 0.3}, "baseline_offset"),
        (Board.icf, {"baseline_gap": 0.0}, "baseline_gap"),
        (Board.icf, {"baseline_length": 0.6}, "baseline_length"),
        (Board.icf, {"base_circle_diameter": 0.3}, "base_circle_diameter"),
        (Board.icf, {"base_circle_diameter": 0.1}, "baseline_length"),
        (Board.icf, {"base_fill_diameter": 0.05}, "base_fill_diameter"),
        (Board.icf, {"centre_circle_diameter": 0.2}, "centre_circle_diameter"),
        (Board.icf, {"outer_circle_diameter": float("inf")}, "outer_circle_diameter"),
        (Board.icf, {"arrow_length": 0.5}, "arrow_length"),
        (Board.icf, {"arrow_pocket_gap": -0.01}, "arrow_pocket_gap"),
        (Board.icf, {"frame_width": -1.0}, "frame_width"),
        (Board.hikone, {"size": 0.0}, "size"),
        (Board.hikone, {"pocket_diameter": -0.05}, "pocket_diameter"),
        (Board.hikone, {"centre_circle_diameter": 0.5}, "centre_circle_diameter"),
        (Board.hikone, {"jack_spot_diameter": 0.3}, "jack_spot_diameter"),
        (Board.hikone, {"area_line_offset": 0.0}, "area_line_offset"),
        (Board.hikone, {"area_line_length": 0.5}, "area_line_length"),
        (Board.hikone, {"tee_spot_diameter": 0.2}, "tee_spot_diameter"),
        (Board.crokinole, {"size": 0.5}, "shooting_line_radius"),
        (Board.crokinole, {"ring_15_radius": 0.25}, "ring_15_radius"),
        (Board.crokinole, {"ring_10_radius": 0.4}, "ring_10_radius"),
        (Board.crokinole, {"ditch_width": 0.0}, "ditch_width"),
        (Board.crokinole, {"hole_diameter": 0.0}, "hole_diameter"),
        (Board.crokinole, {"hole_diameter": 0.2}, "pegs"),
        (Board.crokinole, {"peg_diameter": -1.0}, "peg_diameter"),
        (Board.crokinole, {"peg_count": -1}, "peg_count"),
        (Board.crokinole, {"peg_offset": 10.0}, "peg_offset"),
    ],
)
def test_preset_validation_names_the_parameter(factory, kwargs, param):
    with pytest.raises(ValueError, match=f"'{param}' parameter"):
        factory(**kwargs)


def test_preset_error_message_gives_range_and_value():
    with pytest.raises(ValueError, match=r"'baseline_length'.*<= .*0\.246014 m.*Got 0\.6"):
        Board.icf(baseline_length=0.6)
    with pytest.raises(ValueError, match=r"'arrow_length'.*\(0, 0\.4195\d*\) m.*Got 0\.5"):
        Board.icf(arrow_length=0.5)


@pytest.mark.parametrize(
    ("cls", "args", "param"),
    [
        (Hole, (0.0, 0.0, 0.0, "h"), "radius"),
        (Hole, (float("nan"), 0.0, 0.01, "h"), "x"),
        (Hole, (0.0, 0.0, 0.01, ""), "name"),
        (Peg, (0.0, 0.0, -0.01), "radius"),
        (Circle, (0.0, 0.0, 0.0), "radius"),
        (Segment, (0.0, 0.0, float("inf"), 0.0), "x1"),
        (IcfMarks, (0.1, 0.03, 0.47, 0.03, 0.02, 0.03, 0.17, 0.4, -0.2), "arrow_length"),
        (HikoneMarks, (0.24, 0.034, 0.08, 0.4, 0.032, 0), "puck_spot_count"),
        (ShootingLine, ("south", 0.3, 0.0, -1.0), "end_angle"),
        (ShootingLine, ("up", 0.3, 0.0, 1.0), "side"),
        (ShootingLine, ("south", 0.0, 0.0, 1.0), "radius"),
        (AreaLine, ("middle", Segment(0, 0, 1, 0), Circle(0, 0, 0.01)), "side"),
    ],
)
def test_primitives_validate(cls, args, param):
    with pytest.raises(ValueError, match=f"'{param}' parameter"):
        cls(*args)


@pytest.mark.parametrize(("make", "param"), [(lambda: Board.crokinole(peg_count=2.5), "peg_count"), (lambda: Peg(0.0, "a", 0.01), "y")])
def test_a_number_of_the_wrong_type_is_a_type_error(make, param):
    with pytest.raises(TypeError, match=f"'{param}' parameter"):
        make()


def test_segment_distance():
    s = Segment(0.0, 0.0, 1.0, 0.0)
    np.testing.assert_allclose(s.distance([0.5, -1.0, 2.0, 0.5], [1.0, 0.0, 0.0, 0.0]), [1.0, 1.0, 1.0, 0.0])
    assert Segment(1.0, 1.0, 1.0, 1.0).distance(4.0, 5.0) == pytest.approx(5.0)


def test_segment_kernel_row_is_the_segment_by_hand():
    # what the compiled bisection of the Hikone areas reads (rules.placement, bisect_near)
    assert Segment(0.5, -0.25, 3.5, 3.75).kernel_row == (0.5, -0.25, 3.0, 4.0, 25.0, False)
    assert Segment(1.0, 1.0, 1.0, 1.0).kernel_row == (1.0, 1.0, 0.0, 0.0, 1.0, True)  # a point: length 1 stands in


def test_the_other_reading_of_the_47_cm_does_not_fit():
    # [EST] in IcfMarks: with the base-circle centres 47 cm apart, the circles of adjacent
    # sides would overlap, so 47 cm is read as the overall length of the mark
    with pytest.raises(ValueError, match="'baseline_length'.*must not overlap"):
        Board.icf(baseline_length=0.47 + 0.0318)


@pytest.mark.parametrize(("board", "marks"), [(Board.icf, "baseline"), (Board.hikone, "area_line"),
                                              (Board.crokinole, "shooting_line")])
@pytest.mark.parametrize("side", [["south"], {"side": "south"}, 1])
def test_a_side_that_is_not_a_name_is_a_clear_error(board, marks, side):
    """The cached marks of a side refuse an unhashable or non-text side by name."""
    with pytest.raises(TypeError, match=r"'side' parameter must be one of .*Got "):
        getattr(board(), marks)(side)


@pytest.mark.parametrize(
    ("make", "got"),
    [
        (lambda: Board.icf(size=74), "74"),  # the ICF board in cm
        (lambda: Board.hikone(size=60), "60"),
        (lambda: Board.crokinole(size=660.4), "660.4"),  # in mm
    ],
)
def test_a_preset_board_size_in_cm_or_mm_is_refused(make, got):
    """Board.icf(size=74) made a 74 m board without a word (holes at +-36.98 m); a plain
    Board stays unbounded, for open-board experiments."""
    with pytest.raises(ValueError, match=rf"'size' parameter must be a finite real number in the range \(0, 5\] m\. Got {got} instead"):
        make()
    assert Board("open", "square", 74.0).half_size == 37.0
