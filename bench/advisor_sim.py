"""Simulated solo games with the optimal policy, against the table's expectation.

    python bench/advisor_sim.py [--games 100000] [--ruleset bonanza] [--seed 2024]

The games run in a numba loop that makes the same decisions as
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

from numba import njit  # noqa: E402

from core.advisor import get_advisor  # noqa: E402
from core.advisor_build import _best_keep, _box_values, _keep_chain, flag_matters  # noqa: E402
from core.advisor_tables import (BONANZA_BOX, CHILDREN, COUNTS, FACE, FIRST_ROLL,  # noqa: E402
                                 IS_YACHT, JOKER_POINTS, MULTISET_INDEX, MULTISETS,
                                 NUM_MULTISETS, PARENTS, POINTS, ROLLS)

# Proper sub-multisets of every roll, in lexicographic order of the sorted tuple.
_subs = []
for _r in ROLLS:
    counts = [_r.count(f) for f in range(1, 7)]
    subs = set()
    for k in MULTISETS:
        if len(k) < 5 and all(k.count(f) <= counts[f - 1] for f in range(1, 7)):
            subs.add(k)
    _subs.append([MULTISET_INDEX[k] for k in sorted(subs)])
SUBS = np.full((len(ROLLS), 32), -1, dtype=np.int32)
for _i, _l in enumerate(_subs):
    SUBS[_i, :len(_l)] = _l
MS_COUNTS = np.array([[k.count(f) for f in range(1, 7)] for k in MULTISETS], dtype=np.int32)
# roll index of a sorted 5-tuple, via a base-6 code
ROLL_OF_CODE = np.full(6 ** 5, -1, dtype=np.int32)
for _i, _r in enumerate(ROLLS):
    ROLL_OF_CODE[sum((d - 1) * 6 ** j for j, d in enumerate(_r))] = _i


@njit
def _roll_index(d):
    s = np.sort(d)
    code = 0
    p = 1
    for j in range(5):
        code += (s[j] - 1) * p
        p *= 6
    return ROLL_OF_CODE[code]


@njit
def _write(mask, u, flag, r, V, threshold, upper_bonus, joker, extra_bonus, fmatters):
    """Best box for roll r (BOXES order on ties): (box, immediate points incl.
    bonuses, new u, new flag)."""
    best = -1.0e300
    bb = -1
    bimm = 0
    bu = u
    bf = flag
    joker_on = joker and ((mask >> BONANZA_BOX) & 1) == 1 and IS_YACHT[r]
    extra = extra_bonus if (joker_on and flag == 1) else 0
    f0 = FACE[r] - 1
    lower_free = False
    for b in range(6, 13):
        if not (mask >> b) & 1:
            lower_free = True
    for b in range(13):
        if (mask >> b) & 1:
            continue
        if joker_on:
            if not (mask >> f0) & 1:
                if b != f0:
                    continue
            elif lower_free:
                if b < 6:
                    continue
            # else any free upper box (lower boxes are all filled)
        if b < 6:
            pts = COUNTS[r, b] * (b + 1)
            raw = u + pts
            nu = raw if raw < threshold else threshold
            bon = upper_bonus if (raw >= threshold and u < threshold) else 0
            imm = pts + bon + extra
            v = float(imm) + V[mask | (1 << b), nu, flag]
            nf = flag
        else:
            pts = JOKER_POINTS[r, b] if joker_on else POINTS[r, b]
            nu = u
            nf = flag
            if b == BONANZA_BOX:
                nf = 1 if (pts == 50 and fmatters) else 0
            imm = pts + extra
            v = float(imm) + V[mask | (1 << b), nu, nf]
        if v > best:
            best = v
            bb = b
            bimm = imm
            bu = nu
            bf = nf
    return bb, bimm, bu, bf, best


@njit
def simulate(V, dice, threshold, upper_bonus, joker, extra_bonus, fmatters):
    games = dice.shape[0]
    scores = np.zeros(games, dtype=np.int64)
    E0 = np.empty(252)
    E1 = np.empty(252)
    K1 = np.empty(NUM_MULTISETS)
    K2 = np.empty(NUM_MULTISETS)
    M = np.empty(NUM_MULTISETS)
    cur = np.empty(5, dtype=np.int64)
    for g in range(games):
        mask = 0
        u = 0
        flag = 0
        total = 0
        for t in range(13):
            _box_values(mask, u, flag, V, E0, COUNTS, POINTS, JOKER_POINTS, IS_YACHT, FACE,
                        threshold, upper_bonus, joker, extra_bonus, fmatters)
            K1[FIRST_ROLL:] = E0
            _keep_chain(K1, CHILDREN)
            _best_keep(K1, M, PARENTS, E1)
            K2[FIRST_ROLL:] = E1
            _keep_chain(K2, CHILDREN)
            for i in range(5):
                cur[i] = dice[g, t, 0, i]
            for j in (1, 2):
                rolls_left = 3 - j
                r = _roll_index(cur)
                K = K2 if rolls_left == 2 else K1
                bh = -1
                bv = -1.0e300
                for s in range(32):
                    k = SUBS[r, s]
                    if k < 0:
                        break
                    if K[k] > bv:
                        bv = K[k]
                        bh = k
                wb, wimm, wu, wf, wv = _write(mask, u, flag, r, V, threshold, upper_bonus,
                                              joker, extra_bonus, fmatters)
                if not bv > wv:
                    break
                # hold multiset bh: keep leftmost matching dice, reroll the rest
                left = MS_COUNTS[bh].copy()
                for i in range(5):
                    d = cur[i] - 1
                    if left[d] > 0:
                        left[d] -= 1
                    else:
                        cur[i] = dice[g, t, j, i]
            r = _roll_index(cur)
            wb, wimm, wu, wf, wv = _write(mask, u, flag, r, V, threshold, upper_bonus,
                                          joker, extra_bonus, fmatters)
            total += wimm
            mask |= 1 << wb
            u = wu
            flag = wf
        scores[g] = total
    return scores


def draw_dice(games: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 7, size=(games, 13, 3, 5), dtype=np.int64)


def run_sim(advisor, games: int, seed: int) -> np.ndarray:
    rs = advisor.ruleset
    return simulate(advisor.values, draw_dice(games, seed), rs.upper_threshold, rs.upper_bonus,
                    rs.joker, rs.extra_bonus, flag_matters(rs))


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
