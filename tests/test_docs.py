"""The documentation builds with warnings as errors (notebooks executed, small sizes), and
every public function and class of every carromlab subpackage has an API page showing its
docstring."""

import html
import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import carromlab

DOCS = Path(__file__).parents[1] / "docs"
SUBPACKAGES = ("analysis", "cli", "engine", "equipment", "explore", "fitting", "match", "physics", "plotting", "rules")


def public_objects() -> dict[str, object]:
    """Every class and function named in the ``__all__`` of carromlab and its subpackages."""
    found: dict[str, object] = {}
    for name in ("carromlab", *(f"carromlab.{s}" for s in SUBPACKAGES)):
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                found[f"{name}.{attr}"] = obj
    return found


def words(text: str) -> str:
    """The words of a text, space-joined (markup, punctuation and spacing dropped)."""
    return " ".join(re.findall(r"\w+", text))


def summary_words(obj: object) -> str:
    """Words of the first line of a docstring as Sphinx renders it (``:func:`~a.b``` shows ``b``)."""
    line = inspect.getdoc(obj).strip().splitlines()[0]
    line = re.sub(r":\w+:`~?([^`]*?)`", lambda m: m.group(1).rsplit(".", 1)[-1] if "~" in m.group(0) else m.group(1), line)
    return words(line)


def page_words(page: Path) -> str:
    body = page.read_text()
    body = re.sub(r"<[^>]+>", " ", body)
    return words(html.unescape(body))


def test_every_public_name_is_in_the_api_reference():
    """Fails without building when a public class or function is missing from docs/api.rst."""
    listed = re.findall(r"^   (\S+)$", (DOCS / "api.rst").read_text(), re.M)
    documented = set()
    for entry in listed:
        module, _, attr = f"carromlab.{entry}".rpartition(".")
        documented.add(id(getattr(importlib.import_module(module), attr)))
    missing = [name for name, obj in public_objects().items() if id(obj) not in documented]
    assert not missing, f"not in docs/api.rst: {missing}"


def test_conf_documents_this_checkout_from_any_directory(tmp_path):
    """sphinx-build runs conf.py with the checkout off sys.path; another installed carromlab
    (a non-editable install, another clone) was documented instead, without a warning."""
    code = "import runpy, sys; runpy.run_path(sys.argv[1]); print(sys.modules['carromlab'].__file__)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", code, str(DOCS / "conf.py")], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()).resolve() == Path(carromlab.__file__).resolve()


def test_sphinx_build_has_no_warnings(tmp_path):
    """Nitpicky (-n): a cross-reference that resolves to nothing (a renamed function, a
    name relative to the wrong module) is an error. Offline: the links into numpy, pandas,
    ... need their inventories from the network, and are left out of the check."""
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-b", "html", str(DOCS), str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "CARROMLAB_SMALL": "1", "MPLBACKEND": "Agg", "CARROMLAB_DOCS_OFFLINE": "1"},
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "IProgress not found" not in proc.stdout + proc.stderr
    assert (tmp_path / "index.html").exists()
    index = (tmp_path / "index.html").read_text()
    assert "©." not in index and carromlab.__name__ in index
    # what a reader sees: every API page shows its docstring, not the raw directive
    pages = {p.stem: p for p in (tmp_path / "generated").glob("carromlab.*.html")}
    for page in pages.values():
        text = page.read_text()
        assert ".. auto" not in text and ".. currentmodule" not in text, page.name
    simulate_page = pages["carromlab.simulate"].read_text()
    assert "Parameters" in simulate_page and "Returns" in simulate_page
    # a class page shows its methods in full, not their names only
    scene_words = page_words(pages["carromlab.Scene"])
    assert "rotation_deg" in scene_words and "The rotation in degrees instead" in scene_words
    # every public class and function: a page (under any of its public names) that shows
    # the first line of its docstring
    by_object: dict[int, list[str]] = {}
    for stem in pages:
        module, _, attr = stem.rpartition(".")
        by_object.setdefault(id(getattr(importlib.import_module(module), attr)), []).append(stem)
    for name, obj in public_objects().items():
        stems = by_object.get(id(obj))
        assert stems, f"no API page for {name}"
        summary = summary_words(obj)
        assert any(summary in page_words(pages[s]) for s in stems), f"{stems[0]} lacks {summary!r}"


def test_every_rule_id_cited_by_the_rules_layer_is_in_the_rulebook():
    """Rule ids (ICF-11, ...) cited in carromlab/rules are defined in docs/rulebook.md."""
    defined = set(re.findall(r"^- ((?:ICF|ONL|HIK|CRK)-\d+) ", (DOCS / "rulebook.md").read_text(), re.M))
    package = Path(carromlab.__file__).parent / "rules"
    cited = {m for p in package.glob("*.py") for m in re.findall(r"\b(?:ICF|ONL|HIK|CRK)-\d+\b", p.read_text())}
    assert cited and not cited - defined, sorted(cited - defined)



def test_the_constants_the_api_pages_cite_are_listed_with_a_docstring():
    """The :data: references of the API pages to these constants showed as plain code (sphinx
    -n: "target not found"): each is listed where it is defined, with a ``#:`` comment for
    its docstring (what autodata shows)."""
    from sphinx.pycode import ModuleAnalyzer

    listed = re.findall(r"^   (\S+)$", (DOCS / "api.rst").read_text(), re.M)
    cited = ["physics.friction.FRICTION_LAWS", "analysis.noise.NOISE_PRESETS", "analysis.noise.DIMENSIONS",
             "match.records.SHOT_COLUMNS", "match.records.BOARD_COLUMNS", "analysis.goals.OPPONENT_KINDS",
             "rules.state.QUEEN_STATUSES", "envs.registration.ENV_IDS"]  # fmt: skip
    for name in cited:
        assert name in listed, name
        module, _, attr = f"carromlab.{name}".rpartition(".")
        comments = ModuleAnalyzer.for_module(module).find_attr_docs()
        assert any(comment for (_, a), comment in comments.items() if a == attr), f"{name} has no #: comment"
