"""The store heals from its own files: every finished game also lives as a ``.bonanza``
file in ``<data>/games/``, and a damaged database is kept aside as
``bonanza.db.corrupt-*``.  At every start (cheaply: only files no game is linked to
cost a verify) a game missing from the database is brought back from its file, a
damaged one is healed by it, an orphan file is linked again, each file moved aside is
read once more, and our own leftover temporary files are removed."""
from __future__ import annotations

import hashlib
import os
import re
import time

from .files import DB_NAME, EXTENSION, GAMES_DIR, write_json_atomic
from .notices import Notice, StoreError
from .recording import Recording

HEALED_SUFFIX = ".healed"     # bonanza.db.corrupt-X.healed: X was read again, JSON
STALE_SECONDS = 600           # a temporary file this old is nobody's write in progress
_STAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})_(\d{2})(\d{2})(\d{2})_")


def played_at_of(name: str) -> str | None:
    """The UTC time a game file's name starts with (``game_file_name``), or None."""
    m = _STAMP.match(name)
    if not m:
        return None
    y, mo, d, h, mi, s = m.groups()
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}.000Z"


def read_game_file(path: str) -> bytes | None:
    from bonanza.core.log import MAX_LOG_BYTES  # here: opening the store (the first frame) reads no file
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_LOG_BYTES + 1)
    except OSError:
        return None
    return data if 0 < len(data) <= MAX_LOG_BYTES else None


def restore_from_files(store: Recording) -> int:
    """Bring back from ``games/*.bonanza`` every game the database lacks or holds
    damaged, and link every orphan file; returns how many games were added (a damaged
    game healed is not added: ``heal`` counts those).  Each file
    is verified (``record_game``'s checks); one that does not verify is left alone.
    A write that fails raises ``StoreError``."""
    if not store.directory:
        return 0
    folder = os.path.join(store.directory, GAMES_DIR)
    try:
        names = sorted(n for n in os.listdir(folder)
                       if n.endswith(EXTENSION) and not n.startswith("."))
    except OSError:
        return 0
    linked = {r[0] for r in store._query("SELECT path FROM game_files")}
    added = 0
    for name in names:
        rel = f"{GAMES_DIR}/{name}"
        if rel in linked:
            continue
        data = read_game_file(os.path.join(folder, name))
        if data is None:
            continue
        digest = hashlib.sha256(data).hexdigest()
        had = store._query("SELECT id FROM games WHERE log_sha256 = ?", (digest,))
        try:
            # a missing game is recorded, a damaged one healed by its sound copy; a daily
            # game for a day whose attempt has another game is refused, as in record_game
            rec = store._record(data, played_at_of(name), salvage=False)
        except StoreError:
            raise
        except Exception:
            continue
        if not had:
            added += 1
        store._link_file(rec.id, rel)
    # a damaged game whose own file is still sound: the file heals it
    for gid, rel, digest in store._query(
            "SELECT g.id, f.path, g.log_sha256 FROM games g JOIN game_files f ON f.game_id = g.id "
            "WHERE g.damaged IS NOT NULL"):
        if not isinstance(rel, str) or ".." in rel.split("/"):
            continue
        data = read_game_file(os.path.join(store.directory, *rel.split("/")))
        if data is None or hashlib.sha256(data).hexdigest() != digest:
            continue
        try:
            store._record(data, None, salvage=True)
        except StoreError:
            raise
        except Exception:
            continue
    _write_missing_files(store)
    return added


def _write_missing_files(store: Recording) -> None:
    """A finished game whose file was never written (a kill between its commit and its
    file, a full disk) gets it now, so that ``games/`` holds every finished game."""
    if not store.persistent:
        return
    missing = store._query(
        "SELECT id FROM games WHERE status = 'finished' AND damaged IS NULL "
        "AND id NOT IN (SELECT game_id FROM game_files) ORDER BY id")
    for (gid,) in missing:
        rec = store.game(gid)
        if rec is None:
            continue
        if store._write_file(rec).file is None:
            return   # the folder refuses files: told once (take_file_notice), tried next start


