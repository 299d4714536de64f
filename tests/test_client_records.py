"""The client on top of the account store: start-up notices in the player's language,
the daily screen's own score, the end of a game through ``finish_and_record`` (run
time in the log), store problems shown as toasts, and the Records scene."""
from __future__ import annotations

import os
import re

import pygame
import pytest

from bonanza.client import i18n, lang
from bonanza.client.actions import Action
from bonanza.client.store import records as store_records
from tests.pilot import click, key

LANGS = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")
NOTICE_CODES = ("store.corrupt_moved", "store.unwritable", "store.newer_version", "store.migrated")


def play_out(match, policy="first"):
    """Finish a core Match: roll once, write the first free box (or the best preview)."""
    from bonanza.core.rules import preview
    while not match.state.over:
        match.roll([False] * 5)
        st = match.state
        free = st.sheets[0].free_boxes()
        if policy == "best":
            p = preview(st.ruleset, st.sheets[0], st.dice)
            box = max(free, key=lambda b: p.get(b, 0))
        else:
            box = free[0]
        _, refusal = match.write(box)
        if refusal:  # a joker forcing another box
            from bonanza.core.game import allowed
            match.write(sorted(allowed(match.state))[0])
    return match


def drive_solo_scene(app, scene, policy="first"):
    """Play a solo scene to its end through the scene's own moves (the run timer runs)."""
    from bonanza.core.game import allowed
    from bonanza.core.rules import preview
    app.push(scene)
    while not scene.state.over:
        scene.send_roll([False] * 5)
        app.step(0.5)
        st = scene.state
        ok = list(allowed(st))
        if policy == "best":
            p = preview(st.ruleset, st.sheets[0], st.dice)
            ok.sort(key=lambda b: -p.get(b, 0))
        elif policy == "last":
            ok.reverse()
        scene.send_write(ok[0])
    app.step(0.1)
    return app.scene


# ------------------------------------------------------------------ 1a: notices

@pytest.mark.parametrize("code", NOTICE_CODES)
def test_every_store_notice_has_its_key_in_six_languages(code):
    from bonanza.client.store import Notice
    key = Notice(code, {}).key
    assert key != "error.generic", code
    for lng in LANGS:
        assert key in i18n.all_keys(lng), (lng, key)


@pytest.mark.parametrize("lng", LANGS)
def test_store_notice_is_shown_translated_never_as_a_code(lng):
    from bonanza.client.profile import Profile
    from bonanza.client.store import Notice
    prof = Profile.__new__(Profile)
    prof.notices = [Notice("store.corrupt_moved", {"path": "/d/bonanza.db.corrupt-1", "original": "/d/bonanza.db",
                                                   "recovered": 7, "reason": "x"}),
                    Notice("store.unwritable", {"path": "/ro", "reason": "denied"}),
                    Notice("store.newer_version", {"path": "/d/bonanza.db", "version": 9}),
                    Notice("store.migrated", {"path": "/d/bonanza.db", "backup": "/d/bonanza.db.v1-backup",
                                              "from": 1, "to": 2})]
    tr = i18n.Translator(lng)
    texts = prof.notice_texts(tr.t)
    assert texts[0] == tr.t("error.db_corrupt", path="/d/bonanza.db.corrupt-1", recovered=7)
    assert "/d/bonanza.db.corrupt-1" in texts[0] and "7" in texts[0]
    assert texts[1] == tr.t("error.data_not_writable", path="/ro")
    assert texts[2] == tr.t("store.newer_version", path="/d/bonanza.db")
    assert "/d/bonanza.db.v1-backup" in texts[3]
    for text in texts:
        assert not text.startswith(("store.", "error.")), text
        assert "{" not in text, text
    if lng == "en":
        assert "nothing will be saved" in texts[1]


