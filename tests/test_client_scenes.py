"""Every scene renders (a PNG of each is saved), and no text overflows its box
in any of the six languages at the smallest supported window (960x540, with text at 75 % and at
100 %) nor at the largest interface size in a full-HD window (200 % at 1920x1080)."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import theme

LANGS = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")


def finished_solo(app):
    from bonanza.client.scenes.game import SoloGameScene
    g = SoloGameScene(app, seed_text="scenes")
    app.push(g)
    while not g.state.over:
        g.match.roll([False] * 5)
        g.match.write(g.state.sheets[0].free_boxes()[0])
    app.step()
    return app.scene


def populate_records(app):
    """A few finished games in the store (solo runs with times, two dailies), once."""
    from bonanza.client.daily import start_offline_daily
    from bonanza.client.solo import new_solo_match
    from bonanza.client.store.records import finish_and_record
    store = app.profile.store
    if getattr(app, "_records_populated", False):
        return
    app._records_populated = True
    for i in range(12):
        m = new_solo_match("Player", seed_text=f"scenes {i}")
        while not m.state.over:
            m.roll([False] * 5)
            m.write(sorted(__import__("bonanza.core.game", fromlist=["allowed"]).allowed(m.state))[-1])
        finish_and_record(store, m, 60_000 + i * 7_531, played_at=f"2024-05-{i + 1:02d}T10:00:00Z")
    # random-seed runs (their own board) and one given up (on no board, in the history)
    from bonanza.core.game import Seat, allowed
    from bonanza.core.match import Match
    for i in range(3):
        m = Match.create("bonanza", [Seat("Player")], bytes([i + 1]) * 32, mode="solo")
        while not m.state.over:
            m.roll([False] * 5)
            boxes = sorted(allowed(m.state))
            m.write(boxes[-1 - i % 2] if len(boxes) > 1 else boxes[0])
        finish_and_record(store, m, 70_000 + i * 4_321, played_at=f"2024-05-{20 + i:02d}T10:00:00Z")
    m = Match.create("bonanza", [Seat("Player")], bytes([9]) * 32, mode="solo")
    for _ in range(4):
        m.roll([False] * 5)
        m.write(sorted(allowed(m.state))[-1])
    m.give_up(0)
    finish_and_record(store, m, 20_000, played_at="2024-05-25T10:00:00Z")
    for day in ("2024-06-01", "2024-06-02"):
        m = start_offline_daily(store, "Player", day)
        while not m.state.over:
            m.roll([False] * 5)
            m.write(m.state.sheets[0].free_boxes()[-1])
        finish_and_record(store, m, 95_250, played_at=f"{day}T09:00:00Z")


def build_scenes(app):
    """(name, factory) of every scene, each factory leaving it on top of the stack."""
    from bonanza.client.scenes import daily, game, lobby, replay, rules, settings, solo_setup, table, title, verify
    from tests.doubles import DemoConnection

    def push(scene):
        app.to_title()
        app.push(scene) if not isinstance(scene, title.TitleScene) else None
        return scene

    def solo(splits=False):
        from bonanza.client.actions import Action
        app.profile.settings["show_splits"] = splits
        g = push(game.SoloGameScene(app, seed_text="scenes"))
        g.handle(Action("roll"))
        g.handle(Action("toggle_die", 1))
        g.update(0)
        g.handle(Action("box", g.input.selection))
        return g

    def pause():
        g = solo()
        return app.open("pause", g)

    def results(splits=False):
        app.to_title()
        app.profile.settings["show_splits"] = splits
        return finished_solo(app)

    def replay_scene():
        r = results()
        app.push(replay.ReplayScene(app, r.verdict))
        app.scene.step_to(20)
        return app.scene

    def lobby_scene(n):
        def f():
            conn = DemoConnection(seats=n)
            return push(lobby.LobbyScene(app, conn, "192.168.1.20", 7468))
        return f

    def records_scene(tab="random"):
        def f():
            populate_records(app)
            from bonanza.client.scenes.records import RecordsScene
            sc = push(RecordsScene(app))
            sc.set_tab(tab)
            sc.select(1)
            return sc
        return f

    def table_scene(n):
        def f():
            return push(table.TableScene(app, DemoConnection(seats=n)))
        return f

    def ranked_scene():
        # a board with long names and the relay key line, as a relay would answer
        from bonanza.client.scenes.ranked import RankedScene

        class Conn:
            status = "connected"
            welcome = {"relay_key": bytes(range(32))}

            def __init__(self):
                board = [{"name": "Alexandrina Beatriz N" + str(i), "score": 300 - i,
                          "duration_ms": 185_250 + i, "date": "2026-11-30", "attempts": 12 + i,
                          "place": i + 1} for i in range(8)]
                self.inbox = [{"type": "ranked_info", "attempts": 12, "boards": {
                    "bonanza": {"no_hints": board[:6], "hints": board[:6], "tool_assisted": board[6:]}}}]

            def send(self, msg):
                pass

            def poll(self):
                out, self.inbox = self.inbox, []
                return out

            def close(self, timeout=None):
                pass
        sc = push(RankedScene(app, conn=Conn(), host="192.168.1.20", port=7468))
        sc.update(0)
        sc.show_tool = True         # the relay's "tool-assisted?" runs under its board
        return sc

    def settings_instant():
        # the speedrun setting adds a line under the rows that says what it changes
        app.profile.settings["animation"] = "instant"
        return push(settings.SettingsScene(app))

    return [
        ("title", lambda: (app.to_title(), app.scene)[1]),
        ("solo_setup", lambda: push(solo_setup.SoloSetupScene(app))),
        ("solo_game", solo),
        ("solo_game_splits", lambda: solo(splits=True)),
        ("pause", pause),
        ("results", results),
        ("results_splits", lambda: results(splits=True)),
        ("verify", lambda: push(verify.VerifyScene(app))),
        ("replay", replay_scene),
        ("rules", lambda: push(rules.RulesScene(app))),
        ("records", records_scene()),
        ("records_seeded", records_scene("seeded")),
        ("records_daily", records_scene("daily")),
        ("records_history", records_scene("history")),
        ("settings", lambda: push(settings.SettingsScene(app))),
        ("settings_instant", settings_instant),
        ("ranked", ranked_scene),
        ("daily", lambda: push(daily.DailyScene(app))),
        ("host_setup", lambda: push(lobby.HostSetupScene(app))),
        ("join", lambda: push(lobby.JoinScene(app))),
        ("lobby_2", lobby_scene(2)),
        ("lobby_4", lobby_scene(4)),
        ("table_2", table_scene(2)),
        ("table_4", table_scene(4)),
    ]


def more_scenes(app):
    """Screens the overflow test reads beside ``build_scenes``: pass and play's form, a table
    game's analysis, the charts, and the two warnings a relay can cause."""
    from bonanza.client.relay_notes import RelayKeyNote
    from bonanza.core.verify import verify_bytes
    from tests.test_client_analysis import bot_game
    game = verify_bytes(bot_game())

    def top(name, *args):
        def f():
            app.to_title()
            return app.open(name, *args)
        return f

    def analysis():
        sc = top("analysis", game)()
        assert sc.wait()
        return sc
    note = RelayKeyNote("ab12 cd34 ef56 7890", "changed", "1111 2222 3333 4444", bytes(32))
    return [
        ("pass_setup", top("pass_setup")),
        ("analysis", analysis),
        ("charts", top("charts")),
        ("untrusted", top("untrusted", "relay_key", "", (bytes(32), bytes(range(32))))),
        ("relay_key_changed", top("relay_key_changed", note, "192.168.1.20", 7468, lambda accepted: None)),
    ]


