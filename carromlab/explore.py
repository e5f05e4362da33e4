"""An interactive shot explorer for Jupyter (ipywidgets).

Place the striker along its line, set the angle (degrees), speed and spin, and see the
shot's path, what fell and the chance of the goal under a noise preset; everything
updates when a control is released.
"""

from __future__ import annotations

import base64
import html
import io
import math
from typing import Any

import ipywidgets as widgets
import pandas as pd

from ._validation import check_choice, check_int, check_type
from .analysis.goals import Goal, PocketAny
from .analysis.grid import ShotGrid
from .analysis.noise import NOISE_PRESETS, NoiseModel
from .analysis.placement import StrikerLine
from .analysis.success import success_map
from .engine.scene import Scene, Shot
from .engine.simulate import ShotResult, simulate
from .physics.params import PhysicsParams

__all__ = ["ShotExplorer"]


class ShotExplorer:
    """Widgets that play one shot and its noisy replicas as the controls change.

    Parameters
    ----------
    scene : Scene
        The position.
    goal : Goal, optional
        What counts as success for the probability (:class:`~carromlab.analysis.PocketPiece`,
        :class:`~carromlab.analysis.PocketAny`, ...). Default: pocket any piece without a
        foul (``PocketAny(<every kind on the board>, opponent_falls="allowed")``: with every
        kind counting, no kind is an opponent whose falling spoils the shot); none on an
        empty board.
    params : PhysicsParams, optional
        Physics. Default ``PhysicsParams()``.
    line : StrikerLine, optional
        Where the striker is placed. Default the south line (:meth:`.StrikerLine.for_scene`);
        a crokinole board's shooting line is an arc, so there pass a straight
        ``StrikerLine(x0, y0, x1, y1, half_width)`` of your own.
    noise : str
        Starting noise preset, one of :data:`~carromlab.analysis.noise.NOISE_PRESETS`.
        Default ``"club"``.
    replicas : int
        Noisy replicas of the shot for its success probability, in [1, 100000]. Default 200.
    seed : int
        Seed of the noise, >= 0. Default 0.

    Attributes
    ----------
    placement, angle_deg, speed, spin, noise : ipywidgets widgets
        The controls: placement along the line (m from its middle), direction (degrees
        counter-clockwise from +x), speed (m/s), spin (rad/s), noise preset. Setting a
        control's ``value`` updates the explorer at once.
    result : ShotResult or None
        The nominal shot as played now; None while the controls give a shot that cannot
        be played (the striker placed on a piece: the summary says why, and no picture
        is shown).
    success : pandas.Series or None
        The success row of the shot under the noise (:func:`~carromlab.analysis.success_map`:
        ``p_success``, ``ci_low``, ``ci_high``, ``p_foul``, ...); None without a goal or
        while the shot cannot be played.

    Examples
    --------
    >>> from carromlab import Scene
    >>> ex = ShotExplorer(Scene.icf_break(), replicas=8)
    >>> ex.speed.value = 5.0
    >>> ex.result.shot.speed
    5.0
    """

    def __init__(
        self,
        scene: Scene,
        goal: Goal | None = None,
        *,
        params: PhysicsParams | None = None,
        line: StrikerLine | None = None,
        noise: str = "club",
        replicas: int = 200,
        seed: int = 0,
    ) -> None:
        check_type("scene", scene, Scene, hint="e.g. Scene.icf_break()")
        check_choice("noise", noise, NOISE_PRESETS)
        self.scene = scene
        self.params = params or PhysicsParams()
        self.line = line or StrikerLine.for_scene(scene)
        kinds = list(dict.fromkeys(scene.pieces["kind"]))
        self.goal = goal if goal is not None else (PocketAny(kinds, opponent_falls="allowed") if kinds else None)
        self.replicas = check_int("replicas", replicas, low=1, high=100_000)
        self.seed = check_int("seed", seed, low=0)
        half = self.line.half_length
        forward = math.degrees(self.line.forward_angle)
        style = {"continuous_update": False, "style": {"description_width": "9em"},
                 "layout": widgets.Layout(width="30em")}  # fmt: skip
        self.placement = widgets.FloatSlider(0.0, min=-half, max=half, step=0.001, readout_format=".3f",
                                             description="placement (m)", **style)  # fmt: skip
        self.angle_deg = widgets.FloatSlider(forward, min=forward - 180.0, max=forward + 180.0, step=0.1,
                                             readout_format=".1f", description="angle (deg)", **style)  # fmt: skip
        self.speed = widgets.FloatSlider(3.0, min=0.1, max=10.0, step=0.05, description="speed (m/s)", **style)
        self.spin = widgets.FloatSlider(0.0, min=-300.0, max=300.0, step=1.0, description="spin (rad/s)", **style)
        self.noise = widgets.Dropdown(options=list(NOISE_PRESETS), value=noise, description="noise",
                                      style=style["style"], layout=style["layout"])  # fmt: skip
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="420px"))
        self.summary = widgets.HTML()
        self.result: ShotResult | None = None
        self.success: pd.Series | None = None
        for control in self.controls:
            control.observe(lambda _change: self.update(), names="value")
        self.update()

    @property
    def controls(self) -> tuple[widgets.ValueWidget, ...]:
        """The widgets the user sets."""
        return self.placement, self.angle_deg, self.speed, self.spin, self.noise

    @property
    def shot(self) -> Shot:
        """The nominal shot of the current control values."""
        x, y = self.line.point(self.placement.value)
        return Shot.from_deg(float(x), float(y), angle_deg=self.angle_deg.value, speed=self.speed.value,
                             spin=self.spin.value)  # fmt: skip

    def update(self) -> None:
        """Play the shot of the current values; recompute the success chance; redraw."""
        self.result, self.success = None, None  # nothing of an earlier shot is left shown
        try:
            shot = self.shot
            self.result = simulate(self.scene, shot, self.params)
        except ValueError as err:  # e.g. the striker placed on a piece
            self.picture.value = b""
            self.summary.value = f"<b>Cannot play this shot:</b> {html.escape(str(err))}"
            return
        if self.goal is not None:
            grid = ShotGrid(placement=[self.placement.value], angle=[shot.angle], speed=[shot.speed], spin=[shot.spin])
            table = success_map(self.scene, self.goal, grid, noise=NoiseModel.preset(self.noise.value),
                                replicas=self.replicas, params=self.params, line=self.line, seed=self.seed,
                                workers=1, progress=False)  # fmt: skip
            self.success = table.iloc[0]
        self._draw()

    def _draw(self) -> None:
        from matplotlib.figure import Figure

        from .plotting.shot import plot_shot

        fig = Figure(figsize=(5.2, 5.8), layout="constrained")
        plot_shot(self.result, fig.add_subplot())
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        self.picture.value = buf.getvalue()
        rows = self.result._summary()
        if self.goal is not None:
            describe = getattr(self.goal, "describe", None)
            rows["goal"] = describe(self.scene) if describe else repr(self.goal)
            s = self.success
            rows["success"] = (f"{s['p_success']:.3f} [{s['ci_low']:.3f}, {s['ci_high']:.3f}] over {int(s['n_valid'])} "
                               f"'{self.noise.value}' replicas; foul {s['p_foul']:.3f}")  # fmt: skip
        self.summary.value = "<table>" + "".join(f"<tr><th style='text-align:left'>{k}</th><td>{html.escape(v)}</td></tr>"
                                                 for k, v in rows.items()) + "</table>"  # fmt: skip

    @property
    def widget(self) -> widgets.Widget:
        """The whole explorer: controls, picture and summary."""
        return widgets.VBox([widgets.HBox([widgets.VBox(list(self.controls)), self.summary]), self.picture])

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # the live widget, with a static copy (picture and summary) for viewers without a kernel
        bundle = dict(self.widget._repr_mimebundle_(**kwargs))
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self._static_html()
        return bundle

    def _static_html(self) -> str:
        data = base64.b64encode(self.picture.value).decode("ascii")
        picture = f'<img src="data:image/png;base64,{data}">' if data else ""
        return f'<div style="display:flex;gap:1em">{picture}{self.summary.value}</div>'

    def __repr__(self) -> str:
        shown = "cannot play this shot" if self.result is None else repr(self.result)
        return f"ShotExplorer({self.scene!r}; {shown})"
