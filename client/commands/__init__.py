"""The ``bonanza`` command: the game window by default, plus subcommands.

Each subcommand lives in its own ``client.commands.*`` module exposing
``add_parser(subparsers)`` and ``run(args) -> int``.  Those modules import their
heavy dependencies inside ``run``, so ``bonanza verify`` never loads pygame.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> module; order is the order of ``bonanza --help``
SUBCOMMANDS = {
    "play": "bonanza.client.commands.play",
    "verify": "bonanza.client.commands.verify",
    "simulate": "bonanza.client.commands.simulate",
    "advise": "bonanza.client.commands.advise",
    "analyse": "bonanza.client.commands.analyse",
    "records": "bonanza.client.commands.records",
    "export": "bonanza.client.commands.export",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bonanza", description="Bonanza, the dice game. With no subcommand the game window opens.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS.values():
        importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play"] + argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``bonanza verify -v x | head``): end quietly, like cat
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0

