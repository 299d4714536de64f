"""Splits in the window (issue 25): the splits panel during a run, the results' splits table
with gold splits and the sum of best, boards per run category, the relay's tool-assisted
mark, and resumed runs kept off every timed best.  Splits come from the log, so a replay
shows the same ones the run showed live."""
from __future__ import annotations

import pygame
from hypothesis import given
from hypothesis import strategies as st

from bonanza.client import lang
from bonanza.core import splits as core_splits
from tests.pilot import click, key
from tests.test_client_signals import drawn_texts

turns = st.lists(st.integers(min_value=0, max_value=600_000), min_size=13, max_size=13)


@given(st.lists(turns, min_size=1, max_size=6))
def test_gold_splits_and_the_fastest_run_bound_every_run(runs):
    gold = core_splits.gold_splits(runs, 13)
    best = core_splits.fastest(runs, 13)
    assert gold is not None and best is not None and best in runs
    for run in runs:
        assert all(g <= ms for g, ms in zip(gold, run))
        assert sum(best) <= sum(run)
        # the sum of best is never slower than any whole run
        assert sum(gold) <= sum(run)


@given(turns, turns, st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=10_000))
def test_a_gap_is_the_time_so_far_minus_the_best_at_that_turn(live, best, done, extra):
    gaps = core_splits.gaps(live[:done], best)
    assert len(gaps) == done
    for i, gap in enumerate(gaps):
        assert gap == sum(live[:i + 1]) - sum(best[:i + 1])
    now = sum(live[:done]) + extra
    assert core_splits.live_gap(live[:done], now, best) == now - sum(best[:done + 1])
    assert core_splits.live_gap(live, sum(live), best) is None     # no turn after the last


def test_runs_of_other_lengths_do_not_compare():
    assert core_splits.gold_splits([[1] * 15], 13) is None
    assert core_splits.fastest([[5] * 13, [1] * 15, [4] * 13], 13) == [4] * 13
    # equal times: the older run (the first given) is the comparison, every time
    assert core_splits.fastest([[2, 1] + [1] * 11, [1, 2] + [1] * 11], 13) == [2, 1] + [1] * 11


def test_gaps_read_by_sign_and_shape_not_colour_alone():
    from bonanza.client.splits_view import AHEAD, BEHIND, gap_text, short_time, split_rows
    assert gap_text(-1250) == "−1.25 " + AHEAD and gap_text(400) == "+0.40 " + BEHIND
    assert gap_text(0) == "±0.00" and short_time(61_234) == "1:01.23"
    lang.set_language("fr")
    try:
        assert gap_text(-1250) == "−1,25 " + AHEAD
    finally:
        lang.set_language("en")
    rows = split_rows([1000, 2000], 13, tuple([1500] * 13), tuple([900, 2500] + [1] * 11),
                      running_ms=3700)
    assert [r.gap for r in rows[:3]] == [-500, 0, 3700 - 4500]
    assert [r.gold for r in rows[:2]] == [False, True] and rows[2].live and rows[2].ms == 700
    assert all(r.ms is None for r in rows[3:]) and len(rows) == 13


def play(app, seed: str | None, frames_per_key: int, until_turn: int | None = None):
    """A seeded run by keys (r, Enter, Enter a turn), ``frames_per_key`` frames after each
    key (the window's run clock reads the frames); stops at ``until_turn`` if given."""
    app.to_title()
    game = app.open("solo_game", seed_text=seed)
    app.step()
    while not game.state.over:
        if until_turn is not None and game.state.turn == until_turn and game.state.dice is None:
            return game
        key(app, pygame.K_RETURN if game.state.dice is not None else pygame.K_r, steps=frames_per_key)
    app.step()
    return game


