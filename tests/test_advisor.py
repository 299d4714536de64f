"""The exact advisor: published optimum, joker cases, ties, cache, CLI."""
from __future__ import annotations

import dataclasses
import io
import json
import os
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import advisor_cache
from bonanza.core.advisor import Advisor, AdvisorLoader, get_advisor, turn_start_value
from bonanza.core.advisor_build import build_values, layer_states
from bonanza.core.advisor_tables import FULL_MASK, upper_sums
from bonanza.core.rules import BOX_INDEX, BOXES, RULESETS, Sheet, allowed_boxes, points

YACHT_OPTIMUM = 245.8707745                 # published, no joker / no extra bonus
PEER_FORCED_JOKER_100 = 254.58772873449593  # yatzy-solver "american+forced-joker"
BONANZA_EXPECTED = 250.00007776811594       # this table (cross-checked via the peer)


@pytest.fixture(scope="session")
def advisors(tmp_path_factory):
    cache = tmp_path_factory.getbasetemp() / "advisor-cache"
    os.environ["BONANZA_CACHE_DIR"] = str(cache)
    return {name: get_advisor(name) for name in ("bonanza", "yacht")}


def mask_of(*boxes):
    return sum(1 << BOX_INDEX[b] for b in boxes)


ALL_BUT = lambda *free: FULL_MASK & ~mask_of(*free)  # noqa: E731


# ------------------------------------------------------------ whole-game values
def test_yacht_published_optimum(advisors):
    assert advisors["yacht"].expected_start() == pytest.approx(YACHT_OPTIMUM, abs=1e-6)


def test_bonanza_value(advisors):
    assert advisors["bonanza"].expected_start() == pytest.approx(BONANZA_EXPECTED, abs=1e-9)


def test_peer_cross_check_with_100_point_bonus():
    rs = dataclasses.replace(RULESETS["bonanza"], name="bonanza-x100", extra_bonus=100)
    seen = []
    V = build_values(rs, progress=seen.append)
    assert V[0, 0, 0] == pytest.approx(PEER_FORCED_JOKER_100, abs=1e-9)
    # progress: once before, then once per layer, increasing to 1
    assert len(seen) == 14 and seen == sorted(seen) and seen[-1] == 1.0


def test_table_is_consistent_with_queries(advisors):
    """Recomputing a state's turn from the table gives the stored value bit for bit."""
    rng = np.random.default_rng(7)
    for name, adv in advisors.items():
        layers = layer_states(adv.ruleset)
        for n in range(13):
            rows = layers[n][rng.integers(0, len(layers[n]), size=min(6, len(layers[n])))]
            for m, u, f in rows.tolist():
                assert turn_start_value(adv.ruleset, adv.values, m, u, f) == adv.values[m, u, f]


def test_start_value_is_mean_over_first_rolls(advisors):
    adv = advisors["bonanza"]
    total = 0.0
    for dice in combinations_with_replacement(range(1, 7), 5):
        ways = factorial(5) / prod(factorial(dice.count(f)) for f in set(dice))
        total += ways * adv.advise(Sheet(), dice, 2).expected
    assert total / 6 ** 5 == pytest.approx(adv.expected_start(), abs=1e-9)


def test_memory(advisors):
    assert sum(a.values.nbytes for a in advisors.values()) <= 64 * 2 ** 20


# ------------------------------------------------------------ hand-checked situations
def test_last_turn_chance_only(advisors):
    adv = advisors["yacht"]
    m = ALL_BUT("chance")
    assert adv.value(m, 0) == pytest.approx(70 / 3, abs=1e-12)   # keep >=5, then >=4
    a = adv.advise_state(m, 0, False, (6, 6, 1, 1, 1), 1)
    assert a.holds[0].hold == (6, 6) and a.holds[0].expected == pytest.approx(22.5)
    assert a.holds[0].mask == (True, True, False, False, False)
    a0 = adv.advise_state(m, 0, False, (6, 6, 1, 1, 1), 0)
    assert a0.boxes == [a0.boxes[0]] and a0.boxes[0].box == "chance"
    assert a0.expected == a0.boxes[0].expected == 15 and a0.holds == []


def test_last_turn_bonanza_only(advisors):
    p = 2783176 / 6 ** 10   # five equal within three rolls, optimal keeps
    for name in ("yacht", "bonanza"):
        assert advisors[name].value(ALL_BUT("bonanza"), 0) == pytest.approx(50 * p, abs=1e-12)


