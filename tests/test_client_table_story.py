"""A table screen that tells the whole story (issue 26, point 6): what players at real tables
met, each checked where a player meets it — the joiner's lobby, the join and host forms, the
results of a table, the replay at four seats, Records, and where messages land."""
from __future__ import annotations

import pygame

from tests.pilot import FRAME, click, drawn_overflows, step_until


def drawn_texts(monkeypatch, module) -> list:
    """Every (text, window rect) ``module`` draws from now on."""
    from bonanza.client import widgets
    seen: list = []

    def record(surface, text, rect, *a, **kw):
        out = widgets.draw_text(surface, text, rect, *a, **kw)
        seen.append((text, out))
        return out
    monkeypatch.setattr(module, "draw_text", record)
    return seen


def finished_table(seats: int = 3, ruleset: str = "bonanza"):
    from bonanza.core.simulate import simulate
    return simulate(ruleset, ["casual", "optimal", "easy", "hard"][:seats], b"story".ljust(32, b"."))


# ---------------------------------------------------------------- the lobby
def test_the_joiners_waiting_line_stays_off_the_relay_key_line(app, monkeypatch, artifacts):
    from bonanza.client.relay_notes import RelayKeyNote
    from bonanza.client.scenes import lobby
    from tests.doubles import DemoConnection
    for n in (2, 3, 4):
        conn = DemoConnection(seats=n, my_seat=1)
        scene = lobby.LobbyScene(app, conn, "192.168.1.20", 7468)
        app.push(scene)
        scene.relay_key = RelayKeyNote("d3ce 4737 2bf6 273c", "new")    # as met at welcome
        seen = drawn_texts(monkeypatch, lobby)
        app.draw()
        waiting = [r for text, r in seen if text == scene.t("lobby.waiting_host")]
        key = [r for text, r in seen if "elay key" in text]
        assert waiting and key, [t for t, _ in seen]
        assert not waiting[0].colliderect(key[0])
        app.screenshot(artifacts / f"story_lobby_joiner_{n}.png")
        app.pop()


# ---------------------------------------------------------------- the join and host forms
def found(port: int, code: str, started: bool, taken: int = 1):
    from bonanza.client.discovery import Found
    return Found("127.0.0.1", port, "Relay", code, "Ana", 4, taken, "bonanza", 60, started, False)


def test_a_found_table_is_joined_at_its_port_and_the_typed_form_keeps_its_own(app, monkeypatch):
    from bonanza.client import relay_client
    from bonanza.client.scenes.lobby import JoinScene, LobbyScene
    from tests.doubles import SilentConnection
    monkeypatch.setattr(relay_client, "RelayConnection", SilentConnection)
    app.profile.name = "Bea"
    join = JoinScene(app)
    app.push(join)
    typed = join.port.value
    join.found, join.searched = [found(40123, "ABCDE", False)], True
    app.step(FRAME)
    click(app, "found0")
    lobby = app.scene
    assert isinstance(lobby, LobbyScene) and lobby.port == 40123
    app.pop()
    assert app.scene is join
    # the next table typed by hand goes to the port typed, not the found relay's random one
    assert join.port.value == typed and join.code.value == ""
    assert app.profile.settings["last_join"].get("port") != 40123


def test_a_started_table_says_it_can_only_be_watched_and_never_2_of_4(app, artifacts):
    from bonanza.client.scenes.lobby import JoinScene
    join = JoinScene(app)
    app.push(join)
    join.found, join.searched = [found(40001, "ABCDE", False, 2), found(40002, "FGHIJ", True, 2)], True
    open_row, started_row = join.found_label(0), join.found_label(1)
    assert "2/4" in open_row
    assert "2/4" not in started_row and "watch only" in started_row
    app.step(FRAME)
    app.screenshot(artifacts / "story_join_found.png")


def test_the_host_form_draws_no_seat_chips_that_do_nothing(app, monkeypatch):
    from bonanza.client.scenes import lobby
    app.profile.name = "Ana"
    form = lobby.HostSetupScene(app)
    app.push(form)
    form.change("seats", 2)            # 4 seats
    seen = drawn_texts(monkeypatch, lobby)
    app.draw()
    shown = [text for text, _ in seen]
    assert form.t("lobby.seat", n=2) not in shown and form.t("lobby.host") not in shown
    assert form.t("lobby.bots_fill") in shown       # what becomes of empty seats is said


