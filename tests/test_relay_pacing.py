"""Bots pace themselves on the relay's game clock: a manual clock holds them, a scaled
clock runs them (and the turn clock) k times faster than the wall."""
from __future__ import annotations

import asyncio

from bonanza.relay.clock import ManualClock, ScaledClock
from tests.relay_harness import barrier, connect, eventually, play_turn_step, running_relay


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 60))


def test_a_manual_clock_sleep_ends_when_the_clock_gets_there():
    async def main():
        clock = ManualClock()
        nap = asyncio.create_task(clock.sleep(2.0))
        await eventually(lambda: clock.pending() == 1)
        clock.advance(1.5)
        await asyncio.sleep(0)
        assert not nap.done()
        clock.advance(0.5)
        await asyncio.wait_for(nap, 5)
        cancelled = asyncio.create_task(clock.sleep(5.0))
        await eventually(lambda: clock.pending() == 1)
        cancelled.cancel()
        await asyncio.gather(cancelled, return_exceptions=True)
        assert clock.pending() == 0       # a cancelled sleep leaves no timer behind
        await asyncio.wait_for(clock.sleep(0), 1)   # no time: only a yield
    run(main())


def test_a_scaled_clock_runs_faster_than_the_wall():
    async def main():
        clock = ScaledClock(1000)
        loop = asyncio.get_running_loop()
        t0, wall0 = clock.now(), loop.time()
        await clock.sleep(200.0)                   # 0.2 s of the wall
        assert clock.now() - t0 >= 200.0 - 1.0
        assert loop.time() - wall0 < 5.0
        fired = asyncio.Event()
        clock.call_later(100.0, fired.set)
        await asyncio.wait_for(fired.wait(), 5)
    run(main())


def test_a_watched_bot_waits_for_the_game_clock():
    async def main():
        clock = ManualClock()
        # a pause no wall clock would end within the test: only the game clock can
        async with running_relay(clock=clock, bot_delay=1000.0) as relay:
            a = await connect(relay)
            code = (await a.create_table("Ana", 2, 30))["table"]["code"]
            await a.start()
            await a.wait_until(lambda: a.header is not None)
            table, bot = relay.tables[code], 1 - a.seat
            while a.state.active != bot:           # Ana plays until it is the bot's turn
                await play_turn_step(a)
            await eventually(lambda: table.bot_turn == table.turn_id)   # its task is running
            seq = a.seq
            await barrier(a)
            assert a.seq == seq                    # it waits, with Ana watching
            clock.advance(1000.0)                  # its pause is over: it rolls
            await a.wait_until(lambda: a.seq > seq, 10)
            assert a.records[-1]["move"]["seat"] == bot
    run(main())
