"""Backends, chunking and the resumable Parquet store give identical results."""

import json
import os

import numpy as np
import pandas as pd
import pytest

from carromlab import Scene
from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, read_store, success_map
from carromlab.analysis import success as success_module
from carromlab.analysis.breaks import break_study
from carromlab.analysis.store import MANIFEST

distributed = pytest.importorskip("distributed")


@pytest.fixture
def run_map(two_coin_scene, small_grid_args):
    grid = ShotGrid(**small_grid_args, aim="ghost")

    def run(**kw):
        opts = {"noise": NoiseModel.preset("club"), "replicas": 30, "seed": 11, "progress": False, **kw}
        return success_map(two_coin_scene, PocketPiece(0), grid, **opts)

    return run


@pytest.fixture(scope="module")
def dask_client():
    # ":0": a free port, so that another cluster on the default port 8787 does not matter
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_local_chunked_and_dask_backends_agree(run_map, dask_client, tmp_path):
    ref = run_map(workers=1)
    pd.testing.assert_frame_equal(run_map(workers=2, chunk_cells=7), ref)
    pd.testing.assert_frame_equal(run_map(client=dask_client, chunk_cells=5), ref)
    pd.testing.assert_frame_equal(run_map(client=dask_client, chunk_cells=9, store=tmp_path / "d"), ref)
    assert 0 < ref["p_success"].max() < 1  # noise matters: the comparison is not trivial


def test_break_study_agrees_across_backends(dask_client):
    grid = ShotGrid(placement=[-0.1, 0.1], angle=np.radians([-2.0, 2.0]), speed=[6.0], aim="pack")
    kw = dict(replicas=6, seed=3, progress=False)
    a = break_study(Scene.icf_break(), grid, workers=1, **kw)
    b = break_study(Scene.icf_break(), grid, client=dask_client, chunk_cells=1, **kw)
    pd.testing.assert_frame_equal(a.shots, b.shots)
    pd.testing.assert_frame_equal(a.cells, b.cells)


def test_dask_with_worker_processes(run_map):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            pd.testing.assert_frame_equal(run_map(client=client, chunk_cells=12), run_map(workers=1))


def test_client_errors(run_map, dask_client):
    with pytest.raises(ValueError, match="'client' parameter must be a dask.distributed Client"):
        run_map(client="tcp://scheduler:8786")
    with pytest.raises(ValueError, match="'workers' parameter must be None when a Dask client is given"):
        run_map(client=dask_client, workers=2)


def test_resume_after_deleted_corrupt_and_stray_files(run_map, tmp_path):
    ref = run_map()
    store = tmp_path / "map"
    first = run_map(store=store, chunk_cells=5)
    pd.testing.assert_frame_equal(first, ref)
    parts = sorted(store.glob("part-*.parquet"))
    assert len(parts) == 10 and (store / MANIFEST).is_file()
    parts[2].unlink()  # lost chunk
    parts[3].write_bytes(parts[3].read_bytes()[:100])  # a torn file: unreadable, recomputed
    (store / ".part-000004.parquet.0123.tmp").write_bytes(b"half a chunk")  # stray temporary file
    kept = {p: p.stat().st_mtime_ns for p in parts[5:]}
    pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=5), ref)
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())  # finished chunks were not rerun
    assert len(list(store.glob("part-*.parquet"))) == 10


def test_resume_after_an_interrupted_run(run_map, tmp_path, monkeypatch):
    ref = run_map()
    store = tmp_path / "map"
    original = success_module._SuccessTask.__call__
    calls = []

    def interrupted(self, cells, workers):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return original(self, cells, workers)

    monkeypatch.setattr(success_module._SuccessTask, "__call__", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_map(store=store, chunk_cells=5, workers=1)
    assert len(list(store.glob("part-*.parquet"))) == 3
    monkeypatch.setattr(success_module._SuccessTask, "__call__", original)
    pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=5), ref)


def test_store_metadata_and_mismatch(run_map, tmp_path):
    store = tmp_path / "map"
    df = run_map(store=store)
    back = read_store(store)
    pd.testing.assert_frame_equal(back, df)
    meta = back.attrs["carromlab"]
    assert meta["analysis"] == "success_map" and meta["seed"] == 11 and meta["carromlab_version"]
    assert meta["parameters"]["execution"]["noise"]["angle"] == NoiseModel.preset("club").angle
    assert json.loads((store / MANIFEST).read_text())["fingerprint"] == meta["fingerprint"]
    with pytest.raises(ValueError, match=r"holds a different sweep \(differing: .*seed"):
        run_map(store=store, seed=12)
    with pytest.raises(ValueError, match=r"differing: .*parameters\.execution\.noise\.angle"):
        run_map(store=store, noise=NoiseModel.preset("expert"))
    with pytest.raises(ValueError, match="differing: .*chunk_cells"):
        run_map(store=store, chunk_cells=3)
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(ValueError, match="'store' parameter must be a directory"):
        run_map(store=file)
    with pytest.raises(ValueError, match="'path' parameter must be a store directory"):
        read_store(tmp_path)


def test_pandas_reads_the_store_as_a_dataset(run_map, tmp_path):
    store = tmp_path / "map"
    df = run_map(store=store, chunk_cells=5)
    (store / ".part-000001.parquet.dead.tmp").write_bytes(b"junk")
    ds = pd.read_parquet(store).sort_values("cell", ignore_index=True)
    assert len(ds) == len(df) and np.allclose(ds["p_success"], df["p_success"], equal_nan=True)
    assert os.listdir(store)  # nothing else to check: pyarrow skipped the "." file
