"""Caps per address on what one message can make the relay do for a long time or for
many people: new ranked runs (each a permanent log), rematch tables (each told to every
player of the old table) and watching (each watcher's arrival and departure told to every
player).  The numbers are ``limits.Limits``; docs/protocol.md lists them all.

Buckets run on the relay's clock (a test moves it with ``ManualClock``), so a refusal
never depends on how fast a test machine is.
"""
from __future__ import annotations

from typing import Callable, Generic, Hashable, TypeVar

from .services import Clock, Timer

T = TypeVar("T", bound=Hashable)

MAX_BUCKETS = 4096      # addresses remembered per kind before full buckets are dropped


class Buckets:
    """One token bucket per (kind, address): ``burst`` at once, then one every ``every``
    seconds.  A full bucket is the same as none, so forgetting one loses nothing."""

    def __init__(self, clock: Clock):
        self.clock = clock
        self._held: dict[tuple[str, str], tuple[float, float]] = {}   # tokens, at

    def take(self, kind: str, address: str | None, burst: float, every: float) -> bool:
        """Use one token of ``address``'s ``kind`` bucket; False when it is empty.  A
        connection without an address (a test's socket pair) is never capped here."""
        if address is None:
            return True
        now = self.clock.now()
        tokens, at = self._held.get((kind, address), (burst, now))
        tokens = min(burst, tokens + (now - at) / every) if every > 0 else burst
        if tokens < 1:
            self._held[(kind, address)] = (tokens, now)
            return False
        self._held[(kind, address)] = (tokens - 1, now)
        if len(self._held) > MAX_BUCKETS:
            self._forget_full(burst, every, now)
        return True

    def _forget_full(self, burst: float, every: float, now: float) -> None:
        for key, (tokens, at) in list(self._held.items()):
            if every <= 0 or tokens + (now - at) / every >= burst:
                del self._held[key]


class Coalesced(Generic[T]):
    """A notice about ``T`` (a table's watcher count) sent at once the first time, then at
    most once every ``every`` seconds however often it changes: twenty connections
    cycling watch/leave cost the players one ``table`` message a second, not hundreds."""

    def __init__(self, clock: Clock, every: float, send: Callable[[T], None]):
        self.clock, self.every, self.send = clock, every, send
        self._last: dict[T, float] = {}
        self._pending: dict[T, Timer] = {}

    def changed(self, item: T) -> None:
        if item in self._pending:
            return                       # the pending notice will say the newest
        now = self.clock.now()
        last = self._last.get(item)
        if last is None or now - last >= self.every:
            if len(self._last) > MAX_BUCKETS:     # a notice this old holds nothing back
                self._last = {k: t for k, t in self._last.items() if now - t < self.every}
            self._last[item] = now
            self.send(item)
            return
        self._pending[item] = self.clock.call_later(last + self.every - now,
                                                    lambda: self._due(item))

    def _due(self, item: T) -> None:
        self._pending.pop(item, None)
        self._last[item] = self.clock.now()
        self.send(item)

    def forget(self, item: T) -> None:
        """``item`` is gone (a purged table): nothing more is sent about it."""
        self._last.pop(item, None)
        timer = self._pending.pop(item, None)
        if timer is not None:
            timer.cancel()


class RunningPerAddress(Generic[T]):
    """The long games each address started that are still running (ranked runs): a
    count per address without scanning every table.  Ended ones are dropped as they are
    counted, so an address's list is never longer than its cap plus the ones that ended."""

    def __init__(self, running: Callable[[T], bool]):
        self.running = running
        self._by_address: dict[str, list[T]] = {}

    def count(self, address: str | None) -> int:
        if address is None:
            return 0
        alive = [t for t in self._by_address.get(address, ()) if self.running(t)]
        if alive:
            self._by_address[address] = alive
        else:
            self._by_address.pop(address, None)
        return len(alive)

    def add(self, address: str | None, item: T) -> None:
        if address is not None:
            self._by_address.setdefault(address, []).append(item)
