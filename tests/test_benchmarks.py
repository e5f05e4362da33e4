"""The benchmark scripts stand on the package alone: none imports the test package, so a
benchmark runs wherever carromlab does (and a test's set-up that a benchmark needs is the
package's, documented: say carromlab.fitting.random_cut_shot)."""

import ast
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("path", BENCHMARKS, ids=[p.name for p in BENCHMARKS])
def test_benchmark_does_not_import_the_tests(path):
    modules = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            modules += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append(node.module)
    assert not [m for m in modules if m == "tests" or m.startswith("tests.")], modules
