"""One relay per data folder: a second relay on the same folder would read the first's
running games back as its own and delete the journal segments the first still writes.
It is refused with a clear line (or, with --data-any, takes a folder of its own), and a
crash lets the folder go at once."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bonanza.client.relay_client import RelayClient
from tests.test_relay_journal import ROOT, Child, _running, _segment, _steps


def _second(data: Path, *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bonanza.relay", "--port", "0", "--data",
                           str(data), "--discovery-port", "0", *extra],
                          capture_output=True, text=True, env=env, timeout=60)


def test_a_second_relay_on_a_folder_in_use_is_refused_and_the_first_plays_on(tmp_path):
    first = Child(tmp_path)
    try:
        async def main():
            r = await RelayClient.open("127.0.0.1", first.port)
            await r.ranked_play("Ivy")
            await r.wait_until(lambda: r.header is not None)
            await _steps([r], 2)
            segment = _segment(tmp_path)
            refused = await asyncio.to_thread(_second, tmp_path)
            assert refused.returncode == 2
            assert "another relay is using the data folder" in refused.stderr
            assert segment.exists() and len(_running(tmp_path)) == 1   # nothing touched
            await _steps([r], 2)                                         # and it plays on
            await r.close()

        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        first.stop()


def test_with_data_any_a_second_relay_takes_a_folder_of_its_own(tmp_path):
    data = tmp_path / "relay"
    first, second = Child(data), None
    try:
        second = Child(data, "--data-any")
        assert (tmp_path / "relay-2" / "relay.lock").exists()
        assert _segment(data).exists() and _segment(tmp_path / "relay-2").exists()
    finally:
        for c in (second, first):
            if c is not None:
                c.stop()


def test_a_killed_relay_lets_its_folder_go(tmp_path):
    first = Child(tmp_path)
    first.kill()
    again = Child(tmp_path)          # started: the lock died with the process
    again.stop()
