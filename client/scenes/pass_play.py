"""Play on this computer (pass and play): 2-4 seats at one window, each a person or a bot.

The setup form chooses the seats (a typed name, or one of the people who played here, or
a bot of either level), the rules, an optional turn clock and whether the window asks to
be passed between two people's turns.  The game is the network table's own scene played
through ``client.local_table.LocalTable`` (no relay); after every move it is saved
(``client.saved_game``), and at the end each person's result goes into their own records
(``client.household``).  ``PassTurnScene`` is the "Pass to …" screen between turns."""
from __future__ import annotations

import secrets

import pygame

from bonanza.core.dice import SEED_BYTES
from bonanza.core.game import Seat
from bonanza.core.match import Match
from bonanza.core.records import GameSettings
from bonanza.core.settings import BOT_LEVELS, DEFAULT_RULESET, MAX_NAME, RULESETS, TURN_SECONDS

from .. import actions as A
from .. import saved_game, theme
from ..actions import Action
from ..household import clean_name, known_people, record_for_people, same_person
from ..local_table import LocalTable
from ..widgets import draw_text, shadowed_panel
from .base import Scene

MAX_SEATS = 4
KINDS = ("person", *BOT_LEVELS, "empty")      # what a seat holds
BOT_NAMES = ("Ada", "Bram", "Chloé", "Duarte")
CLOCKS = (0, *TURN_SECONDS)                      # 0: no turn clock
ROW_Y = (150, 214, 278, 342)


class PassPlaySetupScene(Scene):
    title_key = "pass.title"

    def __init__(self, app):
        super().__init__(app)
        last = app.profile.settings["last_pass_play"]
        self.people = known_people(app.profile)
        kinds = last.get("kinds") if isinstance(last.get("kinds"), list) else []
        names = last.get("names") if isinstance(last.get("names"), list) else []
        chosen = (kinds + ["person", "person", "empty", "empty"])[:MAX_SEATS]
        self.kinds = [k if k in KINDS else "empty" for k in chosen]
        for i in range(MAX_SEATS):
            typed = names[i] if i < len(names) and isinstance(names[i], str) else ""
            if not typed and i == 0 and app.profile.has_name:
                typed = app.profile.name
            self.field(f"name:{i}", (520, ROW_Y[i], 420, 50), value=typed,
                       placeholder=lambda i=i: self.t("pass.name_placeholder", n=i + 1), max_len=MAX_NAME)
            self.button(f"kind:{i}", (240, ROW_Y[i], 260, 50), lambda i=i: self.kind_text(self.kinds[i]),
                        style="secondary", size=20)
            self.button(f"who:{i}", (960, ROW_Y[i], 200, 50), lambda: self.t("pass.who"),
                        style="secondary", size=18)
        self.ruleset = last.get("ruleset") if last.get("ruleset") in RULESETS else DEFAULT_RULESET
        self.clock = last.get("clock") if last.get("clock") in CLOCKS else 0
        self.button("ruleset", (520, 420, 420, 46), lambda: self.t(f"lobby.ruleset.{self.ruleset}"),
                    style="secondary", size=20)
        self.button("clock", (520, 474, 420, 46), self._clock_label, style="secondary", size=20)
        self.button("pass_screen", (520, 528, 420, 46), self._pass_label, style="secondary", size=20)
        self.button("start", (490, 600, 300, 56), lambda: self.t("pass.start"), size=24)
        self.button("back", (60, 640, 180, 46), lambda: self.t("common.back"), style="secondary")
        self.focus_id = "start" if self.seats() is not None else "name:0"

    def _clock_label(self) -> str:
        if not self.clock:
            return self.t("pass.clock_off")
        return self.t("lobby.turn_time_value", seconds=self.clock)

    def _pass_label(self) -> str:
        return self.t("pass.screen_on" if self.app.profile.settings["pass_screen"] else "pass.screen_off")

    def visible(self, w) -> bool:
        if w.id.startswith(("name:", "who:")):
            i = int(w.id.split(":")[1])
            return self.kinds[i] == "person" and (w.id.startswith("name:") or bool(self.people))
        return True

    def seats(self) -> list[Seat] | None:
        """The seats as chosen, or None while they cannot start a game (fewer than two, a
        person without a name, or one person twice)."""
        out: list[Seat] = []
        bots = iter(BOT_NAMES)
        for i, kind in enumerate(self.kinds):
            if kind == "empty":
                continue
            if kind == "person":
                name = clean_name(self.widget(f"name:{i}").value)
                if not name or any(not s.is_bot and same_person(s.name, name) for s in out):
                    return None
                out.append(Seat(name))
            else:
                taken = {s.name for s in out} | {clean_name(self.widget(f"name:{j}").value)
                                                   for j in range(MAX_SEATS)}
                name = next(f"Bot {n}" for n in bots if f"Bot {n}" not in taken)
                out.append(Seat(name, "bot", kind))
        if len(out) < 2 or all(s.is_bot for s in out):
            return None
        return out

    def button_enabled(self, id):
        if id == "start":
            return self.seats() is not None
        return True

    def kind_text(self, kind: str) -> str:
        return self.t(f"lobby.bot_{kind}") if kind in BOT_LEVELS else self.t(f"pass.kind.{kind}")

    def on_press(self, id):
        if id.startswith("kind:"):
            i = int(id.split(":")[1])
            self.kinds[i] = KINDS[(KINDS.index(self.kinds[i]) + 1) % len(KINDS)]
        elif id.startswith("who:"):
            self.next_person(int(id.split(":")[1]))
        elif id == "ruleset":
            self.ruleset = RULESETS[(RULESETS.index(self.ruleset) + 1) % len(RULESETS)]
        elif id == "clock":
            self.clock = CLOCKS[(CLOCKS.index(self.clock) + 1) % len(CLOCKS)]
        elif id == "pass_screen":
            s = self.app.profile.settings
            s["pass_screen"] = not s["pass_screen"]
            self.app.profile.save()
        elif id == "start":
            self.start()
        elif id == "back":
            self.back()

    def next_person(self, i: int) -> None:
        """The next of the people who played here, into seat ``i``'s name."""
        field = self.widget(f"name:{i}")
        if not self.people:
            return
        current = clean_name(field.value)
        at = next((k for k, p in enumerate(self.people) if current and same_person(p, current)), -1)
        field.value = self.people[(at + 1) % len(self.people)]
        if hasattr(field, "caret"):
            field.caret = len(field.value)

    def on_submit(self, id):
        if id.startswith("name:") and self.seats() is not None:
            self.focus_id = "start"
        else:
            self.move_focus(1)

    def start(self) -> None:
        seats = self.seats()
        if seats is None:
            return
        self.app.profile.settings["last_pass_play"] = {
            "kinds": list(self.kinds), "ruleset": self.ruleset, "clock": self.clock,
            "names": [self.widget(f"name:{i}").value for i in range(MAX_SEATS)]}
        self.app.profile.save()
        settings: GameSettings | None = {"turn_seconds": self.clock} if self.clock else None
        match = Match.create(self.ruleset, seats, secrets.token_bytes(SEED_BYTES), mode="table",
                             settings=settings, meta={"client": "bonanza", "pass_play": True})
        self.app.replace(pass_play_table(self.app, match, self.clock or None))

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        for i in range(MAX_SEATS):
            draw_text(surface, self.t("lobby.seat", n=i + 1), L.rect((80, ROW_Y[i], 150, 50)),
                      L.font_px(20), theme.TEXT_ON_FELT, bold=True)
        for y, key in ((420, "lobby.ruleset"), (474, "lobby.turn_time"), (528, "pass.screen")):
            draw_text(surface, self.t(key), L.rect((80, y, 420, 46)), L.font_px(20),
                      theme.TEXT_ON_FELT, bold=True)
        if self.seats() is None:
            draw_text(surface, self.t("pass.need_two"), L.rect((240, 388, 920, 28)), L.font_px(17),
                      theme.TEXT_ON_FELT_SOFT, align="center")


