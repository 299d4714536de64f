"""Journals: every running game on disk as it happens, so a relay that stops (a crash, a
kill, a restart) resumes each game where it was.  docs/journal.md is the format.

``<data>/journal/<CODE>.journal`` holds the game's entries (the table and its header, then
each move record's logged bytes, then the end), appended as they happen; the table's
sealed secrets (its seed, the seats' resume tokens) are in ``<CODE>.secret`` beside it,
readable by the relay's user only, and never sent to anyone.  Appends reach the operating
system at once (a killed process loses nothing); a group commit makes them durable
(``fdatasync`` at most every COMMIT_EVERY seconds, on a worker thread), with the folder's
own entries (a new journal's names) and a finished log (its bytes and its name) in the same
commit.  What a player is told rests on a commit: a game's start (``started``) waits for its
journal's first, its end for the one holding its end entry and its finished log.

On start ``restore`` reads every journal back: a torn or damaged last entry (a write cut
short) is dropped, never trusted; the game is folded again through ``core.match``
(``Match.resumed`` checks chain, moves, dice and state hashes) and the table resumes:
seats, tokens, bots, and a fresh full turn on the clock.  A finished journal becomes the
finished log.  A game that can never resume (its day is over, its journal is damaged)
ends as given up by the relay, and a daily attempt it held is given back to the player.
"""
from __future__ import annotations

import asyncio
import logging
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import msgpack

from bonanza.core.log import pack
from bonanza.core.match import Match
from bonanza.core.records import MoveRecord
from bonanza.core.runclock import RunClock

from .connection import Conn
from .services import RelayServices
from .tables import Slot, Table

Host = RelayServices[Conn, Table, Slot]   # what restoring uses of the relay

log = logging.getLogger("bonanza.relay")

FRAME = struct.Struct(">II")     # an entry's length and the CRC-32 of its body
_MOVE_ENTRY = b"\x82" + pack("kind") + pack("move") + pack("record")   # a move entry's head
COMMIT_EVERY = 0.025             # seconds: the group commit's longest wait
SUFFIX, SECRET = ".journal", ".secret"
DAY_OVER = "the day of this daily game was over when the relay came back"
DAMAGED = "the relay could not read this game back after a restart"


def frame(body: bytes) -> bytes:
    return FRAME.pack(len(body), zlib.crc32(body)) + body


def read_entries(data: bytes) -> tuple[list[dict], int]:
    """The entries of a journal and the length of its sound part.  The first entry that
    is cut short or does not match its CRC ends the journal: it is what a crash tore
    off the end (a write that never finished), and nothing after it is trusted."""
    out: list[dict] = []
    pos = 0
    while pos + FRAME.size <= len(data):
        n, crc = FRAME.unpack_from(data, pos)
        start = pos + FRAME.size
        body = data[start:start + n]
        if len(body) < n or zlib.crc32(body) != crc:
            break
        try:
            entry = msgpack.unpackb(body, raw=False, strict_map_key=True)
        except Exception:
            break
        if not isinstance(entry, dict):
            break
        out.append(entry)
        pos = start + n
    return out, pos


def table_entry(table: Table) -> dict:
    """What a journal says of its table (everything but the secrets)."""
    match = table.started_match
    return {"kind": "table", "code": table.code, "mode": table.mode, "ruleset": table.ruleset,
            "nseats": table.nseats, "turn_seconds": table.turn_seconds, "bots": table.bots,
            "daily_date": table.daily_date, "ranked_id": table.ranked_id,
            "host": table.host.index if table.host is not None else None,
            "seats": [{"name": s.name, "kind": s.kind, "policy": s.policy, "key": s.key}
                      for s in table.slots],
            "header": match.log.header}


