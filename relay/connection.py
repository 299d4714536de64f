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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .framing import LENGTH, MAX_CLIENT_FRAME, FrameError, decode_body, pack_frame

if TYPE_CHECKING:  # pragma: no cover
    from .server import Relay

log = logging.getLogger("bonanza.relay")

LINGER = 1.0        # seconds a closed connection's input is still read and dropped


@dataclass
class Limits:
    max_frame: int = MAX_CLIENT_FRAME
    hello_timeout: float = 10.0
    ping_interval: float = 15.0
    idle_timeout: float = 45.0
    rate: float = 30.0            # messages per second, sustained
    burst: float = 150.0          # bucket size: a seat's whole game (about 80 messages) fits
    kill_burst: float = 400.0     # this far over the limit the connection is closed
    lobbies_per_address: int = 8  # tables not yet started that one address may host
    lobbies: int = 1000           # tables not yet started on the relay
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


MAX_ERROR_TEXT = 200   # an error never echoes more of what it was sent than this


def error_msg(code: str, message: str, rid: Any = None) -> dict:
    if len(message) > MAX_ERROR_TEXT:
        message = message[:MAX_ERROR_TEXT - 1] + "…"
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
        now = relay.net_time()
        self.opened = self.last_rx = self.t_tokens = now
        self.tokens = relay.limits.burst
        self.greeted = False
        self.pinged = False
        self.closed = False
        self.slot = None               # the tables.Slot this connection plays, if any
        self.watching = None           # the tables.Table this connection watches, if any
        self.address: str | None = None  # the peer's IP address (the daily's address rule)

    # ------------------------------------------------------------ asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) and peer else None
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
                self.last_rx = relay.net_time()
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

    def close(self, reason: str = "", abort: bool = False, linger: bool = True) -> None:
        if self.closed:
            return
        if not abort:
            self.flush()          # a last error message goes out before the close
        self.closed = True
        self.out.clear()
        try:
            if abort:
                self.transport.abort()
            elif linger and self.transport.can_write_eof() and not self.transport.is_closing():
                # Closing a socket with unread input sends a reset, and the reset can
                # overtake our last message (an oversized frame's ``error``).  So end our
                # side first and read (and drop) what the client still sends, briefly.
                self.transport.write_eof()
                asyncio.get_running_loop().call_later(LINGER, self.transport.close)
            else:
                self.transport.close()
        except Exception:  # pragma: no cover - transport already gone
            pass
        self.relay.on_disconnect(self)

    def allow(self) -> str:
        """Token bucket: "ok", "limited" (drop the message) or "kill"."""
        lim = self.relay.limits
        now = self.relay.net_time()
        self.tokens = min(lim.burst, self.tokens + (now - self.t_tokens) * lim.rate)
        self.t_tokens = now
        self.tokens -= 1
        if self.tokens >= 0:
            return "ok"
        return "kill" if self.tokens < lim.burst - lim.kill_burst else "limited"
