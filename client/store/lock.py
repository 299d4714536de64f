"""The data folder's open lock: one window at a time checks, creates, migrates or
salvages the database, so a second window waits instead of seeing a half-made file
(and reporting it busy or damaged)."""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from .files import DB_NAME

# How long a window waits for another one that is opening (or salvaging) the same file.
LOCK_TIMEOUT_S = 120.0
LOCK_NAME = DB_NAME + ".lock"


@contextmanager
def folder_lock(directory: str, timeout: float | None = None) -> Iterator[bool]:
    """Hold the folder's lock while the block runs; yields False on timeout.
    The lock file is never deleted: deleting lock files reopens the race."""
    timeout = LOCK_TIMEOUT_S if timeout is None else timeout
    try:
        fd = os.open(os.path.join(directory, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield True   # no lock file possible (read-only folder): nothing to race over
        return
    locked = False
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                _lock_fd(fd)
                locked = True
                break
            except (BlockingIOError, PermissionError):
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.02)
            except OSError:
                locked = True   # the file system cannot lock: go on as before the lock existed
                break
        yield locked
    finally:
        os.close(fd)   # closing the descriptor releases the lock


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock_fd(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
