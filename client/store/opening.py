"""Opening the account database, which never fails: the folder chosen, the file checked
(structure and every row), migrated to the current schema, salvaged when damaged, and
an in-memory database when the file cannot be used (busy, read-only, newer, no access,
an unwritable folder); every problem is a ``Notice``."""
from __future__ import annotations

import errno
import os
import sqlite3
from typing import NamedTuple

from . import schema
from .check import check_rows
from .files import DB_NAME, connect, create_new, remove_db_files
from .game_record import utc_now_iso
from .lock import folder_lock
from .notices import Notice, reason
from .salvage import read_marker, salvage_file

ENV_VAR = "BONANZA_DATA_DIR"
APP_NAME = "bonanza"


class Opened(NamedTuple):
    """What a ``Store`` is made of: ``path`` None is an in-memory database."""
    conn: sqlite3.Connection
    path: str | None
    directory: str | None


class _Corrupt(Exception):
    pass


class _NoAccess(Exception):
    """The file is there but this user may not open it: not damage, never moved aside."""


class _Newer(Exception):
    def __init__(self, version: int):
        super().__init__(f"schema version {version}")
        self.version = version


def resolve_dir(data_dir: str | os.PathLike[str] | None = None) -> str:
    if data_dir:
        return os.path.abspath(os.fspath(data_dir))
    env = os.environ.get(ENV_VAR)
    if env:
        return os.path.abspath(env)
    import platformdirs
    return str(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def open_database(data_dir: str | os.PathLike[str] | None = None) -> tuple[Opened, list[Notice]]:
    """The database to make the store of, and what to tell the player; never raises."""
    notices: list[Notice] = []
    directory = "?"
    try:
        directory = resolve_dir(data_dir)
        return _open(directory, notices), notices
    except Exception as e:   # the game must start whatever happens
        notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
        try:
            conn = _memory_conn()
        except Exception:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        return Opened(conn, None, None), notices


def _open(directory: str, notices: list[Notice]) -> Opened:
    path = os.path.join(directory, DB_NAME)
    try:
        os.makedirs(directory, exist_ok=True)
        _probe_writable(directory)
    except OSError as e:
        notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
        return _in_memory(path, directory, notices)
    with folder_lock(directory) as locked:
        if not locked:
            notices.append(Notice("store.busy", {"path": path}))
            return _in_memory(path, directory, notices)
        return _open_locked(path, directory, notices)


def _open_locked(path: str, directory: str, notices: list[Notice]) -> Opened:
    try:
        marker = read_marker(path)
        if marker is not None:
            salvage_file(path, directory, notices, marker=marker)
        if not os.path.lexists(path):
            if os.path.exists(path + "-wal") and os.path.getsize(path + "-wal"):
                # a WAL without its database: its games are recovered, never replayed
                # into a new file (SQLite would apply it to the wrong database)
                raise _Corrupt("the main file is missing; only its -wal is left")
            remove_db_files(path)
            create_new(path)
        elif os.path.isfile(path):
            if not _access(path):
                notices.append(Notice("store.read_only", {"path": path}))
                return _in_memory(path, directory, notices)
        return Opened(_connect_file(path, notices), path, directory)
    except _NoAccess as e:
        notices.append(Notice("store.no_access", {"path": path, "reason": str(e)}))
        return _in_memory(None, directory, notices)
    except _Newer as e:
        notices.append(Notice("store.newer_version", {"path": path, "version": e.version}))
        return _in_memory(None, directory, notices)
    except sqlite3.Error as e:
        kind = _error_kind(e)
        if kind == "busy":
            # Another Bonanza holds the file: it is in use, not damaged, so never move it aside.
            notices.append(Notice("store.busy", {"path": path}))
            return _in_memory(path, directory, notices)
        if kind == "access":
            notices.append(Notice("store.no_access", {"path": path, "reason": reason(e)}))
            return _in_memory(None, directory, notices)
        if kind == "read_only":
            notices.append(Notice("store.read_only", {"path": path}))
            return _in_memory(path, directory, notices)
        if kind == "unwritable":
            notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
            return _in_memory(path, directory, notices)
        why = reason(e)
    except _Corrupt as e:
        why = reason(e)
    try:
        salvage_file(path, directory, notices, reason=why)
        return Opened(_connect_file(path, notices), path, directory)
    except (OSError, sqlite3.Error, _Corrupt) as e:
        notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
        return _in_memory(None, directory, notices)


def _probe_writable(directory: str) -> None:
    probe = os.path.join(directory, f".bonanza-write-test-{os.getpid()}")
    with open(probe, "wb") as f:
        f.write(b"ok")
    os.remove(probe)


# ------------------------------------------------------------------ the file's checks

def _connect_file(path: str, notices: list[Notice]) -> sqlite3.Connection:
    """Open an existing file, migrate it and check every row; raises _Corrupt, _Newer
    or sqlite3.Error."""
    if not os.path.isfile(path):
        raise _Corrupt("not a regular file")
    _precheck(path)
    conn = connect(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            raise _Corrupt("a database without a Bonanza schema")
        if version > schema.CURRENT_VERSION:
            raise _Newer(version)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"cannot use WAL mode ({mode})")
        conn.execute("PRAGMA synchronous = FULL")
        reindexed = _check_structure(conn)
        _migrate(conn, path, notices)
        _check_tables(conn)
        _report_rows(conn, path, notices, reindexed)
        return conn
    except BaseException:
        conn.close()
        raise


def _precheck(path: str) -> None:
    """Damage SQLite reads past without complaint: an emptied file, a cut-short file
    (SQLite pads a short last page with zeros and quick_check may pass)."""
    size = os.path.getsize(path)
    if size == 0:
        raise _Corrupt("the file is empty (0 bytes)")
    with open(path, "rb") as f:
        head = f.read(100)
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        raise _Corrupt("the file does not start like a database")
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        raise _Corrupt(f"impossible page size {page}")
    if size % page:
        raise _Corrupt(f"the file was cut short ({size} bytes is not a whole number of "
                       f"{page}-byte pages)")


def _check_structure(conn: sqlite3.Connection) -> int:
    """integrity_check, not quick_check: only it compares every index with its table,
    and a flipped byte in an index silently hides a game from the boards.  (3,000 games:
    16 ms.)  An index is derived data, so damage confined to indexes is rebuilt
    (REINDEX) instead of moving the file aside; returns how many problems that fixed."""
    check = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if check == ["ok"]:
        return 0
    if all(" index " in line or line.startswith("wrong # of entries in index")
           for line in check):
        conn.execute("REINDEX")
        if conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]:
            return len(check)
    raise _Corrupt("; ".join(check[:3]))


