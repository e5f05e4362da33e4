"""Array adjudication (carromlab.rules.arrays) against the one-game reference adjudicate.

Every shot of the scenario tests is checked by tests/rules/conftest.py; here random valid
(state, outcome) pairs of every variant: a CI-sized sample, and 100,000 per variant
(slow). Agreement is exact: rule ids of the fouls and applied rules in order, returned
pieces and their spots, turn, scores and every field of the new state.

The spots of returned pieces come from one shared grid search
(:func:`carromlab.rules.spots.nearest_free_spot`; in the array path
:func:`~carromlab.rules.spots.nearest_free_spots_in_turn`), tens of milliseconds on a
crowded random board; the large samples replace it, in both paths alike, by a cheap
stand-in that still depends on the target, the radius and the discs already placed, so
that a wrong placement order or target still shows.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

import carromlab.rules.arrays.ledger as array_ledger
import carromlab.rules.ledger as reference_ledger
from carromlab.rules import ShotOutcome, icf
from carromlab.rules.arrays import GameArrays, OutcomeArrays, adjudicate_arrays

from .random_shots import random_pairs
from .rules_testkit import assert_arrays_agree, ids, shot

#: Every rule id each variant's rulings can cite (fouls and applied rules).
RULES = {
    "icf": {"ICF-4", "ICF-5", "ICF-6", "ICF-7", "ICF-8", "ICF-9", "ICF-10", "ICF-11", "ICF-12", "ICF-13", "ICF-14", "ICF-15", "ICF-16"},
    "online": {"ONL-2", "ONL-3", "ONL-4", "ONL-5", "ONL-6", "ONL-7", "ONL-8", "ONL-9", "ICF-7", "ICF-12"},
    "hikone": {"HIK-3", "HIK-4", "HIK-5", "HIK-6", "HIK-7", "HIK-8", "HIK-9", "HIK-10", "HIK-11"},
    "crokinole": {"CRK-2", "CRK-3", "CRK-4", "CRK-5"},
}


def _stand_in_spot(board, target, radius, discs, *, within=None):
    return (float(target[0]) + 1e-3 * len(discs), float(target[1]) + radius + (0.0 if within is None else within))


def _stand_in_spots_in_turn(board, target, radius, xy, order, *, within=None, far=None):
    """:func:`_stand_in_spot` of every piece put back, in turn (the discs: the pieces of
    known position, those put back before included)."""
    target = np.asarray(target, dtype=float).reshape(-1, 2)
    xy, order = np.array(xy, dtype=float), np.asarray(order)
    radius = np.broadcast_to(radius, xy.shape[:2])
    extra = np.zeros(len(target)) if within is None else np.broadcast_to(within, (len(target),))
    rows, cols = np.nonzero(order >= 0)
    xy[rows, order[rows, cols]] = np.nan
    spots = np.full(order.shape + (2,), np.nan)
    for k in range(order.shape[1]):
        g = np.flatnonzero(order[:, k] >= 0)
        j = order[g, k]
        n_discs = np.isfinite(xy[g, :, 0]).sum(axis=1)
        spots[g, k] = xy[g, j] = np.column_stack([target[g, 0] + 1e-3 * n_discs, target[g, 1] + radius[g, j] + extra[g]])
    return spots


@pytest.fixture
def quick_spots(monkeypatch):
    """Both paths place returned pieces with the same cheap stand-in search."""
    monkeypatch.setattr(reference_ledger, "nearest_free_spot", _stand_in_spot)
    monkeypatch.setattr(array_ledger, "nearest_free_spots_in_turn", _stand_in_spots_in_turn)


def _agree_in_groups(states, outcomes, *, chunk=2000) -> set[str]:
    """Stack the pairs by game set-up (one GameArrays per players and options), compare
    every ruling, and return the rule ids seen."""
    groups = defaultdict(list)
    for state, outcome in zip(states, outcomes):
        groups[(state.n_players, state.options)].append((state, outcome))
    seen: set[str] = set()
    for pairs in groups.values():
        for start in range(0, len(pairs), chunk):
            part = pairs[start : start + chunk]
            got = assert_arrays_agree([s for s, _ in part], [o for _, o in part])
            seen |= {rule for c, rule in enumerate(got.rules) if (got.applied[:, c] > 0).any()}
    return seen


@pytest.mark.parametrize("variant", list(RULES))
def test_arrays_agree_with_adjudicate_on_random_shots_with_real_spots(variant):
    states, outcomes = random_pairs(variant, 40, seed=10)
    _agree_in_groups(states, outcomes)


@pytest.mark.parametrize("variant", list(RULES))
def test_arrays_agree_with_adjudicate_on_random_shots(variant, quick_spots):
    states, outcomes = random_pairs(variant, 600, seed=11)
    if variant == "hikone":  # rules HIK-5, HIK-7, HIK-9: debts of every origin, and of none, are paid
        masks = {m for s in states for d, m in zip(s.dues, s.dues_from) if d}
        assert masks == set(range(8))
    # the sample reaches every rule the variant's rulings cite
    assert _agree_in_groups(states, outcomes) == RULES[variant]


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(RULES))
def test_arrays_agree_with_adjudicate_on_100k_random_shots(variant, quick_spots):
    seen: set[str] = set()
    for part in range(20):  # 20 x 5,000 pairs, drawn part by part to bound the memory
        seen |= _agree_in_groups(*random_pairs(variant, 5000, seed=1200 + part))
    assert seen == RULES[variant]


def test_icf_11_rows_are_independent_and_inputs_untouched():
    game = icf.new_game().with_(board_shots=1)
    states = [game, game.with_(shooter=1), game]
    games = GameArrays.from_states(states)
    assert games.to_states() == states
    assert games.take([2, 0]).to_states() == [game, game]
    outcomes = [shot(game, ids(game, "white")[0]), shot(game, 19), ShotOutcome()]
    r = adjudicate_arrays(games, OutcomeArrays.from_outcomes(outcomes, games))
    assert r.foul("ICF-11").tolist() == [False, True, False]
    assert r.any_foul.tolist() == [False, True, False]
    assert r.turn_continues.tolist() == [True, False, False]
    assert r.state.dues.tolist() == [[0, 0], [0, 1], [0, 0]]  # north (black) owes a coin
    assert np.array_equal(games.where, GameArrays.from_states(states).where)


def test_icf_11_repeated_game_rules_as_its_copies_without_copying():
    """One position under several outcomes (the foul study's shape): ``repeated`` views the
    game's arrays, rules exactly as ``take`` of the same rows, and stays untouched."""
    game = icf.new_game().with_(board_shots=1)
    one = GameArrays.from_states([game])
    views, copies = one.repeated(3), one.take([0, 0, 0])
    assert np.shares_memory(views.xy, one.xy) and not views.xy.flags.writeable
    assert views.to_states() == [game, game, game]
    assert views.state(2) is one.state(0)
    outcomes = [shot(game, ids(game, "white")[0]), shot(game, 19), ShotOutcome()]
    a = adjudicate_arrays(views, OutcomeArrays.from_outcomes(outcomes, views))
    b = adjudicate_arrays(copies, OutcomeArrays.from_outcomes(outcomes, copies))
    assert a.foul("ICF-11").tolist() == b.foul("ICF-11").tolist() == [False, True, False]
    assert np.array_equal(a.state.dues, b.state.dues)
    assert np.array_equal(one.where, GameArrays.from_states([game]).where)
    with pytest.raises(ValueError, match="one game"):
        copies.repeated(2)


def test_arrays_reject_finished_games_unknown_rules_and_mixed_set_ups():
    game = icf.new_game().with_(board_shots=1)
    done = GameArrays.from_states([game.with_(game_over=True)])
    with pytest.raises(ValueError, match="in progress"):
        adjudicate_arrays(done, OutcomeArrays.from_outcomes([ShotOutcome()], done))
    with pytest.raises(ValueError, match="share"):
        GameArrays.from_states([game, icf.new_game(4)])
    games = GameArrays.from_states([game])
    r = adjudicate_arrays(games, OutcomeArrays.from_outcomes([ShotOutcome()], games))
    with pytest.raises(ValueError, match="HIK-5"):
        r.foul("HIK-5")
