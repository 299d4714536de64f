"""Best-effort recovery from a damaged account database that was moved aside.

Two passes, both keeping whatever they can:

1. SQLite: read each known table (current and version-1 names) row by row,
   each table and each row under its own ``try``; a broken row is skipped.
2. Raw bytes: scan the file and its WAL for game logs (``BONANZA-LOG\\n``).
   Pages are 16 KiB, so a whole log is normally stored contiguously; every
   candidate must verify with ``core.verify`` before it is kept.

Game logs are self-describing, so every recovered log is recorded again
through ``Store._record``, which recomputes its row, the bests and the daily.

``salvage_file`` is the whole operation, crash-safe at every step: the damaged
file moved aside, a new one filled under another name, renamed into place.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from datetime import datetime
from typing import Any

import msgpack

from . import kill_hook, schema
from .check import valid_date
from .files import (
    DB_NAME,
    GAMES_DIR,
    close_into_one_file,
    connect,
    create_new,
    fsync,
    remove_db_files,
    write_json_atomic,
)
from .game_record import utc_now_iso
from .notices import Notice, StoreError, disk_full
from .recording import Recording
from .summary import verify_log

MAX_ROW_ERRORS = 200
SALVAGE_WAL_PAGES = 32      # the filling's -wal stays small (32 x 16 KiB): see space_needed
SPACE_MARGIN = 1024 * 1024


class SalvageFailed(Exception):
    """A salvage could not write its new file: everything was put back as it was."""

    def __init__(self, why: str, full: bool):
        super().__init__(why)
        self.full = full


def space_needed(path: str) -> int:
    """Bytes a salvage may need free: the new file is at most what the old file and its
    -wal hold, its own -wal is kept small, and the marker and notices need a little."""
    total = SPACE_MARGIN + SALVAGE_WAL_PAGES * 16384
    for p in (path, path + "-wal"):
        try:
            total += os.path.getsize(p)
        except OSError:
            pass
    return total


def open_read_only(path: str) -> sqlite3.Connection:
    """``path`` opened so that reading it writes nothing beside it: immutable when it has
    no -wal (nothing needs the -shm), else read-only (the -wal must be read)."""
    if os.path.exists(path + "-wal"):
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
    return sqlite3.connect(f"file:{path}?immutable=1", uri=True, timeout=1)


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


def _checked_rows(conn, table: str, cols: tuple, sum_table: str | None,
                  sum_cols: tuple | None = None):
    """Rows of ``table`` whose checksum matches (version 3 on), or every row of an older
    file (no checksum: the caller validates their shape).  Yields ``cols`` value tuples;
    ``sum_cols`` (default ``cols``) are the columns the checksum covers, which follow."""
    if sum_table:
        extra = tuple(c for c in (sum_cols or ()) if c not in cols)
        try:
            for row in _rows(conn, table, ", ".join(cols + extra) + ", row_sum"):
                if row[-1] == schema.row_sum(sum_table, row[:-1]):
                    yield row[:len(cols)]
            return
        except sqlite3.OperationalError as e:
            if "row_sum" not in str(e):
                raise
    yield from _rows(conn, table, ", ".join(cols))


def _games_rows(conn):
    """(id, played_at, log_sha256) of every sound games row, sealed over the version-4
    columns or, in a version-3 file, over the version-3 ones."""
    v3 = schema.ROW_SUM_COLS_V3["games"]
    # asked first: _rows skips unreadable rows, so a missing column would read as no rows
    have = {r[1] for r in conn.execute("PRAGMA table_info(games)").fetchall()}
    cols = schema.ROW_SUM_COLS["games"] if "status" in have else v3
    return [(r[0], r[13], r[14]) for r in _checked_rows(conn, "games", v3, "games", cols)]


def _iso(value) -> bool:
    if not isinstance(value, str) or not value:
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _from_sqlite(path: str, files: dict | None = None
                 ) -> tuple[dict | None, list[tuple[str | None, bytes]], list[tuple]]:
    """What SQLite can still read, every row checked: a row whose checksum fails (or,
    in an older file without checksums, whose values are malformed) is left behind.
    ``files`` is filled with each game's ``.bonanza`` file (log sha256 -> relative path)."""
    profile: dict | None = None
    logs: list[tuple[str | None, bytes]] = []
    daily: list[tuple] = []
    files = {} if files is None else files
    had_shm = os.path.exists(path + "-shm")
    try:
        conn = open_read_only(path)
    except sqlite3.Error:
        return profile, logs, daily
    try:
        played: dict = {}   # log sha256 (or v1 game id) -> played_at
        for table, cols, sums in (("profiles", schema.ROW_SUM_COLS["profiles"], "profiles"),
                                  ("profile", ("id", "name", "language", "settings"), None)):
            try:
                for row in _checked_rows(conn, table, cols, sums):
                    _id, name, language, settings = row[:4]
                    if (isinstance(name, str) and name.strip() and name.isprintable()
                            and (language is None or isinstance(language, str))):
                        profile = {"name": name, "language": language, "settings": settings}
                        break
            except sqlite3.Error:
                pass
            if profile:
                break
        by_id: dict = {}
        try:
            for gid, at, digest in _games_rows(conn):
                if _iso(at) and isinstance(digest, str):
                    played[digest] = at
                    by_id[gid] = digest
        except sqlite3.Error:
            pass
        try:   # version 4: the games' .bonanza files
            for gid, rel in _checked_rows(conn, "game_files", schema.ROW_SUM_COLS["game_files"],
                                          "game_files"):
                if gid in by_id and isinstance(rel, str):
                    files[by_id[gid]] = rel
        except sqlite3.Error:
            pass
        try:
            for gid, log in _rows(conn, "game_logs", "game_id, log"):
                if isinstance(log, bytes):
                    logs.append((played.get(hashlib.sha256(log).hexdigest()), log))
        except sqlite3.Error:
            pass
        try:   # version 1: the log inline in games
            for at, log in _rows(conn, "games", "played_at, log"):
                if isinstance(log, bytes):
                    logs.append((at if _iso(at) else None, log))
        except sqlite3.Error:
            pass
        for table, cols, sums in (
                ("daily_attempts", schema.ROW_SUM_COLS["daily_attempts"], "daily_attempts"),
                ("daily", ("date", "NULL", "started_at", "NULL", "score"), None)):
            try:
                for day, name, started_at, _gid, score in _checked_rows(conn, table, cols, sums):
                    if (valid_date(day) and _iso(started_at)
                            and (name is None or (isinstance(name, str) and name.isprintable()))):
                        daily.append((day, name, started_at))
            except sqlite3.Error:
                pass
    finally:
        conn.close()
        if not had_shm:   # ours: a read leaves nothing behind
            try:
                os.remove(path + "-shm")
            except OSError:
                pass
    return profile, logs, daily


