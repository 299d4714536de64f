"""A process killed (SIGKILL) in the middle of a burst of writes loses no acknowledged game.

The child kills itself at an exact point through the store's test hook
(``client/store/kill_hook.py``): inside its k-th write transaction before the commit,
or after a game's commit but before ``record_game`` returned."""
from __future__ import annotations

import signal

import pytest
from test_store_helpers import run_child, solo_log

from bonanza.client.store import open_store
from bonanza.core.verify import verify_bytes

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

CHILD = r"""
from test_store_helpers import solo_log
from bonanza.client.store import open_store
store, notices = open_store(sys.argv[2])
assert not notices, notices
i = 0
while True:
    rec = store.record_game(solo_log(1000 + i, duration_ms=i))
    print(rec.id, rec.seed, rec.score, flush=True)   # printed only once acknowledged
    i += 1
"""


# A game is two write transactions: its row (with bests and daily), then its
# .bonanza file's link.  (kill point, games acknowledged, games in the file after)
KILLS = [
    ("commit:1", 0, 0),       # the very first game's row, not committed
    ("commit:8", 3, 4),       # game 4's file link: its row is committed, never acknowledged
    ("commit:15", 7, 7),      # game 8's row, not committed
    ("checkpoint:6", 5, 6),   # game 6 committed, still only in the -wal, not acknowledged
]


@pytest.mark.parametrize("kill_at, acknowledged, stored", KILLS)
def test_sigkill_mid_burst_loses_no_acknowledged_game(tmp_path, kill_at, acknowledged, stored):
    data = str(tmp_path / "data")
    proc = run_child(CHILD, data, kill_at=kill_at)
    assert proc.returncode == -signal.SIGKILL, proc.stderr   # it died at the point, not before
    committed = [line.split() for line in proc.stdout.splitlines()]
    assert len(committed) == acknowledged
    store, notices = open_store(data)
    try:
        assert notices == []
        for gid, seed, score in committed:
            rec = store.game(int(gid))
            assert rec is not None, f"game {gid} was acknowledged but is gone"
            assert rec.seed == seed and rec.score == int(score)
            assert verify_bytes(store.game_log(int(gid))).ok
        # the game being written when the process died is there whole or not at all
        assert len(store.history(limit=100)) == stored
        for rec in store.history(limit=100):
            assert verify_bytes(store.game_log(rec.id)).ok
        if committed:
            assert store.best("bonanza") >= max(int(s) for _, _, s in committed)
        # the store keeps working after the crash
        store.record_game(solo_log(1))
        assert len(store.history(limit=100)) == stored + 1
    finally:
        store.close()
