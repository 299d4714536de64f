"""The shared journal against any run of games, moves, ends and commits, with segments so
small that nearly every commit starts a new one (so old ones are deleted and slow games
written again): after a kill, or a power cut that loses any part of any file written
since the last commit, every game still running reads back with its records in order,
at least as far as the last commit covered."""
from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core.log import pack
from bonanza.relay import journal
from bonanza.relay.journal import Journals

ops = st.lists(st.one_of(
    st.tuples(st.just("open"), st.just(0)),
    st.tuples(st.just("move"), st.integers(0, 7)),
    st.tuples(st.just("move"), st.integers(0, 7)),
    st.tuples(st.just("end"), st.integers(0, 7)),
    st.tuples(st.just("commit"), st.just(0)),
    st.tuples(st.just("commit"), st.just(0)),
), min_size=20, max_size=120)


def _record(game: int, seq: int, pad: int) -> bytes:
    return pack({"seq": seq, "game": game, "pad": bytes(pad)})


def _sizes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in folder.iterdir() if p.is_file()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(ops=ops, written=st.booleans(), cuts=st.lists(st.integers(0, 2**16), max_size=8))
def test_running_games_read_back_in_order_after_a_kill_or_a_power_cut(tmp_path_factory, ops,
                                                                       written, cuts):
    folder = tmp_path_factory.mktemp("journal")
    saved = journal.SEGMENT_BYTES
    journal.SEGMENT_BYTES = 256
    try:
        games, at_write, durable, synced = asyncio.run(_play(folder, ops, written))
    finally:
        journal.SEGMENT_BYTES = saved
    # a power cut: any file may lose what was written after the last commit synced it
    crashed = tmp_path_factory.mktemp("crashed")
    for p in folder.iterdir():
        if p.is_file():
            shutil.copy(p, crashed / p.name)
    for i, p in enumerate(sorted(crashed.iterdir())):
        size = p.stat().st_size
        keep = synced.get(p.name, 0)
        if cuts and size > keep:
            with open(p, "r+b") as f:
                f.truncate(keep + cuts[i % len(cuts)] % (size - keep + 1))
    # killed: what was handed to the system is there; cut: what the last commit covered
    for where, floors in ((folder, at_write), (crashed, durable)):
        found = {f.table["game"]: f for f in Journals(where, lambda err: None).found()}
        for game, (recs, ended, retired) in games.items():
            f, floor = found.get(game), floors[game]
            if f is None:
                assert retired or floor is None, (where, game)
                continue
            got = [e["record"] for e in f.entries if e["kind"] == "move"]
            assert got == recs[:len(got)], (where, game)         # in order, none made up
            if not retired:
                assert len(got) >= (floor or 0), (where, game, len(got), floor)


async def _play(folder: Path, ops: list[tuple[str, int]], written: bool):
    book = Journals(folder, lambda err: None)
    book.found()
    book.begin()
    journals: list = []
    games: dict[int, tuple[list[bytes], bool, bool]] = {}
    at_write: dict[int, int | None] = {}      # records handed to the system, per game
    durable: dict[int, int | None] = {}       # records the last finished commit covered
    synced: dict[str, int] = _sizes(folder)

    def write_out() -> None:
        book.write_out()
        for g, (recs, _, _) in games.items():
            at_write[g] = len(recs)

    for op, arg in ops:
        if op == "open":
            recs: list[bytes] = []
            j = book.start(f"T{len(journals)}", {"kind": "table", "code": f"T{len(journals)}"},
                           {"seed": bytes(32), "tokens": []}, lambda recs=recs: recs)
            journals.append(j)
            games[j.game] = (recs, False, False)
            at_write[j.game] = durable[j.game] = None
        elif journals:
            j = journals[arg % len(journals)]
            recs, ended, retired = games[j.game]
            if op == "move" and not ended:
                rec = _record(j.game, len(recs) + 1, 40 + arg * 20)
                recs.append(rec)
                j.moved(rec)
            elif op == "end" and not ended:
                games[j.game] = (recs, True, retired)
                j.ended(None if arg % 2 else "x.bonanza", lambda: None)
            elif op == "commit":
                if book._timer is not None:
                    book._timer.cancel()
                    book._timer = None
                if book._inflight is not None:
                    await book._inflight
                    await asyncio.sleep(0)
                write_out()
                before = dict(at_write)
                book._commit()
                if book._inflight is not None:
                    await book._inflight
                    await asyncio.sleep(0)      # its done callback
                durable = {g: n for g, n in before.items()}
                synced = _sizes(folder)
        for g, (recs, ended, _) in games.items():
            games[g] = (recs, ended, g not in book.open)
    if book._inflight is not None:
        await book._inflight
        await asyncio.sleep(0)
    if book._timer is not None:
        book._timer.cancel()
    if written:
        write_out()         # a kill after the pass's write: every entry is there
    for g, (recs, ended, _) in games.items():
        games[g] = (recs, ended, g not in book.open)
    for g in games:
        durable.setdefault(g, None)
    return games, at_write, durable, synced
