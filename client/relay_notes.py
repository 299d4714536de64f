"""What a screen tells the player about the relay it talks to: a refusal in the player's
language, and the relay's key fingerprint (remembered per address, a change said out loud)."""
from __future__ import annotations

from typing import Any


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


def note_relay_key(scene: Any, conn: Any, address: str, port: int) -> tuple[str, str] | None:
    """Once connected: the relay's key fingerprint and whether this player met it at this
    address before ("new", remembered now; "known"; "changed", said out loud, like a known
    host in ssh).  None until the relay's welcome is in."""
    key = (getattr(conn, "welcome", None) or {}).get("relay_key")
    if not isinstance(key, bytes):
        return None
    from bonanza.core.signing import fingerprint
    fp = fingerprint(key)
    seen = scene.app.profile.check_relay_key(address, port, fp)
    if seen == "changed":
        scene.app.show(scene.t("lobby.relay_key_changed", fingerprint=fp), "error", 10.0)
    return fp, seen
