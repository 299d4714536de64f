"""Finished game logs for the store, daily and records tests (no tests here).

Games are played with core.match and simple deterministic policies."""
from __future__ import annotations

import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bonanza.core.game import Seat, allowed  # noqa: E402
from bonanza.core.match import Match  # noqa: E402
from bonanza.core.rules import UPPER_BOXES  # noqa: E402


def seed_of(i: int) -> bytes:
    return i.to_bytes(4, "big") * 8


def play_first_box(match: Match) -> Match:
    """Roll once, write the first allowed box."""
    while not match.state.over:
        match.roll()
        match.write(allowed(match.state)[0])
    return match


def play_greedy_upper(match: Match) -> Match:
    """Chase the most common face among free upper boxes for three rolls."""
    while not match.state.over:
        match.roll()
        for _ in range(2):
            st = match.state
            sheet = st.sheets[st.active]
            free_faces = [i + 1 for i, b in enumerate(UPPER_BOXES) if sheet.is_free(b)]
            if not free_faces:
                break
            counts = Counter(d for d in st.dice if d in free_faces)
            if not counts:
                hold = [False] * 5
            else:
                face = max(counts, key=lambda f: (counts[f], f))
                hold = [d == face for d in st.dice]
            if all(hold):
                break
            match.roll(hold)
        st = match.state
        sheet = st.sheets[st.active]
        ok = allowed(st)
        counts = Counter(st.dice)
        upper = [UPPER_BOXES[f - 1] for f in sorted(counts, key=lambda f: (-counts[f], -f))
                 if UPPER_BOXES[f - 1] in ok and counts[f] >= 3]
        box = upper[0] if upper else ("chance" if "chance" in ok else ok[-1])
        match.write(box)
    return match


def solo_log(i: int, duration_ms: int | None = 60_000, ruleset: str = "bonanza",
             name: str = "me", policy=play_first_box, meta: dict | None = None) -> bytes:
    m = Match.create(ruleset, [Seat(name)], seed_of(i), mode="solo", meta=meta)
    policy(m)
    m.finish({} if duration_ms is None else {"duration_ms": duration_ms})
    return m.log.to_bytes()


def daily_log(date_iso: str, name: str = "me", duration_ms: int = 90_000) -> bytes:
    m = Match.create_daily(date_iso, name, meta={"date": date_iso})
    play_first_box(m)
    m.finish({"duration_ms": duration_ms})
    return m.log.to_bytes()


def count_five_equal(log: bytes) -> int:
    from bonanza.core.log import parse_log
    return sum(1 for r in parse_log(log).records
               if r["move"]["type"] == "roll" and len(set(r["move"]["dice"])) == 1)


def final_state(log: bytes):
    from bonanza.core.verify import verify_bytes
    v = verify_bytes(log)
    assert v.ok, v.detail
    return v.states[-1]


# ---------------------------------------------------------------- child processes

# A child's script starts with this: argv[1] is the checkout (for bonanza and these helpers).
CHILD_PRELUDE = r"""
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/tests")
"""


def run_child(script: str, *args: str, kill_at: str | None = None, timeout: float = 120):
    """Run ``CHILD_PRELUDE + script`` to its end (or its kill) and return the finished
    ``CompletedProcess`` (text).  ``kill_at`` is ``<point>:<k>`` for the store's test hook
    (``client/store/kill_hook.py``): the child kills itself there with SIGKILL."""
    import subprocess
    env = dict(os.environ)
    env.pop("BONANZA_TEST_KILL_AT", None)
    if kill_at is not None:
        env["BONANZA_TEST_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-c", CHILD_PRELUDE + script, ROOT, *args], env=env,
                          capture_output=True, text=True, timeout=timeout)
