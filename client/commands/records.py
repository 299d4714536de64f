"""``bonanza records``: best score, statistics and the personal-best board of the local account."""
from __future__ import annotations

import argparse
import sys

from core.settings import RULESETS

from ..store.records import add_data_argument


def add_parser(sub) -> None:
    p = sub.add_parser("records", help="show best scores, statistics and personal bests",
                       description=__doc__)
    p.add_argument("--ruleset", choices=RULESETS, default=None,
                   help="only this ruleset (default: both)")
    p.add_argument("--mode", choices=("solo", "daily", "table"), default=None,
                   help="board of this mode (default: solo for bonanza, daily for yacht)")
    p.add_argument("--limit", type=int, default=10, help="entries on the board (default 10)")
    p.add_argument("--history", type=int, default=0, metavar="N",
                   help="also list the N most recent games")
    add_data_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..store.records import cli_store, format_duration, missing_data_dir

    problem = missing_data_dir(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    with cli_store(args.data) as store:
        try:
            rulesets = [args.ruleset] if args.ruleset else list(RULESETS)
            total = store.stats()
            print(f"games played: {total['games']}")
            for ruleset in rulesets:
                mode = args.mode or ("daily" if ruleset == "yacht" else "solo")
                st = store.stats(ruleset=ruleset, mode=mode)
                best = store.best(ruleset, mode)
                print()
                print(f"{ruleset} / {mode}: best {best if best is not None else '-'}")
                avg = f"{st['average']:.1f}" if st["average"] is not None else "-"
                print(f"  games {st['games']}, average {avg}, upper bonus reached "
                      f"{st['upper_bonus']} times, Bonanzas rolled {st['bonanzas']}")
                board = store.personal_bests(ruleset, mode, max(1, args.limit))
                if not board:
                    print("  no games yet")
                    continue
                print(f"  {'#':>3} {'score':>5} {'time':>10}  {'id':>5}  played")
                for i, g in enumerate(board, 1):
                    seeded = f" seed {g.seed[:16]}" if g.seed else (f" daily {g.date}" if g.date else "")
                    print(f"  {i:>3} {g.score:>5} {format_duration(g.duration_ms):>10}  "
                          f"{g.id:>5}  {g.played_at}{seeded}")
            if args.history > 0:
                print()
                print("recent games:")
                for g in store.history(args.history):
                    print(f"  {g.id:>5}  {g.played_at}  {g.mode:<5} {g.ruleset:<7} {g.score:>4}"
                          f"{'  new best' if g.new_best else ''}"
                          f"{f'  DAMAGED: {g.damaged}' if g.damaged else ''}")
            if store.persistent:
                print(f"\n(data: {store.path}; `bonanza export ID FILE` saves a game's replay)")
        except Exception as e:   # a damaged store mid-read: a message, not a traceback
            print(f"error: {getattr(e, 'message', None) or e}", file=sys.stderr)
            return 1
    return 0
