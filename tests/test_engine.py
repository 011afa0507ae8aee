"""Unit tests of engine rules that the scenario files do not reach: leads,
later leads, every settlement kind, targets, partnerships, muggins claims,
knocks, get-in, the reserve and the drawing options; and the runnable
examples of docs/api.md.
"""

from __future__ import annotations

import doctest
import json
import random
from pathlib import Path

import pytest

from bones.engine.match import Deal, Match
from bones.engine.moves import Outcome
from bones.engine.notation import format_move, parse_move
from bones.engine.settle import hand_winner, round_nearest
from bones.engine.settle import settle as run_settle
from bones.games.record import (
    Recorder,
    RecordError,
    dumps_record,
    load_record,
    parse_record,
    record_match,
    replay,
    save_record,
)
from bones.games.saves import SaveError
from bones.lang import spec
from bones.lang.compile import compile_rules, compile_settlement
from bones.lang.load import load_variant

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------- helpers


def rules_of(name, overrides=None, players=None, teams=None):
    variant = load_variant(name, overrides=overrides) if overrides else load_variant(name)
    return compile_rules(variant, players, teams)


def start(name, deal, boneyard=(), leader=0, *, overrides=None, teams=None, scores=None,
          moves=()):
    """A match and a hand started from a known deal; other tiles are out of play."""
    rules = rules_of(name, overrides, len(deal), teams)
    ts = rules.tiles
    hands = tuple(ts.mask_of([ts.parse(t) for t in seat]) for seat in deal)
    bones = tuple(ts.parse(t) for t in boneyard)
    used = ts.mask_of(list(bones))
    for mask in hands:
        used |= mask
    match = Match(rules, seed=0, scores=scores)
    hand = match.start_hand(Deal(hands, bones, leader, out_of_play=ts.full & ~used))
    for text in moves:
        hand.play(parse_move(hand, text))
    return match, hand


def play(hand, text, claim=None):
    return hand.play(parse_move(hand, text), claim)


def legal(hand):
    return [format_move(hand, m) for m in hand.legal_moves()]


def deals(name, overrides, seeds=range(60), players=None):
    rules = rules_of(name, overrides, players)
    for seed in seeds:
        match = Match(rules, seed=seed)
        yield rules, match.next_deal()


def holder(rules, deal, tile):
    return next(s for s, h in enumerate(deal.hands) if h >> tile & 1)


def doubles_in(rules, deal):
    ts = rules.tiles
    return [t for h in deal.hands for t in ts.tiles_of(h & ts.doubles)]


# ------------------------------------------------------------ first leads

# Small hands so that deals without a double (and without a named tile) are common.
SMALL = {"deal": {"hand_size": 2}}


def test_lead_by_lot_is_seeded_and_reaches_every_seat():
    leaders = [d.leader for _, d in deals("sniff", None, range(40), players=3)]
    again = [d.leader for _, d in deals("sniff", None, range(40), players=3)]
    assert leaders == again
    assert set(leaders) == {0, 1, 2}
    for _rules, deal in deals("sniff", None, range(5)):
        assert deal.lead_tile == -1 and not deal.lead_doubles_only


def test_random_lead_reaches_every_seat():
    over = {"lead": {"first": {"kind": "random"}}}
    assert {d.leader for _, d in deals("sniff", over, range(40), players=4)} == {0, 1, 2, 3}


def test_seat_lead():
    over = {"lead": {"first": {"kind": "seat", "seat": 1}}}
    assert {d.leader for _, d in deals("sniff", over, range(10))} == {1}


@pytest.mark.parametrize("kind", ["highest_double", "lowest_double"])
def test_double_lead_takes_the_extreme_double(kind):
    over = {"lead": {"first": {"kind": kind, "if_none": "redeal"}}, **SMALL}
    seen = 0
    for rules, deal in deals("muggins", over):
        doubles = doubles_in(rules, deal)
        assert doubles, "redeal must give a double"
        best = max(doubles) if kind == "highest_double" else min(doubles)
        assert deal.lead_tile == best
        assert deal.leader == holder(rules, deal, best)
        seen += 1
    assert seen == 60


