"""Running a sweep: chunks of cells on local threads or a Dask cluster, streamed to a
resumable Parquet store, with a progress bar.

Every chunk is a block of consecutive cells evaluated by one call of a task (which runs
the compiled batch engine). The noise of a shot depends only on (seed, cell, replica),
so the rows are identical whatever the backend, the number of workers or the chunking.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import queue
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import numpy as np
import pandas as pd
from filelock import FileLock
from tqdm.auto import tqdm

from .._validation import check_bool, check_int, check_type
from ._random import MAX_CELLS
from .store import SweepStore

__all__ = ["ChunkTask", "CHUNK_SHOTS", "run_sweep", "check_backend"]

#: Default number of shots per chunk: large enough that the engine dominates the Python
#: overhead, small enough that an interruption loses little work.
CHUNK_SHOTS = 65_536


class ChunkTask(Protocol):
    """Evaluates a block of cells: ``task(cells, workers) -> rows``; picklable."""

    def __call__(self, cells: pd.DataFrame, workers: int) -> pd.DataFrame: ...


def check_backend(client: Any, workers: int | None) -> int:
    """Validate the backend options and return the local thread count.

    Raises
    ------
    ValueError
        If ``client`` is not a dask.distributed Client, or both are given.

    Examples
    --------
    >>> check_backend(None, 3)
    3
    """
    if client is not None:
        try:
            from distributed import Client
        except ImportError:  # pragma: no cover - dask is an optional dependency
            raise ValueError("The 'client' parameter needs dask.distributed: pip install 'carromlab[dask]'.") from None
        check_type("client", client, (Client, type(None)), hint="dask.distributed")
        if workers is not None:
            raise ValueError(f"The 'workers' parameter must be None when a Dask client is given. Got {workers!r} instead.")
        return 1
    return check_int("workers", (os.cpu_count() or 1) if workers is None else workers, low=1, high=1024)


def _windowed(
    submit: Callable[[pd.DataFrame], Any], chunks: Iterator[tuple[int, pd.DataFrame]], window: Callable[[], int]
) -> Iterator[tuple[int, Any]]:
    """Each chunk's index and finished future (of ``submit(cells)``), as they finish, with
    at most ``window()`` running: the next chunk is drawn from ``chunks`` only when there
    is room, so a store's chunk is claimed (:func:`_stored`) only when it is about to run.
    The futures not finished are cancelled on an error or an interrupt."""
    finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
    running: dict[Any, int] = {}

    def fill() -> None:
        for k, cells in itertools.islice(chunks, max(window() - len(running), 0)):
            future = submit(cells)
            running[future] = k
            future.add_done_callback(finished.put)

    fill()
    try:
        while running:
            future = finished.get()
            k = running.pop(future)
            fill()
            yield k, future
    finally:
        for future in running:
            future.cancel()


def _local(task: ChunkTask, chunks: Iterator[tuple[int, pd.DataFrame]], n: int, workers: int) -> Iterator[tuple[int, pd.DataFrame]]:
    """The rows of each of the (at most ``n``) chunks, on ``workers`` threads shared by the chunks running."""
    parallel = min(workers, n)
    inner = max(1, workers // max(parallel, 1))
    if parallel <= 1:
        for k, cells in chunks:
            yield k, task(cells, inner)
        return
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for k, future in _windowed(lambda cells: pool.submit(task, cells, inner), chunks, lambda: parallel):
            yield k, future.result()


def _call(task: ChunkTask, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
    return task(cells, workers)


def _dask(task: ChunkTask, chunks: Iterator[tuple[int, pd.DataFrame]], n: int, client: Any) -> Iterator[tuple[int, pd.DataFrame]]:
    """The rows of each of the (at most ``n``) chunks, run on the cluster: twice as many at
    once as it has threads (as many as it has now: an adaptive cluster may grow)."""
    if not n:
        return
    shared = client.scatter(task, broadcast=True, hash=False)
    try:
        def window() -> int:
            return max(1, 2 * sum(client.nthreads().values()))

        for k, future in _windowed(lambda cells: client.submit(_call, shared, cells, 1, pure=False), chunks, window):
            yield k, future.result()
            future.release()
    finally:
        shared.release()


def _claimed(
    db: SweepStore, todo: list[tuple[int, pd.DataFrame]], held: dict[int, FileLock], busy: list[tuple[int, pd.DataFrame]],
    done: Callable[[int], object], again: bool,
) -> Iterator[tuple[int, pd.DataFrame]]:
    """The chunks of ``todo`` this writer is to compute, each claimed as it is drawn (its
    lock put in ``held``); a chunk another writer holds goes to ``busy``, one found written
    meanwhile (unless ``again``) to ``done``."""
    for k, cells in todo:
        lock = db.claim(k)
        if lock is None:
            busy.append((k, cells))
        elif not again and db.has(k):  # written by another writer since this one looked
            db.release(k, lock)
            done(k)
        else:
            held[k] = lock
            yield k, cells


def _stored(
    db: SweepStore,
    run: Callable[[Iterator[tuple[int, pd.DataFrame]], int], Iterator[tuple[int, pd.DataFrame]]],
    todo: list[tuple[int, pd.DataFrame]],
    done: Callable[[int], object],
    *,
    again: bool = False,
) -> None:
    """Compute and write to ``db`` each chunk of ``todo`` (index, cells) that is missing
    (each, with ``again``: their parts were found damaged behind intact footers),
    sharing them with other writers of the store: a chunk is computed only under its lock
    (:meth:`SweepStore.claim`), one that another writer holds is left to it, and its part
    awaited once this writer has nothing else to do; if that writer dies meanwhile (the
    lock is released, the part missing), this one computes the chunk. ``done(k)`` is told
    of each chunk as it is found written or written here."""
    while todo:
        held: dict[int, FileLock] = {}
        busy: list[tuple[int, pd.DataFrame]] = []
        try:
            for k, rows in run(_claimed(db, todo, held, busy, done, again), len(todo)):
                db.write(k, rows)
                db.release(k, held.pop(k))
                done(k)
        finally:  # the chunks dropped by an error or an interrupt
            for k, lock in held.items():
                db.release(k, lock)
        todo = busy
        if todo:
            db.wait(todo[0][0])  # holding no lock: a writer waiting on another never waits on itself


def _cells_digest(cells: pd.DataFrame) -> str:
    h = hashlib.sha256()
    for col in cells.columns:
        h.update(col.encode())
        h.update(np.ascontiguousarray(cells[col].to_numpy(dtype=float)).tobytes())
    return h.hexdigest()


def run_sweep(
    analysis: str,
    task: ChunkTask,
    cells: pd.DataFrame,
    *,
    manifest: dict[str, Any],
    replicas: int,
    chunk_cells: int | None,
    client: Any,
    workers: int,
    store: str | os.PathLike[str] | None,
    progress: bool,
    columns: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Evaluate every cell in chunks and return the rows of all chunks in cell order.

    Parameters
    ----------
    analysis : str
        Name shown by the progress bar and written to the manifest.
    task : ChunkTask
        Evaluates a block of cells.
    cells : pandas.DataFrame
        Nominal shots, one row per cell (numeric columns).
    manifest : dict
        JSON-ready parameters of the sweep (with the seed and the carromlab version),
        written to the store with the digest of the cells; read (and the digest computed)
        only with a store.
    replicas : int
        Shots per cell (for the chunk size and the progress bar).
    chunk_cells : int or None
        Cells per chunk; default ``ceil(CHUNK_SHOTS / replicas)``.
    client : dask.distributed.Client or None
        Run the chunks on this cluster (each with one engine thread).
    workers : int
        Local threads when ``client`` is None.
    store : path or None
        Parquet store directory: finished chunks are skipped (found from the parts'
        footers), new ones written as they complete; a chunk another writer of the store is
        computing is left to it and its part read once written (see :func:`_stored`). The
        rows are read back at the end, their page checksums verified: a part damaged behind
        an intact footer (of the columns read) is computed again and rewritten, with a
        :class:`~.store.StoreWarning` naming it.
    progress : bool
        Show a tqdm bar (after the first second). A value that is not a bool is an error.
    columns : sequence of str, optional
        The columns the caller needs: only these are kept of each chunk's rows as it is
        done, and read back from the store (which holds every column), so the returned
        frame takes only their memory. Default: every column.

    Returns
    -------
    pandas.DataFrame
        The concatenated rows of the chunks, in chunk order (only ``columns``, if given).
        The rows of every chunk are held at once (twice, while they are concatenated).

    Examples
    --------
    >>> def count(cells, workers):
    ...     return pd.DataFrame({"cell": cells["cell"], "twice": 2 * cells["cell"]})
    >>> cells = pd.DataFrame({"cell": np.arange(5)})
    >>> run_sweep("demo", count, cells, manifest={}, replicas=1, chunk_cells=2, client=None, workers=2,
    ...           store=None, progress=False)["twice"].tolist()
    [0, 2, 4, 6, 8]
    """
    progress = check_bool("progress", progress)
    n_cells = len(cells)
    if not 1 <= n_cells <= MAX_CELLS:
        raise ValueError(f"A sweep must have between 1 and {MAX_CELLS} cells. Got {n_cells} instead.")
    size = math.ceil(CHUNK_SHOTS / replicas) if chunk_cells is None else check_int("chunk_cells", chunk_cells, low=1)
    bounds = [(k, slice(s, min(s + size, n_cells))) for k, s in enumerate(range(0, n_cells, size))]
    shots = {k: replicas * (sl.stop - sl.start) for k, sl in bounds}

    def piece(k: int) -> tuple[int, pd.DataFrame]:
        return k, cells.iloc[bounds[k][1]].reset_index(drop=True)

    def run(chunks: Iterator[tuple[int, pd.DataFrame]], n: int) -> Iterator[tuple[int, pd.DataFrame]]:
        return _dask(task, chunks, n, client) if client is not None else _local(task, chunks, n, workers)

    db = None
    if store is not None:  # the cells are fingerprinted for the store only
        full = {**manifest, "analysis": analysis, "chunk_cells": size, "n_cells": n_cells, "cells_sha256": _cells_digest(cells)}
        db = SweepStore(store, full)
    done = db.completed() if db is not None else set()
    todo = [piece(k) for k, _ in bounds if k not in done]
    results: dict[int, pd.DataFrame] = {}
    with tqdm(total=n_cells * replicas, initial=sum(shots[k] for k in done), unit="shot", unit_scale=True, desc=analysis,
              disable=not progress, delay=1.0) as bar:  # fmt: skip
        if db is not None:
            _stored(db, run, todo, lambda k: bar.update(shots[k]))
        else:
            for k, rows in run(iter(todo), len(todo)):
                results[k] = rows if columns is None else rows[list(columns)]
                bar.update(shots[k])
    if db is None:
        return pd.concat([results[k] for k, _ in bounds], ignore_index=True)
    # a stored sweep is always read back, so resumed and uninterrupted runs return the same
    # frame; a part damaged behind an intact footer (its page checksums fail) is computed again
    back = {k: db.read(k, columns, damaged="warn") for k, _ in bounds}
    again = [k for k, rows in back.items() if rows is None]
    if again:
        _stored(db, run, [piece(k) for k in again], lambda k: None, again=True)
        back.update({k: db.read(k, columns) for k in again})
    return pd.concat([back[k] for k, _ in bounds], ignore_index=True)
