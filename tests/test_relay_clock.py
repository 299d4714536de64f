"""The relay announces the turn clock: a ``clock`` message every 5 s of a human's turn
and every second in its last 10 s, from one timer per table (injectable clock)."""
from __future__ import annotations

import asyncio

from bonanza.relay.server import DAILY_ABANDON
from bonanza.relay.tables import FINISHED_KEEP
from tests.relay_harness import ManualClock, barrier, connect, eventually, running_relay

HOUSEKEEPING = 1    # the relay's own housekeeping timer is always pending on its clock


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 60))


def _clocks(c) -> list[float]:
    out = []
    while not c.events.empty():
        m = c.events.get_nowait()
        if m["type"] == "clock":
            out.append(m["clock"]["remaining"])
    return out


def test_clock_announcements_every_5_s_then_every_second():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            code = (await a.create_table("Ana", 2, 30))["table"]["code"]
            await b.join(code, "Ben")
            await a.start()
            await a.wait_until(lambda: a.header is not None and b.header is not None)
            assert clock.pending() - HOUSEKEEPING == 1                     # one timer for the table
            first = a.state.active
            mover = a if a.seat == first else b
            _clocks(a), _clocks(b)
            for _ in range(4):
                clock.advance(5)
            for c in (a, b):
                await c.wait_until(lambda c=c: c.clock["remaining"] == 10.0)
            assert _clocks(a) == [25.0, 20.0, 15.0, 10.0]
            assert b.clock["remaining"] == 10.0 and b.clock["seat"] == first
            # a roll does not restart the turn's clock, nor its announcements
            clock.advance(0.5)
            await mover.roll()
            assert mover.clock["remaining"] == 9.5
            assert clock.pending() - HOUSEKEEPING == 1
            for _ in range(9):
                clock.advance(1)
            await a.wait_until(lambda: a.clock["remaining"] == 1.0)
            assert _clocks(a) == [9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
            clock.advance(1)                                # time is up: the relay writes
            await a.wait_until(lambda: a.state.active != first)
            assert a.records[-1]["move"]["auto"] is True
            # the next turn's announcements start from its own beginning
            _clocks(a)
            clock.advance(4.9)
            await barrier(a)
            assert _clocks(a) == []
            clock.advance(0.1)
            await a.wait_until(lambda: a.clock["remaining"] == 25.0)
            assert _clocks(a) == [25.0]
            # a move early in the turn: the next turn is announced from its own start
            nxt = a if a.seat == a.state.active else b
            await nxt.wait_until(lambda: nxt.seq == a.seq)
            await nxt.roll()
            clock.advance(1)
            await nxt.write(nxt.state.sheets[nxt.seat].free_boxes()[0])
            await a.wait_until(lambda: a.seq == nxt.seq)
            _clocks(a)
            clock.advance(4)         # the old timer (due at 20 s of the old turn) fires: nothing
            await barrier(a)
            assert _clocks(a) == []
            assert clock.pending() - HOUSEKEEPING == 1
            clock.advance(1)
            await a.wait_until(lambda: a.clock["remaining"] == 25.0)
            assert _clocks(a) == [25.0]
            await a.close()
            await b.close()
    run(main())


def test_no_announcements_for_bots_and_after_the_end():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            await a.create_table("Ana", 2, 30)
            await a.start()
            await a.wait_until(lambda: a.header is not None)
            await a.leave()                 # gives up: the game ends at once
            await barrier(a)
            clock.advance(60)
            await barrier(a)
            assert clock.pending() - HOUSEKEEPING == 1     # only the finished table's removal is left
            assert _clocks(a) == []
            code = a.table["code"]
            assert code in relay.tables     # kept a while for late resumes
            clock.advance(FINISHED_KEEP)
            await barrier(a)
            assert clock.pending() - HOUSEKEEPING == 0 and code not in relay.tables
            await a.close()
    run(main())


def test_an_abandoned_daily_is_given_up_on_the_relays_clock():
    """Nobody connected to a daily attempt for DAILY_ABANDON: it ends as given up, and
    the leaderboard has it; the manual clock drives all of it, the date and file name too."""
    async def main():
        clock = ManualClock(date="2024-05-06")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            await a.daily_play("Ana")
            await a.roll()
            await a.close()
            table = next(iter(relay.tables.values()))
            await eventually(lambda: not relay.conns and table.slots[0].conn is None)
            clock.advance(DAILY_ABANDON - 10)
            assert not table.finished
            clock.advance(20)
            await eventually(lambda: table.finished)
            assert [tuple(g) for g in table.match.state.gave_up] == [(0, "away")]
            board = relay.daily.leaderboard("2024-05-06")
            assert [e["name"] for e in board] == ["Ana"]
            files = [p.name for p in relay.logs_dir.iterdir()]
            assert len(files) == 1 and files[0].startswith("20240506-")
    run(main())


def test_the_idle_exit_waits_for_no_connection_and_no_game():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            relay.idle_exit = 120.0
            a = await connect(relay)
            clock.advance(300)
            await barrier(a)
            assert not relay.idle.is_set()           # someone is connected
            await a.create_table("Ana", 2, 30)
            await a.start()                          # a game with a bot, then Ana's window dies
            await a.wait_until(lambda: a.header is not None)
            await a.close()
            await eventually(lambda: not relay.conns)
            clock.advance(119)
            assert not relay.idle.is_set()           # the game still runs (the clock plays)
            for _ in range(200):                     # until the away seat has given up
                clock.advance(30)
                # the bot's turn is a task: let it play before the clock moves again
                await eventually(lambda: not relay._tasks)
                if not any(t.running for t in relay.tables.values()):
                    break
            assert not any(t.running for t in relay.tables.values())
            assert not relay.idle.is_set()
            clock.advance(121)
            assert relay.idle.is_set()
    run(main())
