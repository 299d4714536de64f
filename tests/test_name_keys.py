"""One person, one name (issue 21, build point 7): a name is refused when it holds what is
not drawn as itself or nothing is left of it, and wherever names count people (a
daily's one attempt, a ranked board's attempts, a table's seats) look-alikes are one
person by ``core.names.name_key`` — in databases written before that key too."""
from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core.names import name_key
from bonanza.core.settings import SettingError, clean_name
from bonanza.relay.daily import DailyStore
from bonanza.relay.ranked import RankedStore
from tests.relay_harness import ManualClock, connect, running_relay

# the names from the issue, and the names the relay's own key caught before
ONE_PERSON = [
    ("Sly", "Sly\u034f"), ("Sly", "Sly\u3164"), ("Sly", "SIy"), ("Sly", "S\u0269y"),
    ("ANA", "\u0410na"),
    ("Ana", "\uff21\uff4e\uff41"), ("Zo\u00eb", "Zoe"), ("Ana Lu", "AnaLu"),
    ("Speedy", "Spe\u0435dy"), ("Carl", "Car1"), ("Mona", "Rnona"), ("will", "vvill"),
    ("Ola", "0la"), ("P\u0430ul", "Paul"),
]


@pytest.mark.parametrize("a, b", ONE_PERSON)
def test_look_alike_names_are_one_person(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("bad", ["Sly\u034f", "Sly\u3164", "\u3164", "a\x1b[2K", "x\u202ey",
                                 "Ana\u200b", "\u0300\u0301", "   ", "", "A" * 25, 7, None])
def test_a_name_not_drawn_as_itself_or_blank_is_refused(bad):
    with pytest.raises(SettingError):
        clean_name(bad)


@pytest.mark.parametrize("good", ["Zo\u00eb", "Ana  Lu", "S\u0269y", "\u0410na", "Bj\u00f6rk", "李小龍"])
def test_ordinary_names_pass(good):
    assert clean_name(good) == " ".join(good.split())


def test_a_day_counts_one_attempt_per_person(tmp_path):
    store = DailyStore(tmp_path / "daily.sqlite3")
    assert store.start_attempt("2024-06-01", "Sly") is None
    for other in ("SIy", "S\u0269y", "sly", "S l y"):
        assert store.start_attempt("2024-06-01", other) == "name", other
        assert store.has_played("2024-06-01", other)
    assert store.start_attempt("2024-06-01", "\u0410NA") is None
    assert store.start_attempt("2024-06-01", "Ana") == "name"
    store.close()


def test_ranked_attempts_count_one_person_under_every_look_alike(tmp_path):
    store = RankedStore(tmp_path / "ranked.sqlite3")
    for name in ("Sly", "SIy", "S\u0269y"):
        store.start(name, "bonanza", False, "2024-06-01")
    assert store.attempts("sly") == 3
    store.close()


def _old_key(name: str) -> str:
    """What the relay stored before core.names: NFKC, case folded, no white space (the
    names below have none of its hand-made look-alikes)."""
    import unicodedata
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def test_an_old_daily_database_is_rekeyed_when_opened(tmp_path):
    path = tmp_path / "daily.sqlite3"
    DailyStore(path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE name_key_version")      # as the relay left it before the new key
    rows = [("2024-06-01", "S\u0269y", 200), ("2024-06-01", "SIy", 150), ("2024-05-31", "SIy", 99)]
    for date, name, score in rows:
        db.execute("INSERT INTO attempts (date, name_key, name, score) VALUES (?, ?, ?, ?)",
                   (date, _old_key(name), name, score))
    db.commit()
    db.close()
    store = DailyStore(path)
    # "Sɩy" is now "sly": "Sly" has played that day; the second row of one person keeps
    # its old key and both attempts stay on the board (history, nothing lost)
    assert store.start_attempt("2024-06-01", "Sly") == "name"
    assert store.start_attempt("2024-05-31", "Sly") == "name"
    assert [r["name"] for r in store.leaderboard("2024-06-01")] == ["S\u0269y", "SIy"]
    keys = dict(store.db.execute("SELECT name, name_key FROM attempts WHERE date = '2024-05-31'"))
    assert keys == {"SIy": "sly"}
    store.close()
    again = DailyStore(path)                        # rekeyed once, not on every open
    assert again.db.execute("SELECT version FROM name_key_version").fetchall() == [(1,)]
    again.close()


def test_an_old_ranked_database_is_rekeyed_when_opened(tmp_path):
    path = tmp_path / "ranked.sqlite3"
    RankedStore(path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE name_key_version")
    for name in ("Sly", "SIy", "S\u0269y"):
        db.execute("INSERT INTO runs (name_key, name, ruleset, hints, date, score, duration_ms) "
                   "VALUES (?, ?, 'bonanza', 0, '2024-06-01', 100, 1000)", (_old_key(name), name))
    db.commit()
    db.close()
    store = RankedStore(path)
    assert store.attempts("Sly") == 3
    board = store.board("bonanza", False)
    assert len(board) == 1 and board[0]["attempts"] == 3
    store.close()


def test_a_table_takes_a_look_alike_name_as_taken():
    async def main():
        async with running_relay(clock=ManualClock(date="2024-06-01")) as relay:
            a, b = await connect(relay), await connect(relay)
            j = await a.create_table("ANA", 3, 60, "yacht")
            for name in ("\u0410na", "ana", "A N A"):
                with pytest.raises(RelayError) as e:
                    await b.join(j["table"]["code"], name)
                assert e.value.code == "name_taken", name
            with pytest.raises(RelayError) as e:
                await b.join(j["table"]["code"], "Ana\u3164")
            assert e.value.code != "name_taken"          # refused as a name, before that
            await b.join(j["table"]["code"], "Ben")
            await a.close()
            await b.close()
    asyncio.run(asyncio.wait_for(main(), 60))


def test_the_daily_refuses_a_look_alike_of_a_name_that_played():
    async def main():
        async with running_relay(clock=ManualClock(date="2024-06-01")) as relay:
            a = await connect(relay)
            await a.daily_play("Sly")
            for name in ("SIy", "S\u0269y"):
                b = await connect(relay)
                with pytest.raises(RelayError) as e:
                    await b.daily_play(name)
                assert e.value.code == "daily_already_played", name
                assert "has already played" in str(e.value), str(e.value)
                await b.close()
            await a.close()
    asyncio.run(asyncio.wait_for(main(), 60))
