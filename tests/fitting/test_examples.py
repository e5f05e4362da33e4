"""The shipped example files load, are what data/make_examples.py makes, and their fits'
95 % intervals contain the true values their sidecars state (the docstring examples run
with every other one: ``--doctest-modules`` over the package, see pyproject.toml)."""

import json
import runpy
import shutil
from pathlib import Path

import pytest

from carromlab.fitting import data_path, fit_friction, read_calibration, read_tracks

#: The example track files and their discs (a coin and the striker; the striker alone).
DISCS = {"cushion_shot.csv": [0, 1], "spin_shot.csv": [0, 1], "trackpy_frames.csv": [0, 1], "slide_shot.csv": [0]}
FILES = list(DISCS)


@pytest.mark.parametrize("name", FILES)
def test_example_files_load(name):
    tracks = read_tracks(data_path(name))
    assert tracks.discs == DISCS[name] and tracks.board.name == "icf" and len(tracks.data) > 150 * len(DISCS[name])
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
