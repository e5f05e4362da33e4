"""The command line: every subcommand on tiny inputs writes its tables and PNG, bad input
is one line with exit status 2, and every --help has examples."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import carromlab
from carromlab.cli import main

SUBCOMMANDS = ["simulate", "break-study", "success-map", "best-shot", "fouls", "fit-friction", "match"]


def run_ok(capsys, *argv):
    """Run the CLI, assert status 0, return its stdout."""
    status = main(list(argv))
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def assert_png(path):
    assert path.stat().st_size > 10_000, path


# -- each subcommand on tiny inputs ---------------------------------------------------------
def test_simulate_writes_tables_and_png(tmp_path, capsys):
    out = run_ok(capsys, "simulate", "--out", str(tmp_path))
    events = pd.read_csv(tmp_path / "events.csv")
    assert {"t", "kind", "disc", "x", "y", "vx", "vy"} <= set(events.columns)
    assert_png(tmp_path / "trajectories.png")
    assert "events" in out
    assert "; striker: on the board." in out  # read "striker: board.", the status code's name


def test_break_study_small(tmp_path, capsys):
    out = run_ok(capsys, "break-study", "--small", "--workers", "1", "--out", str(tmp_path))
    cells = pd.read_csv(tmp_path / "break_cells.csv")
    shots = pd.read_csv(tmp_path / "break_shots.csv")
    assert {"rank", "placement", "aim", "speed", "mean_white", "p_foul", "mean_score", "sem_score"} <= set(cells.columns)
    assert len(cells) == 9 and cells["rank"].tolist() == list(range(1, 10))
    assert cells["mean_score"].is_monotonic_decreasing
    assert {"cell", "replica", "pocketed_white", "pocketed_black", "pocketed_queen", "foul", "score"} <= set(shots.columns)
    assert len(shots) == 9 * 8
    assert_png(tmp_path / "break_study.png")
    assert "best break" in out and "foul rate" in out
    # the best of 9 is replayed with fresh noise, free of its selection
    assert "the best of 9, so optimistic" in out and "replayed with 1000 fresh noisy breaks" in out and "95 % CI" in out


def test_break_study_hikone_parquet_powder_and_resumable_store(tmp_path, capsys):
    args = ["break-study", "--variant", "hikone", "--small", "--replicas", "5", "--format", "parquet", "--powder", "starch",
            "--store", str(tmp_path / "store"), "--out", str(tmp_path)]
    assert "mu = 0.075" in run_ok(capsys, *args)
    first = pd.read_parquet(tmp_path / "break_cells.parquet")
    assert {"mean_red", "mean_green", "mean_jack"} <= set(first.columns) and len(first) == 3
    assert any((tmp_path / "store").glob("part-*.parquet"))
    run_ok(capsys, *args)  # the rerun reads the finished store
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "break_cells.parquet"), first)


def test_a_store_warning_is_one_line(tmp_path, capsys):
    """A damaged part of a --store is reported as one line, without Python's file, line
    number and source line."""
    args = ["break-study", "--small", "--replicas", "2", "--quiet", "--store", str(tmp_path / "store"), "--out", str(tmp_path)]
    run_ok(capsys, *args)
    (tmp_path / "store" / "part-000000.parquet").write_text("torn")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(carromlab.__file__).parents[1]), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-W", "default", "-m", "carromlab.cli", *args], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"carromlab break-study: warning: The part '{tmp_path / 'store' / 'part-000000.parquet'}' is unreadable")
    assert line.endswith("ignored (a rerun of its sweep recomputes it if it is one of the sweep's chunks).")


def test_break_study_on_a_dask_scheduler_gives_the_local_numbers(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    run_ok(capsys, "break-study", "--small", "--seed", "3", "--out", str(tmp_path / "local"))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        run_ok(capsys, "break-study", "--small", "--seed", "3", "--scheduler", cluster.scheduler_address,
               "--out", str(tmp_path / "dask"))  # fmt: skip
        assert cluster.scheduler.task_prefixes  # the chunks ran on the cluster
    local, dask = (pd.read_csv(tmp_path / d / "break_shots.csv") for d in ("local", "dask"))
    pd.testing.assert_frame_equal(local, dask)


def test_success_map_on_the_example_and_on_a_position_file(tmp_path, capsys):
    out = run_ok(capsys, "success-map", "--placements", "3", "--angles", "5", "--replicas", "10", "--out", str(tmp_path))
    df = pd.read_csv(tmp_path / "success_map.csv")
    assert {"placement", "aim", "angle", "speed", "p_success", "ci_low", "ci_high", "n_valid"} <= set(df.columns)
    assert len(df) == 15
    assert_png(tmp_path / "success_map.png")
    assert "best cell" in out and "CI" in out and "cells, so optimistic" in out

    pd.DataFrame({"kind": ["white", "queen"], "x": [0.2, 0.0], "y": [0.2, 0.0]}).to_csv(tmp_path / "pos.csv", index=False)
    run_ok(capsys, "success-map", "--position", str(tmp_path / "pos.csv"), "--target", "queen", "--pocket", "ne",
           "--placements", "2", "--angles", "3", "--speed", "2.5,3.5", "--replicas", "4", "--noise", "expert",
           "--out", str(tmp_path / "queen"))  # fmt: skip
    df = pd.read_csv(tmp_path / "queen" / "success_map.csv")
    assert len(df) == 2 * 3 * 2 and set(df["pocket"]) == {"ne"}


def test_speed_option_is_a_list_or_a_geometric_range():
    from carromlab.cli._common import speed_list

    assert speed_list("2.5,3.5") == [2.5, 3.5]
    assert speed_list("1:8:4") == pytest.approx([1.0, 2.0, 4.0, 8.0])
    assert speed_list("3:3:1") == [3.0]


def test_best_shot_small_search(tmp_path, capsys):
    out = run_ok(capsys, "best-shot", "--placements", "5", "--angle-step-deg", "1", "--speed", "1:8:3",
                 "--replicas", "4,8,16,32", "--refine", "1", "--window-replicas", "8", "--routes", "direct,cut",
                 "--per-route", "2", "--out", str(tmp_path))  # fmt: skip
    best = pd.read_csv(tmp_path / "best_shots.csv")
    assert {"rank", "route", "x", "y", "angle", "angle_deg", "speed", "p_success", "ci_low", "ci_high", "aim_window_deg",
            "margin_deg", "technique", "first_contact", "fell"} <= set(best.columns)  # fmt: skip
    assert 1 <= len(best) <= 4 and set(best["route"]) <= {"direct", "cut"} and (best["n_valid"] + best["n_invalid"] == 32).all()
    assert_png(tmp_path / "best_shot.png")
    assert "1. " in out and "aim window" in out and "deg" in out and "95 % CI" in out


def test_fouls_population(tmp_path, capsys):
    out = run_ok(capsys, "fouls", "--n", "20", "--angle-range-deg", "-30,30", "--speed-range", "2,4",
                 "--out", str(tmp_path))  # fmt: skip
    df = pd.read_csv(tmp_path / "fouls.csv")
    assert {"variant", "rule", "foul", "n", "k", "p", "ci_low", "ci_high"} <= set(df.columns)
    assert list(dict.fromkeys(df["variant"])) == ["icf", "online"] and (df["n"] == 20).all()
    assert {"ICF-11", "ICF-14", "ONL-3", "any"} <= set(df["rule"])
    assert_png(tmp_path / "fouls.png")
    assert "any foul p =" in out


def test_fouls_of_the_opening_shot_on_an_empty_crokinole_board(tmp_path, capsys):
    # rule CRK-2: a position file with no pieces (every disc in hand) is the opening shot of a round
    (tmp_path / "empty.csv").write_text("kind,x,y\n")
    out = run_ok(capsys, "fouls", "--variants", "crokinole,crokinole-4", "--position", str(tmp_path / "empty.csv"),
                 "--n", "30", "--speed-range", "0.3,1.6", "--quiet", "--out", str(tmp_path))  # fmt: skip
    df = pd.read_csv(tmp_path / "fouls.csv")
    assert (df.loc[df["rule"] == "CRK-2", "k"] > 0).all() and (df.loc[df["rule"] == "CRK-3", "k"] == 0).all()
    assert "crokinole-4: any foul p =" in out


def test_match_then_fouls_of_its_shots(tmp_path, capsys):
    out = run_ok(capsys, "match", "--games", "1", "--max-shots-per-board", "12", "--policy", "greedy,random",
                 "--workers", "1", "--out", str(tmp_path))  # fmt: skip
    shots = pd.read_csv(tmp_path / "match_shots.csv")
    boards = pd.read_csv(tmp_path / "match_boards.csv")
    games = pd.read_csv(tmp_path / "match_games.csv")
    assert {"seat", "policy", "intended_x", "intended_angle", "fouls", "score_0"} <= set(shots.columns)
    assert set(shots["policy"]) == {"greedy", "random"} and len(shots) == 12
    assert {"board", "end", "winner", "score_0", "score_1"} <= set(boards.columns)
    assert games["end"].tolist() == ["abandoned"]
    assert_png(tmp_path / "match_summary.png")
    assert "wins:" in out

    run_ok(capsys, "fouls", "--shots", str(tmp_path / "match_shots.csv"), "--out", str(tmp_path / "fouls"))
    df = pd.read_csv(tmp_path / "fouls" / "fouls.csv")
    assert (df["n"] == (shots["seat"] == 0).sum()).all()


def test_disc_options_change_the_physics_of_fouls_and_match(tmp_path, capsys):
    def tables(command, *options, name, extra=()):
        out = tmp_path / f"{command}{len(options)}"
        run_ok(capsys, command, *extra, *options, "--quiet", "--out", str(out))
        return pd.read_csv(out / f"{name}.csv")

    fouls = ("--n", "40")
    standard, heavy = (tables("fouls", *o, name="fouls", extra=fouls) for o in ((), ("--striker-mass", "0.05")))
    assert (standard["n"] == heavy["n"]).all() and not standard["k"].equals(heavy["k"])  # same shots, other fouls
    game = ("--games", "1", "--policy", "random", "--max-boards", "1", "--max-shots-per-board", "30", "--workers", "1")
    standard, heavy = (tables("match", *o, name="match_shots", extra=game) for o in ((), ("--striker-mass", "0.03")))
    assert len(standard) == len(heavy) == 30
    assert not standard["pocketed"].equals(heavy["pocketed"]) or not standard["first_touch"].equals(heavy["first_touch"])


def test_rules_option_sets_each_variants_readings_and_house_rules(tmp_path, capsys):
    def fouls(name, variants, *rules):
        run_ok(capsys, "fouls", "--variants", variants, *rules, "--n", "300", "--quiet", "--out", str(tmp_path / name))
        return pd.read_csv(tmp_path / name / "fouls.csv").set_index(["variant", "rule"])

    # HIK-9: the strict reading calls every direct hit in the own area, so never fewer fouls on the same shots
    loose, strict = fouls("loose", "hikone-doubles"), fouls("strict", "hikone-doubles", "--rules", "every_direct_hit=true")
    assert (strict["n"] == loose["n"]).all() and strict.loc[("hikone-doubles", "HIK-9"), "k"] >= loose.loc[("hikone-doubles", "HIK-9"), "k"]
    # ONL-10: powder off is the online variant's house rule (a bare board, mu 0.20); the ICF rows keep their physics
    powdered, bare = fouls("powdered", "icf,online"), fouls("bare", "icf,online", "--rules", "powder=off")
    assert powdered.loc["icf"].equals(bare.loc["icf"]) and not powdered.loc["online", "k"].equals(bare.loc["online", "k"])


def test_rules_option_of_a_match(tmp_path, capsys):
    # CRK-5: the game ends at its target; two discs a player make short rounds
    run_ok(capsys, "match", "--variant", "crokinole", "--rules", "game_target=5, discs_per_player=2", "--games", "1",
           "--policy", "random", "--workers", "1", "--quiet", "--out", str(tmp_path))  # fmt: skip
    games, shots = pd.read_csv(tmp_path / "match_games.csv"), pd.read_csv(tmp_path / "match_shots.csv")
    assert games["end"].tolist() == ["complete"] and games[["score_0", "score_1"]].max(axis=1).iat[0] >= 5
    assert shots.groupby("board").size().max() == 4  # 2 discs each, 2 players


def test_rules_values_are_read_by_the_type_of_their_field():
    from carromlab.cli._rules import with_rules
    from carromlab.rules import online

    got = with_rules({"online": online.OnlineHouseRules()}, [("turn_time", "30"), ("draw_value", "0.25"), ("powder", "No")])
    assert got["online"] == online.OnlineHouseRules(turn_time=30, draw_value=0.25, powder=False)
    assert with_rules({"online": online.OnlineHouseRules(turn_time=60)}, [("turn_time", "none")])["online"].turn_time is None


@pytest.fixture
def tiny_tracks(tmp_path):
    """A 1 m/s slide of a lone striker filmed at 60 frames/s (Coulomb friction, mu = 0.12)."""
    from carromlab import Board, PhysicsParams, Scene, Shot
    from carromlab.fitting import make_synthetic_tracks

    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": [], "x": [], "y": []}))
    syn = make_synthetic_tracks(scene, Shot.from_deg(0.0, -0.2, angle_deg=80.0, speed=1.0), PhysicsParams(mu=0.12),
                                fps=60.0, outlier_rate=0.0, seed=1)  # fmt: skip
    path = tmp_path / "tiny.csv"
    syn.write(path)
    return path


def test_fit_friction_compares_laws_and_saves_the_calibration(tmp_path, capsys, tiny_tracks):
    from carromlab.fitting.calibration_io import load_calibration

    out = run_ok(capsys, "fit-friction", "--tracks", str(tiny_tracks), "--laws", "coulomb,linear",
                 "--save-calibration", str(tmp_path / "board.toml"), "--out", str(tmp_path))  # fmt: skip
    laws = pd.read_csv(tmp_path / "friction_laws.csv")
    assert {"law", "n_params", "loglik", "aic", "bic", "weight", "mu", "mu_se"} <= set(laws.columns)
    assert sorted(laws["law"]) == ["coulomb", "linear"]
    params = pd.read_csv(tmp_path / "friction_parameters.csv")
    assert {"law", "parameter", "estimate", "std_error", "ci_low", "ci_high"} <= set(params.columns)
    assert set(params["parameter"]) == {"mu", "mu_v"}
    assert_png(tmp_path / "friction_residuals.png")
    assert_png(tmp_path / "friction_speed.png")
    mu = load_calibration(tmp_path / "board.toml").mu
    assert mu == pytest.approx(0.12, abs=0.02)
    assert "best law" in out

    out = run_ok(capsys, "break-study", "--small", "--calibration", str(tmp_path / "board.toml"), "--out", str(tmp_path))
    assert f"mu = {mu:g}" in out


def test_fit_friction_air_drag_fits_the_drag_with_every_law(tmp_path, capsys, tiny_tracks):
    run_ok(capsys, "fit-friction", "--tracks", str(tiny_tracks), "--laws", "coulomb,linear", "--air-drag", "--out", str(tmp_path))
    params = pd.read_csv(tmp_path / "friction_parameters.csv")
    assert sorted(map(tuple, params[["law", "parameter"]].to_numpy())) == [
        ("coulomb", "air_drag"), ("coulomb", "mu"), ("linear", "air_drag"), ("linear", "mu"), ("linear", "mu_v"),
    ]


@pytest.mark.parametrize("name", ["cushion", "slide", "spin", "trackpy"])
def test_every_fit_friction_example_is_a_bundled_track_file_with_its_sidecar(name):
    from carromlab.cli._fitting import TRACK_EXAMPLES
    from carromlab.fitting import data_path, read_tracks

    assert set(TRACK_EXAMPLES) == {"cushion", "slide", "spin", "trackpy"}
    path = data_path(TRACK_EXAMPLES[name])
    assert path.with_suffix(".json").is_file()
    assert len(read_tracks(path).data) > 100


def test_fit_friction_slide_example_recovers_the_law_it_was_made_with(tmp_path, capsys):
    """data/slide_shot.csv is made under Coulomb friction, mu = 0.12 (data/make_examples.py):
    the short example ranks Coulomb first and its interval covers 0.12."""
    run_ok(capsys, "fit-friction", "--example", "slide", "--laws", "coulomb,linear", "--out", str(tmp_path))
    laws = pd.read_csv(tmp_path / "friction_laws.csv")
    assert laws.sort_values("bic")["law"].iloc[0] == "coulomb"
    mu = pd.read_csv(tmp_path / "friction_parameters.csv").query("law == 'coulomb' and parameter == 'mu'").iloc[0]
    assert mu["ci_low"] <= 0.12 <= mu["ci_high"]


# -- bad input: one line naming the parameter, exit status 2 ----------------------------------
BAD = {
    "simulate": (["--speed", "-1"], "'--speed' option"),
    "break-study": (["--small", "--replicas", "0"], "--replicas"),
    "break-study seed": (["--small", "--seed", "-1"], "'--seed' option"),
    "break-study scheduler": (["--small", "--scheduler", "not-an-address"], "--scheduler"),
    "success-map": (["--target", "7", "--replicas", "2"], "--target"),
    "success-map example": (["--variant", "hikone", "--example", "midgame", "--target", "9", "--replicas", "2"], "--target"),
    "best-shot": (["--replicas", "4,8"], "--replicas"),
    "best-shot routes": (["--routes", "direct,masse"], "--routes"),
    "best-shot speed": (["--speed", "1:8"], "--speed"),
    "success-map speed": (["--speed", "2,-1"], "--speed"),
    "fouls": (["--variants", "icf,snooker", "--n", "2"], "--variants"),
    "fouls mixed boards": (["--variants", "icf,hikone", "--n", "2"], "--variants"),
    "fouls shots": (["--shots", "no/such/file.csv"], "--shots"),
    "fit-friction": (["--tracks", "no/such/tracks.csv"], "--tracks"),
    "fit-friction laws": (["--example", "cushion", "--laws", "coulomb,teflon"], "--laws"),
    "match": (["--policy", "greedy,clever"], "--policy"),
    "match games": (["--games", "0"], "--games"),
    "match striker": (["--striker-mass", "5"], "--striker-mass"),
    "match puck": (["--puck-mass", "0.01"], "--puck-mass"),
    "fouls coin": (["--coin-radius", "0", "--n", "2"], "--coin-radius"),
    "fouls rules": (["--rules", "queen_points=3", "--variants", "hikone", "--n", "2"], "--rules"),
    "match rules": (["--variant", "online", "--rules", "queen_points=99"], "--rules"),
    "match rules type": (["--variant", "hikone", "--rules", "every_direct_hit=maybe"], "--rules"),
    "match rules pair": (["--rules", "own_last_coin"], "--rules"),
    "match rules board": (["--variant", "online", "--rules", "powder=false", "--powder", "club"], "--powder"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_and_status_2(case, tmp_path, capsys):
    args, name = BAD[case]
    assert main([case.split()[0], *args, "--out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and name in err[0], captured.err
    assert err[0].startswith(f"carromlab {case.split()[0]}")


def test_unknown_subcommand_is_one_line(capsys):
    assert main(["juggle"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


# -- help ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [[], *([c] for c in SUBCOMMANDS)])
def test_help_has_examples(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text and f"carromlab {command[0] if command else ''}".strip() in text.split("examples:")[1]


def test_the_time_reported_starts_after_the_libraries_load(tmp_path):
    """The "(x s)" of the last line is the job's: matplotlib and the analyses (seconds on a
    cold start) are loaded before the clock starts. Run in a fresh process, where nothing is
    loaded yet."""
    script = (
        "import sys, time, types; import carromlab.cli as cli; loaded = []\n"
        "def clock():\n    loaded.append('matplotlib.pyplot' in sys.modules and 'carromlab.plotting' in sys.modules); return time.perf_counter()\n"
        "cli.time = types.SimpleNamespace(perf_counter=clock)\n"
        f"status = cli.main(['simulate', '--quiet', '--out', {str(tmp_path)!r}]); print(status, loaded)"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(carromlab.__file__).parents[1]), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "0 [True]"


@pytest.mark.parametrize("module", ["carromlab", "carromlab.cli"])
def test_python_dash_m_runs_the_command(module):
    """``python -m carromlab`` (what a user types first) and ``python -m carromlab.cli`` are
    the ``carromlab`` command."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(carromlab.__file__).parents[1]), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: carromlab ") and "break-study" in proc.stdout


