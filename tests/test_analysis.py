"""Game analysis (core.analysis) and ``bonanza analyse``: losses against the exact
advisor, luck of every roll, the luck/skill identity, win chances."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core import analysis as A
from bonanza.core.game import Seat, allowed, new_game, standings
from bonanza.core.log import parse_log
from bonanza.core.match import Match
from bonanza.core.rules import BONANZA_POINTS, NUM_DICE
from bonanza.core.simulate import play_bot_turn, simulate

IDENTITY_TOL = 1e-6


@pytest.fixture(scope="module", autouse=True)
def advisors(shared_cache_dir):
    """Both advisors, loaded once from the session cache (hypothesis examples share them)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("BONANZA_CACHE_DIR", str(shared_cache_dir))
    from bonanza.core.advisor import get_advisor
    advs = {name: get_advisor(name) for name in ("bonanza", "yacht")}
    yield advs
    mp.undo()


def analysed(match: Match) -> A.GameAnalysis:
    """Through the file format, as the command and the screens see a game."""
    return A.analyse_log(parse_log(match.log.to_bytes()))


def joker_writes(match: Match) -> int:
    """Writes of five equal dice while the Bonanza box was already filled."""
    from bonanza.core.match import Replay
    replay, n = Replay(match.setup), 0
    for m in match.log.moves:
        st = replay.state
        if (m["type"] == "write" and len(set(st.dice)) == 1
                and st.sheets[m["seat"]].get("bonanza") is not None):
            n += 1
        replay.accept(m)
    return n


def check_identity(a: A.GameAnalysis) -> None:
    for s in a.seats:
        # every seat, finished or not: the expected final score only moves by luck and loss
        assert s.identity_gap == pytest.approx(0.0, abs=IDENTITY_TOL)
        if s.complete:
            assert s.score - s.start_expected == pytest.approx(s.luck - s.skill_loss,
                                                               abs=IDENTITY_TOL)
            assert s.expected_end == pytest.approx(s.score, abs=IDENTITY_TOL)
        assert sum(r.luck for r in s.rolls) == pytest.approx(s.luck, abs=IDENTITY_TOL)
        assert sum(d.loss for d in s.decisions) == pytest.approx(s.skill_loss, abs=IDENTITY_TOL)
        for d in s.decisions:
            assert d.loss >= 0.0
            assert d.best >= d.chosen - 1e-9
            assert d.loss == pytest.approx(d.best - d.chosen, abs=1e-9)


# ------------------------------------------------------------ bot games
@pytest.mark.parametrize("ruleset,seed", [("bonanza", b"opt-1"), ("yacht", b"opt-2"),
                                          ("bonanza", b"joker-4"), ("yacht", b"joker-15")])
def test_optimal_bot_loses_nothing(ruleset, seed):
    m = simulate(ruleset, ["optimal", "optimal"], seed)
    a = analysed(m)
    for s in a.seats:
        assert s.complete and s.decisions
        assert max(d.loss for d in s.decisions) <= 1e-9
        assert s.skill_loss <= 1e-9
        assert s.accuracy == pytest.approx(100.0)
        assert s.mistakes() == []
        # the optimal bot's choice is the analysis's best choice (same tie rule)
        assert all(d.choice == d.best_choice for d in s.decisions if not d.forced)
    check_identity(a)


def test_joker_games_keep_the_identity():
    """Seeds found to deal a joker: with the Bonanza box at 50 (extra bonus) and at 0, and
    a yacht game (no joker rule) with a second five of a kind."""
    for ruleset, seed in (("bonanza", b"joker-4"), ("bonanza", b"joker-15"),
                          ("yacht", b"joker-15")):
        m = simulate(ruleset, ["optimal", "optimal"], seed)
        assert joker_writes(m) >= 1, "the seed no longer deals a joker: pick another"
        check_identity(analysed(m))
    m = simulate("bonanza", ["optimal", "optimal"], b"joker-4")
    assert any(sh.extra_bonus > 0 for sh in m.state.sheets)


def test_casual_bot_loses_points_and_the_identity_holds():
    m = simulate("bonanza", ["casual", "optimal", "casual"], b"casual-1")
    a = analysed(m)
    for s in (a.seats[0], a.seats[2]):
        assert s.skill_loss > 1.0
        assert s.accuracy < 100.0
        worst = s.mistakes(3)
        assert worst and worst[0].loss == max(d.loss for d in s.decisions)
        assert [d.loss for d in worst] == sorted((d.loss for d in worst), reverse=True)
    assert a.seats[1].skill_loss <= 1e-9
    check_identity(a)


