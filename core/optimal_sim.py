"""Solo games played with the optimal policy, vectorised with numpy over the games.

The decisions are those of ``core.bots.choose("optimal", ...)`` (same tie-breaks:
tests/test_bots.py plays both on the same dice), the keep values of every game's
state coming from the table builder's solver.  Dice are drawn up front from the
caller's ``numpy.random.Generator``: game g, turn t, roll j, position i uses
``dice[g, t, j, i]`` (a rerolled position takes that value; held positions keep
theirs), so one seed gives the same games whatever the batch size.

Pure: no I/O, no clock, no global randomness.  About 0.3 ms a game on one core.

    rng = np.random.default_rng(2024)
    scores = optimal_scores(get_advisor("bonanza"), 4000, rng)   # int64, one per game
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .advisor_build import _Solver, flag_matters
from .advisor_tables import COUNTS, FACE, IS_YACHT, MULTISET_INDEX, MULTISETS, ROLLS, sheet_tables
from .rules import Ruleset

if TYPE_CHECKING:
    from .advisor import Advisor

_PLACE = 6 ** np.arange(5, dtype=np.int64)


@lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(SUBS, MS_COUNTS, ROLL_OF_CODE), built on first use (a few ms) rather than at
    import: the client imports this module long before it simulates anything."""
    # proper sub-multisets of every roll, in lexicographic order of the sorted tuple:
    # argmax over them then breaks ties as the advisor's loop does
    subs = np.full((len(ROLLS), 32), -1, dtype=np.int64)
    for i, r in enumerate(ROLLS):
        counts = [r.count(f) for f in range(1, 7)]
        found = {k for k in MULTISETS
                 if len(k) < 5 and all(k.count(f) <= counts[f - 1] for f in range(1, 7))}
        idx = [MULTISET_INDEX[k] for k in sorted(found)]
        subs[i, :len(idx)] = idx
    ms_counts = np.array([[k.count(f) for f in range(1, 7)] for k in MULTISETS], dtype=np.int64)
    # roll index of a sorted 5-tuple, via a base-6 code
    roll_of_code = np.full(6 ** 5, -1, dtype=np.int32)
    for i, r in enumerate(ROLLS):
        roll_of_code[sum((d - 1) * 6 ** j for j, d in enumerate(r))] = i
    for a in (subs, ms_counts, roll_of_code):
        a.setflags(write=False)
    return subs, ms_counts, roll_of_code


def _roll_index(cur: np.ndarray) -> np.ndarray:
    """Roll number of each row of dice (games x 5)."""
    s = np.sort(cur, axis=1) - 1
    rolls: np.ndarray = _tables()[2][(s * _PLACE).sum(axis=1)]
    return rolls