def test_a_damaged_file_shows_a_translated_toast_at_start(data_dirs, monkeypatch):
    from bonanza.client.app import App
    (data_dirs["data"] / "bonanza.db").write_bytes(b"this is not a database" * 500)
    monkeypatch.setenv("BONANZA_LANG", "fr")       # the system language: French
    a = App((1280, 720), data_dir=str(data_dirs["data"]), advisor=False, sound=False)
    try:
        text = a.toast.text
        assert a.toast.visible
        assert text.startswith("Le fichier des parties enregistrées"), text
        assert "store.corrupt_moved" not in text and "{" not in text
        assert "corrupt-" in text
    finally:
        lang.set_language("en")
        pygame.display.quit()


# ------------------------------------------------------------------ 1b: daily score

def test_daily_screen_shows_todays_score_not_the_best_ever(app):
    from bonanza.client import widgets
    from bonanza.client.daily import start_offline_daily, today_utc
    from bonanza.client.scenes.daily import DailyScene
    from bonanza.client.store.records import finish_and_record
    store = app.profile.store
    today = today_utc()
    good = start_offline_daily(store, "Player", "2001-01-01")
    finish_and_record(store, play_out(good, "best"), 1000)
    bad = start_offline_daily(store, "Player", today)
    finish_and_record(store, play_out(bad, "first"), 1000)
    mine = store.daily_score(today)
    assert mine is not None and store.best("yacht", "daily") > mine
    app.push(DailyScene(app))
    widgets.FIT_REPORT.clear()
    app.step()
    shown = [t for t, *_ in widgets.FIT_REPORT]
    assert lang.t("daily.your_score", score=mine) in shown
    assert lang.t("daily.your_score", score=store.best("yacht", "daily")) not in shown


# ------------------------------------------------------------------ 1c: the end of a game

def test_solo_game_end_records_the_run_time_in_the_log(app):
    from bonanza.client.scenes.game import SoloGameScene
    from bonanza.core.verify import verify_bytes
    g = SoloGameScene(app, seed_text="run-time")
    results = drive_solo_scene(app, g)
    assert type(results).__name__ == "ResultsScene"
    ms = int(round(g.run_time * 1000))
    assert ms > 5000
    rec = app.profile.store.history(1)[0]
    assert rec.duration_ms == ms
    assert results.record is not None and results.record.id == rec.id
    log = app.profile.store.game_log(rec.id)
    v = verify_bytes(log)
    assert v.ok
    assert v.log.end["meta"]["duration_ms"] == ms
    assert log == g.match.log.to_bytes()


def test_daily_already_recorded_shows_a_toast_in_the_players_language(app):
    from bonanza.client.daily import start_offline_daily
    from bonanza.client.scenes.game import SoloGameScene
    from bonanza.client.store.records import finish_and_record
    from bonanza.core.match import Match
    store = app.profile.store
    date = "2002-02-02"
    first = start_offline_daily(store, "Player", date)
    finish_and_record(store, play_out(first, "best"), 1234)
    app.set_language("es")
    again = Match.create_daily(date, "Player", meta={"date": date})   # a second try at the same day
    drive_solo_scene(app, SoloGameScene(app, match=again, mode="daily"))
    assert app.toast.visible
    assert app.toast.text == i18n.Translator("es").t("record.daily_already_recorded")
    assert len(store.history(10)) == 1


def test_store_error_at_game_end_shows_a_toast(app, monkeypatch):
    from bonanza.client.scenes.game import SoloGameScene
    from bonanza.client.store import StoreError

    def broken(*a, **k):
        raise StoreError("store.write_failed", "disk I/O error")
    monkeypatch.setattr(app.profile.store, "record_game", broken)
    app.set_language("nl")
    results = drive_solo_scene(app, SoloGameScene(app, seed_text="full-disk"))
    assert type(results).__name__ == "ResultsScene"
    assert app.toast.text == i18n.Translator("nl").t("record.not_saved")
    assert results.verdict is not None and results.verdict.ok     # the game itself still verifies


# ------------------------------------------------------------------ 2: the Records scene

def populate(app):
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    from test_client_scenes import populate_records
    populate_records(app)
    return app.profile.store


def shown_texts(app):
    from bonanza.client import widgets
    widgets.FIT_REPORT.clear()
    app.draw()
    return [t for t, *_ in widgets.FIT_REPORT]


