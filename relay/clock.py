"""The relay's one clock: the turn clock, the daily's date and abandon time, seats'
``last_seen``, log file names, and the bots' pacing.  Real, real but faster
(``ScaledClock``, tests of the real clock's wiring), or driven by tests (``ManualClock``).

Every clock implements ``services.Clock``; ``sleep`` is how a coroutine waits game time,
so a bot's pause moves with the clock a test drives, never with the wall's."""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import datetime, timezone
from typing import Callable

from .services import Timer


class _Sleeps:
    """``sleep`` built on the clock's own ``call_later``."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        raise NotImplementedError

    async def sleep(self, delay: float) -> None:
        """Wait ``delay`` seconds of this clock; 0 only lets other tasks run."""
        if delay <= 0:
            await asyncio.sleep(0)
            return
        woken = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_later(delay, wake)
        try:
            await woken
        finally:
            timer.cancel()


class RealClock(_Sleeps):
    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)

    def today(self) -> str:
        return datetime.now(timezone.utc).date().isoformat()

    def stamp(self) -> str:
        """Now in UTC as ``YYYYMMDD-HHMMSS``, for file names."""
        return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")


class ScaledClock(RealClock):
    """Real time running ``speed`` times faster: a 30 s turn lasts 30 / speed seconds.
    Dates and file names stay the wall's."""

    def __init__(self, speed: float):
        if speed <= 0:
            raise ValueError(f"a clock's speed is above 0, not {speed!r}")
        self.speed = speed
        self._origin = time.monotonic()

    def now(self) -> float:
        return self._origin + (time.monotonic() - self._origin) * self.speed

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, delay) / self.speed, callback)


class _Handle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock(_Sleeps):
    """A clock that only moves when a test calls ``advance``; ``date`` is settable."""

    def __init__(self, start: float = 1000.0, date: str = "2024-01-01"):
        self.t = start
        self.date = date
        self._heap: list[tuple[float, int, _Handle, Callable[[], None]]] = []
        self._count = itertools.count()

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Handle:
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
