"""What the store answers: the profile, games and their logs, bests, boards, statistics,
daily attempts.  Reads only; every write is in ``recording.py`` or ``files.py``."""
from __future__ import annotations

import json
import os
from typing import Any

from .connection import Connection
from .game_record import COUNTS, GAME_COLS, SEED_BEST_SQL, GameRecord, best_of, best_sql, game_record
from .summary import CATEGORIES

DEFAULT_NAME = "Player"


class Queries(Connection):
    def profile(self) -> dict[str, Any]:
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

    def game(self, game_id: int) -> GameRecord | None:
        rows = self._query(f"SELECT {GAME_COLS} FROM games WHERE id = ?", (int(game_id),))
        return game_record(rows[0], self.directory) if rows else None

    def game_log(self, game_id: int) -> bytes:
        """The stored log; KeyError for an unknown id."""
        rows = self._query("SELECT log FROM game_logs WHERE game_id = ?", (int(game_id),))
        if not rows:
            raise KeyError(f"no game with id {game_id}")
        return bytes(rows[0][0])

    def best(self, ruleset: str, mode: str = "solo", category: str | None = None,
             seed_text: str | None = None) -> int | None:
        """The best finished game of a board (``category`` None: every category); with
        ``seed_text``, of the set-seed runs of that seed."""
        if seed_text is not None:
            rows = self._query(SEED_BEST_SQL, (ruleset, mode, seed_text))
        else:
            sql, times = best_sql(category)
            rows = self._query(sql, (ruleset, mode) * times if category is None
                               else (ruleset, mode, category))
        return best_of(rows, self._log_or_none)

    def _log_or_none(self, game_id: int) -> bytes | None:
        try:
            return self.game_log(game_id)
        except KeyError:
            return None

    def board_games(self, ruleset: str, modes: tuple[str, ...],
                    category: str) -> list[GameRecord]:
        """Every sound game of a board, finished or not, best first (the Server board
        sorts its games by who signed them, so it reads them all)."""
        marks = ", ".join("?" * len(modes))
        rows = self._query(
            f"SELECT {GAME_COLS} FROM games WHERE damaged IS NULL AND ruleset = ? AND "
            f"category = ? AND mode IN ({marks}) "
            f"ORDER BY score DESC, duration_ms IS NULL, duration_ms ASC, id ASC",
            (ruleset, category, *modes))
        return [game_record(r, self.directory) for r in rows]

    def signed_by(self, game_id: int) -> tuple[bytes | None, bool | None]:
        """The relay key that signed a stored game (None: not signed) and a ranked run's
        hints declaration, read from its log's header (verified when it was stored)."""
        from .summary import signer_and_hints
        try:
            from bonanza.core.log import parse_log
            return signer_and_hints(parse_log(self.game_log(game_id)).header)
        except Exception:       # a log that no longer reads vouches for nothing
            return None, None

    def history(self, limit: int = 50, mode: str | None = None) -> list[GameRecord]:
        """Every recorded game, given-up ones too (``status`` says which), newest first."""
        where, params = ("WHERE mode = ?", (mode,)) if mode else ("", ())
        rows = self._query(f"SELECT {GAME_COLS} FROM games {where} "
                           f"ORDER BY played_at DESC, id DESC LIMIT ?", params + (int(limit),))
        return [game_record(r, self.directory) for r in rows]

    def boards(self) -> list[tuple[str, str, str]]:
        """Every (ruleset, mode, category) with at least one sound game, in the order
        summary.CATEGORIES lists them (a board's games all share dice of one kind)."""
        rows = self._query("SELECT DISTINCT ruleset, mode, category FROM games "
                           "WHERE damaged IS NULL AND category IS NOT NULL AND mode != 'practice'")
        order = {c: i for i, c in enumerate(CATEGORIES)}
        boards = [(r[0], r[1], r[2]) for r in rows]
        return sorted(boards, key=lambda b: (order.get(b[2], len(order)), b[0], b[1]))

    @staticmethod
    def _where(ruleset: str | None, mode: str | None,
               category: str | None) -> tuple[list[str], list[str]]:
        conds, params = ["damaged IS NULL"], []
        if not mode:      # every mode but practice, which counts in no statistics
            conds.append("mode != 'practice'")
        for col, value in (("ruleset", ruleset), ("mode", mode), ("category", category)):
            if value:
                conds.append(f"{col} = ?")
                params.append(value)
        return conds, params

    def stats(self, ruleset: str | None = None, mode: str | None = None,
              category: str | None = None) -> dict[str, Any]:
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
            f"SELECT {GAME_COLS} FROM games WHERE {' AND '.join(conds)} AND {COUNTS} "
            f"ORDER BY score DESC, duration_ms IS NULL, duration_ms ASC, id ASC LIMIT ?",
            (*params, int(limit)))
        return [game_record(r, self.directory) for r in rows]

    def daily_status(self, date_iso: str) -> str:
        rows = self._query("SELECT game_id, score FROM daily_attempts WHERE date = ?", (date_iso,))
        if not rows:
            return "available"
        game_id, score = rows[0]
        return "played" if game_id is not None or score is not None else "in_progress"

    def daily_score(self, date_iso: str) -> int | None:
        """The score of that date's offline daily attempt (None if not finished)."""
        rows = self._query("SELECT score FROM daily_attempts WHERE date = ?", (date_iso,))
        score: int | None = rows[0][0] if rows else None
        return score

    def daily_attempts(self, limit: int = 30) -> list[dict[str, Any]]:
        rows = self._query("SELECT date, name, started_at, game_id, score FROM daily_attempts "
                           "ORDER BY date DESC LIMIT ?", (int(limit),))
        return [dict(zip(("date", "name", "started_at", "game_id", "score"), r)) for r in rows]
