"""The local account store: profile, finished games with their logs, bests, daily attempts.

One SQLite file (``bonanza.db``, WAL mode, ``synchronous=FULL``) in the user
data folder.  ``open_store`` never raises: a damaged file is moved aside and
salvaged, an unwritable folder falls back to an in-memory database, and every
problem comes back as a ``Notice`` the game shows the player.  No pygame here.
See docs/accounts.md.

One concern per module; this package holds only the public names:

* ``notices``     - what the player is told (``Notice``) and the errors callers see
* ``game_record`` - ``GameRecord``, the columns it is read from, what counts on a board
* ``connection``  - the connection, its lock, transactions, reads, closing
* ``queries``     - profile, games, bests, boards, statistics, daily attempts (reads)
* ``files``       - the database's files on disk and each game's ``.bonanza`` file
* ``recording``   - the writes: the profile, a finished game, a daily attempt begun
* ``opening``     - choosing, checking, migrating the file; in-memory fallbacks
* ``lock``        - the data folder's lock while a window opens the file
* ``salvage``     - a damaged file moved aside and recovered, crash-safe
* ``check``, ``schema``, ``summary`` - row checksums, the schema and its migrations,
  a game's row derived from its log
* ``records``     - export and import of a game's record file
* ``kill_hook``   - a test hook: the process kills itself at a chosen point
"""
from __future__ import annotations

import os

from .files import BUSY_TIMEOUT_MS, DB_NAME, PAGE_SIZE
from .game_record import GameRecord, utc_now_iso
from .notices import NOTICE_TEXT, DailyAlreadyPlayed, Notice, StoreError
from .opening import APP_NAME, ENV_VAR, open_database, resolve_dir
from .queries import DEFAULT_NAME
from .recording import Recording

MODES = ("solo", "table", "daily", "practice")


class Store(Recording):
    """The account database.  Thread-safe; every write is one transaction.

    Built from the concerns above: ``Connection`` <- ``Queries`` <- ``GameFiles`` <-
    ``Recording``, each a module of its own."""


def open_store(data_dir: str | os.PathLike[str] | None = None) -> tuple[Store, list[Notice]]:
    """Open the account store; never raises.  Returns (store, notices)."""
    opened, notices = open_database(data_dir)
    return Store(*opened), notices


__all__ = [
    "APP_NAME", "BUSY_TIMEOUT_MS", "DB_NAME", "DEFAULT_NAME", "ENV_VAR", "MODES", "NOTICE_TEXT",
    "PAGE_SIZE", "DailyAlreadyPlayed", "GameRecord", "Notice", "Store", "StoreError",
    "open_store", "resolve_dir", "utc_now_iso",
]
