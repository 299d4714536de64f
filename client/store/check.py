"""The start-up check of every stored row: damage that PRAGMA quick_check cannot see.

quick_check walks SQLite's pages and b-trees, but a flipped byte *inside* a row
(a score, a date, a byte of a game log) leaves the structure valid.  Every row
therefore carries a checksum (``row_sum``) and every game its log's SHA-256;
this pass compares both (about 7 microseconds a game, so it runs before the
first screen instead of in the background: no score is shown before it is
known to be sound).  Only a row that fails pays for ``core.verify``:

* a game whose log still verifies is rebuilt from the log (the log is the
  source of truth) and counts as *repaired*;
* a game whose log does not verify is marked ``damaged``: it stays in the
  history with what its row still says, but leaves bests, statistics and boards;
* a daily attempt with a well-formed date is kept (it still uses that day's
  attempt), re-derived from its game when it has one; one with a broken date and
  a damaged profile row are counted and reported, never silently trusted.
"""
from __future__ import annotations

import hashlib
import re
import sqlite3
from datetime import date as _date

from . import schema
from .files import game_file_name
from .summary import summarize, verify_log

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def valid_date(value) -> bool:
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    try:
        _date.fromisoformat(value)
    except ValueError:
        return False
    return True


def check_rows(conn: sqlite3.Connection) -> dict:
    """Compare every row with its checksum, repair or mark what fails (one transaction).

    Returns ``{"damaged": games marked damaged, "repaired": rows rebuilt,
    "other": damaged rows that are neither games nor repairable}``."""
    out = {"damaged": 0, "repaired": 0, "other": 0}
    conn.execute("BEGIN IMMEDIATE")
    try:
        prof = conn.execute("SELECT name FROM profiles ORDER BY id LIMIT 1").fetchone()
        _games(conn, prof[0] if prof else None, out)
        _profiles(conn, out)
        _daily(conn, out)
        _bests(conn, out)
        _game_files(conn, out)
        conn.execute("COMMIT")
    except BaseException:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        raise
    return out


def _games(conn, profile_name, out) -> None:
    cols = schema.ROW_SUM_COLS["games"]
    rows = conn.execute(
        f"SELECT {', '.join('g.' + c for c in cols)}, g.row_sum, g.damaged, l.log "
        f"FROM games g LEFT JOIN game_logs l ON l.game_id = g.id").fetchall()
    orphans = None
    for row in rows:
        vals, stored, damaged, log = row[:len(cols)], row[-3], row[-2], row[-1]
        gid, digest = vals[0], vals[cols.index("log_sha256")]
        log = bytes(log) if isinstance(log, (bytes, memoryview)) else None
        if log is None or hashlib.sha256(log).hexdigest() != digest:
            # a damaged key can separate a game from its replay: find the replay by its hash
            if orphans is None:
                orphans = _orphan_logs(conn)
            if digest in orphans:
                conn.execute("DELETE FROM game_logs WHERE game_id = ?", (gid,))
                conn.execute("UPDATE game_logs SET game_id = ? WHERE game_id = ?",
                             (gid, orphans.pop(digest)))
                log = bytes(conn.execute("SELECT log FROM game_logs WHERE game_id = ?",
                                         (gid,)).fetchone()[0])
        log_ok = log is not None and hashlib.sha256(log).hexdigest() == digest
        if log_ok and stored == schema.row_sum("games", vals):
            if damaged is not None:
                conn.execute("UPDATE games SET damaged = NULL WHERE id = ?", (gid,))
            continue
        verdict = verify_log(log) if log is not None else None
        if verdict is None:
            reason = "its replay is missing"
        elif verdict.ok:
            if _rebuild(conn, gid, log, verdict, profile_name, vals):
                out["repaired"] += 1
                continue
            reason = "the same game is stored twice"
        else:
            reason = f"its replay is damaged ({verdict.detail})"
        if damaged != reason:
            conn.execute("UPDATE games SET damaged = ? WHERE id = ?", (reason, gid))
        out["damaged"] += 1