def test_title_menu_has_records_between_verify_and_rules(app):
    from bonanza.client.scenes.title import MENU
    ids = [id for id, _ in MENU]
    assert ids.index("records") == ids.index("verify") + 1 == ids.index("rules") - 1
    title = app.scene
    rects = [w.rect for w in title.widgets if w.id in ids]   # the menu's column (offers sit beside it)
    for a, b in zip(rects, rects[1:]):          # buttons do not overlap each other
        assert a[1] + a[3] <= b[1]
    assert rects[-1][1] + rects[-1][3] <= 660   # nor the footer line (y 668)


def test_records_by_keyboard_replay_and_export(app):
    from bonanza.client.store.records import default_filename, import_record
    store = populate(app)
    from bonanza.client.scenes.title import MENU
    for _ in range([id for id, _ in MENU].index("records")):   # Down from Solo
        key(app, pygame.K_DOWN)
    assert app.scene.focus_id == "records"
    key(app, pygame.K_RETURN)
    rec_scene = app.scene
    assert type(rec_scene).__name__ == "RecordsScene"
    # the first board: random-seed Bonanza games, its statistics and personal bests
    assert rec_scene.tab == "random" and rec_scene.ruleset() == "bonanza"
    texts = shown_texts(app)
    best = store.best("bonanza", "solo", "random")
    st = store.stats("bonanza", "solo", "random")
    assert str(best) in texts and str(st["gave_up"]) in texts and st["gave_up"] == 1
    assert lang.t("records.about.self_dealt").startswith(texts[texts.index(lang.t("records.cat.random")) + 1])
    assert lang.tn("stats.times", st["upper_bonus"]) in texts
    assert lang.t("records.board", ruleset=lang.t("records.ruleset.bonanza")) in texts
    board = rec_scene.entries
    assert [r.score for r in board] == sorted((r.score for r in board), reverse=True)
    assert board[0].score == best
    from bonanza.client.store.records import format_duration
    assert format_duration(board[0].duration_ms) in texts
    # Down, Enter: the second entry's game opens in the replay scene
    key(app, pygame.K_DOWN)
    assert rec_scene.sel == 1
    key(app, pygame.K_RETURN)
    replay = app.scene
    assert type(replay).__name__ == "ReplayScene"
    assert replay.verdict.ok
    assert replay.verdict.log.to_bytes() == store.game_log(board[1].id)
    key(app, pygame.K_ESCAPE)
    assert app.scene is rec_scene
    # Right: the set-seed board, its seeds as typed; Right: the daily's (Yacht only)
    key(app, pygame.K_RIGHT)
    assert rec_scene.tab == "seeded"
    assert {r.category for r in rec_scene.entries} == {"seeded"}
    assert f"“{rec_scene.entries[0].seed_text}”" in shown_texts(app)
    key(app, pygame.K_RIGHT)
    assert rec_scene.tab == "daily" and {r.ruleset for r in rec_scene.entries} == {"yacht"}
    assert "rs:bonanza" not in rec_scene.focus_order()
    # Left three times: the history, every game with its status; then Tab (Replay),
    # Tab (Analysis), Tab: Export; Enter writes the record file
    for _ in range(3):
        key(app, pygame.K_LEFT)
    assert rec_scene.tab == "history"
    assert [r.id for r in rec_scene.entries] == [r.id for r in store.history(50)]
    assert lang.t("history.status.gave_up") in shown_texts(app)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    chosen = rec_scene.selected()
    key(app, pygame.K_TAB)
    key(app, pygame.K_TAB)
    assert rec_scene.focus_id == "analysis"
    key(app, pygame.K_TAB)
    assert rec_scene.focus_id == "export"
    key(app, pygame.K_RETURN)
    path = os.path.join(store.directory, "exports", default_filename(chosen))
    assert os.path.isfile(path)
    assert app.toast.text == lang.t("records.exported", path=path)
    summary = import_record(path)
    assert summary.score == chosen.score and summary.duration_ms == chosen.duration_ms
    key(app, pygame.K_ESCAPE)
    assert type(app.scene).__name__ == "TitleScene"


