"""Speedrun records: finishing and recording a game, export and import.

An exported record is the game's log file itself: it already holds the score
(end totals), the duration (end meta ``duration_ms``) and the seed (the reveal,
or the public date for a daily), all bound by the log's hash chain, so
``bonanza verify FILE`` checks it on any checkout.  No pygame here.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bonanza.core.match import Match
from bonanza.core.verify import verify_bytes, verify_file

from .files import EXTENSION, write_atomic
from .game_record import GameRecord
from .recording import Recording
from .summary import summarize


class RecordError(Exception):
    """``code``: ``unknown_game``, ``damaged``, ``not_verified``, ``io_error`` or a verify code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def finish_and_record(store: Recording, match: Match, duration_ms: int | None = None,
                      played_at: Any = None, meta: dict[str, Any] | None = None) -> GameRecord:
    """Close a finished match's log (with its duration, beside ``meta``) and record it;
    returns the GameRecord."""
    end_meta: dict[str, Any] = dict(meta or {})
    if duration_ms is not None:
        end_meta["duration_ms"] = max(0, int(duration_ms))
    match.finish(end_meta)
    return store.record_game(match.log.to_bytes(), played_at=played_at)


def format_duration(ms: int | None) -> str:
    if ms is None:
        return "-"
    minutes, rest = divmod(int(ms), 60_000)
    return f"{minutes}:{rest // 1000:02d}.{rest % 1000:03d}"


def default_filename(record: GameRecord) -> str:
    """A file name for an exported record, e.g. ``bonanza-solo-312-game7.bonanza``."""
    return f"{record.ruleset}-{record.mode}-{record.score}-game{record.id}{EXTENSION}"


def export_record(store: Recording, game_id: int, path: str | os.PathLike[str]) -> str:
    """Write game ``game_id``'s log to ``path`` atomically; returns the path.

    The log is verified before writing.  Raises RecordError (``unknown_game``,
    ``not_verified``, ``io_error``)."""
    try:
        data = store.game_log(int(game_id))
    except (KeyError, ValueError, TypeError):
        raise RecordError("unknown_game", f"there is no game with id {game_id}") from None
    rec = store.game(int(game_id))
    if rec is not None and rec.damaged:
        raise RecordError("damaged", f"game {game_id} is damaged in the saved games file "
                                     f"({rec.damaged}), so its replay cannot be exported")
    verdict = verify_bytes(data)
    if not verdict.ok:
        raise RecordError("not_verified", f"game {game_id} does not verify: {verdict.detail}")
    out = os.fspath(path)
    if os.path.isdir(out):
        raise RecordError("io_error", f"cannot write {out}: it is a folder")
    try:
        write_atomic(out, data)
    except OSError as e:
        raise RecordError("io_error", f"cannot write {out}: {e.strerror or e}") from None
    return out


@dataclass(frozen=True)
class RecordSummary:
    """What a verified record file says (every field checked by ``core.verify``)."""
    mode: str
    ruleset: str
    name: str
    score: int
    duration_ms: int | None
    seed: str | None        # hex; None for a public-dice daily
    date: str | None        # the daily's date
    seeded: bool            # a seeded solo run (seed chosen before play)
    moves: int
    upper_bonus: bool
    bonanzas: int
    detail: str             # core.verify's one-line verdict


def import_record(path: str | os.PathLike[str]) -> RecordSummary:
    """Verify a record file; its summary, or RecordError with the verify code."""
    verdict = verify_file(os.fspath(path))
    if not verdict.ok:
        raise RecordError(verdict.code, verdict.detail)
    s = summarize(verdict)
    return RecordSummary(s["mode"], s["ruleset"], s["name"], s["score"], s["duration_ms"],
                         s["seed"], s["date"], s["seeded"], s["moves"], s["upper_bonus"],
                         s["bonanzas"], verdict.detail)


@dataclass(frozen=True)
class ImportResult:
    """What ``import_games`` did: games added, already there, and the files refused
    (path, why)."""
    added: list[GameRecord]
    known: int
    refused: list[tuple[str, str]]


def import_games(store: Recording, paths: Sequence[str | os.PathLike[str]]) -> ImportResult:
    """Add record files (a game from another computer or a backup) to the store: each
    path a ``.bonanza`` file or a folder of them.  Every file is verified; a game already
    kept (same log hash) is counted once; an imported game counts exactly like the
    original (``record_game`` derives everything from the log).  A write that fails
    raises ``StoreError`` and a folder that cannot be listed ``RecordError``, so the
    caller can say so; a file that cannot be read or verified is refused, not raised."""
    import hashlib

    from .heal import played_at_of, read_game_file
    from .notices import StoreError
    files: list[str] = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            try:
                files += sorted(os.path.join(p, n) for n in os.listdir(p)
                                if n.endswith(EXTENSION) and not n.startswith("."))
            except OSError as e:
                raise RecordError("io_error", f"cannot read {p}: {e.strerror or e}") from None
        else:
            files.append(p)
    added: list[GameRecord] = []
    known = 0
    refused: list[tuple[str, str]] = []
    for path in files:
        data = read_game_file(path)
        if data is None:
            refused.append((path, "io_error"))
            continue
        digest = hashlib.sha256(data).hexdigest()
        had = store._query("SELECT 1 FROM games WHERE log_sha256 = ? AND damaged IS NULL",
                           (digest,))
        try:
            rec = store.record_game(data, played_at_of(os.path.basename(path)))
        except StoreError:
            raise
        except ValueError as e:
            refused.append((path, getattr(e, "code", "not_verified")))
            continue
        if had:
            known += 1
        else:
            added.append(rec)
    return ImportResult(added, known, refused)
