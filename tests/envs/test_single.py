"""The Gymnasium environment: the checker, registration, seeded replays, rewards against
the game record, and illegal actions."""

import dataclasses
import math
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import gymnasium
import numpy as np
import pandas as pd
import pytest
from gymnasium.utils.env_checker import check_env

from carromlab.analysis.noise import NoiseModel
from carromlab.envs import ENV_IDS, CarromEnv, RewardWeights, observation_space, observe, shot_of_action, shot_reward
from carromlab.match import Game, MatchClock, RandomPolicy, new_state
from carromlab.rules import check_placement
from carromlab.rules.crokinole import CrokinoleOptions
from carromlab.match.scene import shot_radius

from .conftest import SEED

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

SMALL_CROKINOLE = CrokinoleOptions(discs_per_player=2, game_target=5)


@pytest.mark.parametrize("variant", ["icf", "online", "hikone", "crokinole"])
def test_check_env_every_variant(variant):
    check_env(CarromEnv(variant, opponent="random"), skip_render_check=True)


def test_check_env_greedy_doubles():
    check_env(CarromEnv("icf", players=4, seat=1, opponent="greedy", skill="expert"), skip_render_check=True)


def test_pyproject_entry_point_registers_every_id():
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    (name, target), = project["project"]["entry-points"]["gymnasium.envs"].items()
    assert name == "carromlab"
    for env_id in ENV_IDS.values():
        gymnasium.registry.pop(env_id, None)
    EntryPoint(name, target, "gymnasium.envs").load()()
    for variant, env_id in ENV_IDS.items():
        env = gymnasium.make(env_id, opponent="random")
        assert env.unwrapped.game is None and env.unwrapped._start.variant == variant
        assert env.spec.id == env_id


def _episode(env, seed, n_steps):
    """Play up to n_steps seeded random actions; observations, rewards, ends."""
    obs, info = env.reset(seed=seed)
    actions = np.random.default_rng(seed).uniform(-1, 1, (n_steps, 4)).astype(np.float32)
    trace = [(obs, 0.0, False, False)]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        trace.append((obs, reward, terminated, truncated))
        if terminated or truncated:
            break
    return trace


def _same(a, b):
    return all(np.array_equal(a[0][k], b[0][k]) for k in a[0]) and a[1:] == b[1:]


def test_seeded_reset_replays_the_game():
    first = _episode(CarromEnv("hikone", opponent="greedy"), SEED, 6)
    again = _episode(CarromEnv("hikone", opponent="greedy"), SEED, 6)
    other = _episode(CarromEnv("hikone", opponent="greedy"), SEED + 1, 6)
    assert len(first) == len(again) and all(_same(a, b) for a, b in zip(first, again))
    assert not all(_same(a, b) for a, b in zip(first, other))


def _rewards_from_record(env, weights):
    """The agent team's reward, recomputed from the game's tables (two teams)."""
    record = env.game.record()
    shots = record.shots
    mine = np.where(shots["team"] == env.team, 1, -1)
    net = shots["own_pocketed"] - shots["own_returned"] - shots["opponent_pocketed"] + shots["opponent_returned"]
    pieces = float((mine * net).sum())
    final = record.games.iloc[0]
    margin = final[f"score_{env.team}"] - final[f"score_{1 - env.team}"]
    winner = final["winner"]
    win = 0 if pd.isna(winner) else (1 if winner == env.team else -1)
    return weights.pieces * pieces + weights.points * float(margin) + weights.win * win


@pytest.mark.parametrize(
    ("variant", "kwargs"),
    [("crokinole", {"options": SMALL_CROKINOLE}), ("icf", {"max_shots_per_board": 40}), ("hikone", {"seat": 1, "max_shots_per_board": 60})],
)
def test_rewards_add_up_to_the_game_record(variant, kwargs):
    weights = RewardWeights(pieces=1.0, points=0.5, win=7.0)
    env = CarromEnv(variant, opponent="random", rewards=weights, **kwargs)
    trace = _episode(env, SEED, 400)
    assert trace[-1][2] or trace[-1][3]
    assert math.isclose(sum(r for _, r, _, _ in trace), _rewards_from_record(env, weights), abs_tol=1e-9)
    assert env.game.record().shots["policy"].eq("agent").sum() == len(trace) - 1


