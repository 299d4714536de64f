"""One function per client message: check the message, then ask the table (and so
its ``Match``) to act.  A handler raises ``Refuse`` for anything it turns down; the
dispatcher (``Relay.dispatch``) sends it back as ``error``.  A handler sees the relay
only as the services it needs (``services.RelayServices``).  The game's own rules
are never repeated here: a move's refusal is the one core gives.
"""
from __future__ import annotations

import secrets
from typing import Any, Callable

from bonanza.core import dice as dice_mod
from bonanza.core import signing
from bonanza.core.game import MAX_SEATS, Refusal, Seat
from bonanza.core.match import Match
from bonanza.core.names import name_key
from bonanza.core.records import GameSettings, Intent, MoveType
from bonanza.core.runclock import RunClock
from bonanza.core.settings import (
    BOT_POLICIES,
    DAILY_RULESET,
    DAILY_TURN_SECONDS,
    DEFAULT_BOT_POLICY,
    DEFAULT_RULESET,
    MAX_NAME,
    MIN_SEATS_TABLE,
    REACTIONS,
    REMATCH_SECONDS,
    RULESETS,
    TURN_SECONDS,
    SettingError,
    clean_name,
)
from bonanza.core.wire import PROTOCOL_VERSION

from .connection import Conn, Refuse, error_msg
from .services import RelayServices
from .tables import BOT_NAMES, CODE_ALPHABET, CODE_LENGTH, Slot, Table

Host = RelayServices[Conn, Table, Slot]   # what the handlers use of the relay


# ---------------------------------------------------------------- validation
def _name(value: Any) -> str:
    try:
        return clean_name(value)
    except SettingError as e:
        raise Refuse("bad_settings", str(e)) from None


def _contribution_from(msg: dict) -> tuple[bytes | None, bytes | None]:
    """(contribution, its commitment) from create_table / join / rematch.  A client sends
    ``contribution_commit`` and reveals the contribution only once every seat has
    committed (at the start), so nobody — a player joining last, or the relay — can choose
    a contribution after seeing the others'.  A plain ``contribution`` is still taken."""
    commit = msg.get("contribution_commit")
    if commit is not None:
        if not isinstance(commit, bytes) or len(commit) != 32:
            raise Refuse("bad_message", "contribution_commit must be 32 bytes (msgpack bin)",
                         close=True)
        return None, commit
    return _contribution(msg.get("contribution")), None


def _contribution(value: Any) -> bytes:
    if not isinstance(value, bytes) or len(value) != dice_mod.SEED_BYTES:
        raise Refuse("bad_message", "the contribution must be 32 random bytes (msgpack bin)",
                     close=True)
    return value


def _key(value: Any) -> bytes | None:
    """A seat's public key (optional): 32 bytes; the seat then signs every intent."""
    if value is None:
        return None
    if not isinstance(value, bytes) or len(value) != signing.KEY_BYTES:
        raise Refuse("bad_message", "key must be a 32-byte Ed25519 public key (msgpack bin)",
                     close=True)
    return value


def _intent(table: Table, slot: Slot, msg: dict, kind: MoveType) -> Intent | None:
    """The seat's signed intent, checked; None for a seat without a key, or for a request
    so malformed that the match refuses it anyway (its refusal is the one to read).

    A roll without ``hold`` keeps what the seat announced; the seat signs that hold."""
    if slot.key is None:
        return None
    seq = msg.get("seq")
    if type(seq) is not int:
        raise Refuse("bad_sequence", "a signed request names the last move it saw (seq)")
    hold = box = None
    if kind == "roll":
        hold = msg["hold"] if "hold" in msg and msg["hold"] is not None \
            else table.roll_hold(slot.index)
        if not (isinstance(hold, list) and len(hold) == 5 and all(type(h) is bool for h in hold)):
            return None
    elif kind == "write":
        box = msg.get("box")
        if not isinstance(box, str):
            return None
    # At a daily table played in rounds a seat cannot know where its move will stand in
    # the log: it signs its own place (core.rounds.signed_point) instead.
    intent = signing.intent_body(seq, kind, hold, box) if table.rounds is None \
        else signing.round_intent_body(table.rounds.point(slot.index), kind, hold, box)
    sig = msg.get("sig")
    chain = table.started_match.log.header["chain"]
    if not isinstance(sig, bytes) or not signing.valid(slot.key,
                                                       signing.intent_message(chain, intent), sig):
        raise Refuse("bad_signature", "the request is not signed by this seat's key")
    intent["sig"] = sig
    return intent


