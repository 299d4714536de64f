"""The relay's one clock: the turn clock, the daily's date and abandon time, seats'
``last_seen``, log file names.  Real, or driven by tests (``ManualClock``)."""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import datetime, timezone
from typing import Callable


class RealClock:
    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]):
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)

    def today(self) -> str:
        return datetime.now(timezone.utc).date().isoformat()

    def stamp(self) -> str:
        """Now in UTC as ``YYYYMMDD-HHMMSS``, for file names."""
        return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")


class _Handle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that only moves when a test calls ``advance``; ``date`` is settable."""

    def __init__(self, start: float = 1000.0, date: str = "2024-01-01"):
        self.t = start
        self.date = date
        self._heap: list = []
        self._count = itertools.count()

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, callback: Callable[[], None]):
        h = _Handle()
        heapq.heappush(self._heap, (self.t + max(0.0, delay), next(self._count), h, callback))
        return h

    def today(self) -> str:
        return self.date

    def stamp(self) -> str:
        """The date, and the clock's seconds as the time of day."""
        secs = int(self.t) % 86400
        return (f"{self.date.replace('-', '')}-"
                f"{secs // 3600:02d}{secs // 60 % 60:02d}{secs % 60:02d}")

    def advance(self, seconds: float) -> int:
        """Move time forward, running due callbacks in order; returns how many ran."""
        end = self.t + seconds
        ran = 0
        while self._heap and self._heap[0][0] <= end:
            due, _, h, cb = heapq.heappop(self._heap)
            self.t = max(self.t, due)
            if not h.cancelled:
                cb()
                ran += 1
        self.t = end
        return ran

    def pending(self) -> int:
        return sum(1 for e in self._heap if not e[2].cancelled)
