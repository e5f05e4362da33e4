"""Games in lockstep: a game played alone and the same game played among 63 others (one
engine batch and one array adjudication per step) reproduce each other shot for shot."""

import pytest
from pandas.testing import assert_frame_equal

from carromlab import Shot
from carromlab.analysis.noise import NoiseModel
from carromlab.match import Game, RandomPolicy, game_seed, new_state, play_game
from carromlab.match.lockstep import play_games, step

from .conftest import SEED

TIMING = ["seconds", "cpu_seconds"]


def _games(variant, players, n, **kw):
    return [Game(new_state(variant, players), RandomPolicy(), seed=game_seed(SEED, g), game=g, **kw) for g in range(n)]


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("online", 2), ("icf", 4), ("hikone", 4), ("crokinole", 4)])
def test_a_game_among_63_others_plays_the_shots_it_plays_alone(variant, players):
    kw = {"noise": NoiseModel.preset("club"), "max_shots_per_board": 30, "max_boards": 1}
    many = _games(variant, players, 64, **kw)
    play_games(many)
    for g in (0, 17, 63):
        alone = play_game(new_state(variant, players), RandomPolicy(), seed=game_seed(SEED, g), game=g, **kw)
        rec = many[g].record()
        assert 20 <= len(alone.shots) <= 30  # crokinole: a 4-player board is 24 shots
        assert_frame_equal(rec.shots, alone.shots)
        assert_frame_equal(rec.boards, alone.boards)
        assert_frame_equal(rec.games.drop(columns=TIMING), alone.games.drop(columns=TIMING))
        assert rec.state == alone.state


def test_games_that_end_leave_the_step_and_the_others_go_on():
    games = _games("icf", 2, 3, max_shots_per_board=5, max_boards=1)
    games[1].settings = games[1].settings.__class__(**{**games[1].settings.__dict__, "max_shots_per_board": 2})
    play_games(games)
    assert [g.n_shots for g in games] == [5, 2, 5] and all(g.end == "abandoned" for g in games)
    with pytest.raises(ValueError, match="over"):
        step(games[:1])


def test_step_refuses_a_wrong_number_of_intended_shots():
    with pytest.raises(ValueError, match="'intended'"):
        step(_games("icf", 2, 2), [None])


def test_step_refuses_a_game_twice_and_plays_no_game_as_no_shot():
    games = _games("icf", 2, 2)
    with pytest.raises(ValueError, match=r"'games' parameter must hold distinct Game objects. Got game 1 twice .*positions 1 and 2"):
        step([games[0], games[1], games[1]])
    assert [g.n_shots for g in games] == [0, 0] and games[1].record().shots.empty  # nothing recorded
    assert step([]) == [] and step([], []) == []
    with pytest.raises(ValueError, match="'intended'"):
        step([], [Shot(0.0, -0.25, 1.5, 2.0)])


def test_choose_many_gives_each_state_the_shot_choose_gives_it_alone():
    import numpy as np

    from carromlab.match import GreedyPolicy
    from carromlab.rules.arrays import GameArrays

    for variant in ("icf", "hikone", "online"):
        states = [new_state(variant), new_state(variant).with_(shooter=1), new_state(variant)]
        for policy in (RandomPolicy(), GreedyPolicy(n_candidates=30)):
            many = policy.choose_many(GameArrays.from_states(states), [np.random.default_rng(k) for k in range(3)])
            assert [Shot(*row) for row in many.tolist()] == [policy.choose(s, np.random.default_rng(k)) for k, s in enumerate(states)]


