"""The store's one SQLite connection: its lock, its transactions, its reads, closing."""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from . import kill_hook
from .notices import Notice, StoreError, disk_full

_C = TypeVar("_C", bound="Connection")


class Connection:
    """Thread-safe; every write is one transaction (``_tx``)."""

    def __init__(self, conn: sqlite3.Connection, path: str | None, directory: str | None = None):
        self._conn = conn
        self._lock = threading.RLock()
        self.path = path                   # None: in memory, nothing is saved
        self.directory = directory
        self._file_notice: Notice | None = None
        self._file_notice_given = False

    @property
    def persistent(self) -> bool:
        return self.path is not None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise StoreError("store.write_failed", f"cannot write the saved games: {e}",
                                 disk_full(e)) from None
            try:
                yield self._conn
                kill_hook.reached("commit")
                self._conn.execute("COMMIT")
            except BaseException as e:
                try:
                    self._conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                if isinstance(e, sqlite3.Error):
                    raise StoreError("store.write_failed",
                                     f"cannot write the saved games: {e}", disk_full(e)) from None
                raise

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise StoreError("store.read_failed", f"cannot read the saved games: {e}",
                                 disk_full(e)) from None

    def _checkpoint(self, how: str) -> None:
        """Copy the WAL into the main file, so that a finished game never lives only in
        ``bonanza.db-wal`` (a player or a cleaner deleting it after a crash would lose it)."""
        with self._lock:
            try:
                self._conn.execute(f"PRAGMA wal_checkpoint({how})").fetchall()
            except sqlite3.Error:
                pass   # the game is committed already; the next checkpoint catches up

    def close(self) -> None:
        with self._lock:
            if self.persistent:
                self._checkpoint("TRUNCATE")
            try:
                self._conn.close()
            except sqlite3.Error:
                pass

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
