"""Tables on this network: a relay answers discovery queries on UDP (loopback only here)."""
from __future__ import annotations

import asyncio
import socket
import time

import msgpack

from bonanza.client.discovery import QUERY, Search
from bonanza.relay import discovery
from tests.relay_harness import connect, eventually, running_relay


def test_a_relay_with_two_tables_answers_with_both(monkeypatch):
    async def main():
        async with running_relay(discovery=("127.0.0.1", 0)) as relay:
            monkeypatch.setenv("BONANZA_DISCOVERY", f"127.0.0.1:{relay.discovery_port}")
            a, b = await connect(relay), await connect(relay)
            await a.create_table("Ana", 2, 30)
            await b.create_table("Ben", 4, 90, ruleset="yacht")
            search = Search(wait=0.5)
            await eventually(lambda: search.done)
            assert search.error is None
            got = {(f.host, f.seats, f.taken, f.ruleset, f.turn_seconds, f.started, f.port)
                   for f in search.found}
            assert got == {("Ana", 2, 1, "bonanza", 30, False, relay.port),
                           ("Ben", 4, 1, "yacht", 90, False, relay.port)}
            assert all(f.address == "127.0.0.1" for f in search.found)
    asyncio.run(asyncio.wait_for(main(), 30))


def test_hostile_datagrams_are_ignored_and_floods_rate_limited():
    async def main():
        async with running_relay(discovery=("127.0.0.1", 0)) as relay:
            c = await connect(relay)
            await c.create_table("Ana", 2, 30)
            target = ("127.0.0.1", relay.discovery_port)
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind(("127.0.0.1", 0))
            sock.setblocking(False)
            junk = [b"", b"\xff" * 10, b"x" * 5000, msgpack.packb({"type": "discover", "version": 2}),
                    msgpack.packb({"type": "discover", "version": True}),
                    msgpack.packb([1, 2, 3]), msgpack.packb({"type": "relay", "version": 1})]
            seen = relay.discovery_protocol

            def handled() -> int:
                return seen.answered + seen.ignored
            for j in junk:
                sock.sendto(j, target)
            await eventually(lambda: handled() == len(junk))
            assert seen.answered == 0
            t0 = time.monotonic()
            for _ in range(10):                   # a flood from one sender, in bursts the
                for _ in range(50):               # sockets' buffers hold
                    sock.sendto(QUERY, target)
                sent = handled() + 50
                await eventually(lambda: handled() == sent)
            answers = 0
            while True:
                try:
                    data, _ = sock.recvfrom(4096)
                except BlockingIOError:
                    break
                answers += 1
                assert len(data) <= discovery.MAX_ANSWER
            assert 1 <= answers <= discovery.BURST + discovery.RATE * (time.monotonic() - t0) + 1
            await c.request({"type": "ping"})      # the relay is fine
            sock.close()
    asyncio.run(asyncio.wait_for(main(), 30))


def test_an_answer_fits_one_datagram_and_says_how_many_more():
    async def main():
        from bonanza.relay.server import Limits
        async with running_relay(discovery=("127.0.0.1", 0),
                                 limits=Limits(lobbies_per_address=100, lobbies=100)) as relay:
            clients = [await connect(relay) for _ in range(40)]
            for i, c in enumerate(clients):
                await c.create_table(f"Long player name no {i:02d}", 4, 60)
            data = discovery.answer(relay, "relay")
            msg = msgpack.unpackb(data, raw=False)
            assert len(data) <= discovery.MAX_ANSWER
            assert msg["more"] > 0 and len(msg["tables"]) + msg["more"] == 40
            assert msg["tables"][0]["host"] == "Long player name no 39"   # newest first
    asyncio.run(asyncio.wait_for(main(), 60))


def test_answers_never_go_to_a_discovery_port():
    """No ping-pong between relays: a datagram from a discovery port gets no answer."""
    async def main():
        async with running_relay(discovery=("127.0.0.1", 0)) as relay:
            proto = relay.discovery_protocol
            proto.datagram_received(QUERY, ("127.0.0.1", relay.discovery_port))
            from bonanza.core.settings import DISCOVERY_PORT
            proto.datagram_received(QUERY, ("127.0.0.1", DISCOVERY_PORT))
            assert proto.answered == 0 and proto.ignored == 2
    asyncio.run(asyncio.wait_for(main(), 30))