def _same_arrays(a, b):
    """Whether two GameArrays hold the same games (colours compared as names)."""
    import numpy as np
    from dataclasses import fields

    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "palette":
            continue
        if f.name in ("kind", "colours"):  # indices into the palettes
            x, y = np.array(a.palette)[x], np.array(b.palette)[y]
        if isinstance(x, np.ndarray):
            assert x.shape == y.shape and x.dtype == y.dtype, f.name
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f.name
        else:
            assert x == y, f.name


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("online", 2), ("icf", 4), ("hikone", 4), ("crokinole", 4)])
def test_stacked_rows_of_several_steps_are_the_arrays_of_the_states(variant, players):
    from carromlab.match.lockstep import stacked
    from carromlab.rules.arrays import GameArrays

    games = _games(variant, players, 6, max_shots_per_board=40)
    for _ in range(3):
        step(games)
    for _ in range(2):  # games 0-2, 2-4 and 5 last stepped in different steps
        step(games[:3])
        step(games[2:5])
    games.append(_games(variant, players, 1)[0])  # a new game: no arrays yet
    order = [3, 6, 0, 5, 1, 4, 2]
    picked = [games[k] for k in order]
    assert len({id(g.arrays[0]) for g in picked if g.arrays is not None}) == 3
    want = GameArrays.from_states([g.state for g in picked])
    got = stacked(picked)
    _same_arrays(got, want)
    assert got.to_states() == [g.state for g in picked]
    _same_arrays(stacked(games[:3]), GameArrays.from_states([g.state for g in games[:3]]))


def test_stacking_refuses_games_that_cannot_share_arrays():
    from carromlab.match.lockstep import stacked
    from carromlab.rules.arrays import GameArrays

    icf, online = (GameArrays.from_states([new_state(v)]) for v in ("icf", "online"))
    with pytest.raises(ValueError, match=r"'parts\[1\]'.*variant"):
        GameArrays.concat([icf, online])
    with pytest.raises(ValueError, match="'parts'"):
        GameArrays.concat([])
    with pytest.raises(ValueError, match="'games'"):
        stacked([])


def test_lockstep_games_share_the_time_of_each_step(monkeypatch):
    """Each game is charged its share of every step it played: the games' times add up to
    the time the steps took (not each game the whole chunk's time), and a game that ended
    early is charged less than one that played on. The clocks are a fake that ticks 1 s
    per reading (each step reads each clock twice), so the sums are exact."""
    import types

    from carromlab.match import lockstep

    ticks = {"wall": 0.0, "cpu": 0.0, "steps": 0}

    def reading(name):
        def read():
            ticks[name] += 1.0
            if name == "wall" and ticks[name] % 2 == 0:
                ticks["steps"] += 1
            return ticks[name]
        return read

    monkeypatch.setattr(lockstep, "time", types.SimpleNamespace(perf_counter=reading("wall"), process_time=reading("cpu")))
    games = _games("icf", 2, 8, max_shots_per_board=6, max_boards=1)
    games[0].settings = games[0].settings.__class__(**{**games[0].settings.__dict__, "max_shots_per_board": 2})
    play_games(games)
    rows = [g.record().games.iloc[0] for g in games]
    assert ticks["steps"] >= 6
    assert sum(r["seconds"] for r in rows) == pytest.approx(ticks["steps"], rel=1e-12)
    assert sum(r["cpu_seconds"] for r in rows) == pytest.approx(ticks["steps"], rel=1e-12)
    assert rows[0]["cpu_seconds"] < min(r["cpu_seconds"] for r in rows[1:])

def test_grouping_merges_equal_policies_and_keeps_unhashable_ones_by_object():
    from carromlab.match.lockstep import _grouped

    a, b, other = RandomPolicy(), RandomPolicy(), RandomPolicy(name="other")
    u, v = [a], [a]  # equal but unhashable: grouped by object only
    items = [a, other, b, u, a, v, u]
    hashes = [hash(a), hash(other), hash(b), None, hash(a), None, None]
    groups = _grouped(items, hashes)
    assert [(id(item), rows) for item, rows in groups] == [(id(a), [0, 2, 4]), (id(other), [1]), (id(u), [3, 6]), (id(v), [5])]
    assert [rows for _, rows in _grouped([b] * 3, [hash(b)] * 3)] == [[0, 1, 2]]


def test_a_game_keeps_its_policies_and_physics_hashes():
    g = _games("icf", 2, 1)[0]
    assert g.settings.policy_hashes == (hash(g.settings.policies[0]),) * 2
    assert g.settings.params_hash == hash(g.settings.params)
