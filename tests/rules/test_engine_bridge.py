"""The bridge from simulated shots to rule outcomes, checked on physical shots."""

import math

import numpy as np
import pytest

from carromlab import PhysicsParams, Shot, simulate
from carromlab.rules import adjudicate, crokinole, hikone, icf
from carromlab.rules.engine_bridge import outcome_from_result, scene_for, shot_piece


def _play(state, shot, params=None):
    scene, ids = scene_for(state)
    res = simulate(scene, shot, params or PhysicsParams())
    return res, outcome_from_result(res, state, ids)


def test_break_outcome_ids_are_game_ids():
    state = icf.new_game()
    scene, ids = scene_for(state)
    assert len(ids) == 19 and scene.n_pieces == 19
    res, out = _play(state, Shot(0.0, -0.2526, math.pi / 2, 6.0))
    kinds = {p.id: p.kind for p in state.pieces}
    for pocketing in out.pocketed:
        if pocketing.kind != "striker":
            assert kinds[pocketing.piece_id] == pocketing.kind
    assert out.first_touch in kinds
    assert len(out.final_positions) == 19


def test_soft_break_is_retaken_rule_icf16():
    """rule ICF-16: a striker that stays in the baseline area may be retaken."""
    state = icf.new_game()
    res, out = _play(state, Shot(0.0, -0.2526, math.pi / 2, 0.05))
    assert not out.striker_left_baseline
    ruling = adjudicate(state, out)
    assert "ICF-16" in ruling.rule_ids and ruling.retake


def test_striker_into_a_pocket_is_a_foul_rule_icf11():
    """rule ICF-11: striker pocketed alone (after the break)."""
    state = icf.new_game().with_(board_shots=1)
    h = state.board.half_size
    pocket = state.board.holes[1]  # south-east
    x, y = 0.1, -h + 0.1174
    angle = math.atan2(pocket.y - y, pocket.x - x)
    res, out = _play(state, Shot(x, y, angle, 2.0))
    assert out.striker_fate == "pocketed"
    ruling = adjudicate(state, out)
    assert "ICF-11" in ruling.rule_ids and not ruling.turn_continues


def test_break_striker_backwards_into_the_own_corner_pocket_rule_icf11_icf16():
    """rules ICF-11, ICF-16: a legal break placement on a base circle (ICF-3), shot back
    into the shooter's own corner pocket: the striker left the baseline area (the pocket,
    centre (-0.34775, -0.34775) m, lies 0.13 m beyond the base circle's 0.0159 m radius),
    so the break counts and the striker foul costs a due and passes the turn, both in the
    one-game reference and through Game.shoot (the array path)."""
    from carromlab.match import RandomPolicy
    from carromlab.match.game import Game

    state = icf.new_game()
    c, hole = state.board.baseline("south").base_circles[0], state.board.holes[0]
    shot = Shot(c.x, c.y, math.atan2(hole.y - c.y, hole.x - c.x), 1.5)
    assert icf.check_placement(state, c.x, c.y, state.radius("striker")).ok
    res, out = _play(state, shot)
    assert out.striker_fate == "pocketed" and out.striker_left_baseline and out.pocketed_ids == ()
    reference = adjudicate(state, out)
    assert [f.rule for f in reference.fouls] == ["ICF-11"] and not reference.retake and reference.state.dues == (1, 0)
    played = Game(state, RandomPolicy(), seed=0).shoot(shot)
    assert played.striker_fate == "pocketed" and played.fouls == ("ICF-11",) and not played.retake
    assert played.after == reference.state


