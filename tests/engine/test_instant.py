"""Impacts at one instant (docs/physics.md and docs/engine.md, "Impacts at one instant").

An impact inside a touching group sets off others at the same instant. The engine carries
them out before it predicts again: among touching pairs that approach, the pair that meets
first goes first (its gap over its closing speed, 0 when touching exactly or overlapping
by rounding), ties to the lowest disc indices. These tests build such a group by hand (a
disc A struck head on, touching two discs up front at 30 degrees either side) and read the
order from the event log.
"""

import math

import numpy as np
import pytest

from carromlab import PhysicsParams, Shot, simulate

from .helpers import equal_discs, scene_with

R = 0.016  # radius of equal_discs(), m
A_Y = 0.3  # disc A (index 0), straight ahead of the striker (index 3) at the origin
PARAMS = PhysicsParams(e_disc=1.0, mu_contact=0.0)


def _up_front(side: float, gap: float) -> tuple[float, float]:
    """Centre of a disc at 30 degrees to A's left (side -1) or right (+1), with a gap (m)
    between the two."""
    d = 2 * R + gap
    return side * d * math.sin(math.pi / 6), A_Y + d * math.cos(math.pi / 6)


def _first_instant(gap_1: float, gap_2: float):
    """Discs 1 (left) and 2 (right) up front of A with the given gaps: the disc pairs of
    the impacts at the striker's first impact, in order, and the result."""
    pieces = [("white", 0.0, A_Y), ("black", *_up_front(-1, gap_1)), ("white", *_up_front(+1, gap_2))]
    res = simulate(scene_with(pieces, specs=equal_discs()), Shot(0.0, 0.0, math.pi / 2, 2.0), PARAMS)
    ev = res.events[res.events["kind"] == "disc"]
    first = ev[ev["t"] == ev["t"].iloc[0]]
    return [tuple(sorted((int(i), int(j)))) for i, j in zip(first["disc"], first["other"])], res


def test_the_pair_that_meets_first_goes_first_whatever_the_indices():
    """Disc 2 touches A exactly, disc 1 across 5e-11 m (within the touching tolerance,
    1e-10 m): A meets disc 2 first, although disc 1 has the lower index."""
    pairs, _ = _first_instant(5e-11, 0.0)
    assert pairs[:3] == [(0, 3), (0, 2), (0, 1)]


def test_ties_go_to_the_lowest_indices():
    """Both discs touch A exactly, mirror images of each other: disc 1 first."""
    pairs, _ = _first_instant(0.0, 0.0)
    assert pairs[:3] == [(0, 3), (0, 1), (0, 2)]


@pytest.mark.parametrize("gaps", [(5e-11, 0.0), (0.0, 0.0), (0.0, 8e-11)])
def test_the_instant_conserves_momentum_and_energy(gaps):
    """Elastic and frictionless impacts at one instant: the momentum and the kinetic
    energy of the four discs just after it are the striker's just before, to 1e-12
    (relative), and the instant leaves no pair approaching."""
    _, res = _first_instant(*gaps)
    ev = res.events[res.events["kind"] == "disc"]
    t = ev["t"].iloc[0]
    before = res.positions_at(np.array([np.nextafter(t, 0.0)]))
    after = res.positions_at(np.array([t]))
    for s in (before, after):
        assert len(s) == 4
    p0 = np.array([before.vx.sum(), before.vy.sum()])  # equal masses
    p1 = np.array([after.vx.sum(), after.vy.sum()])
    np.testing.assert_allclose(p1, p0, rtol=0, atol=1e-12 * np.abs(p0).max())
    e0 = (before.vx**2 + before.vy**2).sum()
    e1 = (after.vx**2 + after.vy**2).sum()
    assert e1 == pytest.approx(e0, rel=1e-12)
    xy = after[["x", "y"]].to_numpy()
    v = after[["vx", "vy"]].to_numpy()
    for i in range(4):
        for j in range(i + 1, 4):
            d = xy[j] - xy[i]
            if np.hypot(*d) - 2 * R <= 1e-10:
                assert (v[j] - v[i]) @ d / np.hypot(*d) >= -1e-9  # none approaching
