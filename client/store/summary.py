"""What the account store keeps about a finished game, derived from its log alone.

Every figure here comes from a verified log (``core.verify``), so a row can
always be rebuilt from the log it stores: migrations and salvage rely on it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bonanza.core.verify import Verdict


def verify_log(data: bytes) -> Verdict:
    """``core.verify``'s verdict on a log.  The verifier (and the signing library under it)
    is imported on the first log checked, not when the store opens: the title's first
    frame opens the store and checks no log."""
    from bonanza.core.verify import verify_bytes
    return verify_bytes(data)


def _dict(value: Any) -> dict[str, Any]:
    """``value`` if it is a dict, else an empty one: a log's optional parts."""
    return value if isinstance(value, dict) else {}


def pick_seat(header: Mapping[str, Any], profile_name: str | None = None,
              seat_key: bytes | None = None) -> int:
    """The account's seat: the only seat of a solo or one-seat daily game; at a table
    (a daily table too) the seat signed with the player's own key (a signed log says
    exactly which seat was theirs), else the human seat carrying the profile's name,
    else the first human seat."""
    seats = header.get("seats") or []
    if len(seats) <= 1 or header.get("mode") == "solo":
        return 0
    keys = (header.get("signing") or {}).get("seats") if isinstance(
        header.get("signing"), dict) else None
    if seat_key is not None and isinstance(keys, list) and seat_key in keys:
        return keys.index(seat_key)
    if profile_name:
        for i, s in enumerate(seats):
            if s.get("kind") == "human" and s.get("name") == profile_name:
                return i
    for i, s in enumerate(seats):
        if s.get("kind") == "human":
            return i
    return 0


# What a game counts as on the boards.  Local games are "self-dealt": the player's own
# window chose the seed and measured the time, so a random run, a run on a seed the
# player typed and the public-dice daily each get a board of their own; a game whose
# dice a relay dealt and signed ("relay") or a table game never shares one with them.
CATEGORIES = ("random", "seeded", "daily", "relay", "table")
# a practice game (undo allowed, or a past daily played again) is kept in the history
# under this category and counts on no board, in no best and in no statistics
PRACTICE = "practice"
SELF_DEALT = ("random", "seeded", "daily")
# A seat's end: played every box, or stopped (core.game.GIVE_UP_REASONS).
STATUSES = ("finished", "gave_up", "left", "away")


def classify(header: Mapping[str, Any], moves: Iterable[Mapping[str, Any]],
             seat: int) -> dict[str, Any]:
    """``status``, ``category`` and ``seed_text`` of a seat's game, from the header and
    the moves alone (no replay: the v3 -> v4 migration runs it over every stored log)."""
    status = "finished"
    for move in moves:
        if move.get("type") == "give_up" and move.get("seat") == seat:
            why = move.get("why", "gave_up")
            status = why if why in STATUSES else "gave_up"
            break
    mode = header.get("mode")
    hmeta = _dict(header.get("meta"))
    dice = _dict(header.get("dice"))
    if mode == "practice":         # never on a board: undo, or a past day's dice again
        category = PRACTICE
    elif mode == "table":
        category = "table"
    elif isinstance(header.get("signing"), dict):
        category = "relay"
    elif mode == "daily":
        category = "daily" if dice.get("scheme") == "public" else "relay"
    else:
        category = "seeded" if hmeta.get("seeded") else "random"
    seed_text = hmeta.get("seed_text") if category == "seeded" else None
    return {"status": status, "category": category,
            "seed_text": seed_text if isinstance(seed_text, str) else None}


def signer_and_hints(header: Mapping[str, Any]) -> tuple[bytes | None, bool | None]:
    """The relay key that signed a log (None: not a relay's) and, for a ranked run, the
    hints it was declared with (the relay wrote it in the header; None otherwise)."""
    key = _dict(header.get("signing")).get("relay")
    hints = _dict(header.get("settings")).get("hints") if header.get("mode") == "ranked" else None
    return (key if isinstance(key, bytes) else None,
            hints if isinstance(hints, bool) else None)


def summarize(verdict: Verdict, profile_name: str | None = None,
              seat_key: bytes | None = None) -> dict[str, Any]:
    """The store's columns for a verified game (``verdict.ok`` must be true)."""
    from bonanza.core.verify import resumed as was_resumed
    log = verdict.log
    if not verdict.ok or log is None or log.end is None:
        raise ValueError(verdict.detail)
    header: Mapping[str, Any] = log.header
    end: Mapping[str, Any] = log.end
    moves: list[Mapping[str, Any]] = [rec["move"] for rec in log.records]
    final = verdict.states[-1]
    seat = pick_seat(header, profile_name, seat_key)
    ruleset = final.ruleset
    sheet = final.sheets[seat]
    meta = _dict(end.get("meta"))
    hmeta = _dict(header.get("meta"))
    duration = meta.get("duration_ms")
    if type(duration) is not int or duration < 0:
        duration = None
    reveal = _dict(end.get("reveal"))
    seed = reveal.get("seed")
    seed = seed.hex() if isinstance(seed, bytes) else None
    dice = header.get("dice") or {}
    date = dice.get("date") if dice.get("scheme") == "public" else None
    if not isinstance(date, str):
        date = next((m["date"] for m in (hmeta, meta) if isinstance(m.get("date"), str)), None)
    bonanzas = sum(1 for move in moves
                   if move.get("type") == "roll" and move.get("seat") == seat
                   and len(set(move["dice"])) == 1)
    return {
        **classify(header, moves, seat),
        "mode": header["mode"], "ruleset": header["ruleset"], "seat": seat,
        "name": header["seats"][seat]["name"], "score": final.total(seat),
        "duration_ms": duration, "seed": seed, "date": date,
        "upper_bonus": sheet.upper_sum >= ruleset.upper_threshold,
        "bonanzas": bonanzas, "moves": len(moves),
        "seeded": bool(hmeta.get("seeded")),
        # continued after the program stopped (its time away not counted): never a best
        "resumed": was_resumed(meta),
        # an offline daily (public dice): the kind the local one-attempt rule counts
        "offline_daily": header["mode"] == "daily" and dice.get("scheme") == "public",
    }


def summarize_bytes(data: bytes, profile_name: str | None = None) -> dict[str, Any] | None:
    """``summarize`` for raw log bytes; None when the log does not verify."""
    verdict = verify_log(bytes(data))
    return summarize(verdict, profile_name) if verdict.ok else None
