"""docs/rules.md against the code: every vector in it (scores, joker, totals, rulesets,
legality, standings, canonical states and hashes, reason codes), so the doc cannot drift."""
import hashlib
import json
import re
from pathlib import Path

import msgpack
import pytest

from bonanza.core import dice
from bonanza.core.game import GameState, Seat, Setup, check, check_write, new_game, standings
from bonanza.core.match import Replay, dice_refusal
from bonanza.core.rules import RULESETS, Sheet, allowed_boxes, write

ROOT = Path(__file__).parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def vector(name: str) -> str:
    m = re.search(rf"^{re.escape(name)}\s*=\s*(.+)$", DOC, re.M)
    assert m, f"vector {name!r} missing from docs/rules.md"
    return m.group(1).strip()


def lines(prefix: str) -> list[str]:
    """Every vector line that starts with ``prefix(``."""
    found = [ln.strip() for ln in DOC.splitlines() if ln.startswith(prefix + "(")]
    assert found, f"no {prefix}(...) vectors in docs/rules.md"
    return found


def rulesets(name: str):
    return [RULESETS["bonanza"], RULESETS["yacht"]] if name == "both" else [RULESETS[name]]


RS = r"(both|bonanza|yacht|yatzy)"
ONE_RS = r"(bonanza|yacht|yatzy)"


def faces(text: str) -> tuple[int, ...]:
    d = tuple(int(x) for x in text.split())
    assert len(d) == 5
    return d


def sheet(text: str, rs=RULESETS["bonanza"]) -> Sheet:
    """``{box: n, ..., extra: n}`` as a sheet of ``rs``."""
    inner = text.strip()[1:-1].strip()
    scores: list = [None] * len(rs.boxes)
    extra = 0
    for part in filter(None, (p.strip() for p in inner.split(","))):
        key, value = (s.strip() for s in part.split(":"))
        if key == "extra":
            extra = int(value)
        else:
            scores[rs.boxes.index(key)] = int(value)
    return Sheet(tuple(scores), extra, rs.layout)


SHEET = r"(\{[^}]*\})"
DICE = r"([1-6](?: [1-6]){4})"


# ---------------------------------------------------------------- scoring

def test_score_vectors_on_an_empty_sheet():
    seen: dict[str, set] = {name: set() for name in RULESETS}
    for ln in lines("score"):
        m = re.fullmatch(rf"score\({RS}, {DICE}, (\w+)\) = (\d+)", ln)
        assert m, ln
        for rs in rulesets(m[1]):
            d, box = faces(m[2]), m[3]
            assert box in allowed_boxes(rs, rs.empty_sheet(), d), ln
            after = write(rs, rs.empty_sheet(), d, box)
            assert after.get(box) == int(m[4]), ln
            assert after.extra_bonus == 0, ln
            seen[rs.name].add(box)
    for name, rs in RULESETS.items():
        assert seen[name] == set(rs.boxes), f"every {name} box has a score vector"


def test_total_vectors():
    for ln in lines("total"):
        m = re.fullmatch(rf"total\({RS}, {SHEET}\) = (\d+)", ln)
        assert m, ln
        for rs in rulesets(m[1]):
            assert sheet(m[2], rs).total(rs) == int(m[3]), ln


def test_allowed_vectors():
    for ln in lines("allowed"):
        m = re.fullmatch(rf"allowed\({ONE_RS}, {SHEET}, {DICE}\) = ([\w ]+)", ln)
        assert m, ln
        rs = RULESETS[m[1]]
        assert allowed_boxes(rs, sheet(m[2], rs), faces(m[3])) == tuple(m[4].split()), ln


def test_write_vectors():
    for ln in lines("write"):
        m = re.fullmatch(rf"write\({ONE_RS}, {SHEET}, {DICE}, (\w+)\) = (\d+) \+(\d+)", ln)
        assert m, ln
        rs = RULESETS[m[1]]
        before = sheet(m[2], rs)
        after = write(rs, before, faces(m[3]), m[4])
        assert after.get(m[4]) == int(m[5]), ln
        assert after.extra_bonus - before.extra_bonus == int(m[6]), ln
        # nothing else on the sheet changed
        assert [s for b, s in zip(rs.boxes, after.scores) if b != m[4]] == \
               [s for b, s in zip(rs.boxes, before.scores) if b != m[4]], ln


