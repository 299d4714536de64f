"""The relay over real TCP on 127.0.0.1: a whole game, refusals, clock, resume, daily."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest

from bonanza.client.relay_client import RelayClient, RelayConnection, RelayError
from bonanza.core import dice as dice_mod
from bonanza.core.verify import verify_bytes
from tests.pilot import wait_until
from tests.relay_harness import (
    ManualClock,
    ScaledClock,
    barrier,
    choose_box,
    connect,
    eventually,
    play_to_end,
    play_turn_step,
    running_relay,
)

ROOT = Path(__file__).resolve().parents[1]


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def _table(relay, names, seats=4, turn_seconds=30, ruleset="bonanza", start=True):
    clients = [await connect(relay) for _ in names]
    joined = await clients[0].create_table(names[0], seats, turn_seconds, ruleset)
    code = joined["table"]["code"]
    for c, n in zip(clients[1:], names[1:]):
        await c.join(code.lower(), n)
    if start:
        await clients[0].start()
        for c in clients:
            await c.wait_until(lambda c=c: c.header is not None)
    return code, clients


def test_four_seats_two_humans_two_bots_to_reveal(tmp_path):
    async def main():
        async with running_relay(str(tmp_path)) as relay:
            a, b = await connect(relay), await connect(relay)
            joined = await a.create_table("Ana", 4, 30, "bonanza")
            commitment = joined["table"]["commitment"]   # exists before anyone joined
            await b.join(joined["table"]["code"], "Ben")
            await a.start()
            await b.wait_until(lambda: b.header is not None)
            header = a.header
            assert [s["kind"] for s in header["seats"]] == ["human", "human", "bot", "bot"]
            assert [p["kind"] for p in a.table["players"]] == ["human", "human", "bot", "bot"]
            assert header["dice"]["commit"] == commitment
            assert header["settings"] == {"turn_seconds": 30}
            contributions = header["dice"]["contributions"]
            assert len(contributions[0]) == 32 and len(contributions[1]) == 32
            assert contributions[2:] == [None, None]
            await play_to_end([a, b])
            await b.wait_until(lambda: b.end is not None)
            for c in (a, b):
                assert c.desync is None and c.verdict.ok, c.verdict.line()
            seed = a.end["end"]["reveal"]["seed"]
            assert dice_mod.check_reveal(seed, commitment)
            assert a.records == b.records and a.end["log"] == b.end["log"]
            files = list((tmp_path / "logs").glob("*.bonanza"))
            assert len(files) == 1
            assert files[0].read_bytes() == a.end["log"]
            verdict = verify_bytes(files[0].read_bytes())
            assert verdict.ok, verdict.line()
            assert verdict.log.header["seats"][2]["kind"] == "bot"
            await a.close()
            await b.close()
    run(main())


def test_refusals_go_to_the_sender_only():
    async def main():
        async with running_relay(clock=ManualClock()) as relay:
            code, (a, b, c) = await _table(relay, ["Ana", "Ben", "Cy"], seats=3)
            active = next(x for x in (a, b, c) if x.seat == a.state.active)
            other = next(x for x in (a, b, c) if x is not active)
            with pytest.raises(RelayError) as e:
                await other.roll()
            assert e.value.code == "not_your_turn"
            with pytest.raises(RelayError) as e:
                await active.request({"type": "roll", "seq": 5})
            assert e.value.code == "bad_sequence"
            with pytest.raises(RelayError) as e:
                await active.write("chance")
            assert e.value.code == "must_roll_first"
            with pytest.raises(RelayError) as e:
                await active.hold([True] * 5)
            assert e.value.code == "must_roll_first"
            await barrier(a, b, c)
            for x in (a, b, c):   # nobody else saw the errors
                errors = [m for m in list(x.events._queue) if m["type"] == "error"]
                assert len(errors) == (1 if x is other else 3 if x is active else 0)
            await active.roll()
            with pytest.raises(RelayError) as e:
                await active.write("no_such_box")
            assert e.value.code == "unknown_box"
            # holds are shown to everybody
            await active.hold([True, False, True, False, False])
            for x in (a, b, c):
                await x.wait_until(lambda x=x: x.held == [True, False, True, False, False])
            rolled = await active.roll()
            d1, d2 = active.records[-2]["move"]["dice"], rolled["record"]["move"]["dice"]
            assert d2[0] == d1[0] and d2[2] == d1[2]
            # table operations
            with pytest.raises(RelayError) as e:
                await b.start()
            assert e.value.code in ("not_host", "already_started")
            x = await connect(relay)
            for msg, code_ in [({"type": "join", "code": "ZZZZZ", "name": "X"}, "table_not_found"),
                               ({"type": "join", "code": code, "name": "X"}, "already_started"),
                               ({"type": "create_table", "name": "X", "seats": 5,
                                 "turn_seconds": 30, "ruleset": "bonanza"}, "bad_settings"),
                               ({"type": "create_table", "name": "X", "seats": 2,
                                 "turn_seconds": 31, "ruleset": "bonanza"}, "bad_settings"),
                               ({"type": "roll", "seq": 0}, "not_seated"),
                               ({"type": "resume", "token": "nope", "seq": 0}, "not_seated")]:
                with pytest.raises(RelayError) as e:
                    await x.request(dict(msg, contribution=os.urandom(32)))
                assert e.value.code == code_, msg
            y, z, w = await connect(relay), await connect(relay), await connect(relay)
            j = await y.create_table("Yu", 2, 45, "yacht")
            with pytest.raises(RelayError) as e:
                await z.join(j["table"]["code"], "yu")
            assert e.value.code == "name_taken"
            await z.join(j["table"]["code"], "Zoe")
            with pytest.raises(RelayError) as e:
                await w.join(j["table"]["code"], "Wim")
            assert e.value.code == "table_full"
            with pytest.raises(RelayError) as e:
                await z.start()
            assert e.value.code == "not_host"
            assert [t["code"] for t in await w.list_tables()] == []
            v = await connect(relay, hello=False)
            with pytest.raises(RelayError) as e:
                await v.request({"type": "hello", "version": 99})
            assert e.value.code == "version_mismatch"
            await v.wait_until(lambda: not v.connected)
    run(main())


def test_clock_auto_moves_away_and_last_seat_wins():
    async def main():
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            code, (a, b) = await _table(relay, ["Ana", "Ben"], seats=2, turn_seconds=45)
            assert a.clock["remaining"] == 45 and a.clock["seat"] == a.state.active
            clock.advance(20)
            first = a.state.active
            mover = a if a.seat == first else b
            away = b if mover is a else a
            await mover.roll()
            assert mover.clock["remaining"] == 25       # the clock is per turn
            clock.advance(25)                            # expires: the relay writes
            await a.wait_until(lambda: a.state.active != first)
            rec = a.records[-1]["move"]
            assert rec["type"] == "write" and rec["auto"] is True
            await play_turn_step(away)
            away.drop()                                   # the connection drops
            await eventually(lambda: relay.tables[code].slots[away.seat].conn is None)
            autos = 0
            while not mover.state.over:
                if mover.state.active == mover.seat:
                    await mover.wait_until(lambda: mover.seq == relay.tables[code].match.state.seq)
                    await play_turn_step(mover)
                    await play_turn_step(mover)
                else:
                    clock.advance(45)
                    autos += 1
                    await mover.wait_until(lambda: mover.state.active == mover.seat or mover.end is not None)
            await mover.wait_until(lambda: mover.end is not None)   # once the journal has it
            assert autos == 3
            moves = [r["move"] for r in mover.records]
            assert moves[-1] == {"type": "give_up", "seat": away.seat, "why": "away"}
            assert [m["auto"] for m in moves if m["type"] != "give_up" and m["seat"] == away.seat][-5:] == [True] * 5
            assert mover.end["standings"][0]["seat"] == mover.seat
            assert mover.verdict.ok
            # the dropped player resumes after the end and gets everything
            await away.reconnect()
            assert away.end is not None and away.records == mover.records and away.desync is None
    run(main())


def test_resume_gets_missed_moves_and_leave_is_giving_up():
    async def main():
        async with running_relay(clock=ManualClock()) as relay:
            code, (a, b, c) = await _table(relay, ["Ana", "Ben", "Cy"], seats=3)
            b.drop()
            seen = b.seq
            for _ in range(4):
                st = a.state
                mover = next(x for x in (a, c) if x.seat == st.active) if st.active != b.seat else None
                if mover is None:
                    break
                await mover.wait_until(lambda: mover.seq == relay.tables[code].match.state.seq)
                await play_turn_step(mover)
            await barrier(a, c)
            resumed = await b.reconnect()
            assert [r["seq"] for r in resumed["records"]] == list(range(seen + 1, a.seq + 1))
            assert b.records == a.records and b.state == a.state and b.desync is None
            # an old connection is replaced when the seat resumes elsewhere
            b2 = await connect(relay)
            await b2.resume(b.token, 0)
            await b.wait_until(lambda: not b.connected)
            assert b2.records == a.records
            # leaving after the start is giving up; with one seat left the game ends
            await b2.leave()
            await a.wait_until(lambda: a.records[-1]["move"]["type"] == "give_up")
            assert a.records[-1]["move"] == {"type": "give_up", "seat": b.seat, "why": "left"}
            await c.give_up()
            await a.wait_until(lambda: a.end is not None)
            assert a.end["standings"][0]["seat"] == a.seat and a.verdict.ok
            places = {s["seat"]: s["gave_up"] for s in a.end["standings"]}
            assert places[c.seat] == "gave_up" and places[b.seat] == "left"
    run(main())


def test_lobby_leave_drop_and_host_handover():
    async def main():
        async with running_relay() as relay:
            a, b, c = await connect(relay), await connect(relay), await connect(relay)
            j = await a.create_table("Ana", 3, 60)
            code = j["table"]["code"]
            await b.join(code, "Ben")
            await c.join(code, "Cy")
            await c.set_name("Cyd")
            with pytest.raises(RelayError) as e:
                await c.set_name("ben")
            assert e.value.code == "name_taken"
            await a.leave()
            await b.wait_until(lambda: b.table["host"] == 0 and len(b.table["players"]) == 2)
            assert [p["name"] for p in b.table["players"]] == ["Ben", "Cyd"]
            c.drop()
            await b.wait_until(lambda: len(b.table["players"]) == 1)
            await b.start()
            assert [s["kind"] for s in b.header["seats"]] == ["human", "bot", "bot"]
            await play_to_end([b])
            assert b.verdict.ok
    run(main())


def test_real_time_clock_short_turn():
    async def main():
        # a 30 s turn on a real clock 100 times faster (0.3 s): proves the real clock's wiring
        async with running_relay(clock=ScaledClock(100)) as relay:
            code, (a, b) = await _table(relay, ["Ana", "Ben"], seats=2, turn_seconds=30)
            t0 = time.monotonic()
            n = a.seq
            await a.wait_until(lambda: a.seq >= n + 2, timeout=20)
            # not at once, and far sooner than the 30 s of an unscaled clock (a loaded
            # machine may take seconds)
            assert 0.25 < time.monotonic() - t0 < 20
            assert [r["move"]["auto"] for r in a.records[-2:]] == [True, True]
            assert [r["move"]["type"] for r in a.records[-2:]] == ["roll", "write"]
    run(main())


def test_daily_challenge():
    async def main():
        clock = ManualClock(date="2024-03-01")
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            info = await a.daily_info("Ana")
            assert info["date"] == "2024-03-01" and info["played"] is False
            commitment = info["commitment"]
            await a.daily_play("Ana")
            assert a.header["mode"] == "daily" and a.header["ruleset"] == "yacht"
            assert a.clock["turn_seconds"] == 60         # the online daily has a turn clock
            with pytest.raises(RelayError) as e:
                await b.daily_play("ana")
            assert e.value.code == "daily_already_played"
            await b.daily_play("Ben")
            await a.roll()
            await b.roll()
            assert a.records[-1]["move"]["dice"] == b.records[-1]["move"]["dice"]
            await play_to_end([a])
            await play_to_end([b])
            assert a.end["log"] is None and a.desync is None
            info = await a.daily_info()
            assert {e["name"] for e in info["leaderboard"]} == {"Ana", "Ben"}
            assert info["closed"] == []
            with pytest.raises(RelayError) as e:
                await a.daily_log("2024-03-01", "Ana")
            assert e.value.code == "log_not_available"
            clock.date = "2024-03-02"
            info = await a.daily_info()
            assert info["date"] == "2024-03-02" and info["commitment"] != commitment
            closed = info["closed"][0]
            assert closed["date"] == "2024-03-01" and closed["commitment"] == commitment
            assert dice_mod.check_reveal(closed["seed"], commitment)
            data = await a.daily_log("2024-03-01", "Ana")
            verdict = verify_bytes(data)
            assert verdict.ok, verdict.line()
            assert verdict.log.records == a.records
            await a.daily_play("Ana")   # a new day, a new attempt
    run(main())


def test_relay_connection_thread_wrapper():
    async def serve(ready, stop):
        async with running_relay(clock=ManualClock()) as relay:
            ready.set_result(relay.port)
            await stop
    loop = asyncio.new_event_loop()
    import threading
    ready = loop.create_future()
    stop = loop.create_future()
    t = threading.Thread(target=lambda: loop.run_until_complete(serve(ready, stop)), daemon=True)
    t.start()
    port = asyncio.run_coroutine_threadsafe(asyncio.wait_for(asyncio.shield(ready), 30),
                                            loop).result(40)
    conn = RelayConnection("127.0.0.1", port)
    try:
        msgs = []

        def wait(pred):
            try:
                wait_until(pred, 30, what="the relay's answer", others=[lambda: msgs.extend(conn.poll())])
            except AssertionError as e:
                raise AssertionError(f"{e}; got {msgs}") from None
        wait(lambda: conn.status == "connected")
        conn.send({"type": "create_table", "name": "Ana", "seats": 2, "turn_seconds": 30,
                   "ruleset": "bonanza"})
        wait(lambda: conn.table is not None)
        conn.send({"type": "start"})
        wait(lambda: conn.state is not None)
        while conn.state.active != conn.seat:
            wait(lambda: conn.state.active == conn.seat)
        n = len(conn.records)
        conn.send({"type": "roll"})
        wait(lambda: len(conn.records) == n + 1)
        conn.drop()                        # the wrapper reconnects and resumes
        wait(lambda: any(m == {"type": "status", "status": "reconnecting"} for m in msgs))
        wait(lambda: conn.status == "connected")
        conn.send({"type": "write", "box": choose_box(conn.state)})
        wait(lambda: len(conn.records) >= n + 2)
        assert any(m["type"] == "resumed" for m in msgs)
    finally:
        conn.close()
        loop.call_soon_threadsafe(stop.set_result, None)
        t.join(5)
    assert conn.status == "closed"


def test_command_line_prints_port_and_stops_on_sigterm(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "bonanza.relay", "--port", "0", "--data",
                          str(tmp_path), "--bot-delay", "0"], stdout=subprocess.PIPE, env=env)
    try:
        line = p.stdout.readline().decode()
        assert line.startswith("listening on 127.0.0.1:")
        port = int(line.rsplit(":", 1)[1])
        assert port > 0

        async def hello():
            c = await RelayClient.open("127.0.0.1", port)
            assert c.welcome["version"] == 1
            await c.close()
        run(hello())
        p.send_signal(signal.SIGTERM)
        assert p.wait(10) == 0
    finally:
        if p.poll() is None:
            p.kill()


def test_daily_end_withholds_the_seed_until_the_day_is_over():
    async def main():
        clock = ManualClock(date="2024-03-01")
        async with running_relay(clock=clock) as relay:
            a, b = await connect(relay), await connect(relay)
            seed = relay.daily.seed("2024-03-01")
            await a.daily_play("Ana")
            await a.give_up()
            await a.wait_until(lambda: a.end is not None)
            assert a.desync is None
            assert a.end["log"] is None and a.end["end"]["reveal"] is None
            # a late resume gets the same end message: the seed stays secret too
            await b.resume(a.token, 0)
            await b.wait_until(lambda: b.end is not None)
            assert b.end["end"]["reveal"] is None and b.desync is None
            assert seed not in msgpack.packb(a.end) + msgpack.packb(b.end)
            clock.date = "2024-03-02"
            data = await b.daily_log("2024-03-01", "Ana")
            assert verify_bytes(data).ok
    run(main())


def test_command_line_start_up_problems_are_one_line_errors(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    a_file = tmp_path / "a-file"
    a_file.write_text("")

    def relay(*args):
        return subprocess.run([sys.executable, "-m", "bonanza.relay", *args], env=env,
                              capture_output=True, text=True, timeout=30)

    bad_data = relay("--port", "0", "--data", str(a_file / "data"))
    assert bad_data.returncode == 2 and "Traceback" not in bad_data.stderr
    assert bad_data.stderr.startswith("error: cannot use the data folder") and "--data" in bad_data.stderr
    bad_port = relay("--port", "99999", "--data", str(tmp_path))
    assert bad_port.returncode == 2 and "from 0 to 65535" in bad_port.stderr
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = relay("--port", str(taken.getsockname()[1]), "--data", str(tmp_path))
    assert busy.returncode == 2 and "Traceback" not in busy.stderr
    assert busy.stderr.startswith("error: cannot listen on 127.0.0.1:") and "--port 0" in busy.stderr
