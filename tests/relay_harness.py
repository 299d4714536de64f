"""Helpers for the relay's tests and benchmark: an in-process relay on 127.0.0.1."""
from __future__ import annotations

import asyncio
import contextlib
import tempfile
from typing import Callable, Sequence

from bonanza.client.relay_client import RelayClient
from bonanza.relay.clock import ManualClock, ScaledClock
from bonanza.relay.limits import Limits
from bonanza.relay.server import Relay
from bonanza.relay.services import Clock


@contextlib.asynccontextmanager
async def running_relay(data_dir: str | None = None, clock: Clock | None = None,
                        bot_delay: float = 0.0, limits: Limits | None = None,
                        wait_advisor: bool = True, daily_per_address: bool = False,
                        discovery: tuple[str, int] | None = None):
    with tempfile.TemporaryDirectory() if data_dir is None else contextlib.nullcontext(data_dir) as d:
        # Every test client connects from 127.0.0.1: the daily's address rule is off
        # unless a test turns it on.
        relay = Relay(d, clock=clock, bot_delay=bot_delay, limits=limits,
                      daily_per_address=daily_per_address, discovery=discovery)
        await relay.start("127.0.0.1", 0)
        if wait_advisor:
            await relay.auto.ready()
        try:
            yield relay
        finally:
            await relay.close()


async def connect(relay: Relay, **kw) -> RelayClient:
    return await RelayClient.open("127.0.0.1", relay.port, **kw)


async def open_table(relay: Relay, names: Sequence[str], seats: int | None = None,
                     turn_seconds: int = 60, ruleset: str = "bonanza", daily: bool = False,
                     start: bool = False) -> tuple[list[RelayClient], str]:
    """A table opened the way most tests open one: a connection per name, the first hosts
    (``seats`` seats, one per name unless given: the empty ones go to bots at the start),
    the others sit down in order; with ``start`` the game starts and every seat has its
    header.  The clients, in the order of ``names``, and the table's code.  ``relay`` is
    anything with the ``port`` it listens on 127.0.0.1 (a relay in its own process too)."""
    clients = [await connect(relay) for _ in names]
    joined = await clients[0].create_table(names[0], seats or len(names), turn_seconds,
                                           ruleset, daily=daily)
    code = joined["table"]["code"]
    for c, name in zip(clients[1:], names[1:]):
        await c.join(code, name)
    if start:
        await clients[0].start()
        for c in clients:
            await c.wait_until(lambda c=c: c.header is not None)
    return clients, code


async def two_at_a_table(relay: Relay, turn_seconds: int = 90) -> tuple[RelayClient, RelayClient]:
    """Ana hosts a two-seat table, Ben joins, the game starts; both have its header."""
    (a, b), _ = await open_table(relay, ["Ana", "Ben"], turn_seconds=turn_seconds, start=True)
    return a, b


async def barrier(*clients: RelayClient, timeout: float = 30.0) -> None:
    """Each client's messages sent before have been handled by the relay, and what the relay
    sent them before has arrived: a ping each, in the order given, waiting for its pong (one
    TCP stream keeps order both ways).  It covers what the relay does at once for a message
    or in a timer callback (``ManualClock.advance`` runs those before returning), not what a
    task it spawned does later (a bot's turn): wait for that one's message with
    ``wait_until``.  Use it before asserting that nothing happened."""
    for c in clients:
        await c.request({"type": "ping"}, timeout)


