"""The Hikone match clock (HIK-10): match time from thinking and motion, time called once
it runs out, the game then ended by the rules; an untimed game is untouched."""

import math

import numpy as np
import pytest
from pandas.testing import assert_frame_equal

from carromlab import simulate
from carromlab.match import Game, MatchClock, RandomPolicy, game_seed, new_state, play_game, play_match
from carromlab.match.lockstep import play_games
from carromlab.rules import game_physics
from carromlab.rules.engine_bridge import scene_for

from .conftest import SEED


@pytest.mark.parametrize("players", [2, 4])
def test_hik10_time_is_called_after_the_shot_that_runs_the_clock_out(players):
    # rule HIK-10: 6 s of thought a shot, at most 4 s in the last 15 s of a 40-second match;
    # the match time is rebuilt by hand, each shot's motion re-simulated from its state
    clock = MatchClock(think_s=6.0, limit_s=40.0, final_s=15.0, shot_limit_s=4.0)
    g = Game(new_state("hikone", players), RandomPolicy(), seed=game_seed(SEED, players), clock=clock)
    expected, called_at = 0.0, None
    while g.end is None:
        played = g.shoot()
        scene, _ = scene_for(played.before)
        motion = simulate(scene, played.executed.shot, game_physics(played.before, None)).duration
        expected += (4.0 if expected >= 25.0 else 6.0) + motion
        assert g.clock_s == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert played.after.time_called == (expected >= 40.0)
        assert played.before.time_called == (called_at is not None)
        if called_at is None and expected >= 40.0:
            called_at = g.n_shots
    rec = g.record()
    assert rec.games["clock_s"].iloc[0] == pytest.approx(expected, rel=1e-12)
    assert rec.games["end"].iloc[0] == "complete"
    if called_at is not None:  # not ended by the jack before time: HIK-10 ended it at the end of a round
        assert "HIK-10" in rec.boards["reason"].iloc[-1].split(";")
        assert rec.shots["seat"].iloc[-1] == players - 1


def test_hik10_timed_random_games_all_end_by_the_rules():
    # rule HIK-10: random play leaves about half of untimed Hikone games running at 2000 shots;
    # with the 5-minute clock every game ends complete, soon after the clock runs out
    rec = play_match("hikone", 12, players=4, seed=SEED, clock=MatchClock(think_s=6.0), record=False)
    games = rec.games
    assert (games["end"] == "complete").all() and games["winner"].notna().all()
    assert (games["n_shots"] < 200).all()
    ended_by_time = rec.boards["reason"].str.contains("HIK-10")
    assert (games.loc[ended_by_time.to_numpy(), "clock_s"] >= 300.0).all()


def test_a_clock_that_never_runs_out_changes_no_shot():
    # the clock draws nothing from the game's generators: the same shots as untimed
    kw = {"seed": game_seed(SEED, 7), "max_shots_per_board": 40}
    timed = play_game(new_state("hikone"), RandomPolicy(), clock=MatchClock(think_s=6.0, limit_s=86400.0), **kw)
    untimed = play_game(new_state("hikone"), RandomPolicy(), **kw)
    assert_frame_equal(timed.shots, untimed.shots)
    assert math.isnan(untimed.games["clock_s"].iloc[0]) and timed.games["clock_s"].iloc[0] > 40 * 6.0


def test_a_timed_game_among_others_plays_as_alone():
    clock = MatchClock(think_s=5.0, limit_s=60.0)
    many = [Game(new_state("hikone", 4), RandomPolicy(), seed=game_seed(SEED, g), game=g, clock=clock) for g in range(16)]
    play_games(many)
    for g in (0, 11):
        alone = play_game(new_state("hikone", 4), RandomPolicy(), seed=game_seed(SEED, g), game=g, clock=clock)
        assert_frame_equal(many[g].record().shots, alone.shots)
        assert many[g].clock_s == alone.games["clock_s"].iloc[0]


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"think_s": 0.0}, r"'think_s' parameter must be a finite real number in the range \(0, 600\] s. Got 0.0"),
        ({"think_s": 6.0, "limit_s": -1.0}, r"'limit_s' parameter .* \(0, 86400\] s. Got -1.0"),
        ({"think_s": 6.0, "final_s": 400.0}, r"'final_s' parameter .* \[0, 300\] s. Got 400.0"),
        ({"think_s": 6.0, "shot_limit_s": float("nan")}, r"'shot_limit_s' parameter"),
    ],
)
def test_bad_clock_values_are_refused_by_name(kw, match):
    with pytest.raises(ValueError, match=match):
        MatchClock(**kw)


def test_a_clock_is_only_for_hikone_and_must_be_a_clock():
    with pytest.raises(ValueError, match=r"'clock' parameter is for Hikone games \(HIK-10\). Got a clock for a 'icf' game"):
        play_game(new_state("icf"), RandomPolicy(), clock=MatchClock(think_s=6.0))
    with pytest.raises(TypeError, match=r"'clock' parameter must be a MatchClock or None .*Got 6.0"):
        play_match("hikone", 1, clock=6.0)


def test_clock_arithmetic_by_hand():
    clock = MatchClock(think_s=12.0)
    after = clock.after(np.array([0.0, 239.9, 240.0, 299.0]), np.array([1.0, 2.0, 3.0, 0.5]))
    assert after.tolist() == [13.0, 253.9, 253.0, 309.5]  # from 240 s (the last minute) 10 s at most
    assert clock.expired([299.999, 300.0]).tolist() == [False, True]