def test_highest_double_fallbacks_when_nobody_holds_a_double():
    base = {"deal": {"hand_size": 2}}
    counts = {"heaviest_hand": 0, "heaviest_tile": 0, "lot": 0, "draw_more": 0}
    for fallback in counts:
        over = {"lead": {"first": {"kind": "highest_double", "if_none": fallback}}, **base}
        for rules, deal in deals("muggins", over):
            ts = rules.tiles
            dealt = [t for h in deal.hands for t in ts.tiles_of(h)]
            if fallback == "draw_more":
                # everyone drew one more tile, in turn, until a double appeared
                sizes = {h.bit_count() for h in deal.hands}
                assert len(sizes) == 1
                if sizes != {2}:
                    counts[fallback] += 1
                    # the extra tiles came off the top of the boneyard
                    assert len(deal.boneyard) == ts.size - sum(sizes) * 2
                assert deal.lead_tile == max(doubles_in(rules, deal))
                continue
            if doubles_in(rules, deal):
                assert deal.lead_tile == max(doubles_in(rules, deal))
                continue
            counts[fallback] += 1
            if fallback == "heaviest_hand":
                weights = [ts.pips_of(h) for h in deal.hands]
                assert deal.leader == weights.index(max(weights)) and deal.lead_tile == -1
            elif fallback == "heaviest_tile":
                best = max(dealt, key=lambda t: (ts.pips[t], ts.high[t]))
                assert deal.lead_tile == best and deal.leader == holder(rules, deal, best)
            else:
                assert deal.lead_tile == -1
    assert all(counts.values()), counts


def test_tile_lead_and_its_fallback():
    seen_tile = seen_fallback = 0
    for fallback in ("highest_double", "heaviest_tile", "lot", "redeal"):
        over = {"lead": {"first": {"kind": "tile", "tile": "3-4", "if_none": fallback}}, **SMALL}
        for rules, deal in deals("muggins", over, range(40)):
            ts = rules.tiles
            tile = ts.parse("3-4")
            dealt = any(h >> tile & 1 for h in deal.hands)
            if dealt:
                seen_tile += 1
                assert deal.lead_tile == tile and deal.leader == holder(rules, deal, tile)
                continue
            assert fallback != "redeal", "redeal must deal the named tile"
            seen_fallback += 1
            if fallback == "highest_double" and doubles_in(rules, deal):
                assert deal.lead_tile == max(doubles_in(rules, deal))
            if fallback == "lot":
                assert deal.lead_tile == -1
    assert seen_tile and seen_fallback


def test_tile_lead_forces_that_tile():
    rules = rules_of("partners")
    match = Match(rules, seed=3)
    hand = match.new_hand()
    assert legal(hand) == ["6-6"]
    assert hand.turn == holder(rules, match.current_deal, rules.tiles.parse("6-6"))


def test_lead_allowed_double_only():
    over = {"lead": {"first": {"kind": "lot"}, "allowed": "double"}, "deal": {"hand_size": 3}}
    for rules, deal in deals("muggins", over, range(30)):
        ts = rules.tiles
        assert deal.lead_doubles_only and deal.hands[deal.leader] & ts.doubles
        match = Match(rules, seed=0)
        hand = match.start_hand(deal)
        moves = hand.legal_moves()
        assert moves and all(ts.is_double[m >> 7] for m in moves)


# ------------------------------------------------------------ later leads


def finished_match(name, overrides, seed, want, players=None, teams=None, hands=1):
    """A match after ``hands`` hands played at random, when the last ended ``want``."""
    rules = rules_of(name, overrides, players, teams)
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(hands):
        hand = match.new_hand()
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)
    return match if match.history[-1].end == want and not match.game_over else None


def matches_ending(name, overrides, want, players=None, teams=None, n=4):
    found = []
    for seed in range(400):
        m = finished_match(name, overrides, seed, want, players, teams)
        if m is not None:
            found.append(m)
            if len(found) == n:
                break
    assert found, f"no {want} hand found"
    return found


BLOCKY = {"drawing": {"kind": "none"}, "deal": {"hand_size": 5}}


def test_domino_er_leads_next_and_after_block_rule():
    over = {**BLOCKY, "lead": {"later": {"kind": "domino_er",
                                          "after_block": {"kind": "seat", "seat": 2}}}}
    for match in matches_ending("muggins", over, Outcome.DOMINO, players=3):
        assert match.next_deal().leader == match.history[-1].domino_seat
    for match in matches_ending("muggins", over, Outcome.BLOCKED, players=3):
        assert match.next_deal().leader == 2


