"""Batch simulation agrees with single shots and does not depend on threads or chunks."""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot, simulate, simulate_batch
from carromlab.engine.batch import task_size

H = Board.icf().half_size
Y0 = -H + 0.1174


@pytest.fixture
def shots(rng):
    n = 64
    return dict(
        x=rng.uniform(-0.2, 0.2, n),
        y=np.full(n, Y0),
        angle=rng.uniform(0.3, math.pi - 0.3, n),
        speed=rng.uniform(1.0, 8.0, n),
        spin=rng.uniform(-50, 50, n),
    )


def test_batch_matches_single_shots(shots):
    scene = Scene.icf_break()
    params = PhysicsParams()
    df = simulate_batch(scene, **shots, params=params, workers=1, final_positions=True)
    for k in range(0, 64, 7):
        res = simulate(scene, Shot(*(shots[c][k] for c in ("x", "y", "angle", "speed", "spin"))), params)
        fin = res.final
        assert df["striker_pocketed"].iat[k] == (res.striker_fate == "pocketed")
        assert df["first_contact"].iat[k] == (-1 if res.first_contact is None else res.first_contact)
        for kind in ("white", "black", "queen"):
            assert df[f"pocketed_{kind}"].iat[k] == ((fin["kind"] == kind) & (fin["status"] == "pocketed")).sum()
        assert df["n_events"].iat[k] == res.n_events
        np.testing.assert_allclose(df.attrs["final_xy"][k], fin[["x", "y"]].to_numpy(), atol=1e-6)


def test_batch_independent_of_workers_and_chunks(shots):
    scene = Scene.icf_break()
    a = simulate_batch(scene, **shots, workers=1, chunk_size=64)
    b = simulate_batch(scene, **shots, workers=2, chunk_size=5)
    pd.testing.assert_frame_equal(a, b)


def test_batch_shot_does_not_depend_on_the_shot_before(shots):
    """A shot of a one-scene batch, which keeps the pieces the shot before left at rest,
    gives to the last bit what it gives alone in its task (final positions and details
    too), under both a numeric friction law and Coulomb."""
    scene = Scene.icf_break()
    for params in (PhysicsParams(), PhysicsParams(friction_law="coulomb")):
        kw = dict(params=params, workers=1, final_positions=True, details=True)
        together = simulate_batch(scene, **shots, chunk_size=64, **kw)
        alone = simulate_batch(scene, **shots, chunk_size=1, **kw)
        pd.testing.assert_frame_equal(together, alone, check_exact=True)
        for key in ("final_xy", "pocket", "t_out"):
            np.testing.assert_array_equal(together.attrs[key], alone.attrs[key])
        assert (together["n_events"] > 1).mean() > 0.5  # most shots move pieces


