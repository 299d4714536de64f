"""Game analysis: where each seat lost points against the exact advisor, and how much was luck.

Every figure is an *expected final score*: the points on the seat's sheet plus the
advisor's expected points still to come (``core.advisor``: optimal play from that
moment on).  Along one seat's game that number only moves at two kinds of event:

* a **roll lands** -- the dice decide: ``luck = after - before``;
* the seat **decides** (keep some dice and roll, or write a box): it gives up
  ``loss = best - chosen >= 0`` against the best choice.

So the series telescopes: ``start_expected + luck - skill_loss`` is the seat's last
expected final score, which for a seat that filled its whole sheet is its score
(to float rounding).  ``docs/analysis.md`` has the definitions and the JSON shape.

Win chances (``win_chances``) use a normal approximation around each seat's exact
expected final score with a spread table measured from optimal-play simulations;
``docs/analysis.md`` says why (a Monte Carlo of optimal play is ~20x too slow for a
live bar) and how good it is.

Pure: no pygame, no clock, no global randomness; the advisor is passed in (or taken
from ``get_advisor``).  Analysis output is not part of any log, so floats are fine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence, cast

import numpy as np

from .advisor import Advice, Advisor, get_advisor
from .game import GameState, Setup, standings
from .log import GameLog, setup_from_header
from .match import Replay
from .records import GiveUpReason, Move
from .rules import BONANZA_POINTS, MAX_ROLLS, RULESETS, Ruleset, Sheet
from .undo import taken_back

__all__ = ["AnalysisError", "Choice", "Decision", "RollLuck", "Point", "SeatAnalysis",
           "GameAnalysis", "analyse_game", "analyse_log", "win_chances", "win_chances_from",
           "seat_expected", "remaining_sd", "grade", "decision_accuracy",
           "INACCURACY", "MISTAKE", "BLUNDER", "ACCURACY_SCALE", "OPTIMAL_EPS"]

# The analysis as JSON (``to_dict``; docs/analysis.md has the shape): for json.dumps and
# the client's charts, never part of a log.
JsonMap = dict[str, Any]

# Grades of a decision by its loss in expected points.  An optimal player loses
# nothing; a casual bot's typical slip (writing the right hand into the second-best
# box) costs 1-3 points, misplaying a hand 4-10, throwing away a made hand more.
INACCURACY = 1.0
MISTAKE = 4.0
BLUNDER = 10.0
# Accuracy of one decision: 100 * exp(-loss / ACCURACY_SCALE); a seat's accuracy is the
# mean over its decisions that had a choice.  A 1-point slip scores 82, a 4-point
# mistake 45, a 10-point blunder 14.
ACCURACY_SCALE = 5.0
# Losses this small are float noise between equal choices, not a slip.
OPTIMAL_EPS = 1e-9


class AnalysisError(ValueError):
    """A log or move list that cannot be analysed; ``code`` like ``core.log.LogError``."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class Choice:
    """A decision's option: ``kind`` "roll" (keep ``keep``, reroll the rest) or "write" ``box``."""
    kind: str
    keep: tuple[int, ...] | None = None
    box: str | None = None

    def to_dict(self) -> JsonMap:
        if self.kind == "roll":
            return {"kind": "roll", "keep": list(self.keep or ())}
        return {"kind": "write", "box": self.box}

    def label(self) -> str:
        if self.kind == "roll":
            return f"keep {' '.join(map(str, self.keep))} and roll" if self.keep else "roll all"
        return f"write {self.box}"


