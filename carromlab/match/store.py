"""A resumable Parquet store of a match: the shots, boards and games tables in chunks
of games, each table a :class:`carromlab.analysis.store.SweepStore`.

Layout of a store directory::

    shots/   boards/   games/     one SweepStore each: a manifest and part files
                                   part-000000.parquet (games 0 .. chunk_games - 1), ...

A chunk is complete when its parts of all three tables are present, have readable footers
and are of this match and chunk (the games part is written last; only the footers are
read): a run stopped at any point resumes with the first incomplete chunk, and a chunk with
a damaged part in any table is played again and its three parts rewritten, with a
:class:`~carromlab.analysis.store.StoreWarning` naming the part. A part whose data pages are
damaged behind an intact footer is found when its table is read (a ValueError naming it:
delete it and rerun to play its chunk again).

Memory: a store is read one part at a time, and :meth:`MatchStore.read`
reads each table only when it is first used, so looking at the boards and games of a
large match never loads its shots (about 0.35 MB of shots a random ICF game in memory,
3.5 GB for 10,000 games, against 1.6 kB of boards and games). Each table is a
Parquet dataset, so a part of it can be read directly, e.g. the shots of one game::

    pandas.read_parquet("DIR/shots", filters=[("game", "==", 17)], columns=["shot", "fouls"])
"""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from ..analysis.store import SweepStore, store_directory
from .records import BOARD_COLUMNS, GAME_COLUMNS, SHOT_COLUMNS, GameRecord, MatchRecord, frame

__all__ = ["TABLES", "MatchStore"]

#: The tables of a match store, in the order a chunk writes them.
TABLES = ("shots", "boards", "games")
_COLUMNS = {"shots": SHOT_COLUMNS, "boards": BOARD_COLUMNS, "games": GAME_COLUMNS}


class MatchStore:
    """The tables of one match, chunk by chunk, checked against its manifest.

    Parameters
    ----------
    path : str or os.PathLike
        Directory; created if missing.
    manifest : dict
        JSON-ready description of the match (variant, seats, policies, noise, physics,
        guards, seed, number of games, chunking, carromlab version). A directory holding
        a different match is an error.

    Raises
    ------
    ValueError
        If the directory holds a different match; the message names what differs (with
        the stored and the given value when they are short). If ``path`` is not a directory
        path that exists or can be created (naming ``store``).

    Examples
    --------
    >>> import tempfile
    >>> from carromlab.match import play_game, new_state, RandomPolicy
    >>> from carromlab.rules.crokinole import CrokinoleOptions
    >>> rec = play_game(new_state("crokinole", options=CrokinoleOptions(discs_per_player=1, game_target=3)), RandomPolicy())
    >>> tmp = tempfile.TemporaryDirectory()
    >>> db = MatchStore(tmp.name, {"demo": 1})
    >>> db.write(0, [rec])
    >>> db.completed(), len(db.read().games)
    ({0}, 1)
    >>> tmp.cleanup()
    """

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any]) -> None:
        self.path = store_directory(path)  # a file or a path that is no directory: an error naming 'store'
        self._stores = {name: SweepStore(self.path / name, {**manifest, "table": name}, holds="match") for name in TABLES}

    def completed(self) -> set[int]:
        """Chunks whose parts of every table are present, with readable footers of this
        match and chunk (see ``SweepStore.completed`` in
        ``carromlab.analysis.store``: no data is read); every other
        part file is named in a :class:`~carromlab.analysis.store.StoreWarning` (a rerun
        plays its chunk again if it is one of the match's)."""
        return set.intersection(*(db.completed() for db in self._stores.values()))

    def write(self, chunk: int, records: list[GameRecord]) -> None:
        """Write the tables of one chunk's games (the games table last)."""
        for name in TABLES:
            self._stores[name].write(chunk, pd.concat([getattr(r, name) for r in records], ignore_index=True))

    def read(self) -> MatchRecord:
        """The tables of every complete chunk, each read from the store when first used.

        Returns
        -------
        MatchRecord
            Its ``shots``, ``boards`` and ``games`` tables hold the chunks complete when
            ``read`` was called (see :meth:`completed`), in chunk order, with the dtypes of
            :data:`~carromlab.match.records.SHOT_COLUMNS` and its siblings. A table is read
            (every part of it, its page checksums verified) when it is first used and then kept:
            the boards and games of a large match take little memory, its shots about
            0.35 MB a random ICF game (read a large shots table piecewise, see the module
            notes).

        Raises
        ------
        ValueError
            When a table is first used, if one of its parts has gone or changed since
            ``read``, or has damaged data pages (the message names the part and says to
            delete it and rerun).
        """
        return _StoredMatch.lazy(self, sorted(self.completed()))

    def _table(self, name: str, chunks: list[int]) -> pd.DataFrame:
        """Table ``name`` of some chunks, in that order; a ValueError names a part that is
        missing, damaged, or not of this match and chunk."""
        parts = [frame([], _COLUMNS[name])] + [self._stores[name].read(k) for k in chunks]
        return pd.concat(parts, ignore_index=True).astype(_COLUMNS[name])


class _StoredMatch(MatchRecord):
    """A :class:`MatchRecord` of some chunks of a store whose tables are read when first
    used (:meth:`MatchStore.read`), then kept as attributes of the instance.

    Made by :meth:`lazy`; its constructor is the dataclass's, so that
    :func:`dataclasses.replace` (which passes every table, reading those not yet read)
    makes a record of the tables given."""

    @classmethod
    def lazy(cls, store: MatchStore, chunks: list[int]) -> _StoredMatch:
        """The record of ``chunks`` of ``store``, no table read yet."""
        record = cls.__new__(cls)
        object.__setattr__(record, "_store", store)  # a frozen dataclass: set past its __setattr__
        object.__setattr__(record, "_chunks", chunks)
        return record

    def __getattr__(self, name: str) -> pd.DataFrame:
        # called only for an attribute not found: a table not read yet
        if name not in TABLES:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        table = self._store._table(name, self._chunks)
        object.__setattr__(self, name, table)
        return table
