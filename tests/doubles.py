"""Offline stand-ins: a relay connection showing a table mid-game (``DemoConnection``),
and hosting that starts no relay (``host_without_relay``).

``DemoConnection`` is used by the scene tests and ``bench/client_frame.py`` to draw the
table scene without a network; it has the attributes ``TableScene`` reads from a
``client.relay_client.RelayConnection``.
"""
from __future__ import annotations

import threading
from typing import Any

from bonanza.core.game import Seat
from bonanza.core.match import Match


class DemoConnection:
    def __init__(self, seats: int = 4, turns: int = 14, my_seat: int = 0):
        names = ["Ana", "Bot Ada", "Bruno", "Bot Bram"][:seats]
        kinds = ["human", "bot", "human", "bot"][:seats]
        self.match = Match.create("bonanza", [Seat(n, k) for n, k in zip(names, kinds)],
                                  b"demo-table-seed".ljust(32, b"."), mode="table")
        for i in range(turns):
            m = self.match
            m.roll([False] * 5)
            # one box of seat 1 written by the clock, to show its mark
            m.write(m.state.sheets[m.state.active].free_boxes()[0], auto=(i == 1))
        while self.match.state.active != my_seat:
            m = self.match
            m.roll([False] * 5)
            m.write(m.state.sheets[m.state.active].free_boxes()[0])
        self.match.roll([False] * 5)
        self.seat = my_seat
        self.status = "connected"
        self.held = [False] * 5
        self.clock = {"seat": my_seat, "turn": self.match.state.turn, "remaining": 7.5,
                      "turn_seconds": 60}
        self.table = {"code": "K7QWE", "seats": seats, "host": 0, "ruleset": "bonanza",
                      "turn_seconds": 60,
                      "players": [{"seat": i, "name": n, "kind": k, "connected": i != 2, "playing": True}
                                  for i, (n, k) in enumerate(zip(names, kinds))]}
        self.client = None
        self.sent: list = []

    @property
    def state(self):
        return self.match.state

    @property
    def records(self) -> list[dict]:
        return list(self.match.log.records)

    def send(self, msg) -> None:
        self.sent.append(msg)

    def poll(self) -> list:
        return []

    def close(self, timeout: float = 0) -> None:
        pass


class SilentConnection:
    """A relay connection that never connects: the lobby waits on it forever."""
    table, seat, status = None, None, "connecting"

    def __init__(self, host, port, signer=None):
        pass

    def poll(self):
        return []

    def close(self, timeout=None):
        pass


def host_without_relay(monkeypatch) -> list[Any]:
    """Hosting replaced by a relay that is ready at once on a fixed port and never runs,
    and connecting by ``SilentConnection``; returns the ``bot_delay`` each hosted relay
    was asked for, in order."""
    from bonanza.client import hosting, relay_client
    delays: list[Any] = []

    class NoRelay:
        def __init__(self):
            self.port, self.ready = 7468, threading.Event()
            self.ready.set()

        @classmethod
        def on_default_port(cls, bot_delay=None):
            delays.append(bot_delay)
            return cls()

        def stop(self):
            pass

    monkeypatch.setattr(hosting, "HostedRelay", NoRelay)
    monkeypatch.setattr(relay_client, "RelayConnection", SilentConnection)
    return delays
