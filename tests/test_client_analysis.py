"""The advisor's one verdict on the game screen, the analysis screen (from the results,
the replay and Records; keyboard and mouse) and the tables' live win-chance bar."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import lang, theme, widgets
from bonanza.client.actions import Action
from bonanza.core.bots import choose
from bonanza.core.game import GameState, Seat, Setup, new_game
from bonanza.core.match import Match
from bonanza.core.rules import BOXES, Sheet
from bonanza.core.verify import verify_bytes
from tests.pilot import click, key, window

LANGS = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")


@pytest.fixture
def adv_app(data_dirs):
    """A window with the advisor (loaded from the session's cache)."""
    with window(data_dirs["data"], advisor=True) as a:
        a.advisor_loader("bonanza").result()
        yield a


def drawn_texts(app) -> list[str]:
    widgets.FIT_REPORT.clear()
    app.draw()
    return [t for t, *_ in widgets.FIT_REPORT]


def overflows(app) -> list:
    widgets.FIT_REPORT.clear()
    app.draw()
    return [(t, px, w, mw) for t, px, w, mw in widgets.FIT_REPORT
            if w > mw + 1 or px < theme.MIN_READABLE_PX]


# ------------------------------------------------------------------ the verdict
def rolled(sheet: Sheet, dice, rolls=1, seq=1) -> GameState:
    st = new_game(Setup("bonanza", (Seat("P1"),)))
    return GameState(setup=st.setup, sheets=(sheet,), active=0, turn=0, rolls=rolls, dice=tuple(dice), seq=seq)


def game_scene(app, holder: list):
    """A game screen showing ``holder[0]`` (swap it to change the situation)."""
    from bonanza.client.scenes.game_base import GameScene

    class Scene(GameScene):
        @property
        def state(self):
            return holder[0]

        my_seat = 0

        def my_turn(self):
            return True

    sc = Scene(app, "bonanza", 1)
    app.push(sc)
    app.step()
    return sc


def test_verdict_names_a_roll_when_rolling_is_better_and_a_box_when_writing_is(adv_app, artifacts):
    from bonanza.client.scenes.game_base import verdict_options
    app = adv_app
    holder = [rolled(Sheet(), (3, 3, 6, 6, 3))]
    sc = game_scene(app, holder)
    adv = first = sc.advice()
    opts = verdict_options(adv)
    # keeping 3 3 3 beats writing the full house now (the example)
    assert adv.holds[0].expected > adv.boxes[0].expected
    assert opts[0][:2] == ("roll", (3, 3, 3))
    assert [o[1] for o in opts[1:]] == [b.box for b in adv.boxes[:2]]
    line = sc.choice_text(opts[0], 0)
    assert line.startswith("Keep 3 3 3 and roll — ")
    texts = drawn_texts(app)
    assert line in texts and "Write Full house (25) — 250" in texts
    assert sc.hint_mask() == adv.holds[0].mask          # the rings: the dice to keep
    # one signal: the verdict is to roll, so the cursor is on Roll (Enter rolls), not on a box
    assert sc.focus_id == "roll"
    app.screenshot(artifacts / "client_verdict_roll.png")

    # the player moves the cursor to the sheet; the next roll brings it to the verdict's box
    sc.handle(Action("down"))
    assert sc.focus_id is None and sc.input.selection == "ones"
    joker = Sheet(tuple({"bonanza": 50, "fours": 16}.get(b) for b in BOXES))
    holder[0] = rolled(joker, (4, 4, 4, 4, 4), seq=2)
    app.step()
    adv = sc.advice()
    opts = verdict_options(adv)
    # a joker with Large straight worth 40: writing now beats any reroll
    assert adv.holds and adv.boxes[0].expected >= adv.holds[0].expected
    assert opts[0][:3] == ("write", "large_straight", 40)
    assert [o[1] for o in opts[1:]] == [b.box for b in adv.boxes[1:3]]
    assert sc.choice_text(opts[0], 66).startswith("Write Large straight (40) — ")
    assert sc.hint_mask() is None                        # no rings suggesting a reroll
    assert sc.input.selection == "large_straight" and sc.focus_id is None
    app.screenshot(artifacts / "client_verdict_write.png")

    # a scratch is named as one
    scratch = next(o for o in verdict_options(first, 14) if o[0] == "write" and o[2] == 0)
    assert sc.choice_text(scratch, 0).startswith(f"Scratch {lang.t('box.' + scratch[1])} — ")

    # hints off: no verdict, no rings
    sc.handle(Action("toggle_hints"))
    assert not any(t.startswith("Write Large straight") for t in drawn_texts(app))
    assert sc.hint_mask() is None


def test_verdict_fits_in_six_languages_at_960x540(adv_app):
    app = adv_app
    app.apply_window(theme.MIN_WINDOW)
    joker = Sheet(tuple({"bonanza": 50, "fours": 16}.get(b) for b in BOXES))
    problems = []
    for code in LANGS:
        app.set_language(code)
        for st in (rolled(Sheet(), (3, 3, 6, 6, 3)), rolled(joker, (4, 4, 4, 4, 4))):
            game_scene(app, [st])
            problems += [(code,) + p for p in overflows(app)]
    assert not problems, problems[:20]


# ------------------------------------------------------------------ the analysis screen
def bot_game(seats=4, policies=("casual", "optimal", "casual", "casual"), auto_every=7) -> bytes:
    """A finished table game of bots; every ``auto_every``-th write is marked automatic."""
    names = ["Ana", "Bot Ada", "Bruno", "Bot Bram"][:seats]
    m = Match.create("bonanza", [Seat(n) for n in names], b"analysis".ljust(32, b"."), mode="table")
    writes = 0
    while not m.state.over:
        st = m.state
        if st.dice is None:
            m.roll([False] * 5)
            continue
        kind, arg = choose(policies[st.active], "bonanza", st.sheets[st.active], st.dice, st.rolls_left)
        if kind == "hold":
            m.roll(list(arg))
        else:
            writes += 1
            m.write(arg, auto=writes % auto_every == 0)
    m.finish({})
    return m.log.to_bytes()


def open_analysis(app, data: bytes):
    from bonanza.client.scenes.analysis import AnalysisScene
    sc = AnalysisScene(app, verify_bytes(data))
    app.push(sc)
    assert sc.wait()
    app.step()
    return sc


def test_analysis_from_the_results_by_keyboard(app, artifacts):
    from bonanza.client.scenes.analysis import AnalysisScene
    from bonanza.client.scenes.replay import ReplayScene
    from tests.test_client_scenes import finished_solo
    results = finished_solo(app)          # every turn writes the first free box: costly
    assert results.button_enabled("analysis")
    while results.focus_id != "analysis":
        key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)
    sc = app.scene
    assert isinstance(sc, AnalysisScene)
    assert sc.wait()
    app.step()
    sa = sc.analysis.seats[0]
    assert sa.score == results.state.sheets[0].total(results.state.ruleset)
    texts = drawn_texts(app)
    assert str(sa.score) in texts and sc.t("analysis.mistakes") in texts
    ms = sa.mistakes(5)
    assert ms and sc.mistakes() == ms
    app.screenshot(artifacts / "client_analysis_solo.png")

    # Down chooses the second mistake, Enter opens the replay at that decision
    key(app, pygame.K_DOWN)
    assert sc.sel == 1
    key(app, pygame.K_RETURN)
    replay = app.scene
    assert isinstance(replay, ReplayScene)
    assert replay.index == ms[1].seq - 1
    assert replay.states[replay.index].dice == ms[1].dice    # the dice decided on
    assert replay.note[0] == replay.index and replay.note[1] in drawn_texts(app)
    # its Analysis button goes back to the same analysis, not a new one
    replay.on_press("analysis")
    assert app.scene is sc
    key(app, pygame.K_ESCAPE)
    assert app.scene is results


