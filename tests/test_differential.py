"""The two cores agree: the Python ``Hand`` and the native stepwise hand.

Random games are driven from Python (deals by the Python ``Match``, moves
chosen by a seeded ``random.Random``, sometimes a wrong muggins claim): at
every ply the legal moves, the turn, the count, the scores, the hands, the
open ends and the end state must agree; at each hand's end the settlement,
the winner and the log too.  Whole matches are played, so targets,
settlement and the scores carried between hands are compared.  This needs
no shared random stream: the moves are chosen once and given to both.

Every built-in variant at every allowed player count (teams where allowed)
is played, and hypothesis-generated variant files too.  Skipped only when
the native core is not installed; ``BONES_CORE=native`` (CI's native pass)
turns a missing core into a failure.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis_budget import examples
from native_support import bones_native, builtin_tables, skip_native

from bones.engine.core import native_hand
from bones.engine.hand import Hand
from bones.engine.match import MAX_HANDS, Match
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant

pytestmark = [*skip_native(), pytest.mark.once]


def assert_same(py: Hand, nat: object, where: str) -> None:
    rules = py.rules
    assert nat.legal_moves() == py.legal_moves(), where
    assert nat.state == py.state, where
    assert nat.turn == py.turn, where
    assert nat.count == py.count, where
    assert nat.scores == list(py.scores), where
    assert nat.placed == py.placed, where
    assert nat.passes == py.passes, where
    assert nat.drawn_turn == py.drawn_turn, where
    assert nat.bone_pos == py.bone_pos, where
    assert nat.last_points == py.last_points, where
    assert nat.last_player == py.last_player, where
    assert nat.open_mask == py.open_mask, where
    assert nat.on_table == py.on_table, where
    assert nat.arm_open == list(py.arm_open), where
    assert nat.spinners == py.spinners, where
    assert nat.got_in == list(py.got_in), where
    assert nat.out == list(py.out), where
    assert nat.drawn == list(py.drawn), where
    assert nat.recount() == nat.count, where
    for seat in range(rules.players):
        assert nat.hand_mask(seat) == py.hands[seat], where
    assert nat.pot == py.pot, where
    if py.state:
        assert nat.settlement == py.settlement, where
        assert nat.domino_seat == py.domino_seat, where
        assert nat.winner == py.winner, where
        assert nat.game_over == py.game_over, where
        assert nat.log == [(s, m, p) for s, m, p in py.log], where


def play_match(rules, seed: int, claims: bool = True, max_hands: int = 12) -> int:
    """Play (up to ``max_hands`` hands of) a match on both cores; the plies played."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    plies = 0
    for number in range(max_hands):
        if match.game_over:
            break
        scores = list(match.scores)
        py = match.new_hand()
        nat = native_hand(rules, match.current_deal, scores, pot=match.pot,
                          got_in=match.got_in if rules.get_in_match else None, number=py.number)
        where = f"{rules.name} {rules.players}p teams={rules.teams} seed {seed} hand {number}"
        assert_same(py, nat, where)
        while not py.state:
            legal = py.legal_moves()
            if not legal:  # a lead rule that leaves nothing to lead: both agree
                break
            move = rng.choice(legal)
            if not py.placed and move >= 0 and rng.random() < 0.5:
                move |= 1  # the lead's other orientation
            claim = None
            if claims and rules.muggins and move >= 0 and rng.random() < 0.3:
                claim = rng.randrange(0, 25)
            py.apply(move, claim)
            nat.apply(move, claim)
            plies += 1
            assert_same(py, nat, f"{where} ply {plies} move {move} claim {claim}")
        if not py.state:
            break
        summary = match.finish_hand(py)
        assert nat.scores == summary.scores  # the hand's end, before a won game resets them
        if len(match.history) >= MAX_HANDS:
            break
    return plies


@pytest.mark.parametrize("name,players,teams", builtin_tables())
def test_builtin_variants_agree_move_for_move(name: str, players: int, teams: bool) -> None:
    rules = compile_rules(load_variant(name), players, teams)
    if rules.trains is not None:
        # a train layout's rounds on the native TrainHand (tests/test_trains_native.py:
        # the legal moves and every field of the layout after every move)
        from test_trains_native import play_match as play_train_match

        assert sum(play_train_match(rules, 1000 * players + seed, rounds=3, bots=False)
                   for seed in range(8)) > 0
        return
    plies = 0
    for seed in range(20):
        plies += play_match(rules, 1000 * players + seed)
    assert plies > 0


