"""Tables on this network: a relay answers discovery queries on UDP.

A query is one datagram holding the msgpack map ``{"type": "discover", "version": 1}``;
the relay answers the sender (unicast, never a broadcast) with
``{"type": "relay", "version": 1, "name", "port", "tables": [...], "more": n}`` that always
fits one datagram (the newest open tables first; ``more`` says how many did not fit).

What a relay never answers: anything but a well-formed query of this version, a datagram
over ``MAX_QUERY`` bytes, a sender over its rate (a few answers per second each), and a
datagram from a discovery port (another relay's answer or query loop: no ping-pong).
"""
from __future__ import annotations

import asyncio
import logging
import socket
from typing import TYPE_CHECKING, Any, cast

import msgpack

from bonanza.core.settings import DISCOVERY_PORT

from .services import DiscoveryHost

if TYPE_CHECKING:  # pragma: no cover
    from .tables import Table

log = logging.getLogger("bonanza.relay")

VERSION = 1
MAX_QUERY = 256            # bytes: a query is about 30
MAX_ANSWER = 1200          # bytes: fits one datagram on any network without fragments
RATE = 3.0                 # answers per second per sender, sustained
BURST = 5.0


def table_entry(table: Table) -> dict:
    host = table.host.name if table.host is not None else ""
    return {"code": table.code, "host": host, "seats": table.nseats,
            "taken": sum(1 for s in table.slots if s.kind == "human"),
            "ruleset": table.ruleset, "turn_seconds": table.turn_seconds,
            "started": table.started, "daily": table.daily_date is not None}


def answer(relay: DiscoveryHost[Table], name: str) -> bytes:
    """The answer datagram: as many tables (newest first) as fit in MAX_ANSWER."""
    # A started daily table is never offered: watching it would show the day's dice.
    tables = [t for t in reversed(list(relay.tables.values()))
              if t.mode == "table" and not t.finished
              and not (t.started and t.daily_date is not None)]
    entries = [table_entry(t) for t in tables]
    msg: dict[str, Any] = {"type": "relay", "version": VERSION, "name": name[:40], "port": relay.port,
                           "tables": entries, "more": 0}
    data = msgpack.packb(msg, use_bin_type=True)
    while len(data) > MAX_ANSWER and msg["tables"]:
        msg["tables"] = msg["tables"][:-1]
        msg["more"] = len(entries) - len(msg["tables"])
        data = msgpack.packb(msg, use_bin_type=True)
    return data


def is_query(data: bytes) -> bool:
    if len(data) > MAX_QUERY:
        return False
    try:
        msg = msgpack.unpackb(data, raw=False, max_bin_len=0, max_array_len=0,
                              max_map_len=8, max_str_len=64)
    except Exception:
        return False
    return (isinstance(msg, dict) and msg.get("type") == "discover"
            and type(msg.get("version")) is int and msg["version"] == VERSION)


class DiscoveryProtocol(asyncio.DatagramProtocol):
    def __init__(self, relay: DiscoveryHost[Table], name: str, own_port: int):
        self.relay = relay
        self.name = name
        self.own_port = own_port
        self.transport: asyncio.DatagramTransport | None = None
        self.buckets: dict[str, tuple[float, float]] = {}   # sender -> (tokens, when)
        self.answered = 0
        self.ignored = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (CPython's datagram transport does not subclass DatagramTransport)
        self.transport = cast(asyncio.DatagramTransport, transport)

    def _allow(self, sender: str) -> bool:
        now = self.relay.net_time()
        tokens, when = self.buckets.get(sender, (BURST, now))
        tokens = min(BURST, tokens + (now - when) * RATE)
        if len(self.buckets) > 4096:          # many senders: forget the quiet ones
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 10}
        if tokens < 1:
            self.buckets[sender] = (tokens, now)
            return False
        self.buckets[sender] = (tokens - 1, now)
        return True

    def datagram_received(self, data: bytes, addr: Any) -> None:
        host, port = addr[0], addr[1]
        if (port in (self.own_port, DISCOVERY_PORT) or not is_query(data) or not self._allow(host)
                or self.transport is None):
            self.ignored += 1
            return
        try:
            self.transport.sendto(answer(self.relay, self.name), (host, port))
            self.answered += 1
        except OSError:   # the sender's address is unreachable: nothing to do for it
            self.ignored += 1

    def error_received(self, exc: Exception) -> None:   # an ICMP error for an earlier answer
        pass


async def listen(relay: DiscoveryHost[Table], host: str, port: int, name: str | None = None
                 ) -> tuple[asyncio.DatagramTransport, DiscoveryProtocol, int]:
    """Listen for queries on UDP ``host:port`` (port 0: any free one); the transport and
    the protocol.  The port is the relay's own: answers never go to it."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    transport, protocol = await loop.create_datagram_endpoint(
        lambda: DiscoveryProtocol(relay, name or socket.gethostname(), bound), sock=sock)
    return transport, protocol, bound
