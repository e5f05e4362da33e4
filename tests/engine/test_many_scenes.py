"""A many-scene batch: every shot equals ``simulate`` on the scene built from its row."""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot, simulate, simulate_batch

H = Board.icf().half_size
Y0 = -H + 0.1174
COLS = ("x", "y", "angle", "speed", "spin")


def scattered(rng, n_shots: int, scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """Per-shot positions: the break's pieces, each shot a random subset of them kept in
    place and the others moved to random free spots (rejection sampling) or taken off."""
    base = scene.arrays["xy"]
    r = scene.arrays["radius"][:-1]
    pos = np.repeat(base[None], n_shots, axis=0)
    on = rng.random((n_shots, scene.n_pieces)) < 0.8
    for k in range(n_shots):
        for i in np.flatnonzero(rng.random(scene.n_pieces) < 0.3):
            for _ in range(200):
                p = rng.uniform(-0.3, 0.3, 2)
                d = np.hypot(*(pos[k] - p).T) - (r + r[i])
                d[i] = np.inf
                if (d[on[k]] > 1e-6).all() and np.hypot(*p) > 0.0:
                    pos[k, i] = p
                    break
        pos[k, ~on[k]] = np.nan  # ignored for pieces off the board
    return pos, on


@pytest.fixture
def batch(rng):
    scene = Scene.icf_break()
    n = 40
    pos, on = scattered(rng, n, scene)
    shots = dict(
        x=rng.uniform(-0.2, 0.2, n),
        y=np.full(n, Y0),
        angle=rng.uniform(0.4, math.pi - 0.4, n),
        speed=rng.uniform(1.0, 8.0, n),
        spin=rng.uniform(-50, 50, n),
    )
    # the striker must not start on a moved piece: drop such shots' offending pieces
    for k in range(n):
        gap = np.hypot(pos[k, :, 0] - shots["x"][k], pos[k, :, 1] - Y0) - 0.0355
        on[k] &= ~(gap < 0.001)
    return scene, pos, on, shots


def row_scene(scene: Scene, pos: np.ndarray, on: np.ndarray) -> tuple[Scene, np.ndarray]:
    """The scene holding the pieces of one row, and the row's piece ids in it."""
    ids = np.flatnonzero(on)
    frame = pd.DataFrame({"kind": scene.pieces["kind"].to_numpy()[ids], "x": pos[ids, 0], "y": pos[ids, 1]})
    return Scene(scene.board, frame, scene.specs, scene.striker), ids


def test_float64_final_positions_are_those_of_simulate(batch):
    """final_dtype='float64' keeps the engine's positions exactly (games continue from them);
    the default float32 is their rounding."""
    scene, pos, on, shots = batch
    kw = {"positions": pos, "on_board": on, "workers": 1, "final_positions": True}
    exact = simulate_batch(scene, **shots, final_dtype="float64", **kw).attrs["final_xy"]
    assert exact.dtype == np.float64
    np.testing.assert_array_equal(simulate_batch(scene, **shots, **kw).attrs["final_xy"], exact.astype(np.float32))
    for k in range(0, len(exact), 7):
        sk, ids = row_scene(scene, pos[k], on[k])
        raw = simulate(sk, Shot(*(shots[c][k] for c in COLS)), record=False)._raw
        np.testing.assert_array_equal(exact[k, np.append(ids, scene.n_pieces)], np.c_[raw["x"], raw["y"]])
    with pytest.raises(ValueError, match="'final_dtype'"):
        simulate_batch(scene, **shots, final_dtype="float16", **kw)


def test_each_shot_equals_simulate_on_its_scene(batch):
    """Bit-identical summary, final positions and rule details, ids mapped to the row."""
    scene, pos, on, shots = batch
    params = PhysicsParams()
    df = simulate_batch(scene, **shots, positions=pos, on_board=on, params=params, workers=1,
                        final_positions=True, details=True)  # fmt: skip
    n = scene.n_pieces
    for k in range(len(df)):
        sk, ids = row_scene(scene, pos[k], on[k])
        res = simulate(sk, Shot(*(shots[c][k] for c in COLS)), params, record=False)
        raw = res._raw
        full = np.append(ids, n)  # row-scene id -> batch id (the striker is last in both)
        status = np.full(n + 1, -1)
        status[full] = raw["status"]
        bits = lambda code: sum(1 << int(i) for i in full[raw["status"] == code])  # noqa: E731
        assert int(df["pocketed_mask"].iat[k]) == bits(1)
        assert int(df["ditch_mask"].iat[k]) == bits(2)
        assert df["striker_fate"].iat[k] == res.striker_fate
        fc = res.first_contact
        assert df["first_contact"].iat[k] == (-1 if fc is None else full[fc])
        assert df["n_events"].iat[k] == res.n_events
        assert df["t_end"].iat[k] == res.duration
        assert df["truncated"].iat[k] == res.truncated
        left = [i for i in range(len(ids)) if raw["status"][i] == 0]
        acc = 0.0
        for i in left:
            acc += math.sqrt(raw["x"][i] ** 2 + raw["y"][i] ** 2)
        assert df["spread"].iat[k] == np.float32(acc / len(left) if left else 0.0)
        for kind in ("white", "black", "queen"):
            want = sum(1 for i, c in enumerate(ids) if raw["status"][i] == 1 and scene.kinds[c] == kind)
            assert df[f"pocketed_{kind}"].iat[k] == want
        fin = df.attrs["final_xy"][k]
        np.testing.assert_array_equal(fin[full], np.c_[raw["x"], raw["y"]].astype(np.float32))
        assert np.isnan(fin[np.flatnonzero(~on[k])]).all()
        pocket, t_out = df.attrs["pocket"][k], df.attrs["t_out"][k]
        np.testing.assert_array_equal(pocket[full], raw["hole"])
        np.testing.assert_array_equal(t_out[full], raw["t_capture"].astype(np.float32))
        assert (pocket[~np.append(on[k], True)] == -1).all() and np.isinf(t_out[:-1][~on[k]]).all()
        own = simulate_batch(sk, **{c: shots[c][k] for c in COLS}, params=params, workers=1, details=True)
        for col in ("chain_mask", "striker_touched_mask", "striker_direct_mask"):
            mask = int(own[col].iat[0])
            assert int(df[col].iat[k]) == sum(1 << int(full[i]) for i in range(n + 1) if mask >> i & 1)
        for col in ("striker_first", "striker_reach"):
            assert df[col].iat[k] == own[col].iat[0]


def test_single_scene_batch_is_a_broadcast_many_scene_batch(batch):
    """The default positions, given explicitly per shot, change nothing."""
    scene, _, _, shots = batch
    n = len(shots["x"])
    a = simulate_batch(scene, **shots, workers=1, final_positions=True)
    stack = np.repeat(scene.arrays["xy"][None], n, axis=0)
    b = simulate_batch(scene, **shots, positions=stack, on_board=np.ones((n, scene.n_pieces), bool),
                       workers=1, final_positions=True)  # fmt: skip
    pd.testing.assert_frame_equal(a, b)
    np.testing.assert_array_equal(a.attrs["final_xy"], b.attrs["final_xy"])


def test_many_scene_batch_independent_of_workers(batch):
    scene, pos, on, shots = batch
    a = simulate_batch(scene, **shots, positions=pos, on_board=on, workers=1, chunk_size=40, final_positions=True)
    b = simulate_batch(scene, **shots, positions=pos, on_board=on, workers=2, chunk_size=3, final_positions=True)
    pd.testing.assert_frame_equal(a, b)
    np.testing.assert_array_equal(a.attrs["final_xy"], b.attrs["final_xy"])


def test_one_shot_many_positions_broadcasts():
    """One shot and a stack of masks: one row per mask; an empty board is a clean miss."""
    scene = Scene.icf_break()
    on = np.ones((3, scene.n_pieces), bool)
    on[1, 0] = False
    on[2] = False
    df = simulate_batch(scene, 0.0, Y0, math.pi / 2, 6.0, on_board=on, final_positions=True)
    one = simulate_batch(scene, 0.0, Y0, math.pi / 2, 6.0)
    pd.testing.assert_frame_equal(df.iloc[:1], one)
    assert len(df) == 3 and not df["pocketed_mask"].iat[1] & 1
    assert df["first_contact"].iat[2] == -1 and df["pocketed_mask"].iat[2] == 0
    assert np.isnan(df.attrs["final_xy"][2, :-1]).all()


def test_position_rows_index_the_starting_positions(batch):
    """Shots from indexed rows equal the same shots with the rows stacked per shot."""
    scene, pos, on, shots = batch
    rows = np.array([3, 0, 3, 7, 1] * 8)
    n = len(rows)
    direct = simulate_batch(scene, **shots, positions=pos[rows], on_board=on[rows], workers=1, final_positions=True)
    indexed = simulate_batch(scene, **shots, positions=pos[:8], on_board=on[:8], position_rows=rows, workers=1,
                             final_positions=True)  # fmt: skip
    pd.testing.assert_frame_equal(direct, indexed)
    np.testing.assert_array_equal(direct.attrs["final_xy"], indexed.attrs["final_xy"])
    shared = simulate_batch(scene, **shots, on_board=on[0], position_rows=np.zeros(n, int), workers=1)
    pd.testing.assert_frame_equal(shared, simulate_batch(scene, **shots, on_board=on[0], workers=1))


def test_forward_per_shot_equals_one_call_per_direction(batch):
    """Shots whose shooters face four ways (the four seats of a game), one forward
    direction per shot in one call, give the rows of four calls with one direction each:
    the striker's reach along its own forward direction and its direct hits before a
    cushion hit beyond ``frame_reach`` along it (rule HIK-9's frame)."""
    scene, pos, on, shots = batch
    sides = np.array([(0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0)])
    which = np.arange(len(shots["x"])) % 4
    common = dict(workers=1, details=True, final_positions=True, frame_reach=0.05)
    together = simulate_batch(scene, **shots, positions=pos, on_board=on, forward=sides[which], **common)
    for d in range(4):
        rows = which == d
        alone = simulate_batch(scene, **{k: v[rows] for k, v in shots.items()}, positions=pos[rows],
                               on_board=on[rows], forward=tuple(sides[d]), **common)  # fmt: skip
        pd.testing.assert_frame_equal(together[rows].reset_index(drop=True), alone)
    # a view of the directions that is not C-contiguous reads the same
    strided = np.repeat(sides[which], 2, axis=1)[:, ::2]
    assert not strided.flags["C_CONTIGUOUS"]
    pd.testing.assert_frame_equal(simulate_batch(scene, **shots, positions=pos, on_board=on, forward=strided, **common), together)
    # the reach reads each shot's own direction: it differs between the sides
    reach = together["striker_reach"].to_numpy()
    assert len({round(float(reach[which == d].mean()), 6) for d in range(4)}) == 4


@pytest.mark.parametrize(
    ("forward", "match"),
    [
        (np.zeros((3, 2)), r"'forward' parameter must have shape \(2, 2\)"),
        ((0.0, 1.0, 0.0), r"'forward' parameter must have shape \(2\)"),
        ([[0.0, np.nan], [0.0, 1.0]], r"'forward' parameter must contain finite real numbers"),
        ((0.0, 5.0), r"'forward' parameter must be a unit vector .*Got \(0.0, 5.0\) \(length 5\)"),
        ([[0.0, 1.0], [0.0, 0.0]], r"'forward' parameter must be a unit vector .*Got \(0.0, 0.0\) \(length 0\)"),
    ],
)
def test_bad_forward(forward, match):
    with pytest.raises(ValueError, match=match):
        simulate_batch(Scene.icf_break(), 0.0, Y0, 1.5, [1.0, 2.0], details=True, forward=forward)


@pytest.mark.parametrize(("carriers", "error"), [("striker", TypeError), ((3,), TypeError), (("nonsense",), ValueError)])
def test_bad_carriers(carriers, error):
    with pytest.raises(error, match=r"'carriers' parameter must be a tuple of disc kinds of the scene"):
        simulate_batch(Scene.icf_break(), 0.0, Y0, 1.5, 2.0, details=True, carriers=carriers)


@pytest.mark.parametrize(
    ("rows", "match"),
    [([0, 2], r"'position_rows' parameter .*\[0, 1\]"), ([0.0, 1.0], "must be an integer array"),
     ([[0, 1]], r"must be a 1-d array of row numbers in \[0, 1\].*Got shape \(1, 2\)"), ([0, 1, 1], "must broadcast with the 3 rows")],
)
def test_bad_position_rows(rows, match):
    scene = Scene.icf_break()
    on = np.ones((2, scene.n_pieces), bool)
    with pytest.raises(ValueError, match=match):
        simulate_batch(scene, 0.0, Y0, 1.5, [1.0, 2.0], on_board=on, position_rows=rows)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        (dict(positions=np.zeros((3, 19))), r"'positions' parameter must have shape \(19, 2\) or \(2, 19, 2\)"),
        (dict(on_board=np.ones((2, 19))), "'on_board' parameter must be a bool array"),
        (dict(on_board=np.ones((5, 19), bool)), "must broadcast with the 5 rows"),
    ],
)
def test_bad_shapes(kw, match):
    with pytest.raises(ValueError, match=match):
        simulate_batch(Scene.icf_break(), 0.0, Y0, 1.5, [1.0, 2.0], **kw)


