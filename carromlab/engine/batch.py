"""Many shots from one starting scene, in compiled code, on all local cores."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validation import check_array, check_int, check_real
from ..physics.params import PhysicsParams
from .scene import MAX_SPEED, MAX_SPIN, Scene
from .simulate import STATUS, _core, engine_setup

__all__ = ["simulate_batch", "shot_table", "STRIKER_FIRST"]

#: Categories of the striker's first impact in a detailed batch.
STRIKER_FIRST = ["none", "disc", "cushion", "peg"]


def shot_table(
    x: ArrayLike, y: ArrayLike, angle: ArrayLike, speed: ArrayLike, spin: ArrayLike = 0.0
) -> np.ndarray:
    """Validate and broadcast shot parameters into an (N, 5) float64 array.

    Parameters
    ----------
    x, y : array_like
        Striker centre, m.
    angle : array_like
        Direction, rad (counter-clockwise from +x).
    speed : array_like
        Speed, m/s, in [0, 30].
    spin : array_like
        Spin, rad/s, in [-5000, 5000].
    """
    cols = [
        check_array("x", x, unit="m"),
        check_array("y", y, unit="m"),
        check_array("angle", angle, unit="rad"),
        check_array("speed", speed, low=0.0, high=MAX_SPEED, unit="m/s"),
        check_array("spin", spin, low=-MAX_SPIN, high=MAX_SPIN, unit="rad/s"),
    ]
    try:
        shape = np.broadcast_shapes(*(np.shape(np.atleast_1d(c)) for c in cols))
    except ValueError:
        shapes = {n: np.shape(c) for n, c in zip(("x", "y", "angle", "speed", "spin"), cols)}
        raise ValueError(f"The shot parameters must broadcast to one length. Got shapes {shapes} instead.") from None
    if len(shape) != 1:
        raise ValueError(f"The shot parameters must be 1-d. Got shape {shape} instead.")
    out = np.empty((shape[0], 5))
    for k, c in enumerate(cols):
        out[:, k] = c
    return out


def simulate_batch(
    scene: Scene,
    x: ArrayLike,
    y: ArrayLike,
    angle: ArrayLike,
    speed: ArrayLike,
    spin: ArrayLike = 0.0,
    *,
    params: PhysicsParams | None = None,
    workers: int | None = None,
    chunk_size: int = 4096,
    final_positions: bool = False,
    details: bool = False,
    forward: tuple[float, float] = (0.0, 1.0),
    carriers: tuple[str, ...] | None = None,
) -> pd.DataFrame:
    """Simulate N shots from the same scene and summarise each in one row.

    The shots run in the compiled engine with the GIL released, in chunks spread over
    ``workers`` threads. Event logs are not kept (use :func:`simulate` for one shot).

    Parameters
    ----------
    scene : Scene
        Starting position (the same for every shot).
    x, y, angle, speed, spin : array_like
        Shot parameters, broadcast to one length N: placement (m), direction (rad),
        speed (m/s), spin (rad/s).
    params : PhysicsParams, optional
        Physics parameters; default ``PhysicsParams()``.
    workers : int, optional
        Threads; default all local cores (``os.cpu_count()``).
    chunk_size : int
        Shots per task, in [1, 10^7]. Default 4096.
    final_positions : bool
        Also return the final positions (float32, 8 bytes per disc per shot) in
        ``df.attrs["final_xy"]``, an (N, n_pieces + 1, 2) array in m.
    details : bool
        Also return what the rules read beyond the summary: columns ``striker_first``
        (categorical none/disc/cushion/peg: the striker's first impact), ``striker_reach``
        (m: the furthest the striker's centre went along ``forward``), ``chain_mask``
        (uint64: discs struck by the striker directly or through ``carriers`` discs, rule
        CRK-3), and ``df.attrs["pocket"]`` (int8 (N, n_pieces + 1): pocket index of each
        disc, -1 if none) and ``df.attrs["t_out"]`` (float32, s: capture time, inf if none).
    forward : tuple of float
        The shooter's forward unit direction for ``striker_reach``. Default (0, 1): the
        south player.
    carriers : tuple of str, optional
        Kinds whose discs pass a hit on in ``chain_mask``; default the striker's kind.

    Returns
    -------
    pandas.DataFrame
        One row per shot: ``x``, ``y``, ``angle``, ``speed``, ``spin`` (the inputs);
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
    """
    params = params or PhysicsParams()
    shots = shot_table(x, y, angle, speed, spin)
    n_shots = len(shots)
    workers = check_int("workers", (os.cpu_count() or 1) if workers is None else workers, low=1, high=1024)
    chunk_size = check_int("chunk_size", chunk_size, low=1, high=10**7)
    setup = engine_setup(scene, params)
    n = scene.n_pieces + 1
    pocketed = np.zeros(n_shots, np.uint64)
    ditched = np.zeros(n_shots, np.uint64)
    striker_status = np.zeros(n_shots, np.int8)
    first = np.zeros(n_shots, np.int16)
    n_events = np.zeros(n_shots, np.int32)
    truncated = np.zeros(n_shots, np.uint8)
    t_end = np.zeros(n_shots, np.float64)
    spread = np.zeros(n_shots, np.float32)
    final_xy = np.zeros((n_shots, n, 2) if final_positions else (0, 0, 2), np.float32)
    m = n_shots if details else 0
    pocket = np.zeros((m, n), np.int8)
    t_out = np.zeros((m, n), np.float32)
    striker_first = np.zeros(m, np.int8)
    reach = np.zeros(m, np.float32)
    chain = np.zeros(m, np.uint64)
    kinds_all = scene.kinds
    carry = set(carriers) if carriers is not None else {scene.striker}
    own = sum(1 << i for i, k in enumerate(kinds_all[:-1]) if k in carry)
    fx, fy = (check_real(f"forward[{i}]", v) for i, v in enumerate(forward))
    base = np.ascontiguousarray(scene.arrays["xy"]).reshape(-1, 2)

    def check(start: int) -> None:
        stop = min(start + chunk_size, n_shots)
        scene.check_placement(shots[start:stop, 0], shots[start:stop, 1], first_index=start)

    def run(start: int) -> None:
        stop = min(start + chunk_size, n_shots)
        _core.run_batch(
            setup, base, shots, start, stop, pocketed, ditched, striker_status, first,
            n_events, truncated, t_end, spread, final_xy, own, fx, fy,
            pocket, t_out, striker_first, reach, chain,
        )  # fmt: skip

    # placements are all checked before any shot runs, so a bad one leaves nothing half done
    starts = range(0, n_shots, chunk_size)
    if workers == 1 or len(starts) <= 1:
        for task in (check, run):
            for s in starts:
                task(s)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(check, starts))
            list(pool.map(run, starts))

    kinds = np.array(scene.kinds)
    out = pd.DataFrame(
        {"x": shots[:, 0], "y": shots[:, 1], "angle": shots[:, 2], "speed": shots[:, 3], "spin": shots[:, 4]}
    )
    for kind in dict.fromkeys(scene.pieces["kind"]):
        bits = np.uint64(sum(1 << int(i) for i in np.flatnonzero(kinds[:-1] == kind)))
        out[f"pocketed_{kind}"] = np.bitwise_count(pocketed & bits).astype(np.int16)
    out["striker_pocketed"] = striker_status == 1
    out["striker_fate"] = pd.Categorical.from_codes(striker_status, categories=list(STATUS.values()))
    out["first_contact"] = first
    fc_kinds = ["", *dict.fromkeys(scene.pieces["kind"])]
    code = {k: c for c, k in enumerate(fc_kinds)}
    piece_code = np.array([code[k] for k in kinds[:-1]] + [0], dtype=np.int8)
    out["first_contact_kind"] = pd.Categorical.from_codes(
        np.where(first >= 0, piece_code[np.maximum(first, 0)], 0), categories=fc_kinds
    )
    out["n_off"] = np.bitwise_count(ditched & ~np.uint64(1 << (n - 1))).astype(np.int16)
    out["spread"] = spread
    out["n_events"] = n_events
    out["truncated"] = truncated.astype(bool)
    out["t_end"] = t_end
    out["pocketed_mask"] = pocketed
    out["ditch_mask"] = ditched
    if final_positions:
        out.attrs["final_xy"] = final_xy
    if details:
        out["striker_first"] = pd.Categorical.from_codes(
            np.select([striker_first == c for c in (6, 2, 4)], [1, 2, 3], 0), categories=STRIKER_FIRST
        )
        out["striker_reach"] = reach
        out["chain_mask"] = chain
        out.attrs["pocket"] = pocket
        out.attrs["t_out"] = t_out
    return out
