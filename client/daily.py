"""The offline daily challenge (local side): public dice from the date, one attempt a day.

The day's dice come from ``core.dice.daily_key(date)``, a public derivation of
the date (UTC), so everyone who plays on that date gets the same dice and
anyone can recompute them.  Starting the game uses up the attempt: quitting
mid-game cannot be used to look at the dice and start over.  The relay's
daily (secret seed per day, leaderboard) is separate.  No pygame here.

Text is returned as i18n keys (``lang/*.po``), never as English sentences.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import TYPE_CHECKING

from bonanza.core.match import Match
from bonanza.core.rules import Box

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


# ---------------------------------------------------------------- after the day's game
# The share says how each box went, never the dice: a square per box, the upper
# six on the first row.  The clipboard gets these; the screen draws them as squares.
SHARE_SCRATCHED, SHARE_FAIR, SHARE_GOOD, SHARE_TOP = "\u2b1b", "\U0001f7e8", "\U0001f7e9", "\u2b50"
SHORT_HASH = 8                   # hex digits of the log's SHA-256 in the share


@dataclass(frozen=True)
class DailyShare:
    date: str
    score: int
    symbols: tuple[str, ...]     # one per box, in the sheet's order
    upper: int                   # how many of them make the first row
    short_hash: str              # the start of the log file's SHA-256: which game it was

    def rows(self) -> tuple[str, str]:
        return "".join(self.symbols[:self.upper]), "".join(self.symbols[self.upper:])

    def text(self, t: Callable[..., str]) -> str:
        """The text to share; ``t`` translates (``daily.share_line``, ``daily.share_log``)."""
        return "\n".join((t("daily.share_line", date=self.date, score=self.score), *self.rows(),
                          t("daily.share_log", hash=self.short_hash)))


def box_symbol(box: Box, score: int) -> str:
    """How a box went: scratched, fair, good (the bonus pace, a made hand, two thirds of
    the most a sum box can hold) or five of a kind."""
    if score <= 0:
        return SHARE_SCRATCHED
    if box.rule == "yacht":
        return SHARE_TOP
    if box.rule == "face":
        return SHARE_GOOD if score >= 3 * box.n else SHARE_FAIR
    if box.points:                       # a made hand scores its fixed points
        return SHARE_GOOD
    most = {"kind": 6 * box.n, "two_pairs": 22}.get(box.rule, 30)
    return SHARE_GOOD if 3 * score >= 2 * most else SHARE_FAIR


def share_from_log(data: bytes, date_iso: str) -> DailyShare | None:
    """The share of a finished daily's log (None if the log does not read or is not over)."""
    from bonanza.core.game import replay
    from bonanza.core.log import parse_log, setup_from_header
    try:
        log = parse_log(data)
        state = replay(setup_from_header(log.header), log.moves)[-1]
    except Exception:
        return None
    if state.active is not None or not state.sheets:
        return None
    rs = state.ruleset
    sheet = state.sheets[0]
    symbols = tuple(box_symbol(b, sheet.get(b.name) or 0) for b in rs.sheet)
    return DailyShare(date_iso, sheet.total(rs), symbols, len(sheet.layout.upper),
                      hashlib.sha256(data).hexdigest()[:SHORT_HASH])


def daily_share(store: Store, date_iso: str) -> DailyShare | None:
    """The share of that date's offline daily, once it is finished."""
    game_id = next((a["game_id"] for a in store.daily_attempts(limit=400) if a["date"] == date_iso), None)
    if game_id is None:
        return None
    try:
        return share_from_log(store.game_log(game_id), date_iso)
    except Exception:    # an unreadable stored log: no share, the rest of the screen stands
        return None


def streak(dates: Iterable[str], today: str) -> int:
    """Days in a row with a daily played, up to today (or up to yesterday while today's
    is still to play: a streak is not lost before the day is over)."""
    played = set(dates)
    day = date.fromisoformat(today)
    if day.isoformat() not in played:
        day -= timedelta(days=1)
    n = 0
    while day.isoformat() in played:
        n += 1
        day -= timedelta(days=1)
    return n


def next_daily(now: datetime) -> tuple[int, datetime]:
    """Seconds until the next daily and the moment it starts (UTC midnight, aware)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    start = datetime.combine(now.astimezone(timezone.utc).date() + timedelta(days=1), time(0),
                             tzinfo=timezone.utc)
    return max(0, int((start - now).total_seconds())), start


def par(date_iso: str) -> int:
    """The day's par: what the perfect bot scores on that date's public dice (the same
    for everyone; the advisor's tables must be at hand, they load on first use)."""
    from bonanza.core.simulate import play_bot_turn
    m = Match.create_daily(check_date(date_iso), "par")
    while m.state.active is not None:
        play_bot_turn(m, "perfect")
    return m.state.sheets[0].total(m.state.ruleset)
