"""Small scene builders shared by the engine tests."""

from __future__ import annotations

import dataclasses

import pandas as pd

from carromlab import Board, DiscSpec, Scene


def open_board(size: float = 4.0) -> Board:
    """A square board without pockets, large enough that cushions stay out of the way."""
    return dataclasses.replace(Board.icf(), size=size, holes=())


def scene_with(pieces: list[tuple[str, float, float]], *, board: Board | None = None,
               specs: dict[str, DiscSpec] | None = None) -> Scene:
    """A scene from (kind, x, y) tuples with ICF discs unless ``specs`` is given."""
    specs = specs or {
        "striker": DiscSpec.icf_striker(),
        "white": DiscSpec.icf_coin("white"),
        "black": DiscSpec.icf_coin("black"),
        "queen": DiscSpec.icf_queen(),
    }
    frame = pd.DataFrame(pieces, columns=["kind", "x", "y"])
    return Scene(board or open_board(), frame, specs)


def equal_discs(radius: float = 0.016, mass: float = 0.006) -> dict[str, DiscSpec]:
    """Striker and coin of the same size and mass."""
    return {
        "striker": DiscSpec("striker", radius, mass, 0.007),
        "white": DiscSpec("white", radius, mass, 0.007),
        "black": DiscSpec("black", radius, mass, 0.007),
    }
