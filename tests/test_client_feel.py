"""How the game feels and the interface's finish: celebrations (each rendered to
``test-artifacts/client_fx_*.png``), count-ups, scratched boxes, the results' whole
sheet, reduce-motion, a still screen that does not redraw, toasts clear of buttons,
text fields with a caret, names within the limit, the replay's focus and holds."""
from __future__ import annotations

import types

import pygame
import pytest

from bonanza.client import lang, theme, widgets
from bonanza.core.game import GameState, Seat, Setup, new_game
from bonanza.core.match import Match
from bonanza.core.rules import BOXES, LOWER_BOXES, UPPER_BOXES, Sheet
from bonanza.core.settings import MAX_NAME
from tests.pilot import click, key


def sheet(extra_bonus=0, **filled) -> Sheet:
    return Sheet(tuple(filled.get(b) for b in BOXES), extra_bonus)


def state_of(sh: Sheet, ruleset="bonanza", dice=None, name="P1") -> GameState:
    st = new_game(Setup(ruleset, (Seat(name),)))
    return GameState(setup=st.setup, sheets=(sh,), active=0, turn=sh.filled_count, rolls=1 if dice else 0,
                     dice=dice, seq=1)


def stub_game(app, state, ruleset="bonanza"):
    """A game screen over a state the test sets (``scene.st``): one seat, always its turn."""
    from bonanza.client.scenes.game_base import GameScene

    class Stub(GameScene):
        @property
        def state(self):
            return self.st

        my_seat = 0

        def my_turn(self):
            return True

    sc = Stub.__new__(Stub)
    sc.st = state
    GameScene.__init__(sc, app, ruleset, 1)
    app.push(sc)
    app.step(1 / 60)
    return sc


def listen(app) -> list:
    """The sounds the game asks for (the test app has no mixer)."""
    played = []
    app.sound = types.SimpleNamespace(play=played.append)
    return played


def shown_texts(app):
    widgets.FIT_REPORT.clear()
    app.draw()
    return [t for t, *_ in widgets.FIT_REPORT]


UPPER_60 = dict(ones=3, twos=6, threes=9, fours=16, fives=20)          # 54: sixes 12 reaches 66
CELEBRATIONS = {
    # kind: (sheet before, sheet after, banner text, sound)
    "bonanza": (sheet(), sheet(bonanza=50), lambda: lang.t("fx.five_equal", box=lang.t("box.bonanza")),
                "fanfare"),
    "joker": (sheet(bonanza=50), sheet(bonanza=50, fours=20, extra_bonus=50),
              lambda: lang.t("fx.joker", bonus=50), "fanfare"),
    "upper_bonus": (sheet(**UPPER_60), sheet(sixes=12, **UPPER_60), lambda: lang.t("fx.upper_bonus", bonus=35),
                    "bonus"),
}


@pytest.mark.parametrize("kind", sorted(CELEBRATIONS))
def test_each_celebration_renders_and_any_key_ends_it(app, artifacts, kind):
    before, after, text, sound = CELEBRATIONS[kind]
    app.profile.settings["animation"] = "normal"
    played = listen(app)
    sc = stub_game(app, state_of(before))
    sc.st = state_of(after)
    app.step(1 / 60)
    assert sc.celebration is not None and sc.celebration.text == text()
    assert sound in played
    assert sc.animating()
    written = [b for b in BOXES if before.get(b) is None and after.get(b)]
    assert {(0, b) for b in written} <= set(sc.sheet_view.counts)      # the points count up
    for _ in range(12):
        app.step(1 / 60)
    assert text() in shown_texts(app)
    app.screenshot(artifacts / f"client_fx_{kind}.png")
    key(app, pygame.K_DOWN)                                  # any key: gone at once, and the key acts
    assert sc.celebration is None and not sc.sheet_view.counts
    assert not sc.animating()


def test_a_celebration_is_over_within_a_second(app):
    app.profile.settings["animation"] = "normal"
    sc = stub_game(app, state_of(sheet()))
    sc.st = state_of(sheet(bonanza=50))
    app.step(1 / 60)
    assert sc.celebration is not None
    for _ in range(60):
        app.step(1 / 60)
    assert sc.celebration is None and not sc.animating()


