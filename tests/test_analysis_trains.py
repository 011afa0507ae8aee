"""`bones analyse` of a train layout's record (issue 35): every decision of
the analysed seats valued by the search on the Python core, the moves named
with their targets, a round's charges counting against the seat that is
left holding tiles."""

from __future__ import annotations

import json
import subprocess
import sys

from bones.engine.hand import DOMINO
from bones.engine.match import Match
from bones.engine.moves import TILE_SHIFT
from bones.engine.notation import format_move, parse_move
from bones.engine.rng import Rng
from bones.games.analysis import analyse
from bones.games.record import deal_from_record, record_match, save_record
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant


def _round(name: str, players: int, seed: int, heavy_first: set[int]) -> Match:
    """One round in which the seats of ``heavy_first`` lay their heaviest
    tile that fits (the others their lightest: they keep the tiles that a
    round's end charges), the rest of the choices random."""
    rules = compile_rules(load_variant(name), players)
    match = Match(rules, seed=seed)
    hand = match.new_hand()
    rng = Rng(seed)
    values = rules.trains.values
    while not hand.over:
        legal = hand.legal_moves()
        plays = [m for m in legal if m >= 0]
        if plays and hand.placed:
            worth = [values[m >> TILE_SHIFT] for m in plays]
            best = max(worth) if hand.turn in heavy_first else min(worth)
            hand.apply(rng.choice([m for m, w in zip(plays, worth) if w == best]))
        else:
            hand.apply(rng.choice(legal))
    match.finish_hand(hand)
    return match


def _went_out_with_a_choice(name: str, players: int) -> tuple[Match, int]:
    """A round (its match) whose last move, laying the domino-er's last
    tile, was a choice of several trains, and that seat."""
    for seed in range(40):
        match = _round(name, players, seed, set(range(players)))
        entry = record_match(match).hands[0]
        rules = match.rules
        position = Match(rules, seed=match.seed).start_hand(
            deal_from_record(rules, entry.deal, "hand 1"))
        for text in entry.moves[:-1]:
            position.apply(parse_move(position, text))
        seat = position.turn
        choices = len(position.legal_moves())
        position.apply(parse_move(position, entry.moves[-1]))
        if position.state == DOMINO and choices > 1:
            return match, seat
    raise AssertionError("no round ended with a choice of trains")


def test_the_analysis_judges_a_train_round_by_its_charges() -> None:
    """Chicken Foot, two players.  Every decision of the seat that went out
    is one of its position's legal moves, named with its target, the best
    no worse than the one played; its last decision, laying its last tile
    on one of several arms, is worth what the other seat is left holding:
    a round's charges count against the seat charged (with a charge counted
    as a gain, a finish would be a loss)."""
    match, seat = _went_out_with_a_choice("chicken-foot", 2)
    record = record_match(match)
    rules = match.rules
    result = analyse(record, seats=[seat], budget=4, seed=3)
    decisions = result.decisions
    assert decisions and {d.seat for d in decisions} == {seat}
    entry = record.hands[0]
    position = Match(rules, seed=match.seed).start_hand(
        deal_from_record(rules, entry.deal, "hand 1"))
    by_ply = {d.ply: d for d in decisions}
    targets = set()
    for ply, text in enumerate(entry.moves, 1):
        decision = by_ply.get(ply)
        if decision is not None:
            legal = position.legal_moves()
            assert [m for m in legal if any(v.covers(m) for v in decision.moves)] == legal
            assert decision.best.value >= decision.played.value
            for v in decision.moves:
                if v.move >= 0 and position.placed:
                    assert v.notation == format_move(position, v.move)
                    targets.add(v.notation.split("@")[1][0] if "@" in v.notation else "")
        position.apply(parse_move(position, text))
    assert targets & {"A", "H", "F"}  # the arms of a chicken foot are named
    finish = decisions[-1]
    assert finish.ply == len(entry.moves) and len(finish.moves) > 1
    assert position.settlement[seat] == 0 and position.settlement[1 - seat] > 0
    # going out on any arm is worth the tiles the other seat is expected to
    # be left holding (each move judged in its own worlds: not equal)
    assert all(v.value > 0 for v in finish.moves)


def test_bones_analyse_reads_a_train_record(tmp_path) -> None:
    match = _round("mexican-train", 2, 2, {0, 1})
    path = tmp_path / "mt.json"
    save_record(record_match(match), path)
    got = subprocess.run([sys.executable, "-m", "bones", "analyse", str(path), "--seat", "1",
                          "--budget", "3", "--json", "--quiet"],
                         capture_output=True, text=True, timeout=600)
    assert got.returncode == 0, got.stderr
    assert got.stderr == ""
    out = json.loads(got.stdout)
    assert (out["variant"], out["players"], out["seats"]) == ("mexican-train", 2, [1])
    decisions = out["hands"][0]["decisions"]
    assert decisions and all(d["seat"] == 1 for d in decisions)
    assert out["summary"]["decisions"]["1"] == len(decisions)
    # the moves name their trains: the seat's own (T1), the other's, the Mexican train (M)
    named = {m["move"].split("@")[1] for d in decisions for m in d["moves"]
             if "@" in m["move"]}
    assert named and named <= {"T0", "T1", "M"}
