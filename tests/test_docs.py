"""The documentation builds with warnings as errors (notebooks executed, small sizes)."""

import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).parents[1] / "docs"


def test_sphinx_build_has_no_warnings(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path)],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "CARROMLAB_SMALL": "1", "MPLBACKEND": "Agg"},
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert (tmp_path / "index.html").exists()
    # what a reader sees: every API page shows its docstring, not the raw directive
    pages = sorted((tmp_path / "generated").glob("carromlab.*.html"))
    assert len(pages) > 20
    for page in pages:
        html = page.read_text()
        assert ".. auto" not in html and ".. currentmodule" not in html, page.name
    simulate_page = (tmp_path / "generated" / "carromlab.simulate.html").read_text()
    assert "Parameters" in simulate_page and "Returns" in simulate_page
