"""Check a finished game from its log alone: commitments, dice, moves, hashes, totals.

A verdict is for a person: its detail never carries a Python exception's text (a log
nobody vouches for decides what goes wrong, so the reason is said in words), and every
name in it is escaped (``core.names.escaped``) even though the format refuses names
that are not drawn as themselves.  ``facts`` is everything a verdict vouches for, in one
map (``bonanza verify --json``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import dice as dice_mod
from . import signing
from .game import GameState, standings
from .log import GameLog, LogError, game_key_from, parse_log, setup_from_header
from .logschema import FormatError, check_log
from .match import Replay
from .names import escaped
from .records import EndRecord, Intent, Move, VerifyCode
from .rounds import signed_point
from .splits import splits, tool_assisted
from .undo import UNDO_MODES, taken_back


@dataclass
class Verdict:
    ok: bool
    code: VerifyCode          # "ok" or a ``LogError`` code
    detail: str               # one line for a person
    log: GameLog | None = None
    states: list[GameState] = field(default_factory=list)
    signed: str = ""          # who signed what, for a person ("" when the log is invalid)

    def line(self) -> str:
        return ("VALID: " if self.ok else "INVALID: ") + self.detail


def _fail(code: VerifyCode, detail: str) -> LogError:
    return LogError(code, detail)


def _check_dice_header(log: GameLog, end: EndRecord) -> bytes:
    """The game key, after checking the reveal against the commitment."""
    dice = log.header.get("dice")
    if not isinstance(dice, dict) or dice.get("scheme") not in ("commit", "public", "day"):
        raise _fail("corrupt", "the header does not say how the dice were made")
    reveal = end.get("reveal") if isinstance(end.get("reveal"), dict) else {}
    if dice["scheme"] == "public":
        if not isinstance(dice.get("date"), str) or reveal.get("date") != dice["date"]:
            raise _fail("commitment", "the daily date in the reveal does not match the header")
        try:
            return dice_mod.daily_key(dice["date"])
        except UnicodeEncodeError:
            raise _fail("corrupt", "the daily date is not a date")
    seed, commit = reveal.get("seed"), dice.get("commit")
    contributions = dice.get("contributions")
    if not isinstance(seed, bytes) or not isinstance(commit, bytes):
        raise _fail("missing_reveal", "the seed was not revealed")
    if not dice_mod.check_reveal(seed, commit):
        raise _fail("commitment", "the revealed seed does not match the fingerprint shown at the start")
    if dice["scheme"] == "day":
        return game_key_from(dice, reveal)
    if (not isinstance(contributions, list) or len(contributions) != len(log.header["seats"])
            or any(c is not None and not isinstance(c, bytes) for c in contributions)):
        raise _fail("corrupt", "the seats' dice contributions are malformed")
    return game_key_from(dice, reveal)


def verify_log(log: GameLog) -> Verdict:
    try:
        check_log(log)
    except FormatError as e:
        raise _fail("format", str(e))
    try:
        setup = setup_from_header(log.header)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise _fail("corrupt", "the header does not describe a game this verifier can set up")
    if log.end is None:
        raise _fail("missing_reveal", "the game has no end record: it is unfinished or cut off")
    key = _check_dice_header(log, log.end)
    if dice_mod.first_seat(key, len(setup.seats)) != setup.first_seat:
        raise _fail("first_seat", "the starting seat does not follow from the dice key")
    # The logged moves go through the same fold as a live game's (core.match): legality
    # first, then the dice against the revealed key, then the state hash.
    replay = Replay(setup, key, per_seat=log.header["dice"].get("scheme") == "day",
                    undo=log.header["mode"] in UNDO_MODES)
    states = [replay.state]
    for rec in log.records:
        move, seq = rec.get("move"), rec["seq"]
        refusal = replay.accept(move)
        if refusal is not None:
            if refusal.code == "wrong_dice":
                raise _fail("dice", f"move {seq}: {refusal.message}")
            raise _fail("illegal_move", f"move {seq} is illegal: {refusal.message}")
        state = replay.state
        if rec.get("state") != state.state_hash():
            raise _fail("state_hash", f"move {seq}: the state hash does not match the replay")
        states.append(state)
    final = states[-1]
    end = log.end
    if end.get("seq") != final.seq:
        raise _fail("corrupt", "the end record names the wrong last move")
    totals = [final.total(i) for i in range(len(setup.seats))]
    if end.get("totals") != totals:
        raise _fail("totals", f"the totals {end.get('totals')} should be {totals}")
    if not final.over:
        raise _fail("missing_reveal", "the game ended before it was over")
    expected_standings = [s.to_dict() for s in standings(final)]
    if end.get("standings") != expected_standings:
        raise _fail("standings", "the final standings do not follow from the game")
    records = log.records
    if log.header["mode"] == "ranked" or (records and "at" in records[0]):
        # the run's time is its last record's stamp: the relay's clock in a ranked run,
        # the player's machine's in a stamped local run (the format checked they never go back)
        last = records[-1]["at"] if records else 0
        if (end.get("meta") or {}).get("duration_ms") != last:
            whose = "the relay's" if log.header["mode"] == "ranked" else "the last move's"
            raise _fail("time", f"the run's time {(end.get('meta') or {}).get('duration_ms')} "
                                f"ms is not {whose} {last} ms")
    signed = _check_signatures(log, end, states)
    summary = ", ".join(f"{s['place']}. {escaped(s['name'])} {s['total']}"
                        for s in expected_standings)
    return Verdict(True, "ok", f"every die, move and total checks out ({summary})", log, states,
                   signed)


def _made_by_seat(move: Move) -> bool:
    """A move the seat asked for itself (not the clock's, not the relay's for a seat that
    left or went away): the moves a seat's key must sign."""
    if move.get("auto"):
        return False
    return move["type"] in ("roll", "write") or move.get("why", "gave_up") == "gave_up"


