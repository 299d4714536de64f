"""Builds the advisor's value table: exact dynamic programming over all states.

A state is (filled boxes as a 13-bit mask, upper total capped at the
threshold, whether the Bonanza box holds 50).  ``V[mask, upper, flag]`` is the
expected score still to come from the start of a turn in that state.  Layers
(number of filled boxes) are solved from 12 down to 0; within a layer every
state only reads the layer above, so a layer is split over worker threads that
run a numba kernel without the GIL.  Every state is computed by the same
sequence of float64 operations (fixed summation order), so the table is
identical run to run and for any number of workers.

Per state the kernel computes, for the 252 rolls, the best box value ``E0``;
then keep values ``K`` by adding one die at a time (``K[k] = mean_f K[k+f]``);
then the best keep of every roll ``E1[r] = max_{k <= r} K[k]`` over the
multiset lattice; twice; the turn start value is the empty keep's value.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from .advisor_tables import (BONANZA_BOX, CHILDREN, COUNTS, FACE, FIRST_ROLL, FULL_MASK,
                             IS_YACHT, JOKER_POINTS, NUM_MULTISETS, NUM_ROLLS, PARENTS,
                             POINTS, no_bonus_floor, upper_reachable)
from .rules import NUM_BOXES, Ruleset

try:  # numba is the compiled kernel library; without it a slow numpy path builds
    import numba
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised only without numba
    HAVE_NUMBA = False


def flag_matters(ruleset: Ruleset) -> bool:
    return bool(ruleset.joker and ruleset.extra_bonus)


def layer_states(ruleset: Ruleset) -> list[np.ndarray]:
    """States to compute per layer (index = filled count), as int32 rows
    (mask, upper, flag).  Upper totals that can no longer reach the threshold
    are represented by one state at the floor (see ``no_bonus_floor``)."""
    t = ruleset.upper_threshold
    reach = upper_reachable(t)
    fm = flag_matters(ruleset)
    layers: list[list[tuple[int, int, int]]] = [[] for _ in range(NUM_BOXES + 1)]
    for mask in range(FULL_MASK + 1):
        um = mask & 63
        lo = no_bonus_floor(um, t)
        us = sorted({max(u, lo) for u in np.flatnonzero(reach[um]).tolist()})
        flags = (0, 1) if fm and mask >> BONANZA_BOX & 1 else (0,)
        n = bin(mask).count("1")
        for u in us:
            for fl in flags:
                layers[n].append((mask, u, fl))
    return [np.array(l, dtype=np.int32).reshape(-1, 3) for l in layers]


def fill_floor(values: np.ndarray, states: np.ndarray, threshold: int) -> None:
    """Copy each mask's floor value to the upper totals below it."""
    for mask in np.unique(states[:, 0]).tolist():
        lo = no_bonus_floor(mask & 63, threshold)
        if lo > 0:
            values[mask, :lo, :] = values[mask, lo:lo + 1, :]


