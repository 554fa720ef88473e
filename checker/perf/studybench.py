"""Measure the study runner (issue 27): speed-up of 2 workers over 1, per-shard overhead,
memory per worker, and a `dask scheduler` with two `dask worker` processes giving the embedded
run's figures.

    python -m checker.perf.studybench [--rounds 20000] [--shard 200] [--format json]

It measures and prints; it judges nothing (the figures of a shared, noisy machine vary).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from checker.lab.run import report, run_study
from checker.lab.shards import make_tasks, run_shard
from checker.lab.spec import parse_spec
from checker.play.cluster import distributed_module, open_client

ROOT = Path(__file__).resolve().parents[2]


def _spec(rounds: int, shard: int) -> Any:
    data = {
        "name": "bench",
        "rounds": rounds,
        "seed": 1,
        "bots": "random",
        "shard": shard,
        "arms": [{"ruleset": "classic"}],
    }
    return parse_spec(data)


def _rss_mb() -> float:
    import psutil

    return float(psutil.Process().memory_info().rss) / 2**20


def _cpu_s() -> float:
    import psutil

    times = psutil.Process().cpu_times()
    return float(times.user + times.system)


def timed_run(
    spec: Any, workers: int | None = None, scheduler: str | None = None
) -> dict[str, Any]:
    """Run the study on a fresh cluster; time the run alone (not the cluster's start)."""
    seconds: list[float] = []
    with open_client(workers, scheduler) as client:
        client.wait_for_workers(workers or 1)
        cpu_before = client.run(_cpu_s)
        start = time.perf_counter()
        shards = run_study(spec, client, lambda task, figures, s: seconds.append(s))
        wall = time.perf_counter() - start
        rss = client.run(_rss_mb)
        cpu = sum(client.run(_cpu_s).values()) - sum(cpu_before.values())
    n = len(client_workers := list(rss))
    busy = sum(seconds)
    return {
        "workers": n,
        "wall_s": round(wall, 2),
        "rounds_per_s": round(spec.size / wall, 1),
        "shards": len(seconds),
        "mean_shard_s": round(busy / len(seconds), 3),
        # the share of the workers' time not spent playing shards (scheduling, transfer, tail)
        "overhead_share": round(1 - busy / (wall * n), 4),
        "worker_rss_mb": [round(rss[w], 1) for w in client_workers],
        # CPU the workers got, as a share of all their wall time: below 1 on a busy machine
        "worker_cpu_share": round(cpu / (wall * n), 3),
        "report": report(spec, shards),
    }


def serial_seconds(spec: Any) -> float:
    """Play the same shards here, one after the other, without Dask (after a warm-up shard)."""
    run_shard(make_tasks(spec)[0])
    start = time.perf_counter()
    for task in make_tasks(spec):
        run_shard(task)
    return time.perf_counter() - start


@contextmanager
def dask_processes(workers: int = 2) -> Iterator[str]:
    """Start `dask scheduler` and `workers` × `dask worker` on loopback; give the address once
    every worker has joined, and stop them all on leaving."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    quiet: dict[str, Any] = {
        "cwd": ROOT,
        "env": env,
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
    }
    cli = [sys.executable, "-m", "distributed.cli."]
    procs = [
        subprocess.Popen(
            [
                cli[0],
                cli[1],
                cli[2] + "dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-dashboard",
            ],
            **quiet,
        )
    ]
    try:
        procs += [
            subprocess.Popen(
                [
                    cli[0],
                    cli[1],
                    cli[2] + "dask_worker",
                    address,
                    "--host",
                    "127.0.0.1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                ],
                **quiet,
            )
            for _ in range(workers)
        ]
        deadline = time.monotonic() + 120
        while True:
            try:
                with distributed_module().Client(address, timeout="5s") as client:
                    client.wait_for_workers(workers, timeout=max(1, deadline - time.monotonic()))
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def scheduler_run(spec: Any) -> dict[str, Any]:
    """Run the study on a `dask scheduler` with two `dask worker` processes on loopback."""
    with dask_processes(2) as address:
        return timed_run(spec, scheduler=address)


def main() -> None:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--shard", type=int, default=200)
    parser.add_argument("--serial-rounds", type=int, default=2_000)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--speedup-only", action="store_true", help="1 and 2 workers only")
    args = parser.parse_args()
    spec = _spec(args.rounds, args.shard)
    load_before = os.getloadavg()
    one = timed_run(spec, workers=1)
    two = timed_run(spec, workers=2)
    if args.speedup_only:
        print(
            json.dumps(
                {
                    "rounds": args.rounds,
                    "load_average_before": load_before,
                    "load_average_after": os.getloadavg(),
                    "one_worker": {k: v for k, v in one.items() if k != "report"},
                    "two_workers": {k: v for k, v in two.items() if k != "report"},
                    "speedup_2_vs_1": round(one["wall_s"] / two["wall_s"], 3),
                    "equal": one["report"] == two["report"],
                },
                indent=2,
            )
        )
        return
    small = _spec(args.serial_rounds, args.shard)
    serial = serial_seconds(small)
    small_one = timed_run(small, workers=1)
    remote = scheduler_run(spec)
    out = {
        "rounds": args.rounds,
        "shard": args.shard,
        "cores": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "one_worker": {k: v for k, v in one.items() if k != "report"},
        "two_workers": {k: v for k, v in two.items() if k != "report"},
        "speedup_2_vs_1": round(one["wall_s"] / two["wall_s"], 3),
        "serial_s": round(serial, 2),
        "one_worker_small_s": small_one["wall_s"],
        "dask_overhead_vs_serial": round(small_one["wall_s"] / serial - 1, 4),
        "scheduler_two_workers": {k: v for k, v in remote.items() if k != "report"},
        "scheduler_equals_embedded": remote["report"] == one["report"] == two["report"],
    }
    if args.format == "json":
        print(json.dumps(out, indent=2))
        return
    _print_text(out, args.rounds, args.shard, args.serial_rounds)


def _print_text(out: dict[str, Any], rounds: int, shard: int, serial_rounds: int) -> None:
    """Print the measurements as text lines."""
    print(
        f"{rounds} random-bot rounds, shards of {shard}, {out['cores']} cores, load "
        f"{out['load_average_before']} → {out['load_average_after']}"
    )
    for key in ("one_worker", "two_workers", "scheduler_two_workers"):
        r = out[key]
        print(
            f"{key:<22} {r['wall_s']:>8} s  {r['rounds_per_s']:>7} rounds/s  overhead "
            f"{100 * r['overhead_share']:.1f}%  shard {r['mean_shard_s']} s  rss {r['worker_rss_mb']} MB"
            f"  cpu share {r['worker_cpu_share']}"
        )
    print(f"speed-up 2 vs 1         {out['speedup_2_vs_1']}×")
    print(
        f"{serial_rounds} rounds serial {out['serial_s']} s, on 1 Dask worker "
        f"{out['one_worker_small_s']} s: {100 * out['dask_overhead_vs_serial']:.1f}% more"
    )
    print(f"scheduler = embedded    {out['scheduler_equals_embedded']}")


if __name__ == "__main__":
    main()
