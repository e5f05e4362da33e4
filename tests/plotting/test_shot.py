"""plot_shot: paths, event markers and the legend that explains them."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from carromlab import Board, PhysicsParams, Scene, Shot, simulate  # noqa: E402
from carromlab.plotting import plot_shot  # noqa: E402
from carromlab.plotting.shot import event_points  # noqa: E402


def test_legend_names_the_path_of_every_kind_that_moved():
    res = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=90, speed=6.0), PhysicsParams())
    ax = plot_shot(res)
    handles, labels = ax.get_legend_handles_labels()
    moved = {res.scene.kinds[d] for d in res.segments.groupby("disc").filter(lambda g: len(g) > 1)["disc"]}
    moved.discard(res.scene.striker)
    path_labels = [lab for lab in labels if lab.endswith(" path")]
    assert path_labels[0] == "striker path"
    assert set(path_labels[1:]) == {f"{kind} path" for kind in moved} == {"white path", "black path", "queen path"}
    # each entry has the colour of the lines it names
    drawn = {to_hex(line.get_color()) for line in ax.get_lines() if len(line.get_xdata()) > 1}
    for handle, lab in zip(handles, labels):
        if lab.endswith(" path"):
            assert to_hex(handle.get_color()) in drawn, lab
    plt.close(ax.figure)


def test_a_crokinole_shot_names_its_shot_disc_as_the_title_does_and_counts_one_event():
    # the legend said "striker path" while the title said "fell: dark (20)"; a one-event shot was "1 events"
    res = simulate(Scene.crokinole_empty(), Shot.from_deg(0.06, -0.2988, angle_deg=86.0, speed=1.1), PhysicsParams.from_powder("club"))
    ax = plot_shot(res)
    labels = ax.get_legend_handles_labels()[1]
    assert "fell: dark (20)" in ax.get_title() and "shot disc (dark) path" in labels and "striker path" not in labels
    plt.close(ax.figure)
    stop = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=-90, speed=0.1))
    ax = plot_shot(stop)
    assert ax.get_title().endswith("\n1 event, 0.08 s")
    plt.close(ax.figure)


def _marked(ax, label):
    """Offsets of the event markers with this legend label."""
    (points,) = [c for c in ax.collections if c.get_label() == label]
    return points.get_offsets()


def test_impact_markers_sit_at_the_points_of_contact():
    # a break: disc-disc impacts in the pack, cushion impacts on all four sides
    res = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=90, speed=6.0), PhysicsParams())
    ev, radius, h = res.events, res.scene.arrays["radius"], res.scene.board.half_size
    ax = plot_shot(res)
    x, y = event_points(res)
    disc = (ev["kind"] == "disc").to_numpy()
    own = np.hypot(x[disc] - ev["x"][disc], y[disc] - ev["y"][disc])
    other = np.hypot(x[disc] - ev["other_x"][disc], y[disc] - ev["other_y"][disc])
    assert np.allclose(own, radius[ev["disc"][disc]], rtol=0, atol=1e-12)
    assert np.allclose(other, radius[ev["other"][disc]], rtol=0, atol=1e-6)  # the discs touch
    cushion = ev["kind"] == "cushion"
    assert set(ev.loc[cushion, "where"]) == {"east", "west", "north", "south"}
    for side, coord, value in (("east", x, h), ("west", x, -h), ("north", y, h), ("south", y, -h)):
        at = (cushion & (ev["where"] == side)).to_numpy()
        assert np.all(coord[at] == value), side
    np.testing.assert_array_equal(_marked(ax, "disc impact"), np.column_stack([x[disc], y[disc]]))
    np.testing.assert_array_equal(_marked(ax, "cushion impact"), np.column_stack([x[cushion], y[cushion]]))
    plt.close(ax.figure)


def test_peg_impact_marker_sits_on_the_peg():
    scene = Scene.from_frame(Board.crokinole(), pd.DataFrame({"kind": ["dark"], "x": [0.12], "y": [0.05]}), striker="light")
    res = simulate(scene, Shot.from_deg(0.0, -0.30, angle_deg=84.4, speed=2.0), PhysicsParams())
    ev = res.events
    peg = (ev["kind"] == "peg").to_numpy()
    assert peg.any()
    x, y = event_points(res)
    for k in np.flatnonzero(peg):
        g = res.scene.board.pegs[int(ev["where"].iat[k])]
        assert np.hypot(x[k] - g.x, y[k] - g.y) == pytest.approx(g.radius, abs=1e-12)
        # on the segment from the peg's centre to the disc's
        r = res.scene.arrays["radius"][ev["disc"].iat[k]]
        assert np.hypot(x[k] - ev["x"].iat[k], y[k] - ev["y"].iat[k]) == pytest.approx(r, abs=1e-6)
    ax = plot_shot(res)
    np.testing.assert_array_equal(_marked(ax, "peg impact"), np.column_stack([x[peg], y[peg]]))
    assert "shot disc (light) path" in ax.get_legend_handles_labels()[1]  # crokinole has no striker
    plt.close(ax.figure)


def test_title_names_the_discs_in_the_ditch():
    scene = Scene.from_frame(Board.crokinole(), pd.DataFrame({"kind": ["dark"], "x": [0.12], "y": [0.05]}), striker="light")
    res = simulate(scene, Shot.from_deg(0.0, -0.30, angle_deg=86.0, speed=2.0), PhysicsParams())
    assert res.off_board == [res.striker_id]
    ax = plot_shot(res)
    assert ax.get_title().splitlines()[0].endswith("; nothing fell; into the ditch: light")  # was "nothing fell"
    plt.close(ax.figure)


def test_event_markers_are_readable_on_the_default_board():
    # at s=16 (4 points across) without an edge the impacts were specks on the 6 x 6 in board
    res = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=90, speed=6.0), PhysicsParams())
    ax = plot_shot(res)
    assert tuple(ax.figure.get_size_inches()) == (6.0, 6.0)
    marks = [c for c in ax.collections if c.get_label() in ("disc impact", "cushion impact")]
    assert len(marks) == 2
    for c in marks:
        assert np.all(np.sqrt(c.get_sizes()) >= 6.0)  # points across
        assert np.all(c.get_linewidths() > 0) and to_hex(c.get_edgecolor()[0]) == "#1f1f1f"  # set off the surface
    plt.close(ax.figure)
