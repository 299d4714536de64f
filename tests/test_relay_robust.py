"""The relay against junk: random bytes, random msgpack values, oversized frames,
floods and a reader that never reads.  Nothing may crash the relay or disturb others."""
from __future__ import annotations

import asyncio
import logging
import socket
import struct
import time

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.client.relay_client import RelayError
from bonanza.core.wire import encode_frame
from bonanza.relay.server import Limits
from tests.relay_harness import ManualClock, connect, play_turn_step, running_relay, two_at_a_table


class ErrorLog(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def errors():
    h = ErrorLog()
    logger = logging.getLogger("bonanza.relay")
    logger.addHandler(h)
    yield h.records
    logger.removeHandler(h)


class World:
    """One relay with a seated witness for many hypothesis examples."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.ctx = running_relay(clock=ManualClock(), limits=Limits(rate=1000, burst=1000))
        self.relay = self.loop.run_until_complete(self.ctx.__aenter__())
        self.witness = self.run(connect(self.relay))
        self.run(self.witness.create_table("Wit", 2, 30))
        self.run(self.witness.start())

    def run(self, coro, timeout=60):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    def alive(self):
        """The witness still gets answers; its game still works."""
        async def check():
            w = self.witness
            await w.request({"type": "ping"})
            if w.my_turn:
                await play_turn_step(w)
        self.run(check())

    def close(self):
        self.run(self.ctx.__aexit__(None, None, None))
        self.loop.close()


@pytest.fixture(scope="module")
def world():
    w = World()
    yield w
    w.close()


# The last message of a raw exchange: its pong says every answer before it has arrived.
LAST = {"type": "ping", "rid": "last-of-the-input"}


async def _raw(relay, data: bytes, hello: bool, frames_end: bool = True, limit: float = 30.0) -> list:
    """The messages the relay answers to ``data`` (after a hello when asked), however loaded
    the machine: all of them, read until the relay's pong to ``LAST`` (left out) or the end of the
    stream (it closed the connection), never for a fixed time.  When ``data`` may end inside
    a frame (``frames_end`` false), zeros finish any frame and then make an empty one, so
    the relay always refuses and closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
    if hello:
        writer.write(encode_frame({"type": "hello", "version": 1}))
    writer.write(data)
    writer.write(encode_frame(LAST) if frames_end else bytes(relay.limits.max_frame + 4))
    got = b""
    last = {"type": "pong", "rid": LAST["rid"]}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    try:
        await writer.drain()
        while last not in _frames(got):
            left = deadline - loop.time()
            assert left > 0, f"no pong and no end of the stream in {limit} s: {_frames(got)}"
            chunk = await asyncio.wait_for(reader.read(65536), left)
            if not chunk:
                break
            got += chunk
    except (ConnectionResetError, BrokenPipeError):   # closed with input unread: the answers are in ``got``
        pass
    writer.transport.abort()
    msgs = _frames(got)
    return msgs[:msgs.index(last)] if last in msgs else msgs


def _frames(data: bytes) -> list[dict]:
    out, pos = [], 0
    while pos + 4 <= len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        if pos + 4 + n > len(data):
            break
        out.append(msgpack.unpackb(data[pos + 4:pos + 4 + n], raw=False))
        pos += 4 + n
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.binary(max_size=300), hello=st.booleans())
def test_random_bytes(world, errors, data, hello):
    world.run(_raw(world.relay, data, hello, frames_end=False))
    world.alive()
    assert errors == []


values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**64 - 1) | st.floats() | st.text(max_size=20)
    | st.binary(max_size=40),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20)
TYPES = ["hello", "ping", "pong", "list_tables", "create_table", "join", "set_name", "leave",
         "start", "hold", "roll", "write", "give_up", "resume", "daily_info", "daily_play",
         "daily_log", "nonsense"]
KEYS = ["name", "seats", "turn_seconds", "ruleset", "contribution", "code", "seq", "hold",
        "held", "box", "token", "date", "rid", "version"]


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(msgs=st.lists(
    values | st.builds(lambda t, extra: dict(extra, type=t), st.sampled_from(TYPES),
                       st.dictionaries(st.sampled_from(KEYS), values, max_size=5)),
    min_size=1, max_size=6))
