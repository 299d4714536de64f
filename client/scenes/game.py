"""A solo (or offline daily) game on this machine: the play screen (``game_base``) with a
local ``core.match.Match``, no turn clock and a run clock; a pause menu (Escape or Menu); at
the end the results.

The run clock is ``core.runclock.RunClock`` on the machine's monotonic clock: every move's
record is stamped with it (``at``), the run's time is the last stamp, and nothing stops it —
not a frozen window, not a stopped process, not the pause menu (docs/client.md, "In-game
time")."""
from __future__ import annotations

from bonanza.core.match import Match
from bonanza.core.runclock import RunClock
from bonanza.core.settings import DEFAULT_RULESET
from bonanza.core.undo import check_undo

from .. import actions as A
from .. import lang, sprites, theme
from ..actions import Action
from ..categories import local_category
from ..guide import Guide
from ..i18n import format_date, format_duration
from ..solo import new_solo_match
from ..widgets import draw_text
from .game_base import GameScene


class SoloGameScene(GameScene):
    """A solo (or offline daily) game on this machine: no clock, a run timer."""

    # the button beside Hints opens the pause menu (give up is one of its items)
    give_up_key = "pause.menu"

    def __init__(self, app, match: Match | None = None, seed_text: str | None = None,
                 mode: str = "solo", ruleset: str = DEFAULT_RULESET, resumed_ms: int | None = None,
                 guided: bool = False):
        animation = app.profile.settings["animation"]
        hints = bool(app.profile.settings["show_hints"])
        if guided:
            mode = "practice"       # the guided first game is practice: on no board
        if match is None:
            match = new_solo_match(app.profile.name, ruleset, seed_text=seed_text,
                                   meta={"client": "bonanza", "animation": animation,
                                         "hints": hints},
                                   practice=mode == "practice", hints=hints)
        if match.log.header["mode"] == "practice":
            mode = "practice"       # a practice game brought back, or a past daily again
        self.match = match
        if seed_text is None and match.log.header["meta"].get("seeded") is True:
            # a set-seed run brought back by "Continue": the same seed's category, and
            # "Play again" or a reset deals that seed again
            seed_text = str(match.log.header["meta"].get("seed_text") or "") or None
        # practice (``core.undo``): the holds toggled since the last roll, the last first,
        # and those of the turn a write ended (an undo of the write gives them back)
        self.hold_history: list[list[bool]] = []
        self._holds_of_write: list[list[bool]] = []
        self._held_of_write: list[bool] = [False] * 5
        dice = match.log.header["dice"]
        self.past_daily = dice["date"] if mode == "practice" and dice["scheme"] == "public" else None
        self._par: int | None = None
        # a game the title's "Continue" brought back (``client.saved_game``): its clock goes
        # on from the last move's stamp (the time away not counted), and the run is marked
        # resumed in its end (never a speedrun)
        self.resumed = resumed_ms is not None
        records = match.log.records
        if self.resumed and records:
            last = records[-1].get("at")
            resumed_ms = last if isinstance(last, int) and last >= 0 else resumed_ms
        self.clock = RunClock(app.wall, resumed_ms if records else None)
        match.log.stamp = self.clock.stamp      # every record: ms since the first roll
        self.animations = {animation}           # settings used during the run (the pause opens them)
        self.inputs: set[str] = set()           # keys, mouse: how the moves were asked for
        self.hints_seen = False                 # the advisor's verdict was on at some move
        self.mode = mode
        self.seed_text = seed_text
        super().__init__(app, match.setup.ruleset, 1)
        # the attempt counter's category: a set seed's runs count apart from every other
        self.category = local_category(match.setup.ruleset, seed_text if mode == "solo" else None,
                                       bool(app.profile.settings["show_hints"]), animation)
        if mode == "solo":
            # F5 or this button: end the run, start the next of its category at once
            self.button("reset", (self.cx + self.half - 200, 70, 200, 40), lambda: self.t("game.reset"),
                        style="secondary", size=17, action=Action(A.RESET))
        # the guided first game (``client.guide``): Escape or Skip ends the guide, Enter or
        # Next ends a step that only explains
        self.guide = Guide(self._guide_over) if guided else None
        if guided:
            self.button("guide_skip", (self.cx - self.half, 68, 200, 40), lambda: self.t("guide.skip_button"),
                        style="secondary", size=17)
            self.button("guide_next", (self.cx - self.half + 210, 68, 150, 40),
                        lambda: self.t("guide.next_button"), size=17)
        if mode == "practice":
            # U, Ctrl+Z, the controller's left-stick click or this button
            self.button("undo", (self.cx + self.half - 200, 70, 200, 40),
                        lambda: self.t("practice.undo"), style="secondary", size=17,
                        action=Action(A.UNDO))
        self.run_time: float | None = None
        self.finished = False
        self.record = None
        self._timer_drawn = ""
        # what the splits panel compares with: the fastest earlier run of this category
        self.comparison = self._comparison()

    @property
    def state(self):
        return self.match.state

    # ---------------------------------------------------------- splits
    def _comparison(self):
        """The fastest earlier timed run of this run's category (ruleset, how it is dealt,
        hints, Instant or animated; a set seed's runs of that seed) and the gold splits."""
        from ..store.runs import NO_COMPARISON, category_runs, comparison
        store = self.app.profile.store
        if store is None or self.mode == "practice":     # practice takes moves back: no run
            return NO_COMPARISON
        settings = self.app.profile.settings
        ruleset = self.match.setup.ruleset
        if self.mode == "daily":
            where: tuple = ("daily", None, ("daily",))
        elif self.seed_text and self.seed_text.strip():
            where = ("seeded", self.seed_text.strip(), ("solo",))
        else:
            where = ("random", None, ("solo",))
        try:
            runs = category_runs(store, ruleset, where[0], where[1], where[2])
        except Exception:       # an unreadable store compares with nothing
            return NO_COMPARISON
        return comparison(runs, bool(settings["show_hints"]),
                          "instant" if settings["animation"] == "instant" else "animated",
                          len(self.state.ruleset.sheet))

    def splits(self) -> list[int]:
        """Each finished turn's time, from the log's stamps (as every replay reads them)."""
        from bonanza.core.splits import splits
        return splits(self.match.log) or []

    def has_splits(self) -> bool:
        # practice takes moves back and the guided game shows the advisor: no run to split
        return self.mode != "practice"

    def split_rows(self):
        from ..splits_view import split_rows
        live = None
        if self.running():      # as fine as the timer shows it (a still panel is not redrawn)
            unit = 10 if self.app.profile.settings["animation"] == "instant" else 1000
            live = self.clock.ms() // unit * unit
        return split_rows(self.splits(), len(self.state.ruleset.sheet), self.comparison.best,
                          self.comparison.gold, live)

    my_seat = 0

    def my_turn(self) -> bool:
        return not self.match.state.over

    def seat_labels(self):
        return [self.match.setup.seats[0].name]

    @property
    def run_started(self) -> bool | None:
        return True if self.clock.started else None

    def elapsed(self) -> float:
        """The run's time in seconds: the final one once over, else the clock's."""
        if self.run_time is None and self.match.state.over:
            self.run_time = self._last_stamp()
        if self.run_time is not None:
            return self.run_time
        return self.clock.ms() / 1000

    def _last_stamp(self) -> float:
        """A finished run's time: its last move's stamp, the one fact verify checks it by."""
        records = self.match.log.records_from(len(self.match.log) - 1)
        return records[0].get("at", 0) / 1000 if records else 0.0

    def pauses_timer(self) -> bool:
        """No: a run's time is wall-clock time (the pause menu covers the game, the clock
        runs on), so a pause never shortens a run."""
        return False

    def running(self) -> bool:
        return self.clock.started and self.run_time is None

    def _moved(self) -> None:
        self.inputs.add(self.app.last_input)
        self.hints_seen = self.hints_seen or self.hints_on()
        self.animations.add(self.app.profile.settings["animation"])
        if self.match.state.over and self.run_time is None:
            self.run_time = self._last_stamp()
        self.save_progress()

    def save_progress(self) -> None:
        """After every move the game is saved for the title's "Continue" (the log is the
        save, ``client.saved_game``); a finished game is the records', not a save."""
        from .. import saved_game
        if self.mode not in ("solo", "practice"):
            return
        if self.match.state.over:
            saved_game.clear(self.app.profile)
            return
        # a past daily's practice has no secret seed to keep: it is not saved
        saved_game.save(self.app.profile, self.mode, self.match, {"run_ms": self.clock.ms()})

    def open_pause(self) -> None:
        self.app.open("pause", self)

    def attempt(self) -> int:
        """This run's number among its category's attempts (the next one before its first roll)."""
        n = self.app.profile.attempts(self.category)
        return n if self.clock.started else n + 1

    def can_reset(self) -> bool:
        # not the offline daily: its one attempt is used when it starts
        return self.mode == "solo" and not self.state.over and self.dialog is None

    def visible(self, w) -> bool:
        if w.id == "reset":
            return self.can_reset()
        if w.id == "guide_skip":
            return self.guiding()
        if w.id == "guide_next":
            return self.guiding() and self.guide is not None and self.guide.step.done is None
        return super().visible(w)

    # ---------------------------------------------------------- the guided first game
    def guiding(self) -> bool:
        return self.guide is not None and self.guide.active and self.dialog is None

    def _guide_over(self) -> None:
        """Skipped or read to the end: not offered at the title again."""
        self.app.profile.settings["guided_done"] = True
        self.app.profile.save()
        if self.focus_id in ("guide_skip", "guide_next"):
            self.focus_id = None

    def hints_on(self) -> bool:
        # the guide shows the advisor whatever the setting says
        return super().hints_on() or self.guiding()

    def enabled(self, action) -> bool:
        if action.name == A.RESET:
            return self.can_reset()
        if action.name == A.UNDO or (action.name == A.PRESS and action.arg == "undo"):
            return self.can_undo()
        return super().enabled(action)

    # ---------------------------------------------------------- practice: undo
    def can_undo(self) -> bool:
        """A practice game, and a hold or a write to take back (never a roll)."""
        if self.mode != "practice" or self.dialog is not None or self.state.over:
            return False
        if self.hold_history:
            return True
        before = self.match.before_write
        return check_undo(self.state, 0, before[0] if before else None) is None

    def undo(self) -> None:
        """Take back the last decision: the last hold toggled since the roll, else the
        write just made (its dice, rolls and holds come back; no die is dealt)."""
        if self.hold_history:
            self.input.held = self.hold_history.pop()
            self.input.cancel()
        else:
            _, refusal = self.match.undo()
            if refusal is not None:
                self.app.show(self.t(f"refusal.{refusal.code}"), "error")
                return
            st = self.state
            self._seen_turn = (st.turn, st.active)     # the same turn again: keep its holds
            self.input.reset_turn()
            self.input.held = list(self._held_of_write)
            self.hold_history, self._holds_of_write = self._holds_of_write, []
            self._sheets_seen = st.sheets
            self._moved()
        self.app.play_sound("scratch")
        self.app.show(self.t("practice.undone"), "info", 1.5)

    def reset(self) -> None:
        """The run ends here and the next one of its category starts: the same ruleset,
        the same seed for a set-seed run (a new secret one otherwise).  A started run was
        counted at its first roll; it goes nowhere else — no history, no record, no log."""
        from .. import saved_game
        saved_game.clear(self.app.profile)      # a reset run is not one to continue
        self.app.switch("solo_game", seed_text=self.seed_text, ruleset=self.match.setup.ruleset)

    def handle(self, action) -> None:
        if action.name == A.RESET:
            self.reset()
            return
        if action.name == A.UNDO:
            self.undo()
            return
        # the guide takes Enter on a step that only explains, and Escape (unless Escape
        # is cancelling a "Write?")
        if self.guiding() and not (action.name == A.CANCEL and self.input.pending is not None) \
                and self.guide is not None and self.guide.handle(action):
            return
        if action.name == A.TOGGLE_DIE and self.mode == "practice":
            self.hold_history.append(list(self.input.held))
        # Escape with nothing to cancel and no dialog open pauses (it used to ask to give up)
        if (action.name == A.CANCEL and self.dialog is None and self.input.pending is None
                and not self.state.over):
            self.open_pause()
            return
        super().handle(action)

    def on_press(self, id: str) -> None:
        if id == "give_up":
            self.open_pause()
            return
        if id == "undo":
            self.undo()
            return
        if id == "guide_skip" and self.guide is not None:
            self.guide.end()
            return
        if id == "guide_next" and self.guide is not None:
            self.guide.next()
            return
        super().on_press(id)

    def send_roll(self, hold) -> None:
        first = not self.clock.started
        _, refusal = self.match.roll(hold)
        if refusal:
            self.app.show(self.t(f"refusal.{refusal.code}"), "error")
            return
        if first and self.mode != "practice":
            self.app.profile.count_attempt(self.category)    # the run started
        self.hold_history, self._holds_of_write = [], []     # a roll is never taken back
        self._moved()

    def send_write(self, box: str) -> None:
        _, refusal = self.match.write(box)
        if refusal:
            self.app.show(self.t(f"refusal.{refusal.code}"), "error")
        else:
            self.hold_history, self._holds_of_write = [], self.hold_history
            self._held_of_write = list(self.input.held)
            self._moved()

    def send_give_up(self) -> None:
        self.match.give_up(0)
        self._moved()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.guide is not None:
            self.guide.follow(self)
        if self.match.state.over and not self.finished:
            self.finished = True
            self.finish()

    def end_meta(self) -> dict:
        """What the end record says about how the run was played, beside its time: the
        input used for its moves, whether hints were on at any move, whether it was
        resumed and, if it changed mid-run, every animation setting."""
        meta: dict = {"input": "+".join(sorted(self.inputs)) or "keys", "hints": self.hints_seen}
        if self.resumed:
            meta["resumed"] = True
        if len(self.animations) > 1:
            meta["animation"] = "+".join(sorted(self.animations))
        return meta

    def finish(self) -> None:
        ms = int(round(self.elapsed() * 1000))
        # the run time (the last move's stamp) goes into the log's end meta (inside the
        # hash chain), then the store
        self.record = self.app.profile.finish_and_record(self.match, ms, self.end_meta())
        self.app.switch("results_of_match", self.match, self.elapsed(), self.mode, self.seed_text,
                        record=self.record)

    def timer_rect(self):
        return self.layout.rect((self.cx + 20, 22, self.half - 20, 40))

    def timer_text(self) -> str:
        # On "instant" (the speedrun setting) to the hundredth, as runners expect, redrawn
        # with the live parts (10 Hz); otherwise whole seconds while playing, so a still
        # screen sends the X server one small rect a second.  Once over, the run's time.
        ms = self.clock.ms() if self.run_time is None else int(round(self.run_time * 1000))
        if self.run_time is not None or self.app.profile.settings["animation"] == "instant":
            return self.t("game.timer", time=format_duration(ms, lang.current(), 2))
        return self.t("game.timer", time=format_duration(ms // 1000 * 1000, lang.current(), 0))

    def draw_timer(self, surface) -> None:
        self._timer_drawn = self.timer_text()
        draw_text(surface, self._timer_drawn, self.timer_rect(),
                  self.layout.font_px(22), theme.GOLD, bold=True, align="right")

    def draw_top_bar(self, surface) -> None:
        super().draw_top_bar(surface)
        self.draw_timer(surface)
        if self.mode == "solo":
            draw_text(surface, self.t("game.attempt", n=self.attempt()),
                      self.layout.rect((self.cx - self.half, 70, self.half, 40)),
                      self.layout.font_px(17), theme.TEXT_ON_FELT)
        elif self.mode == "practice" and not self.guiding():
            par = self.par()
            line = (self.t("practice.label") if self.past_daily is None else
                    self.t("practice.past_daily", date=format_date(self.past_daily)) +
                    ("" if par is None else " · " + self.t("practice.par", par=par)))
            draw_text(surface, line, self.layout.rect((self.cx - self.half, 70, 2 * self.half - 210, 40)),
                      self.layout.font_px(17), theme.TEXT_ON_FELT)

    def draw(self, surface) -> None:
        super().draw(surface)
        if self.guide is not None and self.guiding():
            self.guide.draw(surface, self)

    def par(self) -> int | None:
        """A past daily's par, once the advisor is at hand (it loads in the background)."""
        if self._par is None and self.past_daily is not None and self.loader is not None \
                and self.loader.ready:
            from ..daily import par
            try:
                self._par = par(self.past_daily)
            except Exception:     # no advisor after all: no par shown
                self._par = -1
        return self._par if self._par is not None and self._par >= 0 else None

    def still_redraw(self) -> float:
        # nothing here changes by itself but the timer, which ``draw_live`` redraws alone:
        # a full frame (a whole-window copy to an X server) every 2 s, not twice a second
        base = super().still_redraw()
        return base if (self.loader is not None and not self.loader.ready) else 2.0

    def draw_live(self, surface) -> list:
        """The running timer alone, over the felt it sits on (the rest of the frame is still),
        and the splits panel when its live row changed."""
        if not self.running() or self.dialog is not None:
            return []
        out = []
        if self.timer_text() != self._timer_drawn:
            r = self.timer_rect()
            surface.blit(sprites.felt(surface.get_size()), r, area=r)
            self.draw_timer(surface)
            out.append(r)
        if self.splits_shown() and tuple(self.split_rows()) != self._panel_drawn:
            r = self.layout.rect(self.panel_rect())
            surface.blit(sprites.felt(surface.get_size()), r, area=r)
            self.draw_panel(surface)
            out.append(r)
        return out

    def commitment(self) -> bytes | None:
        return self.match.commitment


def guided_game(app) -> SoloGameScene:
    """The guided first game: a practice game of the default rules with the guide on."""
    return SoloGameScene(app, mode="practice", guided=True)
