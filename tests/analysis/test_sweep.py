"""Backends, chunking and the resumable Parquet store give identical results."""

import functools
import json
import multiprocessing
import os
import shutil
import threading
import time
import warnings

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from carromlab import Scene
from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, read_store, success_map
from carromlab.analysis import success as success_module
from carromlab.analysis.breaks import break_study
from carromlab.analysis import store as store_module
from carromlab.analysis.store import MANIFEST, StoreWarning, SweepStore, describe
from carromlab.analysis.sweep import run_sweep

from ._writers import computed, hold_and_die, logged_sweep, writer

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
    with pytest.raises(TypeError, match=r"'client' parameter must be a Client or None \(dask\.distributed\)\. Got 'tcp://scheduler:8786' \(str\)"):
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
    with pytest.warns(StoreWarning, match="part-000003.parquet' is unreadable"):
        pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=5), ref)
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())  # finished chunks were not rerun
    assert len(list(store.glob("part-*.parquet"))) == 10


def test_resume_after_an_interrupted_run(run_map, tmp_path, monkeypatch):
    ref = run_map()
    store = tmp_path / "map"
    original = success_module.SuccessTask.__call__
    calls = []

    def interrupted(self, cells, workers):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return original(self, cells, workers)

    monkeypatch.setattr(success_module.SuccessTask, "__call__", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_map(store=store, chunk_cells=5, workers=1)
    assert len(list(store.glob("part-*.parquet"))) == 3
    monkeypatch.setattr(success_module.SuccessTask, "__call__", original)
    pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=5), ref)


def test_a_full_disk_names_the_part_and_keeps_the_parts_written(run_map, tmp_path, monkeypatch):
    """pyarrow's error was "[Errno 28] No space left on device", naming no file."""
    ref = run_map()
    store = tmp_path / "map"
    original, calls = pq.write_table, []

    def fills_the_disk(table, where, **kw):
        calls.append(1)
        if len(calls) == 3:
            where.write(b"PAR1 half a part")
            raise OSError(28, "No space left on device")
        return original(table, where, **kw)

    monkeypatch.setattr(store_module.pq, "write_table", fills_the_disk)
    with pytest.raises(OSError, match=r"^\[Errno 28\] No space left on device: '.*part-000002\.parquet'$"):
        run_map(store=store, chunk_cells=5, workers=1)
    assert sorted(p.name for p in store.iterdir() if p.name.startswith("part")) == ["part-000000.parquet", "part-000001.parquet"]
    assert not list(store.glob(".*.tmp"))
    monkeypatch.setattr(store_module.pq, "write_table", original)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the parts written are whole
        pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=5), ref)


def test_store_metadata_and_mismatch(run_map, tmp_path):
    store = tmp_path / "map"
    df = run_map(store=store)
    back = read_store(store)
    pd.testing.assert_frame_equal(back, df, check_frame_type=False)  # success_map's frame displays itself
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


def test_a_mismatch_names_the_first_differences_and_counts_the_rest(tmp_path):
    """A break study resumed on the Hikone board listed 45 entries, a 3,000-character line."""
    SweepStore(tmp_path, {"board": {f"mark{i:02d}": 0.1 for i in range(20)}, "seed": 0})
    with pytest.raises(ValueError, match=r"\(differing: board\.mark00 \(stored 0\.1, given 0\.2\), .*board\.mark05 \(stored 0\.1, given 0\.2\) and 15 more\)\.") as info:
        SweepStore(tmp_path, {"board": {f"mark{i:02d}": 0.2 for i in range(20)}, "seed": 1})
    assert len(str(info.value)) < 500


def test_pandas_reads_the_store_as_a_dataset(run_map, tmp_path):
    store = tmp_path / "map"
    df = run_map(store=store, chunk_cells=5)
    (store / ".part-000001.parquet.dead.tmp").write_bytes(b"junk")
    ds = pd.read_parquet(store).sort_values("cell", ignore_index=True)
    assert len(ds) == len(df) and np.allclose(ds["p_success"], df["p_success"], equal_nan=True)
    assert os.listdir(store)  # nothing else to check: pyarrow skipped the "." file


