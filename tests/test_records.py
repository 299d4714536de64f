"""Speedrun records: seeded runs, export that `bonanza verify` accepts, import, the CLI commands."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_store_helpers import ROOT, play_first_box, solo_log

from bonanza.client import commands as cli
from bonanza.client.solo import new_solo_match
from bonanza.client.store import open_store
from bonanza.client.store.records import RecordError, export_record, finish_and_record, import_record
from bonanza.core.settings import SettingError


@pytest.fixture
def data(tmp_path):
    return str(tmp_path / "data")


def test_seeded_runs_share_dice_and_are_marked():
    a, b = new_solo_match("Ana", seed_text="speedrun 1"), new_solo_match("Bram", seed_text=" speedrun 1 ")
    a.roll()
    b.roll()
    assert a.state.dice == b.state.dice and a.commitment == b.commitment
    assert a.log.header["meta"] == {"seeded": True, "seed_text": "speedrun 1"}
    c = new_solo_match("Ana")
    assert c.log.header["meta"] == {} and c.log.header["mode"] == "solo"
    assert c.commitment != a.commitment
    with pytest.raises(SettingError):
        new_solo_match("Ana", seed_text="x" * 65)


def test_export_verifies_and_import_summarises(data, tmp_path):
    store, _ = open_store(data)
    try:
        m = new_solo_match("Ana", seed_text="ab" * 32)
        play_first_box(m)
        rec = finish_and_record(store, m, duration_ms=95_123)
        out = str(tmp_path / "run.bonanza")
        assert export_record(store, rec.id, out) == out
        with open(out, "rb") as f:
            assert f.read() == store.game_log(rec.id)
    finally:
        store.close()
    s = import_record(out)
    assert (s.mode, s.ruleset, s.name, s.score) == ("solo", "bonanza", "Ana", rec.score)
    assert s.duration_ms == 95_123 and s.seed == "ab" * 32 and s.seeded
    # `bonanza verify` on the file, in a fresh process from the checkout
    r = subprocess.run([sys.executable, "-m", "bonanza.client.commands", "verify", out], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "VALID" in r.stdout and "ab" * 32 in r.stdout


def test_import_of_a_tampered_record_fails(tmp_path):
    p = tmp_path / "bad.bonanza"
    data = bytearray(solo_log(3))
    data[len(data) // 2] ^= 0x01
    p.write_bytes(bytes(data))
    with pytest.raises(RecordError):
        import_record(str(p))
    with pytest.raises(RecordError) as e:
        import_record(str(tmp_path / "missing.bonanza"))
    assert e.value.code == "io_error"


def test_export_errors(data, tmp_path):
    store, _ = open_store(data)
    try:
        rec = store.record_game(solo_log(1))
        with pytest.raises(RecordError) as e:
            export_record(store, 999, str(tmp_path / "x.bonanza"))
        assert e.value.code == "unknown_game"
        with pytest.raises(RecordError) as e:
            export_record(store, rec.id, str(tmp_path / "no" / "such" / "x.bonanza"))
        assert e.value.code == "io_error"
        with pytest.raises(RecordError):
            export_record(store, rec.id, str(tmp_path))
        assert [p for p in os.listdir(tmp_path) if p.endswith(".tmp")] == []
    finally:
        store.close()


def test_records_and_export_commands(data, tmp_path, capsys):
    store, _ = open_store(data)
    recs = [store.record_game(solo_log(i, duration_ms=1000 * (i + 1))) for i in range(3)]
    store.close()
    assert cli.main(["records", "--data", data, "--ruleset", "bonanza", "--history", "3"]) == 0
    out = capsys.readouterr().out
    assert f"best {max(r.score for r in recs)}" in out
    assert "games 3" in out
    for r in recs:
        assert f"{r.id:>5}" in out
    dest = str(tmp_path / "best.bonanza")
    assert cli.main(["export", str(recs[0].id), dest, "--data", data]) == 0
    assert "verify" in capsys.readouterr().out
    assert cli.main(["verify", dest]) == 0
    assert "VALID" in capsys.readouterr().out
    assert cli.main(["export", "77", dest, "--data", data]) == 1
    err = capsys.readouterr().err
    assert "no game with id 77" in err and "Traceback" not in err
    assert cli.main(["export", str(recs[0].id), str(tmp_path / "nope" / "x"), "--data", data]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write") and "Traceback" not in err


def test_records_command_with_a_data_folder_that_cannot_exist(tmp_path, capsys):
    """A mistyped --data is an error, never a new empty store (the path runs through a file)."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert cli.main(["records", "--data", str(blocker / "d")]) == 1
    captured = capsys.readouterr()
    assert "does not exist" in captured.err and "Traceback" not in captured.err
    assert not (blocker.parent / "d").exists()