def test_bigger_sets_use_more_mask_words() -> None:
    """double-12 (91 tiles, two words) and double-18 (190 tiles, three)."""
    base = load_variant("all-fives")
    for highest, words in ((9, 1), (12, 2), (18, 3)):
        variant = base.model_copy(update={
            "tiles": base.tiles.model_copy(update={"highest": highest}),
            "name": f"all-fives-{highest}",
        })
        rules = compile_rules(variant, 4)
        from bones.engine.core import native_rules

        assert native_rules(rules).words == words
        assert sum(play_match(rules, seed) for seed in range(4)) > 0


try:
    from test_spec_roundtrip import variants as generated_variants
except ImportError:  # pragma: no cover
    generated_variants = None


@pytest.mark.skipif(generated_variants is None, reason="variant generator not importable")
@examples(60)
@given(variant=generated_variants() if generated_variants else None)
def test_generated_variants_agree(variant) -> None:
    for players in variant.players.counts[:2]:
        for teams in sorted({variant.partnered(players, False), variant.partnered(players, True)}):
            rules = compile_rules(variant, players, teams)
            try:
                match = Match(rules, seed=1)
                match.next_deal()
            except Exception:
                continue  # a lead rule that finds no lead: nothing to compare
            play_match(rules, 7, max_hands=3)


def test_illegal_input_is_an_error_not_a_crash() -> None:
    rules = compile_rules(load_variant("sniff"), 2)
    from bones.engine.core import native_rules

    table = native_rules(rules)
    with pytest.raises(ValueError, match="not in a set of 28"):
        bones_native.Hand(table, [[0, 99], [1]], [], 0)
    with pytest.raises(ValueError, match="hands for 2 players"):
        bones_native.Hand(table, [[0]], [], 0)


@pytest.mark.parametrize("name,players,teams", builtin_tables())
def test_policies_agree(name: str, players: int, teams: bool) -> None:
    """points_if and the greedy move at every ply of random games; then whole
    hands played out natively (greedy, and random on the specified stream)
    end exactly as the Python policies played on the Python hand."""
    from bones.bots.policies import greedy_move, points_if
    from bones.engine.rng import Rng

    rules = compile_rules(load_variant(name), players, teams)
    if rules.trains is not None:
        # a train layout: the greedy and heuristic choices of both cores at
        # every decision of whole rounds (tests/test_trains_native.py)
        from test_trains_native import play_round

        for seed in range(2):
            hand = Match(rules, seed=seed).new_hand()
            assert play_round(hand, random.Random(seed), f"{name} {players}p seed {seed}") > 0
        return
    for seed in range(4):
        rng = random.Random(seed)
        match = Match(rules, seed=seed)
        py = match.new_hand()
        nat = native_hand(rules, match.current_deal, list(match.scores))
        while not py.state and py.legal_moves():
            legal = py.legal_moves()
            for move in legal:
                assert nat.points_if(move) == points_if(py, move), (name, seed, move)
            assert nat.greedy_move() == greedy_move(py, legal)
            move = rng.choice(legal)
            py.apply(move)
            nat.apply(move)
        for policy in ("greedy", "random"):
            match = Match(rules, seed=100 + seed)
            py = match.new_hand()
            nat = native_hand(rules, match.current_deal, list(match.scores))
            stream = Rng(seed)
            while not py.state and py.legal_moves():
                legal = py.legal_moves()
                if policy == "greedy":
                    move = greedy_move(py, legal)
                else:
                    move = legal[0] if len(legal) == 1 else stream.choice(legal)
                py.apply(move)
            nat.playout(policy, seed)
            assert_same(py, nat, f"{name} {players}p {policy} playout seed {seed}")


@pytest.mark.parametrize("players", [4, 6, 8])
def test_big_partnerships_with_partners_both_out(players: int) -> None:
    """Teams of 2, 3 and 4 seats where a hand goes on until a whole team is out."""
    from bones.lang import spec

    base = load_variant("all-fives")
    blocked = base.settlement.blocked.model_copy(update={"ties": "share"})
    variant = base.model_copy(update={
        "name": "teams-out",
        "settlement": base.settlement.model_copy(update={"blocked": blocked}),
        "tiles": spec.Tiles(highest=9),
        "deal": spec.DealRule(hand_size=5),
        "players": spec.Players(counts=[4, 6, 8], partnerships=spec.Partnerships(
            kind="required", player_counts=[4, 6, 8])),
        "hand_end": spec.HandEndRule(partners_both_out=True),
        "match": spec.TargetMatch(kind="target", points=100),
    })
    rules = compile_rules(variant, players)
    assert rules.partners_both_out and rules.owners == 2
    for seed in range(10):
        play_match(rules, seed)


