"""Frame time of the 4-seat table scene at 1280x720 (update + draw), and the
time from process start to the first frame.

    python bench/client_frame.py [--frames N]
Goal: median <= 4 ms, p99 <= 10 ms, first frame <= 150 ms (issue 27; the title loads no
numpy, advisor, signing or other screen: tests/test_client_startup.py).

Baselines measured in the same run: one full-window blit per frame (the floor
of any frame at this size), and a bare pygame window (import, open, one flip)
from process start, in a fresh process like ours.

Idle CPU (``--idle SECONDS``, 0 skips it): the real loop (``App.run``) of the title
and of the solo game waiting for input after a roll (the run timer running), then the
same game minimised, each in a fresh process, as CPU time over wall time, beside a bare
pygame window blocked in ``pygame.event.wait`` in the same run.  The children draw into a
real X server, an Xvfb started for the run, when one is installed (``--idle-driver auto``;
the dummy driver copies no pixels anywhere and flatters every figure); the output says
which driver was used.  Xvfb has no window manager to minimise a window, so the minimised
figure posts the WINDOWMINIMIZED event SDL sends on a real desktop.
Goals: the waiting game <= 1.5x the bare window, minimised <= 1% of a core.
"""
from __future__ import annotations

import time

T0 = time.perf_counter()

import argparse  # noqa: E402  (after T0: the import time is measured)
import os  # noqa: E402  (after T0: the import time is measured)
import statistics  # noqa: E402  (after T0: the import time is measured)
import sys  # noqa: E402  (after T0: the import time is measured)
import tempfile  # noqa: E402  (after T0: the import time is measured)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def bare_window_ms() -> tuple[float, float]:
    """Process start to the first flip of an empty pygame window, in a fresh process: (wall
    ms from the script's start, CPU ms of the process from its start)."""
    import subprocess
    code = ("import time; t=time.perf_counter(); import pygame; pygame.display.init(); "
            "pygame.display.set_mode((1280, 720)); pygame.display.flip(); "
            "print((time.perf_counter()-t)*1000, time.process_time()*1000)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


IDLE_CHILD = r"""
import os, sys, time, tempfile
sys.path.insert(0, {root!r})
import pygame
what, seconds = {what!r}, {seconds!r}
if what == "bare":
    pygame.display.init()
    pygame.display.set_mode((1280, 720))
    pygame.display.flip()
    pygame.time.set_timer(pygame.QUIT, int(seconds * 1000), 1)
    c0, w0 = time.process_time(), time.perf_counter()
    while pygame.event.wait().type != pygame.QUIT:
        pass
else:
    from bonanza.client.app import App
    app = App((1280, 720), data_dir=tempfile.mkdtemp(prefix="bonanza-idle-"), advisor=False, sound=False)
    app.step()
    if what in ("game", "game_min"):
        from bonanza.client.scenes.game import SoloGameScene
        app.push(SoloGameScene(app, seed_text="idle"))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0, unicode="r", scancode=0))
        app.step()
        for _ in range(60):     # let the roll land before measuring the wait
            app.step(1 / 60)
        assert app.scene.state.rolls_left == 2, "the bench's roll did not happen"
        if what == "game_min":
            pygame.event.post(pygame.event.Event(pygame.WINDOWMINIMIZED))
    pygame.time.set_timer(pygame.QUIT, int(seconds * 1000), 1)
    c0, w0 = time.process_time(), time.perf_counter()
    f0 = app.frames
    app._loop()
    print("frames", app.frames - f0)
print("cpu", time.process_time() - c0, time.perf_counter() - w0)
"""


def idle_cpu(what: str, seconds: float, env: dict | None = None) -> tuple[float, float]:
    """(% of one core, frames drawn per second) of ``what`` waiting ``seconds`` in a fresh process."""
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = IDLE_CHILD.format(root=root, what=what, seconds=seconds)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env or dict(os.environ))
    frames = 0
    for line in out.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "frames":
            frames = int(parts[1])
        if parts and parts[0] == "cpu":
            cpu, wall = float(parts[1]), float(parts[2])
    return 100.0 * cpu / wall, frames / wall


def percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--frames", type=int, default=600)
    p.add_argument("--idle", type=float, default=5.0, help="seconds per idle-CPU measurement (0: skip)")
    p.add_argument("--idle-only", action="store_true", help="only the idle-CPU figures")
    p.add_argument("--idle-driver", choices=("auto", "xvfb", "dummy"), default="auto",
                   help="where the idle children draw: Xvfb when installed (auto), or the dummy driver")
    args = p.parse_args()
    if args.idle_only:
        return idle_figures(args.idle, args.idle_driver)
    from bonanza.client.app import App
    data = tempfile.mkdtemp(prefix="bonanza-bench-")
    app = App((1280, 720), data_dir=data)
    app.step()
    first = time.perf_counter() - T0
    # the process's CPU time from its start: unlike the wall clock, other work on the
    # machine does not inflate it
    first_cpu = time.process_time()
    from bonanza.client.scenes.table import TableScene
    from tests.doubles import DemoConnection
    app.push(TableScene(app, DemoConnection(seats=4)))
    for _ in range(30):
        app.step(1 / 60)
    times = []
    for _ in range(args.frames):
        t = time.perf_counter()
        app.scene.update(1 / 60)
        app.now += 1 / 60
        app.scene.draw(app.screen)
        times.append((time.perf_counter() - t) * 1000)
    med, p99 = percentiles(times)
    full = app.screen.copy()
    blits = []
    for _ in range(args.frames):
        t = time.perf_counter()
        app.screen.blit(full, (0, 0))
        blits.append((time.perf_counter() - t) * 1000)
    base_med, _ = percentiles(blits)
    print(f"table scene 4 seats 1280x720: update+draw median {med:.2f} ms, p99 {p99:.2f} ms "
          f"over {len(times)} frames")
    print(f"baseline, one full-window blit: median {base_med:.2f} ms "
          f"(table frame = {med / base_med:.1f}x a blit)")
    bare, bare_cpu = bare_window_ms()
    if sys.flags.dont_write_bytecode:
        # an installed game has its byte code cached; without it every changed module is
        # compiled again at each start (about 90 ms of the first frame, measured here)
        print("note: PYTHONDONTWRITEBYTECODE is set, so the first frame below includes compiling "
              "modules whose byte code is not cached; unset it and run twice for a player's figure")
    print(f"process start to first frame: {first * 1000:.0f} ms "
          f"(bare pygame window {bare:.0f} ms, ratio {first * 1000 / bare:.1f}x); "
          f"CPU {first_cpu * 1000:.0f} ms (bare {bare_cpu:.0f} ms, ratio {first_cpu * 1000 / bare_cpu:.1f}x)")
    return idle_figures(args.idle, args.idle_driver)


def start_xvfb():
    """An Xvfb on a free display for the idle children: (process, display) or None."""
    import shutil
    import subprocess
    exe = shutil.which("Xvfb")
    if exe is None:
        return None
    for n in range(91, 120):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen([exe, f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and proc.poll() is None:
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                return proc, f":{n}"
            time.sleep(0.05)
        proc.kill()
        proc.wait()
    return None


def idle_figures(seconds: float, driver: str = "auto") -> int:
    """After the first-frame figure (it counts from this process's start)."""
    if seconds <= 0:
        return 0
    env = dict(os.environ)
    xvfb = start_xvfb() if driver in ("auto", "xvfb") else None
    if driver == "xvfb" and xvfb is None:
        print("idle CPU: no Xvfb installed (apt-get install xvfb)")
        return 1
    if xvfb is not None:
        env.update(DISPLAY=xvfb[1], SDL_VIDEODRIVER="x11")
        print(f"idle CPU measured with SDL video driver x11 on Xvfb {xvfb[1]}")
    else:
        env["SDL_VIDEODRIVER"] = "dummy"
        print("idle CPU measured with SDL video driver dummy (no Xvfb: figures flatter a real desktop)")
    try:
        bare = None
        for what, label in (("bare", "bare pygame window, event.wait"), ("title", "title screen"),
                            ("game", "solo game waiting for input (timer running)"),
                            ("game_min", "the same game minimised")):
            pct, fps = idle_cpu(what, seconds, env)
            bare = pct if what == "bare" else bare
            extra = "" if what == "bare" else f", {fps:.1f} frames/s, {pct / bare:.2f}x the bare window"
            print(f"idle CPU, {label}: {pct:.1f}% of a core{extra}")
    finally:
        if xvfb is not None:
            xvfb[0].terminate()
            xvfb[0].wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
