"""A verifier that says everything and hides nothing (issue 21, build point 4).

Text that is not drawn as itself is refused wherever a log holds text; a relay's daily
must be signed; true/false is not a number; no Python exception text reaches a verdict
whatever a log holds; ``--relay`` pins the signing key and ``--json`` says every fact.
"""
from __future__ import annotations

import builtins
import copy
import json
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.client.commands import main as cli
from bonanza.core.log import MAGIC, chain_next, chain_start, pack, parse_log
from bonanza.core.names import unprintable
from bonanza.core.verify import facts, verify_bytes

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
RELAY = "9cd2 807e 57f8 88cb"          # the golden relay's key (tests/data/make_golden.py)
BASES = ("table-simulated", "table-give-up-signed", "ranked", "daily-relay-solo",
         "daily-offline", "solo-give-up")

# every exception class a verdict could leak: Python's own and msgpack's
EXCEPTION_NAMES = sorted(
    {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}
    | {n for n, v in vars(msgpack).items() if isinstance(v, type) and issubclass(v, BaseException)}
    | {"Traceback", "unhashable", "object is not", "not subscriptable", "has no attribute"})


def golden(name: str) -> bytes:
    return (GOLDEN / f"{name}.bonanza").read_bytes()


def rewrite(data: bytes, edit) -> bytes:
    """``edit(header, records, end)`` applied, every chain recomputed (signatures kept)."""
    log = parse_log(data)
    header, records, end = copy.deepcopy((log.header, log.records, log.end))
    edit(header, records, end)
    header["chain"] = prev = chain_start(header)
    for r in records:
        r["chain"] = prev = chain_next(prev, r)
    end["chain"] = chain_next(prev, end)
    return MAGIC + pack(header) + b"".join(pack(r) for r in records) + pack(end)


def assert_honest(v) -> None:
    assert not v.ok and v.detail and v.signed == ""
    leaked = [n for n in EXCEPTION_NAMES if n in v.detail]
    assert not leaked, (leaked, v.detail)
    assert unprintable(v.detail) is None, v.detail
    assert len(v.detail) < 300


# ---------------------------------------------------------------- text drawn as itself
@pytest.mark.parametrize("bad", ["Ada\x1b[1A\x1b[2K", "Ana\nVALID", "x\u202ey", "Sly\u034f",
                                 "Sly\u3164", "\u200b", "   ", "a\u2066b", "\x00"])
@pytest.mark.parametrize("where", ["seat", "standing"])
def test_a_name_that_is_not_drawn_as_itself_is_refused(bad, where):
    def edit(h, r, e):
        if where == "seat":
            h["seats"][0]["name"] = bad
        else:
            e["standings"][0]["name"] = bad
    v = verify_bytes(rewrite(golden("table-simulated"), edit))
    assert v.code == "format", v.detail
    assert_honest(v)


@pytest.mark.parametrize("edit", [
    lambda h, r, e: h["meta"].update(note="ok\x1b[2K"),
    lambda h, r, e: e["meta"].update(note="\u202eevil"),
    lambda h, r, e: h["meta"].update({"k\n": 1}),
    lambda h, r, e: h["dice"].update(date="2024-06-0\n"),
    lambda h, r, e: e["reveal"].update(date="2024\u20136-01"),
])
def test_text_anywhere_in_a_log_is_refused_when_it_is_not_drawn_as_itself(edit):
    v = verify_bytes(rewrite(golden("daily-offline"), edit))
    assert v.code == "format", v.detail
    assert_honest(v)


# ---------------------------------------------------------------- the day scheme is a relay's
def test_a_relays_daily_with_its_signatures_stripped_does_not_verify():
    def strip(h, r, e):
        del h["signing"]
        for rec in r:
            rec.pop("sig", None)
            rec.pop("intent", None)
        e.pop("sig", None)
    v = verify_bytes(rewrite(golden("daily-relay-solo"), strip))
    assert v.code == "format" and "signed by its relay" in v.detail
    assert verify_bytes(golden("daily-relay-solo")).ok