def test_reduce_motion_never_waits_on_an_animation(app):
    """Animations off: the fanfare sounds, but nothing moves, so no frame waits."""
    app.profile.settings["animation"] = "off"
    played = listen(app)
    sc = stub_game(app, state_of(sheet()))
    sc.st = state_of(sheet(bonanza=50))
    app.step(1 / 60)
    assert "fanfare" in played
    assert sc.celebration is None and not sc.sheet_view.counts and not sc.animating()
    res = results_scene(app, new_best=True)
    app.step(1 / 60)
    assert res.counted(999) == 999 and res.celebration is None and not res.animating()


def lifts_over(app, sc, frames, dt=1 / 120):
    """Die heights (fractions of the lift) frame by frame."""
    out = []
    for _ in range(frames):
        app.step(dt)
        out.append([sc.dice_view.lift(i, app.now) for i in range(5)])
    return out


def test_a_held_die_rises_settles_and_lowers(app, artifacts):
    app.profile.settings["animation"] = "normal"
    sc = stub_game(app, state_of(sheet(), dice=(6, 6, 2, 3, 6)))
    key(app, pygame.K_1, dt=1 / 120)
    first = sc.dice_view.lift(0, app.now)
    assert 0 < first < 1 and sc.animating()              # on its way up, at full frame rate
    heights = [h[0] for h in lifts_over(app, sc, 16)]    # 133 ms
    assert max(heights) > 1.05                           # a touch above its place...
    assert heights[-1] == 1 and not sc.dice_view.lifting(app.now) and not sc.animating()   # ...then still
    assert [h[1] for h in lifts_over(app, sc, 1)] == [0]  # the others stay down
    app.screenshot(artifacts / "client_dice_held_lift.png")
    key(app, pygame.K_1, dt=1 / 120)                     # released: it sinks back, no bounce
    down = [h[0] for h in lifts_over(app, sc, 16)]
    assert 0 < down[0] < 1 and all(0 <= h <= 1 for h in down) and down[-1] == 0


def test_a_second_press_turns_a_rising_die_back_from_where_it_is(app):
    app.profile.settings["animation"] = "normal"
    sc = stub_game(app, state_of(sheet(), dice=(6, 6, 2, 3, 6)))
    key(app, pygame.K_2, dt=1 / 120)
    app.step(1 / 60)
    mid = sc.dice_view.lift(1, app.now)
    key(app, pygame.K_2, dt=1 / 120)
    assert sc.dice_view.lift(1, app.now) <= mid          # no jump to the top before falling
    assert [h[1] for h in lifts_over(app, sc, 16)][-1] == 0


@pytest.mark.parametrize("setting", ["off", "instant"])
def test_held_dice_do_not_move_without_animation(app, setting):
    app.profile.settings["animation"] = setting
    sc = stub_game(app, state_of(sheet(), dice=(6, 6, 2, 3, 6)))
    key(app, pygame.K_3)
    assert sc.dice_view.lift(2, app.now) == 1 and not sc.animating()
    key(app, pygame.K_3)
    assert sc.dice_view.lift(2, app.now) == 0 and not sc.animating()


def test_another_seats_holds_lift_at_the_table(app, artifacts):
    from bonanza.client.scenes.table import TableScene
    from tests.doubles import DemoConnection
    app.profile.settings["animation"] = "normal"
    conn = DemoConnection(seats=2)
    conn.seat = 1                                        # seat 0 has rolled: we watch its holds
    sc = TableScene(app, conn)
    app.push(sc)
    app.step(1 / 120)
    conn.held = [False, True, False, True, False]        # as the relay relays them
    app.step(1 / 120)
    assert 0 < sc.dice_view.lift(1, app.now) < 1 and sc.animating()
    heights = lifts_over(app, sc, 16)
    assert heights[-1] == [0, 1, 0, 1, 0] and not sc.dice_view.lifting(app.now)
    app.screenshot(artifacts / "client_table_held_lift.png")


