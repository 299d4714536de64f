"""A damaged database is moved aside, what can be read is kept, and the game starts."""
from __future__ import annotations

import os
import sqlite3

from test_store_helpers import solo_log

from bonanza.client.store import PAGE_SIZE, open_store
from bonanza.core.verify import verify_bytes


def fill(data_dir: str, n: int) -> list:
    store, notices = open_store(data_dir)
    assert notices == []
    store.save_profile(name="Chloé", language="fr")
    recs = [store.record_game(solo_log(i), played_at=f"2024-05-{i + 1:02d}T12:00:00Z")
            for i in range(n)]
    store.begin_daily("2024-05-20")
    store.close()   # checkpoints the WAL into the main file
    return recs


def reopen(data_dir: str):
    store, notices = open_store(data_dir)
    assert store.persistent
    codes = [n.code for n in notices]
    # the games the file lost and their .bonanza files kept come back, told apart
    assert codes[0] == "store.corrupt_moved" and set(codes[1:]) <= {"store.healed"}
    notice = notices[0]
    moved = notice.params["path"]
    assert os.path.basename(moved).startswith("bonanza.db.corrupt-")
    assert os.path.exists(moved)
    assert "damaged" in notice.message and moved in notice.message
    assert notice.key == "error.db_corrupt"
    return store, notice


def check_intact(store, recs):
    for r in store.history(limit=1000):
        assert verify_bytes(store.game_log(r.id)).ok
    by_seed = {r.seed: r for r in recs}
    for r in store.history(limit=1000):
        assert by_seed[r.seed].score == r.score


def test_garbage_file_is_moved_aside_and_the_game_starts(tmp_path):
    data = str(tmp_path)
    with open(os.path.join(data, "bonanza.db"), "wb") as f:
        f.write(b"this is not a database at all " * 200)
    store, notice = reopen(data)
    try:
        assert notice.params["recovered"] == 0
        assert store.history() == []
        rec = store.record_game(solo_log(1))
        assert store.best("bonanza") == rec.score
    finally:
        store.close()
    store, notices = open_store(data)   # the new file is healthy
    assert notices == [] and store.best("bonanza") == rec.score
    store.close()


def test_damaged_header_page_still_recovers_every_game(tmp_path):
    data = str(tmp_path)
    recs = fill(data, 6)
    path = os.path.join(data, "bonanza.db")
    with open(path, "r+b") as f:
        f.write(os.urandom(PAGE_SIZE))   # the schema page is gone
    store, notice = reopen(data)
    try:
        assert notice.params["recovered"] == 6
        assert {r.seed for r in store.history()} == {r.seed for r in recs}
        assert store.best("bonanza") == max(r.score for r in recs)
        check_intact(store, recs)
    finally:
        store.close()


def test_truncated_database_is_moved_aside_and_salvaged(tmp_path):
    data = str(tmp_path)
    recs = fill(data, 12)
    path = os.path.join(data, "bonanza.db")
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size - PAGE_SIZE)   # the last page is lost
    store, notice = reopen(data)
    try:
        recovered = notice.params["recovered"]
        assert recovered == 12     # what the file lost, the games' own files still had
        assert len(store.history(limit=100)) == recovered
        check_intact(store, recs)
        assert store.best("bonanza") == max(r.score for r in store.history(limit=100))
    finally:
        store.close()


def test_salvage_keeps_profile_and_daily_when_tables_are_readable(tmp_path):
    data = str(tmp_path)
    recs = fill(data, 3)
    path = os.path.join(data, "bonanza.db")
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games_by_time'").fetchone()[0]
    conn.close()
    with open(path, "r+b") as f:   # an index page full of noise; the tables are intact
        f.seek(PAGE_SIZE * (root - 1))
        f.write(os.urandom(PAGE_SIZE))
    store, notice = reopen(data)
    try:
        assert notice.params["recovered"] == 3
        assert store.profile()["name"] == "Chloé"
        assert store.daily_status("2024-05-20") == "in_progress"
        check_intact(store, recs)
    finally:
        store.close()


def test_a_folder_in_place_of_the_file_is_moved_aside(tmp_path):
    os.mkdir(os.path.join(str(tmp_path), "bonanza.db"))
    store, notice = reopen(str(tmp_path))
    store.close()


def test_a_file_locked_by_another_window_is_in_use_not_damaged(tmp_path, monkeypatch):
    from bonanza.client.store import files
    data = str(tmp_path / "data")
    fill(data, 2)
    path = os.path.join(data, "bonanza.db")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode = DELETE")  # a rollback journal: an exclusive lock blocks readers
    other.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(files, "BUSY_TIMEOUT_MS", 100)
    try:
        store, notices = open_store(data)
        assert [n.code for n in notices] == ["store.busy"]
        assert not store.persistent and notices[0].key == "store.busy"
        store.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    # nothing moved aside (games/ holds the finished games' .bonanza files)
    assert sorted(os.listdir(data)) == ["bonanza.db", "bonanza.db.lock", "games"]
    store, notices = open_store(data)
    assert notices == [] and len(store.history()) == 2
    store.close()
