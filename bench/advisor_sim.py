"""Simulated solo games with the optimal policy, against the table's expectation.

    python bench/advisor_sim.py [--games 100000] [--ruleset bonanza] [--seed 2024]

The games run in batches, vectorised with numpy over the games (the keep values of
every game's state come from the table builder's solver), making the same decisions as
``core.bots.choose("optimal", ...)`` (same tie-breaks; the tests check that
both play identical games on the same dice).  Dice come from a seeded numpy
Generator: game g, turn t, roll j, position i uses ``dice[g, t, j, i]`` (a
rerolled position takes that value; held positions keep theirs).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from core.advisor import get_advisor  # noqa: E402
from core.advisor_build import _Solver, flag_matters  # noqa: E402
from core.advisor_tables import (BONANZA_BOX, COUNTS, FACE, IS_YACHT,  # noqa: E402
                                 JOKER_POINTS, MULTISET_INDEX, MULTISETS, POINTS, ROLLS)

# Proper sub-multisets of every roll, in lexicographic order of the sorted tuple.
_subs = []
for _r in ROLLS:
    counts = [_r.count(f) for f in range(1, 7)]
    subs = set()
    for k in MULTISETS:
        if len(k) < 5 and all(k.count(f) <= counts[f - 1] for f in range(1, 7)):
            subs.add(k)
    _subs.append([MULTISET_INDEX[k] for k in sorted(subs)])
SUBS = np.full((len(ROLLS), 32), -1, dtype=np.int64)
for _i, _l in enumerate(_subs):
    SUBS[_i, :len(_l)] = _l
MS_COUNTS = np.array([[k.count(f) for f in range(1, 7)] for k in MULTISETS], dtype=np.int64)
# roll index of a sorted 5-tuple, via a base-6 code
ROLL_OF_CODE = np.full(6 ** 5, -1, dtype=np.int32)
for _i, _r in enumerate(ROLLS):
    ROLL_OF_CODE[sum((d - 1) * 6 ** j for j, d in enumerate(_r))] = _i


def _roll_index(cur: np.ndarray) -> np.ndarray:
    """Roll number of each row of dice (games x 5)."""
    s = np.sort(cur, axis=1) - 1
    return ROLL_OF_CODE[(s * _PLACE).sum(axis=1)]


_PLACE = 6 ** np.arange(5, dtype=np.int64)


def _write(rs, V, mask, u, flag, r, fmatters):
    """Best box for rolls r, per game (BOXES order on ties): (box, immediate points
    incl. bonuses, new u, new flag, value)."""
    t, ub = rs.upper_threshold, rs.upper_bonus
    n = len(mask)
    joker_on = rs.joker & (((mask >> BONANZA_BOX) & 1) == 1) & IS_YACHT[r].astype(bool)
    extra = np.where(joker_on & (flag == 1), rs.extra_bonus, 0)
    f0 = FACE[r] - 1
    face_free = ((mask >> f0) & 1) == 0
    lower_free = ((mask >> 6) & 127) != 127
    best = np.full(n, -np.inf)
    bb = np.full(n, -1)
    bimm = np.zeros(n, dtype=np.int64)
    bu = u.copy()
    bf = flag.copy()
    for b in range(13):
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
            pts = np.where(joker_on, JOKER_POINTS[r, b], POINTS[r, b]).astype(np.int64)
            nu = u
            nf = ((pts == 50) & fmatters).astype(np.int64) if b == BONANZA_BOX else flag
            imm = pts + extra
        v = imm.astype(np.float64) + V[mask | (1 << b), nu, nf]
        better = ok & (v > best)
        best = np.where(better, v, best)
        bb = np.where(better, b, bb)
        bimm = np.where(better, imm, bimm)
        bu = np.where(better, nu, bu)
        bf = np.where(better, nf, bf)
    return bb, bimm, bu, bf, best


def _simulate_batch(rs, V, solver, dice, fmatters):
    games = dice.shape[0]
    g = np.arange(games)
    mask = np.zeros(games, dtype=np.int64)
    u = np.zeros(games, dtype=np.int64)
    flag = np.zeros(games, dtype=np.int64)
    total = np.zeros(games, dtype=np.int64)
    for t in range(13):
        one, two = solver.keep_values(np.stack([mask, u, flag], axis=1))
        cur = dice[:, t, 0].copy()
        rolling = np.ones(games, dtype=bool)
        for j in (1, 2):
            r = _roll_index(cur)
            K = two if j == 1 else one
            cand = SUBS[r]
            vals = np.where(cand >= 0, K[np.maximum(cand, 0), g[:, None]], -np.inf)
            pick = np.argmax(vals, axis=1)          # the first of equal best, as a loop would
            bv = vals[g, pick]
            bh = cand[g, pick]
            wv = _write(rs, V, mask, u, flag, r, fmatters)[4]
            rolling &= bv > wv
            # hold multiset bh: keep the leftmost matching dice, reroll the rest
            left = MS_COUNTS[np.maximum(bh, 0)].copy()
            for i in range(5):
                d = cur[:, i] - 1
                keep = left[g, d] > 0
                left[g, d] -= keep
                cur[:, i] = np.where(rolling & ~keep, dice[:, t, j, i], cur[:, i])
        r = _roll_index(cur)
        wb, wimm, wu, wf, _ = _write(rs, V, mask, u, flag, r, fmatters)
        total += wimm
        mask |= 1 << wb
        u, flag = wu, wf
    return total


def draw_dice(games: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 7, size=(games, 13, 3, 5), dtype=np.int64)


def run_sim(advisor, games: int, seed: int, batch: int = 4096) -> np.ndarray:
    rs = advisor.ruleset
    V = advisor.values
    solver = _Solver(rs, V, batch)
    dice = draw_dice(games, seed)
    return np.concatenate([_simulate_batch(rs, V, solver, dice[i:i + batch], flag_matters(rs))
                           for i in range(0, games, batch)])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--ruleset", default="bonanza", choices=("bonanza", "yacht"))
    p.add_argument("--seed", type=int, default=2024)
    a = p.parse_args(argv)
    adv = get_advisor(a.ruleset)
    t0 = time.perf_counter()
    scores = run_sim(adv, a.games, a.seed)
    dt = time.perf_counter() - t0
    mean = scores.mean()
    se = scores.std(ddof=1) / math.sqrt(len(scores))
    exp = adv.expected_start()
    z = (mean - exp) / se
    print(f"ruleset {a.ruleset}: {a.games} games (seed {a.seed}) in {dt:.1f} s")
    print(f"simulated mean {mean:.4f} +- {se:.4f} (SE), sd {scores.std(ddof=1):.2f}")
    print(f"table expectation {exp:.7f}; difference {mean - exp:+.4f} = {z:+.2f} SE "
          f"({'within' if abs(z) <= 3 else 'OUTSIDE'} 3 SE)")
    return 0 if abs(z) <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
