"""The client's door to translations: everything a player reads goes through ``t``/``tn``.

A thin layer over ``client.i18n`` that also resolves the "auto" setting to the
system's language when the player switches.
"""
from __future__ import annotations

from . import i18n

t = i18n.t
tn = i18n.tn
rules_text = i18n.rules_text
language_name = i18n.language_name


def languages() -> tuple[str, ...]:
    return tuple(i18n.LANGUAGES)


def set_language(code: str | None) -> str:
    """Switch language (``None``/"auto" = the environment's choice); returns the code in use."""
    chosen = i18n.choose_language(code)
    i18n.set_language(chosen)
    return chosen


def current() -> str:
    return i18n.current_language()
