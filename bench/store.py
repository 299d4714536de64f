"""Account store figures: time to record a game (verify + one fsync'd transaction),
to read history / stats / the board, and to open a store of N games.

The baseline, measured in the same run, is the floor of any durable write: one
INSERT of the same log bytes into a bare SQLite table in WAL mode with
synchronous=FULL, one transaction per game.

    python bench/store.py [N]
"""
from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bonanza.client.store import open_store  # noqa: E402
from bonanza.core.game import Seat, allowed  # noqa: E402
from bonanza.core.match import Match  # noqa: E402


def game(i: int) -> bytes:
    m = Match.create("bonanza", [Seat("bench")], i.to_bytes(4, "big") * 8, mode="solo")
    while not m.state.over:
        m.roll()
        m.roll([True, True, False, False, False])
        m.write(allowed(m.state)[0])
    m.finish({"duration_ms": 1000 + i})
    return m.log.to_bytes()


def bare_insert_ms(logs: list[bytes], directory: str) -> float:
    conn = sqlite3.connect(os.path.join(directory, "bare.db"), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, log BLOB)")
    t = time.perf_counter()
    for log in logs:
        conn.execute("BEGIN")
        conn.execute("INSERT INTO games (log) VALUES (?)", (log,))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - t
    conn.close()
    return elapsed / len(logs) * 1000


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    logs = [game(i) for i in range(n)]
    with tempfile.TemporaryDirectory() as d:
        store, _ = open_store(d)
        t = time.perf_counter()
        for log in logs:
            store.record_game(log)
        rec = (time.perf_counter() - t) / n
        t = time.perf_counter()
        for _ in range(20):
            store.history(50)
            store.stats()
            store.personal_bests("bonanza")
        reads = (time.perf_counter() - t) / 20
        store.close()
        t = time.perf_counter()
        store, _ = open_store(d)
        opening = time.perf_counter() - t
        size = os.path.getsize(store.path)
        store.close()
        bare = bare_insert_ms(logs, d)
    print(f"games: {n}, log size ~{sum(map(len, logs)) // n} bytes")
    print(f"record_game: {rec * 1000:.2f} ms per game (verify + fsync'd commit)")
    print(f"baseline, bare fsync'd INSERT of the same log: {bare:.2f} ms "
          f"(record_game = {rec * 1000 / bare:.1f}x)")
    print(f"history(50) + stats + board: {reads * 1000:.2f} ms")
    print(f"open_store with {n} games (quick_check): {opening * 1000:.1f} ms; file {size // 1024} KiB")


if __name__ == "__main__":
    main()
