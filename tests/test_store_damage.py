"""Damage SQLite does not see (a flipped byte inside a row or a replay, a file cut by one
byte, an emptied file) is noticed at start and kept out of bests and statistics."""
from __future__ import annotations

import os
import random
import shutil
import sqlite3

import pytest
from test_store_helpers import solo_log

from bonanza.client.store import open_store
from bonanza.client.store.records import RecordError, export_record
from bonanza.core.verify import verify_bytes

N_GAMES = 6


def fill(data: str, n: int = N_GAMES) -> list:
    store, notices = open_store(data)
    assert notices == []
    store.save_profile(name="Chloé", language="fr")
    recs = [store.record_game(solo_log(i), played_at=f"2024-05-{i + 1:02d}T12:00:00Z")
            for i in range(n)]
    store.begin_daily("2024-05-20")
    store.close()
    return recs


def codes(notices) -> list[str]:
    return [n.code for n in notices]


def snapshot(store) -> dict:
    games = store.history(limit=1000)
    return {
        "games": [(g.id, g.score, g.played_at, g.seed, g.damaged) for g in games],
        "logs_ok": all(verify_bytes(store.game_log(g.id)).ok for g in games),
        "best": store.best("bonanza"), "stats": store.stats(),
        "board": [g.id for g in store.personal_bests("bonanza", limit=100)],
        "profile": store.profile(), "daily": store.daily_attempts(),
    }


def test_a_flipped_byte_in_a_replay_is_noticed_and_kept_out_of_bests(tmp_path):
    data = str(tmp_path)
    recs = fill(data)
    top = max(recs, key=lambda r: r.score)
    second = max(r.score for r in recs if r.id != top.id)
    assert second < top.score   # the damage must be visible in the best
    path = os.path.join(data, "bonanza.db")
    raw = bytearray(open(path, "rb").read())
    log = solo_log(recs.index(top))
    at = raw.find(log)
    assert at > 0
    raw[at + len(log) // 2] ^= 0x04
    open(path, "wb").write(bytes(raw))
    shutil.rmtree(os.path.join(data, "games"))   # no sound copy left to heal it (below)

    store, notices = open_store(data)
    try:
        assert codes(notices) == ["store.damaged_games"]
        assert notices[0].params["damaged"] == 1 and "damaged" in notices[0].message
        assert notices[0].key == "store.damaged_games"
        hist = {g.id: g for g in store.history(limit=100)}
        assert len(hist) == N_GAMES and hist[top.id].damaged   # still listed, marked
        assert store.best("bonanza") == second
        assert store.stats()["games"] == N_GAMES - 1
        assert top.id not in [g.id for g in store.personal_bests("bonanza", limit=100)]
        with pytest.raises(RecordError) as e:
            export_record(store, top.id, str(tmp_path / "x.bonanza"))
        assert e.value.code == "damaged"
        # a sound copy of the same game (an exported file, a backup) heals it
        healed = store.record_game(log)
        assert healed.id == top.id and healed.damaged is None
        assert store.best("bonanza") == top.score
    finally:
        store.close()
    store, notices = open_store(data)
    assert notices == [] and store.best("bonanza") == top.score
    store.close()


def test_a_changed_score_is_rebuilt_from_its_replay(tmp_path):
    data = str(tmp_path)
    recs = fill(data)
    conn = sqlite3.connect(os.path.join(data, "bonanza.db"))
    conn.execute("UPDATE games SET score = 999 WHERE id = ?", (recs[0].id,))  # checksum untouched
    conn.commit()
    conn.close()
    store, notices = open_store(data)
    try:
        assert codes(notices) == ["store.repaired"]
        assert store.game(recs[0].id).score == recs[0].score
        assert store.best("bonanza") == max(r.score for r in recs)
    finally:
        store.close()


def test_a_damaged_daily_date_is_reported_not_trusted(tmp_path):
    data = str(tmp_path)
    fill(data)
    conn = sqlite3.connect(os.path.join(data, "bonanza.db"))
    conn.execute("UPDATE daily_attempts SET date = '2024- 5-20'")
    conn.commit()
    conn.close()
    store, notices = open_store(data)
    try:
        assert codes(notices) == ["store.damaged_entries"]
    finally:
        store.close()


@pytest.mark.parametrize("cut", [1, 0])
def test_a_file_cut_by_one_byte_or_emptied_is_noticed(tmp_path, cut):
    data = str(tmp_path)
    recs = fill(data)
    path = os.path.join(data, "bonanza.db")
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 1 if cut else 0)
    store, notices = open_store(data)
    try:
        # a replay that ended in the lost byte comes back from its .bonanza file
        assert codes(notices)[0] == "store.corrupt_moved"
        assert set(codes(notices)[1:]) <= {"store.healed"}
        reason = notices[0].params["reason"]
        assert ("cut short" in reason) if cut else ("empty" in reason)
        assert notices[0].params["recovered"] == N_GAMES
        if cut:
            kept = store.history(limit=100)
            assert all(verify_bytes(store.game_log(g.id)).ok for g in kept)
            assert store.best("bonanza") == max(r.score for r in recs
                                                if r.seed in {g.seed for g in kept})
            assert store.profile()["name"] == "Chloé"
            assert store.daily_status("2024-05-20") == "in_progress"
    finally:
        store.close()


def test_random_byte_flips_are_noticed_or_harmless(tmp_path):
    """Flip 1-10 random bytes of a real file, 60 times: each start either says something
    or shows exactly what was saved."""
    pristine = str(tmp_path / "pristine")
    fill(pristine, 8)
    store, _ = open_store(pristine)
    want = snapshot(store)
    store.close()
    rng = random.Random(16)
    told, silent_equal = 0, 0
    for trial in range(60):
        data = str(tmp_path / f"t{trial}")
        shutil.copytree(pristine, data)
        path = os.path.join(data, "bonanza.db")
        raw = bytearray(open(path, "rb").read())
        for _ in range(rng.randint(1, 10)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        open(path, "wb").write(bytes(raw))
        store, notices = open_store(data)
        try:
            if notices:
                told += 1
                # whatever is still counted is sound
                for g in store.personal_bests("bonanza", limit=100):
                    assert verify_bytes(store.game_log(g.id)).ok
            else:
                assert snapshot(store) == want, f"trial {trial}: silent damage"
                silent_equal += 1
        finally:
            store.close()
        shutil.rmtree(data)
    print(f"byte flips: {told} noticed, {silent_equal} harmless (nothing changed)")
    assert told + silent_equal == 60 and told > 0


def test_a_flipped_byte_in_a_replay_is_healed_by_the_games_own_file(tmp_path):
    data = str(tmp_path)
    recs = fill(data)
    top = max(recs, key=lambda r: r.score)
    path = os.path.join(data, "bonanza.db")
    raw = bytearray(open(path, "rb").read())
    log = solo_log(recs.index(top))
    at = raw.find(log)
    raw[at + len(log) // 2] ^= 0x04
    open(path, "wb").write(bytes(raw))
    store, notices = open_store(data)
    try:
        assert codes(notices) == ["store.repaired"]
        assert store.game(top.id).damaged is None
        assert store.game_log(top.id) == log
        assert store.best("bonanza") == top.score
    finally:
        store.close()
    store, notices = open_store(data)
    assert notices == []
    store.close()
