"""Check a finished game from its log alone: commitments, dice, moves, hashes, totals."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import dice as dice_mod
from . import signing
from .game import GameState, standings
from .log import GameLog, LogError, game_key_from, parse_log, setup_from_header
from .logschema import FormatError, check_log
from .match import Replay
from .records import EndRecord, Intent, Move, VerifyCode


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
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _fail("corrupt", f"the header is malformed ({e})")
    if log.end is None:
        raise _fail("missing_reveal", "the game has no end record: it is unfinished or cut off")
    key = _check_dice_header(log, log.end)
    if dice_mod.first_seat(key, len(setup.seats)) != setup.first_seat:
        raise _fail("first_seat", "the starting seat does not follow from the dice key")
    # The logged moves go through the same fold as a live game's (core.match): legality
    # first, then the dice against the revealed key, then the state hash.
    replay = Replay(setup, key, per_seat=log.header["dice"].get("scheme") == "day")
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
    if log.header["mode"] == "ranked":
        # the run's time is the relay's: the last record's stamp
        last = log.records[-1]["at"] if log.records else 0
        if (end.get("meta") or {}).get("duration_ms") != last:
            raise _fail("time", f"the run's time {(end.get('meta') or {}).get('duration_ms')} "
                                f"ms is not the relay's {last} ms")
    signed = _check_signatures(log, end)
    summary = ", ".join(f"{s['place']}. {s['name']} {s['total']}" for s in expected_standings)
    return Verdict(True, "ok", f"every die, move and total checks out ({summary})", log, states,
                   signed)


def _made_by_seat(move: Move) -> bool:
    """A move the seat asked for itself (not the clock's, not the relay's for a seat that
    left or went away): the moves a seat's key must sign."""
    if move.get("auto"):
        return False
    return move["type"] in ("roll", "write") or move.get("why", "gave_up") == "gave_up"


def _intent_of(move: Move, seq_before: int) -> Intent:
    return signing.intent_body(seq_before, move["type"], move.get("hold"), move.get("box"))


def _check_signatures(log: GameLog, end: EndRecord) -> str:
    """Every signature of a relay's log, or that an unsigned log carries none; the
    sentence a person reads about who signed what."""
    header = log.header
    seats = header["seats"]
    names = [s["name"] for s in seats]
    sig_info = header.get("signing")
    if sig_info is None:
        for rec in log.records:
            if "sig" in rec or "intent" in rec:
                raise _fail("signature", f"move {rec['seq']} is signed but the header names no keys")
        if "sig" in end:
            raise _fail("signature", "the end is signed but the header names no keys")
        if header.get("mode") == "solo":
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
    for rec in log.records:
        seq, move = rec["seq"], rec["move"]
        if not signing.valid(relay, signing.record_message(rec["chain"]), rec.get("sig")):
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
        if {k: v for k, v in intent.items() if k != "sig"} != _intent_of(move, seq - 1):
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


def verify_bytes(data: bytes) -> Verdict:
    """Never raises for bad input: every problem becomes a failed Verdict."""
    log = None
    try:
        log = parse_log(data)
        return verify_log(log)
    except LogError as e:
        return Verdict(False, e.code, e.detail, log)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as e:
        return Verdict(False, "corrupt", f"the log is malformed ({type(e).__name__}: {e})", log)


def verify_file(path: str) -> Verdict:
    try:
        with open(path, "rb") as f:
            data = f.read(8 * 1024 * 1024 + 1)
    except OSError as e:
        return Verdict(False, "io_error", f"cannot read {path}: {e.strerror or e}")
    return verify_bytes(data)