def test_winner_leads():
    over = {**BLOCKY, "lead": {"later": {"kind": "winner", "if_none": {"kind": "seat", "seat": 1}}},
            "settlement": {"blocked": {"kind": "lightest", "ties": "nobody"}}}
    for match in matches_ending("muggins", over, Outcome.DOMINO, players=3):
        assert match.next_deal().leader == match.history[-1].domino_seat
    seen = set()
    for match in matches_ending("muggins", over, Outcome.BLOCKED, players=3, n=12):
        last = match.history[-1]
        leader = match.next_deal().leader
        if last.winner >= 0:
            assert leader == last.winner
            assert last.pips[leader] == min(last.pips)
            seen.add("winner")
        else:
            assert leader == 1
            seen.add("none")
    assert "winner" in seen


@pytest.mark.parametrize("to,step", [("next", 1), ("previous", -1)])
def test_rotate(to, step):
    over = {"lead": {"later": {"kind": "rotate", "to": to}}}
    for seed in range(5):
        match = finished_match("muggins", over, seed, Outcome.DOMINO, players=3) or \
            finished_match("muggins", over, seed, Outcome.BLOCKED, players=3)
        if match is None:
            continue
        assert match.next_deal().leader == (match.history[-1].deal.leader + step) % 3


def test_alternate_and_first():
    over = {"lead": {"later": {"kind": "alternate"}}, "players": {"counts": [2]},
            "deal": {"hand_size": 7}}
    match = matches_ending("muggins", over, Outcome.DOMINO, players=2, n=1)[0]
    assert match.next_deal().leader == 1 - match.history[-1].deal.leader
    over = {"lead": {"first": {"kind": "seat", "seat": 1}, "later": {"kind": "first"}}}
    match = matches_ending("muggins", over, Outcome.DOMINO, players=3, n=1)[0]
    assert match.next_deal().leader == 1


def test_series_lead_follows_the_dominoes_package():
    # docs/peers.md 2.5: domino -> the domino-er; blocked and the blocker's team
    # won -> the blocker; a tie -> the last leader; else the seat after the blocker
    seen = set()
    for seed in range(200):
        match = finished_match("partnership-block", None, seed, Outcome.BLOCKED)
        if match is None:
            continue
        last = match.history[-1]
        blocker = last.last_player
        leader = match.next_deal().leader
        if last.winner < 0:
            assert leader == last.deal.leader
            seen.add("tie")
        elif last.winner == blocker % 2:
            assert leader == blocker
            seen.add("blocker won")
        else:
            assert leader == (blocker + 1) % 4
            seen.add("blocker lost")
    assert {"blocker won", "blocker lost"} <= seen
    match = matches_ending("partnership-block", None, Outcome.DOMINO, n=1)[0]
    assert match.next_deal().leader == match.history[-1].domino_seat


# ------------------------------------------------------------- settlement


def settle(rule: dict, pips, doubles=None, domino=-1, blocker=-1, players=None):
    adapter = spec.Settlement.model_validate({"domino": rule, "blocked": {"kind": "nobody"}})
    compiled = compile_settlement(adapter.domino, players or len(pips))
    return run_settle(compiled, list(pips), list(doubles or [False] * len(pips)), domino, blocker)


NEAREST = {"kind": "nearest", "unit": 5}


def test_round_nearest():
    # docs/rules.md decision 8: remainders 1-2 down, 3-4 up
    assert [round_nearest(p, 5) for p in (0, 1, 2, 3, 4, 26, 27, 28)] == [0, 0, 0, 5, 5, 25, 25, 30]


def test_domino_er_amounts():
    pips = [0, 12, 7]
    assert settle({"kind": "domino_er"}, pips, domino=0) == [19, 0, 0]
    assert settle({"kind": "domino_er", "rounding": NEAREST}, pips, domino=0) == [20, 0, 0]
    # each opponent rounded apart: 10 + 5
    assert settle({"kind": "domino_er", "rounding": {**NEAREST, "per": "opponent"}},
                  pips, domino=0) == [15, 0, 0]
    # WIKI (S13): 27 and 28 per opponent -> 25 + 30
    assert settle({"kind": "domino_er", "rounding": {**NEAREST, "per": "opponent"}},
                  [0, 27, 28], domino=0) == [55, 0, 0]
    assert settle({"kind": "domino_er", "amount": "opponents_minus_own"}, [3, 12, 7],
                  domino=0) == [16, 0, 0]
    assert settle({"kind": "domino_er", "amount": "all_hands"}, [3, 12, 7], domino=1) == [0, 22, 0]
    assert settle({"kind": "domino_er", "amount": "flat", "points": 1}, [3, 12, 7],
                  domino=2) == [0, 0, 1]
    # PG-MUGf (S13): 13 -> 15, then divided by 5 -> 3
    assert settle({"kind": "domino_er", "rounding": NEAREST, "divisor": 5}, [0, 13],
                  domino=0) == [3, 0]
    assert settle({"kind": "domino_er"}, [4, 5], domino=-1) == [0, 0]


