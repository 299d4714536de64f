"""Writes the golden log corpus: tests/data/golden/*.bonanza and its manifest.json.

    python tests/data/make_golden.py                 # make the missing logs, redo forgeries
    python tests/data/make_golden.py NAME [NAME...]  # make these logs even if they exist
                                                     # (never a committed one: they are only
                                                     # ever added, see below)

One real log of every kind this release writes, made the way the program makes it, and
forgeries of them, each with the verdict ``core.verify`` must give it.  tests/test_golden.py
reads the committed files and never calls this script: a log written once must verify the
same way forever (docs/log-format.md, "Golden logs").  A log whose maker is gone from here
(an older format's) stays in the corpus and in the manifest.

Deterministic where the program allows: self-dealt games use fixed seeds and play with the
bots' policies; the relay signs with a fixed key (its ``relay.key`` is written before it
starts) and every seat with a key made from its name.  A relay's seeds and a seat's dice
contribution come from the operating system, so relay-played logs differ from one run to
the next; that is why existing logs are kept unless named, and why the forgeries are made
from the files on disk, not from fresh games.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import tempfile
from typing import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

# Only the log's own modules at the top: tests/test_golden.py imports ``signed_kind`` from
# here and must keep running whatever happens to the code that plays games.
from bonanza.core import signing  # noqa: E402
from bonanza.core.game import IllegalMove, standings  # noqa: E402
from bonanza.core.log import MAGIC, LogError, chain_next, chain_start, pack, parse_log, setup_from_header  # noqa: E402
from bonanza.core.match import Replay  # noqa: E402
from bonanza.core.verify import verify_bytes  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
MANIFEST = os.path.join(OUT, "manifest.json")
DAY = "2024-06-01"           # the relay's date for its dailies, and the offline daily's


def fixed_key(label: str) -> bytes:
    """A 32-byte key or seed that is the same on every run."""
    return hashlib.sha256(b"bonanza/golden/" + label.encode()).digest()


RELAY_KEY = fixed_key("relay")


def seat_signer(name: str) -> signing.Signer:
    return signing.Signer(fixed_key("seat/" + name))


# ---------------------------------------------------------------- self-dealt games
def _play_solo(match, policy: str, give_up_after: int | None = None) -> None:
    """The one seat plays ``policy``'s moves (the advisor's, or the human-like casual
    one); with ``give_up_after`` it gives up after that many turns."""
    from bonanza.core.simulate import play_bot_turn
    while not match.state.over:
        if give_up_after is not None and match.state.turn >= give_up_after:
            match.give_up(0)
            return
        play_bot_turn(match, policy)


def solo_random() -> bytes:
    # new_solo_match without a seed text draws the seed from the OS; this is the same
    # call with a fixed one, so the file is the same on every run
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    match = Match.create("bonanza", [Seat("Ana")], fixed_key("solo-random"), mode="solo",
                         meta={"client": "bonanza"})
    _play_solo(match, "optimal")
    match.finish({"duration_ms": 312_045})
    return match.log.to_bytes()


def solo_seeded() -> bytes:
    from bonanza.client.solo import new_solo_match
    match = new_solo_match("Ben", "yacht", seed_text="golden corpus", meta={"client": "bonanza"})
    _play_solo(match, "casual")
    match.finish({"duration_ms": 187_500})
    return match.log.to_bytes()


def solo_give_up() -> bytes:
    from bonanza.client.solo import new_solo_match
    match = new_solo_match("Cleo", "bonanza", seed_text="gives up", meta={"client": "bonanza"})
    _play_solo(match, "casual", give_up_after=5)
    match.finish({"duration_ms": 41_200})
    return match.log.to_bytes()


def solo_yatzy() -> bytes:
    """A seeded solo game of Scandinavian Yatzy: the 15-box sheet, a 50 upper bonus."""
    from bonanza.client.solo import new_solo_match
    match = new_solo_match("Dag", "yatzy", seed_text="golden yatzy", meta={"client": "bonanza"})
    _play_solo(match, "casual")
    match.finish({"duration_ms": 254_800})
    return match.log.to_bytes()


def solo_stamped() -> bytes:
    """A seeded solo run as the client writes it since issue 25: every move stamped with
    ``at`` (ms since the first roll on the machine's monotonic clock, here a made-up one
    ticking 700 ms a move), the animation setting in the header, the input in the end,
    the run's time the last stamp."""
    from bonanza.client.solo import new_solo_match
    from bonanza.core.runclock import RunClock
    ticks = iter(range(0, 10**6, 7))
    match = new_solo_match("Flo", "bonanza", seed_text="golden speedrun",
                           meta={"client": "bonanza", "animation": "instant"})
    clock = RunClock(lambda: next(ticks) / 10)
    match.log.stamp = clock.stamp
    _play_solo(match, "optimal")
    last = match.log.records[-1]["at"]
    match.finish({"input": "keys", "duration_ms": last})
    return match.log.to_bytes()