def _data_region(path):
    """Byte range of a Parquet file between its leading magic and its footer."""
    raw = path.read_bytes()
    footer = int.from_bytes(raw[-8:-4], "little")
    return 4, len(raw) - 8 - footer


def test_a_part_with_corrupt_data_pages_and_an_intact_footer_is_recomputed(run_map, tmp_path):
    ref = run_map()
    store = tmp_path / "map"
    run_map(store=store, chunk_cells=5)
    part = store / "part-000004.parquet"
    start, stop = _data_region(part)
    raw = bytearray(part.read_bytes())
    mid = (start + stop) // 2
    raw[mid : mid + 64] = bytes(64)
    part.write_bytes(bytes(raw))
    assert pq.read_schema(part).metadata  # the footer still reads
    with pytest.warns(StoreWarning, match="part-000004.parquet' is unreadable"):
        pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=5), ref)
    pq.read_table(part, page_checksum_verification=True)  # rewritten whole


def test_a_part_holding_another_chunks_rows_is_recomputed(run_map, tmp_path):
    ref = run_map()
    store = tmp_path / "map"
    run_map(store=store, chunk_cells=5)
    (store / "part-000006.parquet").write_bytes((store / "part-000002.parquet").read_bytes())
    with pytest.warns(StoreWarning, match="part-000006.parquet' holds the rows of chunk 2, not 6"):
        out = run_map(store=store, chunk_cells=5)
    pd.testing.assert_frame_equal(out, ref)
    assert not out.duplicated(["cell"]).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.testing.assert_frame_equal(read_store(store), ref, check_frame_type=False)


