"""The store's files on disk: the database file and its companions (made whole under
another name and renamed into place, connected, merged into one file, removed), and
each finished game's ``.bonanza`` file in ``<data>/games/``."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import sqlite3
import tempfile
from dataclasses import replace
from typing import Any

from . import schema
from .game_record import GameRecord
from .notices import Notice, StoreError, reason
from .queries import Queries

DB_NAME = "bonanza.db"
PAGE_SIZE = 16384          # a whole game log fits in one page: salvage can find it
BUSY_TIMEOUT_MS = 10000    # how long to wait for another window's write before giving up
GAMES_DIR = "games"
EXTENSION = ".bonanza"


class GameFiles(Queries):
    """Each finished game also as a ``.bonanza`` file, its path kept with the game."""

    def _write_file(self, rec: GameRecord) -> GameRecord:
        """Write a finished game's log as ``<data>/games/<name>.bonanza`` (atomic, 0644)
        and keep its path with the game.  The game is in SQLite already: a file that
        cannot be written costs only the file, and the player is told once a session
        (``take_file_notice``)."""
        folder = os.path.join(self.directory, GAMES_DIR) if self.directory else None
        try:
            if folder is None:
                raise OSError(errno.ENOENT, "there is no data folder")
            data = self.game_log(rec.id)
            name = game_file_name(rec.played_at, rec.mode, rec.category, rec.ruleset, rec.score,
                                  hashlib.sha256(data).hexdigest())
            rel = f"{GAMES_DIR}/{name}"
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, name)
            if not same_file(path, data):
                write_atomic(path, data)
                fsync(folder)
            with self._tx() as c:
                c.execute("INSERT OR REPLACE INTO game_files (game_id, path) VALUES (?, ?)",
                          (rec.id, rel))
                schema.seal(c, "game_files", rec.id)
        except (OSError, StoreError, KeyError) as e:
            if self._file_notice is None:
                self._file_notice = Notice("store.files_unwritable",
                                           {"path": folder or "?", "reason": reason(e)})
            return rec
        return replace(rec, file=path)

    def _link_file(self, game_id: int, rel: str) -> bool:
        """Keep an existing ``.bonanza`` file (``rel`` under the data folder) as game
        ``game_id``'s, if it holds exactly that game's log (salvage uses it)."""
        if not self.directory or not isinstance(rel, str) or not rel.startswith(
                GAMES_DIR + "/") or ".." in rel.split("/"):
            return False
        try:
            data = self.game_log(game_id)
            if not same_file(os.path.join(self.directory, *rel.split("/")), data):
                return False
            with self._tx() as c:
                c.execute("INSERT OR REPLACE INTO game_files (game_id, path) VALUES (?, ?)",
                          (game_id, rel))
                schema.seal(c, "game_files", game_id)
        except (OSError, StoreError, KeyError):
            return False
        return True

    def take_file_notice(self) -> Notice | None:
        """The first ``store.files_unwritable`` of this session, once; then None."""
        if self._file_notice is None or self._file_notice_given:
            return None
        self._file_notice_given = True
        return self._file_notice


# ------------------------------------------------------------------ a game's file

def game_file_name(played_at: str, mode: str, category: str | None, ruleset: str, score: int,
                   log_sha256: str) -> str:
    """The name a finished game's file gets in ``<data>/games/``, e.g.
    ``2024-05-01_123456_solo-seeded_bonanza_312_ab12cd34.bonanza``: sorted by time in a
    file browser, readable at a glance, and unique by the log's hash.  Everything in it
    is in the game's row, so the start-up check can rebuild a damaged link."""
    stamp = re.sub(r"[^0-9T]", "", str(played_at or ""))[:15].replace("T", "_")
    kind = mode if category in (None, mode) else f"{mode}-{category}"
    name = f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}{stamp[8:]}_{kind}_{ruleset}_{int(score)}_" \
           f"{str(log_sha256)[:8]}"
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name) + EXTENSION


def write_atomic(path: str, data: bytes) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".bonanza-export-", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); a record is meant to be shared, so it
        # gets the permissions any new file of this user gets (0644 with umask 022)
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def same_file(path: str, data: bytes) -> bool:
    """True when ``path`` already holds exactly ``data`` (a game recorded again)."""
    try:
        if os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


def fsync(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass   # directories cannot be fsync'ed everywhere (Windows)
    finally:
        os.close(fd)


def write_json_atomic(path: str, data: dict[str, Any]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync(os.path.dirname(path))


# ------------------------------------------------------------------ the database's files

def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


def remove_db_files(path: str) -> None:
    for p in (path, path + "-wal", path + "-shm", path + "-journal"):
        try:
            os.remove(p)
        except FileNotFoundError:
            pass


def close_into_one_file(conn: sqlite3.Connection, path: str) -> None:
    """Checkpoint and close so that everything is in ``path`` alone, on disk."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    conn.close()
    for p in (path + "-wal", path + "-shm"):
        if os.path.exists(p) and os.path.getsize(p) and p.endswith("-wal"):
            raise OSError(f"{p} could not be merged into {path}")
        try:
            os.remove(p)
        except FileNotFoundError:
            pass
    fsync(path)


def create_new(path: str) -> None:
    """A fresh, empty store at ``path``, made under another name and renamed into place:
    a crash or a second window never sees a 0-byte or schema-less ``bonanza.db``."""
    tmp = f"{path}.new-{os.getpid()}"
    remove_db_files(tmp)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = WAL").fetchall()
        conn.execute("BEGIN IMMEDIATE")
        schema.create_current(conn)
        conn.execute("COMMIT")
        close_into_one_file(conn, tmp)
        os.replace(tmp, path)
        fsync(os.path.dirname(path))
    except BaseException:
        conn.close()
        remove_db_files(tmp)
        raise
