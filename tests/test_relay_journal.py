"""Games outlive the relay's process: a real relay (``python -m bonanza.relay``) killed with
SIGKILL mid-game and started again on the same data folder resumes every table, daily
attempt and ranked run from its journal; a torn last journal entry is dropped."""
from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bonanza.client.relay_client import RelayClient
from bonanza.core.log import pack
from bonanza.core.verify import verify_bytes
from bonanza.relay.journal import Journals, frame, move_entry, read_entries
from tests.pilot import wait_until
from tests.relay_harness import choose_box, eventually, open_table, play_to_end, play_turn_step

ROOT = Path(__file__).resolve().parents[1]


def run(coro, limit: float = 120):
    return asyncio.run(asyncio.wait_for(coro, limit))


class Child:
    """A relay in its own process on 127.0.0.1, on ``data``."""

    def __init__(self, data: Path, *extra: str):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.p = subprocess.Popen([sys.executable, "-m", "bonanza.relay", "--port", "0",
                                   "--data", str(data), "--bot-delay", "0",
                                   "--discovery-port", "0", *extra],
                                  stdout=subprocess.PIPE, env=env)
        assert self.p.stdout is not None
        line = self.p.stdout.readline().decode()
        assert line.startswith("listening on 127.0.0.1:"), line
        self.port = int(line.rsplit(":", 1)[1])

    def kill(self) -> None:
        self.p.send_signal(signal.SIGKILL)
        self.p.wait(10)

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()


async def _steps(clients: list[RelayClient], n: int) -> None:
    """``n`` moves, each by the client whose turn it is; every client sees each."""
    for _ in range(n):
        mover = next(c for c in clients if c.my_turn)
        await play_turn_step(mover)
        for c in clients:
            await c.wait_until(lambda c=c: c.seq == mover.seq)


def _running(data: Path) -> list:
    """The games the journal would resume (read as a relay starting on ``data`` reads it)."""
    found = Journals(data / "journal", lambda err: None).found()
    return [f for f in found
            if not any(e.get("kind") == "end" and e.get("file") for e in f.entries)]


def _segment(data: Path) -> Path:
    path, = (data / "journal").glob("*.wal")
    return path


def _attempts(data: Path) -> list[tuple]:
    db = sqlite3.connect(data / "daily.sqlite3")
    try:
        return db.execute("SELECT name, score, gave_up FROM attempts ORDER BY name").fetchall()
    finally:
        db.close()


def _runs(data: Path) -> list[tuple]:
    db = sqlite3.connect(data / "ranked.sqlite3")
    try:
        return db.execute("SELECT name, score, gave_up FROM runs").fetchall()
    finally:
        db.close()


def test_sigkill_mid_game_then_every_game_resumes_and_ends(tmp_path):
    relays = [Child(tmp_path)]
    try:
        async def before():
            relay = relays[0]
            (a, b), _ = await open_table(relay, ["Ana", "Ben"], turn_seconds=90, start=True)
            d = await RelayClient.open("127.0.0.1", relay.port)
            await d.daily_play("Cara")
            await d.wait_until(lambda: d.header is not None)
            r = await RelayClient.open("127.0.0.1", relay.port)
            await r.ranked_play("Dan")
            await r.wait_until(lambda: r.header is not None)
            await _steps([a, b], 3)
            await _steps([d], 4)
            await _steps([r], 5)
            return [a, b, d, r]

        async def main():
            clients = await before()
            assert len(_running(tmp_path)) == 3
            for s in (tmp_path / "journal").glob("*.*"):      # the log and its secrets
                assert stat.S_IMODE(s.stat().st_mode) == 0o600
            seqs = [c.seq for c in clients]
            relays[0].kill()
            relays.append(relay := await asyncio.to_thread(Child, tmp_path))
            for c in clients:
                resumed = await c.reconnect("127.0.0.1", relay.port)
                assert resumed["type"] == "resumed" and resumed["restarted"] is True
                secs = resumed["table"]["turn_seconds"]
                if secs:                                  # a fresh full turn, announced
                    assert resumed["clock"]["remaining"] > secs - 5
            assert [c.seq for c in clients] == seqs
            a, b, d, r = clients
            await play_to_end([a, b], 120)
            await play_to_end([d], 120)
            await play_to_end([r], 120)
            for c in (a, b, r):
                assert c.verdict is not None and c.verdict.ok, c.verdict
            for c in clients:
                await c.close()

        run(main(), 240)
    finally:
        relays[-1].stop()
    logs = sorted((tmp_path / "logs").glob("*.bonanza"))
    assert len(logs) == 3
    for f in logs:
        verdict = verify_bytes(f.read_bytes())
        assert verdict.ok, (f.name, verdict)
    assert _running(tmp_path) == []
    # the killed run's segment went once its games were written again in the new one
    assert len(list((tmp_path / "journal").glob("*.wal"))) == 1
    (name, score, gave_up), = _attempts(tmp_path)      # counted once, finished
    assert name == "Cara" and score is not None and gave_up is None
    (name, score, gave_up), = _runs(tmp_path)
    assert name == "Dan" and score is not None and gave_up is None