def test_scratched_box_is_struck_not_a_zero(app, artifacts):
    app.profile.settings["animation"] = "off"
    sc = stub_game(app, state_of(sheet(ones=0, twos=6, chance=0)))
    L, sv = app.layout, sc.sheet_view
    rows = [k for _, k in sv.rows]
    texts = []
    real = widgets.draw_text

    def spy(surface, text, rect, *a, **k):
        texts.append((text, rect.copy()))
        return real(surface, text, rect, *a, **k)
    import bonanza.client.sheet_view as svm
    svm.draw_text = spy
    try:
        app.draw()
    finally:
        svm.draw_text = real
    for box in ("ones", "chance"):
        cell = L.rect(sv.cell_rect(rows.index(box), 0, 1))
        assert not [t for t, r in texts if cell.contains(r)], f"{box}: a scratch drawn as text"
        # the strike: ink that is neither the paper nor the column tint crosses the cell's middle
        strip = [app.screen.get_at((x, cell.centery))[:3] for x in range(cell.x, cell.right)]
        assert any(c[0] < 200 for c in strip), box
    cell = L.rect(sv.cell_rect(rows.index("twos"), 0, 1))
    assert [t for t, r in texts if cell.contains(r)] == ["6"]
    app.screenshot(artifacts / "client_scratched_boxes.png")


def test_yacht_sheet_has_no_joker_row(app):
    app.profile.settings["animation"] = "off"

    def labels(ruleset):
        widgets.FIT_REPORT.clear()
        sc = stub_game(app, state_of(sheet(), ruleset=ruleset), ruleset=ruleset)  # its first frame
        app.pop()
        return sc, [t for t, *_ in widgets.FIT_REPORT]
    sc, texts = labels("yacht")
    assert ("sum", "joker") not in sc.sheet_view.rows
    assert lang.t("game.upper_bonus") in texts and lang.t("game.joker_bonus") not in texts
    sc, texts = labels("bonanza")
    assert ("sum", "joker") in sc.sheet_view.rows
    assert lang.t("game.joker_bonus") in texts


# ------------------------------------------------------------------ results

def finished_match(seed=b"f" * 32, holds=None) -> Match:
    from bonanza.core.game import allowed
    m = Match.create("bonanza", [Seat("Player")], seed, mode="solo")
    while not m.state.over:
        m.roll([False] * 5)
        m.roll(holds or [True, True, False, False, False])
        m.write(sorted(allowed(m.state), key=BOXES.index)[0])
    m.finish({"duration_ms": 61_234})
    return m


def results_scene(app, new_best=False):
    from bonanza.client.scenes.results import ResultsScene
    m = finished_match()
    record = types.SimpleNamespace(new_best=new_best, duration_ms=61_234)
    res = ResultsScene(app, m.state, m.log.to_bytes(), elapsed=61.2, record=record, mode="solo",
                       reveal_seed=m.reveal["seed"], commitment=m.commitment)
    app.push(res)
    return res


def test_results_count_up_the_score_show_the_whole_sheet_and_celebrate_a_new_best(app, artifacts):
    app.profile.settings["animation"] = "normal"
    played = listen(app)
    res = results_scene(app, new_best=True)
    total = res.state.total(0)
    app.step(1 / 60)
    assert "fanfare" in played
    assert 0 <= res.counted(total) < total and res.animating()
    for _ in range(70):                                       # the count-up lasts a second
        app.step(1 / 60)
    assert res.counted(total) == total
    texts = shown_texts(app)
    assert str(total) in texts and lang.t("game.new_best") in texts
    sh = res.state.sheets[0]
    for b in UPPER_BOXES + LOWER_BOXES:                        # every box of the sheet is listed
        assert lang.t(f"box.{b}") in texts
        if sh.get(b):
            assert str(sh.get(b)) in texts
    assert lang.t("results.sheet") in texts
    app.screenshot(artifacts / "client_results_sheet.png")
    for _ in range(60):
        app.step(1 / 60)
    assert not res.animating()