def test_random_msgpack_values(world, errors, msgs):
    try:
        data = b"".join(encode_frame(m) for m in msgs)
    except (OverflowError, ValueError, TypeError):
        return
    got = world.run(_raw(world.relay, data, hello=True))
    assert got and got[0]["type"] == "welcome"
    for m in got[1:]:
        assert isinstance(m, dict) and isinstance(m.get("type"), str)
    world.alive()
    assert errors == []


def test_bad_frames_close_only_that_connection(errors):
    async def main():
        async with running_relay() as relay:
            a = await connect(relay)
            await a.create_table("Ana", 2, 30)
            for data in (struct.pack(">I", 10 ** 6) + b"x" * 10,    # oversized: refused unread
                         struct.pack(">I", 0),                          # empty
                         encode_frame([1, 2, 3]),                         # not a map
                         encode_frame({"type": 7}),                       # no string type
                         encode_frame({"type": "launch_missiles"}),       # unknown type
                         struct.pack(">I", 3) + b"\xc1\xc1\xc1"):       # not msgpack
                got = await _raw(relay, data, hello=True)
                assert [m["type"] for m in got] == ["welcome", "error"], data
                assert got[1]["code"] == "bad_message"
            got = await _raw(relay, encode_frame({"type": "list_tables"}), hello=False)
            assert [m.get("code") for m in got] == ["bad_message"]
            # a seated client's junk closes its connection only
            b = await connect(relay)
            await b.join(a.table["code"], "Ben")
            b.send_raw(struct.pack(">I", 1 << 30))
            await b.wait_until(lambda: not b.connected)
            assert b.events._queue[-2]["code"] == "bad_message"
            await a.wait_until(lambda: len(a.table["players"]) == 1)   # in the lobby a drop frees the seat
            await a.request({"type": "ping"})
            assert errors == []
    asyncio.run(main())


def test_flood_is_rate_limited_then_closed():
    async def main():
        async with running_relay(limits=Limits(rate=10, burst=20, kill_burst=60)) as relay:
            c = await connect(relay)
            for _ in range(30):
                c.send({"type": "ping"})
            # every ping is answered: a pong, or refused as rate_limited
            await c.wait_until(lambda: sum(m["type"] in ("pong", "error") for m in list(c.events._queue)) >= 30, 30)
            kinds = [m.get("code", m["type"]) for m in list(c.events._queue)]
            assert kinds.count("rate_limited") >= 5 and c.connected
            for _ in range(200):
                if not c.connected:
                    break
                c.send({"type": "ping"})
            await c.wait_until(lambda: not c.connected)
            other = await connect(relay)
            await other.request({"type": "ping"})
    asyncio.run(main())


def test_hello_deadline_and_idle_timeout():
    async def main():
        lim = Limits(hello_timeout=0.2, ping_interval=0.2, idle_timeout=0.6, housekeeping=0.05)
        async with running_relay(limits=lim) as relay:
            silent = await connect(relay, hello=False)
            await silent.wait_until(lambda: not silent.connected, 10)
            assert silent.events._queue[0]["code"] == "bad_message"
            # a client that answers pings stays; one that does not is closed
            good = await connect(relay)
            t0 = time.monotonic()
            await good.wait_until(lambda: any(m["type"] == "ping" for m in good.events._queue), 10)
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            writer.write(encode_frame({"type": "hello", "version": 1}))
            data = await asyncio.wait_for(reader.read(), 10)   # returns at EOF: closed for idling
            assert b"ping" in data
            assert good.connected and time.monotonic() - t0 < 10
    asyncio.run(main())


