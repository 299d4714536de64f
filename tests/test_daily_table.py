"""The daily challenge at a table: friends on one relay roll the day's dice together.

Every seat rolls the dice of its own k-th turn from the day's key, so a seat at a daily
table, a solo attempt on the same relay and a bot all see the same dice for their k-th
turn; sitting down uses the day's one attempt; every seat's result enters the board."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core import dice as dice_mod
from bonanza.core.log import parse_log
from bonanza.core.verify import verify_bytes
from tests.relay_harness import ManualClock, connect, play_to_end, running_relay


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
            with pytest.raises(RelayError) as e:          # Ana's attempt is used already
                await c.daily_play("ANA")
            assert e.value.code == "daily_already_played"
            await a.start()                                # the third seat is a bot
            await a.wait_until(lambda: a.header is not None)
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


def test_leaving_a_daily_lobby_uses_the_attempt_but_does_not_seal_the_day():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            j = await a.request({"type": "create_table", "name": "Ana", "seats": 2,
                                 "turn_seconds": 60, "ruleset": "yacht", "daily": True})
            await b.join(j["table"]["code"], "Ben")
            await b.leave()
            assert relay.daily.has_played("2024-06-01", "Ben")
            with pytest.raises(RelayError) as e:
                await b.join(j["table"]["code"], "Ben")
            assert e.value.code == "daily_already_played"
            await a.leave()
            assert relay.daily.open_attempts("2024-06-01") == 0
    run(main())


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
            a, b = await connect(relay), await connect(relay)
            await b.daily_play("Ben")                       # Ben played alone first
            j = await a.request({"type": "create_table", "name": "Ana", "seats": 2,
                                 "turn_seconds": 60, "ruleset": "yacht", "daily": True})
            c = await connect(relay)
            with pytest.raises(RelayError) as e:
                await c.join(j["table"]["code"], "Ben")
            assert e.value.code == "daily_already_played"
    run(main())


def test_the_clock_plays_an_absent_seat_at_a_daily_table():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            j = await a.request({"type": "create_table", "name": "Ana", "seats": 2,
                                 "turn_seconds": 30, "ruleset": "yacht", "daily": True})
            await b.join(j["table"]["code"], "Ben")
            await a.start()
            await a.wait_until(lambda: a.header is not None)
            active = a.state.active
            clock.advance(31)                                # nobody moves for a whole turn
            await a.wait_until(lambda: a.state.active != active)
            autos = [r["move"] for r in a.records]
            assert autos and all(m.get("auto") for m in autos if m["type"] != "give_up")
            assert autos[-1]["type"] == "write" and autos[-1]["seat"] == active
    run(main())
