"""Free spots for returned pieces (rule ICF-13 and its kin): the search's lower bound
:func:`clear_distance` against brute force, and the spots it leads to against a scan
of every grid point."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from carromlab.equipment.board import Board
from carromlab.equipment.layout import OVERLAP_TOL
from carromlab.rules.spots import GRID_STEP, clear_distance, clear_of, nearest_free_spots

R = 0.0159  # m, an ICF coin


def _cluster(seed: int, k: int, spread: float) -> tuple[np.ndarray, np.ndarray]:
    """A target and k coins around it, some packed, some overlapping it."""
    rng = np.random.default_rng(seed)
    target = rng.normal(0.0, 0.01, 2)
    discs = np.empty((k, 3))
    discs[:, :2] = target + rng.normal(0.0, spread, (k, 2))
    discs[:, 2] = rng.choice([R, 0.0206], k)
    return target, discs


def _first_clear_along(target: np.ndarray, discs: np.ndarray, reach: np.ndarray, rays: int) -> np.ndarray:
    """Exactly, along each of ``rays`` directions from the target, the distance to the first
    point clear of every disc: out of each disc's open interval of the ray in turn."""
    ang = np.linspace(0.0, 2.0 * np.pi, rays, endpoint=False)
    u = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    o = target - discs[:, :2]
    b = u @ o.T  # (rays, k)
    root = np.sqrt(np.maximum(b * b - (o * o).sum(axis=1) + reach * reach, 0.0))
    s1, s2 = -b - root, -b + root
    s = np.zeros(rays)
    for _ in range(len(discs) + 1):
        inside = (s1 < s[:, None]) & (s[:, None] < s2)
        s = np.where(inside.any(axis=1), np.max(np.where(inside, s2, -np.inf), axis=1), s)
    return s


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 12), spread=st.sampled_from([0.005, 0.02, 0.04]))
def test_icf_13_clear_distance_bounds_the_nearest_clear_point(seed, k, spread):
    """ICF-13: no point clear of every coin lies nearer the target than the bound (exact
    first clear points along 3,600 rays, to 1e-12 m), and the bound is at least that of
    the coin reaching farthest beyond the target (the search's former start)."""
    target, discs = _cluster(seed, k, spread)
    reach = discs[:, 2] + R
    d = clear_distance(target[None], discs[None, :, :2], reach[None])[0]
    assert d <= _first_clear_along(target, discs, reach, 3600).min() + 1e-12
    assert d >= np.max(reach - np.hypot(*(target - discs[:, :2]).T), initial=0.0) - 1e-15


def test_icf_13_clear_distance_of_a_clear_target_and_of_an_empty_board():
    """ICF-13: a target clear of every coin (or with none near) needs no move."""
    t = np.array([[0.0, 0.0], [0.1, 0.1]])
    centres = np.array([[[0.2, 0.0], [np.inf, 0.0]], [[np.inf, 0.0], [np.inf, 0.0]]])
    assert np.array_equal(clear_distance(t, centres, np.full((2, 2), 2 * R)), [0.0, 0.0])


def test_icf_13_clear_distance_hand_computed_pair():
    """ICF-13: two coins side by side at +-1 cm from the centre: the nearest clear
    point of a coin placed at the centre is where both circles of reach (2 R) cross,
    sqrt((2R)^2 - 0.01^2) from it along the perpendicular."""
    centres = np.array([[[0.01, 0.0], [-0.01, 0.0]]])
    d = clear_distance(np.zeros((1, 2)), centres, np.full((1, 2), 2 * R))[0]
    assert abs(d - np.sqrt((2 * R) ** 2 - 0.01**2)) < 1e-15


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 10))
def test_icf_13_returned_coin_goes_to_the_nearest_free_grid_point(seed, k):
    """ICF-13 (a returned coin on the centre, or the nearest free spot): the spot found is
    free (to the overlap OVERLAP_TOL that rounding may leave), on the board, and no point
    of the target's grid (GRID_STEP) nearer the target is free: every grid point out to
    the spot is tested here, none skipped."""
    board = Board.icf()
    target, discs = _cluster(seed, k, 0.02)
    spot = nearest_free_spots(board, target[None], R, discs[None])[0]
    reach = np.hypot(*(spot - target))
    assert reach <= 4 * R  # found in the first window, where the grid step is GRID_STEP
    assert clear_of(spot[:1], spot[1:], R, discs, -OVERLAP_TOL)[0] and board.contains(spot[:1], spot[1:], R)[0]
    n = int(np.ceil(reach / GRID_STEP)) + 1
    i, j = np.meshgrid(np.arange(-n, n + 1), np.arange(-n, n + 1))
    gx, gy = target[0] + i.ravel() * GRID_STEP, target[1] + j.ravel() * GRID_STEP
    nearer = np.hypot(i.ravel(), j.ravel()) * GRID_STEP < reach - 1e-12
    free = clear_of(gx[nearer], gy[nearer], R, discs, -OVERLAP_TOL) & board.contains(gx[nearer], gy[nearer], R)
    assert not free.any()
