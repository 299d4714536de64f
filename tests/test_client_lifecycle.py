"""Scenes have a lifecycle, and nothing a scene started outlives the window.

The hook order is checked on a real App; hosting is checked with the real relay
child process: however the window goes (close button, Ctrl-C, SIGTERM, the Quit
button after leaving), no relay is left, and a relay whose window was killed
exits by itself once idle."""
from __future__ import annotations

import os
import signal
import threading
import time

import pygame
import pytest

from tests import pilot


class Probe:
    """A scene that writes down what the App tells it."""

    def __new__(cls, app, name, log):
        from bonanza.client.scenes.base import Scene

        class _Probe(Scene):
            def on_enter(self):
                log.append(f"{name}:enter")

            def on_exit(self):
                log.append(f"{name}:exit")

            def on_pause(self):
                log.append(f"{name}:pause")

            def on_resume(self):
                log.append(f"{name}:resume")

        return _Probe(app)


class Closable:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def close(self, timeout=None):
        self.log.append(f"{self.name}:closed")


def test_hooks_in_order_and_ownership_is_handed_over(app):
    log: list[str] = []
    a = Probe(app, "a", log)
    app.push(a)
    conn = a.own(Closable("conn", log))
    b = Probe(app, "b", log)
    app.push(b)
    app.pop()
    assert log == ["a:enter", "a:pause", "b:enter", "b:exit", "a:resume"]
    log.clear()
    c = Probe(app, "c", log)
    c.own(conn)                      # handed over before ``a`` leaves: not closed with it
    app.replace(c)
    assert log == ["a:exit", "c:enter"]
    log.clear()
    app.push(Probe(app, "d", log))
    app.to_title()
    assert log == ["c:pause", "d:enter", "d:exit", "c:exit", "conn:closed"]
    log.clear()
    e = Probe(app, "e", log)
    app.push(e)
    e.own(Closable("relay", log))
    app.close()
    assert log == ["e:enter", "e:exit", "relay:closed"]
    assert app.scenes == [] and not app.running


def _host(app, timeout=15.0):
    """Host a table from the title, as a player would: Host, then Open table."""
    app.profile.name = "Host"
    app.scene.on_press("host")
    app.scene.go()
    lobby = app.scene
    assert type(lobby).__name__ == "LobbyScene", "the relay did not start"
    pilot.step_until(app, lambda: lobby.table is not None, timeout, "the hosted table")
    return lobby.relay.proc


def _gone(proc, seconds=10.0) -> bool:
    try:
        proc.wait(seconds)
    except Exception:
        return False
    return True


@pytest.fixture
def window(data_dirs):
    """A window as a player opens it (animations as set), closed however the test ends."""
    with pilot.window(data_dirs["data"], animation=None) as a:
        yield a


def test_close_button_while_hosting_stops_the_relay(window):
    proc = _host(window)
    assert proc.poll() is None
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert window.run() == 0
    assert _gone(proc), "the relay outlived the window"


def test_ctrl_c_while_hosting_stops_the_relay(window):
    # Ctrl-C as a player's terminal delivers it, even when this run inherited an ignored
    # SIGINT (`cmd &` in a script, nohup, some CI runners), where it would never arrive.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = _host(window)
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        assert window.run() == 130
    finally:
        signal.signal(signal.SIGINT, previous)
    assert _gone(proc)


def test_sigterm_while_hosting_stops_the_relay(window):
    proc = _host(window)
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGTERM)).start()
    assert window.run() == 0
    assert _gone(proc)


def test_leave_then_quit_button(window):
    proc = _host(window)
    window.scene.on_press("leave")
    assert type(window.scene).__name__ == "TitleScene"
    assert _gone(proc), "leaving the lobby stops the hosted relay"
    window.scene.on_press("quit")
    assert window.run() == 0 and window.scenes == []


def test_a_killed_windows_relay_exits_when_idle(data_dirs):
    """The window is gone without a word (kill -9): its connection drops, and the relay,
    with nobody connected and no game running, exits after its idle time."""
    from bonanza.client.hosting import HostedRelay
    from bonanza.client.relay_client import RelayConnection
    relay = HostedRelay(host="127.0.0.1", idle_exit=1)
    try:
        assert relay.ready.wait(15) and relay.port
        conn = RelayConnection("127.0.0.1", relay.port)
        pilot.wait_until(lambda: conn.status == "connected", 10, what="the connection")
        time.sleep(1.5)       # the test's input: connected for longer than the idle time
        assert relay.proc.poll() is None, "a connected relay is not idle"
        conn.close(1.0)                 # the socket closes, as when the process dies
        assert _gone(relay.proc, 10), "the idle relay did not exit by itself"
        assert relay.proc.returncode == 0
    finally:
        relay.stop()
