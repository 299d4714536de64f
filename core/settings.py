"""What a game may be started with, and the bounds every part agrees on.

The relay validates against these, the client offers them (it takes the relay's
offer from ``welcome`` when it has one), and the store and command line use the
same name length and seed rule.  One fact, one place.
"""
from __future__ import annotations

import hashlib
import unicodedata

from .names import name_key, unprintable
from .rules import RULESETS as _RULESETS

RULESETS: tuple[str, ...] = tuple(_RULESETS)   # in the order menus show them
DEFAULT_RULESET = "bonanza"
DAILY_RULESET = "yacht"
DAILY_TURN_SECONDS = 60     # the relay daily's clock, alone or at a daily table: one competition, one clock
# At a daily table every seat's clock of round k+1 waits this long after round k is revealed:
# the time each window takes to replay the others' turns of round k, which must not come
# out of anybody's own turn (docs/fairness.md, "Rounds played at the same time").
ROUND_REVEAL_SECONDS = 5

TURN_SECONDS: tuple[int, ...] = (30, 45, 60, 90)
DEFAULT_TURN_SECONDS = 60

# The bot levels a host chooses, weakest first (core.bots plays them; each has its style there).
BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "perfect")
# Every policy a log or a relay may name: the levels, and the older names that play as
# medium ("casual") and perfect ("optimal"), so old logs and old clients keep working.
BOT_POLICIES: tuple[str, ...] = ("casual", "optimal") + BOT_LEVELS
DEFAULT_BOT_POLICY = "casual"
DEFAULT_BOT_LEVEL = "medium"      # what a host's menu starts on
# Each level's average solo score per ruleset, measured by bench/bot_levels.py (2,000 seeded games).
BOT_LEVEL_AVERAGES: dict[str, dict[str, int]] = {
    "bonanza": {"easy": 142, "medium": 214, "hard": 240, "perfect": 250},
    "yacht": {"easy": 133, "medium": 209, "hard": 237, "perfect": 245},
}
# How long a bot waits before each of its moves while a person watches, in seconds.
BOT_SPEEDS: dict[str, float] = {"fast": 0.25, "normal": 0.6, "slow": 1.2}
DEFAULT_BOT_SPEED = "normal"

MIN_SEATS_TABLE = 2
# Quick reactions at a table (protocol ``react``): the only ids a relay passes on, in the
# order of their keys (6, 7, 8, 9, 0) and buttons; never part of a game's log.
REACTIONS: tuple[str, ...] = ("hello", "nice", "wow", "oops", "gg")
REACTION_SECONDS = 4.0          # how long a reaction shows by its player's name
REACTION_BURST, REACTION_EVERY = 3.0, 2.0   # a seat's pace: 3 at once, then one every 2 s
# How long after a table's end its players may ask to play again (the relay refuses a new
# table after it; the results count it down on the Play again button).
REMATCH_SECONDS = 120
MAX_NAME = 24                   # characters in a player's name, after spaces are collapsed

DEFAULT_PORT = 7468             # a relay's TCP port when none is given
DISCOVERY_PORT = 7469           # UDP: where relays listen for discovery queries

DISCOVERY_BROADCAST = "255.255.255.255"   # where "Find tables" asks, unless told otherwise

SEED_TEXT_MAX = 64              # characters a typed seed may have


class SettingError(ValueError):
    """A setting outside what a game accepts; the message says what is allowed."""


def clean_name(value: object) -> str:
    """A player's name with runs of white space collapsed; SettingError if unusable: a
    character not drawn as itself (``core.names.unprintable``: controls, bidi overrides,
    invisible ones), or nothing left to tell a person by once white space, invisible
    characters and marks are gone (``core.names.name_key`` is empty)."""
    if not isinstance(value, str):
        raise SettingError("a name must be text")
    name = " ".join(value.split())
    if (not 1 <= len(name) <= MAX_NAME or not name.isprintable()
            or unprintable(name) is not None or not name_key(name)):
        raise SettingError(f"a name has 1 to {MAX_NAME} printable characters")
    return name


def seed_from_text(text: str) -> bytes:
    """The one seed rule, in the window, ``bonanza simulate`` and the records.

    Exactly 64 hexadecimal digits are the 32 seed bytes themselves (a seed copied
    from a log's reveal); any other text is hashed: SHA-256 of its NFC-normalised
    UTF-8 bytes, leading and trailing spaces removed.  So "speedrun 1" typed in the
    window and ``--seed "speedrun 1"`` deal the same dice.
    """
    if not isinstance(text, str):
        raise SettingError("a seed is text")
    s = unicodedata.normalize("NFC", text.strip())
    if not 1 <= len(s) <= SEED_TEXT_MAX:
        raise SettingError(f"a seed has 1 to {SEED_TEXT_MAX} characters")
    if len(s) == 64:
        try:
            return bytes.fromhex(s)
        except ValueError:
            pass
    return hashlib.sha256(s.encode("utf-8")).digest()


def discovery_target(value: str | None) -> tuple[str, int]:
    """Where discovery queries go and relays listen: ``BONANZA_DISCOVERY`` as "host:port"
    (tests and CI set it to 127.0.0.1:<port>, so nothing leaves the machine), else the
    limited broadcast address on DISCOVERY_PORT.  SettingError for a malformed value."""
    if not value:
        return DISCOVERY_BROADCAST, DISCOVERY_PORT
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SettingError(f"BONANZA_DISCOVERY is host:port, not {value!r}")
    return host, int(port)
