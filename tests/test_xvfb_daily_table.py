"""Two real windows and a bot play a daily table to the end, in Xvfb.

A relay runs on 127.0.0.1 in this process (a ``ManualClock``, so the test closes the day);
two game windows run as two processes of their own on one X display (tests/window_driver.py:
each opens the app and plays it with the pilot's posted events).  Ana's window opens a daily
table and starts it once Bea's window has joined through the Join form; the third seat is a
bot.  Both play every round (the first reveal replayed at the "fast" pace and photographed,
the rest at Instant, the bot without delay), both reach the results with the seed sealed,
and once the day closes each window fetches its log from the daily screen, verifies it and
records it.  Skipped where Xvfb is not installed; runs in .ci/run (the children get a real
display, not the dummy driver)."""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.test_client_daily_relay import DAY1, DAY2, relay  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
XVFB = shutil.which("Xvfb")

pytestmark = [pytest.mark.xvfb, pytest.mark.skipif(XVFB is None, reason="Xvfb is not installed"),
              pytest.mark.timeout(280)]


class Xvfb:
    """A virtual X display of its own: ``-displayfd`` has the server pick a free number."""

    def __init__(self) -> None:
        r, w = os.pipe()
        self.proc = subprocess.Popen([XVFB, "-displayfd", str(w), "-screen", "0", "1920x1080x24",
                                      "-nolisten", "tcp"], pass_fds=(w,),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            self.stop()
            pytest.skip("Xvfb did not start")
        self.display = f":{number}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


class Window:
    """One driven window's process; its lines (JSON) are read on a thread into a queue."""

    def __init__(self, role: str, name: str, port: int, display: str, data: Path, cache: Path,
                 shots: Path) -> None:
        env = dict(os.environ)
        env.pop("SDL_VIDEODRIVER", None)       # a real window on the X display
        env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", BONANZA_DATA_DIR=str(data),
                   BONANZA_CACHE_DIR=str(cache),
                   PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]))
        self.name = name
        self.errors = data / "stderr.txt"
        with open(self.errors, "w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.window_driver", role, str(port), name, str(shots)],
                cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                text=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def expect(self, event: str, timeout: float = 120) -> dict:
        """The window's next message of kind ``event`` (others it says are skipped)."""
        until = time.monotonic() + timeout
        while True:
            left = until - time.monotonic()
            assert left > 0, f"{self.name}'s window did not say {event!r} in {timeout:g} s: " \
                f"{self.errors.read_text()[-2000:]}"
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            assert line is not None, f"{self.name}'s window ended before {event!r}: " \
                f"{self.errors.read_text()[-2000:]}"
            try:
                msg = json.loads(line)
            except ValueError:
                continue            # a library's own line on stdout
            assert msg.get("event") != "failed", f"{self.name}'s window: {msg}"
            if msg.get("event") == event:
                return msg

    def tell(self, **msg) -> None:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode


def test_two_real_windows_and_a_bot_play_a_daily_table_to_the_end(relay, tmp_path, artifacts,  # noqa: F811
                                                                   shared_cache_dir):
    r, clock = relay
    x = Xvfb()
    windows: list[Window] = []
    try:
        shots = {n: artifacts / f"xvfb_daily_table_{n.lower()}" for n in ("Ana", "Bea")}
        for role, name in (("host", "Ana"), ("join", "Bea")):
            data = tmp_path / name
            data.mkdir()
            windows.append(Window(role, name, r.port, x.display, data, shared_cache_dir,
                                  shots[name]))
        ana, bea = windows
        code = ana.expect("code", 60)["code"]
        bea.tell(code=code)
        reveals = [w.expect("reveal") for w in windows]
        assert all(m["seat"] is not None for m in reveals)
        results = [w.expect("results", 200) for w in windows]
        # both windows saw the same finished game, their seeds sealed until the day closes
        assert results[0]["totals"] == results[1]["totals"]
        assert all(m["sealed"] == DAY1 and m["verdict"] is None for m in results)
        clock.date = DAY2                       # the day is over: the seed may be revealed
        for w in windows:
            w.tell(closed=True)
        for w, res in zip(windows, results):
            got = w.expect("verified", 60)
            assert got["ok"], got["message"]
            assert got["date"] == DAY1 and got["seed"] and got["score"] == res["total"]
            assert got["games"] == 1
        assert [w.stop() for w in windows] == [0, 0]
        for name in ("Ana", "Bea"):
            for part in ("reveal", "results", "day_closed"):
                assert Path(f"{shots[name]}_{part}.png").stat().st_size > 0
    finally:
        for w in windows:
            if w.proc.poll() is None:
                w.proc.kill()
                w.proc.wait(10)
        x.stop()