# South baseline area of the ICF board (hand-computed from PHYSICS.md): the outer line at
# y = -(0.37 - 0.1015) = -0.2685 m, the inner line 0.0318 m further in at -0.2367 m, the
# lines' ends at x = +-(0.235 - 0.0159) = +-0.2191 m, where the base circles (radius
# 0.0159 m) are centred on the midline y = -0.2526 m: the area reaches x = +-0.235 m.
# Without spin the striker slides straight, stopping after v^2 / (2 mu g), mu g = 1.1772
# m/s^2 (PhysicsParams(): mu 0.12), and a cushion returns e = 0.75 of its speed.
_AREA_SHOTS = {
    # straight back from the middle: the cushion contact at y = -0.37 + 0.02065 = -0.34935,
    # 0.0809 m behind the outer line; 0.8023 m/s arrives there at v^2 = 0.41584 (m/s)^2 and
    # comes back 0.75^2 * 0.41584 / 2.3544 = 0.09935 m, to rest at y = -0.25, in the area
    "back off the own cushion": (Shot(0.0, -0.2526, -math.pi / 2, 0.8023), (0.0, -0.25), True),
    # along the lines from x = 0.1: 0.6138 m/s slides 0.16 m, past the base circle (0.235)
    "sideways past the line end": (Shot(0.1, -0.2526, 0.0, 0.6138), (0.26, -0.2526), True),
    # 0.5425 m/s slides 0.125 m, to x = 0.225: inside the base circle (0.0059 m from its centre)
    "sideways into the base circle": (Shot(0.1, -0.2526, 0.0, 0.5425), (0.225, -0.2526), False),
}


@pytest.mark.parametrize("case", list(_AREA_SHOTS))
def test_striker_leaving_the_baseline_area_backwards_or_sideways_rule_icf16(case):
    """rule ICF-16: the baseline area is the strip between both baselines and the base
    circles, not just the side behind the inner line: a break striker that goes out
    across the outer line or past the lines' ends left it (even when it comes back), so
    the break counts and is not retaken; one that stops in a base circle never left it.
    The event log, the batch (outcomes_from_batch, OutcomeArrays.from_batch) and a game
    (Game.shoot) agree."""
    from carromlab.engine.batch import simulate_batch_arrays
    from carromlab.match import RandomPolicy
    from carromlab.match.game import Game
    from carromlab.rules.arrays import GameArrays, OutcomeArrays
    from carromlab.rules.engine_bridge import forward_of, outcomes_from_batch

    shot, rest, left = _AREA_SHOTS[case]
    state = icf.new_game()
    assert icf.check_placement(state, shot.x, shot.y, state.radius("striker")).ok
    res, out = _play(state, shot)
    assert res.final[["x", "y"]].iloc[-1].tolist() == pytest.approx(rest, abs=1e-4)
    assert out.striker_left_baseline is left and out.first_touch is None
    scene, ids = scene_for(state)
    batch = simulate_batch_arrays(scene, shot.x, shot.y, shot.angle, shot.speed, details=True, final_positions=True,
                                  forward=forward_of(state))  # fmt: skip
    assert outcomes_from_batch(batch.frame(), state, ids)[0].striker_left_baseline is left
    games = GameArrays.from_states([state])
    assert OutcomeArrays.from_batch(batch, games, ids).striker_left_baseline.tolist() == [left]
    ruling = adjudicate(state, out)
    assert ruling.retake is not left and ("ICF-16" in ruling.rule_ids) is not left
    assert Game(state, RandomPolicy(), seed=0).shoot(shot).retake is not left


def test_hikone_cushion_first_rule_hik9():
    """rule HIK-9 reads whether the striker met the frame before any puck."""
    state = hikone.new_game()
    h = state.board.half_size
    res, out = _play(state, Shot(0.0, -h + 0.08, 0.05, 3.0))
    ev = res.events
    first = ev[(ev["disc"] == res.striker_id) & ev["kind"].isin(["disc", "cushion"])]
    assert out.cushion_first == (first["kind"].iat[0] == "cushion")
    assert out.cushion_first


