"""The offline daily: public dice from the date, yacht rules, one attempt per day locally."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from test_store_helpers import play_first_box

from bonanza.client import daily
from bonanza.client.store import DailyAlreadyPlayed, open_store
from bonanza.client.store.records import finish_and_record
from bonanza.core.match import Match


@pytest.fixture
def store(tmp_path):
    s, notices = open_store(str(tmp_path / "data"))
    assert notices == []
    yield s
    s.close()


def test_today_is_the_utc_date():
    assert daily.today_utc(datetime(2024, 3, 1, 23, 30, tzinfo=timezone.utc)) == "2024-03-01"
    late_in_lisbon_summer = datetime(2024, 7, 1, 0, 30, tzinfo=timezone(timedelta(hours=1)))
    assert daily.today_utc(late_in_lisbon_summer) == "2024-06-30"
    assert daily.today_utc(datetime(2024, 3, 1, 12, 0)) == "2024-03-01"
    assert len(daily.today_utc()) == 10


def test_same_date_same_dice_for_every_player(tmp_path):
    stores = [open_store(str(tmp_path / n))[0] for n in ("ana", "bram")]
    try:
        games = [daily.start_offline_daily(s, name, "2024-04-04")
                 for s, name in zip(stores, ("Ana", "Bram"))]
        for m in games:
            assert isinstance(m, Match)
            assert m.setup.ruleset == "yacht"
            assert m.log.header["mode"] == "daily"
            assert m.log.header["dice"] == {"scheme": "public", "date": "2024-04-04"}
        for m in games:
            play_first_box(m)
        rolls = [[r["move"]["dice"] for r in m.log.records if r["move"]["type"] == "roll"]
                 for m in games]
        assert rolls[0] == rolls[1]
        other = Match.create_daily("2024-04-05", "Ana")
        other.roll()
        assert other.state.dice != tuple(rolls[0][0])
    finally:
        for s in stores:
            s.close()


def test_second_attempt_is_refused_locally(store, tmp_path):
    date = "2024-04-04"
    assert store.daily_status(date) == "available"
    assert daily.status_key(store, date) is None
    m = daily.start_offline_daily(store, "Ana", date)
    assert isinstance(m, Match)
    assert store.daily_status(date) == "in_progress"
    # quitting mid-game does not give the attempt back
    assert daily.start_offline_daily(store, "Ana", date) == "daily_already_played"
    play_first_box(m)
    rec = finish_and_record(store, m, duration_ms=42_000)
    assert rec.mode == "daily" and rec.date == date and rec.ruleset == "yacht"
    assert store.daily_status(date) == "played"
    assert daily.start_offline_daily(store, "Ana", date) == daily.REFUSAL_ALREADY_PLAYED
    assert daily.status_key(store, date) == daily.ALREADY_PLAYED_KEY == "daily.already_played"
    assert store.begin_daily(date) is False
    # the next day is open again
    assert isinstance(daily.start_offline_daily(store, "Ana", "2024-04-05"), Match)


def test_refusal_survives_a_restart(tmp_path):
    data = str(tmp_path / "data")
    s, _ = open_store(data)
    assert isinstance(daily.start_offline_daily(s, "Ana", "2024-04-04"), Match)
    s.close()
    s, _ = open_store(data)
    try:
        assert daily.start_offline_daily(s, "Ana", "2024-04-04") == "daily_already_played"
    finally:
        s.close()


def test_a_second_daily_game_for_a_played_date_is_not_recorded(store):
    first = daily.start_offline_daily(store, "Ana", "2024-04-04")
    play_first_box(first)
    finish_and_record(store, first, 1000)
    second = Match.create_daily("2024-04-04", "Ana")   # bypassing start_offline_daily
    play_first_box(second)
    second.finish({"duration_ms": 5})
    with pytest.raises(DailyAlreadyPlayed):
        store.record_game(second.log.to_bytes())
    assert len(store.history(mode="daily")) == 1


def test_explanation_is_given_as_keys():
    assert daily.EXPLAIN_KEY == "daily.explain"
    assert daily.explain_keys()[0] == "daily.explain"


def test_bad_dates_are_rejected(store):
    for bad in ("2024-4-4", "tomorrow", "2024-02-30"):
        with pytest.raises(ValueError):
            daily.start_offline_daily(store, "Ana", bad)
    assert store.history() == []


def test_a_relay_daily_does_not_use_the_offline_attempt(store):
    from bonanza.core.game import Seat
    relay_game = Match.create("yacht", [Seat("Ana")], b"r" * 32, mode="daily",
                              meta={"date": "2024-04-04"})
    play_first_box(relay_game)
    rec = finish_and_record(store, relay_game, 1000)
    assert rec.mode == "daily" and rec.date == "2024-04-04" and rec.seed == (b"r" * 32).hex()
    assert store.daily_status("2024-04-04") == "available"


def test_daily_score_is_the_days_attempt(store):
    m = daily.start_offline_daily(store, "Ana", "2024-04-04")
    assert store.daily_score("2024-04-04") is None
    play_first_box(m)
    rec = finish_and_record(store, m, 1000)
    assert store.daily_score("2024-04-04") == rec.score
    assert store.daily_score("2024-04-05") is None
