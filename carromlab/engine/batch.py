"""Many shots from one starting scene, in compiled code, on all local cores."""

from __future__ import annotations

import functools
import os
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._angles import angle_array, with_deg_columns
from .._check_build import check_build
from .._validation import check_array, check_bool, check_choice, check_int, check_memory, check_real, check_sequence, check_type
from ..equipment.layout import OVERLAP_TOL, RowNames, from_frame
from ..physics.params import PhysicsParams, check_params
from .scene import MAX_SPEED, MAX_SPIN, Scene
from .simulate import STATUS, cached_setup

check_build()
from . import _core  # noqa: E402  (after the build check, which explains a missing build)

__all__ = ["simulate_batch", "simulate_batch_arrays", "simulate_prepared", "BatchArrays", "shot_table", "piece_stack", "STRIKER_FIRST"]

#: Categories of the striker's first impact in a detailed batch.
STRIKER_FIRST = ["none", "disc", "cushion", "peg"]
#: Code in :data:`STRIKER_FIRST` of each event kind the engine reports as the striker's
#: first impact (read as uint8): disc 6, cushion 2, peg 4; any other "none".
_FIRST_CODE = np.zeros(256, np.int8)
_FIRST_CODE[[6, 2, 4]] = [1, 2, 3]
#: Memory a batch needs per shot, bytes (the shot table, the engine outputs and the result
#: frame, without final positions or details), checked before anything is allocated.
BYTES_PER_SHOT = 256
#: A batch on several threads is cut into at least this many tasks per thread (of at
#: least MIN_TASK_SHOTS shots), so that the threads finish together.
TASKS_PER_WORKER = 4
MIN_TASK_SHOTS = 256


def shot_table(
    x: ArrayLike,
    y: ArrayLike,
    angle: ArrayLike | None,
    speed: ArrayLike | None,
    spin: ArrayLike = 0.0,
    angle_deg: ArrayLike | None = None,
) -> np.ndarray:
    """Validate and broadcast shot parameters into an (N, 5) float64 array.

    Parameters
    ----------
    x, y : array_like
        Striker centre, m.
    angle : array_like or None
        Direction, rad (counter-clockwise from +x), in [-2 pi, 2 pi]; or None with
        ``angle_deg``.
    speed : array_like
        Speed, m/s, in [0, 30] (required: None is an error).
    spin : array_like
        Spin, rad/s, in [-5000, 5000].
    angle_deg : array_like or None
        Direction in degrees instead of ``angle``.

    Returns
    -------
    numpy.ndarray
        (N, 5): x, y, angle (rad), speed, spin.

    Raises
    ------
    TypeError
        Neither angle spelling, or no speed (a missing argument).
    ValueError
        Naming the parameter: a value out of range or not finite (a radian angle beyond
        one turn suggests ``angle_deg``), both angle spellings, or lengths that do not
        broadcast.
    """
    if speed is None:
        raise TypeError("The 'speed' parameter (m/s) is required.")
    cols = [
        check_array("x", x, unit="m"),
        check_array("y", y, unit="m"),
        angle_array("angle", angle, angle_deg),
        check_array("speed", speed, low=0.0, high=MAX_SPEED, unit="m/s"),
        check_array("spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"),
    ]
    try:
        shape = np.broadcast(*(np.atleast_1d(c) for c in cols)).shape
    except ValueError:
        shapes = {n: np.shape(c) for n, c in zip(("x", "y", "angle", "speed", "spin"), cols)}
        raise ValueError(f"The shot parameters must broadcast to one length. Got shapes {shapes} instead.") from None
    if len(shape) != 1:
        raise ValueError(f"The shot parameters must be 1-d. Got shape {shape} instead.")
    check_memory("shots", shape[0], BYTES_PER_SHOT, hint="Run the shots in parts, or use an analysis with a store.")
    out = np.empty((shape[0], 5))
    for k, c in enumerate(cols):
        out[:, k] = c
    return out