def test_crokinole_chain_rule_crk3():
    """rule CRK-3: the disc played reaches an opponent through an own disc."""
    state = crokinole.new_game()
    me = state.colours[state.team_of(state.shooter)]
    other = state.colours[1 - state.team_of(state.shooter)]
    own_id = next(p.id for p in state.pieces if p.kind == me and p.where == "hand" and p.id != shot_piece(state))
    opp_id = next(p.id for p in state.pieces if p.kind == other and p.where == "hand")
    pieces = tuple(
        p.__class__(p.id, p.kind, "board", 0.06, y, None) if p.id in (own_id, opp_id) else p
        for p, y in ((p, 0.05 if p.id == own_id else 0.12) for p in state.pieces)
    )
    state = state.with_(pieces=pieces)
    res, out = _play(state, Shot(0.06, -math.sqrt(0.3048**2 - 0.06**2), math.pi / 2, 1.6))
    assert out.striker == shot_piece(state)
    assert out.chain[:2] == (own_id, opp_id)
    ruling = adjudicate(state, out)
    assert not any(f.rule == "CRK-3" for f in ruling.fouls)


def test_outcome_is_consistent_with_engine_counts(rng):
    """Pocketed ids in the outcome match the engine's final statuses."""
    state = icf.new_game()
    for angle in rng.uniform(1.3, 1.85, 5):
        res, out = _play(state, Shot(0.0, -0.2526, angle, 7.0))
        pocketed_engine = int((res.final["status"] == "pocketed").sum())
        assert len(out.pocketed) == pocketed_engine
        assert np.all(out.final_positions["on_board"] == (res.final["status"].iloc[:-1] == "board").to_numpy())


@pytest.mark.parametrize("variant", ["icf", "hikone", "crokinole"])
def test_batch_outcomes_agree_with_single_shots(variant, rng):
    """The same shots adjudicated from the batch and from the event log give the same
    rulings (fouls, turn)."""
    from carromlab import simulate_batch
    from carromlab.rules import snap_placement
    from carromlab.rules.engine_bridge import forward_of, frame_reach_of, outcomes_from_batch

    mod = {"icf": icf, "hikone": hikone, "crokinole": crokinole}[variant]
    state = mod.new_game()
    if variant == "icf":
        state = state.with_(board_shots=1)
    scene, ids = scene_for(state)
    r = scene.specs[scene.striker].radius
    n = 12
    xs, ys = [], []
    for x in rng.uniform(-0.15, 0.15, n):
        px, py = snap_placement(state, x, -scene.board.half_size + 0.12, r)
        xs.append(px)
        ys.append(py)
    angle = rng.uniform(1.2, 1.95, n)
    speed = rng.uniform(1.0, 6.0 if variant != "crokinole" else 2.0, n)
    batch = simulate_batch(scene, xs, ys, angle, speed, details=True, final_positions=True,
                           forward=forward_of(state), carriers=(scene.striker,), frame_reach=frame_reach_of(state))  # fmt: skip
    outs = outcomes_from_batch(batch, state, ids)
    for k in range(n):
        res = simulate(scene, Shot(xs[k], ys[k], angle[k], speed[k]))
        single = outcome_from_result(res, state, ids)
        assert [p.piece_id for p in outs[k].pocketed] == [p.piece_id for p in single.pocketed]
        assert outs[k].first_touch == single.first_touch
        assert outs[k].striker_fate == single.striker_fate
        assert outs[k].cushion_first == single.cushion_first
        assert outs[k].chain == tuple(sorted(single.chain))
        assert outs[k].striker_left_baseline == single.striker_left_baseline
        a, b = adjudicate(state, outs[k]), adjudicate(state, single)
        assert a.rule_ids == b.rule_ids and a.turn_continues == b.turn_continues


def _states():
    from carromlab.rules import online

    return {
        "icf break": icf.new_game(),
        "icf": icf.new_game().with_(board_shots=1),
        "online": online.new_game().with_(board_shots=1),
        "hikone": hikone.new_game(),
        "hikone doubles": hikone.new_game(players=4),
        "crokinole": _crokinole_with_discs(),
    }


