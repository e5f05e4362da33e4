"""Scenes (a board with pieces on it) and shots (how the striker is played)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import check_real, check_type
from ..equipment.board import Board
from ..equipment.disc import DiscSpec
from ..equipment.layout import GAMES, crokinole_empty, default_specs, from_frame, hikone_start, icf_break

__all__ = ["Scene", "Shot", "MAX_SPEED", "MAX_SPIN"]

#: Fastest striker speed accepted, m/s (a hard carrom break is about 6-8 m/s).
MAX_SPEED = 30.0
#: Largest spin accepted, rad/s.
MAX_SPIN = 5000.0


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
    The scene is immutable: :attr:`pieces` is a validated copy with an ``id`` column and
    each piece's ``radius`` (m) and ``mass`` (kg).
    """

    board: Board
    pieces: pd.DataFrame
    specs: Mapping[str, DiscSpec]
    striker: str = "striker"
    _arrays: dict[str, np.ndarray] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_type("board", self.board, Board, hint="e.g. Board.icf()")
        check_type("specs", self.specs, Mapping, hint="kind -> DiscSpec")
        for kind, spec in self.specs.items():
            check_type(f"specs[{kind!r}]", spec, DiscSpec)
        if self.striker not in self.specs:
            raise ValueError(
                f"The 'striker' parameter must be one of the spec kinds {sorted(self.specs)}. "
                f"Got {self.striker!r} instead."
            )
        clean = from_frame(self.pieces, self.board, self.specs)
        if len(clean) + 1 > 64:
            raise ValueError(
                f"The 'pieces' parameter must have at most 63 rows (the striker is the 64th "
                f"disc). Got {len(clean)} rows instead."
            )
        clean = clean.reset_index(drop=True)
        clean.insert(0, "id", np.arange(len(clean)))
        clean["radius"] = [self.specs[k].radius for k in clean["kind"]]
        clean["mass"] = [self.specs[k].mass for k in clean["kind"]]
        object.__setattr__(self, "pieces", clean)
        object.__setattr__(self, "specs", dict(self.specs))
        st = self.specs[self.striker]
        arrays = {
            "xy": np.ascontiguousarray(clean[["x", "y"]].to_numpy(dtype=float).reshape(-1, 2)),
            "radius": np.append(clean["radius"].to_numpy(dtype=float), st.radius),
            "mass": np.append(clean["mass"].to_numpy(dtype=float), st.mass),
        }
        for a in arrays.values():
            a.setflags(write=False)
        object.__setattr__(self, "_arrays", arrays)

    # -- presets -----------------------------------------------------------------
    # ``specs`` changes some discs; the others keep the game's standard discs
    @classmethod
    def icf_break(cls, rotation: float = 0.0, *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """The ICF break (rule ICF-1) on an ICF board; ``rotation`` in radians; ``specs``
        changes some discs (the pack is laid out for the coin and queen given)."""
        specs = {**default_specs("icf"), **(specs or {})}
        return cls(board or Board.icf(), icf_break(rotation, coin=specs["white"], queen=specs["queen"]), specs)

    @classmethod
    def hikone_start(cls, *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """The Hikone starting layout (rule HIK-1) on a Hikone board; ``specs`` changes some discs."""
        specs = {**default_specs("hikone"), **(specs or {})}
        board = board or Board.hikone()
        return cls(board, hikone_start(puck=specs["red"], jack=specs["jack"], board=board), specs)

    @classmethod
    def crokinole_empty(cls, shooter: str = "dark", *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """An empty crokinole board; the shot disc is of colour ``shooter``; ``specs`` changes some discs."""
        return cls(board or Board.crokinole(), crokinole_empty(), {**default_specs("crokinole"), **(specs or {})}, shooter)

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
        """A custom position: ``frame`` has columns kind, x, y (m).

        ``specs`` changes some discs (e.g. ``{"striker": heavy}``): every kind it does not
        name keeps the standard disc of ``game`` (by default the board's name, when that is a
        preset game).
        """
        check_type("board", board, Board, hint="e.g. Board.icf()")
        check_type("specs", specs, (Mapping, type(None)), hint="kind -> DiscSpec")
        name = game or board.name
        # a custom board given its full specs needs no game; else the game's discs fill in
        base = {} if specs and game is None and name not in GAMES else default_specs(name)
        return cls(board, frame, {**base, **(specs or {})}, striker)

    # -- files ---------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the position to ``path``: ``.json`` or ``.csv`` (see :mod:`carromlab.engine.position_file`).

        Both hold the board, every disc spec (radius m, mass kg, thickness m), the shot
        disc's kind and the pieces; :meth:`load` reads them back exactly.
        """
        from .position_file import write_position

        return write_position(self, path)

    @classmethod
    def load(cls, path: str | Path, *, board: Board | None = None, specs: Mapping[str, DiscSpec] | None = None) -> Scene:
        """Read a position written by :meth:`save`, or a plain CSV/Parquet table of kind, x, y (m).

        ``board`` is needed for a plain table (a saved position names its own board);
        ``specs`` changes some discs of the file (or of the board's standard discs).
        """
        from .position_file import read_position

        return read_position(path, board=board, specs=specs)

    # -- properties ----------------------------------------------------------------
    @property
    def n_pieces(self) -> int:
        """Number of pieces on the board (the striker not counted)."""
        return len(self.pieces)

    @property
    def kinds(self) -> list[str]:
        """Kind of every disc the engine sees: the pieces, then the striker."""
        return [*self.pieces["kind"], self.striker]

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        """Read-only engine arrays: ``xy`` (n, 2) of the pieces, ``radius`` and ``mass``
        of the pieces then the striker."""
        return self._arrays

    def check_placement(self, x: np.ndarray, y: np.ndarray, *, first_index: int = 0) -> None:
        """Raise ValueError if a striker centre at (x, y) (m) is off the board, overlaps a
        piece or a peg, or lies inside a hole's capture circle (where it would fall at
        once); names the first offending shot (counted from ``first_index``)."""
        x = np.atleast_1d(np.asarray(x, dtype=float))
        y = np.atleast_1d(np.asarray(y, dtype=float))
        r = self.specs[self.striker].radius
        on = self.board.contains(x, y, r)

        def where(k: int) -> str:
            return "" if x.size == 1 else f" at shot {k + first_index}"

        if not np.all(on):
            k = int(np.argmin(on))
            lim = self.board.half_size - (r if self.board.shape == "square" else 0.0)
            raise ValueError(
                f"The striker placement (x, y) must put the striker wholly on the board "
                f"(|x|, |y| <= {lim:.4g} m for this board and striker). "
                f"Got ({x[k]:.6g}, {y[k]:.6g}) m{where(k)} instead."
            )
        # obstacles: centre and the closest a striker centre may come (named only for a message)
        board = self.board
        ox = np.concatenate([self._arrays["xy"][:, 0], [p.x for p in board.pegs], [h.x for h in board.holes]])
        oy = np.concatenate([self._arrays["xy"][:, 1], [p.y for p in board.pegs], [h.y for h in board.holes]])
        reach = np.concatenate([
            self._arrays["radius"][:-1] + r, [p.radius + r for p in board.pegs], [h.capture_radius(r) for h in board.holes]
        ])  # fmt: skip
        if len(ox) == 0:
            return
        # chunks keep the (shots x obstacles) distance table small for million-shot batches
        for start in range(0, x.size, 65536):
            sl = slice(start, start + 65536)
            gap = np.hypot(x[sl, None] - ox[None, :], y[sl, None] - oy[None, :]) - reach
            bad = gap < -1e-9
            if bad.any():
                k, p = np.argwhere(bad)[0]
                k += start
                names = [*(f"piece {i} ({kind})" for i, kind in enumerate(self.pieces["kind"])),
                         *(f"the peg at ({g.x:.4g}, {g.y:.4g}) m" for g in board.pegs),
                         *(f"the capture circle of hole {h.name!r} (it would fall at once)" for h in board.holes)]  # fmt: skip
                raise ValueError(
                    f"The striker placement (x, y) must not overlap a piece or a peg, nor lie in a hole's capture "
                    f"circle (gap >= 0 m). Got ({x[k]:.6g}, {y[k]:.6g}) m{where(k)}, overlapping {names[p]} by "
                    f"{-gap[k - start, p]:.3g} m instead."
                )


@dataclass(frozen=True)
class Shot:
    """How the striker is played: placement, direction, speed and spin.

    Parameters
    ----------
    x, y : float
        Striker centre, m (board centre at the origin, the first player at y < 0).
    angle : float
        Direction of travel, radians counter-clockwise from +x (pi/2: straight up the board).
    speed : float
        Initial speed, m/s, in [0, 30].
    spin : float
        Initial spin, rad/s, counter-clockwise positive, in [-5000, 5000]. Default 0.

    Examples
    --------
    >>> Shot.from_deg(0.0, -0.25, angle_deg=90.0, speed=4.0).angle == math.pi / 2
    True
    """

    x: float
    y: float
    angle: float
    speed: float
    spin: float = 0.0

    def __post_init__(self) -> None:
        check_real("x", self.x, unit="m")
        check_real("y", self.y, unit="m")
        check_real("angle", self.angle, unit="rad")
        check_real("speed", self.speed, low=0.0, high=MAX_SPEED, unit="m/s")
        check_real("spin", self.spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s")

    @classmethod
    def from_deg(cls, x: float, y: float, *, angle_deg: float, speed: float, spin: float = 0.0) -> Shot:
        """A shot with its direction in degrees (counter-clockwise from +x)."""
        check_real("angle_deg", angle_deg, unit="deg")
        return cls(x, y, math.radians(angle_deg), speed, spin)

    @property
    def angle_deg(self) -> float:
        """Direction of travel in degrees."""
        return math.degrees(self.angle)

    @property
    def velocity(self) -> tuple[float, float]:
        """Initial velocity (vx, vy), m/s."""
        return self.speed * math.cos(self.angle), self.speed * math.sin(self.angle)