def test_lightest_and_ties():
    # SEED4 (S3): lightest 3 against 5, 11, 13: (29 - 3) = 26 -> 25 -> /5 = 5
    rule = {"kind": "lightest", "amount": "opponents_minus_own", "rounding": NEAREST, "divisor": 5}
    assert settle(rule, [3, 5, 11, 13]) == [5, 0, 0, 0]
    # Squareman's draw game: 10 against 5 -> 5 to the lighter hand
    assert settle({"kind": "lightest", "amount": "opponents_minus_own"}, [10, 5]) == [0, 5]
    tie = [4, 4, 13]
    assert settle({"kind": "lightest", "ties": "nobody"}, tie) == [0, 0, 0]
    # shares are rounded down to the unit (decision 7): 15 / 2 = 7 -> 5
    assert settle({"kind": "lightest", "ties": "share", "rounding": NEAREST}, tie) == [5, 5, 0]
    assert settle({"kind": "lightest", "ties": "share"}, tie) == [6, 6, 0]
    # not_blocker: of the tied, the one who did not make the last play wins
    assert settle({"kind": "lightest", "ties": "not_blocker"}, tie, blocker=0) == [0, 17, 0]
    assert settle({"kind": "lightest", "ties": "not_blocker"}, tie, blocker=2) == [0, 0, 0]
    # per player count
    rule = {"kind": "lightest", "ties": {2: "nobody", 3: "share"}}
    assert settle(rule, tie, players=3) == [6, 6, 0]
    assert settle(rule, [4, 4], players=2) == [0, 0]


def test_doubles_lose():
    rule = {"kind": "lightest", "doubles_lose": True}
    # seat 0 is lighter but holds a double: the double-free hand wins
    assert settle(rule, [2, 9], doubles=[True, False]) == [0, 2]
    assert settle(rule, [2, 9], doubles=[True, True]) == [9, 0]
    assert settle({"kind": "lightest"}, [2, 9], doubles=[True, False]) == [9, 0]


def test_each_heavier_cascade_and_own_penalty():
    assert settle({"kind": "each_heavier"}, [3, 8, 12]) == [14, 4, 0]
    assert settle({"kind": "each_heavier", "rounding": NEAREST}, [3, 8, 12]) == [15, 5, 0]
    # SEED0/SEED1 (S13): 3 -> 5 and 2 -> 0 subtracted
    assert settle({"kind": "own_penalty", "rounding": NEAREST}, [3, 2]) == [-5, 0]
    assert settle({"kind": "nobody"}, [3, 2]) == [0, 0]


def test_hand_winner():
    assert hand_winner([0, 5, 0], 2) == 2
    assert hand_winner([0, 5, 0], -1) == 1
    assert hand_winner([5, 5, 0], -1) == -1
    assert hand_winner([0, 0], -1) == -1


def test_floor_keeps_scores_at_zero():
    over = {"settlement": {"floor": 0}}
    # seat 0 goes out at once; seat 1 is left with 22 pips (-> 20) and would fall to -20
    _, hand = start("sniff", [["1-2"], ["6-6", "5-5"]], overrides=over)
    play(hand, "1-2")
    assert hand.state == Outcome.DOMINO
    assert hand.settlement == [0, -20] and hand.scores == [0, 0]
    _, hand = start("sniff", [["1-2"], ["6-6", "5-5"]])
    play(hand, "1-2")
    assert hand.scores == [0, -20]


# ----------------------------------------------------------------- targets


F3_HAND_END = {"match": {"kind": "target", "points": 61, "check": "hand_end"}}


