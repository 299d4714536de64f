"""The game window: a scene stack driven by ``step(dt)``.

``App(size, data_dir=..., clock=None)`` opens the window; ``run()`` is the real
loop (frame rate capped, slower when the screen is still).  Tests call
``step(dt)`` instead: it handles the pending pygame events once, updates and
draws the top scene.  Input is dispatched immediately as actions; animations
never hold it back.

Scenes have a lifecycle: the App calls ``on_enter`` when a scene is pushed (or
replaces another), ``on_pause``/``on_resume`` when another scene covers it or
uncovers it, and ``on_exit`` when it leaves the stack by ``pop``, ``replace``,
``to_title`` or ``close`` (the window's close button, the Quit button, Ctrl-C,
SIGTERM).  What a scene ``own``s (a relay connection, a hosted relay) is closed
on its exit unless it was handed to the next scene first, so nothing outlives
the window.

Scenes open other scenes by name (``open``, ``switch``, ``make``; the names are in
``scenes/registry.py``), so no scene module imports another.
"""
from __future__ import annotations

import os
import signal
import time
import warnings
from typing import TYPE_CHECKING, Any

import pygame

from . import actions as A
from . import fonts, lang, theme
from .layout import Layout
from .profile import Profile
from .scenes.base import Scene
from .scenes.registry import scene_factory
from .widgets import TextField, Toast

if TYPE_CHECKING:
    from .onscreen_keyboard import OnScreenKeyboard
    from .sound import Sound

_PROCESS_START = time.perf_counter()


