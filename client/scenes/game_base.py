"""The play screen shared by solo, daily and table play: the base class of
``game.SoloGameScene`` and ``table.TableScene``.

``GameScene`` draws the sheets, the dice, the Roll button, the advisor line and
the confirmation on the box; subclasses say whose turn it is and carry out
moves (``SoloGameScene`` with a local ``core.match.Match``; the table scene
through the relay).
"""
from __future__ import annotations

import pygame

from bonanza.core.game import check_give_up, check_hold, check_roll, check_write
from bonanza.core.match import NO_HOLD, kept_by_default
from bonanza.core.rules import (
    BONANZA_POINTS,
    MAX_ROLLS,
    allowed_boxes,
    extra_bonus_for,
    is_joker,
)

from .. import actions as A
from .. import fonts, lang, theme
from ..actions import Action
from ..dice_view import DiceView
from ..i18n import format_decimal
from ..sheet_view import SheetView
from ..store.runs import NO_COMPARISON
from ..texts import box_key, short_hex
from ..turn_input import TurnInput
from ..widgets import Celebration, ProgressBar, draw_text, draw_wrapped, shadowed_panel
from .base import Scene

EXPLAINED_ON_CLICK = ("box_filled", "joker_forces_box")
# The key hints of actions a play screen offers only at times, each named in the footer
# while the scene says it is enabled: (action, keyboard hint, controller hint).
OPTIONAL_HINTS = ((A.UNDO, "game.controls_undo", "game.controls_pad_undo"),
                  (A.MUTE, "table.controls_mute", "table.controls_pad_mute"))


def verdict_options(advice, limit: int = 3) -> list[tuple]:
    """The advisor's verdict, best first: ``("roll", kept faces, expected)`` or
    ``("write", box, points, expected)`` (expected = points still to come), then the best
    boxes after it, ``limit`` lines in all.

    Rolling leads only when strictly better than the best box, as the optimal bot and
    the analysis decide: on a tie writing ends the turn with nothing left to chance."""
    if advice is None or not advice.boxes:
        return []
    boxes = [("write", b.box, b.points, b.expected) for b in advice.boxes]
    if advice.holds and advice.holds[0].expected > advice.boxes[0].expected:
        h = advice.holds[0]
        return [("roll", tuple(h.hold), h.expected)] + boxes[:limit - 1]
    return boxes[:limit]