def test_crokinole_game_ends_terminated_with_the_win_in_the_last_reward():
    env = CarromEnv("crokinole", opponent="random", options=SMALL_CROKINOLE, rewards=RewardWeights(0.0, 0.0, 1.0))
    trace = _episode(env, SEED, 400)
    assert trace[-1][2] and not trace[-1][3]
    winner = env.game.state.winner
    assert trace[-1][1] == (0 if winner is None else (1 if winner == env.team else -1))
    assert all(r == 0 for _, r, _, _ in trace[:-1])


@pytest.mark.parametrize("action", [[0, 0, 0], [0, 0, 1.5, 0], [np.nan, 0, 0, 0], "shoot"])
def test_an_action_outside_the_space_is_refused(action):
    env = CarromEnv("icf", opponent="random")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="'action' parameter must be 4 finite numbers in \\[-1, 1\\]"):
        env.step(action)
    assert env.game.n_shots == 0


def test_stepping_before_reset_or_after_the_end_is_refused():
    env = CarromEnv("crokinole", opponent="random", options=SMALL_CROKINOLE)
    with pytest.raises(ValueError, match="call reset"):
        env.step(np.zeros(4, np.float32))
    _episode(env, SEED, 400)
    with pytest.raises(ValueError, match="call reset"):
        env.step(np.zeros(4, np.float32))
    # a guard can end the game during the opponents' opening shots: the step says so
    env = CarromEnv("icf", opponent="random", seat=1, max_shots_per_board=1)
    env.reset(seed=SEED)
    with pytest.raises(ValueError, match=r"The episode is over \(the game ended: 'abandoned'\)"):
        env.step(np.zeros(4, np.float32))


def test_placements_are_played_legal_and_snaps_reported():
    env = CarromEnv("icf", opponent="random", noise=NoiseModel.preset("beginner"))
    env.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    snaps = []
    for _ in range(12):
        before = env.game.state
        action = np.array([rng.choice([-1.0, 1.0]), 0.0, rng.uniform(-1, 1), 0.0], np.float32)
        info = env.step(action)[-1]
        row = env.game.record().shots.iloc[env.game.n_shots - info["shots"]]
        assert row["policy"] == "agent" and bool(row["snapped"]) == info["snapped"]
        assert check_placement(before, row["x"], row["y"], shot_radius(before)).ok  # ICF-3
        snaps.append(info["snapped"])
    assert any(snaps)  # beginner noise at the ends of the line leaves the legal region


def test_shot_of_action_maps_the_documented_ranges():
    env = CarromEnv("icf", opponent="random")
    env.reset(seed=0)
    state = env.game.state
    left = shot_of_action(state, [-1, 0, -1, -1])
    right = shot_of_action(state, [1, 1, 0, 1])
    # ICF south baseline centre line between the base-circle centres, +-0.2191 m (see placement_target)
    assert (round(left.x, 4), round(right.x, 4)) == (-0.2191, 0.2191)
    assert (left.speed, right.speed) == (0.5, 3.25)
    assert (left.spin, right.spin) == (-50.0, 50.0)
    assert math.isclose(left.angle, math.pi / 2) and math.isclose(right.angle, math.pi)


def test_observation_counts_follow_the_state():
    env = CarromEnv("icf", opponent="random")
    obs, _ = env.reset(seed=0)
    assert obs["counts"].tolist() == [[9, 0, 0], [9, 0, 0]]
    assert obs["on_board"].sum() == 19 and obs["own"].sum() == 9
    after = observe(env.game.state, 1)
    assert after["own"].sum() == 9 and not np.array_equal(after["own"], obs["own"])


def test_a_foul_never_pays_the_pieces_term():
    # ICF-11 / ICF-13: a coin pocketed with the striker, or owed, goes back: the pieces
    # term counts the net change, which the shots table gives by colour
    game = Game(new_state("icf"), RandomPolicy(), seed=SEED, game=0)
    weights = RewardWeights(pieces=1.0, points=0.0, win=0.0)
    rewards = []
    while game.end is None and game.n_shots < 1500:
        played = game.shoot()
        rewards.append(shot_reward(played, played.before.team_of(played.before.shooter), weights))
    shots = game.record().shots
    net = shots.own_pocketed - shots.own_returned - shots.opponent_pocketed + shots.opponent_returned
    assert rewards == net.tolist()
    assert ((shots.own_returned > 0) & (shots.own_pocketed > 0)).any()  # an own coin pocketed and put back


