"""The local account store: profile, finished games with their logs, bests, daily attempts.

One SQLite file (``bonanza.db``, WAL mode, ``synchronous=FULL``) in the user
data folder.  ``open_store`` never raises: a damaged file is moved aside and
salvaged, an unwritable folder falls back to an in-memory database, and every
problem comes back as a ``Notice`` the game shows the player.  No pygame here.
See docs/accounts.md.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, NamedTuple

from bonanza.core.settings import MAX_NAME
from bonanza.core.verify import verify_bytes

from . import schema
from .summary import SELF_DEALT, summarize

DB_NAME = "bonanza.db"
ENV_VAR = "BONANZA_DATA_DIR"
APP_NAME = "bonanza"
PAGE_SIZE = 16384          # a whole game log fits in one page: salvage can find it
DEFAULT_NAME = "Player"
MODES = ("solo", "table", "daily")


# ------------------------------------------------------------------ notices

# code -> (i18n key the client shows, English message)
BUSY_TIMEOUT_MS = 10000   # how long to wait for another window's write before giving up

NOTICE_TEXT = {
    "store.corrupt_moved": (
        "error.db_corrupt",
        "Your saved games file was damaged. It was moved aside to {path} and a new one was "
        "started; {recovered} finished game(s) were recovered from it."),
    "store.unwritable": (
        "error.data_not_writable",
        "The data folder {path} cannot be written to ({reason}). You can play, but nothing "
        "will be saved this session."),
    "store.newer_version": (
        "store.newer_version",
        "Your saved games file {path} was written by a newer version of Bonanza. It was left "
        "untouched; you can play, but nothing will be saved this session."),
    "store.busy": (
        "store.busy",
        "Your saved games file {path} is in use by another Bonanza window. You can play here, "
        "but nothing will be saved this session."),
    "store.migrated": (
        "store.migrated",
        "Your saved games were updated to the new format; a copy of the old file is at {backup}."),
    "store.read_only": (
        "store.read_only",
        "Your saved games file {path} is read-only. Your games are shown, but nothing new "
        "will be saved this session. Make the file writable (check its permissions or owner) "
        "and restart Bonanza."),
    "store.no_access": (
        "store.no_access",
        "Bonanza may not open your saved games file {path} ({reason}). It is not damaged and "
        "was left untouched. Give your user read and write permission on it and restart "
        "Bonanza; until then nothing is saved."),
    "store.damaged_games": (
        "store.damaged_games",
        "{damaged} saved game(s) in {path} are damaged and can no longer be replayed. They "
        "stay in your history, marked as damaged, but no longer count towards your bests "
        "and statistics."),
    "store.damaged_entries": (
        "store.damaged_entries",
        "{other} other saved entry(ies) in {path} (your profile or a daily challenge attempt) "
        "were damaged and could not be repaired. Check your name and settings."),
    "store.repaired": (
        "store.repaired",
        "{repaired} damaged entry(ies) in your saved games file {path} were repaired from "
        "the game replays; nothing was lost."),
    "store.files_unwritable": (
        "store.files_unwritable",
        "Finished games cannot be written as .bonanza files in {path} ({reason}). They are "
        "still kept in your saved games; Records can export them."),
}


class Notice(NamedTuple):
    """A plain-language problem for the player: ``code, params = notice``."""
    code: str
    params: dict

    @property
    def key(self) -> str:
        """The i18n catalogue key (params fill its placeholders)."""
        return NOTICE_TEXT.get(self.code, ("error.generic", ""))[0]

    @property
    def message(self) -> str:
        text = NOTICE_TEXT.get(self.code, ("", "{detail}"))[1]
        try:
            return text.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return text


class StoreError(Exception):
    """A store operation that could not be done (disk full, I/O error...)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class DailyAlreadyPlayed(ValueError):
    code = "daily_already_played"


class _Corrupt(Exception):
    pass


class _NoAccess(Exception):
    """The file is there but this user may not open it: not damage, never moved aside."""


class _Newer(Exception):
    def __init__(self, version: int):
        super().__init__(f"schema version {version}")
        self.version = version


# ------------------------------------------------------------------ records

