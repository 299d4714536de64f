"""The Bonanza relay: tables, ordering, the turn clock, fair dice, the daily challenge.

``Relay`` holds what lives as long as the relay: the listening socket, connections,
tables, resume tokens, the finished-log folder, the daily database and the one
clock.  Its modules, one concern each:

* ``connection``: a connection, its framing and limits;
* ``handlers``: one function per client message;
* ``tables``: seats, the game's ``Match``, the turn clock, automatic moves, bots;
* ``logs``: finished logs on disk;  ``daily``: the daily challenge's database;
* ``clock``: the one injectable clock;  ``cli``: the command line (``bonanza-relay``).

Those modules know the relay only through the protocols of ``services`` (a connection's
host, a table's services, the handlers' services), which ``Relay`` implements.

The wire protocol is described in docs/protocol.md.
"""
from __future__ import annotations

import asyncio
import errno
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any, Callable, Coroutine

from bonanza.core.signing import BatchSigner

from . import folder_lock
from .auto import Auto
from .caps import Buckets, Coalesced, RunningPerAddress
from .clock import RealClock
from .connection import Conn, Refuse, error_msg
from .daily import DailyStore
from .handlers import HANDLERS
from .journal import COMMIT_EVERY, Journals, restore
from .keys import load_or_create
from .limits import Limits
from .logs import LogFolder
from .ranked import RankedStore
from .services import Clock, Timer
from .tables import FINISHED_KEEP, Slot, Table

log = logging.getLogger("bonanza.relay")

DAILY_ABANDON = 1800.0         # a daily game nobody is connected to for this long is given up
DAILY_LIMIT = 3 * 3600.0       # a daily attempt ends (given up) this long after it started,
                               # so no open attempt keeps a closed day's seed sealed for long

__all__ = ["Relay", "Limits", "Refuse", "error_msg", "DAILY_ABANDON", "DAILY_LIMIT",
           "FINISHED_KEEP"]


_SQLITE_DISK = (8, 10, 13, 14)   # SQLITE_READONLY, _IOERR, _FULL, _CANTOPEN


def _disk_refused(e: BaseException) -> bool:
    """An error that says the data folder refuses writes (full, quota, read-only)."""
    if isinstance(e, OSError):
        return e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)
    if isinstance(e, sqlite3.Error):
        code = getattr(e, "sqlite_errorcode", None)   # its primary code: the low byte
        return (isinstance(code, int) and code & 0xFF in _SQLITE_DISK) or "disk is full" in str(e)
    return False