class _Rows:
    """A sweep task whose rows carry the seed they were made with."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, cells: pd.DataFrame, workers: int) -> pd.DataFrame:
        return pd.DataFrame({"cell": cells["cell"].to_numpy(), "seed": self.seed})


def _sweep(store, seed, n=24):
    cells = pd.DataFrame({"cell": np.arange(n)})
    return run_sweep("demo", _Rows(seed), cells, manifest={"seed": seed}, replicas=1, chunk_cells=3,
                     client=None, workers=1, store=store, progress=False)  # fmt: skip


def _race(store, seeds):
    """Run one sweep per seed on threads started together; each gives its rows or its error."""
    gate = threading.Barrier(len(seeds))
    out: list[object] = [None] * len(seeds)

    def one(i):
        gate.wait()
        try:
            out[i] = _sweep(store, seeds[i])
        except ValueError as exc:
            out[i] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(seeds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_two_writers_with_different_seeds_never_share_a_new_store(tmp_path):
    for trial in range(30):
        out = _race(tmp_path / f"s{trial}", [1, 2])
        won = [(seed, r) for seed, r in zip([1, 2], out) if isinstance(r, pd.DataFrame)]
        lost = [r for r in out if isinstance(r, ValueError)]
        assert len(won) == 1 and len(lost) == 1, (trial, out)
        seed, rows = won[0]
        assert f"holds a different sweep (differing: seed (stored {seed}, given {3 - seed}))" in str(lost[0])
        assert (rows["seed"] == seed).all() and rows["cell"].tolist() == list(range(24))


def test_two_writers_with_the_same_parameters_share_a_store(tmp_path):
    for trial in range(10):
        a, b = _race(tmp_path / f"s{trial}", [5, 5])
        pd.testing.assert_frame_equal(a, b)
        assert (a["seed"] == 5).all() and a["cell"].tolist() == list(range(24))


def test_a_truncated_manifest_is_a_clear_error(tmp_path):
    store = tmp_path / "s"
    ref = _sweep(store, 1)
    manifest = store / MANIFEST
    kept = {p: p.stat().st_mtime_ns for p in store.glob("part-*.parquet")}
    manifest.write_bytes(manifest.read_bytes()[:40])
    with pytest.raises(ValueError, match=rf"manifest '.*{MANIFEST}' is damaged .*delete {MANIFEST} and rerun"):
        _sweep(store, 1)
    with pytest.raises(ValueError, match=rf"manifest '.*{MANIFEST}' is damaged"):
        read_store(store)
    manifest.unlink()  # the recovery the message suggests: the finished parts are kept
    pd.testing.assert_frame_equal(_sweep(store, 1), ref)
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())


class _Fussy:
    """A foul check that is not a dataclass, with a repr that hides its threshold."""

    def __init__(self, speed: float) -> None:
        self.speed = speed

    def __repr__(self) -> str:
        return "_Fussy()"

    @property
    def needs_final_positions(self) -> bool:
        return False

    def __call__(self, scene, batch):
        return np.full(len(batch), self.speed < 3.0)  # every shot a foul below 3


def test_a_custom_foul_check_is_fingerprinted_by_its_state_and_code(two_coin_scene, small_grid_args, tmp_path):
    grid = ShotGrid(**small_grid_args, aim="ghost")
    store = tmp_path / "map"
    kw = dict(replicas=4, seed=1, progress=False, store=store)
    first = success_map(two_coin_scene, PocketPiece(0, fouls=_Fussy(5.0)), grid, **kw)
    pd.testing.assert_frame_equal(success_map(two_coin_scene, PocketPiece(0, fouls=_Fussy(5.0)), grid, **kw), first)
    with pytest.raises(ValueError, match=r"differing: parameters\.goal\.fouls\.state\.speed"):
        success_map(two_coin_scene, PocketPiece(0, fouls=_Fussy(1.0)), grid, **kw)
    # the same repr and state but other code (classes without source: their bytecode)
    made = []
    for body in ("return np.zeros(len(batch), bool)", "return np.ones(len(batch), bool)", "return np.zeros(len(batch), bool)"):
        space: dict = {"__name__": "typed_in_a_session"}
        exec(f"class Check:\n    def __call__(self, scene, batch):\n        {body}\n", space)
        made.append(describe(space["Check"]()))
    assert made[0] == made[2] != made[1]
    assert describe(_Fussy(1.0)) == describe(_Fussy(1.0)) != describe(_Fussy(2.0))


def _value_a(states, scene, which, batch):
    return np.zeros(len(batch))


def _value_b(states, scene, which, batch):
    return np.ones(len(batch))


def _scaled(k):
    def value(states, scene, which, batch):
        return k * np.ones(len(batch))

    return value


def _recursive():
    def count(n):
        return 0 if n == 0 else 1 + count(n - 1)

    return count


def test_functions_are_described_by_code_defaults_and_closure():
    assert describe(_value_a) == describe(_value_a) != describe(_value_b)
    assert describe(_value_a)["function"].endswith("test_sweep._value_a")
    assert describe(_scaled(1)) != describe(_scaled(2))  # the same code, another closure value
    assert describe(functools.partial(_value_a, 1)) != describe(functools.partial(_value_a, 2))
    assert describe(lambda x=1: x) != describe(lambda x=2: x)  # defaults
    assert describe(_recursive())["closure"]["count"] == {"cycle": "function"}  # named, not followed forever


def test_an_object_that_cannot_be_described_is_refused_with_a_store(two_coin_scene, tmp_path):
    class Silent:  # no attributes, and the default repr: only a memory address
        __slots__ = ()
        needs_final_positions = False

        def __call__(self, scene, batch):
            return np.zeros(len(batch), bool)

    grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[2.0], aim="ghost")
    kw = dict(replicas=2, progress=False)
    success_map(two_coin_scene, PocketPiece(0, fouls=Silent()), grid, **kw)  # without a store: fine
    with pytest.raises(ValueError, match=r"'goal\.fouls' parameter must be an object a store can describe.*Silent"):
        success_map(two_coin_scene, PocketPiece(0, fouls=Silent()), grid, store=tmp_path / "s", **kw)
    with pytest.raises(ValueError, match=r"'value\.__self__' parameter .*Generator"):
        describe(np.random.default_rng(0).random, "value")


def test_break_study_stores_a_numpy_seed(tmp_path):
    grid = ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack")
    kw = dict(replicas=2, progress=False)
    stored = break_study(Scene.icf_break(), grid, seed=np.int64(2), store=tmp_path, **kw)
    assert read_store(tmp_path).attrs["carromlab"]["seed"] == 2
    pd.testing.assert_frame_equal(stored.shots, break_study(Scene.icf_break(), grid, seed=2, **kw).shots)


def test_stale_temporary_files_of_killed_writes_are_removed_on_open(run_map, tmp_path):
    store = tmp_path / "map"
    ref = run_map(store=store, chunk_cells=24)
    hour_ago = time.time() - 3600
    stale = [store / f".part-000001.parquet.{'a' * 32}.tmp", store / f".{MANIFEST}.{'b' * 32}.tmp"]
    young = store / f".part-000000.parquet.{'c' * 32}.tmp"  # perhaps another writer's, being written
    foreign = store / ".notes.tmp"  # not a name the store gives
    for p in [*stale, young, foreign]:
        p.write_bytes(b"half a chunk")
    for p in [*stale, foreign]:
        os.utime(p, (hour_ago, hour_ago))
    pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=24), ref)
    assert not any(p.exists() for p in stale) and young.exists() and foreign.exists()


def test_parts_past_chunk_999999_are_found_and_read_in_chunk_order(tmp_path):
    """A part's name has six digits up to chunk 999999 and more after (part-1000000 sorts
    before part-100001 by name): every part is found, read in chunk order, and a killed
    write's temporary file of a long name is removed too."""
    db = SweepStore(tmp_path, {"analysis": "demo"})
    chunks = [1_000_001, 7, 999_999, 1_000_000, 100_001, 12_345_678]
    for k in chunks:
        db.write(k, pd.DataFrame({"chunk": [k]}))
    stale = tmp_path / f".part-1000002.parquet.{'a' * 32}.tmp"
    stale.write_bytes(b"half a chunk")
    os.utime(stale, (time.time() - 3600,) * 2)
    assert SweepStore(tmp_path, {"analysis": "demo"}).completed() == set(chunks)
    assert read_store(tmp_path)["chunk"].tolist() == sorted(chunks)
    assert not stale.exists()


