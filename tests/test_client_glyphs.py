"""Characters the shipped font cannot draw (Chinese, Japanese): text fields refuse them with a
translated toast, and names stored before that are drawn with U+FFFD, never as empty boxes."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import fonts, lang


def test_the_font_check_tells_drawable_from_missing_characters(app):
    assert fonts.can_draw("A") and fonts.can_draw("é") and fonts.can_draw("\u202f")
    assert fonts.can_draw("ã", bold=True) and fonts.can_draw("€")
    assert not fonts.can_draw("中") and not fonts.can_draw("あ", bold=True)
    assert fonts.missing("Ana 中文 é 中") == "中文"
    assert fonts.drawable("Ana 王") == "Ana \ufffd"
    assert fonts.drawable("Zoë Ñ") == "Zoë Ñ"


def _pixels(surface):
    return pygame.image.tobytes(surface, "RGBA")


def test_a_stored_name_is_drawn_with_a_replacement_not_a_box(app):
    name = fonts.render("李", 24, (0, 0, 0), bold=True)
    assert _pixels(name) == _pixels(fonts.render(fonts.REPLACEMENT, 24, (0, 0, 0), bold=True))
    # width and rendering agree, so fitting and ellipsizing measure what is drawn
    assert fonts.text_width("王小明", 24) == fonts.render("\ufffd" * 3, 24, (0, 0, 0)).get_width()


@pytest.mark.parametrize("code", ["fr", "pt-BR"])
def test_a_text_field_refuses_characters_the_font_cannot_draw(app, code):
    from bonanza.client.scenes.settings import SettingsScene
    app.set_language(code)
    sc = SettingsScene(app)
    app.push(sc)
    sc.focus_id = "name"
    f = sc.widget("name")
    f.value = ""
    for text in ("Ana", "李", " é"):
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.step(1 / 60)
    assert f.value == "Ana é"
    assert app.toast.text == lang.t("common.unsupported_chars") and app.toast.kind == "error"
    assert app.toast.text != "common.unsupported_chars"


def test_typing_only_drawable_characters_says_nothing(app):
    from bonanza.client.scenes.settings import SettingsScene
    sc = SettingsScene(app)
    app.push(sc)
    sc.focus_id = "name"
    before = app.toast.text
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Zoë"))
    app.step(1 / 60)
    assert sc.widget("name").value.endswith("Zoë") and app.toast.text == before