def _crokinole_with_discs():
    """A crokinole game with eight discs of both colours on the board, four of them in
    the disc played's way."""
    state = crokinole.new_game()
    spots = iter([(0.0, -0.1), (-0.03, -0.17), (0.035, -0.16), (0.0, -0.22), (0.03, -0.05), (-0.05, 0.0), (0.06, 0.08), (-0.07, -0.2)])
    hand = [p.id for p in state.pieces if p.where == "hand" and p.id != shot_piece(state)]
    moved = {pid: next(spots) for pid in hand[:4] + hand[-4:]}
    pieces = tuple(p.__class__(p.id, p.kind, "board", *moved[p.id], None) if p.id in moved else p for p in state.pieces)
    return state.with_(pieces=pieces)


@pytest.mark.parametrize("key", list(_states()))
def test_batch_outcome_is_the_event_log_outcome_field_by_field(key, rng):
    """Every field the rules read, from the batch (outcomes_from_batch and
    OutcomeArrays.from_batch) and from the event log (outcome_from_result), on 40 varied
    shots per position: the striker's later direct hits included (striker_touched_mask)."""
    from carromlab.engine.batch import simulate_batch_arrays
    from carromlab.rules import snap_placement
    from carromlab.rules.arrays import GameArrays, OutcomeArrays
    from carromlab.rules.engine_bridge import forward_of, frame_reach_of, outcomes_from_batch

    state = _states()[key]
    scene, ids = scene_for(state)
    r = scene.specs[scene.striker].radius
    n = 40
    place = [snap_placement(state, x, -scene.board.half_size + 0.12, r) for x in rng.uniform(-0.15, 0.15, n)]
    xs, ys = (np.array(c) for c in zip(*place))
    angle = rng.uniform(1.1, 2.05, n)
    speed = rng.uniform(0.5, 7.0 if key != "crokinole" else 2.0, n)
    spin = rng.uniform(-30.0, 30.0, n)
    arrays_batch = simulate_batch_arrays(scene, xs, ys, angle, speed, spin, workers=1, details=True, final_positions=True,
                                         final_dtype="float64", forward=forward_of(state), carriers=(scene.striker,),
                                         frame_reach=frame_reach_of(state))  # fmt: skip
    outs = outcomes_from_batch(arrays_batch.frame(), state, ids)  # the frame simulate_batch returns
    singles = [outcome_from_result(simulate(scene, Shot(*a)), state, ids) for a in zip(xs, ys, angle, speed, spin)]
    several = framed = 0
    for b, e in zip(outs, singles):
        assert [(p.piece_id, p.kind, p.hole) for p in b.pocketed] == [(p.piece_id, p.kind, p.hole) for p in e.pocketed]
        assert [p.time for p in b.pocketed] == pytest.approx([p.time for p in e.pocketed], rel=1e-6)
        assert b.first_touch == e.first_touch
        assert b.striker_touched[:1] == e.striker_touched[:1] and set(b.striker_touched) == set(e.striker_touched)
        several += len(e.striker_touched) > 1
        assert (b.striker_fate, b.left_board, b.cushion_first) == (e.striker_fate, e.left_board, e.cushion_first)
        assert set(b.touched_before_frame) == set(e.touched_before_frame)
        framed += set(e.touched_before_frame) != set(e.striker_touched)
        assert b.striker_left_baseline == e.striker_left_baseline
        assert (b.chain, b.striker) == (tuple(sorted(e.chain)), e.striker)
        fb, fe = b.final_positions.sort_values("id"), e.final_positions.sort_values("id")
        assert fb["id"].tolist() == fe["id"].tolist() and fb["on_board"].tolist() == fe["on_board"].tolist()
        on = fe["on_board"].to_numpy()
        np.testing.assert_allclose(fb[["x", "y"]].to_numpy()[on], fe[["x", "y"]].to_numpy()[on], rtol=0, atol=1e-12)
    assert several > 0  # the shots exercise later direct hits
    assert framed > 0 or key == "crokinole"  # and hits after the frame (no cushion on a crokinole board)
    games = GameArrays.from_states([state] * n)
    arrays, reference = OutcomeArrays.from_batch(arrays_batch, games, ids), OutcomeArrays.from_outcomes(singles, games)
    for name in ("fell", "first_touch", "fate", "left_board", "striker_left_baseline", "touched", "cushion_first", "touched_before_frame", "chain", "striker"):
        np.testing.assert_array_equal(getattr(arrays, name), getattr(reference, name), err_msg=name)
    np.testing.assert_allclose(arrays.final_xy, reference.final_xy, rtol=0, atol=1e-12)


