"""Kills at the worst moments: during salvage, after a burst of games with the -wal
deleted, and two windows opening a new folder at once.

Every kill is exact: the child kills itself (SIGKILL) at a chosen point through the
store's test hook (``client/store/kill_hook.py``), never after a guessed sleep, so each
case proves the same moment on every run."""
from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from test_store_helpers import CHILD_PRELUDE, ROOT, run_child, solo_log

from bonanza.client.store import PAGE_SIZE, open_store

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

OPEN_ONLY = r"""
from bonanza.client.store import open_store
store, notices = open_store(sys.argv[2])
print("opened", [n.code for n in notices], flush=True)
store.close()
"""

SALVAGED = 120   # games in the damaged file


def count_games(path: str) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    """A folder whose file lost its schema page (a raw salvage), and the games it held."""
    folder = str(tmp_path_factory.mktemp("damaged") / "data")
    store, _ = open_store(folder)
    store.save_profile(name="Chloé")
    recs = [store.record_game(solo_log(i)) for i in range(SALVAGED)]
    store.close()
    with open(os.path.join(folder, "bonanza.db"), "r+b") as f:
        f.write(os.urandom(PAGE_SIZE))   # the schema page is gone
    return folder, recs


# (the first start's kill, the resumed start's kill; None: the resumed start finishes)
SALVAGE_KILLS = [
    ("salvage_row:1", "salvage_row:40"),         # between recovered games, twice
    ("salvage_row:60", "salvage_moved:1"),       # the resumed start dies before refilling
    ("commit:7", "commit:3"),                    # inside a recovered game's transaction
    ("salvage_moved:1", "salvage_filled:1"),     # moved aside; then filled, not yet in place
    ("salvage_filled:1", "salvage_placed:1"),    # in place, the marker not yet removed
    ("salvage_placed:1", None),
]


@pytest.mark.parametrize("first, second", SALVAGE_KILLS)
def test_kills_during_salvage_lose_nothing_and_the_next_start_finishes_it(
        tmp_path, damaged, first, second):
    folder, recs = damaged
    data = str(tmp_path / "data")
    shutil.copytree(folder, data)
    path = os.path.join(data, "bonanza.db")
    for kill_at in (first, second):   # killed, then killed again while resuming
        proc = run_child(OPEN_ONLY, data, kill_at=kill_at)
        if kill_at is None:
            assert proc.returncode == 0, proc.stderr
            assert "store.corrupt_moved" in proc.stdout
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr   # it reached the point
        assert os.path.exists(path + ".salvage")
        # never a partly filled file in place: moved aside, or complete
        assert not os.path.exists(path) or count_games(path) == SALVAGED
    store, notices = open_store(data)
    try:
        assert store.persistent
        hist = store.history(limit=1000)
        assert len(hist) == SALVAGED
        assert {g.seed for g in hist} == {r.seed for r in recs}
        assert store.best("bonanza") == max(r.score for r in recs)
        assert not os.path.exists(path + ".salvage")
        assert not os.path.exists(path + ".salvaging")
        if second is not None:   # this start finished the salvage and says so
            assert [n.code for n in notices] == ["store.corrupt_moved"]
            assert notices[0].params["resumed"] and notices[0].params["recovered"] == SALVAGED
    finally:
        store.close()


BURST = r"""
from test_store_helpers import solo_log
from bonanza.client.store import open_store
store, notices = open_store(sys.argv[2])
assert not notices, notices
i = 0
while True:
    rec = store.record_game(solo_log(5000 + i))
    print(rec.id, rec.seed, flush=True)
    i += 1
"""


def test_games_are_in_the_main_file_not_only_in_the_wal(tmp_path):
    data = str(tmp_path / "data")
    # game 26 is committed, its checkpoint not yet run: the worst moment to lose the -wal
    proc = run_child(BURST, data, kill_at="checkpoint:26")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    committed = [line.split() for line in proc.stdout.splitlines()]
    assert len(committed) == 25
    path = os.path.join(data, "bonanza.db")
    for suffix in ("-wal", "-shm"):   # a player "cleaning up" after the crash
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    store, notices = open_store(data)
    try:
        assert notices == []
        for gid, seed in committed:
            rec = store.game(int(gid))
            assert rec is not None and rec.seed == seed, f"game {gid} lived only in the -wal"
    finally:
        store.close()


RACE = r"""
import json
from test_store_helpers import solo_log
from bonanza.client.store import open_store
print("ready", flush=True)
sys.stdin.readline()   # the parent's "go": both windows are past their imports
store, notices = open_store(sys.argv[2])
began = store.begin_daily("2024-06-01")
rec = store.record_game(solo_log(int(sys.argv[3])))
print(json.dumps([[n.code for n in notices], store.persistent, began, rec.id]), flush=True)
store.close()
"""


def _line(proc: subprocess.Popen, timeout: float = 60.0) -> str:
    """The child's next line, waited for at most ``timeout`` seconds."""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            return ""
    return proc.stdout.readline().strip()


def test_two_windows_opening_a_new_folder_at_once(tmp_path):
    races = 15
    for race in range(races):
        data = str(tmp_path / f"race{race}")
        procs = [subprocess.Popen([sys.executable, "-c", CHILD_PRELUDE + RACE, ROOT, data,
                                   str(race * 2 + k)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for k in range(2)]
        try:
            assert [_line(p) for p in procs] == ["ready", "ready"]
            for p in procs:   # both open together
                p.stdin.write("go\n")
                p.stdin.flush()
            outs = []
            for p in procs:
                out, err = p.communicate(timeout=60)
                assert p.returncode == 0, err
                outs.append(out.strip())
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait(timeout=10)
        seen = [json.loads(o) for o in outs]
        assert all(codes == [] and persistent for codes, persistent, _b, _i in seen), outs
        assert sorted(b for _c, _p, b, _i in seen) == [False, True], outs   # one daily
        store, notices = open_store(data)
        assert notices == [] and len(store.history()) == 2
        store.close()
