"""Dice anyone can verify: commitments, game keys and HMAC-SHA256 derivation.

Every die is ``die(key, turn, roll, position)``: a keyed hash with rejection
sampling, so a die depends only on the game key, the global turn number, the
roll number within the turn and the dice position -- never on what was held.
Holds only decide which positions take the new value.  The exact byte layout
is specified, with test vectors, in docs/fairness.md.
"""
from __future__ import annotations

import hashlib
import hmac
import struct
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from hashlib import _Hash

COMMIT_TAG = b"bonanza/commit/v1"
KEY_TAG = b"bonanza/key/v1"
DAILY_TAG = b"bonanza/daily/v1"
DIE_TAG = b"bonanza/die/v1"
PICK_TAG = b"bonanza/pick/v1"
SEED_BYTES = 32


def commitment(secret: bytes) -> bytes:
    """The public fingerprint of a secret seed or contribution."""
    return hashlib.sha256(COMMIT_TAG + bytes(secret)).digest()


def check_reveal(secret: bytes, commit: bytes) -> bool:
    return hmac.compare_digest(commitment(secret), bytes(commit))


def game_key(relay_seed: bytes, contributions: Sequence[bytes | None]) -> bytes:
    """Mix the relay's seed with every seat's contribution (None for bots), in seat order.

    Each part is length-prefixed so no two different inputs share a key.
    """
    h = hashlib.sha256(KEY_TAG)
    h.update(struct.pack(">H", len(relay_seed)) + relay_seed)
    h.update(struct.pack(">B", len(contributions)))
    for c in contributions:
        c = b"" if c is None else bytes(c)
        h.update(struct.pack(">H", len(c)) + c)
    return h.digest()


def daily_key(date_iso: str) -> bytes:
    """The public key of an offline daily challenge (``YYYY-MM-DD``)."""
    return hashlib.sha256(DAILY_TAG + date_iso.encode("ascii")).digest()


@lru_cache(maxsize=256)
def _hmac_pads(key: bytes) -> tuple[_Hash, _Hash]:
    """HMAC-SHA256's inner and outer hashes with the padded key absorbed (RFC 2104).

    A game derives hundreds of dice from one key; starting each die from these
    two precomputed states is about three times faster than ``hmac.new``.
    """
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return (hashlib.sha256(bytes(b ^ 0x36 for b in key)),
            hashlib.sha256(bytes(b ^ 0x5C for b in key)))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """Exactly ``hmac.digest(key, message, "sha256")``."""
    inner, outer = _hmac_pads(bytes(key))
    inner, outer = inner.copy(), outer.copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


def _uniform(key: bytes, message: bytes, n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling over HMAC output bytes."""
    if not 1 <= n <= 256:
        raise ValueError("n must be in 1..256")
    limit = 256 - 256 % n  # bytes >= limit are rejected: no modulo bias
    counter = 0
    while True:
        digest = hmac_sha256(key, message + struct.pack(">I", counter))
        for b in digest:
            if b < limit:
                return b % n
        counter += 1


def die(key: bytes, turn: int, roll: int, position: int) -> int:
    """The face (1..6) at ``position`` (0..4) on roll ``roll`` (1..3) of global turn ``turn``."""
    return 1 + _uniform(key, DIE_TAG + struct.pack(">IBB", turn, roll, position), 6)


def roll_dice(key: bytes, turn: int, roll: int, previous: Sequence[int] | None,
              hold: Sequence[bool]) -> tuple[int, ...]:
    """The dice after a roll: held positions keep ``previous``, the others get fresh dice.

    Each fresh die is ``die(key, turn, roll, position)``, made here from the key's HMAC
    pads and the message head (``DIE_TAG`` + the packed turn and roll) once per roll: the
    first digest byte below 252 (nearly always the first byte of the first digest)
    decides; any other case goes the long way through ``die``."""
    dice = []
    inner, outer = _hmac_pads(bytes(key))
    head = DIE_TAG + _TURN_ROLL.pack(turn, roll)
    for p in range(5):
        if previous is not None and hold[p]:
            dice.append(previous[p])
            continue
        h = inner.copy()
        h.update(head + _FIRST_TRY[p])
        o = outer.copy()
        o.update(h.digest())
        b = o.digest()[0]
        dice.append(1 + b % 6 if b < 252 else die(key, turn, roll, p))   # 252 = 256 - 256 % 6
    return tuple(dice)


_TURN_ROLL = struct.Struct(">IB")
_FIRST_TRY = [bytes((p,)) + b"\0\0\0\0" for p in range(5)]   # position, then counter 0


def first_seat(key: bytes, seats: int) -> int:
    """Which seat starts, drawn from the game key."""
    return _uniform(key, PICK_TAG + struct.pack(">B", seats), seats)
