"""Opening the account database, which never fails: the folder chosen, the file checked
(structure and every row), migrated to the current schema, salvaged when damaged, and
an in-memory database when the file cannot be used (busy, read-only, newer, no access,
an unwritable folder); every problem is a ``Notice``."""
from __future__ import annotations

import errno
import math
import os
import shutil
import sqlite3
from typing import NamedTuple

from . import schema
from .check import check_rows
from .files import DB_NAME, connect, create_new, remove_db_files
from .game_record import utc_now_iso
from .heal import clean_leftovers, heal
from .image import load_image, read_image
from .lock import folder_lock
from .notices import Notice, disk_full, reason
from .salvage import SalvageFailed, read_marker, salvage_file, space_needed

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


class _DiskFull(Exception):
    """The disk is full: not damage; nothing is changed until there is room."""


class _Busy(Exception):
    """Another window holds the file in a way that stops this start's repair."""


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
        if disk_full(e):
            return _disk_full(path, directory, notices)
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
            try:
                salvage_file(path, directory, notices, marker=marker)
            except SalvageFailed as e:   # put back as it was: told, nothing changed
                if e.full:
                    return _disk_full(path, directory, notices)
                notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
                return _in_memory(path, directory, notices)
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
        conn = _connect_file(path, notices)
        _heal(conn, path, directory, notices)
        return Opened(conn, path, directory)
    except _DiskFull:
        return _disk_full(path, directory, notices)
    except _Busy:
        notices.append(Notice("store.busy", {"path": path}))
        return _in_memory(path, directory, notices)
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
        if disk_full(e):
            return _disk_full(path, directory, notices)
        if kind == "unwritable":
            notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
            return _in_memory(path, directory, notices)
        why = reason(e)
    except OSError as e:
        if disk_full(e):
            return _disk_full(path, directory, notices)
        notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
        return _in_memory(path, directory, notices)
    except Exception as e:
        # _Corrupt, and anything else the checks raise (a flipped bit in the schema text
        # fails to decode): possible damage, so the salvage path, which keeps every game it
        # can read and never makes things worse; never "unwritable"
        why = reason(e) if isinstance(e, _Corrupt) else f"{type(e).__name__}: {reason(e)}"
    try:
        if _free_space(directory) < space_needed(path):
            raise _DiskFull()
        salvage_file(path, directory, notices, reason=why)
        conn = _connect_file(path, notices)
        _heal(conn, path, directory, notices)
        return Opened(conn, path, directory)
    except (_DiskFull, SalvageFailed) as e:
        if isinstance(e, _DiskFull) or e.full:
            return _disk_full(path, directory, notices)
        notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
        return _in_memory(path, directory, notices)
    except Exception as e:
        if disk_full(e):
            return _disk_full(path, directory, notices)
        notices.append(Notice("store.unwritable", {"path": directory, "reason": reason(e)}))
        return _in_memory(path, directory, notices)


def _heal(conn: sqlite3.Connection, path: str, directory: str, notices: list[Notice]) -> None:
    """Every start: our own leftovers removed, games missing from the file brought back
    from ``games/*.bonanza`` and from files once moved aside (cheap when nothing is missing)."""
    from .recording import Recording
    clean_leftovers(directory)
    try:
        heal(Recording(conn, path, directory), notices)
    except Exception:   # healing is a bonus: the store as checked is sound
        pass


def _free_space(directory: str) -> int:
    try:
        return shutil.disk_usage(directory).free
    except OSError:
        return 0


def _disk_full(path: str, directory: str, notices: list[Notice]) -> Opened:
    """Nothing is changed: the saved games are shown from a read-only copy, and the player
    is told how much to free."""
    short = max(space_needed(path) - _free_space(directory), 1)
    mb = max(1, math.ceil(short / (1024 * 1024)))
    notices.append(Notice("store.disk_full", {"path": directory, "mb": mb}))
    return _in_memory(path, directory, notices)


def _probe_writable(directory: str) -> None:
    probe = os.path.join(directory, f".bonanza-write-test-{os.getpid()}")
    try:
        with open(probe, "wb") as f:
            f.write(b"ok")
    finally:
        try:
            os.remove(probe)
        except OSError:
            pass


# ------------------------------------------------------------------ the file's checks

def _connect_file(path: str, notices: list[Notice]) -> sqlite3.Connection:
    """Open an existing file, migrate it and check every row; raises _Corrupt, _Newer
    or sqlite3.Error."""
    if not os.path.isfile(path):
        raise _Corrupt("not a regular file")
    cut = _precheck(path)
    conn = connect(path)
    try:
        if cut:
            _recover_cut(conn, path, cut)
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


def _precheck(path: str) -> str | None:
    """Damage SQLite reads past without complaint: an emptied file, a cut-short file
    (SQLite pads a short last page with zeros and quick_check may pass).  A size that is
    not a whole number of pages is returned (as the reason) rather than raised: a
    checkpoint that hit a full disk leaves one too, with every page still in the -wal."""
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
        return (f"the file was cut short ({size} bytes is not a whole number of "
                f"{page}-byte pages)")
    return None


def _recover_cut(conn: sqlite3.Connection, path: str, cut: str) -> None:
    """A file cut short is first handed to SQLite: if its -wal holds the pages (a
    checkpoint stopped by a full disk), checkpointing writes them whole and the file is
    sound.  Only a file still cut short afterwards is damage."""
    wal = path + "-wal"
    if not (os.path.exists(wal) and os.path.getsize(wal)):
        raise _Corrupt(cut)
    try:
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    except sqlite3.Error as e:
        if disk_full(e):
            raise _DiskFull() from None
        if _error_kind(e) == "busy":
            raise _Busy() from None
        raise _Corrupt(f"{cut}; {reason(e)}") from None
    if busy:
        raise _Busy()
    again = _precheck(path)
    if again:
        raise _Corrupt(again)


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
        # read-only stays read-only: the file and its -wal are read as they stand and the
        # copy is made in memory (image.py); nothing is written beside them, not even a
        # -shm, which a full disk or a read-only folder would refuse anyway
        try:
            load_image(conn, read_image(copy_from))
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if 0 < version <= schema.CURRENT_VERSION:
                _migrate(conn, None, [])
                _check_tables(conn)
                return conn
        except Exception:   # decoding included: an unreadable copy is an empty one
            pass
        conn.close()
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    _migrate(conn, None, [])
    return conn


def _in_memory(copy_from: str | None, directory: str | None, notices: list[Notice]) -> Opened:
    conn = _memory_conn(copy_from)
    if copy_from:
        try:   # damage in the copy is told too, so the player knows what they see
            _report_rows(conn, copy_from, notices)
        except Exception:
            pass
    return Opened(conn, None, directory)

