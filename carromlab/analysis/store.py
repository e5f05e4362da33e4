"""A resumable Parquet dataset: one part file per chunk of a sweep, plus a manifest.

Layout of a store directory::

    _carromlab_sweep.json        manifest: analysis, parameters, seed, chunking, version
    part-000000.parquet          chunk 0 (rows of that chunk, with the manifest's
    part-000001.parquet          fingerprint in the file's key-value metadata)
    ...

A part is written under a temporary name starting with "." and moved into place with
:func:`os.replace` (atomic on POSIX and Windows), so a part file either is complete or
does not exist; a temporary file left by a killed write is ignored (pyarrow and pandas
skip names starting with "." or "_" when reading the directory as a dataset) and deleted
when the store is next opened, once it is :data:`STALE_SECONDS` old. On resume only the
footer of each part is read (:meth:`SweepStore.completed`): its chunk index and fingerprint
(the part's own metadata) are checked against its name and the manifest, and a part that
fails (unreadable: torn, not Parquet; of another sweep or chunk) is ignored, with a
:class:`StoreWarning` naming it, and its chunk (if it is one of the sweep's) recomputed by
a rerun. The data pages carry checksums, verified whenever a part is read
(:meth:`SweepStore.read`): a part damaged behind an intact footer is named then.

The manifest is created under a lock (``.carromlab_sweep.lock``, :mod:`filelock`) and
written to a temporary name then renamed, so two writers starting together on a new
directory agree on one sweep: the one with other parameters gets the mismatch error.
Writers with the same parameters share the chunks: a writer computes a chunk only while it
holds the chunk's lock (``.part-NNNNNN.lock``, taken without waiting, see
:meth:`SweepStore.claim`), so each chunk is computed once; the operating system releases
the lock of a writer that dies, and the lock file is removed once the part is written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import inspect
import json
import math
import os
import re
import sys
import time
import types
import uuid
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, overload

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock, Timeout

from .. import __version__
from .._validation import check_choice, check_type

__all__ = ["MANIFEST", "STALE_SECONDS", "StoreWarning", "SweepStore", "describe", "read_store", "store_directory", "sweep_manifest"]

#: Name of the manifest file of a store directory.
MANIFEST = "_carromlab_sweep.json"
_LOCK = ".carromlab_sweep.lock"
#: The name of a part: its chunk zero-padded to six digits, longer from chunk 1000000 on.
_PART_NAME = r"part-(\d{6}|[1-9]\d{6,})\.parquet"
_PART = re.compile(rf"^{_PART_NAME}$")
_META_KEY = b"carromlab.sweep"
#: The temporary name of a part or manifest being written (:func:`_atomic_write`).
_TEMPORARY = re.compile(rf"^\.({_PART_NAME}|{re.escape(MANIFEST)})\.[0-9a-f]{{32}}\.tmp$")
#: The differing entries a mismatch error names (then "and N more").
_SHOWN = 6
#: Age, s, after which a temporary file of a store is taken for a killed write's and deleted.
STALE_SECONDS = 600.0
#: What pyarrow raises for a part file it cannot read (missing, torn, not Parquet, a bad checksum).
_READ_ERRORS = (OSError, ValueError, pa.ArrowException)
#: Files of carromlab itself (a StoreWarning is shown at the first caller outside them).
_PACKAGE = str(Path(__file__).parents[1]) + os.sep


def describe(obj: Any, name: str | None = None) -> Any:
    """A JSON-ready description of a parameter object, for manifests and fingerprints.

    Dataclasses become ``{"type": name, field: ...}`` (fields not in ``__init__``
    skipped), DataFrames lists of records, arrays lists, non-finite floats strings.
    A function is described by its qualified name, the SHA-256 of its code object
    (bytecode, constants and names: a new Python version may change it, so a store is
    then not resumed), its defaults and the values of its closure's cells (described
    in turn); a :func:`functools.partial` by its function, arguments and keywords; a
    bound method by its function and its object; a class by its name and code. Any
    other object (a custom foul check that is not a dataclass, say) is described by its
    class name, the SHA-256 of its class's code (source, or bytecode where the source
    is not available) and its attributes (its ``repr`` if it has none), so that a
    changed function, class or instance never matches an old manifest. The globals a
    function reads are not part of its description. A mapping is described by its
    keys and values, not their order.

    Parameters
    ----------
    obj : object
        The value to describe.
    name : str, optional
        The parameter it is, for the error message. The entries of a mapping described
        without a name are named by their keys (``describe({"policies": ...})``).

    Returns
    -------
    object
        Nested dicts, lists, str, int, float, bool and None.

    Raises
    ------
    ValueError
        For an object that has no attributes and whose ``repr`` is only its type and
        memory address (a lock, a generator): nothing would tell two of them apart, so
        a store cannot tell whether a rerun has the same parameters. The message names
        the parameter (``name`` and the path to the object inside it).

    Examples
    --------
    >>> from carromlab.analysis.noise import NoiseModel
    >>> describe(NoiseModel(angle=0.01))["angle"]
    0.01
    >>> describe(lambda x: x + 1) != describe(lambda x: x + 2)
    True
    """
    return _describe(obj, name, frozenset())


def sweep_manifest(seed: Any, parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest of an analysis's store: the carromlab version, the seed and the
    parameters, each described by :func:`describe` under its name (an object that
    cannot be described is a ValueError naming it).

    Examples
    --------
    >>> sweep_manifest(3, {"replicas": 10})["parameters"]
    {'replicas': 10}
    """
    return {"carromlab_version": __version__, "seed": describe(seed, "seed"), "parameters": describe(parameters)}