@pytest.mark.parametrize("every_direct_hit", [False, True], ids=["seed reading", "every direct hit"])
def test_second_direct_hit_inside_the_own_area_rule_hik9(every_direct_hit):
    """rule HIK-9 in doubles: the striker first hits a puck outside the own area line,
    then a puck lying wholly inside it: indirect by seed 001 (no foul), a foul under
    ``HikoneOptions(every_direct_hit=True)``. The lockstep path (batch, arrays) and
    adjudicate on the event-log outcome see both hits and rule alike."""
    from carromlab import simulate_batch
    from carromlab.match.game import Game
    from carromlab.match.lockstep import step
    from carromlab.match.policies import RandomPolicy
    from carromlab.rules.engine_bridge import forward_of, frame_reach_of, outcomes_from_batch
    from carromlab.rules.hikone import inside_own_area

    state = hikone.new_game(players=4)
    pcs = list(state.pieces)
    pcs[1] = pcs[1].__class__(1, pcs[1].kind, "board", 0.0, -0.20, None)  # outside the area line
    pcs[2] = pcs[2].__class__(2, pcs[2].kind, "board", 0.06, -0.262, None)  # wholly inside it
    state = state.with_(pieces=tuple(pcs), options=hikone.HikoneOptions(every_direct_hit=every_direct_hit))
    r = state.radius(pcs[2].kind)
    assert not inside_own_area(state, 0, 0.0, -0.20, r) and inside_own_area(state, 0, 0.06, -0.262, r)
    shot = Shot(-0.031249014344475426, -0.22024819850417154, -0.2, 1.0)
    res, single = _play(state, shot)
    assert single.striker_touched[:2] == (1, 2) and not single.cushion_first
    scene, ids = scene_for(state)
    batch = simulate_batch(scene, shot.x, shot.y, shot.angle, shot.speed, details=True, final_positions=True,
                           final_dtype="float64", forward=forward_of(state), carriers=(scene.striker,), frame_reach=frame_reach_of(state))  # fmt: skip
    assert set(outcomes_from_batch(batch, state, ids)[0].striker_touched) == set(single.striker_touched)
    reference = adjudicate(state, single)
    assert single.touched_before_frame[:2] == (1, 2) and ("HIK-9" in reference.rule_ids) == every_direct_hit
    game = Game(state, RandomPolicy(), seed=0)
    (played,) = step([game], [shot], policy="scripted")
    assert played.executed.shot == shot
    assert played.first_touch == 1
    assert set(played.fouls) == {f.rule for f in reference.fouls}
    assert played.turn_continues == reference.turn_continues
    assert played.after == reference.state


def _sparse_doubles(places):
    """A Hikone doubles game (south shooting) with the jack off every path and only the
    given pucks on the board (the others pocketed)."""
    from .rules_testkit import move, put

    state = hikone.new_game(players=4)
    places = {0: (0.22, 0.05), **places}
    state = move(state, "pocketed", *(p.id for p in state.pieces if p.id not in places))
    for pid, (x, y) in places.items():
        state = put(state, pid, x, y)
    return state