# ---------------------------------------------------------------- true/false is not a number
def _set_intent_hold(h, r, e):
    rec = next(x for x in r if x.get("intent", {}).get("type") == "roll")
    rec["intent"]["hold"] = [int(b) for b in rec["intent"]["hold"]]


@pytest.mark.parametrize("base, edit", [
    ("table-simulated", lambda h, r, e: e["standings"][0].update(place=True)),
    ("table-simulated", lambda h, r, e: e["standings"][1].update(seat=True)),
    ("table-simulated", lambda h, r, e: e["standings"][0].update(total=float(e["standings"][0]["total"]))),
    ("table-simulated", lambda h, r, e: r[0]["move"].update(seat=False)),
    ("table-simulated", lambda h, r, e: r[1]["move"].update(hold=[int(x) for x in r[1]["move"]["hold"]])),
    ("table-simulated", lambda h, r, e: h.update(first_seat=bool(h["first_seat"]))),
    ("table-give-up-signed", _set_intent_hold),
    ("table-give-up-signed", lambda h, r, e: r[0]["intent"].update(seq=False)),
    ("ranked", lambda h, r, e: h["meta"].update(attempt=True) or h["settings"].update(hints=0)),
])
def test_true_and_false_are_not_numbers(base, edit):
    v = verify_bytes(rewrite(golden(base), edit))
    assert v.code == "format", v.detail
    assert_honest(v)


@pytest.mark.parametrize("value", [["roll"], {"a": 1}, 1, None, b"roll", True])
def test_a_move_type_that_is_no_word_is_a_format_refusal(value):
    v = verify_bytes(rewrite(golden("table-simulated"), lambda h, r, e: r[2]["move"].update(type=value)))
    assert v.code == "format", v.detail
    assert_honest(v)


# ---------------------------------------------------------------- no exception text, ever
_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.floats(),
                  st.text(max_size=30), st.binary(max_size=70),
                  st.sampled_from(["roll", "write", "give_up", "human", "bot", "commit", "day",
                                   "public", "yacht", "bonanza", "chance", "left", "\x1b[2K"]))
_value = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _containers(obj, out):
    """Every map and list inside ``obj`` (itself included)."""
    if isinstance(obj, (dict, list)):
        out.append(obj)
        for v in (obj.values() if isinstance(obj, dict) else obj):
            _containers(v, out)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edits_of_valid_logs_never_leak_exception_text(data):
    base = golden(data.draw(st.sampled_from(BASES)))

    def edit(h, r, e):
        for _ in range(data.draw(st.integers(1, 3))):
            record = data.draw(st.sampled_from(["header", "end", *(["record"] * 3)]))
            top = h if record == "header" else e if record == "end" else \
                r[data.draw(st.integers(0, len(r) - 1))]
            target = data.draw(st.sampled_from(_containers(top, [])))
            if isinstance(target, list):
                if not target:
                    target.append(data.draw(_value))
                    continue
                i = data.draw(st.integers(0, len(target) - 1))
                action = data.draw(st.sampled_from(["set", "del", "add"]))
                if action == "set":
                    target[i] = data.draw(_value)
                elif action == "del":
                    del target[i]
                else:
                    target.insert(i, data.draw(_value))
            else:
                key = data.draw(st.sampled_from(sorted(target) + ["extra"]))
                if key == "chain" and target is top:
                    continue
                if data.draw(st.booleans()) or key not in target:
                    target[key] = data.draw(_value)
                else:
                    del target[key]
    try:
        changed = rewrite(base, edit)
    except Exception:
        return          # the edit itself could not be written (a float or bytes as a key)
    v = verify_bytes(changed)
    if v.ok:            # an edit that changed nothing the game depends on (e.g. meta)
        return
    assert_honest(v)


def test_a_broken_msgpack_record_says_where_not_what_msgpack_said():
    data = golden("solo-give-up")
    v = verify_bytes(data[:len(MAGIC)] + b"\xc1" + data[len(MAGIC) + 1:])
    assert v.code == "corrupt"
    assert_honest(v)