def test_records_by_mouse(app):
    from bonanza.client.scenes import records as R
    from bonanza.client.scenes.title import TitleScene
    store = populate(app)
    title = app.scene
    click(app, title.widget("records").rect)
    sc = app.scene
    assert type(sc).__name__ == "RecordsScene"
    click(app, sc.widget("tab:seeded").rect)
    assert sc.tab == "seeded"
    click(app, sc.widget("rs:yacht").rect)            # the Yacht board of set-seed runs: empty
    assert sc.ruleset() == "yacht" and sc.entries == []
    click(app, sc.widget("rs:bonanza").rect)
    assert [r.category for r in sc.entries] == ["seeded"] * len(sc.entries) and sc.entries
    click(app, sc.widget("tab:history").rect)
    assert sc.tab == "history"
    row = (R.LIST_X, R.LIST_Y + 3 * R.ROW_H, R.LIST_W, R.ROW_H)
    click(app, row)                                  # first click chooses the row
    assert sc.sel == 3 and app.scene is sc
    click(app, sc.widget("export").rect)
    assert os.path.isfile(os.path.join(store.directory, "exports",
                                       store_records.default_filename(sc.selected())))
    click(app, row)                                  # a second click replays it
    assert type(app.scene).__name__ == "ReplayScene"
    assert app.scene.verdict.log.to_bytes() == store.game_log(sc.entries[3].id)
    click(app, app.scene.widget("back").rect)
    assert app.scene is sc
    click(app, sc.widget("back").rect)
    assert isinstance(app.scene, TitleScene)


def test_records_with_no_games(app):
    from bonanza.client.scenes.records import RecordsScene
    app.push(RecordsScene(app))
    texts = shown_texts(app)
    assert lang.t("history.empty") in texts
    assert not app.scene.enabled(Action("press", "replay"))
    assert not app.scene.enabled(Action("press", "export"))
    key(app, pygame.K_RETURN)                      # nothing to replay: stays, no crash
    assert type(app.scene).__name__ == "RecordsScene"


# ------------------------------------------------------------------ 5: the solo results screen

def test_solo_results_show_new_best_score_time_and_personal_best(app, artifacts):
    from bonanza.client.scenes.game import SoloGameScene
    from bonanza.client.store.records import format_duration
    # one seed throughout: a set seed's best is that seed's (issue 25)
    first = drive_solo_scene(app, SoloGameScene(app, seed_text="results"), "first")
    low = first.state.sheets[0].total(first.state.ruleset)
    app.to_title()
    g = SoloGameScene(app, seed_text="results")
    res = drive_solo_scene(app, g, "best")
    high = res.state.sheets[0].total(res.state.ruleset)
    assert high > low and res.record.new_best and res.record.previous_best == low
    texts = shown_texts(app)
    app.screenshot(artifacts / "client_results_new_best.png")
    assert lang.t("game.new_best") in texts
    assert str(high) in texts
    assert lang.t("game.timer", time=format_duration(int(round(g.run_time * 1000)))) in texts
    assert lang.t("game.seed_best", score=high) in texts
    # a worse game: no "New best!", the best on this seed is still the high score
    app.to_title()
    worse = drive_solo_scene(app, SoloGameScene(app, seed_text="results"), "last")
    assert not worse.record.new_best
    texts = shown_texts(app)
    app.screenshot(artifacts / "client_results_not_best.png")
    assert lang.t("game.new_best") not in texts
    assert lang.t("game.seed_best", score=high) in texts


def test_the_default_name_is_player_in_the_players_language(app):
    from bonanza.client import lang
    assert app.profile.name == "Player"
    lang.set_language("es")
    assert app.profile.name == "Jugador"
    app.profile.name = "Ana"
    app.profile.save()
    assert app.profile.name == "Ana" and app.profile.store.profile()["name"] == "Ana"


# ------------------------------------------------------------------ issue 15: honest records on screen

