"""The neighbour grid and event queue of the engine (carromlab/engine/_core.pyx) on dense
scenes of up to 63 coins.

The grid only skips pairs that cannot meet and visits the others in the order of an
all-pairs scan, so a run with one grid cell (every disc a candidate of every other) must
give bit-identical events and final states; and no contact may be missed: no two discs
overlap by more than 1e-10 m at the end of a dense scene.
"""

import dataclasses
import math

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.engine import _core
from carromlab.engine.simulate import engine_setup
from carromlab.equipment.layout import default_specs

OVERLAP_TOL = 1e-10  # m, the bound of the task (docs/engine.md: touching tolerance 1e-10 m)


def _dense_scene(board: Board, specs: dict, kinds: tuple[str, ...], n: int, seed: int, spacing: float,
                 striker_xy: tuple[float, float]) -> Scene:
    """Up to n coins on a jittered triangular lattice of the given centre spacing (m),
    clear of the holes, the pegs, the striker position and the board edge."""
    rng = np.random.default_rng(seed)
    r = specs[kinds[0]].radius
    h = board.half_size
    rs = 0.021
    pts: list[tuple[float, float]] = []
    rows = int(2 * h / (spacing * math.sqrt(3) / 2)) + 1
    cand = [((k + 0.5 * (row % 2)) * spacing - h, row * spacing * math.sqrt(3) / 2 - h)
            for row in range(rows) for k in range(int(2 * h / spacing) + 1)]
    for idx in rng.permutation(len(cand)):
        x, y = cand[idx] + rng.uniform(-1, 1, 2) * 0.5 * (spacing - 2 * r - 1e-6)
        inside = math.hypot(x, y) < h - r - 1e-3 if board.shape == "round" else max(abs(x), abs(y)) < h - r - 1e-3
        ok = inside and math.hypot(x - striker_xy[0], y - striker_xy[1]) > r + rs + 1e-6
        ok &= all(math.hypot(x - hl.x, y - hl.y) > hl.capture_radius(r) + 1e-6 for hl in board.holes)
        ok &= all(math.hypot(x - pg.x, y - pg.y) > r + pg.radius + 1e-6 for pg in board.pegs)
        ok &= all(math.hypot(x - u, y - v) > 2 * r + 1e-7 for u, v in pts)
        if ok:
            pts.append((x, y))
        if len(pts) == n:
            break
    frame = pd.DataFrame({"kind": [kinds[k % len(kinds)] for k in range(len(pts))],
                          "x": [p[0] for p in pts], "y": [p[1] for p in pts]})
    return Scene(board, frame, specs, "dark" if board.shape == "round" else "striker")


def _case(seed: int):
    """A dense scene (carrom ICF, Hikone or crokinole) and a hard shot into it."""
    rng = np.random.default_rng(seed)
    game = ("icf", "icf", "hikone", "crokinole")[seed % 4]
    board = {"icf": Board.icf, "hikone": Board.hikone, "crokinole": Board.crokinole}[game]()
    specs = default_specs(game)
    kinds = {"icf": ("white", "black"), "hikone": ("red", "green"), "crokinole": ("dark", "light")}[game]
    h = board.half_size
    sx, sy = (0.0, -0.3048) if game == "crokinole" else (rng.uniform(-0.15, 0.15), -h + 0.11)
    spacing = 2 * specs[kinds[0]].radius * rng.uniform(1.0001, 1.6)
    scene = _dense_scene(board, specs, kinds, int(rng.integers(20, 64)), seed, spacing, (sx, sy))
    shot = Shot(sx, sy, rng.uniform(0.4, math.pi - 0.4), rng.uniform(2.0, 9.0))
    return scene, shot


def _raw(scene: Scene, shot: Shot, params: PhysicsParams, cells: int | None) -> dict:
    setup = engine_setup(scene, params)
    if cells is not None:
        setup.grid_cells = cells
    return _core.simulate_one(setup, scene.arrays["xy"], shot.x, shot.y, shot.angle, shot.speed, shot.spin, True)


LAWS = [PhysicsParams(), PhysicsParams(e_disc=0.2), PhysicsParams(friction_law="slide_spin"),
        PhysicsParams(friction_law="stribeck"), PhysicsParams(air_drag=0.3)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, len(LAWS) - 1))
def test_grid_equals_all_pairs_scan(seed, law):
    """Every event and the final state agree bit for bit with the one-cell grid."""
    scene, shot = _case(seed)
    params = dataclasses.replace(LAWS[law], max_events=3000)
    a = _raw(scene, shot, params, None)
    b = _raw(scene, shot, params, 1)
    for key in ("n_events", "t_end", "truncated"):
        assert a[key] == b[key], key
    for key in ("x", "y", "vx", "vy", "omega", "status", "ev_f", "ev_i", "seg_f"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_no_contact_missed_in_dense_scenes(seed):
    """At the end of a dense scene no two discs on the board overlap by more than 1e-10 m."""
    scene, shot = _case(seed)
    res = simulate(scene, shot, PhysicsParams(max_events=20_000))
    fin = res.final
    on = fin[fin["status"] == "board"]
    xy = on[["x", "y"]].to_numpy()
    r = scene.arrays["radius"][on["id"].to_numpy()]
    gap = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1)) - (r[:, None] + r[None, :])
    np.fill_diagonal(gap, np.inf)
    assert gap.min() >= -OVERLAP_TOL, f"overlap {-gap.min():.3g} m"
