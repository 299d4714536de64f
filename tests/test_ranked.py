"""Ranked runs: the relay issues a fresh committed seed per attempt, counts attempts per
person, deals, stamps every move with its own clock and signs the log; its boards keep
ranked runs apart, and a self-dealt log can never be one."""
from __future__ import annotations

import asyncio
import secrets

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core import signing
from bonanza.core.game import Seat
from bonanza.core.log import MAGIC, chain_next, pack, parse_log
from bonanza.core.match import Match
from bonanza.core.verify import category, verify_bytes
from tests.relay_harness import ManualClock, connect, eventually, play_turn_step, running_relay


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 90))


def test_a_ranked_run_is_timed_by_the_relay_counted_and_signed():
    async def main():
        clock = ManualClock(date="2024-07-01")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            await a.ranked_play("Ana", "bonanza")
            assert a.header["mode"] == "ranked" and a.header["meta"]["attempt"] == 1
            steps = 0
            while a.end is None:
                await a.wait_until(lambda: a.my_turn or a.end is not None)
                if a.end is not None:
                    break
                clock.advance(1.5)                     # the relay's clock, not the player's
                await play_turn_step(a)
                steps += 1
            data = a.end["log"]
            v = verify_bytes(data)
            assert v.ok, v.detail
            assert "relay key" in v.signed and "Ana's key" in v.signed
            ats = [r["at"] for r in v.log.records]
            assert ats == sorted(ats) and ats[-1] == v.log.end["meta"]["duration_ms"]
            assert ats[-1] == round(1.5 * (steps - 1) * 1000)   # from the first roll, not the deal
            b = await connect(relay)
            await b.ranked_play("ana")                 # the same person again: attempt 2
            assert b.header["meta"]["attempt"] == 2
            assert b.header["dice"]["commit"] != a.header["dice"]["commit"]   # a fresh seed
            info = await b.request({"type": "ranked_info", "name": "ANA"})
            assert info["attempts"] == 2
            board = info["boards"]["bonanza"]["no_hints"]
            assert [(e["name"], e["score"], e["attempts"]) for e in board] == \
                [("Ana", v.log.end["totals"][0], 2)]
            return data
    data = run(main())
    # the relay's time cannot be changed: a shorter time breaks the relay's signature
    log = parse_log(data)
    end = dict(log.end, meta=dict(log.end["meta"], duration_ms=1))
    end["chain"] = chain_next(log.records[-1]["chain"], end)
    forged = MAGIC + pack(log.header) + b"".join(log.encoded) + pack(end)
    v = verify_bytes(forged)
    assert not v.ok and v.code == "time"


def test_a_self_dealt_log_cannot_be_a_ranked_run():
    """A run the player dealt and timed itself, relabelled ranked, is refused: a ranked
    run is signed by its relay and every move carries the relay's time."""
    m = Match.create("bonanza", [Seat("Me")], secrets.token_bytes(32), mode="ranked")
    while not m.state.over:
        m.roll()
        m.write(m.state.sheets[0].free_boxes()[0])
    m.finish({"duration_ms": 1})
    v = verify_bytes(m.log.to_bytes())
    assert not v.ok and v.code == "format" and "signed by its relay" in v.detail
    signer = signing.Signer(secrets.token_bytes(32))        # and signed by a key of one's own
    m = Match.create("bonanza", [Seat("Me")], secrets.token_bytes(32), mode="ranked",
                     signer=signer, seat_keys=[None])
    while not m.state.over:
        m.roll()
        m.write(m.state.sheets[0].free_boxes()[0])
    m.finish({"duration_ms": 1})
    v = verify_bytes(m.log.to_bytes())
    assert not v.ok and v.code == "format" and "'at'" in v.detail


def test_a_run_nobody_plays_is_counted_and_ends():
    async def main():
        clock = ManualClock(date="2024-07-01")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            await a.ranked_play("Ana", "yacht", hints=True)
            assert a.header["settings"] == {"hints": True}
            await a.close()
            await eventually(lambda: not relay.conns)
            from bonanza.relay.server import DAILY_ABANDON
            clock.advance(DAILY_ABANDON + 5)
            await eventually(lambda: not any(t.running for t in relay.tables.values()))
            assert relay.ranked.attempts("Ana") == 1
            assert relay.ranked.board("yacht", True) == []      # given up: not on the board
            assert not any(t.running for t in relay.tables.values())
    run(main())


def test_a_run_decided_faster_than_a_person_reads_is_kept_off_the_board():
    """Two ranked runs: one deciding 1.5 s after each roll, one at 30 ms a move (a script).
    The script's is marked tool-assisted and listed apart; the board has the person's."""
    async def main():
        clock = ManualClock(date="2024-07-02")
        async with running_relay(clock=clock) as relay:
            for name, pace in (("Ana", 1.5), ("Bot-ish", 0.03)):
                c = await connect(relay)
                await c.ranked_play(name, "bonanza")
                while c.end is None:
                    await c.wait_until(lambda: c.my_turn or c.end is not None)
                    if c.end is not None:
                        break
                    clock.advance(pace)
                    await play_turn_step(c)
            info = await c.request({"type": "ranked_info"})
            boards = info["boards"]["bonanza"]
            assert [e["name"] for e in boards["no_hints"]] == ["Ana"]
            assert [(e["name"], e["tool_assisted"]) for e in boards["tool_assisted"]] == [("Bot-ish", True)]
            assert boards["no_hints"][0]["tool_assisted"] is False
    run(main())


def test_a_ranked_runs_declared_animation_names_its_category():
    """The animation changes a run's time, so the run declares it (as it declares hints): the
    header says it and verify's category names it; anything else is refused before the
    attempt is counted."""
    async def main():
        clock = ManualClock(date="2024-07-01")
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            with pytest.raises(RelayError) as refused:
                await a.request({"type": "ranked_play", "name": "Ana", "animation": "slow-mo"})
            assert refused.value.code == "bad_settings"
            assert relay.ranked.attempts("Ana") == 0
            await a.ranked_play("Ana", "bonanza", animation="instant")
            assert a.header["meta"]["animation"] == "instant" and a.header["meta"]["attempt"] == 1
            while a.end is None:
                await a.wait_until(lambda: a.my_turn or a.end is not None)
                if a.end is not None:
                    break
                clock.advance(1.5)
                await play_turn_step(a)
            v = verify_bytes(a.end["log"])
            assert v.ok, v.detail
            assert category(v.log.header, v.log.end["meta"])["animation"] == "instant"
            b = await connect(relay)
            await b.ranked_play("Bea", "bonanza")           # declared nothing: the category does not say
            assert "animation" not in b.header["meta"]
    run(main())
