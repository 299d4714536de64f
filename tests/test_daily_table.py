"""The daily challenge at a table: friends on one relay roll the day's dice together.

Every seat rolls the dice of its own k-th turn from the day's key, so a seat at a daily
table, a solo attempt on the same relay and a bot all see the same dice for their k-th
turn; the day's one attempt is used when the table starts (sitting down reserves
nothing); nobody watches a daily table; every seat's result enters the board."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core import dice as dice_mod
from bonanza.core.log import parse_log
from bonanza.core.verify import verify_bytes
from tests.relay_harness import ManualClock, connect, eventually, open_table, play_to_end, running_relay


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 90))


def _first_rolls(log) -> dict:
    """seat -> the dice of each of its turns' first roll, in turn order."""
    out: dict = {}
    seen_turn: dict = {}
    for rec in log.records:
        mv = rec["move"]
        if mv["type"] == "write":
            seen_turn[mv["seat"]] = seen_turn.get(mv["seat"], 0) + 1
        elif mv["type"] == "roll":
            k = seen_turn.get(mv["seat"], 0)
            out.setdefault(mv["seat"], {}).setdefault(k, mv["dice"])
    return out


def test_a_daily_table_deals_everyone_the_days_dice_turn_by_turn():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            a, b, c = await connect(relay), await connect(relay), await connect(relay)
            j = await a.request({"type": "create_table", "name": "Ana", "seats": 3,
                                 "turn_seconds": 60, "ruleset": "bonanza", "daily": True})
            assert j["table"]["ruleset"] == "yacht" and j["table"]["daily"] == "2024-06-01"
            await b.join(j["table"]["code"], "Ben")
            await a.start()                                # the third seat is a bot
            await a.wait_until(lambda: a.header is not None)
            with pytest.raises(RelayError) as e:          # Ana's attempt is used from the start
                await c.daily_play("ANA")
            assert e.value.code == "daily_already_played"
            assert a.header["mode"] == "daily" and a.header["dice"]["scheme"] == "day"
            key = dice_mod.game_key(relay.daily.seed("2024-06-01"), [None])
            assert a.header["first_seat"] == dice_mod.first_seat(key, 3)
            await c.daily_play("Cleo")                     # a solo attempt the same day
            await play_to_end([a, b])
            await play_to_end([c])
            clock.date = "2024-06-02"
            table_log = parse_log(await c.daily_log("2024-06-01", "Ana"))
            solo_log = parse_log(await c.daily_log("2024-06-01", "Cleo"))
            assert verify_bytes(table_log.to_bytes()).ok and verify_bytes(solo_log.to_bytes()).ok
            table_rolls, solo_rolls = _first_rolls(table_log), _first_rolls(solo_log)[0]
            for seat, turns in table_rolls.items():        # the bot's too
                for k, dice in turns.items():
                    assert dice == solo_rolls[k], (seat, k)
            board = {e["name"] for e in relay.daily.leaderboard("2024-06-01")}
            assert board == {"Ana", "Ben", "Cleo"}         # bots are not on the board
    run(main())


def test_leaving_a_daily_lobby_before_the_start_keeps_the_attempt():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b), code = await open_table(relay, ["Ana", "Ben"], ruleset="yacht", daily=True)
            await b.leave()
            assert not relay.daily.has_played("2024-06-01", "Ben")
            assert relay.daily.open_attempts("2024-06-01") == 0
            await b.join(code, "Ben")                          # free to sit down again
            await b.leave()
            await b.daily_play("Ben")                          # ... or to play alone
            assert relay.daily.has_played("2024-06-01", "Ben")
            await a.leave()
            assert not relay.daily.has_played("2024-06-01", "Ana")
    run(main())


def test_the_start_uses_every_seats_attempt_and_unseats_one_who_played_meanwhile():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b, c), _ = await open_table(relay, ["Ana", "Ben", "Cleo"], ruleset="yacht",
                                            daily=True)
            solo = await connect(relay)
            assert relay.daily.open_attempts("2024-06-01") == 0   # sitting down reserves nothing
            await solo.daily_play("Cleo")                      # Cleo played alone meanwhile
            await a.start()
            await c.wait_until(lambda: c.seat is None)           # told, and out of the lobby
            told = [c.events.get_nowait() for _ in range(c.events.qsize())]
            assert [m["code"] for m in told if m["type"] == "error"] == ["daily_already_played"]
            await a.wait_until(lambda: a.header is not None)
            names = [s["name"] for s in a.header["seats"]]
            assert names[:2] == ["Ana", "Ben"] and names[2].startswith("Bot ")
            assert relay.daily.has_played("2024-06-01", "Ana")
            assert relay.daily.has_played("2024-06-01", "Ben")
            assert relay.daily.open_attempts("2024-06-01") == 3   # Ana, Ben and Cleo alone
    run(main())