@dataclass(frozen=True)
class GameRecord:
    id: int
    mode: str
    ruleset: str
    score: int
    duration_ms: int | None
    seed: str | None          # hex of the revealed seed (None for a public-dice daily)
    date: str | None          # the daily's date, or the date in the log's meta
    new_best: bool            # this game beat the previous best when it was recorded
    previous_best: int | None
    played_at: str            # ISO 8601, UTC
    name: str = ""
    upper_bonus: bool = False
    bonanzas: int = 0
    moves: int = 0
    damaged: str | None = None   # why the stored replay is unusable (None: sound)
    status: str = "finished"     # finished, or how the seat stopped: gave_up, left, away
    category: str | None = None  # the board: summary.CATEGORIES
    seed_text: str | None = None  # a set-seed run's seed as the player typed it
    file: str | None = None      # the game's .bonanza file, once written

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def self_dealt(self) -> bool:
        """The player's own window dealt the dice and measured the time."""
        return self.category in SELF_DEALT


_GAME_COLS = ("id, mode, ruleset, score, duration_ms, seed, date, new_best, previous_best, "
              "played_at, name, upper_bonus, bonanzas, moves, status, category, seed_text, "
              "(SELECT path FROM game_files f WHERE f.game_id = games.id), damaged")

# Only a finished, sound game can be a best or count in an average: a given-up game's
# score is what the sheet held when the player stopped.
_COUNTS = "damaged IS NULL AND status = 'finished'"


def _best_sql(category: str | None) -> tuple[str, int]:
    """The best of a board, and how many times its (ruleset, mode[, category]) params
    repeat.  A version-1 best whose game was never stored has no category: it counts
    only on the board of every category together."""
    if category is None:
        return ("SELECT MAX(s) FROM (SELECT MAX(score) AS s FROM games WHERE ruleset = ? AND "
                f"mode = ? AND {_COUNTS} UNION ALL SELECT score FROM bests WHERE "
                "ruleset = ? AND mode = ? AND game_id IS NULL)"), 2
    return (f"SELECT MAX(score) FROM games WHERE ruleset = ? AND mode = ? AND category = ? "
            f"AND {_COUNTS}"), 1


def _game_record(row, directory: str | None = None) -> GameRecord:
    (gid, mode, ruleset, score, duration, seed, date, new_best, prev, played_at, name,
     upper, bonanzas, moves, status, category, seed_text, path, damaged) = row
    if path and directory:
        path = os.path.join(directory, *path.split("/"))
    return GameRecord(gid, mode, ruleset, score, duration, seed, date, bool(new_best), prev,
                      played_at, name, bool(upper), bonanzas, moves, damaged,
                      status or "finished", category, seed_text, path or None)


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _iso_utc(when: Any) -> str:
    if when is None:
        return utc_now_iso()
    if isinstance(when, datetime):
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return (when.astimezone(timezone.utc).isoformat(timespec="milliseconds")
                .replace("+00:00", "Z"))
    if isinstance(when, str) and when:
        try:
            return _iso_utc(datetime.fromisoformat(when.replace("Z", "+00:00")))
        except ValueError:
            pass
    raise ValueError("played_at must be a datetime or an ISO string")


# ------------------------------------------------------------------ the store