def test_analysis_of_a_table_by_mouse(app, artifacts):
    from bonanza.client.scenes.replay import ReplayScene
    sc = open_analysis(app, bot_game())
    a = sc.analysis
    assert len(a.seats) == 4 and a.win_chance
    L = app.layout
    # the optimal bot's tab: nothing to show as a mistake
    click(app, sc.widget("seat:1").screen_rect(L))
    assert sc.seat == 1 and sc.mistakes() == []
    assert sc.t("analysis.no_mistakes") in drawn_texts(app)
    # automatic moves are marked on the graph of a seat that had them
    seat = next(s.seat for s in a.seats if any(d.auto for d in s.decisions))
    click(app, sc.widget(f"seat:{seat}").screen_rect(L))
    assert sc.seat == seat
    assert any(d.auto for d, _ in sc.marks())
    key(app, pygame.K_RIGHT)          # the keyboard switches seats too
    assert sc.seat == (seat + 1) % 4
    key(app, pygame.K_LEFT)
    app.screenshot(artifacts / "client_analysis_table.png")
    # a click on a mistake's row opens the replay there
    d = sc.mistakes()[0]
    click(app, L.rect(sc.row_rect(0)))
    assert isinstance(app.scene, ReplayScene) and app.scene.index == d.seq - 1
    key(app, pygame.K_ESCAPE)
    assert app.scene is sc
    # ... and so does a click on its mark on the graph
    marks = sc.marks()
    d, (x, y) = next((d, (x, y)) for d, (x, y) in marks if d.grade and all(
        e is d or abs(x - ex) > 20 or abs(y - ey) > 20 for e, (ex, ey) in marks))
    click(app, L.rect((x - 2, y - 2, 4, 4)))
    assert isinstance(app.scene, ReplayScene) and app.scene.index == d.seq - 1


