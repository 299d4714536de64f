"""``bonanza export GAME_ID OUT``: save a recorded game as a record file that ``bonanza verify`` checks."""
from __future__ import annotations

import argparse
import sys

from .account import add_data_argument


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="save a recorded game's replay to a file",
                       description=__doc__)
    p.add_argument("game_id", type=int, metavar="GAME_ID",
                   help="the game's id (see `bonanza records --history N`)")
    p.add_argument("out", metavar="OUT", help="the file to write (e.g. run.bonanza)")
    add_data_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..store.records import RecordError, export_record, format_duration
    from .account import cli_store, missing_data_dir

    problem = missing_data_dir(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    with cli_store(args.data) as store:
        try:
            path = export_record(store, args.game_id, args.out)
        except RecordError as e:
            print(f"error: {e.message}", file=sys.stderr)
            return 1
        except Exception as e:
            print(f"error: {getattr(e, 'message', None) or e}", file=sys.stderr)
            return 1
        g = store.game(args.game_id)
        if g is not None:   # it was there a moment ago, when its log was exported
            extra = f", seed {g.seed}" if g.seed else (f", daily {g.date}" if g.date else "")
            print(f"game {g.id}: {g.ruleset} {g.mode}, score {g.score}, "
                  f"time {format_duration(g.duration_ms)}{extra}")
        print(f"written to {path}; check it with: bonanza verify {path}")
        return 0
