"""The shipped example files load, are what data/make_examples.py makes, and their fits'
95 % intervals contain the true values their sidecars state; docstring examples of the
fitting modules run."""

import doctest
import importlib
import json
import runpy
import shutil
from pathlib import Path

import pytest

from carromlab.fitting import data_path, fit_friction, read_calibration, read_tracks

MODULES = [
    "carromlab.fitting",
    "carromlab.fitting.camera",
    "carromlab.fitting.tracks",
    "carromlab.fitting.segments",
    "carromlab.fitting.friction_fit",
    "carromlab.fitting.compare",
    "carromlab.fitting.restitution_fit",
    "carromlab.fitting.calibration_io",
    "carromlab.fitting.synthetic",
    "carromlab.plotting.fitting",
]
FILES = ["cushion_shot.csv", "spin_shot.csv", "trackpy_frames.csv"]


@pytest.mark.parametrize("name", FILES)
def test_example_files_load(name):
    tracks = read_tracks(data_path(name))
    assert tracks.discs == [0, 1] and tracks.board.name == "icf" and len(tracks.data) > 300
    assert data_path(name).stat().st_size < 50_000


@pytest.mark.parametrize("name", FILES)
def test_example_intervals_cover_their_truth(name):
    truth = json.loads(data_path(name).with_suffix(".json").read_text())["generator"]["params"]
    fit = fit_friction(read_tracks(data_path(name)), truth["friction_law"])
    for row in fit.estimates.itertuples(index=False):
        assert row.ci_low <= truth[row.parameter] <= row.ci_high, (row.parameter, row.estimate, row.std_error)


def test_examples_are_reproducible(tmp_path):
    script = tmp_path / "make_examples.py"
    shutil.copy(data_path("make_examples.py"), script)
    runpy.run_path(str(script), run_name="__main__")
    for name in FILES + [n.replace(".csv", ".json") for n in FILES]:
        assert (tmp_path / name).read_text() == data_path(name).read_text(), name
    # the calibration is a least-squares fit: equal to rounding (BLAS threads may differ)
    made = read_calibration(tmp_path / "example_calibration.toml")
    shipped = read_calibration(data_path("example_calibration.toml"))
    assert made.name == shipped.name
    for field, value in shipped.params.to_dict().items():
        expected = value if isinstance(value, str) else pytest.approx(value, rel=1e-6)
        assert getattr(made.params, field) == expected, field


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_synthetic_tracks_example_of_the_guide_prints_what_it_shows(tmp_path, monkeypatch, capsys):
    """docs/fitting.md section 8 runs without a FitWarning (warnings are errors) and its last
    line prints the table shown under it as comments."""
    guide = (Path(__file__).parents[2] / "docs" / "fitting.md").read_text()
    section = guide[guide.index("## 8. Synthetic tracks") :]
    block = section[section.index("```python\n") + len("```python\n") : section.index("\n```", section.index("```python"))]
    lines = block.splitlines()
    shown = [ln[2:] for ln in lines if ln.startswith("# ")]
    code = [ln for ln in lines if not ln.startswith("#")]
    code[-1] = f"print({code[-1].split('  #')[0].strip()})"
    monkeypatch.chdir(tmp_path)
    exec("import pandas as pd\nfrom carromlab.fitting import fit_friction\n" + "\n".join(code), {})
    assert capsys.readouterr().out.splitlines() == shown