def _item(name: str | None, key: object) -> str:
    """The name of an entry of a mapping or sequence ``name`` (the key alone at the top)."""
    return str(key) if name is None else f"{name}[{key!r}]"


def _attribute(name: str | None, attr: str) -> str:
    return attr if name is None else f"{name}.{attr}"


def _describe(obj: Any, name: str | None, active: frozenset[int]) -> Any:
    """:func:`describe`; ``active`` holds the ids of the objects being described around
    ``obj``, so that an object reached again through itself (a closure's recursion)
    is named rather than followed."""
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else repr(float(obj))
    if isinstance(obj, str) or obj is None:
        return obj
    if id(obj) in active:
        return {"cycle": type(obj).__qualname__}
    active = active | {id(obj)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {"type": type(obj).__name__}
        out.update({f.name: _describe(getattr(obj, f.name), _attribute(name, f.name), active) for f in dataclasses.fields(obj) if f.init})
        return out
    if isinstance(obj, pd.DataFrame):
        return _describe(obj.to_dict(orient="list"), name, active)
    if isinstance(obj, np.ndarray):
        return _describe(obj.tolist(), name, active)
    if isinstance(obj, Mapping):
        return {str(k): _describe(v, _item(name, k), active) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_describe(v, _item(name, i), active) for i, v in enumerate(obj)]
    code = _describe_code(obj, name, active) if callable(obj) or isinstance(obj, types.ModuleType) else None
    return code if code is not None else _describe_object(obj, name, active)


def _describe_object(obj: Any, name: str | None, active: frozenset[int]) -> dict[str, Any]:
    """An object by its class's name and code and its attributes (or its repr), or a
    ValueError naming the parameter if it has neither attributes nor a telling repr."""
    state = _attributes(obj)
    if state is None:
        text = repr(obj)
        if type(obj).__repr__ is object.__repr__ or _ADDRESS.search(text):
            raise ValueError(
                f"The '{name or 'value'}' parameter must be an object a store can describe (a dataclass, a function, "
                f"an object with attributes or with a repr of its settings). Got {text} ({type(obj).__qualname__}, no "
                "attributes, a repr of its memory address) instead; run without a store, or pass an object of its settings."
            )
        state = {"repr": text}
    return {"type": type(obj).__qualname__, "code_sha256": _code_digest(type(obj)),
            "state": {k: _describe(v, _attribute(name, k), active) for k, v in state.items()}}  # fmt: skip


#: The repr of an object that says only where it is in memory.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _attributes(obj: Any) -> dict[str, Any] | None:
    """The instance attributes of ``obj`` (``__dict__`` and ``__slots__``), or None if it has none."""
    state = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                state[slot] = getattr(obj, slot)
    return state if state or hasattr(obj, "__dict__") else None


def _describe_code(obj: Any, name: str | None, active: frozenset[int]) -> Any:
    """The description of a function, partial, method, class or module (see
    :func:`describe`); None for another callable."""
    if isinstance(obj, functools.partial):
        return {"partial": _describe(obj.func, _attribute(name, "func"), active),
                "args": _describe(list(obj.args), _attribute(name, "args"), active),
                "keywords": _describe(dict(obj.keywords), _attribute(name, "keywords"), active)}  # fmt: skip
    if isinstance(obj, types.MethodType):
        return {"method": obj.__func__.__qualname__, "self": _describe(obj.__self__, _attribute(name, "__self__"), active),
                "function": _describe(obj.__func__, _attribute(name, "__func__"), active)}  # fmt: skip
    if isinstance(obj, types.FunctionType):
        h = hashlib.sha256()
        _hash_code(h, obj.__code__)
        cells = dict(zip(obj.__code__.co_freevars, obj.__closure__ or ()))
        return {
            "function": f"{obj.__module__}.{obj.__qualname__}", "code_sha256": h.hexdigest(),
            "defaults": _describe(list(obj.__defaults__ or ()), _attribute(name, "__defaults__"), active),
            "kwdefaults": _describe(dict(obj.__kwdefaults__ or {}), _attribute(name, "__kwdefaults__"), active),
            "closure": {var: _describe(_cell(cell), _attribute(name, var), active) for var, cell in cells.items()},
        }  # fmt: skip
    if isinstance(obj, types.ModuleType):
        return {"module": obj.__name__}
    if isinstance(obj, type):
        return {"class": f"{obj.__module__}.{obj.__qualname__}", "code_sha256": _code_digest(obj)}
    if isinstance(obj, types.BuiltinFunctionType):  # compiled code: its name; a bound one, its object too
        owner = obj.__self__
        bound = owner is not None and not isinstance(owner, types.ModuleType)
        out = {"builtin": f"{getattr(obj, '__module__', None) or type(owner).__qualname__}.{obj.__qualname__}"}
        return {**out, "self": _describe(owner, _attribute(name, "__self__"), active)} if bound else out
    return None  # a callable instance (a ufunc, a class with __call__): described as any object


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # a cell not yet filled (a name assigned later in the enclosing function)
        return "<empty cell>"


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
    elif isinstance(value, (tuple, frozenset)):  # a frozenset's repr follows the string hash seed: sorted
        h.update(b"(")
        for item in value if isinstance(value, tuple) else sorted(value, key=repr):
            _hash_code(h, item)
        h.update(b")")
    elif not callable(value):  # a repr with a memory address changes from run to run: the type instead
        text = repr(value)
        h.update((type(value).__qualname__ if _ADDRESS.search(text) else text).encode())


def _atomic_write(path: Path, write: Any) -> None:
    """``write(fh)`` to a temporary file moved to ``path`` when whole; an OSError (a full
    disk: pyarrow's names no file) names ``path``, and leaves no temporary file."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
    finally:
        if tmp.exists():
            tmp.unlink()


class StoreWarning(UserWarning):
    """A part file of a store failed its check (readable, chunk index, fingerprint): it is
    ignored (left out of what is read), and a rerun of the sweep recomputes its chunk if
    that is one of the sweep's chunks."""


def _warn(message: str) -> None:
    """A :class:`StoreWarning` shown at the first caller outside carromlab (the line of
    code that ran the sweep or read the store), not at carromlab's own lines."""
    level, frame = 1, sys._getframe(0)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    warnings.warn(message, StoreWarning, stacklevel=level)


def store_directory(path: Any) -> Path:
    """The directory of a store (the ``store`` parameter), created if missing.

    Raises
    ------
    TypeError
        If ``path`` is not a str or os.PathLike.
    ValueError
        If ``path`` names a file or cannot be created (a parent is a file, no permission).
    """
    check_type("store", path, (str, os.PathLike), hint="a directory path")
    root = Path(path)
    if root.exists() and not root.is_dir():
        raise ValueError(f"The 'store' parameter must be a directory. Got the file {str(root)!r} instead.")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"The 'store' parameter must be a directory that can be created. Got {str(root)!r} ({exc.strerror or exc}) instead.") from None
    return root


