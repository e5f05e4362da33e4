"""The PettingZoo AEC environment: the API test for 2 and 4 seats, turns and rewards."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from carromlab.envs import CarromAECEnv, RewardWeights
from carromlab.match import MatchClock
from carromlab.rules.crokinole import CrokinoleOptions

from .conftest import SEED

SMALL_CROKINOLE = CrokinoleOptions(discs_per_player=2, game_target=5)
# PettingZoo's advice, not its API: it prefers Box observations to the documented Dict
ADVICE = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


@pytest.mark.filterwarnings(*ADVICE)
@pytest.mark.parametrize(
    ("variant", "players", "options", "cycles"),
    [("crokinole", 2, SMALL_CROKINOLE, 200), ("crokinole", 4, SMALL_CROKINOLE, 200), ("icf", 4, None, 8), ("online", 2, None, 8)],
)
def test_api_test(variant, players, options, cycles):
    api_test(CarromAECEnv(variant, players=players, options=options, render_mode="rgb_array"), num_cycles=cycles)


@pytest.mark.filterwarnings(*ADVICE)
def test_api_test_timed_hikone():
    # rule HIK-10: a 40-second match ends within the test's cycles; every observation has time_left
    env = CarromAECEnv("hikone", players=4, clock=MatchClock(think_s=8.0, limit_s=40.0, final_s=10.0))
    api_test(env, num_cycles=60)
    env.reset(seed=SEED)
    assert env.observe("seat_2")["time_left"].tolist() == [40.0]


def test_rgb_array_render_draws_the_position():
    env = CarromAECEnv("icf", players=4, render_mode="rgb_array")
    env.reset(seed=SEED)
    start = env.render()
    assert start.shape == (480, 480, 3) and start.dtype == np.uint8
    env.step(np.array([0.0, 0.0, 1.0, 0.0], np.float32))  # the break scatters the pack
    assert not np.array_equal(env.render(), start)


def _play(env, seed, n):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter(max_iter=n):
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else rng.uniform(-1, 1, 4).astype(np.float32)
        if action is not None:
            assert agent == f"seat_{env.game.state.shooter}"
        env.step(action)
        seen.append((agent, dict(env.rewards)))
    return seen


def test_partners_share_rewards_and_teams_are_zero_sum():
    env = CarromAECEnv("icf", players=4, rewards=RewardWeights(pieces=1.0, points=1.0, win=5.0), max_shots_per_board=40)
    for _, rewards in _play(env, SEED, 60):
        if len(rewards) == 4:  # every agent still in the game
            assert rewards["seat_0"] == rewards["seat_2"] and rewards["seat_1"] == rewards["seat_3"]
            assert rewards["seat_0"] == -rewards["seat_1"]
    assert env.game.record().shots["policy"].str.startswith("seat_").all()


def test_four_crokinole_players_play_to_the_end_in_seat_order():
    env = CarromAECEnv("crokinole", players=4, options=SMALL_CROKINOLE)
    seen = _play(env, SEED, 10_000)
    assert env.game.end == "complete" and not env.agents
    shooters = env.game.record().shots["seat"].to_numpy()
    assert set(shooters) == {0, 1, 2, 3}
    assert [a for a, _ in seen[:4]] == ["seat_0", "seat_1", "seat_2", "seat_3"]


def test_seeded_reset_replays_the_game():
    a = _play(CarromAECEnv("hikone", players=2), SEED, 12)
    b = _play(CarromAECEnv("hikone", players=2), SEED, 12)
    assert a == b


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="'players' parameter"):
        CarromAECEnv("online", players=4)
    with pytest.raises(ValueError, match="'render_mode' parameter"):
        CarromAECEnv("icf", render_mode="human")
    with pytest.raises(ValueError, match="call reset"):
        CarromAECEnv("icf").step(np.zeros(4, np.float32))
    env = CarromAECEnv("icf")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"The 'agent' parameter must be one of \['seat_0', 'seat_1'\]. Got 'bogus' instead"):
        env.observe("bogus")
