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


# a log's way of dealing (core.verify.category "dealt") -> the words' catalogue key
DEALT_KEYS = {"random seed": "category.random", "set seed": "category.seeded",
              "daily": "category.daily", "ranked": "category.ranked", "table": "category.table"}


def label(t, ruleset: str, dealt: str | None = None, seed_text: str | None = None,
          hints: bool | None = None, animation: str | None = None, resumed: bool = False) -> str:
    """A category in words, as the results and the records name it: "Bonanza · set seed
    “speedrun 1” · no hints · Instant", what the log does not say left out."""
    parts = [t(f"records.ruleset.{ruleset}")]
    if dealt in DEALT_KEYS:
        parts.append(t(DEALT_KEYS[dealt], seed=seed_text or ""))
    if hints is not None:
        parts.append(t("category.hints" if hints else "category.no_hints"))
    if animation in ("instant", "animated"):
        parts.append(t(f"category.{animation}"))
    if resumed:
        parts.append(t("category.resumed"))
    return " · ".join(parts)


def label_of(t, cat: dict) -> str:
    """``label`` of a ``core.verify.category`` dict."""
    return label(t, cat["ruleset"], cat.get("dealt"), cat.get("seed_text"), cat.get("hints"),
                 cat.get("animation"), bool(cat.get("resumed")))
