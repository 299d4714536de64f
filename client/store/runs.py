"""A stored game as a *run*: the facts of its log the boards and the splits compare by —
hints, animation, resumed, tool-assisted and the turn splits — beside its ``GameRecord``.

They come from the stored log (``core.verify.category``, ``core.splits``), never from a
column of their own, so a game stored before runs had categories keeps its place and every
figure is the log's.  A log is read once per open store (logs never change once stored).
No pygame here."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import msgpack

from bonanza.core import splits as core_splits
from bonanza.core.log import MAGIC, MAX_LOG_BYTES

from .game_record import GameRecord

# what a board filter accepts for hints and animation
ANY = "any"


@dataclass(frozen=True)
class Run:
    record: GameRecord
    hints: bool | None          # None: the log does not say (a game from before it did)
    animation: str | None       # "instant", "animated", or None when the log does not say
    resumed: bool               # continued after the program stopped: its time is not a run's
    tool_assisted: bool         # its median decision was quicker than a person reads dice
    splits: tuple[int, ...] | None   # each turn's ms (None: the log has no stamps)

    @property
    def timed(self) -> bool:
        """Whether its time may be a best or a gold split: finished, not resumed, stamped."""
        return self.record.finished and not self.resumed and self.splits is not None

    def matches(self, hints: bool | str, animation: str) -> bool:
        """On a board of ``hints`` (True, False or ANY) and ``animation`` ("instant",
        "animated" or ANY)."""
        return ((hints == ANY or self.hints is hints)
                and (animation == ANY or self.animation == animation))


@dataclass(frozen=True)
class _Read:
    """A stored log's parts, decoded without its checks: the store verified the log when
    it kept it and marks a row whose log changed since as damaged (never on a board), so
    checking the chain again would only make a board of a thousand runs wait seconds."""
    header: dict
    records: list
    end: dict | None


def _read(data: bytes) -> _Read:
    if not data.startswith(MAGIC):
        raise ValueError("not a log")
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=MAX_LOG_BYTES)
    unpacker.feed(data[len(MAGIC):])
    header = next(unpacker)
    records: list = []
    end = None
    for obj in unpacker:
        kind = obj.get("kind")
        if kind == "move":
            records.append(obj)
        elif kind == "end":
            end = obj
    return _Read(header, records, end)


def run_of(store, rec: GameRecord) -> Run:
    """``rec`` with its log's facts (a log that no longer reads vouches for nothing:
    unknown category, no splits, never timed)."""
    # the verifier is loaded when a run is first read, not with every play screen
    from bonanza.core.verify import category as log_category
    cache: dict = store.__dict__.setdefault("_runs", {})
    key = (rec.id, rec.played_at, rec.score)
    run = cache.get(key)
    if run is None:
        try:
            log = _read(store.game_log(rec.id))
            end_meta: dict = dict(log.end["meta"]) if log.end is not None else {}
            cat = log_category(log.header, end_meta)
            seat = 0 if len(log.header["seats"]) == 1 else None
            turns = core_splits.splits(log) if seat == 0 else None
            run = Run(rec, cat["hints"], cat["animation"], cat["resumed"],
                      seat == 0 and core_splits.tool_assisted(log),
                      tuple(turns) if turns else None)
        except Exception:
            run = Run(rec, None, None, False, False, None)
        cache[key] = run
    return run


def runs_of(store, records: Iterable[GameRecord]) -> list[Run]:
    return [run_of(store, r) for r in records]


def category_runs(store, ruleset: str, category: str, seed_text: str | None = None,
                  modes: tuple[str, ...] = ("solo",)) -> list[Run]:
    """Every sound game of a store category (``summary.CATEGORIES``; a set seed's alone
    with ``seed_text``) as runs, best score first."""
    recs = store.board_games(ruleset, modes, category)
    if seed_text is not None:
        recs = [r for r in recs if r.seed_text == seed_text]
    return runs_of(store, recs)


@dataclass(frozen=True)
class Comparison:
    """What a run is compared with: the fastest earlier timed run of its category (its
    splits), the gold splits and their sum (the sum of best)."""
    best: tuple[int, ...] | None
    gold: tuple[int, ...] | None

    @property
    def best_ms(self) -> int | None:
        return sum(self.best) if self.best else None

    @property
    def sum_of_best(self) -> int | None:
        return sum(self.gold) if self.gold else None


NO_COMPARISON = Comparison(None, None)


def comparison(runs: Iterable[Run], hints: bool, animation: str, turns: int,
               leave_out: int | None = None) -> Comparison:
    """The comparison of a run of ``turns`` turns among ``runs`` (of its ruleset and dealt
    category) with these hints and this animation; ``leave_out`` a game id (the run itself)."""
    timed = [list(r.splits) for r in runs
             if r.timed and r.splits is not None and r.record.id != leave_out
             and r.matches(hints, animation)]
    best = core_splits.fastest(timed, turns)
    gold = core_splits.gold_splits(timed, turns)
    return Comparison(tuple(best) if best else None, tuple(gold) if gold else None)