def test_results_count_up_is_skipped_by_a_key(app):
    app.profile.settings["animation"] = "normal"
    res = results_scene(app, new_best=True)
    app.step(1 / 60)
    key(app, pygame.K_LEFT)
    assert res.counted(123) == 123 and res.celebration is None and not res.animating()


# ------------------------------------------------------------------ idle

def test_a_still_game_screen_redraws_only_its_timer(app):
    from bonanza.client.scenes.game import SoloGameScene
    app.profile.settings["animation"] = "off"
    g = SoloGameScene(app, seed_text="still")
    app.push(g)
    app.step()
    key(app, pygame.K_r)
    assert g.run_started is not None and g.run_time is None   # the run timer runs
    app.draw()
    app.step(1 / 60, draw=False)
    assert not app.needs_redraw()
    # the timer shows whole seconds: within the same second nothing is sent to the screen,
    # the next second redraws the timer alone
    assert g.draw_live(app.screen) == []
    app.now += 1.0
    assert g.draw_live(app.screen) == [g.timer_rect()]
    assert g.draw_live(app.screen) == []
    # a pointer moving over the same thing (empty felt) redraws nothing; onto a button it does
    for pos in ((1100, 460), (1120, 470)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=app.layout.point(*pos), rel=(1, 1),
                                             buttons=(0, 0, 0)))
        app.step(1 / 60, draw=False)
        assert not app.needs_redraw()
    hints = app.layout.rect(g.widget("hints").rect).center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=hints, rel=(1, 1), buttons=(0, 0, 0)))
    app.step(1 / 60, draw=False)
    assert app.needs_redraw()
    app.draw()
    # a toast redraws when it comes, when it fades and when it goes, not while it is read
    app.show("hello")
    assert app.needs_redraw()
    app.draw()
    app.step(1.0, draw=False)
    assert not app.needs_redraw()
    app.step(2.3, draw=False)
    assert app.toast.fading and app.needs_redraw()
    app.step(0.4, draw=False)
    assert not app.toast.visible and app.needs_redraw()


# ------------------------------------------------------------------ interface gaps

def test_toasts_wrap_long_paths_and_never_cover_a_button(app, artifacts):
    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.scenes.results import ResultsScene
    path = "/home/someone/.local/share/bonanza/exports/" + "bonanza-2026-12-01-solo-seeded-" * 4 + ".bonanza"
    for make in (lambda: app.push(RecordsScene(app)), lambda: results_scene(app)):
        make()
        scene = app.scene
        app.step(1 / 60)
        app.show(lang.t("records.exported", path=path))
        app.draw()
        L = app.layout
        lines, px = app.toast.lines(L, scene.toast_area(L))
        r = app.toast.rect(L, scene.toast_clear(L), scene.toast_area(L))
        for line in lines:
            assert widgets.fonts.text_width(line, px) <= r.w - L.px(40)
        assert "".join(lines).replace(" ", "") == lang.t("records.exported", path=path).replace(" ", "")
        buttons = [w.screen_rect(L) for w in scene.widgets if scene.visible(w) and w.action is not None]
        assert buttons and not [b for b in buttons if r.colliderect(b)]
        app.screenshot(artifacts / f"client_toast_{type(scene).__name__}.png")
        assert isinstance(scene, (RecordsScene, ResultsScene))


def test_a_click_beside_a_pending_register_cancels_it(app):
    from bonanza.client.scenes.game import SoloGameScene
    from bonanza.core.rules import preview
    app.profile.settings["animation"] = "off"
    g = SoloGameScene(app, seed_text="cancel-by-mouse")
    app.push(g)
    app.step()
    click(app, g.widget("roll").rect)
    pv = preview(g.state.ruleset, g.state.sheets[0], g.state.dice)
    box = max(pv, key=pv.get)
    row = [k for _, k in g.sheet_view.rows].index(box)
    click(app, g.sheet_view.row_rect(row, 1))
    assert g.input.pending == (box, "register")
    click(app, (1100, 470, 20, 20))                            # the empty felt beside it
    assert g.input.pending is None and g.state.sheets[0].is_free(box)
    assert g.dialog is None                                    # not taken for "give up?"
    click(app, (1100, 470, 20, 20))                            # nothing pending: a click there does nothing
    assert g.dialog is None


