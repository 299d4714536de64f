"""Writes tests/data/advisor_reference.json: the advisor table's reference figures.

    python tests/data/make_advisor_reference.py

The stored reference was made with the numba kernel (the last build before the
numpy builder, commit 5e630ce); rerunning this script overwrites it with what
the current builder makes, so run it only to record a deliberate change.

Per ruleset: the start value, checksums of the table rounded to 1e-6 (over the
computed states in ``layer_states`` order, and over the whole dense table) and
30 spot states per layer, evenly spaced through the layer's states.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from bonanza.core.advisor_build import build_values, layer_states  # noqa: E402
from bonanza.core.rules import RULESETS  # noqa: E402

SPOTS_PER_LAYER = 30
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "advisor_reference.json")


def rounded_sha256(values: np.ndarray) -> str:
    return hashlib.sha256(np.round(values * 1e6).astype(np.int64).tobytes()).hexdigest()


def computed_states(ruleset) -> np.ndarray:
    """All computed states (mask, upper, flag), layers 12 down to 0."""
    layers = layer_states(ruleset)
    return np.concatenate([layers[n] for n in range(len(layers) - 2, -1, -1)])


def spot_states(ruleset) -> list[tuple[int, int, int]]:
    out = []
    layers = layer_states(ruleset)
    for n in range(len(layers) - 1):
        rows = layers[n]
        k = min(len(rows), SPOTS_PER_LAYER)
        idx = np.unique(np.linspace(0, len(rows) - 1, k).round().astype(int))
        out.extend(tuple(int(x) for x in rows[i]) for i in idx)
    return out


def reference(name: str, V: np.ndarray) -> dict:
    rs = RULESETS[name]
    st = computed_states(rs)
    vals = V[st[:, 0], st[:, 1], st[:, 2]]
    return {
        "start": float(V[0, 0, 0]),
        "states": int(len(st)),
        "states_sha256_round6": rounded_sha256(vals),
        "table_sha256_round6": rounded_sha256(V),
        "table_sha256_exact": hashlib.sha256(np.ascontiguousarray(V, "<f8").tobytes()).hexdigest(),
        "spots": [[m, u, f, float(V[m, u, f])] for m, u, f in spot_states(rs)],
    }


def main() -> int:
    data = {
        "about": "advisor table reference; see tests/data/make_advisor_reference.py",
        "rulesets": {name: reference(name, build_values(RULESETS[name]))
                     for name in ("yacht", "bonanza")},
    }
    with open(OUT, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    for name, r in data["rulesets"].items():
        print(f"{name}: start {r['start']!r}, {r['states']} states, {len(r['spots'])} spots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
