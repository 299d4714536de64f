"""Frame time of the 4-seat table scene at 1280x720 (update + draw), and the
time from process start to the first frame.

    python bench/client_frame.py [--frames N]
Goal: median <= 4 ms, p99 <= 10 ms, first frame <= 1 s with cached advisor tables.

Baselines measured in the same run: one full-window blit per frame (the floor
of any frame at this size), and a bare pygame window (import, open, one flip)
from process start, in a fresh process like ours.
"""
from __future__ import annotations

import time

T0 = time.perf_counter()

import argparse
import os
import statistics
import sys
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def bare_window_ms() -> float:
    """Process start to the first flip of an empty pygame window, in a fresh process."""
    import subprocess
    code = ("import time; t=time.perf_counter(); import pygame; pygame.display.init(); "
            "pygame.display.set_mode((1280, 720)); pygame.display.flip(); "
            "print((time.perf_counter()-t)*1000)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--frames", type=int, default=600)
    args = p.parse_args()
    from client.app import App
    data = tempfile.mkdtemp(prefix="bonanza-bench-")
    app = App((1280, 720), data_dir=data)
    app.step()
    first = time.perf_counter() - T0
    from tests.doubles import DemoConnection
    from client.scenes.table import TableScene
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
    bare = bare_window_ms()
    print(f"process start to first frame: {first * 1000:.0f} ms "
          f"(bare pygame window {bare:.0f} ms, ratio {first * 1000 / bare:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
