"""``bonanza verify FILE``: check every die, move, hash and total of a finished game."""
from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="check a finished game's log", description=__doc__)
    p.add_argument("file", help="a game log (.bonanza)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every move")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bonanza.core.verify import verify_file

    verdict = verify_file(args.file)
    log = verdict.log
    if verdict.ok and log is not None and log.end is not None:
        header: Mapping[str, Any] = log.header
        end: Mapping[str, Any] = log.end
        if args.verbose:
            for rec, state in zip(log.records, verdict.states[1:]):
                print(f"{rec['seq']:4d}  {describe_move(header, rec['move'])}")
        dice = header["dice"]
        source = (f"public daily dice for {dice['date']}" if dice["scheme"] == "public"
                  else f"seed {end['reveal']['seed'].hex()} matches fingerprint {dice['commit'].hex()}")
        print(f"{header['ruleset']} {header['mode']} game, {len(log.records)} moves; {source}")
        print(verdict.signed)
    print(verdict.line())
    return 0 if verdict.ok else 1


def describe_move(header: Mapping[str, Any], move: Mapping[str, Any]) -> str:
    name = header["seats"][move["seat"]]["name"]
    auto = " (automatic)" if move.get("auto") else ""
    if move["type"] == "roll":
        held = "".join("x" if h else "." for h in move["hold"])
        return f"{name} rolls {' '.join(map(str, move['dice']))} holding {held}{auto}"
    if move["type"] == "write":
        return f"{name} writes {move['box']}{auto}"
    return f"{name} {move.get('why', 'gave_up').replace('_', ' ')}"
