"""A process killed (SIGKILL) in the middle of a burst of writes loses no committed game."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from test_store_helpers import ROOT, solo_log

from bonanza.client.store import open_store
from bonanza.core.verify import verify_bytes

CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/tests")
from test_store_helpers import solo_log
from bonanza.client.store import open_store
store, notices = open_store(sys.argv[2])
assert not notices, notices
i = 0
while True:
    rec = store.record_game(solo_log(1000 + i, duration_ms=i))
    print(rec.id, rec.seed, rec.score, flush=True)   # printed only after the commit
    i += 1
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_burst_loses_no_committed_game(tmp_path):
    data = str(tmp_path / "data")
    proc = subprocess.Popen([sys.executable, "-c", CHILD, ROOT, data],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    committed = []
    try:
        for line in proc.stdout:
            committed.append(line.split())
            if len(committed) >= 8:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    assert len(committed) >= 8, err
    store, notices = open_store(data)
    try:
        assert notices == []
        for gid, seed, score in committed:
            rec = store.game(int(gid))
            assert rec is not None, f"game {gid} was committed but is gone"
            assert rec.seed == seed and rec.score == int(score)
            assert verify_bytes(store.game_log(int(gid))).ok
        # games committed after the last printed line may be there too
        assert store.best("bonanza") >= max(int(s) for _, _, s in committed)
        # the store keeps working after the crash
        store.record_game(solo_log(1))
    finally:
        store.close()
