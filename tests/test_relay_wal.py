"""The relay's shared journal (``relay/journal.py``): segments come and go while games
run, a slow game is written again rather than keeping old segments alive, and the
one-file-per-game journals of an older relay are still resumed."""
from __future__ import annotations

import asyncio
from pathlib import Path

import msgpack

from bonanza.core.log import pack
from bonanza.core.verify import verify_bytes
from bonanza.relay import journal
from bonanza.relay.journal import Journals, frame, read_entries
from tests.relay_harness import connect, eventually, open_table, play_to_end, running_relay
from tests.test_relay_journal import _steps


def run(coro, limit: float = 120):
    return asyncio.run(asyncio.wait_for(coro, limit))


def _segments(data: Path) -> list[Path]:
    return sorted((data / "journal").glob("*.wal"))


def _verified_logs(data: Path) -> int:
    logs = sorted((data / "logs").glob("*.bonanza"))
    for f in logs:
        assert verify_bytes(f.read_bytes()).ok, f.name
    return len(logs)


def test_segments_rotate_and_a_slow_game_is_written_again_so_old_ones_go(tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "SEGMENT_BYTES", 4096)   # a few moves fill a segment

    async def main():
        async with running_relay(str(tmp_path)) as relay:
            (a, b), code = await open_table(relay, ["Ana", "Ben"], turn_seconds=90, start=True)
            await _steps([a, b], 3)                          # then they stop to think
            slow = next(iter(relay.journals.open.values()))
            first = slow.first
            busy = await connect(relay)
            for _ in range(3):                               # games that fill segments
                await busy.ranked_play("Dan")
                await play_to_end([busy], 60)
            assert relay.journals.segment >= first + journal.SNAPSHOT_AGE
            # the slow game lives in a recent segment now, and the old ones are gone
            await eventually(lambda: slow.first > first
                             and len(_segments(tmp_path)) <= journal.SNAPSHOT_AGE + 1, 20)
            assert not (tmp_path / "journal" / f"{first:08d}.wal").exists()
            await busy.close()
            seqs = [a.seq, b.seq]
        found = Journals(tmp_path / "journal", lambda err: None).found()
        running = [f for f in found if not any(e.get("kind") == "end" for e in f.entries)]
        assert len(running) == 1
        assert len([e for e in running[0].entries if e["kind"] == "move"]) == 3
        # a relay started on the folder resumes the slow game
        async with running_relay(str(tmp_path)) as relay:
            for c in (a, b):
                resumed = await c.reconnect("127.0.0.1", relay.port)
                assert resumed["type"] == "resumed" and resumed["restarted"] is True
            assert [a.seq, b.seq] == seqs
            await play_to_end([a, b], 60)
            for c in (a, b):
                assert c.verdict is not None and c.verdict.ok
                await c.close()
            # what the first run left (its segments) went once the game was written again
            await eventually(lambda: all(int(p.stem) > relay.journals.segment - 1
                                         for p in _segments(tmp_path)), 20)

    run(main())
    assert _verified_logs(tmp_path) == 4


def test_one_file_per_game_journals_of_an_older_relay_are_resumed(tmp_path):
    """A relay before the shared journal wrote ``<CODE>.journal`` (the same entries without
    ``game``) and ``<CODE>.secret``: an upgraded relay resumes those games, writes them
    into its own journal, and removes the old files once that is durable."""
    async def main():
        async with running_relay(str(tmp_path)) as relay:
            (a, b), code = await open_table(relay, ["Ana", "Ben"], turn_seconds=90, start=True)
            await _steps([a, b], 4)
        await asyncio.to_thread(_as_older_relay_wrote_it, code)
        async with running_relay(str(tmp_path)) as relay:
            old = tmp_path / "journal" / f"{code}.journal"
            for c in (a, b):
                resumed = await c.reconnect("127.0.0.1", relay.port)
                assert resumed["type"] == "resumed" and c.seq == 4
            await eventually(lambda: not old.exists() and not old.with_suffix(".secret").exists(),
                             20)
            await play_to_end([a, b], 60)
            for c in (a, b):
                assert c.verdict is not None and c.verdict.ok
                await c.close()

    def _as_older_relay_wrote_it(code: str) -> None:
        folder = tmp_path / "journal"
        segment, = _segments(tmp_path)
        entries, _ = read_entries(segment.read_bytes())
        secrets, _ = read_entries(segment.with_suffix(".secrets").read_bytes())
        old = folder / f"{code}.journal"
        old.write_bytes(b"".join(frame(pack({k: v for k, v in e.items() if k != "game"}))
                                 for e in entries))
        old.with_suffix(".secret").write_bytes(pack({k: v for k, v in secrets[0].items()
                                                     if k != "game"}))
        segment.unlink()
        segment.with_suffix(".secrets").unlink()
        assert msgpack.unpackb(read_entries(old.read_bytes())[0][1]["record"])["seq"] == 1

    run(main())
    assert _verified_logs(tmp_path) == 1
