"""What a screen tells the player about the relay it talks to: a refusal in the player's
language, the relay's key fingerprint (pinned by key with the addresses it was met at; a
changed key is asked about before joining), and a game that cannot be trusted."""
from __future__ import annotations

from typing import Any, NamedTuple


class RelayKeyNote(NamedTuple):
    """The relay's key as a screen shows it: its fingerprint (None: the relay gave no
    key), "new" / "known" / "changed" / "unknown", and the fingerprint pinned before for a
    changed one."""
    fingerprint: str | None
    seen: str
    old: str | None = None
    key: bytes | None = None


def refusal_text(t: Any, msg: dict) -> str:
    """A relay's error in the player's language (``refusal.<code>``); ``t`` is the
    screen's translator."""
    code = msg.get("code", "unknown")
    key = f"refusal.{code}"
    text = t(key)
    return t("refusal.unknown", code=code) if text == key else text


def handle_relay_error(scene: Any, msg: dict) -> None:
    """A relay's error on ``scene``: shown as an error toast."""
    scene.app.show(refusal_text(scene.t, msg), "error")


def note_relay_key(scene: Any, conn: Any, address: str, port: int) -> RelayKeyNote | None:
    """Once connected: the relay's key and what it is to this player (``Profile.
    check_relay_key``); a welcome without a key is "unknown", never a switch that turns
    the check off.  None until the relay's welcome is in."""
    welcome = getattr(conn, "welcome", None)
    if welcome is None:
        return None
    key = welcome.get("relay_key")
    seen, old = scene.app.profile.check_relay_key(address, port, key)
    if not isinstance(key, bytes):
        return RelayKeyNote(None, "unknown")
    from bonanza.core.signing import fingerprint
    return RelayKeyNote(fingerprint(key), seen, old, key)


def relay_key_line(t: Any, note: RelayKeyNote) -> str:
    """One line under a lobby, the ranked or the daily board: the key and what it is."""
    if note.fingerprint is None:
        return t("lobby.relay_key_unknown")
    line = t("lobby.relay_key", fingerprint=note.fingerprint)
    if note.seen == "changed":
        return line + " · " + t("lobby.relay_key_was", old=note.old or "–")
    return line + " · " + t("lobby.relay_key_" + note.seen)


def ask_about_changed_key(scene: Any, note: RelayKeyNote, address: str, port: int,
                          answer: Any) -> None:
    """A changed key at a known address: the old and new fingerprints side by side, and
    the question; ``answer(accepted)`` is called once the player chose (accepting pins the
    new key for this address)."""
    scene.app.open("relay_key_changed", note, address, port, answer)


def leave_untrusted(scene: Any, msg: dict) -> None:
    """A detected tampering (a ``desync``: a refused header, a changed key, moves that do
    not add up): the game is left for the "cannot be trusted" screen and not recorded."""
    if hasattr(scene, "done"):
        scene.done = True          # a table forgets its seat on exit: nothing to rejoin
    scene.app.switch("untrusted", msg.get("code") or "records", str(msg.get("message") or ""),
                     msg.get("shown"))
