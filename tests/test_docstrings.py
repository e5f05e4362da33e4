"""Every Examples section of the package runs with the test suite.

pytest collects the package's docstrings with ``--doctest-modules`` (pyproject.toml:
``testpaths`` holds ``carromlab``, ``addopts`` the option), and the repository's
conftest.py draws their figures off-screen (Agg) and closes them. These tests fail when a
docstring with an Examples section (numpydoc) is not one of the collected doctests: an
object the doctest finder cannot reach (a function defined inside another, a decorator
that hides its module), a section without ``>>>`` prompts, or a compiled module's
docstring (``.pyx`` files are not collected).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "carromlab"
#: A numpydoc Examples heading: the word on its own line, underlined.
SECTION = re.compile(r"^[ \t]*Examples[ \t]*\n[ \t]*-{3,}[ \t]*$", re.M)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _sections(node: ast.AST, name: str) -> dict[str, str]:
    """{doctest name: its Examples section} of the docstrings of ``node`` (named ``name``)
    and of the definitions in it, wherever they stand (in ``if`` or ``try`` blocks too)."""
    found = {}
    if isinstance(node, (ast.Module, *DEFINITIONS)) and (doc := ast.get_docstring(node, clean=False)) and SECTION.search(doc):
        found[name] = SECTION.split(doc, maxsplit=1)[1]
    for child in ast.iter_child_nodes(node):
        found |= _sections(child, f"{name}.{child.name}" if isinstance(child, DEFINITIONS) else name)
    return found


def examples_sections() -> dict[str, str]:
    """Every Examples section in the package's Python files, by the name pytest gives its
    doctest (module name, then the qualified name of the function, class or method)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found |= _sections(ast.parse(path.read_text(), str(path)), module)
    return found


def test_the_suite_collects_the_package_docstrings(request):
    """What CI runs (``python -m pytest`` with the configured testpaths) takes the package in
    with ``--doctest-modules``."""
    assert "carromlab" in request.config.getini("testpaths")
    assert request.config.getoption("doctestmodules")


def test_every_examples_section_is_a_collected_doctest():
    sections = examples_sections()
    assert len(sections) > 100  # the scan itself works
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "carromlab"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    collected = {line.split("::", 1)[1] for line in out.stdout.splitlines() if "::" in line}
    missing = {name: ("no >>> prompt" if ">>>" not in text else "not found by the doctest finder") for name, text in sections.items() if name not in collected}
    assert not missing, missing


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.pyx")), ids=lambda p: p.name)
def test_compiled_modules_have_no_examples_sections(path):
    """The compiled modules are not collected: their examples belong in the Python
    functions that wrap them."""
    assert not SECTION.search(path.read_text())
