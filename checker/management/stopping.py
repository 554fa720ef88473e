"""Ctrl-C and SIGTERM on a long command: one line saying what stopped and what was kept, exit
130 (SIGINT) or 143 (SIGTERM), no traceback from the command or its worker processes; and a
log file written under a temporary name, renamed only when the run completes."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TextIO

EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM


class Terminated(BaseException):  # noqa: N818 - a signal, like KeyboardInterrupt
    """SIGTERM, raised in the main thread so the command unwinds (and cleans up) as on Ctrl-C."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def stoppable(command: str, stderr: TextIO, kept: Callable[[], str]) -> Iterator[None]:
    """Run the body; on Ctrl-C or SIGTERM print `command: stopped by …; <kept()>` and exit.

    `kept` says what the interrupted run leaves behind (rounds done, nothing stored, …).
    """
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    except KeyboardInterrupt:
        _stop(command, stderr, "Ctrl-C", kept, EXIT_SIGINT)
    except Terminated:
        _stop(command, stderr, "SIGTERM", kept, EXIT_SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop(command: str, stderr: TextIO, why: str, kept: Callable[[], str], code: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the exit
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    stderr.write(f"\n{command}: stopped by {why}; {kept()}\n")
    stderr.flush()
    sys.stdout.flush()
    _end_children()
    os._exit(code)  # no atexit hooks or pool finalisers that could print a child's traceback


def _end_children() -> None:
    """End this process's children at once (workers, Dask's nannies, multiprocessing's resource
    tracker), so none of them prints a warning or a traceback after the one line."""
    for path in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        try:
            pids = [int(p) for p in path.read_text().split()]
        except OSError:
            continue
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                continue


class PendingFile:
    """A file written under a temporary name beside its final one, renamed when complete.

    An interrupted or failed run leaves no file that looks complete: the temporary one is
    removed, and a file already at the final name is left as it was.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(
            prefix=f".{self.path.name}.", suffix=".partial", dir=self.path.parent
        )
        self.temp = Path(temp)
        self.stream: TextIO = os.fdopen(fd, "w", encoding="utf-8")

    def commit(self) -> None:
        """Close the file and give it its final name."""
        self.stream.close()
        os.replace(self.temp, self.path)

    def discard(self) -> None:
        """Close the file and remove it (nothing was renamed)."""
        self.stream.close()
        self.temp.unlink(missing_ok=True)
