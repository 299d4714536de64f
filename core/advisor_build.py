"""Builds the advisor's value table: exact dynamic programming over all states.

A state is (filled boxes as a 13-bit mask, upper total capped at the
threshold, whether the Bonanza box holds 50).  ``V[mask, upper, flag]`` is the
expected score still to come from the start of a turn in that state.  Layers
(number of filled boxes) are solved from 12 down to 0; a layer's states only
read the layer above, so a layer is solved in chunks of states at once with
numpy (which does the work in C and releases the GIL, so chunks run on worker
threads).

Per chunk, arrays hold one column per state and one row per dice multiset
(``buf[k, s]``).  For all states at once: the best box value ``E0`` of each of
the 252 rolls; then keep values ``K[k] = mean_f K[k+f]`` filled in one die
less at a time by row gathers over the keep lattice (children summed in face
order, then / 6); then the best keep of every roll ``E1[r] = max_{k <= r} K[k]``
as a max over the one-die-smaller parents, size by size; twice; the turn start
value is the empty keep's value.  Every state's value is made by the same
float64 operations in the same order as ``core.advisor``'s per-state queries
(maxima are exact in any order), so the table is identical run to run, for any
chunk size and any number of workers, and queries agree with it bit for bit.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from .advisor_tables import (
    CHILDREN,
    COUNTS,
    FACE,
    FIRST_ROLL,
    IS_YACHT,
    MULTISETS,
    NUM_MULTISETS,
    NUM_ROLLS,
    PARENTS,
    SIZE_START,
    no_bonus_floor,
    sheet_tables,
    upper_reachable,
)
from .rules import BONANZA_POINTS, MAX_ROLLS, NUM_DICE, Ruleset

CHUNK = 512  # states per chunk: a chunk's working arrays stay near the CPU caches


def flag_matters(ruleset: Ruleset) -> bool:
    return bool(ruleset.joker and ruleset.extra_bonus)


def layer_states(ruleset: Ruleset) -> list[np.ndarray]:
    """States to compute per layer (index = filled count), as int32 rows
    (mask, upper, flag) ordered by mask, upper, flag.  Upper totals that can
    no longer reach the threshold are represented by one state at the floor
    (see ``no_bonus_floor``)."""
    t = ruleset.upper_threshold
    st = sheet_tables(ruleset)
    masks = np.arange(st.full_mask + 1)
    reach = upper_reachable(t)[masks & 63]                               # [mask, u]
    lo = np.array([no_bonus_floor(um, t) for um in range(64)])[masks & 63][:, None]
    us = np.arange(t + 1)[None, :]
    below = np.cumsum(reach, axis=1) > 0                                 # some total <= u
    keep = np.where(us > lo, reach, (us == lo) & below)
    mk, uk = np.nonzero(keep)
    if flag_matters(ruleset):
        two = (mk >> st.yacht_box & 1).astype(bool)
        rep = np.where(two, 2, 1)
        mk, uk = np.repeat(mk, rep), np.repeat(uk, rep)
        fl = np.zeros(len(mk), dtype=np.int64)
        fl[np.cumsum(rep)[two] - 1] = 1
    else:
        fl = np.zeros(len(mk), dtype=np.int64)
    rows = np.stack([mk, uk, fl], axis=1).astype(np.int32)
    count = np.array([bin(m).count("1") for m in range(st.full_mask + 1)])[mk]
    return [rows[count == n] for n in range(st.num_boxes + 1)]


def fill_floor(values: np.ndarray, states: np.ndarray, threshold: int) -> None:
    """Copy each mask's floor value to the upper totals below it."""
    for mask in np.unique(states[:, 0]).tolist():
        lo = no_bonus_floor(mask & 63, threshold)
        if lo > 0:
            values[mask, :lo, :] = values[mask, lo:lo + 1, :]


# ---------------------------------------------------------------- fixed index tables
# Rows of a chunk's arrays are the 462 multisets by size, and within a size by
# number of distinct faces (most first), so a multiset's j-th parent exists on
# a prefix of its size's rows; row _PAD holds -inf.  Row 0 is the empty keep.
_DISTINCT = [len(set(ms)) for ms in MULTISETS]
_ORDER = np.array(sorted(range(NUM_MULTISETS),
                         key=lambda k: (len(MULTISETS[k]), -_DISTINCT[k], k)), dtype=np.intp)
