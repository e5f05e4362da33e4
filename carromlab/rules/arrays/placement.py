"""The legal striker regions of N games at once (ICF-3, ONL-1, HIK-2, CRK-1), on arrays.

The same regions as each variant's ``placement_region`` gives one game at a time: the
area of the shooter's marks (cached per side) and the pieces to keep clear of, read from
the games' arrays instead of their pieces one by one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .. import crokinole, hikone
from ..carrom import side_area
from ..placement import Area, Regions
from .games import WHERE, GameArrays
from .hikone import inside_own_area

__all__ = ["shot_radii", "placement_regions"]

FloatArray = npt.NDArray[np.float64]
_BOARD = WHERE.index("board")


def shot_radii(games: GameArrays) -> FloatArray:
    """Radius of the disc each game's shooter plays, m, shape (N,): the striker, or in
    crokinole a disc of the shooter's colour (:func:`carromlab.match.scene.shot_radius`)."""
    radii = dict(games.radii)
    if games.variant != "crokinole":
        return np.full(len(games), radii["striker"])
    own = games.colours[np.arange(len(games)), games.team]
    return np.array([radii[c] for c in games.palette], dtype=float)[own]


def _discs(games: GameArrays, keep: npt.NDArray[np.bool_]) -> FloatArray:
    """The pieces of ``keep`` (shape (N, P)) as discs (x, y, radius, margin 0; m), the
    others at infinity: shape (N, P, 4)."""
    out = np.zeros((*keep.shape, 4))
    out[..., 0] = np.where(keep, games.xy[..., 0], np.inf)
    out[..., 1] = np.where(keep, games.xy[..., 1], 0.0)
    out[..., 2] = np.where(keep, games.radius_of(), 0.0)
    return out


def placement_regions(games: GameArrays) -> Regions:
    """The legal region of each game's shooter for the disc it plays, as one
    :class:`~carromlab.rules.placement.Regions` (row per game).

    Region ``g`` has the same area and the same discs (in piece order; unused rows at
    infinity) as ``placement_region(state_g, shot_radius(state_g))`` of the variant
    (:func:`carromlab.rules.placement_region`), each piece once with the largest
    clearance that region asks of it (in Hikone doubles the one-game region lists a
    piece inside the own area twice, HIK-2: clear of it, and not touching it; here its
    one row has the contact margin, which blocks every centre the other row blocks), so
    :func:`~carromlab.rules.placement.nearest_spots` finds the same spots with either.

    Parameters
    ----------
    games : GameArrays
        N games of one variant.

    Returns
    -------
    Regions
    """
    n = len(games)
    on = (games.where == _BOARD) & np.isfinite(games.xy[..., 0])
    discs = _discs(games, on)
    radius = shot_radii(games)
    seat, board, sides = games.shooter, games.board, games.seat_sides
    if games.variant in ("icf", "online"):
        rule, centre = ("ICF-3", False) if games.variant == "icf" else ("ONL-1", True)
        keys = list(zip(seat.tolist(), radius.tolist()))
        return _regions(keys, lambda k, r: side_area(board, sides[k], r, rule, centre), discs)
    if games.variant == "crokinole":
        keys = list(zip(seat.tolist(), radius.tolist()))
        return _regions(keys, lambda k, r: crokinole._area(board, sides[k], r), discs)
    # Hikone (HIK-2): the tee spot for the seat's first shot (its outline when a piece
    # covers it), else the area line; in doubles also clear of the own area's pieces
    first = games.seat_shots[np.arange(n), games.shooter] == 0
    g = np.flatnonzero(first)  # (a seat's first shot of the board: a few games a step)
    spots = [board.area_line(sides[k]).tee_spot for k in games.shooter[g].tolist()]  # type: ignore[arg-type]
    tee = np.array([(spot.x, spot.y) for spot in spots]).reshape(-1, 2)
    gap = np.hypot(tee[:, None, 0] - discs[g, :, 0], tee[:, None, 1] - discs[g, :, 1])
    blocked = np.zeros(n, dtype=bool)
    blocked[g] = (gap < discs[g, :, 2] + radius[g, None]).any(axis=1)
    if games.n_players == 4:  # a piece inside the own area is kept from touching: its one row takes the margin
        discs[..., 3] = np.where(on & inside_own_area(games, games.xy, games.radius_of()), hikone.CONTACT, 0.0)
    keys = list(zip(seat.tolist(), radius.tolist(), first.tolist(), blocked.tolist()))
    return _regions(keys, lambda k, r, f, b: hikone._area(board, sides[k], r, f, b), discs)


def _regions(keys: list[tuple], build: Callable[..., Area], discs: FloatArray) -> Regions:
    """Regions whose areas are ``build(*key)`` of each game's key (built once per key)."""
    index: dict[tuple, int] = {}
    area = np.array([index.setdefault(k, len(index)) for k in keys], dtype=np.intp)
    areas = tuple(build(*k) for k in index)
    return Regions(areas, area, discs)