def test_text_fields_home_end_caret_and_the_name_limit(app):
    from bonanza.client.scenes.lobby import HostSetupScene
    from bonanza.client.scenes.settings import SettingsScene
    sc = SettingsScene(app)
    app.push(sc)
    sc.focus_id = "name"
    f = sc.widget("name")
    for ch in "abc":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step(1 / 60)
    key(app, pygame.K_HOME)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="X"))
    app.step(1 / 60)
    assert f.value == "Xabc"
    key(app, pygame.K_END)
    key(app, pygame.K_LEFT)
    key(app, pygame.K_BACKSPACE)
    assert f.value == "Xac"
    key(app, pygame.K_HOME)
    key(app, pygame.K_DELETE)
    assert f.value == "ac" and sc.focus_id == "name"           # arrows stayed in the field
    for ch in "y" * 60:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step(1 / 60)
    assert len(f.value) == MAX_NAME
    app.pop()
    host = HostSetupScene(app)
    app.push(host)
    host.focus_id = "name"
    for ch in "z" * 60:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step(1 / 60)
    assert len(host.widget("name").value) == MAX_NAME


def test_the_default_name_is_not_pinned_to_the_first_language(app):
    from bonanza.client.scenes.settings import SettingsScene
    assert not app.profile.has_name
    sc = SettingsScene(app)
    app.push(sc)
    assert sc.widget("name").value == ""                      # "Player" is the placeholder
    sc.focus_id = "name"
    app.set_language("fr")
    key(app, pygame.K_TAB)                                    # leaving the field commits it
    key(app, pygame.K_ESCAPE)
    assert not app.profile.has_name
    assert app.profile.name == lang.t("game.player") == "Joueur"
    app.set_language("nl")
    assert app.profile.name == lang.t("game.player")


def test_a_long_name_is_cut_on_the_sheet_at_a_readable_size(app):
    app.apply_window(theme.MIN_WINDOW)
    name = "W" * MAX_NAME
    sc = stub_game(app, state_of(sheet(), name=name))
    widgets.FIT_REPORT.clear()
    app.draw()
    header = app.layout.rect(sc.sheet_view.header_rect(0, 1))
    drawn = [r for r in widgets.FIT_REPORT if r[0].startswith("WWW")]
    assert drawn and all(t.endswith("…") for t, *_ in drawn)
    for t, px, width, max_width in drawn:
        assert px >= theme.MIN_READABLE_PX and width <= max_width <= header.w


def test_game_key_hints_only_on_game_screens(app):
    from bonanza.client.scenes.solo_setup import SoloSetupScene
    controls = lang.t("game.controls")
    assert controls not in shown_texts(app)                   # title
    app.push(SoloSetupScene(app))
    assert controls not in shown_texts(app)
    stub_game(app, state_of(sheet()))
    assert controls in shown_texts(app)


def test_replay_opens_with_a_visible_focus_and_shows_held_dice(app):
    from bonanza.client.scenes.replay import ReplayScene
    from bonanza.core.verify import verify_bytes
    m = finished_match(holds=[True, False, True, False, False])
    rp = ReplayScene(app, verify_bytes(m.log.to_bytes()))
    app.push(rp)
    app.step(1 / 60)
    last = rp.index
    assert rp.button_enabled(rp.focus_id)                     # a focus ring is drawn
    key(app, pygame.K_RETURN)
    assert rp.index == last - 1                                # one step, not back to move 1
    # the first roll's dice, with the dice the player kept for the second roll
    rp.step_to(1)
    assert rp.records[0]["move"]["type"] == "roll"
    assert rp.held(1) == [True, False, True, False, False]
    assert rp.held(2) == [False] * 5                           # after the second roll comes a write
