"""What one relay allows a connection and an address: sizes, rates, timeouts (plain data)."""
from __future__ import annotations

from dataclasses import dataclass

from bonanza.core.wire import MAX_CLIENT_FRAME


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
