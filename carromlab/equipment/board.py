"""Boards: playing surface, pockets and holes, pegs, and the marks the rules refer to.

Coordinates (m): origin at the centre of the playing surface, x to the right, y up, as
seen from above with the first player ("south") sitting at y < 0. The sides are
``"south"``, ``"east"``, ``"north"``, ``"west"``; the marks of a side are those of
``"south"`` turned counter-clockwise by 0, 90, 180 or 270 degrees (exact quarter turns, so
symmetric marks stay bit-for-bit symmetric).

Every size is tagged as in ``docs/equipment.md`` (the project's equipment notes): [SPEC] a rule
book's number, [EST] an estimate or an interpretation, [CALC] derived here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal, TypeVar, Union

import numpy as np
import numpy.typing as npt

from .._validation import check_array, check_choice, check_int, check_real, check_sequence, check_str, check_type
from . import _marks

__all__ = [
    "SIDES",
    "Side",
    "Hole",
    "Peg",
    "Circle",
    "Segment",
    "Baseline",
    "AreaLine",
    "ShootingLine",
    "IcfMarks",
    "HikoneMarks",
    "CrokinoleMarks",
    "Board",
]

Side = Literal["south", "east", "north", "west"]
#: The four sides, counter-clockwise from the first player's.
SIDES: tuple[Side, ...] = ("south", "east", "north", "west")
#: Largest size (side or diameter) of a preset game board (``Board.icf``, ``hikone``,
#: ``crokinole``), m: theirs are 0.6-0.74 m, and a size typed in centimetres (74 for the
#: ICF board) made a 74 m board without a word. A plain ``Board`` has no bound (an open
#: board for a long free slide).
MAX_SIZE = 5.0
_T = TypeVar("_T")


def _by_side(method: Callable[[Any, Side], _T]) -> Callable[[Any, Side], _T]:
    """Cache a board's marks of one side (boards are immutable; the marks are pure
    functions of the side); a side that is not one of :data:`SIDES` is the method's
    own ValueError, also when it cannot be hashed."""
    cached = functools.lru_cache(maxsize=64)(method)

    @functools.wraps(method)
    def marks(self: Any, side: Side) -> _T:
        if not isinstance(side, str):
            check_choice("side", side, SIDES)
        return cached(self, side)

    return marks
_QUARTER: dict[str, int] = {s: k for k, s in enumerate(SIDES)}
_INCH = 0.0254
# Slack for floating-point round-off in containment checks of marks and holes, m.
_EPS = 1e-12

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
#: Segments as :func:`_segment_rows` gives them, one entry each: x0, y0, dx, dy, squared
#: length (1 where zero), where zero (uint8).
_Rows = tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, npt.NDArray[np.uint8]]


def _turn(k: int, u: Any, v: Any) -> tuple[Any, Any]:
    """Turn the point (u, v) counter-clockwise by k quarter turns, exactly."""
    k %= 4
    if k == 0:
        return u, v
    if k == 1:
        return -v, u
    if k == 2:
        return -u, -v
    return v, -u


def polar(rho: npt.ArrayLike, theta: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Cartesian coordinates of polar points, m. cos and sin of multiples of pi/2 leave
    residues of about 1e-17 rho; they are set to zero so that mirror-symmetric layouts
    are exactly symmetric."""
    rho, theta = np.asarray(rho, dtype=float), np.asarray(theta, dtype=float)
    c, s = np.cos(theta), np.sin(theta)
    c[np.abs(c) < 1e-15] = 0.0
    s[np.abs(s) < 1e-15] = 0.0
    return rho * c, rho * s


def _set_reals(obj: Any, names: tuple[str, ...], **bounds: Any) -> None:
    """Validate the named fields of a frozen dataclass and store them as floats."""
    for name in names:
        object.__setattr__(obj, name, check_real(name, getattr(obj, name), **bounds))


def _check_relations(h: float, marks: Any, checks: tuple[tuple[str, bool, str], ...]) -> None:
    """Raise for the first (parameter, holds, relation) whose relation does not hold."""
    for name, holds, text in checks:
        if not holds:
            raise ValueError(
                f"The {name!r} parameter must satisfy {text} on a board of half_size {h:g} m. "
                f"Got {getattr(marks, name)!r} instead."
            )


def _radius_of(name: str, diameter: Any) -> float:
    """Half of a checked positive diameter, m."""
    return 0.5 * check_real(name, diameter, low=0.0, low_open=True, unit="m")


# ---------------------------------------------------------------------------- primitives
@dataclass(frozen=True)
class Hole:
    """A round hole in the playing surface: a corner pocket or the crokinole 20-hole.

    Parameters
    ----------
    x, y : float
        Centre of the hole, m.
    radius : float
        Radius of the hole, m, > 0.
    name : str
        Label of the hole (``"sw"``, ``"se"``, ``"ne"``, ``"nw"`` for pockets,
        ``"20"`` for the crokinole hole).
    capture_speed_max : float or None
        A disc crossing the capture circle faster than this passes over the hole, m/s,
        > 0. Default None: no limit (every crossing falls: a pocket's open side and net
        take any disc); the crokinole 20-hole sets one (:meth:`.Board.crokinole`). The
        engine uses the smaller of this and ``PhysicsParams.capture_speed_max``.

    Examples
    --------
    >>> pocket = Hole(0.0, 0.0, radius=0.02225, name="ne")
    >>> round(pocket.capture_radius(0.02065), 4)   # ICF striker: 0.83 cm
    0.0083
    """

    x: float
    y: float
    radius: float
    name: str
    capture_speed_max: float | None = None

    def __post_init__(self) -> None:
        _set_reals(self, ("x", "y"), unit="m")
        _set_reals(self, ("radius",), low=0.0, low_open=True, unit="m")
        check_str("name", self.name)
        if self.capture_speed_max is not None:
            _set_reals(self, ("capture_speed_max",), low=0.0, low_open=True, unit="m/s")

    def capture_radius(self, disc_radius: float) -> float:
        """Distance from the hole's centre within which a disc tips in, m.

        A flat disc of radius r over a round hole of radius Rh loses its support, and
        falls, when its centre of mass leaves the board, i.e. when its centre is within
        sqrt(Rh**2 - r**2) of the hole's centre [CALC, docs/equipment.md "Pockets and holes"]:
        0.83 cm for a 4.13 cm striker and 1.56-1.63 cm for a coin in a 4.45 cm pocket.

        Parameters
        ----------
        disc_radius : float
            Radius of the disc, m, > 0.

        Returns
        -------
        float
            sqrt(radius**2 - disc_radius**2), or 0.0 when the disc is at least as large
            as the hole (it bridges the hole and never falls).
        """
        r = check_real("disc_radius", disc_radius, low=0.0, low_open=True, unit="m")
        if r >= self.radius:
            return 0.0
        return math.sqrt(self.radius**2 - r**2)