def test_a_torn_last_entry_is_dropped(tmp_path):
    relays = [Child(tmp_path)]
    try:
        async def main():
            r = await RelayClient.open("127.0.0.1", relays[0].port)
            await r.ranked_play("Eve")
            await r.wait_until(lambda: r.header is not None)
            await _steps([r], 4)
            seq = r.seq
            relays[0].kill()
            path = _segment(tmp_path)
            data = path.read_bytes()
            entries, sound = read_entries(data)
            assert sound == len(data) and len(entries) == 1 + seq
            # a crash cut the next entry short: its frame is there, half its body is not
            torn = frame(move_entry(entries[0]["game"], b"x" * 16))
            path.write_bytes(data + torn[:len(torn) // 2])
            relays.append(relay := await asyncio.to_thread(Child, tmp_path))
            resumed = await r.reconnect("127.0.0.1", relay.port)
            assert resumed["type"] == "resumed" and r.seq == seq
            await play_to_end([r], 120)
            assert r.verdict is not None and r.verdict.ok
            await r.close()
            # written again in the new run's segment, the old one goes; then it finished
            await eventually(lambda: not path.exists(), 20)
            assert _running(tmp_path) == []

        run(main())
    finally:
        relays[-1].stop()


@pytest.mark.parametrize("damage", ["middle", "secret"])
def test_a_damaged_journal_is_set_aside_and_the_daily_attempt_given_back(tmp_path, damage):
    relays = [Child(tmp_path)]
    code = None
    try:
        async def main():
            nonlocal code
            d = await RelayClient.open("127.0.0.1", relays[0].port)
            await d.daily_play("Fay")
            await d.wait_until(lambda: d.header is not None)
            await _steps([d], 3)
            relays[0].kill()
            path = _segment(tmp_path)
            code = read_entries(path.read_bytes())[0][0]["code"]
            if damage == "secret":
                path.with_suffix(".secrets").unlink()
            else:   # a move changed (and framed again): the fold refuses it, never trusts it
                entries, _ = read_entries(path.read_bytes())
                rec = msgpack.unpackb(entries[2]["record"])
                rec["state"] = bytes(32)
                entries[2]["record"] = msgpack.packb(rec)
                path.write_bytes(b"".join(frame(msgpack.packb(e)) for e in entries))
            relays.append(relay := await asyncio.to_thread(Child, tmp_path))
            with pytest.raises(Exception):
                await d.reconnect("127.0.0.1", relay.port)
            c = await RelayClient.open("127.0.0.1", relay.port)
            info = await c.daily_info("Fay")
            assert info["played"] is False          # the relay failed, not the player
            await c.close()
            await d.close()

        run(main())
        # set aside as the game's own journal, for a person to look at; never resumed
        assert code is not None and (tmp_path / "journal" / "damaged" / f"{code}.journal").exists()
        assert _running(tmp_path) == []
    finally:
        relays[-1].stop()


def test_sigterm_tells_the_players_and_the_connection_rides_through(tmp_path):
    """SIGTERM: every client hears "the relay is restarting", the journals are flushed;
    the window's connection keeps trying and resumes the seat when the relay is back."""
    import socket

    from bonanza.client.relay_client import RelayConnection
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "bonanza.relay", "--port", str(port), "--data", str(tmp_path),
           "--bot-delay", "0", "--discovery-port", "0"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env)
    conn = None
    try:
        assert p.stdout is not None and p.stdout.readline().startswith(b"listening")
        conn = RelayConnection("127.0.0.1", port)
        seen: list[dict] = []

        def wait(pred, limit=30.0):
            try:
                wait_until(pred, limit, what="the relay's answer", others=[lambda: seen.extend(conn.poll())])
            except AssertionError as e:
                raise AssertionError(f"{e}; last seen {seen[-5:]}") from None

        wait(lambda: conn.status == "connected")
        conn.send({"type": "ranked_play", "name": "Gil"})
        wait(lambda: conn.state is not None)
        conn.send({"type": "roll"})
        wait(lambda: conn.state.seq == 1)
        p.send_signal(signal.SIGTERM)
        assert p.wait(10) == 0
        wait(lambda: any(m["type"] == "restarting" for m in seen))
        wait(lambda: conn.status == "reconnecting")
        assert conn.restarting
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env)
        wait(lambda: conn.status == "connected")
        assert conn.restarted and not conn.restarting and conn.state.seq == 1
        conn.send({"type": "write", "box": "chance"})
        wait(lambda: conn.state.seq == 2)
    finally:
        if conn is not None:
            conn.close()
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            p.wait(10)


