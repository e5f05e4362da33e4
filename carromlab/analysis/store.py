"""A resumable Parquet dataset: one part file per chunk of a sweep, plus a manifest.

Layout of a store directory::

    _carromlab_sweep.json        manifest: analysis, parameters, seed, chunking, version
    part-000000.parquet          chunk 0 (rows of that chunk, with the manifest's
    part-000001.parquet          fingerprint in the file's key-value metadata)
    ...

A part is written under a temporary name starting with "." and moved into place with
:func:`os.replace` (atomic on POSIX and Windows), so a part file either is complete or
does not exist; leftover temporary files are ignored (pyarrow and pandas skip names
starting with "." or "_" when reading the directory as a dataset).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["MANIFEST", "SweepStore", "describe", "read_store"]

#: Name of the manifest file of a store directory.
MANIFEST = "_carromlab_sweep.json"
_PART = re.compile(r"^part-(\d{6})\.parquet$")
_META_KEY = b"carromlab.sweep"


def describe(obj: Any) -> Any:
    """A JSON-ready description of a parameter object, for manifests and fingerprints.

    Dataclasses become ``{"type": name, field: ...}`` (fields not in ``__init__``
    skipped), DataFrames lists of records, arrays lists, non-finite floats strings;
    anything else its ``repr``.

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
    return repr(obj)


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


class SweepStore:
    """The part files of one sweep in a directory, checked against its manifest.

    Parameters
    ----------
    path : str or os.PathLike
        Directory; created if missing.
    manifest : dict
        JSON-ready description of the sweep (analysis, parameters, seed, chunking,
        carromlab version). A directory that already holds a different sweep is an error.

    Raises
    ------
    ValueError
        If the directory's manifest differs; the message names the differing entries.

    Examples
    --------
    >>> import tempfile
    >>> db = SweepStore(tempfile.mkdtemp(), {"analysis": "demo", "seed": 0})
    >>> db.write(0, pd.DataFrame({"cell": [0, 1], "p": [0.5, 0.25]}))
    >>> db.completed(), db.read(0)["p"].tolist()
    ({0}, [0.5, 0.25])
    """

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any]) -> None:
        self.path = Path(path)
        text = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
        self.fingerprint = hashlib.sha256(text.encode()).hexdigest()
        self.manifest = {**manifest, "fingerprint": self.fingerprint}
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"The 'store' parameter must be a directory. Got the file {str(self.path)!r} instead.")
        self.path.mkdir(parents=True, exist_ok=True)
        existing = self.path / MANIFEST
        if existing.exists():
            old = json.loads(existing.read_text())
            if old.get("fingerprint") != self.fingerprint:
                raise ValueError(
                    f"The store directory {str(self.path)!r} holds a different sweep "
                    f"(differing: {', '.join(_differences(old, self.manifest)) or 'fingerprint'}). "
                    "Rerun with the same parameters to resume it, or use a new directory."
                )
        else:
            _atomic_write(existing, lambda fh: fh.write(json.dumps(self.manifest, indent=1, sort_keys=True).encode()))

    def _part(self, chunk: int) -> Path:
        return self.path / f"part-{chunk:06d}.parquet"

    def completed(self) -> set[int]:
        """Chunks whose part file is present, readable and of this sweep."""
        return set(_parts(self.path, self.fingerprint))

    def write(self, chunk: int, frame: pd.DataFrame) -> None:
        """Write one chunk's rows atomically."""
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[_META_KEY] = json.dumps({**self.manifest, "chunk": chunk}, sort_keys=True).encode()
        table = table.replace_schema_metadata(meta)
        _atomic_write(self._part(chunk), lambda fh: pq.write_table(table, fh))

    def read(self, chunk: int) -> pd.DataFrame:
        """The rows of one chunk."""
        return pq.read_table(self._part(chunk)).to_pandas()


def _parts(root: Path, fingerprint: str) -> dict[int, Path]:
    """Readable part files of the sweep with this fingerprint, by chunk."""
    found = {}
    for p in root.iterdir():
        m = _PART.match(p.name)
        if m is None:
            continue
        try:
            meta = pq.read_schema(p).metadata or {}
        except (OSError, pa.ArrowException):
            continue  # unreadable: recomputed and overwritten
        if json.loads(meta.get(_META_KEY, b"{}")).get("fingerprint") == fingerprint:
            found[int(m.group(1))] = p
    return found


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = []
    for key in sorted(set(old) | set(new)):
        if key == "fingerprint":
            continue
        a, b = old.get(key), new.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            keys += [f"{key}.{k}" for k in _differences(a, b)]
        elif a != b:
            keys.append(key)
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
        If the directory has no manifest.

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
    manifest = json.loads((root / MANIFEST).read_text())
    parts = _parts(root, manifest["fingerprint"])
    frames = [pq.read_table(parts[k]).to_pandas() for k in sorted(parts)]
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    out.attrs["carromlab"] = manifest
    return out
