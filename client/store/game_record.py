"""A stored game as the store hands it out (``GameRecord``), the columns it is read from,
the one rule for what counts on a board, and the store's timestamps."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from .summary import SELF_DEALT


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


# what ``game_record`` reads, in its order; the file's path and ``damaged`` come last
GAME_COLS = ("id, mode, ruleset, score, duration_ms, seed, date, new_best, previous_best, "
             "played_at, name, upper_bonus, bonanzas, moves, status, category, seed_text, "
             "(SELECT path FROM game_files f WHERE f.game_id = games.id), damaged")

# Only a finished, sound game can be a best or count in an average: a given-up game's
# score is what the sheet held when the player stopped.
COUNTS = "damaged IS NULL AND status = 'finished'"


def best_sql(category: str | None) -> tuple[str, int]:
    """A board's games as (score, game id), best first, and how many times its
    (ruleset, mode[, category]) params repeat.  A version-1 best whose game was never stored
    has no category (and no game id): it counts only on the board of every category together."""
    if category is None:
        return ("SELECT score, id FROM games WHERE ruleset = ? AND mode = ? AND "
                f"{COUNTS} UNION ALL SELECT score, NULL FROM bests WHERE "
                "ruleset = ? AND mode = ? AND game_id IS NULL ORDER BY 1 DESC"), 2
    return (f"SELECT score, id FROM games WHERE ruleset = ? AND mode = ? AND category = ? "
            f"AND {COUNTS} ORDER BY score DESC, id"), 1


# a set-seed run is compared with runs of the same seed only (issue 25): another seed is
# other dice, so its best says nothing about this one
SEED_BEST_SQL = (f"SELECT score, id FROM games WHERE ruleset = ? AND mode = ? AND category = 'seeded' "
                 f"AND seed_text = ? AND {COUNTS} ORDER BY score DESC, id")


def best_of(rows: Iterable[tuple[int, int | None]],
            log_of: Callable[[int], bytes | None]) -> int | None:
    """The best score of a board's ``rows`` (``best_sql``'s, best first) that is a best at
    all: a run resumed after the program stopped never is (issues 25, 26).  Whether it was
    resumed is its log's fact (the end's meta), so the log is read, best first, until a run
    that was not; a log that cannot be read counts as it was stored."""
    from bonanza.core.log import parse_log
    from bonanza.core.verify import resumed
    for score, gid in rows:
        data = log_of(gid) if gid is not None else None
        if data is None:
            return score
        try:
            end = parse_log(data).end
        except Exception:
            return score
        meta = end.get("meta") if end is not None else None
        if not resumed(meta if isinstance(meta, dict) else {}):
            return score
    return None


def game_record(row: Any, directory: str | None = None) -> GameRecord:
    """A ``GAME_COLS`` row; the file's path is made absolute under ``directory``."""
    (gid, mode, ruleset, score, duration, seed, date, new_best, prev, played_at, name,
     upper, bonanzas, moves, status, category, seed_text, path, damaged) = row
    if path and directory:
        path = os.path.join(directory, *path.split("/"))
    return GameRecord(gid, mode, ruleset, score, duration, seed, date, bool(new_best), prev,
                      played_at, name, bool(upper), bonanzas, moves, damaged,
                      status or "finished", category, seed_text, path or None)


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_utc(when: Any) -> str:
    """``played_at`` as the store keeps it: ISO 8601 in UTC, milliseconds, ``Z``."""
    if when is None:
        return utc_now_iso()
    if isinstance(when, datetime):
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return (when.astimezone(timezone.utc).isoformat(timespec="milliseconds")
                .replace("+00:00", "Z"))
    if isinstance(when, str) and when:
        try:
            return iso_utc(datetime.fromisoformat(when.replace("Z", "+00:00")))
        except ValueError:
            pass
    raise ValueError("played_at must be a datetime or an ISO string")
