"""Settings: language, player name, animation speed, volume, mute, interface
size, fullscreen, hints and colours.  Left/Right (or the arrow buttons) change a value."""
from __future__ import annotations

from bonanza.core.settings import BOT_SPEEDS, MAX_NAME

from .. import actions as A
from .. import lang, theme
from ..widgets import draw_text
from .base import Scene

# by how much the game waits: instant (no motion, no roll guard), off (reduce motion)...
ANIMS = ("instant", "off", "fast", "normal")
VOLUMES = tuple(range(0, 101, 10))
ROWS = ("language", "name", "animation", "volume", "muted", "ui_scale", "fullscreen", "show_hints",
        "show_splits", "palette", "bot_speed", "pass_screen")
LABELS = {"language": "settings.language", "name": "settings.player_name",
          "animation": "settings.animation", "volume": "settings.volume", "muted": "settings.mute",
          "ui_scale": "settings.ui_scale", "fullscreen": "settings.fullscreen",
          "show_hints": "settings.show_hints", "show_splits": "settings.show_splits",
          "palette": "settings.palette",
          "bot_speed": "settings.bot_speed", "pass_screen": "settings.pass_screen"}
Y0, STEP, ROW_H = 80, 44, 40           # twelve rows, the speedrun note and Back above 720
SCALES = (0,) + theme.UI_SCALES         # 0: automatic, text grows with the window


class SettingsScene(Scene):
    title_key = "settings.title"

    def __init__(self, app):
        super().__init__(app)
        p = app.profile
        for i, row in enumerate(ROWS):
            y = Y0 + i * STEP
            if row == "name":
                # until a name is chosen the field is empty and shows "Player" in the current
                # language: saving the shown default would pin it to one language
                self.name_field = self.field("name", (640, y, 400, ROW_H), value=p.name if p.has_name else "",
                                             placeholder=lambda: self.t("game.player"), max_len=MAX_NAME)
                continue
            self.button(f"dec:{row}", (640, y, 56, ROW_H), "‹", style="secondary", size=28)
            self.button(f"val:{row}", (704, y, 272, ROW_H), lambda r=row: self.value_text(r), style="ghost",
                        size=21)
            self.button(f"inc:{row}", (984, y, 56, ROW_H), "›", style="secondary", size=28)
        self.button("back", (540, Y0 + len(ROWS) * STEP + 40, 200, 48), lambda: self.t("settings.back"),
                    style="primary")
        self.focus_id = "val:language"

    def focus_order(self):
        return [w.id for w in self.widgets if w.id.startswith("val:") or w.id in ("name", "back")]

    def value_text(self, row: str) -> str:
        p = self.app.profile
        s = p.settings
        if row == "language":
            return lang.language_name(p.language) if p.language else self.t("settings.language_auto")
        if row == "animation":
            return self.t(f"settings.animation.{s['animation']}")
        if row == "volume":
            return self.t("settings.volume_value", percent=s["volume"])
        if row == "ui_scale":
            held = self.app.ui_scale()
            if not s["ui_scale"]:
                return self.t("settings.ui_scale_auto", percent=held)
            if held < s["ui_scale"]:        # a small window: say what is drawn, never pretend
                return self.t("settings.ui_scale_held", percent=s["ui_scale"], held=held)
            return self.t("settings.ui_scale_value", percent=s["ui_scale"])
        if row == "palette":
            return self.t(f"settings.palette.{s['palette']}")
        if row == "bot_speed":
            return self.t(f"settings.bot_speed.{s['bot_speed']}")
        return self.t("common.on" if s[row] else "common.off")

    def change(self, row: str, step: int) -> None:
        p = self.app.profile
        s = p.settings
        if row == "language":
            options = [None] + list(lang.languages())
            i = options.index(p.language) if p.language in options else 0
            p.language = options[(i + step) % len(options)]
            self.app.set_language(p.language)
        elif row == "animation":
            s["animation"] = ANIMS[(ANIMS.index(s["animation"]) + step) % len(ANIMS)]
        elif row == "volume":
            s["volume"] = max(0, min(100, s["volume"] + 10 * step))
            self.app.apply_sound_settings()
            self.app.play_sound("write")
        elif row == "ui_scale":
            i = SCALES.index(s["ui_scale"]) if s["ui_scale"] in SCALES else 0
            s["ui_scale"] = SCALES[(i + step) % len(SCALES)]
            self.app.apply_interface_size()
        elif row == "palette":
            i = theme.PALETTES.index(s["palette"]) if s["palette"] in theme.PALETTES else 0
            s["palette"] = theme.PALETTES[(i + step) % len(theme.PALETTES)]
            self.app.apply_palette()
        elif row == "bot_speed":
            speeds = tuple(BOT_SPEEDS)
            i = speeds.index(s["bot_speed"]) if s["bot_speed"] in speeds else 0
            s["bot_speed"] = speeds[(i + step) % len(speeds)]
        elif row in ("muted", "fullscreen", "show_hints", "show_splits", "pass_screen"):
            s[row] = not s[row]
            if row == "muted":
                self.app.apply_sound_settings()
            if row == "fullscreen":
                self.app.apply_window(fullscreen=s["fullscreen"])
        err = p.save()
        if err:
            self.app.show(self.t(err, path=str(self.app.data_dir or "")), "error")

    def handle(self, action):
        n = action.name
        f = self.focus_id or ""
        if n in (A.LEFT, A.RIGHT) and f.startswith("val:"):
            self.change(f[4:], -1 if n == A.LEFT else 1)
            return
        if n == A.CONFIRM and f.startswith("val:"):
            self.change(f[4:], 1)
            return
        if n in (A.CANCEL,) and f == "name":
            self.commit_name()
        super().handle(action)

    def commit_name(self) -> None:
        name = " ".join(self.name_field.value.split())[:MAX_NAME]
        if name and name != self.app.profile.name:
            self.app.profile.name = name
            err = self.app.profile.save()
            if err:   # kept for this session only: say so, never "saved"
                self.app.show(self.t(err, path=str(self.app.data_dir or "")), "error", 6.0)
            else:
                self.app.show(self.t("settings.saved"), "good", 1.5)

    def on_submit(self, id):
        self.commit_name()
        self.move_focus(1)

    def on_press(self, id):
        if id == "back":
            self.commit_name()
            self.back()
        elif id.startswith(("dec:", "inc:")):
            self.change(id[4:], -1 if id.startswith("dec:") else 1)
        elif id.startswith("val:"):
            self.change(id[4:], 1)

    def back(self):
        self.commit_name()
        self.app.pop()

    def move_focus(self, step):
        if self.focus_id == "name":
            self.commit_name()
        super().move_focus(step)

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        for i, row in enumerate(ROWS):
            y = Y0 + i * STEP
            focused = self.focus_id in (f"val:{row}",) or (row == "name" and self.focus_id == "name")
            draw_text(surface, self.t(LABELS[row]), L.rect((240, y, 380, ROW_H)), L.font_px(22),
                      theme.GOLD if focused else theme.TEXT_ON_FELT, bold=True)
        if self.app.profile.settings["animation"] == "instant":
            # "Off" and "Instant" look alike by name: say what instant also changes
            draw_text(surface, self.t("settings.animation.instant_note"),
                      L.rect((240, Y0 + len(ROWS) * STEP + 2, 800, 32)), L.font_px(18),
                      theme.TEXT_ON_FELT_SOFT, align="center")
