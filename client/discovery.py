"""Find tables on this network: one discovery query, the answers of every relay.

``Search`` sends one query (to ``BONANZA_DISCOVERY``, else the limited broadcast address)
from a background thread and collects answers for a moment; the Join screen starts one
only when the player presses "Find tables on this network" (or Refresh), never by itself
and never in a loop.  docs/protocol.md describes the datagrams.
"""
from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass

import msgpack

from bonanza.core.settings import DISCOVERY_BROADCAST, discovery_target

QUERY = msgpack.packb({"type": "discover", "version": 1}, use_bin_type=True)
WAIT = 0.8                 # seconds answers are collected
MAX_ANSWER = 2048


@dataclass(frozen=True)
class Found:
    address: str           # the relay's address, as the answer came from it
    port: int              # its TCP port
    relay: str             # its name
    code: str
    host: str              # the name of the player hosting
    seats: int
    taken: int
    ruleset: str
    turn_seconds: int | None
    started: bool
    daily: bool = False    # a daily table: never watched, shown as "Daily challenge"


def _parse(data: bytes, address: str) -> list[Found]:
    try:
        msg = msgpack.unpackb(data, raw=False, max_bin_len=0)
    except Exception:
        return []
    if not isinstance(msg, dict) or msg.get("type") != "relay" or msg.get("version") != 1:
        return []
    port = msg.get("port")
    if type(port) is not int or not 0 < port < 65536:
        return []
    out = []
    for t in msg.get("tables") or []:
        try:
            found = Found(address, port, str(msg.get("name", ""))[:40], str(t["code"])[:8],
                          str(t["host"])[:40], int(t["seats"]), int(t["taken"]),
                          str(t["ruleset"])[:20], t.get("turn_seconds"), bool(t["started"]),
                          t.get("daily") is True)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if found.daily and found.started:   # not for watching, whatever a relay offers
            continue
        out.append(found)
    return out


class Search:
    """One search in a background thread: ``done`` when over, ``found`` the tables
    (open tables first, then games being played), ``error`` a reason if it could not ask."""

    def __init__(self, wait: float = WAIT):
        self.found: list[Found] = []
        self.error: str | None = None
        self.done = False
        self._wait = wait
        self._thread = threading.Thread(target=self._run, name="discovery", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            host, port = discovery_target(os.environ.get("BONANZA_DISCOVERY"))
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                if host == DISCOVERY_BROADCAST:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
                sock.sendto(QUERY, (host, port))
                until = time.monotonic() + self._wait
                seen: dict = {}
                while (left := until - time.monotonic()) > 0:
                    sock.settimeout(left)
                    try:
                        data, addr = sock.recvfrom(MAX_ANSWER)
                    except socket.timeout:
                        break
                    for f in _parse(data, addr[0]):
                        seen[(f.address, f.port, f.code)] = f
            self.found = sorted(seen.values(), key=lambda f: (f.started, f.taken >= f.seats,
                                                              f.host.casefold(), f.code))
        except Exception as e:   # no network at all, a bad BONANZA_DISCOVERY: say so
            self.error = getattr(e, "strerror", None) or str(e)
        finally:
            self.done = True

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)