def _intent_of(move: Move, seq_before: int, before: GameState, rounds: bool) -> Intent:
    """The request a seat signed for ``move``: the last move it saw, or — at a daily
    table played in rounds — its own place (``core.rounds.signed_point``)."""
    if rounds:
        return signing.round_intent_body(signed_point(before, move["seat"]), move["type"],
                                         move.get("hold"), move.get("box"))
    return signing.intent_body(seq_before, move["type"], move.get("hold"), move.get("box"))


def _check_signatures(log: GameLog, end: EndRecord, states: list[GameState]) -> str:
    """Every signature of a relay's log, or that an unsigned log carries none; the
    sentence a person reads about who signed what."""
    header = log.header
    seats = header["seats"]
    names = [escaped(s["name"]) for s in seats]
    sig_info = header.get("signing")
    if sig_info is None:
        for rec in log.records:
            if "sig" in rec or "intent" in rec or "batch" in rec:
                raise _fail("signature", f"move {rec['seq']} is signed but the header names no keys")
        if "sig" in end:
            raise _fail("signature", "the end is signed but the header names no keys")
        if header.get("mode") == "solo" or (header.get("mode") == "practice"
                                            and header["dice"].get("scheme") == "commit"):
            return "self-dealt: the player's own program dealt the dice; nothing is signed"
        return "not signed: nothing proves who made the moves or dealt the dice"
    relay = sig_info.get("relay") if isinstance(sig_info, dict) else None
    keys = sig_info.get("seats") if isinstance(sig_info, dict) else None
    if (not isinstance(relay, bytes) or len(relay) != signing.KEY_BYTES
            or not isinstance(keys, list) or len(keys) != len(seats)
            or any(k is not None and (not isinstance(k, bytes) or len(k) != signing.KEY_BYTES)
                   for k in keys)):
        raise _fail("corrupt", "the header's signing keys are malformed")
    for i, k in enumerate(keys):
        if k is not None and seats[i].get("kind") == "bot":
            raise _fail("signature", f"the bot {names[i]} has a player's key")
    game_id = header["chain"]
    dice = header["dice"]
    rounds = dice["scheme"] == "day" and dice.get("rounds") is True
    for i, rec in enumerate(log.records):
        seq, move = rec["seq"], rec["move"]
        if not signing.record_signed(relay, rec):
            raise _fail("signature", f"move {seq} is not signed by the relay's key")
        key = keys[move["seat"]]
        intent = rec.get("intent")
        if key is None or not _made_by_seat(move):
            if intent is not None:
                raise _fail("signature", f"move {seq} carries an intent nobody signs")
            continue
        who = names[move["seat"]]
        if not isinstance(intent, dict):
            raise _fail("signature", f"move {seq}: {who}'s signed request is missing")
        if {k: v for k, v in intent.items() if k != "sig"} != _intent_of(move, seq - 1, states[i],
                                                                          rounds):
            raise _fail("signature", f"move {seq} is not what {who} asked for")
        if not signing.valid(key, signing.intent_message(game_id, intent), intent.get("sig")):
            raise _fail("signature", f"move {seq}: {who}'s signature does not match")
    if not signing.valid(relay, signing.record_message(end["chain"]), end.get("sig")):
        raise _fail("signature", "the end of the game is not signed by the relay's key")
    parts = []
    for i, k in enumerate(keys):
        if k is not None:
            parts.append(f"moves of {names[i]} signed by {names[i]}'s key {signing.fingerprint(k)}")
        else:
            parts.append(f"moves of {names[i]} made by the relay")
    return "; ".join(parts) + f"; dice dealt and every record signed by relay key " \
                              f"{signing.fingerprint(relay)}"


