"""Policies: random shots are legal and forward; the greedy policy plays the rules."""

import math

import numpy as np
import pytest

from carromlab import PhysicsParams, Shot, simulate
from carromlab._draws import uniforms
from carromlab.match import SPEED_RANGES, GreedyPolicy, Policy, RandomPolicy, new_state
from carromlab.match.geometry import facing
from carromlab.match.scene import shot_radius
from carromlab.rules import adjudicate, check_placement
from carromlab.rules.arrays import GameArrays
from carromlab.rules.engine_bridge import outcome_from_result, scene_for

from ..rules.rules_testkit import ids, move, put

SEATS = [("icf", 2), ("online", 2), ("hikone", 2), ("hikone", 4), ("crokinole", 2), ("crokinole", 4)]
PLACEMENT_RULE = {"icf": "ICF-3", "online": "ONL-1", "hikone": "HIK-2", "crokinole": "CRK-1"}


def test_policies_follow_the_protocol():
    assert isinstance(RandomPolicy(), Policy) and isinstance(GreedyPolicy(), Policy)
    assert (RandomPolicy().name, GreedyPolicy().name) == ("random", "greedy")


@pytest.mark.parametrize(("variant", "players"), SEATS)
def test_random_shots_are_legal_and_face_the_board_rules_icf3_onl1_hik2_crk1(variant, players, rng):
    """rules ICF-3, ONL-1, HIK-2, CRK-1: every seat's random placement is legal; the
    shot goes into the forward half-plane at a speed in the documented range."""
    lo, hi = SPEED_RANGES[variant]
    for seat in range(players):
        state = new_state(variant, players).with_(shooter=seat)
        for _ in range(5):
            shot = RandomPolicy().choose(state, rng)
            verdict = check_placement(state, shot.x, shot.y, shot_radius(state))
            assert verdict.ok and verdict.rule == PLACEMENT_RULE[variant], verdict
            nx, ny = facing(state, shot.x, shot.y)
            assert math.cos(shot.angle) * nx + math.sin(shot.angle) * ny >= -1e-12
            assert lo <= shot.speed <= hi and shot.spin == 0.0


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("icf", 4), ("online", 2)])
def test_icf_3_policy_placements_touch_both_baselines(variant, players, rng):
    """rule ICF-3 (and ONL-1, on the midline): random and greedy placements, with coins lying
    on and near the lines so that many wishes must be snapped, touch both baselines: each
    line segment within one striker radius of the centre, |offset| <= 2.065 - 1.59 cm."""
    r = shot_radius(new_state(variant, players))
    for seat in range(players):
        state = new_state(variant, players).with_(shooter=seat, board_shots=1)
        base = state.board.baseline(state.seat_sides[seat])
        w = ids(state, "white")
        for k, pid in enumerate(w[:4]):  # coins across the seat's lines
            f = 0.2 + 0.2 * k
            cx, cy = base.centre.x0 + f * (base.centre.x1 - base.centre.x0), base.centre.y0 + f * (base.centre.y1 - base.centre.y0)
            nx, ny = base.inner.x0 - base.outer.x0, base.inner.y0 - base.outer.y0
            state = put(state, pid, cx + (k - 1.5) * 0.6 * nx, cy + (k - 1.5) * 0.6 * ny)
        shots = [RandomPolicy().choose(state, rng) for _ in range(20)]
        shots += [GreedyPolicy(n_candidates=8, placements=3, workers=1).choose(state, rng)]
        for shot in shots:
            assert base.outer.distance(shot.x, shot.y) <= r + 1e-9
            assert base.inner.distance(shot.x, shot.y) <= r + 1e-9
            assert check_placement(state, shot.x, shot.y, r).ok


def test_hikone_first_shot_from_the_tee_then_the_area_line_rule_hik2(rng):
    """rule HIK-2: a seat's first shot of the board is played from its tee spot."""
    state = new_state("hikone")
    tee = state.board.area_line("south").tee_spot
    shot = RandomPolicy().choose(state, rng)
    assert math.hypot(shot.x - tee.x, shot.y - tee.y) <= tee.radius
    later = [RandomPolicy().choose(state.with_(seat_shots=(1, 0)), rng) for _ in range(10)]
    assert np.ptp([s.x for s in later]) > 4 * tee.radius


