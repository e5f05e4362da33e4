"""Execution noise: keyed by seed and shot number, along the shooter's own axes, and
always ending in a legal placement."""

import math

import numpy as np
import pytest

from carromlab import Shot
from carromlab.analysis.noise import NoiseModel
from carromlab.match import RandomPolicy, execute, new_state
from carromlab.match.execution import execute_many
from carromlab.rules.arrays import GameArrays
from carromlab.match.scene import shot_radius
from carromlab.rules import check_placement

MEANT = Shot(0.0, -0.2526, math.pi / 2, 3.0, 0.0)


def test_no_noise_plays_the_intended_shot():
    played = execute(new_state("icf"), MEANT, NoiseModel(), seed=0, shot_index=0)
    assert played.shot == MEANT and not played.snapped and played.snap_distance == 0.0


def test_errors_are_keyed_by_seed_and_shot_number():
    state, club = new_state("icf"), NoiseModel.preset("club")
    a = execute(state, MEANT, club, seed=4, shot_index=7).shot
    assert a == execute(state, MEANT, club, seed=4, shot_index=7).shot
    assert a != execute(state, MEANT, club, seed=4, shot_index=8).shot
    assert a != execute(state, MEANT, club, seed=5, shot_index=7).shot
    assert a != MEANT


@pytest.mark.parametrize("seat", [0, 1])
def test_placement_error_runs_along_the_shooters_line_rule_icf3(seat):
    """rule ICF-3: the placement error moves the striker along the seat's baselines."""
    state = new_state("icf").with_(shooter=seat)
    y = -0.2526 if seat == 0 else 0.2526
    meant = Shot(0.0, y, math.pi / 2, 3.0)
    played = execute(state, meant, NoiseModel(placement=0.01), seed=1, shot_index=0).shot
    assert played.y == y and played.x != 0.0 and (played.angle, played.speed) == (meant.angle, meant.speed)


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("online", 2), ("hikone", 4), ("crokinole", 4)])
def test_illegal_noisy_placements_are_snapped_and_reported_rules_icf3_onl1_hik2_crk1(variant, players):
    """rules ICF-3, ONL-1, HIK-2, CRK-1: after large errors the placement is legal again,
    and the move is reported."""
    state = new_state(variant, players)
    sloppy = NoiseModel(placement=0.1, depth=0.1)
    meant = RandomPolicy().choose(state, np.random.default_rng(0))
    snapped = 0
    for k in range(20):
        played = execute(state, meant, sloppy, seed=2, shot_index=k)
        assert check_placement(state, played.shot.x, played.shot.y, shot_radius(state)).ok
        assert played.snapped == (played.snap_distance > 0.0)
        snapped += played.snapped
    assert snapped > 0


def test_bad_arguments_name_the_parameter():
    state = new_state("icf")
    with pytest.raises(TypeError, match="'noise'"):
        execute(state, MEANT, "club", seed=0, shot_index=0)
    with pytest.raises(ValueError, match="'shot_index'"):
        execute(state, MEANT, NoiseModel(), seed=0, shot_index=-1)


def test_games_drawing_their_errors_together_get_each_its_own():
    """execute_many draws the errors of the games sharing a noise model in one call;
    each game must still get the errors of its own (seed, shot number)."""
    states = [new_state("icf"), new_state("icf").with_(shooter=1), new_state("icf").with_(shooter=1), new_state("icf")]
    club, pro = NoiseModel.preset("club"), NoiseModel.preset("club").scaled(0.5)
    noise, seeds, indices = [club, pro, club, club], [3, 3, 2**63 - 2, 9], [0, 5, 1, 1]
    meant = [[MEANT.x, MEANT.y, MEANT.angle, MEANT.speed, MEANT.spin]] * 4
    shots, moved = execute_many(GameArrays.from_states(states), meant, noise, seeds=seeds, shot_indices=indices)
    alone = [execute(s, MEANT, m, seed=seed, shot_index=i) for s, m, seed, i in zip(states, noise, seeds, indices)]
    assert [Shot(*row) for row in shots.tolist()] == [e.shot for e in alone]
    assert moved.tolist() == [e.snap_distance for e in alone]
    assert len({e.shot for e in alone}) == 4
