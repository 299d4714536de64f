"""Speedrun-grade records (issue 15): given-up games never count, one board per category
(random seed, set seed, daily, relay, table), every finished game written as a
``.bonanza`` file, and the schema v4 migration, check and salvage that keep all that."""
from __future__ import annotations

import os
import shutil
import sqlite3
import stat

import pytest
from test_store_helpers import daily_log, play_greedy_upper, seed_of, solo_log

from bonanza.client import commands as cli
from bonanza.client.store import open_store, schema
from bonanza.client.store.salvage import salvage
from bonanza.core.game import Seat
from bonanza.core.match import Match


@pytest.fixture
def data(tmp_path):
    return str(tmp_path / "data")


def given_up_log(i: int, turns: int = 3, why: str = "gave_up", meta: dict | None = None) -> bytes:
    """A solo game stopped after ``turns`` boxes (a high seed plays greedy, so a
    given-up game can hold more points than a finished one)."""
    m = Match.create("bonanza", [Seat("me")], seed_of(i), mode="solo", meta=meta)
    for _ in range(turns):
        m.roll()
        from bonanza.core.game import allowed
        m.write(allowed(m.state)[0])
    m.give_up(0, why)
    m.finish({"duration_ms": 5_000})
    return m.log.to_bytes()


def test_given_up_games_never_count_as_bests_or_in_averages(data):
    store, _ = open_store(data)
    try:
        # the case: 9 games, 2 finished
        stopped = [store.record_game(given_up_log(i, turns=1 + i % 4)) for i in range(7)]
        done = [store.record_game(solo_log(20 + i, policy=play_greedy_upper)) for i in range(2)]
        scores = [r.score for r in done]
        assert all(r.status == "gave_up" and not r.finished for r in stopped)
        assert all(not r.new_best for r in stopped)             # not even the very first game
        assert stopped[0].previous_best is None and done[0].new_best
        st = store.stats("bonanza", "solo")
        assert st["games"] == 2 and st["gave_up"] == 7
        assert st["average"] == round(sum(scores) / 2, 1) and st["best"] == max(scores)
        assert store.stats()["games"] == 2
        board = store.personal_bests("bonanza", "solo")
        assert sorted(r.id for r in board) == sorted(r.id for r in done)
        assert store.best("bonanza", "solo") == max(scores)
        assert store.best("bonanza", "solo", "random") == max(scores)
        # the history keeps them all, each with its status
        hist = store.history()
        assert len(hist) == 9
        assert sorted(h.status for h in hist) == ["finished"] * 2 + ["gave_up"] * 7
    finally:
        store.close()
    store, notices = open_store(data)   # the status is part of the checked row
    try:
        assert notices == []
        assert store.stats("bonanza")["gave_up"] == 7
    finally:
        store.close()


def test_a_given_up_game_above_every_finished_one_is_not_a_best(data):
    store, _ = open_store(data)
    try:
        low = store.record_game(solo_log(1))               # first box every turn: a low score
        high_stop = given_up_log(8, turns=12)
        rec = store.record_game(high_stop)
        assert rec.score > low.score, "the test needs a given-up game above the finished one"
        assert not rec.new_best and rec.previous_best == low.score
        assert store.best("bonanza") == low.score
        assert [r.id for r in store.personal_bests("bonanza")] == [low.id]
    finally:
        store.close()


def test_each_category_has_its_own_board(data):
    store, _ = open_store(data)
    try:
        rnd = store.record_game(solo_log(1, policy=play_greedy_upper))
        seeded = store.record_game(solo_log(2, meta={"seeded": True, "seed_text": "speedrun 1"}))
        day = store.record_game(daily_log("2024-03-03"))
        assert (rnd.category, seeded.category, day.category) == ("random", "seeded", "daily")
        assert seeded.seed_text == "speedrun 1" and rnd.seed_text is None
        assert rnd.self_dealt and seeded.self_dealt and day.self_dealt
        # a set-seed game is a new best of its own board, whatever the random board holds
        assert seeded.score < rnd.score and seeded.new_best and seeded.previous_best is None
        assert [r.id for r in store.personal_bests("bonanza", "solo", category="random")] == [rnd.id]
        assert [r.id for r in store.personal_bests("bonanza", "solo", category="seeded")] == [seeded.id]
        assert store.best("bonanza", "solo", "seeded") == seeded.score
        assert store.best("bonanza", "solo", "daily") is None
        assert store.best("yacht", "daily", "daily") == day.score
        assert store.stats("bonanza", category="seeded")["games"] == 1
        assert store.stats("bonanza", "solo")["games"] == 2      # every category together
        assert store.game(seeded.id).seed_text == "speedrun 1"
    finally:
        store.close()


