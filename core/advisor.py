"""The exact optimal advisor.

``Advisor`` holds a ruleset's value table (see ``core.advisor_build``) and
answers situations: every allowed box with its points and the expected score
still to come if written there, the best holds while rolls remain, and the
situation's own expected score.  "Expected" always means points still to come
from this moment on (this box, the bonuses it triggers and all later turns),
never what is already on the sheet.

Queries recompute one state's turn from the table with numpy, using exactly
the float64 operations of the builder's kernel, so a query agrees bit for bit
with the table (``advise(sheet, None, ...)`` returns the stored value).

Ties are broken deterministically: boxes by higher expected, then sheet
order; holds by higher expected, then the sorted hold tuple.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from itertools import product
from typing import Callable, Sequence

import numpy as np

from . import advisor_cache
from .advisor_tables import (
    CHILDREN,
    COUNTS,
    FACE,
    FIRST_ROLL,
    IS_YACHT,
    MULTISET_INDEX,
    NUM_MULTISETS,
    PARENTS,
    SIZE_START,
    sheet_tables,
    upper_sums,
)
from .rules import (
    BONANZA_POINTS,
    MAX_ROLLS,
    NUM_DICE,
    Ruleset,
    Sheet,
    allowed_boxes,
    check_dice,
    extra_bonus_for,
    get_ruleset,
    points,
)

__all__ = ["Advisor", "Advice", "BoxOption", "HoldOption", "AdvisorLoader", "get_advisor"]


@dataclass(frozen=True)
class BoxOption:
    box: str
    points: int
    expected: float


@dataclass(frozen=True)
class HoldOption:
    hold: tuple[int, ...]       # sorted dice values kept
    mask: tuple[bool, ...]      # which of the given dice (in their order) are kept
    expected: float


@dataclass(frozen=True)
class Advice:
    expected: float
    boxes: list[BoxOption]
    holds: list[HoldOption]


def _flag_matters(ruleset: Ruleset) -> bool:
    return bool(ruleset.joker and ruleset.extra_bonus)


# ---------------------------------------------------------------- per-state numpy
_COUNTS_T = np.ascontiguousarray(COUNTS.T)                       # [face-1, roll]
_ROWS6 = np.arange(6)[:, None]
_COUNT_POINTS = np.arange(NUM_DICE + 1)[None, :] * np.arange(1, 7)[:, None]  # [face-1, count]
_YACHT_ROWS = tuple(np.flatnonzero(IS_YACHT).tolist())
# Parent lists padded with a sentinel slot holding -inf.
_PARENTS_PAD = np.where(PARENTS >= 0, PARENTS, NUM_MULTISETS).astype(np.intp)
_CHILDREN = CHILDREN.astype(np.intp)


def box_values(ruleset: Ruleset, V: np.ndarray, mask: int, u: int, flag: int) -> np.ndarray:
    """Best (box + bonuses + future) value of each of the 252 rolls with no
    roll left, in state (mask, u, flag).  Same operations as the kernel."""
    t = ruleset.upper_threshold
    st = sheet_tables(ruleset)
    yb = st.yacht_box
    free = [i for i in range(st.num_boxes) if not mask >> i & 1]
    up = [f for f in free if f < 6]
    low = [b for b in free if b >= 6]
    parts = []
    if up:
        fa = np.array(up)
        cf = _COUNT_POINTS[fa]                       # points per (face, count)
        raw = u + cf
        imm = cf + ruleset.upper_bonus * ((raw >= t) & (u < t))
        vals = imm.astype(np.float64) + V[(mask | (1 << fa))[:, None], np.minimum(raw, t), flag]
        parts.append(vals[_ROWS6[:len(up)], _COUNTS_T[fa]])
    if low:
        la = np.array(low)
        nxt = V[mask | (1 << la), u, flag]
        points_t = st.points_t
        part = points_t[la] + nxt[:, None]
        if yb in low:
            j = low.index(yb)
            part[j] = points_t[yb] + np.where(
                st.points[:, yb] == BONANZA_POINTS,
                V[mask | 1 << yb, u, 1 if _flag_matters(ruleset) else 0],
                V[mask | 1 << yb, u, 0])
        parts.append(part)
    allv = parts[0] if len(parts) == 1 else np.concatenate(parts)
    best: np.ndarray = allv.max(axis=0)
    if ruleset.joker and mask >> yb & 1:
        extra = ruleset.extra_bonus if flag else 0
        lower = [b for b in range(6, st.num_boxes) if not mask >> b & 1]
        for r in _YACHT_ROWS:
            f = int(FACE[r]) - 1
            if not mask >> f & 1:
                raw = u + 5 * (f + 1)
                bon = ruleset.upper_bonus if raw >= t and u < t else 0
                best[r] = float(5 * (f + 1) + bon + extra) + V[mask | 1 << f, min(raw, t), flag]
                continue
            vals = ([float(int(st.joker_points[r, b]) + extra) + V[mask | 1 << b, u, flag]
                     for b in lower] if lower else
                    [float(0 + 0 + extra) + V[mask | 1 << g, u, flag]
                     for g in range(6) if not mask >> g & 1])
            best[r] = max(vals)
    return best


def keep_values(E: np.ndarray) -> np.ndarray:
    """Values of all 462 keeps with one roll to come, given roll values E
    (one die added at a time, children summed in face order, then / 6)."""
    K = np.empty(NUM_MULTISETS)
    K[FIRST_ROLL:] = E
    for s in range(NUM_DICE - 1, -1, -1):
        a, b = SIZE_START[s], SIZE_START[s + 1]
        G = K[_CHILDREN[a:b]]
        acc = G[:, 0] + G[:, 1]
        acc += G[:, 2]
        acc += G[:, 3]
        acc += G[:, 4]
        acc += G[:, 5]
        K[a:b] = acc / 6.0
    return K


def best_keep(K: np.ndarray) -> np.ndarray:
    """Per roll, the best value among its sub-multisets (itself included)."""
    M = np.empty(NUM_MULTISETS + 1)
    M[:NUM_MULTISETS] = K
    M[NUM_MULTISETS] = -np.inf
    for s in range(1, NUM_DICE + 1):
        a, b = SIZE_START[s], SIZE_START[s + 1]
        seg = M[a:b]
        np.maximum(seg, M[_PARENTS_PAD[a:b, :s]].max(axis=1), out=seg)
    rolls: np.ndarray = M[FIRST_ROLL:NUM_MULTISETS].copy()
    return rolls


def turn_start_value(ruleset: Ruleset, V: np.ndarray, mask: int, u: int, flag: int) -> float:
    E = box_values(ruleset, V, mask, u, flag)
    for _ in range(MAX_ROLLS - 1):
        E = best_keep(keep_values(E))
    return float(keep_values(E)[0])


# ---------------------------------------------------------------- advisor
class Advisor:
    """A ruleset's exact value table plus situation queries (thread-safe reads)."""

    def __init__(self, ruleset: Ruleset, values: np.ndarray):
        t = ruleset.upper_threshold
        self.tables = sheet_tables(ruleset)
        if values.shape != (self.tables.full_mask + 1, t + 1, 2):
            raise ValueError("value table has the wrong shape")
        self.ruleset = ruleset
        self.values = values
        self._turns: dict[tuple[int, int, int], list[np.ndarray]] = {}
        self._lock = threading.Lock()

    # -- construction
    @classmethod
    def build(cls, ruleset: Ruleset | str, progress: Callable[[float], None] | None = None,
              workers: int | None = None) -> "Advisor":
        from .advisor_build import build_values
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        return cls(rs, build_values(rs, progress=progress, workers=workers))

    @classmethod
    def load_or_build(cls, ruleset: Ruleset | str, cache_dir: str | os.PathLike[str] | None = None,
                      progress: Callable[[float], None] | None = None) -> "Advisor":
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        values = advisor_cache.load(rs, cache_dir)
        if values is not None:
            if progress:
                progress(1.0)
            return cls(rs, values)
        adv = cls.build(rs, progress=progress)
        try:
            advisor_cache.save(rs, adv.values, cache_dir)
        except OSError:
            pass  # an unwritable cache folder only costs a rebuild next time
        return adv

    # -- state helpers
    def _state(self, filled_mask: int, upper: int, bonanza_50: bool) -> tuple[int, int, int]:
        st = self.tables
        if not isinstance(filled_mask, (int, np.integer)) or not 0 <= filled_mask <= st.full_mask:
            raise ValueError(f"filled mask must be a {st.num_boxes}-bit box set")
        filled_mask = int(filled_mask)
        if bonanza_50 and not filled_mask >> st.yacht_box & 1:
            raise ValueError(f"the {self.ruleset.yacht_box.capitalize()} box can only hold 50 once it is filled")
        if upper not in upper_sums(filled_mask & 63):
            filled = [b for i, b in enumerate(self.ruleset.boxes[:6]) if filled_mask >> i & 1]
            raise ValueError(f"upper total {upper} is impossible with filled upper boxes "
                             f"{', '.join(filled) or '(none)'}")
        flag = 1 if bonanza_50 and _flag_matters(self.ruleset) else 0
        return filled_mask, min(int(upper), self.ruleset.upper_threshold), flag

    def _turn(self, mask: int, u: int, flag: int) -> list[np.ndarray]:
        """[E0, K1, E1, K2] of a state (cached; a few hundred microseconds)."""
        key = (mask, u, flag)
        got = self._turns.get(key)
        if got is None:
            E0 = box_values(self.ruleset, self.values, mask, u, flag)
            K1 = keep_values(E0)
            E1 = best_keep(K1)
            K2 = keep_values(E1)
            got = [E0, K1, E1, K2]
            with self._lock:
                if len(self._turns) >= 512:
                    self._turns.clear()
                self._turns[key] = got
        return got

    def value(self, filled_mask: int, upper: int, bonanza_50: bool = False) -> float:
        """Expected score still to come from the start of a turn."""
        mask, u, flag = self._state(filled_mask, upper, bonanza_50)
        return float(self.values[mask, u, flag])

    def expected_start(self) -> float:
        return float(self.values[0, 0, 0])

    # -- queries
    def advise(self, sheet: Sheet, dice: Sequence[int] | None, rolls_left: int) -> Advice:
        if sheet.layout is not self.ruleset.layout:
            raise ValueError(f"not a {self.ruleset.name} sheet")
        return self.advise_state(sheet.filled_mask(), sheet.upper_sum,
                                 sheet.get(self.ruleset.yacht_box) == BONANZA_POINTS, dice,
                                 rolls_left)

    def advise_state(self, filled_mask: int, upper: int, bonanza_50: bool,
                     dice: Sequence[int] | None, rolls_left: int) -> Advice:
        mask, u, flag = self._state(filled_mask, upper, bonanza_50)
        if dice is None:
            return Advice(float(self.values[mask, u, flag]), [], [])
        dice = check_dice(dice)
        st = self.tables
        if mask == st.full_mask:
            raise ValueError("the sheet is complete: no box is free")
        if type(rolls_left) is not int or not 0 <= rolls_left <= MAX_ROLLS - 1:
            raise ValueError(f"rolls left must be 0 to {MAX_ROLLS - 1}, got {rolls_left!r}")
        rs = self.ruleset
        t = rs.upper_threshold
        # A stand-in sheet with the same free boxes and Bonanza content lets the
        # rules decide allowed boxes, points and the extra bonus.
        scores = tuple(None if not mask >> i & 1 else
                       (BONANZA_POINTS if i == st.yacht_box and bonanza_50 else 0)
                       for i in range(st.num_boxes))
        sheet = Sheet(scores, 0, rs.layout)
        index = rs.layout.index
        extra = extra_bonus_for(rs, sheet, dice)
        V = self.values
        boxes = []
        for box in allowed_boxes(rs, sheet, dice):
            i = index[box]
            pts = points(rs, sheet, dice, box)
            nm = mask | 1 << i
            if i < 6:
                raw = u + pts
                bon = rs.upper_bonus if raw >= t and u < t else 0
                exp = float(pts + bon + extra) + V[nm, min(raw, t), flag]
            elif i == st.yacht_box:
                nflag = 1 if pts == BONANZA_POINTS and _flag_matters(rs) else 0
                exp = float(pts + extra) + V[nm, u, nflag]
            else:
                exp = float(pts + extra) + V[nm, u, flag]
            boxes.append(BoxOption(box, int(pts), float(exp)))
        boxes.sort(key=lambda o: (-o.expected, index[o.box]))
        holds: list[HoldOption] = []
        expected = boxes[0].expected
        if rolls_left > 0:
            K = self._turn(mask, u, flag)[1 if rolls_left == 1 else 3]
            counts = [dice.count(f) for f in range(1, 7)]
            for kept in product(*(range(c + 1) for c in counts)):
                if sum(kept) == NUM_DICE:
                    continue  # keeping everything is not a reroll
                hold = tuple(f + 1 for f in range(6) for _ in range(kept[f]))
                left = list(kept)
                mk = []
                for d in dice:
                    take = left[d - 1] > 0
                    left[d - 1] -= take
                    mk.append(take)
                holds.append(HoldOption(hold, tuple(mk), float(K[MULTISET_INDEX[hold]])))
            holds.sort(key=lambda h: (-h.expected, h.hold))
            expected = max(expected, holds[0].expected)
        return Advice(expected, boxes, holds)