def test_splits_of_a_replay_equal_the_live_splits(app, artifacts):
    app.profile.settings.update(animation="instant", show_hints=False)
    first = play(app, "splits", 20)
    assert app.scene.run["splits"] == first.splits() and len(first.splits()) == 13
    # S shows the panel during a run; it compares with the fastest run of this category
    game = play(app, "splits", 14, until_turn=6)
    assert not game.splits_shown()
    key(app, pygame.K_s)
    assert game.splits_shown() and app.profile.settings["show_splits"]
    assert game.comparison.best == tuple(first.splits())
    key(app, pygame.K_r, steps=14)
    rows = game.split_rows()
    assert [r.ms for r in rows[:6]] == game.splits() and rows[6].live
    assert all(r.gap is not None and r.gap < 0 for r in rows[:6])      # quicker: ahead
    texts = drawn_texts(app)
    from bonanza.client.i18n import format_duration
    from bonanza.client.splits_view import gap_text
    assert lang.t("splits.panel", time=format_duration(sum(first.splits()), "en", 2)) in texts
    assert gap_text(rows[0].gap) in texts
    app.screenshot(artifacts / "client_splits_panel.png")
    while not game.state.over:
        key(app, pygame.K_RETURN if game.state.dice is not None else pygame.K_r, steps=14)
    app.step()
    live = game.splits()
    results = app.scene
    assert type(results).__name__ == "ResultsScene" and results.show_splits
    assert results.run["splits"] == live and sum(live) == results.record.duration_ms
    # every turn quicker than the first run's: each is a gold split, and the sum of best is this run
    assert all(r.gold for r in results.split_rows())
    assert results.run["gold"] == tuple(live)
    texts = drawn_texts(app)
    from bonanza.client.splits_view import GOLD_MARK, short_time
    assert lang.t("results.sum_of_best", time=short_time(sum(live)), mark=GOLD_MARK) in texts
    assert GOLD_MARK in texts
    # the results name the run's category
    label = " · ".join((lang.t("records.ruleset.bonanza"), lang.t("category.seeded", seed="splits"),
                        lang.t("category.no_hints"), lang.t("category.instant"), lang.t("records.self_dealt")))
    assert label in texts
    app.screenshot(artifacts / "client_results_splits.png")
    click(app, "card_view")
    assert not results.show_splits and lang.t("results.sheet") in drawn_texts(app)
    click(app, "verify")
    replay = app.scene
    assert type(replay).__name__ == "ReplayScene" and replay.turn_splits == live
    assert replay.split_line() == lang.t("replay.split", n=13, split=short_time(live[-1]),
                                         time=results.time_text()[:-1])
    app.screenshot(artifacts / "client_replay_split.png")


def test_a_resumed_run_does_not_change_a_timed_best(app, artifacts):
    from bonanza.client.scenes.records import local_board
    from bonanza.client.store.runs import ANY, category_runs, comparison
    app.profile.settings.update(animation="instant", show_hints=False)
    store = app.profile.store
    timed = play(app, "resume me", 12)
    best = tuple(timed.splits())

    def comparison_now():
        return comparison(category_runs(store, "bonanza", "seeded", "resume me"), False, "instant", 13)
    assert comparison_now().best == best
    # a quicker run, stopped after five turns and brought back by the title's Continue
    play(app, "resume me", 2, until_turn=5)
    app.to_title()
    app.scene.continue_game()
    game = app.scene
    assert game.resumed and game.seed_text == "resume me"     # its category, its seed
    while not game.state.over:
        key(app, pygame.K_RETURN if game.state.dice is not None else pygame.K_r, steps=2)
    app.step()
    results = app.scene
    assert results.record.duration_ms < sum(best)             # quicker, and still no best
    assert results.run["category"]["resumed"] and not results.timed()
    assert comparison_now().best == best and comparison_now().gold == best
    assert not any(r.gold for r in results.split_rows())
    click(app, "card_view")
    texts = drawn_texts(app)
    assert any(lang.t("category.resumed") in t and lang.t("category.seeded", seed="resume me") in t
               for t in texts)
    assert lang.t("results.splits_not_timed") in texts
    app.screenshot(artifacts / "client_results_resumed.png")
    entries, counted = local_board(store, "bonanza", "seeded", ANY, ANY)
    assert [e.id for e in entries] == [timed.record.id] and len(counted) == 2
    # the history keeps it, labelled resumed
    from bonanza.client.scenes.records import RecordsScene
    app.to_title()
    sc = RecordsScene(app)
    app.push(sc)
    sc.set_tab("history")
    texts = drawn_texts(app)
    label = lang.t("records.cat.seeded") + " · " + lang.t("category.resumed")
    assert texts.count(label) == 1 and texts.count(lang.t("records.cat.seeded")) == 2   # tab, timed run
    app.screenshot(artifacts / "client_records_history_resumed.png")


