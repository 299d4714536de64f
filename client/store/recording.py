"""What the store keeps: the profile saved, a finished game recorded (its row, bests,
daily attempt and ``.bonanza`` file), a daily attempt begun."""
from __future__ import annotations

import hashlib
from typing import Any

from bonanza.core.settings import MAX_NAME

from . import kill_hook, schema
from .files import GameFiles
from .game_record import GAME_COLS, SEED_BEST_SQL, GameRecord, best_of, best_sql, game_record, iso_utc, utc_now_iso
from .notices import DailyAlreadyPlayed
from .summary import summarize, verify_log


def _stored_log(conn, game_id: int) -> bytes | None:
    row = conn.execute("SELECT log FROM game_logs WHERE game_id = ?", (game_id,)).fetchone()
    return bytes(row[0]) if row is not None else None


class Recording(GameFiles):
    def save_profile(self, name: str | None = None, language: str | None = None,
                     settings: dict[str, Any] | None = None) -> dict[str, Any]:
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
        # durable when it returns, like a finished game: a deleted or damaged -wal after
        # a crash must not undo a change the player saw made
        self._checkpoint("PASSIVE")
        return new

    def record_game(self, log_bytes: bytes, played_at: Any = None) -> GameRecord:
        """Verify a finished game's log and keep it; ValueError if it does not verify.

        Recording the same log twice returns the stored record.  A daily game for a
        date whose attempt already produced another game raises ``DailyAlreadyPlayed``.
        """
        rec = self._record(log_bytes, played_at, salvage=False)
        kill_hook.reached("checkpoint")
        self._checkpoint("PASSIVE")
        # An in-memory store has told the player that nothing is saved this session;
        # files appearing in the folder would contradict it (and a busy or read-only
        # folder is someone else's to write).
        if self.persistent and rec.finished and rec.damaged is None and rec.file is None:
            rec = self._write_file(rec)
        return rec

    def _record(self, log_bytes: bytes, played_at: Any, salvage: bool) -> GameRecord:
        data = bytes(log_bytes)
        verdict = verify_log(data)
        if not verdict.ok:
            raise ValueError(f"the game does not verify: {verdict.detail}")
        played_at = iso_utc(played_at)
        digest = hashlib.sha256(data).hexdigest()
        with self._tx() as c:
            row = c.execute("SELECT name FROM profiles ORDER BY id LIMIT 1").fetchone()
            s = summarize(verdict, row[0] if row else None, self.seat_public())
            old = c.execute(f"SELECT {GAME_COLS} FROM games WHERE log_sha256 = ?",
                            (digest,)).fetchone()
            if old is not None:
                if old[-1] is not None:   # its stored replay was damaged: a sound copy heals it
                    c.execute("INSERT OR REPLACE INTO game_logs (game_id, log) VALUES (?, ?)",
                              (old[0], data))
                    c.execute("UPDATE games SET damaged = NULL WHERE id = ?", (old[0],))
                    schema.seal(c, "games", old[0])
                    old = old[:-1] + (None,)
                return game_record(old, self.directory)
            daily = None
            if s["offline_daily"]:
                daily = c.execute("SELECT game_id FROM daily_attempts WHERE date = ?",
                                  (s["date"],)).fetchone()
                if daily is not None and daily[0] is not None and not salvage:
                    raise DailyAlreadyPlayed(f"the daily challenge of {s['date']} was already played")
            if s["category"] == "seeded" and s["seed_text"] is not None:
                # "New best!" on a set seed: the best of that seed (other seeds, other dice)
                rows = c.execute(SEED_BEST_SQL, (s["ruleset"], s["mode"], s["seed_text"])).fetchall()
            else:
                sql, _ = best_sql(s["category"])
                rows = c.execute(sql, (s["ruleset"], s["mode"], s["category"])).fetchall()
            prev = best_of(rows, lambda gid: _stored_log(c, gid))
            # a resumed run's time away was not counted: it is never a best
            new_best = (s["status"] == "finished" and s["mode"] != "practice" and not s["resumed"]
                        and (prev is None or s["score"] > prev))
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
        assert gid is not None   # an INSERT's rowid
        return GameRecord(gid, s["mode"], s["ruleset"], s["score"], s["duration_ms"], s["seed"],
                          s["date"], new_best, prev, played_at, s["name"], s["upper_bonus"],
                          s["bonanzas"], s["moves"], None, s["status"], s["category"],
                          s["seed_text"])

    def begin_daily(self, date_iso: str) -> bool:
        """Start the day's one attempt; False if one was already begun that day.
        ``StoreError`` (``full`` set on a full disk) when it cannot be kept: the attempt
        is then not used."""
        with self._tx() as c:
            row = c.execute("SELECT name FROM profiles ORDER BY id LIMIT 1").fetchone()
            cur = c.execute("INSERT OR IGNORE INTO daily_attempts (date, name, started_at) "
                            "VALUES (?, ?, ?)", (date_iso, row[0] if row else None, utc_now_iso()))
            if cur.rowcount == 1:
                schema.seal(c, "daily_attempts", date_iso)
            begun = cur.rowcount == 1
        # in the main file before the dice are shown: a crash that loses the -wal must not
        # hand the attempt back (the dice could be seen and the day started over)
        self._checkpoint("PASSIVE")
        return begun