def _bots(value: Any, seats: int) -> str | list[str]:
    """create_table's ``bots``: one policy for every empty seat, or a list, one per bot."""
    if value is None:
        return DEFAULT_BOT_POLICY
    if isinstance(value, str) and value in BOT_POLICIES:
        return value
    if (isinstance(value, list) and 1 <= len(value) <= seats - 1
            and all(isinstance(v, str) and v in BOT_POLICIES for v in value)):
        return list(value)
    raise Refuse("bad_settings", f"bots is one of {', '.join(BOT_POLICIES)} or a list of them, "
                                 f"at most one per seat after the host's")


def _refused(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise Refuse(refusal.code, refusal.message)


def _disk_room(relay: Host) -> None:
    """A daily attempt or a ranked run counts once it starts, so it is refused while the
    relay cannot write its data folder (its result could be lost); other tables play on."""
    if relay.disk_full:
        raise Refuse("relay_disk_full", "the relay cannot write to its disk now; daily and "
                                        "ranked games are refused until it can")


def _reply(conn: Conn, msg: dict, rid: Any) -> None:
    if rid is not None:
        msg["rid"] = rid
    conn.send(msg)


def _new_code(relay: Host) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in relay.tables:
            return code


def _joined(conn: Conn, table: Table, slot: Slot, rid: Any) -> None:
    _reply(conn, {"type": "joined", "table": table.info(), "seat": slot.index,
                  "token": slot.token}, rid)


def _seated(conn: Conn) -> tuple[Table, Slot]:
    slot = conn.slot
    if slot is None:
        if conn.watching is not None:
            raise Refuse("watching", "you are watching this table: watchers cannot play")
        raise Refuse("not_seated", "you are not at a table")
    return slot.table, slot


def _game(conn: Conn, msg: dict, need_seq: bool = True) -> tuple[Table, Slot]:
    """The caller's started table; with ``need_seq`` the message must name its last move
    (so a click made on an out-of-date screen is refused, not applied to a newer turn)."""
    table, slot = _seated(conn)
    if table.match is None or table.starting:    # starting: its journal is not on disk yet
        raise Refuse("not_started", "the game has not started yet")
    if need_seq or "seq" in msg:
        seq, last = msg.get("seq"), table.match.state.seq
        if type(seq) is not int or seq != last:
            raise Refuse("bad_sequence", f"out of date: the last move is {last}, "
                                         f"not {repr(seq)[:20]}")
    return table, slot


# ---------------------------------------------------------------- basic
def hello(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    if msg.get("version") != PROTOCOL_VERSION or type(msg.get("version")) is not int:
        raise Refuse("version_mismatch",
                     f"this relay speaks protocol version {PROTOCOL_VERSION}", close=True)
    conn.greeted = True
    # What this relay offers; the client's menus show these rather than its own copy.
    _reply(conn, {"type": "welcome", "version": PROTOCOL_VERSION, "server": "bonanza-relay",
                  "limits": relay.limits.to_wire(), "rulesets": list(RULESETS),
                  "turn_seconds": list(TURN_SECONDS), "bot_policies": list(BOT_POLICIES),
                  "max_name": MAX_NAME, "seats": [MIN_SEATS_TABLE, MAX_SEATS],
                  "relay_key": relay.signer.public}, rid)


def ping(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    conn.send({"type": "pong", "rid": rid} if rid is not None else {"type": "pong"})


def pong(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    pass


# ---------------------------------------------------------------- lobby
MAX_LISTED = 50             # tables in one ``tables`` answer (the newest first)


def list_tables(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    open_tables = [t for t in relay.open_lobbies() if len(t.slots) < t.nseats]
    newest = list(reversed(open_tables))       # tables are kept in the order they opened
    _reply(conn, {"type": "tables", "tables": [t.info() for t in newest[:MAX_LISTED]],
                  "more": max(0, len(newest) - MAX_LISTED)}, rid)


def _lobby_room(relay: Host, conn: Conn) -> None:
    """Caps on open lobbies, so one address cannot fill the relay (or its lists)."""
    lim = relay.limits
    lobbies = relay.open_lobbies()
    if len(lobbies) >= lim.lobbies:
        raise Refuse("relay_full", "this relay has too many open tables; try again later")
    mine = sum(1 for t in lobbies if t.host is not None and t.host.conn is not None
               and t.host.conn.address == conn.address)
    if conn.address is not None and mine >= lim.lobbies_per_address:
        raise Refuse("relay_full", f"at most {lim.lobbies_per_address} open tables per address")


def create_table(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    relay.free_conn(conn)
    _lobby_room(relay, conn)
    name = _name(msg.get("name"))
    seats, secs = msg.get("seats"), msg.get("turn_seconds")
    ruleset = msg.get("ruleset", DEFAULT_RULESET)
    if type(seats) is not int or not MIN_SEATS_TABLE <= seats <= MAX_SEATS:
        raise Refuse("bad_settings", f"a table has {MIN_SEATS_TABLE} to {MAX_SEATS} seats")
    if type(secs) is not int or secs not in TURN_SECONDS:
        raise Refuse("bad_settings", "the time per turn is "
                     + ", ".join(map(str, TURN_SECONDS[:-1])) + f" or {TURN_SECONDS[-1]} seconds")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise Refuse("bad_settings", f"the ruleset is one of: {', '.join(RULESETS)}")
    bots = _bots(msg.get("bots"), seats)
    contribution, commit = _contribution_from(msg)
    key = _key(msg.get("key"))
    daily = msg.get("daily") is True      # the day's challenge, played together
    if daily:
        _disk_room(relay)
        today = relay.clock.today()
        # Told now if this person cannot play today; the attempt itself is used at the
        # start, so a seat that leaves the lobby first may still play (alone or elsewhere).
        _daily_attempt(relay, conn, name, today, record=False)
        # The daily's clock, whatever the host asked: one competition, one clock.
        table = Table(relay, _new_code(relay), "table", DAILY_RULESET, seats,
                      DAILY_TURN_SECONDS, relay.daily.seed(today))
        table.daily_date = today
    else:
        table = Table(relay, _new_code(relay), "table", ruleset, seats, secs,
                      secrets.token_bytes(dice_mod.SEED_BYTES))
    table.bots = bots
    slot = Slot(table, name, "human", contribution, key=key, contribution_commit=commit)
    relay.open_table(conn, table, slot)
    _joined(conn, table, slot, rid)


def join(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    relay.free_conn(conn)
    code = msg.get("code")
    table = relay.tables.get(code.strip().upper()) if isinstance(code, str) else None
    if table is None or table.mode != "table":
        raise Refuse("table_not_found", "no table has this code")
    if table.started or table.revealing is not None:
        raise Refuse("already_started", "this table has already started")
    if len(table.slots) >= table.nseats:
        raise Refuse("table_full", "this table is full")
    name = _name(msg.get("name"))
    if table.name_taken(name):
        raise Refuse("name_taken", f"someone at this table is already called {name}")
    contribution, commit = _contribution_from(msg)
    key = _key(msg.get("key"))
    if table.daily_date is not None:       # told now; the attempt is used at the start
        _daily_attempt(relay, conn, name, table.daily_date, record=False)
    _sit(relay, conn, table, Slot(table, name, "human", contribution, key=key,
                                  contribution_commit=commit), rid)


def _sit(relay: Host, conn: Conn, table: Table, slot: Slot, rid: Any) -> None:
    """``slot`` takes the next seat of a lobby, on ``conn``; everyone sees the table."""
    table.slots.append(slot)
    table.reindex()
    if slot.token is not None:
        relay.tokens[slot.token] = slot
    relay.attach(conn, slot)
    _joined(conn, table, slot, rid)
    table.send_each({"type": "table", "table": table.info()})


def set_name(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _seated(conn)
    if table.started:
        raise Refuse("already_started", "names are fixed once the game has started")
    if table.daily_date is not None:
        # The day's attempt and its row on the board are this name's: a rename would
        # record one person's game under another name.
        raise Refuse("daily_name_fixed", "names are fixed at a daily table: the day's attempt "
                                         "is recorded under the name you sat down with")
    name = _name(msg.get("name"))
    if table.name_taken(name, exclude=slot):
        raise Refuse("name_taken", f"someone at this table is already called {name}")
    slot.name = name
    table.send_each({"type": "table", "table": table.info()}, conn, rid)


def leave(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    if conn.watching is not None:
        table = conn.watching
        relay.stop_watching(conn)
        _reply(conn, {"type": "left", "code": table.code}, rid)
        return
    table, slot = _seated(conn)
    relay.detach(conn)
    if table.revealing is not None:
        pass    # the seats are fixed; a seat that does not reveal goes to a bot
    elif not table.started:
        relay.leave_lobby(table, slot)
    elif table.starting:
        pass    # not a move before the start is on disk: the seat plays on as away
    elif table.running and not table.started_match.state.has_given_up(slot.index):
        table.give_up(slot.index, "left")   # refused (seat_done) for a full sheet: it stands
    _reply(conn, {"type": "left", "code": table.code}, rid)


REVEAL_SECONDS = 10.0       # seats reveal their contributions within this (else: a bot)


def start(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _seated(conn)
    if table.started or table.revealing is not None:
        raise Refuse("already_started", "the game has already started")
    if table.host is not slot:
        raise Refuse("not_host", "only the host can start the game")
    if table.daily_date is not None:       # the day's dice: nothing to contribute
        _disk_room(relay)
        _daily_start(relay, table, slot)
        table.fill_with_bots()
        _begin(relay, table, conn, rid)
        return
    table.fill_with_bots()
    if any(s.contribution is None and s.contribution_commit is not None for s in table.slots):
        # Every seat has committed; now each reveals, and only then is the key made.
        table.revealing = (conn, rid)
        table.send_each({"type": "reveal", "seconds": REVEAL_SECONDS})
        table.reveal_timer = relay.clock.call_later(REVEAL_SECONDS,
                                                    lambda: _reveal_deadline(relay, table))
        return
    _begin(relay, table, conn, rid)


def reveal(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _seated(conn)
    commit = slot.contribution_commit
    if table.revealing is None or slot.contribution is not None or commit is None:
        raise Refuse("bad_message", "no contribution is asked for now")
    value = _contribution(msg.get("contribution"))
    if not dice_mod.check_reveal(value, commit):
        raise Refuse("bad_reveal", "this is not the contribution you committed to", close=True)
    slot.contribution = value
    if all(s.contribution is not None or s.contribution_commit is None for s in table.slots):
        if table.reveal_timer is not None:
            table.reveal_timer.cancel()
        sender, start_rid = table.revealing
        _begin(relay, table, sender, start_rid)


def _reveal_deadline(relay: Host, table: Table) -> None:
    """Seats that did not reveal in time are played by bots, visibly (their names say
    so), and the game starts: a seat cannot hold the table by keeping its secret."""
    if table.revealing is None or table.started:
        return
    taken = {name_key(s.name) for s in table.slots}
    names = (f"Bot {n}" for n in BOT_NAMES if name_key(f"Bot {n}") not in taken)
    for s in table.slots:
        if s.contribution is None and s.contribution_commit is not None:
            if s.conn is not None:
                s.conn.send(error_msg("reveal_timeout", "your contribution did not come in "
                                                        "time: a bot plays your seat"))
                relay.detach(s.conn)
            if s.token is not None:
                relay.tokens.pop(s.token, None)
            s.kind, s.name, s.policy = "bot", next(names), DEFAULT_BOT_POLICY
            s.contribution_commit = s.key = s.token = None
    sender, start_rid = table.revealing
    _begin(relay, table, sender if sender.slot is not None else None, start_rid)


def _begin(relay: Host, table: Table, conn: Conn | None, rid: Any) -> None:
    table.revealing = None
    seats = [Seat(s.name, s.kind, s.policy) for s in table.slots]
    # every table has a turn clock (only a ranked run has none, and it starts elsewhere)
    settings: GameSettings = {} if table.turn_seconds is None else {
        "turn_seconds": table.turn_seconds}
    if table.daily_date is not None:
        # played in rounds: around the table, later seats would see their own dice early
        match = Match.create_day(table.daily_date, seats, table.seed, settings=settings,
                                 meta={"date": table.daily_date, "table": table.code},
                                 signer=relay.signer, seat_keys=[s.key for s in table.slots],
                                 rounds=True)
        table.begin(match, conn, rid)
        return
    match = Match.create(table.ruleset, seats, table.seed, mode="table",
                         contributions=[s.contribution for s in table.slots], settings=settings,
                         meta={"table": table.code}, signer=relay.signer,
                         seat_keys=[s.key for s in table.slots])
    table.begin(match, conn, rid)


# ---------------------------------------------------------------- the game
def hold(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _game(conn, msg)
    _refused(table.hold(slot.index, msg.get("held"), conn, rid))


def roll(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _game(conn, msg)
    intent = _intent(table, slot, msg, "roll")
    # Without ``hold`` the roll keeps what the seat announced (the match remembers it).
    _refused(table.roll(slot.index, msg["hold"] if "hold" in msg else None, False, conn, rid,
                        intent))


def write(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _game(conn, msg)
    intent = _intent(table, slot, msg, "write")
    _refused(table.write(slot.index, msg.get("box"), False, conn, rid, intent))


def give_up(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    table, slot = _game(conn, msg, need_seq=False)
    intent = _intent(table, slot, msg, "give_up")
    _refused(table.give_up(slot.index, "gave_up", conn, rid, intent))


# ---------------------------------------------------------------- ranked runs
def ranked_play(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    """A ranked solo run: the relay draws a fresh committed seed for this attempt, counts
    it, deals the dice, stamps every move with its own clock and signs the log."""
    relay.free_conn(conn)
    name = _name(msg.get("name"))
    ruleset = msg.get("ruleset", DEFAULT_RULESET)
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise Refuse("bad_settings", f"the ruleset is one of: {', '.join(RULESETS)}")
    hints = msg.get("hints", False)
    if type(hints) is not bool:
        raise Refuse("bad_settings", "hints is true or false")
    # declared, as hints are: the animation changes a run's time, so it names its category
    animation = msg.get("animation")
    if animation is not None and animation not in ("instant", "animated"):
        raise Refuse("bad_settings", "animation is \"instant\" or \"animated\"")
    key = _key(msg.get("key"))
    _disk_room(relay)
    _ranked_room(relay, conn)
    today = relay.clock.today()
    run_id, attempt = relay.ranked.start(name, ruleset, hints, today)
    table = Table(relay, _new_code(relay), "ranked", ruleset, 1, None,
                  secrets.token_bytes(dice_mod.SEED_BYTES))
    table.ranked_id = run_id
    table.started_at = relay.clock.now()
    slot = Slot(table, name, "human", None, key=key)
    relay.open_table(conn, table, slot)
    # the run's time counts from its first roll, as a local run's does (not from the deal)
    run_clock = RunClock(relay.clock.now)
    match = Match.create(ruleset, [Seat(name)], table.seed, mode="ranked", contributions=[None],
                         settings={"hints": hints},
                         meta={"attempt": attempt, "table": table.code, "date": today,
                               **({"animation": animation} if animation else {})},
                         signer=relay.signer, seat_keys=[key],
                         stamp=run_clock.stamp)
    _joined(conn, table, slot, rid)
    table.begin(match)
    relay.ranked_running.add(conn.address, table)


def _ranked_room(relay: Host, conn: Conn) -> None:
    """Caps per address on ranked runs, checked before an attempt is counted: a few
    running at once, and new ones at a bounded rate (each is a log kept for ever)."""
    lim = relay.limits
    if relay.ranked_running.count(conn.address) >= lim.ranked_per_address:
        raise Refuse("too_many_runs", f"at most {lim.ranked_per_address} ranked runs per "
                                      f"address at once: finish or give up one first")
    if not relay.buckets.take("ranked", conn.address, lim.ranked_burst, lim.ranked_every):
        raise Refuse("rate_limited", f"too many new ranked runs from this address: one "
                                     f"more every {lim.ranked_every:g} s")


def ranked_info(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    """The ranked boards (per ruleset, hints off and on); with ``name``, its attempts."""
    # runs quicker than a person reads dice are on lists of their own, never the boards
    reply: dict[str, Any] = {"type": "ranked_info",
                             "boards": {r: {"no_hints": relay.ranked.board(r, False),
                                            "hints": relay.ranked.board(r, True),
                                            "tool_assisted": relay.ranked.board(r, False, tool_assisted=True)
                                            + relay.ranked.board(r, True, tool_assisted=True)}
                                        for r in RULESETS}}
    if isinstance(msg.get("name"), str):
        reply["attempts"] = relay.ranked.attempts(msg["name"])
    _reply(conn, reply, rid)


# ---------------------------------------------------------------- rematch

def rematch(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    """Play again: the first player of a finished table to ask opens a new table with the
    same seats, rules and clock (a new commitment; new contributions) and hosts it; the
    others are told, and sit down by asking too.  The host starts it as any table: seats
    not taken go to bots, or wait for someone to join by its code."""
    slot = conn.slot
    if slot is None or not slot.table.finished or slot.kind != "human":
        raise Refuse("not_seated", "only the players of a finished table can play again")
    old = slot.table
    contribution, commit = _contribution_from(msg)
    key = _key(msg.get("key"))
    now = relay.clock.now()
    new = relay.tables.get(old.rematch_code) if old.rematch_code else None
    if new is None:
        if old.finished_at is not None and now - old.finished_at > REMATCH_SECONDS:
            raise Refuse("rematch_expired", "the offer to play again has run out")
        # the caps first: a refusal leaves the player at the finished table
        _lobby_room(relay, conn)
        _rematch_room(relay, conn, old)
        relay.free_conn(conn)
        new = Table(relay, _new_code(relay), "table", old.ruleset, old.nseats, old.turn_seconds,
                    secrets.token_bytes(dice_mod.SEED_BYTES))
        new.bots = old.bots
        seat = Slot(new, slot.name, "human", contribution, key=key, contribution_commit=commit)
        relay.open_table(conn, new, seat)
        old.rematch_code = new.code
        old.rematch_offers += 1
        _joined(conn, new, seat, rid)
        old.broadcast({"type": "rematch", "code": new.code, "by": slot.name,
                       "seconds": REMATCH_SECONDS})
        return
    if new.started or new.revealing is not None:
        raise Refuse("already_started", "the new game has already started")
    if len(new.slots) >= new.nseats:
        raise Refuse("table_full", "the new table is full")
    relay.free_conn(conn)
    _sit(relay, conn, new, Slot(new, slot.name, "human", contribution, key=key,
                                contribution_commit=commit), rid)


def _rematch_room(relay: Host, conn: Conn, old: Table) -> None:
    """A rematch table is announced to every player of the old one: a finished table
    announces a few at most, and one address opens them at a bounded rate."""
    lim = relay.limits
    if old.rematch_offers >= lim.rematch_offers:
        raise Refuse("rematch_expired", f"this table has offered {lim.rematch_offers} "
                                        f"new games already")
    if not relay.buckets.take("rematch", conn.address, lim.rematch_burst, lim.rematch_every):
        raise Refuse("rate_limited", f"too many new tables from this address: one more "
                                     f"every {lim.rematch_every:g} s")


# ---------------------------------------------------------------- quick reactions
def react(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    """A player's quick reaction, passed to everyone at the table (itself included) as
    ``reaction {seat, emote}``; never logged.  Only the ids in ``REACTIONS`` (no free text
    reaches another screen), and a seat's bucket bounds how often: a flood is refused, not
    relayed."""
    table, slot = _seated(conn)
    if table.mode != "table":
        raise Refuse("not_at_table", "reactions are for tables with other players")
    if table.daily_date is not None and table.running:
        # every seat gets the same dice for its own turn k: a seat that has played turn k
        # could tell, by a reaction, what the others are about to roll
        raise Refuse("not_at_table", "no reactions while a daily table plays: they could tell "
                                     "the others about the day's dice")
    emote = msg.get("emote")
    if not isinstance(emote, str) or emote not in REACTIONS:
        raise Refuse("unknown_emote", f"no reaction {str(emote)[:20]!r}: one of "
                                      f"{', '.join(REACTIONS)}")
    lim = relay.limits
    if not relay.buckets.take("react", f"{table.code}:{slot.index}", lim.react_burst,
                              lim.react_every):
        raise Refuse("reacting_too_fast", f"one reaction every {lim.react_every:g} s")
    table.broadcast({"type": "reaction", "seat": slot.index, "emote": emote}, conn, rid)


# ---------------------------------------------------------------- watching
def watch(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    """Watch a table: the log so far, then every move, hold, clock and the end; nothing
    else (every intent is refused with ``watching``)."""
    relay.free_conn(conn)
    code = msg.get("code")
    table = relay.tables.get(code.strip().upper()) if isinstance(code, str) else None
    if table is None or table.mode != "table":
        raise Refuse("table_not_found", "no table has this code")
    if table.daily_date is not None:
        # Its dice are the day's: a watcher would see the challenge without playing it.
        raise Refuse("daily_not_watchable", "a daily table cannot be watched: its dice are "
                                            "today's challenge")
    if len(table.watchers_conns) >= MAX_WATCHERS:
        raise Refuse("table_full", f"at most {MAX_WATCHERS} people can watch one table")
    lim = relay.limits
    if relay.watchers_from(conn.address) >= lim.watchers_per_address:
        raise Refuse("table_full", f"at most {lim.watchers_per_address} connections from one "
                                   "address can watch")
    if not relay.buckets.take("watch", conn.address, lim.watch_burst, lim.watch_every):
        raise Refuse("rate_limited", f"too many watch requests from this address: one more "
                                     f"every {lim.watch_every:g} s")
    relay.seal()     # the moves made so far go out before the watcher is among their receivers
    relay.stop_watching(conn)
    conn.watching = table
    table.watchers_conns.add(conn)
    match = table.match
    _reply(conn, {
        "type": "watching", "table": table.info(), "seat": None,
        "header": match.log.header if match else None,
        "records": match.log.records if match else [],
        "held": table.held, "clock": table.clock_info() if match else None,
        "end": table.end_msg}, rid)
    relay.watch_notices.changed(table)   # players see the count (at most once a second)


MAX_WATCHERS = 32


# ---------------------------------------------------------------- resume
def resume(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    token, seq = msg.get("token"), msg.get("seq", 0)
    slot = relay.tokens.get(token) if isinstance(token, str) else None
    if slot is None:
        raise Refuse("not_seated", "this seat is not known (the game may be long over)")
    table = slot.table
    match = table.match
    if type(seq) is not int or seq < 0 or seq > (match.state.seq if match else 0):
        raise Refuse("bad_sequence", "the sequence number is not one of this game's")
    if conn.slot is not None and conn.slot is not slot:
        relay.free_conn(conn)
    relay.seal()     # the moves made so far go out before the seat's new connection is attached
    relay.attach(conn, slot)
    _reply(conn, {
        "type": "resumed", "table": table.info(), "seat": slot.index, "token": slot.token,
        "header": match.log.header if match else None,
        "records": match.log.records_from(seq) if match else [],
        "held": table.held, "clock": table.clock_info() if match else None,
        "end": table.end_msg, "restarted": slot.restored,
        "round": table.rounds.seat_state(slot.index) if table.rounds is not None else None}, rid)
    slot.restored = False
    if table.running:
        table.send_each({"type": "table", "table": table.info()})


# ---------------------------------------------------------------- daily
def daily_info(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    today = relay.clock.today()
    daily = relay.daily
    reply: dict[str, Any] = {
        "type": "daily_info", "date": today, "commitment": daily.commitment(today),
        "leaderboard": daily.leaderboard(today),
        "closed": daily.closed_days(today, work_out_par=relay.auto.loaded)}
    if isinstance(msg.get("name"), str):
        reply["played"] = daily.has_played(today, msg["name"])
    _reply(conn, reply, rid)


def _daily_refusal(name: str, today: str, why: str | None) -> Refuse | None:
    """The refusal for a daily attempt the store turned down, naming the real reason."""
    if why == "name":
        return Refuse("daily_already_played",
                      f"{name} has already played the challenge of {today}")
    if why == "address":
        return Refuse("daily_address_played",
                      f"someone at this address has already played the challenge of {today}")
    return None


def _daily_attempt(relay: Host, conn: Conn, name: str, today: str, record: bool = True) -> None:
    """Use ``name``'s one attempt of the day (at this address too, by default); with
    ``record=False`` only say whether it could be used."""
    once = relay.daily_per_address
    why = (relay.daily.start_attempt(today, name, conn.address, once) if record
           else relay.daily.attempt_refusal(today, name, conn.address, once))
    refusal = _daily_refusal(name, today, why)
    if refusal is not None:
        raise refusal


def _daily_start(relay: Host, table: Table, host: Slot) -> None:
    """A daily table starts: every human seat's attempt is used now, in seat order.  A
    seat that can no longer play (it played alone meanwhile, or an earlier seat has its
    name or address) is told why and leaves the lobby; if that is the host, nothing
    starts and no attempt is used."""
    date = table.daily_date
    assert date is not None
    once = relay.daily_per_address
    address = host.conn.address if host.conn is not None else None
    refusal = _daily_refusal(host.name, date,
                             relay.daily.attempt_refusal(date, host.name, address, once))
    if refusal is not None:
        raise refusal
    for slot in [s for s in table.slots if s.kind == "human"]:
        conn = slot.conn
        address = conn.address if conn is not None else None
        refusal = _daily_refusal(slot.name, date,
                                 relay.daily.start_attempt(date, slot.name, address, once))
        if refusal is None:
            continue
        if conn is not None:
            conn.send(error_msg(refusal.code, refusal.message))
            relay.detach(conn)
            conn.send({"type": "left", "code": table.code})
        relay.leave_lobby(table, slot)


def daily_play(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    relay.free_conn(conn)
    name = _name(msg.get("name"))
    key = _key(msg.get("key"))      # every check before the attempt is recorded
    _disk_room(relay)
    today = relay.clock.today()
    _daily_attempt(relay, conn, name, today)
    table = Table(relay, _new_code(relay), "daily", DAILY_RULESET, 1, DAILY_TURN_SECONDS,
                  relay.daily.seed(today))
    table.daily_date = today
    table.started_at = relay.clock.now()
    slot = Slot(table, name, "human", None, key=key)
    relay.open_table(conn, table, slot)
    # The day's key depends on the day's seed only: everybody that day, alone or at a
    # daily table, rolls the same dice for their k-th turn.  The turn clock applies, as
    # at every online table.
    match = Match.create_day(today, [Seat(name)], table.seed,
                             settings={"turn_seconds": DAILY_TURN_SECONDS},
                             meta={"date": today, "table": table.code}, signer=relay.signer,
                             seat_keys=[slot.key])
    _joined(conn, table, slot, rid)
    table.begin(match)



def daily_log(relay: Host, conn: Conn, msg: dict, rid: Any) -> None:
    date, name = msg.get("date"), msg.get("name")
    if not isinstance(date, str) or not isinstance(name, str):
        raise Refuse("bad_settings", "daily_log needs a date and a name")
    if relay.daily.sealed(date, relay.clock.today()):
        raise Refuse("log_not_available", "the day's logs are available once the day is over "
                                          "and every attempt of that day has ended")
    fname = relay.daily.log_file(date, name)
    data = relay.logs.read(fname) if fname else None
    if data is None:
        raise Refuse("log_not_available", "no finished attempt by this name on this date")
    _reply(conn, {"type": "log", "date": date, "name": name, "log": data}, rid)


HANDLERS: dict[str, Callable[[Host, Conn, dict, Any], None]] = {
    "hello": hello, "ping": ping, "pong": pong,
    "list_tables": list_tables, "create_table": create_table, "join": join,
    "set_name": set_name, "leave": leave, "start": start,
    "hold": hold, "roll": roll, "write": write, "give_up": give_up, "resume": resume,
    "watch": watch, "rematch": rematch, "reveal": reveal, "react": react,
    "ranked_play": ranked_play, "ranked_info": ranked_info,
    "daily_info": daily_info, "daily_play": daily_play, "daily_log": daily_log,
}

__all__ = ["HANDLERS", "error_msg"]
