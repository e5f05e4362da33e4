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
# # For researchers: which friction law fits the board?
#
# Tracks of filmed shots (here synthetic: made by the engine and passed through the
# documented camera model, so the true answer is known) are split into free-sliding
# segments at impacts, each friction law is fitted by least squares on the positions,
# and the laws are compared by BIC. Then restitution and contact friction come from the
# impacts, and the result is saved as a calibration preset.
#
# Set `CARROMLAB_SMALL=1` for a quick run on one short synthetic shot (what CI does);
# otherwise the example files in `data/` are used.

# %%
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from carromlab import Board, PhysicsParams, Scene, Shot, simulate
from carromlab.fitting import (compare_laws, data_path, fit_friction, fit_restitution, load_calibration,
                               make_synthetic_tracks, read_tracks, save_calibration, segment_tracks)
from carromlab.plotting.fitting import plot_residuals, plot_speed

SMALL = os.environ.get("CARROMLAB_SMALL", "0") == "1"
if SMALL:
    truth = PhysicsParams(mu=0.11, friction_law="linear", mu_v=0.03)
    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white"], "x": [0.0], "y": [0.1]}))
    syn = make_synthetic_tracks(scene, Shot.from_deg(0.02, -0.25, angle_deg=92, speed=2.5), truth, seed=4)
    tracks = syn.tracks()
else:
    truth = PhysicsParams(mu=0.12, friction_law="coulomb")  # what made the file (its sidecar, data/README.md)
    tracks = read_tracks(data_path("cushion_shot.csv"))
print("the truth to recover:", truth)
tracks.report()

# %% [markdown]
# ## Impacts and free-sliding segments

# %%
seg = segment_tracks(tracks)
seg.impacts

# %%
seg.segments

# %% [markdown]
# ## Fit and compare the laws
# Each segment has its own start, direction and speed; the law's parameters are shared.
# The robust (Huber) loss down-weights the camera's outliers. On the example file (made
# with Coulomb friction, mu = 0.12) the Coulomb fit finds mu = 0.1198 ± 0.0003; the linear
# law's extra parameter `mu_v` fits to zero (its bound), so the same fit plus one
# parameter, and BIC prefers Coulomb. The quick run's shot was made with the linear law
# (mu = 0.11, mu_v = 0.03), which BIC picks, its fit recovering both within their intervals.

# %%
laws = ["coulomb", "linear", "stribeck"]
comp = compare_laws(seg, laws=laws)
comp.table()

# %%
best = comp.fits[comp.best]
best.table()

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 4), layout="constrained")  # room for the residual legend
plot_residuals(comp.fits["coulomb"], ax=axes[0])
plot_speed(comp.fits.values(), ax=axes[1]);

# %% [markdown]
# ## Restitution and contact friction from the impacts
# Each impact's restitution comes from the velocities just before and after it, read off
# the points around it: straight lines once a known constant deceleration is removed (the
# Coulomb fit's mu g), parabolas otherwise (a speed-dependent law's deceleration is not
# constant: removing mu g alone biases the velocities, and e with them). The impacts of a
# kind are pooled (`birge`, the Birge ratio, is near 1 when they scatter as
# their errors say; NaN for a single impact). Both runs' shots were made with `e_disc` =
# 0.9 and `e_cushion` = 0.75. Contact friction (`mu_contact`, `mu_cushion`) needs the
# spins before an impact, that is tracked orientations: these tracks have none, so only
# restitution is estimated here (`data/spin_shot.csv` has them and gives `mu_cushion`).

# %%
coulomb = best.params.friction_law == "coulomb"
imp = fit_restitution(seg, deceleration=best.params.deceleration if coulomb else None)
imp.estimates

# %% [markdown]
# ## Save the calibration and use it as a preset

# %%
path = "calibrated_board.toml"
save_calibration(imp.params(best.params), path, name="my-board", notes="fitted in notebook 02")
params = load_calibration(path)
res = simulate(Scene.icf_break(), Shot.from_deg(0.0, -0.2526, angle_deg=90, speed=6.0), params)
print(params.friction_law, round(params.mu, 4), "->", len(res.pocketed), "pocketed on the break")
os.remove(path)
