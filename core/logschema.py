"""The exact shape of a game log: every key, type and bound a verifier accepts.

``check_log`` refuses anything the log format (docs/log-format.md) does not allow —
unknown keys, wrong types (``auto`` is a bool, ``version`` an int and not a bool),
unbounded lengths — before any move is replayed, with one line naming the record and
the field in plain words.  The replay then checks what the values mean.

Text is refused wherever it is not drawn as itself (``core.names.unprintable``): a name
or a meta value holding a newline or an escape sequence could rewrite the lines a terminal
shows around it, a bidi override could reorder them.  A number is an int and never a
bool (msgpack keeps ``true`` apart from ``1``, Python's ``==`` does not), and a word is
a string before it is looked up (a list as a move ``type`` is refused here, not by a
``TypeError`` further on).
"""
from __future__ import annotations

import re
from typing import Any

from .game import MAX_SEATS
from .log import GameLog
from .names import unprintable
from .records import GIVE_UP_REASONS, MODES, MOVE_TYPES
from .rules import ALL_BOXES, NUM_DICE
from .settings import BOT_POLICIES, MAX_NAME, RULESETS, TURN_SECONDS
from .signing import BATCH_LIMIT, HASH_BYTES


class FormatError(ValueError):
    """A log that is not in the exact format; ``where`` names the record."""


MAX_AT = 24 * 3600 * 1000          # ms: a record's relay time in a ranked run
MAX_META_KEYS = 16
MAX_TEXT = 200            # any free-form text in ``meta``
MAX_MOVES = 13 * 5 * MAX_SEATS + MAX_SEATS   # every roll, write and give-up a game can hold

_HEADER = {"kind", "format", "version", "mode", "ruleset", "seats", "first_seat", "settings",
           "dice", "meta", "signing", "chain"}
_MOVE_RECORD = {"kind", "seq", "move", "state", "at", "intent", "chain", "sig", "batch"}
BATCH_PATH = (BATCH_LIMIT - 1).bit_length()   # the longest proof a batch can need
_END = {"kind", "seq", "reveal", "totals", "standings", "meta", "chain", "sig"}
_MOVES = {"roll": {"type", "seat", "hold", "dice", "auto"},
          "write": {"type", "seat", "box", "auto"},
          "give_up": {"type", "seat", "why"},
          "undo": {"type", "seat"}}
_INTENTS = {"roll": {"seq", "type", "hold", "sig"}, "write": {"seq", "type", "box", "sig"},
            "give_up": {"seq", "type", "sig"}}


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def _int(v: Any) -> bool:
    return type(v) is int


def _one_of(v: Any, words: Any) -> bool:
    """``v`` is one of ``words`` (strings): a list or a map is no word, never a TypeError."""
    return isinstance(v, str) and v in words


def _text(v: Any, most: int) -> bool:
    """Text of at most ``most`` characters, every one drawn as itself."""
    return isinstance(v, str) and len(v) <= most and unprintable(v) is None


def _name(v: Any) -> bool:
    """A seat's name: printable text of 1 to MAX_NAME characters that is not blank."""
    return _text(v, MAX_NAME) and v.strip() != ""


def _date(v: Any) -> bool:
    return isinstance(v, str) and _DATE.match(v) is not None


def _bin(v: Any, n: int) -> bool:
    return isinstance(v, bytes) and len(v) == n


