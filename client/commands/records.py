"""``bonanza records``: best score, statistics and the personal-best board of the local account."""
from __future__ import annotations

import argparse
import os
import sys

from bonanza.core.settings import RULESETS

from .account import add_data_argument


def add_parser(sub) -> None:
    p = sub.add_parser("records", help="show best scores, statistics and personal bests",
                       description=__doc__)
    p.add_argument("--ruleset", choices=RULESETS, default=None,
                   help="only this ruleset (default: both)")
    p.add_argument("--mode", choices=("solo", "daily", "table", "practice"), default=None,
                   help="only the boards of this mode (default: every board with games)")
    p.add_argument("--limit", type=int, default=10, help="entries on the board (default 10)")
    p.add_argument("--history", type=int, default=0, metavar="N",
                   help="also list the N most recent games")
    add_data_argument(p)
    p.set_defaults(run=run)


# Local games are "self-dealt": this window chose the seed and timed the run, so their
# boards are never mixed with each other or with games a relay dealt and signed.
LABELS = {"random": "random seed (self-dealt)", "seeded": "set seed (self-dealt)",
          "daily": "daily (self-dealt)", "table": "table"}


def board_label(mode: str, category: str | None) -> str:
    if category == "relay":
        return f"{mode}, dealt and signed by a relay"
    return LABELS.get(category or "", f"{mode}, {category or 'unknown'}")


def seed_note(g) -> str:
    if g.seed_text is not None:
        return f"  seed \"{g.seed_text}\""
    if g.seed:
        return f"  seed {g.seed[:16]}"
    return f"  daily {g.date}" if g.date else ""


def run(args: argparse.Namespace) -> int:
    from ..store.records import format_duration
    from .account import cli_store, missing_data_dir

    problem = missing_data_dir(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    with cli_store(args.data) as store:
        try:
            total = store.stats()
            print(f"games played: {total['games']} finished"
                  + (f", {total['gave_up']} given up (never counted in bests or averages)"
                     if total["gave_up"] else ""))
            boards = [b for b in store.boards()
                      if (not args.ruleset or b[0] == args.ruleset)
                      and (not args.mode or b[1] == args.mode)]
            if not boards:
                print("\nno games yet")
            for ruleset, mode, category in boards:
                st = store.stats(ruleset=ruleset, mode=mode, category=category)
                best = store.best(ruleset, mode, category)
                print()
                print(f"{ruleset} / {board_label(mode, category)}: "
                      f"best {best if best is not None else '-'}")
                avg = f"{st['average']:.1f}" if st["average"] is not None else "-"
                print(f"  games {st['games']}, average {avg}, upper bonus reached "
                      f"{st['upper_bonus']} times, Bonanzas rolled {st['bonanzas']}"
                      + (f"; given up {st['gave_up']} (not counted)" if st["gave_up"] else ""))
                board = store.personal_bests(ruleset, mode, max(1, args.limit), category=category)
                if not board:
                    print("  no finished games yet")
                    continue
                print(f"  {'#':>3} {'score':>5} {'time':>10}  {'id':>5}  played")
                for i, g in enumerate(board, 1):
                    print(f"  {i:>3} {g.score:>5} {format_duration(g.duration_ms):>10}  "
                          f"{g.id:>5}  {g.played_at}{seed_note(g)}")
            if args.history > 0:
                print()
                print("recent games:")
                for g in store.history(args.history):
                    status = "" if g.finished else f"  {g.status.replace('_', ' ')}"
                    print(f"  {g.id:>5}  {g.played_at}  {g.mode:<5} {g.ruleset:<7} {g.score:>4}"
                          f"  {g.category or '-':<7}{status}"
                          f"{'  new best' if g.new_best else ''}"
                          f"{f'  DAMAGED: {g.damaged}' if g.damaged else ''}")
            if store.persistent:
                print(f"\n(data: {store.path}; every finished game is also a .bonanza file in "
                      f"{os.path.join(store.directory or '', 'games')}; `bonanza export ID FILE` saves "
                      f"any game's replay)")
        except Exception as e:   # a damaged store mid-read: a message, not a traceback
            print(f"error: {getattr(e, 'message', None) or e}", file=sys.stderr)
            return 1
    return 0
