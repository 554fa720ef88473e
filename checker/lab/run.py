"""Running a study on a Dask client: every shard not yet done, each stored as it finishes."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from checker.engine.house import resolve_ruleset
from checker.play.cluster import distributed_module

from .report import arm_report, study_report
from .shards import ShardTask, add, empty, make_tasks, run_shard
from .spec import StudySpec

Store = Callable[[ShardTask, dict[str, Any], float], None]


def timed_shard(task: ShardTask) -> tuple[dict[str, Any], float]:
    """Play a shard in a worker; return its figures and the seconds it took there."""
    start = time.perf_counter()
    figures = run_shard(task)
    return figures, time.perf_counter() - start


def run_study(
    spec: StudySpec,
    client: Any,
    store: Store,
    done: Mapping[tuple[int, int], dict[str, Any]] | None = None,
    stream: TextIO | None = None,
) -> dict[tuple[int, int], dict[str, Any]]:
    """Play every shard not in `done` on the client's workers, calling `store` as each one
    finishes (so a stopped study loses only the shards in flight); return all shards' figures."""
    from tqdm import tqdm

    shards = dict(done or {})
    tasks = make_tasks(spec, set(shards))
    per_arm = spec.size * len(spec.arms)
    already = sum(f["matches"] if spec.matches else f["rounds"] for f in shards.values())
    bar = tqdm(
        total=per_arm,
        initial=already,
        unit=spec.unit[:-1],
        file=stream,
        disable=stream is None,
        dynamic_ncols=True,
        mininterval=0.5,
    )
    futures = client.map(timed_shard, tasks, pure=False)
    task_of = {f.key: t for f, t in zip(futures, tasks, strict=True)}
    try:
        for future in distributed_module().as_completed(futures):
            task = task_of[future.key]
            figures, seconds = future.result()
            future.release()
            store(task, figures, seconds)
            shards[(task.arm, task.index)] = figures
            bar.update(task.stop - task.start)
    finally:
        bar.close()
        client.cancel([f for f in futures if not f.done()])
    return shards


def report(spec: StudySpec, shards: Mapping[tuple[int, int], dict[str, Any]]) -> dict[str, Any]:
    """Add each arm's shards up (in shard order) and write the study's report."""
    arms = []
    for i, arm in enumerate(spec.arms):
        total = empty()
        for index in range(spec.shard_count()):
            part = shards.get((i, index))
            if part is not None:
                add(total, part)
        rs = resolve_ruleset(arm.ruleset)
        surrender = rs.bidding is not None and "surrender_bid" in rs.bidding
        arms.append(arm_report(arm.label, arm.ruleset_name, arm.options, total, surrender))
    return study_report(spec.name, arms)