def test_a_host_who_played_meanwhile_cannot_start_and_uses_nobodys_attempt():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b), _ = await open_table(relay, ["Ana", "Ben"], ruleset="yacht", daily=True)
            solo = await connect(relay)
            await solo.daily_play("Ana")
            with pytest.raises(RelayError) as e:
                await a.start()
            assert e.value.code == "daily_already_played"
            assert not relay.daily.has_played("2024-06-01", "Ben")
    run(main())


def test_a_name_is_fixed_at_a_daily_table():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b), _ = await open_table(relay, ["Ana", "Ben"], ruleset="yacht", daily=True)
            with pytest.raises(RelayError) as e:
                await b.set_name("Cleo")
            assert e.value.code == "daily_name_fixed"
            assert [p["name"] for p in b.table["players"]] == ["Ana", "Ben"]
    run(main())


def test_a_malformed_key_does_not_use_the_days_attempt():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            with pytest.raises(RelayError) as e:
                await a.request({"type": "daily_play", "name": "Ana", "key": b"short"})
            assert e.value.code == "bad_message"
            assert not relay.daily.has_played("2024-06-01", "Ana")
            assert relay.daily.open_attempts("2024-06-01") == 0
            b = await connect(relay)
            await b.daily_play("Ana")                          # the attempt is still there
    run(main())


def test_a_daily_table_is_never_watched_and_has_the_dailys_clock(monkeypatch):
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock, discovery=("127.0.0.1", 0)) as relay:
            monkeypatch.setenv("BONANZA_DISCOVERY", f"127.0.0.1:{relay.discovery_port}")
            a, w = await connect(relay), await connect(relay)
            j = await a.request({"type": "create_table", "name": "Ana", "seats": 2,
                                 "turn_seconds": 30, "ruleset": "yacht", "daily": True})
            code = j["table"]["code"]
            assert j["table"]["turn_seconds"] == 60               # the daily's, not the host's
            found = await _search()
            assert [(f.code, f.daily, f.started) for f in found] == [(code, True, False)]
            listed = await w.list_tables()
            assert [(t["code"], t["daily"]) for t in listed] == [(code, "2024-06-01")]
            for _ in range(2):                                 # in the lobby and once started
                with pytest.raises(RelayError) as e:
                    await w.request({"type": "watch", "code": code})
                assert e.value.code == "daily_not_watchable"
                if a.header is None:
                    await a.start()
                    await a.wait_until(lambda: a.header is not None)
            assert a.header["settings"]["turn_seconds"] == 60
            assert await _search() == []                       # a started daily is not offered
    run(main())


async def _search() -> list:
    from bonanza.client.discovery import Search
    search = Search(wait=0.5)
    await eventually(lambda: search.done)
    assert search.error is None
    return search.found


def test_a_closed_days_par_is_the_optimal_bots_score_on_the_days_dice():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            await a.daily_play("Ana")
            await play_to_end([a])
            clock.date = "2024-06-02"
            day = (await a.daily_info())["closed"][0]
            from bonanza.core.game import Seat
            from bonanza.core.match import Match
            from bonanza.core.simulate import simulate
            solo = simulate("yacht", ["optimal"], day["seed"])
            # the same dice as a daily attempt of that day: the par is played on them
            m = Match.create_day("2024-06-01", [Seat("x")], day["seed"])
            m.roll()
            assert m.log.records[0]["move"]["dice"] == solo.log.records[0]["move"]["dice"]
            assert day["par"] == solo.state.total(0)
            assert (await a.daily_info())["closed"][0]["par"] == day["par"]    # kept
    run(main())


def test_a_solo_attempt_first_keeps_that_player_from_a_daily_table():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            b = await connect(relay)
            await b.daily_play("Ben")                       # Ben played alone first
            _, code = await open_table(relay, ["Ana"], seats=2, ruleset="yacht", daily=True)
            c = await connect(relay)
            with pytest.raises(RelayError) as e:
                await c.join(code, "Ben")
            assert e.value.code == "daily_already_played"
    run(main())


def test_the_clock_plays_an_absent_seat_at_a_daily_table():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b), _ = await open_table(relay, ["Ana", "Ben"], turn_seconds=30, ruleset="yacht",
                                         daily=True, start=True)
            first = a.game.state.active   # the committed game (a.state: a's own view)
            clock.advance(61)          # nobody moves for a whole round (the daily's 60 s)
            await a.wait_until(lambda: a.seq > 0)   # the round is revealed at once, whole
            autos = [r["move"] for r in a.records]
            assert autos and all(m.get("auto") for m in autos if m["type"] != "give_up")
            writes = [m["seat"] for m in autos if m["type"] == "write"]
            assert writes == [first, 1 - first]      # each seat's clock played it, in seat order
    run(main())