def test_simulate_replays_a_saved_position_with_changed_discs_and_prints_events(tmp_path, capsys):
    from carromlab import Board, DiscSpec, Scene, Shot, simulate

    scene = Scene.from_frame(Board.icf(), pd.DataFrame({"kind": ["white", "black"], "x": [0.15, -0.1], "y": [0.22, 0.05]}),
                             {"striker": DiscSpec.icf_striker().with_(mass=0.012)})  # fmt: skip
    path = scene.save(tmp_path / "pos.json")
    out = run_ok(capsys, "simulate", "--position", str(path), "--x", "0.05", "--angle-deg", "70", "--speed", "3",
                 "--mu", "0.1", "--coin-mass", "0.006", "--out", str(tmp_path))  # fmt: skip
    changed = Scene(scene.board, scene.pieces[["kind", "x", "y"]],
                    {**scene.specs, **{k: scene.specs[k].with_(mass=0.006) for k in ("white", "black")}})  # fmt: skip
    from carromlab import PhysicsParams

    want = simulate(changed, Shot.from_deg(0.05, -0.2526, angle_deg=70.0, speed=3.0), PhysicsParams(mu=0.1)).events
    got = pd.read_csv(tmp_path / "events.csv")
    assert len(got) == len(want) and got["t"].to_numpy() == pytest.approx(want["t"].to_numpy(), rel=1e-12)
    assert f"{len(want)} events" in out and "t (s)" in out and "vn (m/s)" in out
    assert "icf icf shot" not in out


