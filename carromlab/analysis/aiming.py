"""Aim geometry: ghost-disc aims, cut angles and the direction to the pack.

Frictionless, straight-line geometry of the nominal shot (the engine decides what really
happens). ``R`` is the sum of the striker's and the target's radii; the striker touches
the target when its centre reaches the "ghost" position ``G = C - R n``, where ``C`` is
the target's centre and ``n`` the unit contact normal, along which the target leaves.
The cut angle is the signed angle from the striker's direction to ``n``: 0 for a full
(straight) hit, positive when the target leaves to the left of the striker's path.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._angles import angle_array
from .._validation import check_array
from ..engine.scene import Scene
from .goals import Target

__all__ = ["wrap_angle", "ghost_aim", "cut_aim", "pack_direction", "target_geometry"]

FloatArray = npt.NDArray[np.float64]


def wrap_angle(a: npt.ArrayLike) -> FloatArray:
    """Angles wrapped to [-pi, pi), rad.

    Examples
    --------
    >>> wrap_angle([3 * np.pi / 2, -np.pi]).round(4).tolist()
    [-1.5708, -3.1416]
    """
    return (np.asarray(a, dtype=float) + np.pi) % (2 * np.pi) - np.pi


def _target(scene: Scene, target: Target) -> tuple[float, float, float, FloatArray, list[str]]:
    row = scene.pieces.iloc[target.piece]
    reach = float(row["radius"]) + scene.specs[scene.striker].radius
    holes = {h.name: (h.x, h.y) for h in scene.board.holes}
    return float(row["x"]), float(row["y"]), reach, np.array([holes[p] for p in target.pockets]), list(target.pockets)


def _placements(x: npt.ArrayLike, y: npt.ArrayLike, *more: npt.ArrayLike) -> tuple[FloatArray, ...]:
    """The striker placements (m) checked (finite real numbers; the message names ``x`` or
    ``y``) and broadcast against each other and ``more`` (e.g. the cuts) to 1-d arrays."""
    return np.broadcast_arrays(np.atleast_1d(check_array("x", x, unit="m")), check_array("y", y, unit="m"), *more)


def ghost_aim(scene: Scene, target: Target, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Direction from striker placements (x, y) (m) to the ghost position that sends the
    target straight at its pocket; of several allowed pockets, the one with the smallest
    cut.

    The ghost position is the striker's centre at impact: ``R_striker + R_target`` (m)
    behind the target's centre on the line from the pocket through the target.

    Parameters
    ----------
    scene : Scene
        Pieces and board (the striker's radius from its disc spec).
    target : Target
        Piece aimed at and its allowed pockets (e.g. ``PocketPiece(0).target(scene)``).
    x, y : array_like
        Striker placements (centres), m, board frame, finite; broadcast against each other.

    Returns
    -------
    angle : numpy.ndarray
        Aim direction of each placement, rad, counter-clockwise from +x, in (-pi, pi].
    cut : numpy.ndarray
        Its cut angle, rad, in [-pi, pi) (positive: the target leaves to the left of the
        striker's path); beyond +-pi/2 the striker would meet the target before reaching
        the ghost position.

    Raises
    ------
    TypeError
        If ``x`` or ``y`` holds no real numbers (the message names it).
    ValueError
        If a placement is NaN or infinite (the message names ``x`` or ``y`` and the index).

    Examples
    --------
    >>> from carromlab import Board
    >>> from carromlab.analysis.goals import PocketPiece
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.2], "y": [0.2]}))
    >>> angle, cut = ghost_aim(scene, PocketPiece(0).target(scene), 0.2, -0.2526)
    >>> np.degrees([angle[0], cut[0]]).round(1).tolist()    # to the NE pocket, a 48 degree cut
    [93.4, -48.4]
    """
    cx, cy, reach, holes, _ = _target(scene, target)
    px, py = _placements(x, y)
    nx = holes[:, 0] - cx
    ny = holes[:, 1] - cy
    norm = np.hypot(nx, ny)
    nx, ny = nx / norm, ny / norm
    gx, gy = cx - reach * nx, cy - reach * ny  # one ghost per pocket
    angle = np.arctan2(gy[None, :] - py[:, None], gx[None, :] - px[:, None])
    cut = wrap_angle(np.arctan2(ny, nx)[None, :] - angle)
    best = np.argmin(np.abs(cut), axis=1)
    rows = np.arange(len(px))
    return angle[rows, best], cut[rows, best]


