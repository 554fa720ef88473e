"""The one parallel runner: batches of jobs on Dask distributed, either an embedded
LocalCluster of worker processes on this machine or a real scheduler reached by address.

`simulate --jobs`, `duel --jobs` and `study` all run here. A job function must be importable by
name (a module-level function, or a functools.partial of one) so a worker process can run it.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

CONNECT_TIMEOUT_S = 10
# Dask's own logs stay quiet: even its CRITICAL lines are about connections closing while a
# run is stopped (Ctrl-C), and every failure that matters reaches the caller as an exception.
QUIET = logging.CRITICAL + 1


class SchedulerError(ValueError):
    """A scheduler address that cannot be reached; the message names the address."""


def default_workers() -> int:
    """Return the number of worker processes of an embedded cluster: the machine's cores."""
    return max(1, os.cpu_count() or 1)


@contextmanager
def open_client(
    workers: int | None = None, scheduler: str | None = None, *, processes: bool = True
) -> Iterator[Any]:
    """Give a Dask client: on the scheduler at `scheduler`, else on an embedded LocalCluster of
    `workers` single-threaded worker processes (threads of this process when not `processes`),
    closed again on leaving."""
    dask = distributed_module()
    for name in ("distributed", "tornado"):
        logging.getLogger(name).setLevel(QUIET)
    if scheduler:
        try:
            client = dask.Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise SchedulerError(
                f"cannot reach the Dask scheduler at {scheduler!r} ({type(exc).__name__}: {exc})"
            ) from exc
        try:
            yield client
        finally:
            client.close()
        return
    cluster = dask.LocalCluster(
        n_workers=workers or default_workers(),
        threads_per_worker=1,
        processes=processes,
        dashboard_address=None,
        silence_logs=QUIET,
    )
    client = dask.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def distributed_module() -> Any:
    """Import Dask distributed (untyped: read through Any) only when a cluster is used."""
    return importlib.import_module("distributed")


def run_batch[Job, Result](fn: Callable[[Job], Result], batch: Sequence[Job]) -> list[Result]:
    """Run one batch of jobs in a worker, in order."""
    return [fn(job) for job in batch]


def batches[Job](work: Sequence[Job], size: int) -> list[Sequence[Job]]:
    """Cut the work into consecutive batches of `size` jobs (the last may be shorter)."""
    size = max(1, size)
    return [work[i : i + size] for i in range(0, len(work), size)]


def map_in_order[Job, Result](
    client: Any, fn: Callable[[Job], Result], work: Sequence[Job], chunk: int = 1
) -> Iterator[Result]:
    """Run the jobs on the client's workers in batches of `chunk`; yield the results in the
    jobs' order (a later batch done early waits until those before it are)."""
    futures = [client.submit(run_batch, fn, b, pure=False) for b in batches(work, chunk)]
    index = {f.key: i for i, f in enumerate(futures)}
    done: dict[int, list[Result]] = {}
    following = 0
    for future in distributed_module().as_completed(futures):
        done[index[future.key]] = future.result()
        future.release()
        while following in done:
            yield from done.pop(following)
            following += 1


def run_in_order[Job, Result](
    fn: Callable[[Job], Result], work: Sequence[Job], jobs: int, chunk: int = 1
) -> Iterator[Result]:
    """Run jobs in order: here when jobs ≤ 1, else on an embedded cluster of `jobs` workers."""
    if jobs <= 1 or len(work) < 2:
        for job in work:
            yield fn(job)
        return
    with open_client(jobs) as client:
        yield from map_in_order(client, fn, work, chunk)
