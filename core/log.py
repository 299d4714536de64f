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
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, cast

import msgpack

from . import dice as dice_mod
from .game import GameState, Seat, Setup, standings
from .records import (
    MODES,
    DiceSpec,
    EndRecord,
    GameSettings,
    Header,
    Intent,
    Meta,
    Mode,
    Move,
    MoveRecord,
    Reveal,
    Signing,
    VerifyCode,
)

if TYPE_CHECKING:
    from .signing import Signer

MAGIC = b"BONANZA-LOG\n"
FORMAT_VERSION = 1
CHAIN_TAG = b"bonanza/log/v1"
MAX_LOG_BYTES = 4 * 1024 * 1024   # a full 4-seat game is a few kilobytes


class LogError(Exception):
    """A log that cannot be read; ``code`` is stable (``verify.fail.<code>``)."""

    def __init__(self, code: VerifyCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def pack(obj: object) -> bytes:
    """``msgpack.packb(obj, use_bin_type=True)``, without a new Packer per call."""
    return _pack(obj)


def chain_next(previous: bytes, record: Mapping[str, object]) -> bytes:
    """The record's chain: over the previous chain and the record without ``chain``,
    ``sig`` and ``batch`` (a relay's signature is over the chain, so it cannot be inside it)."""
    body = {k: v for k, v in record.items() if k not in _UNCHAINED}
    return hashlib.sha256(previous + pack(body)).digest()


# What a record's chain leaves out: the chain itself, and the relay's signature and its
# batch proof (made over the chain, so they cannot be inside it).
_UNCHAINED = frozenset(("chain", "sig", "batch"))


def chain_start(header: Mapping[str, object]) -> bytes:
    return chain_next(CHAIN_TAG, header)


def make_header(setup: Setup, mode: Mode, dice: DiceSpec, settings: GameSettings | None = None,
                meta: Meta | None = None, signing: Signing | None = None) -> Header:
    """A header record.  ``dice`` is ``{"scheme": "commit", "commit": bytes,
    "contributions": [bytes | None, ...]}`` or ``{"scheme": "public", "date": "YYYY-MM-DD"}``.
    ``signing`` (a relay's games) is ``{"relay": public key, "seats": [public key | None]}``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    header: Header = {
        "kind": "header", "format": "bonanza-log", "version": FORMAT_VERSION,
        "mode": mode, "ruleset": setup.ruleset,
        "seats": [s.to_dict() for s in setup.seats], "first_seat": setup.first_seat,
        "settings": (settings or {}).copy(), "dice": dice.copy(), "meta": dict(meta or {}),
    }
    if signing is not None:
        header["signing"] = {"relay": bytes(signing["relay"]),
                             "seats": [None if k is None else bytes(k) for k in signing["seats"]]}
    header["chain"] = chain_start(header)
    return header


def setup_from_header(header: Mapping[str, Any]) -> Setup:
    """The game a header starts (KeyError, TypeError or ValueError for a malformed one)."""
    return Setup(ruleset=header["ruleset"],
                 seats=tuple(Seat.from_dict(s) for s in header["seats"]),
                 first_seat=header["first_seat"])


def game_key_from(dice: DiceSpec, reveal: Reveal) -> bytes:
    """The dice key from the header's dice scheme and the end's reveal."""
    if dice["scheme"] == "public":
        return dice_mod.daily_key(dice["date"])
    if dice["scheme"] == "day":        # a relay's daily: one key for the whole day
        return dice_mod.game_key(reveal["seed"], [None])
    return dice_mod.game_key(reveal["seed"], dice["contributions"])


def move_record(seq: int, move: Move, state: GameState, previous_chain: bytes) -> MoveRecord:
    rec: MoveRecord = {"kind": "move", "seq": seq, "move": move, "state": state.state_hash()}
    rec["chain"] = chain_next(previous_chain, rec)
    return rec


def end_record(state: GameState, reveal: Reveal, previous_chain: bytes,
               meta: Meta | None = None) -> EndRecord:
    rec: EndRecord = {
        "kind": "end", "seq": state.seq, "reveal": reveal.copy(),
        "totals": [state.total(i) for i in range(len(state.sheets))],
        "standings": [s.to_dict() for s in standings(state)],
        "meta": dict(meta or {}),
    }
    rec["chain"] = chain_next(previous_chain, rec)
    return rec


# One Packer, shared: for the builtin types packed here it never lets go of the GIL
# mid-pack (so threads never interleave in it), and it resets itself after an error.
_pack: Callable[[object], bytes] = msgpack.Packer(use_bin_type=True).pack
_unpackb = msgpack.unpackb
_sha256 = hashlib.sha256
_CHAIN_KEY = _pack("chain")
_SIG_KEY = _pack("sig")
_BATCH_KEY = _pack("batch")
_CHAIN_HEAD = _CHAIN_KEY + _pack(bytes(32))[:2]   # a chain is a SHA-256: 32 bytes, bin 8
_SIG_HEAD = _SIG_KEY + _pack(bytes(64))[:2]       # an Ed25519 signature: 64 bytes


def _sig_bytes(sig: bytes) -> bytes:
    """``pack("sig") + pack(sig)``, without packing a signature of the usual size."""
    return _SIG_HEAD + sig if len(sig) == 64 else _SIG_KEY + _pack(sig)


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

    A relay's ``BatchSigner`` signs records in batches: a record appended is then
    complete (its bytes known) once its batch is sealed.  Reading the log (``encoded``,
    ``records``, ``to_bytes``) seals what waits first, so nobody reads a record without
    its signature; ``when_sealed`` runs what must wait for a record's bytes.
    """

    __slots__ = ("header", "end", "_encoded", "_dicts", "_last_chain", "signer", "stamp",
                 "_unsealed", "_on_sealed")

    def __init__(self, header: Header, records: Iterable[MoveRecord] = (), end: EndRecord | None = None,
                 *, keep_dicts: bool = True, signer: Signer | None = None,
                 stamp: Callable[[], float] | None = None) -> None:
        self.header = header
        self.end = end
        self.signer = signer          # a relay's core.signing.Signer: every record is signed
        # A ranked run's relay stamps every record with its own clock (``at``: ms since
        # the run began); the caller's callable reads that clock, core reads none.
        self.stamp = stamp
        self._encoded: list[bytes] = []
        self._unsealed = 0            # records whose batch is not signed yet
        self._on_sealed: dict[int, list[Callable[[bytes], None]]] = {}
        self._dicts: list[MoveRecord] | None = [] if keep_dicts else None
        self._last_chain: bytes | None = None
        for rec in records:
            self._add(rec, pack(rec))

    def __repr__(self) -> str:
        return f"GameLog({self.header.get('mode')!r}, {len(self._encoded)} moves, end={self.end is not None})"

    @property
    def encoded(self) -> list[bytes]:
        """Every move record's canonical bytes, in order (a batch waiting is sealed first)."""
        if self._unsealed:
            self._seal()
        return self._encoded

    def _seal(self) -> None:
        seal = getattr(self.signer, "seal", None)
        if seal is not None:
            seal()
        if self._unsealed:
            raise RuntimeError("a record's batch signature never came")

    def when_sealed(self, index: int, then: Callable[[bytes], None]) -> None:
        """``then(bytes)`` once the record at ``index`` is complete (at once if it is)."""
        if self._encoded[index]:
            then(self._encoded[index])
        else:
            self._on_sealed.setdefault(index, []).append(then)

    def _add(self, rec: MoveRecord, encoded: bytes) -> None:
        self._encoded.append(encoded)
        if self._dicts is not None:
            self._dicts.append(rec)
        self._last_chain = rec.get("chain")

    @property
    def records(self) -> list[MoveRecord]:
        """The move records, in order (decoded when the log keeps only their bytes)."""
        if self._dicts is not None:
            return self._dicts
        return [_unpackb(e) for e in self.encoded]

    def records_from(self, start: int) -> list[MoveRecord]:
        """The move records from index ``start`` on (``seq > start``)."""
        if self._dicts is not None:
            return self._dicts[start:]
        return [_unpackb(e) for e in self.encoded[start:]]

    def __len__(self) -> int:
        return len(self._encoded)

    @property
    def last_chain(self) -> bytes:
        if self.end is not None:
            return self.end["chain"]
        if self._last_chain is not None:     # the last move record's
            return self._last_chain
        return self.header["chain"]

    @property
    def moves(self) -> list[Move]:
        return [r["move"] for r in self.records]

    def append(self, move: Move, state: GameState,
               intent: Intent | None = None) -> tuple[MoveRecord, bytes]:
        """Record ``move`` whose resulting state is ``state``: (the record, its encoding).
        ``intent`` is the seat's signed intent the move was made from, if any.

        The record is encoded once: the chain hashes the bytes without ``chain`` (an
        n-entry map), and the stored record is the same bytes as a map with ``chain``
        (and a signer's ``sig``) added, which is exactly ``pack(record)`` (msgpack
        keeps key order; tests compare with ``move_record``).  With a ``BatchSigner`` the
        signature (and its ``batch`` proof) come when the batch is sealed: until then the
        encoding returned is empty (``when_sealed``).
        """
        rec: MoveRecord = {"kind": "move", "seq": state.seq, "move": move, "state": state.state_hash()}
        if self.stamp is not None:
            rec["at"] = int(self.stamp())
        if intent is not None:
            rec["intent"] = intent
        body = _pack(rec)
        previous = self._last_chain
        if previous is None or self.end is not None:
            previous = self.last_chain
        chain = _sha256(previous + body).digest()
        rec["chain"] = chain
        tail = _CHAIN_HEAD + chain       # pack("chain") + pack(chain): a bin 8 of 32 bytes
        signer = self.signer
        defer = getattr(signer, "defer", None)
        if defer is not None:
            encoded_list = self._encoded
            index = len(encoded_list)
            self._add(rec, b"")
            self._unsealed += 1

            def sealed(sig: bytes, batch: list[Any] | None) -> None:
                rec["sig"] = sig
                end = tail + _sig_bytes(sig)
                if batch is not None:
                    rec["batch"] = batch
                    end += _BATCH_KEY + _pack(batch)
                encoded_list[index] = encoded = bytes((0x80 + len(rec),)) + body[1:] + end
                self._unsealed -= 1
                if self._on_sealed:
                    for then in self._on_sealed.pop(index, ()):
                        then(encoded)
            defer(chain, sealed)       # (sealed at once when it fills the batch)
            return rec, encoded_list[index]
        if signer is not None:
            rec["sig"] = sig = signer.sign_record(chain)
            tail += _sig_bytes(sig)
        # a fixmap's first byte is 0x80 + its size (records have far fewer than 16 keys)
        encoded = bytes((0x80 + len(rec),)) + body[1:] + tail
        self._add(rec, encoded)
        return rec, encoded

    def finish(self, state: GameState, reveal: Reveal, meta: Meta | None = None) -> EndRecord:
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


def _records(data: bytes) -> Iterator[tuple[dict[str, Any], bytes]]:
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
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
            raise LogError("corrupt", f"unreadable data at byte {len(MAGIC) + pos}")
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


def _shown(value: object) -> str:
    """A value read from a file nobody vouches for, as a verdict may quote it: escaped
    (``repr``) and short."""
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def parse_log(data: bytes) -> GameLog:
    """Split a log file into header, move records and end, checking the chain.

    Only structure is checked here; ``core.verify`` checks the game itself.  The records
    are typed as the format has them (``core.records``); ``core.logschema.check_log``
    is what confirms every field before a verifier relies on one.
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
        raise LogError("bad_version", f"log format version {_shown(header.get('version'))}; "
                       f"this Bonanza reads version {FORMAT_VERSION}")
    if header.get("chain") != chain_start(header):
        raise LogError("chain", "the header was changed after it was written")
    log = GameLog(header=cast(Header, header))   # kind, format, version and chain checked
    for rec, encoded in records:
        if log.end is not None:
            raise LogError("trailing_data", "there is data after the end of the game")
        kind = rec.get("kind")
        if rec.get("chain") != chain_next(log.last_chain, rec):
            where = f"move {_shown(rec.get('seq'))}" if kind == "move" else f"the {_shown(kind)} record"
            raise LogError("chain", f"{where} was changed, added or removed")
        if kind == "move":
            if rec.get("seq") != len(log) + 1:
                raise LogError("corrupt", f"move {_shown(rec.get('seq'))} is out of sequence")
            log._add(cast(MoveRecord, rec), encoded)   # a move record by its kind and chain
        elif kind == "end":
            log.end = cast(EndRecord, rec)
        else:
            raise LogError("corrupt", f"unknown record kind {_shown(kind)}")
    return log