def moved_aside(directory: str) -> list[str]:
    """Every ``bonanza.db.corrupt-*`` (by its main file's name, even if only its -wal is
    left) not read again yet."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    bases = set()
    for n in names:
        if not n.startswith(DB_NAME + ".corrupt-") or n.endswith((HEALED_SUFFIX, "-shm", ".tmp")):
            continue
        bases.add(n[:-4] if n.endswith("-wal") else n)
    return sorted(os.path.join(directory, b) for b in bases
                  if b + HEALED_SUFFIX not in names)


def mark_healed(moved: str, restored: int) -> None:
    try:
        write_json_atomic(moved + HEALED_SUFFIX, {"restored": restored})
    except OSError:
        pass   # it is read once more next time: recording a game twice keeps one


def restore_from_moved(store: Recording) -> int:
    """Read each file moved aside once more (an older salvage may have been stopped by a
    full disk, and claimed less than it kept); returns the games added."""
    from .salvage import salvage
    if not store.directory:
        return 0
    added = 0
    for moved in moved_aside(store.directory):
        before = store._query("SELECT COUNT(*) FROM games")[0][0]
        salvage(moved, store)      # StoreError (a full disk) leaves it to read next time
        n = store._query("SELECT COUNT(*) FROM games")[0][0] - before
        added += n
        mark_healed(moved, n)
    return added


def heal(store: Recording, notices: list[Notice]) -> None:
    """At every start: games brought back from our own files, told as ``store.healed``;
    damaged games their file healed leave ``store.damaged_games`` for ``store.repaired``."""
    directory = store.directory
    if not directory:
        return
    damaged_before = _damaged(store)
    for source, restore in ((os.path.join(directory, GAMES_DIR), restore_from_files),
                            (directory, restore_from_moved)):
        restored = restore(store)
        if restored:
            notices.append(Notice("store.healed", {"path": store.path, "restored": restored,
                                                   "source": source}))
    if not store._query("SELECT 1 FROM profiles LIMIT 1") and store._query("SELECT 1 FROM games LIMIT 1"):
        from .salvage import _restore_profile
        _restore_profile(store, None)   # the profile row is lost: the name last played under
    if store.persistent:
        store._checkpoint("PASSIVE")
    healed = damaged_before - _damaged(store)
    if healed <= 0:
        return
    for i, n in enumerate(notices):
        if n.code == "store.damaged_games":
            left = n.params["damaged"] - healed
            if left > 0:
                notices[i] = Notice(n.code, {**n.params, "damaged": left})
            else:
                del notices[i]
            break
    for i, n in enumerate(notices):
        if n.code == "store.repaired":
            notices[i] = Notice(n.code, {**n.params, "repaired": n.params["repaired"] + healed})
            return
    notices.append(Notice("store.repaired", {"path": store.path, "repaired": healed}))


def _damaged(store: Recording) -> int:
    return int(store._query("SELECT COUNT(*) FROM games WHERE damaged IS NOT NULL")[0][0])


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_leftovers(directory: str) -> list[str]:
    """Remove our own temporary files a crash left behind: a write probe or a new file of
    a process that is gone, a record file half written long ago, the -shm of a file moved
    aside.  Returns what was removed."""
    removed: list[str] = []
    now = time.time()

    def drop(path: str) -> None:
        try:
            os.remove(path)
            removed.append(path)
        except OSError:
            pass

    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for n in names:
        p = os.path.join(directory, n)
        m = re.fullmatch(r"\.bonanza-write-test-(\d+)", n) or re.fullmatch(
            re.escape(DB_NAME) + r"\.new-(\d+)(-wal|-shm|-journal)?", n)
        if m and not _pid_alive(int(m.group(1))):
            drop(p)
        elif n.startswith(DB_NAME + ".corrupt-") and n.endswith("-shm"):
            drop(p)
        elif n == DB_NAME + ".salvage.tmp" and not os.path.exists(p[:-4]):
            drop(p)
    for sub in (GAMES_DIR, "exports"):
        folder = os.path.join(directory, sub)
        try:
            subnames = os.listdir(folder)
        except OSError:
            continue
        for n in subnames:
            p = os.path.join(folder, n)
            if n.startswith(".bonanza-export-") and n.endswith(".tmp"):
                try:
                    if now - os.path.getmtime(p) > STALE_SECONDS:
                        drop(p)
                except OSError:
                    pass
    return removed

