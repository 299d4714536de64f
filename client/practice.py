"""Practice games that are not a fresh solo game: a past day's daily played again, unranked
(issue 26).  The day's public dice come from its date (``core.dice.daily_key``), so the game
is the very one everyone played that day; its log is mode ``practice`` (undo allowed, on no
board and in no daily attempt).  No pygame here."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bonanza.core.match import Match

from .daily import check_date

# how far back the archive goes (a past daily needs nothing kept: its dice are its date's)
ARCHIVE_DAYS = 365


def archive_date(today_iso: str, days_back: int) -> str:
    """The date ``days_back`` days before ``today_iso`` (1: yesterday), kept to the archive."""
    back = max(1, min(ARCHIVE_DAYS, days_back))
    return (date.fromisoformat(check_date(today_iso)) - timedelta(days=back)).isoformat()


def past_daily_match(app: Any, date_iso: str) -> Match:
    """A past day's daily as practice for this window's player, hints as set now."""
    settings = app.profile.settings
    return Match.create_past_daily(
        check_date(date_iso), app.profile.name,
        meta={"client": "bonanza", "animation": settings["animation"],
              "hints": bool(settings["show_hints"])},
        settings={"hints": bool(settings["show_hints"])})
