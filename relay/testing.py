"""Helpers for the relay's tests and benchmark: an in-process relay on 127.0.0.1."""
from __future__ import annotations

import asyncio
import contextlib
import tempfile

from .client import RelayClient
from .clock import ManualClock
from .server import Limits, Relay


@contextlib.asynccontextmanager
async def running_relay(data_dir: str | None = None, clock=None, bot_delay: float = 0.0,
                        limits: Limits | None = None, wait_advisor: bool = True):
    with tempfile.TemporaryDirectory() if data_dir is None else contextlib.nullcontext(data_dir) as d:
        relay = Relay(d, clock=clock, bot_delay=bot_delay, limits=limits)
        await relay.start("127.0.0.1", 0)
        if wait_advisor:
            await relay.auto.ready()
        try:
            yield relay
        finally:
            await relay.close()


async def connect(relay: Relay, **kw) -> RelayClient:
    return await RelayClient.open("127.0.0.1", relay.port, **kw)


async def settle(rounds: int = 20) -> None:
    """Let queued callbacks and socket traffic run."""
    for _ in range(rounds):
        await asyncio.sleep(0.005)


def choose_box(state) -> str:
    """A legal box for the active seat (the first the rules allow)."""
    from core.game import allowed
    return allowed(state)[0]


__all__ = ["running_relay", "connect", "settle", "choose_box", "ManualClock", "Limits"]
