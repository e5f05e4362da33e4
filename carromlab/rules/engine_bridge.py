"""From a game state to an engine scene, and from a simulated shot to a ShotOutcome."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..engine.scene import Scene
from ..engine.simulate import ShotResult
from ..equipment.board import Board
from ..equipment.disc import DiscSpec
from ..equipment.layout import default_specs
from .outcome import ShotOutcome
from .state import GameState

__all__ = [
    "FORWARD", "GAME_OF_VARIANT", "scene_for", "full_scene", "game_scene", "shot_piece", "outcome_from_result", "forward_of",
    "frame_reach_of", "frame_reach", "left_baseline_area", "outcomes_from_batch", "batch_columns",
]  # fmt: skip

#: Unit vector from each side towards the centre of the board.
FORWARD = {"south": (0.0, 1.0), "north": (0.0, -1.0), "west": (1.0, 0.0), "east": (-1.0, 0.0)}

#: Distance (m) within which a striker's centre at a cushion hit is taken to rest one
#: radius from the shooter's own frame (HIK-9; contacts are exact to about 1e-10 m).
OWN_FRAME_TOLERANCE = 1e-6

#: Equipment family of each rule variant.
GAME_OF_VARIANT = {"icf": "icf", "online": "icf", "hikone": "hikone", "crokinole": "crokinole"}


def shot_piece(state: GameState) -> int | None:
    """Id of the crokinole disc the shooter plays next (the lowest id in hand), or None
    for carrom and Hikone, where the striker is not a game piece."""
    if state.variant != "crokinole":
        return None
    colour = state.colours[state.team_of(state.shooter)]
    hand = [p.id for p in state.pieces if p.kind == colour and p.where == "hand"]
    if not hand:
        raise ValueError(f"The 'state' parameter must leave the shooter a {colour} disc in hand. Got none.")
    return min(hand)


def _specs(state: GameState) -> dict[str, DiscSpec]:
    """Default discs of the variant, with the state's radii and masses; crokinole discs of
    every player colour (two or four players)."""
    return dict(_disc_specs(state.variant, state.colours, state.radii, state.masses))


@lru_cache(maxsize=64)
def _disc_specs(
    variant: str, colours: tuple[str, ...], radii: tuple[tuple[str, float], ...], masses: tuple[tuple[str, float], ...]
) -> tuple[tuple[str, DiscSpec], ...]:
    """The discs of :func:`_specs`, memoised (games ask for them at every shot); the team
    ``colours`` name the discs in crokinole only."""
    if variant == "crokinole":
        specs = {c: DiscSpec.crokinole_disc(c) for c in colours}
    else:
        specs = default_specs(GAME_OF_VARIANT[variant])
    r, m = dict(radii), dict(masses)
    return tuple((k, replace(s, radius=r.get(k, s.radius), mass=m.get(k, s.mass))) for k, s in specs.items())


def scene_for(state: GameState) -> tuple[Scene, np.ndarray]:
    """The engine scene of the pieces on the board, and the game id of each scene piece.

    Parameters
    ----------
    state : GameState
        Position between two shots.

    Returns
    -------
    scene : Scene
        Board and pieces on it; the shot disc is the striker (crokinole: a disc of the
        shooter's colour).
    ids : numpy.ndarray
        ``ids[k]`` is the game id of scene piece ``k``.
    """
    on = [p for p in state.pieces if p.where == "board"]
    frame = pd.DataFrame({"kind": [p.kind for p in on], "x": [p.x for p in on], "y": [p.y for p in on]})
    striker = "striker"
    if state.variant == "crokinole":
        striker = state.colours[state.team_of(state.shooter)]
    scene = Scene(state.board, frame, _specs(state), striker)
    return scene, np.array([p.id for p in on], dtype=int)


def full_scene(state: GameState) -> Scene:
    """The engine scene of every piece of a game, for many-scene batches: piece ``j`` of
    the scene is game piece ``j`` (ids 0..P-1), the shot disc is the shooter's (the
    striker; crokinole: a disc of the shooter's colour).

    The pieces stand on placeholder spots (a grid clear of the holes, the pegs and each
    other), so that the scene is valid whatever is on the board; a batch gives each shot
    its own ``positions`` and ``on_board`` (for instance ``GameArrays.xy`` and
    ``GameArrays.where == board``).

    Parameters
    ----------
    state : GameState
        Any state of the game (its board, pieces, radii and shooter are read).

    Returns
    -------
    Scene

    Raises
    ------
    ValueError
        If the pieces' ids are not 0..P-1 in order.

    Examples
    --------
    >>> from carromlab.rules import crokinole
    >>> full_scene(crokinole.new_game()).n_pieces
    24
    """
    kinds = [p.kind for p in state.pieces]
    if [p.id for p in state.pieces] != list(range(len(kinds))):
        raise ValueError(f"The 'state' parameter must number its pieces 0..P-1 in order. Got {[p.id for p in state.pieces]}.")
    return game_scene(state.variant, state.board, tuple(kinds), state.colours, state.radii, state.masses, state.team_of(state.shooter))


def game_scene(
    variant: str, board: Board, kinds: tuple[str, ...], colours: tuple[str, ...], radii: tuple[tuple[str, float], ...],
    masses: tuple[tuple[str, float], ...], team: int,
) -> Scene:  # fmt: skip
    """:func:`full_scene` from a game's fields, without a GameState (e.g. a row of
    :class:`~carromlab.rules.arrays.GameArrays`): one scene object per distinct set of
    fields.

    Parameters
    ----------
    variant : str
        The rules.
    board : Board
        The board.
    kinds : tuple of str
        Kind of each piece, by id (0..P-1).
    colours : tuple of str
        Colour of each team.
    radii, masses : tuple of (str, float)
        As in :class:`~carromlab.rules.state.GameState` (m, kg).
    team : int
        Team of the seat to shoot (crokinole: its colour is the shot disc's).

    Returns
    -------
    Scene
    """
    striker = "striker" if variant != "crokinole" else colours[team]
    return _placeholder_scene(board, kinds, _disc_specs(variant, colours, radii, masses), striker)


@lru_cache(maxsize=64)
def _placeholder_scene(board: Board, kinds: tuple[str, ...], specs: tuple[tuple[str, DiscSpec], ...], striker: str) -> Scene:
    """A scene of discs of ``kinds`` on grid spots clear of holes, pegs and each other."""
    spec = dict(specs)
    r = max(spec[k].radius for k in kinds)
    step = 2.0 * r * (1.0 + 1e-6)
    grid = np.arange(-1.0, 1.0, step)  # every board of the toolkit fits in a 2 m square
    gx, gy = (a.ravel() for a in np.meshgrid(grid, grid))
    ok = board.contains(gx, gy, np.full(len(gx), r))
    for h in board.holes:
        ok &= np.hypot(gx - h.x, gy - h.y) > h.capture_radius(r) + step
    for g in board.pegs:
        ok &= np.hypot(gx - g.x, gy - g.y) > r + g.radius + step
    spots = np.flatnonzero(ok)[: len(kinds)]
    if len(spots) < len(kinds):
        raise ValueError(f"The board has room for {len(spots)} placeholder discs; {len(kinds)} are needed.")
    frame = pd.DataFrame({"kind": list(kinds), "x": gx[spots], "y": gy[spots]})
    return Scene(board, frame, spec, striker)


def _chain(result: ShotResult, own: str) -> tuple[int, ...]:
    """Scene ids struck by the shot disc directly or through the shooter's own discs
    (rule CRK-3), in the order they were first struck."""
    ev = result.events
    ev = ev[ev["kind"] == "disc"]
    carriers = {result.striker_id}
    struck: list[int] = []
    kinds = result.scene.kinds
    for a, b in zip(ev["disc"], ev["other"]):
        for src, dst in ((a, b), (b, a)):
            if src in carriers and dst not in carriers and dst != result.striker_id:
                if dst not in struck:
                    struck.append(dst)
                if kinds[dst] == own:
                    carriers.add(dst)
    return tuple(struck)


def outcome_from_result(result: ShotResult, state: GameState, ids: np.ndarray) -> ShotOutcome:
    """Translate a simulated shot into the record the rules read.

    Parameters
    ----------
    result : ShotResult
        A shot simulated (with ``record=True``) on ``scene_for(state)``.
    state : GameState
        The position the shot was played from.
    ids : numpy.ndarray
        Game id of each scene piece, from :func:`scene_for`.

    Returns
    -------
    ShotOutcome
        Pocketed pieces in order (the striker as kind ``"striker"``, or the crokinole disc
        played under its own id and colour), first touch, striker fate, pieces in the
        ditch, whether the striker left the baseline area (ICF-16: a corner of its centre's
        path lies outside :meth:`~carromlab.equipment.Baseline.area_contains` of the
        shooter's side), pieces the striker touched, whether it hit a
        cushion first, the pieces it touched before its first cushion hit beyond
        :func:`frame_reach_of` (HIK-9: before a frame other than the shooter's own), the
        crokinole chain (CRK-3) and the final positions.
    """
    sid = result.striker_id
    played = shot_piece(state)
    if played is None:
        striker_game_id = state.striker_id if state.striker_id is not None else len(state.pieces)
    else:
        striker_game_id = played
    gid = np.append(ids, striker_game_id)
    kinds = result.scene.kinds
    striker_kind = "striker" if played is None else kinds[sid]

    pocketed = [
        (int(gid[row.id]), striker_kind if row.id == sid else row.kind, row.pocket, float(row.t))
        for row in result.pocketed.itertuples()
    ]
    final = result.final
    # the crokinole disc played is a game piece; the carrom or Hikone striker is not
    pieces = final if played is not None else final[final["id"] != sid]
    positions = pd.DataFrame(
        {
            "id": gid[pieces["id"].to_numpy()],
            "kind": pieces["kind"].to_numpy(),
            "x": pieces["x"].to_numpy(),
            "y": pieces["y"].to_numpy(),
            "on_board": (pieces["status"] == "board").to_numpy(),
        }
    )
    ev = result.events
    striker_ev = ev[(ev["disc"] == sid) | (ev["other"] == sid)]
    impacts = striker_ev[striker_ev["kind"].isin(["disc", "cushion"])]
    cushion_first = bool(len(impacts)) and impacts["kind"].iat[0] == "cushion"
    # the striker's hits before its first cushion hit beyond the frame reach (HIK-9), compared
    # as the engine compares them (its centre's forward coordinate at the cushion event)
    fx, fy = forward_of(state)
    is_cushion = (impacts["kind"] == "cushion").to_numpy()
    beyond = is_cushion & (fx * impacts["x"].to_numpy() + fy * impacts["y"].to_numpy() > frame_reach_of(state))
    before = impacts[: int(np.argmax(beyond)) if beyond.any() else len(impacts)]
    before = before[before["kind"] == "disc"]
    before_frame = dict.fromkeys(np.where(before["disc"] == sid, before["other"], before["disc"]).tolist())
    left_baseline = True
    if state.variant in ("icf", "online"):
        # the striker runs straight between its events, and the area is convex: it left
        # the area if a corner of its path (its events, where it came to rest or fell) did
        seg = result.segments
        path = seg[seg["disc"] == sid]
        xs = np.append(path["x0"].to_numpy(), final["x"].iat[sid])
        ys = np.append(path["y0"].to_numpy(), final["y"].iat[sid])
        left_baseline = not state.board.baseline(state.seat_sides[state.shooter]).area_contains(xs, ys).all()
    own = kinds[sid]
    return ShotOutcome(
        pocketed=tuple(pocketed),
        first_touch=None if result.first_contact is None else int(gid[result.first_contact]),
        striker_fate={"board": "board", "pocketed": "pocketed", "ditch": "ditch"}[result.striker_fate],
        left_board=tuple(int(gid[i]) for i in result.off_board if i != sid),
        striker_left_baseline=left_baseline,
        striker_touched=tuple(int(gid[i]) for i in result.touched_by_striker),
        cushion_first=cushion_first,
        touched_before_frame=tuple(int(gid[i]) for i in before_frame),
        chain=tuple(int(gid[i]) for i in _chain(result, own)) if played is not None else (),
        final_positions=positions,
        striker=played,
    )


def forward_of(state: GameState) -> tuple[float, float]:
    """Unit vector from the shooter's side towards the centre of the board."""
    return FORWARD[state.seat_sides[state.shooter]]


def frame_reach_of(state: GameState) -> float:
    """Forward coordinate (m, along :func:`~carromlab.rules.engine_bridge.forward_of` from
    the board centre) beyond which the striker's centre must be at a cushion hit for the
    hits after it to be indirect; -inf off Hikone: every cushion hit.

    HIK-9 (seed 001) allows an inside puck to be hit after the frame "outside the area
    line (the sides or the front, as seen from the shooter)": every frame but the
    shooter's own. A striker touching its own frame has its centre one radius from it,
    so the reach is that distance plus :data:`.OWN_FRAME_TOLERANCE`.

    This is the ``frame_reach`` of :func:`carromlab.simulate_batch` and the reach that
    :func:`outcome_from_result` applies to the event log.

    Parameters
    ----------
    state : GameState
        The position the shot is played from (its variant, board and shooter).

    Returns
    -------
    float
    """
    return frame_reach(state.variant, state.board, state.radii)


def frame_reach(variant: str, board: Board, radii: tuple[tuple[str, float], ...]) -> float:
    """:func:`frame_reach_of` from a game's fields, without a GameState (e.g. those of a
    :class:`~carromlab.rules.arrays.GameArrays`, which its games share).

    Parameters
    ----------
    variant : str
        The rules (-inf unless ``"hikone"``).
    board : Board
        The board (its half size is read).
    radii : tuple of (str, float)
        Radius of each kind, m, as in :class:`~carromlab.rules.state.GameState`.

    Returns
    -------
    float
        m.
    """
    if variant != "hikone":
        return float("-inf")
    return -board.half_size + dict(radii)["striker"] + OWN_FRAME_TOLERANCE


def left_baseline_area(
    variant: str, board: Board, radii: tuple[tuple[str, float], ...], sides: npt.ArrayLike, reach: npt.ArrayLike,
    cushion_first: npt.ArrayLike, start: npt.ArrayLike, angle: npt.ArrayLike, end: npt.ArrayLike,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Whether each striker of a batch left its shooter's baseline area (ICF-16), from
    what a detailed batch records of its path.

    The striker runs straight between its impacts and the area is convex on an ICF
    board (:meth:`~carromlab.equipment.Baseline.area_contains`), so it left the area if a
    corner of its path lies outside it. A batch knows three of them: the furthest
    forward (``striker_reach``: beyond the inner line), the point of a first impact on
    a cushion (where its first, straight run meets a cushion) and where it came to rest
    or fell (its final position: the pockets and the frame lie outside). It misses a
    striker that first hits a coin, then goes out backwards or sideways and comes back
    to rest in the area without crossing the inner line; that needs a coin within a
    striker and coin radius of the area, never the case on the break (the centres of
    the ICF-1 pack lie 17 cm beyond the inner line), the only shot ICF-16 rules.
    :func:`outcome_from_result` reads every corner of the event log.

    Parameters
    ----------
    variant : str
        The rules: every striker "left" off ICF and online (no baseline area).
    board : Board
        The board.
    radii : tuple of (str, float)
        Radius of each kind, m, as in :class:`~carromlab.rules.state.GameState` (the
        striker's is read).
    sides : array_like of str, shape (N,)
        The shooter's side of each shot.
    reach : array_like of float32, shape (N,)
        The batch's ``striker_reach`` (m along the shooter's forward direction),
        compared in float32, as the engine computed it.
    cushion_first : array_like of bool, shape (N,)
        Whether the striker's first impact was on a cushion.
    start : array_like, shape (N, 2)
        The striker's placement, m.
    angle : array_like, shape (N,)
        Its direction, rad.
    end : array_like, shape (N, 2)
        Its final position, m (NaN: unknown, taken as outside).

    Returns
    -------
    numpy.ndarray of bool, shape (N,)
    """
    sides = np.asarray(sides)
    if variant not in ("icf", "online"):
        return np.ones(len(sides), bool)
    start, end, angle = np.asarray(start, float), np.asarray(end, float), np.asarray(angle, float)
    radius = dict(radii)["striker"]
    # where the first run meets a cushion: the centre one radius from the frame
    d = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    run = np.divide(np.copysign(board.half_size - radius, d) - start, d, out=np.full(d.shape, np.inf), where=d != 0.0).min(axis=-1)
    hit = start + run[:, None] * d
    left = np.zeros(len(sides), bool)
    for side in set(sides.tolist()):
        rows = sides == side
        line = board.baseline(side)
        fx, fy = FORWARD[side]
        # the rest and the first cushion hit, tested in one call
        inside = line.area_contains(np.concatenate([end[rows, 0], hit[rows, 0]]), np.concatenate([end[rows, 1], hit[rows, 1]]))
        at_rest, at_hit = inside[: len(inside) // 2], inside[len(inside) // 2 :]
        beyond = np.asarray(reach)[rows] > np.float32(fx * line.inner.x0 + fy * line.inner.y0)
        left[rows] = beyond | ~at_rest | (np.asarray(cushion_first)[rows] & ~at_hit)
    return left


def outcomes_from_batch(batch: pd.DataFrame, state: GameState, ids: np.ndarray) -> list[ShotOutcome]:
    """Translate the rows of a detailed batch into rule outcomes.

    Parameters
    ----------
    batch : pandas.DataFrame
        From ``simulate_batch(scene_for(state)[0], ..., details=True,
        final_positions=True, forward=forward_of(state), carriers=(shooter colour,),
        frame_reach=frame_reach_of(state))``.
    state : GameState
        The position every shot of the batch was played from.
    ids : numpy.ndarray
        Game id of each scene piece, from :func:`scene_for`.

    Returns
    -------
    list of ShotOutcome
        One per row. ``striker_touched`` holds every piece the striker hit directly (the
        batch's ``striker_touched_mask``), the first contact first and the others in
        scene order (the event log of :func:`outcome_from_result` orders them all by
        first contact: the same set and the same first); ``striker_left_baseline`` is
        :func:`left_baseline_area` (ICF-16); ``touched_before_frame`` is the batch's
        ``striker_direct_mask`` in scene order.
    """
    need = {"striker_first", "striker_reach", "chain_mask", "striker_touched_mask", "striker_direct_mask"}
    if not need <= set(batch.columns) or "final_xy" not in batch.attrs:
        raise ValueError(
            "The 'batch' parameter must come from simulate_batch(..., details=True, final_positions=True)."
        )
    played = shot_piece(state)
    n_pieces = len(ids)
    gid = np.append(ids, state.striker_id if played is None else played)
    by_id = {p.id: p.kind for p in state.pieces}
    piece_kinds = [by_id[i] for i in ids]
    striker_kind = "striker" if played is None else by_id[played]
    names = [h.name for h in state.board.holes]
    pocket, t_out, xy = batch.attrs["pocket"], batch.attrs["t_out"], batch.attrs["final_xy"]
    fates = batch["striker_fate"].to_numpy()
    ditch = batch["ditch_mask"].to_numpy()
    first = batch["first_contact"].to_numpy()
    firsts = batch["striker_first"].to_numpy()
    reach = batch["striker_reach"].to_numpy()
    chain = batch["chain_mask"].to_numpy()
    hit = batch["striker_touched_mask"].to_numpy()
    direct = batch["striker_direct_mask"].to_numpy()
    left = left_baseline_area(
        state.variant, state.board, state.radii, np.full(len(batch), state.seat_sides[state.shooter]), reach,
        firsts == "cushion", batch[["x", "y"]].to_numpy(), batch["angle"].to_numpy(), xy[:, n_pieces],
    )  # fmt: skip
    out = []
    rows = range(n_pieces + 1) if played is not None else range(n_pieces)
    for k in range(len(batch)):
        fell = [i for i in range(n_pieces + 1) if pocket[k, i] >= 0]
        fell.sort(key=lambda i: (t_out[k, i], i))
        later = [i for i in range(n_pieces) if (int(hit[k]) >> i) & 1 and i != first[k]]
        positions = pd.DataFrame(
            {
                "id": gid[list(rows)],
                "kind": [piece_kinds[i] if i < n_pieces else striker_kind for i in rows],
                "x": xy[k, list(rows), 0].astype(float),
                "y": xy[k, list(rows), 1].astype(float),
                # a piece absent from a many-scene row has a NaN final position: not on the board
                "on_board": [pocket[k, i] < 0 and not (int(ditch[k]) >> i) & 1 and not np.isnan(xy[k, i, 0]) for i in rows],
            }
        )
        out.append(
            ShotOutcome(
                pocketed=tuple(
                    (int(gid[i]), striker_kind if i == n_pieces else piece_kinds[i], names[pocket[k, i]], float(t_out[k, i]))
                    for i in fell
                ),
                first_touch=None if first[k] < 0 else int(gid[first[k]]),
                striker_fate=str(fates[k]),
                left_board=tuple(int(gid[i]) for i in range(n_pieces) if (int(ditch[k]) >> i) & 1),
                striker_left_baseline=bool(left[k]),
                striker_touched=tuple(int(gid[i]) for i in ([first[k]] if first[k] >= 0 else []) + later),
                cushion_first=firsts[k] == "cushion",
                touched_before_frame=tuple(int(gid[i]) for i in range(n_pieces) if (int(direct[k]) >> i) & 1),
                chain=tuple(int(gid[i]) for i in range(n_pieces) if (int(chain[k]) >> i) & 1) if played is not None else (),
                final_positions=positions,
                striker=played,
            )
        )
    return out


def batch_columns(batch: pd.DataFrame) -> pd.DataFrame:
    """The columns of a :func:`carromlab.simulate_batch` frame without its ``attrs``
    (sharing the data): pandas deep-copies a frame's ``attrs`` into every column read
    from it, and a detailed batch's hold its final positions, (N, n + 1, 2) floats.

    Examples
    --------
    >>> from carromlab import Scene, simulate_batch
    >>> batch = simulate_batch(Scene.icf_break(), 0.0, -0.2526, 1.5708, [4.0, 6.0], final_positions=True)
    >>> sorted(batch.attrs), batch_columns(batch).attrs
    (['final_xy'], {})
    """
    return pd.DataFrame(batch, copy=False)
