"""Names that count people in the relay's databases (a daily's one attempt a person, a
ranked board's attempts) are keyed by ``core.names.name_key``.  A database whose rows
were keyed by another version of that function (the relay's own hand-made subset of
confusables before it) has its keys recomputed when it is opened, so a look-alike of a
name that played before is still the same person."""
from __future__ import annotations

import sqlite3

from bonanza.core.names import KEY_VERSION, name_key

__all__ = ["name_key", "rekey"]


def rekey(db: sqlite3.Connection, table: str) -> None:
    """Recompute ``table``'s ``name_key`` column from its ``name`` column, once per key
    version.  A row whose new key would make it a second row of one person where that
    must be unique (a day's attempts) keeps its old key: it is history, and nothing is
    lost."""
    db.execute("CREATE TABLE IF NOT EXISTS name_key_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT version FROM name_key_version").fetchone()
    if row is not None and row[0] == KEY_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        pairs = db.execute(f"SELECT DISTINCT name, name_key FROM {table}").fetchall()
        for name, old in pairs:
            new = name_key(name)
            if new != old:
                db.execute(f"UPDATE OR IGNORE {table} SET name_key = ? "
                           "WHERE name = ? AND name_key = ?", (new, name, old))
        db.execute("DELETE FROM name_key_version")
        db.execute("INSERT INTO name_key_version (version) VALUES (?)", (KEY_VERSION,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
