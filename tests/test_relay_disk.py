"""A full data disk loses nothing: a relay whose data folder (a small tmpfs) fills up in
the middle of a daily game still sends ``end``, refuses new daily and ranked games with
``relay_disk_full``, and writes the finished log and the result once the disk has room
again.  A handler that fails is an ``internal_error``, never "did not understand"."""
from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core.verify import verify_bytes
from bonanza.relay import handlers
from tests.relay_harness import connect, eventually, play_to_end, running_relay


def run(coro, limit: float = 90):
    return asyncio.run(asyncio.wait_for(coro, limit))


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "4m"):
    where.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                              capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"cannot mount a tmpfs here: {e}")
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + done.stderr.decode(errors="replace").strip())
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=20)


def fill(folder: Path) -> Path:
    """Fill the disk under ``folder`` to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        block = bytes(64 * 1024)
        while True:
            try:
                f.write(block)
            except OSError as e:
                assert e.errno == errno.ENOSPC
                break
        for n in (4096, 512, 64, 1):
            while True:
                try:
                    f.write(bytes(n))
                except OSError:
                    break
    return filler


def test_a_full_disk_still_ends_the_game_refuses_daily_and_ranked_then_catches_up(
        tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="bonanza.relay")

    async def go(data: Path):
        async with running_relay(str(data)) as relay:
            ana = await connect(relay)
            await ana.daily_play("Ana")
            filler = fill(data)
            # Every move now fails to reach the journal; the game goes on regardless.
            await play_to_end([ana], timeout=60)
            assert ana.end is not None and ana.end["standings"]
            assert relay.disk_full
            assert ana.end.get("file") is None      # the log could not be written

            ben = await connect(relay)
            for ask in (ben.daily_play("Ben"), ben.ranked_play("Ben")):
                with pytest.raises(RelayError) as refused:
                    await ask
                assert refused.value.code == "relay_disk_full"

            os.unlink(filler)      # room again: the log and the result are written
            await eventually(lambda: not relay.disk_full, 20)   # the finished log written again
            logs = sorted((data / "logs").glob("*.bonanza"))
            assert len(logs) == 1
            assert verify_bytes(logs[0].read_bytes()).ok
            db = sqlite3.connect(data / "daily.sqlite3")
            try:
                row = db.execute("SELECT score, log_file FROM attempts WHERE name = 'Ana'"
                                 ).fetchone()
            finally:
                db.close()
            assert row == (ana.state.total(0), logs[0].name)
            # the log is the record once it is durable (the next group commit syncs it)
            await eventually(lambda: not relay.journals.open, 20)
            await ben.ranked_play("Ben")                           # taken again
            await ana.close()
            await ben.close()

    with small_tmpfs(tmp_path / "data") as data:
        run(go(data))
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    recovered = sum("is writable again" in r.getMessage() for r in caplog.records)
    # The operator reads one line per thing that failed, not one per move or retry: one
    # "cannot write" each time the folder stops being writable (a slow machine may see a
    # freed journal make room for a moment, and say so, before the disk fills again).
    failed = sum("cannot write to the data folder" in m for m in lines)
    assert 1 <= failed <= recovered + 1, lines
    assert sum("cannot write the finished log" in m for m in lines) <= 1, lines


def test_a_failing_handler_is_an_internal_error_not_a_bad_message(tmp_path, monkeypatch,
                                                                   caplog):
    def broken(relay, conn, msg, rid):
        raise KeyError("boom")

    monkeypatch.setitem(handlers.HANDLERS, "daily_info", broken)
    caplog.set_level(logging.ERROR, logger="bonanza.relay")

    async def go():
        async with running_relay(str(tmp_path)) as relay:
            c = await connect(relay)
            for _ in range(3):
                with pytest.raises(RelayError) as refused:
                    await c.daily_info()
                assert refused.value.code == "internal_error"
            assert c.connected        # the connection is not the problem: it stays
            await c.close()

    run(go(), 30)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1      # the operator's traceback once, then one line each


def test_a_store_that_refuses_is_relay_disk_full(tmp_path, monkeypatch):
    def full(*a, **kw):
        raise sqlite3.OperationalError("database or disk is full")

    async def go():
        async with running_relay(str(tmp_path)) as relay:
            monkeypatch.setattr(relay.ranked, "start", full)
            c = await connect(relay)
            with pytest.raises(RelayError) as refused:
                await c.ranked_play("Ana")
            assert refused.value.code == "relay_disk_full"
            assert relay.disk_full
            monkeypatch.undo()
            await eventually(lambda: not relay.disk_full, 20)   # the probe finds it writable again
            await c.ranked_play("Ana")
            await c.close()

    run(go(), 30)
