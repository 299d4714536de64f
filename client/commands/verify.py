"""``bonanza verify FILE``: check every die, move, hash and total of a finished game.

The plain output is two lines of facts (the game, then who signed it) and the verdict;
``--json`` prints the same facts as one JSON object (``core.verify.facts``).  Every name
is printed escaped: a log is a file anyone can write.  ``--relay FINGERPRINT`` refuses a
log that the relay with that key did not sign (a log re-signed by any other key looks
just as valid otherwise).
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="check a finished game's log", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="a game log (.bonanza)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every move")
    p.add_argument("--json", action="store_true",
                   help="print the verdict and the facts it vouches for as JSON")
    p.add_argument("--relay", metavar="FINGERPRINT",
                   help="refuse a log not signed by this relay key (as the relay's window "
                        "shows it, e.g. \"9cd2 807e 57f8 88cb\")")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bonanza.core.verify import facts, verify_file

    verdict = verify_file(args.file, relay=args.relay)
    if args.json:
        print(json.dumps(facts(verdict), ensure_ascii=False, indent=1))
        return 0 if verdict.ok else 1
    log = verdict.log
    if verdict.ok and log is not None and log.end is not None:
        header: Mapping[str, Any] = log.header
        if args.verbose:
            for rec in log.records:
                print(f"{rec['seq']:4d}  {describe_move(header, rec['move'])}")
        print(facts_line(facts(verdict), header, log.end))
        print(verdict.signed)
    print(verdict.line())
    return 0 if verdict.ok else 1


def facts_line(f: Mapping[str, Any], header: Mapping[str, Any], end: Mapping[str, Any]) -> str:
    """The game in one line: what it was, where its dice came from, when, how long, with
    or without hints, which attempt, and how it ended."""
    dice = header["dice"]
    source = (f"public daily dice for {dice['date']}" if dice["scheme"] == "public"
              else f"seed {end['reveal']['seed'].hex()} matches fingerprint {dice['commit'].hex()}")
    parts = [f"{f['ruleset']} {f['mode']} game, {f['moves']} moves; {source}",
             f"category {category_text(f['category'])}"]
    if f["date"] is not None:
        parts.append(f"date {f['date']}")
    if f["time_ms"] is not None:
        who = ("by the relay's clock, signed" if f["time_proven"]
               else "as the program that wrote the log says")
        parts.append(f"time {duration(f['time_ms'])} ({who})")
        parts.append("time proven" if f["time_proven"] else "time not proven")
    if f["attempt"] is not None:
        parts.append(f"attempt {f['attempt']}")
    if f["splits_ms"]:
        parts.append("splits " + " ".join(duration(ms, short=True) for ms in f["splits_ms"]))
    if f.get("undone"):
        parts.append("practice with undo: writes taken back at moves "
                     + " ".join(map(str, f["undone"])))
    if f["tool_assisted"]:
        parts.append("tool-assisted? (its decisions were quicker than a person reads dice)")
    places = ", ".join(f"{s['place']}. {s['name']} {s['total']}"
                       + (f" ({s['gave_up'].replace('_', ' ')})" if s["gave_up"] else "")
                       for s in f["standings"])
    return "; ".join(parts) + f"; {places}"


def duration(ms: int, short: bool = False) -> str:
    minutes, rest = divmod(ms, 60_000)
    if short and minutes == 0:
        return f"{rest // 1000}.{rest % 1000:03d}"
    return f"{minutes}:{rest // 1000:02d}.{rest % 1000:03d}"


def category_text(c: Mapping[str, Any]) -> str:
    """``bonanza, set seed "abc", no hints, instant`` (what the log does not say is left out)."""
    dealt = c["dealt"] + (f" {json.dumps(c['seed_text'], ensure_ascii=False)}" if c.get("seed_text") else "")
    parts = [c["ruleset"], dealt]
    if c["hints"] is not None:
        parts.append("hints" if c["hints"] else "no hints")
    if c["animation"] is not None:
        parts.append(c["animation"])
    if c.get("resumed"):
        parts.append("resumed (time away not counted: not a speedrun)")
    return ", ".join(parts)


def describe_move(header: Mapping[str, Any], move: Mapping[str, Any]) -> str:
    from bonanza.core.names import escaped

    name = escaped(header["seats"][move["seat"]]["name"])
    auto = " (automatic)" if move.get("auto") else ""
    if move["type"] == "roll":
        held = "".join("x" if h else "." for h in move["hold"])
        return f"{name} rolls {' '.join(map(str, move['dice']))} holding {held}{auto}"
    if move["type"] == "write":
        return f"{name} writes {move['box']}{auto}"
    if move["type"] == "undo":
        return f"{name} takes the write back (practice)"
    return f"{name} {move.get('why', 'gave_up').replace('_', ' ')}"
