"""The relay's daily challenge store: one secret seed per UTC date, attempts, leaderboard.

A day's seed is the whole day's dice, so it stays sealed until every attempt started
that day has ended (finished, given up, or expired by the relay): only then does the
day count as closed, with its seed and logs available.  One attempt per person: names
are compared by ``core.names.name_key`` (the UTS #39 skeleton, invisible characters and
case left out; relay/name_keys.py), and by default one attempt per connecting address too.
"""
from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path
from typing import Iterable

from bonanza.core import dice as dice_mod

from .name_keys import name_key, rekey

SCHEMA = """
CREATE TABLE IF NOT EXISTS days (date TEXT PRIMARY KEY, seed BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    date TEXT NOT NULL, name_key TEXT NOT NULL, name TEXT NOT NULL,
    score INTEGER, gave_up TEXT, log_file TEXT,
    PRIMARY KEY (date, name_key));
"""
# Columns added after the first release (old databases get them on open).
_ADDED = (("address", "TEXT"),)
_ADDED_DAYS = (("par", "INTEGER"),)

class DailyStore:
    def __init__(self, path: str | Path, keep_open: Iterable[tuple[str, str]] = ()):
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.executescript(SCHEMA)
        have = {row[1] for row in self.db.execute("PRAGMA table_info(attempts)")}
        for column, kind in _ADDED:
            if column not in have:
                self.db.execute(f"ALTER TABLE attempts ADD COLUMN {column} {kind}")
        have = {row[1] for row in self.db.execute("PRAGMA table_info(days)")}
        for column, kind in _ADDED_DAYS:
            if column not in have:
                self.db.execute(f"ALTER TABLE days ADD COLUMN {column} {kind}")
        rekey(self.db, "attempts")
        # Attempts still open belong to games a previous run of the relay held in memory:
        # they can never end now, so they end as lost (and their days can close).
        # (``keep_open``: the (date, name) attempts the relay's journals resume.)
        keep = {(d, name_key(n)) for d, n in keep_open}
        for d, k in self.db.execute("SELECT date, name_key FROM attempts "
                                    "WHERE score IS NULL AND gave_up IS NULL").fetchall():
            if (d, k) not in keep:
                self.db.execute("UPDATE attempts SET gave_up = 'lost' WHERE date = ? AND "
                                "name_key = ?", (d, k))

    def return_attempt(self, date: str, name: str) -> None:
        """The relay could not finish this attempt (it failed, not the player): it is
        taken back, as if never started (its game's log stays on disk, off the board)."""
        self.db.execute("DELETE FROM attempts WHERE date = ? AND name_key = ?",
                        (date, name_key(name)))

    def close(self) -> None:
        self.db.close()

    def seed(self, date: str) -> bytes:
        row = self.db.execute("SELECT seed FROM days WHERE date = ?", (date,)).fetchone()
        if row:
            return bytes(row[0])
        self.db.execute("INSERT OR IGNORE INTO days (date, seed) VALUES (?, ?)",
                        (date, secrets.token_bytes(dice_mod.SEED_BYTES)))
        return self.seed(date)

    def commitment(self, date: str) -> bytes:
        return dice_mod.commitment(self.seed(date))

    def start_attempt(self, date: str, name: str, address: str | None = None,
                      per_address: bool = True) -> str | None:
        """Record an attempt; None, or why not: "name" (this person played this date) or
        "address" (someone else at this address did; only with ``per_address``).  The
        address is kept either way, so the board can mark attempts from one address."""
        why = self.attempt_refusal(date, name, address, per_address)
        if why is not None:
            return why
        cur = self.db.execute("INSERT OR IGNORE INTO attempts (date, name_key, name, address) "
                              "VALUES (?, ?, ?, ?)", (date, name_key(name), name, address))
        return None if cur.rowcount == 1 else "name"

    def attempt_refusal(self, date: str, name: str, address: str | None = None,
                        per_address: bool = True) -> str | None:
        """What ``start_attempt`` would answer, recording nothing (a daily lobby asks this
        when someone sits down; the attempt is used when the table starts).  The name is
        asked first: it is the more exact reason."""
        if self.has_played(date, name):
            return "name"
        if per_address and address is not None and self.db.execute(
                "SELECT 1 FROM attempts WHERE date = ? AND address = ?",
                (date, address)).fetchone() is not None:
            return "address"
        return None

    def has_played(self, date: str, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM attempts WHERE date = ? AND name_key = ?",
                               (date, name_key(name))).fetchone() is not None

    def open_attempts(self, date: str) -> int:
        """Attempts of ``date`` still being played: while any is, the seed stays sealed."""
        return self.db.execute("SELECT count(*) FROM attempts WHERE date = ? AND score IS NULL "
                               "AND gave_up IS NULL", (date,)).fetchone()[0]

    def sealed(self, date: str, today: str) -> bool:
        return date >= today or self.open_attempts(date) > 0

    def finish_attempt(self, date: str, name: str, score: int, gave_up: str | None,
                       log_file: str | None) -> None:
        self.db.execute("UPDATE attempts SET score = ?, gave_up = ?, log_file = ? "
                        "WHERE date = ? AND name_key = ?",
                        (score, gave_up, log_file, date, name_key(name)))

    def leaderboard(self, date: str) -> list[dict]:
        """Attempts with a score: finished games best first, then the ones given up (best
        first, ``gave_up`` saying why): a game given up never ranks above a finished one.
        Equal scores share a place.  ``same_address`` numbers the attempts that came from
        one address (1, 2, ...; nil when alone), without showing the address."""
        rows = self.db.execute("SELECT name, score, address, gave_up FROM attempts "
                               "WHERE date = ? AND score IS NOT NULL "
                               "ORDER BY gave_up IS NOT NULL, score DESC, name",
                               (date,)).fetchall()
        counts: dict = {}
        for _, _, address, _ in rows:
            if address is not None:
                counts[address] = counts.get(address, 0) + 1
        groups: dict = {}
        out: list[dict] = []
        for i, (name, score, address, gave_up) in enumerate(rows):
            prev = out[-1] if out else None
            tied = (prev is not None and prev["score"] == score
                    and (prev["gave_up"] is None) == (gave_up is None))
            place = prev["place"] if tied and prev is not None else i + 1
            group = None
            if address is not None and counts[address] > 1:
                group = groups.setdefault(address, len(groups) + 1)
            out.append({"name": name, "score": score, "place": place, "same_address": group,
                        "gave_up": gave_up})
        return out

    def closed_days(self, today: str, limit: int = 7, work_out_par: bool = True) -> list[dict]:
        """Past days whose every attempt has ended, newest first, with their seeds.  A par
        not known yet is worked out only with ``work_out_par`` (the relay says so once its
        advisor is loaded: the event loop must never wait for a table build)."""
        rows = self.db.execute(
            "SELECT date, seed, par FROM days WHERE date < ? AND NOT EXISTS (SELECT 1 FROM "
            "attempts WHERE attempts.date = days.date AND score IS NULL AND gave_up IS NULL) "
            "ORDER BY date DESC LIMIT ?", (today, limit)).fetchall()
        out = []
        for d, s, par in rows:
            if par is None and work_out_par:
                par = self._par(d, bytes(s))
            out.append({"date": d, "seed": bytes(s), "commitment": dice_mod.commitment(bytes(s)),
                        "leaderboard": self.leaderboard(d), "par": par})
        return out

    def _par(self, date: str, seed: bytes) -> int | None:
        """The day's par: what the optimal bot scores on the day's dice (a one-seat game
        on the day's key), worked out once the seed may be known and kept."""
        try:
            from bonanza.core.simulate import simulate
            par = simulate("yacht", ["optimal"], seed).state.total(0)
        except Exception:   # the advisor's table is not there yet: next time
            return None
        self.db.execute("UPDATE days SET par = ? WHERE date = ?", (par, date))
        return par

    def log_file(self, date: str, name: str) -> str | None:
        row = self.db.execute("SELECT log_file FROM attempts WHERE date = ? AND name_key = ?",
                              (date, name_key(name))).fetchone()
        return row[0] if row else None