def test_check_write_vectors():
    for ln in lines("check_write"):
        m = re.fullmatch(rf"check_write\({ONE_RS}, {SHEET}, {DICE}, (\w+)\) = (\w+)(?:: (.+))?",
                         ln)
        assert m, ln
        setup = Setup(m[1], (Seat("S"),), 0)
        state = GameState(setup, (sheet(m[2], RULESETS[m[1]]),), active=0, rolls=1,
                          dice=faces(m[3]))
        refusal = check_write(state, 0, m[4])
        if m[5] == "ok":
            assert refusal is None, ln
        else:
            assert refusal is not None and refusal.code == m[5], ln
            if m[6]:
                assert refusal.message == m[6], ln


def test_ruleset_vectors():
    for name, rs in RULESETS.items():
        want = f"joker {'true' if rs.joker else 'false'}, extra_bonus {rs.extra_bonus}, " \
               f"upper_bonus {rs.upper_bonus}, upper_threshold {rs.upper_threshold}"
        assert vector(f"ruleset({name})") == want
    assert len(lines("ruleset")) == len(RULESETS)


# ---------------------------------------------------------------- example games

def example(name: str):
    """(setup, key, moves) of example ``name``, from its vectors."""
    seed = bytes.fromhex(vector(f"{name}.seed"))
    scheme = vector(f"{name}.scheme")
    if scheme == "day":          # one key for the day: one empty contribution
        contributions = [None]
    else:
        assert scheme == "commit"
        contributions = [None if c.strip() == "nil" else bytes.fromhex(c.strip())
                         for c in vector(f"{name}.contributions").split(",")]
    key = dice.game_key(seed, contributions)
    assert key.hex() == vector(f"{name}.key")
    seats = tuple(Seat(n, k, p) for n, k, p in json.loads(vector(f"{name}.seats")))
    assert dice.first_seat(key, len(seats)) == int(vector(f"{name}.first_seat"))
    setup = Setup(vector(f"{name}.ruleset"), seats, int(vector(f"{name}.first_seat")))
    moves = []
    while re.search(rf"^{name}\.move {len(moves) + 1}\s*=", DOC, re.M):
        moves.append(json.loads(vector(f"{name}.move {len(moves) + 1}")))
    assert moves
    return setup, key, moves, scheme == "day"


def states_of(name: str) -> tuple[list[GameState], bytes, bool]:
    setup, key, moves, per_seat = example(name)
    replay = Replay(setup, key, per_seat=per_seat)
    states = [replay.state]
    for i, move in enumerate(moves, 1):
        assert replay.accept(move) is None, f"{name}.move {i} is refused"
        states.append(replay.state)
    return states, key, per_seat


def parse_standings(text: str) -> list[tuple[int, int, str | None]]:
    out = []
    for part in text.split(","):
        m = re.fullmatch(r"seat(\d) (\d)(?: (\w+))?", part.strip())
        assert m, text
        out.append((int(m[1]), int(m[2]), m[3]))
    return out


