"""Scenes (a board with pieces on it) and shots (how the striker is played)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._angles import angle_array, angle_value
from .._check_build import check_build
from .._validation import check_array, check_choice, check_keys, check_mapping, check_real, check_type
from ..equipment.board import Board
from ..equipment.disc import DiscSpec
from ..equipment.layout import GAMES, RowNames, crokinole_empty, default_specs, from_frame, hikone_start, icf_break

check_build()
from . import _core  # noqa: E402  (after the build check, which explains a missing build)

__all__ = ["Scene", "Shot", "MAX_SPEED", "MAX_SPIN"]

#: Fastest striker speed accepted, m/s (a hard carrom break is about 6-8 m/s).
MAX_SPEED = 30.0
#: Largest spin accepted, rad/s.
MAX_SPIN = 5000.0


class _Specs(Mapping[str, DiscSpec]):
    """A read-only mapping of kind to DiscSpec (a scene's ``specs``): it reads as a dict
    and pickles, but cannot be changed."""

    def __init__(self, specs: Mapping[str, DiscSpec]) -> None:
        self._d = dict(specs)

    def __getitem__(self, kind: str) -> DiscSpec:
        return self._d[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __repr__(self) -> str:
        return repr(self._d)

    def __reduce__(self) -> tuple[type, tuple[dict[str, DiscSpec]]]:
        return (_Specs, (self._d,))


def _preset_specs(game: str, specs: Mapping[str, DiscSpec] | None) -> dict[str, DiscSpec]:
    """The standard discs of ``game`` with those of ``specs`` (a preset's parameter) in
    their place; a kind the game has no disc of (a misspelt one) is refused, not ignored."""
    standard = default_specs(game)
    if specs is None:
        return standard
    check_mapping("specs", specs, str, DiscSpec, what="a mapping of kind to DiscSpec")
    check_keys("specs", specs, standard, f"kinds of the {game} discs")
    return {**standard, **specs}


@dataclass(frozen=True, eq=False)
class Scene:
    """A board, the pieces lying on it and the disc the shooter plays.

    Parameters
    ----------
    board : Board
        The board (sizes in metres).
    pieces : pandas.DataFrame
        One row per piece with columns ``kind``, ``x``, ``y`` (m). Validated by
        :func:`carromlab.equipment.layout.from_frame`: every piece lies wholly on the board
        and no two overlap. Piece ``id`` is the row position (0, 1, ...).
    specs : mapping of str to DiscSpec
        Disc properties for every kind in ``pieces`` and for ``striker``.
    striker : str
        Kind of the disc that is shot (``"striker"``; the player's colour in crokinole).

    Notes
    -----
    The scene is immutable: ``pieces`` is a validated copy with an ``id`` column and
    each piece's ``radius`` (m) and ``mass`` (kg), and ``specs`` a read-only mapping.
    The engine reads the arrays made when the scene was made (:attr:`arrays`), so a
    DataFrame edited in place (which pandas cannot forbid) changes nothing the engine or
    the plots use but that frame: make a new scene instead (:meth:`from_frame`).
    """

    board: Board
    pieces: pd.DataFrame
    specs: Mapping[str, DiscSpec]
    striker: str = "striker"
    _arrays: dict[str, np.ndarray] = field(init=False, repr=False)
    _kinds: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._settle("pieces")

    @classmethod
    def _made(
        cls, board: Board, pieces: pd.DataFrame, specs: Mapping[str, DiscSpec], striker: str, *, name: str, rows: RowNames = RowNames()
    ) -> Scene:
        """``Scene(board, pieces, specs, striker)``, its errors naming the pieces as the
        caller's parameter ``name`` (a constructor of its own checks them once) and their
        rows as ``rows`` does (a file's lines)."""
        scene = cls.__new__(cls)
        for field_name, value in (("board", board), ("pieces", pieces), ("specs", specs), ("striker", striker)):
            object.__setattr__(scene, field_name, value)
        scene._settle(name, rows)
        return scene

    def _settle(self, name: str, rows: RowNames = RowNames()) -> None:
        """Check the fields (the pieces' errors naming the table ``name`` and its rows as
        ``rows`` does) and keep clean copies."""
        check_type("board", self.board, Board, hint="e.g. Board.icf()")
        check_type("specs", self.specs, Mapping, hint="kind -> DiscSpec")
        for kind, spec in self.specs.items():
            check_type(f"specs[{kind!r}]", spec, DiscSpec)
        if self.striker not in self.specs:
            raise ValueError(
                f"The 'striker' parameter must be one of the spec kinds {sorted(self.specs)}. "
                f"Got {self.striker!r} instead."
            )
        clean = from_frame(self.pieces, self.board, self.specs, name=name, rows=rows)
        if len(clean) + 1 > 64:
            raise ValueError(
                f"{rows.subject(name)} must have at most 63 rows (the striker is the 64th "
                f"disc). Got {len(clean)} rows instead."
            )
        clean = clean.reset_index(drop=True)
        clean.insert(0, "id", np.arange(len(clean)))
        clean["radius"] = [self.specs[k].radius for k in clean["kind"]]
        clean["mass"] = [self.specs[k].mass for k in clean["kind"]]
        object.__setattr__(self, "pieces", clean)
        object.__setattr__(self, "specs", _Specs(self.specs))
        st = self.specs[self.striker]
        arrays = {
            "xy": np.ascontiguousarray(clean[["x", "y"]].to_numpy(dtype=float).reshape(-1, 2)),
            "radius": np.append(clean["radius"].to_numpy(dtype=float), st.radius),
            "mass": np.append(clean["mass"].to_numpy(dtype=float), st.mass),
        }
        for a in arrays.values():
            a.setflags(write=False)
        object.__setattr__(self, "_arrays", arrays)
        object.__setattr__(self, "_kinds", (*clean["kind"], self.striker))

    # -- display -----------------------------------------------------------------
    def _counts(self) -> str:
        counts = self.pieces["kind"].value_counts(sort=False)
        return ", ".join(f"{n} {k}" for k, n in counts.items()) or "no pieces"

    def __repr__(self) -> str:
        return f"Scene({self.board.name} board, {self.n_pieces} piece{'s' * (self.n_pieces != 1)}: {self._counts()}; shot disc {self.striker!r})"

    def _repr_html_(self) -> str:
        from ..plotting.display import rich_html, scene_picture

        rows = {"board": f"{self.board.name} ({self.board.shape}, {self.board.size:.4g} m)", "pieces": self._counts()}
        rows |= {f"{k} disc": f"r = {v.radius * 1e3:.4g} mm, m = {v.mass * 1e3:.4g} g" for k, v in self.specs.items()}
        return rich_html(f"Scene: {self.board.name}, shot disc {self.striker!r}", rows, picture=scene_picture(self))

    # -- presets -----------------------------------------------------------------
    # ``specs`` changes some discs; the others keep the game's standard discs
    @classmethod
    def icf_break(
        cls,
        rotation: float | None = None,
        *,
        rotation_deg: float | None = None,
        board: Board | None = None,
        specs: Mapping[str, DiscSpec] | None = None,
    ) -> Scene:
        """The ICF break (rule ICF-1) on an ICF board.

        Parameters
        ----------
        rotation : float, optional
            Rotation of the pack about the centre, rad, counter-clockwise, in [-2 pi,
            2 pi]. Default 0: one arm of the whites' Y towards the breaker
            (:func:`carromlab.equipment.layout.icf_break`).
        rotation_deg : float, optional
            The rotation in degrees instead, in [-360, 360].
        board : Board, optional
            Default :meth:`Board.icf`.
        specs : mapping of str to DiscSpec, optional
            Discs of some kinds (radius m, mass kg, thickness m); the others keep the ICF
            discs. The pack is laid out for the coins and queen given, which must share
            one radius (a hexagonal pack of touching equal discs).

        Returns
        -------
        Scene

        Raises
        ------
        TypeError
            If ``specs`` is not a mapping of kind to DiscSpec.
        ValueError
            If the rotation is out of range, ``specs`` names a kind that is not an ICF disc
            (white, black, queen, striker), or the white, black and queen discs differ in
            radius (the message names ``specs``).
        """
        specs = _preset_specs("icf", specs)
        radii = {k: specs[k].radius for k in ("white", "black", "queen")}
        if len(set(radii.values())) != 1:
            raise ValueError(
                "The 'specs' parameter must keep the white, black and queen discs of one radius (the break is a "
                f"hexagonal pack of touching equal discs). Got radii {radii} (m) instead."
            )
        frame = icf_break(rotation, rotation_deg=rotation_deg, coin=specs["white"], queen=specs["queen"])
        return cls(board or Board.icf(), frame, specs)

    @classmethod
    def hikone_start(cls, *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """The Hikone starting layout (rule HIK-1) on a Hikone board.

        Parameters
        ----------
        board : Board, optional
            Default :meth:`Board.hikone`.
        specs : mapping of str to DiscSpec, optional
            Discs of some kinds (radius m, mass kg, thickness m); the others keep the
            Hikone discs. The layout is made for the pucks and the jack given.

        Returns
        -------
        Scene

        Raises
        ------
        TypeError
            If ``specs`` is not a mapping of kind to DiscSpec.
        ValueError
            If ``specs`` names a kind that is not a Hikone disc (red, green, jack, striker).
        """
        specs = _preset_specs("hikone", specs)
        board = board or Board.hikone()
        return cls(board, hikone_start(puck=specs["red"], jack=specs["jack"], board=board), specs)

    @classmethod
    def crokinole_empty(cls, shooter: str = "dark", *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """An empty crokinole board, for a disc shot from the shooting line.

        Parameters
        ----------
        shooter : {"dark", "light"}
            Colour of the shot disc. Default "dark".
        board : Board, optional
            Default :meth:`Board.crokinole`.
        specs : mapping of str to DiscSpec, optional
            Discs of some kinds (radius m, mass kg, thickness m); the others keep the
            crokinole discs.

        Returns
        -------
        Scene

        Raises
        ------
        TypeError
            If ``shooter`` is not a str or ``specs`` not a mapping of kind to DiscSpec.
        ValueError
            If ``shooter`` or a kind of ``specs`` is not a crokinole disc (dark, light).
        """
        specs = _preset_specs("crokinole", specs)
        check_choice("shooter", shooter, specs)
        return cls(board or Board.crokinole(), crokinole_empty(), specs, shooter)

    @classmethod
    def from_frame(
        cls,
        board: Board,
        frame: pd.DataFrame,
        specs: Mapping[str, DiscSpec] | None = None,
        *,
        striker: str = "striker",
        game: str | None = None,
    ) -> Scene:
        """A custom position.

        Parameters
        ----------
        board : Board
            The board.
        frame : pandas.DataFrame
            The pieces: columns ``kind``, ``x``, ``y`` (m, board frame, origin at the
            centre), one row per piece (piece ids in row order).
        specs : mapping of str to DiscSpec, optional
            Discs of some kinds (e.g. ``{"striker": heavy}``; radius m, mass kg,
            thickness m): every kind it does not name keeps the standard disc of
            ``game``.
        striker : str
            Kind of the shot disc. Default "striker".
        game : str, optional
            Whose standard discs fill in ("icf", "hikone", "crokinole"). Default the
            board's name, when that is a preset game.

        Returns
        -------
        Scene

        Raises
        ------
        ValueError
            If a piece is off the board, inside a hole's capture radius, on a peg or
            overlapping another piece, a kind has no disc, a column is missing, or
            ``specs`` names a kind that is neither in the scene nor a standard disc of
            ``game`` (a misspelt kind).
        """
        scene = cls._from_frame(board, frame, specs, striker=striker, game=game)
        name = game or board.name
        standard = default_specs(name) if name in GAMES else {}
        check_keys("specs", specs or {}, {*standard, *scene.kinds}, f"kinds of the scene's discs{f' or the {name} discs' if standard else ''}")
        return scene

    @classmethod
    def _from_frame(
        cls, board: Board, frame: pd.DataFrame, specs: Mapping[str, DiscSpec] | None = None, *, striker: str = "striker",
        game: str | None = None, rows: RowNames = RowNames(),
    ) -> Scene:  # fmt: skip
        """:meth:`from_frame`, its errors naming the rows of ``frame`` as ``rows`` does (a file's lines)."""
        check_type("board", board, Board, hint="e.g. Board.icf()")
        check_type("specs", specs, (Mapping, type(None)), hint="kind -> DiscSpec")
        name = game or board.name
        # a custom board given its full specs needs no game; else the game's discs fill in
        base = {} if specs and game is None and name not in GAMES else default_specs(name)
        specs = {**base, **(specs or {})}
        return cls._made(board, frame, specs, striker, name="frame", rows=rows)  # errors name this method's parameter, not Scene's

    # -- files ---------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the position to a file (see :mod:`carromlab.engine.position_file`).

        Both formats hold the board, every disc spec (radius m, mass kg, thickness m),
        the shot disc's kind and the pieces; :meth:`load` reads them back exactly.

        Parameters
        ----------
        path : str or pathlib.Path
            A ``.json`` or ``.csv`` file; written whole or not at all.

        Returns
        -------
        pathlib.Path
            The file written.
        """
        from .position_file import write_position

        return write_position(self, path)

    @classmethod
    def load(cls, path: str | Path, *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """Read a position written by :meth:`save`, or a plain table of pieces.

        Parameters
        ----------
        path : str or pathlib.Path
            A ``.json`` or ``.csv`` file from :meth:`save`, or a plain CSV or Parquet
            table with columns kind, x, y (m).
        board : Board, optional
            The board of a plain table (a saved position names its own).
        specs : mapping of str to DiscSpec, optional
            Discs that replace some of the file's (or of the board's standard discs).

        Returns
        -------
        Scene

        Raises
        ------
        ValueError
            Naming the file and, for a table, the line of a bad entry.
        """
        from .position_file import read_position

        return read_position(path, board=board, specs=specs)

    # -- properties ----------------------------------------------------------------
    @property
    def n_pieces(self) -> int:
        """Number of pieces on the board (the striker not counted)."""
        return len(self._arrays["xy"])

    @property
    def kinds(self) -> list[str]:
        """Kind of every disc the engine sees: the pieces, then the striker."""
        return list(self._kinds)

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        """Read-only engine arrays: ``xy`` (n, 2) of the pieces, ``radius`` and ``mass``
        of the pieces then the striker."""
        return self._arrays

    @cached_property
    def _obstacles(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
        """What a striker placement must keep clear of (``check_placement``): the centres
        (k, 2) of the pegs then the holes, m; the closest a striker centre may come to each
        piece and then to each of them (n_pieces + k), m; this scene's piece centres
        (1, n_pieces, 2), m; their on-board mask (1, n_pieces), uint8; and the half-size of
        the square, or the radius of the round surface, a striker centre may reach, m."""
        board, r = self.board, self.specs[self.striker].radius
        fixed = np.array([[g.x, g.y] for g in board.pegs] + [[h.x, h.y] for h in board.holes], dtype=float).reshape(-1, 2)
        reach = np.concatenate([
            self._arrays["radius"][:-1] + r, [g.radius + r for g in board.pegs], [h.capture_radius(r) for h in board.holes]
        ])  # fmt: skip
        own = np.ascontiguousarray(self._arrays["xy"], dtype=float)[None]
        lim = board.half_size - (r if board.shape == "square" else 0.0)
        return fixed, reach, own, np.ones((1, own.shape[1]), np.uint8), lim

    def check_placement(
        self,
        x: np.ndarray,
        y: np.ndarray,
        *,
        first_index: int = 0,
        pieces: np.ndarray | None = None,
        on_board: np.ndarray | None = None,
    ) -> None:
        """Check striker placements: on the board, clear of the pieces and pegs, and
        outside the holes' capture circles (where it would fall at once).

        Parameters
        ----------
        x, y : numpy.ndarray
            Striker centres, m, one per shot.
        first_index : int
            Number of the first shot in the message. Default 0.
        pieces : numpy.ndarray, optional
            (m, n_pieces, 2) piece centres, m, each shot starts from (m = 1: every shot,
            or one row per shot). Default this scene's pieces.
        on_board : numpy.ndarray, optional
            (m, n_pieces) bool: the pieces present (only they can overlap). Default all.

        Raises
        ------
        ValueError
            Naming the first offending shot (counted from ``first_index``) and what it
            overlaps or where it lies.
        """
        x = np.ascontiguousarray(x, dtype=float).reshape(-1)
        y = np.ascontiguousarray(y, dtype=float).reshape(-1)
        fixed, reach, own, all_present, lim = self._obstacles
        if pieces is None:
            rows, present = own, all_present
        else:
            rows = np.ascontiguousarray(pieces, dtype=float)
            present = (all_present if on_board is None
                       else np.ascontiguousarray(on_board, dtype=bool).view(np.uint8))  # fmt: skip
        k, p, gap = _core.placement_fault(x, y, rows, present, fixed, reach, self.board.shape == "round", lim)
        if k >= 0:
            raise self._placement_error(x[k], y[k], p, gap, "" if x.size == 1 else f" at shot {k + first_index}")

    def _placement_error(self, x: float, y: float, part: int, gap: float, where: str = "") -> ValueError:
        """The error for a striker centre at (x, y) m that is off the board (``part`` -1)
        or overlaps obstacle ``part`` (the pieces, then the pegs, then the holes' capture
        circles) by ``-gap`` m; ``where`` names the shot (e.g. " at shot 3")."""
        board = self.board
        if part < 0:
            return ValueError(
                f"The striker placement (x, y) must put the striker wholly on the board "
                f"({board.surface_rule(self.specs[self.striker].radius)} for this board and striker). "
                f"Got ({x:.6g}, {y:.6g}) m{where} instead."
            )
        names = [*(f"piece {i} ({kind})" for i, kind in enumerate(self.pieces["kind"])),
                 *(f"the peg at ({g.x:.4g}, {g.y:.4g}) m" for g in board.pegs),
                 *(f"the capture circle of hole {h.name!r} (it would fall at once)" for h in board.holes)]  # fmt: skip
        return ValueError(
            f"The striker placement (x, y) must not overlap a piece or a peg, nor lie in a hole's capture "
            f"circle (gap >= 0 m). Got ({x:.6g}, {y:.6g}) m{where}, overlapping {names[part]} by "
            f"{-gap:.3g} m instead."
        )


@dataclass(frozen=True)
class Shot:
    """How the striker is played: placement, direction, speed and spin.

    Parameters
    ----------
    x, y : float
        Striker centre, m (board centre at the origin, the first player at y < 0).
    angle : float
        Direction of travel, radians counter-clockwise from +x (pi/2: straight up the board),
        in [-2 pi, 2 pi]; or give ``angle_deg`` instead.
    speed : float
        Initial speed, m/s, in [0, 30].
    spin : float
        Initial spin, rad/s, counter-clockwise positive, in [-5000, 5000]. Default 0.
    angle_deg : float, optional
        Direction of travel in degrees, instead of ``angle`` (stored as radians).

    Raises
    ------
    TypeError
        If neither ``angle`` nor ``angle_deg``, or no ``speed``, is given (a missing
        argument).
    ValueError
        If an input is out of range, ``angle`` and ``angle_deg`` are both given, or
        ``angle`` lies beyond 2 pi rad (degrees typed as radians: the message
        suggests ``angle_deg``).

    Examples
    --------
    >>> Shot(0.0, -0.25, angle_deg=90.0, speed=4.0).angle == math.pi / 2
    True
    >>> Shot(0, -0.2526, angle=90, speed=3)
    Traceback (most recent call last):
    ...
    ValueError: The 'angle' parameter is in radians and must lie in [-2π, 2π] (±6.283 rad). Got 90 rad (5156.6 degrees) instead; did you mean angle_deg=90?
    """

    x: float
    y: float
    angle: float
    speed: float
    spin: float = 0.0

    def __init__(
        self, x: float, y: float, angle: float | None = None, speed: float | None = None, spin: float = 0.0,
        *, angle_deg: float | None = None,
    ) -> None:  # fmt: skip
        if speed is None:
            raise TypeError("The 'speed' parameter (m/s) is required.")
        object.__setattr__(self, "x", check_real("x", x, unit="m"))
        object.__setattr__(self, "y", check_real("y", y, unit="m"))
        object.__setattr__(self, "angle", angle_value("angle", angle, angle_deg))
        object.__setattr__(self, "speed", check_real("speed", speed, low=0.0, high=MAX_SPEED, unit="m/s"))
        object.__setattr__(self, "spin", check_real("spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"))

    @staticmethod
    def array(x: npt.ArrayLike, y: npt.ArrayLike, angle: npt.ArrayLike, speed: npt.ArrayLike, spin: npt.ArrayLike = 0.0) -> npt.NDArray[np.float64]:
        """Many shots as one array, checked at once against the ranges of :class:`Shot`
        (the same errors): the form in which policies and games pass shots around.

        Parameters
        ----------
        x, y, angle, speed, spin : array_like
            As in :class:`Shot` (m, m, rad, m/s, rad/s), broadcast against each other.

        Returns
        -------
        numpy.ndarray, shape (N, 5)
            One row ``x, y, angle, speed, spin`` per shot (N: the broadcast size);
            ``Shot(*row)`` is the shot of a row.

        Examples
        --------
        >>> Shot.array([0.0, 0.1], -0.25, 1.5, [2.0, 3.0])[:, 3].tolist()
        [2.0, 3.0]
        """
        cols = np.broadcast_arrays(
            check_array("x", x, unit="m"), check_array("y", y, unit="m"), angle_array("angle", angle, None),
            check_array("speed", speed, low=0.0, high=MAX_SPEED, unit="m/s"),
            check_array("spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"),
        )  # fmt: skip
        return np.column_stack([np.asarray(c, dtype=float).ravel() for c in cols])

    @property
    def row(self) -> tuple[float, float, float, float, float]:
        """The shot as one row ``x, y, angle, speed, spin`` (m, m, rad, m/s, rad/s), as
        the rows of :meth:`array`; ``Shot(*shot.row) == shot``."""
        return (self.x, self.y, self.angle, self.speed, self.spin)

    @classmethod
    def from_deg(cls, x: float, y: float, *, angle_deg: float, speed: float, spin: float = 0.0) -> Shot:
        """A shot with its direction in degrees; the same as ``Shot(x, y,
        angle_deg=angle_deg, speed=speed, spin=spin)``.

        Parameters
        ----------
        x, y : float
            Striker centre, m.
        angle_deg : float
            Direction, degrees counter-clockwise from +x, in [-360, 360].
        speed : float
            Speed, m/s, in [0, 30].
        spin : float
            Spin, rad/s, in [-5000, 5000]. Default 0.

        Returns
        -------
        Shot
        """
        return cls(x, y, angle_deg=angle_deg, speed=speed, spin=spin)

    @property
    def angle_deg(self) -> float:
        """Direction of travel in degrees."""
        return math.degrees(self.angle)

    @property
    def velocity(self) -> tuple[float, float]:
        """Initial velocity (vx, vy), m/s."""
        return self.speed * math.cos(self.angle), self.speed * math.sin(self.angle)
