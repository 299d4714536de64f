"""Dice derivation: vectors from docs/fairness.md, uniformity, hold independence."""
import re
from collections import Counter
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bonanza.core import dice

DOC = (Path(__file__).parent.parent / "docs" / "fairness.md").read_text(encoding="utf-8")


def vector(name: str) -> str:
    m = re.search(rf"^{re.escape(name)}\s*=\s*(.+)$", DOC, re.M)
    assert m, f"vector {name!r} missing from docs/fairness.md"
    return m.group(1).strip()


def test_vectors_in_fairness_doc():
    seed = bytes.fromhex(vector("seed"))
    c0 = bytes.fromhex(vector("contribution0"))
    assert dice.commitment(seed).hex() == vector("commitment")
    key = dice.game_key(seed, [c0, None])
    assert key.hex() == vector("game_key")
    assert dice.first_seat(key, 2) == int(vector("first_seat(2)"))
    for turn, roll in [(0, 1), (0, 2), (5, 3)]:
        faces = [dice.die(key, turn, roll, p) for p in range(5)]
        assert " ".join(map(str, faces)) == vector(f"dice(turn {turn}, roll {roll})")
    assert dice.game_key(seed, []).hex() == vector("game_key(seed, no contributions)")
    dk = dice.daily_key("2026-11-29")
    assert dk.hex() == vector("daily_key(2026-11-29)")
    assert " ".join(str(dice.die(dk, 0, 1, p)) for p in range(5)) == vector("daily dice(turn 0, roll 1)")


def test_dice_are_uniform_chi_square():
    key = dice.game_key(b"chi-square", [])
    counts = Counter(dice.die(key, t, r, p) for t in range(1200) for r in (1, 2, 3) for p in range(5))
    n = sum(counts.values())
    chi2 = sum((counts[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi2 < 20.52  # 5 degrees of freedom, p = 0.001


def test_uniform_rejects_biased_bytes():
    # With n = 6 the accepted bytes are 0..251; every residue appears 42 times.
    counts = Counter(b % 6 for b in range(256 - 256 % 6))
    assert set(counts.values()) == {42}


@given(st.binary(min_size=1, max_size=40), st.integers(0, 60), st.integers(1, 3))
def test_same_inputs_same_dice(seed, turn, roll):
    key = dice.game_key(seed, [None])
    a = [dice.die(key, turn, roll, p) for p in range(5)]
    assert a == [dice.die(key, turn, roll, p) for p in range(5)]
    assert all(1 <= d <= 6 for d in a)


@given(st.integers(0, 12), st.lists(st.booleans(), min_size=5, max_size=5),
       st.lists(st.booleans(), min_size=5, max_size=5))
def test_daily_dice_do_not_depend_on_holds(turn, hold_a, hold_b):
    key = dice.daily_key("2026-11-29")
    first = dice.roll_dice(key, turn, 1, None, [False] * 5)
    a = dice.roll_dice(key, turn, 2, first, hold_a)
    b = dice.roll_dice(key, turn, 2, first, hold_b)
    for p in range(5):
        if not hold_a[p] and not hold_b[p]:
            assert a[p] == b[p]
        if hold_a[p]:
            assert a[p] == first[p]


def test_contributions_change_the_key():
    seed = b"s" * 32
    assert dice.game_key(seed, [b"a", None]) != dice.game_key(seed, [b"b", None])
    assert dice.game_key(seed, [b"ab", b""]) != dice.game_key(seed, [b"a", b"b"])


def test_reveal_check():
    assert dice.check_reveal(b"x", dice.commitment(b"x"))
    assert not dice.check_reveal(b"y", dice.commitment(b"x"))


@given(st.binary(max_size=100), st.binary(max_size=80))
def test_fast_hmac_is_standard_hmac_sha256(key, message):
    import hmac
    assert dice.hmac_sha256(key, message) == hmac.digest(key, message, "sha256")


@given(st.binary(min_size=0, max_size=80), st.integers(0, 2**32 - 1), st.integers(1, 255),
       st.none() | st.lists(st.integers(1, 6), min_size=5, max_size=5),
       st.lists(st.booleans(), min_size=5, max_size=5))
def test_roll_dice_is_die_per_free_position(key, turn, roll, previous, hold):
    """roll_dice's shortcut (shared HMAC pads, first digest byte) is ``die`` exactly."""
    want = tuple(previous[p] if previous is not None and hold[p] else dice.die(key, turn, roll, p)
                 for p in range(5))
    assert dice.roll_dice(key, turn, roll, previous, hold) == want


def test_roll_dice_rejected_first_byte_goes_the_long_way():
    key = dice.game_key(b"rejection", [])
    hits = 0
    for turn in range(400):
        for p in range(5):
            msg = dice.DIE_TAG + dice.struct.pack(">IBB", turn, 1, p) + bytes(4)
            if dice.hmac_sha256(key, msg)[0] >= 252:
                hits += 1
                assert dice.roll_dice(key, turn, 1, None, [False] * 5)[p] == dice.die(key, turn, 1, p)
    assert hits   # the case occurs in this range


def test_signature_vectors_in_fairness_doc():
    from bonanza.core import signing
    s = signing.Signer(bytes.fromhex(vector("sign_seed")))
    assert s.public.hex() == vector("sign_public")
    assert s.fingerprint == vector("fingerprint")
    chain = bytes.fromhex(vector("record_chain"))
    assert s.sign_record(chain).hex() == vector("record_sig")
    assert signing.valid(s.public, signing.record_message(chain), bytes.fromhex(vector("record_sig")))
    game = bytes.fromhex(vector("intent_game"))
    intent = signing.intent_body(7, "roll", [True, False, False, True, False])
    assert signing.intent_message(game, intent).hex() == vector("intent_msg")
    assert s.sign_intent(game, intent).hex() == vector("intent_sig")
    bad = bytearray(bytes.fromhex(vector("intent_sig")))
    bad[0] ^= 1
    assert not signing.valid(s.public, signing.intent_message(game, intent), bytes(bad))


def test_day_scheme_vectors_in_fairness_doc():
    """The relay's daily: one key per day, dice by each seat's own turn (first rolls)."""
    seed = bytes.fromhex(vector("seed"))
    key = dice.game_key(seed, [None])
    assert key.hex() == vector("day_key")
    assert dice.first_seat(key, 3) == int(vector("day_first_seat(3)"))
    for k in (0, 1, 12):
        got = " ".join(map(str, dice.roll_dice(key, k, 1, None, [False] * 5)))
        assert got == vector(f"day_dice(turn {k})")
