"""Texts more than one screen shows, in the player's language: a log's verdict and who
signed it, a run time, a saved game's date.

``t`` is the caller's translator (``Scene.t``), so these read as the screen that shows them.
"""
from __future__ import annotations

from typing import Any, Callable

from . import lang
from .i18n import format_date, format_duration

Translate = Callable[..., str]


def box_key(box: str, ruleset: Any = None) -> str:
    """The text key of a box's name under ``ruleset`` (a name or a Ruleset): the box of
    five equal dice has its own name under Yacht rules in some languages (pt-BR's card
    calls it "Cinco iguais")."""
    name = getattr(ruleset, "name", ruleset)
    return "box.bonanza.yacht" if box == "bonanza" and name == "yacht" else f"box.{box}"


def short_hex(b: bytes | None, n: int = 24) -> str:
    """A dice commitment as every screen shows it (lobby, table, untrusted game): its first
    ``n`` hex digits in groups of four, so the same fingerprint reads the same everywhere."""
    if not b:
        return "–"
    h = b.hex()[:n]
    return " ".join(h[i:i + 4] for i in range(0, len(h), 4)) + "…"


def verdict_text(t: Translate, verdict: Any) -> str:
    """A verification verdict: "Verified…" or why the log does not verify; "–" for none."""
    if verdict is None:
        return "–"
    if verdict.ok:
        return t("verify.ok")
    return t(f"verify.fail.{verdict.code}", detail=verdict.detail)


def signed_text(t: Translate, verdict: Any) -> str:
    """Who vouches for a verified game, in the player's language: the relay's key (and
    the players' own keys for their moves), or nobody (self-dealt)."""
    if verdict is None or not verdict.ok or verdict.log is None:
        return ""
    header = verdict.log.header
    signing = header.get("signing")
    if not isinstance(signing, dict):
        return t("verify.self_dealt") if header.get("mode") == "solo" else t("verify.unsigned")
    from bonanza.core.signing import fingerprint
    text = t("verify.signed_relay", fingerprint=fingerprint(signing["relay"]))
    if any(k is not None for k in signing.get("seats") or []):
        text += " " + t("verify.signed_seats")
    return text


def format_time(seconds: float) -> str:
    """A run timer's time (tenths shown), never below zero."""
    return format_duration(max(0.0, seconds) * 1000, lang.current(), decimals=1)


def game_date(rec: Any) -> str:
    """A saved game's day, short: the daily's date, else the day it was played."""
    when = rec.date or (rec.played_at or "")[:10]
    return format_date(when, lang.current(), "short") if when else "–"
