"""A daily table is played in rounds over real TCP: a seat sees no die of any turn of
another seat before it has written that turn itself (checked message by message), the
round is revealed whole, and the log verifies once the day is closed."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core.log import parse_log
from bonanza.core.settings import ROUND_REVEAL_SECONDS
from bonanza.core.verify import verify_bytes
from tests.relay_harness import ManualClock, barrier, choose_box, open_table, running_relay


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 90))


def _rolls_in(msg, found: list) -> None:
    """Every roll (a map with a seat and dice) anywhere in ``msg``."""
    if isinstance(msg, dict):
        if "dice" in msg and "seat" in msg:
            found.append(msg)
        for v in msg.values():
            _rolls_in(v, found)
    elif isinstance(msg, list):
        for v in msg:
            _rolls_in(v, found)


class Scout:
    """Reads every message the relay sends one seat and fails on a die it should not see."""

    def __init__(self, client) -> None:
        self.client = client
        self.own_writes = 0                  # turns this seat has written (own_move)
        self.logged_writes: dict[int, int] = {}   # seat -> writes in the records so far
        self.seen_others = 0
        self.problems: list[str] = []
        client.on_message = self.read

    def read(self, msg: dict) -> None:
        seat = self.client.seat
        kind = msg.get("type")
        if kind == "move":
            move = msg["record"]["move"]
            turn = self.logged_writes.get(move["seat"], 0)
            if move["type"] == "roll" and move["seat"] != seat:
                self.seen_others += 1
                if turn >= self.own_writes:
                    self.problems.append(f"seat {move['seat']}'s turn {turn} dice seen before "
                                         f"this seat wrote its turn {turn}")
            if move["type"] == "write":
                self.logged_writes[move["seat"]] = turn + 1
            return
        if kind == "hold" and msg.get("seat") != seat:
            self.problems.append(f"seat {msg.get('seat')}'s held dice shown during the round")
        found: list = []
        _rolls_in(msg, found)
        for roll in found:
            if roll["seat"] != seat:
                self.problems.append(f"a {kind!r} message carries seat {roll['seat']}'s dice")
        if kind == "own_move" and msg["move"]["type"] == "write":
            self.own_writes += 1


def test_a_scout_at_a_daily_table_sees_no_die_before_writing_that_turn():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (scout_c, ben), _ = await open_table(relay, ["Scout", "Ben"], seats=3, ruleset="yacht",
                                                 daily=True)
            scout = Scout(scout_c)
            await scout_c.start()                      # the third seat is a bot
            await scout_c.wait_until(lambda: scout_c.header is not None
                                     and ben.header is not None)
            assert scout_c.header["dice"]["rounds"] is True
            rounds = 0
            while not scout_c.game.state.over:
                seq = scout_c.seq
                # Ben plays first and the bot at once; the scout last, after them
                await ben.roll()
                await ben.hold([True, True, False, False, False])   # answered to Ben alone
                await ben.roll()
                await ben.write(choose_box(ben.state))
                assert ben.round_done and not scout_c.round_done
                assert scout_c.seq == seq                # nothing revealed: the scout plays
                await scout_c.roll()
                await scout_c.write(choose_box(scout_c.state))
                await scout_c.wait_until(lambda: scout_c.seq > seq or scout_c.end is not None)
                await ben.wait_until(lambda: ben.seq == scout_c.seq or ben.end is not None)
                rounds += 1
            assert rounds == 13
            await scout_c.wait_until(lambda: scout_c.end is not None)
            assert scout.seen_others > 0 and scout.problems == []
            assert scout_c.desync is None and ben.desync is None
            clock.date = "2024-06-02"
            data = await scout_c.daily_log("2024-06-01", "Scout")
            verdict = verify_bytes(data)
            assert verdict.ok, verdict.message
            log = parse_log(data)
            # in the log the game goes around the table, round by round
            writers = [r["move"]["seat"] for r in log.records if r["move"]["type"] == "write"]
            first = log.header["first_seat"]
            assert writers == [(first + i) % 3 for i in range(39)]
    run(main())


def test_a_seat_that_leaves_mid_round_gives_up_at_its_place_and_the_round_goes_on():
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b, c), _ = await open_table(relay, ["Ana", "Ben", "Cleo"], ruleset="yacht",
                                            daily=True, start=True)
            await a.roll()
            await a.write(choose_box(a.state))
            await b.roll()
            await b.leave()                           # mid-turn: gives up at its place
            await c.roll()
            await c.write(choose_box(c.state))
            await a.wait_until(lambda: a.seq > 0)
            moves = [r["move"] for r in a.records]
            assert {"type": "give_up", "seat": 1, "why": "left"} in moves
            assert a.game.state.playing() == (0, 2) and not a.game.state.over
            assert a.my_turn and c.my_turn              # round 2 for both at once
    run(main())


def test_the_clock_of_the_next_round_waits_for_the_reveals_replay():
    """After a reveal every window replays the others' turns; each seat's clock of the next
    round starts ROUND_REVEAL_SECONDS later (``starts_in``), so the replay costs nobody
    any of their own turn.  The first round has nothing to replay and starts at once."""
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b), _ = await open_table(relay, ["Ana", "Ben"], ruleset="yacht", daily=True,
                                         start=True)
            await a.wait_until(lambda: a.round is not None and b.round is not None)
            assert a.clock["starts_in"] == 0 and a.clock["remaining"] == 60
            for c in (a, b):
                await c.roll()
                await c.write(choose_box(c.state))
            await a.wait_until(lambda: a.round["round"] == 1 and a.clock is not None)
            await b.wait_until(lambda: b.round["round"] == 1 and b.clock is not None)
            for c in (a, b):
                assert c.clock["starts_in"] == ROUND_REVEAL_SECONDS
                assert c.clock["remaining"] == 60        # the whole turn, once it runs
            clock.advance(60)                # the turn's length alone: nothing is played yet
            await barrier(a, b)
            assert a.seq == 4 and a.my_turn and b.my_turn
            clock.advance(ROUND_REVEAL_SECONDS + 1)      # the wait and the turn are over
            await a.wait_until(lambda: a.seq == 8)
            assert all(r["move"]["auto"] for r in a.records[4:] if r["move"]["type"] != "give_up")
    run(main())


def test_no_reaction_at_a_daily_table_while_it_plays():
    """A seat that has written turn k knows the dice every other seat gets for its turn k;
    a reaction could tell them, so the relay passes none while a daily table plays."""
    async def main():
        clock = ManualClock(date="2024-06-01")
        async with running_relay(clock=clock) as relay:
            (a, b), _ = await open_table(relay, ["Ana", "Ben"], ruleset="yacht", daily=True,
                                         start=True)
            await a.roll()
            await a.write(choose_box(a.state))
            with pytest.raises(RelayError) as refused:
                await a.react("wow")
            assert refused.value.code == "not_at_table"
            await barrier(a, b)
            assert not [m for m in list(b.events._queue) if m.get("type") == "reaction"]
    run(main())
