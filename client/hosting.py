"""Hosting without a second command: start the relay as a child process and
read the address it listens on; find this machine's LAN address to show."""
from __future__ import annotations

import atexit
import os
import socket
import subprocess
import sys
import tempfile
import threading
import weakref
from pathlib import Path

from bonanza.core.settings import DEFAULT_PORT

ROOT = Path(__file__).resolve().parent.parent
# Where a hosted relay listens: every interface and the default port for a player; tests
# (tests/conftest.py) set the loopback and a free port, so they never meet a running game.
ADDRESS_ENV = "BONANZA_HOST_ADDRESS"
PORT_ENV = "BONANZA_HOST_PORT"
# A hosted relay with nobody connected and no game running exits by itself after this
# long, so it cannot linger when the window that started it is killed.
IDLE_EXIT_SECONDS = 120
# Tests run the hosted relay's game clock faster (``bonanza-relay --clock-speed``), so a
# game played by the clock ends in seconds.
CLOCK_SPEED_ENV = "BONANZA_HOST_CLOCK_SPEED"
_running: "weakref.WeakSet[HostedRelay]" = weakref.WeakSet()


def host_address() -> str:
    """The address a hosted relay binds: ``$BONANZA_HOST_ADDRESS``, else every interface."""
    return os.environ.get(ADDRESS_ENV, "").strip() or "0.0.0.0"


def host_port() -> int:
    """The port a hosted relay tries first: ``$BONANZA_HOST_PORT`` (0: one the system
    picks), else the default port, so the join form's default finds it."""
    value = os.environ.get(PORT_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) < 65536 else DEFAULT_PORT


def lan_address() -> str:
    """The address others on the network type in (127.0.0.1 when offline)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))   # no packet is sent
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


class HostedRelay:
    """``bonanza-relay`` in its own process; ``port`` is set once it listens."""

    def __init__(self, host: str | None = None, port: int = 0, bot_delay: float = 0.6,
                 idle_exit: float = IDLE_EXIT_SECONDS):
        host = host or host_address()
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        # The relay's errors go to a file, not a pipe: a pipe nobody drains could
        # block a long-running relay that logs warnings.
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        # --data-any: a second relay on this machine (another window's, or one run by hand)
        # holds the data folder; this one takes a folder of its own beside it
        args = [sys.executable, "-m", "bonanza.relay", "--host", host, "--port", str(port),
                "--bot-delay", str(bot_delay), "--idle-exit", str(idle_exit), "--data-any"]
        speed = os.environ.get(CLOCK_SPEED_ENV, "").strip()
        if speed:
            args += ["--clock-speed", speed]
        # Its own session: a Ctrl-C in the host's terminal reaches the window (which asks
        # first during a game), not the relay the other players are playing on.
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=env,
            cwd=str(ROOT), start_new_session=True)
        self.detached = False
        self.port: int | None = None
        self.error: str | None = None
        self.ready = threading.Event()
        _running.add(self)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            line = self.proc.stdout.readline().strip() if self.proc.stdout else ""
            if line.startswith("listening on "):
                self.port = int(line.rsplit(":", 1)[1])
            else:
                self.error = self._last_error() or line or "the relay did not start"
        except (OSError, ValueError) as e:
            self.error = str(e)
        self.ready.set()

    def _last_error(self) -> str:
        """The relay's one-line ``error: ...`` once it has exited (empty if none)."""
        try:
            self.proc.wait(5)
            self._stderr.seek(0)
            lines = [ln.strip() for ln in self._stderr.read().splitlines() if ln.strip()]
        except (OSError, ValueError, subprocess.TimeoutExpired):
            return ""
        return lines[-1].removeprefix("error: ") if lines else ""

    @classmethod
    def on_default_port(cls, wait: float = 8.0, **kw) -> "HostedRelay":
        """A relay on ``host_port()`` (the default port, so the join form's default finds
        it); on a free port chosen by the system only when that one is taken (or cannot be used)."""
        port = host_port()
        relay = cls(port=port, **kw)
        if port == 0 or (relay.ready.wait(wait) and relay.port is not None):
            return relay
        relay.stop()
        return cls(port=0, **kw)

    def close(self) -> None:
        """Stop the relay (a scene owning it calls this on exit), unless it was detached."""
        if not self.detached:
            self.stop()

    def detach(self) -> None:
        """The host's window goes but its game goes on: the relay keeps running on its own
        until the game has ended and nobody is connected (its ``--idle-exit``)."""
        self.detached = True
        _running.discard(self)

    def stop(self) -> None:
        _running.discard(self)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@atexit.register
def _stop_all() -> None:
    """Whatever way the game's process ends in Python, its relays end with it."""
    for relay in list(_running):
        relay.stop()