def test_hand_end_tie_plays_another_hand():
    # 1-3 leads (count 4 scores nothing) and nobody can follow: blocked at once
    deal = [["1-3", "6-6"], ["0-0", "5-5"]]
    match, hand = start("fives-and-threes", deal, overrides=F3_HAND_END, scores=[61, 61])
    play(hand, "1-3")
    assert hand.state == Outcome.BLOCKED and not hand.game_over
    match.finish_hand(hand)
    assert not match.game_over
    match, hand = start("fives-and-threes", deal, overrides=F3_HAND_END, scores=[61, 62])
    play(hand, "1-3")
    match.finish_hand(hand)
    assert match.game_over and match.winner == 1


def test_immediate_target_ends_mid_hand_without_settlement():
    over = {"match": {"kind": "target", "points": 100, "check": "immediate"}}
    match, hand = start("sniff", [["2-3", "1-1"], ["6-6", "4-4"]], overrides=over,
                        scores=[95, 0])
    assert play(hand, "2-3") == 5
    assert hand.state == Outcome.TARGET and hand.over and hand.game_over and hand.winner == 0
    assert hand.settlement is None and hand.scores == [100, 0]
    summary = match.finish_hand(hand)
    assert match.game_over and match.winner == 0 and summary.settlement == [0, 0]


def test_exact_target_pg_f3_arithmetic():
    # docs/rules.md S20 and decision 9.  At 58, a play that would pass 61 is ignored:
    # 3-6 leads (count 9: 3 points); 6-6 on the 6 shows 3 + 12 = 15 (8 points)
    deal = [["3-6", "5-5"], ["6-6", "1-3"]]
    match, hand = start("fives-and-threes", deal, scores=[0, 58], moves=["3-6"])
    assert hand.scores == [3, 58]
    assert play(hand, "6-6") == 8
    assert hand.scores == [3, 58] and hand.state == Outcome.PLAYING
    # at 59, playing the last tile onto a count of 6 scores 2 + 1 for chipping out:
    # 62 passes 61, so the whole gain is ignored and the score stays 59
    deal = [["0-4", "5-5"], ["4-6"]]
    match, hand = start("fives-and-threes", deal, scores=[0, 59], moves=["0-4"])
    play(hand, "4-6")                      # ends 0 and 6: count 6 -> 2 points
    assert hand.state == Outcome.DOMINO and hand.scores == [0, 59]
    # reaching 61 exactly ends the game at once, mid-hand
    deal = [["0-4", "5-5", "1-1"], ["4-6", "2-2"]]
    match, hand = start("fives-and-threes", deal, scores=[0, 59], moves=["0-4"])
    play(hand, "4-6")
    assert hand.state == Outcome.TARGET and hand.scores == [0, 61] and hand.winner == 1
    match.finish_hand(hand)
    assert match.game_over and match.winner == 1


# ------------------------------------------------------------ partnerships


def test_partners_both_out_skips_the_partner_who_is_out():
    # fives-and-threes in teams: the hand goes on until both partners are out
    deal = [["0-1"], ["1-2", "5-5"], ["2-3"], ["3-4", "4-4"]]
    _, hand = start("fives-and-threes", deal, teams=True)
    play(hand, "0-1")                       # seat 0 is out; team 0 is not
    assert hand.state == Outcome.PLAYING and hand.out[0]
    play(hand, "1-2")                       # ends 0 and 2
    assert play(hand, "2-3") == 1           # ends 0 and 3: count 3; seat 2 is out too
    assert hand.state == Outcome.DOMINO and hand.domino_seat == 2
    assert hand.settlement == [1, 0] and hand.scores == [2, 0]
    # seat 0 is out: after seat 3 knocks the turn goes to seat 1
    deal = [["0-1"], ["1-2", "3-5"], ["6-6", "2-3"], ["2-4", "4-4"]]
    _, hand = start("fives-and-threes", deal, teams=True, moves=["0-1", "1-2", "2-3"])
    assert hand.state == Outcome.PLAYING and hand.turn == 3
    assert legal(hand) == ["pass"]
    play(hand, "pass")
    assert hand.turn == 1 and legal(hand) == ["3-5"]


# ------------------------------------------------------------------ muggins


def muggins_on(missed="transfer", penalise=False):
    return {"scoring": {"muggins": {"kind": missed, "penalise_over_claim": penalise}}}


# the leads count 5 and 10; seat 1 can follow, so neither hand blocks at once
DEAL5 = [["2-3", "6-6", "1-1"], ["4-4", "0-0", "2-5"], ["1-2", "5-6", "3-4"]]
DEAL10 = [["4-6", "1-1"], ["0-0", "2-6"], ["1-3", "2-3"]]