def verify_bytes(data: bytes, relay: str | None = None) -> Verdict:
    """Never raises for bad input: every problem becomes a failed Verdict.  With ``relay``
    (a key's fingerprint, ``signing.fingerprint``) a log not signed by that key fails
    with the code ``signature``, however valid it is otherwise."""
    log = None
    try:
        log = parse_log(data)
        verdict = verify_log(log)
    except LogError as e:
        return Verdict(False, e.code, e.detail, log)
    except Exception:
        # a hole in the format check: the verdict still says no, in words, and never
        # hands a hostile file's exception text to a screen or a terminal
        return Verdict(False, "corrupt", "the log holds something this verifier cannot read "
                                         "as a game", log)
    if relay is not None:
        return expect_relay(verdict, relay)
    return verdict


def same_fingerprint(a: str, b: str) -> bool:
    """Two fingerprints as people type them: spaces and case do not count."""
    return "".join(a.split()).lower() == "".join(b.split()).lower()


def expect_relay(verdict: Verdict, relay: str) -> Verdict:
    """``verdict``, or a failed one when the log is not signed by the key ``relay``."""
    if not verdict.ok or verdict.log is None:
        return verdict
    signer = relay_fingerprint(verdict.log)
    if signer is None:
        return Verdict(False, "signature", f"the log is not signed; relay key "
                       f"{escaped(relay.strip())} was expected", verdict.log)
    if not same_fingerprint(signer, relay):
        return Verdict(False, "signature", f"the log is signed by relay key {signer}, not by "
                       f"{escaped(relay.strip())}", verdict.log)
    return verdict


def relay_fingerprint(log: GameLog) -> str | None:
    """The fingerprint of the relay key a (format-checked) log names, or None."""
    sig = log.header.get("signing")
    return signing.fingerprint(sig["relay"]) if sig is not None else None


