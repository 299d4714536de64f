"""The account database's schema, every past version of it, and the migrations.

The version lives in ``PRAGMA user_version``.  ``SCHEMA_V1`` is the first
schema exactly as it shipped; it stays here (and in tests/test_store_migrate.py)
so that old files can always be opened.  A migration is a function
``(conn) -> None`` run inside one transaction, from version N to N+1.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Callable

CURRENT_VERSION = 3

# The first schema (version 1): logs inline in ``games``, one profile row,
# bests without a game reference, daily attempts with their score.
SCHEMA_V1 = """
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

# Version 2's tables.  A brand-new file gets these and then the version 3 columns,
# the same path an old file takes, so there is one definition of the current schema.
SCHEMA_V2_TABLES = """
CREATE TABLE profiles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    language TEXT,
    settings TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    mode TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    score INTEGER NOT NULL,
    duration_ms INTEGER,
    seed TEXT,
    date TEXT,
    upper_bonus INTEGER NOT NULL DEFAULT 0,
    bonanzas INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    new_best INTEGER NOT NULL DEFAULT 0,
    previous_best INTEGER,
    played_at TEXT NOT NULL,
    log_sha256 TEXT NOT NULL UNIQUE
);
CREATE INDEX games_by_board ON games (ruleset, mode, score DESC, duration_ms);
CREATE INDEX games_by_time ON games (played_at DESC, id DESC);
CREATE TABLE game_logs (
    game_id INTEGER PRIMARY KEY,
    log BLOB NOT NULL
);
CREATE TABLE bests (
    ruleset TEXT NOT NULL,
    mode TEXT NOT NULL,
    score INTEGER NOT NULL,
    game_id INTEGER,
    PRIMARY KEY (ruleset, mode)
);
CREATE TABLE daily_attempts (
    date TEXT PRIMARY KEY,
    name TEXT,
    started_at TEXT NOT NULL,
    game_id INTEGER,
    score INTEGER
);
"""


# Version 3: a checksum per row, so that damage SQLite cannot see (a flipped byte
# inside a row passes PRAGMA quick_check) is noticed at start; and a mark on games
# whose log is damaged, which keeps them out of bests and statistics.
SCHEMA_V3_COLUMNS = (
    ("games", "row_sum TEXT"),
    ("games", "damaged TEXT"),
    ("profiles", "row_sum TEXT"),
    ("daily_attempts", "row_sum TEXT"),
    ("bests", "row_sum TEXT"),
)

# The columns each table's row_sum covers (``damaged`` is not one: the start-up
# check rewrites it every time, so a flipped mark is corrected, not hidden).
ROW_SUM_COLS = {
    "games": ("id", "mode", "ruleset", "name", "score", "duration_ms", "seed", "date",
              "upper_bonus", "bonanzas", "moves", "new_best", "previous_best", "played_at",
              "log_sha256"),
    "profiles": ("id", "name", "language", "settings", "created_at"),
    "daily_attempts": ("date", "name", "started_at", "game_id", "score"),
    "bests": ("ruleset", "mode", "score", "game_id"),
}
ROW_KEY = {"games": "id", "profiles": "id", "daily_attempts": "date", "bests": "rowid"}


def row_sum(table: str, values) -> str:
    """The checksum of one row's values (in ROW_SUM_COLS order)."""
    blob = json.dumps([table, *values], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def seal(conn: sqlite3.Connection, table: str, key) -> None:
    """Recompute the checksum of one row after writing it."""
    cols = ROW_SUM_COLS[table]
    k = ROW_KEY[table]
    row = conn.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE {k} = ?", (key,)).fetchone()
    if row is not None:
        conn.execute(f"UPDATE {table} SET row_sum = ? WHERE {k} = ?", (row_sum(table, row), key))


def seal_all(conn: sqlite3.Connection, table: str) -> None:
    k = ROW_KEY[table]
    for (key,) in conn.execute(f"SELECT {k} FROM {table}").fetchall():
        seal(conn, table, key)


def create_current(conn: sqlite3.Connection) -> None:
    """Create the current schema in an empty database (inside a transaction)."""
    for stmt in _statements(SCHEMA_V2_TABLES):
        conn.execute(stmt)
    _add_v3_columns(conn)
    conn.execute(f"PRAGMA user_version = {CURRENT_VERSION}")


def _add_v3_columns(conn: sqlite3.Connection) -> None:
    for table, column in SCHEMA_V3_COLUMNS:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column}")


