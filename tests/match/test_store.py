"""A match written to a Parquet store: the same tables as in memory, resumed after a
lost chunk by playing only that chunk, refused for different parameters."""

import dataclasses
import gc
import tracemalloc
import warnings
import weakref
from types import SimpleNamespace

import pandas as pd
import pytest

from carromlab.analysis import store as store_module
from carromlab.analysis.store import StoreWarning, SweepStore

from carromlab.cli import main
from carromlab.match import GreedyPolicy, MatchRecord, play_match
from carromlab.match.store import MatchStore
from carromlab.match.value import shot_values
from carromlab.rules.crokinole import CrokinoleOptions

from .conftest import SEED

SMALL = CrokinoleOptions(discs_per_player=1, game_target=3)
TIMES = ["seconds", "cpu_seconds"]


def _match(**kw):
    return play_match("crokinole", 5, options=SMALL, seed=SEED, **kw)


def test_stored_tables_equal_the_tables_in_memory_and_resume_plays_only_missing_chunks(tmp_path):
    stored = _match(store=tmp_path, chunk_games=2)
    memory = _match()
    pd.testing.assert_frame_equal(stored.shots, memory.shots)
    pd.testing.assert_frame_equal(stored.boards, memory.boards)
    pd.testing.assert_frame_equal(stored.games.drop(columns=TIMES), memory.games.drop(columns=TIMES))

    parts = {t: sorted((tmp_path / t).glob("part-*.parquet")) for t in ("shots", "boards", "games")}
    assert [len(p) for p in parts.values()] == [3, 3, 3]  # games 0-1, 2-3, 4
    kept = {p: p.stat().st_mtime_ns for p in parts["games"] if p.name != "part-000001.parquet"}
    (tmp_path / "games" / "part-000001.parquet").unlink()  # as if stopped after writing chunk 1's shots
    resumed = _match(store=tmp_path, chunk_games=2)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    pd.testing.assert_frame_equal(resumed.shots, stored.shots)
    pd.testing.assert_frame_equal(resumed.games.drop(columns=TIMES), stored.games.drop(columns=TIMES))


@pytest.mark.parametrize("table", ["shots", "boards", "games"])
def test_a_damaged_part_of_any_table_is_played_again_with_a_warning(tmp_path, table):
    stored = _match(store=tmp_path, chunk_games=2)
    parts = sorted(tmp_path.glob("*/part-*.parquet"))
    kept = {p: p.stat().st_mtime_ns for p in parts if p.name != "part-000001.parquet"}
    (tmp_path / table / "part-000001.parquet").write_text("x\n")
    with pytest.warns(StoreWarning, match=f"{table}/part-000001.parquet' is unreadable"):
        resumed = _match(store=tmp_path, chunk_games=2)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept  # the sound chunks are not played again
    for name in ("shots", "boards"):
        pd.testing.assert_frame_equal(getattr(resumed, name), getattr(stored, name))
    pd.testing.assert_frame_equal(resumed.games.drop(columns=TIMES), stored.games.drop(columns=TIMES))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = _match(store=tmp_path, chunk_games=2)  # repaired: nothing to warn of, nothing played
    pd.testing.assert_frame_equal(again.shots, stored.shots)


def test_a_store_of_another_match_is_refused(tmp_path):
    _match(store=tmp_path, chunk_games=5)
    with pytest.raises(ValueError, match=r"holds a different match \(differing: .*n_games \(stored 5, given 6\)"):
        play_match("crokinole", 6, options=SMALL, seed=SEED, store=tmp_path, chunk_games=5)
    with pytest.raises(ValueError, match=r"holds a different match \(differing: .*seed \(stored \d+, given 12345\)"):
        play_match("crokinole", 5, options=SMALL, seed=12345, store=tmp_path, chunk_games=5)
    with pytest.raises(ValueError, match="'chunk_games' parameter"):
        _match(chunk_games=0)


def test_cli_match_store(tmp_path, capsys):
    store = tmp_path / "games-db"
    argv = ["match", "--variant", "crokinole", "--games", "3", "--policy", "random", "--workers", "1",
            "--store", str(store), "--chunk-games", "2", "--out", str(tmp_path)]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "wins:" in out and str(store) in out
    games = pd.read_parquet(store / "games")
    assert games["game"].tolist() == [0, 1, 2] and not (tmp_path / "match_shots.csv").exists()
    assert len(pd.read_parquet(store / "shots")) == games["n_shots"].sum()