_ROW = np.empty(NUM_MULTISETS, dtype=np.intp)
_ROW[_ORDER] = np.arange(NUM_MULTISETS)
_PAD = NUM_MULTISETS
_ROLL_OF = _ORDER[FIRST_ROLL:] - FIRST_ROLL       # roll number of each roll row
_ROLL_ROWS = slice(FIRST_ROLL, NUM_MULTISETS)

# Keep chain, per size s (0..4): rows of the size-s keeps' children, face-major.
_CHILD_IDX = [np.ascontiguousarray(_ROW[CHILDREN[_ORDER[SIZE_START[s]:SIZE_START[s + 1]]]].T)
              .ravel() for s in range(NUM_DICE)]
# Best keep, per size s (1..5): per parent slot j, how many rows have one, and
# the parents' rows, slot-major.
_PARENT_COUNT: list[list[int]] = []
_PARENT_IDX: list[np.ndarray] = []
for _s in range(1, NUM_DICE + 1):
    _ms = _ORDER[SIZE_START[_s]:SIZE_START[_s + 1]]
    _cnt = [int(sum(1 for k in _ms if _DISTINCT[k] > j)) for j in range(_s)]
    _PARENT_COUNT.append([c for c in _cnt if c])
    _PARENT_IDX.append(np.concatenate([_ROW[PARENTS[_ms[:c], j]]
                                       for j, c in enumerate(_cnt) if c]))

# Box values, per roll row.  Upper boxes: faces in pairs (0,1), (2,3), (4,5);
# a pair's table holds max(value of face a with count i, face b with count j)
# at row 36 * pair + 6 * i + j.
_RCOUNTS = COUNTS[_ROLL_OF]
_PAIR_ROW = [(36 * p + 6 * _RCOUNTS[:, 2 * p] + _RCOUNTS[:, 2 * p + 1]).astype(np.intp)
             for p in range(3)]
_RYACHT = IS_YACHT[_ROLL_OF]
_Y_ROWS = np.flatnonzero(_RYACHT)          # yacht roll rows and their faces (0-based)
_Y_FACE = FACE[_ROLL_OF[_Y_ROWS]] - 1


class _Plan:
    """Where a sheet's lower boxes go in a chunk's gather buffer (one per sheet kind).

    A box that scores 0 is worth its future exactly, and adding the futures of the
    boxes that do score is harmless (their points are >= 0), so a roll's best lower
    value is the max of a "scratch" row (best future of all free lower boxes) and of
    "points + future" rows of the boxes that score.  Yacht rolls put 50 in the
    yacht box (future: flag set), so their scratch row leaves that box out.  Rolls
    with the same lower points share a signature row."""

    def __init__(self, ruleset: Ruleset):
        st = sheet_tables(ruleset)
        nb = self.num_boxes = st.num_boxes
        yb = self.yacht_box = st.yacht_box
        self.nlow = nl = nb - 6                  # futures rows: lower boxes, then the flag's
        self.lower = [b for b in range(6, nb) if b != yb]
        rpoints = st.points[_ROLL_OF]
        a_box: list[int] = []           # per points row: lower box (index into the futures, nl = flag)
        a_pts: list[int] = []
        a_at: dict[tuple[int, int], int] = {}
        for b in self.lower:
            for v in sorted(set(rpoints[:, b].tolist()) - {0}):
                a_at[b, v] = len(a_box)
                a_box.append(b - 6)
                a_pts.append(v)
        a_at[yb, BONANZA_POINTS] = len(a_box)
        a_box.append(nl)
        a_pts.append(BONANZA_POINTS)
        self.a_scr = len(a_box)                  # scratch row, all free lower boxes
        self.a_scr_nb = self.a_scr + 1           # scratch row without the yacht box (yacht rolls)
        self.a_rows = self.a_scr_nb + 1
        self.a_box_idx = np.array(a_box, dtype=np.intp)
        self.a_pts_col = np.array(a_pts, dtype=np.float64)[:, None]
        sigs: dict[tuple[int, ...], int] = {}
        self.sig_of = np.empty(NUM_ROLLS, dtype=np.intp)
        for j in range(NUM_ROLLS):
            key = (int(_RYACHT[j]),) + tuple(rpoints[j, 6:].tolist())
            self.sig_of[j] = sigs.setdefault(key, len(sigs))
        self.sig_slots = 1 + max(sum(1 for v in k[1:] if v) for k in sigs)
        slots = np.empty((self.sig_slots, len(sigs)), dtype=np.intp)
        for key, i in sigs.items():
            rows = [self.a_scr_nb if key[0] else self.a_scr]
            rows += [a_at[b, v] for b, v in zip(range(6, nb), key[1:]) if v]
            slots[:, i] = rows + [rows[0]] * (self.sig_slots - len(rows))
        self.sig_idx = slots.ravel()
        self.nsig = len(sigs)
        # Joker: points per lower box of the yacht rolls.
        self.y_joker = st.joker_points[_ROLL_OF[_Y_ROWS]][:, self.lower].astype(
            np.int64)[:, :, None]
        self.lower_fut = np.array([b - 6 for b in self.lower], dtype=np.intp)
        self.box_bits = (1 << np.arange(nb, dtype=np.int64))[:, None]
        # Scratch rows inside the gather buffer while box values are made.
        self.w_tmp = 0
        self.w_pair = self.w_tmp + NUM_ROLLS
        self.w_a = self.w_pair + 108
        self.w_slot = self.w_a + self.a_rows
        self.w_sig = self.w_slot + self.sig_slots * self.nsig
        self.g_rows = max([len(i) for i in _CHILD_IDX + _PARENT_IDX] + [self.w_sig + self.nsig])


