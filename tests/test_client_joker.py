"""The joker in the solo scene: a seeded game (found by a small search over seeds
with a simple keep-the-most-common-face policy, using ``core.match.Match``) where
five of a kind is rolled while the Bonanza box holds 50.  The scene, driven with
the same moves, must only let the forced box be written, and the joker bonus row
must then show 50."""
from __future__ import annotations

from collections import Counter

import pygame
import pytest

from bonanza.client import lang
from bonanza.client.actions import Action
from bonanza.core.game import Seat, allowed
from bonanza.core.match import Match
from bonanza.core.rules import BOXES, LOWER_BOXES, UPPER_BOXES, preview


def keep_most_common(dice):
    face, _ = Counter(dice).most_common(1)[0]
    return [d == face for d in dice]


def choose_box(st):
    """Bonanza for five of a kind while it is free; otherwise the best-scoring free
    box, keeping the Bonanza box for later."""
    sheet = st.sheets[0]
    ok = list(allowed(st))
    if len(set(st.dice)) == 1 and "bonanza" in ok:
        return "bonanza"
    p = preview(st.ruleset, sheet, st.dice)
    pool = [b for b in ok if b != "bonanza"] or ok
    return max(pool, key=lambda b: (p.get(b, 0), -BOXES.index(b)))


def find_joker_game(max_seeds=400):
    """(seed_text, turns) where ``turns`` lists per turn the hold masks before each
    reroll and the box written; the last turn ends on a forced joker roll (not written)."""
    from bonanza.core.settings import seed_from_text
    for i in range(max_seeds):
        seed_text = f"joker-{i}"
        m = Match.create("bonanza", [Seat("Player")], seed_from_text(seed_text), mode="solo")
        turns = []
        while not m.state.over:
            holds = []
            m.roll([False] * 5)
            while m.state.rolls_left > 0 and len(set(m.state.dice)) > 1:
                hold = keep_most_common(m.state.dice)
                holds.append(hold)
                m.roll(hold)
            st = m.state
            sheet = st.sheets[0]
            if (len(set(st.dice)) == 1 and sheet.get("bonanza") == 50
                    and len(allowed(st)) < len(sheet.free_boxes())):
                turns.append((holds, None))
                return seed_text, turns
            box = choose_box(st)
            turns.append((holds, box))
            _, refusal = m.write(box)
            assert refusal is None
    pytest.fail("no seeded game with a forced joker in the searched seeds")


def do(app, name, arg=None):
    ok = app.dispatch(Action(name, arg))
    app.step(1 / 60)
    return ok


def roll_with_holds(app, scene, holds):
    assert do(app, "roll")
    for hold in holds:
        for i, h in enumerate(hold):
            if scene.input.held[i] != h:
                assert do(app, "toggle_die", i)
        assert do(app, "roll")


def write(app, scene, box):
    turn = scene.state.turn
    for _ in range(2):             # "Register?" / "Scratch?" asks once
        assert do(app, "box", box)
        if scene.state.turn != turn or scene.state.over:
            return
    raise AssertionError(f"{box} was not written")


class DrawSpy:
    """Records every text the sheet draws with the cell it lands in."""

    def __init__(self, monkeypatch):
        import bonanza.client.sheet_view as sv
        self.calls = []
        real = sv.draw_text

        def spy(surface, text, rect, *a, **k):
            self.calls.append((text, pygame.Rect(rect)))
            return real(surface, text, rect, *a, **k)
        monkeypatch.setattr(sv, "draw_text", spy)

    def text_in(self, rect) -> list[str]:
        return [t for t, r in self.calls if rect.contains(r) or r.center == rect.center]


