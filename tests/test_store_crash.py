"""Kills at the worst moments: during salvage, after a burst of games with the -wal
deleted, and two windows opening a new folder at once."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from test_store_helpers import ROOT, solo_log

from bonanza.client.store import PAGE_SIZE, open_store

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

PRELUDE = r"""
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/tests")
"""

OPEN_ONLY = PRELUDE + r"""
from bonanza.client.store import open_store
store, notices = open_store(sys.argv[2])
print("opened", [n.code for n in notices], flush=True)
store.close()
"""


def count_games(path: str) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()


def test_kills_during_salvage_lose_nothing_and_the_next_start_finishes_it(tmp_path):
    n = 280
    damaged = str(tmp_path / "damaged")
    store, _ = open_store(damaged)
    store.save_profile(name="Chloé")
    recs = [store.record_game(solo_log(i)) for i in range(n)]
    store.close()
    with open(os.path.join(damaged, "bonanza.db"), "r+b") as f:
        f.write(os.urandom(PAGE_SIZE))   # the schema page is gone: a long raw salvage
    original = open(os.path.join(damaged, "bonanza.db"), "rb").read()
    rng = random.Random(7)
    kills, mid_salvage, rounds = 0, 0, 6
    for round_ in range(rounds):
        data = str(tmp_path / f"round{round_}")
        shutil.copytree(damaged, data)
        path = os.path.join(data, "bonanza.db")
        for _ in range(2):   # killed, then killed again while resuming
            proc = subprocess.Popen([sys.executable, "-c", OPEN_ONLY, ROOT, data],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.25, 1.2))
            if proc.poll() is None:
                proc.kill()   # SIGKILL
                kills += 1
            proc.wait(timeout=10)
            if os.path.exists(path + ".salvage"):
                mid_salvage += 1
            elif open(path, "rb").read() != original:   # killed before it began: untouched
                assert count_games(path) == n   # never a partly filled file without its marker
        store, notices = open_store(data)
        try:
            assert store.persistent
            hist = store.history(limit=1000)
            assert len(hist) == n
            assert {g.seed for g in hist} == {r.seed for r in recs}
            assert store.best("bonanza") == max(r.score for r in recs)
            assert not os.path.exists(path + ".salvage")
            assert not os.path.exists(path + ".salvaging")
        finally:
            store.close()
        shutil.rmtree(data)
    print(f"salvage: {kills} kills ({mid_salvage} mid-salvage) in {rounds} rounds, "
          f"{n} of {n} games kept every round")
    assert mid_salvage >= 1   # the loop did hit the salvage itself


BURST = PRELUDE + r"""
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
    proc = subprocess.Popen([sys.executable, "-c", BURST, ROOT, data],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    committed = []
    try:
        for line in proc.stdout:
            committed.append(line.split())
            if len(committed) >= 25:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    assert len(committed) >= 25, err
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


RACE = PRELUDE + r"""
import json
import time
from test_store_helpers import solo_log
from bonanza.client.store import open_store
start = float(sys.argv[3])
time.sleep(max(0.0, start - time.time()))
store, notices = open_store(sys.argv[2])
began = store.begin_daily("2024-06-01")
rec = store.record_game(solo_log(int(sys.argv[4])))
print(json.dumps([[n.code for n in notices], store.persistent, began, rec.id]), flush=True)
store.close()
"""


def test_two_windows_opening_a_new_folder_at_once(tmp_path):
    races = 15
    for race in range(races):
        data = str(tmp_path / f"race{race}")
        start = time.time() + 0.8   # both past their imports, then open together
        procs = [subprocess.Popen([sys.executable, "-c", RACE, ROOT, data, str(start),
                                   str(race * 2 + k)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for k in range(2)]
        outs = []
        for p in procs:
            out, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
            outs.append(out.strip())
        seen = [json.loads(o) for o in outs]
        assert all(codes == [] and persistent for codes, persistent, _b, _i in seen), outs
        assert sorted(b for _c, _p, b, _i in seen) == [False, True], outs   # one daily
        store, notices = open_store(data)
        assert notices == [] and len(store.history()) == 2
        store.close()
    print(f"race: {races} of {races} clean")
