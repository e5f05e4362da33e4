# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.7
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # For coaches: cut angles, success maps and the most forgiving shot
#
# A real position: the shooter (south) has a white coin near the north-east pocket and
# a black coin in the way of the straight line. Which placement and which aim give the
# best chance of pocketing the white coin for a club player, and how much error does
# each aim forgive?
#
# Set `CARROMLAB_SMALL=1` to run everything on small grids (what CI and the docs do).

# %%
import math
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.analysis import NoiseModel, PocketPiece, ShotGrid, StrikerLine, margin_of_error, plan_shots, success_map
from carromlab.plotting import plot_shot
from carromlab.plotting.analysis import plot_best_shot, plot_margins, plot_parameter_heatmap, plot_success_board

SMALL = os.environ.get("CARROMLAB_SMALL", "0") == "1"
params = PhysicsParams.from_powder("club")
position = pd.DataFrame({"kind": ["white", "black"], "x": [0.20, 0.05], "y": [0.18, 0.02]})
scene = Scene.from_frame(Board.icf(), position)
line = StrikerLine.for_scene(scene)
print(f"striker line: {2 * line.half_length:.3f} m long, band ±{line.half_width * 1e3:.2f} mm")

# %% [markdown]
# ## One cut shot, and throw
# Aim the striker at the "ghost" position (touching the white coin on the far side of
# the line coin → north-east pocket), from the right of the baseline. With frictionless
# contacts the coin leaves along the line of centres and drops; with the contact
# friction of real discs (μc = 0.12) the striker's sliding across the coin throws it off
# that line, and the same aim misses. Half a degree of compensation brings it back.

# %%
pocket = next(h for h in scene.board.holes if h.name == "ne")
coin = np.array([0.20, 0.18])
r_sum = scene.specs["striker"].radius + scene.specs["white"].radius
to_pocket = np.array([pocket.x, pocket.y]) - coin
ghost = coin - r_sum * to_pocket / np.linalg.norm(to_pocket)
start = np.array([0.15, scene.board.baseline("south").centre.y0])
aim = math.atan2(*(ghost - start)[::-1])
for label, p, offset in [("frictionless contact", params.with_(mu_contact=0.0), 0.0),
                         ("mu_c = 0.12, ghost aim", params, 0.0),
                         ("mu_c = 0.12, aim +0.5 deg", params, 0.5)]:
    r = simulate(scene, Shot(*start, aim + math.radians(offset), 3.0), p)
    print(f"{label:28s} pocketed: {list(r.pocketed['kind'])}")
res = simulate(scene, Shot(*start, aim, 3.0), params)
plot_shot(res);

# %% [markdown]
# ## Success map: placement × aim, club-level noise
# Every cell is played `replicas` times with the club player's spreads (placement 2 mm,
# aim 0.8°, speed 10 %); the map shows the probability of pocketing the white coin,
# hatched where its 95 % interval is wider than 0.2 (the small run's 20 replicas: every
# wedge; the full run's 200: none), and the table the best cells with their Wilson
# 95 % intervals (`ci_low`, `ci_high`) and foul rates (every column: `success_map`'s docstring).

# %%
n = 9 if SMALL else 41
grid = ShotGrid(
    placement=np.linspace(-line.half_length, line.half_length, n),
    angle=np.radians(np.linspace(-4, 4, n)),
    speed=[3.0],
    aim="ghost",
)
goal = PocketPiece(0)  # the white coin, any pocket
succ = success_map(scene, goal, grid, noise=NoiseModel.preset("club"), replicas=20 if SMALL else 200,
                   params=params, progress=False)
succ.sort_values("p_success", ascending=False)[
    ["placement", "aim_deg", "angle_deg", "speed", "p_success", "ci_low", "ci_high", "p_foul"]
].head()

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 5))
plot_success_board(succ, scene, ax=axes[0])
plot_parameter_heatmap(succ, ax=axes[1]);

# %% [markdown]
# ## Margin of error
# For the best aim at each placement, the window of aims (and speeds) that still
# succeed at least half the time: the coach's margin for error. Here the windows are
# about a degree wide at most, read on the map's 0.2° steps of aim, so their
# differences between placements are within a step or two: a finer aim grid or more
# replicas is what tells one placement's tolerance from another's.

# %%
margins = margin_of_error(succ)
windows = margins.dropna(subset=["aim_window"])  # placements where some aim succeeds at least half the time
print(f"{len(windows)} of {len(margins)} placements have an aim window")
windows.assign(best_aim_deg=np.degrees(windows["best_aim"]), window_deg=np.degrees(windows["aim_window"]),
               margin_deg=np.degrees(windows["margin"]))[
    ["placement", "best_aim_deg", "window_deg", "margin_deg", "p_best"]
].sort_values("window_deg", ascending=False).head()

# %%
plot_margins(margins);

# %% [markdown]
# ## The shot planner
# The best shot of each route (direct, cut, bank, combination), each named from what the
# simulated shot does, with its success probability from fresh replicas, its 95 % interval
# and its aim window in degrees (the aims around it that still succeed at least half as often).

# %%
best = plan_shots(scene, goal, noise=NoiseModel.preset("club"), params=params, progress=False,
                  **(dict(placement=[-0.1, 0.0, 0.1], angle_deg=np.arange(30.0, 150.0, 1.0), speed=[2.5, 4.0],
                          replicas=(8, 16, 64, 200), refine=1, window_replicas=20) if SMALL else {}))
best[["rank", "route", "p_success", "ci_low", "ci_high", "aim_window_deg", "margin_deg", "placement", "angle_deg",
      "speed", "first_contact_kind", "fell"]]

# %%
plot_best_shot(best, scene, params=params);

# %% [markdown]
# ## Watch the shot, then explore your own
# The cut shot above as an animation (it plays here; `.save("shot.gif")` writes a file),
# and an explorer: move the striker along the baseline, set the direction (degrees from
# +x), speed and spin, choose a noise preset, and see the path, what falls and the chance
# of pocketing the white coin under that noise.

# %%
from carromlab.explore import ShotExplorer
from carromlab.plotting import shot_animation

shot_animation(res, fps=10 if SMALL else 25, dpi=50 if SMALL else 80)

# %%
explorer = ShotExplorer(scene, goal, params=params, noise="club", replicas=20 if SMALL else 200)
explorer.placement.value = float(line.coordinates(*start)[0])
explorer.angle_deg.value = round(math.degrees(aim), 1)
explorer