def test_figures_match_the_advisor_directly(advisors):
    """Each decision's values are the advisor's, for the state the log was in."""
    adv = advisors["yacht"]
    m = simulate("yacht", ["casual"], b"direct")
    a = analysed(m)
    from bonanza.core.match import Replay
    replay = Replay(m.setup)
    decisions = {d.seq: d for d in a.seats[0].decisions}
    rolls = {r.seq: r for r in a.seats[0].rolls}
    for move in m.log.moves:
        st = replay.state
        replay.accept(move)
        sheet = st.sheets[0]
        key = (sheet.filled_mask(), sheet.upper_sum, sheet.get("bonanza") == BONANZA_POINTS)
        score = sheet.total(adv.ruleset)
        seq = replay.state.seq
        if st.dice is not None:
            advice = adv.advise_state(*key, st.dice, st.rolls_left)
            d = decisions[seq]
            assert d.best == score + advice.expected
            if move["type"] == "write":
                assert d.chosen == score + next(b.expected for b in advice.boxes
                                                if b.box == move["box"])
            else:
                kept = tuple(sorted(x for x, h in zip(st.dice, move["hold"]) if h))
                assert d.chosen == score + next(h.expected for h in advice.holds
                                                if h.hold == kept)
                # the roll's luck is measured from the keep chosen, not from the best one
                assert rolls[seq].before == d.chosen
        if move["type"] == "roll":
            after = adv.advise_state(*key, replay.state.dice, replay.state.rolls_left)
            assert rolls[seq].after == score + after.expected
            if st.dice is None:
                assert rolls[seq].before == score + adv.value(*key)
            assert seq not in decisions or st.dice is not None


# ------------------------------------------------------------ hand-made solo games
def solo(ruleset: str = "bonanza", seed: bytes = b"hand") -> Match:
    return Match.create(ruleset, [Seat("Me")], seed, mode="solo")


def test_hand_made_game_worst_box_every_turn(advisors):
    """Roll once and write the box the advisor likes least: every write is a loss of
    exactly (best choice - that box), and the sum is the skill loss."""
    adv = advisors["bonanza"]
    m = solo()
    expected_losses = []
    while not m.state.over:
        m.roll()
        st = m.state
        advice = adv.advise(st.sheets[0], st.dice, st.rolls_left)
        worst = advice.boxes[-1]
        expected_losses.append(advice.expected - worst.expected)
        m.write(worst.box)
    m.finish()
    a = analysed(m)
    s = a.seats[0]
    assert [d.choice.kind for d in s.decisions] == ["write"] * 13
    assert [d.loss for d in s.decisions] == pytest.approx(expected_losses, abs=1e-9)
    # writing after one roll always had the alternative of rolling on: nothing was forced
    assert not any(d.forced for d in s.decisions)
    assert s.skill_loss > 50.0      # scratching the best box every turn is costly
    check_identity(a)


def test_automatic_moves_are_marked_and_count():
    m = solo(seed=b"auto")
    turn = 0
    while not m.state.over:
        # every other turn the clock plays: an automatic roll and an automatic write
        auto = turn % 2 == 1
        m.roll(auto=auto)
        if m.state.rolls_left and not auto:
            m.roll([True, True, False, False, False])
        box = allowed(m.state)[0]
        m.write(box, auto=auto)
        turn += 1
    m.finish()
    s = analysed(m).seats[0]
    autos = [d for d in s.decisions if d.auto]
    assert len(autos) == 6                     # turns 2, 4, ..., 12: the writes
    assert s.counts()["auto"] == 6
    assert sum(r.auto for r in s.rolls) == 6
    assert s.accuracy is not None
    free = [d for d in s.decisions if not d.forced]
    assert s.accuracy == pytest.approx(sum(A.decision_accuracy(d.loss) for d in free) / len(free))
    assert any(d.loss > 0 for d in autos)     # the clock's first free box is rarely best
    assert s.skill_loss == pytest.approx(sum(d.loss for d in s.decisions))
    check_identity(analysed(m))


def test_keep_decisions_name_the_kept_dice():
    m = solo(seed=b"keep")
    m.roll()
    first = list(m.state.dice)
    m.roll([True, False, True, False, False])
    m.write(allowed(m.state)[0])
    d = analysed(m).seats[0].decisions[0]
    assert d.choice.kind == "roll" and d.choice.keep == tuple(sorted([first[0], first[2]]))
    assert d.dice == tuple(first) and d.rolls_left == 2 and d.turn == 1


