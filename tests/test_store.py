"""The account store on real SQLite files: API, bests across restarts, stats, boards."""
from __future__ import annotations

import os
import sqlite3

import pytest
from test_store_helpers import count_five_equal, daily_log, final_state, play_greedy_upper, solo_log

from bonanza.client.store import GameRecord, Notice, Store, open_store


@pytest.fixture
def data_dir(tmp_path):
    return str(tmp_path / "data")


def opened(data_dir):
    store, notices = open_store(data_dir)
    assert notices == []
    assert store.persistent
    return store


def test_new_store_is_a_wal_file_in_the_given_folder(data_dir):
    store = opened(data_dir)
    try:
        assert store.path == os.path.join(data_dir, "bonanza.db")
        assert os.path.isfile(store.path)
        mode = store._conn.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
        assert store.history() == [] and store.best("bonanza") is None
    finally:
        store.close()


def test_env_var_chooses_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BONANZA_DATA_DIR", str(tmp_path / "env"))
    store, notices = open_store()
    try:
        assert notices == []
        assert store.path == str(tmp_path / "env" / "bonanza.db")
    finally:
        store.close()


def test_profile_partial_updates_survive_restart(data_dir):
    store = opened(data_dir)
    assert store.profile() == {"name": "Player", "language": None, "settings": {}}
    store.save_profile(name="Ana")
    store.save_profile(language="pt-PT", settings={"volume": 3, "hints": True})
    store.save_profile(settings={"hints": None, "fullscreen": False})
    store.close()
    store = opened(data_dir)
    try:
        assert store.profile() == {"name": "Ana", "language": "pt-PT",
                                   "settings": {"volume": 3, "fullscreen": False}}
        store.save_profile(language="")
        assert store.profile()["language"] is None
        with pytest.raises(ValueError):
            store.save_profile(name="   ")
    finally:
        store.close()


def test_best_score_survives_a_restart_and_new_best_is_reported(data_dir):
    logs = [solo_log(i) for i in range(6)]
    scores = [final_state(b).total(0) for b in logs]
    store = opened(data_dir)
    best = None
    for log, score in zip(logs, scores):
        rec = store.record_game(log)
        assert isinstance(rec, GameRecord)
        assert rec.score == score and rec.mode == "solo" and rec.ruleset == "bonanza"
        assert rec.new_best == (best is None or score > best)
        assert rec.previous_best == best
        best = score if best is None else max(best, score)
    store.close()
    store = opened(data_dir)
    try:
        assert store.best("bonanza") == best == max(scores)
        assert store.best("bonanza", "daily") is None
        assert store.best("yacht") is None
    finally:
        store.close()


def test_record_extracts_duration_seed_bonus_and_bonanzas(data_dir):
    log = solo_log(4, duration_ms=83_456, policy=play_greedy_upper)
    state = final_state(log)
    store = opened(data_dir)
    try:
        rec = store.record_game(log, played_at="2024-03-01T10:00:00Z")
        assert rec.duration_ms == 83_456
        assert rec.seed == (4).to_bytes(4, "big").hex() * 8
        assert rec.upper_bonus == (state.sheets[0].upper_sum >= 63) is True
        assert rec.bonanzas == count_five_equal(log) == 1
        assert rec.played_at == "2024-03-01T10:00:00.000Z"
        assert rec.date is None
        assert store.game_log(rec.id) == log
        no_time = store.record_game(solo_log(5, duration_ms=None))
        assert no_time.duration_ms is None
    finally:
        store.close()


def test_unverifiable_or_unfinished_logs_are_refused(data_dir):
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    good = bytearray(solo_log(1))
    good[-40] ^= 1
    m = Match.create("bonanza", [Seat("me")], b"x" * 32, mode="solo")
    m.roll()
    store = opened(data_dir)
    try:
        for bad in (bytes(good), m.log.to_bytes(), b"", b"garbage"):
            with pytest.raises(ValueError):
                store.record_game(bad)
        assert store.history() == []
    finally:
        store.close()


def test_recording_the_same_log_twice_keeps_one_game(data_dir):
    store = opened(data_dir)
    try:
        log = solo_log(2)
        a = store.record_game(log)
        b = store.record_game(log)
        assert a.id == b.id
        assert len(store.history()) == 1
    finally:
        store.close()


