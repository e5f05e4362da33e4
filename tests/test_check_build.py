"""A missing or stale compiled engine fails with instructions to rebuild."""

import importlib
import os
from pathlib import Path

import pytest

from carromlab import _check_build


def test_missing_extension_says_how_to_rebuild(monkeypatch):
    def fail(name):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(importlib, "import_module", fail)
    with pytest.raises(ImportError, match=r"(?s)could not be imported.*pip install -e \."):
        _check_build.check_build()


def test_stale_extension_is_detected(monkeypatch, tmp_path):
    so = tmp_path / "_core.so"
    so.write_text("")
    os.utime(so, (1_000_000, 1_000_000))  # far older than the source

    class Fake:
        __file__ = str(so)

    monkeypatch.setattr(importlib, "import_module", lambda name: Fake)
    assert (Path(_check_build.__file__).parent / "engine" / "_core.pyx").exists()
    with pytest.raises(ImportError, match="stale build"):
        _check_build.check_build()


def test_current_build_passes():
    _check_build.check_build()
