"""Equipment: disc specifications, boards with their marks, and starting layouts (SI units)."""

from .board import (
    SIDES,
    AreaLine,
    Baseline,
    Board,
    Circle,
    CrokinoleMarks,
    HikoneMarks,
    Hole,
    IcfMarks,
    Peg,
    Segment,
    ShootingLine,
    Side,
)
from .disc import WOOD_DENSITY, DiscSpec
from .layout import COLUMNS, crokinole_empty, default_specs, from_frame, hikone_start, icf_break

__all__ = [
    "AreaLine",
    "Baseline",
    "Board",
    "COLUMNS",
    "Circle",
    "CrokinoleMarks",
    "DiscSpec",
    "HikoneMarks",
    "Hole",
    "IcfMarks",
    "Peg",
    "SIDES",
    "Segment",
    "ShootingLine",
    "Side",
    "WOOD_DENSITY",
    "crokinole_empty",
    "default_specs",
    "from_frame",
    "hikone_start",
    "icf_break",
]