def test_every_scene_renders(app, artifacts):
    for name, factory in build_scenes(app):
        scene = factory()
        app.step()
        assert app.scene is scene, name
        app.screenshot(artifacts / f"client_scene_{name}.png")


# the smallest window with text at its own scale (75 %), at 100 %, and at 200 % (drawn as the
# 100 % it holds, Settings saying so), and the largest interface size in a full-HD window
# (200 %: text at 4/3 of the boxes' scale, as at 960x540 100 %)
@pytest.mark.parametrize("size,percent,held", [(theme.MIN_WINDOW, 0, 75), (theme.MIN_WINDOW, 100, 100),
                                               (theme.MIN_WINDOW, 200, 100), ((1920, 1080), 200, 200)])
def test_no_text_overflows_in_any_language_at_smallest_and_largest_size(app, artifacts, size, percent, held):
    from bonanza.client import widgets
    app.apply_window(size)
    app.profile.settings["ui_scale"] = percent
    app.apply_interface_size()
    assert app.screen.get_size() == size
    assert app.ui_scale() == held
    problems = []
    scenes = build_scenes(app) + more_scenes(app)
    for code in LANGS:
        app.set_language(code)
        for name, factory in scenes:
            factory()
            widgets.FIT_REPORT.clear()
            widgets.TEXT_RECTS.clear()
            app.draw()
            for text, px, width, max_width in widgets.FIT_REPORT:
                if width > max_width + 1 or px < theme.MIN_READABLE_PX:
                    problems.append((code, name, text, px, width, max_width))
            # larger text wraps onto more lines: no line may run into another text
            problems += [(code, name, "overlaps", a, b) for a, b in overlapping_texts(widgets.TEXT_RECTS)]
            if name in ("solo_game", "table_4", "settings_instant", "solo_game_splits", "results_splits",
                        "records", "ranked"):
                pygame.image.save(app.screen, str(artifacts / f"client_{size[0]}_{percent}_{code}_{name}.png"))
    assert not problems, "\n".join(map(str, problems[:40]))


