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
