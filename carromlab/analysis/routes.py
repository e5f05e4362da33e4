"""What a shot actually did, read from the batch engine's summary: the striker's first
impact, the pieces it struck, what fell, and the route that names it.

A route is named from the simulated shot, never from the intended geometry alone:

- ``"bank"``: the striker's first impact is a cushion (a cushion or bank shot);
- ``"direct"`` / ``"cut"``: the striker first strikes a goal piece (the target of a
  :class:`PocketPiece`, a piece of the kinds of a :class:`PocketAny`), with a cut angle
  of at most / more than :data:`FULL_HIT_DEG` degrees (:mod:`carromlab.analysis.aiming`),
  and that piece falls; a piece that falls after a cushion makes the shot a ``"bank"``
  (a cushion touched in the jaws of the pocket it falls in, its centre within the hole's
  radius plus its own of the hole's centre, does not), one that falls after touching
  another piece a ``"combination"``;
- ``"combination"``: the striker first strikes another piece, and then it or that piece
  moves a goal piece (a kiss off the piece or a combination shot), or the goal piece it
  strikes moves another into a pocket;
- ``"none"``: the striker touches no piece; ``"blocked"``: the placement
  overlaps a piece, so the shot cannot be played.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._validation import check_table
from ..engine.batch import simulate_batch
from ..engine.scene import Scene, Shot
from ..engine.simulate import simulate
from ..physics.params import PhysicsParams
from .aiming import target_geometry, wrap_angle
from .execution import placement_clear
from .goals import Goal, PocketAny, PocketPiece, Target

__all__ = ["FULL_HIT_DEG", "ROUTES", "goal_pieces", "label_shots"]

#: The routes a pocketing shot can take, in the order options are listed.
ROUTES = ("direct", "cut", "bank", "combination")
#: Largest cut angle of a "direct" (full-ball) hit, degrees; a larger one is a "cut".
FULL_HIT_DEG = 10.0
#: A struck piece that leaves more than this many degrees away from the pocket it falls in
#: did not go straight: its path is read from the event log (:func:`carromlab.simulate`).
_STRAIGHT_DEG = 10.0


def goal_pieces(scene: Scene, goal: PocketPiece | PocketAny) -> np.ndarray:
    """Ids of the pieces whose falling the goal counts.

    Examples
    --------
    >>> goal_pieces(Scene.icf_break(), PocketPiece("queen")).tolist()
    [0]
    """
    if isinstance(goal, PocketPiece):
        return np.array([goal.target(scene).piece])
    return np.flatnonzero(scene.pieces["kind"].isin(goal.kinds).to_numpy())


def _names(scene: Scene, masks: np.ndarray) -> list[str]:
    """``"white 0, black 1"`` for each bit mask of piece ids ("" for none)."""
    kinds = scene.pieces["kind"].to_numpy()
    unique, inverse = np.unique(masks, return_inverse=True)
    names = [", ".join(f"{kinds[i]} {i}" for i in range(len(kinds)) if (int(m) >> i) & 1) for m in unique]
    return [names[k] for k in inverse.ravel()]


def _indirect(scene: Scene, batch: pd.DataFrame, route: np.ndarray, first: np.ndarray, cut: np.ndarray,
              goal_fell: np.ndarray, params: PhysicsParams | None) -> np.ndarray:
    """Routes of direct and cut hits after which a goal piece fell, corrected by what the
    struck piece did: it did not fall (another goal piece did: a combination), or it fell
    after a cushion away from its pocket's jaws (a bank) or after touching another piece
    (a combination). Only pieces that leave more than ``_STRAIGHT_DEG`` away from their
    pocket are replayed with the event log."""
    route = route.copy()
    hit = np.flatnonzero(np.isin(route, ("direct", "cut")) & goal_fell)
    if len(hit) == 0:
        return route
    pocket = batch.attrs["pocket"][hit, first[hit]]
    route[hit[pocket < 0]] = "combination"
    fell = hit[pocket >= 0]
    holes = np.array([(h.x, h.y) for h in scene.board.holes], dtype=float).reshape(-1, 2)
    hole_radius = np.array([h.radius for h in scene.board.holes])
    xy = scene.arrays["xy"][first[fell]]
    to_pocket = np.arctan2(holes[pocket[pocket >= 0], 1] - xy[:, 1], holes[pocket[pocket >= 0], 0] - xy[:, 0])
    depart = batch["angle"].to_numpy()[fell] + cut[fell]
    for k in fell[np.abs(wrap_angle(depart - to_pocket)) > math.radians(_STRAIGHT_DEG)]:
        row = batch.iloc[k]
        ev = simulate(scene, Shot(row["x"], row["y"], row["angle"], row["speed"], row["spin"]), params).events
        piece = int(first[k])
        mine = ev[(ev["disc"] == piece) | (ev["other"] == piece)]
        before = mine.iloc[: int(np.argmax((mine["kind"] == "pocket").to_numpy()))]
        others = before[(before["kind"] == "disc") & (before["disc"] != scene.n_pieces) & (before["other"] != scene.n_pieces)]
        cushions = before[before["kind"] == "cushion"]
        hole = batch.attrs["pocket"][k, piece]
        jaws = hole_radius[hole] + scene.specs[scene.pieces["kind"].iat[piece]].radius
        if (np.hypot(cushions["x"] - holes[hole, 0], cushions["y"] - holes[hole, 1]) > jaws).any():
            route[k] = "bank"
        elif not others.empty:
            route[k] = "combination"
    return route


def label_shots(
    scene: Scene, goal: Goal, shots: pd.DataFrame, params: PhysicsParams | None = None, *, workers: int | None = None
) -> pd.DataFrame:
    """Play shots exactly (no noise) and say what each did.

    Parameters
    ----------
    scene : Scene
        Starting position.
    goal : PocketPiece or PocketAny
        The pocketing goal (it decides the goal pieces and the verdict).
    shots : pandas.DataFrame
        Columns ``x``, ``y`` (m), ``angle`` (rad), ``speed`` (m/s) and optionally ``spin``
        (rad/s, default 0).
    params : PhysicsParams, optional
        Physics. Default ``PhysicsParams()``.
    workers : int, optional
        Threads of the batch engine. Default all cores.

    Returns
    -------
    pandas.DataFrame
        One row per shot, in order: ``route`` (see the module docstring), ``success``
        (the goal's verdict, bool), ``foul`` (bool), ``striker_first`` (none, disc,
        cushion, peg), ``first_contact`` (piece id, -1 for none), ``first_contact_kind``,
        ``touched`` (the pieces the striker struck, kind and id in id order, e.g.
        ``"white 0, black 1"``), ``fell`` (the pieces pocketed, same form) and
        ``cut`` (rad: the nominal cut on the piece struck first; NaN when none is).

    Examples
    --------
    >>> from carromlab import Board
    >>> scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.2]}))
    >>> shots = pd.DataFrame({"x": [0.0, 0.1], "y": [-0.2526] * 2, "angle": [np.pi / 2] * 2, "speed": [3.0] * 2, "spin": [0.0] * 2})
    >>> label_shots(scene, PocketAny("white"), shots, workers=1)[["route", "first_contact", "touched", "fell"]].values.tolist()
    [['direct', 0, 'white 0', ''], ['none', -1, '', '']]
    """
    goal.check(scene)
    check_table("shots", shots, ("x", "y", "angle", "speed"), "a shots table", rows=False)
    n = len(shots)
    x, y = shots["x"].to_numpy(dtype=float), shots["y"].to_numpy(dtype=float)
    ok = placement_clear(scene, x, y)
    idx = np.flatnonzero(ok)
    sub = shots.iloc[idx]
    batch = simulate_batch(
        scene, sub["x"], sub["y"], sub["angle"], sub["speed"], sub["spin"] if "spin" in sub else 0.0, params=params, workers=workers,
        details=True, final_positions=goal.needs_final_positions, carriers=(),
    )  # fmt: skip
    verdict = goal.evaluate(scene, batch)
    first = batch["first_contact"].to_numpy(dtype=np.int64)
    striker_first = batch["striker_first"].astype(str).to_numpy()
    cut = np.full(len(batch), np.nan)
    holes = tuple(h.name for h in scene.board.holes)
    for piece in np.unique(first[first >= 0]):
        rows = first == piece
        geo = target_geometry(scene, Target(int(piece), holes), batch["x"][rows], batch["y"][rows], batch["angle"][rows])
        cut[rows] = geo["cut"].to_numpy()
    own = np.isin(first, goal_pieces(scene, goal))  # type: ignore[arg-type]
    full = np.abs(cut) <= math.radians(FULL_HIT_DEG)
    route = np.select(
        [first < 0, striker_first == "cushion", (striker_first == "disc") & own & full, (striker_first == "disc") & own,
         striker_first == "disc"],
        ["none", "bank", "direct", "cut", "combination"], default="none",
    )  # fmt: skip
    goal_bits = np.uint64(sum(1 << int(i) for i in goal_pieces(scene, goal)))  # type: ignore[arg-type]
    route = _indirect(scene, batch, route, first, cut, (batch["pocketed_mask"].to_numpy() & goal_bits) != 0, params)
    out = pd.DataFrame(
        {
            "route": np.full(n, "blocked", dtype=object), "success": np.zeros(n, bool), "foul": np.zeros(n, bool),
            "striker_first": np.full(n, "none", dtype=object), "first_contact": np.full(n, -1, np.int64),
            "first_contact_kind": np.full(n, "", dtype=object), "touched": np.full(n, "", dtype=object),
            "fell": np.full(n, "", dtype=object), "cut": np.full(n, np.nan),
        }
    )  # fmt: skip
    striker_bit = np.uint64(1 << scene.n_pieces)
    values = {
        "route": route, "success": verdict.success, "foul": verdict.foul, "striker_first": striker_first,
        "first_contact": first, "first_contact_kind": batch["first_contact_kind"].astype(str).to_numpy(),
        "touched": _names(scene, batch["chain_mask"].to_numpy()),
        "fell": _names(scene, batch["pocketed_mask"].to_numpy() & ~striker_bit), "cut": cut,
    }  # fmt: skip
    for col, v in values.items():
        out.loc[idx, col] = v
    return out.astype({"success": bool, "foul": bool, "first_contact": np.int64, "cut": float})
