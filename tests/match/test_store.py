"""A match written to a Parquet store: the same tables as in memory, resumed after a
lost chunk by playing only that chunk, refused for different parameters."""

import warnings

import pandas as pd
import pytest

from carromlab.analysis.store import StoreWarning

from carromlab.cli import main
from carromlab.match import GreedyPolicy, play_match
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
    with pytest.raises(ValueError, match=r"'store' parameter must be a directory path .*Got 123 \(int\)"):
        _match(store=123)
