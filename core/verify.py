"""Check a finished game from its log alone: commitments, dice, moves, hashes, totals."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import dice as dice_mod
from .game import GameState, standings
from .log import GameLog, LogError, game_key_from, parse_log, setup_from_header
from .match import Replay


@dataclass
class Verdict:
    ok: bool
    code: str                 # "ok" or a ``LogError`` code
    detail: str               # one line for a person
    log: GameLog | None = None
    states: list[GameState] = field(default_factory=list)

    def line(self) -> str:
        return ("VALID: " if self.ok else "INVALID: ") + self.detail


def _fail(code: str, detail: str) -> LogError:
    return LogError(code, detail)


def _check_dice_header(log: GameLog) -> bytes:
    """The game key, after checking the reveal against the commitment."""
    dice = log.header.get("dice")
    end = log.end
    if not isinstance(dice, dict) or dice.get("scheme") not in ("commit", "public"):
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
    if (not isinstance(contributions, list) or len(contributions) != len(log.header["seats"])
            or any(c is not None and not isinstance(c, bytes) for c in contributions)):
        raise _fail("corrupt", "the seats' dice contributions are malformed")
    return game_key_from(dice, reveal)


def verify_log(log: GameLog) -> Verdict:
    try:
        setup = setup_from_header(log.header)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _fail("corrupt", f"the header is malformed ({e})")
    if log.end is None:
        raise _fail("missing_reveal", "the game has no end record: it is unfinished or cut off")
    key = _check_dice_header(log)
    if dice_mod.first_seat(key, len(setup.seats)) != setup.first_seat:
        raise _fail("first_seat", "the starting seat does not follow from the dice key")
    # The logged moves go through the same fold as a live game's (core.match): legality
    # first, then the dice against the revealed key, then the state hash.
    replay = Replay(setup, key)
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
    summary = ", ".join(f"{s['place']}. {s['name']} {s['total']}" for s in expected_standings)
    return Verdict(True, "ok", f"every die, move and total checks out ({summary})", log, states)


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