# ---------------------------------------------------------------- instances
_registry: dict[str, Advisor] = {}
_registry_lock = threading.Lock()
_build_locks: dict[str, threading.Lock] = {}


def get_advisor(ruleset_name: str, progress: Callable[[float], None] | None = None) -> Advisor:
    """The process-wide advisor of a ruleset: loaded from the cache or built
    (and cached) on first use; later calls return the same instance."""
    rs = get_ruleset(ruleset_name)
    adv = _registry.get(rs.name)
    if adv is not None:
        if progress:
            progress(1.0)
        return adv
    with _registry_lock:
        lock = _build_locks.setdefault(rs.name, threading.Lock())
    with lock:
        adv = _registry.get(rs.name)
        if adv is None:
            adv = Advisor.load_or_build(rs, progress=progress)
            _registry[rs.name] = adv
        elif progress:
            progress(1.0)
    return adv


class AdvisorLoader:
    """Loads or builds an advisor in a background thread.

    ``start()`` returns at once; ``progress`` goes from 0 to 1 (per layer while
    building); ``ready`` tells when ``result()`` will not block.  With no
    ``cache_dir`` the result is also the process-wide ``get_advisor`` instance.
    """

    def __init__(self, ruleset_name: str, cache_dir: str | os.PathLike[str] | None = None):
        self.ruleset = get_ruleset(ruleset_name)
        self.cache_dir = cache_dir
        self.progress = 0.0
        self.error: BaseException | None = None
        self._advisor: Advisor | None = None
        self._thread: threading.Thread | None = None
        self._done = threading.Event()

    def _set_progress(self, fraction: float) -> None:
        self.progress = max(self.progress, min(1.0, float(fraction)))

    def _run(self) -> None:
        try:
            if self.cache_dir is None:
                self._advisor = get_advisor(self.ruleset.name, progress=self._set_progress)
            else:
                self._advisor = Advisor.load_or_build(self.ruleset, self.cache_dir,
                                                      progress=self._set_progress)
            self.progress = 1.0
        except BaseException as exc:  # reported by result()
            self.error = exc
        finally:
            self._done.set()

    def start(self) -> "AdvisorLoader":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"advisor-{self.ruleset.name}",
                                            daemon=True)
            self._thread.start()
        return self

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    def result(self, timeout: float | None = None) -> Advisor:
        if self._thread is None:
            self.start()
        if not self._done.wait(timeout):
            raise TimeoutError("the advisor table is still being built")
        if self.error is not None:
            raise self.error
        assert self._advisor is not None
        return self._advisor
