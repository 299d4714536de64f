"""A full disk is not damage, and the store heals from its own files (issue 24).

The full disk is real: a small tmpfs mounted for the test (root only; skipped with the
reason elsewhere) filled with a filler file until the kernel says ENOSPC.  Freeing the
space is deleting the filler."""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile

import pytest
from test_store_helpers import daily_log, run_child, solo_log

from bonanza.client.store import PAGE_SIZE, StoreError, open_store
from bonanza.core.verify import verify_bytes

_can_mount: bool | None = None


def can_mount() -> bool:
    global _can_mount
    if _can_mount is None:
        _can_mount = False
        if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("mount"):
            d = tempfile.mkdtemp()
            try:
                r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d],
                                   capture_output=True, timeout=20)
                if r.returncode == 0:
                    subprocess.run(["umount", d], capture_output=True, timeout=20)
                    _can_mount = True
            finally:
                os.rmdir(d)
    return _can_mount


needs_tmpfs = pytest.mark.skipif("not can_mount()",
                                 reason="a small tmpfs needs root and mount (CI runs as root)")


@contextlib.contextmanager
def small_disk(where: str, size_kb: int = 4096):
    os.makedirs(where, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", where],
                   check=True, capture_output=True, timeout=20)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", where], capture_output=True, timeout=20)


@pytest.fixture
def disk(tmp_path):
    if not can_mount():
        pytest.skip("a small tmpfs needs root and mount (CI runs as root)")
    with small_disk(str(tmp_path / "disk")) as d:
        yield d


def fill_up(folder: str, leave: int = 0) -> str:
    """Fill the disk under ``folder`` with a filler file, leaving about ``leave`` bytes;
    returns the filler (delete it to free the space)."""
    n = len([f for f in os.listdir(folder) if f.startswith("filler")])
    filler = os.path.join(folder, f"filler{n}")
    free = shutil.disk_usage(folder).free - leave
    try:
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    except OSError as e:
        assert e.errno == errno.ENOSPC
        return filler
    try:
        for chunk in (65536, 4096, 1):
            while free >= chunk or (leave == 0 and chunk == 1):
                try:
                    os.write(fd, b"\0" * chunk)
                except OSError as e:
                    assert e.errno == errno.ENOSPC
                    break
                free -= chunk
        os.fsync(fd)
    finally:
        os.close(fd)
    return filler


def free_up(folder: str) -> None:
    for f in os.listdir(folder):
        if f.startswith("filler"):
            os.remove(os.path.join(folder, f))


def codes(notices) -> list[str]:
    return [n.code for n in notices]


def seeds(store) -> set:
    return {g.seed for g in store.history(limit=10_000)}


# ------------------------------------------------------------------ a full disk is not damage

@needs_tmpfs
def test_a_disk_filled_while_playing_loses_nothing_and_is_not_damage(disk):
    data = os.path.join(disk, "data")
    store, notices = open_store(data)
    assert notices == []
    store.save_profile(name="Chloé")
    fill_up(disk, leave=700 * 1024)
    acked = []
    i = 0
    with pytest.raises(StoreError) as e:
        while True:
            acked.append(store.record_game(solo_log(i)))
            i += 1
            assert i < 500
    assert e.value.full                  # a full disk, said as such
    store.close()                        # its checkpoint may fail too: nothing is lost
    assert len(acked) > 5

    # reopened while still full: the saved games are shown, nothing is changed
    fill_up(disk)
    before = sorted(os.listdir(data))
    store, notices = open_store(data)
    assert "store.corrupt_moved" not in codes(notices)
    assert codes(notices)[0] == "store.disk_full", codes(notices)
    assert notices[0].params["mb"] >= 1 and "free about" in notices[0].message
    assert seeds(store) == {r.seed for r in acked}
    assert store.profile()["name"] == "Chloé"
    store.close()
    assert sorted(os.listdir(data)) == before   # nothing moved, nothing left beside it

    free_up(disk)
    store, notices = open_store(data)
    assert store.persistent
    assert "store.corrupt_moved" not in codes(notices) and "store.disk_full" not in codes(notices)
    assert seeds(store) == {r.seed for r in acked}
    assert store.profile()["name"] == "Chloé"
    assert store.record_game(solo_log(999)).id
    store.close()
    assert not [n for n in os.listdir(data) if ".corrupt-" in n]


