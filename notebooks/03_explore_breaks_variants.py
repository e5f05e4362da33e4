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
# # Exploring: break shots, foul rates by rule variant, crokinole, whole games
#
# Set `CARROMLAB_SMALL=1` for small sizes (what CI and the docs do).

# %%
import math
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from carromlab import PhysicsParams, Scene, Shot, simulate
from carromlab.analysis import NoiseModel, ShotPopulation, break_study, comparable_states, default_break_grid, foul_probabilities
from carromlab.match import GreedyPolicy, RandomPolicy, breaker_advantage, play_match
from carromlab.plotting import plot_breaker_advantage, plot_shot
from carromlab.plotting.analysis import plot_break_heatmap, plot_break_outcomes, plot_foul_probabilities

SMALL = os.environ.get("CARROMLAB_SMALL", "0") == "1"
params = PhysicsParams.from_powder("club")

# %% [markdown]
# ## The ICF break
# A sweep over striker placement, aim (relative to the pack) and speed, each cell played
# with a club player's execution noise. A coin pocketed on the break is worth more to the
# breaker (the turn continues) than an opponent's coin; the weights are parameters.

# %%
icf = Scene.icf_break()
grid = default_break_grid(icf)
if SMALL:
    grid = type(grid)(placement=grid.placement[::3], angle=grid.angle[::3], speed=grid.speed[::2], aim=grid.aim)
study = break_study(icf, grid, noise=NoiseModel.preset("club"), replicas=4 if SMALL else 50, params=params, progress=False)
study.ranking(5)

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
plot_break_outcomes(study, ax=axes[0])
plot_break_heatmap(study, ax=axes[1]);

# %% [markdown]
# ## The Hikone opening
# 24 pucks on the centre circle and the jack on its spot; the first shot is from the tee
# spot (HIK-2).

# %%
hik = Scene.hikone_start()
hgrid = default_break_grid(hik)
if SMALL:
    hgrid = type(hgrid)(placement=hgrid.placement[::3], angle=hgrid.angle[::3], speed=hgrid.speed[::2], aim=hgrid.aim)
hstudy = break_study(hik, hgrid, noise=NoiseModel.preset("club"), replicas=4 if SMALL else 50, params=params, progress=False)
hstudy.ranking(3)

# %% [markdown]
# ## Foul rates: ICF against the online house rules
# The same mid-board position under both rule books: white (the shooter) has two coins
# left, black has one, the queen is still on the board. A population of shots aimed
# roughly up the board, played with club noise, is adjudicated by each variant's rules.
# Both books call the same events fouls here, so their rates agree within the
# intervals: the striker dropping (ICF-11, ONL-3) and pocketing black's last coin
# while the queen is still on the board (ICF-14, ONL-5). What the books change is
# the price: ICF-11 puts back a penalty coin on top of the coins dropped with the
# striker, ONL-3 one pocketed coin; ICF-14 also costs the shooter 3 points.
# `n_snapped` counts the noisy placements that were illegal and moved to the nearest
# legal spot: online, the striker slides on the baselines' centre line (ONL-1), so
# nearly every placement with noise across the line is put back on it.

# %%
position = pd.DataFrame({"kind": ["white", "white", "black", "queen"],
                         "x": [0.25, -0.22, 0.30, 0.0], "y": [0.25, 0.18, 0.31, 0.0]})
states = comparable_states(position, ("icf", "online"))
population = ShotPopulation(angle=(-0.6, 0.6), speed=(1.0, 6.0), n=200 if SMALL else 5000, seed=1)
fouls = foul_probabilities(states, population, noise=NoiseModel.preset("club"), params=params, progress=False)
fouls

# %%
plot_foul_probabilities(fouls);

# %% [markdown]
# ## Crokinole: off a peg into the 20-hole
# On the round board the disc is flicked from the shooting line; eight pegs guard the
# 15 ring and the 20-hole sits in the centre. This disc, flicked a little right of
# straight, glances off a peg and drops into the 20-hole: it arrives slowly enough to
# fall (a faster disc slides over the hole).

# %%
cro = Scene.crokinole_empty()
res = simulate(cro, Shot.from_deg(0.06, -0.2988, angle_deg=86.0, speed=1.1), params)
print(res)
res.events[["t", "kind", "where", "vn"]]

# %%
plot_shot(res);

# %% [markdown]
# ## Whole games: greedy against random
# Each game is played shot by shot: a policy picks the intended shot (the greedy one
# evaluates candidate cuts with one compiled batch), the execution noise perturbs it,
# the engine plays it and the rules adjudicate it. Twenty games take up to half a minute.

# %%
match = play_match("icf", 2 if SMALL else 20, policies=[GreedyPolicy(), RandomPolicy()],
                   noise=NoiseModel.preset("club"), params=params, seed=3,
                   max_shots_per_board=60 if SMALL else 300)
match.boards.head()

# %% [markdown]
# ## 1,000 games per variant: what opening a board is worth
# Greedy players with club execution noise play 1,000 games of each variant (two
# players). Each variant's games go to a Parquet store under `match-stores/`, so an
# interrupted run resumes where it stopped. This is long work: a greedy game with club
# noise costs about 0.2 s (Hikone), 0.3 s (crokinole) and 1.2 s (ICF, online) of CPU, so
# the four thousand games take about 45 CPU-minutes (a progress bar shows each variant,
# advancing as games end). If opening a board were worth nothing, the team
# that breaks would win its fair share of the decided boards (one half with two teams).

# %%
n_games = 2 if SMALL else 1000
records = {
    variant: play_match(variant, n_games, policies=GreedyPolicy(), noise=NoiseModel.preset("club"), params=params,
                        seed=5, max_shots_per_board=40 if SMALL else 300, progress=not SMALL,
                        workers=1 if SMALL else os.cpu_count(),
                        store=None if SMALL else f"match-stores/{variant}")
    for variant in ("icf", "online", "hikone", "crokinole")
}
boards = pd.concat([r.boards for r in records.values()], ignore_index=True)
advantage = breaker_advantage(boards)
advantage

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
plot_breaker_advantage(advantage, ax=axes[0])
shots = pd.concat([r.games for r in records.values()], ignore_index=True)
shots.boxplot(column="n_shots", by="variant", ax=axes[1])
axes[1].set_title("Shots per game (greedy players, club noise)", fontsize="medium")
axes[1].set_xlabel("")
axes[1].set_ylabel("shots")
fig.suptitle("");
