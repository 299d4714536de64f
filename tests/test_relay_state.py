"""A hypothesis state machine over real TCP: several clients join, play, drop,
reconnect, send junk and let the clock run.  At every step each client's log is a
prefix of the relay's log, with the same state hashes and chain."""
from __future__ import annotations

import asyncio
import struct

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bonanza.client.relay_client import RelayError
from bonanza.relay.server import Limits
from tests.relay_harness import ManualClock, barrier, choose_box, connect, eventually, running_relay, tasks_done

NAMES = ["Ana", "Ben", "Cy"]


class RelayMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.clock = ManualClock()
        self.ctx = running_relay(clock=self.clock, limits=Limits(rate=1000, burst=1000))
        self.relay = self.run(self.ctx.__aenter__())
        self.clients = []
        self.code = None

    def run(self, coro, timeout=10):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    def teardown(self):
        async def down():
            for c in self.clients:
                c.drop()
            await self.ctx.__aexit__(None, None, None)
        self.run(down())
        self.loop.close()

    @initialize(seats=st.integers(3, 4), turn=st.sampled_from([30, 60]))
    def setup_table(self, seats, turn):
        async def go():
            clients = [await connect(self.relay) for _ in NAMES]
            j = await clients[0].create_table(NAMES[0], seats, turn)
            self.code = j["table"]["code"]
            for c, n in zip(clients[1:], NAMES[1:]):
                await c.join(self.code, n)
            await clients[0].start()
            for c in clients:
                await c.wait_until(lambda c=c: c.header is not None)
            self.clients = clients
            # kept here: a finished table leaves relay.tables 10 game minutes after its end
            # (FINISHED_KEEP), and the clock may run that far
            self._table = self.relay.tables[self.code]
        self.turn = turn
        self.run(go())

    @property
    def table(self):
        return self._table

    async def _settled(self):
        await tasks_done(self.relay)                 # bots have played their turns
        await barrier(*(c for c in self.clients if c.connected))
        seq = self.table.match.state.seq
        for c in self.clients:
            if c.connected and c.seat is not None:
                await c.wait_until(lambda c=c: c.seq >= seq or not c.connected, 5)

    @rule(i=st.integers(0, 2), write=st.booleans(), hold=st.lists(st.booleans(), min_size=5, max_size=5))
    def play(self, i, write, hold):
        c = self.clients[i]
        async def go():
            await self._settled()
            if not c.connected or not c.my_turn:
                return
            try:
                if c.state.dice is None:
                    await c.roll()
                elif write or c.state.rolls_left == 0:
                    await c.write(choose_box(c.state))
                else:
                    if not all(hold):
                        await c.hold(hold)
                        await c.roll()
            except RelayError as e:   # a race with the clock or a bot is fine
                assert e.code in ("bad_sequence", "not_your_turn", "game_over", "seat_gave_up"), e
            await self._settled()
        self.run(go())

    @rule(i=st.integers(0, 2), stale=st.integers(-3, 3))
    def out_of_turn_or_stale(self, i, stale):
        c = self.clients[i]
        async def go():
            if not c.connected or c.seat is None:
                return
            before = self.table.match.state.seq
            try:
                await c.request({"type": "roll", "seq": c.seq + (stale or 1)})
                raise AssertionError("a stale roll was accepted")
            except RelayError as e:
                assert e.code == "bad_sequence"
            assert self.table.match.state.seq == before
        self.run(go())

    @rule(i=st.integers(0, 2), leave=st.booleans())
    def give_up(self, i, leave):
        c = self.clients[i]
        async def go():
            if not c.connected or c.seat is None or c.state.has_given_up(c.seat) or c.state.over:
                return
            try:
                await (c.leave() if leave else c.give_up())
            except RelayError as e:
                assert e.code in ("game_over", "seat_gave_up"), e
            await self._settled()
        self.run(go())

    @rule(i=st.integers(0, 2))
    def drop(self, i):
        self.clients[i].drop()
        # the relay has seen every dropped connection go
        self.run(eventually(lambda: len(self.relay.conns)
                            == sum(1 for c in self.clients if c.connected)))

    @rule(i=st.integers(0, 2))
    def reconnect(self, i):
        c = self.clients[i]
        if c.connected or c.token is None:
            return
        async def go():
            try:
                await c.reconnect()
            except RelayError as e:
                assert e.code == "not_seated"      # the table was purged
        self.run(go())

    @rule(i=st.integers(0, 2), junk=st.binary(min_size=1, max_size=40))
    def junk(self, i, junk):
        c = self.clients[i]
        if not c.connected:
            return
        async def go():
            c.send_raw(struct.pack(">I", len(junk) + 1) + b"\xc1" + junk)  # never valid msgpack
            await c.wait_until(lambda: not c.connected, 5)
        self.run(go())

    @rule(seconds=st.sampled_from([5, 29, 30, 31, 60, 120]))
    def let_the_clock_run(self, seconds):
        async def go():
            self.clock.advance(seconds)
            await self._settled()
        self.run(go())

    @invariant()
    def logs_are_prefixes(self):
        if self.code is None:
            return
        table = self.table
        records = table.match.log.records
        for c in self.clients:
            assert c.desync is None, c.desync
            assert c.header == table.match.log.header
            n = len(c.records)
            assert n <= len(records)
            for mine, theirs in zip(c.records, records[:n]):
                assert mine["seq"] == theirs["seq"]
                assert mine["state"] == theirs["state"]
                assert mine["chain"] == theirs["chain"]
            if c.state is not None and n:
                assert c.state.state_hash() == records[n - 1]["state"]
        if table.finished:
            for c in self.clients:
                if c.end is not None:
                    assert c.verdict is not None and c.verdict.ok


RelayMachine.TestCase.settings = settings(max_examples=12, stateful_step_count=30, deadline=None,
                                          suppress_health_check=list(HealthCheck))
test_relay_state_machine = RelayMachine.TestCase