@dataclass(frozen=True)
class Peg:
    """A fixed round post standing on the surface (crokinole pegs), m.

    Parameters
    ----------
    x, y : float
        Centre of the peg, m.
    radius : float
        Radius of the peg including any rubber sleeve, m, > 0.
    """

    x: float
    y: float
    radius: float

    def __post_init__(self) -> None:
        _set_reals(self, ("x", "y"), unit="m")
        _set_reals(self, ("radius",), low=0.0, low_open=True, unit="m")


@dataclass(frozen=True)
class Circle:
    """A circle drawn on the board (a mark, not a hole), m.

    Parameters
    ----------
    x, y : float
        Centre, m.
    radius : float
        Radius, m, > 0.
    """

    x: float
    y: float
    radius: float

    def __post_init__(self) -> None:
        _set_reals(self, ("x", "y"), unit="m")
        _set_reals(self, ("radius",), low=0.0, low_open=True, unit="m")


@dataclass(frozen=True)
class Segment:
    """A straight line drawn on the board, from (x0, y0) to (x1, y1), m (zero width)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        _set_reals(self, ("x0", "y0", "x1", "y1"), unit="m")

    @property
    def length(self) -> float:
        """Length of the segment, m."""
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    def distance(self, x: npt.ArrayLike, y: npt.ArrayLike) -> FloatArray:
        """Shortest distance from the points (x, y) to the segment, m (vectorised).

        Parameters
        ----------
        x, y : array_like
            Point coordinates, m; broadcast against each other.
        """
        px, py = _points(x, y)
        return _marks.distances(px.ravel(), py.ravel(), *self._rows)[0].reshape(px.shape)

    @functools.cached_property
    def _rows(self) -> _Rows:
        """:func:`_segment_rows` of this segment."""
        return _segment_rows(self.x0, self.y0, self.x1, self.y1)

    @property
    def kernel_row(self) -> tuple[float, float, float, float, float, bool]:
        """This segment as the compiled distance tests take it (``equipment/_marks.pxd``
        ``segment_distance``): x0, y0 (m), the offset to the end dx, dy (m), the squared
        length (m², 1 for a segment of no length) and whether it has no length."""
        x0, y0, dx, dy, ll, flat = (v[0] for v in self._rows)
        return float(x0), float(y0), float(dx), float(dy), float(ll), bool(flat)


def _points(x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Point coordinates as float arrays of one shape (broadcast against each other)."""
    px, py = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if px.shape != py.shape:
        px, py = np.broadcast_arrays(px, py)
    return px, py


def _segment_rows(x0: npt.ArrayLike, y0: npt.ArrayLike, x1: npt.ArrayLike, y1: npt.ArrayLike) -> _Rows:
    """What the compiled distance tests (:mod:`carromlab.equipment._marks`) need of the
    segments from (x0, y0) to (x1, y1), m: 1-d arrays, one entry per segment."""
    x0, y0 = np.atleast_1d(np.asarray(x0, dtype=float)), np.atleast_1d(np.asarray(y0, dtype=float))
    dx, dy = np.asarray(x1, dtype=float) - x0, np.asarray(y1, dtype=float) - y0
    ll = dx * dx + dy * dy
    flat = ll == 0.0
    return x0, y0, dx, dy, np.where(flat, 1.0, ll), flat.view(np.uint8)


