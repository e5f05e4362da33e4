"""Fail early, with instructions, when the compiled engine is missing or stale."""

from __future__ import annotations

import importlib
from pathlib import Path

_HOW = (
    "Rebuild it from the source checkout with\n"
    "    pip install -e .            (or: python setup.py build_ext --inplace)\n"
    "A C compiler and Cython >= 3 are needed."
)


def check_build() -> None:
    """Import the compiled core and compare it with its ``.pyx`` source.

    Raises
    ------
    ImportError
        If ``carromlab.engine._core`` cannot be imported, or if its source file is
        newer than the compiled module in a source checkout (a stale build).
    """
    try:
        mod = importlib.import_module("carromlab.engine._core")
    except ImportError as exc:
        raise ImportError(f"carromlab's compiled engine could not be imported ({exc}).\n{_HOW}") from exc
    so = Path(mod.__file__ or "")
    pyx = Path(__file__).parent / "engine" / "_core.pyx"
    if pyx.exists() and so.exists() and so.suffix != ".pyx" and pyx.stat().st_mtime > so.stat().st_mtime + 1.0:
        raise ImportError(f"carromlab's compiled engine {so.name} is older than {pyx.name} (a stale build).\n{_HOW}")
