"""Records' charts: the player's scores beside the optimal player's, accuracy over time
and luck against points lost per game (by keyboard and by mouse, empty and filled, six
languages at 960x540), and the optimal-play simulator moved into core."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from bonanza.client import theme, widgets
from bonanza.core.game import Seat
from bonanza.core.match import Match
from bonanza.core.simulate import play_bot_turn
from tests.pilot import click, key

LANGS = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")


def overflows(app) -> list:
    widgets.FIT_REPORT.clear()
    app.draw()
    return [(t, px, w, mw) for t, px, w, mw in widgets.FIT_REPORT
            if w > mw + 1 or px < theme.MIN_READABLE_PX]


def record_games(store, ruleset: str, policies, tag: str) -> list:
    """Finished solo games of bots, one per policy, recorded a day apart."""
    recs = []
    for i, policy in enumerate(policies):
        m = Match.create(ruleset, [Seat("Player")], f"{tag}{i}".encode().ljust(32, b"."), mode="solo")
        while not m.state.over:
            play_bot_turn(m, policy)
        m.finish({"duration_ms": 60_000})
        recs.append(store.record_game(m.log.to_bytes(), played_at=f"2024-03-{i + 1:02d}T12:00:00Z"))
    return recs


@pytest.fixture
def filled(app):
    """A store with bonanza games of both bots (the optimal bot loses nothing) and a
    given-up game, which the charts leave out."""
    store = app.profile.store
    recs = record_games(store, "bonanza", ["casual", "optimal", "casual", "casual", "optimal", "casual"], "ch")
    m = Match.create("bonanza", [Seat("Player")], b"quit".ljust(32, b"."), mode="solo")
    play_bot_turn(m, "casual")
    m.give_up(0)
    m.finish({})
    store.record_game(m.log.to_bytes(), played_at="2024-03-20T12:00:00Z")
    return recs


def open_charts(app, ruleset="bonanza"):
    from bonanza.client.scenes.charts import ChartsScene
    sc = ChartsScene(app, ruleset)
    app.push(sc)
    assert sc.wait()
    app.step()
    return sc


def test_charts_from_records_by_keyboard(app, filled, artifacts):
    from bonanza.client.scenes.charts import ChartsScene
    from bonanza.client.scenes.records import RecordsScene
    rec = RecordsScene(app)
    app.push(rec)
    app.step()
    while rec.focus_id != "charts":
        key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)
    sc = app.scene
    assert isinstance(sc, ChartsScene) and sc.ruleset == "bonanza"
    assert sc.wait()
    app.step()
    # the finished games only, oldest first; the given-up one is on no chart
    assert [g.id for g in sc.games] == [r.id for r in filled]
    assert sc.scores == [r.score for r in filled]
    pts = [p for _, p in sc.points()]
    assert all(p is not None for p in pts)
    # the optimal bot's games lost nothing, the casual bot's did; luck - loss is the
    # result against the start expectation, so the bars add up to the score
    for r, p in zip(filled, pts):
        optimal = r.id in (filled[1].id, filled[4].id)
        assert (p.skill_loss < 1e-6 and p.accuracy == pytest.approx(100)) if optimal else p.skill_loss > 1
        adv = sc._advisor("bonanza")
        assert r.score - adv.expected_start() == pytest.approx(p.luck - p.skill_loss, abs=1e-6)
    opt = sc.optimal()
    assert len(opt) == 4000 and abs(opt.mean() - sc._advisor("bonanza").expected_start()) < 4
    texts = [t for t, *_ in (widgets.FIT_REPORT.clear(), app.draw(), widgets.FIT_REPORT)[2]]
    assert any(t.startswith("You: 6 games, average ") for t in texts)
    assert any(t.startswith("Optimal play: ") and "simulated games" in t for t in texts)
    app.screenshot(artifacts / "client_charts.png")
    # Right switches to yacht: no yacht game, the empty state; Left comes back
    key(app, pygame.K_RIGHT)
    assert sc.ruleset == "yacht" and sc.games == []
    texts = [t for t, *_ in (widgets.FIT_REPORT.clear(), app.draw(), widgets.FIT_REPORT)[2]]
    assert sc.t("charts.empty", ruleset="Yacht") in texts
    key(app, pygame.K_LEFT)
    assert sc.ruleset == "bonanza" and len(sc.games) == len(filled)
    key(app, pygame.K_ESCAPE)
    assert app.scene is rec


def test_charts_by_mouse_and_yacht_games(app, filled, artifacts):
    from bonanza.client.scenes.charts import ChartsScene, cached_point
    from bonanza.client.scenes.records import RecordsScene
    store = app.profile.store
    yacht = record_games(store, "yacht", ["casual", "optimal", "casual"], "y")
    rec = RecordsScene(app)
    app.push(rec)
    app.step()
    click(app, rec.widget("charts"))
    sc = app.scene
    assert isinstance(sc, ChartsScene)
    click(app, sc.widget("rs:yacht"))
    assert sc.ruleset == "yacht" and sc.wait()
    app.step()
    assert [g.id for g in sc.games] == [r.id for r in yacht]
    assert all(cached_point(store, r.id) is not None for r in yacht)
    app.screenshot(artifacts / "client_charts_yacht.png")
    click(app, sc.widget("back"))
    assert app.scene is rec


def test_charts_empty_state(app, artifacts):
    sc = open_charts(app)
    assert sc.games == [] and not sc._threads     # nothing to analyse: no work started
    texts = [t for t, *_ in (widgets.FIT_REPORT.clear(), app.draw(), widgets.FIT_REPORT)[2]]
    assert sc.t("charts.empty", ruleset="Bonanza") in texts and sc.t("charts.empty_how") in texts
    app.screenshot(artifacts / "client_charts_empty.png")


def test_more_games_than_the_per_game_charts_show(app, monkeypatch, artifacts):
    from bonanza.client.scenes import charts
    monkeypatch.setattr(charts, "CHART_GAMES", 4)
    recs = record_games(app.profile.store, "bonanza", ["casual"] * 6, "many")
    sc = open_charts(app)
    assert [g.id for g in sc.recent()] == [r.id for r in recs[-4:]]     # the newest, on the right
    assert len(sc.scores) == 6                                           # the histogram has them all
    texts = [t for t, *_ in (widgets.FIT_REPORT.clear(), app.draw(), widgets.FIT_REPORT)[2]]
    assert sc.tn("charts.last_games", 4) in texts


def test_charts_fit_in_six_languages_at_960x540(app, filled, artifacts):
    app.apply_window(theme.MIN_WINDOW)
    problems = []
    for code in LANGS:
        app.set_language(code)
        for ruleset in ("bonanza", "yacht"):      # filled, then the empty state
            app.to_title()
            open_charts(app, ruleset)
            problems += [(code, ruleset) + p for p in overflows(app)]
            if ruleset == "bonanza":
                pygame.image.save(app.screen, str(artifacts / f"client_small_{code}_charts.png"))
        app.to_title()
        from bonanza.client.scenes.records import RecordsScene
        app.push(RecordsScene(app))
        problems += [(code, "records") + p for p in overflows(app)]
    assert not problems, "\n".join(map(str, problems[:40]))


def test_moved_simulator_plays_the_same_games(monkeypatch, shared_cache_dir):
    """core.optimal_sim gives the scores bench/advisor_sim.py gave before the move
    (recorded from it), whatever the batch size."""
    monkeypatch.setenv("BONANZA_CACHE_DIR", str(shared_cache_dir))
    from bonanza.core.advisor import get_advisor
    from bonanza.core.optimal_sim import draw_dice, optimal_scores, simulate
    before = {
        "bonanza": [279, 270, 215, 176, 268, 345, 203, 175, 281, 269, 225, 271, 199, 270, 224, 198,
                    262, 261, 254, 303, 265, 292, 222, 285],
        "yacht": [279, 270, 265, 176, 271, 292, 203, 175, 281, 269, 251, 276, 199, 272, 223, 198,
                  247, 278, 254, 253, 265, 245, 222, 285],
    }
    for ruleset, scores in before.items():
        adv = get_advisor(ruleset)
        assert optimal_scores(adv, 24, np.random.default_rng(2024)).tolist() == scores
        dice = draw_dice(np.random.default_rng(2024), 24)
        assert simulate(adv, dice, batch=5).tolist() == scores
