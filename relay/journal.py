"""Journals: every running game on disk as it happens, so a relay that stops (a crash, a
kill, a restart) resumes each game where it was.  docs/journal.md is the format.

Every game's entries go into one shared write-ahead log, ``<data>/journal/NNNNNNNN.wal``
(a *segment*; the relay starts a new one when the current grows past SEGMENT_BYTES, and at
every start), each entry naming its game: the table and its header, then each move
record's logged bytes, then the end.  The games' sealed secrets (the table's seed, the
seats' resume tokens) go into ``NNNNNNNN.secrets`` beside it, readable by the relay's user
only, and never sent to anyone.  One log for every game is what makes it cheap: the
entries of one pass of the event loop reach the operating system in one ``write`` (before
anything of that pass is sent, so a killed process loses nothing), and a group commit makes
them durable with one ``fdatasync`` at most every COMMIT_EVERY seconds, on a worker thread,
with the finished logs of the games that ended (their bytes and their names).  What a
player is told rests on a commit: a game's start (``started``) waits for the one holding
its table entry, its end for the one holding its end entry and its finished log.

A segment is deleted once no game that still needs it is running: every game with an entry
in it has ended and its finished log is durable.  A game still running when its first
segment is two segments old is written again, whole, into the current one (a *snapshot*:
its table entry, then all its records), so a slow game never keeps old segments alive.

On start ``found`` reads every segment back (and the one-file-per-game journals of older
relays, ``<CODE>.journal`` and ``<CODE>.secret``): a torn or damaged entry ends its
segment (a write cut short), a game's records are taken while each follows the last, the
game is folded again through ``core.match`` (``Match.resumed`` checks chain, moves, dice
and state hashes) and the table resumes: seats, tokens, bots, and a fresh full turn on the
clock.  Each resumed game is written whole into the new segment, and the old files go
once that is durable.  A game that already holds its end becomes its finished log.  A
game that can never resume (its day is over, its entries are damaged) ends as given up by
the relay, and a daily attempt it held is given back to the player.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
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
COMMIT_EVERY = 0.025             # seconds: the group commit's longest wait
SEGMENT_BYTES = 16 << 20         # a segment this large: the next commit starts another
SNAPSHOT_AGE = 2                 # segments: a running game this far behind is written again
WAL, SECRETS = ".wal", ".secrets"
SUFFIX, SECRET = ".journal", ".secret"   # a game's own files (an older relay's; set aside ones)
_SEGMENT = re.compile(r"^([0-9]{8})\.wal$")
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


def move_entry(game: int, encoded_record: bytes) -> bytes:
    """pack({"kind": "move", "game": game, "record": encoded_record}), without a map built
    per move (the relay writes one per move)."""
    n = len(encoded_record)
    head = _MOVE_HEAD + pack(game) + _RECORD_KEY + (
        bytes((0xc4, n)) if n < 0x100 else
        (b"\xc5" + n.to_bytes(2, "big")) if n < 0x10000 else
        (b"\xc6" + n.to_bytes(4, "big")))
    return head + encoded_record


_MOVE_HEAD = b"\x83" + pack("kind") + pack("move") + pack("game")
_RECORD_KEY = pack("record")


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
    """One running game's entries in the shared log (``Journals``)."""

    def __init__(self, book: "Journals", game: int, code: str, table: dict, secret: dict,
                 records: Callable[[], Sequence[bytes]]):
        self.book = book
        self.game = game
        self.code = code
        self.table = dict(table, game=game)      # its table entry (a snapshot repeats it)
        self.secret = dict(secret, game=game)
        self.records = records                    # its records' logged bytes, so far
        self.end: dict | None = None              # its last end entry, once it ended
        self.first = book.segment                 # the oldest segment holding its entries
        self.done = False
        self.told = False            # the end is durable (or refused) and the players told
        self.is_settled = False      # the finished log and results are on disk at last

    def write_whole(self) -> None:
        """Its table entry, secrets, every record and its end (if any), in the current
        segment: the game as it is, readable without any older segment."""
        book = self.book
        self.first = book.segment
        records = self.records()
        book.append_secret(pack(self.secret))
        # ``moves``: how many records follow; a copy cut short (a power cut) never
        # replaces the entries it restates
        book.append(pack(dict(self.table, moves=len(records))))
        for rec in records:
            book.append(move_entry(self.game, rec))
        if self.end is not None:
            book.append(pack(self.end))

    def moved(self, encoded_record: bytes) -> None:
        self.book.append(move_entry(self.game, encoded_record))

    def when_durable(self, then: Callable[[], None]) -> None:
        """``then`` runs once everything written so far is durable (or the disk refused)."""
        self.book.when_durable(then)

    def ended(self, log_file: str | None, then: Callable[[], None]) -> None:
        """The game's end: ``then`` (telling the players) runs once it is durable, or
        once the disk has refused it (the players are told all the same; the game stays
        in the log, holding the end, and the next start writes the finished log)."""
        def durable() -> None:
            if not self.told:
                self.told = True
                then()
            if self.done:
                return
            if self.is_settled or (log_file is not None and not self.book.failing):
                self.book.retire(self)       # the finished log is the record now
            elif log_file is not None:       # the disk refused: its log synced again
                self.book.sync_log(log_file)
                self.book.when_durable(durable)
        self.end = {"kind": "end", "game": self.game, "file": log_file}
        self.book.append(pack(self.end))
        if log_file is not None:
            self.book.sync_log(log_file)
        self.book.when_durable(durable)

    def settled(self, log_file: str) -> None:
        """The finished log and results were written after all (the disk refused them at
        the end): the game leaves the log once the log is durable and the end was told."""
        def durable() -> None:
            if self.done:
                return
            if self.book.failing:
                self.book.sync_log(log_file)
                self.book.when_durable(durable)
                return
            self.is_settled = True
            if self.told:
                self.book.retire(self)
        self.end = {"kind": "end", "game": self.game, "file": log_file}
        self.book.append(pack(self.end))
        self.book.sync_log(log_file)
        self.book.when_durable(durable)


