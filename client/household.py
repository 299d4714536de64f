"""The people who play at this computer: each one's records in an account store of their own.

The window's own account is the data folder's ``bonanza.db``; everyone else who sat at a
pass-and-play game here has a folder under ``<data>/people/`` (named from ``core.names``'
key of their name, so two spellings of one person are one folder) holding a store of the
same kind, with ``name.txt`` saying whose it is.  A finished game is recorded into each
named seat's store, so a person's bests and history are theirs alone.  No pygame here."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bonanza.core.names import name_key, unprintable
from bonanza.core.settings import MAX_NAME

if TYPE_CHECKING:
    from .profile import Profile

PEOPLE = "people"
NAME_FILE = "name.txt"


def clean_name(text: str) -> str:
    """A typed name as a seat carries it: spaces collapsed, cut at ``MAX_NAME``; "" when unusable."""
    name = " ".join(text.split())[:MAX_NAME]
    return "" if unprintable(name) else name


def same_person(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


def people_root(profile: Profile) -> Path | None:
    """Where the other people's folders are (None when this session saves nothing)."""
    store = profile.store
    if store is None or not store.persistent or not store.directory:
        return None
    return Path(store.directory) / PEOPLE


def person_dir(root: Path, name: str) -> Path:
    return root / hashlib.sha256(name_key(name).encode("utf-8")).hexdigest()[:16]


def known_people(profile: Profile) -> list[str]:
    """Who has played here: the window's own account first, then the others by name."""
    out = [profile.name] if profile.has_name else []
    root = people_root(profile)
    others: list[str] = []
    if root is not None and root.is_dir():
        for d in root.iterdir():
            try:
                name = clean_name((d / NAME_FILE).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                continue
            if name and not any(same_person(name, n) for n in out + others):
                others.append(name)
    return out + sorted(others, key=str.casefold)


def record_for_people(profile: Profile, log_bytes: bytes, names: list[str]) -> dict[str, Any]:
    """Record a finished game in each named person's store: the window's account through its
    profile (toasts on a problem), anyone else in their own folder.  ``{name: GameRecord or
    None}``; a store that cannot be written loses nothing but that person's copy."""
    out: dict[str, Any] = {}
    root = people_root(profile)
    for name in names:
        if profile.has_name and same_person(name, profile.name):
            out[name] = profile.record_game(log_bytes)
            continue
        if root is None:
            out[name] = None
            continue
        out[name] = _record_elsewhere(profile, person_dir(root, name), name, log_bytes)
    return out


def _record_elsewhere(profile: Profile, folder: Path, name: str, log_bytes: bytes) -> Any:
    from .store import open_store
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / (NAME_FILE + ".tmp")
        tmp.write_text(name, encoding="utf-8")
        os.replace(tmp, folder / NAME_FILE)
    except OSError:
        profile.problem("record.not_saved")
        return None
    store, _notices = open_store(folder)
    try:
        if store.profile().get("name") != name:
            store.save_profile(name=name)   # the store's seat is the one carrying this name
        return store.record_game(log_bytes)
    except Exception:
        profile.problem("record.not_saved")
        return None
    finally:
        store.close()