def test_random_policy_options():
    shot = RandomPolicy(speed=(2.0, 2.0), spread=1e-9).choose(new_state("icf"), np.random.default_rng(0))
    assert shot.speed == 2.0 and abs(shot.angle - math.pi / 2) < 1e-8
    with pytest.raises(ValueError, match="'speed\\[1\\]'"):
        RandomPolicy(speed=(2.0, 1.0))
    with pytest.raises(ValueError, match="'spread'"):
        RandomPolicy(spread=0.0)
    for kwargs, name in (({"n_candidates": 0}, "n_candidates"), ({"placements": 0}, "placements"),
                         ({"speed_factors": ()}, "speed_factors"), ({"random_fraction": 1.5}, "random_fraction"),
                         ({"cut_limit": 2.0}, "cut_limit"), ({"workers": 0}, "workers")):
        with pytest.raises(ValueError, match=f"'{name}"):
            GreedyPolicy(**kwargs)
    with pytest.raises(TypeError, match="'params'"):
        GreedyPolicy(params="club")


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.Philox, np.random.MT19937])
def test_compiled_draws_are_the_generators_own(bit_generator):
    # RandomPolicy reads its draws compiled (carromlab._draws.uniforms): each row must be
    # rng.random(m) of that generator, and leave it where rng.random(m) leaves it
    seeds = range(5)
    rngs = [np.random.Generator(bit_generator(s)) for s in seeds]
    refs = [np.random.Generator(bit_generator(s)) for s in seeds]
    u = uniforms(rngs, 3)
    assert u.shape == (5, 3) and u.dtype == np.float64
    np.testing.assert_array_equal(u, [r.random(3) for r in refs])
    np.testing.assert_array_equal([g.random() for g in rngs], [r.random() for r in refs])
    assert uniforms([], 3).shape == (0, 3)


def _play(state, shot):
    scene, sids = scene_for(state)
    return adjudicate(state, outcome_from_result(simulate(scene, shot, PhysicsParams()), state, sids))


def _last_white(queen_covered):
    """A broken ICF board where white (seat 0) has one coin left, near a pocket."""
    state = new_state("icf").with_(board_shots=1)
    w, b = ids(state, "white"), ids(state, "black")
    state = move(state, "pocketed", *w[1:], *b[3:])
    state = put(state, w[0], 0.24, 0.24)
    for k, pid in enumerate(b[:3]):
        state = put(state, pid, -0.2 + 0.05 * k, 0.1)
    if queen_covered:
        state = move(state, "pocketed", ids(state, "queen")[0]).with_(queen_status="covered", queen_team=0)
    return state


def test_greedy_wins_the_board_with_the_queen_covered_rule_icf7():
    """rule ICF-7: with the queen covered, the greedy policy pockets its last coin."""
    state = _last_white(queen_covered=True)
    ruling = _play(state, GreedyPolicy(n_candidates=300).choose(state, np.random.default_rng(1)))
    assert "ICF-7" in ruling.rule_ids and ruling.board_winner == 0


def test_greedy_keeps_its_last_coin_while_the_queen_is_up_rule_icf15():
    """rule ICF-15: the greedy policy does not pocket its last coin before the cover."""
    state = _last_white(queen_covered=False)
    ruling = _play(state, GreedyPolicy(n_candidates=300).choose(state, np.random.default_rng(1)))
    assert "ICF-15" not in ruling.rule_ids and not ruling.board_over