def facts(verdict: Verdict) -> dict[str, Any]:
    """What a verdict vouches for, as plain data: the verdict, its code and detail, and
    for a valid log the signers, mode, ruleset, date, run time (``time_proven``: stamped
    by the relay's clock and signed, as in a ranked run; otherwise the time is what the
    program that wrote the log said), hints, attempt and the standings (``gave_up`` says
    why a seat stopped).  An invalid log vouches for nothing but its verdict."""
    out: dict[str, Any] = {"verdict": "VALID" if verdict.ok else "INVALID",
                           "code": verdict.code, "detail": verdict.detail}
    log = verdict.log
    if not verdict.ok or log is None or log.end is None:
        return out
    h, end = log.header, log.end
    seats = h["seats"]
    sig = h.get("signing")
    keys = sig["seats"] if sig is not None else [None] * len(seats)
    out["signers"] = {
        "relay": relay_fingerprint(log),
        "seats": [{"name": escaped(s["name"]), "kind": s["kind"],
                   "key": signing.fingerprint(k) if k is not None else None}
                  for s, k in zip(seats, keys)],
        "sentence": verdict.signed,
    }
    dice: dict[str, Any] = dict(h["dice"])
    meta: dict[str, Any] = dict(h["meta"])
    end_meta: dict[str, Any] = dict(end["meta"])
    date = dice.get("date", meta.get("date"))
    settings: dict[str, Any] = dict(h["settings"])
    ms = end_meta.get("duration_ms")
    out["category"] = category(h, end_meta)
    run_splits = splits(log)
    out.update(
        mode=h["mode"], ruleset=h["ruleset"], scheme=dice["scheme"],
        date=date if isinstance(date, str) else None,
        time_ms=ms if isinstance(ms, int) and not isinstance(ms, bool) else None,
        time_proven=h["mode"] == "ranked",
        hints=settings.get("hints"),
        attempt=meta.get("attempt") if isinstance(meta.get("attempt"), int) else None,
        moves=len(log),
        splits_ms=run_splits,
        tool_assisted=tool_assisted(log) if len(seats) == 1 else None,
        standings=[{"place": s["place"], "name": escaped(s["name"]), "total": s["total"],
                    "gave_up": s["gave_up"]} for s in end["standings"]],
        # a practice game's writes taken back (their ``seq``), empty in any other game
        undone=[seq for seq, _ in taken_back(log.moves)],
    )
    return out


def category(h: Any, end_meta: dict[str, Any]) -> dict[str, Any]:
    """Which runs a valid log's run compares with (docs/client.md, "Categories"):
    ruleset, how its dice were dealt (``random seed``, ``set seed`` with its text, ``daily``,
    ``ranked``, ``table``), hints (None when the log does not say), animation
    (``instant``, ``animated``, or None when the log does not say) and whether the run was
    resumed after the program stopped (its time away not counted: never a speedrun)."""
    meta: dict[str, Any] = dict(h["meta"])
    settings: dict[str, Any] = dict(h["settings"])
    mode = h["mode"]
    if mode == "solo":
        dealt = "set seed" if meta.get("seeded") is True else "random seed"
    else:
        dealt = mode
    hints = settings.get("hints", end_meta.get("hints", meta.get("hints")))
    anim = end_meta.get("animation", meta.get("animation"))
    animation = None if not isinstance(anim, str) else "instant" if anim == "instant" else "animated"
    seed_text = meta.get("seed_text") if dealt == "set seed" else None
    return {"ruleset": h["ruleset"], "dealt": dealt,
            "seed_text": escaped(seed_text) if isinstance(seed_text, str) else None,
            "hints": hints if isinstance(hints, bool) else None, "animation": animation,
            "resumed": resumed(end_meta)}


def resumed(end_meta: Mapping[str, Any]) -> bool:
    """Whether a run was continued after the program stopped (its end's meta says so): its
    time away was not counted, so it is never a speedrun and never a best."""
    return end_meta.get("resumed") is True


def verify_file(path: str, relay: str | None = None) -> Verdict:
    try:
        with open(path, "rb") as f:
            data = f.read(8 * 1024 * 1024 + 1)
    except OSError as e:
        return Verdict(False, "io_error", f"cannot read {escaped(path)}: {e.strerror or 'error'}")
    return verify_bytes(data, relay)