class Store:
    """The account database.  Thread-safe; every write is one transaction."""

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

    # -------------------------------------------------------------- plumbing
    @contextmanager
    def _tx(self):
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise StoreError("store.write_failed", f"cannot write the saved games: {e}") from None
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException as e:
                try:
                    self._conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                if isinstance(e, sqlite3.Error):
                    raise StoreError("store.write_failed",
                                     f"cannot write the saved games: {e}") from None
                raise

    def _query(self, sql: str, params: tuple = ()) -> list:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise StoreError("store.read_failed", f"cannot read the saved games: {e}") from None

    # -------------------------------------------------------------- profile
    def profile(self) -> dict:
        rows = self._query("SELECT name, language, settings FROM profiles ORDER BY id LIMIT 1")
        if not rows:
            return {"name": DEFAULT_NAME, "language": None, "settings": {}}
        name, language, settings = rows[0]
        try:
            settings = json.loads(settings or "{}")
        except ValueError:
            settings = {}
        return {"name": name, "language": language,
                "settings": settings if isinstance(settings, dict) else {}}

    def save_profile(self, name: str | None = None, language: str | None = None,
                     settings: dict | None = None) -> dict:
        """Partial update: arguments left at None keep their value.  ``language=""``
        resets to automatic (None).  ``settings`` is merged key by key; a key set to
        None is removed.  Returns the new profile."""
        if name is not None:
            if not isinstance(name, str) or not name.strip():
                raise ValueError("the name must not be empty")
            name = name.strip()[:MAX_NAME]
        if settings is not None and not isinstance(settings, dict):
            raise ValueError("settings must be a dict")
        with self._tx() as c:
            current = self.profile()
            new = dict(current)
            if name is not None:
                new["name"] = name
            if language is not None:
                new["language"] = language or None
            if settings is not None:
                merged = dict(current["settings"])
                for k, v in settings.items():
                    if v is None:
                        merged.pop(k, None)
                    else:
                        merged[str(k)] = v
                new["settings"] = merged
            blob = schema.settings_json(new["settings"])
            row = c.execute("SELECT id FROM profiles ORDER BY id LIMIT 1").fetchone()
            if row is None:
                pid = c.execute("INSERT INTO profiles (name, language, settings, created_at) "
                                "VALUES (?, ?, ?, ?)",
                                (new["name"], new["language"], blob, utc_now_iso())).lastrowid
            else:
                pid = row[0]
                c.execute("UPDATE profiles SET name = ?, language = ?, settings = ? WHERE id = ?",
                          (new["name"], new["language"], blob, pid))
            schema.seal(c, "profiles", pid)
        return new

    # -------------------------------------------------------------- games
    def seat_public(self) -> bytes | None:
        """The public half of this player's seat key (``seat.key`` beside the database,
        made by the window when it first sits at a relay's table), or None."""
        if not self.directory:
            return None
        try:
            with open(os.path.join(self.directory, "seat.key"), "rb") as fh:
                seed = fh.read(64)
            from bonanza.core.signing import Signer
            return Signer(seed).public
        except (OSError, ValueError):
            return None

    def record_game(self, log_bytes: bytes, played_at: Any = None) -> GameRecord:
        """Verify a finished game's log and keep it; ValueError if it does not verify.

        Recording the same log twice returns the stored record.  A daily game for a
        date whose attempt already produced another game raises ``DailyAlreadyPlayed``.
        """
        rec = self._record(log_bytes, played_at, salvage=False)
        self._checkpoint("PASSIVE")
        # An in-memory store has told the player that nothing is saved this session;
        # files appearing in the folder would contradict it (and a busy or read-only
        # folder is someone else's to write).
        if self.persistent and rec.finished and rec.damaged is None and rec.file is None:
            rec = self._write_file(rec)
        return rec

    # -------------------------------------------------------------- .bonanza files
    GAMES_DIR = "games"

    def _write_file(self, rec: GameRecord) -> GameRecord:
        """Write a finished game's log as ``<data>/games/<name>.bonanza`` (atomic, 0644)
        and keep its path with the game.  The game is in SQLite already: a file that
        cannot be written costs only the file, and the player is told once a session
        (``take_file_notice``)."""
        from dataclasses import replace

        from .records import game_file_name, write_atomic
        folder = os.path.join(self.directory, self.GAMES_DIR) if self.directory else None
        try:
            if folder is None:
                raise OSError(errno.ENOENT, "there is no data folder")
            data = self.game_log(rec.id)
            name = game_file_name(rec.played_at, rec.mode, rec.category, rec.ruleset, rec.score,
                                  hashlib.sha256(data).hexdigest())
            rel = f"{self.GAMES_DIR}/{name}"
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, name)
            if not _same_file(path, data):
                write_atomic(path, data)
                _fsync(folder)
            with self._tx() as c:
                c.execute("INSERT OR REPLACE INTO game_files (game_id, path) VALUES (?, ?)",
                          (rec.id, rel))
                schema.seal(c, "game_files", rec.id)
        except (OSError, StoreError, KeyError) as e:
            if self._file_notice is None:
                self._file_notice = Notice("store.files_unwritable",
                                           {"path": folder or "?", "reason": _reason(e)})
            return rec
        return replace(rec, file=path)

    def _link_file(self, game_id: int, rel: str) -> bool:
        """Keep an existing ``.bonanza`` file (``rel`` under the data folder) as game
        ``game_id``'s, if it holds exactly that game's log (salvage uses it)."""
        if not self.directory or not isinstance(rel, str) or not rel.startswith(
                self.GAMES_DIR + "/") or ".." in rel.split("/"):
            return False
        try:
            data = self.game_log(game_id)
            if not _same_file(os.path.join(self.directory, *rel.split("/")), data):
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

    def _checkpoint(self, how: str) -> None:
        """Copy the WAL into the main file, so that a finished game never lives only in
        ``bonanza.db-wal`` (a player or a cleaner deleting it after a crash would lose it)."""
        with self._lock:
            try:
                self._conn.execute(f"PRAGMA wal_checkpoint({how})").fetchall()
            except sqlite3.Error:
                pass   # the game is committed already; the next checkpoint catches up

    def _record(self, log_bytes: bytes, played_at: Any, salvage: bool) -> GameRecord:
        data = bytes(log_bytes)
        verdict = verify_bytes(data)
        if not verdict.ok:
            raise ValueError(f"the game does not verify: {verdict.detail}")
        played_at = _iso_utc(played_at)
        digest = hashlib.sha256(data).hexdigest()
        with self._tx() as c:
            row = c.execute("SELECT name FROM profiles ORDER BY id LIMIT 1").fetchone()
            s = summarize(verdict, row[0] if row else None, self.seat_public())
            old = c.execute(f"SELECT {_GAME_COLS} FROM games WHERE log_sha256 = ?",
                            (digest,)).fetchone()
            if old is not None:
                if old[-1] is not None:   # its stored replay was damaged: a sound copy heals it
                    c.execute("INSERT OR REPLACE INTO game_logs (game_id, log) VALUES (?, ?)",
                              (old[0], data))
                    c.execute("UPDATE games SET damaged = NULL WHERE id = ?", (old[0],))
                    schema.seal(c, "games", old[0])
                    old = old[:-1] + (None,)
                return _game_record(old, self.directory)
            daily = None
            if s["offline_daily"]:
                daily = c.execute("SELECT game_id FROM daily_attempts WHERE date = ?",
                                  (s["date"],)).fetchone()
                if daily is not None and daily[0] is not None and not salvage:
                    raise DailyAlreadyPlayed(f"the daily challenge of {s['date']} was already played")
            sql, _ = _best_sql(s["category"])
            prev = c.execute(sql, (s["ruleset"], s["mode"], s["category"])).fetchone()[0]
            new_best = s["status"] == "finished" and (prev is None or s["score"] > prev)
            cur = c.execute(
                "INSERT INTO games (mode, ruleset, name, score, duration_ms, seed, date, "
                "upper_bonus, bonanzas, moves, new_best, previous_best, played_at, log_sha256, "
                "status, category, seed_text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (s["mode"], s["ruleset"], s["name"], s["score"], s["duration_ms"], s["seed"],
                 s["date"], int(s["upper_bonus"]), s["bonanzas"], s["moves"], int(new_best),
                 prev, played_at, digest, s["status"], s["category"], s["seed_text"]))
            gid = cur.lastrowid
            c.execute("INSERT INTO game_logs (game_id, log) VALUES (?, ?)", (gid, data))
            schema.seal(c, "games", gid)
            if new_best:
                # the table keeps one best per (ruleset, mode), every category together
                c.execute("INSERT INTO bests (ruleset, mode, score, game_id) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (ruleset, mode) DO UPDATE SET score = excluded.score, "
                          "game_id = excluded.game_id WHERE excluded.score > bests.score",
                          (s["ruleset"], s["mode"], s["score"], gid))
                schema.seal(c, "bests", c.execute(
                    "SELECT rowid FROM bests WHERE ruleset = ? AND mode = ?",
                    (s["ruleset"], s["mode"])).fetchone()[0])
            if s["offline_daily"]:
                if daily is None:
                    c.execute("INSERT INTO daily_attempts (date, name, started_at, game_id, score) "
                              "VALUES (?, ?, ?, ?, ?)",
                              (s["date"], s["name"], played_at, gid, s["score"]))
                elif daily[0] is None:
                    c.execute("UPDATE daily_attempts SET game_id = ?, score = ? WHERE date = ?",
                              (gid, s["score"], s["date"]))
                schema.seal(c, "daily_attempts", s["date"])
        return GameRecord(gid, s["mode"], s["ruleset"], s["score"], s["duration_ms"], s["seed"],
                          s["date"], new_best, prev, played_at, s["name"], s["upper_bonus"],
                          s["bonanzas"], s["moves"], None, s["status"], s["category"],
                          s["seed_text"])

    def game(self, game_id: int) -> GameRecord | None:
        rows = self._query(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (int(game_id),))
        return _game_record(rows[0], self.directory) if rows else None

    def game_log(self, game_id: int) -> bytes:
        """The stored log; KeyError for an unknown id."""
        rows = self._query("SELECT log FROM game_logs WHERE game_id = ?", (int(game_id),))
        if not rows:
            raise KeyError(f"no game with id {game_id}")
        return bytes(rows[0][0])

    def best(self, ruleset: str, mode: str = "solo", category: str | None = None) -> int | None:
        """The best finished game of a board (``category`` None: every category)."""
        sql, times = _best_sql(category)
        params = (ruleset, mode) * times if category is None else (ruleset, mode, category)
        return self._query(sql, params)[0][0]

    def history(self, limit: int = 50, mode: str | None = None) -> list[GameRecord]:
        """Every recorded game, given-up ones too (``status`` says which), newest first."""
        where, params = ("WHERE mode = ?", (mode,)) if mode else ("", ())
        rows = self._query(f"SELECT {_GAME_COLS} FROM games {where} "
                           f"ORDER BY played_at DESC, id DESC LIMIT ?", params + (int(limit),))
        return [_game_record(r, self.directory) for r in rows]

    def boards(self) -> list[tuple[str, str, str]]:
        """Every (ruleset, mode, category) with at least one sound game, in the order
        summary.CATEGORIES lists them (a board's games all share dice of one kind)."""
        from .summary import CATEGORIES
        rows = self._query("SELECT DISTINCT ruleset, mode, category FROM games "
                           "WHERE damaged IS NULL AND category IS NOT NULL")
        order = {c: i for i, c in enumerate(CATEGORIES)}
        return sorted((tuple(r) for r in rows),
                      key=lambda b: (order.get(b[2], len(order)), b[0], b[1]))

    @staticmethod
    def _where(ruleset, mode, category) -> tuple[list[str], list]:
        conds, params = ["damaged IS NULL"], []
        for col, value in (("ruleset", ruleset), ("mode", mode), ("category", category)):
            if value:
                conds.append(f"{col} = ?")
                params.append(value)
        return conds, params

    def stats(self, ruleset: str | None = None, mode: str | None = None,
              category: str | None = None) -> dict:
        """Finished games only: ``games`` counts them, ``average`` (one decimal), ``best``,
        ``upper_bonus`` (games that reached it), ``bonanzas`` (rolled in total); and
        ``gave_up``, the games stopped before the end, which count in nothing else."""
        conds, params = self._where(ruleset, mode, category)
        where = "WHERE " + " AND ".join(conds)
        games, avg, best, upper, bonanzas, stopped = self._query(
            f"SELECT SUM(status = 'finished'), AVG(CASE WHEN status = 'finished' THEN score END), "
            f"MAX(CASE WHEN status = 'finished' THEN score END), "
            f"SUM(CASE WHEN status = 'finished' THEN upper_bonus END), "
            f"SUM(CASE WHEN status = 'finished' THEN bonanzas END), SUM(status != 'finished') "
            f"FROM games {where}", tuple(params))[0]
        return {"games": games or 0, "average": round(avg, 1) if avg is not None else None,
                "best": best, "upper_bonus": upper or 0, "bonanzas": bonanzas or 0,
                "gave_up": stopped or 0}

    def personal_bests(self, ruleset: str, mode: str = "solo", limit: int = 10,
                       category: str | None = None) -> list[GameRecord]:
        """A board: finished sound games by score, then time (unknown last), then age."""
        conds, params = self._where(ruleset, mode, category)
        rows = self._query(
            f"SELECT {_GAME_COLS} FROM games WHERE {' AND '.join(conds)} AND {_COUNTS} "
            f"ORDER BY score DESC, duration_ms IS NULL, duration_ms ASC, id ASC LIMIT ?",
            (*params, int(limit)))
        return [_game_record(r, self.directory) for r in rows]

    # -------------------------------------------------------------- daily
    def daily_status(self, date_iso: str) -> str:
        rows = self._query("SELECT game_id, score FROM daily_attempts WHERE date = ?", (date_iso,))
        if not rows:
            return "available"
        game_id, score = rows[0]
        return "played" if game_id is not None or score is not None else "in_progress"

    def begin_daily(self, date_iso: str) -> bool:
        """Start the day's one attempt; False if one was already begun that day."""
        with self._tx() as c:
            row = c.execute("SELECT name FROM profiles ORDER BY id LIMIT 1").fetchone()
            cur = c.execute("INSERT OR IGNORE INTO daily_attempts (date, name, started_at) "
                            "VALUES (?, ?, ?)", (date_iso, row[0] if row else None, utc_now_iso()))
            if cur.rowcount == 1:
                schema.seal(c, "daily_attempts", date_iso)
            return cur.rowcount == 1

    def daily_score(self, date_iso: str) -> int | None:
        """The score of that date's offline daily attempt (None if not finished)."""
        rows = self._query("SELECT score FROM daily_attempts WHERE date = ?", (date_iso,))
        return rows[0][0] if rows else None

    def daily_attempts(self, limit: int = 30) -> list[dict]:
        rows = self._query("SELECT date, name, started_at, game_id, score FROM daily_attempts "
                           "ORDER BY date DESC LIMIT ?", (int(limit),))
        return [dict(zip(("date", "name", "started_at", "game_id", "score"), r)) for r in rows]

    # -------------------------------------------------------------- closing
    def close(self) -> None:
        with self._lock:
            if self.persistent:
                self._checkpoint("TRUNCATE")
            try:
                self._conn.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ------------------------------------------------------------------ opening

