"""Which runs compare with which: a run's category, as a key and as words.

A local run is one of ruleset × {random seed, set seed (that seed)} × {hints, no hints} ×
{Instant, animated} (issue 25): the animation setting changes a run's time (a roll waits for
its tumble) and hints change its decisions, so a time only means something beside times of
the same category.  The attempt counter is kept per category."""
from __future__ import annotations


def local_category(ruleset: str, seed_text: str | None, hints: bool, animation: str) -> str:
    """The key of a local solo run's category (set-seed runs: per seed, as typed)."""
    seed = f"seed:{seed_text.strip()}" if seed_text and seed_text.strip() else "random"
    return "|".join((ruleset, seed, "hints" if hints else "no-hints",
                     "instant" if animation == "instant" else "animated"))