def test_history_stats_and_personal_best_board(data_dir):
    store = opened(data_dir)
    try:
        logs = [solo_log(i, duration_ms=100_000 - i) for i in range(5)]
        recs = [store.record_game(b, played_at=f"2024-01-0{i + 1}T00:00:00Z")
                for i, b in enumerate(logs)]
        # the same dice as game 0 played faster: equal score, ranks ahead of game 0
        twin = solo_log(0, duration_ms=50_000)
        recs.append(store.record_game(twin, played_at="2024-01-09T00:00:00Z"))
        recs.append(store.record_game(daily_log("2024-01-07"), played_at="2024-01-07T00:00:00Z"))
        hist = store.history()
        assert [r.id for r in hist] == [recs[5].id, recs[6].id] + [r.id for r in recs[4::-1]]
        assert [r.id for r in store.history(mode="daily")] == [recs[6].id]
        assert len(store.history(limit=2)) == 2
        solo = recs[:6]
        st = store.stats(ruleset="bonanza", mode="solo")
        assert st["games"] == 6
        assert st["best"] == max(r.score for r in solo)
        assert st["average"] == round(sum(r.score for r in solo) / 6, 1)
        assert st["upper_bonus"] == sum(r.upper_bonus for r in solo)
        assert st["bonanzas"] == sum(r.bonanzas for r in solo)
        assert store.stats()["games"] == 7
        board = store.personal_bests("bonanza", "solo", limit=3)
        expect = sorted(solo, key=lambda r: (-r.score, r.duration_ms, r.id))[:3]
        assert [r.id for r in board] == [r.id for r in expect]
        full = store.personal_bests("bonanza", "solo", limit=10)
        assert full.index(recs[5]) == full.index(recs[0]) - 1
        assert store.personal_bests("yacht", "daily")[0].date == "2024-01-07"
    finally:
        store.close()


def test_unwritable_folder_falls_back_to_memory_with_a_plain_notice(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store, notices = open_store(str(blocker / "data"))
    try:
        assert not store.persistent
        assert [n.code for n in notices] == ["store.unwritable"]
        code, params = notices[0]
        assert params["path"] == str(blocker / "data")
        assert "nothing will be saved" in notices[0].message
        assert notices[0].key == "error.data_not_writable"
        rec = store.record_game(solo_log(3))   # the game still runs
        assert store.best("bonanza") == rec.score
    finally:
        store.close()


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="permissions do not apply to root")
def test_read_only_folder_keeps_the_saved_games_visible(data_dir):
    store = opened(data_dir)
    rec = store.record_game(solo_log(1))
    store.close()
    os.chmod(data_dir, 0o500)
    try:
        store, notices = open_store(data_dir)
        assert [n.code for n in notices] == ["store.unwritable"]
        assert store.best("bonanza") == rec.score
        store.close()
    finally:
        os.chmod(data_dir, 0o700)


def test_a_newer_schema_is_left_untouched(data_dir):
    store = opened(data_dir)
    store.record_game(solo_log(1))
    store.close()
    path = os.path.join(data_dir, "bonanza.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = open(path, "rb").read()
    store, notices = open_store(data_dir)
    try:
        assert [n.code for n in notices] == ["store.newer_version"]
        assert not store.persistent
    finally:
        store.close()
    assert open(path, "rb").read() == before


def test_notice_unpacks_as_code_and_params():
    n = Notice("store.corrupt_moved", {"path": "/x.corrupt", "recovered": 2})
    code, params = n
    assert code == "store.corrupt_moved" and params["path"] == "/x.corrupt"
    assert "/x.corrupt" in n.message and "2" in n.message


def test_store_type_is_exported():
    assert Store.__name__ == "Store"


def test_played_at_is_normalised_to_utc(data_dir):
    from datetime import datetime, timedelta, timezone
    store = opened(data_dir)
    try:
        a = store.record_game(solo_log(1), played_at="2024-01-01T10:00:00+02:00")
        b = store.record_game(solo_log(2), played_at=datetime(2024, 1, 1, 9, 30,
                                                              tzinfo=timezone(timedelta(hours=1))))
        c = store.record_game(solo_log(3))
        assert a.played_at == "2024-01-01T08:00:00.000Z"
        assert b.played_at == "2024-01-01T08:30:00.000Z"
        assert c.played_at.endswith("Z")
        with pytest.raises(ValueError):
            store.record_game(solo_log(4), played_at="yesterday")
    finally:
        store.close()
