"""One relay per data folder: its journal, stores and finished logs are that relay's alone.

Two relays on one folder would each read the other's running games back as their own,
resume them, and delete the journal segments the other still writes (and mark the other's
open daily attempts lost).  So a relay holds an exclusive lock on ``<data>/relay.lock``
while it runs; the system lets it go when the process ends, however it ends (a crash or
``kill -9`` included), so a restart after a crash is never refused.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

LOCK_FILE = "relay.lock"


class FolderBusy(Exception):
    """Another running relay holds the data folder."""


def hold(folder: Path) -> int:
    """Lock ``folder`` for this process: the lock file's descriptor (``release`` it), or
    ``FolderBusy`` when another relay holds it."""
    path = Path(folder) / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if sys.platform == "win32":   # pragma: no cover - Windows
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise FolderBusy(f"another relay is using the data folder {folder}; stop it, or give "
                         "this one a folder of its own with --data") from None
    if sys.platform != "win32":      # who holds it, for a person looking (the lock is the flock)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def release(fd: int) -> None:
    os.close(fd)
