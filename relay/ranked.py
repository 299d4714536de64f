"""Ranked runs: solo runs the relay deals, times and signs, on boards of their own.

Every attempt the relay issues is counted per person (a run given up or abandoned
counts too), so seed-shopping shows on the board as the number of attempts.  A run the
relay itself could not finish (its journal damaged or gone after a restart) is given back:
it ends as ``gave_up = 'relay'`` and counts as no attempt (a fresh seed deals every run, so
the player learnt nothing for the next).  A run's
time is the relay's: the last record's stamp (ms since the run's first roll).  A run whose
median decision was quicker than a person reads dice (``core.splits.tool_assisted``) is
marked "tool-assisted?" and kept off the main boards: it has a list of its own.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterable

from .name_keys import name_key, rekey

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, name_key TEXT NOT NULL, name TEXT NOT NULL, ruleset TEXT NOT NULL,
    hints INTEGER NOT NULL, date TEXT NOT NULL, score INTEGER, duration_ms INTEGER,
    gave_up TEXT, log_file TEXT, tool_assisted INTEGER);
CREATE INDEX IF NOT EXISTS runs_name ON runs (name_key);
"""
COUNTED = "coalesce(gave_up, '') != 'relay'"     # the runs that count as attempts


class RankedStore:
    def __init__(self, path: str | Path, keep_open: Iterable[int] = ()):
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(runs)")}
        if "tool_assisted" not in columns:      # a store from before the mark: unmarked runs
            self.db.execute("ALTER TABLE runs ADD COLUMN tool_assisted INTEGER")
        rekey(self.db, "runs")
        # runs a previous run of the relay held in memory and no journal resumes can never
        # end now: the relay failed, not the player (``keep_open``: the runs the relay's
        # journals resume.)
        keep = set(keep_open)
        for (run_id,) in self.db.execute("SELECT id FROM runs WHERE score IS NULL AND "
                                         "gave_up IS NULL").fetchall():
            if run_id not in keep:
                self.return_run(run_id)

    def close(self) -> None:
        self.db.close()

    def start(self, name: str, ruleset: str, hints: bool, date: str) -> tuple[int, int]:
        """A new attempt: (its id, the person's attempt number, 1 for the first)."""
        cur = self.db.execute("INSERT INTO runs (name_key, name, ruleset, hints, date) "
                              "VALUES (?, ?, ?, ?, ?)", (name_key(name), name, ruleset,
                                                         int(hints), date))
        n = self.attempts(name)
        assert cur.lastrowid is not None   # an INSERT always gives the new row's id
        return cur.lastrowid, n

    def attempts(self, name: str) -> int:
        return self.db.execute(f"SELECT count(*) FROM runs WHERE name_key = ? AND {COUNTED}",
                               (name_key(name),)).fetchone()[0]

    def return_run(self, run_id: int) -> None:
        """An open run the relay could not finish ends given up by the relay, and counts
        as no attempt (it stays in the table, on no board)."""
        self.db.execute("UPDATE runs SET gave_up = 'relay' WHERE id = ? AND score IS NULL "
                        "AND gave_up IS NULL", (run_id,))

    def finish(self, run_id: int, score: int, duration_ms: int, gave_up: str | None,
               log_file: str | None, tool_assisted: bool = False) -> None:
        self.db.execute("UPDATE runs SET score = ?, duration_ms = ?, gave_up = ?, log_file = ?, "
                        "tool_assisted = ? WHERE id = ?",
                        (score, duration_ms, gave_up, log_file, int(tool_assisted), run_id))

    def board(self, ruleset: str, hints: bool, limit: int = 20,
              tool_assisted: bool = False) -> list[dict]:
        """Each person's best finished run (score high, then time short), with how many
        attempts they were issued in all; the runs marked tool-assisted are on a board of
        their own (``tool_assisted=True``), never on the main one."""
        rows = self.db.execute(
            "SELECT name_key, name, score, duration_ms, date FROM runs WHERE ruleset = ? "
            "AND hints = ? AND score IS NOT NULL AND gave_up IS NULL "
            "AND coalesce(tool_assisted, 0) = ? "
            "ORDER BY score DESC, duration_ms ASC, id ASC",
            (ruleset, int(hints), int(tool_assisted))).fetchall()
        out: list[dict] = []
        seen: set = set()
        for key, name, score, ms, date in rows:
            if key in seen:
                continue
            seen.add(key)
            n = self.db.execute(f"SELECT count(*) FROM runs WHERE name_key = ? AND {COUNTED}",
                                (key,)).fetchone()[0]
            out.append({"name": name, "score": score, "duration_ms": ms, "date": date,
                        "attempts": n, "place": len(out) + 1, "tool_assisted": tool_assisted})
            if len(out) >= limit:
                break
        return out
