"""The double-click build (packaging/build.py, PyInstaller one-folder): built, then its
``simulate``, ``verify`` and window (dummy driver, a few frames) run from the bundle with no
Python of ours.  It takes a minute or two, so it is marked ``slow`` (``-m "not slow"`` leaves it
out of a quick local run); PyInstaller is in the test extra, so .ci/run builds and runs it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]


def test_the_built_app_simulates_verifies_and_opens_its_window(tmp_path):
    pytest.importorskip("PyInstaller")
    built = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py")], cwd=ROOT,
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    exe = ROOT / "dist" / "Bonanza" / ("bonanza.exe" if os.name == "nt" else "bonanza")
    # no interpreter of ours on the way: the bundle's own, from a folder outside the checkout
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", BONANZA_DATA_DIR=str(tmp_path / "data"))

    def run(*args: str) -> str:
        done = subprocess.run([str(exe), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
        return done.stdout

    log = tmp_path / "game.log"
    run("simulate", "--players", "2", "--seed", "00ff", "--out", str(log))
    assert "VALID" in run("verify", str(log))
    out = run("smoke-window", "5")
    assert "5 frames, scene TitleScene" in out, out
