"""Build a one-folder app a player can double-click: ``dist/Bonanza/bonanza`` (``bonanza.exe``
on Windows), with Python, pygame-ce, numpy, pynacl, the game, the relay, fonts, sounds and
catalogues inside; nothing to install on the target.

    python -m pip install pyinstaller   # once, into the environment that runs the game
    python packaging/build.py           # -> dist/Bonanza/

The checkout's folders are the package's subpackages only through setuptools' package-dir
(core/ is bonanza.core), which PyInstaller cannot follow through an editable install, so the
build first lays them out as a plain ``bonanza`` package of links in a temporary folder (as
.ci/typecheck does for mypy).  It builds for the platform it runs on: Windows and macOS
builds are made on those systems.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("core", "relay", "client", "lang", "assets")


def stage(into: Path) -> None:
    pkg = into / "bonanza"
    pkg.mkdir()
    for part in PARTS:
        try:
            os.symlink(ROOT / part, pkg / part, target_is_directory=True)
        except OSError:        # no links (Windows without the right): a copy
            shutil.copytree(ROOT / part, pkg / part, ignore=shutil.ignore_patterns("__pycache__"))


def main() -> int:
    dist = ROOT / "dist"
    with tempfile.TemporaryDirectory(prefix="bonanza-stage-") as tmp:
        stage(Path(tmp))
        env = dict(os.environ, BONANZA_STAGE=tmp)
        cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
               "--distpath", str(dist), "--workpath", str(ROOT / "build" / "pyinstaller"),
               str(ROOT / "packaging" / "bonanza.spec")]
        done = subprocess.run(cmd, env=env, cwd=str(ROOT))
    if done.returncode == 0:
        print(f"built {dist / 'Bonanza'}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
