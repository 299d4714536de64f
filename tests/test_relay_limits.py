"""Honest limits: what a connection may hold and what closes it are what docs/protocol.md
says — the kernel's send buffer counts in the send queue, one address opens a bounded
number of connections and watches a bounded number of tables, and a flood is closed after
exactly ``kill_burst`` refused messages, with the reason sent."""
from __future__ import annotations

import asyncio
import socket

from bonanza.core.wire import FrameDecoder, encode_frame
from bonanza.relay.limits import Limits
from tests.relay_harness import connect, eventually, running_relay


def run(coro, limit: float = 30):
    return asyncio.run(asyncio.wait_for(coro, limit))


def test_the_kernels_send_buffer_counts_in_the_send_queue():
    async def main():
        lim = Limits()
        async with running_relay(limits=lim) as relay:
            c = await connect(relay)
            conn = next(iter(relay.conns))
            sock = conn.transport.get_extra_info("socket")
            kernel = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
            assert kernel <= 2 * lim.sndbuf                 # capped (Linux doubles the ask)
            assert conn.queue_limit + kernel == lim.send_queue
            await c.close()
    run(main())


def test_connections_per_address_are_capped_with_a_reason():
    async def main():
        async with running_relay(limits=Limits(conns_per_address=3)) as relay:
            kept = [await connect(relay) for _ in range(3)]
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            data = await asyncio.wait_for(reader.read(), 10)    # closed at once
            msgs = FrameDecoder(1 << 20).feed(data)
            assert msgs and msgs[0]["code"] == "too_many_connections"
            writer.close()
            await kept[0].close()                                # one goes: room for one
            await eventually(lambda: len(relay.conns) <= 2)
            again = await connect(relay)
            assert (await again.request({"type": "ping"}))["type"] == "pong"
            for c in kept[1:] + [again]:
                await c.close()
    run(main())


def test_watchers_per_address_are_capped():
    async def main():
        async with running_relay(limits=Limits(watchers_per_address=2, watch_burst=50)) as relay:
            a, b = await connect(relay), await connect(relay)
            code = (await a.create_table("Ana", 2, 60))["table"]["code"]
            await b.join(code, "Ben")
            await a.start()
            watchers = [await connect(relay) for _ in range(3)]
            await watchers[0].watch(code)
            await watchers[1].watch(code)
            try:
                await watchers[2].watch(code)
                raise AssertionError("a third watcher from one address was let in")
            except Exception as e:
                assert getattr(e, "code", None) == "table_full", e
            await watchers[0].leave()
            await watchers[2].watch(code)                    # room again
            for c in (a, b, *watchers):
                await c.close()
    run(main())


def test_a_flood_is_closed_after_exactly_kill_burst_refusals_with_the_reason():
    async def main():
        lim = Limits(rate=0.001, burst=5, kill_burst=20)
        async with running_relay(limits=lim) as relay:
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            writer.write(encode_frame({"type": "hello", "version": 1}))
            for _ in range(100):
                writer.write(encode_frame({"type": "ping"}))
            await writer.drain()
            data = await asyncio.wait_for(reader.read(), 10)    # until the relay closes
            msgs = FrameDecoder(1 << 22).feed(data)
            kinds = [m.get("code", m["type"]) for m in msgs]
            # the burst (hello + 4 pings) answered, kill_burst refused, then the reason
            assert kinds[0] == "welcome" and kinds[1:5] == ["pong"] * 4
            assert kinds[5:25] == ["rate_limited"] * 20
            assert kinds[25:] == ["flooding"], kinds[25:]
            writer.close()
    run(main())