def test_a_stray_part_is_ignored_and_the_warning_points_at_the_caller(run_map, tmp_path):
    store = tmp_path / "map"
    ref = run_map(store=store, chunk_cells=24)
    (store / "part-000099.parquet").write_bytes((store / "part-000001.parquet").read_bytes())
    with pytest.warns(StoreWarning, match=r"part-000099.parquet' holds the rows of chunk 1, not 99: ignored") as record:
        pd.testing.assert_frame_equal(run_map(store=store, chunk_cells=24), ref)
    assert "recomputed by a rerun" not in str(record[0].message)
    assert record[0].filename == __file__  # the user's line, not carromlab's
    with pytest.warns(StoreWarning, match="part-000099.parquet' .*ignored") as record:
        read_store(store)
    assert record[0].filename == __file__


def test_resume_finds_the_finished_chunks_without_reading_their_data(tmp_path, monkeypatch):
    """completed() reads each part's footer (its chunk, fingerprint and schema), never its
    data pages: a resume of a store of 100 parts spent seconds reading every part in full
    before it started. A part whose footer is gone (a torn file) or names another chunk is
    still found, and named."""
    db = SweepStore(tmp_path, {"analysis": "demo"})
    for k in range(6):
        db.write(k, pd.DataFrame({"x": np.arange(1000, dtype=float) + k}))
    part = tmp_path / "part-000002.parquet"
    part.write_bytes(part.read_bytes()[:-20])  # the end of its footer lost
    (tmp_path / "part-000005.parquet").write_bytes((tmp_path / "part-000004.parquet").read_bytes())

    def no_data(*args, **kw):
        raise AssertionError("a part's data was read")

    monkeypatch.setattr(pq, "read_table", no_data)
    monkeypatch.setattr(pq.ParquetFile, "read", no_data)
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", no_data)
    with pytest.warns(StoreWarning) as record:
        assert SweepStore(tmp_path, {"analysis": "demo"}).completed() == {0, 1, 3, 4}
    assert [str(w.message).split(": ")[0] for w in record] == [
        f"The part {str(part)!r} is unreadable (ArrowInvalid",
        f"The part {str(tmp_path / 'part-000005.parquet')!r} holds the rows of chunk 4, not 5",
    ]


