"""``bonanza advise``: the exact optimal advisor on the command line.

Without --dice it prints the expected final score from an empty sheet; with
--dice it advises one situation; with --json-lines it answers one JSON
situation per stdin line.  "expected" is always the score still to come from
that moment on, not counting what is already on the sheet.
"""
from __future__ import annotations

import argparse
import json
import sys

from bonanza.core.rules import RULESETS


def add_parser(sub) -> None:
    p = sub.add_parser("advise", help="the optimal advisor: expected scores, best boxes and holds",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    p.set_defaults(run=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", default="bonanza", help="bonanza, yacht or yatzy (default bonanza)")
    p.add_argument("--filled", default="", help="comma list of filled boxes, e.g. ones,sixes")
    p.add_argument("--upper", type=int, default=0, help="upper total on the sheet (default 0)")
    p.add_argument("--bonanza-50", action="store_true", help="the Bonanza box holds 50")
    p.add_argument("--dice", help="five dice, e.g. 3,3,3,6,6")
    p.add_argument("--rolls-left", type=int, default=0, help="rolls still allowed, 0-2")
    p.add_argument("--json", action="store_true", help="answer as JSON")
    p.add_argument("--json-lines", action="store_true",
                   help="read one JSON situation per stdin line, answer one JSON line each")


class InputError(ValueError):
    pass


def _advisor(name: str):
    from bonanza.core.advisor import get_advisor
    if name not in RULESETS:
        raise InputError(f"unknown ruleset {name!r}; choose one of: {', '.join(RULESETS)}")
    return get_advisor(name)


def _mask(filled, boxes: tuple[str, ...]) -> int:
    if isinstance(filled, str):
        filled = [b.strip() for b in filled.split(",") if b.strip()]
    if not isinstance(filled, (list, tuple)):
        raise InputError("filled must be a list of box names")
    mask = 0
    for b in filled:
        if not isinstance(b, str) or b not in boxes:
            raise InputError(f"unknown box {b!r}; boxes are: {' '.join(boxes)}")
        if mask >> boxes.index(b) & 1:
            raise InputError(f"box {b} is listed twice")
        mask |= 1 << boxes.index(b)
    return mask


def _dice(dice) -> tuple[int, ...]:
    if isinstance(dice, str):
        try:
            dice = [int(x) for x in dice.split(",") if x.strip()]
        except ValueError:
            raise InputError(f"dice must be numbers 1 to 6, got {dice!r}") from None
    if not isinstance(dice, (list, tuple)):
        raise InputError("dice must be a list of five numbers")
    if len(dice) != 5:
        raise InputError(f"need exactly 5 dice, got {len(dice)}")
    for d in dice:
        if type(d) is not int or not 1 <= d <= 6:
            raise InputError(f"a die shows 1 to 6, got {d!r}")
    return tuple(dice)


def answer(ruleset, filled, upper, bonanza_50, dice, rolls_left) -> dict:
    """One situation's JSON answer; InputError/ValueError on bad input."""
    if not isinstance(ruleset, str):
        raise InputError("ruleset must be a name")
    adv = _advisor(ruleset)
    mask = _mask(filled if filled is not None else [], adv.ruleset.boxes)
    if type(upper) is not int or upper < 0:
        raise InputError(f"upper must be a whole number >= 0, got {upper!r}")
    if not isinstance(bonanza_50, bool):
        raise InputError("bonanza_50 must be true or false")
    if dice is None:
        return {"expected": adv.value(mask, upper, bonanza_50)}
    d = _dice(dice)
    if type(rolls_left) is not int or not 0 <= rolls_left <= 2:
        raise InputError(f"rolls left must be 0, 1 or 2, got {rolls_left!r}")
    a = adv.advise_state(mask, upper, bonanza_50, d, rolls_left)
    return {
        "expected": a.expected,
        "boxes": [{"box": o.box, "points": o.points, "expected": o.expected} for o in a.boxes],
        "holds": [{"hold": list(h.hold), "expected": h.expected} for h in a.holds],
    }


def _table(ans: dict, rolls_left: int) -> str:
    lines = [f"expected from here: {ans['expected']:.4f}", "", "boxes (best first):"]
    for o in ans["boxes"]:
        lines.append(f"  {o['box']:<15} {o['points']:>3} pts   expected {o['expected']:10.4f}")
    if rolls_left:
        lines += ["", "holds (best first):"]
        for h in ans["holds"][:10]:
            held = " ".join(map(str, h["hold"])) or "(reroll all)"
            lines.append(f"  {held:<15}           expected {h['expected']:10.4f}")
        if len(ans["holds"]) > 10:
            lines.append(f"  ... {len(ans['holds']) - 10} more")
    return "\n".join(lines)


def _json_lines(stdin, stdout) -> int:
    failed = False
    keys = {"ruleset", "filled", "upper", "bonanza_50", "dice", "rolls_left"}
    for line in stdin:
        if not line.strip():
            continue
        try:
            try:
                q = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"not JSON: {e.msg}") from None
            if not isinstance(q, dict):
                raise InputError("each line must be a JSON object")
            unknown = set(q) - keys
            if unknown:
                raise InputError(f"unknown field(s): {', '.join(sorted(unknown))}")
            out = answer(q.get("ruleset", "bonanza"), q.get("filled", []), q.get("upper", 0),
                         q.get("bonanza_50", False), q.get("dice"), q.get("rolls_left", 0))
        except ValueError as e:
            failed = True
            out = {"error": str(e)}
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    if args.json_lines:
        return _json_lines(sys.stdin, sys.stdout)
    try:
        ans = answer(args.ruleset, args.filled, args.upper, args.bonanza_50,
                     args.dice, args.rolls_left)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json or args.dice is None:
        if args.json:
            print(json.dumps(ans))
        else:
            print(f"expected: {ans['expected']:.7f}")
    else:
        print(_table(ans, args.rolls_left))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bonanza advise", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
