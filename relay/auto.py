"""Automatic moves: the clock's (advisor's first box) and the bots'.

The advisor's tables are loaded once in a worker thread (``prepare``); every
query afterwards is a fast table lookup, so it can run on the event loop.
"""
from __future__ import annotations

import asyncio
from typing import Any, Sequence

from bonanza.core.rules import Sheet, get_ruleset

RULESETS = ("bonanza", "yacht")


class Auto:
    def __init__(self) -> None:
        self._ready: asyncio.Event | None = None
        self._task: asyncio.Task | None = None

    def start(self) -> asyncio.Event:
        """Begin loading the advisors in a thread (call on the running loop); the event
        set once they are in memory."""
        if self._ready is None:
            self._ready = asyncio.Event()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._load(self._ready))
        return self._ready

    @staticmethod
    async def _load(ready: asyncio.Event) -> None:
        from bonanza.core.advisor import get_advisor
        for name in RULESETS:
            await asyncio.to_thread(get_advisor, name)
        ready.set()

    @property
    def loaded(self) -> bool:
        """The advisors are in memory: a query costs a table lookup, not a build."""
        return self._ready is not None and self._ready.is_set()

    async def ready(self) -> None:
        await self.start().wait()

    @staticmethod
    def advisor_box(ruleset: str, sheet: Sheet, dice: Sequence[int], rolls_left: int) -> str:
        from bonanza.core.advisor import get_advisor
        return get_advisor(ruleset).advise(sheet, dice, rolls_left).boxes[0].box

    @staticmethod
    def bot_action(policy: str | None, ruleset: str, sheet: Sheet, dice: Sequence[int] | None,
                   rolls_left: int) -> tuple[str, Any]:
        """("hold", mask5) -> roll keeping mask, or ("write", box)."""
        from bonanza.core.bots import choose
        return choose(policy or "casual", get_ruleset(ruleset), sheet, dice, rolls_left)