def test_a_daily_round_not_yet_revealed_is_played_again_after_a_restart(tmp_path):
    """A daily table's round lives in memory until it is revealed: after a SIGKILL its
    seats play that turn again, and the day's dice make it the same turn."""
    relays = [Child(tmp_path, "--daily-any-address")]   # two people on one address
    try:
        async def main():
            (a, b), _ = await open_table(relays[0], ["Ana", "Ben"], ruleset="yacht", daily=True,
                                         start=True)
            first = (await a.roll())["move"]["dice"]        # round 0, not revealed
            await a.write(choose_box(a.state))
            assert a.round_done and a.seq == 0
            relays[0].kill()
            relays.append(relay := await asyncio.to_thread(Child, tmp_path,
                                                           "--daily-any-address"))
            for c in (a, b):
                resumed = await c.reconnect("127.0.0.1", relay.port)
                assert resumed["restarted"] is True and resumed["round"]["moves"] == []
            assert a.my_turn and not a.round_done             # the turn is played again
            again = (await a.roll())["move"]["dice"]
            assert again == first
            await play_to_end([a, b], 120)
            for c in (a, b):
                assert c.desync is None
                await c.close()

        run(main(), 240)
    finally:
        relays[-1].stop()


@pytest.mark.parametrize("damage", ["middle", "torn_table"])
def test_a_damaged_ranked_journal_ends_the_run_given_up_by_the_relay(tmp_path, damage):
    """A ranked run whose journal cannot be read back never stays open: it ends given up
    by the relay (``gave_up = 'relay'``) and counts as no attempt, whether its table entry
    survived (the run is known by its id) or a crash tore the journal inside its very first
    entry (the store gives back every open run no journal resumes)."""
    relays = [Child(tmp_path)]
    try:
        async def main():
            r = await RelayClient.open("127.0.0.1", relays[0].port)
            await r.ranked_play("Gus")
            await _steps([r], 3)
            relays[0].kill()
            path = _segment(tmp_path)
            data = path.read_bytes()
            entries, sound = read_entries(data)
            assert sound == len(data) and len(entries) == 4
            if damage == "middle":     # a move changed (and framed again): never trusted
                rec = msgpack.unpackb(entries[2]["record"])
                rec["state"] = bytes(32)
                entries[2]["record"] = msgpack.packb(rec)
                path.write_bytes(b"".join(frame(msgpack.packb(e)) for e in entries))
            else:                      # cut inside the table entry: nothing says whose run
                path.write_bytes(data[:len(frame(msgpack.packb(entries[0]))) // 2])
            assert _runs(tmp_path) == [("Gus", None, None)]       # open when the relay died
            relays.append(relay := await asyncio.to_thread(Child, tmp_path))
            with pytest.raises(Exception):
                await r.reconnect("127.0.0.1", relay.port)      # the seat is gone
            await r.close()
            assert _runs(tmp_path) == [("Gus", None, "relay")]
            c = await RelayClient.open("127.0.0.1", relay.port)
            info = await c.request({"type": "ranked_info", "name": "Gus"})
            assert info["attempts"] == 0                        # given back
            await c.ranked_play("Gus")
            assert c.header["meta"]["attempt"] == 1
            await c.close()

        run(main())
        assert len(_running(tmp_path)) == 1       # the new run's
        if damage == "middle":   # set aside for a person to look at (a torn table: nothing)
            assert list((tmp_path / "journal" / "damaged").glob("*.journal"))
    finally:
        relays[-1].stop()


def test_a_game_is_announced_once_its_journal_and_its_name_are_on_disk(tmp_path):
    """``started`` waits for the group commit holding the game's table entry, in a segment
    whose name the relay made durable when it started (a new file's name survives a power
    cut only once its folder is synced); a move sent before it,
    pipelined behind the request, is refused and makes nothing.  The end waits for the
    commit that makes the finished log and its name durable."""
    from bonanza.core.wire import encode_frame
    from tests.relay_harness import running_relay

    async def main():
        async with running_relay(str(tmp_path)) as relay:
            book = relay.journals
            c = await RelayClient.open("127.0.0.1", relay.port)
            # one write: the relay reads both before any commit can run (keyless seat)
            c.send_raw(encode_frame({"type": "ranked_play", "name": "Hal", "rid": 1})
                       + encode_frame({"type": "roll", "seq": 0, "hold": [False] * 5,
                                       "rid": 2}))
            await c.wait_until(lambda: c.header is not None)
            assert book.folder_syncs == 1 and book.commits >= 1     # durable, then told
            got = []
            while not c.events.empty():
                got.append(c.events.get_nowait())
            refused = [m for m in got if m.get("rid") == 2]
            assert [(m["type"], m["code"]) for m in refused] == [("error", "not_started")]
            assert c.seq == 0 and c.records == []
            entries, _ = read_entries(_segment(tmp_path).read_bytes())
            assert [e["kind"] for e in entries] == ["table"]
            while not c.state.over:
                await play_turn_step(c)
            await c.wait_until(lambda: c.end is not None)
            assert book.folder_syncs == 2        # the logs folder, with the finished log
            assert (tmp_path / "logs" / c.end["file"]).exists()
            await c.close()

    run(main())


@given(st.binary(max_size=70_000), st.integers(1, 2**40))
def test_a_move_entry_is_the_msgpack_map_read_back(record, game):
    """The relay writes a move entry's head by hand (no map per move): its bytes are
    exactly the map ``restore`` reads back."""
    body = move_entry(game, record)
    assert body == pack({"kind": "move", "game": game, "record": record})
    data = frame(body)
    assert read_entries(data) == ([{"kind": "move", "game": game, "record": record}], len(data))
