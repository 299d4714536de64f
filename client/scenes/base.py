"""The scene base class: widgets, keyboard focus, click targets, enabling."""
from __future__ import annotations

from .. import actions as A
from .. import lang, sprites, theme
from ..actions import Action
from ..widgets import Button, TextField, draw_text, pad_typing_badge, shared_text_px


class Scene:
    title_key: str | None = None

    def __init__(self, app):
        self.app = app
        self.widgets: list = []
        self.focus_id: str | None = None
        self.caret_t = 0.0

    # ---------------------------------------------------------- lifecycle
    def on_enter(self) -> None:
        """Pushed onto the stack, or put in another scene's place."""

    def on_exit(self) -> None:
        """Leaving the stack; what the scene ``own``s is closed right after."""

    def on_pause(self) -> None:
        """Another scene was pushed over this one."""

    def on_resume(self) -> None:
        """The scene above was popped; this one is on top again."""

    def asks_before_quit(self) -> bool:
        """Whether closing the window now must ask first (a hosted game is running)."""
        return False

    def ask_quit(self) -> None:
        """Ask whether to close the window (``asks_before_quit`` said so)."""

    def asking_quit(self) -> bool:
        """Whether that question is on screen now (asked again, the answer is yes)."""
        return False

    def leave_running(self) -> None:
        """The window is closing for good while this scene's game runs: leave it running."""

    def own(self, resource):
        """Close ``resource`` (``close()``) when this scene exits, unless a later scene owns
        it first: a relay connection or hosted relay handed from the lobby to the table."""
        self.app.adopt(resource, self)
        return resource

    # ---------------------------------------------------------- helpers
    @property
    def layout(self):
        return self.app.layout

    def t(self, key: str, **kw) -> str:
        return lang.t(key, **kw)

    def tn(self, key: str, n: int, **kw) -> str:
        return lang.tn(key, n, **kw)

    def button(self, id: str, rect, label, style="primary", size=22, action=None) -> Button:
        b = Button(id, rect, action or Action(A.PRESS, id), label=label, style=style, size=size)
        self.widgets.append(b)
        return b

    def field(self, id: str, rect, value="", placeholder="", max_len=80, size=22) -> TextField:
        f = TextField(id, rect, Action(A.FOCUS, id), value=value, placeholder=placeholder,
                      max_len=max_len, size=size)
        self.widgets.append(f)
        return f

    def widget(self, id: str | None):
        for w in self.widgets:
            if w.id == id:
                return w
        return None

    def visible(self, w) -> bool:
        return True

    # ---------------------------------------------------------- input
    def targets(self, layout):
        return [(w.screen_rect(layout), w.action) for w in self.widgets
                if w.action is not None and self.visible(w)]

    def enabled(self, action: Action) -> bool:
        if action.name == A.PRESS:
            return self.button_enabled(action.arg)
        return True

    def button_enabled(self, id: str) -> bool:
        return True

    def text_focus(self) -> bool:
        w = self.widget(self.focus_id) if self.focus_id else None
        return isinstance(w, TextField)

    def focus_order(self) -> list[str]:
        return [w.id for w in self.widgets if w.focusable() and self.visible(w)
                and (isinstance(w, TextField) or self.enabled(w.action))]

    def move_focus(self, step: int) -> None:
        order = self.focus_order()
        if not order:
            return
        if self.focus_id not in order:
            self.focus_id = order[0 if step > 0 else -1]
        else:
            self.focus_id = order[(order.index(self.focus_id) + step) % len(order)]

    def handle(self, action: Action) -> None:
        """Generic menu behaviour: arrows/Tab move focus, Enter presses, Escape goes back."""
        n = action.name
        if n in (A.UP, A.PREV, A.LEFT):
            self.move_focus(-1)
        elif n in (A.DOWN, A.NEXT, A.RIGHT):
            self.move_focus(1)
        elif n == A.CONFIRM:
            w = self.widget(self.focus_id) if self.focus_id else None
            if isinstance(w, TextField):
                self.on_submit(w.id)
            elif w is not None and w.action is not None and self.enabled(w.action):
                self.focus_and_run(w.action)
        elif n == A.CANCEL:
            self.back()
        elif n == A.PRESS:
            self.focus_id = action.arg
            self.on_press(action.arg)
        elif n == A.FOCUS:
            self.focus_id = action.arg
        elif n == A.TEXT:
            w = self.widget(self.focus_id)
            if isinstance(w, TextField) and w.type(action.arg):
                self.app.show(self.t("common.unsupported_chars"), "error")
        elif n == A.BACKSPACE:
            w = self.widget(self.focus_id)
            if isinstance(w, TextField):
                w.backspace()
        elif n == A.DELETE:
            w = self.widget(self.focus_id)
            if isinstance(w, TextField):
                w.delete()
        elif n == A.CARET:
            w = self.widget(self.focus_id)
            if isinstance(w, TextField):
                w.move_caret(action.arg)

    def focus_and_run(self, action: Action) -> None:
        self.handle(action)

    def on_press(self, id: str) -> None:
        pass

    def on_submit(self, id: str) -> None:
        self.move_focus(1)

    def back(self) -> None:
        self.app.pop()

    # ---------------------------------------------------------- frame
    def update(self, dt: float) -> None:
        self.caret_t += dt

    def animating(self) -> bool:
        """True while something moves: the window then draws every frame."""
        return False

    def still_redraw(self) -> float:
        """Seconds between full redraws of a still screen (a caret blinks at this pace)."""
        return 0.5

    def draw_live(self, surface) -> list:
        """Redraw only the parts of a still screen that change with time (a run timer)
        over the last full frame; returns the window rects to update."""
        return []

    def skip_animation(self) -> None:
        """A key or click ends any celebration at once (input is never held back)."""

    def toast_clear(self, layout) -> list:
        """Window rects a toast must not cover: the buttons."""
        return [w.screen_rect(layout) for w in self.widgets if self.visible(w) and w.action is not None]

    def toast_area(self, layout):
        """The one place this scene's toasts go (a window rect they are centred in), for a
        screen whose bottom holds what the player reads; None: at the bottom, above the buttons."""
        return None

    def draw_background(self, surface) -> None:
        surface.blit(sprites.felt(surface.get_size()), (0, 0))

    def draw_title(self, surface, text: str, y: float = 24, size: int = 40) -> None:
        L = self.layout
        draw_text(surface, text, L.rect((80, y, 1120, 56)), L.font_px(size), theme.TEXT_ON_FELT,
                  bold=True, align="center", shadow=True)

    def draw_widgets(self, surface, only=None) -> None:
        """The visible widgets (those ``only`` accepts, when given); buttons drawn together
        share their label size with their siblings (``widgets.shared_text_px``)."""
        L = self.layout
        mouse = self.app.mouse
        shown = [w for w in self.widgets if self.visible(w) and (only is None or only(w))]
        text_px = shared_text_px([w for w in shown if isinstance(w, Button)], L)
        for w in shown:
            r = w.screen_rect(L)
            hover = r.collidepoint(mouse)
            focused = w.id == self.focus_id
            if isinstance(w, TextField):
                w.draw(surface, L, hover, focused, True, caret_on=(self.caret_t % 1.0) < 0.6)
                if focused and self.app.input_kind == "controller" and self.app.keyboard is None:
                    pad_typing_badge(surface, L, r)     # how a pad types here
            else:
                w.draw(surface, L, hover, focused, w.action is None or self.enabled(w.action),
                       text_px.get(w.id))

    def draw(self, surface) -> None:
        self.draw_background(surface)
        if self.title_key:
            self.draw_title(surface, self.t(self.title_key))
        self.draw_widgets(surface)

    def on_language_changed(self) -> None:
        pass