def test_boards_per_category_name_it_and_filter_by_hints_and_animation(app, artifacts):
    from bonanza.client.scenes.records import RecordsScene
    app.profile.settings.update(animation="instant", show_hints=False)
    instant = play(app, None, 3).record
    app.profile.settings.update(animation="off", show_hints=True)
    animated = play(app, None, 3).record
    app.profile.settings.update(animation="instant", show_hints=False)
    for seed in ("seed one", "seed two", "seed one"):
        play(app, seed, 3)
    app.to_title()
    sc = RecordsScene(app)
    app.push(sc)
    app.step()
    assert {r.id for r in sc.entries} == {instant.id, animated.id}
    click(app, "f_hints")                               # no hints
    assert [r.id for r in sc.entries] == [instant.id]
    assert lang.t("records.board", ruleset=" · ".join(
        (lang.t("records.ruleset.bonanza"), lang.t("category.no_hints")))) in drawn_texts(app)
    click(app, "f_hints")                               # hints
    click(app, "f_anim")                                # Instant
    assert sc.entries == []
    click(app, "f_anim")                                # animated
    assert [r.id for r in sc.entries] == [animated.id]
    texts = drawn_texts(app)
    assert lang.t("records.board", ruleset=" · ".join(
        (lang.t("records.ruleset.bonanza"), lang.t("category.hints"), lang.t("category.animated")))) in texts
    assert lang.t("records.hints_on") in texts and lang.t("category.animated") in texts
    app.screenshot(artifacts / "client_records_category.png")
    # the set-seed board: one row per seed, the best on that seed
    sc.set_tab("seeded")
    sc.hints_filter = sc.anim_filter = "any"
    sc.reload()
    app.step()
    assert sorted(r.seed_text for r in sc.entries) == ["seed one", "seed two"]
    assert lang.t("records.board_seeds", ruleset=lang.t("records.ruleset.bonanza")) in drawn_texts(app)
    app.screenshot(artifacts / "client_records_seeds.png")


def test_the_ranked_board_keeps_tool_assisted_runs_off_unless_asked(app, artifacts):
    from bonanza.client.scenes.ranked import RankedScene
    row = {"score": 250, "duration_ms": 90_000, "date": "2026-11-30", "attempts": 3}
    sc = RankedScene(app)
    app.push(sc)
    sc.info = {"type": "ranked_info", "boards": {"bonanza": {
        "no_hints": [dict(row, name="Ann", place=1, tool_assisted=False)], "hints": [],
        "tool_assisted": [dict(row, name="Scripted", score=258, duration_ms=318, place=1,
                               tool_assisted=True),
                          # a relay's list is its word: a bad entry is shown, never trusted
                          dict(row, name="Odd", duration_ms="soon", place=2)]}}}
    app.profile.settings["show_hints"] = False
    app.step()
    texts = drawn_texts(app)
    assert not any("Scripted" in t for t in texts) and lang.t("ranked.tool_assisted") not in texts
    assert lang.t("records.tool_hidden") in texts
    click(app, "tool")
    texts = drawn_texts(app)
    assert any("Scripted" in t for t in texts) and lang.t("ranked.tool_assisted") in texts
    assert any("Odd" in t and "–" in t for t in texts)
    assert lang.t("records.tool_shown") in texts
    app.screenshot(artifacts / "client_ranked_tool_assisted.png")