class GameScene(Scene):
    """Abstract: subclasses provide ``state``, ``my_seat``, ``my_turn()``, ``send_roll``,
    ``send_write`` and ``send_give_up``."""

    def __init__(self, app, ruleset: str, ncols: int):
        super().__init__(app)
        self.ruleset = ruleset
        self.ncols = ncols
        self.die_cursor: int | None = None     # a controller's cursor over the dice (A holds it)
        if ncols <= 1:
            self.sheet_view = SheetView((24, 16, 440, 688), 290, ruleset)
            self.cx: float = 870
            w = 440
        else:
            w = 300 + 110 * ncols if ncols < 4 else 680
            self.sheet_view = SheetView((24, 16, w, 688), 230 if ncols > 2 else 250, ruleset)
            self.cx = (24 + w + 1256) / 2 + 6
        # half widths of the right-hand column's lines: never over the sheet or off the window
        sheet_right = 24 + w + 10
        self.half = min(300, self.cx - sheet_right - 6, 1268 - self.cx)
        self.half_wide = min(360, self.cx - sheet_right, 1272 - self.cx)
        die = 92 if ncols <= 2 else 84
        # the 2-seat table sits the dice, Roll and the rolls left on a wooden table top:
        # a slightly tighter column keeps all of them on its felt
        compact = ncols == 2
        self.dice_y, roll_rect = (170, (self.cx - 130, 232, 260, 54)) if compact else (
            176, (self.cx - 130, 262, 260, 60))
        self.pip_y = roll_rect[1] + roll_rect[3] + 14
        self.room_below_dice = roll_rect[1] - (self.dice_y + die / 2)
        self.dice_view = DiceView((self.cx, self.dice_y), die=die, gap=18 if ncols <= 2 else 14)
        self.input = TurnInput()
        self.loader = app.advisor_loader(ruleset)
        self._advice_key = None
        self._advice = None
        self._cursor_roll: tuple | None = None   # the roll the cursor was last placed after
        self.dialog: str | None = None          # "give_up" while the confirm box is open
        self._seen_turn: tuple[int, int] | None = None
        self._rolled_frame = -1                  # app.frames when this window last rolled
        self._was_landing = False
        self._sheets_seen = None                 # the sheets of the last frame: what was just written
        self.celebration: Celebration | None = None
        self.button("roll", roll_rect, lambda: self.t("game.roll"),
                    size=28, action=Action(A.ROLL))
        self.button("hints", (self.cx - 250, 612, 240, 46), self._hints_label, style="secondary", size=19)
        self.button("give_up", (self.cx + 10, 612, 240, 46), lambda: self.t(self.give_up_key),
                    style="secondary", size=19)
        # Yes and No look alike: the focus ring alone says which one Enter presses
        self.button("dialog_yes", (440, 380, 190, 54), lambda: self.t(self.dialog_labels()[0]),
                    style="secondary", size=22)
        self.button("dialog_no", (650, 380, 190, 54), lambda: self.t(self.dialog_labels()[1]),
                    style="secondary", size=22)

    give_up_key = "game.give_up"
    give_up_question = "game.give_up_confirm"
    # what a game without hints says about it (None: nothing, and no hints button)
    no_hints_key: str | None = "game.no_hints_daily"

    # ---------------------------------------------------------- to override
    @property
    def state(self):
        raise NotImplementedError

    @property
    def my_seat(self) -> int:
        """This window's seat (-1 for a watcher)."""
        raise NotImplementedError

    def my_turn(self) -> bool:
        raise NotImplementedError

    def send_roll(self, hold) -> None:
        raise NotImplementedError

    def send_write(self, box: str) -> None:
        raise NotImplementedError

    def send_give_up(self) -> None:
        raise NotImplementedError

    def seat_labels(self) -> list[str]:
        return [s.name for s in self.state.setup.seats]

    def seat_status(self):
        return None

    # ---------------------------------------------------------- helpers
    def _hints_label(self) -> str:
        if not self.hints_allowed():
            return self.t("game.hints_none")
        return self.t("game.hints_on" if self.app.profile.settings["show_hints"] else "game.hints_off")

    def visible(self, w) -> bool:
        if w.id.startswith("dialog_"):
            return self.dialog is not None
        if w.id == "hints":     # a game that says nothing of its missing hints has no button
            return self.hints_allowed() or self.no_hints_key is not None
        return True

    def targets(self, layout):
        if self.dialog is not None:
            return [(w.screen_rect(layout), w.action) for w in self.widgets if w.id.startswith("dialog_")]
        out = []
        st = self.state
        if self.input.pending is not None and self.my_turn():
            # under everything else: a click beside the "Write?" box takes it back
            out.append((pygame.Rect((0, 0), self.app.screen.get_size()), Action(A.CANCEL)))
        if self.my_turn() and st.dice is not None and not st.over:
            col = st.active
            out += self.sheet_view.targets(layout, self.ncols, col, st.sheets[col].free_boxes())
            out += self.dice_view.targets(layout)
        out += super().targets(layout)
        return out

    def advice(self):
        """The advisor's advice for the current situation (None until ready)."""
        st = self.state
        if self.loader is None or st.over or not self.loader.ready or not self.hints_allowed():
            return None
        key = (st.seq, st.active, st.dice)
        if key != self._advice_key:
            self._advice_key = key
            try:
                adv = self.loader.result(0)
                self._advice = adv.advise(st.sheets[st.active], st.dice, st.rolls_left) if st.dice else None
            except Exception:
                self._advice = None
        return self._advice

    def joker_hint(self) -> str | None:
        """The joker line under the dice: the bonus and where the roll must go."""
        st = self.state
        if st.over or st.dice is None or self.dice_view.animating(self.app.now):
            return None
        rs, sheet = st.ruleset, st.sheets[st.active]
        if not is_joker(rs, sheet, st.dice):
            return None
        upper = rs.layout.upper[st.dice[0] - 1]
        ok = allowed_boxes(rs, sheet, st.dice)
        kind = "upper" if tuple(ok) == (upper,) else (
            "lower" if all(b in rs.layout.lower for b in ok) else "scratch")
        bonus = extra_bonus_for(rs, sheet, st.dice)
        key = f"game.joker_hint.{kind}" + ("_bonus" if bonus else "")
        return self.t(key, box=self.t(f"box.{upper}"), bonus=bonus)

    def refusal_text(self, code: str) -> str:
        """A refused click in words; a joker's refusal says where the roll must go."""
        st = self.state
        if code == "joker_forces_box" and st.dice is not None:
            rs, sheet = st.ruleset, st.sheets[st.active]
            upper = rs.layout.upper[st.dice[0] - 1]
            ok = allowed_boxes(rs, sheet, st.dice)
            if tuple(ok) == (upper,):
                return self.t("refusal.joker_to_upper", box=self.t(f"box.{upper}"))
            if ok and all(b in rs.layout.lower for b in ok):
                return self.t("refusal.joker_to_lower")
            return self.t("refusal.joker_to_scratch")
        return self.t(f"refusal.{code}")

    def hints_allowed(self) -> bool:
        """Whether this game may show the advisor at all (a relay daily may not)."""
        return True

    def hints_on(self) -> bool:
        return self.hints_allowed() and bool(self.app.profile.settings["show_hints"])

    def verdict(self):
        """The advisor's first choice for dice that have landed, with hints on: ``("roll",
        kept, expected)`` or ``("write", box, points, expected)``; None with hints off, before
        a roll, while the dice are in the air or while the advisor is not ready."""
        st = self.state
        if not self.hints_on() or st.dice is None or st.over or self.dice_landing():
            return None
        opts = verdict_options(self.advice(), 1)
        return opts[0] if opts else None

    def hint_mask(self):
        """The rings: the dice the verdict keeps (None unless the verdict is to roll)."""
        v = self.verdict()
        # the rings mean "keep these and roll": never when writing now is better
        if v is None or v[0] != "roll" or self.state.rolls_left <= 0:
            return None
        return self.advice().holds[0].mask

    def roll_all_hint(self) -> bool:
        """The verdict is to roll all five: no die to ring, so a line under the dice says it."""
        v = self.verdict()
        return v is not None and v[0] == "roll" and not v[1] and self.state.rolls_left > 0

    # ---------------------------------------------------------- enabling
    def enabled(self, action: Action) -> bool:
        n = action.name
        st = self.state
        if n in (A.UNDO, A.MUTE):
            return False        # only a screen that offers them says yes (practice, a table)
        if self.dialog is not None and n in (A.ROLL, A.TOGGLE_DIE, A.BOX, A.TOGGLE_HINTS, A.TOGGLE_SPLITS):
            return False
        # The rules are core's (check_*); the scene adds only what the screen knows:
        # whether this window may act now (its seat's turn, connected) and a dialog.
        if n == A.ROLL:
            # a second press before the new dice were seen (still landing, or not yet drawn
            # once) is a double press, not a decision: it must not cost a roll
            # (the "instant" speedrun setting asked for every press to count)
            seen = not self.app.profile.roll_guard or (
                not self.dice_landing() and self.app.frames > self._rolled_frame)
            return self.my_turn() and seen and check_roll(st, self.my_seat, self.roll_hold()) is None
        if n in (A.BOX, A.CONFIRM) and self.dice_landing():
            return False      # nor may a box be written from dice still in the air
        if n == A.TOGGLE_DIE:
            return self.my_turn() and check_hold(st, self.my_seat, self.input.held) is None
        if n == A.BOX:
            # a filled box or one a joker rules out still takes the click, to say why
            refusal = check_write(st, self.my_seat, action.arg)
            return self.my_turn() and (refusal is None or refusal.code in EXPLAINED_ON_CLICK)
        if n == A.TOGGLE_SPLITS:
            return self.has_splits()
        if n == A.PRESS:
            if action.arg.startswith("dialog_"):
                return self.dialog is not None
            if action.arg == "give_up":
                return not st.over and self.can_give_up()
            return True
        return True

    def can_give_up(self) -> bool:
        return check_give_up(self.state, self.my_seat) is None

    def shown_held(self) -> list[bool]:
        """The holds drawn on the dice: mine as I toggle them."""
        return self.input.held if self.my_turn() else list(NO_HOLD)

    def auto_marks(self) -> set:
        """(seat, box) cells the clock wrote (only tables have a clock)."""
        return set()

    def roll_hold(self) -> list[bool]:
        """The dice a roll keeps now: the held ones, none before the first roll."""
        return kept_by_default(self.state, self.state.active, self.input.held) \
            if self.state.active is not None else list(NO_HOLD)

    # ---------------------------------------------------------- actions
    def handle(self, action: Action) -> None:
        n = action.name
        st = self.state
        if self.dialog is not None:
            if n in (A.LEFT, A.RIGHT, A.NEXT, A.PREV, A.UP, A.DOWN):
                self.focus_id = "dialog_no" if self.focus_id == "dialog_yes" else "dialog_yes"
            elif n == A.CONFIRM:
                self.on_press(self.focus_id or "dialog_no")
            elif n == A.CANCEL:
                self.dialog = None
            elif n == A.PRESS:
                self.on_press(action.arg)
            return
        if n in (A.LEFT, A.RIGHT) and self.app.input_kind == "controller" and self.my_turn() \
                and st.dice is not None:
            # a controller has no 1-5 keys: left/right move a cursor over the dice, A holds
            step = -1 if n == A.LEFT else 1
            self.die_cursor = (0 if step > 0 else 4) if self.die_cursor is None else (self.die_cursor + step) % 5
            return
        if n in (A.UP, A.DOWN, A.PREV, A.NEXT, A.ROLL, A.BOX):
            self.die_cursor = None
        if n == A.CONFIRM and self.die_cursor is not None:
            toggle = Action(A.TOGGLE_DIE, self.die_cursor)
            if self.enabled(toggle):
                self.handle(toggle)
            return
        if n == A.ROLL:
            hold = self.roll_hold()
            self.input.cancel()
            self.send_roll(hold)
            self._rolled_frame = self.app.frames
            self.dice_view.start_roll(self.app.now, hold, self.app.profile.animation_seconds)
            self.app.play_sound("dice")
        elif n == A.TOGGLE_DIE:
            i = action.arg
            self.input.held[i] = not self.input.held[i]
            self.input.cancel()
        elif n == A.BOX:
            self.click_box(action.arg)
        elif n in (A.UP, A.LEFT, A.PREV):
            self.move_cursor(-1)
        elif n in (A.DOWN, A.RIGHT, A.NEXT):
            self.move_cursor(1)
        elif n == A.CONFIRM:
            self.place_cursor()  # Enter in the frame the dice land still acts on the new roll
            if self.focus_id == "roll" or (self.my_turn() and st.dice is None and self.can_roll()):
                if self.enabled(Action(A.ROLL)):
                    self.handle(Action(A.ROLL))
            elif self.my_turn() and st.dice is not None and self.input.selection:
                self.click_box(self.input.selection)
            elif self.my_turn() and st.dice is None:
                self.app.show(self.t("refusal.must_roll_first"))
        elif n == A.CANCEL:
            if not self.input.cancel() and not st.over and self.can_give_up():
                self.ask_give_up()
        elif n == A.TOGGLE_HINTS:
            self.toggle_hints()
        elif n == A.TOGGLE_SPLITS:
            self.toggle_splits()
        elif n == A.PRESS:
            self.on_press(action.arg)

    def can_roll(self) -> bool:
        st = self.state
        return self.my_turn() and not st.over and check_roll(st, self.my_seat, self.roll_hold()) is None

    def move_cursor(self, step: int) -> None:
        """Arrows and Tab: one ring over Roll and the boxes that can be written now."""
        st = self.state
        if not self.my_turn() or st.over:
            return
        if st.dice is None:         # nothing to write before the first roll: the cursor is on Roll
            self.focus_id = "roll"
            return
        ok = self.input.choosable(st)
        if self.focus_id == "roll":
            if ok:
                self.focus_id = None
                self.input.pending = None
                self.input.selection = ok[0] if step > 0 else ok[-1]
            return
        sel = self.input.selection
        if self.can_roll() and sel in ok and ok.index(sel) == (len(ok) - 1 if step > 0 else 0):
            self.focus_id = "roll"
            self.input.pending = None
            return
        self.input.move(st, step)

    def toggle_hints(self) -> None:
        if not self.hints_allowed():
            if self.no_hints_key is not None:
                self.app.show(self.t(self.no_hints_key), "info", 5.0)
            return
        s = self.app.profile.settings
        s["show_hints"] = not s["show_hints"]
        self.app.profile.save()

    def ask_give_up(self) -> None:
        """The give-up question, No focused."""
        self.dialog = "give_up"
        self.focus_id = "dialog_no"

    def on_press(self, id: str) -> None:
        if id == "hints":
            self.toggle_hints()
        elif id == "give_up":
            self.ask_give_up()
        elif id == "dialog_yes":
            self.dialog = None
            self.focus_id = None
            self.send_give_up()
        elif id == "dialog_no":
            self.dialog = None
            self.focus_id = None

    def click_box(self, box: str) -> None:
        st = self.state
        before = st.sheets[st.active]
        kind, arg = self.input.click(st, box)
        if kind == "refuse":
            self.app.show(self.refusal_text(arg), "error")
        elif kind == "write":
            pts = self.input.previews(st).get(box, 0)
            self.send_write(box)
            self.after_write(before, box, pts)

    def after_write(self, before, box, pts) -> None:
        # a bonus or a Bonanza gets its fanfare from ``watch_sheets``
        self.app.play_sound("write" if pts else "scratch")

    # ---------------------------------------------------------- feel
    def motion(self) -> bool:
        return self.app.profile.animation_seconds > 0

    def watch_sheets(self) -> None:
        """What changed on the sheets since the last frame, by anyone: a written box counts up;
        a Bonanza, a joker bonus or the upper bonus of this window's seat is celebrated."""
        st = self.state
        seen, self._sheets_seen = self._sheets_seen, st.sheets
        if seen is None or len(seen) != len(st.sheets):
            return
        now, rs = self.app.now, st.ruleset
        for c, (old, new) in enumerate(zip(seen, st.sheets)):
            if new is old:
                continue
            if self.motion():
                for b in rs.boxes:
                    if old.get(b) is None and new.get(b):
                        self.sheet_view.count_up(c, b, new.get(b), now)
            if c != self.my_seat:
                continue
            if old.get(rs.yacht_box) is None and new.get(rs.yacht_box) == BONANZA_POINTS:
                self.celebrate(self.t("fx.five_equal", box=self.t(box_key(rs.yacht_box, rs))), "fanfare")
            elif new.extra_bonus > old.extra_bonus:
                self.celebrate(self.t("fx.joker", bonus=new.extra_bonus - old.extra_bonus), "fanfare")
            elif new.upper_bonus(rs) > old.upper_bonus(rs):
                self.celebrate(self.t("fx.upper_bonus", bonus=new.upper_bonus(rs)), "bonus")

    def celebrate(self, text: str, sound: str) -> None:
        self.app.play_sound(sound)
        if self.motion():
            self.celebration = Celebration(text, self.app.now, (self.cx, 300))

    def skip_animation(self) -> None:
        self.celebration = None
        self.sheet_view.counts.clear()

    # ---------------------------------------------------------- frame
    def update(self, dt: float) -> None:
        super().update(dt)
        st = self.state
        key = (st.turn, st.active)
        if key != self._seen_turn:
            self._seen_turn = key
            self.input.reset_turn()
            self.dice_view.rolled_at = None
            if self.my_turn() and self.dialog is None and st.dice is None:
                self.focus_id = "roll"      # a turn starts with a roll: Enter rolls
            elif self.focus_id == "roll":
                self.focus_id = None
        self.place_cursor()
        # the press came in during the frame that just passed: this frame already shows it moving
        self.dice_view.follow_holds(self.shown_held(), self.app.now - dt, self.app.profile.lift_seconds)
        self.watch_sheets()
        if self.celebration is not None and not self.celebration.active(self.app.now):
            self.celebration = None
        landing = self.dice_landing()
        if self._was_landing and not landing:
            self.app.play_sound("land")
        self._was_landing = landing

    def place_cursor(self) -> None:
        """Where the keyboard cursor is once a roll has landed (Enter acts on it).

        Hints on: where the verdict is, on Roll when it is to roll, else on its box (the
        player may then move it).  Hints off (or no advisor): nothing the advisor thinks
        moves it; it goes to the sheet, on the box where the player left it, or the first
        one that can be written when that one cannot (Enter writes, as before the advisor)."""
        st = self.state
        if not self.my_turn() or st.over or st.dice is None or self.dice_landing():
            return
        key = (st.seq, st.active, st.dice)
        if key != self._cursor_roll and self.input.pending is None and self.dialog is None:
            v = self.verdict()
            waiting = self.hints_on() and v is None and self.loader is not None and not self.loader.ready
            if not waiting:     # with hints on, the cursor follows the verdict once it is known
                self._cursor_roll = key
                if v is not None and v[0] == "roll":
                    self.focus_id = "roll"
                else:
                    self.focus_id = None if self.focus_id == "roll" else self.focus_id
                    if v is not None:
                        self.input.selection = v[1]
        if self.focus_id == "roll" and not self.can_roll():
            self.focus_id = None
        self.input.ensure_selection(st)

    def dice_landing(self) -> bool:
        return self.dice_view.animating(self.app.now)

    def animating(self) -> bool:
        now = self.app.now
        return (self.dice_view.animating(now) or self.dice_view.lifting(now) or self.celebration is not None
                or self.sheet_view.counting(now))

    def still_redraw(self) -> float:
        # the advisor's build progress bar moves a few times a second, not 60
        return 0.25 if (self.loader is not None and not self.loader.ready) else super().still_redraw()

    def draw_table_top(self, surface) -> None:
        pass

    def highlighted_seat(self):
        """The sheet column drawn as the one playing."""
        return self.state.active

    def shows_previews(self) -> bool:
        """Whether the free boxes show what the dice on the table would score."""
        return True

    def draw(self, surface) -> None:
        L = self.layout
        st = self.state
        self.draw_background(surface)
        self.draw_table_top(surface)
        mine = self.my_turn()
        active = self.highlighted_seat()
        landing = self.dice_landing()
        # what the roll scores shows when the dice are down, not while they tumble
        previews = self.input.previews(st) if (st.dice is not None and not st.over and not landing
                                               and self.shows_previews()) else {}
        self.sheet_view.draw(surface, L, st, active_col=active, previews=previews,
                             selection=self.input.selection if mine else None,
                             pending=self.input.pending if mine else None,
                             seat_labels=self.seat_labels(), seat_status=self.seat_status(),
                             show_selection=mine and st.dice is not None and self.focus_id != "roll",
                             marks=self.auto_marks(),
                             now=self.app.now)
        self.draw_top_bar(surface)
        held = self.shown_held()
        hint = self.hint_mask() if mine else None
        self.dice_view.draw(surface, L, self.app.now, st.dice, held, hint)
        if self.die_cursor is not None and mine:
            r = L.rect(self.dice_view.die_rect(self.die_cursor)).inflate(L.px(16), L.px(16))
            pygame.draw.rect(surface, theme.FOCUS_RING, r, max(2, L.px(4)), border_radius=L.px(12))
        caption = self.joker_hint() or (
            self.t("game.advisor.roll_all_caption") if mine and self.roll_all_hint() else None)
        if caption:
            self.dice_view.draw_caption(surface, L, caption, self.room_below_dice, width=2 * self.half)
        # rolls left under the Roll button
        rl = st.rolls_left if not st.over else 0
        pip_y = self.pip_y
        for i in range(MAX_ROLLS):
            c = L.point(self.cx - 24 + i * 24, pip_y)
            pygame.draw.circle(surface, theme.GOLD if i < rl else theme.FELT_DARK, c, L.px(7))
        draw_text(surface, self.tn("game.rolls_left", rl), L.rect((self.cx - 200, pip_y + 10, 400, 28)),
                  L.font_px(18), theme.TEXT_ON_FELT_SOFT, align="center")
        self.draw_advisor(surface)
        self.draw_footer(surface)
        self.draw_fingerprint(surface)
        self.draw_widgets_no_dialog(surface)
        if self.celebration is not None:
            self.celebration.draw(surface, L, self.app.now)
        if self.dialog:
            self.draw_dialog(surface)

    def draw_widgets_no_dialog(self, surface) -> None:
        d = self.dialog
        self.dialog = None
        try:
            self.draw_widgets(surface)
        finally:
            self.dialog = d

    def draw_top_bar(self, surface) -> None:
        L = self.layout
        st = self.state
        n = len(st.setup.seats)
        rounds = len(st.ruleset.sheet)             # a round per box: 13, or 15 for yatzy
        turn = min(rounds, st.turn // max(1, n) + 1) if not st.over else rounds
        left = self.cx - self.half
        draw_text(surface, self.t("game.turn", n=turn, total=rounds), L.rect((left, 22, self.half, 40)),
                  L.font_px(22), theme.TEXT_ON_FELT, bold=True)

    # ---------------------------------------------------------- the splits panel
    # A run (a local solo run, a ranked run) shows its splits where the advisor's box is,
    # when the player keeps the panel on (Settings, or S): each turn's time from the log's
    # stamps beside the fastest earlier run of its category (``comparison``).
    comparison = NO_COMPARISON
    _panel_drawn: tuple = ()

    def splits(self) -> list[int]:
        """Each finished turn's time (none in a game that is not a run)."""
        return []

    def has_splits(self) -> bool:
        """Whether this game is a run with splits (S does nothing elsewhere)."""
        return False

    def splits_shown(self) -> bool:
        return self.has_splits() and bool(self.app.profile.settings["show_splits"])

    def split_rows(self):
        from ..splits_view import split_rows
        return split_rows(self.splits(), len(self.state.ruleset.sheet), self.comparison.best,
                          self.comparison.gold)

    def toggle_splits(self) -> None:
        s = self.app.profile.settings
        s["show_splits"] = not s["show_splits"]
        self.app.profile.save()

    def panel_rect(self) -> tuple[int, int, int, int]:
        return (int(self.cx - self.half), 378, int(2 * self.half), 180)

    def panel_title(self) -> str:
        """The panel's first line: with hints on, the advisor's choice (the panel takes its
        place); else what the run is compared with."""
        if self.hints_on() and self.state.dice is not None and not self.dice_landing():
            adv = self.advice()
            options = verdict_options(adv, 1)
            if options:
                return self.choice_text(options[0], self.state.sheets[self.state.active].total(self.state.ruleset))
        best = self.comparison.best_ms
        if best is None:
            return self.t("splits.panel_first")
        from ..i18n import format_duration
        return self.t("splits.panel", time=format_duration(best, lang.current(), 2))

    def draw_panel(self, surface) -> None:
        from ..splits_view import draw_split_rows
        L = self.layout
        x, y, w, h = self.panel_rect()
        box = L.rect((x, y, w, h))
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (0, 0, 0, 60), shade.get_rect(), border_radius=L.px(12))
        surface.blit(shade, box)
        draw_text(surface, self.panel_title(), L.rect((x + 14, y + 4, w - 28, 24)), L.font_px(17),
                  theme.GOLD, bold=True, min_px=theme.MIN_READABLE_PX)
        rows = self.split_rows()
        draw_split_rows(surface, L, (x + 8, y + 30, w - 16, h - 32), rows,
                        (h - 34) // ((len(rows) + 1) // 2), 15, on_paper=False)
        self._panel_drawn = tuple(rows)

    def draw_advisor(self, surface) -> None:
        if self.splits_shown() and not self.state.over:     # the panel takes the box's place
            self.draw_panel(surface)
            return
        L = self.layout
        st = self.state
        h = self.half
        box = L.rect((self.cx - h, 384, 2 * h, 150))
        if not self.my_turn() or st.over:
            return
        if not self.hints_allowed():     # say why there is no advice, not just nothing
            if self.no_hints_key is not None:
                draw_wrapped(surface, self.t(self.no_hints_key),
                             L.rect((self.cx - h + 20, 430, 2 * h - 40, 100)), L.font_px(17),
                             theme.TEXT_ON_FELT_SOFT, align="center")
            return
        if self.loader is not None and not self.loader.ready:
            pct = int(self.loader.progress * 100)
            ProgressBar.draw(surface, L.rect((self.cx - h + 40, 440, 2 * h - 80, 30)), self.loader.progress, L,
                             self.t("error.advisor_building", percent=pct))
            return
        if not self.hints_on() or self.loader is None:
            return
        s = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(s, (0, 0, 0, 60), s.get_rect(), border_radius=L.px(12))
        surface.blit(s, box)
        if st.dice is not None and self.dice_landing():
            return      # the verdict waits for the dice to land
        if st.dice is None:
            draw_text(surface, self.t("game.advisor.wait"), box.inflate(-L.px(30), 0), L.font_px(20),
                      theme.TEXT_ON_FELT_SOFT, align="center")
            return
        adv = self.advice()
        if adv is None:
            return
        total = st.sheets[st.active].total(st.ruleset)
        y = 394
        for i, opt in enumerate(verdict_options(adv)):
            draw_text(surface, self.choice_text(opt, total), L.rect((self.cx - h + 20, y, 2 * h - 40, 32)),
                      L.font_px(22 if i == 0 else 19), theme.GOLD if i == 0 else theme.TEXT_ON_FELT,
                      bold=(i == 0))
            y += 36 if i == 0 else 30
        draw_text(surface, self.t("game.advisor.explain"),
                  L.rect((self.cx - h + 20, 496, 2 * h - 40, 26)), L.font_px(16), theme.TEXT_ON_FELT_SOFT)

    def choice_text(self, opt: tuple, total: int) -> str:
        """One advisor line: the action and the expected final score it leads to."""
        score = format_decimal(total + opt[-1], lang.current())
        if opt[0] == "roll":
            if not opt[1]:
                return self.t("game.advisor.roll_all", score=score)
            return self.t("game.advisor.keep_roll", dice=" ".join(map(str, opt[1])), score=score)
        box = self.t(box_key(opt[1], self.state.ruleset))
        if opt[2] == 0:
            return self.t("game.advisor.write_scratch", box=box, score=score)
        return self.t("game.advisor.write", box=box, points=opt[2], score=score)

    def beside_sheet(self) -> tuple[float, float, float, float]:
        """Beside the sheet, between the rolls left and the key hints (design units): what
        goes here covers neither the sheet, the dice, the key-hint line nor a button."""
        top = self.pip_y + 40
        return (self.cx - self.half_wide, top, 2 * self.half_wide, 542 - top)

    def toast_area(self, layout):
        """A toast ("Roll the dice first.") goes beside the sheet."""
        return layout.rect(self.beside_sheet())

    def footer_text(self) -> str:
        """The key hints: the play keys, then each optional action while it is enabled."""
        pad = self.app.input_kind == "controller"
        parts = [self.t("game.controls_pad" if pad else "game.controls")]
        parts += [self.t(pad_key if pad else key) for name, key, pad_key in OPTIONAL_HINTS
                  if self.enabled(Action(name))]
        return " · ".join(parts)

    def draw_footer(self, surface) -> None:
        L = self.layout
        text = self.footer_text()
        rect = L.rect((self.cx - self.half_wide, 562, 2 * self.half_wide, 30))
        px = L.font_px(16)
        parts = text.split(" · ")
        if fonts.text_width(text, px) <= rect.w or len(parts) < 2:
            draw_text(surface, text, rect, px, theme.TEXT_ON_FELT_SOFT, align="center")
            return
        # too long for a narrow column: two lines, split at the middle separator
        cut = (len(parts) + 1) // 2
        for i, line in enumerate((" · ".join(parts[:cut]), " · ".join(parts[cut:]))):
            draw_text(surface, line, L.rect((self.cx - self.half_wide, 546 + i * 24, 2 * self.half_wide, 24)),
                      px, theme.TEXT_ON_FELT_SOFT, align="center")

    def commitment(self) -> bytes | None:
        """The dice's fingerprint, shown from the start (the seed itself comes at the end)."""
        return None

    def fingerprint_y(self) -> float:
        return 672

    def fingerprint_line(self, commit: bytes) -> str:
        return self.t("game.fingerprint", fingerprint=short_hex(commit))

    def draw_fingerprint(self, surface) -> None:
        commit = self.commitment()
        if commit is None:
            return
        L = self.layout
        draw_text(surface, self.fingerprint_line(commit),
                  L.rect((self.cx - self.half_wide, self.fingerprint_y(), 2 * self.half_wide, 26)),
                  L.font_px(15),
                  theme.TEXT_ON_FELT_SOFT, align="center")

    def dialog_labels(self) -> tuple[str, str]:
        """The catalogue keys of the dialog's two buttons (yes, no)."""
        return ("common.yes", "common.no")

    def dialog_lines(self) -> list[str]:
        """Lines under the dialog's question (the table's standings after leaving)."""
        return []

    def draw_dialog(self, surface) -> None:
        L = self.layout
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surface.blit(shade, (0, 0))
        lines = self.dialog_lines()
        top = 250 - 28 * len(lines)
        r = L.rect((400, top, 480, 470 - top))
        shadowed_panel(surface, r, theme.PAPER, L.px(16), L.px(6))
        question = self.t(self.give_up_question) if self.dialog == "give_up" else self.t(f"table.{self.dialog}")
        draw_text(surface, question, L.rect((420, top + 24, 440, 60)), L.font_px(24),
                  theme.INK, bold=True, align="center")
        for i, line in enumerate(lines):
            draw_text(surface, line, L.rect((440, top + 90 + 28 * i, 400, 26)), L.font_px(19),
                      theme.INK_SOFT, align="center")
        self.draw_widgets(surface, only=lambda w: w.id.startswith("dialog_"))
