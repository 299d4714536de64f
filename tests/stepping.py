"""Driving a real window in tests: step it until something holds."""
from __future__ import annotations

import time


def step_until(app, predicate, seconds: float = 20.0, others=()) -> bool:
    """Step ``app`` (and call each of ``others``, e.g. a second client's poll) until
    ``predicate()`` holds or ``seconds`` pass; whether it holds."""
    deadline = time.time() + seconds
    while not predicate() and time.time() < deadline:
        app.step()
        for other in others:
            other()
        time.sleep(0.02)
    return predicate()