def piece_stack(
    scene: Scene, positions: ArrayLike | None, on_board: ArrayLike | None, n_shots: int, *, row_name: str = "shot"
) -> tuple[np.ndarray, np.ndarray]:
    """Validate per-shot starting positions of ``scene``'s pieces.

    Parameters
    ----------
    scene : Scene
        Gives the board, the piece kinds and the default positions.
    positions : array_like or None
        Piece centres, m: (n_pieces, 2) for every shot, or (N, n_pieces, 2) one row per
        shot; default the scene's positions. Entries of pieces off the board are ignored
        (they may be NaN).
    on_board : array_like of bool or None
        Which pieces exist: (n_pieces,) or (N, n_pieces); default all.
    n_shots : int
        N, the number of shots (or of distinct positions, see ``row_name``).
    row_name : str
        What a row of ``positions`` is, in messages: ``"shot"`` (default), or
        ``"position row"`` when shots pick their rows (``position_rows``).

    Returns
    -------
    xy : numpy.ndarray
        (m, n_pieces, 2) float64, m = 1 (shared by every shot) or N.
    on : numpy.ndarray
        (m', n_pieces) bool, m' = 1 or N.

    Raises
    ------
    ValueError
        Naming the parameter, the shot (or position row) and the piece: a wrong shape, a non-finite
        coordinate, a piece not wholly on the board, inside a hole's capture radius,
        overlapping a peg or another piece (by more than 1e-9 m), for pieces on the board.
    """
    p = scene.n_pieces
    xy = scene.arrays["xy"][None] if positions is None else _rows("positions", positions, (p, 2), n_shots, float, row_name)
    on = np.ones((1, p), bool) if on_board is None else _rows("on_board", on_board, (p,), n_shots, bool, row_name)
    xy, on = np.ascontiguousarray(xy, dtype=np.float64), np.ascontiguousarray(on)
    if positions is None:  # the scene's own pieces, validated when it was made
        return xy, on
    holes, cap2, pegs = _obstacles(scene)
    board = scene.board
    k = _core.positions_fault(xy, on.view(np.uint8), scene.arrays["radius"][:-1], holes, cap2, pegs,
                              board.shape == "square", board.half_size, OVERLAP_TOL)  # fmt: skip
    if k >= 0:
        row = f"{row_name} {k}" if max(len(xy), len(on)) > 1 else None
        _diagnose(scene, xy[k if len(xy) > 1 else 0], on[k if len(on) > 1 else 0], row)
    return xy, on