def test_analysis_fits_in_six_languages_at_960x540(app):
    app.apply_window(theme.MIN_WINDOW)
    games = (bot_game(), bot_game(seats=1, policies=("casual",)))
    problems = []
    for code in LANGS:
        app.set_language(code)
        for data in games:
            app.to_title()
            open_analysis(app, data)
            problems += [(code,) + p for p in overflows(app)]
    assert not problems, problems[:20]


def test_records_opens_the_analysis(app):
    from bonanza.client.scenes.analysis import AnalysisScene
    from bonanza.client.scenes.records import RecordsScene
    from tests.test_client_scenes import populate_records
    populate_records(app)
    rec = RecordsScene(app)
    app.push(rec)
    rec.select(0)
    app.step()
    assert "analysis" in rec.focus_order()
    click(app, rec.widget("analysis").screen_rect(app.layout))
    assert isinstance(app.scene, AnalysisScene)
    assert app.scene.wait() and app.scene.analysis.seats[0].score == rec.selected().score


# ------------------------------------------------------------------ the tables' win bar
def test_table_win_bar(adv_app, artifacts):
    from bonanza.client.scenes.table import TableScene
    from tests.doubles import DemoConnection
    app = adv_app
    conn = DemoConnection(seats=4)
    sc = TableScene(app, conn)
    app.push(sc)
    app.step()
    chances = sc.win_chances()
    assert len(chances) == 4 and abs(sum(chances) - 1) < 1e-9
    name = conn.state.setup.seats[0].name
    texts = drawn_texts(app)
    assert any(t.endswith("%") for t in texts), texts
    app.screenshot(artifacts / "client_table_win_bar.png")
    # after a move the chances follow
    seq = conn.state.seq
    conn.match.write(conn.state.sheets[0].free_boxes()[0])
    app.step()
    assert sc._win_key == conn.state.seq != seq
    # a player hides the bar with the hints; a watcher always sees it
    sc.handle(Action("toggle_hints"))
    assert not sc.shows_win_bar()
    assert not any(t.endswith("%") for t in drawn_texts(app))
    conn.seat = None
    assert sc.shows_win_bar()
    # and it fits at the smallest window in six languages, 2 and 4 seats
    app.apply_window(theme.MIN_WINDOW)
    conn.seat = 0
    sc.handle(Action("toggle_hints"))
    problems = []
    for code in LANGS:
        app.set_language(code)
        for n in (2, 4):
            app.to_title()
            t = TableScene(app, DemoConnection(seats=n))
            app.push(t)
            app.step()
            assert t.win_chances() is not None
            problems += [(code, n) + p for p in overflows(app)]
    assert not problems, problems[:20]
    assert name
