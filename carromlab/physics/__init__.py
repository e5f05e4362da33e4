"""Physics models: parameters, friction laws, impacts."""

from .params import POWDERS, PhysicsParams

__all__ = ["POWDERS", "PhysicsParams"]