def test_joker_forces_its_box_and_pays_the_bonus(app, artifacts, monkeypatch):
    from bonanza.client.scenes.game import SoloGameScene
    from bonanza.client.sheet_view import ROWS
    seed_text, turns = find_joker_game()
    scene = SoloGameScene(app, seed_text=seed_text)
    app.push(scene)
    app.step()
    for holds, box in turns[:-1]:
        roll_with_holds(app, scene, holds)
        write(app, scene, box)
    roll_with_holds(app, scene, turns[-1][0])
    st = scene.state
    sheet = st.sheets[0]
    assert len(set(st.dice)) == 1 and sheet.get("bonanza") == 50
    ok = set(allowed(st))
    free = set(sheet.free_boxes())
    forbidden = sorted(free - ok, key=BOXES.index)
    assert ok and forbidden
    # the previews show only the allowed boxes
    assert set(scene.input.previews(st)) == ok
    spy = DrawSpy(monkeypatch)
    app.screenshot(artifacts / "client_joker_forced.png")
    L, sv = app.layout, scene.sheet_view
    for i, (kind, k) in enumerate(ROWS):
        if kind == "box" and k in free:
            cell = L.rect(sv.cell_rect(i, 0, 1))
            drawn = spy.text_in(cell)
            if k in ok:
                assert drawn, f"no preview in the allowed box {k}"
            else:
                assert not drawn, f"a preview in the forbidden box {k}: {drawn}"
    # the selection moves only over the allowed boxes (and Roll, while rolls remain)
    for _ in range(len(BOXES)):
        do(app, "down")
        assert scene.input.selection in ok
        assert scene.focus_id is None or (scene.focus_id == "roll" and st.rolls_left > 0)
    while scene.focus_id == "roll":
        do(app, "down")
    # trying another box is refused with the joker toast; nothing is written
    seq = st.seq
    assert do(app, "box", forbidden[0])
    # ... which names where the roll must go
    upper = UPPER_BOXES[st.dice[0] - 1]
    if ok == {upper}:
        expected = lang.t("refusal.joker_to_upper", box=lang.t(f"box.{upper}"))
        assert lang.t(f"box.{upper}") in expected
    elif ok <= set(LOWER_BOXES):
        expected = lang.t("refusal.joker_to_lower")
    else:
        expected = lang.t("refusal.joker_to_scratch")
    assert app.toast.visible and app.toast.text == expected
    assert scene.state.seq == seq and scene.input.pending is None
    # the forced box is written (keyboard: Enter, confirming once if rolls remain)
    target = sorted(ok, key=BOXES.index)[0]
    scene.input.selection = target
    turn = scene.state.turn
    for _ in range(2):
        do(app, "confirm")
        if scene.state.turn != turn:
            break
    after = scene.state.sheets[0]
    assert after.get(target) is not None
    assert after.extra_bonus == 50
    # the joker bonus row shows 50
    spy.calls.clear()
    app.screenshot(artifacts / "client_joker_bonus.png")       # draws once
    row = [i for i, (kind, k) in enumerate(ROWS) if (kind, k) == ("sum", "joker")][0]
    assert spy.text_in(L.rect(sv.cell_rect(row, 0, 1))) == ["50"]


def joker_match():
    """A solo ``Match`` stopped on a forced joker roll (``find_joker_game``'s seed)."""
    from bonanza.core.settings import seed_from_text
    seed_text, turns = find_joker_game()
    m = Match.create("bonanza", [Seat("Player")], seed_from_text(seed_text), mode="solo")
    for holds, box in turns:
        m.roll([False] * 5)
        for hold in holds:
            m.roll(hold)
        if box is not None:
            m.write(box)
    return m


def test_the_tests_players_write_only_a_box_the_joker_allows():
    """The pilot's players (the window's own turn and a relay seat) write where core allows:
    a guest that wrote its last free box was refused on a joker and sent it again every
    frame, until the relay rate-limited it and the turn's 60 s clock wrote for it
    (tests/test_client_rematch.py once took 62 s)."""
    from tests.pilot import next_move, seat_player
    st = joker_match().state
    assert st.sheets[0].free_boxes()[0] not in allowed(st)
    assert st.sheets[0].free_boxes()[-1] not in allowed(st)
    assert next_move(st) == {"type": "write", "box": allowed(st)[0]}

    class Seat0:         # what seat_player reads of a RelayConnection, here the match's own state
        state, sent = st, []

        class client:
            my_turn, seq = True, st.seq

        def poll(self):
            return []

        def send(self, msg):
            self.sent.append(msg)
    conn = Seat0()
    play = seat_player(conn)
    for _ in range(5):           # the answer is still on its way: sent once, not each frame
        play()
    assert conn.sent == [{"type": "write", "box": allowed(st)[0]}]