def _keys(where: str, obj: Any, allowed: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise FormatError(f"{where} is not a map")
    extra = sorted(str(k)[:30] for k in obj if k not in allowed)
    if extra:
        raise FormatError(f"{where} has a field the format does not have: {extra[0]!r}")
    missing = sorted(k for k in required if k not in obj)
    if missing:
        raise FormatError(f"{where} lacks the field {missing[0]!r}")
    return obj


def _field(where: str, name: str, ok: bool, what: str) -> None:
    if not ok:
        raise FormatError(f"{where}: {name!r} must be {what}")


def _meta(where: str, meta: Any) -> None:
    _field(where, "meta", isinstance(meta, dict) and len(meta) <= MAX_META_KEYS,
           f"a map of at most {MAX_META_KEYS} entries")
    for k, v in meta.items():
        _field(where, "meta", _text(k, 40), "keyed by short printable text")
        ok = v is None or type(v) in (bool, int) or _text(v, MAX_TEXT)
        _field(where, f"meta.{k}", ok,
               f"a number, true/false or printable text of at most {MAX_TEXT} characters")
        if k == "duration_ms":
            _field(where, "meta.duration_ms", _int(v) and 0 <= v < 10 ** 10,
                   "a whole number of milliseconds")


def check_header(h: Any) -> None:
    w = "the header"
    _keys(w, h, _HEADER, _HEADER - {"signing"})
    _field(w, "version", _int(h["version"]), "a whole number")
    _field(w, "mode", _one_of(h["mode"], MODES), "solo, table, daily, ranked or practice")
    _field(w, "ruleset", _one_of(h["ruleset"], RULESETS), " or ".join(RULESETS))
    seats = h["seats"]
    _field(w, "seats", isinstance(seats, list) and 1 <= len(seats) <= MAX_SEATS,
           f"a list of 1 to {MAX_SEATS} seats")
    for i, s in enumerate(seats):
        sw = f"seat {i + 1} in the header"
        _keys(sw, s, {"name", "kind", "policy"}, {"name", "kind", "policy"})
        _field(sw, "name", _name(s["name"]), f"a name of 1 to {MAX_NAME} characters, "
               "none of them a control, bidi or invisible character")
        _field(sw, "kind", _one_of(s["kind"], ("human", "bot")), "human or bot")
        if s["kind"] == "bot":
            _field(sw, "policy", _one_of(s["policy"], BOT_POLICIES),
                   "one of " + ", ".join(BOT_POLICIES))
        else:
            _field(sw, "policy", s["policy"] is None, "empty for a person")
    _field(w, "first_seat", _int(h["first_seat"]) and 0 <= h["first_seat"] < len(seats),
           "one of the seats")
    settings = _keys("the header's settings", h["settings"], {"turn_seconds", "hints"}, set())
    if "hints" in settings:
        _field(w, "settings.hints", type(settings["hints"]) is bool, "true or false")
    if "turn_seconds" in settings:
        _field(w, "settings.turn_seconds", _int(settings["turn_seconds"])
               and settings["turn_seconds"] in TURN_SECONDS, " / ".join(map(str, TURN_SECONDS)))
    dice = h["dice"]
    if isinstance(dice, dict) and dice.get("scheme") == "day":
        _keys("the header's dice", dice, {"scheme", "commit", "date", "rounds"},
              {"scheme", "commit", "date"})
        if "rounds" in dice:
            _field(w, "dice.rounds", dice["rounds"] is True, "true (played in rounds)")
        _field(w, "dice.commit", _bin(dice["commit"], 32), "32 bytes")
        _field(w, "dice.date", _date(dice["date"]), "a date YYYY-MM-DD")
    elif isinstance(dice, dict) and dice.get("scheme") == "public":
        _keys("the header's dice", dice, {"scheme", "date"}, {"scheme", "date"})
        _field(w, "dice.date", _date(dice["date"]), "a date YYYY-MM-DD")
    else:
        _keys("the header's dice", dice, {"scheme", "commit", "contributions"},
              {"scheme", "commit", "contributions"})
        _field(w, "dice.scheme", dice["scheme"] == "commit", "commit, day or public")
        _field(w, "dice.commit", _bin(dice["commit"], 32), "32 bytes")
        # contributions: 32 random bytes from a relay's players; any short bytes in logs
        # made by hand (their length is part of the key's hash, so any length is exact)
        c = dice["contributions"]
        _field(w, "dice.contributions", isinstance(c, list) and len(c) == len(seats)
               and all(x is None or (isinstance(x, bytes) and len(x) <= 64) for x in c),
               "one contribution of at most 64 bytes (or nil) per seat")
    # The mode, the dice scheme and the rules go together: a daily is yacht, and only a
    # daily uses the date's public key or the relay's day key.
    scheme = dice.get("scheme")
    if h["mode"] == "daily":
        _field(w, "ruleset", h["ruleset"] == "yacht", "yacht in a daily game")
        _field(w, "dice.scheme", scheme in ("public", "day", "commit"),
               "public, day or commit in a daily game")
    elif h["mode"] == "practice":   # self-dealt, or a past day's public dice played again
        _field(w, "seats", len(seats) == 1, "one seat in a practice game")
        _field(w, "dice.scheme", scheme in ("public", "commit"), "public or commit in practice")
        if scheme == "public":
            _field(w, "ruleset", h["ruleset"] == "yacht", "yacht on a past daily's dice")
        _field(w, "signing", "signing" not in h, "absent: a practice game is the player's own")
    else:
        _field(w, "dice.scheme", scheme == "commit", f"commit in a {h['mode']} game")
    if scheme == "public":
        _field(w, "seats", len(seats) == 1, "one seat in an offline daily")
    if h["mode"] == "ranked":       # the relay deals, times and signs a ranked run
        _field(w, "seats", len(seats) == 1, "one seat in a ranked run")
        _field(w, "signing", "signing" in h, "present: a ranked run is signed by its relay")
    if scheme == "day":             # only a relay holds a day's seed: its daily is signed
        _field(w, "signing", "signing" in h, "present: a relay's daily is signed by its relay")
    _meta(w, h["meta"])
    if "signing" in h:
        sg = _keys("the header's signing", h["signing"], {"relay", "seats"}, {"relay", "seats"})
        _field(w, "signing.relay", _bin(sg["relay"], 32), "a 32-byte public key")
        _field(w, "signing.seats", isinstance(sg["seats"], list) and len(sg["seats"]) == len(seats)
               and all(k is None or _bin(k, 32) for k in sg["seats"]),
               "one 32-byte public key (or nil) per seat")
    _field(w, "chain", _bin(h["chain"], 32), "32 bytes")


def check_move_record(rec: Any, nseats: int) -> None:
    seq = rec.get("seq") if isinstance(rec, dict) else None
    w = f"move {seq}" if _int(seq) else "a move record"
    _keys(w, rec, _MOVE_RECORD, {"kind", "seq", "move", "state", "chain"})
    _field(w, "seq", _int(rec["seq"]) and 1 <= rec["seq"] <= MAX_MOVES, "a move number")
    _field(w, "state", _bin(rec["state"], 16), "a 16-byte state hash")
    if "at" in rec:
        _field(w, "at", _int(rec["at"]) and 0 <= rec["at"] <= MAX_AT, "milliseconds of the run")
    _field(w, "chain", _bin(rec["chain"], 32), "32 bytes")
    if "sig" in rec:
        _field(w, "sig", _bin(rec["sig"], 64), "a 64-byte signature")
    if "batch" in rec:
        b = rec["batch"]
        _field(w, "batch", "sig" in rec and isinstance(b, list) and len(b) == 3
               and _int(b[1]) and 2 <= b[1] <= BATCH_LIMIT and _int(b[0]) and 0 <= b[0] < b[1]
               and isinstance(b[2], list) and 1 <= len(b[2]) <= BATCH_PATH
               and all(_bin(h, HASH_BYTES) for h in b[2]),
               f"[index, size (2 to {BATCH_LIMIT}), up to {BATCH_PATH} 32-byte hashes] "
               "beside a signature")
    move = rec["move"]
    _field(w, "type", isinstance(move, dict) and _one_of(move.get("type"), _MOVES),
           "roll, write, give_up or undo")
    kind: str = move["type"]
    fields = _MOVES[kind]
    _keys(w, move, fields, fields)
    _field(w, "seat", _int(move["seat"]) and 0 <= move["seat"] < nseats, "one of the seats")
    if kind == "roll":
        _field(w, "hold", isinstance(move["hold"], list) and len(move["hold"]) == NUM_DICE
               and all(type(x) is bool for x in move["hold"]), "five true/false values")
        _field(w, "dice", isinstance(move["dice"], list) and len(move["dice"]) == NUM_DICE
               and all(_int(d) and 1 <= d <= 6 for d in move["dice"]), "five dice from 1 to 6")
    if kind == "write":
        _field(w, "box", _one_of(move["box"], ALL_BOXES), "one of the boxes")
    if kind == "give_up":
        _field(w, "why", _one_of(move["why"], GIVE_UP_REASONS), ", ".join(GIVE_UP_REASONS))
    elif kind != "undo":
        _field(w, "auto", type(move["auto"]) is bool, "true or false")
    if "intent" in rec:
        _field(w, "intent", kind != "undo", "absent: nobody signs an undo")
        intent = rec["intent"]
        asked = _INTENTS[kind]
        # ``round``: a daily table played in rounds (verify checks which form the header asks)
        _keys(f"{w}'s signed request", intent, asked | {"round"}, asked)
        if "round" in intent:
            _field(w, "intent.round", _int(intent["round"]) and 0 <= intent["round"] < 32,
                   "a turn number")
        _field(w, "intent.seq", _int(intent["seq"]) and 0 <= intent["seq"] < MAX_MOVES,
               "a move number")
        _field(w, "intent.type", _one_of(intent["type"], MOVE_TYPES), "roll, write or give_up")
        if "hold" in intent:
            _field(w, "intent.hold", isinstance(intent["hold"], list)
                   and len(intent["hold"]) == NUM_DICE
                   and all(type(x) is bool for x in intent["hold"]), "five true/false values")
        if "box" in intent:
            _field(w, "intent.box", _one_of(intent["box"], ALL_BOXES), "one of the boxes")
        _field(w, "intent.sig", _bin(intent["sig"], 64), "a 64-byte signature")


def check_end(end: Any, nseats: int) -> None:
    w = "the end record"
    _keys(w, end, _END, _END - {"sig"})
    _field(w, "seq", _int(end["seq"]) and 0 <= end["seq"] <= MAX_MOVES, "a move number")
    reveal = _keys("the end's reveal", end["reveal"], {"seed", "date"}, set())
    _field(w, "reveal.seed", reveal.get("seed") is None
           or (isinstance(reveal["seed"], bytes) and len(reveal["seed"]) <= 64), "the seed's bytes")
    _field(w, "reveal.date", reveal.get("date") is None or _date(reveal["date"]),
           "a date YYYY-MM-DD")
    _field(w, "totals", isinstance(end["totals"], list) and len(end["totals"]) == nseats
           and all(_int(t) and 0 <= t <= 2000 for t in end["totals"]), "a total per seat")
    st = end["standings"]
    _field(w, "standings", isinstance(st, list) and len(st) == nseats, "a place per seat")
    for s in st:
        fields = {"seat", "name", "total", "place", "gave_up"}
        _keys("a standing", s, fields, fields)
        _field("a standing", "seat", _int(s["seat"]) and 0 <= s["seat"] < nseats,
               "one of the seats")
        _field("a standing", "name", _name(s["name"]), "a seat's name")
        _field("a standing", "total", _int(s["total"]) and 0 <= s["total"] <= 2000, "a total")
        _field("a standing", "place", _int(s["place"]) and 1 <= s["place"] <= nseats,
               f"a place from 1 to {nseats}")
        _field("a standing", "gave_up", s["gave_up"] is None
               or _one_of(s["gave_up"], GIVE_UP_REASONS), "nil or " + ", ".join(GIVE_UP_REASONS))
    _meta(w, end["meta"])
    _field(w, "chain", _bin(end["chain"], 32), "32 bytes")
    if "sig" in end:
        _field(w, "sig", _bin(end["sig"], 64), "a 64-byte signature")


def check_log(log: GameLog) -> None:
    """Every record of a parsed log in the exact format; FormatError otherwise."""
    check_header(log.header)
    n = len(log.header["seats"])
    if len(log) > MAX_MOVES:
        raise FormatError(f"the game has {len(log)} moves, more than any game can have")
    mode = log.header["mode"]
    records = log.records
    # a ranked run's records all carry the relay's time; a local solo or daily run's all
    # carry the player's machine's (older local logs none); a table's none.  Never going back.
    stamped = mode == "ranked" or (mode in ("solo", "daily", "practice") and bool(records)
                                   and "at" in records[0])
    last_at = 0
    for rec in records:
        check_move_record(rec, n)
        _field(f"move {rec['seq']}", "type", rec["move"]["type"] != "undo" or mode == "practice",
               "roll, write or give_up outside a practice game")
        _field(f"move {rec['seq']}", "at", ("at" in rec) == stamped,
               "on every move of a ranked run or of a stamped local run, on none otherwise")
        if stamped:
            _field(f"move {rec['seq']}", "at", rec["at"] >= last_at, "never earlier than before")
            last_at = rec["at"]
    if log.end is not None:
        check_end(log.end, n)
