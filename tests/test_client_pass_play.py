"""Play on this computer (pass and play) and come back to an unfinished game: a 3-seat game
(two people and a bot) played to the end through the window's actions, each person's result
in their own records; a game killed with SIGKILL mid-way comes back through "Continue"."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pygame

from bonanza.client import household, saved_game
from bonanza.client.actions import Action
from bonanza.core.verify import verify_bytes
from tests.pilot import FRAME, click, drawn_overflows, key, play_own_turn, step_until, type_text, window


def scene_name(app) -> str:
    return type(app.scene).__name__


def set_up_three_seats(app, names=("Ana", "Bea")) -> None:
    click(app, "pass")
    assert scene_name(app) == "PassPlaySetupScene"
    for i, name in enumerate(names):
        click(app, f"name:{i}")
        type_text(app, name)
    click(app, "kind:2")          # empty -> person
    click(app, "kind:2")          # person -> easy bot
    assert app.scene.kinds[:3] == ["person", "person", "easy"]
    assert app.scene.button_enabled("start")


def play_turn_step(app) -> None:
    """One step of whoever holds the window: pass it on, roll, or write the first free box."""
    scene = app.scene
    if scene_name(app) == "PassTurnScene":
        key(app, pygame.K_SPACE)
        return
    if scene_name(app) == "TableScene":
        play_own_turn(app, scene)
    app.step(FRAME)


def test_three_seats_two_people_and_a_bot_play_to_the_end(app, artifacts):
    set_up_three_seats(app)
    app.step()
    app.screenshot(artifacts / "pass_play_setup.png")
    click(app, "start")
    step_until(app, lambda: scene_name(app) in ("PassTurnScene", "TableScene"), what="the table")
    shot_pass = shot_table = False
    passes = 0
    while scene_name(app) in ("PassTurnScene", "TableScene"):
        if scene_name(app) == "PassTurnScene":
            passes += 1
            if not shot_pass:
                app.screenshot(artifacts / "pass_play_pass_to.png")
                shot_pass = True
            # the clock and the moves wait for the person to take the window
            table = app.scenes[-2]
            assert table.conn.waiting == app.scene.name
        elif not shot_table and app.scene.state.dice is not None and app.scene.my_turn():
            app.screenshot(artifacts / "pass_play_table.png")
            shot_table = True
        play_turn_step(app)
    assert passes >= 13        # every turn of a person after another person's asks to pass
    assert scene_name(app) == "ResultsScene"
    res = app.scene
    assert res.verdict is not None and res.verdict.ok
    assert len(res.standings) == 3
    app.screenshot(artifacts / "pass_play_results.png")
    # each person's result is in their own records on this computer
    root = household.people_root(app.profile)
    for name in ("Ana", "Bea"):
        from bonanza.client.store import open_store
        store, _ = open_store(household.person_dir(root, name))
        try:
            games = store.history()
            assert len(games) == 1 and games[0].name == name, games
            assert games[0].mode == "table"
            seat = [s.name for s in res.state.setup.seats].index(name)
            assert games[0].score == res.state.total(seat)
        finally:
            store.close()
    assert household.known_people(app.profile)[-2:] == ["Ana", "Bea"]
    # the finished game is no longer offered to continue
    assert not saved_game.exists(app.profile)
    assert verify_bytes(res.log_bytes).ok


def test_the_profile_owner_is_recorded_in_the_window_account(app):
    app.profile.name = "Ana"
    app.profile.save()
    set_up_three_seats(app, names=("", "Bea"))     # seat 1 holds the owner's name already
    assert app.scene.widget("name:0").value == "Ana"
    click(app, "start")
    step_until(app, lambda: scene_name(app) in ("PassTurnScene", "TableScene"), what="the table")
    while scene_name(app) in ("PassTurnScene", "TableScene"):
        play_turn_step(app)
    assert scene_name(app) == "ResultsScene"
    mine = app.profile.store.history()
    assert len(mine) == 1 and mine[0].name == "Ana"


def test_a_person_twice_or_no_person_cannot_start(app):
    click(app, "pass")
    click(app, "name:0")
    type_text(app, "Ana")
    click(app, "name:1")
    type_text(app, "ana")          # the same person, spelt another way
    assert not app.scene.button_enabled("start")
    for _ in range(6):
        click(app, "kind:0")       # person -> easy, medium, hard, perfect bots -> empty -> person
    assert app.scene.kinds[0] == "person"


CHILD = textwrap.dedent("""
    import sys
    from bonanza.client.actions import Action
    from tests.pilot import FRAME, window
    with window(sys.argv[1]) as app:
        app.profile.name = "Solo"
        app.profile.save()
        app.open("solo_game")
        game = app.scene
        for act in (Action("roll"), Action("roll"), None, Action("roll")):
            if act is None:
                box = game.state.sheets[0].free_boxes()[0]
                app.dispatch(Action("box", box))
                if game.input.pending:
                    app.dispatch(Action("box", box))
            else:
                app.dispatch(act)
            for _ in range(3):
                app.step(FRAME)
        print(game.state.state_hash().hex(), game.state.seq, flush=True)
        sys.stdin.read()        # killed here, mid-game
