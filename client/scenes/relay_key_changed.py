"""A relay at an address the player met before answers with another key: the key pinned
for that address and the new one side by side, and the question before joining.
Accepting pins the new key for the address; going back leaves it as it was."""
from __future__ import annotations

from .. import theme
from ..widgets import draw_text, draw_wrapped, shadowed_panel
from .base import Scene


class RelayKeyChangedScene(Scene):
    """``note``: the lobby's ``RelayKeyNote`` (new fingerprint, old fingerprint, key);
    ``answer(accepted)`` is called once the player chose, after this screen closed."""

    def __init__(self, app, note, address: str, port: int, answer):
        super().__init__(app)
        self.note, self.address, self.port, self.answer = note, address, port, answer
        self.button("accept", (330, 590, 300, 56), lambda: self.t("relay_key.accept"),
                    style="secondary", size=20)
        self.button("back", (650, 590, 300, 56), lambda: self.t("relay_key.back"), size=20)
        self.focus_id = "back"          # the safe answer is the default

    def on_press(self, id):
        self.choose(id == "accept")

    def back(self):
        self.choose(False)

    def choose(self, accepted: bool) -> None:
        if accepted and self.note.key is not None:
            self.app.profile.pin_relay_key(self.address, self.port, self.note.key)
        self.app.pop()
        self.answer(accepted)

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        self.draw_title(surface, self.t("relay_key.title"), y=40)
        panel = L.rect((160, 120, 960, 440))
        shadowed_panel(surface, panel, theme.PAPER, L.px(16), L.px(6))
        draw_wrapped(surface, self.t("relay_key.body", address=self.address, port=self.port),
                     L.rect((200, 145, 880, 110)), L.font_px(21), theme.INK)
        for i, (label, fp) in enumerate(((self.t("relay_key.old"), self.note.old),
                                         (self.t("relay_key.new"), self.note.fingerprint))):
            x = 200 + i * 450
            box = L.rect((x, 270, 430, 120))
            shadowed_panel(surface, box, theme.PAPER_SHADE, L.px(10), L.px(2))
            draw_text(surface, label, L.rect((x + 16, 280, 398, 34)), L.font_px(18),
                      theme.INK_SOFT, align="center")
            draw_text(surface, fp or "–", L.rect((x + 16, 322, 398, 50)), L.font_px(28),
                      theme.INK if i == 0 else theme.BAD, bold=True, align="center")
        draw_wrapped(surface, self.t("relay_key.question"), L.rect((200, 415, 880, 120)),
                     L.font_px(20), theme.INK_SOFT)
        self.draw_widgets(surface)