#: House rules that turn on the options of issue 12, section 4, over
#: built-ins: each is played on both cores (``overrides`` deep-merged).
OPTION_RULES = [
    ("all-fives", 4, True, {"settlement": {"domino": {"rounding": {"kind": "up", "per": "player"}},
                                            "blocked": {"ties": "full"}}}),
    ("all-fives", 3, False, {"settlement": {"domino": {"rounding": {"kind": "down", "unit": 5}},
                                             "blocked": {"ties": "full",
                                                         "rounding": {"kind": "up", "unit": 10}}}}),
    ("partners", 4, True, {"settlement": {"domino": {"rounding": {"kind": "nearest", "per": "player"}}}}),
    ("five-up", 3, False, {"layout": {"spinner": {"kind": "every_double_but_led"}}}),
    ("all-fives", 2, False, {"layout": {"spinner": {"kind": "every_double_but_led", "order": "any",
                                                    "count": "sniff-count"}}}),
    ("muggins", 3, False, {"scoring": {"muggins": {"kind": "transfer", "penalise_over_claim": True,
                                                   "over_claim_points": "caller"}}}),
    ("muggins", 2, False, {"scoring": {"muggins": {"kind": "forfeit", "over_claim_points": "claimer"}}}),
    ("all-fives", 2, False, {"settlement": {"blocked": {"ties": "carry", "rounding": {"kind": "none"}}},
                             "drawing": {"kind": "none"}, "deal": {"hand_size": {2: 3, 3: 3, 4: 3}}}),
    ("all-fives", 3, False, {"settlement": {"blocked": {"ties": "carry"}}}),
    ("partnership-block", 4, True, {"settlement": {"blocked": {"ties": "carry"}}}),
    # issue 21, section 2
    ("all-fives", 3, False, {"match": {"check": "hand_winner", "points": {2: 100, 3: 100, 4: 100}},
                             "settlement": {"blocked": {"ties": "share"}}}),
    ("bergen", 2, False, {"match": {"check": "hand_winner"}}),
    ("sniff", 4, True, {"match": {"check": "hand_winner", "points": {2: 100, 3: 100, 4: 100}},
                        "settlement": {"blocked": {"kind": "own_penalty"}}}),
    ("muggins", 3, False, {"lead": {"first": {"kind": "lightest_tile"}, "later": {"kind": "first"}}}),
    ("muggins", 2, False, {"lead": {"first": {"kind": "highest_double", "if_none": "lightest_tile"},
                                    "later": {"kind": "first"}},
                           "deal": {"hand_size": {2: 3, 3: 3, 4: 3}}}),
    ("partners", 4, True, {"lead": {"first": {"kind": "tile", "tile": "6-6", "if_none": "lightest_tile"}},
                           "deal": {"hand_size": 5}}),
    ("sniff", 4, True, {"settlement": {"domino": {"rounding": {"per": "player"}},
                                       "blocked": {"rounding": {"per": "player"}}}}),
    ("all-fives", 2, False, {"drawing": {"stuck": "block"}}),
    ("bergen", 3, False, {"drawing": {"kind": "limited", "max_per_turn": 1, "stuck": "block"}}),
    ("fives-and-threes", 4, True, {"drawing": {"stuck": "block"}}),
    ("all-fives", 2, False, {"scoring": {"get_in": 10, "get_in_scope": "match"}}),
    ("muggins", 3, False, {"scoring": {"get_in": 15, "get_in_scope": "match"}}),
    ("partners", 4, True, {"scoring": {"get_in": 10, "get_in_scope": "match"}}),
]


@pytest.mark.parametrize("name,players,teams,overrides", OPTION_RULES)
def test_rule_options_agree(name: str, players: int, teams: bool, overrides: dict) -> None:
    rules = compile_rules(load_variant(name, overrides=overrides), players, teams)
    assert sum(play_match(rules, 3000 + seed) for seed in range(20)) > 0