def test_last_turn_upper_bonus(advisors):
    adv = advisors["bonanza"]
    a = adv.advise_state(ALL_BUT("sixes"), 45, False, (6, 6, 6, 1, 2), 0)
    assert [(o.box, o.points, o.expected) for o in a.boxes] == [("sixes", 18, 53.0)]
    a = adv.advise_state(ALL_BUT("sixes"), 45, False, (6, 6, 1, 1, 2), 0)
    assert a.boxes[0].expected == 12.0


# ------------------------------------------------------------ joker
def test_joker_forces_matching_upper(advisors):
    adv = advisors["bonanza"]
    a = adv.advise_state(mask_of("bonanza"), 0, True, (4, 4, 4, 4, 4), 0)
    assert [o.box for o in a.boxes] == ["fours"]
    assert a.boxes[0].points == 20
    nxt = adv.value(mask_of("bonanza", "fours"), 20, True)
    assert a.boxes[0].expected == float(20 + 50) + nxt


@pytest.mark.parametrize("holds50", [True, False])
def test_joker_any_lower_at_full_value(advisors, holds50):
    adv = advisors["bonanza"]
    m = mask_of("bonanza", "sixes")
    a = adv.advise_state(m, 30, holds50, (6,) * 5, 0)
    got = {o.box: o.points for o in a.boxes}
    assert got == {"three_kind": 30, "four_kind": 30, "full_house": 25,
                   "small_straight": 30, "large_straight": 40, "chance": 30}
    extra = 50 if holds50 else 0
    for o in a.boxes:
        assert o.expected == float(o.points + extra) + adv.value(m | mask_of(o.box), 30, holds50)


@pytest.mark.parametrize("holds50,extra", [(True, 50), (False, 0)])
def test_joker_last_turn_lower(advisors, holds50, extra):
    a = advisors["bonanza"].advise_state(ALL_BUT("full_house"), 0, holds50, (2,) * 5, 0)
    assert [(o.box, o.points, o.expected) for o in a.boxes] == [("full_house", 25, 25.0 + extra)]


def test_joker_scratches_upper_when_no_lower_free(advisors):
    adv = advisors["bonanza"]
    a = adv.advise_state(ALL_BUT("ones", "twos"), 0, True, (5,) * 5, 0)
    assert {o.box for o in a.boxes} == {"ones", "twos"}
    assert all(o.points == 0 for o in a.boxes)
    assert a.boxes[0].box == "ones"  # scratch the cheaper box, keep twos for the last turn
    assert a.boxes[0].expected == 50.0 + adv.value(ALL_BUT("twos"), 0, True)
    a = adv.advise_state(ALL_BUT("ones"), 0, True, (5,) * 5, 0)
    assert [(o.box, o.points, o.expected) for o in a.boxes] == [("ones", 0, 50.0)]


def test_no_joker_while_bonanza_free_or_in_yacht(advisors):
    a = advisors["bonanza"].advise_state(mask_of("sixes"), 30, False, (3,) * 5, 0)
    assert len(a.boxes) == 12 and dict((o.box, o.points) for o in a.boxes)["full_house"] == 0
    a = advisors["yacht"].advise_state(mask_of("bonanza"), 0, True, (3,) * 5, 0)
    got = {o.box: o.points for o in a.boxes}
    assert len(got) == 12 and got["full_house"] == 0 and got["threes"] == 15
    assert got["small_straight"] == 0


# ------------------------------------------------------------ ties
def test_exact_ties_follow_boxes_order_and_hold_tuples():
    zero = Advisor(RULESETS["yacht"], np.zeros((1 << 13, 64, 2)))
    a = zero.advise(Sheet(), (1, 2, 3, 4, 6), 2)
    scratch = [o.box for o in a.boxes if o.points == 0]
    assert scratch == ["fives", "three_kind", "four_kind", "full_house", "large_straight",
                       "bonanza"]
    assert [o.box for o in a.boxes][:2] == ["small_straight", "chance"]


def test_exact_hold_ties_in_tuple_order(advisors):
    # Last turn, only Bonanza free, one roll left: keeping any single die is
    # worth exactly 50/1296 (the other children of a one-die keep are exact zeros).
    a = advisors["yacht"].advise_state(ALL_BUT("bonanza"), 0, False, (5, 3, 1, 4, 2), 1)
    singles = [h for h in a.holds if len(h.hold) == 1]
    assert len({h.expected for h in singles}) == 1
    assert singles[0].expected == pytest.approx(50 / 1296)
    i = a.holds.index(singles[0])
    assert [h.hold for h in a.holds[i:i + 5]] == [(1,), (2,), (3,), (4,), (5,)]
    assert a.holds[i].mask == (False, False, True, False, False)