class Journal:
    """One running game's journal."""

    def __init__(self, book: "Journals", code: str, fd: int | None,
                 secret: bytes | None = None):
        self.book = book
        self.code = code
        self.fd: int | None = fd
        # The secret file's bytes while the journal's files are still to be made: the
        # commit's worker makes them (an open with O_CREAT costs about a millisecond on a
        # busy disk, too much for the event loop); what is written waits in ``pending``.
        self.secret = secret
        self.removed = False         # its files are to go (unlinked after a birth in flight)
        self.pending = bytearray()   # what the disk refused so far (retried at each commit)
        self.waiters: list[Callable[[], None]] = []   # to run once what is written is durable
        self.logs: list[str] = []    # finished logs (file names) to make durable at the commit
        self.done = False
        self.told = False            # the end is durable (or refused) and the players told
        self.is_settled = False      # the finished log and results are on disk at last

    def _append(self, body: bytes) -> None:
        data = frame(body)
        if self.pending or self.fd is None:
            self.pending += data     # keep the order: after what is still waiting
            self.write_pending()
        else:                        # the common case: straight to the system, no copy kept
            try:
                n = os.write(self.fd, data)
            except OSError as e:
                self.pending = bytearray(data)
                self.book.failed(e)
            else:
                if n < len(data):
                    self.pending = bytearray(data[n:])
                    self.write_pending()
        self.book.dirty(self)

    def write_pending(self) -> bool:
        """Hand what is waiting to the operating system; False when the disk refused."""
        while self.pending and self.fd is not None:
            try:
                n = os.write(self.fd, self.pending)
            except OSError as e:
                self.book.failed(e)
                return False
            del self.pending[:n]
        return True

    def moved(self, encoded_record: bytes) -> None:
        # pack({"kind": "move", "record": encoded_record}), without a map built per move
        n = len(encoded_record)
        head = _MOVE_ENTRY + (bytes((0xc4, n)) if n < 0x100 else
                              (b"\xc5" + n.to_bytes(2, "big")) if n < 0x10000 else
                              (b"\xc6" + n.to_bytes(4, "big")))
        self._append(head + encoded_record)

    def when_durable(self, then: Callable[[], None]) -> None:
        """``then`` runs once everything written so far is durable (or the disk refused)."""
        self.waiters.append(then)
        self.book.dirty(self)

    def ended(self, log_file: str | None, then: Callable[[], None]) -> None:
        """The game's end: ``then`` (telling the players) runs once it is durable, or
        once the disk has refused it (the players are told all the same; the journal
        stays, holding the end, and the next start writes the finished log)."""
        def durable() -> None:
            self.told = True
            if self.is_settled or (log_file is not None and not self.pending
                                   and not self.book.failing):
                self.book.close(self, remove=True)   # the finished log is the record now
            then()
        self.waiters.append(durable)
        if log_file is not None:
            self.logs.append(log_file)
        self._append(pack({"kind": "end", "file": log_file}))

    def settled(self, log_file: str) -> None:
        """The finished log and results were written after all (the disk refused them at
        the end): the journal goes once the log is durable and the end has been told."""
        def durable() -> None:
            self.is_settled = True
            if self.told and not self.done:
                self.book.close(self, remove=True)
        self.logs.append(log_file)
        self.when_durable(durable)


@dataclass
class Found:
    """A journal read back from disk."""
    code: str
    entries: list[dict]
    secret: dict | None
    sound: int                   # the length of its sound part (a torn tail cut off)
    table: dict = field(default_factory=dict)