@dataclass
class Found:
    """A game read back from disk."""
    code: str
    entries: list[dict]
    secret: dict | None
    table: dict = field(default_factory=dict)
    legacy: bool = False         # read from its own file (an older relay)


class Journals:
    """``<data>/journal``: the relay's shared log, its segments and its group commit."""

    def __init__(self, folder: Path, on_disk_error: Callable[[OSError | None], None],
                 logs: Path | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.logs = Path(logs) if logs is not None else None   # where finished logs are
        self.on_disk_error = on_disk_error
        self.open: dict[int, Journal] = {}       # games that still need the log, by id
        self.failing = False
        self.commits = 0
        self.folder_syncs = 0
        # Segments and files from before this start: gone once what they held is
        # written again (or finished) and durable.
        self.old: list[Path] = []
        self.segment = 0
        self.next_game = 1
        self.buf = bytearray()        # entries not yet handed to the system, in order
        self.secrets_buf = bytearray()
        self.size = 0                 # the current segment's bytes so far
        self.fd: int | None = None
        self.secrets_fd: int | None = None
        self._waiters: list[Callable[[], None]] = []
        self._logs: list[str] = []    # finished logs to make durable at the next commit
        self._timer: asyncio.TimerHandle | None = None
        self._inflight: asyncio.Future | None = None   # the group commit's worker, if running
        self.earlier: list[int] = []  # this run's earlier segments, not deleted yet
        self._spare: tuple[int, int] | None = None   # the next segment, made, not yet used
        self._closing: list[int] = []     # descriptors of segments no longer written
        self._stopped = False

    # ------------------------------------------------------------ segments
    def _segment_path(self, n: int, suffix: str = WAL) -> Path:
        return _segment_file(self.folder, n, suffix)

    def begin(self) -> None:
        """Open this run's first segment (after ``found``): a fresh one, never one a
        crash may have torn."""
        self.segment += 1
        try:
            self.fd, self.secrets_fd = _make_segment(self.folder, self.segment)
            _fsync_path(self.folder, os.O_DIRECTORY)     # the names survive a power cut
            self.folder_syncs += 1
        except OSError as e:   # no segment yet: entries wait in memory, retried at commits
            self.failed(e)

    def _switch(self) -> None:
        """The next segment is made: new entries go there (once everything before is
        written whole into the current one: a frame never spans two), and games still
        running from two segments back are written into it whole."""
        fds, self._spare = self._spare, None
        assert fds is not None
        if self.fd is not None:
            self.earlier.append(self.segment)
        for fd in (self.fd, self.secrets_fd):
            if fd is not None:
                self._closing.append(fd)
        self.segment += 1
        self.fd, self.secrets_fd = fds
        self.size = 0
        for j in self.open.values():
            if j.first <= self.segment - SNAPSHOT_AGE:
                j.write_whole()

    def _deletable(self) -> list[Path]:
        """Old files no running game needs (oldest first): every file of an earlier run
        (what they held was written again, or is finished, at the start) and this run's
        segments older than the oldest a running game has entries in."""
        need = self._oldest_needed()
        gone = [n for n in self.earlier if n < need]
        self.earlier = [n for n in self.earlier if n >= need]
        paths, self.old = self.old, []
        for n in gone:
            paths += [self._segment_path(n), self._segment_path(n, SECRETS)]
        return paths

    # ------------------------------------------------------------ writing
    def opened(self, table: Table) -> Journal:
        """The game's journal: its table entry and secrets are in the next commit, the
        one ``started`` waits for."""
        return self.start(table.code, table_entry(table),
                          {"seed": table.seed, "tokens": [s.token for s in table.slots]},
                          lambda: table.started_match.log.encoded)

    def start(self, code: str, table: dict, secret: dict,
              records: Callable[[], Sequence[bytes]]) -> Journal:
        """A game's journal from its table entry, its secrets and (for a snapshot) a way
        to read its records' logged bytes so far."""
        j = self._register(code, table, secret, records)
        self.append_secret(pack(j.secret))
        self.append(pack(j.table))
        return j

    def _register(self, code: str, table: dict, secret: dict,
                  records: Callable[[], Sequence[bytes]]) -> Journal:
        """A new game number, and the game among those that still need the log."""
        game = self.next_game
        self.next_game += 1
        j = self.open[game] = Journal(self, game, code, table, secret, records)
        return j

    def append(self, body: bytes) -> None:
        self.buf += frame(body)
        self._dirty()

    def append_secret(self, body: bytes) -> None:
        self.secrets_buf += frame(body)
        self._dirty()

    def write_out(self) -> bool:
        """Hand what waits to the operating system (the relay calls it before it sends
        anything); False when the disk refused (it waits, in order, for the next try)."""
        waiting = len(self.buf)
        # a game's secrets before its entries
        ok = self._write(self.secrets_fd, self.secrets_buf) and self._write(self.fd, self.buf)
        self.size += waiting - len(self.buf)
        return ok

    def _write(self, fd: int | None, buf: bytearray) -> bool:
        while buf:
            if fd is None:
                return False
            try:
                n = os.write(fd, buf)
            except OSError as e:
                self.failed(e)
                return False
            if n == len(buf):
                buf.clear()
            else:
                del buf[:n]
        return True

    def when_durable(self, then: Callable[[], None]) -> None:
        """``then`` runs once everything written so far is durable (or the disk refused)."""
        self._waiters.append(then)
        self._dirty()

    def sync_log(self, log_file: str) -> None:
        """A finished log (and its folder's entry) is made durable by the next commit."""
        self._logs.append(log_file)
        self._dirty()

    def retire(self, j: Journal) -> None:
        """``j``'s game needs the log no more (its finished log is durable)."""
        j.done = True
        self.open.pop(j.game, None)
        if self._deletable_soon():
            self._dirty()

    def _dirty(self) -> None:
        if self._timer is not None or self._inflight is not None:
            return     # a commit is due, or the one under way schedules the next
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:      # no loop (a table driven synchronously): at once
            self.commit_now()
            return
        self._timer = loop.call_later(COMMIT_EVERY, self._commit)

    def _plan(self) -> "_Commit":
        """What the next commit does on its worker (taken from the loop's state now)."""
        files: list[Path] = []
        folders: list[Path] = []
        if self.logs is not None and self._logs:
            files = [self.logs / name for name in self._logs]
            folders.append(self.logs)
        self._logs = []
        # nothing goes before what it held is written (again) and synced by this commit
        written = self.fd is not None and not self.buf and not self.secrets_buf
        deletable = self._deletable() if written else []
        rotate = (self.size >= SEGMENT_BYTES or self.fd is None) and self._spare is None
        job = _Commit([fd for fd in (self.fd, self.secrets_fd) if fd is not None], files,
                      folders, deletable, self.folder,
                      self.segment + 1 if rotate else None, self._closing)
        self._closing = []
        return job

    def _commit(self) -> None:
        """The group commit: everything written since the last one made durable on a
        worker thread (the event loop never waits for the disk)."""
        self._timer = None
        waiters, self._waiters = self._waiters, []
        if self.fd is not None and not self.write_out():
            # the disk refused: retried at the next commit; the players are told anyway
            for w in waiters:
                w()
            self._next()
            return
        if self._spare is not None:
            self._switch()
        job = self._plan()
        loop = asyncio.get_running_loop()
        fut = self._inflight = loop.run_in_executor(None, job.run)
        fut.add_done_callback(lambda f: self._committed(job, waiters))

    def _committed(self, job: "_Commit", waiters: list[Callable[[], None]]) -> None:
        self._inflight = None
        if self._stopped:      # the relay stopped meanwhile (after quiesce gave up)
            for fd in job.made or ():
                os.close(fd)
            return
        self._done(job)
        for w in waiters:
            w()
        self._next()

    def _done(self, job: "_Commit") -> None:
        self.commits += 1
        if job.error is not None:
            self.old += job.undeleted
            self._logs += [p.name for p in job.files]
            self.failed(job.error)
        else:
            self.folder_syncs += len(job.folders) + job.folder_synced
            self.recovered()
        if job.made is not None:
            self._spare = job.made
            if not self.buf and not self.secrets_buf:
                self._switch()

    def _next(self) -> None:
        if self._timer is None and (self.buf or self.secrets_buf or self._waiters or self._logs
                                    or self.old or self._deletable_soon()):
            self._timer = asyncio.get_running_loop().call_later(COMMIT_EVERY, self._commit)

    def _deletable_soon(self) -> bool:
        return bool(self.earlier) and self.earlier[0] < self._oldest_needed()

    def _oldest_needed(self) -> int:
        """The oldest segment a running game has entries in (the current one if none)."""
        return min((j.first for j in self.open.values()), default=self.segment)

    def commit_now(self) -> None:
        """Make everything durable now, on this thread (no event loop; the relay stopping)."""
        waiters, self._waiters = self._waiters, []
        if self.write_out():
            job = self._plan()
            job.next_segment = None        # no new segment while stopping
            job.run()
            self._done(job)
        for w in waiters:
            w()

    def flush(self) -> None:
        """Everything written and durable now (the relay is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.commit_now()

    async def quiesce(self, limit: float = 5.0) -> None:
        """Let a group commit under way finish before the log closes: its worker thread
        still uses the descriptors."""
        fut = self._inflight
        if fut is not None:
            await asyncio.wait([fut], timeout=limit)

    def close_all(self) -> None:
        self.flush()
        self._stopped = True
        for fd in (self.fd, self.secrets_fd, *self._closing, *(self._spare or ())):
            if fd is not None:
                os.close(fd)
        self.fd = self.secrets_fd = self._spare = None
        self._closing = []
        self.open.clear()

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
        """Every game on disk, read back (torn tails dropped); the files read are
        deleted once what they hold is written again and durable."""
        out: list[Found] = []
        for path in sorted(self.folder.glob(f"*{SUFFIX}")):      # one file per game
            found = _read_one_file(path)
            if found is not None:
                out.append(found)
                self.old += [path, path.with_suffix(SECRET)]
        segments = sorted(p for p in self.folder.glob(f"*{WAL}") if _segment_no(p) is not None)
        games: dict[int, Found] = {}
        # a game written again, not yet whole: (the copy, records still to come, its segment)
        copies: dict[int, tuple[Found, int, int]] = {}
        secrets: dict[int, dict] = {}
        for path in segments:
            n = _segment_no(path)
            assert n is not None
            self.segment = max(self.segment, n)
            self.old += [path, path.with_suffix(SECRETS)]
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
                kept, _ = read_entries(path.with_suffix(SECRETS).read_bytes())
            except OSError:
                kept = []
            for s in kept:
                if type(s.get("game")) is int:
                    secrets[s["game"]] = s
            for entry in entries:
                game = entry.get("game")
                if type(game) is not int:
                    continue
                self.next_game = max(self.next_game, game + 1)
                if game in copies and copies[game][2] != n:
                    del copies[game]      # cut short by its segment's torn tail: never used
                if entry.get("kind") == "table":       # a game's start, or a copy of it
                    copies[game] = (Found(str(entry.get("code")), [entry], None, table=entry),
                                    entry.get("moves") or 0, n)
                elif game in copies:
                    copy, left, _ = copies[game]
                    copy.entries.append(entry)
                    copies[game] = (copy, left - (entry.get("kind") == "move"), n)
                elif game in games:
                    games[game].entries.append(entry)
                if game in copies and copies[game][1] <= 0:    # whole: it is the game now
                    games[game] = copies.pop(game)[0]
        for game, f in games.items():
            kept_secret = secrets.get(game)
            f.secret = None if kept_secret is None else \
                {k: v for k, v in kept_secret.items() if k != "game"}
            f.entries = _sound_records(f.entries)
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
        """A restored table goes on in this run's segment, written there whole."""
        j = self._register(table.code, {k: v for k, v in f.table.items() if k != "game"},
                           f.secret or {}, lambda: table.started_match.log.encoded)
        table.journal = j
        j.write_whole()

    def after_restore(self) -> None:
        """The old files go at the first commit (once what they held is written again)."""
        if self.old:
            self._dirty()


def _segment_file(folder: Path, n: int, suffix: str = WAL) -> Path:
    return folder / f"{n:08d}{suffix}"


def _make_segment(folder: Path, n: int) -> tuple[int, int]:
    """Segment ``n``'s two files, made (the folder is synced by the caller)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND
    fd = os.open(_segment_file(folder, n), flags, 0o600)
    try:
        sfd = os.open(_segment_file(folder, n, SECRETS), flags, 0o600)
    except OSError:
        os.close(fd)
        raise
    return fd, sfd


def _segment_no(path: Path) -> int | None:
    m = _SEGMENT.match(path.name)
    return int(m.group(1)) if m else None


def _read_one_file(path: Path) -> Found | None:
    """A game's own journal (``<CODE>.journal`` and ``<CODE>.secret``)."""
    code = path.name[:-len(SUFFIX)]
    try:
        data = path.read_bytes()
    except OSError as e:
        log.error("cannot read the journal %s: %s", path.name, e.strerror or e)
        return None
    entries, sound = read_entries(data)
    if sound < len(data):
        log.warning("journal %s: dropped a torn last entry (%d bytes)", path.name,
                    len(data) - sound)
    try:
        secret = msgpack.unpackb(path.with_suffix(SECRET).read_bytes(), raw=False)
    except Exception:
        secret = None
    f = Found(code, entries, secret if isinstance(secret, dict) else None, legacy=True)
    if entries and entries[0].get("kind") == "table":
        f.table = entries[0]
    return f


def _sound_records(entries: list[dict]) -> list[dict]:
    """A game's entries while each record follows the last (an entry lost with an older
    segment's torn tail ends the game's sound part: nothing after it is trusted)."""
    out = entries[:1]
    seq = 0
    for e in entries[1:]:
        if e.get("kind") == "move":
            rec = e.get("record")
            try:
                got = msgpack.unpackb(rec, raw=False).get("seq") if isinstance(rec, bytes) else None
            except Exception:
                got = None
            if got != seq + 1:
                break
            seq = got
        out.append(e)
    return out


class _Commit:
    """One group commit's work on its worker thread: make the next segment (when one is
    due), sync the log and the finished logs and folders, close the descriptors of
    segments no longer written, delete old files nobody needs.  Only the worker touches
    it until it is done; then the loop reads it."""

    def __init__(self, fds: list[int], files: list[Path], folders: list[Path],
                 deletable: list[Path], journal_folder: Path, next_segment: int | None,
                 closing: list[int]):
        self.fds = fds
        self.files = files
        self.folders = folders
        self.deletable = deletable
        self.journal_folder = journal_folder
        self.next_segment = next_segment
        self.closing = closing
        self.made: tuple[int, int] | None = None
        self.folder_synced = False        # files were made or deleted, and the folder synced
        self.undeleted: list[Path] = []
        self.error: OSError | None = None

    def run(self) -> None:
        try:
            try:
                for fd in self.fds + self.closing:     # entries written before a switch too
                    os.fdatasync(fd)
            finally:
                for fd in self.closing:
                    os.close(fd)
                self.closing = []
            for path in self.files:
                _fsync_path(path)
            for path in self.folders:
                _fsync_path(path, os.O_DIRECTORY)
        except OSError as e:
            self.error = e
            self.undeleted = self.deletable
            return
        changed = False
        for i, path in enumerate(self.deletable):    # oldest first
            try:
                os.unlink(path)
                changed = True
            except FileNotFoundError:
                pass
            except OSError as e:
                self.error = e
                self.undeleted = self.deletable[i:]
                break
        if self.next_segment is not None and self.error is None:
            try:
                self.made = _make_segment(self.journal_folder, self.next_segment)
                changed = True
            except OSError as e:
                self.error = e
        if changed:
            try:
                _fsync_path(self.journal_folder, os.O_DIRECTORY)
                self.folder_synced = True
            except OSError as e:
                self.error = self.error or e


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
        end = next((e for e in reversed(f.entries[1:]) if e.get("kind") == "end"), None)
        if end is not None and end.get("file") is not None:
            # finished, its log and results written (its files go at the first commit)
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
    journals.after_restore()
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
    try:
        if f.legacy:
            for suffix in (SUFFIX, SECRET):
                try:
                    os.replace(journals.folder / f"{f.code}{suffix}", aside / f"{f.code}{suffix}")
                except FileNotFoundError:
                    pass
        else:    # its entries, as a game's own journal (the shared log's copy goes with it)
            _write_new(aside / f"{f.code}{SUFFIX}",
                       b"".join(frame(msgpack.packb(e, use_bin_type=True)) for e in f.entries))
            if f.secret is not None:
                _write_new(aside / f"{f.code}{SECRET}", pack(f.secret))
        # both names for good (a power cut must not bring it back to be resumed)
        for folder in (aside, journals.folder):
            _fsync_path(folder, os.O_DIRECTORY)
    except OSError as e:
        journals.failed(e)


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = ["Journals", "Journal", "Found", "restore", "read_entries", "frame"]
