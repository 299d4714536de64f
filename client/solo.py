"""A new solo game: a secret seed, or a seeded run (the same dice for everyone typing
the same seed).  No pygame here."""
from __future__ import annotations

import secrets
from typing import Any

from bonanza.core.dice import SEED_BYTES
from bonanza.core.game import Seat
from bonanza.core.match import Match
from bonanza.core.settings import DEFAULT_RULESET, seed_from_text


def new_solo_match(name: str, ruleset: str = DEFAULT_RULESET, seed_text: str | None = None,
                   meta: dict[str, Any] | None = None, practice: bool = False,
                   hints: bool = False) -> Match:
    """A solo game.  With ``seed_text`` (``core.settings.seed_from_text``'s rule, as in
    ``bonanza simulate``) it is a seeded run: the same dice for everyone typing that
    seed, marked ``seeded`` in the log header with the text as typed; otherwise a
    secret seed.  ``practice``: a practice game (undo allowed, on no board; ``core.undo``),
    its header saying whether ``hints`` were on at the start.  Raises
    ``core.settings.SettingError`` for an unusable seed."""
    meta = dict(meta or {})
    if seed_text is not None and seed_text.strip():
        seed = seed_from_text(seed_text)
        meta.update(seeded=True, seed_text=seed_text.strip())
    else:
        seed = secrets.token_bytes(SEED_BYTES)
    if practice:
        return Match.create(ruleset, [Seat(name)], seed, mode="practice", meta=meta,
                            settings={"hints": hints})
    return Match.create(ruleset, [Seat(name)], seed, mode="solo", meta=meta)