def grade(loss: float) -> str | None:
    """None, "inaccuracy", "mistake" or "blunder" for a decision's loss."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def decision_accuracy(loss: float) -> float:
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


@dataclass(frozen=True)
class Decision:
    """One decision after a roll.  ``chosen`` / ``best`` are expected final scores."""
    seq: int                  # the move that made it (a roll keeping dice, or a write)
    seat: int
    turn: int                 # the seat's own turn, 1..13
    dice: tuple[int, ...]     # the dice decided on
    rolls_left: int           # 0: only a box could be written
    choice: Choice
    best_choice: Choice
    chosen: float
    best: float
    loss: float               # best - chosen, never negative
    auto: bool                # made by the table's clock
    forced: bool              # only one legal option (e.g. the last free box)

    @property
    def grade(self) -> str | None:
        return grade(self.loss)

    def to_dict(self) -> JsonMap:
        return {"seq": self.seq, "kind": self.choice.kind, "chosen": self.chosen,
                "best": self.best, "loss": self.loss, "turn": self.turn,
                "dice": list(self.dice), "rolls_left": self.rolls_left,
                "choice": self.choice.to_dict(), "best_choice": self.best_choice.to_dict(),
                "auto": self.auto, "forced": self.forced, "grade": self.grade}


@dataclass(frozen=True)
class RollLuck:
    """One roll: expected final score before the dice landed and after."""
    seq: int
    seat: int
    turn: int
    roll: int                 # 1..3 within the turn
    dice: tuple[int, ...]
    before: float
    after: float
    luck: float               # after - before
    auto: bool

    def to_dict(self) -> JsonMap:
        return {"seq": self.seq, "turn": self.turn, "roll": self.roll, "dice": list(self.dice),
                "before": self.before, "after": self.after, "luck": self.luck,
                "auto": self.auto}


@dataclass(frozen=True)
class Undone:
    """A write taken back in a practice game (``core.undo``): where, and what it would
    have cost.  It is no decision: the write made after it is the one graded."""
    seq: int                  # the write that was taken back (its undo is ``seq + 1``)
    seat: int
    turn: int
    box: str
    loss: float               # what the write would have given up against the best choice

    def to_dict(self) -> JsonMap:
        return {"seq": self.seq, "turn": self.turn, "box": self.box, "loss": self.loss}


@dataclass(frozen=True)
class Point:
    """The seat's expected final score right after move ``seq`` (seq 0: the start)."""
    seq: int
    turn: int                 # the seat's turn the move belongs to (0 for the start)
    expected: float


@dataclass
class SeatAnalysis:
    seat: int
    name: str
    kind: str
    policy: str | None
    start_expected: float
    score: int = 0
    expected_end: float = 0.0          # last expected final score while still playing
    skill_loss: float = 0.0
    luck: float = 0.0
    complete: bool = False             # every box filled
    gave_up: GiveUpReason | None = None   # why the seat stopped, if it did
    decisions: list[Decision] = field(default_factory=list)
    rolls: list[RollLuck] = field(default_factory=list)
    series: list[Point] = field(default_factory=list)
    undos: list[Undone] = field(default_factory=list)   # practice games: writes taken back

    @property
    def accuracy(self) -> float | None:
        """Mean decision accuracy over decisions with a choice; None without any."""
        free = [d for d in self.decisions if not d.forced]
        if not free:
            return None
        return sum(decision_accuracy(d.loss) for d in free) / len(free)

    @property
    def auto_decisions(self) -> int:
        return sum(d.auto for d in self.decisions)

    @property
    def identity_gap(self) -> float:
        """``start_expected + luck - skill_loss - expected_end``: zero up to float rounding."""
        return self.start_expected + self.luck - self.skill_loss - self.expected_end

    def mistakes(self, limit: int | None = 5, at_least: float = INACCURACY) -> list[Decision]:
        """The costliest decisions (loss >= ``at_least``), biggest first, then earliest."""
        out = sorted((d for d in self.decisions if d.loss >= at_least),
                     key=lambda d: (-d.loss, d.seq))
        return out if limit is None else out[:limit]

    def turn_series(self) -> list[Point]:
        """One point per finished turn (after its write), plus the start: the graph's x axis."""
        pts = [self.series[0]] if self.series else []
        last: dict[int, Point] = {}
        for p in self.series[1:]:
            last[p.turn] = p
        return pts + [last[t] for t in sorted(last)]

    def counts(self) -> dict[str, int]:
        c = {"decisions": len(self.decisions), "optimal": 0, "inaccuracy": 0, "mistake": 0,
             "blunder": 0, "auto": self.auto_decisions, "forced": 0}
        for d in self.decisions:
            c["forced"] += d.forced
            if d.loss <= OPTIMAL_EPS:
                c["optimal"] += 1
            g = d.grade
            if g:
                c[g] += 1
        return c

    def to_dict(self) -> JsonMap:
        return {"seat": self.seat, "name": self.name, "kind": self.kind, "policy": self.policy,
                "score": self.score, "start_expected": self.start_expected,
                "expected_end": self.expected_end, "skill_loss": self.skill_loss,
                "luck": self.luck, "accuracy": self.accuracy, "complete": self.complete,
                "gave_up": self.gave_up, "counts": self.counts(),
                "decisions": [d.to_dict() for d in self.decisions],
                "rolls": [r.to_dict() for r in self.rolls],
                "undos": [u.to_dict() for u in self.undos],
                "series": [{"seq": p.seq, "turn": p.turn, "expected": p.expected}
                           for p in self.series]}


