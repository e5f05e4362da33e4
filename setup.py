"""Build the Cython extensions; all project metadata lives in pyproject.toml.

Set ``CARROMLAB_DEBUG_CYTHON=1`` to build with bounds checking and wraparound
turned back on (slow, for debugging the kernels).
"""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CARROMLAB_DEBUG_CYTHON", "0") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}

# gcc's auto-vectorized loops cost more than they save on the engine's short loops (a
# few grid cells per row); results do not depend on it (no floating-point reduction is
# vectorized without -ffast-math). -fno-math-errno lets sqrt be one instruction with no
# errno branch (nothing reads errno; the same results, 1 % fewer instructions per break).
# Portable: no -march.
COMPILE_ARGS = ["-O3", "-fno-tree-vectorize", "-fno-math-errno"] if not DEBUG else ["-O0", "-g"]


def get_extensions() -> list[Extension]:
    """Every compiled kernel of the package, with project-wide settings."""
    exts = [
        Extension(
            f"carromlab.{name}",
            [f"carromlab/{name.replace('.', '/')}.pyx"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=COMPILE_ARGS,
        )
        for name in ("physics._kinematics", "engine._core", "equipment._marks", "rules._placement", "rules._spots", "_draws")
    ]
    return cythonize(exts, compiler_directives=DIRECTIVES)


setup(ext_modules=get_extensions())
