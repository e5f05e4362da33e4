"""play_match's worker processes: they stop promptly on an interrupt or an error of the
parent, and when the parent dies, and a store keeps the chunks finished before."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# ICF random games, two workers, chunks of about ten CPU-seconds each
_SCRIPT = """
import sys
from carromlab.match import play_match
play_match("icf", 1000, seed=1, workers=2, chunk_games=250, store=sys.argv[1])
"""

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads worker processes from /proc")


def _children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text() if Path(f"/proc/{pid}").exists() else ""
    return [int(k) for k in text.split()]


def _running(pid: int) -> bool:
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def _start(store: Path) -> tuple[subprocess.Popen[str], list[int]]:
    proc = subprocess.Popen([sys.executable, "-c", _SCRIPT, str(store)], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60.0
    while len(kids := _children(proc.pid)) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, "the workers never started"
        time.sleep(0.1)
    time.sleep(1.0)  # into the first chunks
    return proc, kids


def _gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(map(_running, pids)):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_an_interrupt_stops_the_workers_at_once(tmp_path):
    # before, the parent waited for the running chunks (here about ten seconds each) and
    # then dropped them
    proc, kids = _start(tmp_path / "store")
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert time.monotonic() - t0 < 5.0, "the interrupted match waited for its running chunks"
    assert "KeyboardInterrupt" in err
    assert _gone_within(kids, 5.0)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_of_a_dead_parent_stop(tmp_path, sig):
    # before, they stayed forever, re-parented to PID 1
    proc, kids = _start(tmp_path / "store")
    os.kill(proc.pid, sig)
    proc.communicate(timeout=60)
    assert _gone_within(kids, 5.0)
