"""Fail early, with instructions, when the compiled engine is missing or stale."""

from __future__ import annotations

import importlib
from pathlib import Path

_HOW = (
    "Rebuild it from the source checkout with\n"
    "    pip install -e .            (or: python setup.py build_ext --inplace)\n"
    "A C compiler and Cython >= 3 are needed."
)


#: Every compiled module of the package, with its source relative to the package.
_MODULES = {
    "carromlab.engine._core": "engine/_core.pyx",
    "carromlab.physics._kinematics": "physics/_kinematics.pyx",
    "carromlab.equipment._marks": "equipment/_marks.pyx",
    "carromlab.rules._placement": "rules/_placement.pyx",
    "carromlab.rules._spots": "rules/_spots.pyx",
    "carromlab._draws": "_draws.pyx",
}


def check_build() -> None:
    """Import the compiled modules and compare each with its ``.pyx`` source.

    Raises
    ------
    ImportError
        If a compiled module (``carromlab.engine._core``, ``carromlab.physics._kinematics``,
        ``carromlab.equipment._marks``, ``carromlab.rules._placement``,
        ``carromlab.rules._spots``, ``carromlab._draws``) cannot be imported, or if its source file (or the
        ``.pxd`` declarations beside it) is newer than the compiled module in a source
        checkout (a stale build).
    """
    for name, source in _MODULES.items():
        try:
            mod = importlib.import_module(name)
        except ImportError as exc:
            raise ImportError(f"carromlab's compiled engine could not be imported ({exc}).\n{_HOW}") from exc
        so = Path(mod.__file__ or "")
        pyx = Path(__file__).parent / source
        for src in (pyx, pyx.with_suffix(".pxd")):
            if src.exists() and so.exists() and so.suffix != ".pyx" and src.stat().st_mtime > so.stat().st_mtime + 1.0:
                raise ImportError(f"carromlab's compiled engine {so.name} is older than {src.name} (a stale build).\n{_HOW}")
