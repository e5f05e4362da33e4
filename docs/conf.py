"""Sphinx configuration: numpydoc API reference, MyST pages, executed notebooks."""

import os
import shutil
import sys
from pathlib import Path

# Document this checkout, not whichever carromlab is installed: sphinx-build (unlike
# python -m sphinx run from the root) does not put the checkout on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import carromlab  # noqa: E402

project = "carromlab"
author = "carromlab developers"
copyright = f"2026, {author}"  # noqa: A001  (the name Sphinx reads)
release = version = carromlab.__version__

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
]

# Links into the documentation of these projects, from their objects.inv fetched at every
# build. CARROMLAB_DOCS_OFFLINE=1 builds without fetching (no network, as in the tests'
# build): the references into them then show as plain code, and `sphinx-build -n` does
# not report them (nitpick_ignore_regex below) -- every other unresolved reference it does.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "numpy": ("https://numpy.org/doc/stable", None),
    "pandas": ("https://pandas.pydata.org/docs", None),
    "matplotlib": ("https://matplotlib.org/stable", None),
    "gymnasium": ("https://gymnasium.farama.org", None),
}
# the top-level packages those references name (the standard library's: those cited)
_EXTERNAL = ("collections", "numpy", "pandas", "matplotlib", "gymnasium")
if os.environ.get("CARROMLAB_DOCS_OFFLINE"):
    nitpick_ignore_regex = [(r"py:.*", rf"({'|'.join(_EXTERNAL)})\..*")]
else:
    extensions.append("sphinx.ext.intersphinx")
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
autosummary_generate = True
# class pages render every public method and property in full (the default template lists
# their names only)
templates_path = ["_templates"]
autodoc_typehints = "none"
myst_enable_extensions = ["dollarmath", "colon_fence"]
# "page.md#a-heading" links (as GitHub renders them) resolve to the headings of level 1-3
myst_heading_anchors = 3
# ".rst" first: autosummary writes its API stubs with the first suffix, and a stub written
# as .md would be rendered by MyST as literal text instead of the docstring.
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "alabaster"
html_static_path: list[str] = []

# The notebooks live in ../notebooks (paired .py/.ipynb); they are copied here and
# executed at every build, small-size, so the rendered pages always match the code.
nb_execution_mode = "force"
nb_execution_timeout = 600
nb_execution_raise_on_error = True
os.environ.setdefault("CARROMLAB_SMALL", "1")
_here = Path(__file__).parent
_nb_src = _here.parent / "notebooks"
_nb_dst = _here / "notebooks"
if _nb_src.is_dir():
    _nb_dst.mkdir(exist_ok=True)
    for nb in sorted(_nb_src.glob("*.ipynb")):
        shutil.copy2(nb, _nb_dst / nb.name)