def _remove_stale_temporaries(root: Path) -> None:
    """Delete the temporary files of writes that were killed (the names :func:`_atomic_write`
    gives a part or the manifest) untouched for :data:`STALE_SECONDS`; a younger one may be
    another writer's, being written."""
    old = time.time() - STALE_SECONDS
    for p in root.iterdir():
        if _TEMPORARY.match(p.name):
            try:
                if p.stat().st_mtime < old:
                    p.unlink()
            except FileNotFoundError:  # renamed into place or removed by its writer meanwhile
                pass


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
        together on a new directory with different parameters one gets that error. Writers
        with the same parameters share the chunks through their locks (:meth:`claim`).
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
    >>> tmp = tempfile.TemporaryDirectory()
    >>> db = SweepStore(tmp.name, {"analysis": "demo", "seed": 0})
    >>> db.write(0, pd.DataFrame({"cell": [0, 1], "p": [0.5, 0.25]}))
    >>> db.completed(), db.read(0)["p"].tolist()
    ({0}, [0.5, 0.25])
    >>> tmp.cleanup()
    """

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any], *, holds: str = "sweep") -> None:
        self.path = store_directory(path)
        text = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
        self.fingerprint = hashlib.sha256(text.encode()).hexdigest()
        self.manifest = {**manifest, "fingerprint": self.fingerprint}
        existing = self.path / MANIFEST
        with FileLock(self.path / _LOCK):
            _remove_stale_temporaries(self.path)
            if not existing.exists():
                body = json.dumps(self.manifest, indent=1, sort_keys=True).encode()
                _atomic_write(existing, lambda fh: fh.write(body))
                return
            old = _read_manifest(self.path)
        if old["fingerprint"] != self.fingerprint:
            differing = _differences(old, self.manifest) or ["fingerprint"]
            more = f" and {len(differing) - _SHOWN} more" if len(differing) > _SHOWN else ""  # another board differs in 50
            raise ValueError(
                f"The store directory {str(self.path)!r} holds a different {holds} "
                f"(differing: {', '.join(differing[:_SHOWN])}{more}). "
                "Rerun with the same parameters to resume it, or use a new directory."
            )

    def _part(self, chunk: int) -> Path:
        return self.path / f"part-{chunk:06d}.parquet"

    def completed(self) -> set[int]:
        """Chunks whose part file is present, has a readable footer and is of this sweep and
        chunk; every other part file is named in a :class:`StoreWarning` (and ignored).

        Only the footers are read (a few kB a part, whatever its rows): a part whose data
        pages are damaged behind an intact footer is found by its checksums when it is
        read (:meth:`read`).
        """
        return {chunk for chunk, p in _part_files(self.path) if _checked(p, self.fingerprint, chunk, warn=True)}

    def has(self, chunk: int) -> bool:
        """Whether the part of ``chunk`` is present, with a readable footer of this sweep
        and chunk (as in :meth:`completed`; a failing part is not warned of)."""
        return _checked(self._part(chunk), self.fingerprint, chunk, warn=False)

    def claim(self, chunk: int) -> FileLock | None:
        """The lock of ``chunk``, taken without waiting, or None if another writer holds it.

        A writer computes a chunk only while it holds its lock, then writes the part and
        gives the lock back with :meth:`release`. The operating system releases the lock of
        a process that dies, so a writer that was killed holds no chunk. Whoever takes the
        lock should check :meth:`has` first: the holder before may have written the part.
        """
        lock = FileLock(self._lock(chunk))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return None
        return lock

    def release(self, chunk: int, lock: FileLock) -> None:
        """Give back the lock of ``chunk`` (from :meth:`claim`), removing its file once the
        part is written (no writer needs it then: whoever takes the lock next finds the
        part)."""
        if self._part(chunk).exists():
            with contextlib.suppress(OSError):  # on Windows an open file stays; filelock removes it on release
                self._lock(chunk).unlink()
        lock.release()

    def wait(self, chunk: int) -> None:
        """Block until no writer holds the lock of ``chunk``. Call it holding no chunk's lock:
        two writers each waiting on a chunk the other holds would wait forever."""
        lock = FileLock(self._lock(chunk))
        lock.acquire()
        self.release(chunk, lock)

    def _lock(self, chunk: int) -> Path:
        return self.path / f".{self._part(chunk).stem}.lock"

    def write(self, chunk: int, frame: pd.DataFrame) -> None:
        """Write one chunk's rows atomically."""
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[_META_KEY] = json.dumps({**self.manifest, "chunk": chunk}, sort_keys=True).encode()
        table = table.replace_schema_metadata(meta)
        _atomic_write(self._part(chunk), lambda fh: pq.write_table(table, fh, write_page_checksum=True))

    @overload
    def read(self, chunk: int, columns: Sequence[str] | None = None, *, damaged: Literal["raise"] = "raise") -> pd.DataFrame: ...
    @overload
    def read(self, chunk: int, columns: Sequence[str] | None = None, *, damaged: str) -> pd.DataFrame | None: ...
    def read(self, chunk: int, columns: Sequence[str] | None = None, *, damaged: str = "raise") -> pd.DataFrame | None:
        """The rows of one chunk, their page checksums verified (of ``columns`` only, if given).

        Parameters
        ----------
        chunk : int
            The chunk.
        columns : sequence of str, optional
            Read only these columns of the part (in this order). Default: every column.
        damaged : {"raise", "warn"}
            For a part that is missing, damaged, or not of this sweep and chunk: a
            ValueError (default), or a :class:`StoreWarning` and None, for a caller that
            then computes the chunk again.

        Raises
        ------
        ValueError
            If the part lacks one of ``columns``; with ``damaged="raise"``, if it is
            missing, damaged, or not of this sweep and chunk (the message names the file
            and how to recover).
        """
        check_choice("damaged", damaged, ("raise", "warn"))
        path = self._part(chunk)
        try:
            names = set(pq.read_schema(path).names)
        except _READ_ERRORS:  # missing or damaged: told below
            names = None
        missing = [] if columns is None or names is None else sorted(set(columns) - names)
        if missing:
            raise ValueError(f"The part {str(path)!r} has no column {', '.join(map(repr, missing))} (named by the 'columns' parameter).")
        table, problem = _load(path, self.fingerprint, chunk, columns)
        if table is not None:
            return table.to_pandas()
        if damaged == "raise":
            raise ValueError(f"The part {str(path)!r} {problem}; to recover, delete the file and rerun (its chunk is computed again).")
        _warn(f"The part {str(path)!r} {problem}: its chunk is computed again.")
        return None


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


