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

CURRENT_VERSION = 4

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

# Version 4: how each game ended (a given-up game never counts as a best or in an
# average), which board it belongs to (summary.CATEGORIES) and the seed as typed, all
# derived from the log and covered by the row's checksum; and the ``.bonanza`` file
# each finished game is also written to, in a table of its own because it is not in
# the log (a relative path under the data folder, so the folder can be moved).
SCHEMA_V4_COLUMNS = (
    ("games", "status TEXT NOT NULL DEFAULT 'finished'"),
    ("games", "category TEXT"),
    ("games", "seed_text TEXT"),
)
SCHEMA_V4_TABLES = """
CREATE TABLE game_files (
    game_id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    row_sum TEXT
);
CREATE INDEX games_by_category ON games (ruleset, category, status, score DESC, duration_ms);
"""

# The columns each table's row_sum covers (``damaged`` is not one: the start-up
# check rewrites it every time, so a flipped mark is corrected, not hidden).
GAMES_V3_COLS = ("id", "mode", "ruleset", "name", "score", "duration_ms", "seed", "date",
                 "upper_bonus", "bonanzas", "moves", "new_best", "previous_best", "played_at",
                 "log_sha256")
ROW_SUM_COLS = {
    "games": GAMES_V3_COLS + ("status", "category", "seed_text"),
    "profiles": ("id", "name", "language", "settings", "created_at"),
    "daily_attempts": ("date", "name", "started_at", "game_id", "score"),
    "bests": ("ruleset", "mode", "score", "game_id"),
    "game_files": ("game_id", "path"),
}
# a version-3 file's games rows were sealed over fewer columns (salvage reads them)
ROW_SUM_COLS_V3 = dict(ROW_SUM_COLS, games=GAMES_V3_COLS)
ROW_KEY = {"games": "id", "profiles": "id", "daily_attempts": "date", "bests": "rowid",
           "game_files": "game_id"}


def row_sum(table: str, values) -> str:
    """The checksum of one row's values (in ROW_SUM_COLS order)."""
    blob = json.dumps([table, *values], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def seal(conn: sqlite3.Connection, table: str, key, cols: tuple | None = None) -> None:
    """Recompute the checksum of one row after writing it (over ``cols``: an older
    version's columns while migrating through it)."""
    cols = cols or ROW_SUM_COLS[table]
    k = ROW_KEY[table]
    row = conn.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE {k} = ?", (key,)).fetchone()
    if row is not None:
        conn.execute(f"UPDATE {table} SET row_sum = ? WHERE {k} = ?", (row_sum(table, row), key))


def seal_all(conn: sqlite3.Connection, table: str, cols: tuple | None = None) -> None:
    k = ROW_KEY[table]
    for (key,) in conn.execute(f"SELECT {k} FROM {table}").fetchall():
        seal(conn, table, key, cols)


def create_current(conn: sqlite3.Connection) -> None:
    """Create the current schema in an empty database (inside a transaction)."""
    for stmt in _statements(SCHEMA_V2_TABLES):
        conn.execute(stmt)
    _add_v3_columns(conn)
    _add_v4(conn)
    conn.execute(f"PRAGMA user_version = {CURRENT_VERSION}")


def _add_v3_columns(conn: sqlite3.Connection) -> None:
    for table, column in SCHEMA_V3_COLUMNS:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column}")


def _migrate_2_to_3(conn: sqlite3.Connection, now: str) -> None:
    _add_v3_columns(conn)
    # The rows are sealed as they are: the start-up check that follows compares each
    # game's log with its log_sha256 and rebuilds or marks what does not match.
    for table in ("games", "profiles", "daily_attempts", "bests"):
        seal_all(conn, table, ROW_SUM_COLS_V3[table])


def _add_v4(conn: sqlite3.Connection) -> None:
    for table, column in SCHEMA_V4_COLUMNS:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
    for stmt in _statements(SCHEMA_V4_TABLES):
        conn.execute(stmt)


def _migrate_3_to_4(conn: sqlite3.Connection, now: str) -> None:
    from bonanza.core.log import parse_log

    from .summary import classify, pick_seat

    _add_v4(conn)
    # Parsed, not replayed: the start-up check that follows compares every log with
    # its hash, and a log that cannot even be parsed keeps the defaults (finished,
    # no category) until that check marks it damaged.
    for gid, name, log in conn.execute(
            "SELECT g.id, g.name, l.log FROM games g LEFT JOIN game_logs l "
            "ON l.game_id = g.id").fetchall():
        try:
            parsed = parse_log(bytes(log))
            seat = pick_seat(parsed.header, name)
            c = classify(parsed.header, parsed.moves, seat)
        except Exception:
            continue
        conn.execute("UPDATE games SET status = ?, category = ?, seed_text = ? WHERE id = ?",
                     (c["status"], c["category"], c["seed_text"], gid))
    # given-up games were counted as bests before: the flags are recomputed per board
    mark_new_bests_v4(conn)
    seal_all(conn, "games")


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


def mark_new_bests_v4(conn: sqlite3.Connection) -> None:
    """``mark_new_bests`` for version 4: per board (ruleset, mode, category), and only a
    finished game can be a best; a given-up game keeps the best it did not beat."""
    best: dict[tuple, int] = {}
    for gid, ruleset, mode, category, status, score in conn.execute(
            "SELECT id, ruleset, mode, category, status, score FROM games ORDER BY id").fetchall():
        key = (ruleset, mode, category)
        prev = best.get(key)
        new = status == "finished" and (prev is None or score > prev)
        conn.execute("UPDATE games SET new_best = ?, previous_best = ? WHERE id = ?",
                     (int(new), prev, gid))
        if new:
            best[key] = score


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
    3: _migrate_3_to_4,
}


def settings_json(settings: dict) -> str:
    return json.dumps(settings, sort_keys=True, ensure_ascii=False)
