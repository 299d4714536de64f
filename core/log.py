"""The game log file: a versioned header, one record per move, and the reveal.

Layout (docs/log-format.md is the full description)::

    MAGIC  header  move*  end

Each record is a msgpack map written in msgpack's canonical (smallest)
encoding and carries ``chain``: SHA-256 over the previous record's chain and
the record's own bytes without ``chain``.  Readers re-encode every record and
insist on identical bytes, so changing any byte anywhere is detected.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterator

import msgpack

from . import dice as dice_mod
from .game import GameState, Seat, Setup, standings

MAGIC = b"BONANZA-LOG\n"
FORMAT_VERSION = 1
CHAIN_TAG = b"bonanza/log/v1"
MAX_LOG_BYTES = 4 * 1024 * 1024   # a full 4-seat game is a few kilobytes
MODES = ("solo", "table", "daily")


class LogError(Exception):
    """A log that cannot be read; ``code`` is stable (``verify.fail.<code>``)."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def chain_next(previous: bytes, record: dict) -> bytes:
    body = {k: v for k, v in record.items() if k != "chain"}
    return hashlib.sha256(previous + pack(body)).digest()


def chain_start(header: dict) -> bytes:
    return chain_next(CHAIN_TAG, header)


def make_header(setup: Setup, mode: str, dice: dict, settings: dict | None = None,
                meta: dict | None = None) -> dict:
    """A header record.  ``dice`` is ``{"scheme": "commit", "commit": bytes,
    "contributions": [bytes | None, ...]}`` or ``{"scheme": "public", "date": "YYYY-MM-DD"}``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    header = {
        "kind": "header", "format": "bonanza-log", "version": FORMAT_VERSION,
        "mode": mode, "ruleset": setup.ruleset,
        "seats": [s.to_dict() for s in setup.seats], "first_seat": setup.first_seat,
        "settings": dict(settings or {}), "dice": dict(dice), "meta": dict(meta or {}),
    }
    header["chain"] = chain_start(header)
    return header


def setup_from_header(header: dict) -> Setup:
    return Setup(ruleset=header["ruleset"],
                 seats=tuple(Seat.from_dict(s) for s in header["seats"]),
                 first_seat=header["first_seat"])


def game_key_from(dice: dict, reveal: dict) -> bytes:
    """The dice key from the header's dice scheme and the end's reveal."""
    if dice.get("scheme") == "public":
        return dice_mod.daily_key(dice["date"])
    return dice_mod.game_key(reveal["seed"], dice["contributions"])


def move_record(seq: int, move: dict, state: GameState, previous_chain: bytes) -> dict:
    rec = {"kind": "move", "seq": seq, "move": move, "state": state.state_hash()}
    rec["chain"] = chain_next(previous_chain, rec)
    return rec


def end_record(state: GameState, reveal: dict, previous_chain: bytes,
               meta: dict | None = None) -> dict:
    rec = {
        "kind": "end", "seq": state.seq, "reveal": dict(reveal),
        "totals": [state.total(i) for i in range(len(state.sheets))],
        "standings": [s.to_dict() for s in standings(state)],
        "meta": dict(meta or {}),
    }
    rec["chain"] = chain_next(previous_chain, rec)
    return rec


@dataclass
class GameLog:
    """A log being written (by the relay or a solo client) or read back."""
    header: dict
    records: list[dict] = field(default_factory=list)   # move records, in order
    end: dict | None = None

    @property
    def last_chain(self) -> bytes:
        if self.end is not None:
            return self.end["chain"]
        return self.records[-1]["chain"] if self.records else self.header["chain"]

    @property
    def moves(self) -> list[dict]:
        return [r["move"] for r in self.records]

    def append(self, move: dict, state: GameState) -> dict:
        """Record ``move`` whose resulting state is ``state``; returns the record."""
        rec = move_record(state.seq, move, state, self.last_chain)
        self.records.append(rec)
        return rec

    def finish(self, state: GameState, reveal: dict, meta: dict | None = None) -> dict:
        self.end = end_record(state, reveal, self.last_chain, meta)
        return self.end

    def to_bytes(self) -> bytes:
        parts = [MAGIC, pack(self.header)]
        parts += [pack(r) for r in self.records]
        if self.end is not None:
            parts.append(pack(self.end))
        return b"".join(parts)


def _records(data: bytes) -> Iterator[dict]:
    """Decode records, insisting each one is in canonical encoding."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=MAX_LOG_BYTES)
    body = data[len(MAGIC):]
    unpacker.feed(body)
    pos = 0
    while pos < len(body):
        try:
            obj = unpacker.unpack()
        except msgpack.OutOfData:
            raise LogError("truncated", f"the file ends in the middle of a record at byte {len(MAGIC) + pos}")
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as e:
            raise LogError("corrupt", f"unreadable data at byte {len(MAGIC) + pos} ({e})")
        end = unpacker.tell()
        if not isinstance(obj, dict):
            raise LogError("corrupt", f"record at byte {len(MAGIC) + pos} is not a map")
        try:
            canonical = pack(obj) == body[pos:end]
        except (TypeError, ValueError):
            canonical = False
        if not canonical:
            raise LogError("corrupt", f"record at byte {len(MAGIC) + pos} is not canonically encoded")
        yield obj
        pos = end


def parse_log(data: bytes) -> GameLog:
    """Split a log file into header, move records and end, checking the chain.

    Only structure is checked here; ``core.verify`` checks the game itself.
    """
    if len(data) > MAX_LOG_BYTES:
        raise LogError("corrupt", f"the file is larger than {MAX_LOG_BYTES} bytes")
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data[:len(MAGIC)]):
            raise LogError("truncated", "the file is cut off before its header")
        raise LogError("not_a_log", "this is not a Bonanza game log")
    records = iter(_records(data))
    header = next(records, None)
    if header is None:
        raise LogError("truncated", "the file has no header")
    if header.get("kind") != "header" or header.get("format") != "bonanza-log":
        raise LogError("not_a_log", "the file does not start with a Bonanza log header")
    if header.get("version") != FORMAT_VERSION:
        raise LogError("bad_version", f"log format version {header.get('version')!r}; "
                       f"this Bonanza reads version {FORMAT_VERSION}")
    if header.get("chain") != chain_start(header):
        raise LogError("chain", "the header was changed after it was written")
    log = GameLog(header=header)
    for rec in records:
        if log.end is not None:
            raise LogError("trailing_data", "there is data after the end of the game")
        kind = rec.get("kind")
        if rec.get("chain") != chain_next(log.last_chain, rec):
            where = f"move {rec.get('seq')!r}" if kind == "move" else f"the {kind!r} record"
            raise LogError("chain", f"{where} was changed, added or removed")
        if kind == "move":
            if rec.get("seq") != len(log.records) + 1:
                raise LogError("corrupt", f"move {rec.get('seq')!r} is out of sequence")
            log.records.append(rec)
        elif kind == "end":
            log.end = rec
        else:
            raise LogError("corrupt", f"unknown record kind {kind!r}")
    return log
