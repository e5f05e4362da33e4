"""Property tests: random legal shot sequences in every variant."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from carromlab.rules import GameState, ShotOutcome, adjudicate, crokinole, hikone, icf, online

FACTORIES = {
    "icf": icf.new_game,
    "icf-doubles": lambda: icf.new_game(4),
    "online": lambda: online.new_game(rules=online.OnlineHouseRules(turn_time=30)),
    "hikone": hikone.new_game,
    "hikone-doubles": lambda: hikone.new_game(4),
    "crokinole": crokinole.new_game,
    "crokinole-4": lambda: crokinole.new_game(4),
}


def _carrom_like(data, state: GameState) -> ShotOutcome:
    """A random outcome for carrom or Hikone: some pieces pocketed, some off the board."""
    on = [p.id for p in state.pieces if p.where == "board"]
    pocketed = data.draw(st.lists(st.sampled_from(on), unique=True, max_size=3)) if on else []
    rest = [i for i in on if i not in pocketed]
    gone = data.draw(st.lists(st.sampled_from(rest), unique=True, max_size=1)) if rest else []
    fates = ["board", "pocketed"] + (["off_board", "frame"] if state.variant == "hikone" else [])
    fate = data.draw(st.sampled_from(fates))
    touched = data.draw(st.sampled_from([None, *on])) if on and not pocketed else (pocketed[0] if pocketed else None)
    recs = [(pid, state.piece(pid).kind, 0, 0.1 * (i + 1)) for i, pid in enumerate(pocketed)]
    if fate == "pocketed":
        recs.append((state.striker_id, "striker", 1, 5.0))
    # rule ONL-8: a timed-out shot needs a time limit (the online factory sets one)
    timed_out = (state.variant == "hikone" or state.variant == "online" and state.options.turn_time is not None) and data.draw(st.integers(0, 9)) == 0
    if timed_out:
        return ShotOutcome(timed_out=True)
    frame_ids = gone if state.variant == "hikone" and data.draw(st.booleans()) else []
    cushion = data.draw(st.booleans())
    # rule HIK-9: after a cushion first, Hikone doubles must say whether the hit came before a side or front frame
    needed = cushion and touched is not None and state.variant == "hikone" and state.n_players == 4
    return ShotOutcome(
        pocketed=recs,
        striker_fate=fate,
        left_board=tuple(i for i in gone if i not in frame_ids),
        on_frame=tuple(frame_ids),
        first_touch=touched,
        cushion_first=cushion,
        touched_before_frame=data.draw(st.sampled_from([(), (touched,)])) if needed else None,
        # rule ICF-16: a striker that never left the baseline area touched nothing and is
        # still on the board (the pockets lie outside the area)
        striker_left_baseline=data.draw(st.integers(0, 5)) > 0 or bool(pocketed or gone or touched is not None) or fate != "board",
    )


def _crokinole(data, state: GameState) -> ShotOutcome:
    own = state.colours[state.team_of(state.shooter)]
    disc = min(p.id for p in state.pieces if p.kind == own and p.where == "hand")
    fate = data.draw(st.sampled_from(["board", "board", "pocketed", "ditch"]))
    on = [p.id for p in state.pieces if p.where == "board"]
    chain = data.draw(st.lists(st.sampled_from(on), unique=True, max_size=2)) if on else []
    knocked = data.draw(st.lists(st.sampled_from([i for i in on if i not in chain] or [None]), unique=True, max_size=1))
    knocked = [i for i in knocked if i is not None]
    r = data.draw(st.floats(0.0, 0.3))
    a = data.draw(st.floats(-math.pi, math.pi))
    frame = pd.DataFrame({"id": [disc], "kind": [own], "x": [r * math.cos(a)], "y": [r * math.sin(a)], "on_board": [True]})
    return ShotOutcome(
        striker=disc,
        striker_fate=fate,
        pocketed=[(disc, own, "centre", 1.0)] if fate == "pocketed" else [],
        left_board=tuple(knocked),
        chain=tuple(chain),
        final_positions=frame if fate == "board" else None,
    )


def _check_invariants(before: GameState, after: GameState) -> None:
    assert len(after.pieces) == len(before.pieces)
    assert sorted(p.id for p in after.pieces) == sorted(p.id for p in before.pieces)
    kinds = Counter(p.kind for p in after.pieces)
    assert kinds == Counter(p.kind for p in before.pieces)
    where = Counter(p.where for p in after.pieces)
    if after.variant == "crokinole":
        assert set(where) <= {"hand", "board", "ditch", "hole"}
    else:
        assert set(where) <= {"board", "pocketed"}
    # on board + pocketed (+ hand, ditch, hole) = total: every piece is exactly somewhere
    assert sum(where.values()) == len(before.pieces)
    assert tuple(map(sum, zip(*after.board_history))) == after.game_scores or not after.board_history
    r = {p.id: after.radius(p.kind) for p in after.pieces}
    known = [p for p in after.pieces if p.position is not None]
    if after.variant != "crokinole":
        assert all(after.board.contains(p.x, p.y, r[p.id]) for p in known)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(FACTORIES)), data=st.data())
def test_random_legal_sequences_conserve_pieces_and_never_mutate_input(variant, data):
    state = FACTORIES[variant]()
    for _ in range(data.draw(st.integers(1, 30))):
        if state.game_over:
            break
        make = _crokinole if state.variant == "crokinole" else _carrom_like
        outcome = make(data, state)
        frozen = state.to_json()
        ruling = adjudicate(state, outcome)
        assert state.to_json() == frozen  # the input state is never changed
        _check_invariants(state, ruling.state)
        assert GameState.from_json(ruling.state.to_json()) == ruling.state
        for placed in ruling.returned:
            others = [p for p in ruling.state.pieces if p.position is not None and p.id != placed.piece_id]
            rp = ruling.state.radius(placed.kind)
            assert all(math.hypot(p.x - placed.x, p.y - placed.y) >= rp + ruling.state.radius(p.kind) - 1e-9 for p in others)
        state = ruling.state


@settings(max_examples=25, deadline=None)
@example(variant="icf", x=0.2191, y=-0.2526)  # centred on a base circle: covers it, legal
@example(variant="hikone", x=0.0, y=-0.22)  # on the tee spot
@given(
    variant=st.sampled_from(["icf", "online", "hikone", "crokinole"]),
    x=st.floats(-0.4, 0.4),
    y=st.floats(-0.4, 0.4),
)
def test_snapped_placement_is_legal_and_legal_placements_stay(variant, x, y):
    state = FACTORIES[variant]()
    radius = {"icf": 0.02065, "online": 0.02065, "hikone": 0.01525, "crokinole": 0.015875}[variant]
    module = {"icf": icf, "online": online, "hikone": hikone, "crokinole": crokinole}[variant]
    verdict = module.check_placement(state, x, y, radius)
    sx, sy = module.snap_placement(state, x, y, radius)
    assert module.check_placement(state, sx, sy, radius).ok
    if verdict.ok:
        assert (sx, sy) == (x, y)
    else:
        assert math.isclose(verdict.distance, math.hypot(sx - x, sy - y))


@pytest.mark.parametrize("variant", ["icf", "online", "hikone", "crokinole"])
def test_snapping_many_placements_gives_the_one_at_a_time_spots(variant):
    """ICF-3, ONL-1, HIK-2, CRK-1: ``snap_placements`` on 300 random centres (more than one
    search chunk, most of them illegal) gives each centre the spot ``snap_placement`` gives it."""
    state = FACTORIES[variant]()
    radius = {"icf": 0.02065, "online": 0.02065, "hikone": 0.01525, "crokinole": 0.015875}[variant]
    module = {"icf": icf, "online": online, "hikone": hikone, "crokinole": crokinole}[variant]
    x, y = np.random.default_rng(5).uniform(-0.4, 0.4, (2, 300))
    sx, sy = module.snap_placements(state, x, y, radius)
    one = np.array([module.snap_placement(state, a, b, radius) for a, b in zip(x, y)])
    np.testing.assert_allclose(np.c_[sx, sy], one, rtol=0, atol=1e-12)
    assert np.mean((sx != x) | (sy != y)) > 0.5
    with pytest.raises(ValueError, match="'x'.*Got nan"):
        module.snap_placements(state, [0.0, np.nan], 0.0, radius)
