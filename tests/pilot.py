"""Driving a real window in tests as a player does: a key, a click or typed text is a posted
pygame event and one frame; ``step_until`` waits for a state, with a limit, by stepping the
window (never by sleeping a fixed time).  ``window`` opens the test window and always closes it."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator

import pygame

FRAME = 1 / 60
SIZE = (1280, 720)
# Between two frames of a wait: the relay's thread or process gets the CPU (the condition,
# not this pause, decides how long a wait lasts).
_YIELD = 0.005


@contextlib.contextmanager
def window(data_dir, advisor: bool = False, size=SIZE, animation: str | None = "off") -> Iterator:
    """A game window on the dummy video driver without sound.  However the test ends, every
    scene exits and what it owns (a relay connection, a hosted relay) is closed."""
    from bonanza.client import lang
    from bonanza.client.app import App
    app = App(size, data_dir=str(data_dir), advisor=advisor, sound=False)
    # a run's clock reads the frames the test steps, so its times are exact (the real
    # monotonic clock is tested in a real process: tests/test_speedrun.py)
    app.wall = lambda: app.now
    if animation is not None:
        app.profile.settings["animation"] = animation
    try:
        yield app
    finally:
        app.close()
        lang.set_language("en")
        pygame.display.quit()


def key(app, k: int, mod: int = 0, steps: int = 1, dt: float = FRAME) -> None:
    """Press key ``k`` (with modifiers ``mod``), then ``steps`` frames of ``dt``."""
    post_key(k, mod)
    for _ in range(steps):
        app.step(dt)


def post_key(k: int, mod: int = 0) -> None:
    """Press key ``k`` without a frame (several events handled in the same frame)."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def click(app, target) -> None:
    """Click the left button on ``target`` and step one frame.  ``target`` is a widget, or
    the id of one in the current scene, a ``pygame.Rect`` in window pixels (as
    ``layout.rect`` and ``screen_rect`` return), a design rect ``(x, y, w, h)`` or a design
    point ``(x, y)``."""
    post_click(app, target)
    app.step(FRAME)


def post_click(app, target) -> None:
    """Click ``target`` (see ``click``) without a frame."""
    pos = screen_pos(app, target)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def screen_pos(app, target) -> tuple[int, int]:
    """Where ``target`` (see ``click``) is in the window, in pixels."""
    if isinstance(target, str):
        widget = app.scene.widget(target)
        assert widget is not None, f"no widget {target!r} on {type(app.scene).__name__}"
        target = widget
    if hasattr(target, "screen_rect"):
        return tuple(target.screen_rect(app.layout).center)
    if isinstance(target, pygame.Rect):
        return tuple(target.center)
    if len(target) == 2:
        return app.layout.point(*target)
    return tuple(app.layout.rect(target).center)


def type_text(app, text: str) -> None:
    """Type ``text`` (one text-input event per character), then one frame."""
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step(FRAME)


def step_until(app, cond: Callable[[], object], timeout: float = 30.0, what: str = "the condition",
               others: Iterable[Callable[[], object]] = ()) -> bool:
    """Step ``app`` (and call each of ``others``, e.g. a second client's poll) until
    ``cond()`` holds; True then.  Fails the test, saying what it waited for and where the
    window was, when it does not hold within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}: {_where(app)}")
        app.step(FRAME)
        for other in others:
            other()
        time.sleep(_YIELD)
    return True


def wait_until(cond: Callable[[], object], timeout: float = 30.0, what: str = "the condition",
               others: Iterable[Callable[[], object]] = ()) -> bool:
    """``step_until`` without a window: call each of ``others`` (e.g. a connection's poll)
    until ``cond()`` holds; fails the test saying what it waited for after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        for other in others:
            other()
        time.sleep(_YIELD)
    return True


def _where(app) -> str:
    """The window's scene, toast, connection and state, for a failed wait's message."""
    scene = app.scene
    try:
        state = getattr(scene, "state", None)
    except Exception as e:      # a state that cannot be read says why
        state = repr(e)
    conn = getattr(scene, "conn", None)
    return (f"scene {type(scene).__name__}, toast {app.toast.text!r}, "
            f"connection {getattr(conn, 'status', None)}, state {state}")


def drawn_overflows(app, shot, *label) -> list[tuple]:
    """Draws a frame, saves it as ``shot`` and returns each text it drew wider than its box
    or smaller than readable, as ``(*label, text, px, width, max_width)``."""
    from bonanza.client import theme, widgets
    widgets.FIT_REPORT.clear()
    app.draw()
    app.screenshot(shot)
    return [(*label, text, px, width, max_width) for text, px, width, max_width in widgets.FIT_REPORT
            if width > max_width + 1 or px < theme.MIN_READABLE_PX]


def next_move(state) -> dict | None:
    """The move a test's player makes now: roll, or write the first box core allows (a
    joker can rule out every box but one, and a refused write would only be sent again
    until the turn's clock wrote for the seat); None once the game is over."""
    from bonanza.core.game import allowed
    if state is None or state.over:
        return None
    if state.dice is None:
        return {"type": "roll", "hold": [False] * 5}
    return {"type": "write", "box": allowed(state)[0]}


def play_own_turn(app, table) -> None:
    """One action of the seat at ``table`` whose turn it is: roll, or write the first box
    the rules allow (confirmed when the sheet asks again)."""
    from bonanza.client.actions import Action
    st = table.state
    if not table.my_turn():
        return
    move = next_move(st)
    if move is None:
        return
    if move["type"] == "roll":
        app.dispatch(Action("roll"))
        return
    app.dispatch(Action("box", move["box"]))
    if table.input.pending:
        app.dispatch(Action("box", move["box"]))


def seat_player(conn) -> Callable[[], None]:
    """A step (for ``step_until``'s ``others``) that plays ``conn``'s seat, a
    ``RelayConnection``: it reads the connection's messages and, on the seat's turn,
    sends ``next_move`` once per state, the next only when the relay's record of it has
    moved the game on.  A refusal fails the test at once (a legal move is never refused;
    sending again would only drain the connection's rate bucket while the clock runs)."""
    sent_at = [-1]

    def step() -> None:
        for msg in conn.poll():
            if msg.get("type") == "error":
                raise AssertionError(f"the relay refused the seat's move: {msg}")
        st = conn.state
        if st is None or not conn.client.my_turn or conn.client.seq != st.seq or sent_at[0] == st.seq:
            return
        move = next_move(st)
        if move is not None:
            sent_at[0] = st.seq
            conn.send(move)
    return step
