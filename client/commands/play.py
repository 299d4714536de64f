"""``bonanza`` / ``bonanza play``: open the game window."""
from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="open the game window (the default)", description=__doc__)
    p.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x720")
    p.add_argument("--fullscreen", action="store_true", help="start in fullscreen")
    p.add_argument("--data-dir", help="where the account and games are kept")
    p.add_argument("--no-sound", action="store_true", help="play without sound")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    size = None
    if getattr(args, "size", None):
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (max(960, w), max(540, h))
        except ValueError:
            print(f"bonanza: --size wants WxH, e.g. 1280x720 (got {args.size!r})")
            return 2
    from ..app import App
    app = App(size, data_dir=getattr(args, "data_dir", None), sound=not getattr(args, "no_sound", False),
              fullscreen=True if getattr(args, "fullscreen", False) else None)
    return app.run()
