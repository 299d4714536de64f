"""Watching: anyone can follow a table in progress; a watcher gets the log so far and
every move after it, sees what the players see, and can do nothing else."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from tests.relay_harness import connect, play_to_end, play_turn_step, running_relay, two_at_a_table


def test_a_watcher_joins_mid_game_gets_everything_and_can_do_nothing():
    async def main():
        async with running_relay() as relay:
            a, b = await connect(relay), await connect(relay)
            j = await a.create_table("Ana", 2, 90)
            code = j["table"]["code"]
            await b.join(code, "Ben")
            await a.start()
            for _ in range(6):                       # a few moves before the watcher comes
                mover = a if a.my_turn else b
                await mover.wait_until(lambda: mover.seq == a.seq == b.seq)
                await play_turn_step(mover)
            await a.wait_until(lambda: a.seq == b.seq)
            w = await connect(relay)
            got = await w.watch(code.lower())
            assert got["seat"] is None and w.seat is None
            assert w.records == a.records and w.state.state_hash() == a.state.state_hash()
            await a.wait_until(lambda: a.table["watchers"] == 1)
            for msg in ({"type": "roll", "seq": w.seq}, {"type": "write", "seq": w.seq, "box": "chance"},
                        {"type": "hold", "seq": w.seq, "held": [False] * 5},
                        {"type": "give_up", "seq": w.seq}, {"type": "start"}):
                with pytest.raises(RelayError) as e:
                    await w.request(msg)
                assert e.value.code == "watching", msg
            mover = a if a.my_turn else b
            if mover.state.dice is not None:
                await mover.hold([True, False, False, False, False])
                await w.wait_until(lambda: w.held == [True, False, False, False, False])
            await play_to_end([a, b])
            await w.wait_until(lambda: w.end is not None)
            assert w.records == a.records and w.desync is None
            assert w.end["log"] == a.end["log"] and w.verdict.ok          # the seed, verified
            await w.leave()
            await a.wait_until(lambda: a.table["watchers"] == 0 or a.end is not None)
    asyncio.run(asyncio.wait_for(main(), 60))


def test_watching_a_table_that_does_not_exist_is_refused():
    async def main():
        async with running_relay() as relay:
            w = await connect(relay)
            with pytest.raises(RelayError) as e:
                await w.watch("ZZZZZ")
            assert e.value.code == "table_not_found"
    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_rematch_between_two_players_starts_a_new_verified_game():
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            await play_to_end([a, b])
            first = a.header
            got = await b.rematch()                     # Ben asks first: he hosts
            code = got["table"]["code"]
            assert code != a.table["code"] and got["table"]["host"] == got["seat"]
            await a.wait_until(lambda: any(m for m in list(a.events._queue)
                                           if m.get("type") == "rematch"))
            offer = [m for m in list(a.events._queue) if m.get("type") == "rematch"][-1]
            assert offer["code"] == code and offer["by"] == "Ben"
            await a.rematch()
            await b.wait_until(lambda: len(b.table["players"]) == 2)
            with pytest.raises(RelayError) as e:
                await a.start()                          # Ben hosts now
            assert e.value.code == "not_host"
            await b.start()
            await a.wait_until(lambda: a.header is not None)
            assert a.header["chain"] != first["chain"]
            assert a.header["dice"]["commit"] != first["dice"]["commit"]
            assert a.header["ruleset"] == first["ruleset"] and a.header["settings"] == first["settings"]
            await play_to_end([a, b])
            assert a.verdict.ok and b.verdict.ok and a.desync is None
    asyncio.run(asyncio.wait_for(main(), 90))


def test_only_a_finished_tables_players_can_rematch():
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            with pytest.raises(RelayError) as e:
                await a.rematch()                        # the game is not over
            assert e.value.code == "not_seated"
            w = await connect(relay)
            with pytest.raises(RelayError) as e:
                await w.rematch()
            assert e.value.code == "not_seated"
    asyncio.run(asyncio.wait_for(main(), 30))


def test_leaving_with_a_full_sheet_keeps_the_score():
    """A seat that has filled every box and leaves while others still play is not
    counted as giving up (that would rank it behind everyone still playing)."""
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            first = a if a.my_turn else b
            second = b if first is a else a
            while not first.state.sheets[first.seat].is_complete:
                mover = first if first.my_turn else second
                await mover.wait_until(lambda: mover.seq == first.seq == second.seq)
                await play_turn_step(mover)
                await first.wait_until(lambda: first.seq == mover.seq)
            await first.leave()
            await second.wait_until(lambda: second.seq >= first.seq)
            assert not second.state.has_given_up(first.seat)
            await play_to_end([second])
            assert [s["gave_up"] for s in second.end["standings"]] == [None, None]
    asyncio.run(asyncio.wait_for(main(), 60))
