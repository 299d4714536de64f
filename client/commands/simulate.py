"""``bonanza simulate``: a whole game between bots, no window; writes the log."""
from __future__ import annotations

import argparse
import os
import sys

from bonanza.core.settings import BOT_POLICIES, DEFAULT_RULESET, RULESETS, SettingError, seed_from_text


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play a bot game and write its log", description=__doc__)
    p.add_argument("--players", type=int, default=2, help="number of bot seats, 1-4 (default 2)")
    p.add_argument("--seed", required=True,
                   help="the seed as typed in the window's solo setup: 64 hex digits are the "
                        "seed itself, any other text is hashed (the same text, the same dice)")
    p.add_argument("--out", required=True, help="where to write the log")
    p.add_argument("--ruleset", choices=RULESETS, default=DEFAULT_RULESET)
    p.add_argument("--policy", default="optimal", help="bot policy: optimal or casual; "
                   "a comma list gives one per seat")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bonanza.core.simulate import simulate

    try:
        seed = seed_from_text(args.seed)
    except SettingError as e:
        print(f"error: --seed: {e}", file=sys.stderr)
        return 2
    if not 1 <= args.players <= 4:
        print("error: --players must be 1 to 4", file=sys.stderr)
        return 2
    policies = args.policy.split(",")
    if len(policies) == 1:
        policies *= args.players
    if len(policies) != args.players or any(p not in BOT_POLICIES for p in policies):
        print("error: --policy takes optimal or casual, once or once per seat", file=sys.stderr)
        return 2
    match = simulate(args.ruleset, policies, seed)
    data = match.log.to_bytes()
    tmp = args.out + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, args.out)
    except OSError as e:
        print(f"error: cannot write {args.out}: {e.strerror or e}", file=sys.stderr)
        return 1
    end = match.log.end
    for s in end["standings"] if end is not None else []:
        print(f"{s['place']}. {s['name']:<12} {s['total']:>4}")
    fingerprint = match.commitment.hex() if match.commitment is not None else "-"
    print(f"log written to {args.out} (seed fingerprint {fingerprint})")
    return 0