def test_table_and_relay_signed_games_are_categories_apart():
    from bonanza.client.store.summary import classify
    moves = [{"type": "roll", "seat": 0}, {"type": "give_up", "seat": 1, "why": "left"}]
    assert classify({"mode": "table"}, moves, 0) == {"status": "finished", "category": "table",
                                                    "seed_text": None}
    assert classify({"mode": "table"}, moves, 1)["status"] == "left"
    signed = {"mode": "solo", "meta": {"seeded": True, "seed_text": "x"},
              "signing": {"relay": b"k", "seats": [None]}}
    assert classify(signed, [], 0)["category"] == "relay"       # never a self-dealt board
    relay_daily = {"mode": "daily", "dice": {"scheme": "commit"}}
    assert classify(relay_daily, [], 0)["category"] == "relay"


def test_every_finished_game_is_written_as_a_bonanza_file(data, capsys):
    store, _ = open_store(data)
    try:
        rec = store.record_game(solo_log(3, meta={"seeded": True, "seed_text": "abc"}),
                                played_at="2024-05-01T12:34:56.789Z")
        stop = store.record_game(given_up_log(4))
        assert rec.file == os.path.join(data, "games", os.path.basename(rec.file))
        name = os.path.basename(rec.file)
        assert name.startswith("2024-05-01_123456_solo-seeded_bonanza_") and name.endswith(".bonanza")
        assert f"_{rec.score}_" in name
        with open(rec.file, "rb") as f:
            assert f.read() == store.game_log(rec.id)
        assert stat.S_IMODE(os.stat(rec.file).st_mode) == 0o666 & ~_umask()
        assert not [n for n in os.listdir(os.path.join(data, "games")) if not n.endswith(".bonanza")]
        assert stop.file is None                                # only finished games
        # recording the same bytes again: the same game, the same one file
        again = store.record_game(store.game_log(rec.id))
        assert again.id == rec.id and again.file == rec.file
        assert len(os.listdir(os.path.join(data, "games"))) == 1
        assert store.history()[1].file == rec.file
    finally:
        store.close()
    assert cli.main(["verify", rec.file]) == 0
    assert "VALID" in capsys.readouterr().out
    store, notices = open_store(data)
    try:
        assert notices == [] and store.game(rec.id).file == rec.file
    finally:
        store.close()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_a_store_that_cannot_write_files_keeps_the_game_and_says_so_once(data):
    os.makedirs(data)
    with open(os.path.join(data, "games"), "w") as f:   # a file where the folder should be
        f.write("in the way")
    store, _ = open_store(data)
    try:
        a = store.record_game(solo_log(1))
        assert a.file is None and store.game(a.id) is not None
        notice = store.take_file_notice()
        assert notice.code == "store.files_unwritable" and notice.key == "store.files_unwritable"
        assert notice.params["path"] == os.path.join(data, "games") and "kept" in notice.message
        b = store.record_game(solo_log(2))
        assert b.file is None and store.take_file_notice() is None   # once a session
        assert [h.id for h in store.history()] == [b.id, a.id]
    finally:
        store.close()
    # once the folder can be written, recording the game again writes its file
    os.remove(os.path.join(data, "games"))
    store, _ = open_store(data)
    try:
        assert os.path.isfile(store.record_game(store.game_log(a.id)).file)
    finally:
        store.close()


def test_a_damaged_file_link_is_rebuilt_from_the_game_row(data):
    store, _ = open_store(data)
    rec = store.record_game(solo_log(5))
    store.close()
    conn = sqlite3.connect(os.path.join(data, "bonanza.db"))
    conn.execute("UPDATE game_files SET path = 'games/elsewhere.bonanza'")
    conn.commit()
    conn.close()
    store, notices = open_store(data)
    try:
        assert [n.code for n in notices] == ["store.repaired"]
        assert store.game(rec.id).file == rec.file
    finally:
        store.close()


def test_a_changed_status_is_noticed_and_rebuilt_from_the_log(data):
    store, _ = open_store(data)
    stop = store.record_game(given_up_log(6))
    store.close()
    conn = sqlite3.connect(os.path.join(data, "bonanza.db"))
    conn.execute("UPDATE games SET status = 'finished' WHERE id = ?", (stop.id,))
    conn.commit()
    conn.close()
    store, notices = open_store(data)
    try:
        assert [n.code for n in notices] == ["store.repaired"]
        assert store.game(stop.id).status == "gave_up" and store.best("bonanza") is None
    finally:
        store.close()


