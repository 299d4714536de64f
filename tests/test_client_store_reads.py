"""Screens read the store when they open (or when their data changes), never once per
frame: a SQLite query in ``draw`` runs 20-60 times a second."""
from __future__ import annotations

import pytest


def _count_queries(store, monkeypatch) -> list:
    calls = []
    real = store._query

    def counting(sql, params=()):
        calls.append(sql)
        return real(sql, params)

    monkeypatch.setattr(store, "_query", counting)
    return calls


def _finished_daily(store, date):
    from bonanza.client.daily import start_offline_daily
    from bonanza.client.store.records import finish_and_record
    m = start_offline_daily(store, "Player", date)
    while not m.state.over:
        m.roll([False] * 5)
        m.write(m.state.sheets[0].free_boxes()[0])
    return finish_and_record(store, m, 1000)


@pytest.mark.parametrize("which", ["solo_setup", "daily", "records", "results"])
def test_frames_do_not_query_the_store(app, monkeypatch, which):
    from bonanza.client.daily import today_utc
    from bonanza.client.scenes.daily import DailyScene
    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.scenes.results import ResultsScene
    from bonanza.client.scenes.solo_setup import SoloSetupScene
    store = app.profile.store
    _finished_daily(store, today_utc())
    if which == "results":
        from bonanza.client.solo import new_solo_match
        from bonanza.client.store.records import finish_and_record
        m = new_solo_match("Player", seed_text="01" * 32)
        while not m.state.over:
            m.roll([False] * 5)
            m.write(m.state.sheets[0].free_boxes()[0])
        rec = finish_and_record(store, m, 1000)
        scene = ResultsScene.from_match(app, m, 1.0, record=rec)
    else:
        scene = {"solo_setup": SoloSetupScene, "daily": DailyScene, "records": RecordsScene}[which](app)
    app.push(scene)
    app.step()
    calls = _count_queries(store, monkeypatch)
    for _ in range(10):
        app.step()
    assert calls == []


def test_daily_screen_reads_the_attempt_again_after_play(app):
    from bonanza.client.daily import today_utc
    from bonanza.client.scenes.daily import DailyScene
    app.push(DailyScene(app))
    app.step()
    assert app.scene.status() == "available"
    _finished_daily(app.profile.store, today_utc())   # e.g. played in another window
    app.scene.on_press("play")                        # refused: the screen now says so
    assert app.scene.status() == "played"
    # the button no longer deals a second attempt: it copies the day's share
    assert app.scene.share() is not None
    app.scene.on_press("play")
    assert type(app.scene).__name__ == "DailyScene" and app.scene.status() == "played"
