"""Caps per address on the messages that outlive them or reach other people (issue 21):
ranked runs (a few at once, a bounded rate of new ones, an abandoned one ends in minutes
and expiries are spread over passes), watch/leave (players hear of watcher counts at most
once a second) and rematch (a few offers per finished table, a bounded rate per address),
and ``list_tables`` walking only the lobbies.  Real TCP on 127.0.0.1; ManualClock for time."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.relay.limits import Limits
from tests.relay_harness import (
    ManualClock,
    connect,
    eventually,
    open_table,
    play_to_end,
    running_relay,
    two_at_a_table,
)


def run(coro, limit: float = 90):
    return asyncio.run(asyncio.wait_for(coro, limit))


async def refused(coro) -> str:
    with pytest.raises(RelayError) as e:
        await coro
    return e.value.code


def running_ranked(relay) -> list:
    return [t for t in relay.tables.values() if t.mode == "ranked" and t.running]


def test_one_address_holds_a_few_ranked_runs_at_once():
    async def main():
        async with running_relay(clock=ManualClock(), limits=Limits(ranked_per_address=2)) as relay:
            a, b, c = await connect(relay), await connect(relay), await connect(relay)
            await a.ranked_play("Ana")
            await b.ranked_play("Ben")
            assert await refused(c.ranked_play("Cid")) == "too_many_runs"
            assert relay.ranked.attempts("Cid") == 0          # refused before it was counted
            await a.give_up()
            await a.wait_until(lambda: a.end is not None)
            await c.ranked_play("Cid")                        # one ended: room for one more
            assert len(running_ranked(relay)) == 2
    run(main())


def test_new_ranked_runs_come_at_a_bounded_rate():
    async def main():
        clock = ManualClock()
        limits = Limits(ranked_per_address=100, ranked_burst=2, ranked_every=20)
        async with running_relay(clock=clock, limits=limits) as relay:
            a = await connect(relay)
            for _ in range(2):
                await a.ranked_play("Ana")
                await a.give_up()
                await a.wait_until(lambda: a.end is not None)
            assert await refused(a.ranked_play("Ana")) == "rate_limited"
            assert relay.ranked.attempts("Ana") == 2
            clock.advance(19)
            assert await refused(a.ranked_play("Ana")) == "rate_limited"
            clock.advance(1.5)                              # one more earned after 20 s
            await a.ranked_play("Ana")
            assert relay.ranked.attempts("Ana") == 3
    run(main())


def test_an_abandoned_ranked_run_ends_in_minutes_and_expiries_are_spread():
    async def main():
        clock = ManualClock()
        limits = Limits(ranked_per_address=50, ranked_burst=50, expiries_per_pass=4)
        async with running_relay(clock=clock, limits=limits) as relay:
            players = [await connect(relay) for _ in range(10)]
            for i, p in enumerate(players):
                await p.ranked_play(f"P{i}")
            for p in players:
                await p.close()
            await eventually(lambda: all(t.slots[0].conn is None for t in running_ranked(relay)))
            clock.advance(limits.ranked_abandon - 2)        # minutes, not half an hour
            assert len(running_ranked(relay)) == 10
            clock.advance(3.0)                              # one pass past the deadline
            assert len(running_ranked(relay)) == 6          # four per pass
            clock.advance(1.0)
            assert len(running_ranked(relay)) == 2
            clock.advance(1.0)
            assert running_ranked(relay) == []
            assert relay.ranked.attempts("P0") == 1
    run(main())


def test_watch_and_leave_cycling_does_not_flood_the_players():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock, limits=Limits(watch_burst=100)) as relay:
            (a,), code = await open_table(relay, ["Ana"], seats=2, turn_seconds=90)
            seen: list[dict] = []
            a.on_message = lambda m: seen.append(m) if m.get("type") == "table" else None
            watchers = [await connect(relay) for _ in range(5)]
            for _ in range(4):
                for w in watchers:
                    await w.watch(code)
                for w in watchers:
                    await w.leave()
            await a.list_tables()                            # a round trip: all sent has come
            assert len(seen) == 1                            # 40 watches, 40 leaves: one notice
            clock.advance(1.0)
            await a.wait_until(lambda: len(seen) >= 2)
            assert seen[-1]["table"]["watchers"] == 0        # the pending notice says the latest
            clock.advance(5.0)
            await a.list_tables()
            assert len(seen) == 2                            # nothing changed since: no more
    run(main())


def test_one_address_watches_at_a_bounded_rate():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock, limits=Limits(watch_burst=3, watch_every=2)) as relay:
            (a,), code = await open_table(relay, ["Ana"], seats=2, turn_seconds=90)
            w = await connect(relay)
            for _ in range(3):
                await w.watch(code)
            assert await refused(w.watch(code)) == "rate_limited"
            clock.advance(2.0)
            await w.watch(code)
    run(main())


async def back_at(relay, token: str):
    """A new connection resuming a finished seat (the old client holds the rematch's
    contribution now, which the old header rightly does not show)."""
    c = await connect(relay)
    await c.resume(token)
    return c


def test_a_finished_table_announces_few_rematches_at_a_bounded_rate():
    async def main():
        clock = ManualClock()
        limits = Limits(rematch_offers=2, rematch_burst=10)
        async with running_relay(clock=clock, limits=limits) as relay:
            a, b = await two_at_a_table(relay)
            await play_to_end([a, b])
            token = b.token
            offers = lambda: [m for m in list(a.events._queue) if m.get("type") == "rematch"]  # noqa: E731
            for n in (1, 2):
                await b.rematch()                       # a new table, announced to Ana
                await a.wait_until(lambda n=n: len(offers()) == n)
                await b.leave()                         # ... left at once: the table is gone
                b = await back_at(relay, token)         # back at the finished table
            assert await refused(b.rematch()) == "rematch_expired"
            assert len(offers()) == 2
    run(main())


def test_one_address_opens_rematch_tables_at_a_bounded_rate():
    async def main():
        clock = ManualClock()
        limits = Limits(rematch_offers=10, rematch_burst=1, rematch_every=30)
        async with running_relay(clock=clock, limits=limits) as relay:
            a, b = await two_at_a_table(relay)
            await play_to_end([a, b])
            token = b.token
            await b.rematch()
            await b.leave()
            b = await back_at(relay, token)
            assert await refused(b.rematch()) == "rate_limited"
            clock.advance(30)
            await b.rematch()
    run(main(), 120)


def test_list_tables_walks_the_lobbies_only():
    async def main():
        async with running_relay(clock=ManualClock()) as relay:
            a = await connect(relay)
            opened = [await open_table(relay, [f"H{i}"], seats=2, turn_seconds=90)
                      for i in range(3)]
            hosts = [h for (h,), _ in opened]
            codes = [code for _, code in opened]
            for h in hosts[:2]:
                await h.start()                          # a bot takes the other seat
                await h.wait_until(lambda h=h: h.header is not None)
            listed = await a.list_tables()
            assert [t["code"] for t in listed] == [codes[2]]
            assert list(relay._lobbies) == [codes[2]]    # the started ones left the index
            await hosts[2].leave()
            assert await a.list_tables() == [] and relay._lobbies == {}
    run(main())
