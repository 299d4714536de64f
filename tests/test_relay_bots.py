"""The host chooses the bots: create_table's ``bots`` (one policy or one per bot seat)."""
from __future__ import annotations

import asyncio

import pytest

from bonanza.client.relay_client import RelayError
from bonanza.core.verify import verify_bytes
from tests.relay_harness import connect, play_to_end, running_relay


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 60))


def test_bots_policy_in_table_info_header_and_log():
    async def main():
        async with running_relay() as relay:
            a = await connect(relay)
            joined = await a.create_table("Ana", 3, 30, "yacht", bots="optimal")
            assert joined["table"]["bots"] == "optimal"
            await a.start()
            await a.wait_until(lambda: a.header is not None)
            seats = a.header["seats"]
            assert [(s["kind"], s["policy"]) for s in seats] == [
                ("human", None), ("bot", "optimal"), ("bot", "optimal")]
            assert [p.get("policy") for p in a.table["players"]] == [None, "optimal", "optimal"]
            assert all(s["name"].startswith("Bot ") for s in seats[1:])
            await play_to_end([a])
            verdict = verify_bytes(a.end["log"])
            assert verdict.ok and [s["policy"] for s in verdict.log.header["seats"]][1:] == ["optimal"] * 2

            # default: casual; a list gives each bot seat its policy, the rest are casual
            b = await connect(relay)
            assert (await b.create_table("Ben", 2, 30))["table"]["bots"] == "casual"
            await b.start()
            await b.wait_until(lambda: b.header is not None)
            assert b.header["seats"][1]["policy"] == "casual"
            await b.leave()

            c, d = await connect(relay), await connect(relay)
            j = await c.create_table("Cy", 4, 30, bots=["optimal"])
            assert j["table"]["bots"] == ["optimal"]
            await d.join(j["table"]["code"], "Di")        # humans take seats first
            await c.start()
            await c.wait_until(lambda: c.header is not None)
            assert [(s["kind"], s["policy"]) for s in c.header["seats"]] == [
                ("human", None), ("human", None), ("bot", "optimal"), ("bot", "casual")]

            e = await connect(relay)
            for bad in ("genius", ["optimal", "nope"], [], ["casual"] * 4, 3):
                with pytest.raises(RelayError) as err:
                    await e.create_table("Ed", 4, 30, bots=bad)
                assert err.value.code == "bad_settings"
            for x in (a, b, c, d, e):
                await x.close()
    run(main())