""")


def test_kill_9_mid_game_then_continue_resumes_the_same_state(data_dirs, artifacts):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.getcwd(), env.get("PYTHONPATH", "")])
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(data_dirs["data"])], env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line, "the child printed nothing"
        want_hash, want_seq = line.split()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    assert child.returncode == -signal.SIGKILL
    with window(data_dirs["data"]) as app:
        assert app.scene.widget("continue") is not None
        assert app.scene.focus_id == "continue"
        app.step()
        app.screenshot(artifacts / "continue_title.png")
        key(app, pygame.K_RETURN)
        assert scene_name(app) == "SoloGameScene"
        game = app.scene
        assert game.state.state_hash().hex() == want_hash and str(game.state.seq) == want_seq
        assert game.resumed
        # it plays on from there, and its end says it was resumed
        while not game.state.over:
            st = game.state
            if st.dice is None:
                app.dispatch(Action("roll"))
            else:
                box = st.sheets[0].free_boxes()[0]
                app.dispatch(Action("box", box))
                if game.input.pending:
                    app.dispatch(Action("box", box))
            app.step(FRAME)
        step_until(app, lambda: scene_name(app) == "ResultsScene", what="the results")
        assert app.scene.verdict.ok
        assert app.scene.verdict.log.end["meta"].get("resumed") is True
        assert not saved_game.exists(app.profile)


def test_a_damaged_save_is_refused_not_played(app):
    app.open("solo_game")
    game = app.scene
    app.dispatch(Action("roll"))
    app.step(FRAME)
    assert saved_game.exists(app.profile)
    path = saved_game.save_path(app.profile)
    text = path.read_text()
    import json
    body = json.loads(text)
    body["seed"] = "00" * 32          # not the seed the header commits to
    path.write_text(json.dumps(body))
    assert saved_game.load(app.profile) is None
    app.to_title()
    assert game is not app.scene
    app.scene.on_press("continue")
    assert scene_name(app) == "TitleScene"
    assert not saved_game.exists(app.profile)


LANGS = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")


def test_new_screens_fit_in_six_languages_at_960x540(app, artifacts):
    """The setup, the pass screen, the title with Continue and the pass-and-play table fit."""
    from bonanza.client import theme
    app.apply_window(theme.MIN_WINDOW)
    app.profile.name = "Ana"
    app.profile.save()
    click(app, "pass")
    click(app, "name:1")
    type_text(app, "Bea")
    click(app, "kind:2")
    click(app, "kind:2")
    click(app, "start")
    step_until(app, lambda: scene_name(app) == "PassTurnScene", what="the pass screen")
    problems = []
    for code in LANGS:
        app.set_language(code)
        for name in ("pass_turn", "table", "title", "pass_setup"):
            if name == "table":
                key(app, pygame.K_SPACE)                    # take the window
                app.dispatch(Action("roll"))
                app.step(FRAME)
            elif name == "title":
                app.to_title()
                assert app.scene.widget("continue") is not None
            elif name == "pass_setup":
                click(app, "pass")
            problems += drawn_overflows(app, artifacts / f"pass_play_{name}_{code}_960.png", code, name)
        # back to a table waiting for its next person
        app.to_title()
        app.scene.on_press("continue")
        step_until(app, lambda: scene_name(app) == "PassTurnScene", what="the pass screen again")
    assert not problems, "\n".join(map(str, problems[:40]))


def test_a_watcher_sees_watching_no_hints_and_the_winner_not_a_score(app, artifacts):
    """A window without a seat (here: a table of bots followed in-process) says "Watching"
    where the key hints were, has no Hints button, and its results name the winner."""
    from bonanza.client import widgets
    from bonanza.client.local_table import LocalTable
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    match = Match.create("bonanza", [Seat("Bot Ada", "bot", "casual"), Seat("Bot Bram", "bot", "casual"),
                                     Seat("Bot Chloé", "bot", "casual")], bytes(32), mode="table")
    conn = LocalTable(match, lambda: app.now, bot_pace=0.0)
    table = app.make("table", conn)
    app.push(table)
    app.step(FRAME)
    assert table.watching()
    assert not table.visible(table.widget("hints"))
    widgets.FIT_REPORT.clear()
    app.draw()
    shown = [text for text, *_ in widgets.FIT_REPORT]
    assert "Watching" in shown and not any("R roll" in t for t in shown)
    app.screenshot(artifacts / "watching_table.png")
    step_until(app, lambda: scene_name(app) == "ResultsScene", what="the end", timeout=120)
    res = app.scene
    assert res.spectator
    widgets.FIT_REPORT.clear()
    app.draw()
    shown = [text for text, *_ in widgets.FIT_REPORT]
    banner = (res.t("results.shared_win") if len(res.winners()) > 1
              else res.t("results.winner_name", name=res.winners()[0].name))
    assert banner in shown and "Score" not in shown and res.place_line() is None
    # every final sheet: each seat's total under its name
    assert all(str(sh.total(res.state.ruleset)) in shown for sh in res.state.sheets)
    app.screenshot(artifacts / "watching_results.png")


def test_a_seated_player_is_told_their_place(app, artifacts):
    """"You came 2nd of 4" as an ordinal in every language; a tie says the place is shared."""
    import dataclasses

    from bonanza.client import lang, widgets
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    from bonanza.core.simulate import play_bot_turn
    match = Match.create("bonanza", [Seat("Ana"), Seat("Bea"), Seat("Cy"), Seat("Di")], bytes(32),
                         mode="table")
    policies = ["optimal", "casual", "casual", "casual"]
    while not match.state.over:
        play_bot_turn(match, policies[match.state.active])
    match.finish()
    from bonanza.core.game import standings
    table = standings(match.state)
    assert [s.place for s in table] == [1, 2, 3, 4]     # this seed: no tie
    res = app.make("results", match.state, match.log.to_bytes(), mode="table", my_seat=table[1].seat)
    assert res.place_line() == "You came 2nd of 4"
    res.my_seat = table[-1].seat
    assert res.place_line() == "You came 4th of 4"
    res.my_seat = table[0].seat
    assert res.place_line() == "You won!"
    # the same seat tied with another: first, and after first
    tied = [dataclasses.replace(s, place=1 if i < 2 else s.place) for i, s in enumerate(table)]
    res.standings = tied
    assert res.place_line() == "You shared 1st place"
    res.standings = [dataclasses.replace(s, place=min(s.place, 3)) for s in table]
    res.my_seat = table[-1].seat
    assert res.place_line() == "You shared 3rd place"
    expected = {"pt-PT": "Ficaste em 3.º de 4", "pt-BR": "Você ficou em 3º de 4",
                "es": "Has quedado 3.º de 4", "fr": "Tu termines 3e sur 4",
                "nl": "Je werd 3e van de 4"}
    try:
        for code, line in expected.items():
            lang.set_language(code)
            res = app.make("results", match.state, match.log.to_bytes(), mode="table",
                           my_seat=table[2].seat)
            assert res.place_line() == line
            app.push(res)
            res.skip_animation()
            app.step(FRAME)
            widgets.FIT_REPORT.clear()
            app.draw()
            # the whole line at its own size (the layout scales it alike at 960x540)
            assert [(px, w <= max_w) for text, px, w, max_w in widgets.FIT_REPORT if text == line] == [
                (app.layout.font_px(24), True)]
            app.screenshot(artifacts / f"results_place_{code}.png")
            app.pop()
    finally:
        lang.set_language("en")


def test_the_form_and_the_pass_screen_setting_are_kept_across_a_restart(data_dirs):
    with window(data_dirs["data"]) as app:
        set_up_three_seats(app)
        click(app, "pass_screen")          # off: the next turn starts at once
        assert app.profile.settings["pass_screen"] is False
        click(app, "start")
        step_until(app, lambda: scene_name(app) == "TableScene", what="the table")
        step_until(app, lambda: scene_name(app) == "TableScene" and app.scene.conn.waiting is None,
                   what="a turn begun without the pass screen")
    with window(data_dirs["data"]) as app:
        assert app.profile.settings["pass_screen"] is False
        app.open("settings")
        assert app.scene.value_text("pass_screen") == "Off"
        app.to_title()
        click(app, "pass")
        assert app.scene.kinds[:3] == ["person", "person", "easy"]
        assert [app.scene.widget(f"name:{i}").value for i in range(2)] == ["Ana", "Bea"]


def test_a_time_up_toast_of_the_last_turn_does_not_sit_over_the_results(app, artifacts):
    """The clock writes a person's last box: the table says so in a toast, and the results
    that open at once start without it (their title is where their own toasts go)."""
    from bonanza.client.local_table import LocalTable
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    from bonanza.core.simulate import play_bot_turn
    match = Match.create("bonanza", [Seat("Bot Ada", "bot", "casual"), Seat("Ana")], bytes(32),
                         mode="table")
    rs = match.state.ruleset

    def last_turn_of_ana() -> bool:
        st = match.state
        return st.active == 1 and sum(st.sheets[1].get(b) is None for b in rs.boxes) == 1
    while not last_turn_of_ana():
        play_bot_turn(match, "casual")
    conn = LocalTable(match, lambda: app.now, turn_seconds=2, pass_screen=False, bot_pace=0.0)
    table = app.make("table", conn)
    app.push(table)
    shown = []
    show = app.show

    def told(text, *args, **kwargs):       # what the table said, in the frame it ended
        shown.append(text)
        show(text, *args, **kwargs)
    app.show = told
    step_until(app, lambda: scene_name(app) == "ResultsScene",
               what="the clock's last move and the results", timeout=30)
    app.show = show
    assert any(t.startswith("Time's up") for t in shown)     # the table said it
    assert match.state.over and not app.toast.visible
    app.step(FRAME)
    app.screenshot(artifacts / "results_after_time_up.png")
    assert not app.toast.visible
    # an error still shown when the results open (something was lost) stays, in their place
    app.show("Could not save the game.", "error", 6.0)
    app.scene.on_enter()
    assert app.toast.visible and app.toast.kind == "error"
