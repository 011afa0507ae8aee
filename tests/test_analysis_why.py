"""The analysis ranks each decision by one key and says why (issue 34 §3).

Where the match is at stake (a target the hand can change) the match-win
chance ranks the moves, the points break ties; elsewhere the points rank.
The best move, the verdict, the hint and the figure the front ends show
first all follow that key, so "best" never has the lower figure in the
column that ranked.  The reasons are facts the engine computes from the
mover's view (bones.games.reasons), phrased once (bones.games.why).
"""

from __future__ import annotations

from bones.cli.analyse_cmd import decision_line, why_line
from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.mirror import distinct_moves
from bones.engine.notation import format_move, parse_move
from bones.games.analysis import (
    BY_VALUE,
    BY_WIN,
    Decision,
    MoveValue,
    best_of,
    decision_json,
    judge_decision,
    ranked,
    win_mistake_threshold,
)
from bones.games.game import _hint_text
from bones.games.reasons import Reasons, Reply, move_reasons
from bones.games.record import DealRecord, deal_from_record
from bones.games.why import LATER, because, contrast
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import observe


def _rules(name: str):
    return compile_rules(load_variant(name))


def _decision_after(name: str, seed: int, scores: list[int] | None, ply: int) -> Hand:
    """The hand of a match of ``name`` from ``scores``, seat 0 playing its
    first legal move and the others greedily, before move ``ply + 1``."""
    from bones.bots.policies import greedy_move

    rules = _rules(name)
    hand = Match(rules, seed=seed, scores=scores).new_hand()
    while len(hand.log) < ply:
        legal = hand.legal_moves()
        hand.play(legal[0] if hand.turn == 0 else greedy_move(hand, legal))
    return hand


def _valued(hand: Hand, budget: int, seed: int) -> list[MoveValue]:
    rules = hand.rules
    values = judge_decision(rules, observe(hand, hand.turn, hand.legal_moves()), budget, seed, 1)
    return [MoveValue(v.move, format_move(hand, v.move), v.value, v.win, v.same, v.reasons)
            for v in values]


# ------------------------------------------------------------- the key


def test_near_the_target_the_match_chance_ranks_and_best_agrees_with_it() -> None:
    # All Fives to 250 at 240-230: the move with the most points (1-4) is not
    # the one with the best chance of winning the match (1-6)
    hand = _decision_after("all-fives", 0, [240, 230], 3)
    assert hand.turn == 0
    values = _valued(hand, 100, 2)
    by_points = max(values, key=lambda v: v.value)
    best = best_of(values)
    assert all(v.win is not None for v in values)
    assert best is not by_points and best.win > by_points.win + 0.05
    assert by_points.value > best.value + 2  # the points would have said otherwise
    assert best.win == max(v.win for v in values if v.win is not None)
    assert ranked(values)[0] is best
    assert [v.win for v in ranked(values)] == sorted((v.win for v in values), reverse=True)
    # the points-best played: a mistake by the match chance, with no points lost
    d = Decision(1, 4, 0, by_points, best, tuple(values), 5.0,
                 win_mistake_threshold(hand.rules))
    assert d.ranked_by == BY_WIN and not d.best_played
    assert d.loss == 0.0 and d.win_loss == best.win - by_points.win
    assert d.mistake
    # the front ends: the chance shown first, the gap in it, best agreeing
    line = decision_line(d)
    assert f"played {by_points.notation} (wins {by_points.win:.1%}, {by_points.value:+.1f})" in line
    assert f"best {best.notation} (wins {best.win:.1%}, {best.value:+.1f})" in line
    assert line.endswith(f"{d.win_loss:.1%} more to win  mistake")
    assert why_line(d) == f"why: {because(best, by_points)}"
    out = decision_json(d)
    assert out["ranked_by"] == "win" and out["best"]["move"] == best.notation
    assert out["best"]["win"] >= max(m["win"] for m in out["moves"])
    assert out["win_loss"] > 0 and out["mistake"] and out["loss"] == 0
    assert out["why"] == because(best, by_points)
    hint = _hint_text(values)
    assert hint.startswith(f"{best.notation} ({best.win:.0%} to win the match, ")