@dataclass
class GameAnalysis:
    ruleset: str
    seats: list[SeatAnalysis]
    win_chance: list[tuple[int, tuple[float, ...]]]   # (seq, one probability per seat)
    moves: int = 0

    def to_dict(self) -> JsonMap:
        return {"ruleset": self.ruleset, "moves": self.moves,
                "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE,
                               "blunder": BLUNDER, "accuracy_scale": ACCURACY_SCALE},
                "seats": [s.to_dict() for s in self.seats],
                "win_chance": [{"seq": seq, "seats": list(p)} for seq, p in self.win_chance]}


# ---------------------------------------------------------------- the analysis
def _key(rs: Ruleset, sheet: Sheet) -> tuple[int, int, bool]:
    return sheet.filled_mask(), sheet.upper_sum, sheet.get(rs.yacht_box) == BONANZA_POINTS


def seat_expected(advisor: Advisor, state: GameState, seat: int) -> float:
    """The seat's expected final score now: sheet total plus the optimal rest
    (mid-turn, from the dice it holds)."""
    sheet = state.sheets[seat]
    score = sheet.total(advisor.ruleset)
    if sheet.is_complete or state.has_given_up(seat) or state.over:
        return float(score)
    if seat == state.active and state.dice is not None:
        return score + advisor.advise_state(*_key(advisor.ruleset, sheet), state.dice, state.rolls_left).expected
    return score + advisor.value(*_key(advisor.ruleset, sheet))


def analyse_game(setup: Setup, moves: Iterable[object], advisor: Advisor | None = None, *,
                 with_win_chance: bool = True) -> GameAnalysis:
    """Analyse a game from its setup and moves (dice are taken as logged: verify first
    when the source is untrusted).  Raises ``AnalysisError`` for an illegal move."""
    adv = advisor if advisor is not None else get_advisor(setup.ruleset)
    if adv.ruleset.name != setup.ruleset:
        raise AnalysisError("ruleset", f"the advisor is for {adv.ruleset.name!r}, "
                                       f"the game is {setup.ruleset!r}")
    rs = adv.ruleset
    start = adv.expected_start()
    n = len(setup.seats)
    seats = [SeatAnalysis(i, s.name, s.kind, s.policy, start, expected_end=start,
                          series=[Point(0, 0, start)]) for i, s in enumerate(setup.seats)]
    replay = Replay(setup)
    current = [start] * n          # each seat's expected final score now
    turns = [1] * n                # each seat's own turn number
    # the active seat's dice on the table and the advice for them
    pending: tuple[tuple[int, ...], Advice] | None = None
    multi = with_win_chance and n > 1
    chances: list[tuple[int, tuple[float, ...]]] = []
    if multi:
        chances.append((0, tuple(win_chances_from(adv, replay.state, current))))
    count = 0
    listed = list(moves)
    # a practice game's undone writes are graded where they were made, then passed over
    # with their undos; the moves that stand are a game without undo (``core.undo``)
    undone = {seq for seq, _ in taken_back(cast("list[Move]", listed))}
    for seq, move in enumerate(listed, 1):
        if seq in undone or seq - 1 in undone:
            count += 1
            if seq in undone and pending is not None:
                _undone(seats, cast(Move, move), pending, replay.state, seq, turns, adv)
            continue
        before_state = replay.state
        refusal = replay.accept(move)
        if refusal is not None:
            raise AnalysisError("illegal_move",
                                f"move {before_state.seq + 1} is illegal: {refusal.message}")
        legal = cast(Move, move)   # ``accept`` found it a legal move
        st, new = before_state, replay.state
        count += 1
        seat = legal["seat"]
        sa = seats[seat]
        if legal["type"] == "give_up":
            sa.gave_up = legal.get("why", "gave_up")
            if seat == st.active:
                pending = None
            sa.series.append(Point(seq, turns[seat], current[seat]))
        else:
            auto = bool(legal.get("auto", False))
            sheet = st.sheets[seat]
            score = sheet.total(rs)
            key = _key(rs, sheet)
            if legal["type"] == "roll":
                if pending is None:   # the turn's first roll: nothing on the table to decide on
                    before = score + adv.value(*key)
                else:
                    dice, advice = pending
                    kept = tuple(sorted(d for d, h in zip(dice, legal["hold"]) if h))
                    opt = next(h for h in advice.holds if h.hold == kept)
                    before = score + opt.expected
                    _decide(sa, dice, advice, seq, turns[seat], st.rolls_left,
                            Choice("roll", keep=kept), before, score, auto)
                rolled = tuple(legal["dice"])     # the dice of ``new``
                after_advice = adv.advise_state(*key, rolled, new.rolls_left)
                pending = (rolled, after_advice)
                after = score + after_advice.expected
                sa.rolls.append(RollLuck(seq, seat, turns[seat], new.rolls, rolled,
                                         before, after, after - before, auto))
                sa.luck += after - before
                current[seat] = after
            elif legal["type"] == "write":
                if pending is None:
                    raise AnalysisError("illegal_move", f"move {seq} writes before a roll")
                dice, advice = pending
                box_opt = next(b for b in advice.boxes if b.box == legal["box"])
                chosen = score + box_opt.expected
                _decide(sa, dice, advice, seq, turns[seat], st.rolls_left,
                        Choice("write", box=legal["box"]), chosen, score, auto)
                pending = None
                current[seat] = chosen
            sa.series.append(Point(seq, turns[seat], current[seat]))
            if legal["type"] == "write":
                turns[seat] += 1
        if multi:
            chances.append((seq, tuple(win_chances_from(adv, new, current))))
    final = replay.state
    for sa in seats:
        sheet = final.sheets[sa.seat]
        sa.score = sheet.total(rs)
        sa.complete = sheet.is_complete
        sa.expected_end = current[sa.seat]
    return GameAnalysis(setup.ruleset, seats, chances, count)


