"""The one clock of a run: milliseconds since its first move, read from a clock the caller
passes in (core reads none).  The relay stamps a ranked run's records with it on its own
clock and a local game on the machine's monotonic clock, so both count the same span —
from the first roll to the last write — and every stall (a frozen window, a stopped
process, a pause menu) counts, because the clock is read, never summed from frames."""
from __future__ import annotations

from typing import Callable


class RunClock:
    """``stamp()`` is the ``at`` of the next record: 0 for the first move (which starts
    the clock), then whole milliseconds since.  ``resumed_ms`` continues a run from its
    last stamp (a relay restarted: its downtime is not the player's)."""

    __slots__ = ("now", "began")

    def __init__(self, now: Callable[[], float], resumed_ms: int | None = None) -> None:
        self.now = now
        self.began: float | None = None if resumed_ms is None else now() - resumed_ms / 1000

    @property
    def started(self) -> bool:
        return self.began is not None

    def ms(self) -> int:
        """The run's time so far (0 before its first move)."""
        if self.began is None:
            return 0
        return max(0, round((self.now() - self.began) * 1000))

    def stamp(self) -> int:
        if self.began is None:
            self.began = self.now()
            return 0
        return self.ms()
