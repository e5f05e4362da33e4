"""Track tables: checks with clear messages, units, layouts, files and the noise estimate."""

import json

import numpy as np
import pandas as pd
import pytest

from carromlab.fitting import BoardCalibration, Tracks, read_tracks, write_tracks

from .scenarios import shot


def frame(**cols):
    base = {"disc": [0, 0, 0, 1, 1, 1], "t": [0.0, 0.01, 0.02, 0.0, 0.01, 0.02], "x": 0.0, "y": 0.0}
    base.update(cols)
    return pd.DataFrame(base)


@pytest.mark.parametrize(
    "df, match",
    [
        (frame().drop(columns="y"), r"must have the columns \['disc', 't', 'x', 'y'\].*missing \['y'\]"),
        (frame().iloc[:0], "at least one row"),
        (frame(x=[0.0, np.nan, 0.0, 0.0, 0.0, 0.0]), r"finite numbers in column 'x'.*Got nan at row 1"),
        (frame(t=[0.0, 0.02, 0.01, 0.0, 0.01, 0.02]), r"strictly increasing times.*row 2 \(disc 0\)"),
        (frame(t=[0.0, 0.01, 0.01, 0.0, 0.01, 0.02]), "strictly increasing"),
        (frame(disc=[0, 0, 0, 1.5, 1.5, 1.5]), "integers in column 'disc'"),
        (frame(x=["a", 0, 0, 0, 0, 0]), "finite numbers in column 'x'"),
    ],
)
def test_bad_tracks_are_rejected_with_the_row(df, match):
    with pytest.raises(ValueError, match=match):
        Tracks(df)


def test_input_is_not_modified_and_rows_are_grouped_by_disc():
    df = frame().sample(frac=1.0, random_state=0).sort_values("t", kind="stable")
    before = df.copy()
    tr = Tracks(df)
    pd.testing.assert_frame_equal(df, before)
    assert tr.data["disc"].is_monotonic_increasing and tr.discs == [0, 1]


def test_trackpy_layout_in_pixels():
    cal = BoardCalibration.from_scale(500.0, origin_px=(100.0, 100.0))
    px = pd.DataFrame({"frame": [0, 1, 2, 5], "particle": 3, "x": [100.0, 110.0, 120.0, 150.0], "y": 100.0})
    tr = Tracks.from_frame(px, calibration=cal, fps=50.0, radius=0.0155)
    np.testing.assert_allclose(tr.data["t"], [0.0, 0.02, 0.04, 0.1])
    np.testing.assert_allclose(tr.data["x"], [0.0, 0.02, 0.04, 0.1])
    assert tr.report()["missing_frames"].tolist() == [2] and tr.radius == {3: 0.0155}
    with pytest.raises(ValueError, match="'fps' parameter must be given"):
        Tracks.from_frame(px, calibration=cal)


def test_a_table_is_checked_once(monkeypatch, tmp_path):
    import carromlab.fitting.tracks as tracks

    calls = []
    for name in ("_check_columns", "_check_on_board", "_check_time_unit"):
        check = getattr(tracks, name)
        monkeypatch.setattr(tracks, name, lambda *a, _check=check, _name=name, **k: calls.append(_name) or _check(*a, **k))
    frame().to_csv(tmp_path / "t.csv", index=False)
    for build in (lambda: Tracks(frame()), lambda: Tracks.from_frame(frame(), board="icf"), lambda: read_tracks(tmp_path / "t.csv")):
        build()
        assert sorted(calls) == ["_check_columns", "_check_on_board", "_check_time_unit"]  # Tracks checked them again
        calls.clear()


def test_angles_follow_the_board_sense():
    cal = BoardCalibration.from_scale(500.0, origin_px=(0.0, 0.0))
    tr = Tracks.from_frame(frame(angle=0.5), calibration=cal)
    assert np.all(tr.data["angle"] == -0.5)


def test_radius_must_cover_every_disc():
    with pytest.raises(ValueError, match=r"no radius for discs \[1\]"):
        Tracks(frame(), radius={0: 0.0155})


def test_noise_estimate_matches_the_camera():
    syn = shot(0, "coulomb", angle_noise=0.05)
    tr = syn.tracks()
    # a median-based estimate from a few hundred points: within 20 %
    assert tr.position_noise == pytest.approx(0.5e-3, rel=0.2)
    assert tr.angle_noise == pytest.approx(0.05, rel=0.2)


def test_file_round_trip_with_sidecar(tmp_path):
    syn = shot(0, "coulomb")
    csv, side = syn.write(tmp_path / "a.csv")
    meta = json.loads(side.read_text())
    assert meta["synthetic"] is True and meta["units"] == "px"
    back = read_tracks(csv)
    direct = syn.tracks()
    np.testing.assert_allclose(back.data[["x", "y"]], direct.data[["x", "y"]], atol=2e-6)
    assert back.radius == direct.radius and back.board.name == "icf" and back.fps == 120.0
    csv2, _ = syn.write(tmp_path / "b.csv", layout="trackpy")
    np.testing.assert_allclose(read_tracks(csv2).data["t"], direct.data["t"], atol=1e-12)