@pytest.mark.parametrize("variant", ["icf", "hikone"])
def test_doubles_observation_names_the_shooting_seat(variant):
    env = CarromEnv(variant, players=4, seat=1, opponent="random")
    obs, _ = env.reset(seed=SEED)
    seen = set()
    for _ in range(40):
        state = env.game.state
        assert obs["shooter"] == state.shooter and state.shooter in (1, 3)
        assert obs["turn"][4] == state.seat_shots[state.shooter]
        seen.add(state.shooter)
        obs, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
    assert seen == {1, 3}


def test_rgb_array_render_draws_the_position():
    env = gymnasium.make(ENV_IDS["icf"], opponent="random", render_mode="rgb_array")
    check_env(env.unwrapped)  # the render check included
    env.reset(seed=SEED)
    start = env.render()
    assert start.shape == (480, 480, 3) and start.dtype == np.uint8
    env.step(np.array([0.0, 0.0, 1.0, 0.0], np.float32))  # the break scatters the pack
    assert not np.array_equal(env.render(), start)
    assert CarromEnv("icf", opponent="random").render() is None
    with pytest.raises(ValueError, match=r"not started: call reset\(\) first"):
        CarromEnv("icf", opponent="random", render_mode="rgb_array").render()
    with pytest.raises(ValueError, match="'render_mode' parameter must be None or one of \\['rgb_array'\\]"):
        CarromEnv("icf", render_mode="human")
    with pytest.raises(TypeError, match=r"'render_mode' parameter must be None or one of \['rgb_array'\]. Got 5 \(int\)"):
        CarromEnv("icf", render_mode=5)  # a wrong type, not a wrong name


@pytest.mark.parametrize(
    ("variant", "options", "fields"),
    [
        # rule HIK-5 / HIK-7: missing pucks accumulate as a debt, with no upper limit
        ("hikone", None, {"dues": (26, 31)}),
        # rule CRK-4 / CRK-5: a game to 10,000 points ends past the target by a round's difference
        ("crokinole", CrokinoleOptions(game_target=10_000), {"game_scores": (10_180, 9_990)}),
    ],
)
def test_observation_space_holds_every_state_the_rules_allow(variant, options, fields):
    state = dataclasses.replace(new_state(variant, options=options), **fields)
    assert observation_space(state).contains(observe(state, 0))


def test_onl_10_the_environment_plays_on_the_board_of_the_powder_house_rule():
    """rule ONL-10: an online environment without powder plays on the unpowdered board
    (mu 0.20); with the default house rules, on PhysicsParams() as before."""
    from carromlab import PhysicsParams
    from carromlab.rules.online import OnlineHouseRules

    for options, mu in ((None, 0.12), (OnlineHouseRules(powder=False), 0.2)):
        env = CarromEnv("online", options=options, opponent="random")
        env.reset(seed=0)
        assert env.game.settings.params.mu == mu
    assert Game(new_state("online"), RandomPolicy()).settings.params == PhysicsParams()


def test_hik10_timed_episode_observes_the_clock_and_ends_when_time_is_called():
    # rule HIK-10: with a clock every shot costs the thinking time and its motion; the
    # observation's time_left follows the game's match time and the game ends (terminated,
    # with a winner) at the end of the round in which time was called
    clock = MatchClock(think_s=30.0)
    env = CarromEnv("hikone", opponent="random", clock=clock)
    assert env.observation_space["time_left"].high.tolist() == [300.0]
    obs, _ = env.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    left = [float(obs["time_left"][0])]
    while True:
        obs, _, terminated, truncated, info = env.step(rng.uniform(-1, 1, 4).astype(np.float32))
        assert env.observation_space.contains(obs)
        assert obs["time_left"][0] == np.float32(max(0.0, 300.0 - env.game.clock_s))
        left.append(float(obs["time_left"][0]))
        if terminated or truncated:
            break
    assert terminated and not truncated and info["end"] == "complete"
    assert left[0] == 300.0 and left[-1] == 0.0 and all(a > b or a == b == 0.0 for a, b in zip(left, left[1:]))
    rec = env.game.record()
    assert "HIK-10" in rec.boards["reason"].iloc[-1].split(";") and rec.games["winner"].iloc[0] >= 0


def test_check_env_timed_hikone():
    check_env(CarromEnv("hikone", players=4, opponent="random", clock=MatchClock(think_s=6.0)), skip_render_check=True)


def test_a_clock_outside_hikone_is_refused_by_name():
    with pytest.raises(ValueError, match="'clock'"):
        CarromEnv("icf", clock=MatchClock(think_s=6.0))