_plans: dict[tuple[object, ...], _Plan] = {}


def _plan(ruleset: Ruleset) -> _Plan:
    got = _plans.get(ruleset.sheet)
    if got is None:
        got = _plans[ruleset.sheet] = _Plan(ruleset)
    return got


class _Buffers:
    """One worker's scratch memory for chunks of up to ``size`` states; the
    views for any smaller chunk are C-contiguous too."""

    def __init__(self, size: int, g_rows: int):
        self.size = size
        self.g_rows = g_rows
        self.k = np.empty((NUM_MULTISETS + 1) * size)
        self.g = np.empty(g_rows * size)

    def views(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        return (self.k[:(NUM_MULTISETS + 1) * n].reshape(NUM_MULTISETS + 1, n),
                self.g[:self.g_rows * n].reshape(self.g_rows, n))


class _Solver:
    """Solves chunks of a layer's states against the table (one per build)."""

    def __init__(self, ruleset: Ruleset, V: np.ndarray, chunk: int):
        self.rs = ruleset
        self.V = V
        self.flat = V.reshape(-1)
        self.t1 = V.shape[1]
        self.chunk = chunk
        self.fm = flag_matters(ruleset)
        self.p = _plan(ruleset)
        self._local = threading.local()
        # Upper boxes by (face, count) and current upper total: the new total's
        # table offset (2 * capped total) and the points plus bonus.
        t = ruleset.upper_threshold
        u = np.arange(t + 1)[None, None, :]
        raw = u + np.arange(NUM_DICE + 1)[None, :, None] * np.arange(1, 7)[:, None, None]
        imm = raw - u + ruleset.upper_bonus * ((raw >= t) & (u < t))
        self.up_off = (2 * np.minimum(raw, t)).reshape(36, t + 1)       # [face*6+count, u]
        self.up_imm = imm.reshape(36, t + 1).astype(np.float64)
        self.y_raw = (u[0, 0] + 5 * (_Y_FACE[:, None] + 1))             # [yacht, u]
        self.y_off = 2 * np.minimum(self.y_raw, t)
        self.y_imm = 5 * (_Y_FACE[:, None] + 1) + ruleset.upper_bonus * (
            (self.y_raw >= t) & (u[0, 0] < t))

    def _buffers(self, n: int) -> _Buffers:
        bufs = getattr(self._local, "bufs", None)
        if bufs is None or bufs.size < n:
            bufs = self._local.bufs = _Buffers(max(n, self.chunk), self.p.g_rows)
        return bufs

    # -- one chunk
    def _start(self, states: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The chunk's buffers with every roll's best box value in place; (K, G, m, u, fl)."""
        K, G = self._buffers(len(states)).views(len(states))
        m = states[:, 0].astype(np.int64)
        u = states[:, 1].astype(np.int64)
        fl = states[:, 2].astype(np.int64)
        self._box_values(m, u, fl, K[_ROLL_ROWS], G)
        K[_PAD] = -np.inf
        return K, G, m, u, fl

    def solve(self, states: np.ndarray) -> None:
        K, G, m, u, fl = self._start(states)
        for _ in range(MAX_ROLLS - 1):
            self._keep_chain(K, G)
            self._best_keep(K, G)
        self._keep_chain(K, G)
        self.flat[(m * self.t1 + u) * 2 + fl] = K[0]

    def turn_values(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``keep_values`` and, per state, the best box value of every roll (rows by roll
        number): what a simulator compares a keep with, without scoring the boxes again."""
        K, G = self._start(states)[:2]
        write = K[_ROW[FIRST_ROLL:]].copy()
        rows = _ROW[:FIRST_ROLL]
        self._keep_chain(K, G)
        one = K[rows].copy()
        self._best_keep(K, G)
        self._keep_chain(K, G)
        return one, K[rows].copy(), write

    def keep_values(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per state (column): the value of every keep (fewer than five dice, rows in
        ``MULTISETS`` order) with one roll left and with two rolls left.  Reads the
        table, writes nothing; the bench simulator plays from these."""
        K, G = self._start(states)[:2]
        rows = _ROW[:FIRST_ROLL]
        self._keep_chain(K, G)
        one = K[rows].copy()
        self._best_keep(K, G)
        self._keep_chain(K, G)
        return one, K[rows].copy()

    @staticmethod
    def _keep_chain(K: np.ndarray, G: np.ndarray) -> None:
        """K[k] = (K[k+1] + K[k+2] + ... + K[k+6]) / 6, one die less at a time."""
        for s in range(NUM_DICE - 1, -1, -1):
            a, b = SIZE_START[s], SIZE_START[s + 1]
            n = b - a
            g = G[:6 * n]
            np.take(K, _CHILD_IDX[s], axis=0, out=g, mode="clip")
            out = K[a:b]
            np.add(g[:n], g[n:2 * n], out=out)
            for j in range(2, 6):
                np.add(out, g[j * n:(j + 1) * n], out=out)
            np.divide(out, 6.0, out=out)

    @staticmethod
    def _best_keep(K: np.ndarray, G: np.ndarray) -> None:
        """K[k] = max(K[k], K[parents of k]) for sizes 1..5: the best sub-keep."""
        for s in range(1, NUM_DICE + 1):
            a = SIZE_START[s]
            idx = _PARENT_IDX[s - 1]
            g = G[:len(idx)]
            np.take(K, idx, axis=0, out=g, mode="clip")
            off = 0
            for c in _PARENT_COUNT[s - 1]:
                out = K[a:a + c]
                np.maximum(out, g[off:off + c], out=out)
                off += c

    def _box_values(self, m: np.ndarray, u: np.ndarray, fl: np.ndarray, E: np.ndarray,
                    G: np.ndarray) -> None:
        """E[r, s]: best (box + bonuses + future) of roll row r in state s."""
        P = self.p
        flat = self.flat
        n = len(m)
        nl = P.nlow
        yb = P.yacht_box
        filled = (m[None, :] & P.box_bits) != 0                             # [boxes, n]
        base = ((m[None, :] | P.box_bits) * self.t1) * 2 + fl[None, :]      # [boxes, n]
        # Upper boxes: per (face, count) points + bonus + future, -inf if filled.
        vg = flat[base[:6, None, :] + np.take(self.up_off, u, axis=1).reshape(6, 6, n)]
        vup = np.take(self.up_imm, u, axis=1).reshape(6, 6, n)
        vup += vg
        np.copyto(vup, -np.inf, where=filled[:6, None, :])
        pair = G[P.w_pair:P.w_pair + 108].reshape(3, 6, 6, n)
        for p in range(3):
            np.maximum(vup[2 * p][:, None, :], vup[2 * p + 1][None, :, :], out=pair[p])
        pair = G[P.w_pair:P.w_pair + 108]
        tmp = G[P.w_tmp:P.w_tmp + NUM_ROLLS]
        np.take(pair, _PAIR_ROW[0], axis=0, out=E, mode="clip")
        for p in (1, 2):
            np.take(pair, _PAIR_ROW[p], axis=0, out=tmp, mode="clip")
            np.maximum(E, tmp, out=E)
        # Lower boxes: futures (-inf if filled), then the signature rows.
        fut = np.empty((nl + 1, n))
        np.take(flat, base[6:] + 2 * u, out=fut[:nl])                        # flag fl
        fut[:nl][filled[6:]] = -np.inf
        if self.fm:  # a Bonanza of 50 lets later extra bonuses count
            fut[nl] = flat[base[yb] - fl + 2 * u + 1]
            fut[nl][filled[yb]] = -np.inf
        else:
            fut[nl] = fut[yb - 6]
        A = G[P.w_a:P.w_a + P.a_rows]
        np.take(fut, P.a_box_idx, axis=0, out=A[:P.a_scr], mode="clip")
        np.add(A[:P.a_scr], P.a_pts_col, out=A[:P.a_scr])
        np.max(fut[:nl], axis=0, out=A[P.a_scr])
        if yb - 6 == nl - 1:
            np.max(fut[:yb - 6], axis=0, out=A[P.a_scr_nb])
        else:
            np.maximum(fut[:yb - 6].max(axis=0), fut[yb - 5:nl].max(axis=0),
                       out=A[P.a_scr_nb])
        slot = G[P.w_slot:P.w_slot + P.sig_slots * P.nsig]
        np.take(A, P.sig_idx, axis=0, out=slot, mode="clip")
        sig = G[P.w_sig:P.w_sig + P.nsig]
        np.maximum(slot[:P.nsig], slot[P.nsig:2 * P.nsig], out=sig)
        for j in range(2, P.sig_slots):
            np.maximum(sig, slot[j * P.nsig:(j + 1) * P.nsig], out=sig)
        np.take(sig, P.sig_of, axis=0, out=tmp, mode="clip")
        np.maximum(E, tmp, out=E)
        if self.rs.joker:
            self._joker(m, u, fl, E, filled, base, vup, fut)

    def _joker(self, m: np.ndarray, u: np.ndarray, fl: np.ndarray, E: np.ndarray,
               filled: np.ndarray, base: np.ndarray, vup: np.ndarray, fut: np.ndarray) -> None:
        """Yacht rolls once the yacht box is filled: the joker rules."""
        P = self.p
        on = filled[P.yacht_box]
        if not on.any():
            return
        rs = self.rs
        extra = rs.extra_bonus * (fl == 1)
        # The matching upper box when free.
        up = (np.take(self.y_imm, u, axis=1) + extra).astype(np.float64)
        up += self.flat[base[_Y_FACE] + np.take(self.y_off, u, axis=1)]
        # Else any free lower box at joker points.
        low = ((P.y_joker + extra).astype(np.float64) + fut[P.lower_fut][None]).max(axis=1)
        # Else a zero in any free upper box (vup[f, 0] is that box's future).
        scr = (extra.astype(np.float64) + vup[:, 0, :]).max(axis=0)
        lower_free = ~filled[6:].all(axis=0)
        val = np.where(~filled[_Y_FACE], up, np.where(lower_free, low, scr))
        E[_Y_ROWS] = np.where(on, val, E[_Y_ROWS])


def build_values(ruleset: Ruleset, progress: Callable[[float], None] | None = None,
                 workers: int | None = None, chunk: int = CHUNK) -> np.ndarray:
    """The value table ``V[mask, upper, flag]`` (float64) of ``ruleset``.

    ``progress(fraction)`` is called after every layer (fractions by state
    count, ending at 1.0) from the building thread.
    """
    t = ruleset.upper_threshold
    nb = len(ruleset.sheet)
    V = np.zeros((1 << nb, t + 1, 2), dtype=np.float64)
    layers = layer_states(ruleset)
    total = sum(len(layer) for layer in layers[:nb])
    done = 0
    workers = workers or os.cpu_count() or 1
    solver = _Solver(ruleset, V, chunk)
    pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 else None
    if progress:
        progress(0.0)
    try:
        for n in range(nb - 1, -1, -1):
            states = layers[n]
            parts = [states[i:i + chunk] for i in range(0, len(states), chunk)]
            if pool is None or len(parts) == 1:
                for p in parts:
                    solver.solve(p)
            else:
                for fu in [pool.submit(solver.solve, p) for p in parts]:
                    fu.result()
            fill_floor(V, states, t)
            done += len(states)
            if progress:
                progress(done / total)
    finally:
        if pool is not None:
            pool.shutdown()
    if not flag_matters(ruleset):
        V[:, :, 1] = V[:, :, 0]
    return V