class App:
    def __init__(self, size: tuple[int, int] | None = None, data_dir=None, clock=None,
                 advisor: bool = True, sound: bool = True, fullscreen: bool | None = None):
        pygame.display.init()
        pygame.font.init()
        self.profile = Profile(data_dir)
        self.data_dir = data_dir
        lang.set_language(self.profile.language)
        s = self.profile.settings
        self.apply_palette()
        if size is None:
            size = self.window_size()
        self.fullscreen = s["fullscreen"] if fullscreen is None else fullscreen
        self.screen = self._open_window(tuple(size))
        self.layout = Layout(self.screen.get_size(), s["ui_scale"])
        self.clock = clock
        self.toast = Toast()
        self.now = 0.0                  # frame time, summed (animations): never a run's time
        # a run's clock (core.runclock): the machine's monotonic clock, read, never summed,
        # so a frozen window or a stopped process counts (tests may put their own here)
        self.wall = time.monotonic
        self.last_input = "keys"        # what the player last used: "keys" or "mouse"
        self.mouse = (-1, -1)
        self.running = True
        self.minimized = False          # nothing is drawn while the window is minimised
        self.frames = 0
        self.first_frame_at: float | None = None
        self.advisor_enabled = advisor
        self._loaders: dict = {}
        self._want_sound = sound
        self.sound: Sound | None = None     # made after the first frame (``_make_sound``)
        self.dirty = True
        self.scenes: list = []
        self._owned: list[list] = []    # [resource, owning scene]: closed on the owner's exit
        self.closed = False
        self.controllers: dict[int, Any] = {}    # open game controllers by instance id
        self.input_kind = "keyboard"              # or "controller": the last input used
        self.keyboard: OnScreenKeyboard | None = None   # over a text field of the top scene
        pygame.key.set_repeat(350, 40)
        for text in self.profile.notice_texts(lang.t):
            self.toast.show(text, "error", 6.0, queue=True)
        self.profile.notices = []
        self.profile.notify = lambda key, params: self.show(lang.t(key, **params), "error", 6.0)
        self.open("title")

    # ---------------------------------------------------------- window
    def _open_window(self, size):
        flags = pygame.RESIZABLE
        if self.fullscreen:
            flags = pygame.FULLSCREEN
            size = (0, 0)
        _set_icon()
        try:
            screen = pygame.display.set_mode(size, flags)
        except pygame.error:
            screen = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
        pygame.display.set_caption(lang.t("app.title"))
        win = _sdl_window()
        if win is not None:
            try:        # the window manager then never offers a size below the smallest layout
                win.minimum_size = theme.MIN_WINDOW
            except Exception:
                pass
        return screen

    def apply_window(self, size=None, fullscreen=None) -> None:
        if fullscreen is not None:
            self.fullscreen = fullscreen
        if size is None:
            size = self.window_size()
        self.screen = self._open_window(tuple(size))
        self.layout.resize(self.screen.get_size())
        self.dirty = True

    def ui_scale(self) -> int:
        """The interface size text is drawn at in this window, in percent: the player's, as far
        as the window holds it (``Layout.held_percent``), or the window's own when automatic."""
        return self.layout.held_percent()

    def apply_interface_size(self) -> None:
        """Draw text at the profile's interface size from the next frame; the window stays."""
        self.layout.set_text_percent(self.profile.settings["ui_scale"])
        self.dirty = True

    def window_size(self) -> tuple[int, int]:
        """The first window: the design at the largest scale the display holds with its bars."""
        try:
            desktop = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            desktop = None
        return theme.window_for_scale(theme.scale_for_display(desktop))

    def apply_palette(self) -> None:
        """Draw with the profile's palette from the next frame (cached sprites are redrawn)."""
        from . import sprites
        theme.apply_palette(self.profile.settings["palette"])
        sprites.clear_caches()
        self.dirty = True

    # ---------------------------------------------------------- scenes
    @property
    def scene(self):
        return self.scenes[-1] if self.scenes else None

    # The scene's name is positional-only: a scene may take a ``name`` argument of its own.
    def make(self, scene_name: str, /, *args: Any, **kwargs: Any) -> Scene:
        """The scene registered as ``scene_name`` (``scenes/registry.py``), built for this
        window but not on the stack yet."""
        return scene_factory(scene_name)(self, *args, **kwargs)

    def open(self, scene_name: str, /, *args: Any, **kwargs: Any) -> Scene:
        """Push the scene registered as ``scene_name`` over the top one (``push``)."""
        scene = self.make(scene_name, *args, **kwargs)
        self.push(scene)
        return scene

    def switch(self, scene_name: str, /, *args: Any, **kwargs: Any) -> Scene:
        """Put the scene registered as ``scene_name`` in the top one's place (``replace``):
        it is built first, so it can take over what the top owns."""
        scene = self.make(scene_name, *args, **kwargs)
        self.replace(scene)
        return scene

    def push(self, scene) -> None:
        if self.scenes:
            self.scenes[-1].on_pause()
        self._enter(scene)

    def _enter(self, scene) -> None:
        self.scenes.append(scene)
        self.dirty = True
        scene.on_enter()

    def _exit_top(self) -> None:
        scene = self.scenes.pop()
        try:
            scene.on_exit()
        finally:
            self.release(scene)
        self.dirty = True

    def pop(self) -> None:
        if len(self.scenes) > 1:
            self._exit_top()
            self.scenes[-1].on_resume()
        else:
            self.running = False
        self.dirty = True

    def replace(self, scene) -> None:
        """``scene`` takes the top's place; built before the top exits, so it can take over
        what the top owns (``Scene.own``)."""
        if self.scenes:
            self._exit_top()
        self._enter(scene)

    def to_title(self) -> None:
        while len(self.scenes) > 1:
            self._exit_top()
        if self.scenes:
            self.scenes[-1].on_resume()
        self.dirty = True

    def quit(self) -> None:
        """Stop the loop; ``run`` then closes every scene (``close``)."""
        self.running = False

    def request_quit(self) -> None:
        """The close button, Quit or Ctrl-C: during a game this window hosts, ask first
        (the game can go on without the window); asked again while the question is open,
        the answer is yes."""
        scene = self.scene
        if scene is not None and scene.asks_before_quit():
            if not scene.asking_quit():
                scene.ask_quit()
                self.dirty = True
                return
            scene.leave_running()
        self.quit()

    def _on_ctrl_c(self, *_) -> None:
        """Ctrl-C: asks like the close button during a hosted game, else stops as ever."""
        scene = self.scene
        if scene is None or not scene.asks_before_quit():
            raise KeyboardInterrupt
        self.request_quit()

    def quit_now(self) -> None:
        """SIGTERM (a logout, a shutdown): nobody to ask; a hosted game goes on without
        the window, as it would after a crash."""
        scene = self.scene
        if scene is not None and scene.asks_before_quit():
            scene.leave_running()
        self.quit()

    def close(self) -> None:
        """Every scene exits, top first, and what they own is closed.  Idempotent."""
        if self.closed:
            return
        self.closed = True
        self.running = False
        while self.scenes:
            try:
                self._exit_top()
            except Exception:   # one scene's failing cleanup must not keep a relay alive
                pass
        for resource, _ in self._owned:
            _close(resource)
        self._owned.clear()

    # ---------------------------------------------------------- ownership
    def adopt(self, resource, scene) -> None:
        """``scene`` now owns ``resource`` (taking it over from any earlier owner)."""
        for entry in self._owned:
            if entry[0] is resource:
                entry[1] = scene
                return
        self._owned.append([resource, scene])

    def release(self, scene) -> None:
        """Close what ``scene`` still owns."""
        mine = [e for e in self._owned if e[1] is scene]
        self._owned = [e for e in self._owned if e[1] is not scene]
        for resource, _ in mine:
            _close(resource)

    # ---------------------------------------------------------- services
    def advisor_loader(self, ruleset: str):
        """The background loader of a ruleset's advisor (None when disabled/missing)."""
        if not self.advisor_enabled:
            return None
        if ruleset not in self._loaders:
            try:
                from bonanza.core.advisor import AdvisorLoader
                self._loaders[ruleset] = AdvisorLoader(ruleset).start()
            except Exception:
                self._loaders[ruleset] = None
        return self._loaders[ruleset]

    def play_sound(self, name: str) -> None:
        if self.sound is None:
            self._make_sound()
        if self.sound is not None:
            self.sound.play(name)

    def _make_sound(self) -> None:
        if not self._want_sound or self.sound is not None:
            return
        from .sound import Sound
        s = self.profile.settings
        self.sound = Sound(s["volume"] / 100.0, s["muted"])

    def apply_sound_settings(self) -> None:
        if self.sound is not None:
            s = self.profile.settings
            self.sound.set_volume(s["volume"] / 100.0, s["muted"])

    def show(self, text: str, kind: str = "info", seconds: float = 3.5) -> None:
        self.toast.show(text, kind, seconds)
        self.dirty = True

    def set_language(self, code: str | None) -> None:
        lang.set_language(code)
        pygame.display.set_caption(lang.t("app.title"))
        for sc in self.scenes:
            sc.on_language_changed()
        self.dirty = True

    # ---------------------------------------------------------- loop
    def dispatch(self, action) -> bool:
        scene = self.scene
        if scene is not None and (action.name == A.KEYBOARD or self.keyboard is not None):
            return self._keyboard_action(scene, action)
        if scene is None or not scene.enabled(action):
            return False
        scene.handle(action)
        self.dirty = True
        return True

    def _keyboard_action(self, scene, action) -> bool:
        """The on-screen keyboard opens on the focused text field, or turns ``action`` into
        what it types there, given to the scene as typing is (its own checks apply)."""
        self.dirty = True
        if self.keyboard is None:
            if isinstance(scene.widget(scene.focus_id), TextField):
                # imported only once a pad types: the first frame never needs it
                from .onscreen_keyboard import OnScreenKeyboard
                self.keyboard = OnScreenKeyboard(scene, scene.focus_id)
            return True
        typed, ending = self.keyboard.handle(action)
        for a in typed:
            if scene.enabled(a):
                scene.handle(a)
        if ending is not None:
            self.keyboard = None
            if ending == "done":            # Enter in the field
                self.dispatch(A.Action(A.CONFIRM))
        return True

    def _keyboard_gone(self) -> bool:
        """Whether the keyboard's field left: another scene on top, or the focus moved on."""
        kb = self.keyboard
        return kb is not None and (kb.scene is not self.scene or kb.scene.focus_id != kb.field_id)

    def process_event(self, event) -> None:
        et = event.type
        if et == pygame.QUIT:
            self.request_quit()
            return
        if et == pygame.VIDEORESIZE and not self.fullscreen:
            w = max(theme.MIN_WINDOW[0], event.w)
            h = max(theme.MIN_WINDOW[1], event.h)
            win = _sdl_window()
            if (w, h) != (event.w, event.h) and win is not None:
                try:    # clamped in place: the same window (set_mode would open a new one)
                    win.size = (w, h)
                except Exception:
                    pass
            self.screen = pygame.display.get_surface() or self.screen
            self.layout.resize(self.screen.get_size())
            self.profile.settings["window_size"] = list(self.screen.get_size())   # the next start opens so
            self.dirty = True
            return
        if et == pygame.WINDOWMINIMIZED:
            self.minimized = True
            return
        if et in (pygame.WINDOWRESTORED, pygame.WINDOWSHOWN, pygame.WINDOWMAXIMIZED):
            self.minimized = False
            self.dirty = True
            return
        if et in (pygame.WINDOWEXPOSED, pygame.WINDOWSIZECHANGED):
            self.minimized = False
            self.layout.resize(self.screen.get_size())
            self.dirty = True
            return
        if et == pygame.MOUSEMOTION:
            # a move redraws only when it changes what is under the pointer (a hover)
            if self.scene is not None and self._hovered(event.pos) != self._hovered(self.mouse):
                self.dirty = True
            self.mouse = event.pos
            return
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse = event.pos
        if et in (pygame.CONTROLLERDEVICEADDED, pygame.CONTROLLERDEVICEREMOVED):
            self._plug(event)
            return
        if et in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.CONTROLLERBUTTONDOWN):
            kind = "controller" if et == pygame.CONTROLLERBUTTONDOWN else "keyboard"
            if kind != self.input_kind:
                self.input_kind = kind      # the key hints show this input's buttons
                self.dirty = True
            # what a run's log says its moves were asked with
            self.last_input = {pygame.KEYDOWN: "keys", pygame.MOUSEBUTTONDOWN: "mouse"}.get(et, "controller")
        if et in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.CONTROLLERBUTTONDOWN) and self.scene is not None:
            self.scene.skip_animation()     # any key or click ends a celebration at once
        if self.keyboard is not None and et in (pygame.KEYDOWN, pygame.TEXTINPUT):
            self.keyboard = None            # a real keyboard: the player types on it
            self.dirty = True
        for action in A.actions_for(event, self.keyboard or self.scene, self.layout):
            self.dispatch(action)
            if not self.running:
                return

    def start_controllers(self) -> None:
        """Listen for game controllers: SDL then announces each connected one, and each one
        plugged in later, as CONTROLLERDEVICEADDED (after the first frame: it costs ~20 ms)."""
        from pygame._sdl2 import controller
        try:
            controller.init()
        except pygame.error:
            pass

    def _plug(self, event) -> None:
        """Open a game controller when it is plugged in (SDL sends its buttons only once it
        is open) and close it when it goes; any number at once, all mapped alike, so in
        pass-and-play each player may hold their own."""
        from pygame._sdl2 import controller
        try:
            if not controller.get_init():
                controller.init()
            if event.type == pygame.CONTROLLERDEVICEADDED:
                pad = controller.Controller(event.device_index)
                self.controllers[pad.as_joystick().get_instance_id()] = pad
            else:
                pad = self.controllers.pop(getattr(event, "instance_id", -1), None)
                if pad is not None:
                    pad.quit()
        except (pygame.error, IndexError):
            pass        # a pad gone before it could be opened: nothing to hold on to

    def _hovered(self, pos):
        try:
            return A.click_action(pos, (self.keyboard or self.scene).targets(self.layout))
        except Exception:
            return None

    def step(self, dt: float = 1 / 60, draw: bool = True) -> None:
        """One frame: pending events, update, draw."""
        for event in pygame.event.get():
            self.process_event(event)
            if not self.running:
                return
        self.now += dt
        if self.toast.update(dt):
            self.dirty = True
        scene = self.scene
        if scene is None:
            self.running = False
            return
        scene.update(dt)
        if self._keyboard_gone():
            self.keyboard = None
            self.dirty = True
        if draw:
            self.draw()

    def draw(self) -> None:
        scene = self.scene
        scene.draw(self.screen)
        if self.keyboard is not None:
            self.keyboard.draw(self.screen, self.layout, scene.widget(self.keyboard.field_id), self.mouse)
        self.toast.draw(self.screen, self.layout, scene.toast_clear(self.layout), scene.toast_area(self.layout))
        pygame.display.flip()
        self.frames += 1
        self.dirty = False
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter() - _PROCESS_START

    def needs_redraw(self) -> bool:
        """Whether the next frame must be drawn in full now: something changed or moves.
        A still screen (a toast that is only shown, a ticking timer) is not moving."""
        scene = self.scene
        return (self.dirty or self.toast.fading or (scene is not None and scene.animating()))

    def screenshot(self, path) -> None:
        self.draw()
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        pygame.image.save(self.screen, str(path))

    def run(self) -> int:
        """The real loop.  However it ends (close button, Quit, Ctrl-C, SIGTERM, an error),
        every scene exits and what they own is closed before it returns."""
        previous = _on_sigterm(lambda *_: self.quit_now())
        previous_int = _on_signal(signal.SIGINT, self._on_ctrl_c)
        try:
            self._loop()
        except KeyboardInterrupt:
            return 130
        finally:
            self.close()
            _on_sigterm(previous)
            _on_signal(signal.SIGINT, previous_int)
            fonts.forget()
            pygame.quit()
        return 0

    def _loop(self) -> None:
        """Full frame rate only while something moves.  A still screen polls input at
        ``FPS_IDLE``, redraws its live parts alone (``draw_live``: the run timer, 10 times a
        second) and the whole frame every ``scene.still_redraw()`` seconds."""
        clock = self.clock or pygame.time.Clock()
        last_full = last_live = self.now
        moving = True
        warmed = False
        while self.running:
            # A still screen sleeps between polls: cheaper than pygame.event.wait, which
            # polls every millisecond where SDL cannot wake it (measured in bench/client_frame.py)
            ms = clock.tick(FPS_MINIMIZED if self.minimized else theme.FPS_ACTIVE if moving else theme.FPS_IDLE)
            dt = min(ms / 1000.0, 0.25)
            self.step(dt, draw=False)
            if not self.running:
                break
            if self.minimized:
                continue        # the game goes on (a relay's messages, the clock); no pixels
            scene = self.scene
            moving = self.needs_redraw()
            if moving or self.now - last_full >= scene.still_redraw():
                self.draw()
                last_full = last_live = self.now
            elif self.now - last_live >= LIVE_MS / 1000.0 - 0.005:
                last_live = self.now
                rects = scene.draw_live(self.screen)
                if rects:
                    pygame.display.update(rects)
            if not warmed and self.frames > 0:
                # After the first frame, so start-up stays fast: by the time a game
                # starts, sound is ready and a first-run table build is under way or done.
                warmed = True
                self._make_sound()
                self.start_controllers()
                self.advisor_loader("bonanza")