def practice_undo() -> bytes:
    """A practice game as the client writes it (issue 26): stamped, hints in the header, and
    writes taken back — each ``undo`` right after the write, the dice as they were."""
    from bonanza.client.solo import new_solo_match
    from bonanza.core.runclock import RunClock
    from bonanza.core.simulate import play_bot_turn
    ticks = iter(range(0, 10**6, 9))
    match = new_solo_match("Gil", "bonanza", seed_text="golden practice",
                           meta={"client": "bonanza", "animation": "normal", "hints": True},
                           practice=True, hints=True)
    match.log.stamp = RunClock(lambda: next(ticks) / 10).stamp
    while not match.state.over:
        turn = match.state.turn
        play_bot_turn(match, "casual")
        if turn in (2, 7) and not match.state.over:
            match.undo()                  # the casual write taken back ...
            play_bot_turn(match, "optimal")   # ... and the advisor's made instead
    match.finish({"input": "keys", "hints": True, "duration_ms": match.log.records[-1]["at"]})
    return match.log.to_bytes()


def practice_past_daily() -> bytes:
    """A past day's offline daily played again as practice: its public dice, one undo."""
    from bonanza.core.match import Match
    from bonanza.core.simulate import play_bot_turn
    match = Match.create_past_daily(DAY, "Hal", meta={"client": "bonanza"}, settings={"hints": False})
    while not match.state.over:
        turn = match.state.turn
        play_bot_turn(match, "optimal")
        if turn == 4:
            match.undo()
            play_bot_turn(match, "casual")
    match.finish({"duration_ms": 198_300})
    return match.log.to_bytes()


def table_simulated() -> bytes:
    """What ``bonanza simulate --players 2 --policy optimal,casual`` writes: bots only,
    nothing signed."""
    from bonanza.core.settings import seed_from_text
    from bonanza.core.simulate import simulate
    return simulate("bonanza", ["optimal", "casual"], seed_from_text("golden simulate")).log.to_bytes()


def daily_offline() -> bytes:
    """The client's offline daily (client.daily.start_offline_daily): public dice from the date."""
    from bonanza.core.match import Match
    match = Match.create_daily(DAY, "Eve", meta={"date": DAY})
    _play_solo(match, "optimal")
    match.finish({"duration_ms": 254_010})
    return match.log.to_bytes()


# ---------------------------------------------------------------- relay-played games
async def _step(c, policy: str) -> None:
    """``c``'s seat makes one move by ``policy``: a roll keeping what it chose, or a write."""
    from bonanza.core.bots import choose
    st = c.state
    action, arg = choose(policy, st.ruleset, st.sheets[c.seat], st.dice, st.rolls_left)
    if action == "hold":
        await c.roll([bool(h) for h in arg])
    else:
        await c.write(arg)


async def _drive(watcher, movers: dict, policy: dict, before: Callable | None = None,
                 timeout: float = 60.0) -> None:
    """Play the game to its end: each seat in ``movers`` (seat -> client) moves by its
    ``policy`` when active; the relay's bots play themselves.  ``before(client)`` runs
    before each human move and returns True when it made the move itself."""
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    if watcher.own is not None:        # a daily table played in rounds: all at once
        while watcher.end is None:
            if loop.time() > until:
                raise asyncio.TimeoutError("the game did not end in time")
            playing = [c for c in movers.values() if c.my_turn]
            if not playing:
                seq = watcher.seq
                await watcher.wait_until(
                    lambda: watcher.seq > seq or watcher.end is not None
                    or any(c.my_turn for c in movers.values()), until - loop.time())
            for c in playing:
                await _step(c, policy[c.seat])
        movers = {}
    while watcher.end is None:
        if loop.time() > until:
            raise asyncio.TimeoutError("the game did not end in time")
        st = watcher.state
        mover = movers.get(st.active) if not st.over else None
        if mover is None:
            seq = watcher.seq
            await watcher.wait_until(lambda: watcher.seq > seq or watcher.end is not None,
                                     until - loop.time())
            continue
        await mover.wait_until(lambda: mover.seq == watcher.seq)
        seq = watcher.seq
        if before is None or not await before(mover):
            await _step(mover, policy[mover.seat])
        await watcher.wait_until(lambda: watcher.seq > seq or watcher.end is not None,
                                 until - loop.time())
    for c in movers.values():
        if c.desync is not None:
            raise RuntimeError(f"desync: {c.desync}")


