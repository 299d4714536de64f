"""What the relay's parts need from the relay, as narrow protocols.

``server.Relay`` holds the relay's state and implements every protocol here; the
other modules depend on these protocols, never on ``server`` (tests/test_relay_deps.py
keeps it so), so the dependencies point one way::

    cli -> server -> handlers -> tables -> connection -> services -> limits
                     discovery, clock, logs ----------------^

A protocol is generic in the classes its user already knows (a connection knows its
own class, the handlers know ``Table`` and ``Slot``), so this module imports nothing
of the relay but plain data (``Limits``).
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable, Coroutine, Mapping, Protocol, Sequence, TypeVar

from bonanza.core.rules import Sheet
from bonanza.core.signing import Signer

from .limits import Limits

C_contra = TypeVar("C_contra", contravariant=True)   # a connection
T_contra = TypeVar("T_contra", contravariant=True)   # a table
T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")
S = TypeVar("S")                                     # a seat


# ---------------------------------------------------------------- time
class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """The one clock the game reads (``clock.RealClock``, ``ScaledClock``, ``ManualClock``)."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...

    def today(self) -> str: ...

    def stamp(self) -> str: ...

    async def sleep(self, delay: float) -> None: ...


# ---------------------------------------------------------------- connections
class ConnectionHost(Protocol[C_contra]):
    """What a connection needs from its relay."""

    @property
    def limits(self) -> Limits: ...

    def net_time(self) -> float:
        """The event loop's clock: sockets' liveness, never the game's time."""
        ...

    def register(self, conn: C_contra) -> None:
        """The connection is open."""
        ...

    def forget(self, conn: C_contra) -> None:
        """The connection's socket is gone."""
        ...

    def dispatch(self, conn: C_contra, msg: dict) -> None:
        """Handle one message the connection received."""
        ...

    def flushing(self) -> list:
        """The connections to flush after this iteration's work (a flush is scheduled):
        a connection whose frames start waiting is appended to it, once."""
        ...

    def write_journal(self) -> None:
        """Everything made so far is signed and journaled (handed to the system): called
        before a connection's frames are written outside the loop's own flush."""
        ...

    @property
    def sealing(self) -> bool:
        """Records wait for their batch signature (``seal`` before anything else is sent,
        so every client still gets a table's messages in the order they happened)."""
        ...

    def seal(self) -> None:
        """Sign the records waiting and send them (``core.signing.BatchSigner``)."""
        ...

    def on_disconnect(self, conn: C_contra) -> None:
        """The connection closed: its seat is detached, its watching ends."""
        ...


# ---------------------------------------------------------------- what tables use
class Advisor(Protocol):
    """Automatic moves (``auto.Auto``): the advisor's box, the bots' choices."""

    @property
    def loaded(self) -> bool: ...

    async def ready(self) -> None: ...

    def advisor_box(self, ruleset: str, sheet: Sheet, dice: Sequence[int],
                    rolls_left: int) -> str: ...

    def bot_action(self, policy: str | None, ruleset: str, sheet: Sheet,
                   dice: Sequence[int] | None, rolls_left: int) -> tuple[str, Any]: ...


class LogBook(Protocol):
    """Finished logs on disk (``logs.LogFolder``)."""

    def write(self, mode: str, code: str, data: bytes) -> str | None: ...

    def read(self, fname: str) -> bytes | None: ...


class DailyResults(Protocol):
    def finish_attempt(self, date: str, name: str, score: int, gave_up: str | None,
                       log_file: str | None) -> None: ...


class DailyBook(DailyResults, Protocol):
    """The daily challenge's seeds, attempts and boards (``daily.DailyStore``)."""

    def seed(self, date: str) -> bytes: ...

    def commitment(self, date: str) -> bytes: ...

    def start_attempt(self, date: str, name: str, address: str | None = None,
                      per_address: bool = True) -> str | None: ...

    def attempt_refusal(self, date: str, name: str, address: str | None = None,
                        per_address: bool = True) -> str | None: ...

    def has_played(self, date: str, name: str) -> bool: ...

    def sealed(self, date: str, today: str) -> bool: ...

    def return_attempt(self, date: str, name: str) -> None: ...

    def leaderboard(self, date: str) -> list[dict]: ...

    def closed_days(self, today: str, limit: int = 7,
                    work_out_par: bool = True) -> list[dict]: ...

    def log_file(self, date: str, name: str) -> str | None: ...


class RankedResults(Protocol):
    def finish(self, run_id: int, score: int, duration_ms: int, gave_up: str | None,
               log_file: str | None, tool_assisted: bool = False) -> None: ...