def test_a_version_3_file_migrates_statuses_categories_and_best_flags(data):
    store, _ = open_store(data)
    stop = store.record_game(given_up_log(7))
    seeded = store.record_game(solo_log(8, meta={"seeded": True, "seed_text": "s 8"}))
    store.close()
    path = os.path.join(data, "bonanza.db")
    # turn the file into version 3 as it shipped: no v4 columns or table, rows sealed
    # over the v3 columns, and a given-up game that counted as the first best
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP INDEX games_by_category")
    conn.execute("DROP TABLE game_files")
    for col in ("status", "category", "seed_text"):
        conn.execute(f"ALTER TABLE games DROP COLUMN {col}")
    conn.execute("UPDATE games SET new_best = 1, previous_best = NULL WHERE id = ?", (stop.id,))
    conn.execute("UPDATE games SET new_best = 0, previous_best = ? WHERE id = ?",
                 (stop.score, seeded.id))
    schema.seal_all(conn, "games", schema.ROW_SUM_COLS_V3["games"])
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    store, notices = open_store(data)
    try:
        assert [n.code for n in notices] == ["store.migrated"]
        assert notices[0].params["from"] == 3 and notices[0].params["to"] == 4
        old = {h.id: h for h in store.history()}
        assert old[stop.id].status == "gave_up" and not old[stop.id].new_best
        assert old[seeded.id].category == "seeded" and old[seeded.id].seed_text == "s 8"
        assert old[seeded.id].new_best and old[seeded.id].previous_best is None
        assert store.stats()["games"] == 1 and store.stats()["gave_up"] == 1
    finally:
        store.close()
    store, notices = open_store(data)
    try:
        assert notices == []
    finally:
        store.close()


def test_salvage_keeps_each_games_file(data, tmp_path):
    store, _ = open_store(data)
    recs = [store.record_game(solo_log(i), played_at=f"2024-06-0{i + 1}T10:00:00Z") for i in range(3)]
    store.close()
    moved = str(tmp_path / "moved.db")
    shutil.copy(os.path.join(data, "bonanza.db"), moved)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(os.path.join(data, "bonanza.db" + suffix)):
            os.remove(os.path.join(data, "bonanza.db" + suffix))
    store, _ = open_store(data)
    try:
        assert salvage(moved, store) == 3
        files = {h.played_at: h.file for h in store.history()}
        assert files == {r.played_at: r.file for r in recs}
        assert len(os.listdir(os.path.join(data, "games"))) == 3   # linked, not written again
    finally:
        store.close()


def test_salvage_reads_the_played_time_of_a_version_3_file(data, tmp_path):
    from bonanza.client.store.salvage import _from_sqlite
    store, _ = open_store(data)
    store.record_game(solo_log(1), played_at="2024-07-01T10:00:00Z")
    store.close()
    path = os.path.join(data, "bonanza.db")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP INDEX games_by_category")
    for col in ("status", "category", "seed_text"):
        conn.execute(f"ALTER TABLE games DROP COLUMN {col}")
    schema.seal_all(conn, "games", schema.ROW_SUM_COLS_V3["games"])
    conn.close()
    _profile, logs, _daily = _from_sqlite(path)
    assert [at for at, _log in logs] == ["2024-07-01T10:00:00.000Z"]


def test_the_records_command_prints_each_category_apart_labelled_self_dealt(data, capsys):
    store, _ = open_store(data)
    store.record_game(solo_log(1, policy=play_greedy_upper))
    store.record_game(solo_log(2, meta={"seeded": True, "seed_text": "speedrun 1"}))
    store.record_game(given_up_log(3))
    store.record_game(daily_log("2024-03-03"))
    store.close()
    assert cli.main(["records", "--data", data, "--history", "5"]) == 0
    out = capsys.readouterr().out
    assert "bonanza / random seed (self-dealt)" in out
    assert "bonanza / set seed (self-dealt)" in out and "speedrun 1" in out
    assert "yacht / daily (self-dealt)" in out
    assert "gave up" in out and "given up 1" in out
    random_part = out.split("bonanza / random seed")[1].split("bonanza / set seed")[0]
    assert "speedrun 1" not in random_part
