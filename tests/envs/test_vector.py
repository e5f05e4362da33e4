"""The vector environment: the same games as the single environment shot for shot (a
SyncVectorEnv of CarromEnv with the same seeds), autoreset included, and its spaces."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from carromlab import Shot
from carromlab.envs import ENV_IDS, CarromEnv, CarromVectorEnv, observe, observe_many, shot_of_action, shots_of_actions
from carromlab.match import Game, MatchClock, RandomPolicy, new_state
from carromlab.rules.arrays import GameArrays
from carromlab.rules.crokinole import CrokinoleOptions

from .conftest import SEED

SMALL_CROKINOLE = CrokinoleOptions(discs_per_player=2, game_target=5)


def _run_both(n, variant, n_steps, **kwargs):
    """Step the vector env and a SyncVectorEnv of single envs with the same seeds and
    actions; return the number of autoresets seen."""
    vec = CarromVectorEnv(n, variant, **kwargs)
    sync = SyncVectorEnv([lambda: CarromEnv(variant, **kwargs) for _ in range(n)])
    (obs, info), (ref, ref_info) = vec.reset(seed=SEED), sync.reset(seed=SEED)
    assert all(np.array_equal(obs[k], ref[k]) for k in ref)
    assert np.array_equal(info["game_seed"], ref_info["game_seed"]) and np.array_equal(info["shots"], ref_info["shots"])
    assert vec.observation_space.contains(obs)
    actions = np.random.default_rng(SEED).uniform(-1, 1, (n_steps, n, 4)).astype(np.float32)
    resets = 0
    for a in actions:
        got, want = vec.step(a), sync.step(a)
        assert all(np.array_equal(got[0][k], want[0][k]) for k in want[0])
        for mine, theirs in zip(got[1:4], want[1:4]):
            assert np.array_equal(mine, theirs)
        for key in (k for k in want[4] if not k.startswith("_")):  # every info of the single envs, in Gymnasium's layout
            mask = want[4][f"_{key}"]
            assert np.array_equal(got[4][f"_{key}"], mask), key
            assert list(got[4][key][mask]) == list(want[4][key][mask]), key
        assert vec.observation_space.contains(got[0])
        resets += int(got[4]["reset"].sum())
    return resets


def test_vector_env_replays_the_single_env_through_autoresets():
    resets = _run_both(3, "crokinole", 20, opponent="random", options=SMALL_CROKINOLE)
    assert resets >= 2  # small crokinole games end within a few steps


@pytest.mark.parametrize("variant", ["icf", "hikone"])
def test_vector_env_replays_the_single_env(variant):
    _run_both(3, variant, 4, opponent="random", skill="club")


def test_timed_hikone_vector_env_replays_the_single_env_through_autoresets():
    # rule HIK-10: 40-second matches end within a few steps, with time_left observed
    resets = _run_both(3, "hikone", 12, opponent="random", clock=MatchClock(think_s=8.0, limit_s=40.0, final_s=10.0))
    assert resets >= 2


def test_vector_env_doubles_with_the_agent_second():
    _run_both(2, "icf", 3, players=4, seat=1, opponent="random")


def test_make_vec_builds_the_vector_env():
    envs = gymnasium.make_vec(ENV_IDS["icf"], num_envs=3, opponent="random")
    assert isinstance(envs.unwrapped, CarromVectorEnv) and envs.num_envs == 3
    assert envs.action_space.shape == (3, 4) and envs.observation_space["positions"].shape == (3, 19, 2)


def test_vector_render_gives_every_games_frame():
    envs = gymnasium.make_vec(ENV_IDS["hikone"], num_envs=2, opponent="random", render_mode="rgb_array")
    assert envs.render_mode == "rgb_array"
    with pytest.raises(ValueError, match=r"not started: call reset\(\) first"):
        envs.render()
    envs.reset(seed=SEED)
    frames = envs.render()
    assert len(frames) == 2 and all(f.shape == (480, 480, 3) and f.dtype == np.uint8 for f in frames)


def test_bad_actions_and_stepping_before_reset_are_refused():
    envs = CarromVectorEnv(2, "icf", opponent="random")
    with pytest.raises(ValueError, match="reset"):
        envs.step(np.zeros((2, 4)))
    obs, _ = envs.reset(seed=SEED)
    again, _ = envs.reset(seed=(SEED, SEED + 1))  # a tuple of seeds as a list
    assert all(np.array_equal(obs[k], again[k]) for k in obs)
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="action"):
        envs.step(np.full((2, 4), 2.0))
    with pytest.raises(ValueError, match="num_envs"):
        CarromVectorEnv(0)


@pytest.mark.parametrize("variant, players", [("icf", 4), ("hikone", 2), ("crokinole", 4)])
def test_batched_actions_and_observations_are_the_one_game_ones(variant, players):
    # states with every shooter's side (and Hikone's first shots from the tee spot), in one batch
    game = Game(new_state(variant, players), RandomPolicy(), seed=SEED, record=False)
    states = [game.state]
    while len(states) < 12 and game.end is None:
        game.shoot()
        states.append(game.state)
    actions = np.random.default_rng(SEED).uniform(-1, 1, (len(states), 4))
    many = shots_of_actions(GameArrays.from_states(states), actions)
    assert [Shot(*row) for row in many.tolist()] == [shot_of_action(s, a) for s, a in zip(states, actions)]
    for seat in range(players):
        batch = observe_many(GameArrays.from_states(states), seat)
        for k, s in enumerate(states):
            one = observe(s, seat)
            assert all(np.array_equal(batch[key][k], one[key]) for key in one)
    with pytest.raises(ValueError, match="'actions' parameter must have shape"):
        shots_of_actions(GameArrays.from_states(states), actions[:-1])
