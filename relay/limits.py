"""What one relay allows a connection and an address: sizes, rates, timeouts (plain data)."""
from __future__ import annotations

from dataclasses import dataclass

from bonanza.core.settings import REACTION_BURST, REACTION_EVERY
from bonanza.core.wire import MAX_CLIENT_FRAME


@dataclass
class Limits:
    max_frame: int = MAX_CLIENT_FRAME
    hello_timeout: float = 10.0
    ping_interval: float = 15.0
    idle_timeout: float = 45.0
    rate: float = 30.0            # messages per second, sustained
    burst: float = 150.0          # bucket size: a seat's whole game (about 80 messages) fits
    kill_burst: float = 400.0     # messages refused beyond the burst before the connection closes
    lobbies_per_address: int = 8  # tables not yet started that one address may host
    lobbies: int = 1000           # tables not yet started on the relay
    send_queue: int = 1 << 20     # bytes waiting for a reader before it is dropped, the
                                  # kernel's send buffer included
    housekeeping: float = 1.0     # seconds between idle / hello checks
    sndbuf: int | None = 64 << 10  # SO_SNDBUF asked for accepted sockets (Linux doubles it)
    conns_per_address: int = 64   # open connections from one address
    watchers_per_address: int = 16  # connections from one address watching a table
    # caps per address on what outlives a message or reaches other people (relay/caps.py;
    # docs/protocol.md, "Caps"); ``*_every`` is the seconds one more is earned after a burst
    ranked_per_address: int = 3   # ranked runs one address may have running at once
    ranked_burst: float = 6.0     # new ranked runs per address at once ...
    ranked_every: float = 20.0    # ... then one every 20 s
    ranked_abandon: float = 300.0  # a ranked run nobody is connected to ends (given up, away)
    expiries_per_pass: int = 8    # abandoned games ended per housekeeping pass (spread out)
    rematch_burst: float = 3.0    # rematch tables opened per address at once ...
    rematch_every: float = 30.0   # ... then one every 30 s
    rematch_offers: int = 3       # rematch tables one finished table may announce
    watch_burst: float = 10.0     # watch requests per address at once ...
    watch_every: float = 2.0      # ... then one every 2 s
    watchers_notice: float = 1.0  # players hear of watcher-count changes at most this often
    react_burst: float = REACTION_BURST   # quick reactions per seat at once ...
    react_every: float = REACTION_EVERY   # ... then one every 2 s (everyone at the table sees them)

    def to_wire(self) -> dict:
        return {"max_frame": self.max_frame, "rate": self.rate, "burst": self.burst,
                "hello_timeout": self.hello_timeout, "ping_interval": self.ping_interval,
                "idle_timeout": self.idle_timeout}