def test_real_table_order(advisors):
    a = advisors["bonanza"].advise(Sheet(), (3, 3, 3, 6, 6), 2)
    keys = [(-o.expected, BOX_INDEX[o.box]) for o in a.boxes]
    assert keys == sorted(keys)
    hk = [(-h.expected, h.hold) for h in a.holds]
    assert hk == sorted(hk) and len(a.holds) >= 3
    assert a.holds[0].hold == (3, 3, 3)


def test_deterministic_rebuild(advisors):
    rs = RULESETS["yacht"]
    again = build_values(rs, workers=1)
    assert np.array_equal(again, advisors["yacht"].values)


# ------------------------------------------------------------ hypothesis: API invariants
@st.composite
def situations(draw):
    name = draw(st.sampled_from(["bonanza", "yacht"]))
    mask = draw(st.integers(0, FULL_MASK - 1))
    upper = draw(st.sampled_from(sorted(upper_sums(mask & 63))))
    b50 = bool(mask >> BOX_INDEX["bonanza"] & 1) and draw(st.booleans())
    dice = tuple(draw(st.lists(st.integers(1, 6), min_size=5, max_size=5)))
    if draw(st.booleans()):  # favour jokers
        dice = (dice[0],) * 5
    rolls = draw(st.integers(0, 2))
    return name, mask, upper, b50, dice, rolls


@settings(max_examples=150, deadline=None)
@given(situations())
def test_advice_matches_rules(advisors, sit):
    name, mask, upper, b50, dice, rolls = sit
    adv = advisors[name]
    rs = adv.ruleset
    scores = [None] * 13
    for i in range(13):
        if mask >> i & 1:
            scores[i] = 50 if (BOXES[i] == "bonanza" and b50) else 0
    sheet = Sheet(tuple(scores))
    a = adv.advise_state(mask, upper, b50, dice, rolls)
    assert sorted(o.box for o in a.boxes) == sorted(allowed_boxes(rs, sheet, dice))
    for o in a.boxes:
        assert o.points == points(rs, sheet, dice, o.box)
    keys = [(-o.expected, BOX_INDEX[o.box]) for o in a.boxes]
    assert keys == sorted(keys)
    if rolls == 0:
        assert a.holds == [] and a.expected == a.boxes[0].expected
    else:
        assert a.expected == max(a.boxes[0].expected, a.holds[0].expected)
        for h in a.holds:
            assert not all(h.mask)
            assert tuple(sorted(d for d, k in zip(dice, h.mask) if k)) == h.hold
    assert adv.advise_state(mask, upper, b50, None, 3).expected == adv.value(mask, upper, b50)


# ------------------------------------------------------------ errors
def test_bad_states(advisors):
    adv = advisors["bonanza"]
    with pytest.raises(ValueError, match="impossible"):
        adv.advise_state(mask_of("ones"), 7, False, (1, 2, 3, 4, 5), 0)
    with pytest.raises(ValueError, match="Bonanza"):
        adv.advise_state(0, 0, True, (1, 2, 3, 4, 5), 0)
    with pytest.raises(ValueError):
        adv.advise_state(0, 0, False, (1, 2, 3, 4, 5, 6), 0)
    with pytest.raises(ValueError):
        adv.advise_state(0, 0, False, (1, 2, 3, 4, 5), 3)
    with pytest.raises(ValueError, match="complete"):
        adv.advise_state(FULL_MASK, 0, False, (1, 2, 3, 4, 5), 0)


# ------------------------------------------------------------ cache and loader
def test_cache_roundtrip_and_rejects(advisors, tmp_path):
    rs = RULESETS["yacht"]
    vals = advisors["yacht"].values
    path = advisor_cache.save(rs, vals, tmp_path)
    assert np.array_equal(advisor_cache.load(rs, tmp_path), vals)
    data = path.read_bytes()
    path.write_bytes(data[:-8])                       # truncated
    assert advisor_cache.load(rs, tmp_path) is None
    bad = bytearray(data)
    bad[-3] ^= 1                                      # one flipped bit
    path.write_bytes(bytes(bad))
    assert advisor_cache.load(rs, tmp_path) is None
    path.write_bytes(data.replace(b'"format": 1', b'"format": 9'))
    assert advisor_cache.load(rs, tmp_path) is None   # other format version
    path.write_bytes(data)
    other = dataclasses.replace(rs, upper_bonus=30)
    assert advisor_cache.load(other, tmp_path) is None  # other ruleset, other file
    assert advisor_cache.load(rs, tmp_path) is not None


