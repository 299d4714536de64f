"""The golden logs: every kind of log this release writes, and known forgeries of them,
verify exactly as they did when they were written, forever (docs/log-format.md,
"Golden logs").  The files are read as committed; tests/data/make_golden.py made them
and is never run here."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bonanza.core import signing
from bonanza.core.log import LogError, parse_log
from bonanza.core.verify import verify_bytes
from tests.data.make_golden import signed_kind

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
MANIFEST = json.loads((GOLDEN / "manifest.json").read_text(encoding="utf-8"))
VALID = sorted(name for name, e in MANIFEST.items() if e["ok"])


def data_of(name: str) -> bytes:
    return (GOLDEN / name).read_bytes()


def test_the_manifest_lists_every_file_and_the_corpus_stays_small():
    files = {p.name for p in GOLDEN.glob("*.bonanza")}
    assert files == set(MANIFEST)
    # one real log per kind, and its forgeries (about 440 KiB with batch signatures)
    assert sum((GOLDEN / n).stat().st_size for n in files) < 512 * 1024


def test_every_kind_of_log_and_of_forgery_is_there():
    kinds = {(e["mode"], e["scheme"], e["signed"], len(e["seats"]) > 1)
             for e in MANIFEST.values() if e["ok"]}
    assert kinds >= {
        ("solo", "commit", "self-dealt", False),          # random and seeded
        ("table", "commit", "not-signed", True),          # bonanza simulate
        ("table", "commit", "relay-signed", True),        # seat keys and bots, a give-up
        ("ranked", "commit", "relay-signed", False),
        ("daily", "day", "relay-signed", False),          # a relay's daily, alone
        ("daily", "day", "relay-signed", True),           # and at a table
        ("daily", "public", "not-signed", False),         # the offline daily
        ("practice", "commit", "self-dealt", False),      # practice with undo
        ("practice", "public", "not-signed", False),      # a past daily again, as practice
    }
    assert MANIFEST["forged-die-after-undo.bonanza"]["code"] == "dice"
    # a relay under load signs records in batches (one signature over a Merkle root, each
    # record with its proof): such a log verifies, and a proof changed does not
    assert MANIFEST["ranked-batch-signed.bonanza"]["ok"]
    assert MANIFEST["forged-batch-proof.bonanza"]["code"] == "signature"
    codes = {e["code"] for e in MANIFEST.values() if not e["ok"]}
    assert codes >= {"dice", "totals", "state_hash", "chain", "signature", "missing_reveal",
                     "truncated", "not_a_log", "trailing_data", "commitment", "time", "format"}
    # the forgeries of issue 21: a name that rewrites the terminal, a relay's daily with
    # its signatures stripped, true where a number belongs
    assert {n for n, e in MANIFEST.items() if e["code"] == "format"} >= {
        "control-code-name.bonanza", "stripped-daily-signatures.bonanza", "boolean-place.bonanza"}


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_a_golden_file_is_unchanged(name):
    # a golden log is never edited: a new format gets new files (docs/log-format.md)
    assert hashlib.sha256(data_of(name)).hexdigest() == MANIFEST[name]["sha256"], \
        f"{name} was changed; golden logs are only ever added"


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_a_golden_log_verifies_as_it_always_did(name):
    expected = MANIFEST[name]
    v = verify_bytes(data_of(name))
    assert (v.ok, v.code) == (expected["ok"], expected["code"]), v.detail
    if not v.ok:
        assert v.signed == ""
        return
    header = v.log.header
    assert header["mode"] == expected["mode"]
    assert header["dice"]["scheme"] == expected["scheme"]
    assert header["ruleset"] == expected["ruleset"]
    assert [s["name"] for s in header["seats"]] == expected["seats"]
    assert v.log.end["totals"] == expected["totals"]
    assert len(v.log.records) == expected["moves"] == len(v.states) - 1
    assert signed_kind(v.signed) == expected["signed"]
    if "relay_key" in expected:
        assert signing.fingerprint(header["signing"]["relay"]) == expected["relay_key"]
        assert v.signed.endswith("signed by relay key " + expected["relay_key"])


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_reader_reads_every_golden_log(name):
    """parse_log keeps reading every file it read (a later format must too); what it
    refuses, it refuses with the verdict's code."""
    expected = MANIFEST[name]
    if expected["parses"]:
        log = parse_log(data_of(name))
        if expected["ok"]:
            assert log.end is not None and len(log.records) == expected["moves"]
            assert log.to_bytes() == data_of(name)       # read and written back, byte for byte
    else:
        with pytest.raises(LogError) as e:
            parse_log(data_of(name))
        assert e.value.code == expected["code"]


@pytest.fixture(scope="module")
def advisors(shared_cache_dir):
    mp = pytest.MonkeyPatch()
    mp.setenv("BONANZA_CACHE_DIR", str(shared_cache_dir))
    from bonanza.core.advisor import get_advisor
    yield {name: get_advisor(name) for name in sorted({MANIFEST[n]["ruleset"] for n in VALID})}
    mp.undo()


@pytest.mark.parametrize("name", VALID)
def test_every_valid_golden_log_can_be_analysed(name, advisors):
    from bonanza.core.analysis import analyse_log
    a = analyse_log(parse_log(data_of(name)), advisors[MANIFEST[name]["ruleset"]])
    assert a.ruleset == MANIFEST[name]["ruleset"]
    assert len(a.seats) == len(MANIFEST[name]["seats"])


def _verify_command(name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bonanza.client.commands", "verify", str(GOLDEN / name)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_the_verify_command_accepts_a_signed_table_log():
    done = _verify_command("table-bots-signed.bonanza")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bonanza table game, ")
    assert "signed by relay key " + MANIFEST["table-bots-signed.bonanza"]["relay_key"] in lines[1]
    assert lines[-1].startswith("VALID: ")


def test_the_verify_command_refuses_a_forged_die():
    done = _verify_command("forged-die.bonanza")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [verify_bytes(data_of("forged-die.bonanza")).line()]
    assert done.stdout.startswith("INVALID: move ")


def test_the_verify_command_never_prints_a_control_code():
    done = _verify_command("control-code-name.bonanza")
    assert done.returncode == 1, done.stderr
    assert "\x1b" not in done.stdout and "\r" not in done.stdout
    assert done.stdout.splitlines() == [verify_bytes(data_of("control-code-name.bonanza")).line()]


def test_a_daily_table_played_in_rounds_is_in_the_corpus():
    """Seats sign their own place (round, rolls) in a log marked ``dice.rounds``; the
    older ``day`` logs (no mark, seats sign the last move seen) verify as before."""
    rounds = parse_log(data_of("daily-relay-rounds.bonanza"))
    assert rounds.header["dice"].get("rounds") is True
    intents = [r["intent"] for r in rounds.records if "intent" in r]
    assert intents and all("round" in i for i in intents)
    older = parse_log(data_of("daily-relay-table.bonanza"))
    assert "rounds" not in older.header["dice"]
    assert all("round" not in r["intent"] for r in older.records if "intent" in r)