class Relay:
    def __init__(self, data_dir: str | os.PathLike, clock: Clock | None = None,
                 bot_delay: float = 0.6, limits: Limits | None = None, auto: Auto | None = None,
                 idle_exit: float | None = None,
                 daily_per_address: bool = True, discovery: tuple[str, int] | None = None,
                 name: str | None = None):
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock: int | None = folder_lock.hold(self.data_dir)   # one relay per folder
        try:
            self._open(clock, bot_delay, limits, auto, idle_exit, daily_per_address, discovery,
                       name)
        except BaseException:
            self._release()
            raise

    def _open(self, clock: Clock | None, bot_delay: float, limits: Limits | None,
              auto: Auto | None, idle_exit: float | None, daily_per_address: bool,
              discovery: tuple[str, int] | None, name: str | None) -> None:
        self.clock: Clock = clock or RealClock()
        self.logs = LogFolder(self.data_dir / "logs", self.clock)
        self.logs_dir = self.logs.folder
        self.bot_delay = bot_delay     # game seconds a bot waits per action while people watch
        self.limits = limits or Limits()
        self.daily_per_address = daily_per_address   # one daily attempt per connecting address
        self.auto = auto or Auto()
        # Running games' journals (journal.py): read back now, so the stores leave the
        # attempts and runs they resume open; the tables resume in ``start``.
        self.journals = Journals(self.data_dir / "journal", self._disk_error, self.logs.folder)
        self._disk_failing = False
        self._unfinished: list[Callable[[], bool]] = []   # finished games not yet on disk
        self._failed_handlers: set[tuple[str, str]] = set()   # (message, error) logged
        self._found = self.journals.found()
        self.journals.begin()     # this run's own segment: never one a crash may have torn
        keep_daily, keep_ranked = self.journals.keep_open(self._found, self.clock.today())
        self.daily = DailyStore(self.data_dir / "daily.sqlite3", keep_daily)
        self.ranked = RankedStore(self.data_dir / "ranked.sqlite3", keep_ranked)
        # The relay's long-lived key: it signs every record, so a finished log proves
        # which relay dealt its dice (clients show and remember its fingerprint).
        # Under load it signs the records of one pass of the event loop together (a batch
        # signature, docs/fairness.md 7): sealed before anything of that pass is sent.
        self.signer = BatchSigner.of(load_or_create(self.data_dir / "relay.key"))
        self.signer.on_open = self._seal_soon
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, Slot] = {}
        # caps per address (caps.py): buckets of new ranked runs, rematches and watches,
        # the ranked runs each address has going, and watcher counts told at most once
        # a second; the open lobbies apart, so a list never walks every running game
        self.buckets = Buckets(self.clock)
        self.ranked_running: RunningPerAddress[Table] = RunningPerAddress(lambda t: t.running)
        self.watch_notices: Coalesced[Table] = Coalesced(
            self.clock, self.limits.watchers_notice,
            lambda t: t.send_each({"type": "table", "table": t.info()}))
        self._lobbies: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self._per_address: dict[str | None, int] = {}   # open connections by address
        self.server: asyncio.AbstractServer | None = None
        self.port: int | None = None
        # With idle_exit, ``idle`` is set once the relay has had no connection and no
        # running game for that many seconds (a hosted relay whose window is gone).
        self.idle_exit = idle_exit
        self.idle = asyncio.Event()
        self._idle_since: float | None = None
        self._tasks: set[asyncio.Task] = set()
        self._net_timer: asyncio.TimerHandle | None = None
        self._game_timer: Timer | None = None
        self._to_flush: list[Conn] = []
        self._flushing = False          # a _flush is scheduled
        self._closed = False
        # UDP discovery (relay/discovery.py): where to listen, (host, port); port 0 is any
        # free one (tests).  None: the relay is not announced.
        self.discovery = discovery
        self.discovery_port: int | None = None
        self.discovery_protocol: Any = None
        self._discovery_transport: asyncio.BaseTransport | None = None
        self.name = name

    # ------------------------------------------------------------ life
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self.auto.start()
        loop = asyncio.get_running_loop()
        found, self._found = self._found, []
        if found:
            counts = restore(self, self.journals, found)
            log.warning("resumed from journals: %(resumed)d games; %(finished)d finished, "
                        "%(ended)d ended by the relay, %(damaged)d damaged", counts)
        self.journals.after_restore()
        self.server = await loop.create_server(lambda: Conn(self), host, port)
        self.port = self.server.sockets[0].getsockname()[1]
        self._net_timer = loop.call_later(self.limits.housekeeping, self._net_housekeeping)
        if self.discovery is not None:
            from . import discovery
            try:
                self._discovery_transport, self.discovery_protocol, self.discovery_port = \
                    await discovery.listen(self, self.discovery[0], self.discovery[1], self.name)
            except OSError as e:   # tables still work; they are just not announced
                log.warning("cannot answer discovery on UDP %s:%s: %s", *self.discovery,
                            e.strerror or e)
        self._game_timer = self.clock.call_later(self.limits.housekeeping,
                                                 self._game_housekeeping)
        return self.port

    async def close(self) -> None:
        self._closed = True
        self.signer.seal()          # the moves made are sent and journaled first
        if self.server is not None:
            self.server.close()
        if self._discovery_transport is not None:
            self._discovery_transport.close()
        # Games go on after a restart (their journals): the players are told so first.
        for c in list(self.conns):
            c.send({"type": "restarting", "message": "the relay is restarting"})
        for c in list(self.conns):
            c.close("relay shutting down", linger=False)
        for t in list(self._tasks):
            t.cancel()
        for timer in (self._net_timer, self._game_timer):
            if timer is not None:
                timer.cancel()
        for table in self.tables.values():
            table.stop_timer()
        await self.journals.quiesce()
        self.journals.close_all()
        await asyncio.sleep(0)
        self.daily.close()
        self.ranked.close()
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            folder_lock.release(self._lock)
            self._lock = None

    def _disk_error(self, err: OSError | None) -> None:
        """The journals' disk failed (``err``) or works again (None): one line for the
        operator each way; while it fails, new daily and ranked games are refused."""
        if err is not None and not self._disk_failing:
            log.error("cannot write to the data folder %s: %s; games go on, their journals "
                      "are kept in memory and written again every %g s",
                      self.data_dir, err.strerror or err, COMMIT_EVERY)
        elif err is None and self._disk_failing:
            log.warning("the data folder %s is writable again", self.data_dir)
        self._disk_failing = err is not None

    @property
    def disk_full(self) -> bool:
        """The data folder refuses writes (a journal, a finished log or a result is
        waiting for it): daily and ranked games are refused until it takes them."""
        return self._disk_failing or bool(self._unfinished)

    def unfinished(self, retry: Callable[[], bool]) -> None:
        self._unfinished.append(retry)

    def _retry_disk(self) -> None:
        """While the disk refuses: the finished games' logs and results are written
        again, and with no journal to show it, a small probe tells when it works again."""
        waiting, self._unfinished = self._unfinished, []
        for retry in waiting:
            try:
                done = retry()
            except Exception:  # pragma: no cover - a retry must never stop the others
                log.exception("writing a finished game again failed")
                done = False
            if not done:
                self._unfinished.append(retry)
        if self._disk_failing and not self.journals.open:
            probe = self.journals.folder / ".probe"
            try:
                fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    os.write(fd, bytes(4096))
                    os.fsync(fd)
                finally:
                    os.close(fd)
                    os.unlink(probe)
            except OSError:
                return
            self._disk_error(None)

    def net_time(self) -> float:
        """The event loop's clock, for connection liveness only (see ``connection``)."""
        return asyncio.get_running_loop().time()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("relay task failed", exc_info=task.exception())

    # ------------------------------------------------------------ connections (ConnectionHost)
    def register(self, conn: Conn) -> None:
        self.conns.add(conn)
        address = conn.address
        n = self._per_address[address] = self._per_address.get(address, 0) + 1
        if address is not None and n > self.limits.conns_per_address:
            conn.send(error_msg("too_many_connections", f"at most "
                                f"{self.limits.conns_per_address} connections per address"))
            conn.close("too many connections")

    def forget(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            n = self._per_address.get(conn.address, 1) - 1
            if n > 0:
                self._per_address[conn.address] = n
            else:
                self._per_address.pop(conn.address, None)

    def watchers_from(self, address: str | None) -> int:
        """Connections from ``address`` watching a table now."""
        return sum(1 for c in self.conns if c.watching is not None and c.address == address)

    def flushing(self) -> list[Conn]:
        """The connections whose frames are written once, after this iteration's work."""
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)
        return self._to_flush

    @property
    def sealing(self) -> bool:
        return bool(self.signer.waiting)

    def seal(self) -> None:
        self.signer.seal()

    def write_journal(self) -> None:
        self.signer.seal()             # the moves made join what is sent next
        self.journals.write_out()      # journaled (handed to the system) before anyone sees them

    def _seal_soon(self) -> None:
        """A batch of records opened: it is signed (and its moves sent) once this pass of
        the event loop is done, or as soon as anything else is to be sent."""
        if self._flushing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:        # no loop (a table driven synchronously): at once
            self.signer.seal()
            return
        self._flushing = True
        loop.call_soon(self._flush)

    def _flush(self) -> None:
        self.write_journal()
        self._flushing = False
        conns, self._to_flush = self._to_flush, []
        for c in conns:
            c.flush()

    # ------------------------------------------------------------ housekeeping
    def _net_housekeeping(self) -> None:
        """Hello deadlines, pings and idle connections, on the loop's clock."""
        if self._closed:
            return
        self._net_timer = asyncio.get_running_loop().call_later(self.limits.housekeeping,
                                                                self._net_housekeeping)
        if self.disk_full:
            self._retry_disk()
        lim = self.limits
        now = self.net_time()
        for c in list(self.conns):
            if c.closed:
                continue
            if not c.greeted and now - c.opened > lim.hello_timeout:
                c.send(error_msg("bad_message", "no hello in time"))
                c.close("hello timeout")
            elif now - c.last_rx > lim.idle_timeout:
                c.close("idle", abort=True)
            elif now - c.last_rx > lim.ping_interval and not c.pinged:
                c.pinged = True
                c.send({"type": "ping"})

    def _game_housekeeping(self) -> None:
        """Abandoned daily games and the idle exit, on the relay's clock."""
        if self._closed:
            return
        self._game_timer = self.clock.call_later(self.limits.housekeeping,
                                                 self._game_housekeeping)
        try:
            self.housekeeping_pass()
        except Exception:  # one bad pass must not end deadlines for every later one
            log.exception("housekeeping pass failed")

    def housekeeping_pass(self) -> None:
        now = self.clock.now()
        # At most ``expiries_per_pass`` games end per pass: thousands abandoned at once end
        # over the next seconds instead of stalling every table in one pass.
        budget = self.limits.expiries_per_pass
        for table in list(self.tables.values()):
            # a daily attempt or a ranked run nobody plays must end (and be counted)
            if table.mode not in ("daily", "ranked") or not table.running:
                continue
            started = table.started_at if table.started_at is not None else now
            abandon = self.limits.ranked_abandon if table.mode == "ranked" else DAILY_ABANDON
            if ((table.slots[0].conn is None and now - table.slots[0].last_seen > abandon)
                    or now - started > DAILY_LIMIT):
                table.give_up(0, "away")
                budget -= 1
                if budget <= 0:
                    break
        if self.idle_exit is None:
            return
        if self.conns or any(t.running for t in self.tables.values()):
            self._idle_since = None
        elif self._idle_since is None:
            self._idle_since = now
        elif now - self._idle_since >= self.idle_exit:
            self.idle.set()

    # ------------------------------------------------------------ dispatch
    def dispatch(self, conn: Conn, msg: dict) -> None:
        kind = msg["type"]
        rid = msg.get("rid")
        if rid is not None and not (type(rid) is int or (isinstance(rid, str) and len(rid) <= 64)):
            # A client waiting for its answer by this rid would wait for ever: say so.
            conn.send(error_msg("bad_message", "rid must be an integer or a string of at "
                                               "most 64 characters; the message was ignored"))
            return
        if not conn.greeted and kind != "hello":
            conn.send(error_msg("bad_message", "the first message must be hello", rid))
            conn.close("no hello")
            return
        verdict = conn.allow()
        if verdict == "kill":
            conn.send(error_msg("flooding", f"more than {self.limits.kill_burst:g} messages "
                                            "over the rate limit: the connection is closed", rid))
            conn.close("flood")
            return
        if verdict != "ok":
            conn.send(error_msg("rate_limited", "too many messages: slow down", rid))
            return
        handler = HANDLERS.get(kind)
        if handler is None:
            conn.send(error_msg("bad_message", f"unknown message type {kind[:40]!r}", rid))
            conn.close("unknown type")
            return
        try:
            handler(self, conn, msg, rid)
        except Refuse as r:
            conn.send(error_msg(r.code, r.message, rid))
            if r.close:
                conn.close(r.code)
        except Exception as e:
            # The relay failed, not the message: never "did not understand".  The operator
            # gets the traceback once per message type and error, then one line.
            if _disk_refused(e):
                self._disk_error(e if isinstance(e, OSError) else OSError(errno.ENOSPC, str(e)))
                conn.send(error_msg("relay_disk_full", "the relay cannot write to its disk "
                                                       "now; try again later", rid))
                return
            what = (kind, type(e).__name__)
            if what in self._failed_handlers:
                log.error("handler %s failed again: %s: %s", kind, type(e).__name__, e)
            else:
                self._failed_handlers.add(what)
                log.exception("handler %s failed", kind)
            conn.send(error_msg("internal_error", "the relay failed while handling this "
                                                  "message; its operator can see why", rid))

    # ------------------------------------------------------------ seats and connections
    def stop_watching(self, conn: Conn) -> None:
        table = conn.watching
        conn.watching = None
        if table is not None and conn in table.watchers_conns:
            table.watchers_conns.discard(conn)
            self.watch_notices.changed(table)

    def open_lobbies(self) -> list[Table]:
        """Tables not yet started, oldest first: only the lobbies are walked (at most
        ``limits.lobbies`` of them, and those that started or closed since), never every
        running game."""
        for code, t in list(self._lobbies.items()):
            if t.started or t.revealing is not None or self.tables.get(code) is not t:
                del self._lobbies[code]
        return list(self._lobbies.values())

    def free_conn(self, conn: Conn) -> None:
        """Refuse when the connection holds a live seat; detach it from a finished one,
        and from a table it watched."""
        self.stop_watching(conn)
        slot = conn.slot
        if slot is None:
            return
        table = slot.table
        st = table.match.state if table.match else None
        if table.finished or (st is not None and st.has_given_up(slot.index)):
            self.detach(conn)
            return
        raise Refuse("already_seated", "leave your table first")

    def attach(self, conn: Conn, slot: Slot) -> None:
        if conn.slot is not None and conn.slot is not slot:
            self.detach(conn)
        old = slot.conn
        if old is not None and old is not conn:
            old.slot = None
            old.send(error_msg("replaced", "this seat was resumed from another connection"))
            old.close("replaced")
        slot.conn = conn
        slot.autos = 0
        slot.last_seen = self.clock.now()
        conn.slot = slot

    def detach(self, conn: Conn) -> None:
        slot = conn.slot
        conn.slot = None
        if slot is not None and slot.conn is conn:
            slot.conn = None
            slot.last_seen = self.clock.now()

    def open_table(self, conn: Conn, table: Table, slot: Slot) -> None:
        """A new table with ``slot`` as its host, seated on ``conn``."""
        table.slots.append(slot)
        table.host = slot
        self.tables[table.code] = table
        if table.mode == "table":
            self._lobbies[table.code] = table
        if slot.token is not None:
            self.tokens[slot.token] = slot
        self.attach(conn, slot)

    def leave_lobby(self, table: Table, slot: Slot) -> None:
        table.slots.remove(slot)
        if slot.token is not None:
            self.tokens.pop(slot.token, None)
        # (a daily lobby's seats use their attempts at the start: leaving costs nothing)
        table.reindex()
        if not table.slots:
            self.tables.pop(table.code, None)
            self.watch_notices.forget(table)
            return
        if table.host is slot:
            table.host = table.slots[0]
        table.send_each({"type": "table", "table": table.info()})

    def purge(self, table: Table) -> None:
        """A finished table is forgotten after FINISHED_KEEP (late resumes are over)."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        self.watch_notices.forget(table)
        for c in list(table.watchers_conns):
            c.watching = None
        table.watchers_conns.clear()
        for s in table.slots:
            if s.token:
                self.tokens.pop(s.token, None)

    def on_disconnect(self, conn: Conn) -> None:
        self.stop_watching(conn)
        slot = conn.slot
        if slot is None or slot.conn is not conn:
            conn.slot = None
            return
        self.detach(conn)
        table = slot.table
        if not table.started and table.revealing is None:
            if slot in table.slots:
                self.leave_lobby(table, slot)
        elif not table.finished:
            table.send_each({"type": "table", "table": table.info()})
