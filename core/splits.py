"""What a stamped log says about a run's pace: its splits and its decisions.

A run's records carry ``at`` (ms since the first roll, ``core.runclock``).  A *split* is one
turn's time: from the end of the turn before (the run's start for the first) to the write
that ends it — 13 per Bonanza run, 15 per Yatzy run.  A *decision* is the time from a roll
to the move that follows it: the time the player had to read the dice.  Both come from the
log alone, so every replay, ``verify`` and the results show the same figures.
"""
from __future__ import annotations

from statistics import median
from typing import Protocol

from .records import MoveRecord


class Records(Protocol):
    """What the splits read of a log: its move records in order (a ``GameLog``, or the
    records of a stored log read without checking it again, ``client.store.runs``)."""

    @property
    def records(self) -> list[MoveRecord]: ...

# A run whose median decision is quicker than this was not read by a person: the dice must
# be seen, read and acted on, and a simple visual reaction alone takes about 200 ms; a
# choice between boxes longer.  A scripted 39-key route at 30 ms a key has a median of
# 60 ms (bench/input.py), the scripted run of issue 25 about 6 ms (docs/client.md).
TOOL_ASSISTED_MEDIAN_MS = 150


def stamped(log: Records) -> bool:
    recs = log.records
    return bool(recs) and all("at" in r for r in recs)


def splits(log: Records, seat: int = 0) -> list[int] | None:
    """Each finished turn's time in ms, in order (None for a log without stamps)."""
    if not stamped(log):
        return None
    out: list[int] = []
    last = 0
    recs = log.records
    for i, rec in enumerate(recs):
        mv = rec["move"]
        taken_back = i + 1 < len(recs) and recs[i + 1]["move"]["type"] == "undo"   # practice
        if mv["type"] == "write" and mv["seat"] == seat and not taken_back:
            out.append(rec["at"] - last)
            last = rec["at"]
    return out


def decisions(log: Records, seat: int = 0) -> list[int]:
    """The ms from each of ``seat``'s rolls to its next move (none without stamps; the
    clock's own moves are no one's decision)."""
    if not stamped(log):
        return []
    recs = log.records
    out: list[int] = []
    for a, b in zip(recs, recs[1:]):
        if (a["move"]["type"] == "roll" and a["move"]["seat"] == seat
                and b["move"]["seat"] == seat and not b["move"].get("auto")):
            out.append(b["at"] - a["at"])
    return out


def tool_assisted(log: Records, seat: int = 0) -> bool:
    """Whether the median decision is quicker than a person reads dice."""
    d = decisions(log, seat)
    return len(d) >= 5 and median(d) < TOOL_ASSISTED_MEDIAN_MS


# --- comparing a run with the runs before it (the splits panel, the results' table) ---
# A run's *comparison* is the fastest earlier finished run of its category (the personal
# best by time, as split timers count it); the *gold split* of a turn is the fastest that
# turn ever took in the category, and the *sum of best* is what a run made of every gold
# split would take.  Only whole runs of the same length compare turn by turn.


def cumulative(turns: list[int]) -> list[int]:
    """The run's time at the end of each turn."""
    out: list[int] = []
    total = 0
    for ms in turns:
        total += ms
        out.append(total)
    return out


def gaps(live: list[int], best: list[int]) -> list[int]:
    """Per finished turn of ``live``, its time so far minus ``best``'s at the same turn
    (negative: ahead of the best); only as far as both runs go."""
    return [a - b for a, b in zip(cumulative(live), cumulative(best))]


def live_gap(live: list[int], running_ms: int, best: list[int]) -> int | None:
    """The gap of the turn being played: the run's time now minus ``best``'s time at the
    end of this turn (None once ``best`` has no such turn)."""
    turn = len(live)
    if turn >= len(best):
        return None
    return running_ms - cumulative(best)[turn]


def gold_splits(runs: list[list[int]], turns: int) -> list[int] | None:
    """The fastest time of each turn over the whole runs of ``turns`` turns (None when
    there are none)."""
    whole = [r for r in runs if len(r) == turns]
    if not whole:
        return None
    return [min(r[i] for r in whole) for i in range(turns)]


def fastest(runs: list[list[int]], turns: int) -> list[int] | None:
    """The splits of the fastest whole run (the first of equal times: the older one)."""
    whole = [r for r in runs if len(r) == turns]
    if not whole:
        return None
    return min(whole, key=sum)
