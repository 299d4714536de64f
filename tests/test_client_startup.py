"""The title's first frame loads only what the title needs (issue 27, start-up).

Numpy alone takes longer to import than the rest of the first frame, and the advisor,
the signing library, the verifier, the relay and the other screens are needed only once
the player picks something.  The window is opened in a fresh interpreter, as the
``bonanza`` command opens it, and what it imported by its first frame is read from
``sys.modules``: an import added at the top of a module the title reaches shows up here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

LIMIT = 120.0       # seconds for a fresh interpreter to open the window and draw one frame

# modules the first frame must not have imported: (prefix, why it is not needed yet)
NOT_AT_START = (
    ("numpy", "the sprites of later screens, the sound, the advisor"),
    ("nacl", "signing (a game's log, a relay's records)"),
    ("bonanza.core.advisor", "the advisor loads after the first frame"),
    ("bonanza.core.signing", "signing"),
    ("bonanza.core.verify", "checking a log"),
    ("bonanza.core.log", "reading a log (the store reads none when it opens well)"),
    ("bonanza.core.match", "a game (the title asks only whether a saved one exists)"),
    ("bonanza.core.analysis", "a finished game's analysis"),
    ("bonanza.core.bots", "bots"),
    ("bonanza.relay", "the relay"),
    ("bonanza.client.relay_client", "a table's connection"),
    ("bonanza.client.sound", "sound is made after the first frame"),
)
# the screens a first frame may load: the title and what every scene is built on
SCENES_AT_START = {"bonanza.client.scenes", "bonanza.client.scenes.base",
                   "bonanza.client.scenes.registry", "bonanza.client.scenes.title"}

CHILD = r"""
import json, sys, tempfile
from bonanza.client.app import App
app = App((1280, 720), data_dir=tempfile.mkdtemp(prefix="bonanza-start-"))
app.step()
print(json.dumps({"scene": type(app.scene).__name__, "frames": app.frames,
                  "first_frame_ms": round(app.first_frame_at * 1000),
                  "modules": sorted(sys.modules)}))
app.close()
"""


def first_frame_modules() -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=LIMIT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_title_opens_without_numpy_the_advisor_signing_or_other_screens():
    seen = first_frame_modules()
    assert seen["scene"] == "TitleScene" and seen["frames"] == 1
    modules = seen["modules"]
    loaded = sorted({(prefix, why) for m in modules for prefix, why in NOT_AT_START
                     if m == prefix or m.startswith(prefix + ".") or m.startswith(prefix + "_")})
    assert not loaded, f"imported by the title's first frame, but needed only later: {loaded}"
    scenes = {m for m in modules if m.startswith("bonanza.client.scenes")}
    assert scenes <= SCENES_AT_START, f"other screens loaded for the title: {sorted(scenes - SCENES_AT_START)}"


def test_the_check_sees_an_eager_import():
    """The same reading catches what the check is there for: a module that imports numpy at
    its top (the sound does; the sprites did, and the title's first frame with them)."""
    code = "import sys, bonanza.client.sound; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=LIMIT,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                                   PYGAME_HIDE_SUPPORT_PROMPT="1"))
    assert done.stdout.strip().splitlines()[-1] == "True"