def _check_tables(conn: sqlite3.Connection) -> None:
    for table in ("profiles", "games", "game_logs", "bests", "daily_attempts", "game_files"):
        try:
            conn.execute(f"SELECT * FROM {table} LIMIT 0")
        except sqlite3.OperationalError as e:   # a table gone from a damaged schema
            raise _Corrupt(str(e)) from None


def _report_rows(conn: sqlite3.Connection, path: str | None, notices: list[Notice],
                 reindexed: int = 0) -> None:
    found = check_rows(conn)
    found["repaired"] += reindexed
    if found["damaged"]:
        notices.append(Notice("store.damaged_games", {"path": path, "damaged": found["damaged"]}))
    if found["other"]:
        notices.append(Notice("store.damaged_entries", {"path": path, "other": found["other"]}))
    if found["repaired"]:
        notices.append(Notice("store.repaired", {"path": path, "repaired": found["repaired"]}))


def _migrate(conn: sqlite3.Connection, path: str | None, notices: list[Notice]) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == schema.CURRENT_VERSION:
        return
    if version > schema.CURRENT_VERSION:
        raise _Newer(version)
    if version > 0 and path is not None:
        backup = f"{path}.v{version}-backup"
        try:
            dest = sqlite3.connect(backup)
            with dest:
                conn.backup(dest)
            dest.close()
            notices.append(Notice("store.migrated", {"path": path, "backup": backup,
                                                     "from": version, "to": schema.CURRENT_VERSION}))
        except sqlite3.Error:
            pass
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process?
            if version >= schema.CURRENT_VERSION:
                conn.execute("COMMIT")
                return
            if version == 0:
                schema.create_current(conn)
            else:
                schema.MIGRATIONS[version](conn, utc_now_iso())
                conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


# ------------------------------------------------------------------ why a file cannot be used

def _error_kind(e: sqlite3.Error) -> str:
    """busy / access / corrupt: only real damage may move the player's file aside."""
    name = getattr(e, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "busy"
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return "access"
    if name.startswith("SQLITE_READONLY"):
        return "read_only"
    if name.startswith(("SQLITE_IOERR", "SQLITE_FULL", "SQLITE_NOLFS", "SQLITE_NOMEM")):
        return "unwritable"
    return "corrupt"


def _access(path: str) -> bool:
    """True if the file (and its -wal/-shm) may be written; False if only read.
    Raises _NoAccess when it may not even be read.  Tried with open(), which asks
    the operating system itself (os.access ignores ACLs and lies for root)."""
    try:
        with open(path, "rb") as f:
            f.read(1)
    except PermissionError as e:
        raise _NoAccess(reason(e)) from None
    for p in (path, path + "-wal", path + "-shm"):
        if not os.path.exists(p):
            continue
        try:
            with open(p, "r+b"):
                pass
        except PermissionError:
            return False
        except OSError as e:
            if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                return False
            raise
    return True


# ------------------------------------------------------------------ in memory

def _memory_conn(copy_from: str | None = None) -> sqlite3.Connection:
    """An in-memory database, preloaded with a read-only copy of ``copy_from`` if readable."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if copy_from and os.path.isfile(copy_from):
        for uri in (f"file:{copy_from}?mode=ro", f"file:{copy_from}?immutable=1"):
            try:
                src = sqlite3.connect(uri, uri=True)
                try:
                    version = src.execute("PRAGMA user_version").fetchone()[0]
                    if not 0 < version <= schema.CURRENT_VERSION:
                        break
                    src.backup(conn)
                finally:
                    src.close()
                _migrate(conn, None, [])
                _check_tables(conn)
                return conn
            except (sqlite3.Error, _Newer, _Corrupt):
                conn.close()
                conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    _migrate(conn, None, [])
    return conn


def _in_memory(copy_from: str | None, directory: str | None, notices: list[Notice]) -> Opened:
    conn = _memory_conn(copy_from)
    if copy_from:
        try:   # damage in the copy is told too, so the player knows what they see
            _report_rows(conn, copy_from, notices)
        except sqlite3.Error:
            pass
    return Opened(conn, None, directory)

