"""Speedrun records: seeded solo runs, finishing and recording a game, export and import.

An exported record is the game's log file itself: it already holds the score
(end totals), the duration (end meta ``duration_ms``) and the seed (the reveal,
or the public date for a daily), all bound by the log's hash chain, so
``bonanza verify FILE`` checks it on any checkout.  No pygame here.
"""
from __future__ import annotations

import os
import re
import secrets
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass

from bonanza.core.dice import SEED_BYTES
from bonanza.core.game import Seat
from bonanza.core.match import Match
from bonanza.core.settings import DEFAULT_RULESET, seed_from_text
from bonanza.core.verify import verify_bytes, verify_file

from .summary import summarize

EXTENSION = ".bonanza"


class RecordError(Exception):
    """``code``: ``unknown_game``, ``damaged``, ``not_verified``, ``io_error`` or a verify code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def new_solo_match(name: str, ruleset: str = DEFAULT_RULESET, seed_text: str | None = None,
                   meta: dict | None = None) -> Match:
    """A solo game.  With ``seed_text`` (``core.settings.seed_from_text``'s rule, as in
    ``bonanza simulate``) it is a seeded run: the same dice for everyone typing that
    seed, marked ``seeded`` in the log header with the text as typed; otherwise a
    secret seed.  Raises ``core.settings.SettingError`` for an unusable seed."""
    meta = dict(meta or {})
    if seed_text is not None and seed_text.strip():
        seed = seed_from_text(seed_text)
        meta.update(seeded=True, seed_text=seed_text.strip())
    else:
        seed = secrets.token_bytes(SEED_BYTES)
    return Match.create(ruleset, [Seat(name)], seed, mode="solo", meta=meta)


def finish_and_record(store, match: Match, duration_ms: int | None = None, played_at=None):
    """Close a finished match's log (with its duration) and record it; returns the GameRecord."""
    meta = {} if duration_ms is None else {"duration_ms": max(0, int(duration_ms))}
    match.finish(meta)
    return store.record_game(match.log.to_bytes(), played_at=played_at)


def format_duration(ms: int | None) -> str:
    if ms is None:
        return "-"
    minutes, rest = divmod(int(ms), 60_000)
    return f"{minutes}:{rest // 1000:02d}.{rest % 1000:03d}"


def default_filename(record) -> str:
    """A file name for an exported record, e.g. ``bonanza-solo-312-game7.bonanza``."""
    return f"{record.ruleset}-{record.mode}-{record.score}-game{record.id}{EXTENSION}"


def game_file_name(played_at: str, mode: str, category: str | None, ruleset: str, score: int,
                   log_sha256: str) -> str:
    """The name a finished game's file gets in ``<data>/games/``, e.g.
    ``2024-05-01_123456_solo-seeded_bonanza_312_ab12cd34.bonanza``: sorted by time in a
    file browser, readable at a glance, and unique by the log's hash.  Everything in it
    is in the game's row, so the start-up check can rebuild a damaged link."""
    stamp = re.sub(r"[^0-9T]", "", str(played_at or ""))[:15].replace("T", "_")
    kind = mode if category in (None, mode) else f"{mode}-{category}"
    name = f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}{stamp[8:]}_{kind}_{ruleset}_{int(score)}_" \
           f"{str(log_sha256)[:8]}"
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name) + EXTENSION


def write_atomic(path: str, data: bytes) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".bonanza-export-", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); a record is meant to be shared, so it
        # gets the permissions any new file of this user gets (0644 with umask 022)
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def export_record(store, game_id: int, path: str) -> str:
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
    path = os.fspath(path)
    if os.path.isdir(path):
        raise RecordError("io_error", f"cannot write {path}: it is a folder")
    try:
        write_atomic(path, data)
    except OSError as e:
        raise RecordError("io_error", f"cannot write {path}: {e.strerror or e}") from None
    return path


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


def import_record(path: str) -> RecordSummary:
    """Verify a record file; its summary, or RecordError with the verify code."""
    verdict = verify_file(os.fspath(path))
    if not verdict.ok:
        raise RecordError(verdict.code, verdict.detail)
    s = summarize(verdict)
    return RecordSummary(s["mode"], s["ruleset"], s["name"], s["score"], s["duration_ms"],
                         s["seed"], s["date"], s["seeded"], s["moves"], s["upper_bonus"],
                         s["bonanzas"], verdict.detail)


# ---------------------------------------------------------------- command line

def add_data_argument(parser) -> None:
    """``--data DIR`` for the ``bonanza`` subcommands that read the account store."""
    parser.add_argument("--data", default=None, metavar="DIR",
                        help="data folder (default: $BONANZA_DATA_DIR or the user data folder)")


def missing_data_dir(data_dir: str | None) -> str | None:
    """The error for a ``--data`` folder that does not exist (None if it does, or if no
    folder was given): a mistyped path must not quietly start an empty account."""
    if data_dir is None or os.path.isdir(data_dir):
        return None
    what = "is not a folder" if os.path.exists(data_dir) else "does not exist"
    return (f"the data folder {os.path.abspath(data_dir)} {what}. Check the path given to "
            f"--data, or leave --data out to use the usual folder.")


@contextmanager
def cli_store(data_dir: str | None):
    """The account store for a subcommand: its notices go to stderr, and it is closed after."""
    from . import open_store
    store, notices = open_store(data_dir)
    try:
        for n in notices:
            print(f"note: {n.message}", file=sys.stderr)
        yield store
    finally:
        store.close()