def _problem(meta: Mapping[bytes, bytes] | None, fingerprint: str, chunk: int) -> str:
    """What is wrong with a part whose schema metadata is ``meta`` ("" if nothing)."""
    tag = json.loads((meta or {}).get(_META_KEY, b"{}"))
    if tag.get("fingerprint") != fingerprint:
        return "belongs to a different sweep (fingerprint)"
    if tag.get("chunk") != chunk:
        return f"holds the rows of chunk {tag.get('chunk')!r}, not {chunk}"
    return ""


def _unreadable(exc: Exception) -> str:
    return f"is unreadable ({type(exc).__name__}: {exc})"


def _ignored(path: Path, problem: str) -> None:
    _warn(f"The part {str(path)!r} {problem}: ignored (a rerun of its sweep recomputes it if it is one of the sweep's chunks).")


def _checked(path: Path, fingerprint: str, chunk: int, *, warn: bool) -> bool:
    """Whether the footer of the part ``path`` reads and is of this sweep and chunk (its data
    pages are not read); with ``warn``, a part that fails is named in a warning."""
    try:
        problem = _problem(pq.read_schema(path).metadata, fingerprint, chunk)
    except FileNotFoundError:
        return False
    except _READ_ERRORS as exc:
        problem = _unreadable(exc)
    if problem and warn:
        _ignored(path, problem)
    return not problem