def _write(rs: Ruleset, V: np.ndarray, mask: np.ndarray, u: np.ndarray, flag: np.ndarray,
           r: np.ndarray, fmatters: bool
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best box for rolls r, per game (sheet order on ties): (box, immediate points
    incl. bonuses, new u, new flag, value)."""
    t, ub = rs.upper_threshold, rs.upper_bonus
    st = sheet_tables(rs)
    yb, nb = st.yacht_box, st.num_boxes
    lower_all = (1 << (nb - 6)) - 1
    n = len(mask)
    joker_on = rs.joker & (((mask >> yb) & 1) == 1) & IS_YACHT[r].astype(bool)
    extra = np.where(joker_on & (flag == 1), rs.extra_bonus, 0)
    f0 = FACE[r] - 1
    face_free = ((mask >> f0) & 1) == 0
    lower_free = ((mask >> 6) & lower_all) != lower_all
    best = np.full(n, -np.inf)
    bb = np.full(n, -1)
    bimm = np.zeros(n, dtype=np.int64)
    bu = u.copy()
    bf = flag.copy()
    for b in range(nb):
        ok = ((mask >> b) & 1) == 0
        # the joker rules: the face's upper box if free, else a lower box, else any
        jok = np.where(face_free, f0 == b, ~lower_free if b < 6 else True)
        ok &= ~joker_on | jok
        if b < 6:
            pts = COUNTS[r, b].astype(np.int64) * (b + 1)
            raw = u + pts
            nu = np.minimum(raw, t)
            imm = pts + np.where((raw >= t) & (u < t), ub, 0) + extra
            nf = flag
        else:
            pts = np.where(joker_on, st.joker_points[r, b], st.points[r, b]).astype(np.int64)
            nu = u
            nf = ((pts == 50) & fmatters).astype(np.int64) if b == yb else flag
            imm = pts + extra
        v = imm.astype(np.float64) + V[mask | (1 << b), nu, nf]
        better = ok & (v > best)
        best = np.where(better, v, best)
        bb = np.where(better, b, bb)
        bimm = np.where(better, imm, bimm)
        bu = np.where(better, nu, bu)
        bf = np.where(better, nf, bf)
    return bb, bimm, bu, bf, best


def best_keep(K: np.ndarray, r: np.ndarray, col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each game (rolls ``r``, keep values in column ``col`` of ``K``): the best keep's
    value and the keep (a multiset index); the first of equal best, as the advisor's loop."""
    cand = _tables()[0][r]
    rows = np.arange(len(r))
    vals = np.where(cand >= 0, K[np.maximum(cand, 0), col[:, None]], -np.inf)
    pick = np.argmax(vals, axis=1)
    return vals[rows, pick], cand[rows, pick]


def reroll(cur: np.ndarray, keep: np.ndarray, rolling: np.ndarray, new: np.ndarray) -> None:
    """In place: where ``rolling``, keep the multiset ``keep`` (the leftmost matching dice)
    and give the other positions the ``new`` dice."""
    rows = np.arange(len(cur))
    left = _tables()[1][np.maximum(keep, 0)].copy()
    for i in range(5):
        d = cur[:, i] - 1
        kept = left[rows, d] > 0
        left[rows, d] -= kept
        cur[:, i] = np.where(rolling & ~kept, new[:, i], cur[:, i])


def _simulate_batch(rs: Ruleset, V: np.ndarray, solver: _Solver, dice: np.ndarray,
                    fmatters: bool) -> np.ndarray:
    games = dice.shape[0]
    g = np.arange(games)
    mask = np.zeros(games, dtype=np.int64)
    u = np.zeros(games, dtype=np.int64)
    flag = np.zeros(games, dtype=np.int64)
    total = np.zeros(games, dtype=np.int64)
    for t in range(len(rs.sheet)):
        one, two = solver.keep_values(np.stack([mask, u, flag], axis=1))
        cur = dice[:, t, 0].copy()
        rolling = np.ones(games, dtype=bool)
        for j in (1, 2):
            r = _roll_index(cur)
            best, bh = best_keep(two if j == 1 else one, r, g)
            rolling &= best > _write(rs, V, mask, u, flag, r, fmatters)[4]
            reroll(cur, bh, rolling, dice[:, t, j])
        r = _roll_index(cur)
        wb, wimm, wu, wf, _ = _write(rs, V, mask, u, flag, r, fmatters)
        total += wimm
        mask |= 1 << wb
        u, flag = wu, wf
    return total


def draw_dice(rng: np.random.Generator, games: int, turns: int = 13) -> np.ndarray:
    """Every die the games may use, shape (games, turns, 3 rolls, 5 positions): a turn per
    box of the sheet."""
    return rng.integers(1, 7, size=(games, turns, 3, 5), dtype=np.int64)


def simulate(advisor: Advisor, dice: np.ndarray, batch: int = 4096) -> np.ndarray:
    """Final totals of optimal solo games on ``dice`` (see ``draw_dice``), one per game."""
    rs = advisor.ruleset
    V = advisor.values
    if len(dice) == 0:
        return np.zeros(0, dtype=np.int64)
    solver = _Solver(rs, V, batch)
    fm = flag_matters(rs)
    return np.concatenate([_simulate_batch(rs, V, solver, dice[i:i + batch], fm)
                           for i in range(0, len(dice), batch)])


def optimal_scores(advisor: Advisor, games: int, rng: np.random.Generator, batch: int = 4096) -> np.ndarray:
    """``games`` optimal solo games of the advisor's ruleset on dice from ``rng``."""
    return simulate(advisor, draw_dice(rng, games, len(advisor.ruleset.sheet)), batch)