def _undone(seats: list[SeatAnalysis], move: Move, pending: tuple[tuple[int, ...], Advice],
            st: GameState, seq: int, turns: list[int], adv: Advisor) -> None:
    """A write an undo took back: what it would have cost, at its turn."""
    if move["type"] != "write":
        return
    seat = move["seat"]
    advice = pending[1]
    box_opt = next(b for b in advice.boxes if b.box == move["box"])
    loss = max(0.0, advice.expected - box_opt.expected)
    seats[seat].undos.append(Undone(seq, seat, turns[seat], move["box"], loss))


def _decide(sa: SeatAnalysis, dice: tuple[int, ...], advice: Advice, seq: int, turn: int,
            rolls_left: int, choice: Choice, chosen: float, score: int, auto: bool) -> None:
    best_box = advice.boxes[0]
    # Rolling on only when strictly better, as the optimal bot does: on a tie, writing
    # ends the turn with the same expectation and no dice left to chance.
    if advice.holds and advice.holds[0].expected > best_box.expected:
        best_choice = Choice("roll", keep=advice.holds[0].hold)
    else:
        best_choice = Choice("write", box=best_box.box)
    best = score + advice.expected
    loss = max(0.0, best - chosen)
    forced = not advice.holds and len(advice.boxes) == 1
    sa.decisions.append(Decision(seq, sa.seat, turn, dice, rolls_left, choice,
                                 best_choice, chosen, best, loss, auto, forced))
    sa.skill_loss += loss


def analyse_log(log: GameLog, advisor: Advisor | None = None, *,
                with_win_chance: bool = True) -> GameAnalysis:
    """Analyse a parsed log (``core.log.parse_log``); ``core.verify`` it first when it
    comes from outside: the analysis takes its dice as given."""
    try:
        setup = setup_from_header(log.header)
        moves = [r["move"] for r in log.records]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise AnalysisError("corrupt", f"the log is malformed ({e})") from None
    if setup.ruleset not in RULESETS:
        raise AnalysisError("corrupt", f"unknown ruleset {setup.ruleset!r}")
    return analyse_game(setup, moves, advisor, with_win_chance=with_win_chance)