EXAMPLES = ["A", "B", "C"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_game_states_and_hashes(name):
    states, _, _ = states_of(name)
    final = states[-1]
    checked = 0
    for seq, state in enumerate(states):
        packed = msgpack.packb(state.canonical())
        assert hashlib.sha256(packed).digest()[:16] == state.state_hash()
        if re.search(rf"^{name}\.state {seq}\s*=", DOC, re.M):
            assert packed.hex() == vector(f"{name}.state {seq}"), f"{name}.state {seq}"
            checked += 1
        assert state.state_hash().hex() == vector(f"{name}.hash {seq}"), f"{name}.hash {seq}"
    assert checked >= 1
    if not re.search(rf"^{name}\.standings\s*=", DOC, re.M):
        return
    assert final.over
    totals = [final.total(i) for i in range(len(final.setup.seats))]
    assert vector(f"{name}.totals") == " ".join(map(str, totals))
    assert [(s.seat, s.place, s.gave_up) for s in standings(final)] == \
        parse_standings(vector(f"{name}.standings"))


def test_worked_example_bytes_and_sha256():
    m = re.search(r"^# bytes of (\w)\.state (\d+)\n(.*?)^```", DOC, re.M | re.S)
    assert m, "the byte-by-byte example is missing"
    name, seq = m[1], int(m[2])
    joined = "".join(ln.split("|")[0].replace(" ", "") for ln in m[3].splitlines())
    assert joined == vector(f"{name}.state {seq}")
    states, _, _ = states_of(name)
    packed = msgpack.packb(states[seq].canonical())
    assert packed.hex() == joined
    assert f"\n{len(packed)} bytes;" in DOC
    digest = hashlib.sha256(packed).hexdigest()
    assert vector(f"{name}.sha256 {seq}") == digest
    assert digest[:32] == vector(f"{name}.hash {seq}")


def test_msgpack_integer_examples():
    assert msgpack.packb(150).hex() == "cc96" and "`150` = `cc 96`" in DOC
    assert msgpack.packb(300).hex() == "cd012c" and "`300` = `cd 01 2c`" in DOC


# ---------------------------------------------------------------- legality

def test_check_vectors():
    cache = {n: states_of(n) for n in EXAMPLES}
    for ln in lines("check"):
        m = re.fullmatch(r"check\((\w) after (\d+), (\{.*\})\) = (\w+)", ln)
        assert m, ln
        states, key, per_seat = cache[m[1]]
        state, move = states[int(m[2])], json.loads(m[3])
        refusal = check(state, move)
        if refusal is None and move.get("type") == "roll":
            refusal = dice_refusal(state, key, move, per_seat)
        assert (refusal.code if refusal else "ok") == m[4], ln


def _code_strings(path: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, (ROOT / path).read_text(encoding="utf-8")))


def test_refusal_codes_listed_are_the_codes():
    codes = _code_strings("core/game.py", r'_refuse\("(\w+)"') | \
        _code_strings("core/match.py", r'Refusal\("(\w+)"') | \
        _code_strings("core/undo.py", r'Refusal\("(\w+)"')
    assert set(vector("refusal codes").split()) == codes
    for code in codes:
        assert f"`{code}`" in DOC


def test_verify_codes_listed_are_the_codes():
    codes = (_code_strings("core/log.py", r'LogError\("(\w+)"')
             | _code_strings("core/verify.py", r'_fail\("(\w+)"')
             | _code_strings("core/verify.py", r'Verdict\(False, "(\w+)"')) - {"ok"}
    assert set(vector("verify codes").split()) == codes
    section = DOC.split("## 10.")[1]
    for code in codes:
        assert f"`{code}`" in section


# ---------------------------------------------------------------- standings

def test_standings_vectors():
    for ln in lines("standings"):
        m = re.fullmatch(r"standings\(([\d ]+)(?:; ([^)]*))?\) = (.+)", ln)
        assert m, ln
        totals = [int(t) for t in m[1].split()]
        gave_up = tuple((int(s), why) for s, why in
                        (p.split() for p in (m[2] or "").split(",") if p.strip()))
        setup = Setup("bonanza", tuple(Seat(f"S{i}") for i in range(len(totals))), 0)
        # a sheet with no box filled totals its extra bonus: any total, for the ordering
        state = GameState(setup, tuple(Sheet(extra_bonus=t) for t in totals), active=None,
                          gave_up=gave_up)
        got = standings(state)
        assert [s.total for s in got] == [totals[s.seat] for s in got]
        assert [(s.seat, s.place, s.gave_up) for s in got] == parse_standings(m[3]), ln


def test_a_new_game_is_state_zero():
    setup, _, _, _ = example("B")
    assert msgpack.packb(new_game(setup).canonical()).hex() == vector("B.state 0")