@pytest.fixture
def batches(monkeypatch):
    """Every simulate_batch summary the greedy policy computes."""
    from carromlab.match import policies

    seen = []
    real = policies.simulate_batch

    def spy(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(policies, "simulate_batch", spy)
    return seen


def test_greedy_scores_all_candidates_in_one_batch(batches):
    GreedyPolicy(n_candidates=64).choose(new_state("crokinole", 4), np.random.default_rng(0))
    assert [len(b) for b in batches] == [64]


def test_greedy_plays_the_best_candidate_of_a_custom_value(batches):
    """A value function preferring slow shots makes the greedy play the slowest candidate."""
    def slowest(states, scene, which, batch):
        return -batch["speed"].to_numpy()

    shot = GreedyPolicy(n_candidates=40, value=slowest).choose(new_state("hikone"), np.random.default_rng(0))
    assert shot.speed == batches[0]["speed"].min()


def test_scene_for_handles_four_crokinole_colours_rule_crk5():
    """rule CRK-5: four players (green, red, black, white) each shoot their own colour."""
    state = new_state("crokinole", 4)
    for seat, colour in enumerate(state.colours):
        scene, sids = scene_for(state.with_(shooter=seat))
        assert scene.striker == colour and scene.n_pieces == 0


def _mid_game_states(variant, players, n_games=3, steps=(4, 9)):
    """States of random games (club noise) after some shots, for the greedy batch tests."""
    from carromlab.analysis.noise import NoiseModel
    from carromlab.match import Game, game_seed
    from carromlab.match.lockstep import step

    games = [Game(new_state(variant, players), RandomPolicy(), seed=game_seed(11, g), game=g, record=False,
                  noise=NoiseModel.preset("club")) for g in range(n_games)]  # fmt: skip
    out = []
    for t in range(max(steps) + 1):
        games = [g for g in games if g.end is None]
        if t in steps:
            out += [g.state for g in games]
        step(games)
    return out


def test_greedy_batch_choice_is_the_one_state_choice_on_mid_game_states():
    """choose_many on the arrays of several states of a variant at once (one engine call
    per shot disc) gives every state the shot choose gives it alone with the same generator."""
    policy = GreedyPolicy(n_candidates=40)
    chosen = []
    for v, p in (("icf", 2), ("online", 2), ("hikone", 4), ("crokinole", 4)):
        states = _mid_game_states(v, p)
        first = len(chosen)  # each state its own generator, as in one call of every variant
        many = policy.choose_many(GameArrays.from_states(states), [np.random.default_rng(first + k) for k in range(len(states))])
        assert [Shot(*row) for row in many.tolist()] == [policy.choose(s, np.random.default_rng(first + k)) for k, s in enumerate(states)]
        chosen += [Shot(*row) for row in many.tolist()]
    assert len({(s.x, s.y, s.angle, s.speed) for s in chosen}) == len(chosen)


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("hikone", 4), ("crokinole", 2)])
def test_greedy_recommendation_replays_as_labelled(batches, variant, players):
    """The chosen shot, replayed alone by simulate on the state's own scene, does what its
    row of the policy's many-scene batch says: the same pieces pocketed (by game id), the
    same striker fate and first contact, the same final positions (float32)."""
    from carromlab.match.policies import piece_arrays

    for k, state in enumerate(_mid_game_states(variant, players, n_games=2, steps=(6,))):
        batches.clear()
        shot = GreedyPolicy(n_candidates=60).choose(state, np.random.default_rng(k))
        (batch,) = batches
        row = int(np.flatnonzero((batch["x"] == shot.x) & (batch["y"] == shot.y) & (batch["angle"] == shot.angle)
                                 & (batch["speed"] == shot.speed))[0])  # fmt: skip
        scene, sids = scene_for(state)
        result = simulate(scene, shot, PhysicsParams())
        alone = {int(sids[i]) for i in result.pocketed["id"] if i != result.striker_id}
        mask = int(batch["pocketed_mask"].iat[row])
        assert alone == {j for j in range(len(state.pieces)) if mask >> j & 1}
        assert result.striker_fate == batch["striker_fate"].iat[row]
        first = batch["first_contact"].iat[row]
        assert (None if first < 0 else first) == (None if result.first_contact is None else int(sids[result.first_contact]))
        if variant == "crokinole":
            final = batch.attrs["final_xy"][row]
            xy = result.final[["x", "y"]].to_numpy()
            np.testing.assert_allclose(final[sids], xy[:-1], atol=1e-6)
            assert np.isnan(final[:-1][~piece_arrays([state])[1][0]]).all()