def scan_logs(data: bytes) -> list[bytes]:
    """Every complete, verifying game log found anywhere in ``data``."""
    from bonanza.core.log import MAGIC, MAX_LOG_BYTES  # here: a store that opens well salvages nothing
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
            if verify_log(candidate).ok:
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


def salvage(moved_path: str, store: Recording) -> int:
    """Copy what can be read from ``moved_path`` into ``store``; returns the games recovered.

    Safe to run again on the same store (a resumed salvage): a log recorded twice is
    one game, a daily attempt or profile already there is left as it is.  A write that
    fails (``StoreError``: a full disk) stops it: a salvage never claims what it did not keep."""
    files: dict = {}
    try:
        profile, logs, daily = _from_sqlite(moved_path, files)
    except Exception:
        profile, logs, daily = None, [], []
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
            rec = store._record(log, played_at, salvage=True)
            recovered += 1
        except StoreError:
            raise
        except Exception:
            continue
        kill_hook.reached("salvage_row")
        if digest in files and rec.file is None:
            store._link_file(rec.id, files[digest])   # the file is still there: keep it
    for day, name, started_at in daily:
        try:
            with store._tx() as c:
                cur = c.execute("INSERT OR IGNORE INTO daily_attempts (date, name, started_at) "
                                "VALUES (?, ?, ?)", (day, name, started_at))
                if cur.rowcount:
                    schema.seal(c, "daily_attempts", day)
        except StoreError:
            raise
        except Exception:
            continue
    _restore_profile(store, profile)
    return recovered


def _restore_profile(store: Recording, profile: dict | None) -> None:
    if store._query("SELECT 1 FROM profiles LIMIT 1"):
        return   # a resumed salvage restored it already
    if profile is None:
        # the profile row is lost: the name the player last played under is the best guess
        rows = store._query("SELECT name FROM games WHERE mode IN ('solo', 'daily') AND name != '' "
                            "ORDER BY played_at DESC, id DESC LIMIT 1")
        if rows:
            profile = {"name": rows[0][0], "language": None, "settings": "{}"}
    if not profile:
        return
    try:
        settings = json.loads(profile["settings"] or "{}")
    except (TypeError, ValueError):
        settings = {}
    try:
        store.save_profile(name=profile["name"], language=profile["language"] or "",
                           settings=settings if isinstance(settings, dict) else {})
    except StoreError:
        raise
    except Exception:
        pass



# ------------------------------------------------------------------ the whole salvage, crash-safe

SALVAGE_MARKER = ".salvage"      # bonanza.db.salvage: JSON, a salvage has begun
SALVAGE_TEMP = ".salvaging"      # bonanza.db.salvaging: the new file being filled