if HAVE_NUMBA:
    @njit(cache=True, nogil=True)
    def _keep_chain(K, children):
        # K[FIRST_ROLL:] holds roll values; fill all smaller keeps, largest first.
        for k in range(FIRST_ROLL - 1, -1, -1):
            s = K[children[k, 0]]
            s += K[children[k, 1]]
            s += K[children[k, 2]]
            s += K[children[k, 3]]
            s += K[children[k, 4]]
            s += K[children[k, 5]]
            K[k] = s / 6.0

    @njit(cache=True, nogil=True)
    def _best_keep(K, M, parents, E):
        # M[k] = max over sub-multisets of k of K; E[r] = M[roll r].
        M[0] = K[0]
        for k in range(1, NUM_MULTISETS):
            m = K[k]
            for j in range(5):
                p = parents[k, j]
                if p < 0:
                    break
                if M[p] > m:
                    m = M[p]
            M[k] = m
        for r in range(NUM_ROLLS):
            E[r] = M[FIRST_ROLL + r]

    @njit(cache=True, nogil=True)
    def _box_values(mask, u, flag, V, E0, counts, points, jpoints, is_yacht, face,
                    threshold, upper_bonus, joker, extra_bonus, fmatters):
        vup = np.empty((6, 6))
        bup = np.zeros((6, 6), dtype=np.int64)
        vlow = np.zeros(13)
        free_upper = 0
        free_lower = 0
        for f in range(6):
            if not (mask >> f) & 1:
                free_upper += 1
                nm = mask | (1 << f)
                for c in range(6):
                    nu = u + c * (f + 1)
                    if nu >= threshold:
                        nu = threshold
                        if u < threshold:
                            bup[f, c] = upper_bonus
                    vup[f, c] = V[nm, nu, flag]
        vbon0 = 0.0
        vbon1 = 0.0
        for b in range(6, 13):
            if not (mask >> b) & 1:
                free_lower += 1
                nm = mask | (1 << b)
                if b == BONANZA_BOX:
                    vbon0 = V[nm, u, 0]
                    vbon1 = V[nm, u, 1 if fmatters else 0]
                else:
                    vlow[b] = V[nm, u, flag]
        joker_on = joker and ((mask >> BONANZA_BOX) & 1) == 1
        extra = extra_bonus if flag == 1 else 0
        for r in range(NUM_ROLLS):
            best = -1.0e300
            if joker_on and is_yacht[r]:
                f = face[r] - 1
                if not (mask >> f) & 1:
                    best = float(5 * (f + 1) + bup[f, 5] + extra) + vup[f, 5]
                elif free_lower > 0:
                    for b in range(6, 13):
                        if not (mask >> b) & 1:
                            v = float(jpoints[r, b] + extra) + vlow[b]
                            if v > best:
                                best = v
                else:
                    for g in range(6):
                        if not (mask >> g) & 1:
                            v = float(0 + bup[g, 0] + extra) + vup[g, 0]
                            if v > best:
                                best = v
            else:
                for f in range(6):
                    if not (mask >> f) & 1:
                        c = counts[r, f]
                        v = float(c * (f + 1) + bup[f, c]) + vup[f, c]
                        if v > best:
                            best = v
                for b in range(6, 13):
                    if not (mask >> b) & 1:
                        p = points[r, b]
                        if b == BONANZA_BOX:
                            v = float(p) + (vbon1 if p == 50 else vbon0)
                        else:
                            v = float(p) + vlow[b]
                        if v > best:
                            best = v
            E0[r] = best

    @njit(cache=True, nogil=True)
    def _layer_kernel(states, start, stop, V, counts, points, jpoints, is_yacht, face,
                      children, parents, threshold, upper_bonus, joker, extra_bonus,
                      fmatters):
        K = np.empty(NUM_MULTISETS)
        M = np.empty(NUM_MULTISETS)
        E = np.empty(NUM_ROLLS)
        for i in range(start, stop):
            mask = states[i, 0]
            u = states[i, 1]
            flag = states[i, 2]
            _box_values(mask, u, flag, V, E, counts, points, jpoints, is_yacht, face,
                        threshold, upper_bonus, joker, extra_bonus, fmatters)
            for step in range(2):
                K[FIRST_ROLL:] = E
                _keep_chain(K, children)
                _best_keep(K, M, parents, E)
            K[FIRST_ROLL:] = E
            _keep_chain(K, children)
            V[mask, u, flag] = K[0]


def _numpy_layer(states, start, stop, V, ruleset: Ruleset) -> None:
    """Slow reference path (no numba): the advisor's per-state numpy code."""
    from .advisor import turn_start_value
    for i in range(start, stop):
        mask, u, flag = (int(x) for x in states[i])
        V[mask, u, flag] = turn_start_value(ruleset, V, mask, u, flag)


def build_values(ruleset: Ruleset, progress: Callable[[float], None] | None = None,
                 workers: int | None = None, use_numba: bool = True) -> np.ndarray:
    """The value table ``V[mask, upper, flag]`` (float64) of ``ruleset``.

    ``progress(fraction)`` is called after every layer (fractions by state
    count, ending at 1.0) from the building thread.
    """
    t = ruleset.upper_threshold
    V = np.zeros((FULL_MASK + 1, t + 1, 2), dtype=np.float64)
    layers = layer_states(ruleset)
    total = sum(len(l) for l in layers[:NUM_BOXES])
    done = 0
    workers = workers or os.cpu_count() or 1
    numba_ok = use_numba and HAVE_NUMBA
    pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 and numba_ok else None
    args = (COUNTS, POINTS, JOKER_POINTS, IS_YACHT, FACE, CHILDREN, PARENTS, t,
            ruleset.upper_bonus, ruleset.joker, ruleset.extra_bonus, flag_matters(ruleset))
    if progress:
        progress(0.0)
    try:
        for n in range(NUM_BOXES - 1, -1, -1):
            states = layers[n]
            size = len(states)
            if not numba_ok:
                _numpy_layer(states, 0, size, V, ruleset)
            elif pool is None or size < 256:
                _layer_kernel(states, 0, size, V, *args)
            else:
                # Interleaved chunks balance the work; results do not depend on them.
                nchunks = workers * 8
                bounds = [size * i // nchunks for i in range(nchunks + 1)]
                futs = [pool.submit(_layer_kernel, states, bounds[i], bounds[i + 1], V, *args)
                        for i in range(nchunks)]
                for fu in futs:
                    fu.result()
            fill_floor(V, states, t)
            done += size
            if progress:
                progress(done / total)
    finally:
        if pool is not None:
            pool.shutdown()
    if not flag_matters(ruleset):
        V[:, :, 1] = V[:, :, 0]
    return V
