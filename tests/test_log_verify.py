"""The log file and ``bonanza verify``: round trips, and every kind of tampering refused."""
import copy
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.client.commands import main as cli
from bonanza.core.game import Seat, allowed
from bonanza.core.log import MAGIC, GameLog, chain_next, chain_start, pack, parse_log
from bonanza.core.match import Match
from bonanza.core.verify import verify_bytes


def finished_match(seats=2, seed=b"fixed-seed", give_up=False) -> Match:
    """A deterministic game: roll twice holding the first two dice, write the best-scoring box."""
    names = [Seat("Ana"), Seat("Bot", "bot", "casual"), Seat("Cid"), Seat("Dee")][:seats]
    m = Match.create("bonanza", names, seed, contributions=[b"c" * 32] + [None] * (seats - 1))
    while not m.state.over:
        m.roll()
        m.roll([True, True, False, False, False])
        st_ = m.state
        sheet = st_.sheets[st_.active]
        from bonanza.core.rules import points
        best = max(allowed(st_), key=lambda b: points(st_.ruleset, sheet, st_.dice, b))
        m.write(best)
        if give_up and m.state.turn == 7 and seats > 2:
            m.give_up(2, "left")
    m.finish({"duration_ms": 1234})
    return m


@pytest.fixture(scope="module")
def good() -> bytes:
    return finished_match().log.to_bytes()


def rewrite(data: bytes, edit) -> bytes:
    """Apply ``edit(header, records, end)`` and recompute every chain, as a forger would."""
    log = parse_log(data)
    header, records, end = copy.deepcopy((log.header, log.records, log.end))
    edit(header, records, end)
    header["chain"] = chain_start(header)
    prev = header["chain"]
    for i, r in enumerate(records):
        r["seq"] = i + 1
        r["chain"] = chain_next(prev, r)
        prev = r["chain"]
    if end is not None:
        end["chain"] = chain_next(prev, end)
    return MAGIC + pack(header) + b"".join(pack(r) for r in records) + (pack(end) if end else b"")


def test_round_trip_verifies(good):
    v = verify_bytes(good)
    assert v.ok, v.detail
    assert v.code == "ok" and len(v.states) == len(v.log.records) + 1
    assert v.log.end["meta"] == {"duration_ms": 1234}


def test_log_with_a_give_up_verifies():
    v = verify_bytes(finished_match(seats=4, give_up=True).log.to_bytes())
    assert v.ok, v.detail
    assert v.log.end["standings"][-1]["gave_up"] == "left"


def first_roll(records, n=0):
    return [r for r in records if r["move"]["type"] == "roll"][n]


def _die(h, r, e):
    rec = first_roll(r, 3)
    rec["move"]["dice"][2] = rec["move"]["dice"][2] % 6 + 1


def _held_die(h, r, e):  # a roll whose held die changed is illegal as well as wrong
    rec = first_roll(r, 1)
    rec["move"]["dice"][0] = rec["move"]["dice"][0] % 6 + 1


def _box(h, r, e):
    rec = next(x for x in r if x["move"]["type"] == "write")
    rec["move"]["box"] = "chance" if rec["move"]["box"] != "chance" else "ones"


def _seed(h, r, e):
    e["reveal"]["seed"] = b"another seed"


def _name(h, r, e):
    h["seats"][0]["name"] = "Mallory"


def _ruleset(h, r, e):
    h["ruleset"] = "yacht"


def _first_seat(h, r, e):
    h["first_seat"] = 1 - h["first_seat"]


def _extra(h, r, e):
    r.insert(5, copy.deepcopy(r[5]))


def _missing(h, r, e):
    del r[4]


def _totals(h, r, e):
    e["totals"][0] += 1


def _standings(h, r, e):
    e["standings"].reverse()


def _contribution(h, r, e):
    h["dice"]["contributions"][0] = b"d" * 32