def test_bad_positions_name_the_shot_and_piece():
    scene = Scene.icf_break()
    pos = np.repeat(scene.arrays["xy"][None], 3, axis=0)
    bad = pos.copy()
    bad[2, 4] = (np.nan, 0.0)
    with pytest.raises(ValueError, match=r"'positions'.*finite real numbers.*Got nan for piece 4 at shot 2 instead"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=bad)
    bad = pos.copy()
    bad[1, 3] = (0.4, 0.0)
    with pytest.raises(ValueError, match=r"'positions'.*wholly on the board.*Got x=0.4, y=0.0 for piece 3 at shot 1"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=bad)
    bad = pos.copy()
    bad[1, 3] = bad[1, 0]  # on the queen (a coin there only touches the queen's ring)
    with pytest.raises(ValueError, match=r"'positions'.*Got pieces 0 and 3 overlapping by .* m at shot 1"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=bad)
    on = np.ones((3, 19), bool)
    on[1, 0] = False  # the queen is off the board: piece 3 may lie where it was
    simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=bad, on_board=on)
    corner = scene.board.holes[0]
    bad = pos.copy()
    bad[0, 5] = (corner.x, corner.y)
    with pytest.raises(ValueError, match=r"'positions'.*capture radius.*for piece 5 at shot 0"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=bad)