def test_chunks_are_of_one_size_so_no_worker_waits_on_a_long_one(tmp_path):
    """Five games in chunks of at most four: two chunks of three and two games (not four
    and one, where one worker would play four games while the other waits), the same
    games as in memory."""
    stored = _match(store=tmp_path, chunk_games=4, workers=2)
    sizes = [len(pd.read_parquet(p)) for p in sorted((tmp_path / "games").glob("part-*.parquet"))]
    assert sizes == [3, 2]
    memory = _match(workers=2)
    pd.testing.assert_frame_equal(stored.games.drop(columns=TIMES), memory.games.drop(columns=TIMES))


def _value_a(states, scene, which, batch):
    return shot_values(states, scene, which, batch)


def _value_b(states, scene, which, batch):
    return -shot_values(states, scene, which, batch)


def test_a_resume_with_another_value_function_is_refused(tmp_path):
    def greedy(value):
        return play_match("crokinole", 2, options=SMALL, seed=SEED, store=tmp_path, chunk_games=1,
                          policies=GreedyPolicy(n_candidates=4, placements=1, value=value))  # fmt: skip

    first = greedy(_value_a)
    with pytest.raises(ValueError, match=r"holds a different match \(differing: .*policies\.value\.code_sha256"):
        greedy(_value_b)
    pd.testing.assert_frame_equal(greedy(_value_a).shots, first.shots)  # the same function resumes


