"""Running a sweep: chunks of cells on local threads or a Dask cluster, streamed to a
resumable Parquet store, with a progress bar.

Every chunk is a block of consecutive cells evaluated by one call of a task (which runs
the compiled batch engine). The noise of a shot depends only on (seed, cell, replica),
so the rows are identical whatever the backend, the number of workers or the chunking.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Protocol

import numpy as np
import pandas as pd
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


def _local(task: ChunkTask, chunks: list[tuple[int, pd.DataFrame]], workers: int) -> Iterator[tuple[int, pd.DataFrame]]:
    parallel = min(workers, len(chunks))
    inner = max(1, workers // max(parallel, 1))
    if parallel <= 1:
        for k, cells in chunks:
            yield k, task(cells, inner)
        return
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = {pool.submit(task, cells, inner): k for k, cells in chunks}
        try:
            for f in as_completed(futures):
                yield futures[f], f.result()
        finally:
            for f in futures:
                f.cancel()


def _call(task: ChunkTask, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
    return task(cells, workers)


def _dask(task: ChunkTask, chunks: list[tuple[int, pd.DataFrame]], client: Any) -> Iterator[tuple[int, pd.DataFrame]]:
    from distributed import as_completed as dask_completed

    if not chunks:
        return
    shared = client.scatter(task, broadcast=True, hash=False)
    futures = {client.submit(_call, shared, cells, 1, pure=False): k for k, cells in chunks}
    try:
        for f in dask_completed(futures):
            yield futures[f], f.result()
            f.release()
    finally:
        client.cancel(list(futures))
        shared.release()


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
        Parquet store directory: finished chunks are skipped, new ones written as they
        complete.
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
    db = None
    if store is not None:  # the cells are fingerprinted for the store only
        full = {**manifest, "analysis": analysis, "chunk_cells": size, "n_cells": n_cells, "cells_sha256": _cells_digest(cells)}
        db = SweepStore(store, full)
    done = db.completed() if db is not None else set()
    todo = [(k, cells.iloc[sl].reset_index(drop=True)) for k, sl in bounds if k not in done]
    results: dict[int, pd.DataFrame] = {}
    shots_done = replicas * sum(sl.stop - sl.start for k, sl in bounds if k in done)
    with tqdm(total=n_cells * replicas, initial=shots_done, unit="shot", unit_scale=True, desc=analysis,
              disable=not progress, delay=1.0) as bar:  # fmt: skip
        runs = _dask(task, todo, client) if client is not None else _local(task, todo, workers)
        for k, rows in runs:
            if db is not None:
                db.write(k, rows)
            else:
                results[k] = rows if columns is None else rows[list(columns)]
            sl = bounds[k][1]
            bar.update(replicas * (sl.stop - sl.start))
    # a stored sweep is always read back, so resumed and uninterrupted runs return the same frame
    frames = [db.read(k, columns) if db is not None else results[k] for k, _ in bounds]
    return pd.concat(frames, ignore_index=True)