def _cut_by_a_full_disk(data: str, n_before: int, n_after: int) -> list:
    """The state a checkpoint that hit a full disk leaves: ``bonanza.db`` ends in a
    partial page (the page it was extending the file with) and every page is still in
    the -wal.  Made exactly: the files copied while a window has them open (as a crash
    leaves them), then half of the new page written past the end."""
    store, _ = open_store(data)
    store.save_profile(name="Chloé")
    recs = [store.record_game(solo_log(i)) for i in range(n_before)]
    store.close()
    store, _ = open_store(data)
    store._checkpoint = lambda how: None          # the checkpoints are what the full disk stopped
    recs += [store.record_game(solo_log(100 + i)) for i in range(n_after)]
    path = os.path.join(data, "bonanza.db")
    crashed = data + "-crashed"
    os.makedirs(crashed)
    for suffix in ("", "-wal"):
        shutil.copy(path + suffix, os.path.join(crashed, "bonanza.db" + suffix))
    shutil.copytree(os.path.join(data, "games"), os.path.join(crashed, "games"))
    store.close()
    shutil.rmtree(data)
    os.rename(crashed, data)
    size = os.path.getsize(path)
    assert size % PAGE_SIZE == 0
    wal = open(path + "-wal", "rb").read()
    # the frame of page size/PAGE_SIZE + 1 (the first page past the end) is in the WAL
    page_no = size // PAGE_SIZE + 1
    frame = None
    for off in range(32, len(wal), 24 + PAGE_SIZE):
        if int.from_bytes(wal[off:off + 4], "big") == page_no:
            frame = wal[off + 24:off + 24 + PAGE_SIZE]
    assert frame is not None, "the WAL holds the page past the end"
    with open(path, "ab") as f:
        f.write(frame[:PAGE_SIZE // 2])
    assert os.path.getsize(path) % PAGE_SIZE
    return recs


def test_a_partial_last_page_with_the_wal_holding_it_is_not_damage(tmp_path):
    data = str(tmp_path / "data")
    recs = _cut_by_a_full_disk(data, 3, 8)
    store, notices = open_store(data)
    try:
        assert notices == []                       # no false "damaged" message
        assert seeds(store) == {r.seed for r in recs}
        assert store.profile()["name"] == "Chloé"
        assert os.path.getsize(os.path.join(data, "bonanza.db")) % PAGE_SIZE == 0
    finally:
        store.close()
    assert not [n for n in os.listdir(data) if ".corrupt-" in n]


def test_a_partial_last_page_without_its_wal_is_still_damage(tmp_path):
    data = str(tmp_path / "data")
    recs = _cut_by_a_full_disk(data, 3, 8)
    os.remove(os.path.join(data, "bonanza.db-wal"))
    store, notices = open_store(data)
    try:
        assert codes(notices)[0] == "store.corrupt_moved"
        assert "cut short" in notices[0].params["reason"]
        # every finished game is back: the ones the file lost from their .bonanza files
        assert seeds(store) == {r.seed for r in recs}
    finally:
        store.close()


@needs_tmpfs
def test_a_partial_last_page_on_a_still_full_disk_waits_for_space(disk):
    data = os.path.join(disk, "data")
    recs = _cut_by_a_full_disk(data, 3, 8)
    path = os.path.join(data, "bonanza.db")
    fill_up(disk)
    raw = {n: open(os.path.join(data, n), "rb").read() for n in os.listdir(data)
           if os.path.isfile(os.path.join(data, n))}
    store, notices = open_store(data)
    assert codes(notices)[:1] == ["store.disk_full"]
    assert not store.persistent and seeds(store) == {r.seed for r in recs}
    store.close()
    after = {n: open(os.path.join(data, n), "rb").read() for n in os.listdir(data)
             if os.path.isfile(os.path.join(data, n))}
    assert after[path.rsplit("/", 1)[1]] == raw["bonanza.db"]
    assert set(after) <= set(raw) | {"bonanza.db-shm", "bonanza.db.lock"}
    free_up(disk)
    store, notices = open_store(data)
    assert notices == [] and store.persistent and seeds(store) == {r.seed for r in recs}
    store.close()


# ------------------------------------------------------------------ a salvage never makes things worse

def _flip_schema_bit(path: str, table: bytes = b"CREATE TABLE profiles") -> None:
    """One bit of the schema text flipped so that it no longer decodes as UTF-8."""
    raw = bytearray(open(path, "rb").read())
    at = raw.find(table)
    assert 0 < at < PAGE_SIZE
    at = raw.find(b"name", at)
    raw[at + 1] ^= 0x80
    open(path, "wb").write(bytes(raw))


def _filled(data: str, n: int = 8, daily: str | None = "2024-05-20") -> list:
    store, notices = open_store(data)
    assert notices == []
    store.save_profile(name="Chloé", language="fr")
    recs = [store.record_game(solo_log(i), played_at=f"2024-05-{i + 1:02d}T12:00:00Z")
            for i in range(n)]
    if daily:
        assert store.begin_daily(daily)
        recs.append(store.record_game(daily_log(daily), played_at=f"{daily}T09:00:00Z"))
    store.close()
    return recs


def test_a_flipped_bit_in_the_schema_text_is_salvaged_not_an_unwritable_folder(tmp_path):
    data = str(tmp_path / "data")
    recs = _filled(data)
    _flip_schema_bit(os.path.join(data, "bonanza.db"))
    store, notices = open_store(data)
    try:
        assert "store.unwritable" not in codes(notices)
        assert codes(notices)[0] == "store.corrupt_moved", [n.message for n in notices]
        assert store.persistent
        assert seeds(store) == {r.seed for r in recs}
        assert store.best("bonanza") == max(r.score for r in recs if r.ruleset == "bonanza")
        assert store.daily_status("2024-05-20") == "played"
    finally:
        store.close()
    store, notices = open_store(data)
    assert notices == [] and len(store.history(limit=100)) == len(recs)
    store.close()


@needs_tmpfs
def test_a_salvage_on_a_full_disk_changes_nothing_and_says_so(disk):
    data = os.path.join(disk, "data")
    recs = _filled(data)
    path = os.path.join(data, "bonanza.db")
    _flip_schema_bit(path, b"CREATE TABLE games")
    fill_up(disk, leave=64 * 1024)     # room for the marker, not for the copy
    before = {n: open(os.path.join(data, n), "rb").read() for n in os.listdir(data)
              if os.path.isfile(os.path.join(data, n))}
    store, notices = open_store(data)
    assert codes(notices)[0] == "store.disk_full"
    assert "store.corrupt_moved" not in codes(notices)
    assert not store.persistent
    store.close()
    after = {n: open(os.path.join(data, n), "rb").read() for n in os.listdir(data)
             if os.path.isfile(os.path.join(data, n))}
    assert after == before      # not moved, not renamed, no marker, the name not reset
    free_up(disk)
    store, notices = open_store(data)
    try:
        assert codes(notices)[0] == "store.corrupt_moved"
        assert seeds(store) == {r.seed for r in recs}
        assert store.profile()["name"] == "Chloé"
    finally:
        store.close()


@needs_tmpfs
def test_a_salvage_whose_writes_fail_puts_the_original_back(disk, monkeypatch):
    from bonanza.client.store import opening
    data = os.path.join(disk, "data")
    recs = _filled(data, n=30)
    path = os.path.join(data, "bonanza.db")
    _flip_schema_bit(path)
    original = open(path, "rb").read()
    shutil.rmtree(os.path.join(data, "games"))
    # the space check passes (it is what is tested here: the writes that fail after it)
    monkeypatch.setattr(opening, "space_needed", lambda p: 0)
    fill_up(disk, leave=len(original) // 3)
    store, notices = open_store(data)
    assert codes(notices)[0] == "store.disk_full", [n.message for n in notices]
    assert "store.corrupt_moved" not in codes(notices)
    store.close()
    assert open(path, "rb").read() == original
    leftovers = [n for n in os.listdir(data) if ".corrupt-" in n or n.endswith((".salvage",
                                                                                 ".salvaging"))]
    assert leftovers == []
    free_up(disk)
    store, notices = open_store(data)
    try:
        assert codes(notices)[0] == "store.corrupt_moved"
        assert notices[0].params["recovered"] == len(recs)
        assert seeds(store) == {r.seed for r in recs}
    finally:
        store.close()


# ------------------------------------------------------------------ heal from our own files

def test_a_deleted_database_is_rebuilt_from_the_games_files(tmp_path):
    data = str(tmp_path / "data")
    recs = _filled(data)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(data, "bonanza.db" + suffix))
    store, notices = open_store(data)
    try:
        assert codes(notices) == ["store.healed"]
        assert notices[0].params["restored"] == len(recs)
        assert notices[0].params["source"] == os.path.join(data, "games")
        assert seeds(store) == {r.seed for r in recs}
        assert store.best("bonanza") == max(r.score for r in recs if r.ruleset == "bonanza")
        daily = recs[-1]
        assert store.daily_status("2024-05-20") == "played"
        assert store.daily_score("2024-05-20") == daily.score
        assert store.profile()["name"] == "me"       # the name the games were played under
        by_seed = {g.seed: g for g in store.history(limit=100)}
        for r in recs:   # played_at comes back from the file's name, to the second
            assert by_seed[r.seed].played_at[:19] == r.played_at[:19]
            assert by_seed[r.seed].file is not None
    finally:
        store.close()
    store, notices = open_store(data)
    assert notices == []
    store.close()


def test_games_left_in_a_file_moved_aside_are_read_again(tmp_path):
    """An older salvage that was stopped (a full disk) kept 3 of the games; the rest are
    still in ``bonanza.db.corrupt-*``: the next start reads it again, once."""
    data = str(tmp_path / "data")
    recs = _filled(str(tmp_path / "before"), daily=None)
    store, _ = open_store(data)
    for i in range(3):
        store.record_game(solo_log(i))
    store.close()
    path = os.path.join(data, "bonanza.db")
    os.rename(str(tmp_path / "before" / "bonanza.db"), path + ".corrupt-20240101-000000")
    store, notices = open_store(data)
    try:
        assert codes(notices) == ["store.healed"]
        assert notices[0].params["restored"] == len(recs) - 3
        assert seeds(store) == {r.seed for r in recs}
        assert store.profile()["name"] == "Chloé"
    finally:
        store.close()
    assert os.path.exists(path + ".corrupt-20240101-000000.healed")
    store, notices = open_store(data)
    assert notices == []
    store.close()


def test_an_orphan_file_is_linked_again_and_leftovers_are_removed(tmp_path):
    data = str(tmp_path / "data")
    store, _ = open_store(data)
    rec = store.record_game(solo_log(1))
    store.close()
    conn = sqlite3.connect(os.path.join(data, "bonanza.db"))
    conn.execute("DELETE FROM game_files")
    conn.commit()
    conn.close()
    dead = 2 ** 22 + 12345     # above pid_max's default: no such process
    stray = [os.path.join(data, f".bonanza-write-test-{dead}"),
             os.path.join(data, "bonanza.db.corrupt-20240101-000000-shm"),
             os.path.join(data, "games", ".bonanza-export-abc.tmp")]
    for p in stray:
        open(p, "wb").write(b"x")
    os.utime(stray[2], (1, 1))
    fresh = os.path.join(data, "games", ".bonanza-export-now.tmp")   # maybe another window's
    open(fresh, "wb").write(b"x")
    store, notices = open_store(data)
    try:
        assert notices == []
        assert store.game(rec.id).file == rec.file
    finally:
        store.close()
    assert [p for p in stray if os.path.exists(p)] == []
    assert os.path.exists(fresh)


def test_a_file_that_does_not_verify_is_never_imported(tmp_path):
    data = str(tmp_path / "data")
    store, _ = open_store(data)
    store.close()
    os.makedirs(os.path.join(data, "games"))
    log = bytearray(solo_log(7))
    log[len(log) // 2] ^= 0x01
    assert not verify_bytes(bytes(log)).ok
    name = "2024-05-01_120000_solo_bonanza_300_" + hashlib.sha256(log).hexdigest()[:8] + ".bonanza"
    open(os.path.join(data, "games", name), "wb").write(bytes(log))
    store, notices = open_store(data)
    assert notices == [] and store.history() == []
    store.close()


def test_reading_a_read_only_copy_makes_no_wal(tmp_path):
    from bonanza.client.store.opening import _memory_conn
    data = str(tmp_path / "data")
    _filled(data, n=2, daily=None)
    path = os.path.join(data, "bonanza.db")
    conn = _memory_conn(path)
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    conn.close()
    assert not os.path.exists(path + "-wal") and not os.path.exists(path + "-shm")


# ------------------------------------------------------------------ nothing the player did is undone

BEGIN_THEN_DIE = r"""
import os, signal
from bonanza.client.store import open_store
store, notices = open_store(sys.argv[2])
what = sys.argv[3]
if what == "daily":
    print("begun", store.begin_daily("2024-05-20"), flush=True)
else:
    store.save_profile(name="Chloé", settings={"volume": 12})
    print("saved", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("what", ["daily", "profile"])
def test_a_crash_that_loses_the_wal_never_undoes_a_daily_start_or_a_profile(tmp_path, what):
    data = str(tmp_path / "data")
    store, _ = open_store(data)
    for i in range(3):
        store.record_game(solo_log(i))
    store.close()
    child = run_child(BEGIN_THEN_DIE, data, what)
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert ("begun True" if what == "daily" else "saved") in child.stdout
    for suffix in ("-wal", "-shm"):     # a cleaner, or damage, takes the -wal
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(data, "bonanza.db" + suffix))
    store, notices = open_store(data)
    try:
        assert notices == []
        if what == "daily":
            assert store.daily_status("2024-05-20") == "in_progress"
            assert store.begin_daily("2024-05-20") is False
        else:
            assert store.profile()["name"] == "Chloé"
            assert store.profile()["settings"] == {"volume": 12}
        assert len(store.history()) == 3
    finally:
        store.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_kill_inside_begin_daily_never_hands_out_an_attempt_it_did_not_keep(tmp_path):
    data = str(tmp_path / "data")
    store, _ = open_store(data)
    store.close()
    child = run_child(BEGIN_THEN_DIE, data, "daily", kill_at="commit:1")
    assert child.returncode == -signal.SIGKILL and "begun" not in child.stdout
    store, notices = open_store(data)
    try:
        assert notices == []
        assert store.daily_status("2024-05-20") == "available"   # never begun, never shown
    finally:
        store.close()


def test_the_daily_on_a_failing_store_is_refused_with_its_reason(tmp_path):
    from bonanza.client import daily
    data = str(tmp_path / "data")
    store, _ = open_store(data)
    store.close()      # a closed connection fails every write like a lost disk
    result = daily.start_offline_daily(store, "me", "2024-05-20")
    assert result == daily.REFUSAL_NOT_SAVED
    assert daily.refusal_key(result) == "daily.not_saved"


def test_disk_full_notice_text_and_key():
    from bonanza.client.store import Notice
    n = Notice("store.disk_full", {"path": "/x", "mb": 3})
    assert n.key == "store.disk_full" and "free about 3 MB" in n.message
    assert json.dumps(n.params)


def test_a_finished_game_without_its_file_gets_it_at_the_next_start(tmp_path):
    data = str(tmp_path / "data")
    store, _ = open_store(data)
    rec = store.record_game(solo_log(3))
    store.close()
    os.remove(rec.file)
    conn = sqlite3.connect(os.path.join(data, "bonanza.db"))
    conn.execute("DELETE FROM game_files")   # the link row lost with a -wal, the file never written
    conn.commit()
    conn.close()
    store, notices = open_store(data)
    try:
        assert notices == []
        assert store.game(rec.id).file == rec.file
        assert open(rec.file, "rb").read() == solo_log(3)
    finally:
        store.close()


def test_import_games_verifies_deduplicates_and_counts_like_the_originals(tmp_path):
    from bonanza.client.store.records import import_games
    other = str(tmp_path / "other")
    store, _ = open_store(other)
    recs = [store.record_game(solo_log(i)) for i in range(4)]
    store.close()
    tampered = bytearray(solo_log(9))
    tampered[len(tampered) // 2] ^= 0x01
    bad = str(tmp_path / "bad.bonanza")
    open(bad, "wb").write(bytes(tampered))

    data = str(tmp_path / "data")
    store, _ = open_store(data)
    try:
        store.record_game(solo_log(0))                   # already here
        result = import_games(store, [os.path.join(other, "games"), bad])
        assert len(result.added) == 3 and result.known == 1
        assert [p for p, _ in result.refused] == [bad]
        assert seeds(store) == {r.seed for r in recs}
        assert store.best("bonanza") == max(r.score for r in recs)
        assert store.stats("bonanza")["games"] == 4
        again = import_games(store, [os.path.join(other, "games")])
        assert again.added == [] and again.known == 4
    finally:
        store.close()