@pytest.mark.parametrize("n_shots", [2_048, 10_000, 100_000, 1_000_000])
@pytest.mark.parametrize("workers", [2, 4])
def test_threads_get_even_shares_of_a_batch(n_shots, workers):
    """Threads take tasks as they free up; with equal-cost shots the busiest thread does at
    most a quarter more than an even share (10,000 shots in tasks of 4,096 on 2 threads
    gave one thread 8,192: 1.64x its share)."""
    size = task_size(n_shots, workers, 4096)
    assert 1 <= size <= 4096
    tasks = -(-n_shots // size)
    busiest = -(-tasks // workers) * size
    assert busiest <= 1.25 * n_shots / workers
    assert task_size(n_shots, 1, 4096) == 4096


def test_batch_summary_memory_is_small():
    """A million-shot summary must fit well under 1 GB: under 200 bytes a shot."""
    df = simulate_batch(Scene.icf_break(), 0.0, Y0, np.linspace(1.2, 1.9, 1000), 5.0)
    assert df.memory_usage(deep=True).sum() / len(df) < 200


def test_batch_rejects_bad_shots():
    scene = Scene.icf_break()
    with pytest.raises(ValueError, match="'speed'.*Got -1.0 at index 1"):
        simulate_batch(scene, 0.0, Y0, 1.5, [1.0, -1.0])
    with pytest.raises(ValueError, match="striker placement.*at shot 1"):
        simulate_batch(scene, [0.0, 0.0], [Y0, 0.0], 1.5, 1.0)
    # one placement broadcast to many shots is checked once, and still rejected
    with pytest.raises(ValueError, match="must not overlap a piece.*Got \\(0, 0\\) m,"):
        simulate_batch(scene, 0.0, 0.0, np.linspace(0, 1, 10_000), 1.0, chunk_size=100)
    with pytest.raises(ValueError, match="'workers'"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, workers=0)
    with pytest.raises(ValueError, match="broadcast"):
        simulate_batch(scene, [0.0, 0.1], Y0, [1.5, 1.0, 1.2], 1.0)


def test_batch_details_match_single_shots(shots):
    """Pocket, capture time, the striker's first impact, reach and direct hits agree with
    the event log."""
    scene = Scene.icf_break()
    df = simulate_batch(scene, **shots, workers=2, chunk_size=9, details=True)
    several = 0
    for k in range(0, 64, 3):
        res = simulate(scene, Shot(*(shots[c][k] for c in ("x", "y", "angle", "speed", "spin"))))
        fin = res.final
        names = [h.name for h in scene.board.holes]
        pocket = [names.index(p) if p else -1 for p in fin["pocket"]]
        np.testing.assert_array_equal(df.attrs["pocket"][k], pocket)
        t_out = np.where(np.isnan(fin["t_out"]), np.inf, fin["t_out"])
        np.testing.assert_allclose(df.attrs["t_out"][k], t_out, rtol=1e-6)
        ev = res.events
        mine = ev[((ev["disc"] == res.striker_id) | (ev["other"] == res.striker_id)) & ev["kind"].isin(["disc", "cushion", "peg"])]
        assert df["striker_first"].iat[k] == (mine["kind"].iat[0] if len(mine) else "none")
        seg = res.segments
        ys = np.append(seg[seg["disc"] == res.striker_id]["y0"], fin["y"].iat[-1])
        assert df["striker_reach"].iat[k] == pytest.approx(ys.max(), abs=1e-6)
        assert int(df["striker_touched_mask"].iat[k]) == sum(1 << i for i in res.touched_by_striker)
        several += len(res.touched_by_striker) > 1
    assert several > 0  # the shots exercise later direct hits


def test_batch_frame_is_built_on_the_arrays_entry_point():
    """simulate_batch is simulate_batch_arrays(...).frame(): the same values column by
    column (categoricals decoded from their codes), the same attrs, and the direction in
    degrees beside the radians."""
    from carromlab.engine.batch import simulate_batch_arrays

    scene = Scene.icf_break()
    kw = dict(workers=1, details=True, final_positions=True, final_dtype="float64")
    angles, speeds = np.linspace(1.2, 1.9, 6), np.linspace(1.0, 7.0, 6)
    df = simulate_batch(scene, 0.0, -0.2526, angles, speeds, **kw)
    arrays = simulate_batch_arrays(scene, 0.0, -0.2526, angles, speeds, **kw)
    names = list(arrays.columns)
    assert list(df.columns) == [*names[: names.index("angle") + 1], "angle_deg", *names[names.index("angle") + 1 :]]
    assert len(arrays) == len(df) == 6
    np.testing.assert_allclose(df["angle_deg"], np.degrees(angles), rtol=1e-15)
    for name, values in arrays.columns.items():
        if name in arrays.categories:
            assert df[name].tolist() == [arrays.categories[name][c] for c in values], name
        else:
            np.testing.assert_array_equal(df[name].to_numpy(), values, err_msg=name)
    for key in ("final_xy", "pocket", "t_out"):
        np.testing.assert_array_equal(df.attrs[key], getattr(arrays, key), err_msg=key)
    both = type(arrays).concat([arrays, arrays.take([5, 0])])
    assert len(both) == 8 and both.columns["t_end"][6] == arrays.columns["t_end"][5]
    np.testing.assert_array_equal(both.final_xy[7], arrays.final_xy[0])
