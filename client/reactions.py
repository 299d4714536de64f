"""Quick reactions at a table, as one window keeps them: what each seat last reacted (shown
by its name until it runs out), the seats this player muted, and this seat's own pace, kept
as the relay keeps it (so a press the relay would refuse is not sent at all).

No pygame and no clock of its own: every call is given the window's time."""
from __future__ import annotations

from bonanza.core.settings import REACTION_BURST as BURST
from bonanza.core.settings import REACTION_EVERY as EVERY
from bonanza.core.settings import REACTION_SECONDS, REACTIONS


class Reactions:
    def __init__(self) -> None:
        self.shown: dict[int, tuple[str, float]] = {}    # seat -> (emote, shown until)
        self.muted: set[int] = set()
        self._tokens = BURST
        self._at: float | None = None

    def may_send(self, now: float) -> bool:
        """Take one of this seat's reactions if one is left (one more every EVERY s)."""
        if self._at is not None:
            self._tokens = min(BURST, self._tokens + (now - self._at) / EVERY)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def received(self, msg: dict, seats: int, now: float) -> tuple[int, str] | None:
        """A relay's ``reaction``: (seat, emote) to show, or None — a muted seat, or a seat
        or an id this window does not know (a relay may be hostile; nothing unknown is drawn)."""
        seat, emote = msg.get("seat"), msg.get("emote")
        if type(seat) is not int or not 0 <= seat < seats or emote not in REACTIONS:
            return None
        if seat in self.muted:
            return None
        self.shown[seat] = (emote, now + REACTION_SECONDS)
        return seat, emote

    def showing(self, now: float) -> dict[int, tuple[str, float]]:
        """seat -> (emote, seconds left), for the reactions still shown."""
        return {s: (e, until - now) for s, (e, until) in self.shown.items() if until > now}

    def toggle_mute(self, seat: int) -> bool:
        """Mute ``seat``'s reactions (its shown one goes at once), or unmute; True if now muted."""
        if seat in self.muted:
            self.muted.discard(seat)
            return False
        self.muted.add(seat)
        self.shown.pop(seat, None)
        return True
