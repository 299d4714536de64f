"""A sealed daily: the day's seed stays secret until every attempt of that day has ended;
one attempt per person (look-alike names are one person) and per address."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core.names import name_key
from bonanza.relay.daily import DailyStore
from bonanza.relay.server import DAILY_LIMIT
from tests.relay_harness import ManualClock, connect, play_to_end, running_relay, tasks_done


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 60))


@pytest.mark.parametrize("a, b", [
    ("Ana", "ANA"), ("Ana", "\u0410na"),          # Cyrillic А
    ("Ana", "\uff21\uff4e\uff41"),                # full-width Ａｎａ
    ("Zoë", "Zoe"), ("Ana Lu", "AnaLu"), ("Speedy", "Spe\u0435dy"),   # Cyrillic е
    ("Carl", "Car1"), ("Mona", "Rnona"),
])
def test_look_alike_names_are_one_person(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("a, b", [("Ana", "Ben"), ("Ana", "Anabel"), ("Bo", "Bob")])
def test_different_names_stay_different(a, b):
    assert name_key(a) != name_key(b)


def test_the_seed_stays_sealed_across_midnight_until_the_open_attempt_ends():
    async def main():
        clock = ManualClock(date="2024-03-01")
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            seed = relay.daily.seed("2024-03-01")
            await a.daily_play("Ana")                  # started just before midnight
            await b.daily_play("Ben")
            await b.give_up()
            await b.wait_until(lambda: b.end is not None)
            clock.date = "2024-03-02"                  # midnight: Ana's attempt is still open
            info = await b.daily_info()
            assert all(d["date"] != "2024-03-01" for d in info["closed"])
            with pytest.raises(RelayError) as e:
                await b.daily_log("2024-03-01", "Ben")
            assert e.value.code == "log_not_available"
            assert seed not in repr(info).encode()
            await a.give_up()                          # the last attempt of that day ends
            await a.wait_until(lambda: a.end is not None)
            info = await b.daily_info()
            day = next(d for d in info["closed"] if d["date"] == "2024-03-01")
            assert day["seed"] == seed
            assert await b.daily_log("2024-03-01", "Ben")
    run(main())


def test_an_attempt_nobody_plays_ends_by_itself():
    """Connected and idle: the turn clock plays it out (and DAILY_LIMIT is the backstop);
    either way the attempt ends and no longer seals the day."""
    async def main():
        clock = ManualClock(date="2024-03-01")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            await a.daily_play("Ana")
            for _ in range(int(DAILY_LIMIT // 600) + 1):   # connected, never playing
                clock.advance(600)
                await tasks_done(relay)                 # the away turn the clock started
                await a.request({"type": "ping"})       # a living connection
            await a.wait_until(lambda: a.end is not None)
            assert all(r["move"].get("auto") for r in a.records)   # the clock played it
            assert relay.daily.open_attempts("2024-03-01") == 0
    run(main())


def test_look_alikes_and_a_second_name_from_one_address_are_refused():
    async def main():
        clock = ManualClock(date="2024-03-01")
        async with running_relay(clock=clock, daily_per_address=True) as relay:
            a, b = await connect(relay), await connect(relay)
            await a.daily_play("Ana")
            for name, why in (("\u0410na", "daily_already_played"),
                              ("ANA", "daily_already_played"), ("Ben", "daily_address_played")):
                with pytest.raises(RelayError) as e:
                    await b.daily_play(name)
                assert e.value.code == why          # the real reason: the name, or the address
            assert "address" in e.value.message
    run(main())


def test_the_leaderboard_groups_attempts_from_one_address(tmp_path):
    d = DailyStore(tmp_path / "daily.sqlite3")
    for name, addr, score in (("Ana", "10.0.0.1", 200), ("Ben", "10.0.0.2", 150),
                              ("Cleo", "10.0.0.1", 250)):
        assert d.start_attempt("2024-03-01", name, None) is None
        d.db.execute("UPDATE attempts SET address = ? WHERE name = ?", (addr, name))
        d.finish_attempt("2024-03-01", name, score, None, None)
    board = d.leaderboard("2024-03-01")
    assert [(e["name"], e["same_address"]) for e in board] == [("Cleo", 1), ("Ana", 1), ("Ben", None)]
    d.close()


def test_attempts_a_restarted_relay_lost_are_ended(tmp_path):
    d = DailyStore(tmp_path / "daily.sqlite3")
    assert d.start_attempt("2024-03-01", "Ana") is None
    assert d.sealed("2024-03-01", "2024-03-02")
    d.close()
    d = DailyStore(tmp_path / "daily.sqlite3")     # the relay restarted: that game is gone
    assert not d.sealed("2024-03-01", "2024-03-02")
    assert d.has_played("2024-03-01", "ana")        # and the attempt still counts
    d.close()


def test_the_board_ranks_give_ups_last_marked_and_ties_share_a_place(tmp_path):
    d = DailyStore(tmp_path / "daily.sqlite3")
    for name, score, why in (("Ana", 151, None), ("Ben", 223, "gave_up"), ("Cleo", 252, None),
                             ("Dan", 151, None), ("Eve", 90, "away"), ("Fay", 223, "left")):
        assert d.start_attempt("2024-03-01", name) is None
        d.finish_attempt("2024-03-01", name, score, why, None)
    board = [(e["place"], e["name"], e["score"], e["gave_up"])
             for e in d.leaderboard("2024-03-01")]
    assert board == [(1, "Cleo", 252, None), (2, "Ana", 151, None), (2, "Dan", 151, None),
                     (4, "Ben", 223, "gave_up"), (4, "Fay", 223, "left"), (6, "Eve", 90, "away")]
    d.close()


def test_a_relay_open_to_any_address_still_marks_attempts_from_one():
    async def main():
        clock = ManualClock(date="2024-03-01")
        async with running_relay(clock=clock, daily_per_address=False) as relay:
            a, b = await connect(relay), await connect(relay)
            await a.daily_play("Ana")
            await b.daily_play("Ben")                  # allowed: the relay is open to any address
            await play_to_end([a])
            await play_to_end([b])
            board = relay.daily.leaderboard("2024-03-01")
            assert sorted(e["same_address"] for e in board) == [1, 1]   # but both are marked
    run(main())