# ---------------------------------------------------------------- the results of a table
def test_a_tables_results_show_the_winner_and_every_final_sheet(app, monkeypatch, artifacts):
    from bonanza.client.scenes import results
    m = finished_table(4)
    for spectator in (False, True):
        res = app.make("results", m.state, m.log.to_bytes(), mode="table", my_seat=2,
                       spectator=spectator, reveal_seed=m.reveal["seed"], commitment=m.commitment)
        app.push(res)
        res.skip_animation()
        seen = drawn_texts(monkeypatch, results)
        app.draw()
        shown = [text for text, _ in seen]
        first = res.winners()
        assert (res.t("results.shared_win") if len(first) > 1
                else res.t("results.winner_name", name=first[0].name)) in shown
        rs = m.state.ruleset
        for sheet in m.state.sheets:     # every seat's total and written boxes
            assert str(sheet.total(rs)) in shown
        scores = [str(m.state.sheets[3].get(b)) for b in rs.boxes if m.state.sheets[3].get(b)]
        assert all(s in shown for s in scores)
        assert res.t("game.score") not in shown           # nobody's score as the viewer's
        assert (res.place_line() is None) == spectator
        assert res.visible(res.widget("again")) != spectator     # a watcher cannot play again
        app.screenshot(artifacts / f"story_results_4_{'watcher' if spectator else 'seat'}.png")
        app.pop()


class OfferingConnection:
    """A relay connection after the end: connected, and an offer to play again arrives."""
    status, host, port, table = "connected", "127.0.0.1", 7468, {"code": "ABCDE"}

    def __init__(self):
        self.inbox: list = []

    def poll(self):
        out, self.inbox = self.inbox, []
        return out

    def send(self, msg):
        pass

    def close(self, timeout=None):
        pass


def test_the_play_again_offer_counts_its_120_seconds_down(app):
    from bonanza.client.actions import Action
    from bonanza.core.settings import REMATCH_SECONDS
    m = finished_table(2)
    conn = OfferingConnection()
    res = app.make("results", m.state, m.log.to_bytes(), mode="table", my_seat=0, conn=conn)
    app.push(res)
    app.step(FRAME)
    assert res.again_label() == res.t("results.play_again_left", time="2:00")
    app.step(30.0)
    conn.inbox.append({"type": "rematch", "code": "FGHIJ", "by": "Ana", "seconds": REMATCH_SECONDS})
    app.step(FRAME)
    assert app.toast.text == res.t("results.rematch_offer", name="Ana")
    assert res.again_label() == res.t("results.play_again_left", time="2:00")   # the offer's own
    app.step(61.0)
    assert res.again_label() == res.t("results.play_again_left", time="0:59")
    assert res.enabled(Action("press", "again"))
    app.step(60.0)
    assert res.again_label() == res.t("results.play_again")
    assert not res.enabled(Action("press", "again"))   # the relay would refuse it now


# ---------------------------------------------------------------- where messages go
def test_toasts_stay_off_the_key_hints_and_the_verified_line(app):
    from tests.doubles import DemoConnection
    table = app.make("table", DemoConnection(seats=4))
    app.push(table)
    app.step(FRAME)
    L = app.layout
    app.show("Time's up: Threes 6 was written automatically for Bruno", "info", 5.0)
    toast = app.toast.rect(L, table.toast_clear(L), table.toast_area(L))
    hints = L.rect((table.cx - table.half_wide, 546, 2 * table.half_wide, 48))
    assert not toast.colliderect(hints)
    app.pop()
    m = finished_table(3)
    res = app.make("results", m.state, m.log.to_bytes(), mode="table", my_seat=0,
                   reveal_seed=m.reveal["seed"], commitment=m.commitment)
    app.push(res)
    app.show("Ana wants to play again: press Play again to sit down.", "info", 5.0)
    toast = app.toast.rect(L, res.toast_clear(L), res.toast_area(L))
    assert not toast.colliderect(L.rect((84, 524, 1112, 64)))      # the verdict line


def test_the_clocks_red_corner_has_a_legend_once_the_clock_wrote(app, monkeypatch, artifacts):
    from bonanza.client.scenes import table as table_scene
    from tests.doubles import DemoConnection
    conn = DemoConnection(seats=4)                    # the clock wrote one of seat 1's boxes
    table = app.make("table", conn)
    app.push(table)
    app.step(FRAME)
    assert table.auto_marks()
    seen = drawn_texts(monkeypatch, table_scene)
    app.draw()
    legend = [r for text, r in seen if text == table.t("table.auto_legend")]
    assert legend and legend[0].colliderect(app.layout.rect(table.sheet_view.rect))
    app.screenshot(artifacts / "story_auto_legend.png")
    table._auto = set()                               # no clock move: no legend
    seen.clear()
    app.draw()
    assert table.t("table.auto_legend") not in [text for text, _ in seen]