# ---------------------------------------------------------------------------- per-side marks
@dataclass(frozen=True)
class Baseline:
    """The ICF baseline marks of one side (rule ICF-3), in board coordinates, m.

    Parameters
    ----------
    side : {"south", "east", "north", "west"}
        The shooter's side.
    outer : Segment
        The baseline nearer the shooter's cushion, between the tangent points of the two
        base circles.
    inner : Segment
        The baseline nearer the centre, likewise.
    centre : Segment
        The line midway between them, from one base-circle centre to the other: a
        striker touching both lines has its centre within :meth:`striker_band` of it.
    base_circles : tuple of Circle
        The two base circles, (left, right) as seen by the shooter.
    fill_radius : float
        Radius of the red disc painted inside each base circle, m (drawing only).
    arrows : tuple of Segment
        The two diagonal arrow lines at the ends of this side, (left, right), each from
        its inner end to its pocket-side end. Each arrow is shared with the adjacent side.
    """

    side: Side
    outer: Segment
    inner: Segment
    centre: Segment
    base_circles: tuple[Circle, Circle]
    fill_radius: float
    arrows: tuple[Segment, Segment]

    def __post_init__(self) -> None:
        check_choice("side", self.side, SIDES)
        _set_reals(self, ("fill_radius",), low=0.0, unit="m")

    @property
    def gap(self) -> float:
        """Distance between the outer and the inner baseline, m."""
        return math.hypot(self.inner.x0 - self.outer.x0, self.inner.y0 - self.outer.y0)

    def striker_band(self, radius: float) -> float:
        """Half-width of the band around the centre line in which the centre of a striker
        of ``radius`` touches both baselines (rule ICF-3), m: ``radius - gap / 2``.

        The lines have zero width (docs/equipment.md, "ICF carrom board and pieces"): a 4.13 cm
        striker between lines 3.18 cm apart may sit 0.475 cm either side of the midline.
        Negative when the striker is narrower than the gap (it cannot touch both).

        Parameters
        ----------
        radius : float
            Striker radius, m, > 0.

        Examples
        --------
        >>> round(Board.icf().baseline("south").striker_band(0.02065), 5)
        0.00475
        """
        r = check_real("radius", radius, low=0.0, low_open=True, unit="m")
        return r - 0.5 * self.gap

    def striker_allowed(self, x: npt.ArrayLike, y: npt.ArrayLike, radius: float) -> BoolArray:
        """Whether a striker centred at (x, y) is legally placed on this side (rule ICF-3).

        The reading of ICF-3 implemented here (docs/rulebook.md, docs/equipment.md): the striker touches
        both baselines, i.e. both line segments come within one striker radius of its
        centre (boundaries included; between the base circles: the centre lies within
        :meth:`striker_band` of the centre line); each base circle is either covered
        completely (centre distance + circle radius <= striker radius) or not touched
        (centre distance >= circle radius + striker radius); the striker does not touch
        either arrow line (distance > radius). Past the ends of the lines only a striker
        covering the base circle touches both.

        Parameters
        ----------
        x, y : array_like
            Striker centre, m; broadcast against each other.
        radius : float
            Striker radius, m, > 0.

        Returns
        -------
        numpy.ndarray of bool
            True where the placement is legal.
        """
        r = check_real("radius", radius, low=0.0, low_open=True, unit="m")
        px, py = _points(x, y)
        return _marks.striker_allowed(px.ravel(), py.ravel(), *self.striker_kernel(r)).reshape(px.shape)

    def striker_kernel(self, radius: float) -> tuple[Any, ...]:
        """:meth:`striker_allowed` of a striker of ``radius`` (m) as the compiled test
        takes it (``equipment/_marks.pxd`` ``striker_fits``, after the point): the outer
        and the inner baseline and the two arrows as segment rows (x0, y0, dx, dy, squared
        length, flat; arrays of 4), the base circles (x, y, radius; arrays of 2), the
        radius and the slack for round-off (boundaries count as legal, 1e-12 m)."""
        return (*self._lines, *self._circles, float(radius), _EPS)

    def area_contains(self, x: npt.ArrayLike, y: npt.ArrayLike) -> BoolArray:
        """Whether points lie in the baseline area of this side (rule ICF-16).

        The area is the pair of baselines with their base circles (seed 000 names "the
        two baselines"; seed 002 calls the baseline "the pair of lines and end circles
        used to place the striker"): the strip between the outer and the inner line,
        from one end of the lines to the other, and the inside of both base circles,
        boundaries included. On an ICF board, whose base circles span the gap between
        the lines, it is the set of points within ``gap / 2`` of ``centre``. A
        legally placed striker (:meth:`striker_allowed`) has its centre in it; a striker
        leaves it when its centre crosses the inner line (forward), the outer line
        (backwards) or goes past the ends beyond the base circles (sideways).

        Parameters
        ----------
        x, y : array_like
            Points, m (board coordinates); broadcast against each other.

        Returns
        -------
        numpy.ndarray of bool
            True where a point is in the area.

        Examples
        --------
        >>> line = Board.icf().baseline("south")   # lines at y = -0.2685 and -0.2367, ends at x = +-0.2191
        >>> line.area_contains([0.0, 0.0, 0.0, 0.225, 0.24], [-0.25, -0.23, -0.27, -0.2526, -0.2526]).tolist()
        [True, False, False, True, False]
        """
        px, py = _points(x, y)
        fx, fy, (near, far), ends = self._area_frame
        depth, along = fx * px + fy * py, fy * px - fx * py
        inside = (depth >= near) & (depth <= far)
        inside &= (along >= ends[0]) & (along <= ends[1])
        for c in self.base_circles:
            inside |= np.hypot(px - c.x, py - c.y) <= c.radius
        return inside

    @functools.cached_property
    def _area_frame(self) -> tuple[float, float, tuple[float, float], list[float]]:
        """What :meth:`area_contains` tests against, found once: the forward direction
        (outer towards inner line) ``fx, fy``, the depths of the outer and inner line along
        it, and the ends of the lines along the shooter's right (sorted), m. The
        directions are exact unit vectors on the quarter-turned sides, so that the depth
        test is the engine's reach arithmetic."""
        inner, outer = self.inner, self.outer
        fx, fy = (inner.x0 - outer.x0) / self.gap, (inner.y0 - outer.y0) / self.gap
        ends = sorted((fy * inner.x0 - fx * inner.y0, fy * inner.x1 - fx * inner.y1))
        return fx, fy, (fx * outer.x0 + fy * outer.y0, fx * inner.x0 + fy * inner.y0), ends

    @functools.cached_property
    def _lines(self) -> _Rows:
        """:func:`_segment_rows` of :attr:`outer`, :attr:`inner` and the two :attr:`arrows`, in order."""
        lines = (self.outer, self.inner, *self.arrows)
        return _segment_rows(*(np.array([getattr(s, end) for s in lines]) for end in ("x0", "y0", "x1", "y1")))

    @functools.cached_property
    def _circles(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Centres (x, y) and radii of :attr:`base_circles`, m, in order."""
        return tuple(np.array([getattr(c, a) for c in self.base_circles], dtype=float) for a in ("x", "y", "radius"))  # type: ignore[return-value]


@dataclass(frozen=True)
class AreaLine:
    """The Hikone area line and tee spot of one side (rules HIK-2, HIK-9), m.

    Parameters
    ----------
    side : {"south", "east", "north", "west"}
        The shooter's side.
    line : Segment
        The area line, parallel to the shooter's cushion, from the shooter's left to
        right. Later shots are placed on it (HIK-2); in doubles a piece lying wholly
        between it and the shooter's cushion may not be hit directly (HIK-9).
    tee_spot : Circle
        The tee spot: first shots are made from it (HIK-2).
    """

    side: Side
    line: Segment
    tee_spot: Circle

    def __post_init__(self) -> None:
        check_choice("side", self.side, SIDES)


@dataclass(frozen=True)
class ShootingLine:
    """The part of the crokinole shooting line in one player's quadrant (rule CRK-1).

    Parameters
    ----------
    side : {"south", "east", "north", "west"}
        The shooter's side.
    radius : float
        Radius of the shooting line, m.
    start_angle, end_angle : float
        Polar angles (rad, counter-clockwise from +x) bounding the shooter's quadrant,
        start < end; the quadrant lines lie at these angles.
    """

    side: Side
    radius: float
    start_angle: float
    end_angle: float

    def __post_init__(self) -> None:
        check_choice("side", self.side, SIDES)
        _set_reals(self, ("radius",), low=0.0, low_open=True, unit="m")
        _set_reals(self, ("start_angle",), unit="rad")
        _set_reals(self, ("end_angle",), low=self.start_angle, high=self.start_angle + 2 * math.pi,
                   low_open=True, unit="rad")

    def touches(self, x: npt.ArrayLike, y: npt.ArrayLike, radius: float) -> BoolArray:
        """Whether a disc centred at (x, y) touches the shooting line in this quadrant.

        True when the disc overlaps the circle of the shooting line (``| |p| - R | <= r``)
        and its centre's polar angle lies in [start_angle, end_angle].

        Parameters
        ----------
        x, y : array_like
            Disc centre, m; broadcast against each other.
        radius : float
            Disc radius, m, > 0.
        """
        r = check_real("radius", radius, low=0.0, low_open=True, unit="m")
        px, py = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        mid = 0.5 * (self.start_angle + self.end_angle)
        # angle measured from the quadrant's middle, wrapped to (-pi, pi]
        rel = np.angle(np.exp(1j * (np.arctan2(py, px) - mid)))
        half = 0.5 * (self.end_angle - self.start_angle)
        return np.asarray((np.abs(np.hypot(px, py) - self.radius) <= r) & (np.abs(rel) <= half + _EPS))


# ---------------------------------------------------------------------------- mark sets
@dataclass(frozen=True)
class IcfMarks:
    """Mark geometry of an ICF carrom board, m. Use :meth:`.Board.icf` to build one.

    Parameters
    ----------
    baseline_offset : float
        Distance from the cushion to the outer baseline, m. [SPEC 10.15 cm]
    baseline_gap : float
        Distance between the two baselines of a side, m. [SPEC 3.18 cm]
    baseline_length : float
        Overall length of a side's baseline mark, base circles included, m. [SPEC 47 cm;
        reading it as the overall length is an [EST]: if the base-circle *centres* were
        47 cm apart, the circles of adjacent sides would overlap across the diagonal
        arrow.]
    base_circle_diameter : float
        Diameter of the base circles at both ends of the baselines, m. [SPEC 3.18 cm:
        they touch both baselines]
    base_fill_diameter : float
        Diameter of the red fill of a base circle, m. [SPEC 2.54 cm]
    centre_circle_diameter : float
        Diameter of the centre circle, m. [SPEC 3.18 cm]
    outer_circle_diameter : float
        Diameter of the outer circle, m. [SPEC 17 cm]
    arrow_start : float
        Distance from the board centre of the pocket-side end of each arrow, m. [CALC in
        :meth:`.Board.icf` from the pocket and the SPEC 5.0 cm gap to the pocket]
    arrow_length : float
        Length of each diagonal arrow line, m. [SPEC, second-hand: at most 26.7 cm]

    Lines are treated as having zero width. docs/equipment.md, "ICF carrom board and pieces".
    """

    baseline_offset: float
    baseline_gap: float
    baseline_length: float
    base_circle_diameter: float
    base_fill_diameter: float
    centre_circle_diameter: float
    outer_circle_diameter: float
    arrow_start: float
    arrow_length: float

    def __post_init__(self) -> None:
        _set_reals(self, tuple(self.__dataclass_fields__), low=0.0, low_open=True, unit="m")

    @property
    def base_circle_radius(self) -> float:
        """Radius of a base circle, m."""
        return 0.5 * self.base_circle_diameter

    @property
    def centre_circle_radius(self) -> float:
        """Radius of the centre circle, m."""
        return 0.5 * self.centre_circle_diameter

    @property
    def outer_circle_radius(self) -> float:
        """Radius of the outer circle, m."""
        return 0.5 * self.outer_circle_diameter

    def _check_fits(self, h: float) -> None:
        # base circles at (+-e, -c) and (c, -+e) of adjacent sides stay apart when
        # sqrt(2) (c - e) >= base_circle_diameter, with e = L/2 - rc
        rc = self.base_circle_radius
        reach = h - self.baseline_offset - 0.5 * self.baseline_gap - (math.sqrt(2.0) - 1.0) * rc
        outer = h - self.outer_circle_radius
        _check_relations(h, self, (
            ("baseline_offset", self.baseline_offset + self.baseline_gap <= outer + _EPS,
             f"baseline_offset + baseline_gap <= half_size - outer_circle_diameter / 2 = {outer:g} m"),
            ("base_circle_diameter", 2.0 * self.base_circle_diameter <= self.baseline_length + _EPS,
             f"base_circle_diameter <= baseline_length / 2 = {0.5 * self.baseline_length:g} m"),
            ("baseline_length", 0.5 * self.baseline_length <= reach + _EPS,
             f"baseline_length / 2 <= half_size - baseline_offset - baseline_gap / 2 "
             f"- (sqrt(2) - 1) * base_circle_diameter / 2 = {reach:g} m "
             "(the base circles of adjacent sides must not overlap)"),
            ("base_fill_diameter", self.base_fill_diameter <= self.base_circle_diameter,
             f"base_fill_diameter <= base_circle_diameter = {self.base_circle_diameter:g} m"),
            ("centre_circle_diameter", self.centre_circle_diameter <= self.outer_circle_diameter,
             f"centre_circle_diameter <= outer_circle_diameter = {self.outer_circle_diameter:g} m"),
            ("arrow_start", self.arrow_start <= math.sqrt(2.0) * h,
             f"arrow_start <= sqrt(2) * half_size = {math.sqrt(2.0) * h:g} m"),
            ("arrow_length", self.arrow_length < self.arrow_start,
             f"arrow_length < arrow_start = {self.arrow_start:g} m (the arrow must not reach the centre)"),
        ))


@dataclass(frozen=True)
class HikoneMarks:
    """Mark geometry of a Hikone carrom board, m. Use :meth:`.Board.hikone` to build one.

    Seed 001 names the marks (jack spot at the centre, centre circle carrying the 24
    pucks, each side's area line and tee spot) but gives no sizes: every size is [EST].

    Parameters
    ----------
    centre_circle_diameter : float
        Diameter of the centre circle, on which the pucks start (HIK-1), m. [EST 24 cm:
        24 pucks of 3.0 cm need a radius of at least 1.5 cm / sin(7.5 deg) = 11.5 cm;
        12 cm leaves 1.3 mm between neighbours.]
    jack_spot_diameter : float
        Diameter of the jack spot circle at the centre, m. [EST 3.4 cm: the jack's size]
    area_line_offset : float
        Distance from the cushion to the area line, m. [EST 8 cm, a guess: room for a
        striker between line and cushion, well outside the starting ring of pucks
        (13.5 cm from the centre); the ICF proportion (11.7 of 74 cm) would give 9.5 cm]
    area_line_length : float
        Length of the area line, m. [EST 40 cm: ends well short of the pockets and of
        the adjacent sides' lines]
    tee_spot_diameter : float
        Diameter of the tee spot circle, centred on the middle of the area line, m.
        [EST 3.2 cm: just larger than the largest registered striker, 31.5 mm]
    puck_spot_count : int
        Number of starting spots on the centre circle. [SPEC 24 = 12 + 12 pucks]
    """

    centre_circle_diameter: float
    jack_spot_diameter: float
    area_line_offset: float
    area_line_length: float
    tee_spot_diameter: float
    puck_spot_count: int = 24

    def __post_init__(self) -> None:
        names = tuple(n for n in self.__dataclass_fields__ if n != "puck_spot_count")
        _set_reals(self, names, low=0.0, low_open=True, unit="m")
        check_int("puck_spot_count", self.puck_spot_count, low=1)

    @property
    def centre_circle_radius(self) -> float:
        """Radius of the centre circle, m."""
        return 0.5 * self.centre_circle_diameter

    @property
    def jack_spot_radius(self) -> float:
        """Radius of the jack spot circle, m."""
        return 0.5 * self.jack_spot_diameter

    @property
    def tee_spot_radius(self) -> float:
        """Radius of a tee spot circle, m."""
        return 0.5 * self.tee_spot_diameter

    def _check_fits(self, h: float) -> None:
        inner = h - self.area_line_offset
        _check_relations(h, self, (
            ("centre_circle_diameter", self.centre_circle_radius <= inner,
             f"centre_circle_diameter / 2 <= half_size - area_line_offset = {inner:g} m"),
            ("jack_spot_diameter", self.jack_spot_diameter <= self.centre_circle_diameter,
             f"jack_spot_diameter <= centre_circle_diameter = {self.centre_circle_diameter:g} m"),
            ("area_line_length", 0.5 * self.area_line_length <= inner + _EPS,
             f"area_line_length / 2 <= half_size - area_line_offset = {inner:g} m "
             "(the lines of adjacent sides must not cross)"),
            ("tee_spot_diameter", self.tee_spot_radius <= self.area_line_offset,
             f"tee_spot_diameter / 2 <= area_line_offset = {self.area_line_offset:g} m"),
        ))


@dataclass(frozen=True)
class CrokinoleMarks:
    """Mark geometry of a crokinole board, m. Use :meth:`.Board.crokinole` to build one.

    Parameters
    ----------
    ring_15_radius : float
        Radius of the 15 ring (the pegs stand on it), m. [SPEC NCA 4 in]
    ring_10_radius : float
        Radius of the 10 ring, m. [SPEC NCA 8 in]
    shooting_line_radius : float
        Radius of the shooting line, the outer edge of the 5 zone, m. [SPEC NCA 12 in]
    ditch_width : float
        Width of the ditch around the playing surface, m. [SPEC NCA 2 in]

    The four quadrant lines lie on the diagonals (45, 135, 225, 315 degrees), so that each
    player's quadrant faces them [EST]; they divide the 5 zone, running from the 10 ring
    to the shooting line (the shot disc touches the shooting line in its quadrant, CRK-1).
    docs/equipment.md, "Crokinole (NCA standard)".
    """

    ring_15_radius: float
    ring_10_radius: float
    shooting_line_radius: float
    ditch_width: float

    def __post_init__(self) -> None:
        _set_reals(self, tuple(self.__dataclass_fields__), low=0.0, low_open=True, unit="m")

    @property
    def scoring_rings(self) -> tuple[tuple[int, float], ...]:
        """(points, outer radius in m) of each scoring zone, innermost first: 15, 10, 5."""
        return ((15, self.ring_15_radius), (10, self.ring_10_radius), (5, self.shooting_line_radius))

    @property
    def quadrant_angles(self) -> tuple[float, ...]:
        """Polar angles of the four quadrant lines, rad."""
        return tuple((2 * k + 1) * math.pi / 4 for k in range(4))

    def _check_fits(self, h: float) -> None:
        _check_relations(h, self, (
            ("ring_15_radius", self.ring_15_radius < self.ring_10_radius,
             f"ring_15_radius < ring_10_radius = {self.ring_10_radius:g} m"),
            ("ring_10_radius", self.ring_10_radius < self.shooting_line_radius,
             f"ring_10_radius < shooting_line_radius = {self.shooting_line_radius:g} m"),
            ("shooting_line_radius", self.shooting_line_radius < h,
             f"shooting_line_radius < half_size = {h:g} m"),
        ))


Marks = Union[IcfMarks, HikoneMarks, CrokinoleMarks]
_MARK_SHAPE: dict[type, str] = {IcfMarks: "square", HikoneMarks: "square", CrokinoleMarks: "round"}


# ---------------------------------------------------------------------------- board
@dataclass(frozen=True)
class Board:
    """A playing surface with its holes, pegs and marks (SI units, m).

    Parameters
    ----------
    name : str
        Name of the board (``"icf"``, ``"hikone"``, ``"crokinole"`` for the presets).
    shape : {"square", "round"}
        A square board has four straight cushions at x = +-half_size and
        y = +-half_size; on a round board a disc falls into the ditch when its centre
        passes radius half_size.
    size : float
        Side length of the playing surface (square) or its diameter (round), m, > 0.
    holes : tuple of Hole
        Pockets and holes, each lying wholly on the playing surface. Default none.
    pegs : tuple of Peg
        Pegs, each lying wholly on the surface and clear of every hole. Default none.
    frame_width : float
        Width of the frame (square) or rail outside the ditch (round), m, >= 0. Only
        drawn. Default 0.
    marks : IcfMarks, HikoneMarks, CrokinoleMarks or None
        The drawn marks used by the rules; ICF and Hikone marks need a square board,
        crokinole marks a round one. Default None (a plain board).

    Raises
    ------
    ValueError
        If a size is not positive and finite, a hole or peg does not lie on the surface,
        a peg overlaps a hole, or the marks do not fit; the message names the parameter,
        the allowed range and the value received.

    Examples
    --------
    >>> board = Board.icf()
    >>> board.half_size, len(board.holes)
    (0.37, 4)
    >>> board.contains([0.0, 0.36], [0.0, 0.0], 0.0155).tolist()
    [True, False]
    >>> Board.preset("snooker")
    Traceback (most recent call last):
    ...
    ValueError: The 'name' parameter must be one of ['crokinole', 'hikone', 'icf']. Got 'snooker' instead.
    """

    name: str
    shape: Literal["square", "round"]
    size: float
    holes: tuple[Hole, ...] = ()
    pegs: tuple[Peg, ...] = ()
    frame_width: float = 0.0
    marks: Marks | None = None

    def __post_init__(self) -> None:
        check_str("name", self.name)
        check_choice("shape", self.shape, ("square", "round"))
        _set_reals(self, ("size",), low=0.0, low_open=True, unit="m")
        _set_reals(self, ("frame_width",), low=0.0, unit="m")
        for field, cls in (("holes", Hole), ("pegs", Peg)):
            items = check_sequence(field, getattr(self, field), cls)
            for item in items:
                self._check_on_surface(field, item)
            object.__setattr__(self, field, items)
        for peg in self.pegs:
            for hole in self.holes:
                if math.hypot(peg.x - hole.x, peg.y - hole.y) < peg.radius + hole.radius:
                    raise ValueError(
                        f"The 'pegs' parameter must contain pegs clear of every hole (centre distance >= "
                        f"{peg.radius + hole.radius:g} m from hole {hole.name!r}). Got {peg!r} instead."
                    )
        if self.marks is not None:
            check_type("marks", self.marks, (*_MARK_SHAPE, type(None)))
            want = next(shape for cls, shape in _MARK_SHAPE.items() if isinstance(self.marks, cls))
            if want != self.shape:
                raise ValueError(
                    f"The 'marks' parameter must be of a {self.shape} board's kind; "
                    f"{type(self.marks).__name__} needs a {want} board. Got {self.marks!r} instead."
                )
            self.marks._check_fits(self.half_size)

    # ------------------------------------------------------------------ display
    def _hole_text(self) -> str:
        n, what = len(self.holes), "pocket" if self.shape == "square" else "hole"
        return f"{n} {what}{'s' * (n != 1)}"

    def __repr__(self) -> str:
        # one line: the dataclass repr printed every hole, peg and mark (650-850 characters)
        parts = [repr(self.name), f"{self.shape} {self.size:.4g} m", self._hole_text()]
        parts += [f"{len(self.pegs)} pegs"] if self.pegs else []
        parts += [type(self.marks).__name__] if self.marks is not None else []
        return f"Board({', '.join(parts)})"

    def _repr_html_(self) -> str:
        from ..plotting.board import draw_board
        from ..plotting.display import figure_png, rich_html

        side = "side" if self.shape == "square" else "diameter"
        rows = {"shape": f"{self.shape}, {side} {self.size:.4g} m", self._hole_text(): ", ".join(
            f"{h.name} (r = {h.radius * 1e3:.4g} mm)" for h in self.holes) or "none"}  # fmt: skip
        if self.pegs:
            rows["pegs"] = f"{len(self.pegs)} (r = {self.pegs[0].radius * 1e3:.4g} mm)"
        rows["frame width"] = f"{self.frame_width:.4g} m"
        rows["marks"] = "none" if self.marks is None else type(self.marks).__name__

        def draw(ax: Any) -> None:
            draw_board(self, ax)
            ax.set_axis_off()

        return rich_html(f"Board: {self.name}", rows, picture=figure_png(draw))

    def _check_on_surface(self, field: str, item: Hole | Peg) -> None:
        h = self.half_size
        if self.shape == "square":
            inside = max(abs(item.x), abs(item.y)) + item.radius <= h + _EPS
            rule = f"|x| + radius <= {h:g} m and |y| + radius <= {h:g} m"
        else:
            inside = math.hypot(item.x, item.y) + item.radius <= h + _EPS
            rule = f"sqrt(x^2 + y^2) + radius <= {h:g} m"
        if not inside:
            raise ValueError(
                f"The {field!r} parameter must contain items lying wholly on the playing surface "
                f"({rule}). Got {item!r} instead."
            )

    # ------------------------------------------------------------------ geometry
    @property
    def half_size(self) -> float:
        """Half the side (square) or the radius (round) of the playing surface, m."""
        return 0.5 * self.size

    def contains(self, x: npt.ArrayLike, y: npt.ArrayLike, radius: npt.ArrayLike) -> BoolArray:
        """Whether discs lie on the playing surface (vectorised).

        Square board: the disc lies wholly inside the cushions, ``|x| <= h - r`` and
        ``|y| <= h - r``. Round board: the disc's centre lies within radius h (a disc whose
        centre passes the edge falls into the ditch).

        Parameters
        ----------
        x, y : array_like
            Disc centres, m.
        radius : array_like
            Disc radii, m, >= 0.

        Returns
        -------
        numpy.ndarray of bool
            The broadcast shape of the inputs.
        """
        r = check_array("radius", radius, low=0.0, unit="m")
        px, py, pr = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float), r)
        flat = (np.ascontiguousarray(a, dtype=float).ravel() for a in (px, py, pr))
        return _marks.contains(*flat, self.shape == "square", self.half_size).reshape(px.shape)

    def surface_rule(self, radius: float) -> str:
        """The condition of :meth:`contains` for one disc, as an error message states it.

        Parameters
        ----------
        radius : float
            Disc radius, m.

        Returns
        -------
        str
            ``"|x|, |y| <= h - r m"`` (square) or ``"sqrt(x^2 + y^2) <= h m"`` (round), with
            the numbers.
        """
        if self.shape == "square":
            return f"|x|, |y| <= {self.half_size - radius:.4g} m"
        return f"sqrt(x^2 + y^2) <= {self.half_size:.4g} m"

    def side_coordinates(
        self, side: Side, x: npt.ArrayLike, y: npt.ArrayLike
    ) -> tuple[FloatArray, FloatArray]:
        """Coordinates of points as seen by the player of ``side``, m.

        Parameters
        ----------
        side : {"south", "east", "north", "west"}
            The player's side.
        x, y : array_like
            Points in board coordinates, m.

        Returns
        -------
        along : numpy.ndarray
            Distance along the player's edge from its middle, positive to the player's
            right, m.
        depth : numpy.ndarray
            Distance from the player's cushion (square) or from the tangent to the
            surface's edge in front of the player (round) towards the centre, m.
        """
        check_choice("side", side, SIDES)
        px, py = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        u, v = _turn(-_QUARTER[side], px, py)
        return u, v + self.half_size

    def _marks(self, cls: type, what: str) -> Any:
        if not isinstance(self.marks, cls):
            raise ValueError(f"The board {self.name!r} has no {what} (its marks are {type(self.marks).__name__}).")
        return self.marks

    @_by_side
    def baseline(self, side: Side) -> Baseline:
        """The ICF baselines, base circles and arrows of one side (rule ICF-3).

        Parameters
        ----------
        side : {"south", "east", "north", "west"}
            The shooter's side.

        Raises
        ------
        ValueError
            If ``side`` is unknown or the board has no ICF marks.
        """
        check_choice("side", side, SIDES)
        m: IcfMarks = self._marks(IcfMarks, "ICF baselines")
        k, h = _QUARTER[side], self.half_size
        y_out = -(h - m.baseline_offset)
        y_in = y_out + m.baseline_gap
        y_mid = 0.5 * (y_out + y_in)
        rc = m.base_circle_radius
        end = 0.5 * m.baseline_length - rc

        def seg(u0: float, v0: float, u1: float, v1: float) -> Segment:
            return Segment(*_turn(k, u0, v0), *_turn(k, u1, v1))

        a0 = (m.arrow_start - m.arrow_length) / math.sqrt(2.0)
        a1 = m.arrow_start / math.sqrt(2.0)
        return Baseline(
            side=side,
            outer=seg(-end, y_out, end, y_out),
            inner=seg(-end, y_in, end, y_in),
            centre=seg(-end, y_mid, end, y_mid),
            base_circles=(
                Circle(*_turn(k, -end, y_mid), rc),
                Circle(*_turn(k, end, y_mid), rc),
            ),
            fill_radius=0.5 * m.base_fill_diameter,
            arrows=(seg(-a0, -a0, -a1, -a1), seg(a0, -a0, a1, -a1)),
        )

    @_by_side
    def area_line(self, side: Side) -> AreaLine:
        """The Hikone area line and tee spot of one side (rules HIK-2, HIK-9).

        Parameters
        ----------
        side : {"south", "east", "north", "west"}
            The shooter's side.

        Raises
        ------
        ValueError
            If ``side`` is unknown or the board has no Hikone marks.
        """
        check_choice("side", side, SIDES)
        m: HikoneMarks = self._marks(HikoneMarks, "Hikone area lines")
        k = _QUARTER[side]
        v = -(self.half_size - m.area_line_offset)
        half = 0.5 * m.area_line_length
        return AreaLine(
            side=side,
            line=Segment(*_turn(k, -half, v), *_turn(k, half, v)),
            tee_spot=Circle(*_turn(k, 0.0, v), m.tee_spot_radius),
        )

    def puck_spots(self) -> FloatArray:
        """Starting spots of the Hikone pucks on the centre circle (rule HIK-1), m.

        Returns
        -------
        numpy.ndarray, shape (n, 2)
            Evenly spaced points on the centre circle, the first one nearest the south
            player (polar angle -90 degrees), then counter-clockwise.

        Raises
        ------
        ValueError
            If the board has no Hikone marks.
        """
        m: HikoneMarks = self._marks(HikoneMarks, "Hikone puck spots")
        angles = -0.5 * np.pi + 2.0 * np.pi * np.arange(m.puck_spot_count) / m.puck_spot_count
        return np.column_stack(polar(np.full(m.puck_spot_count, m.centre_circle_radius), angles))

    @_by_side
    def shooting_line(self, side: Side) -> ShootingLine:
        """The crokinole shooting line in the quadrant of one side (rule CRK-1).

        Parameters
        ----------
        side : {"south", "east", "north", "west"}
            The shooter's side; south's quadrant spans polar angles -135 to -45 degrees.

        Raises
        ------
        ValueError
            If ``side`` is unknown or the board has no crokinole marks.
        """
        check_choice("side", side, SIDES)
        m: CrokinoleMarks = self._marks(CrokinoleMarks, "crokinole shooting line")
        start = -0.75 * math.pi + 0.5 * math.pi * _QUARTER[side]
        return ShootingLine(
            side=side, radius=m.shooting_line_radius, start_angle=start, end_angle=start + 0.5 * math.pi
        )

    # ------------------------------------------------------------------ presets
    @staticmethod
    def _corner_pockets(h: float, pocket_radius: float) -> tuple[Hole, ...]:
        c = h - pocket_radius
        return (
            Hole(-c, -c, pocket_radius, "sw"),
            Hole(c, -c, pocket_radius, "se"),
            Hole(c, c, pocket_radius, "ne"),
            Hole(-c, c, pocket_radius, "nw"),
        )

    @classmethod
    def icf(
        cls,
        *,
        size: float = 0.74,
        pocket_diameter: float = 0.0445,
        frame_width: float = 0.07,
        baseline_offset: float = 0.1015,
        baseline_gap: float = 0.0318,
        baseline_length: float = 0.47,
        base_circle_diameter: float = 0.0318,
        base_fill_diameter: float = 0.0254,
        centre_circle_diameter: float = 0.0318,
        outer_circle_diameter: float = 0.17,
        arrow_length: float = 0.267,
        arrow_pocket_gap: float = 0.05,
    ) -> Board:
        """ICF carrom board (docs/equipment.md, "ICF carrom board and pieces"). Sizes in m.

        Parameters
        ----------
        size : float
            Side of the playing surface, in (0, 5] m. [SPEC 73.5-74.0 cm; default the maximum]
        pocket_diameter : float
            Diameter of the four corner pockets. [SPEC 4.45 cm +- 0.15] Each pocket
            circle touches both cushions of its corner, centre (+-(h - Rh), +-(h - Rh))
            [EST: the laws say the pockets are cut in the corners without giving their
            centres; tangency is the largest inset a round hole can have in a corner.]
        frame_width : float
            Breadth of the frame, drawing only. [SPEC 6.35-7.60 cm; default 7 cm]
        baseline_offset : float
            Cushion to outer baseline. [SPEC 10.15 cm]
        baseline_gap : float
            Outer to inner baseline. [SPEC 3.18 cm]
        baseline_length : float
            Overall length of a baseline mark including its base circles. [SPEC 47 cm;
            the "overall" reading is an EST, see :class:`.IcfMarks`]
        base_circle_diameter, base_fill_diameter : float
            Base circles and their red fill. [SPEC 3.18 cm, 2.54 cm]
        centre_circle_diameter, outer_circle_diameter : float
            Centre circle and outer circle. [SPEC 3.18 cm, 17 cm]
        arrow_length : float
            Length of each diagonal arrow, less than the distance from the centre to
            its pocket-side end. [SPEC second-hand, at most 26.7 cm]
        arrow_pocket_gap : float
            Distance from the pocket's rim, along the diagonal, to the arrow's end.
            [SPEC second-hand, 5.0 cm]
        """
        s = check_real("size", size, low=0.0, high=MAX_SIZE, low_open=True, unit="m")
        rh = 0.5 * check_real("pocket_diameter", pocket_diameter, low=0.0, high=0.5 * s, low_open=True, unit="m")
        gap = check_real("arrow_pocket_gap", arrow_pocket_gap, low=0.0, unit="m")
        h = 0.5 * s
        arrow_start = math.sqrt(2.0) * (h - rh) - rh - gap
        check_real(
            "arrow_length", arrow_length, low=0.0, high=arrow_start, low_open=True, high_open=True, unit="m"
        )
        marks = IcfMarks(
            baseline_offset=baseline_offset,
            baseline_gap=baseline_gap,
            baseline_length=baseline_length,
            base_circle_diameter=base_circle_diameter,
            base_fill_diameter=base_fill_diameter,
            centre_circle_diameter=centre_circle_diameter,
            outer_circle_diameter=outer_circle_diameter,
            arrow_start=arrow_start,
            arrow_length=arrow_length,
        )
        return cls("icf", "square", s, holes=cls._corner_pockets(h, rh), frame_width=frame_width, marks=marks)

    @classmethod
    def hikone(
        cls,
        *,
        size: float = 0.60,
        pocket_diameter: float = 0.05,
        frame_width: float = 0.04,
        centre_circle_diameter: float = 0.24,
        jack_spot_diameter: float = 0.034,
        area_line_offset: float = 0.08,
        area_line_length: float = 0.40,
        tee_spot_diameter: float = 0.032,
    ) -> Board:
        """Hikone carrom board. Sizes in m; every one is an [EST] (docs/equipment.md, "Hikone carrom").

        Parameters
        ----------
        size : float
            Side of the playing surface, in (0, 5] m. [EST 60 cm: press reports "about 60 cm
            square"; makers quote 60 cm inside the frame]
        pocket_diameter : float
            Diameter of the corner pockets, placed as on the ICF board (tangent to both
            cushions). [EST 5.0 cm: reported larger than the ICF 4.45 cm; the 3.4 cm
            jack then tips in within 1.8 cm of a pocket's centre]
        frame_width : float
            Width of the frame, drawing only. [EST 4 cm]
        centre_circle_diameter, jack_spot_diameter, area_line_offset, area_line_length, tee_spot_diameter : float
            See :class:`.HikoneMarks` for each [EST] and its reasoning.
        """
        s = check_real("size", size, low=0.0, high=MAX_SIZE, low_open=True, unit="m")
        rh = 0.5 * check_real("pocket_diameter", pocket_diameter, low=0.0, high=0.5 * s, low_open=True, unit="m")
        marks = HikoneMarks(
            centre_circle_diameter=centre_circle_diameter,
            jack_spot_diameter=jack_spot_diameter,
            area_line_offset=area_line_offset,
            area_line_length=area_line_length,
            tee_spot_diameter=tee_spot_diameter,
        )
        holes = cls._corner_pockets(0.5 * s, rh)
        return cls("hikone", "square", s, holes=holes, frame_width=frame_width, marks=marks)

    @classmethod
    def crokinole(
        cls,
        *,
        size: float = 26 * _INCH,
        ring_15_radius: float = 4 * _INCH,
        ring_10_radius: float = 8 * _INCH,
        shooting_line_radius: float = 12 * _INCH,
        ditch_width: float = 2 * _INCH,
        hole_diameter: float = 1.375 * _INCH,
        hole_capture_speed: float | None = 0.47,
        peg_diameter: float = 0.25 * _INCH,
        peg_count: int = 8,
        peg_offset: float = math.pi / 8,
        frame_width: float = 1 * _INCH,
    ) -> Board:
        """Crokinole board, NCA standard (docs/equipment.md, "Crokinole (NCA standard)"). Sizes in m.

        Parameters
        ----------
        size : float
            Diameter of the playing surface, in (0, 5] m. [SPEC 26 in = 66.04 cm]
        ring_15_radius, ring_10_radius, shooting_line_radius, ditch_width : float
            [SPEC 4 in, 8 in, 12 in, 2 in]; see :class:`.CrokinoleMarks`.
        hole_diameter : float
            Diameter of the 20-hole at the centre. [SPEC 1 3/8 in = 3.49 cm]
        hole_capture_speed : float
            Fastest crossing of the 20-hole's capture circle that still falls in, m/s,
            > 0 (None: every crossing falls). [CALC 0.47 m/s: a 1 1/4 in disc
            (r = 15.9 mm) in the 3.49 cm hole tips in while its centre is within
            rho = sqrt(Rh^2 - r^2) = 7.3 mm of the hole's centre; crossing along a diameter
            it is unsupported for 2 rho / v, and it is caught by the far wall of the hole
            only if it drops at least half its 3/8 in thickness h in that time, in free
            fall: v <= 2 rho sqrt(g / h) = 0.47 m/s. Free fall is the fastest drop, so this
            is an upper bound; a disc at 6 m/s is over the hole for 2.4 ms and passes.]
        peg_diameter : float
            Diameter of a peg with its sleeve. [EST about 1/4 in]
        peg_count : int
            Number of pegs, evenly spaced on the 15 ring. [EST 8]
        peg_offset : float
            Angle from a quadrant line to the nearest peg, rad. [EST 22.5 deg = pi/8:
            no peg lies on a quadrant line]
        frame_width : float
            Width of the rail outside the ditch, drawing only. [EST 1 in]
        """
        s = check_real("size", size, low=0.0, high=MAX_SIZE, low_open=True, unit="m")
        marks = CrokinoleMarks(
            ring_15_radius=ring_15_radius,
            ring_10_radius=ring_10_radius,
            shooting_line_radius=shooting_line_radius,
            ditch_width=ditch_width,
        )
        hole_radius = _radius_of("hole_diameter", hole_diameter)
        hole = Hole(0.0, 0.0, hole_radius, "20", capture_speed_max=hole_capture_speed)
        peg_radius = _radius_of("peg_diameter", peg_diameter)
        n = check_int("peg_count", peg_count, low=0)
        offset = check_real("peg_offset", peg_offset, low=-math.pi, high=math.pi, unit="rad")
        angles = [math.pi / 4 + offset + 2.0 * math.pi * i / n for i in range(n)] if n else []
        ring = marks.ring_15_radius
        pegs = tuple(Peg(ring * math.cos(a), ring * math.sin(a), peg_radius) for a in angles)
        return cls(
            "crokinole",
            "round",
            s,
            holes=(hole,),
            pegs=pegs,
            frame_width=frame_width,
            marks=marks,
        )

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Board:
        """A preset board by name: ``"icf"``, ``"hikone"`` or ``"crokinole"``.

        Parameters
        ----------
        name : str
            Preset name.
        **overrides
            Keyword arguments of :meth:`icf`, :meth:`hikone` or :meth:`crokinole`.

        Raises
        ------
        ValueError
            If ``name`` is unknown; the message lists the known names.
        """
        check_choice("name", name, BOARD_PRESETS)
        return getattr(cls, name)(**overrides)

    def to_dict(self) -> dict[str, Any]:
        """The board as plain values (JSON-ready) that :meth:`from_dict` reads back exactly:
        sizes in m, ``holes``/``pegs`` as lists of field mappings, ``marks`` with its
        class name under ``"type"`` (or None)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["holes"] = [asdict(h) for h in self.holes]
        out["pegs"] = [asdict(p) for p in self.pegs]
        out["marks"] = None if self.marks is None else {"type": type(self.marks).__name__, **asdict(self.marks)}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """Rebuild a board written by :meth:`to_dict` (validated as any Board).

        Raises
        ------
        ValueError
            If ``data`` lacks a field or names an unknown one or an unknown marks type.
        """
        names = {f.name for f in fields(cls)}
        if not isinstance(data, Mapping) or not {"name", "shape", "size"} <= set(data) or set(data) - names:
            raise ValueError(
                f"The 'board' entry must be a mapping of Board fields (name, shape, size and optional "
                f"{sorted(names - {'name', 'shape', 'size'})}). Got {data!r} instead."
            )
        marks = data.get("marks")
        if marks is not None:
            types = {t.__name__: t for t in _MARK_SHAPE}
            body = dict(marks) if isinstance(marks, Mapping) else {}
            kind = check_choice("marks type", body.pop("type", None), types)
            marks = types[kind](**body)
        try:
            holes = tuple(Hole(**h) for h in data.get("holes", ()))
            pegs = tuple(Peg(**p) for p in data.get("pegs", ()))
        except TypeError as exc:
            raise ValueError(f"The 'board' entry must hold holes (x, y, radius, name) and pegs (x, y, radius). Got {exc}.") from None
        rest = {k: v for k, v in data.items() if k not in ("holes", "pegs", "marks")}
        return cls(**rest, holes=holes, pegs=pegs, marks=marks)


BOARD_PRESETS = ("icf", "hikone", "crokinole")
