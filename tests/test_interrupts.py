"""Ctrl-C and SIGTERM on long commands (issue 24, point 9): one line saying what was stopped
and what was kept, exit 130 / 143, no traceback from the command or a worker, and an
interrupted --log leaves no file that looks complete."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[str]:
    """The process's children, started from any of its threads (Dask's nannies start the
    workers from the event loop's thread)."""
    found: list[str] = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += path.read_text().split()
        except OSError:  # the thread ended meanwhile
            continue
    return found


def _wait_for(ready: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    """Poll until the command is under way (bounded: a hung start fails the test)."""
    for _ in range(1200):
        if ready():
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the command never got under way")


def _run(
    args: list[str], ready: Callable[[subprocess.Popen[str]], bool], sig: int
) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    proc = subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for(lambda: ready(proc), proc)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=120)
    return proc.returncode, err


def _one_line(err: str, command: str) -> str:
    assert "Traceback" not in err and "Error" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"{command}: stopped by"), err
    return lines[0]


@pytest.mark.parametrize(
    ("sig", "code", "word"), [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")]
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_stops_with_one_line_and_leaves_no_log(
    tmp_path: Path, sig: int, code: int, word: str, jobs: str
) -> None:
    log = tmp_path / "run.jsonl"
    args = ["simulate", "--rounds", "100000", "--no-store", "--no-progress", "--jobs", jobs]
    args += ["--log", str(log)]

    def ready(proc: subprocess.Popen[str]) -> bool:
        partial = list(tmp_path.glob(".run.jsonl.*.partial"))
        started = bool(partial) and partial[0].stat().st_size > 2000
        return started and (jobs == "1" or len(_children(proc.pid)) >= 2)

    rc, err = _run(args, ready, sig)
    line = _one_line(err, "simulate")
    assert rc == code and word in line and "rounds played; nothing stored" in line
    assert not log.exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_duel_stops_with_one_line(sig: int, code: int) -> None:
    args = ["duel", "--bots", "random", "greedy", "--deals", "100000", "--jobs", "2"]
    rc, err = _run(args, lambda proc: len(_children(proc.pid)) >= 2, sig)
    assert rc == code and "nothing kept" in _one_line(err, "duel")


def test_a_completed_log_gets_its_name(tmp_path: Path) -> None:
    log = tmp_path / "done.jsonl"
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--rounds", "3", "--no-store", "--no-progress"]
        + ["--log", str(log)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["done.jsonl"]
    assert len(log.read_text().splitlines()) > 3


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_bench_stops_with_one_line(sig: int, code: int) -> None:
    rc, err = _run(["bench", "--seconds", "30"], lambda proc: _cpu_seconds(proc.pid) > 3, sig)
    assert rc == code and "nothing kept" in _one_line(err, "bench")
