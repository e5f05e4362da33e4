"""The benchmark scripts stand on the package alone: none imports the test package, so a
benchmark runs wherever carromlab does (and a test's set-up that a benchmark needs is the
package's, documented: say carromlab.fitting.random_cut_shot); and none imports a private
name of the package, so what a benchmark needs is public, documented and kept."""

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


#: Private modules a benchmark may drive: the fuzzer calls the compiled engine itself.
PRIVATE_ALLOWED = {"carromlab.engine._core"}


@pytest.mark.parametrize("path", BENCHMARKS, ids=[p.name for p in BENCHMARKS])
def test_benchmark_imports_no_private_name_of_the_package(path):
    # fit_coverage.py imported carromlab.fitting.synthetic._angles (now true_angles, public)
    private = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "carromlab":
            names = [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == "carromlab"]
        else:
            continue
        private += [n for n in names if n not in PRIVATE_ALLOWED and any(part.startswith("_") for part in n.split("."))]
    assert not private, private
