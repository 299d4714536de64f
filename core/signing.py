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
from typing import Any, Callable, Mapping, Sequence

import msgpack
import nacl.exceptions
import nacl.signing

from .records import Intent, MoveType

RECORD_TAG = b"bonanza/record-sig/v1"
BATCH_TAG = b"bonanza/batch-sig/v1"
INTENT_TAG = b"bonanza/intent-sig/v1"
KEY_BYTES = 32
SIG_BYTES = 64
HASH_BYTES = 32
# The records one batch signature covers at most: a proof is then at most four hashes
# (about 140 bytes more per record), and the relay signs once per 16 moves under load.
BATCH_LIMIT = 16


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


# ---------------------------------------------------------------- batch signatures
# A relay under load signs the records it made in one pass of its event loop together:
# one Ed25519 signature over the root of a Merkle tree (RFC 9162's, section 2.1) whose
# leaves are the records' chains.  Each record carries the signature and its proof
# ``batch = [index, size, path]``, so each is checked alone, as strongly as a record
# signed by itself: the signature binds the root, the root every chain in the tree.
# docs/fairness.md 7 and docs/log-format.md describe it.

def leaf_hash(chain: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + chain).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def batch_message(size: int, root: bytes) -> bytes:
    """What a relay signs for a batch: how many records it holds and their tree's root."""
    return BATCH_TAG + size.to_bytes(2, "big") + root


def merkle(leaves: Sequence[bytes]) -> tuple[bytes, list[list[bytes]]]:
    """The root over ``leaves`` (leaf hashes) and each leaf's inclusion path, leaf to root
    (RFC 9162 2.1.1 and 2.1.3.1).  Built a level at a time, pairing neighbours and lifting
    a last odd node as it is: the same tree as the RFC's split at the largest power of two
    below the size.  A leaf's path is then its node's sibling on each level, where it has
    one (a lifted node has none on that level)."""
    level = list(leaves)
    levels = [level]
    while len(level) > 1:
        up = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) & 1:
            up.append(level[-1])
        levels.append(up)
        level = up
    # on level k a leaf's node is ``leaf >> k``, its sibling that index ^ 1
    below = list(enumerate(levels[:-1]))
    paths = [[lv[(leaf >> k) ^ 1] for k, lv in below if (leaf >> k) ^ 1 < len(lv)]
             for leaf in range(len(leaves))]
    return level[0], paths


def batch_root(chain: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root a record's proof leads to (RFC 9162 2.1.3.2), or None for a proof that
    cannot be one (an index out of range, a path too short or too long)."""
    if not 0 <= index < size:
        return None
    fn, sn = index, size - 1
    r = leaf_hash(chain)
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def record_signed(public: Any, rec: Mapping[str, Any]) -> bool:
    """True when the relay key ``public`` signed the record ``rec`` (a move or the end):
    by itself (``sig`` over its chain) or in a batch (``sig`` over the root its ``batch``
    proof leads to).  False for anything malformed."""
    chain, sig, batch = rec.get("chain"), rec.get("sig"), rec.get("batch")
    if not isinstance(chain, bytes):
        return False
    if batch is None:
        return valid(public, record_message(chain), sig)
    if not (isinstance(batch, list) and len(batch) == 3 and type(batch[0]) is int
            and type(batch[1]) is int and 2 <= batch[1] <= BATCH_LIMIT
            and isinstance(batch[2], list)
            and all(isinstance(h, bytes) and len(h) == HASH_BYTES for h in batch[2])):
        return False
    root = batch_root(chain, batch[0], batch[1], batch[2])
    return root is not None and valid(public, batch_message(batch[1], root), sig)


# What a deferred record is told once its batch is signed: the signature, and its proof
# (None: signed by itself).
Sealed = Callable[[bytes, "list[Any] | None"], None]


class BatchSigner(Signer):
    """A relay's key that signs records in batches (``defer``; ``seal`` signs what waits).

    The end record and anything else is still signed at once (``sign_record``).  A batch
    of one is signed by itself, exactly as a ``Signer`` signs it, so a relay that is not
    busy writes the same logs as before.  ``on_open`` is told when a batch opens (the
    relay seals it before anything leaves its event loop's pass)."""

    def __init__(self, seed: bytes, limit: int = BATCH_LIMIT) -> None:
        super().__init__(seed)
        if not 1 <= limit <= BATCH_LIMIT:
            raise ValueError(f"a batch holds 1 to {BATCH_LIMIT} records")
        self.limit = limit
        self.waiting: list[tuple[bytes, Sealed]] = []
        self.on_open: Callable[[], None] | None = None
        self.batches = 0          # signatures made for deferred records (a benchmark's count)

    @classmethod
    def of(cls, signer: Signer, limit: int = BATCH_LIMIT) -> "BatchSigner":
        return cls(bytes(signer._key), limit)

    def defer(self, chain: bytes, sealed: Sealed) -> None:
        """Sign ``chain`` with the batch; ``sealed`` gets the signature and proof."""
        self.waiting.append((chain, sealed))
        if len(self.waiting) == 1 and self.on_open is not None:
            self.on_open()
        if len(self.waiting) >= self.limit:
            self.seal()

    def seal(self) -> None:
        """Sign every record waiting, and tell each (in the order they were deferred)."""
        waiting = self.waiting
        if not waiting:
            return
        self.waiting = []
        self.batches += 1
        n = len(waiting)
        if n == 1:
            chain, sealed = waiting[0]
            sealed(self.sign_record(chain), None)
            return
        root, paths = merkle([leaf_hash(chain) for chain, _ in waiting])
        sig = self.sign(batch_message(n, root))
        for i, (_, sealed) in enumerate(waiting):
            sealed(sig, [i, n, paths[i]])


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
