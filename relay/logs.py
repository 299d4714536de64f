"""Finished game logs: one ``.bonanza`` file per finished table, named by the clock."""
from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from .services import Clock

log = logging.getLogger("bonanza.relay")

_NAME = re.compile(r"^[0-9]{8}-[0-9]{6}-[a-z]+-[A-Z0-9]+(-[0-9]+)?\.bonanza$")


class LogFolder:
    """``<data>/logs``: written once per finished table, read for a closed daily."""

    def __init__(self, folder: Path, clock: Clock):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self.failing = False   # the last write was refused (said once, until one works)

    def write(self, mode: str, code: str, data: bytes) -> str | None:
        """Write a finished log; its file name, or None when the disk refused (the
        players still get the log in ``end``; the relay says why in its own log)."""
        stem = f"{self.clock.stamp()}-{mode}-{code}"
        for n in range(100):   # two tables with one code in one second: rare, not lost
            fname = f"{stem}.bonanza" if n == 0 else f"{stem}-{n}.bonanza"
            path = self.folder / fname
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            except OSError as e:
                self._refused(fname, e)
                return None
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
            except OSError as e:
                try:
                    os.unlink(path)    # no half log left behind under a finished name
                except OSError:
                    pass
                self._refused(fname, e)
                return None
            if self.failing:
                self.failing = False
                log.warning("finished logs are written again (%s)", fname)
            return fname
        return None

    def _refused(self, fname: str, e: OSError) -> None:
        if not self.failing:
            log.error("cannot write the finished log %s: %s; it is written again every few "
                      "seconds", fname, e.strerror or e)
        self.failing = True

    def read(self, fname: str) -> bytes | None:
        """A log written here before; None when it is gone or the name is not ours."""
        if not _NAME.match(fname or ""):
            return None
        try:
            return (self.folder / fname).read_bytes()
        except OSError:
            return None
