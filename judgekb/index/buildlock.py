"""The data dir's build lock: one build at a time; a second one waits, saying who holds it.

An advisory ``flock`` on ``<data_dir>/.build.lock``: the kernel releases it when the holder
exits, even by ``kill -9``, so a crashed build never leaves the data dir locked. The holder
writes its pid, host and start time into the file for the next build to report.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from judgekb.errors import BuildLocked

LOCK_FILE = ".build.lock"
POLL_SECONDS = 0.2


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
        return f"pid {info['pid']} on {info['host']} since {info['since']} ({info['command']})"
    except (ValueError, KeyError, TypeError):
        return "a build that has not said who it is yet"


def _announce(fd: int) -> None:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])[:200],
    }
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(info).encode("utf-8"), 0)


@contextmanager
def build_lock(
    data_dir: Path, wait: float, notify: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the build lock of ``data_dir``; wait up to ``wait`` seconds for another build
    (``notify`` is told who it is), then raise :class:`BuildLocked` naming the holder."""
    path = data_dir / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(fd):
            who = holder(fd)
            if wait <= 0:
                raise BuildLocked(f"another build is running ({who}); wait for it to finish")
            if notify:
                notify(f"waiting for the build lock ({who})")
            deadline = time.monotonic() + wait
            while not _try_lock(fd):
                if time.monotonic() > deadline:
                    raise BuildLocked(
                        f"another build is still running after {wait:.0f} s ({holder(fd)}); "
                        "wait for it to finish, or stop that process"
                    )
                time.sleep(POLL_SECONDS)
        _announce(fd)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)  # no stale holder for the next build to report
    finally:
        os.close(fd)  # releases the lock