def test_pixel_file_without_calibration(tmp_path):
    df = frame()
    csv, side = write_tracks(df, tmp_path / "p.csv", units="m")
    meta = json.loads(side.read_text())
    side.write_text(json.dumps({**meta, "units": "px"}))
    with pytest.raises(ValueError, match="'calibration' parameter must be given"):
        read_tracks(csv)
    assert read_tracks(csv, calibration=BoardCalibration.metres()).discs == [0, 1]


def test_off_board_error_names_the_first_offending_input_row():
    # pixels taken as metres; rows interleaved by frame, so sorting by disc would move them
    px = pd.DataFrame({"frame": [0, 0, 1, 1], "particle": [1, 0, 1, 0], "x": [0.1, 5.0, 0.1, 900.0], "y": [0.0, 0.0, 0.0, 400.0]})
    with pytest.raises(ValueError, match=r"Got \(x, y\) = \(5, 0\) at row 1 instead: pixel coordinates\?"):
        Tracks.from_frame(px, fps=120.0)
    with pytest.raises(ValueError, match=r"Got \(x, y\) = \(5, 0\) at row 1 instead"):
        Tracks(px.rename(columns={"particle": "disc"}).assign(t=px["frame"] / 120.0))


def test_nan_frame_is_named_as_the_frame_column():
    px = pd.DataFrame({"frame": [0.0, np.nan, 2.0], "particle": 3, "x": 0.0, "y": 0.0})
    with pytest.raises(ValueError, match=r"finite numbers in column 'frame'.*Got nan at row 1 instead"):
        Tracks.from_frame(px, fps=120.0)


def test_trackpy_particle_column_is_named_as_in_the_table(tmp_path):
    """A trackpy table's errors name its 'particle' column, not carromlab's 'disc'."""
    px = pd.DataFrame({"frame": [0, 1, 2], "particle": [3.0, 3.5, 3.0], "x": 0.0, "y": 0.0})
    with pytest.raises(ValueError, match=r"integers in column 'particle'\. Got 3\.5 at row 1 instead"):
        Tracks.from_frame(px, fps=120.0)
    with pytest.raises(ValueError, match=r"finite numbers in column 'particle'.*Got 'a' at row 2 instead"):
        Tracks.from_frame(px.assign(particle=[3, 3, "a"]), fps=120.0)
    with pytest.raises(ValueError, match=r"strictly increasing times.*at row 2 \(particle 3\)"):
        Tracks.from_frame(px.assign(particle=3, frame=[0, 2, 1]), fps=120.0)
    csv = tmp_path / "frames.csv"
    px.to_csv(csv, index=False)
    with pytest.raises(ValueError, match=r"integers in column 'particle'"):
        read_tracks(csv, fps=120.0)


def test_file_errors_name_the_line_an_editor_shows(tmp_path):
    """A track file's errors give the line of the file (header line 1, blank lines
    counted), not the 0-based row of the parsed table, two or more lines off."""
    csv = tmp_path / "shot.csv"
    rows = ["disc,t,x,y", "0,0.00,0.0,0.0", "0,0.01,0.01,0.0", "", "0,0.02,abc,0.0", "0,0.03,0.03,0.0"]
    csv.write_text("\n".join(rows) + "\n")
    with pytest.raises(ValueError, match=r"shot.csv' must contain finite numbers in column 'x'.*Got 'abc' at line 5 instead"):
        read_tracks(csv)
    csv.write_text("\n".join([*rows[:4], "0,0.005,0.02,0.0", rows[5]]) + "\n")
    with pytest.raises(ValueError, match=r"strictly increasing times.*at line 5 \(disc 0\)"):
        read_tracks(csv)
    csv.write_text("\n".join([*rows[:4], "0,0.02,2.5,0.0", rows[5]]) + "\n")
    with pytest.raises(ValueError, match=r"Got \(x, y\) = \(2.5, 0\) at line 5 instead: pixel coordinates"):
        read_tracks(csv)


def test_times_in_milliseconds_are_rejected():
    ms = frame(t=[0.0, 10.0, 20.0, 0.0, 10.0, 20.0])  # 100 frames/s, in ms
    with pytest.raises(ValueError, match=r"times t in seconds.*\(0, 1\] s.*Got a median step of 10 s \(a frame rate of 0.1 frame/s\).*milliseconds"):
        Tracks(ms)
    assert Tracks(frame(t=[0.0, 0.5, 1.0, 0.0, 0.5, 1.0])).discs == [0, 1]  # 2 frames/s: still seconds


def test_repr_is_one_short_line_for_tracks_and_their_segmentation():
    """What Jupyter shows for ``tr`` and ``segment_tracks(tr)``: the dataclass repr printed
    the whole table, the board and (for a segmentation) three more tables."""
    from carromlab.fitting import data_path, segment_tracks

    tr = read_tracks(data_path("spin_shot.csv"))
    assert repr(tr) == "Tracks(spin_shot.csv: 2 discs, 618 points over 2.68 s, icf board, 120 frames/s, angles)"
    seg = repr(segment_tracks(tr))
    assert seg.startswith("Segmentation(spin_shot.csv: ") and seg.endswith(" mm)") and "\n" not in seg and len(seg) < 120