@pytest.mark.parametrize("edit,codes", [
    (_die, {"dice"}), (_held_die, {"illegal_move"}), (_box, {"state_hash", "illegal_move"}),
    (_seed, {"commitment"}), (_name, {"state_hash"}), (_ruleset, {"state_hash", "illegal_move"}),
    (_first_seat, {"first_seat"}), (_extra, {"illegal_move", "state_hash", "dice"}),
    (_missing, {"illegal_move", "state_hash", "dice"}), (_totals, {"totals"}),
    (_standings, {"standings"}), (_contribution, {"first_seat", "dice"}),
])
def test_consistent_forgeries_are_caught_by_the_game_itself(good, edit, codes):
    v = verify_bytes(rewrite(good, edit))
    assert not v.ok and v.code in codes, (v.code, v.detail)


@pytest.mark.parametrize("edit", [_die, _box, _seed, _name, _extra, _missing, _totals])
def test_naive_edits_break_the_chain(good, edit):
    log = parse_log(good)
    header, records, end = copy.deepcopy((log.header, log.records, log.end))
    edit(header, records, end)
    data = MAGIC + pack(header) + b"".join(pack(r) for r in records) + pack(end)
    v = verify_bytes(data)
    assert not v.ok and v.code == "chain", v.detail


def test_truncated_and_trailing(good):
    for cut in (0, 5, len(MAGIC) + 3, len(good) // 2, len(good) - 1):
        v = verify_bytes(good[:cut])
        assert not v.ok and v.code in {"truncated", "missing_reveal", "chain"}, (cut, v.code)
    v = verify_bytes(good + pack({"kind": "move"}))
    assert not v.ok and v.code == "trailing_data"
    v = verify_bytes(b"PK\x03\x04 not a log at all")
    assert not v.ok and v.code == "not_a_log"


def test_unfinished_log_is_not_valid():
    m = finished_match()
    unfinished = GameLog(m.log.header, m.log.records[:10])
    v = verify_bytes(unfinished.to_bytes())
    assert not v.ok and v.code == "missing_reveal"


def test_non_canonical_encoding_is_refused(good):
    # the same value re-encoded with a wider integer type must not pass
    i = good.index(b"\xa7version") + len(b"\xa7version")
    assert good[i] == 1
    data = good[:i] + b"\xcd\x00\x01" + good[i + 1:]
    v = verify_bytes(data)
    assert not v.ok and v.code == "corrupt"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_flipped_byte_is_refused_cleanly(good, data):
    pos = data.draw(st.integers(0, len(good) - 1))
    flip = data.draw(st.integers(1, 255))
    bad = bytearray(good)
    bad[pos] ^= flip
    v = verify_bytes(bytes(bad))
    assert not v.ok and v.detail


def test_cli_verify_exit_codes(tmp_path, good, capsys):
    path = tmp_path / "game.bonanza"
    path.write_bytes(good)
    assert cli(["verify", str(path)]) == 0
    assert "VALID" in capsys.readouterr().out
    path.write_bytes(good[:-7])
    assert cli(["verify", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("INVALID: ")
    assert cli(["verify", str(tmp_path / "missing.bonanza")]) == 1
    assert "cannot read" in capsys.readouterr().out


def test_cli_verify_garbage_prints_one_line_no_traceback(tmp_path):
    path = tmp_path / "junk.bonanza"
    path.write_bytes(MAGIC + b"\xc1\xff\x00garbage")
    proc = subprocess.run([sys.executable, "-m", "bonanza.client.commands", "verify", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr == "" and proc.stdout.strip().startswith("INVALID:")


def test_simulate_then_verify_round_trips(tmp_path, capsys):
    pytest.importorskip("bonanza.core.bots")
    out = tmp_path / "sim.bonanza"
    assert cli(["simulate", "--players", "3", "--seed", "c0ffee", "--out", str(out),
                "--policy", "casual"]) == 0
    printed = capsys.readouterr().out
    assert "1. " in printed
    assert cli(["verify", str(out)]) == 0
    # a typed seed that is not 64 hex digits is text, hashed exactly as the window hashes it
    assert cli(["simulate", "--players", "2", "--seed", "zz", "--out", str(out)]) == 0
    assert cli(["simulate", "--players", "2", "--seed", "x" * 65, "--out", str(out)]) == 2


def test_verify_never_loads_pygame_or_the_advisor(tmp_path, good):
    path = tmp_path / "game.bonanza"
    path.write_bytes(good)
    code = ("import sys; from client.commands import main; rc = main(['verify', sys.argv[1]]); "
            "assert 'pygame' not in sys.modules and 'numba' not in sys.modules, 'heavy import'; "
            "sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


# ---------------------------------------------------------------- the exact format
@pytest.mark.parametrize("what, edit", [
    ("an unknown header field", lambda h, r, e: h.update(extra=1)),
    ("version as a bool", lambda h, r, e: h.update(version=True)),
    ("a 65-character name", lambda h, r, e: h["seats"][0].update(name="A" * 65)),
    ("a seat with an extra field", lambda h, r, e: h["seats"][0].update(rank=1)),
    ("auto as 1", lambda h, r, e: r[1]["move"].update(auto=1)),
    ("an unknown move field", lambda h, r, e: r[0]["move"].update(note="x")),
    ("an unknown record field", lambda h, r, e: r[0].update(note="x")),
    ("a long seed text", lambda h, r, e: h["meta"].update(seed_text="s" * 5000)),
    ("a huge meta", lambda h, r, e: h["meta"].update({f"k{i}": i for i in range(40)})),
    ("a time as text", lambda h, r, e: e["meta"].update(duration_ms="fast")),
    ("a negative time", lambda h, r, e: e["meta"].update(duration_ms=-5)),
    ("turn seconds as 31", lambda h, r, e: h["settings"].update(turn_seconds=31)),
    ("a standing with an extra field", lambda h, r, e: e["standings"][0].update(prize=1)),
    ("a person with a bot's policy", lambda h, r, e: h["seats"][0].update(policy="casual")),
    ("a daily under bonanza rules", lambda h, r, e: h.update(mode="daily", ruleset="bonanza")),
    ("a table on a date's public key",
     lambda h, r, e: h.update(dice={"scheme": "public", "date": "2026-01-01"})),
])
def test_anything_the_format_does_not_allow_is_refused(good, what, edit):
    v = verify_bytes(rewrite(good, edit))
    assert not v.ok and v.code == "format", (what, v.code, v.detail)
    assert len(v.detail) < 200 and "None" not in v.detail and "Traceback" not in v.detail


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_field_changes_never_raise(good, data):
    """Any value in any field: a verdict, never an exception."""
    values = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(),
                       st.text(max_size=80), st.binary(max_size=80),
                       st.lists(st.integers(0, 7), max_size=6),
                       st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))

    def edit(h, r, e):
        target = data.draw(st.sampled_from(["header", "move", "record", "end"]))
        if target == "header":
            obj = h
        elif target == "end":
            obj = e
        else:
            rec = r[data.draw(st.integers(0, len(r) - 1))]
            obj = rec["move"] if target == "move" else rec
        key = data.draw(st.sampled_from(sorted(obj) + ["extra"]))
        if key != "chain":
            obj[key] = data.draw(values)
    try:
        changed = rewrite(good, edit)
    except Exception:
        return          # the edit itself could not be written (e.g. a float as a map key)
    v = verify_bytes(changed)
    assert isinstance(v.ok, bool) and v.detail


def test_verify_to_a_closed_pipe_ends_quietly(tmp_path, good):
    path = tmp_path / "game.bonanza"
    path.write_bytes(good)
    proc = subprocess.run(f"{sys.executable} -m client.commands verify -v {path} | head -1",
                          shell=True, capture_output=True, text=True, timeout=60)
    assert proc.stderr == "" and proc.stdout.count("\n") == 1
