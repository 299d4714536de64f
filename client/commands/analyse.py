"""``bonanza analyse FILE [--json]``: where each seat lost points and how much was luck.

The log is verified first (as ``bonanza verify`` does); every decision is then
compared with the exact advisor.  All figures are expected final scores; see
docs/analysis.md.  Exit 0 on success, 1 when the file cannot be analysed (one
line ``error: ...`` on stderr), 2 for bad arguments.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bonanza.core.analysis import GameAnalysis


def add_parser(sub) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"], help="analyse a finished game: mistakes, luck, accuracy",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="a finished game log (.bonanza)")
    p.add_argument("--json", action="store_true", help="print the whole analysis as JSON")
    p.add_argument("-v", "--verbose", action="store_true", help="list every decision")
    p.add_argument("--top", type=int, default=5, help="mistakes listed per seat (default 5)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bonanza.core.analysis import AnalysisError, analyse_log
    from bonanza.core.verify import verify_file

    verdict = verify_file(args.file)
    log = verdict.log
    if not verdict.ok or log is None:
        print(f"error: cannot analyse {args.file}: {verdict.detail} ({verdict.code})",
              file=sys.stderr)
        return 1
    try:
        analysis = analyse_log(log)
    except (AnalysisError, ValueError, OSError) as e:
        # a verified log should always analyse; this is a broken advisor cache or a bug
        print(f"error: cannot analyse {args.file}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(analysis.to_dict()))
    else:
        print(report(analysis, log.header, max(0, args.top), args.verbose))
    return 0


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def report(analysis: GameAnalysis, header: Mapping[str, Any], top: int = 5, verbose: bool = False) -> str:
    """The analysis as text for a terminal."""
    lines = [f"{analysis.ruleset} {header.get('mode', '')} game, {analysis.moves} moves; "
             f"expected score from an empty sheet {analysis.seats[0].start_expected:.1f}", ""]
    w = max(4, *(len(s.name) for s in analysis.seats))
    lines.append(f"{'seat':<{w}}  score  start exp   luck  skill loss  accuracy  mistakes")
    for s in analysis.seats:
        c = s.counts()
        note = f" (gave up: {s.gave_up})" if s.gave_up else ("" if s.complete else " (stopped early)")
        lines.append(f"{s.name:<{w}}  {s.score:5d}  {s.start_expected:9.1f}  {s.luck:+6.1f}  "
                     f"{s.skill_loss:10.1f}  {_num(s.accuracy):>8}  "
                     f"{c['blunder']}B {c['mistake']}M {c['inaccuracy']}I{note}")
    if analysis.win_chance:
        seq, final = analysis.win_chance[-1]
        lines.append("win chance at the end: " + ", ".join(
            f"{s.name} {p:.0%}" for s, p in zip(analysis.seats, final)))
    for s in analysis.seats:
        shown = s.decisions if verbose else s.mistakes(top)
        if not shown:
            continue
        lines += ["", f"{s.name}: " + ("every decision" if verbose else "biggest mistakes")]
        for d in shown:
            auto = " (automatic)" if d.auto else ""
            mark = f" [{d.grade}]" if d.grade else ""
            lines.append(f"  move {d.seq:4d}  turn {d.turn:2d}  dice {' '.join(map(str, d.dice))}  "
                         f"rolls left {d.rolls_left}: {d.choice.label()} {d.chosen:.1f}; "
                         f"best {d.best_choice.label()} {d.best:.1f}; "
                         f"loss {d.loss:.2f}{mark}{auto}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bonanza analyse")
    sub = p.add_subparsers()
    add_parser(sub)
    return run(p.parse_args(["analyse", *(sys.argv[1:] if argv is None else argv)]))


if __name__ == "__main__":
    sys.exit(main())
