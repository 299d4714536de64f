"""A database file read as it stands, its -wal applied in memory: the read-only copy
that touches nothing on disk.

SQLite itself cannot do this: a read-only connection to a WAL database makes a ``-shm``
beside it (and fails where it cannot, e.g. on a full disk), and ``immutable`` ignores the
-wal and with it every game not yet checkpointed.  So the committed frames are applied
here, each checked as SQLite checks them (the header's salts, the running checksum), up
to the last commit; the result is handed to ``sqlite3.Connection.deserialize``."""
from __future__ import annotations

import os
import sqlite3
import struct
import tempfile

WAL_HEADER = 32
FRAME_HEADER = 24
MAGIC_LE, MAGIC_BE = 0x377F0682, 0x377F0683
MAX_IMAGE = 1 << 31


def _checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def committed_frames(wal: bytes, page_size: int) -> tuple[dict[int, bytes], int | None]:
    """The pages of every committed transaction in ``wal`` (page number -> content, the
    last one wins) and the database's size in pages after the last commit (None: no
    commit)."""
    if len(wal) < WAL_HEADER:
        return {}, None
    magic, _version, psize, _ckpt, salt1, salt2, c0, c1 = struct.unpack(">8I", wal[:WAL_HEADER])
    if magic not in (MAGIC_LE, MAGIC_BE) or psize != page_size:
        return {}, None
    big = magic == MAGIC_BE
    s0, s1 = _checksum(wal[:24], 0, 0, big)
    if (s0, s1) != (c0, c1):
        return {}, None
    pages: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    size: int | None = None
    off = WAL_HEADER
    while off + FRAME_HEADER + page_size <= len(wal):
        pgno, commit, fs1, fs2, f0, f1 = struct.unpack(">6I", wal[off:off + FRAME_HEADER])
        page = wal[off + FRAME_HEADER:off + FRAME_HEADER + page_size]
        if (fs1, fs2) != (salt1, salt2) or pgno == 0:
            break
        s0, s1 = _checksum(wal[off:off + 8], s0, s1, big)
        s0, s1 = _checksum(page, s0, s1, big)
        if (s0, s1) != (f0, f1):
            break
        pending[pgno] = page
        if commit:
            pages.update(pending)
            pending = {}
            size = commit
        off += FRAME_HEADER + page_size
    return pages, size


def read_image(path: str) -> bytes:
    """``path`` with its committed -wal frames applied, as one in-memory database image
    (marked as a rollback-journal file, which is what an in-memory database is)."""
    with open(path, "rb") as f:
        db = bytearray(f.read(MAX_IMAGE))
    if len(db) < 100:
        raise ValueError("not a database")
    page_size = int.from_bytes(db[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise ValueError(f"impossible page size {page_size}")
    try:
        with open(path + "-wal", "rb") as f:
            wal = f.read(MAX_IMAGE)
    except FileNotFoundError:
        wal = b""
    pages, size = committed_frames(wal, page_size)
    if len(db) % page_size:       # a partial last page (a write the disk stopped)
        db.extend(bytes(page_size - len(db) % page_size))
    for pgno, page in pages.items():
        end = pgno * page_size
        if end > len(db):
            db.extend(bytes(end - len(db)))
        db[end - page_size:end] = page
    if size is not None:
        del db[size * page_size:]
    db[18:20] = b"\x01\x01"       # legacy journal: an in-memory database has no -wal
    return bytes(db)


def load_image(conn: sqlite3.Connection, image: bytes) -> None:
    """Make the in-memory ``conn`` hold ``image``: ``deserialize`` (Python 3.11 on), else
    through a private file in the system's temporary folder (never beside the store)."""
    deserialize = getattr(conn, "deserialize", None)
    if deserialize is not None:
        deserialize(image)
        return
    fd, tmp = tempfile.mkstemp(prefix="bonanza-copy-", suffix=".db")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(image)
        src = sqlite3.connect(tmp)
        try:
            src.backup(conn)
        finally:
            src.close()
    finally:
        for p in (tmp, tmp + "-journal"):
            try:
                os.remove(p)
            except OSError:
                pass
