"""carromlab: event-driven shot analysis for carrom, Hikone carrom and crokinole.

All quantities are SI: metres, kilograms, seconds, radians (``*_deg`` names take degrees).
"""

from .engine import Scene, Shot, ShotResult, simulate, simulate_batch
from .equipment import Board, DiscSpec
from .physics import POWDERS, PhysicsParams

__version__ = "0.1.0"

__all__ = [
    "Board",
    "DiscSpec",
    "POWDERS",
    "PhysicsParams",
    "Scene",
    "Shot",
    "ShotResult",
    "simulate",
    "simulate_batch",
    "__version__",
]
