"""Starting layouts and validated custom layouts of the pieces on a board.

Every function returns a long-format :class:`pandas.DataFrame`, one row per piece (the
striker or shooter's disc is never included), with columns

========  =======  ====================================================
column    dtype    meaning
========  =======  ====================================================
kind      str      piece kind, a key of the specs mapping (``"white"``)
x         float64  centre x, m (board coordinates, origin at the centre)
y         float64  centre y, m (the first player sits at y < 0)
========  =======  ====================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .._angles import angle_value
from .._validation import check_choice, check_mapping, check_real, check_type
from .board import Board, polar
from .disc import DiscSpec

__all__ = ["COLUMNS", "GAMES", "RowNames", "icf_break", "hikone_start", "crokinole_empty", "from_frame", "default_specs"]

#: The games with standard pieces (:func:`default_specs`).
GAMES: tuple[str, ...] = ("icf", "hikone", "crokinole")

#: Columns of every layout frame.
COLUMNS: tuple[str, ...] = ("kind", "x", "y")
#: Overlap tolerated between two discs, or a disc and a peg, in a custom layout, m.
OVERLAP_TOL = 1e-9


class RowNames(NamedTuple):
    """How the messages of :func:`~carromlab.equipment.layout.from_frame` name rows of the table: ``noun`` and the
    ``number`` of row ``i`` (its 0-based position), after ``preposition`` for one row, in the
    plural for two; and the table itself: ``table`` (e.g. "its pieces", for a file's), or
    the caller's parameter when empty.

    Examples
    --------
    >>> RowNames().one(2), RowNames().two(0, 2)
    ('in row 2', 'rows 0 and 2')
    >>> lines = RowNames("line", "on", lambda i: i + 2)  # a CSV file's rows, after its header
    >>> lines.one(2), lines.two(0, 2)
    ('on line 4', 'lines 2 and 4')
    """

    noun: str = "row"
    preposition: str = "in"
    number: Callable[[int], int] = int
    table: str = ""

    def subject(self, name: str) -> str:
        """The table in a message: ``table``, or "The 'name' parameter"."""
        return self.table or f"The {name!r} parameter"

    def one(self, i: int) -> str:
        """Row ``i`` in a message: "in row 2"."""
        return f"{self.preposition} {self.noun} {self.number(i)}"

    def two(self, i: int, j: int) -> str:
        """Rows ``i`` and ``j`` in a message: "rows 0 and 2"."""
        return f"{self.noun}s {self.number(i)} and {self.number(j)}"


def _frame(kinds: list[str], x: Any, y: Any) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "kind": pd.Series(kinds, dtype=str),
            "x": np.asarray(x, dtype=np.float64),
            "y": np.asarray(y, dtype=np.float64),
        }
    )


def _check_spec(name: str, value: Any) -> DiscSpec:
    return check_type(name, value, (DiscSpec, type(None)))


def icf_break(
    rotation: float | None = None,
    *,
    rotation_deg: float | None = None,
    coin: DiscSpec | None = None,
    queen: DiscSpec | None = None,
    gap: float = 0.0,
) -> pd.DataFrame:
    """The ICF break arrangement: 9 white, 9 black and the queen (rule ICF-1).

    The queen sits on the centre spot; an inner ring of 6 coins alternating white and
    black touches it; an outer ring of 12 touches the inner ring (a hexagonal pack: 6
    coins at distance 2d on the rays of the inner ring and 6 at d*sqrt(3) between them,
    d = coin diameter + gap). Each white of the inner ring is continued outward by a
    white at 2d, so the whites form a "Y" with the queen at its centre (seed 004); with
    ``rotation=0`` one arm of the Y points at the breaker (south, polar angle -90 deg).
    The three remaining whites sit at d*sqrt(3) just counter-clockwise of each arm, so
    that the outer ring reads white, white, black, black, ... (the mirror image is the
    same frame with x negated). Outer diameter 5d, e.g. 15.5 cm for the default coin,
    inside the 17 cm outer circle [CALC, docs/equipment.md].

    Parameters
    ----------
    rotation : float, optional
        Rotation of the whole arrangement about the centre, rad, counter-clockwise, in
        [-2 pi, 2 pi] (the breaker may rotate it, seed 000). Default 0.
    rotation_deg : float, optional
        The rotation in degrees instead, in [-360, 360].
    coin : DiscSpec, optional
        Coin whose radius sets the spacing. Default :meth:`.DiscSpec.icf_coin`.
    queen : DiscSpec, optional
        The queen; its radius must equal the coin's (a hexagonal pack needs equal
        discs). Default :meth:`.DiscSpec.icf_queen`.
    gap : float
        Clearance added to every touching distance, m, in [0, 0.01]. Default 0
        (touching pieces).

    Returns
    -------
    pandas.DataFrame
        19 rows (queen, inner ring counter-clockwise from the breaker's side, outer ring
        likewise), columns ``kind``, ``x``, ``y`` (see the module docstring).

    Raises
    ------
    ValueError
        If a parameter is out of range or the queen's radius differs from the coin's.

    Examples
    --------
    >>> df = icf_break()
    >>> df["kind"].value_counts().to_dict()
    {'white': 9, 'black': 9, 'queen': 1}
    >>> first = df.iloc[1]   # the first inner white, straight towards the breaker
    >>> print(first.kind, first.x, first.y)
    white 0.0 -0.031
    """
    rot = 0.0 if rotation is None and rotation_deg is None else angle_value("rotation", rotation, rotation_deg)
    g = check_real("gap", gap, low=0.0, high=0.01, unit="m")
    coin = DiscSpec.icf_coin() if coin is None else _check_spec("coin", coin)
    queen = DiscSpec.icf_queen() if queen is None else _check_spec("queen", queen)
    if abs(queen.radius - coin.radius) > 1e-12:
        raise ValueError(
            f"The 'queen' parameter must have the coin's radius {coin.radius:g} m "
            f"(the break is a hexagonal pack of equal discs). Got radius {queen.radius!r} instead."
        )
    d = 2.0 * coin.radius + g
    base = -0.5 * math.pi + rot
    kinds, rho, theta = ["queen"], [0.0], [0.0]
    for k in range(6):  # inner ring: white on even rays
        kinds.append("white" if k % 2 == 0 else "black")
        rho.append(d)
        theta.append(base + k * math.pi / 3)
    for k in range(6):  # outer ring: 2d on the inner rays, then d*sqrt(3) half-way to the next ray
        colour = "white" if k % 2 == 0 else "black"
        kinds += [colour, colour]
        rho += [2.0 * d, math.sqrt(3.0) * d]
        theta += [base + k * math.pi / 3, base + (k + 0.5) * math.pi / 3]
    x, y = polar(rho, theta)
    return _frame(kinds, x, y)


def hikone_start(
    *,
    puck: DiscSpec | None = None,
    jack: DiscSpec | None = None,
    board: Board | None = None,
) -> pd.DataFrame:
    """The Hikone starting layout: 24 pucks alternating on the centre circle, the jack on
    the jack spot (rule HIK-1).

    The pucks' centres lie on the board's puck spots (:meth:`.Board.puck_spots`), a red
    one first, nearest the first (red, south) player, then alternating counter-clockwise.

    Parameters
    ----------
    puck : DiscSpec, optional
        Puck size. Default :meth:`.DiscSpec.hikone_puck`.
    jack : DiscSpec, optional
        Jack size. Default :meth:`.DiscSpec.hikone_jack`.
    board : Board, optional
        A board with Hikone marks. Default :meth:`.Board.hikone`.

    Returns
    -------
    pandas.DataFrame
        25 rows: the jack, then the pucks (12 ``"red"``, 12 ``"green"``); columns
        ``kind``, ``x``, ``y``.

    Raises
    ------
    ValueError
        If neighbouring pucks would overlap, or the pucks would overlap the jack.

    Examples
    --------
    >>> df = hikone_start()
    >>> df["kind"].value_counts().to_dict()
    {'red': 12, 'green': 12, 'jack': 1}
    """
    puck = DiscSpec.hikone_puck() if puck is None else _check_spec("puck", puck)
    jack = DiscSpec.hikone_jack() if jack is None else _check_spec("jack", jack)
    if board is None:
        board = Board.hikone()
    else:
        check_type("board", board, (Board, type(None)))
    spots = board.puck_spots()
    n = len(spots)
    ring = math.hypot(*spots[0])
    chord = 2.0 * ring * math.sin(math.pi / n) if n > 1 else math.inf
    if puck.radius > 0.5 * chord:
        raise ValueError(
            f"The 'puck' parameter must have a radius <= {0.5 * chord:g} m so that {n} pucks fit on "
            f"the centre circle of radius {ring:g} m. Got radius {puck.radius!r} instead."
        )
    if jack.radius > ring - puck.radius:
        raise ValueError(
            f"The 'jack' parameter must have a radius <= {ring - puck.radius:g} m so that it clears "
            f"the pucks on the centre circle. Got radius {jack.radius!r} instead."
        )
    kinds = ["jack"] + ["red" if k % 2 == 0 else "green" for k in range(n)]
    return _frame(kinds, np.r_[0.0, spots[:, 0]], np.r_[0.0, spots[:, 1]])


def crokinole_empty() -> pd.DataFrame:
    """The empty crokinole board at the start of a round: zero rows, columns ``kind``
    (str), ``x``, ``y`` (float64)."""
    return _frame([], [], [])


def default_specs(game: str) -> dict[str, DiscSpec]:
    """The standard pieces of a game, by kind.

    Parameters
    ----------
    game : {"icf", "hikone", "crokinole"}
        The game.

    Returns
    -------
    dict of str to DiscSpec
        ``"icf"``: white, black, queen, striker. ``"hikone"``: red, green, jack, striker.
        ``"crokinole"``: dark, light (the shooter's disc is of the player's colour).
    """
    check_choice("game", game, GAMES)
    if game == "icf":
        specs = (
            DiscSpec.icf_coin("white"),
            DiscSpec.icf_coin("black"),
            DiscSpec.icf_queen(),
            DiscSpec.icf_striker(),
        )
    elif game == "hikone":
        specs = (
            DiscSpec.hikone_puck("red"),
            DiscSpec.hikone_puck("green"),
            DiscSpec.hikone_jack(),
            DiscSpec.hikone_striker(),
        )
    else:
        specs = (DiscSpec.crokinole_disc("dark"), DiscSpec.crokinole_disc("light"))
    return {s.kind: s for s in specs}


def from_frame(
    df: pd.DataFrame, board: Board, specs: Mapping[str, DiscSpec], *, name: str = "df", rows: RowNames = RowNames()
) -> pd.DataFrame:
    """Validate a custom layout and return a clean copy.

    Checks, in order: ``df`` has the columns ``kind``, ``x``, ``y``; every kind is a key of
    ``specs``; every coordinate is a finite real number; every disc lies on the board
    (:meth:`.Board.contains`); no disc centre lies within a hole's capture radius (it
    would already have fallen); no disc overlaps a peg, or another disc, by more than
    ``OVERLAP_TOL`` = 1e-9 m. Rows are named by their position (0-based), or as ``rows``
    names them.

    Parameters
    ----------
    df : pandas.DataFrame
        The layout; extra columns are dropped, the input is never modified.
    board : Board
        The board the pieces lie on.
    specs : mapping of str to DiscSpec
        Disc specification of every allowed kind.
    name : str
        The name of the table in the error messages: the caller's parameter. Default
        ``"df"``.
    rows : RowNames
        How the messages name a row: default "in row 2", "rows 0 and 2" (the position in
        ``df``); a file's reader names its lines, the batch engine its piece ids. Its
        ``table``, when set, names the table instead of ``name``.

    Returns
    -------
    pandas.DataFrame
        Columns ``kind`` (str), ``x``, ``y`` (float64), a fresh ``RangeIndex``.

    Raises
    ------
    TypeError
        A kind that is no str, naming the row and the value.
    ValueError
        Naming the offending row, the value received and the allowed range.

    Examples
    --------
    >>> board = Board.icf()
    >>> bad = pd.DataFrame({"kind": ["white"], "x": [0.36], "y": [0.0]})
    >>> from_frame(bad, board, default_specs("icf"))
    Traceback (most recent call last):
    ...
    ValueError: The 'df' parameter must hold discs lying wholly on the board (|x|, |y| <= 0.3545 m for kind 'white'). Got x=0.36, y=0.0 in row 0 instead.
    """
    check_type(name, df, pd.DataFrame, hint=f"with columns {list(COLUMNS)}")
    check_type("board", board, Board, hint="e.g. Board.icf()")
    check_mapping("specs", specs, str, DiscSpec, nonempty=True, what="a mapping of kind to DiscSpec")
    subject = rows.subject(name)
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{subject} must have the columns {list(COLUMNS)}. Missing {missing}.")

    kinds = df["kind"].tolist()
    allowed = sorted(specs)
    for i, k in enumerate(kinds):
        if not isinstance(k, str):
            raise TypeError(
                f"{subject} must have a kind (str) in {allowed} in every row. "
                f"Got {k!r} ({type(k).__name__}) {rows.one(i)} instead."
            )
        if k not in specs:
            raise ValueError(
                f"{subject} must have a kind in {allowed} in every row. Got {k!r} {rows.one(i)} instead."
            )
    coords = {}
    for col in ("x", "y"):
        raw = df[col].tolist()
        values = np.empty(len(raw))
        for i, v in enumerate(raw):
            ok = not isinstance(v, (bool, np.bool_, str)) and isinstance(v, (int, float, np.number))
            if not ok or not math.isfinite(float(v)):
                raise ValueError(
                    f"{subject} must hold finite real numbers (m) in column {col!r}. "
                    f"Got {v!r} {rows.one(i)} instead."
                )
            values[i] = float(v)
        coords[col] = values
    x, y = coords["x"], coords["y"]
    r = np.array([specs[k].radius for k in kinds], dtype=float)

    on = board.contains(x, y, r)
    if not on.all():
        i = int(np.flatnonzero(~on)[0])
        raise ValueError(
            f"{subject} must hold discs lying wholly on the board ({board.surface_rule(r[i])} for kind "
            f"{kinds[i]!r}). "
            f"Got x={float(x[i])!r}, y={float(y[i])!r} {rows.one(i)} instead."
        )
    for hole in board.holes:
        d = np.hypot(x - hole.x, y - hole.y)
        for i in range(len(kinds)):
            cap = hole.capture_radius(r[i])
            if d[i] < cap:
                raise ValueError(
                    f"{subject} must hold discs whose centres lie at least the capture radius "
                    f"{cap:g} m from hole {hole.name!r} (else they fall). "
                    f"Got a distance of {d[i]:g} m {rows.one(i)} instead."
                )
    for peg in board.pegs:
        d = np.hypot(x - peg.x, y - peg.y) - (r + peg.radius)
        if (d < -OVERLAP_TOL).any():
            i = int(np.flatnonzero(d < -OVERLAP_TOL)[0])
            raise ValueError(
                f"{subject} must hold discs clear of every peg (overlap <= {OVERLAP_TOL:g} m). "
                f"Got an overlap of {-d[i]:g} m with the peg at ({peg.x:g}, {peg.y:g}) {rows.one(i)} instead."
            )
    if len(kinds) > 1:
        dist = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) - (r[:, None] + r[None, :])
        np.fill_diagonal(dist, np.inf)
        bad = np.argwhere(dist < -OVERLAP_TOL)
        if len(bad):
            i, j = (int(v) for v in bad[0])
            raise ValueError(
                f"{subject} must hold discs overlapping by at most {OVERLAP_TOL:g} m. "
                f"Got {rows.two(i, j)} overlapping by {-dist[i, j]:g} m instead."
            )
    return _frame(kinds, x, y)
