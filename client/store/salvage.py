"""Best-effort recovery from a damaged account database that was moved aside.

Two passes, both keeping whatever they can:

1. SQLite: read each known table (current and version-1 names) row by row,
   each table and each row under its own ``try``; a broken row is skipped.
2. Raw bytes: scan the file and its WAL for game logs (``BONANZA-LOG\\n``).
   Pages are 16 KiB, so a whole log is normally stored contiguously; every
   candidate must verify with ``core.verify`` before it is kept.

Game logs are self-describing, so every recovered log is recorded again
through ``Store._record``, which recomputes its row, the bests and the daily.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3

import msgpack

from core.log import MAGIC, MAX_LOG_BYTES
from core.verify import verify_bytes

MAX_ROW_ERRORS = 200


def _rows(conn: sqlite3.Connection, table: str, cols: str, key: str = "rowid"):
    """Yield rows ordered by ``key``; on a read error skip ahead one key at a time."""
    last, errors = None, 0
    while errors < MAX_ROW_ERRORS:
        where, params = (f"WHERE {key} > ?", (last,)) if last is not None else ("", ())
        try:
            cur = conn.execute(f"SELECT {key}, {cols} FROM {table} {where} ORDER BY {key}", params)
            for row in cur:
                last = row[0]
                yield row[1:]
            return
        except sqlite3.Error:
            errors += 1
            if last is None:
                try:
                    last = conn.execute(f"SELECT MIN({key}) FROM {table}").fetchone()[0]
                except sqlite3.Error:
                    return
                if last is None:
                    return
                # the first row itself may be unreadable: start just before it
                last -= 1
            last += 1


def _from_sqlite(path: str) -> tuple[dict | None, list[tuple[str | None, bytes]], list[tuple]]:
    profile, logs, daily = None, [], []
    try:
        conn = sqlite3.connect(path, timeout=1)
    except sqlite3.Error:
        return profile, logs, daily
    try:
        played: dict[int, str] = {}
        for table in ("profiles", "profile"):
            try:
                for name, language, settings in _rows(conn, table, "name, language, settings"):
                    if isinstance(name, str) and name:
                        profile = {"name": name, "language": language, "settings": settings}
                        break
            except sqlite3.Error:
                pass
            if profile:
                break
        try:
            for gid, at in _rows(conn, "games", "id, played_at"):
                if isinstance(gid, int) and isinstance(at, str):
                    played[gid] = at
        except sqlite3.Error:
            pass
        for table, cols in (("game_logs", "game_id, log"), ("games", "id, log")):
            try:
                for gid, log in _rows(conn, table, cols):
                    if isinstance(log, bytes):
                        logs.append((played.get(gid), log))
            except sqlite3.Error:
                pass
        for table, cols in (("daily_attempts", "date, name, started_at, score"),
                            ("daily", "date, NULL, started_at, score")):
            try:
                daily.extend(r for r in _rows(conn, table, cols) if isinstance(r[0], str))
            except sqlite3.Error:
                pass
    finally:
        conn.close()
    return profile, logs, daily


def scan_logs(data: bytes) -> list[bytes]:
    """Every complete, verifying game log found anywhere in ``data``."""
    found: list[bytes] = []
    pos = data.find(MAGIC)
    while pos != -1:
        start = pos + len(MAGIC)
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=MAX_LOG_BYTES)
        unpacker.feed(data[start:start + MAX_LOG_BYTES])
        end = None
        try:
            for i, obj in enumerate(unpacker):
                if not isinstance(obj, dict) or (i == 0 and obj.get("kind") != "header"):
                    break
                if obj.get("kind") == "end":
                    end = start + unpacker.tell()
                    break
        except Exception:
            end = None
        if end is not None:
            candidate = data[pos:end]
            if verify_bytes(candidate).ok:
                found.append(candidate)
        pos = data.find(MAGIC, pos + 1)
    return found


def _raw_logs(path: str) -> list[bytes]:
    out: list[bytes] = []
    for p in (path, path + "-wal"):
        try:
            with open(p, "rb") as f:
                data = f.read(512 * 1024 * 1024)
        except OSError:
            continue
        out.extend(scan_logs(data))
    return out


def salvage(moved_path: str, store) -> int:
    """Copy what can be read from ``moved_path`` into ``store``; returns the games recovered."""
    try:
        profile, logs, daily = _from_sqlite(moved_path)
    except Exception:
        profile, logs, daily = None, [], []
    if profile:
        try:
            settings = json.loads(profile["settings"] or "{}")
        except (TypeError, ValueError):
            settings = {}
        try:
            store.save_profile(name=profile["name"], language=profile["language"] or "",
                               settings=settings if isinstance(settings, dict) else {})
        except Exception:
            pass
    try:
        raw = _raw_logs(moved_path)
    except Exception:
        raw = []
    seen: set[str] = set()
    recovered = 0
    for played_at, log in logs + [(None, r) for r in raw]:
        digest = hashlib.sha256(log).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        try:
            store._record(log, played_at, salvage=True)
            recovered += 1
        except Exception:
            continue
    for date, name, started_at, score in daily:
        try:
            with store._tx() as c:
                c.execute("INSERT OR IGNORE INTO daily_attempts (date, name, started_at, score) "
                          "VALUES (?, ?, ?, ?)",
                          (date, name, started_at if isinstance(started_at, str) else "",
                           score if isinstance(score, int) else None))
        except Exception:
            continue
    return recovered