def resolve_dir(data_dir: str | os.PathLike | None = None) -> str:
    if data_dir:
        return os.path.abspath(os.fspath(data_dir))
    env = os.environ.get(ENV_VAR)
    if env:
        return os.path.abspath(env)
    import platformdirs
    return platformdirs.user_data_dir(APP_NAME, appauthor=False)


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return str(e) or type(e).__name__


def _probe_writable(directory: str) -> None:
    probe = os.path.join(directory, f".bonanza-write-test-{os.getpid()}")
    with open(probe, "wb") as f:
        f.write(b"ok")
    os.remove(probe)


# How long a window waits for another one that is opening (or salvaging) the same file.
LOCK_TIMEOUT_S = 120.0
LOCK_NAME = DB_NAME + ".lock"
SALVAGE_MARKER = ".salvage"      # bonanza.db.salvage: JSON, a salvage has begun
SALVAGE_TEMP = ".salvaging"      # bonanza.db.salvaging: the new file being filled


@contextmanager
def _folder_lock(directory: str, timeout: float | None = None):
    """Hold the data folder's open lock: one window at a time checks, creates,
    migrates or salvages the file, so a second window waits instead of seeing a
    half-made file (and reporting it busy or damaged).  Yields False on timeout.
    The lock file is never deleted: deleting lock files reopens the race."""
    timeout = LOCK_TIMEOUT_S if timeout is None else timeout
    try:
        fd = os.open(os.path.join(directory, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield True   # no lock file possible (read-only folder): nothing to race over
        return
    locked = False
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                _lock_fd(fd)
                locked = True
                break
            except (BlockingIOError, PermissionError):
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.02)
            except OSError:
                locked = True   # the file system cannot lock: go on as before the lock existed
                break
        yield locked
    finally:
        os.close(fd)   # closing the descriptor releases the lock


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock_fd(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _migrate(conn: sqlite3.Connection, path: str | None, notices: list) -> None:
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


def _check_tables(conn: sqlite3.Connection) -> None:
    for table in ("profiles", "games", "game_logs", "bests", "daily_attempts", "game_files"):
        try:
            conn.execute(f"SELECT * FROM {table} LIMIT 0")
        except sqlite3.OperationalError as e:   # a table gone from a damaged schema
            raise _Corrupt(str(e)) from None


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
        raise _NoAccess(_reason(e)) from None
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


def _connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


def _connect_file(path: str, notices: list) -> sqlite3.Connection:
    """Open an existing file, migrate it and check every row; raises _Corrupt, _Newer
    or sqlite3.Error."""
    if not os.path.isfile(path):
        raise _Corrupt("not a regular file")
    _precheck(path)
    conn = _connect(path)
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


def _report_rows(conn: sqlite3.Connection, path: str | None, notices: list,
                 reindexed: int = 0) -> None:
    from .check import check_rows
    found = check_rows(conn)
    found["repaired"] += reindexed
    if found["damaged"]:
        notices.append(Notice("store.damaged_games", {"path": path, "damaged": found["damaged"]}))
    if found["other"]:
        notices.append(Notice("store.damaged_entries", {"path": path, "other": found["other"]}))
    if found["repaired"]:
        notices.append(Notice("store.repaired", {"path": path, "repaired": found["repaired"]}))


def _same_file(path: str, data: bytes) -> bool:
    """True when ``path`` already holds exactly ``data`` (a game recorded again)."""
    try:
        if os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


def _fsync(path: str) -> None:
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


def _remove_db_files(path: str) -> None:
    for p in (path, path + "-wal", path + "-shm", path + "-journal"):
        try:
            os.remove(p)
        except FileNotFoundError:
            pass


def _close_into_one_file(conn: sqlite3.Connection, path: str) -> None:
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
    _fsync(path)


def _create_new(path: str) -> None:
    """A fresh, empty store at ``path``, made under another name and renamed into place:
    a crash or a second window never sees a 0-byte or schema-less ``bonanza.db``."""
    tmp = f"{path}.new-{os.getpid()}"
    _remove_db_files(tmp)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = WAL").fetchall()
        conn.execute("BEGIN IMMEDIATE")
        schema.create_current(conn)
        conn.execute("COMMIT")
        _close_into_one_file(conn, tmp)
        os.replace(tmp, path)
        _fsync(os.path.dirname(path))
    except BaseException:
        conn.close()
        _remove_db_files(tmp)
        raise


def _memory_conn(copy_from: str | None = None) -> sqlite3.Connection:
    """An in-memory store, preloaded with a read-only copy of ``copy_from`` if readable."""
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


def _memory_store(copy_from: str | None, directory: str | None, notices: list) -> Store:
    conn = _memory_conn(copy_from)
    if copy_from:
        try:   # damage in the copy is told too, so the player knows what they see
            _report_rows(conn, copy_from, notices)
        except sqlite3.Error:
            pass
    return Store(conn, None, directory)


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
    _fsync(os.path.dirname(path))


def _write_json_atomic(path: str, data: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync(os.path.dirname(path))


def _read_marker(path: str) -> dict | None:
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


def _sound(path: str) -> bool:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return (conn.execute("PRAGMA user_version").fetchone()[0] == schema.CURRENT_VERSION
                    and conn.execute("PRAGMA quick_check").fetchall() == [("ok",)])
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def _salvage(path: str, directory: str, notices: list, reason: str | None = None,
             marker: dict | None = None) -> None:
    """Move the damaged file aside and fill a new one from it, crash-safe at every step.

    A marker file (``bonanza.db.salvage``) is written before anything moves; the new
    file is filled under another name (``bonanza.db.salvaging``) and renamed into place
    only when complete; the marker goes last.  Killed at any point, the next start finds
    the marker and carries on: the moves are repeated only where they did not happen,
    and recording a log twice keeps one game, so filling simply runs again."""
    from .salvage import salvage
    resumed = marker is not None
    if marker is None:
        marker = {"moved": _aside_name(path), "reason": reason, "started_at": utc_now_iso()}
        _write_json_atomic(path + SALVAGE_MARKER, marker)
    moved, reason = marker["moved"], marker.get("reason") or "?"
    temp = path + SALVAGE_TEMP
    finished = (os.path.lexists(path) and not os.path.exists(temp)
                and (os.path.lexists(moved) or os.path.lexists(moved + "-wal")))
    if not finished:
        _move_aside(path, moved)
        if os.path.exists(temp) and not _sound(temp):
            _remove_db_files(temp)
        if not os.path.exists(temp):
            _create_new(temp)
        conn = _connect(temp)
        # Nothing here is the only copy (the old file stays aside until the end), so the
        # filling skips fsync; the file is checked with quick_check if a crash interrupts it.
        conn.execute("PRAGMA synchronous = OFF")
        salvage(moved, Store(conn, temp, directory))
        _close_into_one_file(conn, temp)
        os.replace(temp, path)
        _fsync(directory)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        recovered = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()
    os.remove(path + SALVAGE_MARKER)
    notices.append(Notice("store.corrupt_moved", {"path": moved, "original": path,
                                                  "recovered": recovered, "reason": reason,
                                                  "resumed": resumed}))


def open_store(data_dir: str | os.PathLike | None = None) -> tuple[Store, list[Notice]]:
    """Open the account store; never raises.  Returns (store, notices)."""
    notices: list[Notice] = []
    directory = "?"
    try:
        directory = resolve_dir(data_dir)
        return _open(directory, notices), notices
    except Exception as e:   # the game must start whatever happens
        notices.append(Notice("store.unwritable", {"path": directory, "reason": _reason(e)}))
        try:
            conn = _memory_conn()
        except Exception:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        return Store(conn, None, None), notices


def _open(directory: str, notices: list[Notice]) -> Store:
    path = os.path.join(directory, DB_NAME)
    try:
        os.makedirs(directory, exist_ok=True)
        _probe_writable(directory)
    except OSError as e:
        notices.append(Notice("store.unwritable", {"path": directory, "reason": _reason(e)}))
        return _memory_store(path, directory, notices)
    with _folder_lock(directory) as locked:
        if not locked:
            notices.append(Notice("store.busy", {"path": path}))
            return _memory_store(path, directory, notices)
        return _open_locked(path, directory, notices)


def _open_locked(path: str, directory: str, notices: list[Notice]) -> Store:
    try:
        marker = _read_marker(path)
        if marker is not None:
            _salvage(path, directory, notices, marker=marker)
        if not os.path.lexists(path):
            if os.path.exists(path + "-wal") and os.path.getsize(path + "-wal"):
                # a WAL without its database: its games are recovered, never replayed
                # into a new file (SQLite would apply it to the wrong database)
                raise _Corrupt("the main file is missing; only its -wal is left")
            _remove_db_files(path)
            _create_new(path)
        elif os.path.isfile(path):
            if not _access(path):
                notices.append(Notice("store.read_only", {"path": path}))
                return _memory_store(path, directory, notices)
        return Store(_connect_file(path, notices), path, directory)
    except _NoAccess as e:
        notices.append(Notice("store.no_access", {"path": path, "reason": str(e)}))
        return _memory_store(None, directory, notices)
    except _Newer as e:
        notices.append(Notice("store.newer_version", {"path": path, "version": e.version}))
        return _memory_store(None, directory, notices)
    except sqlite3.Error as e:
        kind = _error_kind(e)
        if kind == "busy":
            # Another Bonanza holds the file: it is in use, not damaged, so never move it aside.
            notices.append(Notice("store.busy", {"path": path}))
            return _memory_store(path, directory, notices)
        if kind == "access":
            notices.append(Notice("store.no_access", {"path": path, "reason": _reason(e)}))
            return _memory_store(None, directory, notices)
        if kind == "read_only":
            notices.append(Notice("store.read_only", {"path": path}))
            return _memory_store(path, directory, notices)
        if kind == "unwritable":
            notices.append(Notice("store.unwritable", {"path": directory, "reason": _reason(e)}))
            return _memory_store(path, directory, notices)
        reason = _reason(e)
    except _Corrupt as e:
        reason = _reason(e)
    try:
        _salvage(path, directory, notices, reason=reason)
        return Store(_connect_file(path, notices), path, directory)
    except (OSError, sqlite3.Error, _Corrupt) as e:
        notices.append(Notice("store.unwritable", {"path": directory, "reason": _reason(e)}))
        return _memory_store(None, directory, notices)