def test_where_only_the_hand_is_at_stake_the_points_rank() -> None:
    ply = next(p for p in range(2, 12)
               if len(distinct_moves(h := _decision_after("block-2p", 2, None, p),
                                     h.legal_moves())) > 1)
    hand = _decision_after("block-2p", 2, None, ply)
    values = _valued(hand, 50, 2)
    assert len(values) > 1 and all(v.win is None for v in values)
    best = best_of(values)
    assert best.value == max(v.value for v in values)
    assert [v.value for v in ranked(values)] == sorted((v.value for v in values), reverse=True)
    worst = min(values, key=lambda v: v.value)
    d = Decision(1, 4, hand.turn, worst, best, tuple(values))
    assert d.ranked_by == BY_VALUE and d.win_loss is None
    assert d.mistake == (d.loss >= 5.0)
    out = decision_json(d)
    assert out["ranked_by"] == "value" and "win_loss" not in out
    hint = _hint_text(values)
    assert hint.startswith(f"{best.notation} ({best.value:+.1f} expected; ")
    assert "win the match" not in hint


def test_a_match_whose_moves_all_leave_the_same_chance_ranks_by_points() -> None:
    def move(n: int, value: float) -> MoveValue:
        return MoveValue(n, f"m{n}", value, 1.0)

    values = [move(1, 3.0), move(2, 9.0), move(3, 5.0)]
    assert best_of(values).move == 2
    d = Decision(1, 1, 0, values[0], values[1], tuple(values))
    assert d.ranked_by == BY_VALUE and d.loss == 6.0 and d.mistake


# ------------------------------------------------------------- the reasons


def _dealt(name: str, hands: list[list[str]], leader: int = 0) -> Hand:
    rules = _rules(name)
    held = {t for h in hands for t in h}
    rest = [n for n in rules.tiles.names if n not in held
            and f"{n[2]}-{n[0]}" not in held]
    deal = DealRecord(hands=hands, boneyard=rest, leader=leader)
    return Match(rules, seed=0).start_hand(deal_from_record(rules, deal, "test"))


def _mv(hand: Hand, text: str) -> MoveValue:
    move = parse_move(hand, text)
    return MoveValue(move, text, 0.0, reasons=move_reasons(observe(hand, hand.turn), move))


def test_the_reasons_of_a_point_game_name_the_points_and_the_reply() -> None:
    hand = _dealt("all-fives", [["6-4", "5-0", "2-1", "3-1", "1-0", "2-0", "4-1"],
                                ["3-3", "2-2", "6-3", "5-3", "0-4", "3-2", "5-1"]])
    assert hand.turn == 0
    six_four, five_nil = _mv(hand, "6-4"), _mv(hand, "5-0")
    # 6-4 leads: the ends add to 10, 10 points; the next player's best is
    # the 6-1 on the 6 (ends 1 and 4: 5 points)
    assert six_four.reasons == Reasons(scores=10, count=10, reply=Reply("6-1", 5), numbers=6,
                                       pips=10)
    # 5-0 scores 5, and leaves the 5 open for the 5-5 (ends 10 and 0: 10)
    assert five_nil.reasons is not None
    assert five_nil.reasons.scores == 5 and five_nil.reasons.reply == Reply("5-5", 10)
    assert contrast(six_four, five_nil) == [
        "6-4 scores 10 (the ends add to 10)",
        "5-0 leaves 5-5 open for a 10 to the next player"]
    assert because(five_nil, six_four) == LATER  # nothing on the table favours 5-0


