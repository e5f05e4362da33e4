"""Placement snapping for many games at once: each game's spots equal its own one-game
snap, every spot is legal, and none is farther than the nearest legal candidate."""

import dataclasses

import numpy as np
import pytest

from carromlab.match import Game, RandomPolicy, game_seed, new_state
from carromlab.match.lockstep import step
from carromlab.match.scene import shot_radius
from carromlab.rules import placement_region, snap_placements
from carromlab.match.geometry import placement_target
from carromlab.rules.arrays import GameArrays, placement_regions
from carromlab.rules.placement import nearest_spots

from ..conftest import SEED


def _states(variant, n=12, shots=6, players=2):
    games = [Game(new_state(variant, players), RandomPolicy(), seed=game_seed(SEED, g), game=g, record=False) for g in range(n)]
    for _ in range(shots):
        step([g for g in games if g.end is None])
    return [g.state for g in games]


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("online", 2), ("hikone", 2), ("hikone", 4), ("crokinole", 4)])
def test_regions_on_arrays_are_each_games_region(variant, players):
    # every state of a few games, shot by shot: first shots (Hikone's tee spot), pieces
    # near the marks, pieces inside the own area (Hikone doubles)
    games = [Game(new_state(variant, players), RandomPolicy(), seed=game_seed(SEED, g), game=g, record=False) for g in range(8)]
    states = []
    for _ in range(10):
        states += [g.state for g in games if g.end is None]
        step([g for g in games if g.end is None])
    fast = placement_regions(GameArrays.from_states(states))
    for k, s in enumerate(states):
        one = placement_region(s, shot_radius(s))
        assert fast.areas[fast.area[k]] is one.area
        rows = fast.discs[k][np.isfinite(fast.discs[k][:, 0])]
        # each piece once, with the largest clearance of its rows in the one-game region
        # (Hikone doubles: a piece inside the own area, not to be touched)
        largest = {tuple(r[:3]): r[3] for r in sorted(one.discs().tolist(), key=lambda r: r[3])}
        assert np.array_equal(np.unique(rows, axis=0), np.unique(np.array([[*d, m] for d, m in largest.items()]).reshape(-1, 4), axis=0))
    rng = np.random.default_rng(SEED)
    k = rng.integers(len(states), size=200)
    x = np.array([placement_target(states[i], rng.uniform())[0] for i in k]) + rng.normal(0, 0.01, k.size)
    y = np.array([placement_target(states[i], 0.5)[1] for i in k]) + rng.normal(0, 0.01, k.size)
    a = nearest_spots(fast, k, x, y)
    b = nearest_spots([placement_region(s, shot_radius(s)) for s in states], k, x, y)
    assert all(np.array_equal(p, q, equal_nan=True) for p, q in zip(a, b))


@pytest.mark.parametrize("variant", ["icf", "online", "hikone", "crokinole"])
def test_many_games_snap_as_each_alone(variant):
    states = _states(variant)
    rng = np.random.default_rng(SEED)
    regions = [placement_region(s, shot_radius(s)) for s in states]
    # centres near each region's legal candidates, many of them blocked or off the marks
    picks = [rng.integers(len(r.area.allowed[0]), size=3) for r in regions]
    x = np.concatenate([r.area.allowed[0][p] for r, p in zip(regions, picks)]) + rng.normal(0, 0.02, 3 * len(states))
    y = np.concatenate([r.area.allowed[1][p] for r, p in zip(regions, picks)]) + rng.normal(0, 0.02, 3 * len(states))
    which = np.repeat(np.arange(len(states)), 3)
    sx, sy, ok = nearest_spots(regions, which, x, y)
    assert (~ok).sum() >= 3  # the search ran
    for g, s in enumerate(states):
        rows = which == g
        ax, ay = snap_placements(s, x[rows], y[rows], shot_radius(s))
        assert np.array_equal(ax, sx[rows]) and np.array_equal(ay, sy[rows])
        assert regions[g].legal(ax, ay).all()
        # no legal candidate is nearer than the spot (the bisection only moves closer)
        cx, cy = regions[g].area.allowed
        free = regions[g].legal(cx, cy)
        for qx, qy, bx, by in zip(x[rows], y[rows], ax, ay):
            nearest = np.hypot(cx[free] - qx, cy[free] - qy).min()
            assert np.hypot(bx - qx, by - qy) <= nearest + 1e-12
    assert np.array_equal(ok, np.hypot(sx - x, sy - y) == 0)


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("online", 2), ("hikone", 2), ("hikone", 4)])
def test_compiled_bisection_is_the_rounds_on_the_constraints(variant, players):
    # the areas whose constraints are compiled (Area.compiled: the ICF baselines, the
    # online centre line, the Hikone segments) find the spots the bisection in rounds on
    # the constraints themselves finds, bit for bit
    states = _states(variant, players=players)
    regions = [placement_region(s, shot_radius(s)) for s in states]
    assert all(r.area.compiled is not None for r in regions)
    rounds = [dataclasses.replace(r, area=dataclasses.replace(r.area, near=None, baseline=None)) for r in regions]
    assert all(r.area.compiled is None for r in rounds)
    rng = np.random.default_rng(SEED)
    picks = [rng.integers(len(r.area.allowed[0]), size=20) for r in regions]
    x = np.concatenate([r.area.allowed[0][p] for r, p in zip(regions, picks)]) + rng.normal(0, 0.02, 20 * len(states))
    y = np.concatenate([r.area.allowed[1][p] for r, p in zip(regions, picks)]) + rng.normal(0, 0.02, 20 * len(states))
    which = np.repeat(np.arange(len(states)), 20)
    a, b = nearest_spots(regions, which, x, y), nearest_spots(rounds, which, x, y)
    assert (~a[2]).sum() >= 20  # the search ran
    assert all(np.array_equal(p, q, equal_nan=True) for p, q in zip(a, b))


@pytest.mark.parametrize(("variant", "players"), [("icf", 2), ("icf", 4), ("online", 2), ("hikone", 2), ("hikone", 4), ("crokinole", 2), ("crokinole", 4)])
def test_placement_line_runs_from_the_shooters_left_to_right(variant, players):
    # ICF-3, ONL-1, HIK-2, CRK-1: t = 0 is the shooter's left end, t = 1 the right, seen
    # facing the board's centre from the middle of the line
    state = new_state(variant, players)
    for seat in range(players):
        s = dataclasses.replace(state, shooter=seat, seat_shots=(1,) * players)  # Hikone: past the tee shot
        (x0, x1), (y0, y1) = placement_target(s, [0.0, 1.0])
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        fx, fy = -mx / np.hypot(mx, my), -my / np.hypot(mx, my)  # facing the centre
        lx, ly = -fy, fx  # the shooter's left
        assert (x0 - mx) * lx + (y0 - my) * ly > 0.1, (seat, x0, y0)
        assert (x1 - mx) * lx + (y1 - my) * ly < -0.1, (seat, x1, y1)
