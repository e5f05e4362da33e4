"""Where the striker is placed: a segment on the board and a narrow band around it."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._validation import check_choice, check_real
from ..engine.scene import Scene
from ..equipment.board import SIDES, HikoneMarks, IcfMarks

__all__ = ["StrikerLine"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class StrikerLine:
    """The segment the striker's centre is placed on, in board coordinates (m).

    A placement is given by ``u``, the distance along the segment from its middle
    (positive towards the end ``(x1, y1)``), and ``depth``, the distance across it
    (positive towards the shooter's front: the left of the direction from ``(x0, y0)`` to
    ``(x1, y1)``). Legal placements have ``abs(u) <= half_length`` and
    ``abs(depth) <= half_width``.

    Parameters
    ----------
    x0, y0, x1, y1 : float
        Ends of the segment, m; distinct.
    half_width : float
        Half-width of the band across the segment in which the centre may lie, m, >= 0.

    Examples
    --------
    >>> line = StrikerLine.for_scene(Scene.icf_break())
    >>> round(line.half_length, 4), round(line.forward_angle, 4)
    (0.2191, 1.5708)
    >>> [round(float(v), 4) for v in line.point(0.1, 0.0)]
    [0.1, -0.2526]
    """

    x0: float
    y0: float
    x1: float
    y1: float
    half_width: float = 0.0

    def __post_init__(self) -> None:
        for name in ("x0", "y0", "x1", "y1"):
            object.__setattr__(self, name, check_real(name, getattr(self, name), unit="m"))
        object.__setattr__(self, "half_width", check_real("half_width", self.half_width, low=0.0, unit="m"))
        if self.x0 == self.x1 and self.y0 == self.y1:
            raise ValueError(
                f"The striker line's ends (x0, y0) and (x1, y1) must differ. Got ({self.x0}, {self.y0}) twice instead."
            )

    @classmethod
    def for_scene(cls, scene: Scene, side: str = "south") -> StrikerLine:
        """The placement line of a side of the scene's board.

        ICF board: the middle of the two baselines between the base-circle centres, with
        :meth:`.Baseline.striker_band` as band (the striker touches both baselines, rule
        ICF-3: 4.75 mm for the 4.13 cm striker). Hikone
        board: the area line, the striker's centre within one striker radius of it (HIK-2).

        Parameters
        ----------
        scene : Scene
            Board and striker.
        side : {"south", "east", "north", "west"}
            The shooter's side. Default ``"south"``.

        Raises
        ------
        ValueError
            If the board has no straight placement line (crokinole: build a StrikerLine).

        Examples
        --------
        >>> line = StrikerLine.for_scene(Scene.hikone_start(), "north")
        >>> round(line.y0, 3), round(line.half_width, 5)      # the area line; one striker radius
        (0.22, 0.01525)
        """
        check_choice("side", side, SIDES)
        board = scene.board
        if isinstance(board.marks, IcfMarks):
            b = board.baseline(side)  # type: ignore[arg-type]
            r = scene.specs[scene.striker].radius
            seg, half_width = b.centre, b.striker_band(r)
            if half_width < 0.0:
                raise ValueError(
                    f"The scene's striker must be at least as wide as the baselines' gap ({b.gap:g} m) to touch "
                    f"both lines (ICF-3). Got diameter {2 * r:g} m instead."
                )
        elif isinstance(board.marks, HikoneMarks):
            seg, half_width = board.area_line(side).line, scene.specs[scene.striker].radius  # type: ignore[arg-type]
        else:
            raise ValueError(
                f"The board {board.name!r} has no straight striker line; pass a StrikerLine(x0, y0, x1, y1, half_width) "
                "as the 'line' parameter."
            )
        return cls(seg.x0, seg.y0, seg.x1, seg.y1, half_width)

    @property
    def half_length(self) -> float:
        """Half the length of the segment, m."""
        return 0.5 * math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    @property
    def _axes(self) -> tuple[float, float, float, float]:
        """Middle (mx, my) and unit direction (ux, uy) of the segment."""
        ux, uy = self.x1 - self.x0, self.y1 - self.y0
        n = math.hypot(ux, uy)
        return 0.5 * (self.x0 + self.x1), 0.5 * (self.y0 + self.y1), ux / n, uy / n

    @property
    def forward_angle(self) -> float:
        """Direction the shooter faces (the left normal of the segment), rad."""
        _, _, ux, uy = self._axes
        return math.atan2(ux, -uy)

    def point(self, u: npt.ArrayLike, depth: npt.ArrayLike = 0.0) -> tuple[FloatArray, FloatArray]:
        """Board coordinates (x, y), m, of placements (u along, depth across), m.

        Examples
        --------
        >>> [float(v) for v in StrikerLine(-0.2, -0.25, 0.2, -0.25).point(0.1, 0.01)]
        [0.1, -0.24]
        """
        mx, my, ux, uy = self._axes
        u, d = np.broadcast_arrays(np.asarray(u, dtype=float), np.asarray(depth, dtype=float))
        return mx + u * ux - d * uy, my + u * uy + d * ux

    def coordinates(self, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Placement coordinates (u along, depth across), m, of board points (x, y), m.

        Examples
        --------
        >>> line = StrikerLine(-0.2, -0.25, 0.2, -0.25)
        >>> [round(float(v), 6) for v in line.coordinates(0.05, -0.24)]
        [0.05, 0.01]
        """
        mx, my, ux, uy = self._axes
        dx, dy = np.broadcast_arrays(np.asarray(x, dtype=float) - mx, np.asarray(y, dtype=float) - my)
        return dx * ux + dy * uy, -dx * uy + dy * ux

    def clip(self, u: npt.ArrayLike, depth: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Placements moved to the nearest legal ones (``abs(u) <= half_length``,
        ``abs(depth) <= half_width``), m.

        Examples
        --------
        >>> u, d = StrikerLine(-0.2, -0.25, 0.2, -0.25, half_width=0.001).clip([0.3, 0.0], [0.0, -0.01])
        >>> u.tolist(), d.tolist()
        ([0.2, 0.0], [0.0, -0.001])
        """
        h = self.half_length
        return np.clip(u, -h, h), np.clip(depth, -self.half_width, self.half_width)
