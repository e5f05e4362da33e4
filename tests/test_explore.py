"""The shot explorer, headless: set its widgets' values and check what it computes."""

import math

import numpy as np
import pandas as pd
import pytest

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, StrikerLine, success_map
from carromlab.explore import ShotExplorer


def test_widget_values_play_the_shot_a_direct_simulate_plays():
    scene = Scene.icf_break()
    params = PhysicsParams(mu=0.1)
    ex = ShotExplorer(scene, PocketPiece("queen"), params=params, replicas=12, noise="expert")
    before = ex.picture.value
    ex.placement.value = 0.05
    ex.angle_deg.value = 95.5
    ex.speed.value = 6.5
    ex.spin.value = 40.0
    x, y = StrikerLine.for_scene(scene).point(0.05)
    direct = simulate(scene, Shot(float(x), float(y), math.radians(95.5), 6.5, 40.0), params)
    assert ex.result.shot == direct.shot
    pd.testing.assert_frame_equal(ex.result.final, direct.final)
    assert ex.result.n_events == direct.n_events
    grid = ShotGrid(placement=[0.05], angle=[math.radians(95.5)], speed=[6.5], spin=[40.0])
    want = success_map(scene, PocketPiece("queen"), grid, noise=NoiseModel.preset("expert"), replicas=12,
                       params=params, progress=False)  # fmt: skip
    assert ex.success["p_success"] == want["p_success"].iat[0]
    assert ex.success["n_valid"] == want["n_valid"].iat[0] == 12
    assert ex.picture.value != before and ex.picture.value[:4] == b"\x89PNG"
    assert "fell" in ex.summary.value and "success" in ex.summary.value


def test_noise_preset_changes_the_probability_and_none_matches_the_nominal_shot():
    # one white coin on the diagonal to the NE pocket, hit full from the striker line's middle
    board = Board.icf()
    scene = Scene.from_frame(board, pd.DataFrame({"kind": ["white"], "x": [0.2], "y": [0.2]}))
    ne = next(h for h in board.holes if h.name == "ne")
    reach = scene.specs["white"].radius + scene.specs["striker"].radius
    ghost = np.array([0.2, 0.2]) - reach * np.array([ne.x - 0.2, ne.y - 0.2]) / math.hypot(ne.x - 0.2, ne.y - 0.2)
    ex = ShotExplorer(scene, PocketPiece(0, "ne"), replicas=40, noise="none")
    sx, sy = StrikerLine.for_scene(scene).point(0.0)
    ex.angle_deg.value = round(math.degrees(math.atan2(ghost[1] - sy, ghost[0] - sx)), 1)
    ex.speed.value = 4.0
    assert ex.result.final["pocket"].iat[0] == "ne"
    assert ex.success["p_success"] == 1.0
    ex.noise.value = "beginner"
    assert ex.success["p_success"] < 1.0


def test_a_placement_on_a_piece_is_reported_not_raised():
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [-0.2526]}))
    ex = ShotExplorer(scene, replicas=4)
    assert "Cannot play" in ex.summary.value
    ex.placement.value = 0.15
    assert "Cannot play" not in ex.summary.value and np.isfinite(ex.success["p_success"])


def test_an_unplayable_shot_leaves_nothing_of_the_last_one_and_still_displays():
    # the striker line's middle is blocked by a coin: the explorer must still display, and
    # moving back onto the coin must not keep showing the shot played before
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [-0.2526]}))
    ex = ShotExplorer(scene, replicas=4)
    assert ex.result is None and ex.success is None
    assert repr(ex).endswith("cannot play this shot)")
    bundle = ex._repr_mimebundle_()
    assert "Cannot play" in bundle["text/html"] and "<img" not in bundle["text/html"]
    ex.placement.value = 0.15
    assert ex.result is not None and ex.picture.value[:4] == b"\x89PNG"
    ex.placement.value = 0.0
    assert ex.result is None and ex.success is None and ex.picture.value == b""
    assert "<img" not in ex._repr_mimebundle_()["text/html"]


def test_bad_noise_preset():
    with pytest.raises(ValueError, match="'noise'"):
        ShotExplorer(Scene.icf_break(), noise="pro")


def test_display_bundle_has_the_live_widget_and_a_static_copy():
    ex = ShotExplorer(Scene.icf_break(), replicas=4)
    bundle = ex._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("ShotExplorer(Scene(icf board")
    assert "data:image/png;base64," in bundle["text/html"] and "fell" in bundle["text/html"]


def test_default_goal_counts_any_piece_pocketed_without_a_foul():
    # From the striker line's middle at 91.5 degrees and 4 m/s the break sends white coin 12
    # alone into the NE pocket: the default goal ("any piece into any pocket without a
    # foul") must count it, though white's opponent kind (black) is also among its kinds.
    ex = ShotExplorer(Scene.icf_break(), noise="none", replicas=10)
    ex.speed.value = 4.0
    ex.angle_deg.value = 91.5
    fell = ex.result.final.query("status == 'pocketed'")
    assert fell["id"].tolist() == [12] and fell["kind"].tolist() == ["white"]
    assert ex.success["p_foul"] == 0.0
    assert ex.success["p_success"] == 1.0 and ex.success["n_valid"] == 10


class _GoalWithoutWords:
    """A user's goal with no describe(): the white coin, by delegation."""

    def __init__(self):
        self._goal = PocketPiece(0)
        self.fouls = self._goal.fouls
        self.needs_final_positions = False

    def check(self, scene):
        self._goal.check(scene)

    def target(self, scene):
        return self._goal.target(scene)

    def evaluate(self, scene, batch):
        return self._goal.evaluate(scene, batch)

    def __repr__(self):
        return "GoalWithoutWords()"


def test_the_goal_is_shown_in_words():
    # the summary showed the dataclass repr, "PocketPiece(piece=0, pocket=None, allow_foul=False,
    # fouls=BasicFouls(striker_pocketed=True, no_contact=True), opponent=None, opponent_falls='spoils')"
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white", "black"], "x": [0.2, 0.05], "y": [0.18, 0.02]}))
    shown = ShotExplorer(scene, PocketPiece(0), replicas=4).summary.value
    assert "<td>white 0 into any pocket, without a foul or a black falling</td>" in shown and "PocketPiece(" not in shown
    default = ShotExplorer(scene, replicas=4).summary.value
    assert "<td>at least 1 white/black piece into any pocket, without a foul</td>" in default
    assert "<td>GoalWithoutWords()</td>" in ShotExplorer(scene, _GoalWithoutWords(), replicas=4).summary.value
