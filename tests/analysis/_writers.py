"""Writers of a sweep store run in their own processes (spawned: this module imports little)."""

import json
import os
import time

import numpy as np
import pandas as pd

from carromlab.analysis.store import MANIFEST, SweepStore
from carromlab.analysis.sweep import run_sweep


class _Logged:
    """A sweep task (chunks of three cells) that leaves a file named by the chunk and the
    process for each chunk it computes, and takes a while, so that writers overlap."""

    def __init__(self, log) -> None:
        self.log = log

    def __call__(self, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
        (self.log / f"{int(cells['cell'].iloc[0]) // 3}-{os.getpid()}").touch()
        time.sleep(0.15)
        return pd.DataFrame({"cell": cells["cell"].to_numpy(), "root": np.sqrt(cells["cell"].to_numpy() + 0.1)})


def logged_sweep(store, log):
    cells = pd.DataFrame({"cell": np.arange(30)})
    return run_sweep("demo", _Logged(log), cells, manifest={}, replicas=1, chunk_cells=3, client=None, workers=1,
                     store=store, progress=False)  # fmt: skip


def writer(store, log, gate, out):
    gate.wait()
    logged_sweep(store, log).to_pickle(out)


def computed(log):
    """The chunks computed, by process."""
    by = {}
    for p in log.iterdir():
        chunk, pid = map(int, p.name.split("-"))
        by.setdefault(pid, []).append(chunk)
    return by


def hold_and_die(store, chunk, held):
    """Take the lock of ``chunk`` as a writer computing it would, then die without writing it."""
    manifest = json.loads((store / MANIFEST).read_text())
    manifest.pop("fingerprint")
    assert SweepStore(store, manifest).claim(chunk) is not None
    held.set()
    time.sleep(1.0)
    os._exit(1)
