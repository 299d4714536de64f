"""The offline daily challenge (local side): public dice from the date, one attempt a day.

The day's dice come from ``core.dice.daily_key(date)``, a public derivation of
the date (UTC), so everyone who plays on that date gets the same dice and
anyone can recompute them.  Starting the game uses up the attempt: quitting
mid-game cannot be used to look at the dice and start over.  The relay's
daily (secret seed per day, leaderboard) is separate.  No pygame here.

Text is returned as i18n keys (``lang/*.po``), never as English sentences.
"""
from __future__ import annotations

from datetime import date, datetime, timezone
from typing import TYPE_CHECKING

from bonanza.core.match import Match

if TYPE_CHECKING:
    from .store import Store

RULESET = "yacht"
REFUSAL_ALREADY_PLAYED = "daily_already_played"
REFUSAL_DISK_FULL = "disk_full"          # the attempt could not be kept: not used, try again
REFUSAL_NOT_SAVED = "not_saved"          # another write error: likewise

# i18n keys for the daily screen, in the order to show them
EXPLAIN_KEY = "daily.explain"            # how the dice are made (public derivation of the date)
ONE_ATTEMPT_KEY = "daily.one_attempt"
RULESET_KEY = "daily.ruleset"
ALREADY_PLAYED_KEY = "daily.already_played"
REFUSAL_KEYS = {REFUSAL_ALREADY_PLAYED: ALREADY_PLAYED_KEY,
                REFUSAL_DISK_FULL: "daily.disk_full",
                REFUSAL_NOT_SAVED: "daily.not_saved"}
EXPLAIN_KEYS = (EXPLAIN_KEY, ONE_ATTEMPT_KEY, RULESET_KEY)


def today_utc(now: datetime | None = None) -> str:
    """The daily's date (``YYYY-MM-DD``) in UTC: the same for every player at any moment."""
    if now is None:
        now = datetime.now(timezone.utc)
    elif now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    return now.astimezone(timezone.utc).date().isoformat()


def check_date(date_iso: str) -> str:
    """``date_iso`` if it is a canonical ``YYYY-MM-DD`` date, else ValueError."""
    if not isinstance(date_iso, str) or len(date_iso) != 10:
        raise ValueError(f"not a YYYY-MM-DD date: {date_iso!r}")
    if date.fromisoformat(date_iso).isoformat() != date_iso:
        raise ValueError(f"not a YYYY-MM-DD date: {date_iso!r}")
    return date_iso


def status(store: Store, date_iso: str) -> str:
    """``"available"``, ``"in_progress"`` (begun, not finished: the attempt is used) or ``"played"``."""
    return store.daily_status(check_date(date_iso))


def status_key(store: Store, date_iso: str) -> str | None:
    """The i18n key to show under the play button, or None while the daily is available."""
    return None if status(store, date_iso) == "available" else ALREADY_PLAYED_KEY


def start_offline_daily(store: Store, name: str, date_iso: str,
                        meta: dict | None = None) -> Match | str:
    """Begin the day's one attempt and return its Match, or a refusal code
    (``REFUSAL_KEYS`` gives the key to show): ``"daily_already_played"``, or
    ``"disk_full"`` / ``"not_saved"`` when the attempt could not be kept (then it is not
    used, and the dice are not dealt: they would be seen without the attempt counting)."""
    from .store import StoreError
    check_date(date_iso)
    try:
        begun = store.begin_daily(date_iso)
    except StoreError as e:
        return REFUSAL_DISK_FULL if e.full else REFUSAL_NOT_SAVED
    if not begun:
        return REFUSAL_ALREADY_PLAYED
    return Match.create_daily(date_iso, name, meta={**(meta or {}), "date": date_iso})


def refusal_key(code: str | None) -> str:
    """The i18n key that tells the player why the daily did not start."""
    return REFUSAL_KEYS.get(code or "", "daily.not_saved")


def explain_keys() -> tuple[str, ...]:
    return EXPLAIN_KEYS
