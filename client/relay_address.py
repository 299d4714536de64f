"""A relay's address as the forms take it (host, join, daily, ranked)."""
from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"      # an empty address field means this machine


def port_number(text: str) -> int | None:
    """A typed TCP port (1-65535), else None.  ``str.isdigit`` is not enough: "²" (a key
    of its own on AZERTY keyboards) is a digit that ``int`` refuses, and 99999 makes the
    connection thread die on an OverflowError, leaving "Connecting…" forever."""
    p = text.strip()
    if not (p.isascii() and p.isdigit()):
        return None
    n = int(p)
    return n if 0 < n < 65536 else None
