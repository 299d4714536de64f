"""Who vouches for a relay's game on the Records "Server" board: the key that signed it,
known when the player met it in a lobby (``Profile.check_relay_key`` pins it) or trusted
it on the board.  The one place the board reads or writes that memory."""
from __future__ import annotations

from typing import Any, NamedTuple


class Signer(NamedTuple):
    """The relay that signed a stored game: its key, fingerprint and whether the player
    knows it; ``hints`` is a ranked run's declaration (None for other games)."""
    key: bytes | None
    fingerprint: str | None
    known: bool
    hints: bool | None


def signer_of(profile: Any, key: bytes | None, hints: bool | None) -> Signer:
    from bonanza.core.signing import fingerprint
    if not isinstance(key, bytes):
        return Signer(None, None, False, hints)
    return Signer(key, fingerprint(key), bool(profile.relay_key_met(key)), hints)


def trust(profile: Any, key: bytes) -> None:
    """The player accepts a key never met in a lobby: its games join the board."""
    profile.trust_relay_key(key)
