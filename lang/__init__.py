"""Bonanza translation catalogues (package data).

``<code>.po`` holds the gettext catalogue of one language (symbolic msgids,
see docs/i18n.md) and ``rules/<code>.md`` its in-game rules page.  The code
that reads them lives in :mod:`client.i18n`.
"""
from pathlib import Path

LANG_DIR = Path(__file__).resolve().parent
RULES_DIR = LANG_DIR / "rules"