def test_muggins_true_claim():
    _, hand = start("muggins", DEAL5, overrides=muggins_on())
    assert play(hand, "2-3", claim=5) == 5
    assert hand.scores == [5, 0, 0]


def test_muggins_transfer_under_claim_and_missed():
    _, hand = start("muggins", DEAL5, overrides=muggins_on("transfer"))
    assert play(hand, "2-3", claim=0) == 0
    assert hand.scores == [0, 5, 0]          # the next opponent in turn calls muggins
    _, hand = start("muggins", DEAL10, overrides=muggins_on())
    play(hand, "4-6", claim=5)               # 10 true, 5 claimed: 5 to the caller
    assert hand.scores == [5, 5, 0]


def test_muggins_forfeit():
    _, hand = start("muggins", DEAL10,
                        overrides=muggins_on("forfeit"))
    assert play(hand, "4-6", claim=5) == 5
    assert hand.scores == [5, 0, 0]


@pytest.mark.parametrize("penalise,expected", [(True, [0, 15, 0]), (False, [0, 0, 0])])
def test_muggins_over_claim(penalise, expected):
    _, hand = start("muggins", DEAL10,
                        overrides=muggins_on(penalise=penalise))
    assert play(hand, "4-6", claim=15) == 0
    assert hand.scores == expected


def test_muggins_off_ignores_claims():
    _, hand = start("muggins", DEAL10)
    assert play(hand, "4-6", claim=0) == 10
    assert hand.scores == [10, 0, 0]


# -------------------------------------------- knock bonus, get-in, drawing


def test_knock_bonus_goes_to_the_next_player_able_to_play():
    over = {"drawing": {"kind": "none", "knock_bonus": 1}}
    # 1-2 leads; seat 1 cannot play (knock), seat 2 plays 2-4: count 5 -> 1, + 1 knock
    deal = [["1-2", "6-6"], ["0-0", "5-5"], ["2-4", "3-3"]]
    _, hand = start("fives-and-threes", deal, overrides=over)
    play(hand, "1-2")
    assert legal(hand) == ["pass"]
    play(hand, "pass")
    # the lead 1-2 counted 3 (1 point); 2-4 makes 1 + 4 = 5 (1 point) + 1 knock
    assert play(hand, "2-4") == 2
    assert hand.scores == [1, 0, 2]


def test_exact_target_knock_bonus_and_play_are_one_gain():
    over = {"drawing": {"kind": "none", "knock_bonus": 1}}
    # seat 2 at 60: 1-2 leads (count 3: seat 0 scores 1), seat 1 knocks, seat 2's
    # 2-4 makes 5 (1 point) + 1 for the knock = 2: 62 passes 61, so the whole
    # gain is ignored and seat 2 stays at 60
    deal = [["1-2", "6-6"], ["0-0", "5-5"], ["2-4", "3-3"]]
    _, hand = start("fives-and-threes", deal, overrides=over, scores=[0, 0, 60],
                    moves=["1-2", "pass"])
    play(hand, "2-4")
    assert hand.scores[2] == 60 and not hand.game_over


def test_get_in():
    over = {"scoring": {"get_in": 10}}
    # a 5 does not count before the player is in
    _, hand = start("muggins", [["2-3", "4-6"], ["6-6", "3-3"]], overrides=over)
    assert play(hand, "2-3") == 0 and hand.scores == [0, 0]
    # a single play of 10 gets seat 0 in; seat 1's 5 still does not count
    _, hand = start("muggins", [["4-6", "3-4"], ["1-6", "0-0"]], overrides=over)
    assert play(hand, "4-6") == 10
    assert play(hand, "6-1") == 0           # ends 4 and 1: count 5
    assert hand.scores == [10, 0]
    # once in, a 5 counts
    _, hand = start("muggins", [["4-6", "3-4"], ["2-6", "0-0"]], overrides=over,
                        moves=["4-6", "6-2"])
    assert play(hand, "4-3") == 5           # ends 3 and 2
    assert hand.scores == [15, 0]


def test_reserve_is_never_drawn():
    # bergen keeps 2 tiles back: with 3 in the boneyard only 1 can be drawn
    deal = [["0-1", "2-2"], ["4-4", "5-5"]]
    _, hand = start("bergen", deal, boneyard=["6-6", "3-3", "3-6"], moves=["0-1"])
    assert legal(hand) == ["draw"]
    play(hand, "draw")                       # 6-6, unplayable; the reserve stays
    assert hand.drawable == 0
    # nobody can play and nothing can be drawn: blocked at the draw, no pass
    # asked (docs/rules.md, decision 12)
    assert legal(hand) == [] and hand.over and hand.settlement is not None
    assert hand.boneyard_left == 2