def test_ctrl_c_is_one_line_and_status_130(tmp_path, capsys, monkeypatch):
    import carromlab.analysis

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(carromlab.analysis, "break_study", interrupted)
    status = main(["break-study", "--small", "--workers", "1", "--store", str(tmp_path / "s"), "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 130 and err.strip() == "carromlab break-study: interrupted (the same command with the same --store resumes)"


@pytest.mark.parametrize("buffered", [False, True])
def test_a_closed_stdout_stops_quietly_with_status_141(tmp_path, buffered):
    """``carromlab simulate | head -1``: a reader that stops early is no error. No message,
    status 141 (128 + SIGPIPE, what the shell reports for a tool the closed pipe stopped),
    whether the summary is written line by line (unbuffered) or at the end (the flush at
    exit). The pipe's reader is gone before the command prints, so every write fails (a
    reader that reads a line first races the command's next write)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(carromlab.__file__).parents[1]), os.environ.get("PYTHONPATH")]))}
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "carromlab", "simulate", "--quiet", "--out", str(tmp_path)],
                              stdout=write, stderr=subprocess.PIPE, text=True, env=env, timeout=300)  # fmt: skip
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (141, "")
    assert (tmp_path / "events.csv").exists()  # the job itself ran to the end


def test_a_timed_hikone_match_ends_by_the_clock(tmp_path, capsys):
    # rule HIK-10: 5 minutes, 6 s of thought a shot; at time the side with fewer pucks wins
    out = run_ok(capsys, "match", "--variant", "hikone", "--clock", "6", "--policy", "random", "--games", "2",
                 "--workers", "1", "--out", str(tmp_path))  # fmt: skip
    games, boards = pd.read_csv(tmp_path / "match_games.csv"), pd.read_csv(tmp_path / "match_boards.csv")
    assert games["end"].tolist() == ["complete"] * 2 and (games["clock_s"] >= 300).all()
    assert all("HIK-10" in reason.split(";") for reason in boards["reason"])  # the rules of the last shot, HIK-10 among them
    assert "minutes on the clock" in out and f"{games['clock_s'].mean() / 60:.1f} minutes" in out