def test_a_ranked_run_shows_its_splits_from_the_relays_stamps(app, artifacts):
    """The panel during a ranked run: each turn's time from the relay's stamps, beside the
    fastest earlier ranked run of these rules and hints this window recorded."""
    from bench.input import _until, ranked_run, speedrunner
    from bonanza.client.actions import Action
    from bonanza.client.hosting import HostedRelay
    from bonanza.client.store.runs import category_runs
    from bonanza.core.log import parse_log
    speedrunner(app)
    app.profile.settings["show_splits"] = True
    relay = HostedRelay(host="127.0.0.1")
    try:
        assert relay.ready.wait(15) and relay.port
        ranked_run(app, relay.port, 0.03)
        _until(app, lambda: type(app.scene).__name__ == "RankedScene")
        store = app.profile.store
        stored = category_runs(store, "bonanza", "relay", modes=("ranked",))
        assert len(stored) == 1 and stored[0].splits is not None
        first = list(stored[0].splits)
        from bonanza.core.splits import splits
        assert first == splits(parse_log(store.game_log(stored[0].record.id)))
        ranked = app.scene
        ranked.info = None
        app.dispatch(Action("press", "play"))
        _until(app, lambda: type(app.scene).__name__ == "RankedGameScene")
        game = app.scene
        _until(app, lambda: game.state is not None and game.my_turn())
        for turn in range(3):           # three turns at a person's pace
            for k in (pygame.K_r, pygame.K_RETURN, pygame.K_RETURN):
                key(app, k)
                _until(app, lambda: not game.dice_landing())
            _until(app, lambda t=turn: len(game.splits()) == t + 1)
        assert game.splits_shown() and game.comparison.best == tuple(first)
        rows = game.split_rows()
        assert [r.ms for r in rows[:3]] == game.splits() and rows[3].ms is None
        assert [r.gap for r in rows[:3]] == [sum(game.splits()[:i + 1]) - sum(first[:i + 1]) for i in range(3)]
        from bonanza.client.splits_view import gap_text
        texts = drawn_texts(app)
        assert gap_text(rows[2].gap) in texts
        app.screenshot(artifacts / "client_splits_ranked.png")
    finally:
        relay.stop()


def test_a_resumed_run_is_never_a_new_best_nor_a_personal_best(app, artifacts):
    """The first run of a seed, stopped and continued: no "New best!", no personal best of
    its own score; the next run that is not resumed is the seed's first best."""
    app.profile.settings.update(animation="instant", show_hints=False)
    store = app.profile.store
    play(app, "never best", 2, until_turn=4)
    app.to_title()
    app.scene.continue_game()
    game = app.scene
    assert game.resumed
    while not game.state.over:
        key(app, pygame.K_RETURN if game.state.dice is not None else pygame.K_r, steps=2)
    app.step()
    results = app.scene
    assert type(results).__name__ == "ResultsScene"
    assert not results.record.new_best and not results.is_new_best()
    assert results.personal_best() is None
    texts = drawn_texts(app)
    assert lang.t("game.new_best") not in texts
    assert not any(t.startswith(lang.t("game.seed_best", score=0)[:-1]) for t in texts)
    app.screenshot(artifacts / "client_results_resumed_no_best.png")
    assert store.best("bonanza", "solo", "seeded", "never best") is None
    assert store.best("bonanza", "solo", "seeded") is None and store.best("bonanza") is None
    # the same seed played through without stopping: this one is the first best
    again = play(app, "never best", 2)
    assert again.state.total(0) == results.state.total(0)
    assert app.scene.record.new_best and app.scene.record.previous_best is None
    assert store.best("bonanza", "solo", "seeded", "never best") == again.state.total(0)