def test_until_playable_must_play_drawn():
    deal = [["0-1", "2-2"], ["4-4", "5-5"]]
    _, hand = start("sniff", deal, boneyard=["6-6", "1-3", "3-6"], moves=["0-1"])
    play(hand, "draw")
    assert legal(hand) == ["draw"]           # 6-6 does not fit: draw again
    play(hand, "draw")
    assert legal(hand) == ["1-3"]            # the drawn tile fits and must be played


def test_limited_drawing_then_pass():
    over = {"drawing": {"kind": "limited", "max_per_turn": 2}}
    deal = [["0-1", "2-2"], ["4-4", "5-5"]]
    _, hand = start("sniff", deal, boneyard=["6-6", "3-3", "1-3"], overrides=over,
                        moves=["0-1"])
    play(hand, "draw")
    play(hand, "draw")
    assert legal(hand) == ["pass"]           # two draws and nothing fits
    play(hand, "pass")
    assert hand.turn == 0


def test_must_play_drawn_false_allows_pass():
    over = {"drawing": {"kind": "until_playable", "must_play_drawn": False}}
    deal = [["0-1", "2-2"], ["4-4", "5-5"]]
    _, hand = start("sniff", deal, boneyard=["1-3", "6-6"], overrides=over, moves=["0-1"])
    play(hand, "draw")
    assert legal(hand) == ["1-3", "pass"]
    play(hand, "pass")
    assert hand.turn == 0 and hand.hands[1] >> hand.rules.tiles.parse("1-3") & 1


def test_draw_while_able_is_a_voluntary_draw_that_ends_the_turn():
    # muggins: a player holding a playable tile may draw one instead (SEED3)
    deal = [["0-1", "2-2"], ["1-4", "5-5"]]
    _, hand = start("muggins", deal, boneyard=["6-6", "3-3"], moves=["0-1"])
    assert legal(hand) == ["1-4", "draw"]
    play(hand, "draw")
    assert hand.turn == 0 and hand.drawable == 1
    assert not hand.voids                    # a voluntary draw proves nothing


# --------------------------------------------------------------- docs/api.md


def test_api_doc_examples_run():
    path = ROOT / "docs" / "api.md"
    result = doctest.testfile(str(path), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10
    assert result.failed == 0


# ------------------------------------------------------------------ records


def played_match(name="all-fives", seed=5, overrides=None, hands=None):
    match = Match(rules_of(name, overrides), seed=seed)
    rng = random.Random(seed)
    while not match.game_over and (hands is None or len(match.history) < hands):
        hand = match.new_hand()
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)
    return match


