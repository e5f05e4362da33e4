"""Shot animation to GIF."""

import math

import pytest
from PIL import Image

from carromlab import Scene, Shot, simulate
from carromlab.plotting import animate_shot, shot_animation


def test_gif_has_one_frame_per_tick(tmp_path):
    res = simulate(Scene.icf_break(), Shot(0.0, -0.2526, math.pi / 2, 4.0))
    out = animate_shot(res, tmp_path / "shot.gif", fps=10)
    with Image.open(out) as im:
        assert im.n_frames == math.ceil(res.duration * 10) + 1
        assert im.size[0] > 100


def test_bad_fps(tmp_path):
    res = simulate(Scene.icf_break(), Shot(0.0, -0.2526, math.pi / 2, 4.0))
    with pytest.raises(ValueError, match="'fps'"):
        animate_shot(res, tmp_path / "x.gif", fps=0)


def test_inline_animation_is_a_javascript_player_with_every_frame():
    res = simulate(Scene.icf_break(), Shot(0.0, -0.2526, math.pi / 2, 4.0))
    anim = shot_animation(res, fps=5, dpi=30)
    page = anim._repr_html_()
    assert "<script" in page and "Animation" in page
    assert page.count("data:image/png;base64") == len(anim.times) == math.ceil(res.duration * 5) + 1
    assert "ShotAnimation(" in repr(anim)


def test_mp4_without_ffmpeg_and_unknown_suffix_are_clear_errors(tmp_path, monkeypatch):
    res = simulate(Scene.icf_break(), Shot(0.0, -0.2526, math.pi / 2, 4.0))
    with pytest.raises(ValueError, match=r"'path'.*\['\.gif', '\.mp4'\]"):
        animate_shot(res, tmp_path / "x.avi", fps=5)
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(ValueError, match="needs ffmpeg"):
        animate_shot(res, tmp_path / "x.mp4", fps=5)