# ---------------------------------------------------------------- win chances
# Standard deviation of a seat's remaining points under optimal play, by ruleset,
# Bonanza box (0 free, 1 holds 0, 2 holds 50), turns left counting the current one
# (1..13) and rolls already made this turn (0..3).  Measured from optimal-play
# simulations (docs/analysis.md); the mean comes from the advisor exactly.
_SD: dict[str, list[list[list[float]]]] = {}
_SD["bonanza"] = [
    [  # Bonanza box free; turns left 1..13
        [10.42, 9.99, 8.33, 0.00],
        [16.87, 16.43, 15.09, 12.07],
        [21.43, 20.99, 19.87, 17.86],
        [25.21, 24.75, 23.88, 22.19],
        [28.41, 28.01, 27.37, 25.98],
        [31.25, 30.91, 30.22, 28.85],
        [33.88, 33.55, 32.92, 31.67],
        [36.14, 35.80, 35.33, 34.24],
        [38.46, 38.18, 37.61, 36.49],
        [40.74, 40.44, 39.83, 38.84],
        [42.91, 42.64, 42.07, 41.09],
        [44.95, 44.70, 44.26, 43.39],
        [47.17, 46.99, 46.40, 45.44],
    ],
    [  # Bonanza box holds 0; turns left 1..13
        [14.30, 13.06, 10.48, 0.00],
        [19.88, 19.06, 17.61, 14.86],
        [23.67, 23.11, 22.17, 20.26],
        [26.59, 26.15, 25.40, 24.03],
        [28.66, 28.16, 27.68, 26.82],
        [30.50, 30.23, 29.47, 28.51],
        [31.28, 30.95, 30.72, 30.20],
        [33.44, 33.09, 32.84, 32.29],  # extrapolated
        [35.47, 35.09, 34.83, 34.24],  # extrapolated
        [37.39, 36.99, 36.72, 36.10],  # extrapolated
        [39.21, 38.80, 38.51, 37.86],  # extrapolated
        [40.96, 40.52, 40.22, 39.54],  # extrapolated
        [42.63, 42.18, 41.86, 41.16],  # extrapolated
    ],
    [  # Bonanza box holds 50; turns left 1..13
        [17.22, 15.96, 12.84, 0.00],
        [23.45, 22.69, 20.93, 17.33],
        [28.28, 27.69, 26.27, 23.74],
        [32.43, 31.85, 30.61, 28.34],
        [35.80, 35.39, 34.48, 32.44],
        [38.80, 38.35, 37.74, 35.89],
        [41.30, 40.85, 40.09, 38.92],
        [44.13, 43.92, 43.09, 41.37],
        [46.50, 46.37, 46.01, 44.44],
        [49.01, 48.76, 48.08, 46.78],
        [51.18, 50.94, 50.49, 49.31],
        [54.78, 54.40, 54.15, 52.88],
        [57.02, 56.62, 56.36, 55.04],  # extrapolated
    ],
]
_SD["yacht"] = [
    [  # Bonanza box free; turns left 1..13
        [10.42, 10.12, 8.52, 0.00],
        [16.15, 15.69, 14.58, 11.76],
        [20.93, 20.47, 19.54, 17.55],
        [24.30, 23.92, 23.08, 21.53],
        [26.95, 26.59, 25.90, 24.72],
        [29.21, 28.87, 28.32, 27.24],
        [31.33, 31.00, 30.43, 29.43],
        [33.12, 32.86, 32.28, 31.42],
        [34.59, 34.36, 33.95, 33.20],
        [36.09, 35.86, 35.32, 34.58],
        [37.45, 37.22, 36.83, 36.20],
        [38.71, 38.51, 38.16, 37.53],
        [39.79, 39.61, 39.28, 38.80],
    ],
    [  # Bonanza box holds 0; turns left 1..13
        [14.34, 13.10, 10.58, 0.00],
        [19.80, 19.04, 17.75, 14.89],
        [23.38, 22.82, 21.94, 20.05],
        [26.11, 25.72, 24.93, 23.70],
        [28.27, 27.89, 27.26, 26.23],
        [30.33, 30.11, 29.42, 28.48],
        [30.97, 30.63, 30.32, 29.51],
        [32.49, 32.14, 32.02, 31.00],
        [34.46, 34.09, 33.96, 32.88],  # extrapolated
        [36.32, 35.93, 35.80, 34.66],  # extrapolated
        [38.10, 37.69, 37.55, 36.35],  # extrapolated
        [39.79, 39.36, 39.22, 37.97],  # extrapolated
        [41.42, 40.97, 40.82, 39.52],  # extrapolated
    ],
    [  # Bonanza box holds 50; turns left 1..13
        [13.47, 12.29, 9.95, 0.00],
        [18.12, 17.45, 16.33, 13.68],
        [21.02, 20.50, 19.68, 18.30],
        [23.45, 23.02, 22.33, 21.24],
        [25.44, 25.07, 24.59, 23.73],
        [27.16, 26.84, 26.44, 25.78],
        [28.62, 28.41, 28.08, 27.52],
        [30.04, 29.83, 29.50, 28.96],
        [31.39, 31.22, 30.84, 30.34],
        [32.62, 32.38, 31.99, 31.45],
        [33.28, 33.09, 32.68, 32.33],
        [33.98, 33.68, 33.15, 32.96],
        [35.37, 35.06, 34.50, 34.31],  # extrapolated
    ],
]