class RankedBook(RankedResults, Protocol):
    """Ranked runs: attempts and boards (``ranked.RankedStore``)."""

    def start(self, name: str, ruleset: str, hints: bool, date: str) -> tuple[int, int]: ...

    def attempts(self, name: str) -> int: ...

    def return_run(self, run_id: int) -> None: ...

    def board(self, ruleset: str, hints: bool, limit: int = 20,
              tool_assisted: bool = False) -> list[dict]: ...


class GameJournal(Protocol):
    """One running game's journal (``journal.Journal``): its moves and its end on disk."""

    def moved(self, encoded_record: bytes) -> None:
        """A record was appended to the game's log (its logged bytes)."""
        ...

    def ended(self, log_file: str | None, then: Callable[[], None]) -> None:
        """The game finished and its log was written (None: the write failed); ``then``
        (telling the players) runs once the end is on disk, or the disk refused it."""
        ...

    def when_durable(self, then: Callable[[], None]) -> None:
        """``then`` runs once what the journal holds so far is on disk (or the disk refused)."""
        ...

    def settled(self, log_file: str) -> None:
        """The finished log (``log_file``) and results were written at last: once the log
        is durable the journal is not needed."""
        ...


class JournalBook(Protocol[T_contra]):
    """The relay's journals (``journal.Journals``)."""

    def opened(self, table: T_contra) -> GameJournal | None:
        """A table's game started: its journal (None when none could be opened)."""
        ...


class TableServices(Protocol[T_contra]):
    """What a table needs from its relay: the game clock (turns, bots' pacing), the
    advisor, somewhere to write its finished log and results, and to be forgotten."""

    @property
    def clock(self) -> Clock: ...

    @property
    def auto(self) -> Advisor: ...

    @property
    def bot_delay(self) -> float:
        """Seconds of game time a bot waits before each action while people watch."""
        ...

    @property
    def logs(self) -> LogBook: ...

    @property
    def daily(self) -> DailyResults: ...

    @property
    def ranked(self) -> RankedResults: ...

    @property
    def journals(self) -> JournalBook[T_contra]: ...

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as a task the relay cancels when it closes."""
        ...

    def purge(self, table: T_contra) -> None:
        """A finished table is forgotten (late resumes are over)."""
        ...

    def unfinished(self, retry: Callable[[], bool]) -> None:
        """A finished game's log or result could not be written: ``retry`` is called
        every few seconds until it returns True (it wrote them)."""
        ...


# ---------------------------------------------------------------- caps (caps.py)
class RateBuckets(Protocol):
    def take(self, kind: str, address: str | None, burst: float, every: float) -> bool: ...


class AddressCount(Protocol[T_contra]):
    def count(self, address: str | None) -> int: ...
    def add(self, address: str | None, item: T_contra) -> None: ...


class Notices(Protocol[T_contra]):
    def changed(self, item: T_contra) -> None: ...


# ---------------------------------------------------------------- what handlers use
class RelayServices(TableServices[T], Protocol[C_contra, T, S]):
    """What the message handlers need: the table services, the relay's tables and seats
    by code and resume token, and the moves of a connection between seats."""

    @property
    def limits(self) -> Limits: ...

    @property
    def signer(self) -> Signer: ...

    def seal(self) -> None:
        """Sign and send the moves waiting for their batch signature: before a connection
        joins a table's receivers and reads its snapshot (it would get a move twice)."""
        ...

    @property
    def daily(self) -> DailyBook: ...

    @property
    def ranked(self) -> RankedBook: ...

    @property
    def daily_per_address(self) -> bool: ...

    @property
    def disk_full(self) -> bool:
        """The relay cannot write its data folder now (daily and ranked are refused)."""
        ...

    @property
    def tables(self) -> dict[str, T]: ...

    @property
    def tokens(self) -> dict[str, S]: ...

    @property
    def buckets(self) -> RateBuckets: ...

    @property
    def ranked_running(self) -> AddressCount[T]: ...

    @property
    def watch_notices(self) -> Notices[T]: ...

    def open_lobbies(self) -> list[T]:
        """Tables not yet started, oldest first (without walking every table)."""
        ...

    def free_conn(self, conn: C_contra) -> None: ...

    def watchers_from(self, address: str | None) -> int:
        """Connections from ``address`` watching a table now (a cap per address)."""
        ...

    def attach(self, conn: C_contra, slot: S) -> None: ...

    def detach(self, conn: C_contra) -> None: ...

    def stop_watching(self, conn: C_contra) -> None: ...

    def open_table(self, conn: C_contra, table: T, slot: S) -> None: ...

    def leave_lobby(self, table: T, slot: S) -> None: ...


# ---------------------------------------------------------------- discovery
class DiscoveryHost(Protocol[T_co]):
    """What the discovery answer needs: the relay's port and its tables."""

    @property
    def port(self) -> int | None: ...

    @property
    def tables(self) -> Mapping[str, T_co]: ...

    def net_time(self) -> float: ...