def test_the_reasons_of_a_block_game_name_the_ends_and_the_numbers() -> None:
    rules = _rules("block-2p")
    assert not rules.scores_plays
    hand = _dealt("block-2p", [["6-6", "6-5", "1-0", "2-1", "3-2", "3-0", "4-4"],
                               ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "6-4"]])
    double_six, double_four = _mv(hand, "6-6"), _mv(hand, "4-4")
    assert double_six.reasons == Reasons(numbers=7, pips=12)
    # after 4-4 no tile in hand has a 4: no end to follow
    assert double_four.reasons == Reasons(follows=False, numbers=6, pips=8)
    assert because(double_six, double_four) == (
        "4-4 leaves no end you can follow; 6-6 keeps 7 different numbers in your hand (4-4: 6)")
    # every 4 in the mover's hand: a 4 end only the mover can follow
    hand = _dealt("block-2p", [["4-0", "4-1", "4-2", "4-3", "4-4", "4-5", "4-6"],
                               ["5-5", "5-3", "5-2", "5-1", "5-0", "6-6", "6-5"]])
    four_six, four_four = _mv(hand, "4-6"), _mv(hand, "4-4")
    assert four_six.reasons == Reasons(shut=(4,), numbers=6, pips=10)
    assert four_four.reasons == Reasons(shut=(4,), numbers=7, pips=8)
    assert contrast(four_four, four_six) == ["4-4 keeps 7 different numbers in your hand (4-6: 6)"]
    lone = MoveValue(0, "1-1", 0.0, reasons=Reasons(numbers=7))
    assert contrast(four_six, lone)[0] == "4-6 keeps the last 4s: nobody else can follow the 4"


def test_a_stranded_double_a_void_and_a_dead_end_are_said() -> None:
    better = MoveValue(0, "3-1", 0.0, reasons=Reasons(voids=(1,), dead=(2,)))
    other = MoveValue(1, "5-4", 0.0, reasons=Reasons(stranded=("4-4",), scores=5))
    assert contrast(better, other) == [
        "3-1 leaves the 2 that nobody can follow",
        "3-1 plays to the 1, which the next player has shown they lack",
        "5-4 leaves your 4-4 stranded (no 4 end left for it)",
        "5-4 scores 5 now"]


def test_the_voids_come_from_what_the_history_proves() -> None:
    # block-2p: seat 1 passes on a 6 and a 4, so a 6 or 4 end left is one
    # the next player lacks (unless they hold none anyway)
    hand = _dealt("block-2p", [["6-6", "6-4", "1-0", "2-1", "3-2", "3-0", "1-1"],
                               ["5-5", "5-3", "5-2", "5-1", "5-0", "2-2", "0-0"]])
    hand.play(parse_move(hand, "6-4"))
    assert [format_move(hand, m) for m in hand.legal_moves()] == ["pass"]
    hand.play(hand.legal_moves()[0])
    reasons = move_reasons(observe(hand, 0), parse_move(hand, "6-6"))
    assert reasons.voids == (4, 6)


def test_the_analysis_json_carries_the_reasons_and_the_key(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from bones.cli.app import app
    from tests.test_analysis import _game

    _game(tmp_path, "all-fives", 5, humans=1)
    result = CliRunner().invoke(app, ["analyse", str(tmp_path / "all-fives-5-1.json"), "--json",
                                      "--budget", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["unit"] == "points" and data["match"] is True
    assert data["win_mistake"] == 0.024 and set(data["summary"]["win_loss"]) == {"0"}
    decisions = [d for h in data["hands"] for d in h["decisions"]]
    assert decisions
    for d in decisions:
        key = d["ranked_by"]
        assert key in ("win", "value")
        # best is never below another move in the column that ranked
        assert d["best"][key] == max(m[key] for m in d["moves"])
        assert d["mistake"] == (d["win_loss"] >= data["win_mistake"] if key == "win"
                                else d["loss"] >= data["mistake"])
        for m in [d["played"], d["best"], *d["moves"]]:
            assert set(m["reasons"]) >= {"scores", "stranded", "shut", "voids", "out", "dead",
                                         "follows", "numbers", "pips"}
        assert ("why" in d) == (not d["best"]["move"] == d["played"]["move"]
                                and d["win_loss" if key == "win" else "loss"] * (
                                    100 if key == "win" else 1) >= 0.05)
    assert any("why" in d for d in decisions)