def cut_aim(
    scene: Scene, target: Target, x: npt.ArrayLike, y: npt.ArrayLike, cut: npt.ArrayLike | None = None,
    *, cut_deg: npt.ArrayLike | None = None,
) -> FloatArray:  # fmt: skip
    """Aim direction from placements (x, y) that hits the target with the given cut angle.

    With D the distance to the target's centre, the path passes it at the offset
    R sin(cut), so the aim turns by asin(R sin(cut) / D) away from the line of centres
    (R = R_striker + R_target, m).

    Parameters
    ----------
    scene : Scene
        Pieces and board (the striker's radius from its disc spec).
    target : Target
        Piece aimed at (its pockets are not used).
    x, y : array_like
        Striker placements (centres), m, board frame, finite; broadcast against each other
        and the cuts.
    cut : array_like, optional
        Cut angles, rad, in [-pi/2, pi/2] (positive: the target leaves to the left of the
        striker's path; +-pi/2 grazes the target). Or give ``cut_deg``.
    cut_deg : array_like, optional
        The cut angles in degrees, in [-90, 90], instead of ``cut``.

    Returns
    -------
    numpy.ndarray
        Aim direction of each shot, rad, counter-clockwise from +x.

    Raises
    ------
    ValueError
        If a cut is not finite or lies outside [-pi/2, pi/2] rad ([-90, 90] degrees): a
        cut beyond a quarter turn is no hit (the message names ``cut`` or ``cut_deg``);
        if a placement is not finite (naming ``x`` or ``y``).

    Examples
    --------
    >>> from carromlab.analysis.goals import PocketPiece
    >>> scene = Scene.icf_break()
    >>> float(cut_aim(scene, PocketPiece(1).target(scene), 0.0, -0.2526, cut_deg=0.0)[0]) == np.pi / 2
    True
    >>> cut_aim(scene, PocketPiece(1).target(scene), 0.0, -0.2526, cut_deg=95)
    Traceback (most recent call last):
    ...
    ValueError: The 'cut_deg' parameter must lie in the range [-90, 90] deg: a cut beyond a quarter turn misses the target. Got 95 deg instead.
    """
    cut = angle_array("cut", cut, cut_deg)
    off = np.flatnonzero(np.abs(cut) > np.pi / 2)
    if off.size:
        name, rng, unit = ("cut_deg", "[-90, 90] deg", "deg") if cut_deg is not None else ("cut", "[-π/2, π/2] rad (±1.571 rad)", "rad")
        given = np.ravel(np.asarray(cut_deg if cut_deg is not None else cut, dtype=float))
        where = f" at index {off[0]}" if given.size > 1 else ""
        raise ValueError(
            f"The {name!r} parameter must lie in the range {rng}: a cut beyond a quarter turn misses "
            f"the target. Got {given[off[0]]:g} {unit}{where} instead."
        )
    cx, cy, reach, _, _ = _target(scene, target)
    px, py, phi = _placements(x, y, cut)
    dist = np.hypot(cx - px, cy - py)
    return np.arctan2(cy - py, cx - px) - np.arcsin(np.clip(reach * np.sin(phi) / dist, -1.0, 1.0))


def pack_direction(scene: Scene, x: npt.ArrayLike, y: npt.ArrayLike) -> FloatArray:
    """Direction (rad) from placements (x, y) (m, finite: NaN or infinity is a ValueError
    naming ``x`` or ``y``) to the centroid of the pieces.

    Examples
    --------
    >>> round(float(pack_direction(Scene.icf_break(), 0.0, -0.2526)[0]), 4)
    1.5708
    """
    if scene.n_pieces == 0:
        raise ValueError("The scene has no pieces: aim='pack' needs pieces to aim at.")
    cx, cy = scene.pieces["x"].mean(), scene.pieces["y"].mean()
    px, py = _placements(x, y)
    return np.arctan2(cy - py, cx - px)


def target_geometry(
    scene: Scene, target: Target, x: npt.ArrayLike, y: npt.ArrayLike, angle: npt.ArrayLike | None = None,
    *, angle_deg: npt.ArrayLike | None = None,
) -> pd.DataFrame:  # fmt: skip
    """Geometry of nominal shots at a target, the quantities of billiards' aiming tables.

    Parameters
    ----------
    scene : Scene
        Pieces and board.
    target : Target
        Piece aimed at and its allowed pockets.
    x, y : array_like
        Striker placements, m, finite (NaN or infinity is a ValueError naming ``x`` or ``y``).
    angle : array_like
        Aim directions, rad (or ``angle_deg``, degrees).

    Returns
    -------
    pandas.DataFrame
        ``cut`` (rad; NaN when the straight path misses the target) and ``cut_deg``, ``target_distance``
        (striker centre to target centre, m), ``pocket`` (the allowed pocket closest to
        the target's departure direction; on a miss, to the direction of the line of
        centres), ``pocket_distance``
        (target centre to that pocket's centre, m).

    Examples
    --------
    >>> from carromlab import Board
    >>> from carromlab.analysis.goals import PocketPiece
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.2]}))
    >>> geo = target_geometry(scene, PocketPiece(0).target(scene), 0.0, -0.2, [np.pi / 2, 0.0])
    >>> geo["cut"].round(3).tolist(), round(float(geo["target_distance"].iat[0]), 3)
    ([0.0, nan], 0.4)
    """
    angle = angle_array("angle", angle, angle_deg)
    cx, cy, reach, holes, names = _target(scene, target)
    px, py, th = _placements(x, y, angle)
    dist = np.hypot(cx - px, cy - py)
    psi = wrap_angle(np.arctan2(cy - py, cx - px) - th)
    offset = dist * np.sin(psi)
    hit = (np.cos(psi) > 0) & (np.abs(offset) < reach)
    cut = np.where(hit, np.arcsin(np.clip(offset / reach, -1.0, 1.0)), np.nan)
    depart = np.where(hit, th + cut, np.arctan2(cy - py, cx - px))
    to_pocket = np.arctan2(holes[:, 1] - cy, holes[:, 0] - cx)
    k = np.argmin(np.abs(wrap_angle(to_pocket[None, :] - depart[:, None])), axis=1)
    return pd.DataFrame(
        {
            "cut": cut,
            "cut_deg": np.degrees(cut),
            "target_distance": dist,
            "pocket": pd.Categorical(np.asarray(names)[k], categories=names),
            "pocket_distance": np.hypot(holes[k, 0] - cx, holes[k, 1] - cy),
        }
    )