def salvage_file(path: str, directory: str, notices: list[Notice], reason: str | None = None,
                 marker: dict[str, Any] | None = None) -> None:
    """Move the damaged file aside and fill a new one from it, crash-safe at every step.

    A marker file (``bonanza.db.salvage``) is written before anything moves; the new
    file is filled under another name (``bonanza.db.salvaging``) and renamed into place
    only when complete; the marker goes last.  Killed at any point, the next start finds
    the marker (``read_marker``) and carries on: the moves are repeated only where they
    did not happen, and recording a log twice keeps one game, so filling simply runs again."""
    resumed = marker is not None
    if marker is None:
        marker = {"moved": _aside_name(path), "reason": reason, "started_at": utc_now_iso()}
        write_json_atomic(path + SALVAGE_MARKER, marker)
    moved, reason = marker["moved"], marker.get("reason") or "?"
    temp = path + SALVAGE_TEMP
    finished = (os.path.lexists(path) and not os.path.exists(temp)
                and (os.path.lexists(moved) or os.path.lexists(moved + "-wal")))
    restored = 0
    if not finished:
        _move_aside(path, moved)
        kill_hook.reached("salvage_moved")
        try:
            restored = _fill(temp, moved, directory)
        except Exception as e:
            # a salvage never makes things worse: the original goes back untouched
            _put_back(path, moved, temp)
            raise SalvageFailed(f"the salvage could not write its new file: {e}",
                                disk_full(e)) from None
        kill_hook.reached("salvage_filled")
        os.replace(temp, path)
        fsync(directory)
        kill_hook.reached("salvage_placed")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        recovered = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()
    from .heal import mark_healed
    mark_healed(moved, recovered)    # read once: later starts need not read it again
    os.remove(path + SALVAGE_MARKER)
    notices.append(Notice("store.corrupt_moved", {"path": moved, "original": path,
                                                  "recovered": recovered, "reason": reason,
                                                  "resumed": resumed, "from_files": restored}))
    if restored:
        notices.append(Notice("store.healed", {"path": path, "restored": restored,
                                               "source": os.path.join(directory, GAMES_DIR)}))


def _fill(temp: str, moved: str, directory: str) -> int:
    """Fill the new file from the moved one, then from the games' own files; returns
    how many games only the files had.  Raises on any write that fails."""
    from .heal import restore_from_files
    if os.path.exists(temp) and not _sound(temp):
        remove_db_files(temp)
    if not os.path.exists(temp):
        create_new(temp)
    conn = connect(temp)
    try:
        # Nothing here is the only copy (the old file stays aside until the end), so the
        # filling skips fsync; the file is checked with quick_check if a crash interrupts it.
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute(f"PRAGMA wal_autocheckpoint = {SALVAGE_WAL_PAGES}")
        store = Recording(conn, temp, directory)
        salvage(moved, store)
        restored = restore_from_files(store)
        close_into_one_file(conn, temp)
    except BaseException:
        conn.close()
        raise
    return restored


def _put_back(path: str, moved: str, temp: str) -> None:
    """Undo a salvage that could not finish: the new file removed, the original (and its
    -wal) back under its name, the marker gone last."""
    remove_db_files(temp)
    for suffix in ("", "-wal"):
        if os.path.lexists(moved + suffix) and not os.path.lexists(path + suffix):
            os.replace(moved + suffix, path + suffix)
    fsync(os.path.dirname(path))
    try:
        os.remove(path + SALVAGE_MARKER)
    except FileNotFoundError:
        pass


def read_marker(path: str) -> dict[str, Any] | None:
    """The marker of a salvage that was begun and not finished, or None."""
    marker = path + SALVAGE_MARKER
    try:
        with open(marker, encoding="utf-8") as f:
            data = json.load(f)
        if isinstance(data, dict) and isinstance(data.get("moved"), str):
            return data
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        pass
    # an unreadable marker: the newest file moved aside is the one being salvaged
    folder = os.path.dirname(path)
    moved = sorted((os.path.join(folder, n) for n in os.listdir(folder)
                    if n.startswith(DB_NAME + ".corrupt-") and not n.endswith(("-wal", "-shm"))),
                   key=os.path.getmtime)
    if not moved:
        os.remove(marker)
        return None
    return {"moved": moved[-1], "reason": "?"}


def _aside_name(path: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    dest = f"{path}.corrupt-{stamp}"
    n = 1
    while os.path.lexists(dest) or os.path.lexists(dest + "-wal"):
        n += 1
        dest = f"{path}.corrupt-{stamp}-{n}"
    return dest


def _move_aside(path: str, dest: str) -> None:
    """Move the damaged file and its -wal/-shm to ``dest``; safe to repeat after a crash
    (what was moved already is left where it is)."""
    for suffix in ("", "-wal", "-shm"):
        src = path + suffix
        if os.path.lexists(src) and not os.path.lexists(dest + suffix):
            if suffix == "-shm":
                os.remove(src)   # only an index of the -wal; rebuilt from it
            else:
                os.replace(src, dest + suffix)
    fsync(os.path.dirname(path))


def _sound(path: str) -> bool:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return bool(conn.execute("PRAGMA user_version").fetchone()[0] == schema.CURRENT_VERSION
                        and conn.execute("PRAGMA quick_check").fetchall() == [("ok",)])
        finally:
            conn.close()
    except sqlite3.Error:
        return False