class Journals:
    """``<data>/journal``: the relay's journals and their group commit."""

    def __init__(self, folder: Path, on_disk_error: Callable[[OSError | None], None],
                 logs: Path | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.logs = Path(logs) if logs is not None else None   # where finished logs are
        # A new file's name is an entry of its folder: durable only once the folder is
        # synced (fsync of the file alone does not make its name survive a power loss).
        self.folder_unsynced = False
        self.folder_syncs = 0
        self.on_disk_error = on_disk_error
        self.open: dict[str, Journal] = {}
        self._dirty: dict[Journal, None] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._syncing: list[Journal] = []
        self._inflight: asyncio.Future | None = None   # the group commit's worker, if running
        self.failing = False
        self.commits = 0

    # ------------------------------------------------------------ writing
    def opened(self, table: Table) -> Journal | None:
        """The game's journal; its files are made by the next commit (``_Birth``), the one
        ``started`` waits for, and made again at each commit while the disk refuses."""
        code = table.code
        secret = pack({"seed": table.seed, "tokens": [s.token for s in table.slots]})
        j = self.open[code] = Journal(self, code, None, secret)
        j._append(pack(table_entry(table)))
        return j

    def dirty(self, j: Journal) -> None:
        self._dirty[j] = None
        if self._timer is not None or self._syncing:
            return     # the commit under way schedules the next one
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:      # no loop (a table driven synchronously): at once
            self.commit_now(j)
            return
        self._timer = loop.call_later(COMMIT_EVERY, self._commit)

    def _commit(self) -> None:
        """The group commit: every journal written since the last one, made durable on a
        worker thread (the event loop never waits for the disk)."""
        self._timer = None
        dirty = [j for j in self._dirty if j.fd is not None or j.secret is not None]
        self._dirty.clear()
        batch: list[Journal] = []
        for j in dirty:
            if j.write_pending():
                batch.append(j)
            else:   # the disk refused: retried at the next commit; its end is sent anyway
                self._dirty[j] = None
                _run(j)
        if not batch:
            self._next()
            return
        self._syncing = batch
        fds = [j.fd for j in batch if j.fd is not None]
        births = {j: _Birth(self.folder, j) for j in batch if j.secret is not None}
        files, folders = self._paths(batch, bool(births))
        loop = asyncio.get_running_loop()
        waiting = [(j, j.waiters) for j in batch]
        for j in batch:
            j.waiters = []
        fut = self._inflight = loop.run_in_executor(
            None, _sync_all, fds, files, folders, list(births.values()))
        fut.add_done_callback(lambda f: self._committed(f, waiting, bool(folders), births))

    def _paths(self, batch: list[Journal], births: bool = False
               ) -> tuple[list[Path], list[Path]]:
        """The finished logs and the folders a commit of ``batch`` makes durable too."""
        files: list[Path] = []
        folders: list[Path] = []
        if self.folder_unsynced or births:
            self.folder_unsynced = False     # set again if the sync fails
            folders.append(self.folder)
        for j in batch:
            if self.logs is not None:
                files += [self.logs / name for name in j.logs]
            j.logs = []
        if files and self.logs is not None:
            folders.append(self.logs)
        return files, folders

    def _committed(self, fut: asyncio.Future, waiting: list, folders: bool = False,
                   births: dict[Journal, "_Birth"] | None = None) -> None:
        self._inflight = None
        batch, self._syncing = self._syncing, []
        self.commits += 1
        err = fut.exception()
        for j, birth in (births or {}).items():
            err = self._born(j, birth) or err
        if err is not None:
            self.folder_unsynced = self.folder_unsynced or folders
            self.failed(err if isinstance(err, OSError) else None)
        else:
            self.folder_syncs += folders
            self.recovered()
        for j in batch:
            if j.done and j.fd is not None:     # closed while its sync ran
                os.close(j.fd)
                j.fd = None
            if j.removed:
                self.remove(j.code)
        for j, waiters in waiting:
            for w in waiters:
                w()
        self._next()

    def _next(self) -> None:
        if self._dirty and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(COMMIT_EVERY, self._commit)

    def _born(self, j: Journal, birth: "_Birth") -> BaseException | None:
        """Take over the files a commit made for ``j`` (what it wrote leaves ``pending``);
        the error, if the disk refused (the birth is tried again at the next commit)."""
        if birth.fd is not None:
            j.fd = birth.fd
            j.secret = None
            del j.pending[:birth.written]
        if (birth.error is not None or j.pending) and not j.done:
            self._dirty[j] = None
        return birth.error

    def commit_now(self, j: Journal) -> None:
        """Make ``j`` durable now, on this thread (no event loop; the relay stopping)."""
        self._dirty.pop(j, None)
        birth = _Birth(self.folder, j) if j.secret is not None else None
        if birth is not None or (j.fd is not None and j.write_pending()):
            files, folders = self._paths([j], birth is not None)
            err: BaseException | None = None
            try:
                _sync_all([j.fd] if j.fd is not None else [], files, folders,
                          [birth] if birth is not None else [])
            except OSError as e:
                err = e
            if birth is not None:
                err = self._born(j, birth) or err
                self._dirty.pop(j, None)
                if j.fd is not None and not j.write_pending():
                    err = err or OSError("the journal was not written whole")
            if err is None:
                self.folder_syncs += bool(folders)
            else:
                self.folder_unsynced = self.folder_unsynced or bool(folders)
                self.failed(err if isinstance(err, OSError) else None)
        _run(j)

    def close(self, j: Journal, remove: bool = False) -> None:
        j.done = True
        self.open.pop(j.code, None)
        self._dirty.pop(j, None)
        if remove:
            self.remove(j.code)
            j.removed = j in self._syncing and j.secret is not None   # being made right now
        if j not in self._syncing:
            j.secret = None        # files never made are not made now
            if j.fd is not None:
                _close(j.fd, in_thread=remove)
                j.fd = None

    def remove(self, code: str) -> None:
        for suffix in (SUFFIX, SECRET):
            try:
                os.unlink(self.folder / f"{code}{suffix}")
            except FileNotFoundError:
                pass

    def flush(self) -> None:
        """Everything written and durable now (the relay is stopping)."""
        for j in list(self.open.values()):
            self.commit_now(j)

    async def quiesce(self, limit: float = 5.0) -> None:
        """Let a group commit under way finish before the journals close: its worker thread
        still uses their descriptors (closing them under it is a spurious disk error, or
        a sync of whatever file reused the number)."""
        fut = self._inflight
        if fut is not None:
            await asyncio.wait([fut], timeout=limit)

    def close_all(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.flush()
        self._syncing = []
        for j in list(self.open.values()):
            self.close(j)

    # ------------------------------------------------------------ the disk's health
    def failed(self, err: OSError | None) -> None:
        if not self.failing:
            self.failing = True
        self.on_disk_error(err)

    def recovered(self) -> None:
        if self.failing:
            self.failing = False
            self.on_disk_error(None)

    # ------------------------------------------------------------ reading back
    def found(self) -> list[Found]:
        """Every journal on disk, read (torn tails dropped, cut off on disk too)."""
        out = []
        for path in sorted(self.folder.glob(f"*{SUFFIX}")):
            code = path.name[:-len(SUFFIX)]
            try:
                data = path.read_bytes()
            except OSError as e:
                log.error("cannot read the journal %s: %s", path.name, e.strerror or e)
                continue
            entries, sound = read_entries(data)
            if sound < len(data):
                log.warning("journal %s: dropped a torn last entry (%d bytes)", path.name,
                            len(data) - sound)
            try:
                secret = msgpack.unpackb((self.folder / f"{code}{SECRET}").read_bytes(),
                                         raw=False)
            except Exception:
                secret = None
            f = Found(code, entries, secret if isinstance(secret, dict) else None, sound)
            if entries and entries[0].get("kind") == "table":
                f.table = entries[0]
            out.append(f)
        return out

    def keep_open(self, found: list[Found], today: str) -> tuple[set, set]:
        """The daily attempts ((date, name)) and ranked runs (ids) the journals will
        resume: the stores leave these open when they expire what a previous run held."""
        daily, ranked = set(), set()
        for f in found:
            t = f.table
            if t.get("daily_date") == today:
                daily |= {(today, s["name"]) for s in t.get("seats", []) if s["kind"] == "human"}
            if t.get("ranked_id") is not None:
                ranked.add(t["ranked_id"])
        return daily, ranked

    def adopt(self, table: Table, f: Found) -> None:
        """A restored table goes on writing the journal it was read from, after its
        sound part (a torn tail is cut off)."""
        path = self.folder / f"{table.code}{SUFFIX}"
        os.truncate(path, f.sound)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        table.journal = self.open[table.code] = Journal(self, table.code, fd)


def _close(fd: int, in_thread: bool = False) -> None:
    """The last close of an unlinked journal frees its blocks (about a millisecond on a
    busy disk): a worker thread does it, not the event loop.  Nothing uses ``fd`` after."""
    if in_thread:
        try:
            asyncio.get_running_loop().run_in_executor(None, os.close, fd)
            return
        except RuntimeError:      # no loop (the relay stopping, a table driven directly)
            pass
    os.close(fd)


def _run(j: Journal) -> None:
    waiters, j.waiters = j.waiters, []
    for w in waiters:
        w()


class _Birth:
    """A new journal's two files, made by the commit's worker thread: the secret file
    (written, synced, closed) and the journal with what was written before it existed.
    Only the worker touches it until the commit is done; then the loop reads it."""

    def __init__(self, folder: Path, j: Journal):
        assert j.secret is not None
        self.secret_path = folder / f"{j.code}{SECRET}"
        self.path = folder / f"{j.code}{SUFFIX}"
        self.secret = j.secret
        self.data = bytes(j.pending)
        self.fd: int | None = None
        self.written = 0
        self.error: OSError | None = None

    def make(self) -> None:
        try:
            secret_fd = os.open(self.secret_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                _write_all(secret_fd, self.secret)
                os.fdatasync(secret_fd)
            finally:
                os.close(secret_fd)
            self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND,
                              0o600)
            view = memoryview(self.data)
            while view:
                n = os.write(self.fd, view)
                self.written += n
                view = view[n:]
            os.fdatasync(self.fd)
        except OSError as e:
            self.error = e


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync_all(fds: list[int], files: Sequence[Path] = (), folders: Sequence[Path] = (),
              births: Sequence[_Birth] = ()) -> None:
    """New journals (made, written, synced), journals (``fdatasync``), then finished logs
    and folders (opened here, ``fsync``)."""
    for birth in births:
        birth.make()
    for fd in fds:
        os.fdatasync(fd)
    for path in files:
        _fsync_path(path)
    for path in folders:
        _fsync_path(path, os.O_DIRECTORY)


def _fsync_path(path: Path, flags: int = 0) -> None:
    fd = os.open(path, os.O_RDONLY | flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- restoring tables
def restore(relay: Host, journals: Journals, found: list[Found]) -> dict[str, int]:
    """Resume every journaled game on ``relay`` (started, not yet serving).  Returns
    counts: resumed, finished (journals that already held their end), ended (by the
    relay), damaged."""
    counts = {"resumed": 0, "finished": 0, "ended": 0, "damaged": 0}
    today = relay.clock.today()
    for f in found:
        end = next((e for e in f.entries[1:] if e.get("kind") == "end"), None)
        if end is not None and end.get("file") is not None:
            # finished, its log and results written; only the journal's removal was cut off
            journals.remove(f.code)
            counts["finished"] += 1
            continue
        try:
            table = _table(relay, f)
        except Exception as e:   # damaged beyond the torn tail: never trusted
            log.error("journal %s cannot be resumed (%s); set aside", f.code, e)
            _set_aside(relay, journals, f)
            counts["damaged"] += 1
            continue
        ended = end is not None
        relay.tables[table.code] = table
        for s in table.slots:
            if s.token is not None:
                relay.tokens[s.token] = s
        journals.adopt(table, f)
        match = table.started_match
        table._new_turn()
        if ended or match.state.over:
            table.finish()
            counts["finished"] += 1
        elif table.daily_date is not None and table.daily_date != today:
            _end_by_relay(relay, table, DAY_OVER)
            counts["ended"] += 1
        else:
            table._after()
            counts["resumed"] += 1
    return counts


def _table(relay: Host, f: Found) -> Table:
    t, secret = f.table, f.secret
    if not t or secret is None:
        raise ValueError("no table entry" if not t else "its secrets are missing")
    seed = secret["seed"]
    records: list[MoveRecord] = []
    for e in f.entries[1:]:
        if e.get("kind") == "move":
            encoded = e["record"]
            rec = msgpack.unpackb(encoded, raw=False)
            if pack(rec) != encoded:
                raise ValueError("a record is not in its logged encoding")
            records.append(rec)
    table = Table(relay, t["code"], t["mode"], t["ruleset"], t["nseats"], t["turn_seconds"], seed)
    table.bots = t["bots"]
    table.daily_date = t["daily_date"]
    table.ranked_id = t["ranked_id"]
    table.restored = True
    tokens = secret.get("tokens") or []
    header = t["header"]
    for i, s in enumerate(t["seats"]):
        slot = Slot(table, s["name"], s["kind"], policy=s["policy"], key=s["key"])
        slot.contribution = header["dice"].get("contributions", [None] * len(t["seats"]))[i] \
            if header["dice"]["scheme"] == "commit" else None
        slot.token = tokens[i] if i < len(tokens) else None
        slot.restored = True
        table.slots.append(slot)
    table.reindex()
    if t["host"] is not None:
        table.host = table.slots[t["host"]]
    stamp: Callable[[], float] | None = None
    now = relay.clock.now()
    if table.mode == "ranked":
        # the run's time goes on from its last stamp: the relay's downtime is not the player's
        run_clock = RunClock(relay.clock.now, records[-1].get("at", 0) if records else None)
        stamp = run_clock.stamp
        table.started_at = run_clock.began if run_clock.began is not None else now
    elif table.daily_date is not None:
        table.started_at = now
    table.match = Match.resumed(header, records, seed, signer=relay.signer, stamp=stamp)
    return table


def _end_by_relay(relay: Host, table: Table, why: str) -> None:
    """The game ends as given up by the relay (recorded in the end's meta); a daily
    attempt it held is given back: the relay failed, not the player."""
    table.ended_by = why
    match = table.started_match
    for s in table.slots:
        if not match.state.over and not match.state.has_given_up(s.index):
            table.give_up(s.index, "away")
    table.finish()
    if table.daily_date is not None:
        for s in table.slots:
            if s.kind == "human":
                relay.daily.return_attempt(table.daily_date, s.name)


def _set_aside(relay: Host, journals: Journals, f: Found) -> None:
    """A journal that cannot be resumed moves to ``journal/damaged`` (kept for a person to
    look at); a daily attempt or a ranked run it held is given back (the run ends given up
    by the relay, counted as no attempt)."""
    t = f.table
    if t.get("daily_date"):
        for s in t.get("seats", []):
            if s.get("kind") == "human":
                relay.daily.return_attempt(t["daily_date"], s["name"])
    if isinstance(t.get("ranked_id"), int):     # else: the store gave it back at its start
        relay.ranked.return_run(t["ranked_id"])
    aside = journals.folder / "damaged"
    aside.mkdir(exist_ok=True)
    for suffix in (SUFFIX, SECRET):
        try:
            os.replace(journals.folder / f"{f.code}{suffix}", aside / f"{f.code}{suffix}")
        except OSError:
            pass
    try:      # both names moved for good (a power cut must not bring it back to be resumed)
        _sync_all([], (), (aside, journals.folder))
    except OSError as e:
        journals.failed(e)


__all__ = ["Journals", "Journal", "Found", "restore", "read_entries", "frame"]