# ------------------------------------------------------------ random games (hypothesis)
def play_random_game(ruleset: str, policies: list[str], seed: bytes, rnd: random.Random,
                     give_up_rate: float) -> Match:
    """Bots and a random player; any seat may give up at any moment."""
    seats = [Seat(f"P{i}", "bot" if p != "random" else "human", p if p != "random" else None)
             for i, p in enumerate(policies)]
    m = Match.create(ruleset, seats, seed, mode="table" if len(seats) > 1 else "solo")
    while not m.state.over:
        st = m.state
        if rnd.random() < give_up_rate:
            seat = rnd.choice(st.playing())
            m.give_up(seat, rnd.choice(["gave_up", "left", "away"]))
            continue
        policy = policies[st.active]
        if policy != "random":
            play_bot_turn(m, policy)
            continue
        if st.dice is None:
            m.roll(auto=rnd.random() < 0.2)
        elif st.rolls_left and rnd.random() < 0.5:
            hold = [rnd.random() < 0.5 for _ in range(NUM_DICE)]
            if all(hold):
                hold[rnd.randrange(NUM_DICE)] = False
            m.roll(hold, auto=rnd.random() < 0.2)
        else:
            m.write(rnd.choice(allowed(st)), auto=rnd.random() < 0.2)
    m.finish()
    return m


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(["bonanza", "yacht"]),
       policies=st.lists(st.sampled_from(["optimal", "casual", "random"]), min_size=1,
                         max_size=4),
       seed=st.binary(min_size=1, max_size=8),
       rseed=st.integers(0, 2 ** 32),
       give_up_rate=st.sampled_from([0.0, 0.0, 0.01, 0.05]))
def test_identity_and_win_chances_on_random_games(ruleset, policies, seed, rseed, give_up_rate):
    m = play_random_game(ruleset, policies, seed, random.Random(rseed), give_up_rate)
    a = analysed(m)
    check_identity(a)
    for s, pol in zip(a.seats, policies):
        if pol == "optimal":
            assert s.skill_loss <= 1e-9
        assert s.score == m.state.total(s.seat)
        gave = dict(m.state.gave_up)
        assert s.gave_up == gave.get(s.seat)
        # one decision per write and per reroll of the seat
        moves = [mv for mv in m.log.moves if mv["seat"] == s.seat]
        assert len(s.decisions) == sum(mv["type"] == "write" for mv in moves) + sum(
            1 for r in s.rolls if r.roll > 1)
        assert len(s.rolls) == sum(mv["type"] == "roll" for mv in moves)
        assert s.counts()["auto"] == sum(d.auto for d in s.decisions)
    if len(policies) == 1:
        assert a.win_chance == []
        return
    assert [seq for seq, _ in a.win_chance] == list(range(len(m.log.moves) + 1))
    for seq, chances in a.win_chance:
        assert sum(chances) == pytest.approx(1.0, abs=1e-9)
        assert all(0.0 <= p <= 1.0 + 1e-12 for p in chances)
    out = {seat for seat, _ in m.state.gave_up}
    for seat in out:
        assert a.win_chance[-1][1][seat] == 0.0
    top = [s.seat for s in standings(m.state) if s.place == 1 and s.gave_up is None]
    assert list(a.win_chance[-1][1]) == [1 / len(top) if i in top else 0.0
                                         for i in range(len(policies))]


def test_give_up_mid_turn_is_reported_not_held_to_the_score_identity():
    m = Match.create("bonanza", [Seat("A"), Seat("B"), Seat("C")], b"quit", mode="table")
    for _ in range(3):
        play_bot_turn(m, "casual")
    quitter = m.state.active
    m.roll()
    m.give_up(quitter, "left")
    while not m.state.over:
        play_bot_turn(m, "optimal")
    m.finish()
    a = analysed(m)
    q = a.seats[quitter]
    assert q.gave_up == "left" and not q.complete
    assert q.score - q.start_expected != pytest.approx(q.luck - q.skill_loss, abs=1.0)
    check_identity(a)
    quit_seq = next(r["seq"] for r in m.log.records if r["move"]["type"] == "give_up")
    assert all(p[quitter] == 0.0 for seq, p in a.win_chance if seq >= quit_seq)
    assert any(p[quitter] > 0.0 for seq, p in a.win_chance if seq < quit_seq)


