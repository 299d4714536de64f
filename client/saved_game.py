"""The unfinished game on this computer: saved after every move, offered back at the title.

The log is the save: ``unfinished.json`` in the data folder holds the game's log so far (the
same bytes a finished game's file starts with), the secret seed that deals its dice (this
window dealt them; it never left this computer) and what the window needs to go on (the
kind of game, the run time so far, who sits where).  It is written to a temporary file,
flushed to the disk and renamed over the old one, so a crash or a power cut leaves the
last move's save or the one before it, never half a file.  Loading folds the records again
through ``core.match.Match.resumed``: a damaged or edited save is refused, not trusted.
No pygame here."""
from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bonanza.core.match import Match

    from .profile import Profile

FILE = "unfinished.json"
VERSION = 1
KINDS = ("solo", "pass_play", "practice")


@dataclass
class SavedGame:
    kind: str                      # "solo", "pass_play" or "practice"
    match: Match
    extra: dict[str, Any] = field(default_factory=dict)   # run_ms, people, turn_seconds, ...


def save_path(profile: Profile) -> Path | None:
    store = profile.store
    if store is None or not store.persistent or not store.directory:
        return None
    return Path(store.directory) / FILE


def save(profile: Profile, kind: str, match: Match, extra: dict[str, Any] | None = None) -> bool:
    """Keep ``match`` as it is now; False (never an exception) when it cannot be written."""
    path = save_path(profile)
    # the secret seed this window dealt with (``Match`` shows it to others only at the end)
    seed = match._reveal.get("seed")
    if path is None or kind not in KINDS or not isinstance(seed, bytes):
        return False
    body = {"version": VERSION, "kind": kind, "seed": seed.hex(),
            "log": base64.b64encode(match.log.to_bytes()).decode("ascii"), "extra": extra or {}}
    tmp = path.with_name(FILE + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(body, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _sync_dir(path.parent)
    except OSError:
        return False
    return True


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return      # not every system opens a folder (the rename itself is done)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load(profile: Profile) -> SavedGame | None:
    """The saved game, checked move by move; None when there is none or it does not hold up."""
    # here, not at the top: the title asks only whether a save ``exists`` on its first frame
    from bonanza.core.log import LogError, parse_log
    from bonanza.core.match import Match
    path = save_path(profile)
    if path is None:
        return None
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        kind = body["kind"]
        if body.get("version") != VERSION or kind not in KINDS:
            return None
        log = parse_log(base64.b64decode(body["log"], validate=True))
        if log.end is not None:
            return None       # finished games belong in the records, not here
        match = Match.resumed(log.header, log.records, bytes.fromhex(body["seed"]))
        extra = body.get("extra")
        return SavedGame(kind, match, extra if isinstance(extra, dict) else {})
    except (OSError, ValueError, KeyError, TypeError, LogError):
        return None


def exists(profile: Profile) -> bool:
    path = save_path(profile)
    return path is not None and path.is_file()


def clear(profile: Profile) -> None:
    path = save_path(profile)
    if path is None:
        return
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        pass