def test_bad_positions_picked_by_position_rows_name_the_row_not_a_shot():
    """With ``position_rows`` the rows of ``positions`` are validated once each: an error
    names the position row (row 5, which shots 1 and 2 start from), not a shot 5 that
    does not exist."""
    scene = Scene.icf_break()
    pos = np.repeat(scene.arrays["xy"][None], 6, axis=0)
    pos[5, 3] = pos[5, 0]  # on the queen
    rows = np.array([0, 5, 5])
    with pytest.raises(ValueError, match=r"'positions'.*Got pieces 0 and 3 overlapping by .* m at position row 5 instead"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=pos, position_rows=rows)
    with pytest.raises(ValueError, match=r"'on_board' parameter must have shape \(19,\) or \(6, 19\) for 6 position rows"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=pos, on_board=np.ones((4, 19), bool), position_rows=rows)


def test_one_position_row_with_on_board_rows_names_the_shot():
    """One row of positions for every shot with an on-board row per shot: the shot whose
    pieces on the board overlap is named (this raised NumPy's broadcast error before)."""
    scene = Scene.icf_break()
    pos = scene.arrays["xy"].copy()
    pos[3] = pos[0]  # on the queen
    on = np.ones((3, 19), bool)
    on[:, 0] = False
    simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=pos, on_board=on)  # the queen off: valid
    on[2, 0] = True
    with pytest.raises(ValueError, match=r"'positions'.*Got pieces 0 and 3 overlapping by .* m at shot 2"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=pos, on_board=on)

def test_striker_placement_checked_against_each_row():
    scene = Scene.icf_break()
    pos = np.repeat(scene.arrays["xy"][None], 2, axis=0)
    pos[1, 7] = (0.0, Y0 + 0.03)
    with pytest.raises(ValueError, match="striker placement.*at shot 1, overlapping piece 7"):
        simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=pos)
    on = np.ones((2, 19), bool)
    on[1, 7] = False
    df = simulate_batch(scene, 0.0, Y0, 1.5, 1.0, positions=pos, on_board=on)
    assert len(df) == 2


def test_huge_batch_is_refused_up_front():
    with pytest.raises(ValueError, match="shots need about .* GB.*Split the batch"):
        simulate_batch(Scene.icf_break(), 0.0, Y0, np.zeros(1), 1.0, on_board=np.broadcast_to(True, (10**12, 19)))