# ---------------------------------------------------------------- the command
def test_verify_relay_pins_the_signing_key(capsys):
    path = str(GOLDEN / "ranked.bonanza")
    assert cli(["verify", "--relay", RELAY.upper().replace(" ", ""), path]) == 0
    capsys.readouterr()
    assert cli(["verify", "--relay", "0000 0000 0000 0000", path]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [f"INVALID: the log is signed by relay key {RELAY}, not by 0000 0000 0000 0000"]
    assert cli(["verify", "--relay", RELAY, str(GOLDEN / "table-simulated.bonanza")]) == 1
    assert "not signed" in capsys.readouterr().out


def test_a_log_resigned_by_another_key_is_valid_only_without_relay():
    from bonanza.core import signing
    from tests.data.make_golden import rewrite as forge
    other = signing.Signer(b"\x07" * 32)

    def rekey(h):     # the relay's key replaced; Rita's requests (signed for the old
        h["signing"] = {"relay": other.public, "seats": [None]}   # game) left out
    data = forge(golden("ranked"), header=rekey, record=lambda rec: rec.pop("intent"),
                 relay=other)
    assert verify_bytes(data).ok
    v = verify_bytes(data, relay=RELAY)
    assert not v.ok and v.code == "signature" and other.fingerprint in v.detail


def test_verify_json_says_every_fact(capsys):
    assert cli(["verify", "--json", str(GOLDEN / "ranked.bonanza")]) == 0
    f = json.loads(capsys.readouterr().out)
    assert f["verdict"] == "VALID" and f["code"] == "ok"
    assert f["signers"]["relay"] == RELAY
    assert f["signers"]["seats"][0]["name"] == "Rita" and f["signers"]["seats"][0]["key"]
    assert (f["mode"], f["ruleset"], f["hints"], f["attempt"]) == ("ranked", "bonanza", False, 1)
    assert f["time_ms"] == 114750 and f["time_proven"] is True
    assert f["standings"] == [{"place": 1, "name": "Rita", "total": 314, "gave_up": None}]
    assert cli(["verify", "--json", str(GOLDEN / "table-give-up-signed.bonanza")]) == 0
    f = json.loads(capsys.readouterr().out)
    assert [s["gave_up"] for s in f["standings"]] == [None, "left", "gave_up"]
    assert f["time_ms"] is None and f["date"] is None and f["hints"] is None
    assert cli(["verify", "--json", str(GOLDEN / "daily-offline.bonanza")]) == 0
    f = json.loads(capsys.readouterr().out)
    assert f["date"] == "2024-06-01" and f["time_proven"] is False and f["signers"]["relay"] is None
    assert cli(["verify", "--json", str(GOLDEN / "boolean-place.bonanza")]) == 1
    f = json.loads(capsys.readouterr().out)
    assert set(f) == {"verdict", "code", "detail"} and f["code"] == "format"


def test_the_plain_output_says_the_same_facts_in_two_lines():
    done = subprocess.run([sys.executable, "-m", "bonanza.client.commands", "verify",
                           str(GOLDEN / "ranked.bonanza")], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 3, done.stdout
    assert "time 1:54.750 (by the relay's clock, signed)" in lines[0]
    assert "no hints" in lines[0] and "attempt 1" in lines[0] and "1. Rita 314" in lines[0]
    assert lines[1].endswith("signed by relay key " + RELAY)
    assert lines[2].startswith("VALID: ")


def test_facts_of_an_invalid_log_vouch_for_nothing_else():
    v = verify_bytes(golden("forged-die"))
    assert set(facts(v)) == {"verdict", "code", "detail"}


def test_the_fingerprint_vector_in_the_rules_doc():
    import re

    from bonanza.core import signing
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    key = re.search(r"^fingerprint_key = ([0-9a-f]{64})$", doc, re.M).group(1)
    shown = re.search(r"^fingerprint_of_key = (.+)$", doc, re.M).group(1)
    assert signing.fingerprint(bytes.fromhex(key)) == shown == RELAY
