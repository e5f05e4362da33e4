"""The event-driven engine: scenes, shots, single-shot and batch simulation."""

from .batch import BatchArrays, shot_table, simulate_batch, simulate_batch_arrays
from .scene import Scene, Shot
from .simulate import ShotResult, simulate

__all__ = ["Scene", "Shot", "ShotResult", "simulate", "simulate_batch", "simulate_batch_arrays", "BatchArrays", "shot_table"]