def test_a_given_up_game_is_shown_as_such_and_never_a_best(app, artifacts):
    """9 games, 2 finished (the issue's case): the board and the average hold the two."""
    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.solo import new_solo_match
    from bonanza.client.store.records import finish_and_record
    from bonanza.core.game import allowed
    store = app.profile.store
    finished = []
    for i in range(9):
        m = new_solo_match("Player")
        for _ in range(13 if i < 2 else 1 + i % 3):
            m.roll([False] * 5)
            m.write(sorted(allowed(m.state))[-1])
        if not m.state.over:
            m.give_up(0)
        rec = finish_and_record(store, m, 30_000 + i)
        if rec.finished:
            finished.append(rec.score)
    assert len(finished) == 2
    sc = RecordsScene(app)
    app.push(sc)
    assert sorted(r.score for r in sc.entries) == sorted(finished)
    assert sc.stats["games"] == 2 and sc.stats["gave_up"] == 7
    texts = shown_texts(app)
    from bonanza.client.scenes.records import format_number
    assert format_number(round(sum(finished) / 2, 1)) in texts
    sc.set_tab("history")
    texts = shown_texts(app)
    assert texts.count(lang.t("history.status.gave_up")) == 7
    assert texts.count(lang.t("history.status.finished")) == 2
    app.screenshot(artifacts / "client_records_history_given_up.png")


def test_a_finished_game_shows_its_file_and_board_on_the_results(app, artifacts, capsys):
    from bonanza.client import commands as cli
    from bonanza.client.scenes.game import SoloGameScene
    res = drive_solo_scene(app, SoloGameScene(app, seed_text="my run 1"), "first")
    rec = res.record
    assert rec.category == "seeded" and rec.seed_text == "my run 1"
    assert os.path.isfile(rec.file) and os.path.dirname(rec.file) == os.path.join(
        app.profile.store.directory, "games")
    texts = shown_texts(app)
    assert res.file_line() in texts and os.path.basename(rec.file) in res.file_line()
    # the board is named by the run's category, a set seed's as typed, self-dealt
    assert res.category_line().startswith(lang.t("records.ruleset.bonanza") + " · " + lang.t(
        "category.seeded", seed="my run 1")) and res.category_line() in texts
    assert res.category_line().endswith(lang.t("records.self_dealt"))
    app.screenshot(artifacts / "client_results_saved_file.png")
    assert cli.main(["verify", rec.file]) == 0 and "VALID" in capsys.readouterr().out


def test_a_file_that_cannot_be_written_is_told_once(app):
    from bonanza.client.scenes.game import SoloGameScene
    folder = os.path.join(app.profile.store.directory, "games")
    with open(folder, "w") as f:      # a file where the games folder should be
        f.write("x")
    toasts = []
    notify = app.profile.notify
    app.profile.notify = lambda key, params: (toasts.append(key), notify(key, params))
    first = drive_solo_scene(app, SoloGameScene(app), "first")
    assert first.record is not None and first.record.file is None
    assert first.file_line() is None
    app.to_title()
    second = drive_solo_scene(app, SoloGameScene(app), "first")
    assert second.record is not None
    assert toasts == ["store.files_unwritable"]
    assert {h.id for h in app.profile.store.history()} >= {first.record.id, second.record.id}


def test_verify_lists_your_games_newest_first(app, artifacts):
    from bonanza.client.scenes.verify import VerifyScene
    store = populate(app)
    app.push(VerifyScene(app))
    sc = app.scene
    assert [g.id for g in sc.games] == [g.id for g in store.history(200)]
    assert sc.focus_id == "list"
    texts = shown_texts(app)
    assert lang.t("verify.your_games") in texts and lang.t("history.status.gave_up") in texts
    app.screenshot(artifacts / "client_verify_your_games.png")
    # keyboard: Down, Enter verifies the second newest game and opens its replay
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert type(app.scene).__name__ == "ReplayScene"
    assert app.scene.verdict.ok and app.scene.verdict.log.to_bytes() == store.game_log(sc.games[1].id)
    key(app, pygame.K_ESCAPE)
    assert app.scene is sc
    # Up from the first row goes to the path field, and typing there still works
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)
    assert sc.focus_id == "path"
    # the mouse: one click on a row opens that game
    from bonanza.client.scenes import verify as V
    click(app, (V.LIST_X, V.LIST_Y + 3 * V.ROW_H, V.LIST_W, V.ROW_H))
    assert type(app.scene).__name__ == "ReplayScene"
    assert app.scene.verdict.log.to_bytes() == store.game_log(sc.games[3].id)