def overlapping_texts(drawn):
    """Pairs of different texts drawn over each other.  A rendered line has room above and
    below its letters (and lines of a paragraph touch), so only the letters' middle counts."""
    core = [(text, r.inflate(-2, -int(r.h * 0.3))) for text, r in drawn]
    return [(a[:40], b[:40]) for i, (a, ra) in enumerate(core) for b, rb in core[i + 1:]
            if a != b and ra.colliderect(rb)]


def _drawn_rects(monkeypatch, module):
    calls = []
    real = module.draw_text

    def spy(surface, text, rect, *a, **k):
        out = real(surface, text, rect, *a, **k)
        calls.append((text, out))
        return out
    monkeypatch.setattr(module, "draw_text", spy)
    return calls


@pytest.mark.parametrize("size", [(1280, 720), theme.MIN_WINDOW])
def test_table_2_rolls_left_sits_on_the_felt(app, monkeypatch, size):
    """The dice, Roll and "n rolls left" stay inside the wooden table's felt inlay."""
    from bonanza.client.scenes import game_base, table
    from tests.doubles import DemoConnection
    app.apply_window(size)
    sc = table.TableScene(app, DemoConnection(seats=2))
    app.push(sc)
    app.step()
    calls = _drawn_rects(monkeypatch, game_base)
    app.draw()
    L = app.layout
    wood = L.rect((sc.cx - 320, 78, 640, 304))
    inset = max(6, min(wood.w, wood.h) // 9)
    felt = wood.inflate(-2 * inset, -2 * inset)
    rolls = [r for t, r in calls if t == app.scene.tn("game.rolls_left", sc.state.rolls_left)]
    assert rolls and felt.contains(rolls[0]), (rolls, felt)
    assert felt.contains(sc.widget("roll").screen_rect(L))
    for r, _ in sc.dice_view.targets(L):
        assert felt.contains(r)


def test_table_4_top_bar_and_footer_stay_beside_the_sheet(app, monkeypatch):
    from bonanza.client.scenes import game_base, table
    from tests.doubles import DemoConnection
    sc = table.TableScene(app, DemoConnection(seats=4))
    app.push(sc)
    app.step()
    calls = _drawn_rects(monkeypatch, table)
    calls_g = _drawn_rects(monkeypatch, game_base)
    app.draw()
    L = app.layout
    sheet = L.rect(sc.sheet_view.rect)
    for text, r in calls + calls_g:
        if text == sc.t("table.auto_legend"):     # the clock's mark's legend is the sheet's own
            assert sheet.contains(r)
        elif r.w:
            assert r.left >= sheet.right and r.right <= app.screen.get_width(), (text, r, sheet)


def test_the_overlap_check_catches_a_line_run_into_another():
    line = pygame.Rect(10, 100, 300, 24)
    assert overlapping_texts([("a paragraph's last line", line), ("a note", line.move(40, 12))])
    assert not overlapping_texts([("one line", line), ("the next line", line.move(0, 20))])
