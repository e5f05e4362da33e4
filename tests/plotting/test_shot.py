"""plot_shot: paths, event markers and the legend that explains them."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from carromlab import PhysicsParams, Scene, Shot, simulate  # noqa: E402
from carromlab.plotting import plot_shot  # noqa: E402


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