def test_verify_with_no_saved_games_says_so(app):
    from bonanza.client.scenes.verify import VerifyScene
    app.push(VerifyScene(app))
    assert app.scene.focus_id == "path" and lang.t("verify.no_games") in shown_texts(app)
    key(app, pygame.K_RETURN)                      # nothing chosen, nothing typed: stays
    assert type(app.scene).__name__ == "VerifyScene"


@pytest.mark.parametrize("code", ["fr", "pt-BR"])
def test_dates_and_run_times_are_shown_in_the_players_language(app, code):
    """No ISO date and no decimal point on the records, verify and daily screens."""
    from bonanza.client.scenes.daily import DailyScene
    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.scenes.verify import VerifyScene
    store = populate(app)
    lang.set_language(code)
    app.push(RecordsScene(app))
    texts = shown_texts(app)
    rec = app.scene.entries[0]
    assert i18n.format_duration(rec.duration_ms, code) in texts and "," in i18n.format_duration(rec.duration_ms, code)
    app.scene.tab = "history"
    app.scene.reload()
    texts = shown_texts(app)
    games = store.history(200)
    assert i18n.format_date(games[0].played_at, code, "short") in texts
    assert not [t for t in texts if re.search(r"\d{4}-\d\d-\d\d|\d:\d\d\.\d", t)], texts
    app.pop()
    app.push(VerifyScene(app))
    texts = shown_texts(app)
    assert i18n.format_datetime(games[0].played_at, code) in texts
    assert not [t for t in texts if re.search(r"\d{4}-\d\d-\d\d|\d:\d\d\.\d", t)], texts
    app.pop()
    app.push(DailyScene(app))
    texts = shown_texts(app)
    assert lang.t("daily.date", date=i18n.format_date(app.scene.date, code)) in texts


def test_a_list_rows_texts_keep_the_rows_inner_margin(app, artifacts):
    """The games lists of Verify and Records (history and a board) draw every text inside
    the row's inner part (``widgets.ROW_INSET``): the date no longer touches the chosen
    row's ring on the left, nor the state on the right.  Six languages at 960x540."""
    from bonanza.client import theme, widgets
    from bonanza.client.scenes import records as R
    from bonanza.client.scenes import verify as V
    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.scenes.verify import VerifyScene
    from tests.test_client_scenes import LANGS
    populate(app)
    app.apply_window(theme.MIN_WINDOW)

    def rows_of(mod, n):
        return [app.layout.rect((mod.LIST_X, mod.LIST_Y + i * mod.ROW_H, mod.LIST_W, mod.ROW_H))
                for i in range(n)]

    def check(where, rows, shot):
        widgets.TEXT_RECTS.clear()
        app.draw()
        if shot:
            app.screenshot(artifacts / f"client_list_inset_{where}_{code}.png")
        inner = [widgets.row_inner(app.layout, r).inflate(2, 0) for r in rows]   # a pixel of rounding
        in_rows = [(t, d) for t, d in widgets.TEXT_RECTS if any(r.contains(d) for r in rows)]
        assert len(in_rows) >= 3 * len(rows), (where, code, in_rows)
        bad = [(t, d) for t, d in in_rows if not any(i.left <= d.left and d.right <= i.right for i in inner)]
        assert not bad, (where, code, bad)
    for code in LANGS:
        app.set_language(code)
        app.push(VerifyScene(app))
        app.step()
        check("verify", rows_of(V, V.VISIBLE), True)
        app.pop()
        app.push(RecordsScene(app))
        app.step()
        check("board", rows_of(R, min(R.VISIBLE, len(app.scene.entries))), False)
        app.scene.tab = "history"
        app.scene.reload()
        app.step()
        check("history", rows_of(R, R.VISIBLE), True)
        app.pop()