# ---------------------------------------------------------------- the replay and Records
def test_the_replays_step_buttons_clear_the_sheet_at_every_table_size(app, artifacts):
    from bonanza.client.scenes.replay import ReplayScene
    from bonanza.core.verify import verify_bytes
    for n in (1, 2, 3, 4):
        m = finished_table(n)
        rp = ReplayScene(app, verify_bytes(m.log.to_bytes()))
        app.push(rp)
        sheet = app.layout.rect(rp.sheet_view.rect)
        for id in ("first", "prev", "next", "last"):
            r = rp.widget(id).screen_rect(app.layout)
            assert not r.colliderect(sheet), (n, id)
            assert r.right <= app.layout.rect((0, 0, 1280, 720)).right
        click(app, "first")
        assert rp.index == 0
        if n == 4:
            app.screenshot(artifacts / "story_replay_4_first.png")
        app.pop()


def test_records_opens_on_a_tab_that_has_games(app):
    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.store.records import finish_and_record
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    m = Match.create("yatzy", [Seat("Player")], bytes([3]) * 32, mode="solo")
    while not m.state.over:
        m.roll([False] * 5)
        m.write(m.state.sheets[0].free_boxes()[0])
    finish_and_record(app.profile.store, m, 90_000)
    rec = RecordsScene(app)          # the first board (random, bonanza) has none
    assert rec.tab == "random" and rec.rulesets["random"] == "yatzy" and rec.entries
    app.push(rec)
    app.step(FRAME)
    assert rec.focus_id == "list"
    pygame.event.clear()


# ---------------------------------------------------------------- quick reactions
def test_quick_reactions_by_key_and_button_shown_by_the_name_and_muted_per_player(app, artifacts):
    """A window seated at a real relay's table with Ana (a second connection) and a watcher:
    keys 6-0 and the buttons react, every reaction shows by its player's name, a click on
    Ana's name mutes hers, and the watcher's screen has no reaction buttons."""
    from bonanza.client.relay_client import RelayConnection
    from bonanza.client.scenes.lobby import LobbyScene
    from bonanza.core.settings import REACTION_SECONDS, REACTIONS
    from tests.pilot import key
    from tests.relay_harness import relay_in_thread
    with relay_in_thread() as (relay, _):
        ana = RelayConnection("127.0.0.1", relay.port)
        watcher = None
        try:
            step_until(app, lambda: ana.status == "connected")
            ana.send({"type": "create_table", "name": "Ana", "seats": 3, "turn_seconds": 90,
                      "ruleset": "bonanza"})
            step_until(app, lambda: ana.table is not None, others=[ana.poll])
            code = ana.table["code"]
            conn = RelayConnection("127.0.0.1", relay.port)
            app.push(LobbyScene(app, conn, "127.0.0.1", relay.port,
                                request={"type": "join", "code": code, "name": "Bea"}))
            step_until(app, lambda: len((ana.table or {}).get("players", [])) == 2, others=[ana.poll])
            ana.send({"type": "start"})
            step_until(app, lambda: type(app.scene).__name__ == "TableScene", others=[ana.poll])
            table = app.scene
            me, her = table.conn.seat, ana.seat
            assert all(table.visible(table.widget(f"react:{i}")) for i in range(len(REACTIONS)))
            key(app, pygame.K_7)                                      # "nice", by key
            step_until(app, lambda: table.reactions.showing(app.now).get(me, ("",))[0] == "nice",
                       others=[ana.poll])
            ana.send({"type": "react", "emote": "gg"})
            step_until(app, lambda: her in table.reactions.showing(app.now), others=[ana.poll])
            assert app.toast.text == table.t("table.reactions_mute_hint")
            app.draw()
            app.screenshot(artifacts / "story_reactions.png")
            click(app, "react:2")                                     # "wow", by the button
            step_until(app, lambda: table.reactions.showing(app.now)[me][0] == "wow", others=[ana.poll])
            # her name on the sheet mutes her
            n = len(table.state.setup.seats)
            click(app, app.layout.rect(table.sheet_view.header_rect(her, n)))
            assert her in table.reactions.muted and her not in table.reactions.showing(app.now)
            assert app.toast.text == table.t("table.reactions_muted", name="Ana")
            app.step(REACTION_SECONDS)
            ana.send({"type": "react", "emote": "oops"})
            key(app, pygame.K_6)                                      # my "hello" comes after hers
            step_until(app, lambda: table.reactions.showing(app.now).get(me, ("",))[0] == "hello",
                       others=[ana.poll])
            assert her not in table.reactions.showing(app.now)        # muted: not shown
            # a flood from this window is held back before the relay has to refuse it
            sent = [m for m in range(6) if table.reactions.may_send(app.now)]
            assert len(sent) < 6
            # a watcher sees the reactions and has none to send
            watcher = RelayConnection("127.0.0.1", relay.port)
            step_until(app, lambda: watcher.status == "connected")
            watcher.send({"type": "watch", "code": code})
            step_until(app, lambda: watcher.state is not None, others=[watcher.poll])
            watching = app.make("table", watcher)
            assert not watching.reacts()
            assert not any(watching.visible(watching.widget(f"react:{i}")) for i in range(len(REACTIONS)))
        finally:
            ana.close(1.0)
            if watcher is not None:
                watcher.close(1.0)