# ------------------------------------------------------------ win chances
def test_win_chances_symmetry_and_lead(advisors):
    adv = advisors["bonanza"]
    from bonanza.core.game import Setup
    state = new_game(Setup("bonanza", (Seat("A"), Seat("B")), 0))
    p = A.win_chances(adv, state)
    assert p == pytest.approx([0.5, 0.5], abs=1e-9)
    # A far ahead late in the game: near certain; a larger lead never lowers the chance
    exp = [A.seat_expected(adv, state, s) for s in range(2)]
    chances = [A.win_chances_from(adv, state, [exp[0] + lead, exp[1]])[0]
               for lead in (0, 10, 30, 100, 300)]
    assert chances == sorted(chances) and chances[-1] > 0.999
    three = new_game(Setup("bonanza", (Seat("A"), Seat("B"), Seat("C")), 0))
    assert A.win_chances(adv, three) == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_win_chances_close_to_the_spread_table():
    """The spread table is monotone in turns left: more game left, more uncertainty."""
    for ruleset in ("bonanza", "yacht"):
        for b in range(3):
            for rolls in range(4):
                col = [A.remaining_sd(ruleset, b, t, rolls) for t in range(1, 14)]
                assert all(x > 0 for x in col[1:])
                assert col == sorted(col)
        assert A.remaining_sd(ruleset, 0, 0, 0) == 0.0


# ------------------------------------------------------------ errors
def test_illegal_move_is_an_analysis_error():
    from bonanza.core.game import Setup
    setup = Setup("bonanza", (Seat("A"),), 0)
    with pytest.raises(A.AnalysisError) as e:
        A.analyse_game(setup, [{"type": "write", "seat": 0, "box": "chance", "auto": False}])
    assert e.value.code == "illegal_move"


def test_wrong_advisor_is_refused(advisors):
    m = simulate("bonanza", ["casual"], b"x")
    with pytest.raises(A.AnalysisError):
        A.analyse_game(m.setup, m.log.moves, advisors["yacht"])


# ------------------------------------------------------------ the command
def test_command_json(tmp_path, capsys):
    from bonanza.client.commands import main
    m = simulate("bonanza", ["casual", "optimal"], b"cli")
    path = tmp_path / "game.bonanza"
    path.write_bytes(m.log.to_bytes())
    assert main(["analyse", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == "bonanza"
    assert [s["seat"] for s in out["seats"]] == [0, 1]
    for s in out["seats"]:
        for k in ("seat", "name", "score", "start_expected", "skill_loss", "luck", "accuracy",
                  "decisions"):
            assert k in s
        for d in s["decisions"]:
            assert set(d) >= {"seq", "kind", "chosen", "best", "loss"}
            assert d["kind"] in ("roll", "write")
        assert s["score"] - s["start_expected"] == pytest.approx(s["luck"] - s["skill_loss"],
                                                                 abs=IDENTITY_TOL)
    assert out["seats"][0]["skill_loss"] > 0 and out["seats"][1]["skill_loss"] <= 1e-9
    assert len(out["win_chance"]) == len(m.log.moves) + 1
    assert all(len(w["seats"]) == 2 for w in out["win_chance"])
    # the alias and the text report
    assert main(["analyze", str(path)]) == 0
    text = capsys.readouterr().out
    assert "skill loss" in text and "biggest mistakes" in text


@pytest.mark.parametrize("content,code", [(None, "io_error"), (b"", "truncated"),
                                          (b"hello world, not a log", "not_a_log"),
                                          ("cut", "truncated"), ("flip", "chain")])
def test_command_bad_files(tmp_path, capsys, content, code):
    from bonanza.client.commands import main
    path = tmp_path / "bad.bonanza"
    good = simulate("yacht", ["casual"], b"bad").log.to_bytes()
    if content == "cut":
        content = good[:len(good) // 2]
    elif content == "flip":
        i = len(good) // 2
        content = good[:i] + bytes([good[i] ^ 1]) + good[i + 1:]
    if content is not None:
        path.write_bytes(content)
    assert main(["analyse", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("error: ") and len(err.splitlines()) == 1
    assert "Traceback" not in err
    if code != "chain":   # a flipped bit may break the encoding before the chain
        assert f"({code})" in err


def test_unfinished_log_is_refused(tmp_path, capsys):
    from bonanza.client.commands import main
    m = solo(seed=b"unfinished")
    m.roll()
    m.write(allowed(m.state)[0])
    path = tmp_path / "open.bonanza"
    path.write_bytes(m.log.to_bytes())
    assert main(["analyse", str(path)]) == 1
    assert "missing_reveal" in capsys.readouterr().err
