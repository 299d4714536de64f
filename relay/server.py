"""The Bonanza relay: tables, ordering, the turn clock, fair dice, the daily challenge.

``bonanza-relay --host H --port P [--data DIR] [--bot-delay S]``.  The wire
protocol is described in docs/protocol.md.  Everything that decides the game
goes through ``core``: the relay builds each intent into a core move, lets
``core`` check it, and only then appends it to the table's log and broadcasts it.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import math
import os
import secrets
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from collections.abc import Sequence
from typing import Any, Callable

import msgpack

from core import dice as dice_mod
from core.game import MAX_SEATS, IllegalMove, Seat, apply, standings
from core.log import MAGIC as LOG_MAGIC
from core.match import Match
from core.rules import RULESETS

from .auto import Auto
from .clock import RealClock
from .daily import DailyStore
from .framing import (LENGTH, MAX_CLIENT_FRAME, PROTOCOL_VERSION, FrameError, decode_body,
                      pack_frame)

log = logging.getLogger("bonanza.relay")

TURN_SECONDS = (30, 45, 60, 90)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
BOT_NAMES = ("Ada", "Bram", "Chloé", "Duarte", "Elif", "Femke")
BOT_POLICIES = ("casual", "optimal")    # core.bots policies a host may choose
BOT_POLICY = "casual"                   # the default for empty seats
AWAY_LIMIT = 3                 # automatic turns while disconnected before the seat gives up
FINISHED_KEEP = 600.0          # seconds a finished table stays for late resumes
DAILY_ABANDON = 1800.0         # a daily game nobody is connected to for this long is given up
MAX_NAME = 24
NONE5 = [False] * 5
CLOCK_EPS = 1e-3               # seconds: timers may fire this early
ANNOUNCE_EVERY = 5            # a "clock" message every 5 s of a human's turn,
ANNOUNCE_LAST = 10            # and every second in its last 10 s


@dataclass
class Limits:
    max_frame: int = MAX_CLIENT_FRAME
    hello_timeout: float = 10.0
    ping_interval: float = 15.0
    idle_timeout: float = 45.0
    rate: float = 30.0            # messages per second, sustained
    burst: float = 60.0           # bucket size
    kill_burst: float = 200.0     # this far over the limit the connection is closed
    send_queue: int = 1 << 20     # bytes waiting for a reader before it is dropped
    housekeeping: float = 1.0     # seconds between idle / hello checks
    sndbuf: int | None = None     # SO_SNDBUF for accepted sockets (tests of slow readers)

    def to_wire(self) -> dict:
        return {"max_frame": self.max_frame, "rate": self.rate, "burst": self.burst,
                "hello_timeout": self.hello_timeout, "ping_interval": self.ping_interval,
                "idle_timeout": self.idle_timeout}


class Refuse(Exception):
    def __init__(self, code: str, message: str, close: bool = False):
        super().__init__(message)
        self.code = code
        self.message = message
        self.close = close


def error_msg(code: str, message: str, rid: Any = None) -> dict:
    msg = {"type": "error", "code": code, "message": message}
    if rid is not None:
        msg["rid"] = rid
    return msg


# ---------------------------------------------------------------- connections

class Conn(asyncio.Protocol):
    """One client connection: frames are parsed in ``data_received`` and dispatched at once.

    Outgoing frames are collected per connection and written once per event-loop
    iteration (``Relay._flush``), so several frames for one client cost one ``send``.
    The bytes waiting (ours plus the transport's buffer) are the bounded send queue.
    """

    def __init__(self, relay: "Relay"):
        self.relay = relay
        self.transport: asyncio.Transport | None = None
        self.buf = b""                 # an incomplete frame, at most max_frame + 4 bytes
        self.out: list[bytes] = []     # frames waiting for this iteration's flush
        self.out_size = 0
        now = time.monotonic()
        self.opened = self.last_rx = self.t_tokens = now
        self.tokens = relay.limits.burst
        self.greeted = False
        self.pinged = False
        self.closed = False
        self.slot: Slot | None = None

    # ------------------------------------------------------------ asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        lim = self.relay.limits
        if lim.sndbuf:
            import socket
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, lim.sndbuf)
        # Ask to be told (pause_writing) well before the queue limit; the limit itself is
        # checked on every flush.
        transport.set_write_buffer_limits(high=lim.send_queue // 2)
        self.relay.conns.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.out.clear()
        self.close("end of stream")
        self.relay.conns.discard(self)

    def pause_writing(self) -> None:   # the client reads slowly; the queue check drops it
        pass

    def resume_writing(self) -> None:
        pass

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        if self.buf:
            data = self.buf + data
        relay = self.relay
        max_frame = relay.limits.max_frame
        pos, size = 0, len(data)
        unpack_len = LENGTH.unpack_from
        try:
            while size - pos >= 4:
                (n,) = unpack_len(data, pos)
                if n == 0 or n > max_frame:     # checked before any of the body is read
                    raise FrameError(f"frame length {n} is outside 1..{max_frame}")
                end = pos + 4 + n
                if end > size:
                    break
                msg = decode_body(data[pos + 4:end], max_frame)
                pos = end
                self.last_rx = time.monotonic()
                self.pinged = False
                relay.dispatch(self, msg)
                if self.closed:
                    return
        except FrameError as e:
            self.send(error_msg("bad_message", str(e)))
            self.close("bad frame")
            return
        except Exception:  # pragma: no cover - never let one connection take the relay down
            log.exception("connection handler failed")
            self.close("handler failed", abort=True)
            return
        self.buf = data[pos:] if pos < size else b""

    # ------------------------------------------------------------ sending
    def send_frame(self, frame: bytes) -> None:
        if self.closed:
            return
        if not self.out:
            self.relay._dirty(self)
        self.out.append(frame)
        self.out_size += len(frame)
        if self.out_size > self.relay.limits.send_queue:
            self.close("send queue full", abort=True)

    def send(self, msg: dict) -> None:
        if not self.closed:
            self.send_frame(pack_frame(msg))

    def flush(self) -> None:
        out = self.out
        if not out or self.closed:
            return
        transport = self.transport
        transport.write(out[0] if len(out) == 1 else b"".join(out))
        out.clear()
        self.out_size = 0
        if transport.get_write_buffer_size() > self.relay.limits.send_queue:
            self.close("send queue full", abort=True)

    def close(self, reason: str = "", abort: bool = False) -> None:
        if self.closed:
            return
        if not abort:
            self.flush()          # a last error message goes out before the close
        self.closed = True
        self.out.clear()
        try:
            self.transport.abort() if abort else self.transport.close()
        except Exception:  # pragma: no cover - transport already gone
            pass
        self.relay.on_disconnect(self)

    def allow(self) -> str:
        """Token bucket: "ok", "limited" (drop the message) or "kill"."""
        lim = self.relay.limits
        now = time.monotonic()
        self.tokens = min(lim.burst, self.tokens + (now - self.t_tokens) * lim.rate)
        self.t_tokens = now
        self.tokens -= 1
        if self.tokens >= 0:
            return "ok"
        return "kill" if self.tokens < lim.burst - lim.kill_burst else "limited"


# ---------------------------------------------------------------- tables

class Slot:
    """A seat: a human (with a resume token and maybe a connection) or a bot."""

    def __init__(self, table: "Table", name: str, kind: str = "human",
                 contribution: bytes | None = None, policy: str | None = None):
        self.table = table
        self.name = name
        self.kind = kind
        self.contribution = contribution
        self.policy = policy
        self.token = secrets.token_hex(16) if kind == "human" else None
        self.conn: Conn | None = None
        self.autos = 0            # automatic turns in a row while disconnected
        self.index = 0
        self.last_seen = time.monotonic()


class Table:
    def __init__(self, code: str, mode: str, ruleset: str, nseats: int,
                 turn_seconds: int | None, seed: bytes):
        self.code = code
        self.mode = mode
        self.ruleset = ruleset
        self.nseats = nseats
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.commitment = dice_mod.commitment(seed)
        self.slots: list[Slot] = []
        self.host: Slot | None = None
        self.match: Match | None = None
        self.held = list(NONE5)
        self.turn_id: tuple | None = None
        self.timer = None                      # the table's one clock timer (Relay._arm)
        self.timer_at: float | None = None     # when it fires
        self.deadline: float | None = None     # the end of the active human seat's turn
        self.announce_at: float | None = None  # the next "clock" announcement
        self.bot_turn: tuple | None = None     # the turn a bot task was started for
        self.finished = False
        self.end_msg: dict | None = None
        self.daily_date: str | None = None
        self.bots: str | list[str] = BOT_POLICY   # as the host set it (create_table "bots")

    def bot_policy(self, k: int) -> str:
        """The policy of the k-th bot seated at the start (0-based, in seat order)."""
        if isinstance(self.bots, str):
            return self.bots
        return self.bots[k] if k < len(self.bots) else BOT_POLICY

    @property
    def started(self) -> bool:
        return self.match is not None

    def reindex(self) -> None:
        for i, s in enumerate(self.slots):
            s.index = i

    def name_taken(self, name: str, exclude: Slot | None = None) -> bool:
        key = name.casefold()
        return any(s is not exclude and s.name.casefold() == key for s in self.slots)

    def watchers(self) -> bool:
        return any(s.conn is not None for s in self.slots)

    def info(self) -> dict:
        st = self.match.state if self.match else None
        return {
            "code": self.code, "mode": self.mode, "ruleset": self.ruleset, "seats": self.nseats,
            "turn_seconds": self.turn_seconds, "bots": self.bots,
            "host": self.host.index if self.host is not None else None,
            "started": self.started, "finished": self.finished, "commitment": self.commitment,
            "players": [self._player(s, st) for s in self.slots],
        }

    @staticmethod
    def _player(s: Slot, st) -> dict:
        p = {"seat": s.index, "name": s.name, "kind": s.kind,
             "connected": s.kind == "bot" or s.conn is not None,
             "playing": st is None or not st.has_given_up(s.index)}
        if s.kind == "bot":
            p["policy"] = s.policy
        return p

    def send_each(self, msg: dict, sender: Conn | None = None, rid: Any = None) -> None:
        """Send ``msg`` to every connected seat with its own ``seat`` index added."""
        for s in self.slots:
            if s.conn is not None:
                m = dict(msg, seat=s.index)
                if s.conn is sender and rid is not None:
                    m["rid"] = rid
                s.conn.send(m)

    def broadcast_move(self, encoded_record: bytes, clock: dict | None,
                       sender: Conn | None = None, rid: Any = None) -> None:
        frame = None
        for s in self.slots:
            c = s.conn
            if c is None:
                continue
            if c is sender and rid is not None:
                c.send_frame(move_frame(encoded_record, clock, rid))
            else:
                if frame is None:
                    frame = move_frame(encoded_record, clock)
                c.send_frame(frame)

    def broadcast(self, msg: dict, sender: Conn | None = None, rid: Any = None) -> None:
        frame = None
        for s in self.slots:
            c = s.conn
            if c is None:
                continue
            if c is sender and rid is not None:
                c.send(dict(msg, rid=rid))
            else:
                if frame is None:
                    frame = pack_frame(msg)
                c.send_frame(frame)


# ---------------------------------------------------------------- move records

_packb = msgpack.Packer(use_bin_type=True).pack     # core.log.pack's encoding
_CHAIN_KEY = _packb("chain")
_MOVE_HEAD = b"\x83" + _packb("type") + _packb("move") + _packb("record")
_MOVE_HEAD_RID = b"\x84" + _MOVE_HEAD[1:]
_CLOCK_KEY = _packb("clock")
_RID_KEY = _packb("rid")


class PackedRecords(Sequence):
    """A table log's move records, kept as their msgpack encodings (``GameLog.records``).

    The relay reads its records only to resume a seat and to write the finished log.  As
    dicts they would be a few hundred small containers per game (and finished tables are
    kept for FINISHED_KEEP) that every full garbage collection walks: pauses of 50-100 ms
    that stall every table.  Bytes are not tracked by the collector; a record is decoded
    when it is read, to exactly the dict that was encoded."""

    __slots__ = ("encoded", "last_chain")

    def __init__(self) -> None:
        self.encoded: list[bytes] = []
        self.last_chain: bytes | None = None

    def __len__(self) -> int:
        return len(self.encoded)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [_unpackb(e) for e in self.encoded[i]]
        return _unpackb(self.encoded[i])

    def __iter__(self):
        return (_unpackb(e) for e in self.encoded)


def log_bytes(game_log) -> bytes:
    """``core.log.GameLog.to_bytes`` of a log with PackedRecords, without decoding and
    re-encoding every record (they are already in canonical encoding; tests compare)."""
    records = game_log.records
    if not isinstance(records, PackedRecords):
        return game_log.to_bytes()
    parts = [LOG_MAGIC, _packb(game_log.header), *records.encoded]
    if game_log.end is not None:
        parts.append(_packb(game_log.end))
    return b"".join(parts)


def _unpackb(data: bytes) -> dict:
    return msgpack.unpackb(data, raw=False)


def append_record(game_log, move: dict, state) -> bytes:
    """``core.log.GameLog.append`` for a log whose ``records`` are PackedRecords; returns
    the record's msgpack encoding.

    The record is encoded once: the chain hashes the bytes without ``chain`` (a 4-entry
    map), and the stored and broadcast record is the same bytes as a 5-entry map with
    ``chain`` added, which is exactly how msgpack encodes the record dict (tests compare
    with ``core.log.move_record``).
    """
    records: PackedRecords = game_log.records
    previous = records.last_chain if records.encoded else game_log.header["chain"]
    body = _packb({"kind": "move", "seq": state.seq, "move": move, "state": state.state_hash()})
    chain = hashlib.sha256(previous + body).digest()
    encoded = b"\x85" + body[1:] + _CHAIN_KEY + _packb(chain)
    records.encoded.append(encoded)
    records.last_chain = chain
    return encoded


def move_frame(encoded_record: bytes, clock: dict | None, rid: Any = None) -> bytes:
    """The frame of ``{"type": "move", "record": ..., "clock": ...[, "rid": ...]}``."""
    parts = [_MOVE_HEAD if rid is None else _MOVE_HEAD_RID, encoded_record,
             _CLOCK_KEY, _packb(clock)]
    if rid is not None:
        parts += [_RID_KEY, _packb(rid)]
    body = b"".join(parts)
    return LENGTH.pack(len(body)) + body


# ---------------------------------------------------------------- validation

def _name(value: Any) -> str:
    if not isinstance(value, str):
        raise Refuse("bad_settings", "a name must be text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise Refuse("bad_settings", f"a name has 1 to {MAX_NAME} printable characters")
    return name


def _contribution(value: Any) -> bytes:
    if not isinstance(value, bytes) or len(value) != dice_mod.SEED_BYTES:
        raise Refuse("bad_message", "the contribution must be 32 random bytes (msgpack bin)",
                     close=True)
    return value


def _bots(value: Any, seats: int) -> str | list[str]:
    """create_table's ``bots``: one policy for every empty seat, or a list, one per bot."""
    if value is None:
        return BOT_POLICY
    if isinstance(value, str) and value in BOT_POLICIES:
        return value
    if (isinstance(value, list) and 1 <= len(value) <= seats - 1
            and all(isinstance(v, str) and v in BOT_POLICIES for v in value)):
        return list(value)
    raise Refuse("bad_settings", f"bots is one of {', '.join(BOT_POLICIES)} or a list of them, "
                                 f"at most one per seat after the host's")


def _mask(value: Any) -> list[bool] | None:
    if isinstance(value, list) and len(value) == 5 and all(type(h) is bool for h in value):
        return list(value)
    return None


# ---------------------------------------------------------------- the relay

class Relay:
    def __init__(self, data_dir: str | os.PathLike, clock=None, bot_delay: float = 0.6,
                 limits: Limits | None = None, auto: Auto | None = None,
                 time_scale: float = 1.0):
        self.data_dir = Path(data_dir)
        self.logs_dir = self.data_dir / "logs"
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        self.clock = clock or RealClock()
        self.bot_delay = bot_delay
        self.time_scale = time_scale   # tests: a 30 s turn lasts 30 * time_scale seconds
        self.limits = limits or Limits()
        self.auto = auto or Auto()
        self.daily = DailyStore(self.data_dir / "daily.sqlite3")
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, Slot] = {}
        self.conns: set[Conn] = set()
        self.server: asyncio.AbstractServer | None = None
        self.port: int | None = None
        self._tasks: set[asyncio.Task] = set()
        self._housekeeper: asyncio.Task | None = None
        self._to_flush: list[Conn] = []
        self.handlers: dict[str, Callable] = {
            "hello": self.h_hello, "ping": self.h_ping, "pong": self.h_pong,
            "list_tables": self.h_list, "create_table": self.h_create, "join": self.h_join,
            "set_name": self.h_set_name, "leave": self.h_leave, "start": self.h_start,
            "hold": self.h_hold, "roll": self.h_roll, "write": self.h_write,
            "give_up": self.h_give_up, "resume": self.h_resume,
            "daily_info": self.h_daily_info, "daily_play": self.h_daily_play,
            "daily_log": self.h_daily_log,
        }

    # ------------------------------------------------------------ life
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self.auto.start()
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: Conn(self), host, port)
        self.port = self.server.sockets[0].getsockname()[1]
        self._housekeeper = asyncio.get_running_loop().create_task(self._housekeeping())
        return self.port

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for c in list(self.conns):
            c.close("relay shutting down")
        for t in list(self._tasks) + ([self._housekeeper] if self._housekeeper else []):
            t.cancel()
        for table in self.tables.values():
            self._stop_timer(table)
        await asyncio.sleep(0)
        self.daily.close()

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("relay task failed", exc_info=task.exception())

    def _dirty(self, conn: Conn) -> None:
        """``conn`` has frames to write: flush them all once, after this iteration's work."""
        if not self._to_flush:
            asyncio.get_running_loop().call_soon(self._flush)
        self._to_flush.append(conn)

    def _flush(self) -> None:
        conns, self._to_flush = self._to_flush, []
        for c in conns:
            c.flush()

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(self.limits.housekeeping)
            try:
                self._housekeeping_pass()
            except Exception:  # one bad pass must not end deadlines for every later one
                log.exception("housekeeping pass failed")

    def _housekeeping_pass(self) -> None:
        lim = self.limits
        now = time.monotonic()
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
        for table in list(self.tables.values()):
            if (table.mode == "daily" and table.started and not table.finished
                    and table.slots[0].conn is None
                    and now - table.slots[0].last_seen > DAILY_ABANDON):
                self._commit(table, {"type": "give_up", "seat": 0, "why": "away"})

    # ------------------------------------------------------------ dispatch
    def dispatch(self, conn: Conn, msg: dict) -> None:
        kind = msg["type"]
        rid = msg.get("rid")
        if rid is not None and not (type(rid) is int or (isinstance(rid, str) and len(rid) <= 64)):
            rid = None
        if not conn.greeted and kind != "hello":
            conn.send(error_msg("bad_message", "the first message must be hello", rid))
            conn.close("no hello")
            return
        verdict = conn.allow()
        if verdict != "ok":
            conn.send(error_msg("rate_limited", "too many messages: slow down", rid))
            if verdict == "kill":
                conn.close("flood")
            return
        handler = self.handlers.get(kind)
        if handler is None:
            conn.send(error_msg("bad_message", f"unknown message type {kind[:40]!r}", rid))
            conn.close("unknown type")
            return
        try:
            handler(conn, msg, rid)
        except Refuse as r:
            conn.send(error_msg(r.code, r.message, rid))
            if r.close:
                conn.close(r.code)
        except Exception:
            log.exception("handler %s failed", kind)
            conn.send(error_msg("bad_message", "the relay could not handle this message", rid))

    # ------------------------------------------------------------ basic
    def h_hello(self, conn: Conn, msg: dict, rid: Any) -> None:
        if msg.get("version") != PROTOCOL_VERSION or type(msg.get("version")) is not int:
            raise Refuse("version_mismatch",
                         f"this relay speaks protocol version {PROTOCOL_VERSION}", close=True)
        conn.greeted = True
        reply = {"type": "welcome", "version": PROTOCOL_VERSION, "server": "bonanza-relay",
                 "limits": self.limits.to_wire(), "rulesets": list(RULESETS),
                 "turn_seconds": list(TURN_SECONDS)}
        if rid is not None:
            reply["rid"] = rid
        conn.send(reply)

    def h_ping(self, conn: Conn, msg: dict, rid: Any) -> None:
        conn.send({"type": "pong", "rid": rid} if rid is not None else {"type": "pong"})

    def h_pong(self, conn: Conn, msg: dict, rid: Any) -> None:
        pass

    def _reply(self, conn: Conn, msg: dict, rid: Any) -> None:
        if rid is not None:
            msg["rid"] = rid
        conn.send(msg)

    # ------------------------------------------------------------ lobby
    def _free_conn(self, conn: Conn) -> None:
        """Refuse when the connection holds a live seat; detach it from a finished one."""
        slot = conn.slot
        if slot is None:
            return
        table = slot.table
        st = table.match.state if table.match else None
        if table.finished or (st is not None and st.has_given_up(slot.index)):
            self._detach(conn)
            return
        raise Refuse("already_seated", "leave your table first")

    def _attach(self, conn: Conn, slot: Slot) -> None:
        if conn.slot is not None and conn.slot is not slot:
            self._detach(conn)
        old = slot.conn
        if old is not None and old is not conn:
            old.slot = None
            old.send(error_msg("replaced", "this seat was resumed from another connection"))
            old.close("replaced")
        slot.conn = conn
        slot.autos = 0
        slot.last_seen = time.monotonic()
        conn.slot = slot

    def _detach(self, conn: Conn) -> None:
        slot = conn.slot
        conn.slot = None
        if slot is not None and slot.conn is conn:
            slot.conn = None
            slot.last_seen = time.monotonic()

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    def _joined(self, conn: Conn, table: Table, slot: Slot, rid: Any) -> None:
        self._reply(conn, {"type": "joined", "table": table.info(), "seat": slot.index,
                           "token": slot.token}, rid)

    def h_list(self, conn: Conn, msg: dict, rid: Any) -> None:
        tables = [t.info() for t in self.tables.values()
                  if t.mode == "table" and not t.started and len(t.slots) < t.nseats]
        self._reply(conn, {"type": "tables", "tables": tables}, rid)

    def h_create(self, conn: Conn, msg: dict, rid: Any) -> None:
        self._free_conn(conn)
        name = _name(msg.get("name"))
        seats, secs = msg.get("seats"), msg.get("turn_seconds")
        ruleset = msg.get("ruleset", "bonanza")
        if type(seats) is not int or not 2 <= seats <= MAX_SEATS:
            raise Refuse("bad_settings", f"a table has 2 to {MAX_SEATS} seats")
        if type(secs) is not int or secs not in TURN_SECONDS:
            raise Refuse("bad_settings", "the time per turn is 30, 45, 60 or 90 seconds")
        if not isinstance(ruleset, str) or ruleset not in RULESETS:
            raise Refuse("bad_settings", f"the ruleset is one of: {', '.join(RULESETS)}")
        bots = _bots(msg.get("bots"), seats)
        contribution = _contribution(msg.get("contribution"))
        table = Table(self._new_code(), "table", ruleset, seats, secs,
                      secrets.token_bytes(dice_mod.SEED_BYTES))
        table.bots = bots
        slot = Slot(table, name, "human", contribution)
        self._open(conn, table, slot)
        self._joined(conn, table, slot, rid)

    def h_join(self, conn: Conn, msg: dict, rid: Any) -> None:
        self._free_conn(conn)
        code = msg.get("code")
        table = self.tables.get(code.strip().upper()) if isinstance(code, str) else None
        if table is None or table.mode != "table":
            raise Refuse("table_not_found", "no table has this code")
        if table.started:
            raise Refuse("already_started", "this table has already started")
        if len(table.slots) >= table.nseats:
            raise Refuse("table_full", "this table is full")
        name = _name(msg.get("name"))
        if table.name_taken(name):
            raise Refuse("name_taken", f"someone at this table is already called {name}")
        contribution = _contribution(msg.get("contribution"))
        slot = Slot(table, name, "human", contribution)
        table.slots.append(slot)
        table.reindex()
        self.tokens[slot.token] = slot
        self._attach(conn, slot)
        self._joined(conn, table, slot, rid)
        table.send_each({"type": "table", "table": table.info()})

    def _seated(self, conn: Conn) -> tuple[Table, Slot]:
        slot = conn.slot
        if slot is None:
            raise Refuse("not_seated", "you are not at a table")
        return slot.table, slot

    def h_set_name(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot = self._seated(conn)
        if table.started:
            raise Refuse("already_started", "names are fixed once the game has started")
        name = _name(msg.get("name"))
        if table.name_taken(name, exclude=slot):
            raise Refuse("name_taken", f"someone at this table is already called {name}")
        slot.name = name
        table.send_each({"type": "table", "table": table.info()}, conn, rid)

    def _leave_lobby(self, table: Table, slot: Slot) -> None:
        table.slots.remove(slot)
        self.tokens.pop(slot.token, None)
        table.reindex()
        if not table.slots:
            self.tables.pop(table.code, None)
            return
        if table.host is slot:
            table.host = table.slots[0]
        table.send_each({"type": "table", "table": table.info()})

    def h_leave(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot = self._seated(conn)
        self._detach(conn)
        if not table.started:
            self._leave_lobby(table, slot)
        elif not table.finished and not table.match.state.has_given_up(slot.index):
            self._commit(table, {"type": "give_up", "seat": slot.index, "why": "left"})
        self._reply(conn, {"type": "left", "code": table.code}, rid)

    def h_start(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot = self._seated(conn)
        if table.started:
            raise Refuse("already_started", "the game has already started")
        if table.host is not slot:
            raise Refuse("not_host", "only the host can start the game")
        taken = {s.name.casefold() for s in table.slots}
        names = (f"Bot {n}" for n in BOT_NAMES if f"Bot {n}".casefold() not in taken)
        k = 0
        while len(table.slots) < table.nseats:
            table.slots.append(Slot(table, next(names), "bot", None, table.bot_policy(k)))
            k += 1
        table.reindex()
        seats = [Seat(s.name, s.kind, s.policy) for s in table.slots]
        table.match = Match.create(table.ruleset, seats, table.seed, mode="table",
                                   contributions=[s.contribution for s in table.slots],
                                   settings={"turn_seconds": table.turn_seconds},
                                   meta={"table": table.code})
        self._begin(table, conn, rid)

    def _begin(self, table: Table, sender: Conn | None = None, rid: Any = None) -> None:
        table.match.log.records = PackedRecords()
        self._new_turn(table)
        table.send_each({"type": "started", "table": table.info(),
                         "header": table.match.log.header, "clock": self._clock_info(table)},
                        sender, rid)
        self._after(table)

    # ------------------------------------------------------------ the game
    def _clock_info(self, table: Table) -> dict | None:
        if table.deadline is None or table.match is None or table.match.state.over:
            return None
        st = table.match.state
        return {"seat": st.active, "turn": st.turn, "turn_seconds": table.turn_seconds,
                "remaining": round(max(0.0, table.deadline - self.clock.now()), 3)}

    def _stop_timer(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
        table.timer = None
        table.timer_at = None
        table.deadline = None

    # One timer per table, armed lazily: a new turn only moves ``table.deadline``; a
    # timer still pending from an earlier turn is always due no later than the new
    # turn's first event, and when it fires it re-arms itself for the current turn.
    def _arm(self, table: Table, at: float) -> None:
        if table.timer is not None:
            if table.timer_at <= at + CLOCK_EPS:
                return
            table.timer.cancel()
        table.timer_at = at
        table.timer = self.clock.call_later(at - self.clock.now(), lambda: self._tick(table))

    def _tick(self, table: Table) -> None:
        table.timer = table.timer_at = None
        if table.finished or table.deadline is None:
            return
        now = self.clock.now()
        if now >= table.deadline - CLOCK_EPS:
            self._expire(table, table.turn_id)
            return
        if table.announce_at is not None and now >= table.announce_at - CLOCK_EPS:
            table.broadcast({"type": "clock", "clock": self._clock_info(table)})
            table.announce_at = self._next_announce(table)
        self._arm(table, table.deadline if table.announce_at is None else table.announce_at)

    def _next_announce(self, table: Table) -> float | None:
        """When to send the next ``clock``: every ANNOUNCE_EVERY seconds of the turn, then
        every second in the last ANNOUNCE_LAST (in turn seconds, scaled by time_scale)."""
        scale = self.time_scale
        left = (table.deadline - self.clock.now() - CLOCK_EPS) / scale
        if left > ANNOUNCE_LAST:
            at = (math.ceil(left / ANNOUNCE_EVERY) - 1) * ANNOUNCE_EVERY
        else:
            at = math.ceil(left) - 1
        return table.deadline - at * scale if at >= 1 else None

    def _new_turn(self, table: Table) -> bool:
        """Set up the clock when the turn changed; True when it did."""
        st = table.match.state
        turn_id = (st.turn, st.active)
        if turn_id == table.turn_id:
            return False
        table.turn_id = turn_id
        table.held = list(NONE5)
        table.deadline = table.announce_at = None
        if st.over:
            return True
        slot = table.slots[st.active]
        if slot.kind == "human" and table.turn_seconds:
            table.deadline = self.clock.now() + table.turn_seconds * self.time_scale
            table.announce_at = self._next_announce(table)
            self._arm(table, table.deadline if table.announce_at is None else table.announce_at)
        return True

    def _after(self, table: Table) -> None:
        """Start the bot's turn when a bot is to play."""
        st = table.match.state
        if st.over or table.finished:
            return
        slot = table.slots[st.active]
        if slot.kind == "bot" and table.bot_turn != table.turn_id:
            table.bot_turn = table.turn_id
            self._spawn(self._bot_turn(table, table.turn_id))

    def _commit(self, table: Table, move: dict, sender: Conn | None = None, rid: Any = None):
        """Check and apply a move with core; broadcast it.  Returns a Refusal or None."""
        if table.finished:
            from core.game import Refusal
            return Refusal("game_over", "the game is over")
        match = table.match
        try:   # core's apply checks the move (seat, turn, legality) once
            state = apply(match.state, move)
        except IllegalMove as e:
            return e.refusal
        match.state = state
        encoded = append_record(match.log, move, state)
        if move["type"] in ("roll", "write") and not move.get("auto"):
            table.slots[move["seat"]].autos = 0
        if move["type"] == "roll":
            table.held = list(move["hold"])
        self._new_turn(table)
        table.broadcast_move(encoded, self._clock_info(table), sender, rid)
        if table.match.state.over:
            self._finish(table)
        else:
            self._after(table)
        return None

    def _roll_move(self, table: Table, seat: int, hold: list[bool], auto: bool = False) -> dict:
        st = table.match.state
        dice = dice_mod.roll_dice(table.match.key, st.turn, st.rolls + 1, st.dice, hold)
        return {"type": "roll", "seat": seat, "hold": list(hold), "dice": list(dice), "auto": auto}

    def _game(self, conn: Conn, msg: dict, need_seq: bool = True):
        table, slot = self._seated(conn)
        if table.match is None:
            raise Refuse("not_started", "the game has not started yet")
        st = table.match.state
        if need_seq or "seq" in msg:
            seq = msg.get("seq")
            if type(seq) is not int or seq != st.seq:
                raise Refuse("bad_sequence", f"out of date: the last move is {st.seq}, not {seq!r}")
        return table, slot, st

    def _play(self, table: Table, move: dict, conn: Conn, rid: Any) -> None:
        refusal = self._commit(table, move, conn, rid)
        if refusal is not None:
            raise Refuse(refusal.code, refusal.message)

    def h_roll(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot, st = self._game(conn, msg)
        if "hold" in msg:
            hold = _mask(msg["hold"])
            if hold is None:
                raise Refuse("bad_hold", "hold must be five true/false values")
        else:
            hold = list(table.held) if st.active == slot.index and st.dice is not None else list(NONE5)
        if st.over or table.finished:
            raise Refuse("game_over", "the game is over")
        self._play(table, self._roll_move(table, slot.index, hold), conn, rid)

    def h_write(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot, st = self._game(conn, msg)
        box = msg.get("box")
        self._play(table, {"type": "write", "seat": slot.index,
                           "box": box if isinstance(box, str) else repr(box)[:40], "auto": False},
                   conn, rid)

    def h_give_up(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot, st = self._game(conn, msg, need_seq=False)
        self._play(table, {"type": "give_up", "seat": slot.index, "why": "gave_up"}, conn, rid)

    def h_hold(self, conn: Conn, msg: dict, rid: Any) -> None:
        table, slot, st = self._game(conn, msg)
        if st.over or table.finished:
            raise Refuse("game_over", "the game is over")
        if st.has_given_up(slot.index):
            raise Refuse("seat_gave_up", "this seat has given up")
        if st.active != slot.index:
            raise Refuse("not_your_turn", f"it is {table.slots[st.active].name}'s turn")
        if st.dice is None:
            raise Refuse("must_roll_first", "roll the dice first")
        if st.rolls_left == 0:
            raise Refuse("no_rolls_left", "no rolls left: write the dice into a box")
        held = _mask(msg.get("held"))
        if held is None:
            raise Refuse("bad_hold", "held must be five true/false values")
        table.held = held
        table.broadcast({"type": "hold", "seat": slot.index, "seq": st.seq, "held": held},
                        conn, rid)

    # ------------------------------------------------------------ automatic moves
    def _expire(self, table: Table, turn_id: tuple) -> None:
        if table.turn_id == turn_id and not table.finished:
            self._spawn(self._auto_turn(table, turn_id))

    async def _auto_turn(self, table: Table, turn_id: tuple) -> None:
        await self.auto.ready()
        if table.finished or table.turn_id != turn_id:
            return
        st = table.match.state
        seat = st.active
        slot = table.slots[seat]
        if st.dice is None:
            if self._commit(table, self._roll_move(table, seat, NONE5, auto=True)) is not None:
                return
        st = table.match.state
        if table.finished or table.turn_id != turn_id:
            return
        box = self.auto.advisor_box(table.ruleset, st.sheets[seat], st.dice, st.rolls_left)
        if self._commit(table, {"type": "write", "seat": seat, "box": box, "auto": True}) is not None:
            log.error("the advisor's box %s was refused", box)
            return
        if slot.conn is None:
            slot.autos += 1
            st = table.match.state
            if slot.autos >= AWAY_LIMIT and not st.over and not st.has_given_up(seat):
                self._commit(table, {"type": "give_up", "seat": seat, "why": "away"})

    async def _bot_turn(self, table: Table, turn_id: tuple) -> None:
        await self.auto.ready()
        seat = turn_id[1]
        slot = table.slots[seat]
        while True:
            await asyncio.sleep(self.bot_delay if table.watchers() else 0)
            st = table.match.state
            if table.finished or table.turn_id != turn_id:
                return
            action, arg = self.auto.bot_action(slot.policy, table.ruleset, st.sheets[seat],
                                               st.dice, st.rolls_left)
            if action == "hold":
                hold = [bool(h) for h in arg] if st.dice is not None else list(NONE5)
                if st.dice is not None and any(hold) and self.bot_delay and table.watchers():
                    table.held = hold
                    table.broadcast({"type": "hold", "seat": seat, "seq": st.seq, "held": hold})
                    await asyncio.sleep(self.bot_delay)
                    if table.finished or table.turn_id != turn_id:
                        return
                move = self._roll_move(table, seat, hold)
            else:
                move = {"type": "write", "seat": seat, "box": arg, "auto": False}
            refusal = self._commit(table, move)
            if refusal is not None:
                log.error("bot move refused (%s); writing the advisor's box", refusal.message)
                st = table.match.state
                box = self.auto.advisor_box(table.ruleset, st.sheets[seat], st.dice, st.rolls_left)
                self._commit(table, {"type": "write", "seat": seat, "box": box, "auto": False})
                return
            if action == "write":
                return

    # ------------------------------------------------------------ the end
    def _finish(self, table: Table) -> None:
        if table.finished:
            return
        table.finished = True
        self._stop_timer(table)
        match = table.match
        end = match.finish({"relay": "bonanza-relay", "table": table.code})
        data = log_bytes(match.log)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        fname = f"{stamp}-{table.mode}-{table.code}.bonanza"
        try:
            (self.logs_dir / fname).write_bytes(data)
        except OSError:
            log.exception("cannot write %s", fname)
            fname = None
        ranking = [s.to_dict() for s in standings(match.state)]
        if table.mode == "daily":
            slot = table.slots[0]
            gave = match.state.gave_up[0][1] if match.state.gave_up else None
            self.daily.finish_attempt(table.daily_date, slot.name, match.state.total(0), gave, fname)
            # The seed is the whole day's dice: whoever saw it could play the date with
            # foresight.  It stays with the relay until the date is closed (daily_log).
            data = None
            end = dict(end, reveal=None)
        table.end_msg = {"type": "end", "end": end, "standings": ranking, "log": data, "file": fname}
        table.broadcast(table.end_msg)
        self.clock.call_later(FINISHED_KEEP, lambda: self._purge(table))

    def _open(self, conn: Conn, table: Table, slot: "Slot") -> None:
        """A new table with ``slot`` as its host, seated on ``conn``."""
        table.slots.append(slot)
        table.host = slot
        self.tables[table.code] = table
        self.tokens[slot.token] = slot
        self._attach(conn, slot)

    def _purge(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        for s in table.slots:
            if s.token:
                self.tokens.pop(s.token, None)

    # ------------------------------------------------------------ resume
    def h_resume(self, conn: Conn, msg: dict, rid: Any) -> None:
        token, seq = msg.get("token"), msg.get("seq", 0)
        slot = self.tokens.get(token) if isinstance(token, str) else None
        if slot is None:
            raise Refuse("not_seated", "this seat is not known (the game may be long over)")
        table = slot.table
        if type(seq) is not int or seq < 0 or seq > (table.match.state.seq if table.match else 0):
            raise Refuse("bad_sequence", "the sequence number is not one of this game's")
        if conn.slot is not None and conn.slot is not slot:
            self._free_conn(conn)
        self._attach(conn, slot)
        started = table.match is not None
        self._reply(conn, {
            "type": "resumed", "table": table.info(), "seat": slot.index, "token": slot.token,
            "header": table.match.log.header if started else None,
            "records": table.match.log.records[seq:] if started else [],
            "held": list(table.held), "clock": self._clock_info(table) if started else None,
            "end": table.end_msg}, rid)
        if started and not table.finished:
            table.send_each({"type": "table", "table": table.info()})

    def on_disconnect(self, conn: Conn) -> None:
        slot = conn.slot
        if slot is None or slot.conn is not conn:
            conn.slot = None
            return
        self._detach(conn)
        table = slot.table
        if not table.started:
            if slot in table.slots:
                self._leave_lobby(table, slot)
        elif not table.finished:
            table.send_each({"type": "table", "table": table.info()})

    # ------------------------------------------------------------ daily
    def h_daily_info(self, conn: Conn, msg: dict, rid: Any) -> None:
        today = self.clock.today()
        reply = {"type": "daily_info", "date": today, "commitment": self.daily.commitment(today),
                 "leaderboard": self.daily.leaderboard(today),
                 "closed": self.daily.closed_days(today)}
        if isinstance(msg.get("name"), str):
            reply["played"] = self.daily.has_played(today, msg["name"])
        self._reply(conn, reply, rid)

    def h_daily_play(self, conn: Conn, msg: dict, rid: Any) -> None:
        self._free_conn(conn)
        name = _name(msg.get("name"))
        today = self.clock.today()
        if not self.daily.start_attempt(today, name):
            raise Refuse("daily_already_played", f"{name} has already played the challenge of {today}")
        table = Table(self._new_code(), "daily", "yacht", 1, None, self.daily.seed(today))
        table.daily_date = today
        slot = Slot(table, name, "human", None)
        self._open(conn, table, slot)
        # Contributions [None]: the key depends on the day's seed only, so everybody that
        # day gets the same dice, and the log still has one contribution per seat.
        table.match = Match.create("yacht", [Seat(name)], table.seed, mode="daily",
                                   contributions=[None], settings={},
                                   meta={"date": today, "table": table.code})
        self._joined(conn, table, slot, rid)
        self._begin(table)

    def h_daily_log(self, conn: Conn, msg: dict, rid: Any) -> None:
        date, name = msg.get("date"), msg.get("name")
        if not isinstance(date, str) or not isinstance(name, str):
            raise Refuse("bad_settings", "daily_log needs a date and a name")
        if date >= self.clock.today():
            raise Refuse("log_not_available", "the day's logs are available once the day is over")
        fname = self.daily.log_file(date, name)
        try:
            data = (self.logs_dir / fname).read_bytes() if fname else None
        except OSError:
            data = None
        if data is None:
            raise Refuse("log_not_available", "no finished attempt by this name on this date")
        self._reply(conn, {"type": "log", "date": date, "name": name, "log": data}, rid)


# ---------------------------------------------------------------- command line

def default_data_dir() -> str:
    """``$BONANZA_DATA_DIR/relay`` (as the game's own store), else the user data folder's."""
    if os.environ.get("BONANZA_DATA_DIR"):
        return os.path.join(os.environ["BONANZA_DATA_DIR"], "relay")
    import platformdirs
    return os.path.join(platformdirs.user_data_dir("bonanza", appauthor=False), "relay")


async def _serve(args: argparse.Namespace) -> None:
    limits = Limits()
    if args.max_rate:
        limits.rate = limits.burst = args.max_rate
        limits.kill_burst = 4 * args.max_rate
    data = args.data or default_data_dir()
    try:
        relay = Relay(data, bot_delay=args.bot_delay, limits=limits)
    except (OSError, sqlite3.Error) as e:
        raise StartupError(f"cannot use the data folder {data}: {getattr(e, 'strerror', None) or e}"
                           " (choose another with --data)") from None
    try:
        port = await relay.start(args.host, args.port)
    except OSError as e:
        await relay.close()
        raise StartupError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}"
                           " (is another relay using that port? try --port 0)") from None
    print(f"listening on {args.host}:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - Windows
            signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))
    await stop.wait()
    await relay.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bonanza-relay", description="Run a Bonanza table relay.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_port, default=7468, help="TCP port, 0 for any free one")
    p.add_argument("--data", default=None, help="folder for finished logs and the daily database")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a bot waits before each action (default 0.6)")
    p.add_argument("--max-rate", type=float, default=None,
                   help="messages per second allowed per connection (default 30; benchmarks)")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    try:
        asyncio.run(_serve(args))
    except KeyboardInterrupt:
        pass
    except StartupError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return port


class StartupError(Exception):
    """The relay cannot start: a one-line reason for the person who started it."""


if __name__ == "__main__":
    sys.exit(main())