def _load(path: Path, fingerprint: str, chunk: int, columns: Sequence[str] | None = None) -> tuple[pa.Table | None, str]:
    """The table of a part file read in full (only ``columns``, if given) with its page
    checksums verified, or None and what is wrong with it."""
    try:
        table = pq.read_table(path, columns=None if columns is None else list(columns), page_checksum_verification=True)
        problem = _problem(table.schema.metadata, fingerprint, chunk)
    except _READ_ERRORS as exc:
        return None, _unreadable(exc)
    return (None, problem) if problem else (table, "")


def _part_files(root: Path) -> list[tuple[int, Path]]:
    """The chunk and path of each part file of a store directory, in chunk order."""
    named = ((_PART.match(p.name), p) for p in root.iterdir())
    # by chunk number: past chunk 999999 the names are longer and their order is not the chunks'
    return sorted((int(m.group(1)), p) for m, p in named if m is not None)


def _parts(files: Iterable[tuple[int, Path]], fingerprint: str) -> Iterator[tuple[int, pa.Table]]:
    """The chunk and table of each part file (chunk, path) that passes its check, in the
    order given, read one at a time (the caller keeps what it needs: a large store does
    not fit in memory at once); the others are warned of."""
    for chunk, p in files:
        table, problem = _load(p, fingerprint, chunk)
        if table is None:
            _ignored(p, problem)
        else:
            yield chunk, table


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
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = break_study(Scene.icf_break(), ShotGrid(placement=[0.0], angle=[0.0], speed=[6.0], aim="pack"),
    ...                 replicas=3, store=tmp.name, progress=False)
    >>> rows = read_store(tmp.name)
    >>> len(rows), rows.attrs["carromlab"]["analysis"]
    (3, 'break_study')
    >>> tmp.cleanup()
    """
    root = Path(path)
    if not (root / MANIFEST).is_file():
        raise ValueError(f"The 'path' parameter must be a store directory with a {MANIFEST} file. Got {str(root)!r} instead.")
    manifest = _read_manifest(root)
    frames = [table.to_pandas() for _, table in _parts(_part_files(root), manifest["fingerprint"])]
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    out.attrs["carromlab"] = manifest
    return out