def _both_paths(state, shot):
    """The event-log outcome of a shot and its striker impacts (disc or cushion), after
    checking that the batch reads the same direct hits and gets the same ruling."""
    from carromlab import simulate_batch
    from carromlab.rules.engine_bridge import forward_of, frame_reach_of, outcomes_from_batch

    res, single = _play(state, shot)
    scene, ids = scene_for(state)
    batch = simulate_batch(scene, shot.x, shot.y, shot.angle, shot.speed, details=True, final_positions=True,
                           final_dtype="float64", forward=forward_of(state), carriers=(scene.striker,),
                           frame_reach=frame_reach_of(state))  # fmt: skip
    (b,) = outcomes_from_batch(batch, state, ids)
    assert set(b.striker_touched) == set(single.striker_touched)
    assert set(b.touched_before_frame) == set(single.touched_before_frame)
    assert adjudicate(state, b).rule_ids == adjudicate(state, single).rule_ids
    ev = res.events
    impacts = ev[((ev["disc"] == res.striker_id) | (ev["other"] == res.striker_id)) & ev["kind"].isin(["disc", "cushion"])]
    return single, impacts


def test_front_frame_first_makes_the_hit_inside_indirect_rule_hik9():
    """rule HIK-9: the striker goes to the front frame and comes back onto puck 1, which
    lies wholly inside the own area: allowed (via a frame outside the area line)."""
    state = _sparse_doubles({1: (0.1, -0.26)})
    out, impacts = _both_paths(state, Shot(-0.1, -0.22, math.atan2(0.505, 0.1), 3.0))
    assert impacts["kind"].tolist()[:2] == ["cushion", "disc"] and impacts["y"].iat[0] > 0.28
    assert out.striker_touched == (1,) and out.touched_before_frame == ()
    assert "HIK-9" not in adjudicate(state, out).rule_ids


def test_outside_puck_then_frame_then_inside_puck_is_allowed_rule_hik9():
    """rule HIK-9: the striker hits puck 5 outside the area, then the front and side
    frames, then puck 1 wholly inside the area: the later hit is via the frame, so it is
    allowed although it is a direct striker hit."""
    state = _sparse_doubles({1: (0.1, -0.26), 5: (0.0, 0.22)})
    line_y = state.board.area_line("south").line.y0
    out, impacts = _both_paths(state, Shot(-0.1, -0.22, 1.2877, 4.0))
    assert out.striker_touched[:2] == (5, 1) and out.touched_before_frame == (5,)
    k = list(scene_for(state)[1]).index(1)  # puck 1's scene id
    between = impacts.iloc[1 : ((impacts["disc"] == k) | (impacts["other"] == k)).to_numpy().argmax()]
    assert (between["kind"] == "cushion").any() and (between["y"] > line_y).all()
    assert "HIK-9" not in adjudicate(state, out).rule_ids


def test_side_frame_first_makes_the_hit_inside_indirect_rule_hik9():
    """rule HIK-9: the striker bounces off the side frame (a frame "outside the area
    line", seed 001, even level with the area) and then hits puck 1 wholly inside the
    area: allowed."""
    state = _sparse_doubles({1: (0.2, -0.27)})
    line_y = state.board.area_line("south").line.y0
    out, impacts = _both_paths(state, Shot(0.0, -0.22, -0.097, 2.0))
    assert impacts["kind"].tolist()[:2] == ["cushion", "disc"]
    assert impacts["x"].iat[0] > 0.28 and impacts["y"].iat[0] < line_y  # the east frame, level with the area
    assert out.cushion_first and out.striker_touched == (1,) and out.touched_before_frame == ()
    assert "HIK-9" not in adjudicate(state, out).rule_ids


def test_own_frame_first_does_not_make_it_indirect_rule_hik9():
    """rule HIK-9: the striker bounces off the shooter's own frame and then hits puck 1
    wholly inside the area: a foul, though the frame came first (``cushion_first``)."""
    state = _sparse_doubles({1: (0.2, -0.265)})
    h = state.board.half_size
    out, impacts = _both_paths(state, Shot(0.0, -0.22, -0.4, 2.0))
    assert impacts["kind"].tolist()[:2] == ["cushion", "disc"]
    assert impacts["y"].iat[0] == pytest.approx(-h + state.radius("striker"), abs=1e-9)  # the south frame
    assert out.cushion_first and out.touched_before_frame == (1,)
    ruling = adjudicate(state, out)
    assert [f.rule for f in ruling.fouls] == ["HIK-9"] and not ruling.turn_continues
