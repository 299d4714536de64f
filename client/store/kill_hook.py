"""A test hook: the store process kills itself at an exact point.

``BONANZA_TEST_KILL_AT=<point>:<k>`` makes the k-th time this process reaches
``<point>`` end it at once with SIGKILL, as a power cut or ``kill -9`` would, so the
crash tests (tests/test_store_crash.py, tests/test_store_kill.py) kill at the moment
they mean to prove safe instead of after a guessed sleep.  The variable is read here
only, once; unset (always, outside those tests) ``reached`` does nothing.

Points:

* ``commit`` - a write transaction is complete but not yet committed;
* ``checkpoint`` - a game is committed, ``record_game`` has not returned (not yet
  acknowledged, and the game is still only in the -wal);
* ``salvage_row`` - a salvage has recorded one more game into the new file;
* ``salvage_moved`` - the salvage marker is written and the damaged file moved aside;
* ``salvage_filled`` - the new file is complete under its temporary name;
* ``salvage_placed`` - the new file is in place, the marker not yet removed.
"""
from __future__ import annotations

import os
import signal

ENV_VAR = "BONANZA_TEST_KILL_AT"


def _parse(value: str | None) -> tuple[str, int] | None:
    if not value:
        return None
    point, _, k = value.rpartition(":")
    try:
        return (point, int(k)) if point else None
    except ValueError:
        return None


_target = _parse(os.environ.get(ENV_VAR))
_count = 0


def reached(point: str) -> None:
    """Mark ``point``; the k-th time it is the chosen one, the process dies here."""
    global _count
    if _target is None or _target[0] != point:
        return
    _count += 1
    if _count == _target[1]:
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