async def _closed(clients, result):
    """``result``, once every client is closed (nothing left reading when the relay stops)."""
    for c in clients:
        await c.close()
    return result


async def _seated(relay, host: str, others: list[str], **table) -> dict:
    """A table hosted by ``host`` that ``others`` join, started; name -> client."""
    from tests.relay_harness import connect
    clients = {n: await connect(relay, signer=seat_signer(n)) for n in [host, *others]}
    joined = await clients[host].request({"type": "create_table", "name": host, **table})
    for n in others:
        await clients[n].join(joined["table"]["code"], n)
    await clients[host].start()
    for c in clients.values():
        await c.wait_until(lambda c=c: c.header is not None)
    return clients


async def _table_with_bots(relay, clock) -> bytes:
    """Two people and two bots (optimal, casual); Ben's first turn is played by the clock."""
    c = await _seated(relay, "Ana", ["Ben"], seats=4, turn_seconds=60, ruleset="bonanza",
                      bots=["optimal", "casual"])
    ana, ben = c["Ana"], c["Ben"]
    late = []

    async def before(mover):
        if mover is ben and not late:
            late.append(True)
            seq = ana.seq
            clock.advance(61)                 # Ben is away for a whole turn
            await ana.wait_until(lambda: ana.seq >= seq + 2)
            return True
        return False
    await _drive(ana, {ana.seat: ana, ben.seat: ben},
                 {ana.seat: "optimal", ben.seat: "casual"}, before)
    return await _closed(c.values(), ana.end["log"])


async def _table_give_up(relay, clock) -> bytes:
    """Three people: Ben gives up (a signed request), Cleo leaves (the relay's move), Ana
    plays to the end."""
    c = await _seated(relay, "Ana", ["Ben", "Cleo"], seats=3, turn_seconds=60, ruleset="yacht")
    ana, ben, cleo = c["Ana"], c["Ben"], c["Cleo"]
    turns = {"Ben": 0, "Cleo": 0}

    async def before(mover):
        if mover is ben and ana.state.rolls == 0:
            turns["Ben"] += 1
            if turns["Ben"] == 3:
                await ben.give_up()
                return True
        if mover is cleo and cleo.state.rolls == 0:
            turns["Cleo"] += 1
            if turns["Cleo"] == 5:
                await cleo.leave()
                return True
        return False
    await _drive(ana, {cl.seat: cl for cl in (ana, ben, cleo)},
                 {ana.seat: "optimal", ben.seat: "casual", cleo.seat: "casual"}, before)
    return await _closed(c.values(), ana.end["log"])


async def _ranked(relay, clock) -> bytes:
    from tests.relay_harness import connect
    rita = await connect(relay, signer=seat_signer("Rita"))
    await rita.ranked_play("Rita", "bonanza", hints=False)

    async def before(mover):
        clock.advance(2.25)                   # the relay's clock times the run
        return False
    await _drive(rita, {0: rita}, {0: "optimal"}, before)
    return await _closed([rita], rita.end["log"])


async def _dailies(relay, clock) -> tuple[bytes, bytes]:
    """The relay's daily (the ``day`` scheme) alone and at a table, on the same day; the
    logs are given out once the day is over."""
    from tests.relay_harness import connect
    dora = await connect(relay, signer=seat_signer("Dora"))
    await dora.daily_play("Dora")
    await _drive(dora, {0: dora}, {0: "optimal"})
    c = await _seated(relay, "Ana", ["Ben"], seats=3, turn_seconds=60, ruleset="yacht",
                      daily=True)
    ana, ben = c["Ana"], c["Ben"]
    await _drive(ana, {ana.seat: ana, ben.seat: ben}, {ana.seat: "optimal", ben.seat: "casual"})
    clock.date = "2024-06-02"
    logs = await dora.daily_log(DAY, "Dora"), await dora.daily_log(DAY, "Ana")
    return await _closed([dora, *c.values()], logs)


