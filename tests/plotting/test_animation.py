"""Shot animation to GIF."""

import math

import pytest
from PIL import Image

from carromlab import Scene, Shot, simulate
from carromlab.plotting import animate_shot


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
