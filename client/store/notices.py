"""What the store tells the player (``Notice``) and the errors it raises to its callers."""
from __future__ import annotations

from typing import Any, NamedTuple

# code -> (i18n key the client shows, English message)
NOTICE_TEXT = {
    "store.corrupt_moved": (
        "error.db_corrupt",
        "Your saved games file was damaged. It was moved aside to {path} and a new one was "
        "started; {recovered} finished game(s) were recovered from it."),
    "store.unwritable": (
        "error.data_not_writable",
        "The data folder {path} cannot be written to ({reason}). You can play, but nothing "
        "will be saved this session."),
    "store.newer_version": (
        "store.newer_version",
        "Your saved games file {path} was written by a newer version of Bonanza. It was left "
        "untouched; you can play, but nothing will be saved this session."),
    "store.busy": (
        "store.busy",
        "Your saved games file {path} is in use by another Bonanza window. You can play here, "
        "but nothing will be saved this session."),
    "store.migrated": (
        "store.migrated",
        "Your saved games were updated to the new format; a copy of the old file is at {backup}."),
    "store.read_only": (
        "store.read_only",
        "Your saved games file {path} is read-only. Your games are shown, but nothing new "
        "will be saved this session. Make the file writable (check its permissions or owner) "
        "and restart Bonanza."),
    "store.no_access": (
        "store.no_access",
        "Bonanza may not open your saved games file {path} ({reason}). It is not damaged and "
        "was left untouched. Give your user read and write permission on it and restart "
        "Bonanza; until then nothing is saved."),
    "store.damaged_games": (
        "store.damaged_games",
        "{damaged} saved game(s) in {path} are damaged and can no longer be replayed. They "
        "stay in your history, marked as damaged, but no longer count towards your bests "
        "and statistics."),
    "store.damaged_entries": (
        "store.damaged_entries",
        "{other} other saved entry(ies) in {path} (your profile or a daily challenge attempt) "
        "were damaged and could not be repaired. Check your name and settings."),
    "store.repaired": (
        "store.repaired",
        "{repaired} damaged entry(ies) in your saved games file {path} were repaired from "
        "the game replays; nothing was lost."),
    "store.files_unwritable": (
        "store.files_unwritable",
        "Finished games cannot be written as .bonanza files in {path} ({reason}). They are "
        "still kept in your saved games; Records can export them."),
    "store.disk_full": (
        "store.disk_full",
        "Your disk is full: free about {mb} MB and start Bonanza again. Nothing has been "
        "changed; your saved games are shown, but nothing new is saved this session."),
    "store.healed": (
        "store.healed",
        "{restored} saved game(s) missing from your saved games file were restored from {source}."),
}


class Notice(NamedTuple):
    """A plain-language problem for the player: ``code, params = notice``."""
    code: str
    params: dict[str, Any]

    @property
    def key(self) -> str:
        """The i18n catalogue key (params fill its placeholders)."""
        return NOTICE_TEXT.get(self.code, ("error.generic", ""))[0]

    @property
    def message(self) -> str:
        text = NOTICE_TEXT.get(self.code, ("", "{detail}"))[1]
        try:
            return text.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return text


class StoreError(Exception):
    """A store operation that could not be done (disk full, I/O error...)."""

    def __init__(self, code: str, message: str, full: bool = False):
        super().__init__(message)
        self.code = code
        self.message = message
        self.full = full      # the disk (or quota) is full: free space and it works again


class DailyAlreadyPlayed(ValueError):
    code = "daily_already_played"


def disk_full(e: BaseException) -> bool:
    """An error that means the disk (or the user's quota) is full, not damage."""
    import errno
    import sqlite3
    if isinstance(e, OSError):
        return e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    if isinstance(e, StoreError):
        return e.full
    if isinstance(e, sqlite3.Error):
        name = getattr(e, "sqlite_errorname", "") or ""
        return name.startswith("SQLITE_FULL") or "disk is full" in str(e)
    return False


def reason(e: BaseException) -> str:
    """An error as the ``reason`` a notice shows."""
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return str(e) or type(e).__name__
