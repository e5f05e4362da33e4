"""A resumable Parquet dataset: one part file per chunk of a sweep, plus a manifest.

Layout of a store directory::

    _carromlab_sweep.json        manifest: analysis, parameters, seed, chunking, version
    part-000000.parquet          chunk 0 (rows of that chunk, with the manifest's
    part-000001.parquet          fingerprint in the file's key-value metadata)
    ...

A part is written under a temporary name starting with "." and moved into place with
:func:`os.replace` (atomic on POSIX and Windows), so a part file either is complete or
does not exist; leftover temporary files are ignored (pyarrow and pandas skip names
starting with "." or "_" when reading the directory as a dataset). Parts carry page
checksums; on resume every part is read in full and its chunk index and fingerprint (from
its own metadata) checked against its name and the manifest: a part that fails is
recomputed, with a :class:`StoreWarning` naming it.

The manifest is created under a lock (``.carromlab_sweep.lock``, :mod:`filelock`) and
written to a temporary name then renamed, so two writers starting together on a new
directory agree on one sweep: the one with other parameters gets the mismatch error.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import math
import os
import re
import types
import uuid
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock

__all__ = ["MANIFEST", "StoreWarning", "SweepStore", "describe", "read_store"]

#: Name of the manifest file of a store directory.
MANIFEST = "_carromlab_sweep.json"
_LOCK = ".carromlab_sweep.lock"
_PART = re.compile(r"^part-(\d{6})\.parquet$")
_META_KEY = b"carromlab.sweep"


def describe(obj: Any) -> Any:
    """A JSON-ready description of a parameter object, for manifests and fingerprints.

    Dataclasses become ``{"type": name, field: ...}`` (fields not in ``__init__``
    skipped), DataFrames lists of records, arrays lists, non-finite floats strings.
    Any other object (a custom foul check that is not a dataclass, say) is described by
    its class name, the SHA-256 of its class's code (source, or bytecode where the source
    is not available) and its attributes (its ``repr`` if it has none), so that a changed
    class or instance never matches an old manifest.

    Examples
    --------
    >>> from carromlab.analysis.noise import NoiseModel
    >>> describe(NoiseModel(angle=0.01))["angle"]
    0.01
    """
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {"type": type(obj).__name__}
        out.update({f.name: describe(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init})
        return out
    if isinstance(obj, pd.DataFrame):
        return describe(obj.to_dict(orient="list"))
    if isinstance(obj, np.ndarray):
        return describe(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else repr(float(obj))
    if isinstance(obj, str) or obj is None:
        return obj
    if isinstance(obj, Mapping):
        return {str(k): describe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [describe(v) for v in obj]
    state = vars(obj) if hasattr(obj, "__dict__") else {"repr": repr(obj)}
    return {"type": type(obj).__qualname__, "code_sha256": _code_digest(type(obj)), "state": describe(state)}


def _code_digest(cls: type) -> str:
    """SHA-256 of the code of a class and its bases (builtins excluded)."""
    h = hashlib.sha256()
    for base in cls.__mro__:
        if base.__module__ == "builtins":
            continue
        h.update(base.__qualname__.encode())
        try:
            h.update(inspect.getsource(base).encode())
        except (OSError, TypeError):  # defined where no source is kept (an interactive session)
            for name, value in sorted(vars(base).items()):
                h.update(name.encode())
                _hash_code(h, value)
    return h.hexdigest()


def _hash_code(h: Any, value: Any) -> None:
    if isinstance(value, property):
        for f in (value.fget, value.fset, value.fdel):
            _hash_code(h, f)
        return
    value = getattr(value, "__func__", value)  # staticmethod, classmethod
    value = getattr(value, "__code__", value)
    if isinstance(value, types.CodeType):
        h.update(value.co_code)
        h.update(repr(value.co_names).encode())
        for const in value.co_consts:
            _hash_code(h, const)
    elif not callable(value):
        h.update(repr(value).encode())


def _atomic_write(path: Path, write: Any) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


class StoreWarning(UserWarning):
    """A part file of a store failed its check (full read, chunk index, fingerprint): it is
    left out, and recomputed when the sweep resumes."""


class SweepStore:
    """The part files of one sweep in a directory, checked against its manifest.

    Parameters
    ----------
    path : str or os.PathLike
        Directory; created if missing.
    manifest : dict
        JSON-ready description of the sweep (analysis, parameters, seed, chunking,
        carromlab version). A directory that already holds a different sweep is an error.
        The manifest is created atomically under a lock, so of two writers starting
        together on a new directory with different parameters one gets that error.
    holds : str
        What the store holds, in that error's message. Default ``"sweep"`` (a
        :class:`~carromlab.match.store.MatchStore` passes ``"match"``).

    Raises
    ------
    ValueError
        If the directory's manifest differs (the message names the differing entries,
        with the stored and the given value when they are short), or is damaged (the
        message names the file and how to recover).

    Examples
    --------
    >>> import tempfile
    >>> db = SweepStore(tempfile.mkdtemp(), {"analysis": "demo", "seed": 0})
    >>> db.write(0, pd.DataFrame({"cell": [0, 1], "p": [0.5, 0.25]}))
    >>> db.completed(), db.read(0)["p"].tolist()
    ({0}, [0.5, 0.25])
    """

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any], *, holds: str = "sweep") -> None:
        self.path = Path(path)
        text = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
        self.fingerprint = hashlib.sha256(text.encode()).hexdigest()
        self.manifest = {**manifest, "fingerprint": self.fingerprint}
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"The 'store' parameter must be a directory. Got the file {str(self.path)!r} instead.")
        self.path.mkdir(parents=True, exist_ok=True)
        existing = self.path / MANIFEST
        with FileLock(self.path / _LOCK):
            if not existing.exists():
                body = json.dumps(self.manifest, indent=1, sort_keys=True).encode()
                _atomic_write(existing, lambda fh: fh.write(body))
                return
            old = _read_manifest(self.path)
        if old["fingerprint"] != self.fingerprint:
            raise ValueError(
                f"The store directory {str(self.path)!r} holds a different {holds} "
                f"(differing: {', '.join(_differences(old, self.manifest)) or 'fingerprint'}). "
                "Rerun with the same parameters to resume it, or use a new directory."
            )

    def _part(self, chunk: int) -> Path:
        return self.path / f"part-{chunk:06d}.parquet"

    def completed(self) -> set[int]:
        """Chunks whose part file is present, reads in full and is of this sweep and chunk;
        every other part file is named in a :class:`StoreWarning` (it will be recomputed)."""
        return set(_parts(self.path, self.fingerprint))

    def write(self, chunk: int, frame: pd.DataFrame) -> None:
        """Write one chunk's rows atomically."""
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[_META_KEY] = json.dumps({**self.manifest, "chunk": chunk}, sort_keys=True).encode()
        table = table.replace_schema_metadata(meta)
        _atomic_write(self._part(chunk), lambda fh: pq.write_table(table, fh, write_page_checksum=True))

    def read(self, chunk: int) -> pd.DataFrame:
        """The rows of one chunk.

        Raises
        ------
        ValueError
            If the part is missing, damaged, or not of this sweep and chunk.
        """
        path = self._part(chunk)
        table, problem = _load(path, self.fingerprint, chunk)
        if table is None:
            raise ValueError(f"The part {str(path)!r} {problem}.")
        return table.to_pandas()


