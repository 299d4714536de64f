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
from typing import Any, Iterable, Iterator

import msgpack

from . import dice as dice_mod
from .game import GameState, Seat, Setup, standings

MAGIC = b"BONANZA-LOG\n"
FORMAT_VERSION = 1
CHAIN_TAG = b"bonanza/log/v1"
MAX_LOG_BYTES = 4 * 1024 * 1024   # a full 4-seat game is a few kilobytes
MODES = ("solo", "table", "daily", "ranked")


class LogError(Exception):
    """A log that cannot be read; ``code`` is stable (``verify.fail.<code>``)."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def chain_next(previous: bytes, record: dict) -> bytes:
    """The record's chain: over the previous chain and the record without ``chain`` and
    ``sig`` (a relay's signature is over the chain, so it cannot be inside it)."""
    body = {k: v for k, v in record.items() if k != "chain" and k != "sig"}
    return hashlib.sha256(previous + pack(body)).digest()


def chain_start(header: dict) -> bytes:
    return chain_next(CHAIN_TAG, header)


def make_header(setup: Setup, mode: str, dice: dict, settings: dict | None = None,
                meta: dict | None = None, signing: dict | None = None) -> dict:
    """A header record.  ``dice`` is ``{"scheme": "commit", "commit": bytes,
    "contributions": [bytes | None, ...]}`` or ``{"scheme": "public", "date": "YYYY-MM-DD"}``.
    ``signing`` (a relay's games) is ``{"relay": public key, "seats": [public key | None]}``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    header = {
        "kind": "header", "format": "bonanza-log", "version": FORMAT_VERSION,
        "mode": mode, "ruleset": setup.ruleset,
        "seats": [s.to_dict() for s in setup.seats], "first_seat": setup.first_seat,
        "settings": dict(settings or {}), "dice": dict(dice), "meta": dict(meta or {}),
    }
    if signing is not None:
        header["signing"] = {"relay": bytes(signing["relay"]),
                             "seats": [None if k is None else bytes(k) for k in signing["seats"]]}
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
    if dice.get("scheme") == "day":        # a relay's daily: one key for the whole day
        return dice_mod.game_key(reveal["seed"], [None])
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


_pack = msgpack.Packer(use_bin_type=True).pack   # ``pack`` without a Packer per call
_unpackb = msgpack.unpackb
_sha256 = hashlib.sha256
_CHAIN_KEY = _pack("chain")
_SIG_KEY = _pack("sig")


class GameLog:
    """A log being written (by a ``Match``) or read back (``parse_log``).

    Every move record is kept as its canonical msgpack encoding (``encoded``): the
    bytes it is hashed by, sent as and written as, encoded once when it is appended.
    ``to_bytes`` joins them without encoding again.

    ``records`` gives the records as dicts.  A log written by a ``Match`` keeps no
    dicts (``keep_dicts=False``) and decodes them when they are read: the relay keeps
    finished tables (and so their logs) for a while for late resumes, and as dicts a
    game's records would be a few hundred small containers that every full garbage
    collection walks (pauses of 50-100 ms that stall every table); bytes are not
    tracked by the collector.  A log read back keeps the dicts it decoded anyway.
    """

    __slots__ = ("header", "end", "encoded", "_dicts", "_last_chain", "signer", "stamp")

    def __init__(self, header: dict, records: Iterable[dict] = (), end: dict | None = None,
                 *, keep_dicts: bool = True, signer=None, stamp=None):
        self.header = header
        self.end = end
        self.signer = signer          # a relay's core.signing.Signer: every record is signed
        # A ranked run's relay stamps every record with its own clock (``at``: ms since
        # the run began); the caller's callable reads that clock, core reads none.
        self.stamp = stamp
        self.encoded: list[bytes] = []
        self._dicts: list[dict] | None = [] if keep_dicts else None
        self._last_chain: bytes | None = None
        for rec in records:
            self._add(rec, pack(rec))

    def __repr__(self) -> str:
        return f"GameLog({self.header.get('mode')!r}, {len(self.encoded)} moves, end={self.end is not None})"

    def _add(self, rec: dict, encoded: bytes) -> None:
        self.encoded.append(encoded)
        if self._dicts is not None:
            self._dicts.append(rec)
        self._last_chain = rec.get("chain")

    @property
    def records(self) -> list[dict]:
        """The move records, in order (decoded when the log keeps only their bytes)."""
        if self._dicts is not None:
            return self._dicts
        return [_unpackb(e) for e in self.encoded]

    def records_from(self, start: int) -> list[dict]:
        """The move records from index ``start`` on (``seq > start``)."""
        if self._dicts is not None:
            return self._dicts[start:]
        return [_unpackb(e) for e in self.encoded[start:]]

    def __len__(self) -> int:
        return len(self.encoded)

    @property
    def last_chain(self) -> bytes:
        if self.end is not None:
            return self.end["chain"]
        return self._last_chain if self.encoded else self.header["chain"]

    @property
    def moves(self) -> list[dict]:
        return [r["move"] for r in self.records]

    def append(self, move: dict, state: GameState,
               intent: dict | None = None) -> tuple[dict, bytes]:
        """Record ``move`` whose resulting state is ``state``: (the record, its encoding).
        ``intent`` is the seat's signed intent the move was made from, if any.

        The record is encoded once: the chain hashes the bytes without ``chain`` (an
        n-entry map), and the stored record is the same bytes as a map with ``chain``
        (and a signer's ``sig``) added, which is exactly ``pack(record)`` (msgpack
        keeps key order; tests compare with ``move_record``).
        """
        rec = {"kind": "move", "seq": state.seq, "move": move, "state": state.state_hash()}
        if self.stamp is not None:
            rec["at"] = int(self.stamp())
        if intent is not None:
            rec["intent"] = intent
        body = _pack(rec)
        chain = _sha256(self.last_chain + body).digest()
        rec["chain"] = chain
        tail = _CHAIN_KEY + _pack(chain)
        if self.signer is not None:
            rec["sig"] = sig = self.signer.sign_record(chain)
            tail += _SIG_KEY + _pack(sig)
        # a fixmap's first byte is 0x80 + its size (records have far fewer than 16 keys)
        encoded = bytes((0x80 + len(rec),)) + body[1:] + tail
        self._add(rec, encoded)
        return rec, encoded

    def finish(self, state: GameState, reveal: dict, meta: dict | None = None) -> dict:
        end = end_record(state, reveal, self.last_chain, meta)
        if self.signer is not None:
            end["sig"] = self.signer.sign_record(end["chain"])
        self.end = end
        return end

    def to_bytes(self) -> bytes:
        parts = [MAGIC, pack(self.header), *self.encoded]
        if self.end is not None:
            parts.append(pack(self.end))
        return b"".join(parts)


def _records(data: bytes) -> Iterator[tuple[dict, bytes]]:
    """Decode records, insisting each one is in canonical encoding: (record, its bytes)."""
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
        yield obj, body[pos:end]
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
    header, _ = next(records, (None, None))
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
    for rec, encoded in records:
        if log.end is not None:
            raise LogError("trailing_data", "there is data after the end of the game")
        kind = rec.get("kind")
        if rec.get("chain") != chain_next(log.last_chain, rec):
            where = f"move {rec.get('seq')!r}" if kind == "move" else f"the {kind!r} record"
            raise LogError("chain", f"{where} was changed, added or removed")
        if kind == "move":
            if rec.get("seq") != len(log.encoded) + 1:
                raise LogError("corrupt", f"move {rec.get('seq')!r} is out of sequence")
            log._add(rec, encoded)
        elif kind == "end":
            log.end = rec
        else:
            raise LogError("corrupt", f"unknown record kind {kind!r}")
    return log
