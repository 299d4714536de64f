"""A permission problem is not damage: the file is left where it is, untouched, and the
player is told what to do.  Root ignores file permissions, so under root the store is
opened in a forked child that has dropped to the ``nobody`` user first."""
from __future__ import annotations

import json
import os
import tempfile

import pytest
from test_store_helpers import solo_log

import bonanza.client.store.check  # noqa: F401  (loaded before a child drops its privileges)
import bonanza.client.store.salvage  # noqa: F401
from bonanza.client.store import open_store

NOBODY = 65534
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def open_elsewhere(data: str) -> dict:
    """open_store in a child process running without root's powers; what it saw."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: never returns into pytest
        try:
            os.close(r)
            if os.geteuid() == 0:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            store, notices = open_store(data)
            out = {"codes": [n.code for n in notices], "notices": [n.message for n in notices],
                   "keys": [n.key for n in notices], "persistent": store.persistent,
                   "games": len(store.history(limit=1000)), "best": store.best("bonanza")}
            try:
                store.record_game(solo_log(99))
                out["saved"] = True
            except Exception:
                out["saved"] = False
            store.close()
        except BaseException as e:
            out = {"error": repr(e)}
        os.write(w, json.dumps(out).encode())
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    os.waitpid(pid, 0)
    out = json.loads(b"".join(chunks))
    assert "error" not in out, out["error"]
    return out


@pytest.fixture
def data():
    # not under tmp_path: its parents are private to root, and the child is not root
    d = tempfile.mkdtemp(prefix="bonanza-access-")
    os.chmod(d, 0o777)
    yield d
    import shutil
    shutil.rmtree(d)


def fill(data: str) -> tuple[str, list]:
    store, notices = open_store(data)
    assert notices == []
    recs = [store.record_game(solo_log(i)) for i in range(4)]
    store.close()
    path = os.path.join(data, "bonanza.db")
    for name in os.listdir(data):
        os.chown(os.path.join(data, name), NOBODY, NOBODY) if os.geteuid() == 0 else None
    return path, recs


def test_a_file_that_may_not_be_opened_is_not_called_damaged(data):
    path, recs = fill(data)
    before = open(path, "rb").read()
    os.chmod(path, 0o000)
    seen = open_elsewhere(data)
    assert seen["codes"] == ["store.no_access"], seen
    assert seen["keys"] == ["store.no_access"]
    assert "not damaged" in seen["notices"][0] and "permission" in seen["notices"][0]
    assert not seen["persistent"]
    # nothing moved (games/ holds the .bonanza files of the games fill() recorded)
    assert sorted(os.listdir(data)) == ["bonanza.db", "bonanza.db.lock", "games"]
    os.chmod(path, 0o644)
    assert open(path, "rb").read() == before
    store, notices = open_store(data)   # permission given back: every game is there
    assert notices == [] and len(store.history()) == len(recs)
    store.close()


def test_a_read_only_file_is_told_at_start_and_its_games_are_shown(data):
    path, recs = fill(data)
    before = open(path, "rb").read()
    os.chmod(path, 0o444)
    seen = open_elsewhere(data)
    assert seen["codes"] == ["store.read_only"], seen
    assert "read-only" in seen["notices"][0] and "writable" in seen["notices"][0]
    assert seen["games"] == len(recs) and seen["best"] == max(r.score for r in recs)
    assert not seen["persistent"]
    assert seen["saved"]   # the run still records (in memory), so the end screen works
    os.chmod(path, 0o644)
    assert open(path, "rb").read() == before
    assert not [n for n in os.listdir(data) if ".corrupt-" in n]   # nothing moved aside
