"""A controller alone fills every text field: A on a field opens the on-screen keyboard, the
D-pad walks to each key as a player's thumb would (posted SDL controller events under the
dummy driver, nothing else), and what it types goes through the field's own rules."""
from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.client import widgets
from bonanza.client.widgets import TextField
from tests import pilot
from tests.test_client_controller import pad


def walk_to(app, index: int) -> None:
    """D-pad presses from the keyboard's cursor to key ``index``: rows first, then along it."""
    kb = app.keyboard
    for _ in range(12):
        if kb.keys[kb.cursor].row == kb.keys[index].row:
            break
        down = kb.keys[index].row > kb.keys[kb.cursor].row
        pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN if down else pygame.CONTROLLER_BUTTON_DPAD_UP)
    for _ in range(12):
        if kb.cursor == index:
            return
        right = index > kb.cursor
        pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT if right else pygame.CONTROLLER_BUTTON_DPAD_LEFT)
    assert kb.cursor == index, (kb.cursor, index)


def press_key(app, name: str) -> None:
    kb = app.keyboard
    i = kb.key_at(name)
    assert i is not None, name
    walk_to(app, i)
    pad(app, pygame.CONTROLLER_BUTTON_A)


def pad_type(app, text: str) -> None:
    """Type ``text`` on the on-screen keyboard with the D-pad and A (Y for a space)."""
    for ch in text:
        kb = app.keyboard
        assert kb is not None, "the keyboard closed while typing"
        if ch == " ":
            pad(app, pygame.CONTROLLER_BUTTON_Y)
            continue
        if kb.key_at(ch) is None:           # on another page: back to the letters, then there
            page = kb.page_of(ch)
            assert page is not None, f"no key types {ch!r}"
            if kb.page != "letters":
                press_key(app, kb.page)
            if page != kb.page:
                press_key(app, page)
        want_shift = ch != ch.lower()
        if kb.shift != want_shift:
            press_key(app, "shift")
        press_key(app, ch if not want_shift else ch.lower())


def open_keyboard(app, field_id: str) -> TextField:
    sc = app.scene
    sc.focus_id = field_id
    field = sc.widget(field_id)
    field.value, field.caret = "", None
    pad(app, pygame.CONTROLLER_BUTTON_A)
    assert app.keyboard is not None and app.keyboard.field_id == field_id
    return field


def test_a_controller_alone_writes_the_players_name_in_settings(app, artifacts):
    for _ in range(12):                      # the title's menu, by the D-pad
        if app.scene.focus_id == "settings":
            break
        pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    pad(app, pygame.CONTROLLER_BUTTON_A)
    settings = app.scene
    assert type(settings).__name__ == "SettingsScene"
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    assert settings.focus_id == "name"
    widgets.TEXT_RECTS.clear()
    app.draw()                               # the focused field says A types, while a pad is used
    assert widgets.PAD_TYPES in [text for text, _ in widgets.TEXT_RECTS]
    app.screenshot(artifacts / "onscreen_keyboard_field_badge.png")
    pad(app, pygame.CONTROLLER_BUTTON_A)     # A on a field: the keyboard, not a submit
    assert app.keyboard is not None
    pad_type(app, "ZoëMa")
    assert settings.name_field.value == "ZoëMa"
    pad(app, pygame.CONTROLLER_BUTTON_X)     # X deletes
    pad(app, pygame.CONTROLLER_BUTTON_LEFTSHOULDER)   # LB: the caret back one
    pad(app, pygame.CONTROLLER_BUTTON_Y)     # Y: a space
    assert settings.name_field.value == "Zoë M"
    app.screenshot(artifacts / "onscreen_keyboard_settings_name.png")
    press_key(app, "done")                   # Enter in the field: the name is kept
    assert app.keyboard is None
    assert app.profile.name == "Zoë M"


def test_done_in_the_seed_starts_the_seeded_run(app):
    app.open("solo_setup")
    open_keyboard(app, "seed")
    pad_type(app, "Couch 7")
    press_key(app, "done")
    game = app.scene
    assert type(game).__name__ == "SoloGameScene" and game.seed_text == "Couch 7"


