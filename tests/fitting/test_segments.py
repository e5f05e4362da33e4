"""Impact detection and classification against the engine's event list."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot
from carromlab.fitting import (
    EXAMPLE_PARAMS, FitWarning, Tracks, breaks_from_events, data_path, fit_friction, fit_restitution, make_synthetic_tracks,
    read_tracks, segment_tracks,
)

from .scenarios import shot

SEEDS = range(8)


def resolvable(truth, tracks, dt):
    """Engine impacts a camera can resolve: tracked at least two frames on each side, no
    other impact of the same disc within two frames, and not grazing (normal speed of at
    least 0.2 m/s)."""
    keep = []
    for row in truth.itertuples(index=False):
        ok = row.vn >= 0.2
        for d in (row.disc, row.other):
            if d < 0:
                continue
            t = tracks.disc(d)["t"].to_numpy()
            ok &= (t < row.t).sum() >= 2 and (t > row.t).sum() >= 2
            mine = truth[(truth["disc"] == d) | (truth["other"] == d)]
            ok &= bool((np.abs(mine["t"] - row.t) < 2.5 * dt).sum() == 1)
        keep.append(ok)
    return truth[np.array(keep, dtype=bool)]


@pytest.mark.parametrize("seed", SEEDS)
def test_detected_impacts_match_the_engine(seed):
    syn = shot(seed, "coulomb")
    tracks = syn.tracks()
    seg = segment_tracks(tracks)
    dt = 1.0 / 120.0
    ev = syn.result.events
    truth = breaks_from_events(ev).assign(vn=ev.loc[ev["kind"].isin(["disc", "cushion", "peg"]), "vn"].to_numpy())
    found = seg.impacts
    assert len(found) <= len(truth), (found, truth)  # nothing invented
    for row in resolvable(truth, tracks, dt).itertuples(index=False):
        hit = found[(np.abs(found["t"] - row.t) < dt) & ((found["disc"] == row.disc) | (found["other"] == row.disc))]
        assert len(hit) == 1, (row, found)
        assert hit["kind"].iat[0] == row.kind
        if row.kind == "cushion":
            assert hit["where"].iat[0] == row.where
            assert abs(hit["t"].iat[0] - row.t) < 2e-3


@pytest.mark.parametrize(("law", "seed", "t_impact"), [("coulomb", 3, 0.1468), ("coulomb", 50, 0.2101),
                                                     ("coulomb", 59, 0.9644), ("slide_spin", 3, 0.2470)])  # fmt: skip
def test_one_cushion_impact_is_not_split_in_two(law, seed, t_impact):
    # in these tracks the detector cut one frame before and one after the true frame gap
    # (issue 13): two impacts on the same cushion with a two-point fragment between them,
    # both of which fit_restitution dropped
    syn = shot(seed, law)
    seg = segment_tracks(syn.tracks())
    near = seg.impacts[np.abs(seg.impacts["t"] - t_impact) < 0.02]
    assert len(near) == 1 and near["kind"].iat[0] == "cushion", near
    assert abs(near["t"].iat[0] - t_impact) < 1e-3
    fit = fit_restitution(syn.tracks())
    row = fit.impacts[np.abs(fit.impacts["t"] - t_impact) < 0.02]
    assert len(row) == 1 and bool(row["used"].iat[0]), row
    assert abs(row["e"].iat[0] - EXAMPLE_PARAMS[law].e_cushion) < 5.0 * row["e_se"].iat[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_creep_into_a_cushion_ends_the_slide(seed):
    # the striker reaches the north cushion at 0.03 m/s and stops against it: a velocity
    # change no window can tell from friction stopping the disc, seen from the contact
    # distance instead; without the cut the fit's mu was 2.2-2.7 standard errors off
    params = PhysicsParams(friction_law="coulomb", mu=0.12)
    board = Board.icf()
    reach = board.half_size - 0.02065 + 0.2  # striker radius 20.65 mm, from y = -0.2 m
    speed = math.sqrt(0.03**2 + 2.0 * params.mu * params.g * reach)
    empty = Scene.from_frame(board, pd.DataFrame({"kind": [], "x": [], "y": []}))
    syn = make_synthetic_tracks(empty, Shot(0.0, -0.2, math.pi / 2, speed), params, seed=seed)
    t_contact = float(syn.breaks()["t"].iat[0])
    seg = segment_tracks(syn.tracks())
    # the cut ends the slide but is no impact: the detector saw no velocity change
    assert seg.impacts.empty, seg.impacts
    slide = seg.segments[seg.segments["moving"]]
    assert len(slide) == 1 and len(seg.segments) == 2
    assert t_contact - 0.15 < slide["t_end"].iat[0] < t_contact  # cut before the contact, not long before
    row = fit_friction(seg, "coulomb").estimates.iloc[0]
    assert row.ci_low <= params.mu <= row.ci_high


def test_a_disc_passing_a_cushion_adds_no_impact():
    # slide_spin seed 6: the striker runs along the west cushion 1.4-5 mm off (within the
    # reach of the contact cut) into the north-west pocket; the cut once came out as a west
    # cushion impact with dv NaN that never happened
    syn = shot(6, "slide_spin")
    seg = segment_tracks(syn.tracks())
    assert np.isfinite(seg.impacts["dv"]).all(), seg.impacts
    truth = syn.breaks()
    assert seg.impacts["where"].tolist() == truth["where"].tolist(), (seg.impacts, truth)
    np.testing.assert_allclose(seg.impacts["t"], truth["t"], atol=2e-3)
    # the track is still cut where it came within reach of the cushion
    striker = seg.segments[seg.segments["disc"] == 0]
    assert striker["t_end"].iat[-2] < 0.75 <= striker["t_start"].iat[-1]


def test_a_nudged_disc_at_rest_is_split_at_the_impact():
    # slide_spin seed 114: the striker, slowed to 0.4 m/s, nudges the coin at rest at
    # t = 1.4024 s (vn 0.12 m/s; the coin moves 1.6 mm, below what its track resolves at
    # 0.5 mm of noise). The striker's break was "unknown" and the coin's segment ran across
    # the impact, so its fit was flagged suspect (residual runs p = 2e-16) and the slow
    # coverage test failed. The coin's centre in reach of the break makes it a disc-disc
    # impact, and the coin's track is split there too.
    syn = shot(114, "slide_spin")
    ev = syn.result.events
    t_hit = float(ev.loc[(ev["kind"] == "disc") & (ev["t"] > 1.0), "t"].iat[0])
    seg = segment_tracks(syn.tracks())
    hit = seg.impacts[np.abs(seg.impacts["t"] - t_hit) < 1.0 / 120.0]
    assert len(hit) == 1 and hit["kind"].iat[0] == "disc", seg.impacts
    assert {int(hit["disc"].iat[0]), int(hit["other"].iat[0])} == {0, 1}
    assert np.isfinite(seg.impacts["dv"]).all()  # the detected disc's break heads the row
    coin = seg.segments[seg.segments["disc"] == 1]
    assert (coin["t_end"] < t_hit).sum() == 3 and not coin["moving"].iat[-1], coin
    with warnings.catch_warnings():
        warnings.simplefilter("error", FitWarning)
        row = fit_friction(seg, "slide_spin").estimates.iloc[0]
    assert row.ci_low <= EXAMPLE_PARAMS["slide_spin"].mu <= row.ci_high


def test_a_slow_touch_of_two_discs_ends_both_slides():
    # stribeck seed 123: the striker, at 4 cm/s, touches the coin at t = 0.99989 s (vn
    # 0.12 m/s), a change neither track resolves. Both segments ran across it and the fit
    # was flagged suspect (residual runs p = 3e-6); the discs' centres coming within noise
    # of the two radii now cut both tracks before the touch, as a cushion's contact does
    syn = shot(123, "stribeck")
    ev = syn.result.events
    t_touch = float(ev.loc[(ev["kind"] == "disc") & (ev["t"] > 0.9), "t"].iat[0])
    seg = segment_tracks(syn.tracks())
    assert not (np.abs(seg.impacts["t"] - t_touch) < 0.05).any(), seg.impacts  # no impact added
    for disc in (0, 1):
        ends = seg.segments.loc[seg.segments["disc"] == disc, "t_end"]
        assert ((ends > t_touch - 0.1) & (ends < t_touch)).any(), seg.segments
    with warnings.catch_warnings():
        warnings.simplefilter("error", FitWarning)
        fit = fit_friction(seg, "stribeck")
    for row in fit.estimates.itertuples(index=False):
        assert row.ci_low <= getattr(EXAMPLE_PARAMS["stribeck"], row.parameter) <= row.ci_high, row


def test_given_breaks_reproduce_the_detected_segments():
    syn = shot(2, "coulomb")
    tracks = syn.tracks()
    auto = segment_tracks(tracks)
    given = segment_tracks(tracks, breaks=syn.breaks())
    # the same segments, up to a point within one frame of an impact (a coin barely moved)
    assert len(auto.segments) == len(given.segments)
    np.testing.assert_allclose(auto.segments["t_start"], given.segments["t_start"], atol=1.01 / 120)
    assert given.impacts["dv"].isna().all() and given.impacts["kind"].tolist() == auto.impacts["kind"].tolist()


def test_outliers_are_screened_and_rest_is_not_moving():
    syn = shot(4, "coulomb")
    seg = segment_tracks(syn.tracks())
    kept = syn.truth[~syn.truth["dropped"]].reset_index(drop=True)
    flagged = seg.points.merge(kept[["disc", "frame", "outlier"]], on=["disc", "frame"])
    # every displaced detection is suspect; hardly any good one is
    assert flagged.loc[flagged["outlier"], "suspect"].all()
    assert flagged.loc[~flagged["outlier"], "suspect"].mean() < 0.01
    first = seg.segments.iloc[0]
    assert first["disc"] == 0 and not first["moving"]  # the coin waits for the striker


def test_a_straight_slide_has_no_impact(rng):
    t = np.arange(60) / 120.0
    s = 2.0 * t - 0.5 * 1.2 * t**2
    df = pd.DataFrame({"disc": 0, "t": t, "x": 0.6 * s + rng.normal(0, 5e-4, 60), "y": 0.8 * s + rng.normal(0, 5e-4, 60)})
    seg = segment_tracks(Tracks(df))
    assert seg.impacts.empty and seg.usable == [0]


def test_bad_arguments():
    tracks = shot(0, "coulomb").tracks()
    with pytest.raises(ValueError, match=r"'window' parameter must be an int in the range \[3, inf\)"):
        segment_tracks(tracks, window=2)
    with pytest.raises(ValueError, match=r"'breaks' parameter must be a DataFrame \(t in s\) with columns \['disc', 't'\]\. Got \['time'\]"):
        segment_tracks(tracks, breaks=pd.DataFrame({"time": [0.1]}))
    with pytest.raises(TypeError, match=r"'breaks' parameter must be a DataFrame .*Got \[0\.1\] \(list\)"):
        segment_tracks(tracks, breaks=[0.1])


def test_given_breaks_must_name_tracked_discs_and_times():
    tracks = read_tracks(data_path("cushion_shot.csv"))
    with pytest.raises(ValueError, match=r"tracked discs in column 'disc', one of \[0, 1\]\. Got 7 at row 1 instead"):
        segment_tracks(tracks, breaks=pd.DataFrame({"disc": [0, 7], "t": [0.11, 0.11]}))
    with pytest.raises(ValueError, match=r"column 'other', one of \[0, 1\] \(or -1 for none\)\. Got 5 at row 0"):
        segment_tracks(tracks, breaks=pd.DataFrame({"disc": [0], "t": [0.11], "other": [5]}))
    with pytest.raises(ValueError, match=r"times t within the tracks, in the range \[0, 2.21667\] s\. Got t = 50.0 s at row 1 \(disc 1\) instead"):
        segment_tracks(tracks, breaks=pd.DataFrame({"disc": [0, 1], "t": [0.11, 50.0]}))
    assert segment_tracks(tracks, breaks=pd.DataFrame({"disc": [1, 0], "t": [0.107, 0.25], "other": [-1, -1]})).impacts.shape[0] == 2
    with pytest.raises(ValueError, match="at least 3 points"):
        segment_tracks(Tracks(pd.DataFrame({"disc": [0, 1], "t": [0.0, 0.0], "x": 0.0, "y": 0.0})))


def test_consensus_of_each_window_is_computed_once_with_the_same_results(monkeypatch):
    """The detector and the screen meet the same windows many times (the right window of a
    gap is the left window of the gap five points on); each window's consensus is
    computed once per disc. The segmentation is that of computing it every time, exactly."""
    from carromlab.fitting import segments

    cases = [read_tracks(data_path("cushion_shot.csv")), shot(1, "stribeck").tracks()]
    cached = [segment_tracks(tr) for tr in cases]
    calls = []

    def every_time(self, idx):
        calls.append(idx.tobytes())
        return idx[segments._consensus(self.t[idx], self.p[idx], self.threshold * self.sigma)]

    monkeypatch.setattr(segments._Disc, "consensus", every_time)
    for tr, seg in zip(cases, cached):
        direct = segment_tracks(tr)
        for table in ("points", "segments", "impacts"):
            pd.testing.assert_frame_equal(getattr(seg, table), getattr(direct, table), check_exact=True)
    assert len(calls) > 2 * len(set(calls))  # what the cache saves: most windows come back
