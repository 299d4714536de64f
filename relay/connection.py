"""Connections and their limits: framing, the rate bucket, the send queue, liveness.

A connection's liveness (hello in time, pings, the idle cut-off, the rate bucket) is
measured on the event loop's own clock (``Relay.net_time``): it is about sockets, not
about the game, and a test that moves the game clock ahead by minutes must not make
every quiet test client look dead.  Everything the game reads comes from the
injected clock (``relay.clock``).
"""
from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any, Iterable, cast

from bonanza.core.wire import FrameDecoder, FrameError, encode_frame

from .services import ConnectionHost

log = logging.getLogger("bonanza.relay")

LINGER = 1.0        # seconds a closed connection's input is still read and dropped


class Refuse(Exception):
    def __init__(self, code: str, message: str, close: bool = False):
        super().__init__(message)
        self.code = code
        self.message = message
        self.close = close


MAX_ERROR_TEXT = 200   # an error never echoes more of what it was sent than this


def error_msg(code: str, message: str, rid: Any = None) -> dict:
    if len(message) > MAX_ERROR_TEXT:
        message = message[:MAX_ERROR_TEXT - 1] + "…"
    msg = {"type": "error", "code": code, "message": message}
    if rid is not None:
        msg["rid"] = rid
    return msg


# ---------------------------------------------------------------- sending
def send_to(conns: Iterable[Conn], frame: bytes) -> None:
    """Queue ``frame`` for each open connection of ``conns`` (a table's broadcast: every
    receiver gets the same bytes).  Frames are written at the end of the event loop's
    pass (the host's ``flushing``), so several for one client cost one ``send``; a
    connection whose queue passes its limit is dropped.  Records waiting for their batch
    signature are sealed (and so sent) first: every client gets a table's messages in
    the order they happened."""
    pending: list[Conn] | None = None
    size = len(frame)
    for c in conns:
        if c.closed:
            continue
        if pending is None:
            relay = c.relay
            if relay.sealing:      # moves made before this frame go out before it
                relay.seal()
            pending = relay.flushing()
        out = c.out
        if not out:
            pending.append(c)
        out.append(frame)
        queued = c.out_size = c.out_size + size
        if queued > c.queue_limit:
            c.close("send queue full", abort=True)


# ---------------------------------------------------------------- connections

class Conn(asyncio.Protocol):
    """One client connection: frames are parsed in ``data_received`` and dispatched at once.

    Outgoing frames are collected per connection and written once per event-loop
    iteration (``send_to``, the host's ``flushing``), so several frames for one client cost one ``send``.
    The bytes waiting (ours plus the transport's buffer) are the bounded send queue.
    """

    def __init__(self, relay: ConnectionHost[Conn]):
        self.relay = relay
        self.transport: asyncio.Transport | None = None
        self.frames = FrameDecoder(relay.limits.max_frame)   # holds at most one incomplete frame
        self.out: list[bytes] = []     # frames waiting for this iteration's flush
        self.out_size = 0
        now = relay.net_time()
        self.opened = self.last_rx = self.t_tokens = now
        self.tokens = relay.limits.burst
        self.greeted = False
        self.pinged = False
        self.closed = False
        self.paused = False            # the transport's buffer is past its high-water mark
        # Typed where they are used: connections sit below tables (services.py).
        self.slot: Any = None          # the tables.Slot this connection plays, if any
        self.watching: Any = None      # the tables.Table this connection watches, if any
        self.address: str | None = None  # the peer's IP address (the daily's address rule)
        self.queue_limit = relay.limits.send_queue   # less the kernel's buffer, once known

    # ------------------------------------------------------------ asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)   # a stream server's
        peer = transport.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) and peer else None
        lim = self.relay.limits
        # The kernel's send buffer is part of what a reader that never reads holds: it is
        # capped, and what it really is (Linux doubles what is asked) comes off the queue
        # this connection may fill in the relay, so the two together stay within send_queue.
        kernel = 0
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                if lim.sndbuf:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, lim.sndbuf)
                kernel = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
            except OSError:
                pass
        self.queue_limit = max(lim.send_queue // 4, lim.send_queue - kernel)
        # Ask to be told (pause_writing) well before the queue limit; from then on the
        # limit itself is checked at every flush.
        self.transport.set_write_buffer_limits(high=self.queue_limit // 2)
        self.relay.register(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.out.clear()
        self.close("end of stream")
        self.relay.forget(self)

    def pause_writing(self) -> None:   # the client reads slowly; the queue check drops it
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        relay = self.relay
        bad: FrameError | None = None
        try:
            msgs = self.frames.feed(data)
        except FrameError as e:        # the messages before the bad frame are still answered
            msgs, bad = e.messages, e
        try:
            if msgs:
                self.last_rx = relay.net_time()
                self.pinged = False
            for msg in msgs:
                relay.dispatch(self, msg)
                if self.closed:
                    return
        except Exception:  # pragma: no cover - never let one connection take the relay down
            log.exception("connection handler failed")
            self.close("handler failed", abort=True)
            return
        if bad is not None:
            self.send(error_msg("bad_message", str(bad)))
            self.close("bad frame")

    # ------------------------------------------------------------ sending
    def send_frame(self, frame: bytes) -> None:
        send_to((self,), frame)

    def send(self, msg: dict) -> None:
        if not self.closed:
            self.send_frame(encode_frame(msg))

    def flush(self) -> None:
        out, transport = self.out, self.transport
        if not out or self.closed or transport is None:
            return
        transport.write(b"".join(out))    # (one frame: joined, it is that frame itself)
        out.clear()
        self.out_size = 0
        # The transport tells (pause_writing) once its buffer passes half the queue's
        # limit, so until it has, the buffer cannot be over the limit: not asked.
        if self.paused and transport.get_write_buffer_size() > self.queue_limit:
            self.close("send queue full", abort=True)

    def close(self, reason: str = "", abort: bool = False, linger: bool = True) -> None:
        if self.closed:
            return
        if not abort:
            self.relay.write_journal()   # what it may hear of is journaled first
            self.flush()          # a last error message goes out before the close
        self.closed = True
        self.out.clear()
        transport = self.transport
        try:
            if transport is None:
                pass
            elif abort:
                transport.abort()
            elif linger and transport.can_write_eof() and not transport.is_closing():
                # Closing a socket with unread input sends a reset, and the reset can
                # overtake our last message (an oversized frame's ``error``).  So end our
                # side first and read (and drop) what the client still sends, briefly.
                transport.write_eof()
                asyncio.get_running_loop().call_later(LINGER, transport.close)
            else:
                transport.close()
        except Exception:  # pragma: no cover - transport already gone
            pass
        self.relay.on_disconnect(self)

    def allow(self) -> str:
        """Token bucket: "ok", "limited" (drop the message) or "kill".  The message came
        in at ``last_rx`` (read once per ``data_received``, not once per message)."""
        lim = self.relay.limits
        now = self.last_rx
        tokens = self.tokens + (now - self.t_tokens) * lim.rate - 1
        burst = lim.burst - 1
        self.tokens = tokens = burst if tokens > burst else tokens
        self.t_tokens = now
        if tokens >= 0:
            return "ok"
        return "kill" if tokens < -lim.kill_burst else "limited"
