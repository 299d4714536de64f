"""Ed25519 signatures in game logs: who made which move, who dealt the dice.

A relay signs every record it appends (the record's chain, which covers the header and
every record before it) and the end record; a human seat signs each of its intents
(roll with what it keeps, write a box, give up), and the relay puts the signed intent
into the record.  So a finished table log proves, as far as the keys are trusted, that
the relay dealt these dice in this order and that each seat asked for its own moves.

Keys are 32-byte Ed25519 seeds (RFC 8032); public keys are 32 bytes, signatures 64.
The callers draw seeds from the operating system (core has no randomness of its own).
PyNaCl (libsodium, maintained by the Python Cryptographic Authority) does the
cryptography; nothing here is hand-made crypto.  docs/fairness.md has test vectors.
"""
from __future__ import annotations

import hashlib
from typing import Any, Mapping

import msgpack
import nacl.exceptions
import nacl.signing

from .records import Intent, MoveType

RECORD_TAG = b"bonanza/record-sig/v1"
INTENT_TAG = b"bonanza/intent-sig/v1"
KEY_BYTES = 32
SIG_BYTES = 64


class Signer:
    """A private key that signs; ``public`` is its 32-byte public key."""

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != KEY_BYTES:
            raise ValueError("a signing key is 32 bytes")
        self._key = nacl.signing.SigningKey(seed)
        self.public: bytes = bytes(self._key.verify_key)

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message).signature

    def sign_record(self, chain: bytes) -> bytes:
        return self.sign(record_message(chain))

    def sign_intent(self, game_id: bytes, intent: Mapping[str, object]) -> bytes:
        return self.sign(intent_message(game_id, intent))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)


def valid(public: Any, message: bytes, signature: Any) -> bool:
    """True when ``signature`` is ``public``'s over ``message``; False for anything else,
    malformed keys and signatures included."""
    if (not isinstance(public, bytes) or len(public) != KEY_BYTES
            or not isinstance(signature, bytes) or len(signature) != SIG_BYTES):
        return False
    try:
        nacl.signing.VerifyKey(public).verify(message, signature)
        return True
    except (nacl.exceptions.BadSignatureError, nacl.exceptions.ValueError,
            nacl.exceptions.TypeError):
        return False


def record_message(chain: bytes) -> bytes:
    """What a relay signs for a record: its chain (which covers everything before it)."""
    return RECORD_TAG + chain


def intent_body(seq: int, kind: MoveType, hold: Any = None, box: Any = None) -> Intent:
    """The canonical intent a seat signs: the last move it saw, and what it asks for
    (``hold``, five true/false values, for a roll; ``box`` for a write: taken as given)."""
    body: Intent = {"seq": seq, "type": kind}
    if kind == "roll":
        body["hold"] = [bool(h) for h in hold]
    elif kind == "write":
        body["box"] = box
    return body


def round_intent_body(point: tuple[int, int], kind: MoveType, hold: Any = None,
                      box: Any = None) -> Intent:
    """The intent a seat signs at a daily table played in rounds, where it cannot know
    the log position its move will get: its own place instead (``core.rounds.signed_point``:
    ``round``, its own turn, and ``seq``, the rolls it made in it)."""
    body = intent_body(point[1], kind, hold, box)
    body["round"] = point[0]
    return body


def intent_message(game_id: bytes, intent: Mapping[str, object]) -> bytes:
    """What a seat signs: the game (its header's chain) and the intent without ``sig``."""
    body = {k: v for k, v in intent.items() if k != "sig"}
    return INTENT_TAG + game_id + msgpack.packb(body, use_bin_type=True)


def fingerprint(public: bytes) -> str:
    """A key as people compare it: the first 8 bytes of its SHA-256, in groups of four."""
    h = hashlib.sha256(public).hexdigest()[:16]
    return " ".join(h[i:i + 4] for i in range(0, 16, 4))
