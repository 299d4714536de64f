"""What the window pays to compare a run with its category (issue 25): the splits panel, the
results' splits and the Records boards read each stored run's hints, animation, resumed mark
and splits from its log (``client/store/runs.py``), once per open store.

    python bench/run_facts.py [--runs 400]

Records ``--runs`` stamped casual-bot runs of one category in a fresh store, then times the
first ``category_runs`` + ``comparison`` of a session (every log decoded) and a second one
(cached), beside ``core.log.parse_log`` of one log (what a decode with every check costs).
Measured (2 shared cores): 400 runs, 97 ms first, 5 ms after; a run's log 0.24 ms decoded
for its facts, 1.3 ms through ``parse_log`` (with its facts worked out: 0.8 against 4.3 ms
for the 53-record golden speedrun log).
"""
from __future__ import annotations

import argparse
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=400)
    args = ap.parse_args()
    from bonanza.client.solo import new_solo_match
    from bonanza.client.store import open_store
    from bonanza.client.store.records import finish_and_record
    from bonanza.client.store.runs import _read, category_runs, comparison
    from bonanza.core.log import parse_log
    from bonanza.core.runclock import RunClock
    from bonanza.core.simulate import play_bot_turn
    store, _ = open_store(tempfile.mkdtemp())
    for i in range(args.runs):
        t = [0.0]

        def now(i: int = i) -> float:
            t[0] += 0.4 + (i % 7) * 0.01
            return t[0]
        m = new_solo_match("Ann", "bonanza", meta={"animation": "instant", "hints": False})
        m.log.stamp = RunClock(now).stamp
        while not m.state.over:
            play_bot_turn(m, "casual")
        finish_and_record(store, m, m.log.records[-1]["at"], meta={"input": "keys", "hints": False})
    for label in ("first", "cached"):
        began = time.perf_counter()
        c = comparison(category_runs(store, "bonanza", "random"), False, "instant", 13)
        print(f"{label}: {args.runs} runs compared in {(time.perf_counter() - began) * 1000:.0f} ms "
              f"(best {c.best_ms} ms, sum of best {c.sum_of_best} ms)")
    data = store.game_log(store.history(1)[0].id)
    per_log = {}
    for name, read in (("facts decode", _read), ("parse_log", parse_log)):
        began = time.perf_counter()
        for _ in range(200):
            read(data)
        per_log[name] = (time.perf_counter() - began) / 200 * 1000
        print(f"{name}: {per_log[name]:.2f} ms a log")
    print(f"ratio facts decode / parse_log (the baseline, same run): "
          f"{per_log['facts decode'] / per_log['parse_log']:.2f}x")
    store.close()


if __name__ == "__main__":
    main()
