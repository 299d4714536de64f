"""Quick reactions at a table (``react`` -> ``reaction``): passed to every seat and watcher,
bounded per seat, only known ids, never in the log.  Real TCP on 127.0.0.1; ManualClock
for the rate."""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.client.relay_client import RelayError
from bonanza.core.settings import REACTIONS
from bonanza.relay.limits import Limits
from tests.relay_harness import ManualClock, barrier, connect, play_to_end, running_relay, two_at_a_table


def run(coro, limit: float = 60):
    return asyncio.run(asyncio.wait_for(coro, limit))


def reactions(c) -> list:
    """The reactions ``c`` has been sent so far, as (seat, emote)."""
    return [(m["seat"], m["emote"]) for m in list(c.events._queue) if m.get("type") == "reaction"]


async def refused(coro) -> str:
    with pytest.raises(RelayError) as e:
        await coro
    return e.value.code


def test_a_reaction_reaches_every_seat_and_watcher_and_never_the_log():
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            w = await connect(relay)
            await w.watch(a.table["code"])
            answer = await b.react("nice")
            assert answer["type"] == "reaction" and (answer["seat"], answer["emote"]) == (b.seat, "nice")
            for c in (a, w):
                await c.wait_until(lambda c=c: (b.seat, "nice") in reactions(c))
            assert await refused(w.react("wow")) == "watching"      # a watcher has no seat to react from
            await barrier(a, b, w)
            assert reactions(a) == [(b.seat, "nice")]
            await play_to_end([a, b])
            await w.wait_until(lambda: w.end is not None)
            log = a.end["log"]
            assert b"nice" not in log and b"react" not in log and a.verdict.ok
    run(main())


def test_an_unknown_emote_is_refused_with_its_own_code_and_relayed_to_nobody():
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            for emote in ("hurry up, idiot", "", None, 7, b"gg", ["gg"], "GG"):
                assert await refused(a.request({"type": "react", "emote": emote})) == "unknown_emote"
            await barrier(a, b)
            assert reactions(b) == [] and reactions(a) == []
            solo = await connect(relay)
            await solo.ranked_play("Cid")                         # one seat, nobody to react to
            assert await refused(solo.react("nice")) == "not_at_table"
            assert await refused((await connect(relay)).react("nice")) == "not_seated"
    run(main())


def test_a_flood_of_reactions_is_refused_and_one_more_is_earned_with_time():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock, limits=Limits(react_burst=3, react_every=2)) as relay:
            a, b = await two_at_a_table(relay)
            for emote in REACTIONS[:3]:
                await a.react(emote)
            for _ in range(20):
                assert await refused(a.react("gg")) == "reacting_too_fast"
            await b.react("hello")                          # each seat has its own bucket
            clock.advance(1.9)
            assert await refused(a.react("gg")) == "reacting_too_fast"
            clock.advance(0.2)
            await a.react("gg")
            await barrier(a, b)
            assert reactions(b) == [(a.seat, e) for e in REACTIONS[:3]] + [(b.seat, "hello"), (a.seat, "gg")]
            assert a.seq == b.seq == 0 and a.desync is None   # the game itself untouched
    run(main())


@settings(max_examples=15, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(REACTIONS), st.text(max_size=12), st.integers(-2**63, 2**63 - 1),
                          st.none(), st.binary(max_size=6)), min_size=1, max_size=6))
def test_exactly_the_known_emotes_are_relayed(emotes):
    async def main():
        async with running_relay(clock=ManualClock(), wait_advisor=False,
                                 limits=Limits(react_burst=100)) as relay:
            a, b = await two_at_a_table(relay)
            for emote in emotes:
                try:
                    await a.request({"type": "react", "emote": emote})
                except RelayError as e:
                    assert e.code == "unknown_emote" and emote not in REACTIONS
            await barrier(a, b)
            assert reactions(b) == [(a.seat, e) for e in emotes if isinstance(e, str) and e in REACTIONS]
    run(main())
