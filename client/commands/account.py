"""The account store for the subcommands that read it: ``--data DIR``, the error for a
folder that is not there, and the store opened with its notices on stderr."""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # the store is opened in ``run``, so ``--help`` and ``verify`` never load it
    from ..store import Store


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """``--data DIR`` for the ``bonanza`` subcommands that read the account store."""
    parser.add_argument("--data", default=None, metavar="DIR",
                        help="data folder (default: $BONANZA_DATA_DIR or the user data folder)")


def missing_data_dir(data_dir: str | None) -> str | None:
    """The error for a ``--data`` folder that does not exist (None if it does, or if no
    folder was given): a mistyped path must not quietly start an empty account."""
    if data_dir is None or os.path.isdir(data_dir):
        return None
    what = "is not a folder" if os.path.exists(data_dir) else "does not exist"
    return (f"the data folder {os.path.abspath(data_dir)} {what}. Check the path given to "
            f"--data, or leave --data out to use the usual folder.")


@contextmanager
def cli_store(data_dir: str | None) -> Iterator[Store]:
    """The account store for a subcommand: its notices go to stderr, and it is closed after."""
    from ..store import open_store
    store, notices = open_store(data_dir)
    try:
        for n in notices:
            print(f"note: {n.message}", file=sys.stderr)
        yield store
    finally:
        store.close()