def pass_play_table(app, match: Match, turn_seconds: int | None, resumed: bool = False) -> Scene:
    """The table scene over a ``LocalTable`` for ``match``: saved after every move, each
    person's result recorded at the end, the "Pass to …" screen between people's turns."""
    def advisor():
        loader = app.advisor_loader(match.setup.ruleset)
        return loader.result(0) if loader is not None and loader.ready else None

    conn = LocalTable(match, lambda: app.now, turn_seconds,
                      pass_screen=bool(app.profile.settings["pass_screen"]), advisor=advisor,
                      bot_pace=app.profile.bot_delay())
    extra = {"turn_seconds": turn_seconds or 0, "resumed": resumed}

    def on_move(table: LocalTable) -> None:
        if not table.match.state.over:
            saved_game.save(app.profile, "pass_play", table.match, extra)

    def on_end(table: LocalTable, data: bytes) -> None:
        saved_game.clear(app.profile)
        names = [s.name for s in table.match.setup.seats if not s.is_bot]
        table.recorded = record_for_people(app.profile, data, names)

    conn.on_move = on_move
    conn.on_end = on_end
    conn.on_pass = lambda name: app.open("pass_turn", conn, name)
    saved_game.save(app.profile, "pass_play", match, extra)
    return app.make("table", conn)


def resume_pass_play(app, saved) -> Scene:
    """The saved pass-and-play game, where it stopped (``client.saved_game.load``)."""
    turn = saved.extra.get("turn_seconds")
    return pass_play_table(app, saved.match, turn if isinstance(turn, int) and turn > 0 else None,
                           resumed=True)


class PassTurnScene(Scene):
    """Between two people's turns: the table hidden, "Pass to <name> — press a key"."""

    def __init__(self, app, conn: LocalTable, name: str):
        super().__init__(app)
        self.conn = conn
        self.name = name

    def targets(self, layout):
        # a click anywhere is the key press
        return [(pygame.Rect((0, 0), self.app.screen.get_size()), Action(A.CONFIRM))]

    def handle(self, action) -> None:
        if action.name in (A.FOCUS, A.SCROLL):
            return
        self.conn.begin_turn()
        self.app.pop()

    def back(self) -> None:
        self.handle(Action(A.CONFIRM))

    def draw(self, surface) -> None:
        L = self.layout
        self.draw_background(surface)
        r = L.rect((290, 210, 700, 300))
        shadowed_panel(surface, r, theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("pass.pass_to", name=self.name), L.rect((310, 260, 660, 80)),
                  L.font_px(40), theme.INK, bold=True, align="center")
        draw_text(surface, self.t("pass.press_key"), L.rect((310, 370, 660, 50)), L.font_px(24),
                  theme.INK_SOFT, align="center")
