"""Every notebook runs top to bottom (small sizes) and matches its paired .py script."""

from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("CARROMLAB_SMALL", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_paired(path):
    """The .ipynb and its jupytext .py hold the same cells."""
    script = jupytext.read(path.with_suffix(".py"))
    nb = nbformat.read(path, as_version=4)
    assert [c.source for c in script.cells] == [c.source for c in nb.cells]
