"""This game cannot be trusted: what the client found that did not match (a header with
another dice commitment or relay key than the seat sat down to, a changed contribution,
moves that do not add up), in the player's language, with the two values side by side
where there are two.  The game was left and is not recorded; the only way on is the menu."""
from __future__ import annotations

from .. import theme
from ..texts import short_hex
from ..widgets import draw_text, draw_wrapped, shadowed_panel
from .base import Scene

REASONS = ("records", "commitment", "relay_key", "no_relay_key", "no_commitment",
           "contribution", "seat_key")
KEYS = ("relay_key",)             # codes whose two values are signing keys, not commitments


def shown_text(code: str, value: bytes | None) -> str:
    """One of the two values as the player compares it elsewhere: a key's fingerprint
    (as the lobby shows it), a commitment's (as the lobby and the table show it)."""
    if not isinstance(value, bytes):
        return "–"
    if code in KEYS:
        from bonanza.core.signing import fingerprint
        return fingerprint(value)
    return short_hex(value)


class UntrustedScene(Scene):
    def __init__(self, app, code: str, detail: str = "", shown=None):
        super().__init__(app)
        self.code = code if code in REASONS else "records"
        self.detail = detail
        self.shown = tuple(shown) if isinstance(shown, (list, tuple)) and len(shown) == 2 else None
        self.button("menu", (490, 600, 300, 56), lambda: self.t("untrusted.menu"), size=22)
        self.focus_id = "menu"
        app.play_sound("scratch")

    def on_press(self, id):
        self.back()

    def back(self):
        self.app.to_title()

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        self.draw_title(surface, self.t("untrusted.title"), y=40)
        panel = L.rect((160, 130, 960, 440))
        shadowed_panel(surface, panel, theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, "✖", L.rect((180, 150, 80, 80)), L.font_px(56), theme.BAD, bold=True,
                  align="center")
        draw_wrapped(surface, self.t(f"untrusted.{self.code}"), L.rect((270, 160, 820, 110)),
                     L.font_px(24), theme.INK, bold=True)
        if self.shown is not None:
            for i, (label, value) in enumerate(zip(
                    (self.t(f"untrusted.expected.{self.code}"), self.t(f"untrusted.got.{self.code}")),
                    self.shown)):
                x = 200 + i * 450
                box = L.rect((x, 290, 430, 110))
                shadowed_panel(surface, box, theme.PAPER_SHADE, L.px(10), L.px(2))
                draw_text(surface, label, L.rect((x + 16, 298, 398, 34)), L.font_px(18),
                          theme.INK_SOFT, align="center")
                draw_text(surface, shown_text(self.code, value), L.rect((x + 16, 336, 398, 50)),
                          L.font_px(24), theme.INK if i == 0 else theme.BAD, bold=True,
                          align="center")
        draw_wrapped(surface, self.t("untrusted.not_recorded"), L.rect((200, 420, 880, 60)),
                     L.font_px(19), theme.INK_SOFT)
        if self.detail and self.code == "records":   # which move, for a bug report
            draw_text(surface, self.detail, L.rect((200, 500, 880, 50)), L.font_px(15),
                      theme.INK_SOFT)
        self.draw_widgets(surface)
