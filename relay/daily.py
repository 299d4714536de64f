"""The relay's daily challenge store: one secret seed per UTC date, attempts, leaderboard."""
from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

from core import dice as dice_mod

SCHEMA = """
CREATE TABLE IF NOT EXISTS days (date TEXT PRIMARY KEY, seed BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    date TEXT NOT NULL, name_key TEXT NOT NULL, name TEXT NOT NULL,
    score INTEGER, gave_up TEXT, log_file TEXT,
    PRIMARY KEY (date, name_key));
"""


def name_key(name: str) -> str:
    return name.strip().casefold()


class DailyStore:
    def __init__(self, path: str | Path):
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.executescript(SCHEMA)

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

    def start_attempt(self, date: str, name: str) -> bool:
        """Record an attempt; False when this name already played this date."""
        cur = self.db.execute("INSERT OR IGNORE INTO attempts (date, name_key, name) VALUES (?, ?, ?)",
                              (date, name_key(name), name))
        return cur.rowcount == 1

    def has_played(self, date: str, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM attempts WHERE date = ? AND name_key = ?",
                               (date, name_key(name))).fetchone() is not None

    def finish_attempt(self, date: str, name: str, score: int, gave_up: str | None,
                       log_file: str | None) -> None:
        self.db.execute("UPDATE attempts SET score = ?, gave_up = ?, log_file = ? "
                        "WHERE date = ? AND name_key = ?",
                        (score, gave_up, log_file, date, name_key(name)))

    def leaderboard(self, date: str) -> list[dict]:
        rows = self.db.execute("SELECT name, score FROM attempts WHERE date = ? AND score IS NOT NULL "
                               "ORDER BY score DESC, name", (date,)).fetchall()
        out: list[dict] = []
        for i, (name, score) in enumerate(rows):
            place = out[-1]["place"] if out and out[-1]["score"] == score else i + 1
            out.append({"name": name, "score": score, "place": place})
        return out

    def closed_days(self, today: str, limit: int = 7) -> list[dict]:
        rows = self.db.execute("SELECT date, seed FROM days WHERE date < ? ORDER BY date DESC LIMIT ?",
                               (today, limit)).fetchall()
        return [{"date": d, "seed": bytes(s), "commitment": dice_mod.commitment(bytes(s)),
                 "leaderboard": self.leaderboard(d)} for d, s in rows]

    def log_file(self, date: str, name: str) -> str | None:
        row = self.db.execute("SELECT log_file FROM attempts WHERE date = ? AND name_key = ?",
                              (date, name_key(name))).fetchone()
        return row[0] if row else None