def test_the_store_must_be_a_directory_path(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("x")
    with pytest.raises(ValueError, match="'store' parameter must be a directory. Got the file '.*notes.txt'"):
        _match(store=file)
    with pytest.raises(ValueError, match="'store' parameter must be a directory that can be created. Got '.*notes.txt/games'"):
        _match(store=file / "games")
    with pytest.raises(TypeError, match=r"'store' parameter must be a str or PathLike \(a directory path\)\. Got 123 \(int\)"):
        _match(store=123)


def test_the_cli_reads_the_boards_and_games_of_its_store_never_the_shots(tmp_path, monkeypatch):
    """The summary and the plot need the boards and games only: the shots of a large store
    (3.7 GB for 10,000 random ICF games) are checked part by part but never loaded."""
    read = []
    original = SweepStore.read
    monkeypatch.setattr(SweepStore, "read", lambda self, *args, **kw: read.append(self.path.name) or original(self, *args, **kw))
    argv = ["match", "--variant", "crokinole", "--games", "3", "--policy", "random", "--workers", "1",
            "--store", str(tmp_path / "db"), "--chunk-games", "2", "--out", str(tmp_path), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    assert sorted(set(read)) == ["boards", "games"] and read.count("games") == 2  # each table read once: two chunks


def _shots_bytes(shots):
    return int(shots.memory_usage(deep=True).sum())


def test_a_stored_record_reads_a_table_when_first_used_and_equal_to_what_was_written(tmp_path):
    """A synthetic store whose shots are large: its boards and games are read, and the record
    shown, with a small fraction of the shots' memory (tracemalloc), and each table is the
    one written; reading the shots does take their memory (the measure sees them)."""
    rec = _match()
    shots = pd.concat([rec.shots] * max(1, 20_000 // len(rec.shots)), ignore_index=True)
    db = MatchStore(tmp_path, {"synthetic": 1})
    for k in range(4):
        db.write(k, [SimpleNamespace(shots=shots, boards=rec.boards, games=rec.games)])
    size = 4 * _shots_bytes(shots)
    tracemalloc.start()
    try:
        stored = db.read()
        text = repr(stored)
        boards, games = stored.boards, stored.games
        light = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        heavy = stored.shots
        loaded = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert light < 0.05 * size < 0.5 * size < loaded, (light, loaded, size)
    assert text.endswith(f"{4 * len(rec.boards)} boards, {4 * int(rec.games['n_shots'].sum())} shots)")
    for got, table in ((heavy, shots), (boards, rec.boards), (games, rec.games)):
        pd.testing.assert_frame_equal(got, pd.concat([table] * 4, ignore_index=True))
    assert stored.shots is heavy  # read once, then kept


def test_a_stored_match_holds_no_chunk_after_writing_it(tmp_path, monkeypatch):
    """With a store and worker processes, the records of a chunk are dropped once written:
    none of an earlier chunk is alive when the next is written (the finished futures held
    them all until the match ended: 1.8 GB in the parent for 2,000 random ICF games)."""
    written = []
    write = MatchStore.write

    def spy(self, chunk, records):
        gc.collect()
        assert [chunk for chunk, alive in written if alive() is not None] == []
        written.append((chunk, weakref.ref(records[0])))
        write(self, chunk, records)

    monkeypatch.setattr(MatchStore, "write", spy)
    _match(store=tmp_path, chunk_games=1, workers=2)
    assert sorted(chunk for chunk, _ in written) == [0, 1, 2, 3, 4]


@pytest.fixture
def loads(tmp_path, monkeypatch):
    """The store paths (relative to tmp_path) of the parts read in full, in order."""
    read = []
    load = store_module._load
    monkeypatch.setattr(store_module, "_load", lambda path, *a: read.append(str(path.relative_to(tmp_path))) or load(path, *a))
    return read


def test_a_resume_reads_no_part_in_full_and_a_table_only_when_used(tmp_path, loads):
    """A resume finds its finished chunks from the parts' footers (it read every part of
    every table in full); a table's parts are read, once, when the table is first used."""
    _match(store=tmp_path, chunk_games=2)
    assert loads == []  # three chunks written, none read
    resumed = _match(store=tmp_path, chunk_games=2)
    assert loads == []
    assert len(resumed.games) == 5 and loads == [f"games/part-00000{k}.parquet" for k in range(3)]


def test_a_store_checks_the_chunks_another_writer_added(tmp_path, loads):
    """A chunk written by another store of the same match since this one looked is found
    when read: a sound one is included, a damaged one left out with a warning."""
    rec = _match()
    db, other = MatchStore(tmp_path, {"synthetic": 1}), MatchStore(tmp_path, {"synthetic": 1})
    db.write(0, [rec])
    for k in (1, 2):
        other.write(k, [rec])
    (tmp_path / "boards" / "part-000002.parquet").write_text("x\n")
    with pytest.warns(StoreWarning, match="boards/part-000002.parquet' is unreadable"):
        stored = db.read()
    pd.testing.assert_frame_equal(stored.games, pd.concat([rec.games] * 2, ignore_index=True))
    assert loads == ["games/part-000000.parquet", "games/part-000001.parquet"]


def test_a_part_with_corrupt_data_is_refused_naming_it_and_replayed_once_deleted(tmp_path):
    """Data pages damaged behind an intact footer are found when the table is read (their
    checksums): a ValueError names the part and says how to recover."""
    stored = _match(store=tmp_path, chunk_games=2)
    part = tmp_path / "shots" / "part-000001.parquet"
    raw = bytearray(part.read_bytes())
    footer = int.from_bytes(raw[-8:-4], "little")
    mid = (4 + len(raw) - 8 - footer) // 2
    raw[mid : mid + 64] = bytes(64)
    part.write_bytes(bytes(raw))
    resumed = _match(store=tmp_path, chunk_games=2)
    with pytest.raises(ValueError, match=r"part '.*shots/part-000001\.parquet' is unreadable .*delete the file and rerun"):
        resumed.shots
    part.unlink()
    pd.testing.assert_frame_equal(_match(store=tmp_path, chunk_games=2).shots, stored.shots)


def test_dataclasses_replace_gives_a_record_of_the_stored_tables_and_the_replaced_one(tmp_path):
    """dataclasses.replace on the record of a store (whose constructor took the store, so
    replace raised a TypeError) reads the tables not replaced, whether or not read before."""
    memory = _match()
    stored = _match(store=tmp_path, chunk_games=2)
    fresh = dataclasses.replace(stored, shots=memory.shots.head(3))  # no table read yet
    assert isinstance(fresh, MatchRecord) and fresh.shots is not stored.shots and len(fresh.shots) == 3
    pd.testing.assert_frame_equal(fresh.boards, memory.boards)
    pd.testing.assert_frame_equal(fresh.games.drop(columns=TIMES), memory.games.drop(columns=TIMES))
    games = stored.games.head(2)
    again = dataclasses.replace(stored, games=games)
    assert again.games is games and again.boards is stored.boards
    pd.testing.assert_frame_equal(again.shots, memory.shots)