async def eventually(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for the relay's own state (no client to hear of it, e.g. after one closed) to
    make ``predicate`` true, a loop turn at a time; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while not predicate():
        if loop.time() > until:
            raise asyncio.TimeoutError("the relay did not reach the expected state in time")
        await asyncio.sleep(0.001)


async def tasks_done(relay: Relay, timeout: float = 30.0) -> None:
    """The tasks the relay spawned (bot and away turns) have all finished: after
    ``ManualClock.advance`` with bots that wait no game time (``bot_delay`` 0)."""
    await eventually(lambda: not relay._tasks, timeout)


def choose_box(state) -> str:
    """A legal box for the active seat (the first the rules allow)."""
    from bonanza.core.game import allowed
    return allowed(state)[0]


def regrind_seed(monkeypatch) -> list[bytes]:
    """Make the relay of this test a cheating one (never shipped): after every seat has
    revealed its contribution it throws away the seed it committed to at ``create_table``
    and grinds a new one until the first die of the game is a six, the attack of issue 21.
    The returned list collects the seeds it chose."""
    import hashlib
    import itertools

    from bonanza.core.dice import die, game_key
    from bonanza.relay import handlers
    honest = handlers._begin
    chosen: list[bytes] = []

    def cheat(relay, table, conn, rid):
        if table.daily_date is None:
            contributions = [s.contribution for s in table.slots]
            for n in itertools.count():
                seed = hashlib.sha256(b"grind %d" % n).digest()
                if die(game_key(seed, contributions), 0, 1, 0) == 6:
                    table.seed = seed           # table.commitment still shows the old one
                    chosen.append(seed)
                    break
        honest(relay, table, conn, rid)
    monkeypatch.setattr(handlers, "_begin", cheat)
    return chosen


async def frame_proxy(relay_port: int, to_relay=None, to_client=None) -> asyncio.AbstractServer:
    """A TCP proxy on 127.0.0.1 that passes frames both ways, letting ``to_relay`` change
    the client's messages and ``to_client`` the relay's (a man in the middle)."""
    import struct

    import msgpack

    from bonanza.core.wire import encode_frame

    async def pipe(reader, writer, change):
        try:
            while True:
                head = await reader.readexactly(4)
                (n,) = struct.unpack(">I", head)
                body = await reader.readexactly(n)
                msg = msgpack.unpackb(body, raw=False)
                if change is not None:
                    msg = change(msg)
                writer.write(encode_frame(msg))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def handle(cr, cw):
        rr, rw = await asyncio.open_connection("127.0.0.1", relay_port)
        asyncio.ensure_future(pipe(cr, rw, to_relay))
        asyncio.ensure_future(pipe(rr, cw, to_client))
    return await asyncio.start_server(handle, "127.0.0.1", 0)


@contextlib.contextmanager
def relay_in_thread(**kw):
    """A real relay on 127.0.0.1 in its own thread and event loop, for a window test:
    yields (relay, loop); ``asyncio.run_coroutine_threadsafe(coro, loop)`` runs more there."""
    import threading
    loop = asyncio.new_event_loop()
    box: dict = {}
    ready = threading.Event()
    done = threading.Event()

    async def serve():
        async with running_relay(**kw) as relay:
            box["relay"] = relay
            ready.set()
            while not done.is_set():
                await asyncio.sleep(0.02)

    th = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    th.start()
    try:
        assert ready.wait(30), "the relay did not start"
        yield box["relay"], loop
    finally:
        done.set()
        th.join(10)
        loop.close()


__all__ = ["running_relay", "connect", "open_table", "two_at_a_table", "barrier", "eventually", "tasks_done",
           "choose_box", "ManualClock", "ScaledClock", "Limits"]


async def play_turn_step(c: RelayClient) -> dict:
    """One legal action of ``c``'s seat: roll when not rolled yet, else write."""
    if c.state.dice is None:
        return await c.roll()
    return await c.write(choose_box(c.state))


async def play_to_end(clients: list[RelayClient], timeout: float = 30.0) -> None:
    """Humans roll once and write the first allowed box until the game ends."""
    watcher = clients[0]
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    if watcher.own is not None:                  # a daily table played in rounds
        while watcher.end is None:
            if loop.time() > until:
                raise asyncio.TimeoutError("the game did not end in time")
            movers = [c for c in clients if c.connected and c.my_turn]
            if not movers:
                seq = watcher.seq
                await watcher.wait_until(
                    lambda: watcher.seq > seq or watcher.end is not None
                    or any(c.connected and c.my_turn for c in clients), until - loop.time())
                continue
            for c in movers:
                await play_turn_step(c)
        return
    while watcher.end is None:
        if loop.time() > until:
            raise asyncio.TimeoutError("the game did not end in time")
        st = watcher.state
        mover = next((c for c in clients if c.seat is not None and not st.over
                      and c.seat == st.active and c.connected), None)
        if mover is None:
            seq = watcher.seq
            await watcher.wait_until(lambda: watcher.seq > seq or watcher.end is not None,
                                     until - loop.time())
            continue
        await mover.wait_until(lambda: mover.seq == watcher.seq)
        await play_turn_step(mover)
        await watcher.wait_until(lambda: watcher.seq >= mover.seq)