async def _daily_rounds(relay, clock) -> bytes:
    """A daily table played in rounds (``dice.rounds``): two people and a bot play each
    turn at once; the log is given out once the day is over."""
    clock.date = "2024-06-02"          # a day of its own (the dailies above close theirs)
    c = await _seated(relay, "Eva", ["Finn"], seats=3, turn_seconds=60, ruleset="yacht",
                      daily=True)
    eva, finn = c["Eva"], c["Finn"]
    await _drive(eva, {eva.seat: eva, finn.seat: finn}, {eva.seat: "optimal", finn.seat: "casual"})
    clock.date = "2024-06-03"
    return await _closed(list(c.values()), await eva.daily_log("2024-06-02", "Eva"))


RELAY_GAMES = ("table-bots-signed", "table-give-up-signed", "ranked", "daily-relay-solo",
               "daily-relay-table", "daily-relay-rounds")


async def _relay_games(wanted: set[str]) -> dict[str, bytes]:
    from tests.relay_harness import ManualClock, running_relay
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as d:
        fd = os.open(os.path.join(d, "relay.key"), os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(RELAY_KEY)
        clock = ManualClock(date=DAY)
        async with running_relay(data_dir=d, clock=clock) as relay:
            assert relay.signer.public == signing.Signer(RELAY_KEY).public
            if "table-bots-signed" in wanted:
                out["table-bots-signed"] = await _table_with_bots(relay, clock)
            if "table-give-up-signed" in wanted:
                out["table-give-up-signed"] = await _table_give_up(relay, clock)
            if "ranked" in wanted:
                out["ranked"] = await _ranked(relay, clock)
            if wanted & {"daily-relay-solo", "daily-relay-table"}:
                out["daily-relay-solo"], out["daily-relay-table"] = await _dailies(relay, clock)
            if "daily-relay-rounds" in wanted:
                out["daily-relay-rounds"] = await _daily_rounds(relay, clock)
    return {k: v for k, v in out.items() if k in wanted}


def ranked_batch_signed() -> bytes:
    """``ranked`` as a relay under load signs it (core.signing.BatchSigner):
    its move records in batches of up to four, one signature over each batch's Merkle root,
    every record with its proof (``batch``); the end record signed alone, as before.  Made
    from the committed log, with the relay's fixed key: the chain covers neither signature
    nor proof, so the game and its chain stay the same."""
    with open(path("ranked"), "rb") as f:
        log = parse_log(f.read())
    records = [dict(rec) for rec in log.records]
    signer = signing.BatchSigner(RELAY_KEY, limit=4)
    for rec in records:
        def sealed(sig: bytes, proof: list | None, rec: dict = rec) -> None:
            rec["sig"] = sig
            if proof is not None:
                rec["batch"] = proof
        signer.defer(rec["chain"], sealed)
    signer.seal()
    return b"".join([MAGIC, pack(log.header), *(pack(rec) for rec in records), pack(log.end)])


# made from a committed relay log, once it is there
DERIVED_GAMES: dict[str, Callable[[], bytes]] = {"ranked-batch-signed": ranked_batch_signed}


LOCAL_GAMES: dict[str, Callable[[], bytes]] = {
    "solo-random": solo_random,
    "solo-seeded": solo_seeded,
    "solo-give-up": solo_give_up,
    "table-simulated": table_simulated,
    "daily-offline": daily_offline,
    "solo-yatzy": solo_yatzy,
    "solo-stamped": solo_stamped,
    "practice-undo": practice_undo,
    "practice-past-daily": practice_past_daily,
}
VALID = (*LOCAL_GAMES, *RELAY_GAMES, *DERIVED_GAMES)


# ---------------------------------------------------------------- forgeries
def rewrite(data: bytes, *, header=None, move=None, record=None, end=None,
            relay: signing.Signer | None = None) -> bytes:
    """The log with its parts changed and made consistent again, as a forger would: state
    hashes, totals, standings and the chain recomputed (none has a secret).  ``move(m,
    seq)`` changes a move before the state is recomputed, ``record(rec)`` a record after;
    with ``relay`` (a forger holding the relay's key) every record is signed again, else
    the signatures stay as they were."""
    log = parse_log(data)
    h = dict(log.header)
    if header:
        header(h)
    h["chain"] = chain = chain_start(h)
    # the fold of any game, a practice game's undos too (no key: the forged dice pass here)
    replay = Replay(setup_from_header(h), undo=h["mode"] == "practice")
    parts = [MAGIC, pack(h)]
    for rec in log.records:
        rec = dict(rec, move=dict(rec["move"]))
        if move:
            move(rec["move"], rec["seq"])
        refusal = replay.accept(rec["move"])
        if refusal is not None:
            raise IllegalMove(refusal)
        state = replay.state
        rec["state"] = state.state_hash()
        if record:
            record(rec)
        rec["chain"] = chain = chain_next(chain, rec)
        if relay is not None:
            rec["sig"] = relay.sign_record(chain)
        parts.append(pack(rec))
    e = dict(log.end)
    e["totals"] = [state.total(i) for i in range(len(state.sheets))]
    e["standings"] = [s.to_dict() for s in standings(state)]
    if end:
        end(e)
    e["chain"] = chain_next(chain, e)
    if relay is not None:
        e["sig"] = relay.sign_record(e["chain"])
    parts.append(pack(e))
    return b"".join(parts)


def _at_seq(seq: int, change: Callable[[dict], None]) -> Callable[[dict], None]:
    """A ``record`` hook for ``rewrite`` that changes only the record ``seq``."""
    def edit(rec: dict) -> None:
        if rec["seq"] == seq:
            change(rec)
    return edit


def forged_die(data: bytes) -> bytes:
    """The first roll's first die changed; the state hashes follow the forged dice."""
    def change(m: dict, seq: int) -> None:
        if seq == 1:
            m["dice"] = [m["dice"][0] % 6 + 1, *m["dice"][1:]]
    return rewrite(data, move=change)


def forged_die_after_undo(data: bytes) -> bytes:
    """A die of a roll after a practice game's first undo changed (a roll written straight
    after, a die it rolled): what an undo must never make possible."""
    moves = parse_log(data).moves
    first_undo = next(seq for seq, m in enumerate(moves, 1) if m["type"] == "undo")
    after = next(seq for seq, m in enumerate(moves, 1) if seq > first_undo and m["type"] == "roll"
                 and moves[seq]["type"] == "write")
    die = moves[after - 1]["hold"].index(False)

    def change(m: dict, seq: int) -> None:
        if seq == after:
            m["dice"] = [d % 6 + 1 if i == die else d for i, d in enumerate(m["dice"])]
    return rewrite(data, move=change)


def forged_total(data: bytes) -> bytes:
    return rewrite(data, end=lambda e: e.update(totals=[e["totals"][0] + 50, *e["totals"][1:]]))


def forged_state_hash(data: bytes) -> bytes:
    return rewrite(data, record=_at_seq(5, lambda r: r.update(state=bytes(16))))


def forged_seed(data: bytes) -> bytes:
    return rewrite(data, end=lambda e: e.update(reveal={"seed": fixed_key("another seed")}))


def broken_chain(data: bytes) -> bytes:
    """The first write changed to another box and nothing recomputed."""
    log = parse_log(data)
    first = next(r["seq"] for r in log.records if r["move"]["type"] == "write")
    parts = [MAGIC, pack(log.header)]
    for rec in log.records:
        if rec["seq"] == first:
            box = "chance" if rec["move"]["box"] != "chance" else "ones"
            rec = dict(rec, move=dict(rec["move"], box=box))
        parts.append(pack(rec))
    parts.append(pack(log.end))
    return b"".join(parts)


def bad_relay_sig(data: bytes) -> bytes:
    """One byte of a record's relay signature flipped (the chain does not cover it)."""
    def flip(rec):
        rec["sig"] = bytes([rec["sig"][0] ^ 1]) + rec["sig"][1:]
    return rewrite(data, record=_at_seq(3, flip))


def wrong_seat_key(data: bytes) -> bytes:
    """A relay (holding its own key) that makes a move in Ana's name: her request signed by
    a key that is not hers; every record is signed again by the relay's real key."""
    log = parse_log(data)
    ana = next(i for i, s in enumerate(log.header["seats"]) if s["name"] == "Ana")
    seq = next(r["seq"] for r in log.records if r["move"]["seat"] == ana and "intent" in r)
    impostor = seat_signer("not Ana")

    def resign(rec):
        intent = {k: v for k, v in rec["intent"].items() if k != "sig"}
        rec["intent"] = dict(intent, sig=impostor.sign_intent(log.header["chain"], intent))
    return rewrite(data, record=_at_seq(seq, resign), relay=signing.Signer(RELAY_KEY))


def forged_batch_proof(data: bytes) -> bytes:
    """One hash of a batch-signed record's proof changed: the proof leads to another root,
    which the batch's signature does not cover."""
    def change(rec: dict) -> None:
        index, size, hashes = rec["batch"]
        rec["batch"] = [index, size, [bytes([hashes[0][0] ^ 1]) + hashes[0][1:], *hashes[1:]]]
    return rewrite(data, record=_at_seq(2, change))


def no_end(data: bytes) -> bytes:
    log = parse_log(data)
    return MAGIC + pack(log.header) + b"".join(log.encoded)


def truncated(data: bytes) -> bytes:
    log = parse_log(data)
    cut = len(MAGIC) + len(pack(log.header)) + sum(len(e) for e in log.encoded[:4]) + 20
    return data[:cut]


def trailing_data(data: bytes) -> bytes:
    return data + pack({"kind": "move", "seq": 999})


def junk(_data: bytes) -> bytes:
    """Bytes that are no log at all (the same on every run)."""
    return b"".join(hashlib.sha256(b"junk %d" % i).digest() for i in range(8))


def ranked_time(data: bytes) -> bytes:
    """A ranked run's time made shorter: the relay's stamps say otherwise."""
    return rewrite(data, end=lambda e: e.update(meta=dict(e["meta"], duration_ms=1000)))


def stamped_time(data: bytes) -> bytes:
    """A stamped local run's time made shorter than its last move's stamp."""
    return rewrite(data, end=lambda e: e.update(meta=dict(e["meta"], duration_ms=1000)))


def stamp_back(data: bytes) -> bytes:
    """A stamped local run with one move stamped earlier than the one before (the time
    between them squeezed out) and the end's time still its last stamp."""
    return rewrite(data, record=_at_seq(10, lambda rec: rec.update(at=0)))


def control_code_name(data: bytes) -> bytes:
    """A seat renamed so that printing it moves the cursor up a line and erases it (the
    "not signed" line above the verdict); the rest made consistent around the new name."""
    def rename(h: dict) -> None:
        h["seats"] = [dict(h["seats"][0], name="Ada\x1b[1A\x1b[2K\r"), *h["seats"][1:]]
    return rewrite(data, header=rename)


def stripped_daily_signatures(data: bytes) -> bytes:
    """A relay's daily with every signature, seat key and signed request taken out: a
    log of the ``day`` scheme that nobody vouches for (only a relay holds a day's seed)."""
    def unsign_header(h: dict) -> None:
        del h["signing"]

    def unsign(rec: dict) -> None:
        rec.pop("sig", None)
        rec.pop("intent", None)
    return rewrite(data, header=unsign_header, record=unsign, end=lambda e: e.pop("sig", None))


def boolean_place(data: bytes) -> bytes:
    """The winner's place written as ``true`` (equal to 1 in Python, not in the format)."""
    def place(e: dict) -> None:
        e["standings"] = [dict(e["standings"][0], place=True), *e["standings"][1:]]
    return rewrite(data, end=place)


# name -> (the log it is made from, how, the verify code it must get)
FORGERIES: dict[str, tuple[str, Callable[[bytes], bytes], str]] = {
    "forged-die": ("solo-seeded", forged_die, "dice"),
    "forged-total": ("solo-random", forged_total, "totals"),
    "forged-die-after-undo": ("practice-undo", forged_die_after_undo, "dice"),
    "forged-state-hash": ("solo-random", forged_state_hash, "state_hash"),
    "forged-seed": ("table-simulated", forged_seed, "commitment"),
    "broken-chain": ("solo-random", broken_chain, "chain"),
    "bad-relay-signature": ("table-give-up-signed", bad_relay_sig, "signature"),
    "wrong-seat-key": ("table-give-up-signed", wrong_seat_key, "signature"),
    "forged-batch-proof": ("ranked-batch-signed", forged_batch_proof, "signature"),
    "forged-ranked-time": ("ranked", ranked_time, "time"),
    "forged-stamped-time": ("solo-stamped", stamped_time, "time"),
    "stamp-goes-back": ("solo-stamped", stamp_back, "format"),
    "no-end": ("solo-seeded", no_end, "missing_reveal"),
    "truncated": ("table-give-up-signed", truncated, "truncated"),
    "trailing-data": ("daily-offline", trailing_data, "trailing_data"),
    "junk": ("solo-random", junk, "not_a_log"),
    "control-code-name": ("table-simulated", control_code_name, "format"),
    "stripped-daily-signatures": ("daily-relay-solo", stripped_daily_signatures, "format"),
    "boolean-place": ("table-simulated", boolean_place, "format"),
}


# ---------------------------------------------------------------- the manifest
def signed_kind(sentence: str) -> str:
    """The kind of ``Verdict.signed``: who the log says dealt and moved."""
    if sentence.startswith("self-dealt"):
        return "self-dealt"
    if sentence.startswith("not signed"):
        return "not-signed"
    if "signed by relay key" in sentence:
        return "relay-signed"
    raise ValueError(f"a signed sentence of a new kind: {sentence!r}")


def entry(data: bytes, made_from: str | None = None) -> dict:
    v = verify_bytes(data)
    try:
        parse_log(data)
        parses = True
    except LogError:
        parses = False
    e: dict = {"ok": v.ok, "code": v.code, "parses": parses,
               "sha256": hashlib.sha256(data).hexdigest()}
    if made_from is not None:
        e["made_from"] = made_from + ".bonanza"
    if v.ok:
        h = v.log.header
        e.update(mode=h["mode"], scheme=h["dice"]["scheme"], ruleset=h["ruleset"],
                 seats=[s["name"] for s in h["seats"]], totals=v.log.end["totals"],
                 moves=len(v.log.records), signed=signed_kind(v.signed))
        if "signing" in h:
            e["relay_key"] = signing.fingerprint(h["signing"]["relay"])
    return e


def path(name: str) -> str:
    return os.path.join(OUT, name + ".bonanza")


def main(argv: list[str]) -> int:
    unknown = [n for n in argv if n not in VALID]
    if unknown:
        print(f"unknown log(s): {', '.join(unknown)}; one of {', '.join(VALID)}", file=sys.stderr)
        return 2
    os.makedirs(OUT, exist_ok=True)
    wanted = {n for n in VALID if n in argv or not os.path.exists(path(n))}
    made = {n: LOCAL_GAMES[n]() for n in LOCAL_GAMES if n in wanted}
    if wanted & set(RELAY_GAMES):
        made.update(asyncio.run(_relay_games(wanted & set(RELAY_GAMES))))
        for name, data in made.items():
            if name in RELAY_GAMES:
                with open(path(name), "wb") as f:
                    f.write(data)
    made.update({n: DERIVED_GAMES[n]() for n in DERIVED_GAMES if n in wanted})
    for name, data in made.items():
        v = verify_bytes(data)
        if not v.ok:
            raise SystemExit(f"{name} does not verify: {v.detail}")
        with open(path(name), "wb") as f:
            f.write(data)
    manifest: dict = {}
    kept = sorted(f[:-len(".bonanza")] for f in os.listdir(OUT) if f.endswith(".bonanza"))
    for name in [*VALID, *(n for n in kept if n not in VALID and n not in FORGERIES)]:
        with open(path(name), "rb") as f:
            data = f.read()
        signer = signing.Signer(RELAY_KEY) if name in RELAY_GAMES else None
        if rewrite(data, relay=signer) != data:
            raise SystemExit(f"{name}: rewriting it unchanged changes it; the forgeries would lie")
        manifest[name + ".bonanza"] = entry(data)
    for name, (base, forge, code) in FORGERIES.items():
        with open(path(base), "rb") as f:
            data = forge(f.read())
        e = entry(data, base)
        if e["ok"] or e["code"] != code:
            raise SystemExit(f"{name}: expected {code}, verify says {e['code']}")
        with open(path(name), "wb") as f:
            f.write(data)
        manifest[name + ".bonanza"] = e
    with open(MANIFEST, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(made)} log(s) made, {len(FORGERIES)} forgeries, manifest: {MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