def _set_icon() -> None:
    """A die as the window's icon.  Set before the window opens, it also spares pygame from
    loading its own icon through importlib.resources (a zipfile import on the first frame)."""
    from . import sprites
    try:
        pygame.display.set_icon(sprites.die(5, 24))
    except pygame.error:
        pass


def _sdl_window():
    """The display module's SDL window (its minimum size, a size set in place), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return pygame.Window.from_display_module()
    except Exception:
        return None


FPS_MINIMIZED = 10  # a minimised window still polls (a table's messages) but draws nothing
LIVE_MS = 100       # a still screen's live parts (the run timer's tenths) redraw at 10 Hz


def _close(resource) -> None:
    """Close a relay connection or stop a hosted relay, quickly and without raising."""
    try:
        close = getattr(resource, "close")
        try:
            close(1.0)
        except TypeError:
            close()
    except Exception:
        pass


def _on_sigterm(handler):
    """Install ``handler`` for SIGTERM (main thread only); returns the previous one."""
    return _on_signal(getattr(signal, "SIGTERM", None), handler)


def _on_signal(sig, handler):
    """Install ``handler`` for ``sig`` (main thread only); returns the previous one."""
    if sig is None or handler is None:
        return None
    try:
        return signal.signal(sig, handler)
    except (ValueError, OSError, TypeError):   # not the main thread, or no such signal here
        return None