def _migrate_2_to_3(conn: sqlite3.Connection, now: str) -> None:
    _add_v3_columns(conn)
    # The rows are sealed as they are: the start-up check that follows compares each
    # game's log with its log_sha256 and rebuilds or marks what does not match.
    for table in ROW_SUM_COLS:
        seal_all(conn, table)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _migrate_1_to_2(conn: sqlite3.Connection, now: str) -> None:
    from .summary import summarize_bytes

    for stmt in _statements(SCHEMA_V2_TABLES):
        if stmt.startswith("CREATE TABLE games ") or stmt.startswith("CREATE INDEX"):
            stmt = stmt.replace("CREATE TABLE games ", "CREATE TABLE games_v2 ")
            if stmt.startswith("CREATE INDEX"):
                continue  # created after the rename below
        conn.execute(stmt)
    # profile -> profiles
    for pid, name, language, settings in conn.execute(
            "SELECT id, name, language, settings FROM profile"):
        conn.execute("INSERT INTO profiles (id, name, language, settings, created_at) "
                     "VALUES (?, ?, ?, ?, ?)", (pid, name, language, settings or "{}", now))
    # games: the log is the source of truth; derive the new columns from it
    profile_name = conn.execute("SELECT name FROM profile LIMIT 1").fetchone()
    profile_name = profile_name[0] if profile_name else None
    seen: set[str] = set()
    daily_games: dict[str, tuple[int, int]] = {}
    for gid, mode, ruleset, score, played_at, log in conn.execute(
            "SELECT id, mode, ruleset, score, played_at, log FROM games ORDER BY id").fetchall():
        log = bytes(log)
        digest = hashlib.sha256(log).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        s = summarize_bytes(log, profile_name)
        if s is None:   # keep the player's row even if its log no longer verifies
            s = {"mode": mode, "ruleset": ruleset, "name": "", "score": score,
                 "duration_ms": None, "seed": None, "date": None, "upper_bonus": False,
                 "bonanzas": 0, "moves": 0}
        conn.execute(
            "INSERT INTO games_v2 (id, mode, ruleset, name, score, duration_ms, seed, date, "
            "upper_bonus, bonanzas, moves, new_best, previous_best, played_at, log_sha256) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?)",
            (gid, s["mode"], s["ruleset"], s["name"], s["score"], s["duration_ms"], s["seed"],
             s["date"], int(s["upper_bonus"]), s["bonanzas"], s["moves"], played_at, digest))
        conn.execute("INSERT INTO game_logs (game_id, log) VALUES (?, ?)", (gid, log))
        if s.get("offline_daily") and s["date"] and s["date"] not in daily_games:
            daily_games[s["date"]] = (gid, s["score"])
    conn.execute("DROP TABLE games")
    conn.execute("ALTER TABLE games_v2 RENAME TO games")
    for stmt in _statements(SCHEMA_V2_TABLES):
        if stmt.startswith("CREATE INDEX"):
            conn.execute(stmt)
    mark_new_bests(conn)
    recompute_bests(conn)
    # a v1 best without a stored game is kept when it is higher
    for ruleset, mode, score in conn.execute("SELECT ruleset, mode, score FROM best").fetchall():
        conn.execute("INSERT INTO bests (ruleset, mode, score, game_id) VALUES (?, ?, ?, NULL) "
                     "ON CONFLICT (ruleset, mode) DO UPDATE SET score = excluded.score, "
                     "game_id = NULL WHERE excluded.score > bests.score", (ruleset, mode, score))
    for date, started_at, score in conn.execute(
            "SELECT date, started_at, score FROM daily").fetchall():
        gid, gscore = daily_games.get(date, (None, None))
        conn.execute("INSERT INTO daily_attempts (date, name, started_at, game_id, score) "
                     "VALUES (?, ?, ?, ?, ?)",
                     (date, profile_name, started_at, gid, gscore if gid is not None else score))
    for date, (gid, gscore) in daily_games.items():
        conn.execute("INSERT OR IGNORE INTO daily_attempts (date, name, started_at, game_id, score) "
                     "VALUES (?, ?, ?, ?, ?)", (date, profile_name, now, gid, gscore))
    conn.execute("DROP TABLE profile")
    conn.execute("DROP TABLE best")
    conn.execute("DROP TABLE daily")


def mark_new_bests(conn: sqlite3.Connection) -> None:
    """Recompute new_best / previous_best of every game in id order."""
    best: dict[tuple[str, str], int] = {}
    for gid, ruleset, mode, score in conn.execute(
            "SELECT id, ruleset, mode, score FROM games ORDER BY id").fetchall():
        prev = best.get((ruleset, mode))
        new = prev is None or score > prev
        conn.execute("UPDATE games SET new_best = ?, previous_best = ? WHERE id = ?",
                     (int(new), prev, gid))
        if new:
            best[(ruleset, mode)] = score


def recompute_bests(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM bests")
    conn.execute(
        "INSERT INTO bests (ruleset, mode, score, game_id) "
        "SELECT ruleset, mode, score, id FROM ("
        "  SELECT ruleset, mode, score, id, ROW_NUMBER() OVER ("
        "    PARTITION BY ruleset, mode ORDER BY score DESC, id) AS rn FROM games"
        ") WHERE rn = 1")


# version N -> function migrating N to N + 1
MIGRATIONS: dict[int, Callable[[sqlite3.Connection, str], None]] = {
    1: _migrate_1_to_2,
    2: _migrate_2_to_3,
}


def settings_json(settings: dict) -> str:
    return json.dumps(settings, sort_keys=True, ensure_ascii=False)
