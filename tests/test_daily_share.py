"""The daily after it is played: a spoiler-free share, the streak, the countdown."""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone

import pygame
import pytest

from bonanza.client import daily
from bonanza.client.store.records import finish_and_record
from bonanza.core.simulate import play_bot_turn
from tests.pilot import key

SYMBOLS = {daily.SHARE_SCRATCHED, daily.SHARE_FAIR, daily.SHARE_GOOD, daily.SHARE_TOP}


def play_daily(store, date):
    m = daily.start_offline_daily(store, "Ana", date)
    while m.state.active is not None:
        play_bot_turn(m, "casual")
    return finish_and_record(store, m, duration_ms=60_000), m


def test_streak_counts_days_in_a_row_and_waits_for_today():
    days = ["2026-12-01", "2026-11-30", "2026-11-28"]
    assert daily.streak(days, "2026-12-01") == 2
    assert daily.streak(days, "2026-12-02") == 2          # today still to play: not lost yet
    assert daily.streak(days, "2026-12-03") == 0
    assert daily.streak(["2026-12-02"] + days, "2026-12-02") == 3
    assert daily.streak([], "2026-12-02") == 0


def test_next_daily_is_the_next_utc_midnight():
    now = datetime(2026, 12, 2, 22, 30, 15, tzinfo=timezone.utc)
    seconds, start = daily.next_daily(now)
    assert start == datetime(2026, 12, 3, tzinfo=timezone.utc) and seconds == 5385
    # the same moment said in another zone is the same countdown
    later = now.astimezone(timezone(timedelta(hours=-5)))
    assert daily.next_daily(later) == (seconds, start)
    assert daily.next_daily(datetime(2026, 12, 3, tzinfo=timezone.utc))[0] == 86400


def test_share_says_how_each_box_went_not_the_dice(tmp_path):
    from bonanza.client.store import open_store
    store, _ = open_store(str(tmp_path / "data"))
    try:
        date = "2026-12-02"
        assert daily.daily_share(store, date) is None
        rec, m = play_daily(store, date)
        share = daily.daily_share(store, date)
        assert share is not None and share.score == rec.score and share.date == date
        assert len(share.symbols) == 13 and set(share.symbols) <= SYMBOLS and share.upper == 6
        log = store.game_log(rec.id)
        assert share.short_hash == hashlib.sha256(log).hexdigest()[:8]
        text = share.text(lambda k, **kw: f"{k} {kw}")
        lines = text.split("\n")
        assert len(lines) == 4 and set(lines[1] + lines[2]) <= SYMBOLS
        sheet = m.state.sheets[0]
        for box, sym in zip(m.state.ruleset.sheet, share.symbols):
            assert (sym == daily.SHARE_SCRATCHED) == (sheet.get(box.name) == 0)
        # an unreadable log gives no share, never an error
        assert daily.share_from_log(b"not a log", date) is None
    finally:
        store.close()


def test_daily_screen_shares_by_key_and_shows_streak_and_countdown(app, artifacts):
    from bonanza.client.scenes.daily import DailyScene
    store = app.profile.store
    today = daily.today_utc()
    yesterday = (datetime.fromisoformat(today) - timedelta(days=1)).date().isoformat()
    play_daily(store, yesterday)
    play_daily(store, today)
    scene = DailyScene(app)
    app.push(scene)
    app.step(1 / 60)
    share = scene.share()
    assert share is not None and scene._streak == 2
    assert scene.button_enabled("play")
    assert scene.widget("play").text() == scene.t("daily.share_copy")
    key(app, pygame.K_c)
    assert pygame.scrap.get_text() == share.text(scene.t)
    assert share.date == today and share.text(scene.t).startswith(scene.t("daily.share_line", date=today,
                                                                          score=share.score))
    scene._par = daily.par(today)        # as when the advisor has loaded in the background
    app.draw()
    app.screenshot(artifacts / "client_daily_share.png")


@pytest.mark.parametrize("code", ["pt-PT", "fr", "nl"])
def test_daily_share_screen_fits_in_languages(app, artifacts, code):
    from bonanza.client import widgets
    from bonanza.client.scenes.daily import DailyScene
    play_daily(app.profile.store, daily.today_utc())
    app.apply_window((960, 540))
    app.set_language(code)
    app.push(DailyScene(app))
    widgets.FIT_REPORT.clear()
    app.draw()
    from bonanza.client import theme
    bad = [r for r in widgets.FIT_REPORT if r[2] > r[3] + 1 or r[1] < theme.MIN_READABLE_PX]
    app.screenshot(artifacts / f"client_960_{code}_daily_share.png")
    assert not bad, bad


def test_par_is_the_perfect_bot_on_the_days_dice():
    from bonanza.core.match import Match
    from bonanza.core.simulate import play_bot_turn
    p = daily.par("2026-12-02")
    assert p == daily.par("2026-12-02")          # the same for everyone
    # the perfect bot meets the day's dice as a player would: the same Match, the same key
    m = Match.create_daily("2026-12-02", "Ana")
    while m.state.active is not None:
        play_bot_turn(m, "optimal")
    assert p == m.state.sheets[0].total(m.state.ruleset) and 0 < p <= 375