# ---------------------------------------------------------------- six languages at 960x540
def test_the_new_table_texts_fit_in_six_languages_at_960x540(data_dirs, artifacts):
    """The results of a 4-seat table, a table with reactions shown and the clock's legend,
    the host form and the found tables: no text shrunk below a readable size or overflowing."""
    from bonanza.client import lang
    from bonanza.client.i18n import LANGUAGES
    from bonanza.client.scenes.lobby import HostSetupScene, JoinScene
    from tests import pilot
    from tests.doubles import DemoConnection
    m = finished_table(4, "yatzy")
    problems = []
    with pilot.window(data_dirs["data"], size=(960, 540)) as app:
        for code in LANGUAGES:
            lang.set_language(code)
            table = app.make("table", DemoConnection(seats=4))
            app.push(table)
            app.step(FRAME)
            for seat, emote in enumerate(("hello", "nice", "oops", "gg")):
                table.reactions.received({"seat": seat, "emote": emote}, 4, app.now)
            app.profile.name = "Ana"
            res = app.make("results", m.state, m.log.to_bytes(), mode="table", my_seat=1,
                           reveal_seed=m.reveal["seed"], commitment=m.commitment)
            res.skip_animation()
            join = JoinScene(app)
            join.found, join.searched = [found(40001, "ABCDE", False, 2), found(40002, "FGHIJ", True, 2)], True
            for name, scene in (("table", table), ("results", res), ("host", HostSetupScene(app)),
                                ("join", join)):
                if scene is not table:
                    app.push(scene)
                problems += drawn_overflows(app, artifacts / f"story_{name}_{code}_960.png", code, name)
            app.to_title()
    assert not problems, "\n".join(map(str, problems[:40]))


# ---------------------------------------------------------------- the fingerprint at a table
def test_the_fingerprint_sits_inside_the_window_under_the_reactions(data_dirs, artifacts):
    """A seat's table with the reaction buttons: the fingerprint line (with "as when you sat
    down") is whole inside the window, with a margin, and touches no button or other text."""
    from types import SimpleNamespace

    from bonanza.client import widgets
    from tests import pilot
    from tests.doubles import DemoConnection
    for size in ((960, 540), (1280, 720)):
        with pilot.window(data_dirs["data"], size=size) as app:
            conn = DemoConnection(seats=4)
            commit = conn.match.log.header["dice"]["commit"]
            conn.client = SimpleNamespace(header=conn.match.log.header, sat_down_commitment=commit)
            table = app.make("table", conn)
            app.push(table)
            app.step(FRAME)
            assert table.reacts()
            widgets.TEXT_RECTS.clear()
            app.draw()
            app.screenshot(artifacts / f"table_fingerprint_{size[0]}.png")
            line = table.fingerprint_line(commit)
            drawn = {tuple(r) for text, r in widgets.TEXT_RECTS if text == line}
            assert len(drawn) == 1, (line, drawn)
            rect = pygame.Rect(drawn.pop())
            margin = app.layout.px(6)
            window = app.screen.get_rect()
            assert window.inflate(-2 * margin, -2 * margin).contains(rect), (rect, window)
            buttons = [w.screen_rect(app.layout) for w in table.widgets if table.visible(w)]
            assert not any(rect.colliderect(b) for b in buttons), (rect, buttons)
            others = [r for text, r in widgets.TEXT_RECTS if text != line and r.w and r.h]
            assert not any(rect.colliderect(r) for r in others), [
                (t, r) for t, r in widgets.TEXT_RECTS if t != line and rect.colliderect(r)]
