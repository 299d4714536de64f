"""An away seat does not hold the table: once the clock has played a turn for a
disconnected seat, its next turns last AWAY_SECONDS while someone connected waits; the
standings say ``away``.  A player alone (with bots) keeps the full clock."""
from __future__ import annotations

import asyncio

from bonanza.relay.clock import ManualClock
from bonanza.relay.tables import AWAY_SECONDS
from tests.relay_harness import barrier, connect, eventually, play_turn_step, running_relay


def run(coro, limit: float = 60):
    return asyncio.run(asyncio.wait_for(coro, limit))


def test_a_disconnected_seat_gets_a_short_clock_after_its_first_automatic_turn():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            joined = await a.create_table("Ana", 2, 60)
            code = joined["table"]["code"]
            await b.join(code, "Ben")
            await a.start()
            for c in (a, b):
                await c.wait_until(lambda c=c: c.header is not None)
            if a.state.active != a.seat:     # Ben's turn first: roll, then write
                await play_turn_step(b)
                await play_turn_step(b)
                await a.wait_until(lambda: a.state.active == a.seat)
            b.drop()
            await eventually(lambda: relay.tables[code].slots[b.seat].conn is None)
            await a.wait_until(lambda: any(not p["connected"] for p in a.table["players"]))
            waits = []
            while not a.state.over:
                if a.state.active == a.seat:
                    await play_turn_step(a)
                    await play_turn_step(a)
                    await a.wait_until(lambda: a.state.active != a.seat or a.end is not None)
                    continue
                await a.wait_until(lambda: a.clock is not None and a.clock["seat"] == b.seat)
                left = a.clock["remaining"]
                waits.append(left)
                clock.advance(left - 0.5)          # not yet: the seat still has its turn
                await barrier(a)
                assert a.state.active == b.seat
                clock.advance(0.5)
                await a.wait_until(lambda: a.state.active == a.seat or a.end is not None)
            await a.wait_until(lambda: a.end is not None)       # once the journal has it
            # the full turn once, then short ones until the seat is out
            assert waits == [60, AWAY_SECONDS, AWAY_SECONDS], waits
            assert a.records[-1]["move"] == {"type": "give_up", "seat": b.seat, "why": "away"}
            assert [s["gave_up"] for s in a.end["standings"]] == [None, "away"]
            assert a.verdict.ok
            await a.close()
    run(main())


def test_a_player_alone_keeps_the_full_clock():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            joined = await a.create_table("Ana", 2, 30, bots="casual")
            code = joined["table"]["code"]
            await a.start()
            await a.wait_until(lambda: a.header is not None and a.state.active == a.seat)
            a.drop()
            table = relay.tables[code]
            slot = table.slots[0]
            await eventually(lambda: slot.conn is None)
            clock.advance(30)                    # the clock plays; the bot plays
            await eventually(lambda: slot.autos >= 1 and table.match.state.active == 0)
            assert slot.autos >= 1 and table.match.state.active == 0
            assert table.seconds_for(slot) == 30   # nobody waits for this seat
    run(main())