def test_record_round_trip(tmp_path):
    match = played_match()
    record = record_match(match, meta={"bots": ["random", "random"]})
    path = tmp_path / "game.json"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded == record
    assert dumps_record(loaded) == path.read_text()
    result = replay(loaded)
    assert result.finished and result.scores == match.scores
    assert [h.scores for h in result.hands] == [s.scores for s in match.history]


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    save_record(record_match(played_match(hands=1)), path)
    before = path.read_text()

    def crash(fd):
        raise OSError("disk full")

    # a crash in the middle of writing leaves the old file whole and no temp file
    monkeypatch.setattr("bones.games.record.os.fsync", crash)
    with pytest.raises(SaveError, match="disk full"):
        save_record(record_match(played_match(hands=2)), path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_record_replays_its_own_rules_not_the_builtin():
    # a house rule that exists nowhere but in the record
    over = {"scoring": {"when": {"kind": "multiple_of", "divisors": [3]}}}
    match = played_match("all-fives", seed=2, overrides=over, hands=2)
    record = record_match(match)
    assert record.variant["scoring"]["when"]["divisors"] == [3]
    assert replay(record).scores == match.scores


def test_interrupted_record_replays():
    match = Match(rules_of("sniff"), seed=4)
    hand = match.new_hand()
    for _ in range(5):
        hand.apply(hand.legal_moves()[0])
    record = record_match(match)
    assert record.hands[-1].end is None and not record.result.finished
    result = replay(record)
    assert result.hands[-1].end is None and len(result.hands[-1].moves) == 5


def test_recorder_keeps_claims():
    over = {"scoring": {"muggins": {"kind": "transfer"}}}
    match, hand = start("muggins", DEAL10, overrides=over)
    recorder = Recorder(match)
    recorder.start_hand(match.current_deal)
    assert recorder.play(hand, parse_move(hand, "4-6"), claim=5) == 5
    recorder.play(hand, parse_move(hand, "6-2"))
    record = recorder.record()
    assert record.hands[0].claims == [5, None]
    assert record.hands[0].end is None and record.result.scores == [5, 5, 0]
    assert replay(record).scores == [5, 5, 0]
    while not hand.over:                     # play on without calling end_hand()
        recorder.play(hand, hand.legal_moves()[0])
    assert recorder.record().hands[0].end == Outcome(hand.state).label
    assert replay(recorder.record()).hands[0].end == Outcome(hand.state).label
    record.hands[0].claims = None            # the true claim gives another score
    with pytest.raises(RecordError, match=r"hand 1: recorded scores \[5, 5, 0\]"):
        replay(record)


def _record_dict():
    return json.loads(dumps_record(record_match(played_match(hands=2))))


@pytest.mark.parametrize("text,message", [
    ('{"format": "bones-rec', "not valid JSON"),
    ("[1, 2]", "not a bones record"),
    ('{"format": "chess-pgn"}', "not a bones record"),
    ('{"format": "bones-record", "version": 4}', "version 4 is newer"),
    ('{"format": "bones-record"}', "no format version"),
])
def test_load_record_refuses_bad_files(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message) as err:
        load_record(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_load_record_names_the_bad_field(tmp_path):
    data = _record_dict()
    data["hands"][1]["moves"][2] = 7
    with pytest.raises(RecordError) as err:
        parse_record(data, "x.json")
    # worded as the same mistake in a variant file is (one translator, one style)
    assert str(err.value) == "x.json: hands[1].moves[2]: not text (expected a string, got 7)"
    with pytest.raises(RecordError, match="no such file"):
        load_record(tmp_path / "missing.json")


def test_replay_refuses_an_illegal_move():
    data = _record_dict()
    moves = data["hands"][1]["moves"]
    moves[2] = "pass" if moves[2] != "pass" else "6-6@W"
    with pytest.raises(RecordError, match=r"^hand 2, move 3 '[^']+': (not legal now \(legal: .+\)|.*no arm)"):
        replay(parse_record(data))


@pytest.mark.parametrize("field,value,message", [
    ("settlement", [99, 0], r"hand 1: recorded settlement \[99, 0\]"),
    ("end", "blocked", "hand 1: recorded end blocked"),
    ("scores", [1, 2], r"hand 1: recorded scores \[1, 2\]"),
])
def test_replay_refuses_a_result_that_differs(field, value, message):
    data = _record_dict()
    if data["hands"][0]["end"] == value:
        value = "domino"
    data["hands"][0][field] = value
    with pytest.raises(RecordError, match=message):
        replay(parse_record(data))


def test_replay_refuses_a_bad_deal_and_extra_moves():
    data = _record_dict()
    data["hands"][0]["deal"]["boneyard"].append(data["hands"][0]["deal"]["hands"][0][0])
    with pytest.raises(RecordError, match="dealt twice"):
        replay(parse_record(data))
    data = _record_dict()
    data["hands"][0]["moves"].append("pass")
    with pytest.raises(RecordError, match=r"hand 1, move \d+ 'pass': the hand is already over"):
        replay(parse_record(data))
    data = _record_dict()
    data["result"]["scores"] = [0, 0]
    with pytest.raises(RecordError, match="result: recorded final scores"):
        replay(parse_record(data))


# ------------------------------------------------------- compiled rules


def test_compiled_rules_pickle_for_every_builtin_table():
    import pickle

    from bones.engine.settle import Settle
    from bones.lang.load import builtin_names

    for name in builtin_names():
        variant = load_variant(name)
        for players in variant.players.counts:
            rules = compile_rules(variant, players)
            again = pickle.loads(pickle.dumps(rules))
            assert again == rules
            # settlement and leads are plain codes, not closures or models
            assert isinstance(again.settle_domino, Settle)
            assert isinstance(again.lead_first.kind, int)
            a, b = Match(rules, seed=3), Match(again, seed=3)
            assert a.new_hand().hands == b.new_hand().hands
