"""The event-driven engine: scenes, shots, single-shot and batch simulation."""

from .batch import shot_table, simulate_batch
from .scene import Scene, Shot
from .simulate import ShotResult, simulate

__all__ = ["Scene", "Shot", "ShotResult", "simulate", "simulate_batch", "shot_table"]
