"""Shared test setup: headless SDL, loopback-only networking, per-test data folders, PNG
artifacts, the test window."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bonanza.client import hosting

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _free_udp_port() -> int:
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Discovery (queries and the relays answering them) stays on the loopback interface in
# every test: nothing is ever broadcast.  .ci/run sets it too; a value pointing
# anywhere else is replaced, so a stray shell setting cannot make a test send off-machine.
if not os.environ.get("BONANZA_DISCOVERY", "").startswith("127.0.0.1:"):
    os.environ["BONANZA_DISCOVERY"] = f"127.0.0.1:{_free_udp_port()}"

# A relay the window hosts (and its children inherit this) listens on the loopback, on a
# port the system picks: never on every interface or on the game's default port, where
# it would meet a game running on this machine.
os.environ[hosting.ADDRESS_ENV] = "127.0.0.1"
os.environ[hosting.PORT_ENV] = "0"

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def shared_cache_dir(tmp_path_factory) -> Path:
    """An advisor cache shared by the session, seeded from the user's cache when present
    (so the tables are not rebuilt for every test)."""
    d = tmp_path_factory.mktemp("bonanza-cache")
    user = os.environ.get("BONANZA_CACHE_DIR")
    if not user:
        try:
            import platformdirs
            user = platformdirs.user_cache_dir("bonanza")
        except Exception:
            user = None
    if user and Path(user).is_dir():
        for f in Path(user).glob("*.table"):
            shutil.copy(f, d / f.name)
    return d


@pytest.fixture
def data_dirs(tmp_path, monkeypatch, shared_cache_dir) -> dict:
    """``BONANZA_DATA_DIR`` in a fresh tmp folder and ``BONANZA_CACHE_DIR`` in the session cache."""
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("BONANZA_DATA_DIR", str(data))
    monkeypatch.setenv("BONANZA_CACHE_DIR", str(shared_cache_dir))
    return {"data": data, "cache": shared_cache_dir}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where tests save PNGs of what they rendered (``test-artifacts/``)."""
    d = ROOT / "test-artifacts"
    d.mkdir(exist_ok=True)
    return d


@pytest.fixture
def app(data_dirs):
    """A game window on the dummy video driver: no advisor, no sound, no animation; closed
    after the test however it ends (tests/pilot.py drives it)."""
    from tests import pilot
    with pilot.window(data_dirs["data"]) as a:
        yield a