def test_loader_uses_cache(advisors, tmp_path):
    advisor_cache.save(RULESETS["yacht"], advisors["yacht"].values, tmp_path)
    loader = AdvisorLoader("yacht", cache_dir=tmp_path).start()
    adv = loader.result(timeout=30)
    assert loader.ready and loader.progress == 1.0
    assert adv.expected_start() == advisors["yacht"].expected_start()


def test_loader_rebuilds_corrupt_cache(advisors, tmp_path):
    path = advisor_cache.table_path(RULESETS["yacht"], tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(advisor_cache.MAGIC + b"{}\n" + b"\0" * 100)
    loader = AdvisorLoader("yacht", cache_dir=tmp_path).start()
    adv = loader.result(timeout=60)
    assert adv.expected_start() == pytest.approx(YACHT_OPTIMUM, abs=1e-6)
    assert advisor_cache.load(RULESETS["yacht"], tmp_path) is not None


def test_get_advisor_is_cached(advisors):
    assert get_advisor("bonanza") is advisors["bonanza"]


# ------------------------------------------------------------ command line
def test_cli_expected(advisors, capsys):
    from bonanza.client.commands import advise as cmd_advise
    assert cmd_advise.main(["--ruleset", "yacht", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"expected": advisors["yacht"].expected_start()}


def test_cli_situation(advisors, capsys):
    from bonanza.client.commands import advise as cmd_advise
    rc = cmd_advise.main(["--ruleset", "bonanza", "--filled", "ones,sixes", "--upper", "21",
                          "--dice", "3,3,3,6,6", "--rolls-left", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["boxes"][0]["box"] == "full_house"
    assert set(out) == {"expected", "boxes", "holds"} and len(out["holds"]) >= 3
    assert cmd_advise.main(["--dice", "3,3,3,6,6", "--rolls-left", "2"]) == 0
    assert "full_house" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["--filled", "ones,sevens", "--dice", "1,2,3,4,5"],
    ["--dice", "1,2,3,4,5,6"],
    ["--filled", "ones", "--upper", "7", "--dice", "1,2,3,4,5"],
    ["--bonanza-50", "--dice", "1,2,3,4,5"],
    ["--ruleset", "poker", "--json"],
])
def test_cli_errors(advisors, capsys, argv):
    from bonanza.client.commands import advise as cmd_advise
    assert cmd_advise.main(argv) != 0
    err = capsys.readouterr().err
    assert err.startswith("error:")


def test_cli_json_lines(advisors, monkeypatch, capsys):
    from bonanza.client.commands import advise as cmd_advise
    lines = [
        {"ruleset": "yacht", "filled": [], "upper": 0, "bonanza_50": False,
         "dice": [3, 3, 3, 6, 6], "rolls_left": 0},
        {"ruleset": "bonanza", "filled": ["ones"], "upper": 7, "dice": [1, 1, 1, 1, 1]},
        "not json",
        {"ruleset": "bonanza"},
    ]
    text = "\n".join(ln if isinstance(ln, str) else json.dumps(ln) for ln in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert cmd_advise.main(["--json-lines"]) == 1
    out = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert len(out) == 4
    assert out[0]["boxes"][0]["box"] == "full_house" and out[0]["holds"] == []
    assert "error" in out[1] and "error" in out[2]
    assert out[3] == {"expected": advisors["bonanza"].expected_start()}


# ------------------------------------------------------------ against the numba-built table
def _reference():
    path = os.path.join(os.path.dirname(__file__), "data", "advisor_reference.json")
    with open(path) as fh:
        return json.load(fh)["rulesets"]


@pytest.mark.parametrize("name", ["yacht", "bonanza"])
def test_table_equals_the_numba_built_reference(advisors, name):
    """Figures stored from the last numba build (tests/data/make_advisor_reference.py):
    every spot state within 1e-9, and the whole table equal once rounded to 1e-6."""
    import hashlib
    ref = _reference()[name]
    V = advisors[name].values
    assert V[0, 0, 0] == pytest.approx(ref["start"], abs=1e-9)
    for m, u, f, value in ref["spots"]:
        assert V[m, u, f] == pytest.approx(value, abs=1e-9), (m, u, f)
    layers = layer_states(RULESETS[name])
    states = np.concatenate([layers[n] for n in range(len(layers) - 2, -1, -1)])
    assert len(states) == ref["states"]
    rounded = np.round(V * 1e6).astype(np.int64).tobytes()
    assert hashlib.sha256(rounded).hexdigest() == ref["table_sha256_round6"]
