"""Positions for the analyses: a CSV/Parquet file (kind, x, y) or a built-in example."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd


__all__ = ["EXAMPLES", "add_position_options", "board_name", "position", "scene_of"]

#: The board of each rule variant.
_BOARDS = {"icf": "icf", "online": "icf", "hikone": "hikone", "crokinole": "crokinole"}


def _frame(*pieces: tuple[str, float, float]) -> pd.DataFrame:
    return pd.DataFrame(pieces, columns=["kind", "x", "y"])


#: Built-in positions by name and board (m, board frame; the shooter plays from the south).
#: ``cut``: one own piece for a cut into the NE pocket and an opponent piece in the way
#: of nothing (the success-map example of docs/analysis.md). ``midgame``: a few pieces of
#: each side; in carrom the opponent's last coin 10 cm from the NE pocket with the queen
#: covered (the foul-probability example of docs/analysis.md); in Hikone a red and a green
#: lie inside the shooter's own area (behind the area line: HIK-9 in doubles).
EXAMPLES: dict[str, dict[str, pd.DataFrame]] = {
    "cut": {
        "icf": _frame(("white", 0.15, 0.22), ("black", -0.1, 0.05)),
        "hikone": _frame(("red", 0.12, 0.18), ("green", -0.08, 0.04)),
    },
    "midgame": {
        "icf": _frame(("white", -0.2, 0.2), ("white", -0.25, -0.1), ("white", 0.05, 0.3), ("black", 0.327, 0.25)),
        "hikone": _frame(("red", -0.1, 0.12), ("red", 0.18, 0.2), ("red", 0.05, -0.02), ("red", -0.12, -0.27),
                         ("green", 0.2, 0.05), ("green", -0.15, -0.05), ("green", 0.1, -0.26), ("jack", 0.0, 0.1)),  # fmt: skip
        "crokinole": _frame(("dark", -0.04, 0.18), ("light", 0.06, 0.1), ("light", -0.12, 0.05), ("light", 0.15, -0.05)),
    },
}


def board_name(variant: str) -> str:
    return _BOARDS[variant]


def add_position_options(p: argparse.ArgumentParser, *, default: str) -> None:
    """--position FILE or --example NAME."""
    g = p.add_argument_group("position").add_mutually_exclusive_group()
    g.add_argument("--position", metavar="FILE", default=None,
                   help="pieces on the board: a saved position (.json/.csv, Scene.save, with its board and discs) or a "
                        "CSV/Parquet table with columns kind, x, y (m, board centre at 0, shooter south)")  # fmt: skip
    g.add_argument("--example", choices=list(EXAMPLES), default=None, help=f"a built-in position (default {default})")
    p.set_defaults(default_example=default)


def position(args: argparse.Namespace, board: str) -> pd.DataFrame:
    """The position chosen by --position / --example, for a board ``board`` (the pieces
    of a saved position file; see :mod:`carromlab.engine.position_file`)."""
    if args.position is not None:
        from ..engine.position_file import read_pieces

        return read_pieces(args.position)
    name = args.example or args.default_example
    if board not in EXAMPLES[name]:
        raise ValueError(f"The '--example' position {name!r} exists for the boards {sorted(EXAMPLES[name])}. Got a {board!r} board instead.")
    return EXAMPLES[name][board].copy()


def scene_of(args: argparse.Namespace, variant: str) -> Any:
    """The engine scene of the position on the variant's board (a saved position file
    brings its own board and discs), with the disc options applied."""
    from ..engine.scene import Scene
    from ..equipment.board import Board
    from ._common import disc_specs

    board = board_name(variant)
    if args.position is not None and Path(args.position).suffix.lower() in (".json", ".csv"):
        scene = Scene.load(args.position, board=Board.preset(board))
        return Scene(scene.board, scene.pieces[["kind", "x", "y"]], disc_specs(args, board, scene.specs), scene.striker)
    return Scene.from_frame(Board.preset(board), position(args, board), disc_specs(args, board))