@pytest.mark.parametrize("stored", [False, True])
def test_a_sweep_keeps_only_the_columns_asked_for_and_its_store_every_column(tmp_path, stored):
    cells = pd.DataFrame({"cell": np.arange(10)})

    def sweep(**kw):
        return run_sweep("demo", _Rows(4), cells, manifest={}, replicas=1, chunk_cells=3, client=None, workers=1,
                         store=tmp_path if stored else None, progress=False, **kw)  # fmt: skip

    full = sweep()
    pd.testing.assert_frame_equal(sweep(columns=["seed"]), full[["seed"]])
    if stored:
        assert list(pd.read_parquet(tmp_path)) == ["cell", "seed"]
        with pytest.raises(ValueError, match=r"part-000000.parquet' has no column 'z' \(named by the 'columns' parameter\)"):
            sweep(columns=["z"])


def test_two_writer_processes_compute_each_chunk_once_and_return_the_same_rows(tmp_path):
    """Two processes resuming one store (two notebooks, say) each computed every missing
    chunk: the same rows, written twice. Now each chunk is computed by one of them, and
    both return the rows of a single writer, bit for bit."""
    ref = logged_sweep(tmp_path / "alone", tmp_path)
    for p in tmp_path.iterdir():
        if p.is_file():
            p.unlink()
    ctx = multiprocessing.get_context("spawn")  # no fork of this process's threads (a Dask cluster's)
    gate, log, store = ctx.Barrier(2), tmp_path / "log", tmp_path / "shared"
    log.mkdir()
    writers = [ctx.Process(target=writer, args=(store, log, gate, tmp_path / f"out{i}.pkl")) for i in range(2)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(120)
    assert [w.exitcode for w in writers] == [0, 0]
    chunks = sorted(k for ks in computed(log).values() for k in ks)
    assert chunks == list(range(10)), computed(log)  # each chunk once (it was twice each)
    for i in range(2):
        pd.testing.assert_frame_equal(pd.read_pickle(tmp_path / f"out{i}.pkl"), ref, check_exact=True)
    assert sorted(p.name for p in store.iterdir()) == [".carromlab_sweep.lock", MANIFEST] + [f"part-{k:06d}.parquet" for k in range(10)]


def test_a_writer_waits_for_a_chunk_another_holds_and_computes_it_if_that_writer_dies(tmp_path):
    """A chunk whose lock another writer holds is left to it and awaited; when that writer
    dies without writing the part (the system releases its lock, its lock file stays), this
    writer computes the chunk."""
    store, log = tmp_path / "s", tmp_path / "log"
    log.mkdir()
    ref = logged_sweep(store, log)
    for k in (2, 5):
        (store / f"part-00000{k}.parquet").unlink()
    ctx = multiprocessing.get_context("spawn")
    held = ctx.Event()
    dying = ctx.Process(target=hold_and_die, args=(store, 2, held))
    dying.start()
    assert held.wait(60)
    shutil.rmtree(log)
    log.mkdir()
    out = logged_sweep(store, log)
    dying.join(60)
    assert dying.exitcode == 1
    pd.testing.assert_frame_equal(out, ref, check_exact=True)
    assert sorted(computed(log)[os.getpid()]) == [2, 5]
    assert not list(store.glob(".part-*.lock"))  # removed once their parts were written
