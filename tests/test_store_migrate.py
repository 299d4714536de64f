"""The first schema (v1), built with its own DDL in a real file, opens with the current code."""
from __future__ import annotations

import os
import sqlite3

from test_store_helpers import daily_log, final_state, play_greedy_upper, solo_log

from bonanza.client.store import open_store
from bonanza.client.store.schema import CURRENT_VERSION

# Version 1 exactly as it shipped (kept here, independent of client/store/schema.py).
V1_DDL = """
CREATE TABLE profile (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    language TEXT,
    settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mode TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    score INTEGER NOT NULL,
    played_at TEXT NOT NULL,
    log BLOB NOT NULL
);
CREATE TABLE best (
    ruleset TEXT NOT NULL,
    mode TEXT NOT NULL,
    score INTEGER NOT NULL,
    PRIMARY KEY (ruleset, mode)
);
CREATE TABLE daily (
    date TEXT PRIMARY KEY,
    started_at TEXT NOT NULL,
    score INTEGER
);
PRAGMA user_version = 1;
"""


def build_v1(path: str) -> dict:
    a = solo_log(4, duration_ms=70_000, policy=play_greedy_upper)
    b = solo_log(1, duration_ms=80_000)
    d = daily_log("2024-02-02")
    conn = sqlite3.connect(path)
    conn.executescript(V1_DDL)
    conn.execute("INSERT INTO profile VALUES (1, 'Bram', 'nl', '{\"volume\": 5}')")
    rows = [("solo", "bonanza", a, "2024-02-01T09:00:00Z"),
            ("solo", "bonanza", b, "2024-02-01T10:00:00Z"),
            ("daily", "yacht", d, "2024-02-02T08:00:00Z")]
    for mode, ruleset, log, at in rows:
        conn.execute("INSERT INTO games (mode, ruleset, score, played_at, log) VALUES (?, ?, ?, ?, ?)",
                     (mode, ruleset, final_state(log).total(0), at, log))
    best = max(final_state(a).total(0), final_state(b).total(0))
    conn.execute("INSERT INTO best VALUES ('bonanza', 'solo', ?)", (best,))
    conn.execute("INSERT INTO best VALUES ('yacht', 'daily', ?)", (final_state(d).total(0),))
    conn.execute("INSERT INTO daily VALUES ('2024-02-02', '2024-02-02T07:59:00Z', ?)",
                 (final_state(d).total(0),))
    conn.execute("INSERT INTO daily VALUES ('2024-02-03', '2024-02-03T07:00:00Z', NULL)")
    conn.commit()
    conn.close()
    return {"a": a, "b": b, "d": d, "best": best}


def test_v1_file_migrates_to_current(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    path = str(data / "bonanza.db")
    v1 = build_v1(path)
    store, notices = open_store(str(data))
    try:
        assert [n.code for n in notices] == ["store.migrated"]
        assert os.path.isfile(notices[0].params["backup"])
        assert store.persistent
        version = store._conn.execute("PRAGMA user_version").fetchone()[0]
        assert version == CURRENT_VERSION >= 2
        assert store.profile() == {"name": "Bram", "language": "nl", "settings": {"volume": 5}}
        assert store.best("bonanza") == v1["best"]
        assert store.best("yacht", "daily") == final_state(v1["d"]).total(0)
        hist = store.history()
        assert [h.played_at[:10] for h in hist] == ["2024-02-02", "2024-02-01", "2024-02-01"]
        first = [h for h in hist if h.id == 1][0]
        # new columns are derived from the stored log
        assert first.duration_ms == 70_000 and first.seed is not None
        assert first.upper_bonus and first.bonanzas == 1
        assert store.game_log(1) == v1["a"]
        assert store.game_log(3) == v1["d"]
        assert hist[0].date == "2024-02-02"
        assert store.daily_status("2024-02-02") == "played"
        assert store.daily_status("2024-02-03") == "in_progress"
        assert store.daily_status("2024-02-04") == "available"
        # the migrated store takes new games
        rec = store.record_game(solo_log(9))
        assert rec.id == 4
    finally:
        store.close()
    store, notices = open_store(str(data))
    try:
        assert notices == []
        assert len(store.history()) == 4
    finally:
        store.close()