def _rebuild(conn, gid, log, verdict, profile_name, vals) -> bool:
    s = summarize(verdict, profile_name)
    new_best, prev = vals[11], vals[12]
    try:
        conn.execute(
            "UPDATE games SET mode = ?, ruleset = ?, name = ?, score = ?, duration_ms = ?, "
            "seed = ?, date = ?, upper_bonus = ?, bonanzas = ?, moves = ?, new_best = ?, "
            "previous_best = ?, log_sha256 = ?, status = ?, category = ?, seed_text = ?, "
            "damaged = NULL WHERE id = ?",
            (s["mode"], s["ruleset"], s["name"], s["score"], s["duration_ms"], s["seed"],
             s["date"], int(s["upper_bonus"]), s["bonanzas"], s["moves"],
             1 if new_best == 1 and s["status"] == "finished" and not s["resumed"] else 0,
             prev if type(prev) is int else None, hashlib.sha256(log).hexdigest(),
             s["status"], s["category"], s["seed_text"], gid))
    except sqlite3.IntegrityError:
        return False
    schema.seal(conn, "games", gid)
    return True


def _profiles(conn, out) -> None:
    cols = schema.ROW_SUM_COLS["profiles"]
    for row in conn.execute(f"SELECT {', '.join(cols)}, row_sum FROM profiles").fetchall():
        if row[-1] != schema.row_sum("profiles", row[:-1]):
            out["other"] += 1


def _daily(conn, out) -> None:
    cols = schema.ROW_SUM_COLS["daily_attempts"]
    for row in conn.execute(f"SELECT rowid, {', '.join(cols)}, row_sum FROM daily_attempts"
                            ).fetchall():
        rowid, vals, stored = row[0], row[1:-1], row[-1]
        if stored == schema.row_sum("daily_attempts", vals):
            continue
        day, _name, started_at, game_id = vals[0], vals[1], vals[2], vals[3]
        if not valid_date(day):
            out["other"] += 1
            continue
        # the day's offline game (public dice: no seed), whatever the damaged game_id says
        game = conn.execute("SELECT id, name, score FROM games WHERE mode = 'daily' AND "
                            "date = ? AND seed IS NULL AND damaged IS NULL ORDER BY id LIMIT 1",
                            (day,)).fetchone()
        game_id = game[0] if game else None
        game = game[1:] if game else None
        try:
            conn.execute("UPDATE daily_attempts SET game_id = ?, score = ?, "
                         "name = COALESCE(?, name), started_at = ? WHERE rowid = ?",
                         (game_id, game[1] if game else None, game[0] if game else None,
                          started_at if isinstance(started_at, str) else "", rowid))
        except sqlite3.Error:
            out["other"] += 1
            continue
        schema.seal(conn, "daily_attempts", day)
        out["repaired"] += 1


def _orphan_logs(conn) -> dict:
    """Replays whose game_id matches no game, by their SHA-256."""
    out = {}
    for gid, log in conn.execute("SELECT game_id, log FROM game_logs WHERE game_id NOT IN "
                                 "(SELECT id FROM games)").fetchall():
        if isinstance(log, (bytes, memoryview)):
            out[hashlib.sha256(bytes(log)).hexdigest()] = gid
    return out


def _bests(conn, out) -> None:
    """A best that points at a game is derived (``Store.best`` reads the games): one
    that fails its checksum is dropped.  A version-1 best without a game is the only
    copy of that score, so its loss is reported."""
    cols = schema.ROW_SUM_COLS["bests"]
    for row in conn.execute(f"SELECT rowid, {', '.join(cols)}, row_sum FROM bests").fetchall():
        if row[-1] == schema.row_sum("bests", row[1:-1]):
            continue
        conn.execute("DELETE FROM bests WHERE rowid = ?", (row[0],))
        out["other" if row[4] is None else "repaired"] += 1


def _game_files(conn, out) -> None:
    """A game's file link that fails its checksum is rebuilt from the game's row (the
    file's name is made of it); a link to no game is dropped.  The files themselves are
    copies of logs the database holds, so nothing is lost either way."""
    cols = schema.ROW_SUM_COLS["game_files"]
    for row in conn.execute(f"SELECT rowid, {', '.join(cols)}, row_sum FROM game_files"
                            ).fetchall():
        if row[-1] == schema.row_sum("game_files", row[1:-1]):
            continue
        game = conn.execute("SELECT id, played_at, mode, category, ruleset, score, log_sha256 "
                            "FROM games WHERE id = ? AND damaged IS NULL", (row[1],)).fetchone()
        conn.execute("DELETE FROM game_files WHERE rowid = ?", (row[0],))
        if game is not None:
            try:
                name = game_file_name(*game[1:])
            except (TypeError, ValueError):
                out["other"] += 1
                continue
            conn.execute("INSERT INTO game_files (game_id, path) VALUES (?, ?)",
                         (game[0], f"games/{name}"))
            schema.seal(conn, "game_files", game[0])
        out["repaired"] += 1