# Not measured for yatzy yet: the yacht spreads stand in (the same five-dice turns with no
# joker; a yatzy sheet's 14th and 15th turns left read the 13th's), so its win chances are
# the estimate's shape around the advisor's exact mean.
_SD["yatzy"] = _SD["yacht"]


def remaining_sd(ruleset: str, bonanza: int, turns_left: int, rolls_made: int) -> float:
    """Spread of the points still to come (see ``_SD``); 0 with no turn left."""
    if turns_left <= 0:
        return 0.0
    return _SD[ruleset][bonanza][min(turns_left, 13) - 1][min(rolls_made, MAX_ROLLS)]


def _distribution(mean: float, sd: float, floor: int, lo: int, hi: int) -> np.ndarray:
    """P(total == t) for t in lo..hi: a normal around ``mean`` on whole points (density at
    each point, normalised), cut below ``floor`` (points on the sheet never go away)."""
    t = np.arange(lo, hi + 1, dtype=np.float64)
    out = np.zeros(len(t))
    if sd > 0.0:
        out = np.exp(-0.5 * ((t - mean) / sd) ** 2)
        out[t < floor] = 0.0
    total = out.sum()
    if total <= 0.0:   # no spread left, or all of it below the floor: one certain total
        out = np.zeros(len(t))
        out[min(max(max(round(mean), floor), lo), hi) - lo] = 1.0
        return out
    normed: np.ndarray = out / total
    return normed


def share_of_first(pmfs: list[np.ndarray]) -> list[float]:
    """Each independent seat's chance to finish first, a tie of m seats counting 1/m each."""
    n = len(pmfs)
    below = [np.cumsum(p) - p for p in pmfs]          # P(T_j < t)
    out = []
    for i in range(n):
        # c[m][t] = P(exactly m other seats total t and the rest less than t)
        c = [np.ones_like(pmfs[i])]
        for j in range(n):
            if j == i:
                continue
            nxt = [c[0] * below[j]]
            for m in range(1, len(c)):
                nxt.append(c[m] * below[j] + c[m - 1] * pmfs[j])
            nxt.append(c[-1] * pmfs[j])
            c = nxt
        share = sum(cm / (m + 1) for m, cm in enumerate(c))
        out.append(float((pmfs[i] * share).sum()))
    s = sum(out)
    return [x / s for x in out] if s > 0 else out


def win_chances_from(advisor: Advisor, state: GameState,
                     expected: Sequence[float]) -> list[float]:
    """Each seat's chance to finish first given its expected final score ``expected[s]``.

    Seats that gave up have 0; once the game is over the chances are the result
    (winners share 1 equally).  Ties count as shared.  See ``win_chances``.
    """
    n = len(state.setup.seats)
    rs = advisor.ruleset
    if state.over:
        top = [s.seat for s in standings(state) if s.place == 1 and s.gave_up is None]
        if not top:   # everybody gave up: the standings' first place stands
            top = [s.seat for s in standings(state) if s.place == 1]
        return [1.0 / len(top) if i in top else 0.0 for i in range(n)]
    playing = list(state.playing())
    params = []
    for s in playing:
        sheet = state.sheets[s]
        score = sheet.total(rs)
        left = sheet.filled_count
        turns_left = len(sheet.scores) - left
        rolls = state.rolls if s == state.active else 0
        b = sheet.get(rs.yacht_box)
        bstate = 0 if b is None else (2 if b == BONANZA_POINTS else 1)
        sd = remaining_sd(rs.name, bstate, turns_left, rolls)
        params.append((float(expected[s]), sd, score))
    lo = min(min(sc, math.floor(m - 7 * sd)) for m, sd, sc in params)
    hi = max(math.ceil(m + 7 * sd) + 1 for m, sd, sc in params)
    lo = max(lo, 0)
    pmfs = [_distribution(m, sd, sc, lo, hi) for m, sd, sc in params]
    shares = share_of_first(pmfs)
    out = [0.0] * n
    for s, p in zip(playing, shares):
        out[s] = p
    return out


def win_chances(advisor: Advisor, state: GameState) -> list[float]:
    """The live estimate for a table: each seat's chance to finish first now (sums to 1).

    About a millisecond (one advisor query for the active seat's dice plus a sum over
    whole-point totals), so a screen can call it after every move on its own thread."""
    expected = [seat_expected(advisor, state, s) for s in range(len(state.setup.seats))]
    return win_chances_from(advisor, state, expected)
