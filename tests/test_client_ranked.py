"""A ranked run from the window, on a real relay: the board, the run dealt and timed by
the relay, the log recorded on the server's board (never a local one)."""
from __future__ import annotations

import time

from tests.pilot import step_until


def test_a_ranked_run_from_the_solo_screen(app, artifacts):
    from bonanza.client.actions import Action
    from bonanza.client.hosting import HostedRelay
    relay = HostedRelay(host="127.0.0.1")
    try:
        assert relay.ready.wait(15) and relay.port
        app.profile.name = "Ana"
        app.scene.on_press("solo")
        app.dispatch(Action("press", "ranked"))
        ranked = app.scene
        assert type(ranked).__name__ == "RankedScene"
        ranked.address.value, ranked.port.value = "127.0.0.1", str(relay.port)
        app.dispatch(Action("press", "connect"))
        assert step_until(app, lambda: ranked.info is not None)
        assert ranked.board() == [] and ranked.info["attempts"] == 0
        app.screenshot(artifacts / "client_ranked_board.png")
        app.dispatch(Action("press", "play"))
        assert step_until(app, lambda: type(app.scene).__name__ == "RankedGameScene")
        game = app.scene
        deadline = time.time() + 60
        while type(app.scene).__name__ == "RankedGameScene" and time.time() < deadline:
            app.step()
            st = game.state
            if st is not None and not st.over and game.my_turn():
                if st.dice is None:
                    app.dispatch(Action("roll"))
                else:
                    box = st.sheets[0].free_boxes()[0]
                    app.dispatch(Action("box", box))
                    if game.input.pending:
                        app.dispatch(Action("box", box))
            time.sleep(0.02)
        after = app.scene
        assert type(after).__name__ == "RankedScene" and after.result is not None
        assert step_until(app, lambda: after.info is not None and after.board())
        row = after.board()[0]
        assert row["name"] == "Ana" and row["attempts"] == 1
        assert row["score"] == after.result["end"]["totals"][0]
        app.step()
        app.screenshot(artifacts / "client_ranked_after.png")
        rec = app.profile.store.history(5)[0]
        assert rec.mode == "ranked" and rec.score == row["score"]
        assert rec.duration_ms == row["duration_ms"]           # the relay's time
    finally:
        relay.stop()