def test_every_text_field_takes_a_controllers_typing(app, artifacts):
    """Each text field on every screen (names, seeds, a relay's address and port, a table
    code, a file's path), filled by the keyboard and closed with B, which keeps the text."""
    from tests.test_client_scenes import build_scenes
    typed = {"port": "7468", "code": "AB12"}
    seen = []
    scenes = build_scenes(app) + [("pass_setup", lambda: app.open("pass_setup"))]
    for name, factory in scenes:
        factory()
        app.step()
        sc = app.scene
        for field in [w for w in sc.widgets if isinstance(w, TextField) and sc.visible(w)]:
            open_keyboard(app, field.id)
            text = typed.get(field.id, "/tmp/a.log" if field.id == "path" else "Ana 127.0.0.1")
            pad_type(app, text)
            pad(app, pygame.CONTROLLER_BUTTON_B)
            assert app.keyboard is None and app.scene is sc, (name, field.id)
            assert field.value == text[:field.max_len], (name, field.id, field.value)
            seen.append((name, field.id))
    for where in (("settings", "name"), ("solo_setup", "seed"), ("join", "address"), ("join", "port"),
                  ("join", "code"), ("host_setup", "name"), ("verify", "path"), ("ranked", "address"),
                  ("daily", "port"), ("pass_setup", "name:0")):
        assert where in seen, (where, seen)


def test_a_real_key_closes_the_keyboard_and_types_as_ever(app):
    app.open("solo_setup")
    open_keyboard(app, "seed")
    pilot.type_text(app, "k")
    assert app.keyboard is None
    assert app.scene.widget("seed").value == "k"


def test_the_keyboard_leaves_with_its_field(app):
    app.open("solo_setup")
    open_keyboard(app, "seed")
    app.scene.focus_id = "start"            # the scene moved the focus on by itself
    app.step()
    assert app.keyboard is None


@pytest.mark.parametrize("size,percent", [((960, 540), 100), ((1920, 1080), 200)])
def test_the_keyboard_fits_at_the_smallest_window_and_the_largest_size(app, artifacts, size, percent):
    from bonanza.client import theme, widgets
    app.apply_window(size)
    app.profile.settings["ui_scale"] = percent
    app.apply_interface_size()
    app.open("solo_setup")
    open_keyboard(app, "seed")
    for page in ("letters", "symbols", "accents"):
        if app.keyboard.page != page:
            press_key(app, page)
        widgets.FIT_REPORT.clear()
        app.draw()
        bad = [r for r in widgets.FIT_REPORT if r[2] > r[3] + 1 or r[1] < theme.MIN_READABLE_PX]
        assert not bad, bad
        pygame.image.save(app.screen, str(artifacts / f"onscreen_keyboard_{size[0]}_{percent}_{page}.png"))


# ------------------------------------------------------------------ the keys alone (no window)
ALPHABET = "".join(dict.fromkeys("".join("".join(rows) for rows in __import__(
    "bonanza.client.onscreen_keyboard", fromlist=["PAGES"]).PAGES.values())))


def _plan(kb, ch: str) -> list:
    """The actions a player gives the keyboard to type ``ch``: pages, shift, the key, A."""
    from bonanza.client.actions import CONFIRM, Action
    out = []

    def press(name):
        kb.cursor = kb.key_at(name)
        out.extend(kb.handle(Action(CONFIRM))[0])
    if kb.key_at(ch) is None:
        if kb.page != "letters":
            press(kb.page)
        if kb.key_at(ch) is None:
            press(kb.page_of(ch))
    want = ch != ch.lower()
    if kb.shift != want:
        press("shift")
    press(ch.lower() if want else ch)
    return out


@given(st.text(alphabet=ALPHABET + ALPHABET.upper(), max_size=24))
@settings(max_examples=60, deadline=None)
def test_every_key_types_its_character_and_only_it(text):
    from bonanza.client.onscreen_keyboard import OnScreenKeyboard
    kb = OnScreenKeyboard(None, "f")
    typed = []
    for ch in text:
        if kb.key_at(ch) is None and kb.page_of(ch) is None:
            continue            # a capital no key has (ß's)
        typed += _plan(kb, ch)
    assert all(a.name == "text" for a in typed)
    assert "".join(a.arg for a in typed) == "".join(c for c in text if kb.page_of(c) or kb.key_at(c))


def test_every_key_is_a_character_the_font_draws(app):
    from bonanza.client import fonts
    assert not fonts.missing(ALPHABET + ALPHABET.upper() + "⇧⌫" + widgets.PAD_TYPES)