def _read_manifest(root: Path) -> dict[str, Any]:
    """The manifest of a store directory, or a ValueError naming the damaged file."""
    path = root / MANIFEST
    try:
        manifest = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError) as exc:
        manifest = exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("fingerprint"), str):
        raise ValueError(
            f"The store manifest {str(path)!r} is damaged ({manifest if isinstance(manifest, Exception) else 'no fingerprint'}). "
            f"To recover, delete {MANIFEST} and rerun with the original parameters (the finished parts "
            "of that sweep are checked and kept), or use a new directory."
        )
    return manifest


def _load(path: Path, fingerprint: str, chunk: int) -> tuple[pa.Table | None, str]:
    """The table of a part file read in full, or None and what is wrong with it."""
    try:
        table = pq.read_table(path, page_checksum_verification=True)
        meta = json.loads((table.schema.metadata or {}).get(_META_KEY, b"{}"))
    except (OSError, ValueError, pa.ArrowException) as exc:
        return None, f"is unreadable ({type(exc).__name__}: {exc})"
    if meta.get("fingerprint") != fingerprint:
        return None, "belongs to a different sweep (fingerprint)"
    if meta.get("chunk") != chunk:
        return None, f"holds the rows of chunk {meta.get('chunk')!r}, not {chunk}"
    return table, ""


def _parts(root: Path, fingerprint: str) -> dict[int, pa.Table]:
    """Tables of the part files that pass their check, by chunk; the others are warned of."""
    found = {}
    for p in sorted(root.iterdir()):
        m = _PART.match(p.name)
        if m is None:
            continue
        table, problem = _load(p, fingerprint, int(m.group(1)))
        if table is None:
            message = f"The part {str(p)!r} {problem}: left out, and recomputed by a rerun of its sweep."
            warnings.warn(message, StoreWarning, stacklevel=3)
        else:
            found[int(m.group(1))] = table
    return found


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The entries (dotted paths) in which two manifests differ, each with its stored and
    its given value when both are short (``"seed (stored 0, given 1)"``)."""
    keys = []
    for key in sorted(set(old) | set(new)):
        if key == "fingerprint":
            continue
        a, b = old.get(key), new.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            keys += [f"{key}.{k}" for k in _differences(a, b)]
        elif a != b:
            shown = [json.dumps(v, sort_keys=True) for v in (a, b)]
            keys.append(key + (f" (stored {shown[0]}, given {shown[1]})" if max(map(len, shown)) <= 40 else ""))
    return keys


def read_store(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read the rows written so far to a store directory, in chunk order.

    Parameters
    ----------
    path : str or os.PathLike
        A store directory written by an analysis (``store=`` parameter).

    Returns
    -------
    pandas.DataFrame
        The stored rows; ``df.attrs["carromlab"]`` is the manifest (analysis,
        parameters, seed, chunking, carromlab version, fingerprint).

    Raises
    ------
    ValueError
        If the directory has no manifest, or a damaged one.

    Warns
    -----
    StoreWarning
        For each part file that fails its check (it is left out).

    Examples
    --------
    >>> import tempfile
    >>> from carromlab import Scene
    >>> from carromlab.analysis import ShotGrid
    >>> from carromlab.analysis.breaks import break_study
    >>> where = tempfile.mkdtemp()
    >>> _ = break_study(Scene.icf_break(), ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack"),
    ...                 replicas=3, store=where, progress=False)
    >>> rows = read_store(where)
    >>> len(rows), rows.attrs["carromlab"]["analysis"]
    (3, 'break_study')
    """
    root = Path(path)
    if not (root / MANIFEST).is_file():
        raise ValueError(f"The 'path' parameter must be a store directory with a {MANIFEST} file. Got {str(root)!r} instead.")
    manifest = _read_manifest(root)
    parts = _parts(root, manifest["fingerprint"])
    frames = [parts[k].to_pandas() for k in sorted(parts)]
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    out.attrs["carromlab"] = manifest
    return out