def test_slow_reader_does_not_delay_the_others():
    async def main():
        clock = ManualClock()
        lim = Limits(send_queue=48 * 1024, sndbuf=4096)   # above a signed 3-seat log in `end`
        async with running_relay(clock=clock, limits=lim) as relay:
            a, b = await connect(relay), await connect(relay)
            j = await a.create_table("Ana", 3, 30)
            code = j["table"]["code"]
            await b.join(code, "Ben")
            # the slow reader: a tiny receive buffer and it never reads
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            sock.connect(("127.0.0.1", relay.port))
            sock.sendall(encode_frame({"type": "hello", "version": 1}))
            sock.sendall(encode_frame({"type": "join", "code": code, "name": "Slow",
                                     "contribution": b"s" * 32}))
            await a.wait_until(lambda: len(a.table["players"]) == 3)
            for _ in range(40):    # fills its buffers with answers it never reads
                sock.sendall(encode_frame({"type": "list_tables"}))
            await a.start()
            slow_seat = 2
            latencies = []
            t_end = time.monotonic() + 20
            while not a.state.over and time.monotonic() < t_end:
                st_ = a.state
                if st_.active == slow_seat:
                    clock.advance(30)     # the clock plays for the slow seat
                    await a.wait_until(lambda: a.state.active != slow_seat or a.end is not None)
                    continue
                mover = a if st_.active == a.seat else b
                await mover.wait_until(lambda: mover.seq == a.seq)
                t0 = time.monotonic()
                await play_turn_step(mover)
                latencies.append(time.monotonic() - t0)
                await a.wait_until(lambda: a.seq >= mover.seq)
            # the end follows the last move once the relay's journal has it on disk
            await a.wait_until(lambda: a.end is not None)
            assert a.verdict.ok
            assert max(latencies) < 0.5, max(latencies)
            slot = relay.tables[code].slots[slow_seat]
            assert slot.conn is None          # dropped for not reading; the seat stayed
            sock.close()
    asyncio.run(main())


def test_bad_rids_are_refused_not_stripped():
    async def main():
        async with running_relay() as relay:
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            writer.write(encode_frame({"type": "hello", "version": 1, "rid": 1}))
            for bad in ("x" * 65, {"a": 1}, 1.5, [1]):
                writer.write(encode_frame({"type": "ping", "rid": bad}))
            writer.write(encode_frame({"type": "ping", "rid": 2}))
            got = []
            while len(got) < 6:
                head = await asyncio.wait_for(reader.readexactly(4), 10)
                body = await reader.readexactly(struct.unpack(">I", head)[0])
                got.append(msgpack.unpackb(body, raw=False))
            assert [m["type"] for m in got] == ["welcome"] + ["error"] * 4 + ["pong"]
            assert all(m["code"] == "bad_message" and "rid" not in m and "rid must be" in m["message"]
                       for m in got[1:5])
            assert got[5]["rid"] == 2                   # the connection goes on
            writer.close()
    asyncio.run(main())


def test_echoed_input_is_bounded():
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            mover = a if a.my_turn else b
            await mover.roll()
            for msg in ({"type": "write", "seq": mover.seq, "box": "x" * 50_000},
                        {"type": "roll", "seq": ["y" * 50_000]},
                        {"type": "z" * 50_000}):
                try:
                    await mover.request(msg)
                except RelayError as e:
                    assert len(e.message) <= 200, (e.code, len(e.message))
                else:
                    raise AssertionError("accepted")
                if mover.writer is None or not mover.connected:
                    break
    asyncio.run(main())


def test_lobbies_are_capped_per_address_and_the_list_is_bounded():
    async def main():
        lim = Limits(lobbies_per_address=8, lobbies=20)
        async with running_relay(limits=lim) as relay:
            clients = [await connect(relay) for _ in range(9)]
            for i, c in enumerate(clients[:8]):
                await c.create_table(f"P{i}", 2, 60)
            with pytest.raises(RelayError) as e:
                await clients[8].create_table("P8", 2, 60)
            assert e.value.code == "relay_full"
            listed = await clients[8].request({"type": "list_tables"})
            assert len(listed["tables"]) == 8 and listed["more"] == 0
            assert listed["tables"][0]["players"][0]["name"] == "P7"     # newest first
            await clients[0].leave()                   # a lobby closes: room again
            await clients[8].create_table("P8", 2, 60)
    asyncio.run(main())