@functools.lru_cache(maxsize=64)
def _obstacles(scene: Scene) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`piece_stack` tests ``scene``'s pieces against (with each other, in the
    compiled ``positions_fault``), built once per scene: the hole centres (k, 2), m; each
    piece's squared capture radius of each hole (n_pieces, k), m^2; and the pegs (rows x,
    y, radius, m)."""
    r, board = scene.arrays["radius"][:-1], scene.board
    holes = np.array([(h.x, h.y) for h in board.holes]).reshape(-1, 2)
    cap2 = np.array([[h.capture_radius(v) ** 2 for h in board.holes] for v in r]).reshape(len(r), -1)
    pegs = np.array([(g.x, g.y, g.radius) for g in board.pegs], dtype=float).reshape(-1, 3)
    return np.ascontiguousarray(holes, dtype=float), np.ascontiguousarray(cap2, dtype=float), pegs


@functools.lru_cache(maxsize=64)
def _kind_codes(scene: Scene) -> tuple[tuple[str, ...], list[str], list[np.uint64], np.ndarray]:
    """The kinds of ``scene``'s discs as a batch codes them, built once per scene: every
    disc's kind (the pieces, then the shot disc), the pieces' distinct kinds in order, the
    mask of the pieces of each, and each disc's code (1 + index of its kind; the shot
    disc 0)."""
    kinds = tuple(scene.kinds)
    names = list(dict.fromkeys(kinds[:-1]))
    of = np.array(kinds[:-1])
    bits = [np.uint64(sum(1 << int(i) for i in np.flatnonzero(of == k))) for k in names]
    code = np.array([1 + names.index(k) for k in kinds[:-1]] + [0], dtype=np.int8)
    return kinds, names, bits, code


def _diagnose(scene: Scene, xy: np.ndarray, on: np.ndarray, row: str | None) -> None:
    """Raise the ValueError that names what is wrong with one row of piece positions
    (``row``, e.g. ``"shot 5"`` or ``"position row 5"``; None: the row every shot starts
    from)."""
    frame = pd.DataFrame({"kind": scene.pieces["kind"].to_numpy()[on], "x": xy[on, 0], "y": xy[on, 1]})
    ids = np.flatnonzero(on)
    try:  # the rows are the pieces on the board: named by their ids
        table = "The 'positions' parameter (where 'on_board' is set)"
        from_frame(frame, scene.board, scene.specs, name="positions", rows=RowNames("piece", "for", lambda i: int(ids[i]), table))
    except ValueError as err:
        where = "for every shot" if row is None else f"at {row}"
        raise ValueError(f"{str(err).removesuffix(' instead.')} {where} instead.") from None
    raise AssertionError("a row failed the batch check but is a valid layout")  # pragma: no cover


def _rows(name: str, value: ArrayLike, row: tuple[int, ...], n_shots: int, dtype: type, row_name: str) -> np.ndarray:
    """``value`` as an (m, *row) array, m = 1 (one row for every shot) or ``n_shots`` (rows
    called ``row_name`` in the message)."""
    arr = np.asarray(value)
    if dtype is bool and arr.dtype != bool:
        raise ValueError(f"The {name!r} parameter must be a bool array. Got dtype {arr.dtype} instead.")
    if dtype is float:
        if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
            raise ValueError(f"The {name!r} parameter must be a real array (m). Got dtype {arr.dtype} instead.")
        arr = arr.astype(np.float64, copy=False)
    if arr.shape == row:
        arr = arr[None]
    if arr.shape[1:] != row or arr.shape[0] not in (1, n_shots):
        raise ValueError(
            f"The {name!r} parameter must have shape {row} or {(n_shots, *row)} for {n_shots} {row_name}{'s' * (n_shots != 1)}. "
            f"Got shape {arr.shape} instead."
        )
    return arr


@dataclass(frozen=True, eq=False)
class BatchArrays:
    """The result of :func:`.simulate_batch_arrays`: a batch's columns as arrays.

    Parameters
    ----------
    columns : dict of str to numpy.ndarray
        The columns of :func:`.simulate_batch`, one entry per shot, by name; a
        categorical column holds its codes (int8) into ``categories[name]``.
    categories : dict of str to list of str
        The categories of the categorical columns (``striker_fate``,
        ``first_contact_kind`` and, with details, ``striker_first``).
    final_xy : numpy.ndarray or None
        (N, n_pieces + 1, 2) final centres, m (``final_positions=True``), else None.
    pocket, t_out : numpy.ndarray or None
        (N, n_pieces + 1) pocket index (int8, -1 none) and capture time (float32, s, inf
        none) of each disc (``details=True``), else None.
    """

    columns: dict[str, np.ndarray]
    categories: dict[str, list[str]]
    final_xy: np.ndarray | None = None
    pocket: np.ndarray | None = None
    t_out: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.columns["x"])

    def frame(self) -> pd.DataFrame:
        """The :func:`.simulate_batch` frame of these arrays (sharing them): the columns,
        categorical ones as categoricals, ``angle_deg`` (degrees) right after ``angle``, and
        ``attrs`` ``final_xy``, ``pocket`` and ``t_out`` where present."""
        cols = {k: _categorical(v, self.categories[k]) if k in self.categories else v for k, v in self.columns.items()}
        out = pd.DataFrame(cols, copy=False)
        for key in ("final_xy", "pocket", "t_out"):
            if getattr(self, key) is not None:
                out.attrs[key] = getattr(self, key)
        return with_deg_columns(out, ("angle",))

    def take(self, rows: ArrayLike) -> BatchArrays:
        """Some of the shots.

        Parameters
        ----------
        rows : array_like of int
            Shot numbers, in the order wanted (repeats allowed).

        Returns
        -------
        BatchArrays
        """
        rows = np.asarray(rows, dtype=np.intp)
        pick = {key: None if (a := getattr(self, key)) is None else a[rows] for key in ("final_xy", "pocket", "t_out")}
        return BatchArrays({k: v[rows] for k, v in self.columns.items()}, self.categories, **pick)

    @classmethod
    def concat(cls, parts: Sequence[BatchArrays]) -> BatchArrays:
        """The shots of several batches of one scene's kinds, one after another.

        Parameters
        ----------
        parts : sequence of BatchArrays
            Batches with the same columns and categories (one scene's kinds).

        Returns
        -------
        BatchArrays

        Raises
        ------
        ValueError
            If the parts' columns or categories differ.
        """
        first = parts[0]
        if any(p.categories != first.categories or p.columns.keys() != first.columns.keys() for p in parts):
            raise ValueError("The 'parts' parameter must hold batches with the same columns and categories.")
        extra = {
            key: None if getattr(first, key) is None else np.concatenate([getattr(p, key) for p in parts])
            for key in ("final_xy", "pocket", "t_out")
        }  # fmt: skip
        return cls({k: np.concatenate([p.columns[k] for p in parts]) for k in first.columns}, first.categories, **extra)


def task_size(n_shots: int, workers: int, chunk_size: int) -> int:
    """Shots per task of a batch: at most ``chunk_size``; on several threads small enough
    for ``TASKS_PER_WORKER`` tasks per thread (but at least ``MIN_TASK_SHOTS``), so that the
    threads, which take tasks as they free up, finish together.

    Parameters
    ----------
    n_shots : int
        Shots in the batch.
    workers : int
        Threads.
    chunk_size : int
        The largest task allowed, shots.

    Returns
    -------
    int
        Shots per task (the last task takes the remainder).
    """
    if workers == 1:
        return chunk_size
    return min(chunk_size, max(MIN_TASK_SHOTS, -(-n_shots // (TASKS_PER_WORKER * workers))))


def simulate_batch(
    scene: Scene,
    x: ArrayLike,
    y: ArrayLike,
    angle: ArrayLike | None = None,
    speed: ArrayLike | None = None,
    spin: ArrayLike = 0.0,
    *,
    angle_deg: ArrayLike | None = None,
    positions: ArrayLike | None = None,
    on_board: ArrayLike | None = None,
    position_rows: ArrayLike | None = None,
    params: PhysicsParams | None = None,
    workers: int | None = None,
    chunk_size: int = 4096,
    final_positions: bool = False,
    final_dtype: str = "float32",
    details: bool = False,
    forward: ArrayLike = (0.0, 1.0),
    carriers: tuple[str, ...] | None = None,
    frame_reach: float = -np.inf,
) -> pd.DataFrame:
    """Simulate N shots, from one scene or from a starting position per shot, and
    summarise each in one row.

    The shots run in the compiled engine with the GIL released, in chunks spread over
    ``workers`` threads. Event logs are not kept (use :func:`simulate` for one shot).
    Shot k is the shot ``simulate`` plays on the scene holding the pieces of
    ``on_board[k]`` at ``positions[k]`` (the same results, with the pieces keeping this
    scene's ids).
    The frame is built on the arrays of :func:`.simulate_batch_arrays` (the same call
    without the frame: :meth:`.BatchArrays.frame`).

    Parameters
    ----------
    scene : Scene
        The board, the piece kinds (ids 0 .. n_pieces - 1), the shot disc and the default
        starting positions.
    x, y, angle, speed, spin : array_like
        Shot parameters, broadcast to one length N: placement (m), direction (rad, in
        [-2 pi, 2 pi], counter-clockwise from +x), speed (m/s, in [0, 30], required) and
        spin (rad/s, in [-5000, 5000]; default 0).
    angle_deg : array_like, optional
        The direction in degrees instead of ``angle`` (one of the two is required).
    positions : array_like, optional
        Starting piece centres, m: (n_pieces, 2), or (N, n_pieces, 2) one row per shot.
        Default the scene's positions. Validated like a scene (every piece on the board
        lies wholly on it, outside the holes' capture radii, clear of pegs and of the
        other pieces).
    on_board : array_like of bool, optional
        Which pieces exist at the start: (n_pieces,) or (N, n_pieces). Default all. A
        piece off the board takes no part: it is neither pocketed nor in the ditch, its
        pocket is -1, its capture time inf and its final position NaN; its entries of
        ``positions`` are ignored (NaN is fine).
    position_rows : array_like of int, optional
        Shot k starts from row ``position_rows[k]`` of ``positions`` and ``on_board``,
        which then hold M distinct starting positions (M rows, or one shared): many
        shots from few positions, each position validated once (an error names its row
        as the shot). Default: row k (or the shared row) for shot k.
    params : PhysicsParams, optional
        Physics parameters; default ``PhysicsParams()``.
    workers : int, optional
        Threads; default all local cores (``os.cpu_count()``).
    chunk_size : int
        Shots per task at most, in [1, 10^7]. Default 4096. On several threads a batch
        is cut into at least ``TASKS_PER_WORKER`` (4) tasks per thread of at least
        ``MIN_TASK_SHOTS`` (256) shots, so the threads finish together.
    final_positions : bool
        Also return the final positions in ``df.attrs["final_xy"]``, an
        (N, n_pieces + 1, 2) array in m.
    final_dtype : {"float32", "float64"}
        Precision of the final positions: ``"float32"`` (8 bytes per disc per shot,
        enough for statistics) or ``"float64"`` (16 bytes, the engine's own values, the
        ones :func:`simulate` gives: for games that continue from them). Default
        ``"float32"``.
    details : bool
        Also return what the rules read beyond the summary: columns ``striker_first``
        (categorical none/disc/cushion/peg: the striker's first impact), ``striker_reach``
        (m: the furthest the striker's centre went along ``forward``), ``chain_mask``
        (uint64: discs struck by the striker directly or through ``carriers`` discs, rule
        CRK-3), ``striker_touched_mask`` (uint64: discs the striker hit directly, bit i =
        piece i; the first of them is ``first_contact``), ``striker_direct_mask`` (uint64:
        the discs the striker hit before its first cushion hit beyond ``frame_reach``,
        rule HIK-9), and ``df.attrs["pocket"]`` (int8
        (N, n_pieces + 1): pocket index of each disc, -1 if none) and ``df.attrs["t_out"]``
        (float32, s: capture time, inf if none).
    forward : array_like, shape (2,) or (N, 2)
        The shooter's forward unit direction for ``striker_reach`` and ``frame_reach``:
        one for every shot, or one per shot (the shooters of many games). Default (0, 1):
        the south player.
    carriers : tuple of str, optional
        Kinds whose discs pass a hit on in ``chain_mask``, each a disc kind of the scene;
        default the shot disc's kind.
    frame_reach : float
        Coordinate along ``forward`` (m, from the board centre) beyond which the
        striker's centre must be at a cushion hit for that hit to end its direct hits
        in ``striker_direct_mask`` (Hikone: any frame but the shooter's own). Default
        -inf: every cushion hit.

    Returns
    -------
    pandas.DataFrame
        One row per shot (no rows for N = 0): ``x``, ``y``, ``angle``, ``angle_deg``, ``speed``,
        ``spin`` (the inputs, the direction in radians and in degrees);
        ``pocketed_<kind>`` (int16 count per piece kind, striker excluded);
        ``striker_pocketed`` (bool); ``striker_fate`` (categorical board/pocketed/ditch);
        ``first_contact`` (piece id, -1 for none); ``first_contact_kind`` (categorical,
        "" for none); ``n_off`` (pieces in the ditch); ``spread`` (mean distance of the
        pieces left on the board from the centre, m); ``n_events``; ``truncated``;
        ``t_end`` (s); ``pocketed_mask`` and ``ditch_mask`` (uint64, bit i = disc id i).

    Examples
    --------
    >>> import numpy as np
    >>> from carromlab import Scene, simulate_batch
    >>> df = simulate_batch(Scene.icf_break(), 0.0, -0.2526, np.pi / 2, [4.0, 6.0])
    >>> len(df)
    2

    Two starting positions, the second without the queen (piece 0):

    >>> scene = Scene.icf_break()
    >>> mask = np.ones((2, scene.n_pieces), bool)
    >>> mask[1, 0] = False
    >>> df = simulate_batch(scene, 0.0, -0.2526, np.pi / 2, 6.0, on_board=mask)
    >>> bool(df["pocketed_mask"][1] & 1)
    False
    """
    out = simulate_batch_arrays(
        scene, x, y, angle, speed, spin, angle_deg=angle_deg, positions=positions, on_board=on_board, position_rows=position_rows,
        params=params, workers=workers, chunk_size=chunk_size, final_positions=final_positions, final_dtype=final_dtype,
        details=details, forward=forward, carriers=carriers, frame_reach=frame_reach,
    )  # fmt: skip
    return out.frame()


def simulate_batch_arrays(
    scene: Scene,
    x: ArrayLike,
    y: ArrayLike,
    angle: ArrayLike | None = None,
    speed: ArrayLike | None = None,
    spin: ArrayLike = 0.0,
    *,
    angle_deg: ArrayLike | None = None,
    positions: ArrayLike | None = None,
    on_board: ArrayLike | None = None,
    position_rows: ArrayLike | None = None,
    params: PhysicsParams | None = None,
    workers: int | None = None,
    chunk_size: int = 4096,
    final_positions: bool = False,
    final_dtype: str = "float32",
    details: bool = False,
    forward: ArrayLike = (0.0, 1.0),
    carriers: tuple[str, ...] | None = None,
    frame_reach: float = -np.inf,
) -> BatchArrays:
    """:func:`.simulate_batch` as arrays: the engine's outputs without a table.

    The shots and parameters are those of :func:`.simulate_batch` (and checked alike);
    :func:`.simulate_batch` is this call and one frame built on its result. For callers
    that read a few columns of many shots: no frame, no categoricals. The checked inputs
    are played by :func:`~carromlab.engine.batch.simulate_prepared`, which callers holding
    valid arrays already (the lockstep games, the foul studies) call directly.

    Returns
    -------
    BatchArrays
        The columns of :func:`.simulate_batch` as arrays (categorical columns as their
        int8 codes, with ``categories``), and the final positions, pockets and capture
        times when asked for.

    Examples
    --------
    >>> from carromlab import Scene
    >>> out = simulate_batch_arrays(Scene.icf_break(), 0.0, -0.2526, 1.5708, [4.0, 6.0])
    >>> out.columns["n_events"].shape, out.categories["striker_fate"]
    ((2,), ['board', 'pocketed', 'ditch'])
    """
    check_type("scene", scene, Scene, hint="e.g. Scene.icf_break()")
    params = check_params(params)
    shots = shot_table(x, y, angle, speed, spin, angle_deg)
    # a stack of starting positions broadcasts with the shot parameters, or is indexed by position_rows
    rows = [np.shape(a)[0] for a, d in ((positions, 3), (on_board, 2)) if a is not None and np.ndim(a) == d]
    n_starts = max(rows, default=1)
    index = None
    if position_rows is not None:
        if not np.issubdtype(np.asarray(position_rows).dtype, np.integer):
            raise ValueError(f"The 'position_rows' parameter must be an integer array. Got dtype {np.asarray(position_rows).dtype} instead.")
        index = np.asarray(position_rows)
        outside = (index < 0) | (index >= n_starts)
        if index.ndim != 1 or outside.any():
            got = f"shape {index.shape}" if index.ndim != 1 else int(index[outside][0])
            raise ValueError(
                f"The 'position_rows' parameter must be a 1-d array of row numbers in [0, {n_starts - 1}] "
                f"(the rows of 'positions'/'on_board'). Got {got} instead."
            )
        index = index.astype(np.intp)
    n_shots = max([len(shots), *rows]) if index is None else len(index)
    if len(shots) not in (1, n_shots):
        raise ValueError(
            f"The shot parameters must broadcast with the {n_shots} rows of 'positions'/'on_board'. "
            f"Got {len(shots)} shots instead."
        )
    workers = check_int("workers", (os.cpu_count() or 1) if workers is None else workers, low=1, high=1024)
    chunk_size = check_int("chunk_size", chunk_size, low=1, high=10**7)
    # the shooter's forward direction: one for every shot, or one per shot
    fw = np.ascontiguousarray(check_array("forward", forward, shape=(n_shots, 2) if np.ndim(forward) == 2 else (2,)).reshape(-1, 2))
    norm = np.hypot(fw[:, 0], fw[:, 1])
    if not (np.abs(norm - 1.0) <= 1e-9).all():
        k = int(np.argmax(np.abs(norm - 1.0) > 1e-9))
        raise ValueError(f"The 'forward' parameter must be a unit vector (length 1 within 1e-9). Got {tuple(fw[k].tolist())} (length {norm[k]:g}) instead.")
    if not (isinstance(frame_reach, float) and frame_reach == -np.inf):
        frame_reach = check_real("frame_reach", frame_reach, unit="m")
    check_choice("final_dtype", final_dtype, ("float32", "float64"))
    final_positions, details = check_bool("final_positions", final_positions), check_bool("details", details)
    n = scene.n_pieces + 1
    check_memory("shots", n_shots, 120 + 16 * n * final_positions + (5 * n + 29) * details, hint="Split the batch.")
    if len(shots) == 1:
        shots = np.repeat(shots, n_shots, axis=0)
    if index is None:
        pieces, present = piece_stack(scene, positions, on_board, n_shots)
    else:
        pieces, present = piece_stack(scene, positions, on_board, n_starts, row_name="position row")
    if index is not None:
        pieces, present = (a if len(a) == 1 else a[index] for a in (pieces, present))
    if carriers is None:
        carriers = (scene.striker,)
    elif not all(k in scene.specs for k in check_sequence("carriers", carriers, str, what=f"a tuple of disc kinds of the scene ({sorted(scene.specs)})")):
        raise ValueError(f"The 'carriers' parameter must be a tuple of disc kinds of the scene ({sorted(scene.specs)}). Got {carriers!r} instead.")
    return simulate_prepared(
        scene, shots, pieces, present, params=params, forward=fw, carriers=carriers, frame_reach=frame_reach,
        workers=workers, chunk_size=chunk_size, final_positions=final_positions, final_dtype=final_dtype, details=details,
        place_once=np.size(x) == 1 and np.size(y) == 1 and len(pieces) == 1 and len(present) == 1,
    )  # fmt: skip


def simulate_prepared(
    scene: Scene,
    shots: np.ndarray,
    pieces: np.ndarray,
    present: np.ndarray,
    *,
    params: PhysicsParams,
    forward: np.ndarray,
    carriers: Collection[str],
    frame_reach: float = -np.inf,
    workers: int = 1,
    chunk_size: int = 4096,
    final_positions: bool = False,
    final_dtype: str = "float32",
    details: bool = False,
    place_once: bool = False,
) -> BatchArrays:
    """The core of :func:`.simulate_batch_arrays`: valid shots in the engine's form, played.

    Nothing but the striker placements is checked (the engine's own test, compiled, of
    each shot before any runs: a shot disc overlapping a piece, a peg or a hole's
    capture circle, or off the board, raises): the arrays must be what
    :func:`.simulate_batch_arrays` makes of its arguments. For callers that build them
    valid by construction: the lockstep games (positions the engine and the rules left,
    placements snapped to legal spots), on which a step's argument checks would cost
    more than the engine, and the foul studies (a state's scene, snapped placements,
    strokes clipped to the engine's ranges).

    Parameters
    ----------
    scene : Scene
        Gives the board, the discs and the kinds.
    shots : numpy.ndarray
        (N, 5) float64, C-contiguous: x, y (m), angle (rad), speed (m/s), spin (rad/s)
        of each shot, in range (:func:`.shot_table`).
    pieces : numpy.ndarray
        (m, n_pieces, 2) float64, C-contiguous: piece centres, m, m = 1 (every shot) or
        N; a valid layout where ``present`` (``piece_stack``).
    present : numpy.ndarray
        (m', n_pieces) bool, C-contiguous: the pieces on the board, m' = 1 or N.
    params : PhysicsParams
        Physics parameters.
    forward : numpy.ndarray
        (1, 2) or (N, 2) float64, C-contiguous: the shooter's forward unit direction, for
        every shot or for each.
    carriers : collection of str
        Kinds (of the scene's discs) whose discs pass a hit on in ``chain_mask``.
    frame_reach : float
        As in :func:`.simulate_batch`, m. Default -inf.
    workers : int
        Threads, >= 1. Default 1.
    chunk_size : int
        Shots per task at most, >= 1 (``task_size``). Default 4096.
    final_positions, final_dtype, details
        As in :func:`.simulate_batch`. Default no final positions (float32 when asked
        for), no details.
    place_once : bool
        Every shot has one striker placement and one starting position (``pieces`` and
        ``present`` of one row): check the placement once, and name no shot in its
        error. Default False: every shot's, naming the shot.

    Returns
    -------
    BatchArrays
        As :func:`.simulate_batch_arrays`.

    Raises
    ------
    ValueError
        If a striker placement is illegal, naming the shot (but with ``place_once``).
    """
    n_shots, n = len(shots), scene.n_pieces + 1
    chunk_size = task_size(n_shots, workers, chunk_size)
    setup = cached_setup(scene, params)
    kinds, kind_names, kind_bits, piece_code = _kind_codes(scene)
    own = sum(1 << i for i, k in enumerate(kinds[:-1]) if k in carriers)

    # engine outputs (filled by the compiled loop) and the columns derived from them
    pocketed = np.zeros(n_shots, np.uint64)
    ditched = np.zeros(n_shots, np.uint64)
    striker_status = np.zeros(n_shots, np.int8)
    first = np.zeros(n_shots, np.int16)
    n_events = np.zeros(n_shots, np.int32)
    truncated = np.zeros(n_shots, np.uint8)
    t_end = np.zeros(n_shots, np.float64)
    spread = np.zeros(n_shots, np.float32)
    final_xy = np.zeros((n_shots, n, 2) if final_positions else (0, 0, 2), np.float64)
    m = n_shots if details else 0
    pocket = np.zeros((m, n), np.int8)
    t_out = np.zeros((m, n), np.float32)
    striker_first = np.zeros(m, np.int8)
    reach = np.zeros(m, np.float32)
    chain = np.zeros(m, np.uint64)
    touched = np.zeros(m, np.uint64)
    direct = np.zeros(m, np.uint64)
    counts = np.zeros((len(kind_names), n_shots), np.int16)
    first_kind = np.zeros(n_shots, np.int8)
    n_off = np.zeros(n_shots, np.int16)
    first_code = np.zeros(m, np.int8)
    not_striker = ~np.uint64(1 << (n - 1))
    absent = ~present

    def check(start: int) -> None:
        sl = slice(start, 1 if place_once else min(start + chunk_size, n_shots))
        scene.check_placement(
            shots[sl, 0], shots[sl, 1], first_index=start,
            pieces=pieces if len(pieces) == 1 else pieces[sl], on_board=present if len(present) == 1 else present[sl],
        )  # fmt: skip

    def run(start: int) -> None:
        stop = min(start + chunk_size, n_shots)
        _core.run_batch(
            setup, pieces, present.view(np.uint8), shots, start, stop, pocketed, ditched, striker_status, first,
            n_events, truncated, t_end, spread, final_xy, own, forward,
            pocket, t_out, striker_first, reach, chain, touched, frame_reach, direct,
        )  # fmt: skip
        # derived columns per chunk, in the worker: the serial tail stays small
        sl = slice(start, stop)
        for row, bits in zip(counts, kind_bits):
            row[sl] = np.bitwise_count(pocketed[sl] & bits)
        first_kind[sl] = piece_code[first[sl]]  # first = -1 (none) reads the striker's 0
        n_off[sl] = np.bitwise_count(ditched[sl] & not_striker)
        if final_positions and absent.any():
            final_xy[sl, :-1][np.broadcast_to(absent, (n_shots, n - 1))[sl]] = np.nan
        if details:
            first_code[sl] = _FIRST_CODE[striker_first[sl].view(np.uint8)]

    # placements are all checked before any shot runs, so a bad one leaves nothing half done;
    # one placement broadcast to every shot is checked once
    starts = range(0, n_shots, chunk_size)
    check_starts = starts[:1] if place_once else starts
    if workers == 1 or len(starts) <= 1:
        for task, where in ((check, check_starts), (run, starts)):
            for s in where:
                task(s)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(check, check_starts))
            list(pool.map(run, starts))

    cols: dict[str, np.ndarray] = {name: shots[:, k] for k, name in enumerate(("x", "y", "angle", "speed", "spin"))}
    cols |= {f"pocketed_{k}": c for k, c in zip(kind_names, counts)}
    cols |= {
        "striker_pocketed": striker_status == 1,
        "striker_fate": striker_status,
        "first_contact": first,
        "first_contact_kind": first_kind,
        "n_off": n_off,
        "spread": spread,
        "n_events": n_events,
        "truncated": truncated.view(bool),
        "t_end": t_end,
        "pocketed_mask": pocketed,
        "ditch_mask": ditched,
    }
    categories = {"striker_fate": list(STATUS.values()), "first_contact_kind": ["", *kind_names]}
    if details:
        cols |= {
            "striker_first": first_code,
            "striker_reach": reach,
            "chain_mask": chain,
            "striker_touched_mask": touched,
            "striker_direct_mask": direct,
        }
        categories["striker_first"] = STRIKER_FIRST
    return BatchArrays(
        cols, categories,
        final_xy=(final_xy if final_dtype == "float64" else final_xy.astype(np.float32)) if final_positions else None,
        pocket=pocket if details else None, t_out=t_out if details else None,
    )  # fmt: skip


def _categorical(codes: np.ndarray, categories: list[str]) -> pd.Categorical:
    """A categorical from codes the engine made (valid by construction: not re-checked)."""
    return pd.Categorical.from_codes(codes, categories=categories, validate=False)
