"""Bots: legal under every variant, greedy's tie-breaks, the heuristic's
valuing of the bonuses, locks and passes (issue 31), the text form and its
errors."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import pytest
from support import compiled, positions

from bones.bots import BOTS, BotError, make_bot, parse_bots
from bones.bots.basic import _SHED_LATE, _Judge, finish_bonus, heuristic_move, none_held, share_of
from bones.bots.infer import heuristic_values
from bones.bots.policies import greedy_move, points_if
from bones.engine.hand import DRAW, Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant
from bones.seat.observation import observe

_QUICK = ("random", "greedy", "heuristic", "blunder", "blunder:base=greedy:rate=0.3",
          "search:iterations=2",
          "search:iterations=1:policy=heuristic", "search:iterations=1:rollouts=2:policy=random",
          "search:seconds=0.001")


@cache
def _tables() -> list[tuple[str, int, bool]]:
    out = []
    for name in builtin_names():
        v = load_variant(name)
        for p in v.players.counts:
            parts = v.players.partnerships
            out.append((name, p, parts.kind == "required" and p in parts.player_counts))
            if parts.kind == "optional" and p in parts.player_counts:
                out.append((name, p, True))
    return out


@pytest.mark.parametrize("name,players,teams", _tables())
def test_every_bot_plays_legally_everywhere(name: str, players: int, teams: bool) -> None:
    rules = compiled(name, players, teams or None)
    bots = [make_bot(text) for text in _QUICK]
    rng = Rng(1)
    for seed in range(2):
        hand = Match(rules, seed).new_hand()
        turn = 0
        while not hand.over:
            bot = bots[(hand.turn + turn + seed) % len(bots)]
            obs = observe(hand, hand.turn)
            before = [h for h in hand.hands]
            move = bot.choose(obs, rng)
            assert hand.is_legal(move), (bot.name, move)
            assert hand.hands == before  # choosing never touches the real hand
            hand.apply(move)
            turn += 1


def _hand(name: str, tiles: list[str], leader_hand_only: bool = True) -> Hand:
    rules = compiled(name, 2)
    ts = rules.tiles
    mine = 0
    for text in tiles:
        mine |= 1 << ts.parse(text)
    rest = [t for t in range(ts.size) if not mine >> t & 1]
    other = sum(1 << t for t in rest[:3])
    return Hand(rules, [mine, other], rest[3:], 0)


def test_greedy_prefers_points_then_weight_then_doubles() -> None:
    ts = compiled("all-fives", 2).tiles
    # points first: leading 4-6 scores 10; 6-6 (heavier) leads a count of 12
    hand = _hand("all-fives", ["6-6", "4-6", "0-1"])
    assert greedy_move(hand) >> 7 == ts.parse("4-6")
    # no play scores in block-2p: the heaviest tile, and a double among equals
    hand = _hand("block-2p", ["2-4", "3-3", "0-1"])
    assert greedy_move(hand) >> 7 == ts.parse("3-3")
    hand = _hand("block-2p", ["2-4", "1-5", "0-1"])
    assert greedy_move(hand) >> 7 in (ts.parse("2-4"), ts.parse("1-5"))
    hand = _hand("block-2p", ["0-6", "3-3", "5-5"])
    assert greedy_move(hand) >> 7 == ts.parse("5-5")


def test_greedy_never_draws_by_choice() -> None:
    # variants that allow drawing while able: greedy plays whenever it can
    rules = compiled("muggins", 2)
    assert rules.draw_while_able
    for seed in range(10):
        hand = Match(rules, seed).new_hand()
        while not hand.over:
            legal = hand.legal_moves()
            move = greedy_move(hand, legal)
            if any(m >= 0 for m in legal):
                assert move >= 0
            hand.apply(move)


def test_points_preview_matches_playing_the_move() -> None:
    rng = Rng(5)
    checked = 0
    for name in builtin_names():
        rules = compiled(name, min(load_variant(name).players.counts))
        for seed in range(3):
            hand = Match(rules, seed).new_hand()
            while not hand.over:
                legal = hand.legal_moves()
                for move in legal:
                    trial = hand.copy()
                    trial.apply(move)
                    assert points_if(hand, move) == trial.last_points, (name, move)
                    checked += 1
                hand.apply(rng.choice(legal))
    assert checked > 1000


def test_bot_text_round_trips() -> None:
    for text in ("random", "greedy", "heuristic", "search", "search:iterations=7",
                 "search:rollouts=3:iterations=9", "search:policy=heuristic:seconds=0.5"):
        bot = make_bot(text)
        assert make_bot(bot.name).name == bot.name
    assert make_bot("search:iterations=9:rollouts=3").name == "search:iterations=9:rollouts=3"
    assert make_bot(" Search : ITERATIONS = 5 ").name == "search:iterations=5"
    assert [b.name for b in parse_bots("greedy,search:iterations=4")] == [
        "greedy", "search:iterations=4"]
    assert set(BOTS) == {"random", "greedy", "heuristic", "pimc", "search", "ismcts", "epimc",
                         "blunder"}
    assert make_bot("blunder:rate=0.55:base=heuristic").name == "blunder"
    assert make_bot("Blunder: RATE = .25 :base=greedy").name == "blunder:base=greedy:rate=0.25"


@pytest.mark.parametrize("text,message", [
    ("gredy", "unknown bot 'gredy' (did you mean greedy?); bots: random, greedy, heuristic, pimc, search"),
    ("zzz", "unknown bot 'zzz'; bots: random, greedy, heuristic, pimc, search"),
    ("search:iters=3", "search has no parameter 'iters' (did you mean iterations?)"),
    ("search:iterations=many", "search: iterations must be a whole number, not 'many'"),
    ("search:iterations=0", "search: iterations must be at least 1, not 0"),
    ("search:seconds=-1", "search: seconds must be at least 0"),
    ("search:policy=smart", "search: policy must be one of greedy, heuristic, random"),
    ("search:iterations", "search: write parameters as key=value, not 'iterations'"),
    ("search:iterations=2:iterations=3", "search: iterations is given twice"),
    ("greedy:depth=2", "greedy takes no parameters (got 'depth')"),
    ("blunder:rate=1.5", "blunder: rate may be at most 1"),
    ("blunder:rate=-0.1", "blunder: rate must be at least 0"),
    ("blunder:base=search", "blunder: base must be one of heuristic, greedy"),
])
def test_bad_bot_text_is_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(BotError) as err:
        make_bot(text)
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_bad_bot_lists() -> None:
    for text in ("", " , ", "greedy,,random"):
        with pytest.raises(BotError):
            parse_bots(text)


def test_bots_are_deterministic_for_a_seed() -> None:
    rules = compiled("all-fives", 3)
    bot = make_bot("search:iterations=3")
    hand = Match(rules, 2).new_hand()
    while not hand.over:
        obs = observe(hand, hand.turn)
        a = bot.choose(obs, Rng(9))
        assert all(bot.choose(obs, Rng(9)) == a for _ in range(2))
        hand.apply(a)


def _decisions(name: str, players: int, games: int = 3):
    """(observation, legal moves) at every decision with a choice of a few
    hands played by ``heuristic``."""
    rules = compiled(name, players)
    heuristic = make_bot("heuristic")
    for seed in range(games):
        hand = Match(rules, seed).new_hand()
        while not hand.over:
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            if len(legal) > 1:
                yield obs, legal
            hand.apply(heuristic.choose(obs, Rng(0)) if len(legal) > 1 else legal[0])


@pytest.mark.parametrize("name,players", [("all-fives", 2), ("dominican", 4), ("mexican-train", 3)])
def test_blunder_plays_its_base_or_a_random_move_by_two_draws(name: str, players: int) -> None:
    """At each decision: one ``random()``; under the rate, ``below(n)`` picks
    the move (a random legal one), else the base bot's move, with nothing
    more drawn: the draws the native core reproduces."""
    heuristic, greedy = make_bot("heuristic"), make_bot("greedy")
    blunders = base_moves = 0
    for k, (obs, legal) in enumerate(_decisions(name, players)):
        for text, base in (("blunder", heuristic), ("blunder:base=greedy:rate=0.3", greedy)):
            bot = make_bot(text)
            rng, mirror = Rng(k), Rng(k)
            move = bot.choose(obs, rng)
            if mirror.random() < bot.rate:
                assert move == legal[mirror.below(len(legal))]
                blunders += 1
            else:
                assert move == base.choose(obs, Rng(0))
                base_moves += 1
            assert rng.state == mirror.state  # nothing else drawn
    assert blunders > 10 and base_moves > 10


def test_blunder_at_rate_0_is_its_base_and_at_1_random() -> None:
    heuristic = make_bot("heuristic")
    never, always = make_bot("blunder:rate=0"), make_bot("blunder:rate=1")
    differ = 0
    for k, (obs, legal) in enumerate(_decisions("fives-and-threes", 2, games=4)):
        assert never.choose(obs, Rng(k)) == heuristic.choose(obs, Rng(k))
        rng = Rng(k)
        rng.random()
        assert always.choose(obs, Rng(k)) == legal[rng.below(len(legal))]
        differ += always.choose(obs, Rng(k)) != heuristic.choose(obs, Rng(k))
    assert differ > 5


def test_blunder_blunders_at_its_rate() -> None:
    bot = make_bot("blunder")
    obs, legal = next(_decisions("all-fives", 2))
    rng = Rng(11)
    best = make_bot("heuristic").choose(obs, Rng(0))
    trials = 4000
    # a blunder plays each legal move with chance 1/n, the base's among them
    other = sum(bot.choose(obs, rng) != best for _ in range(trials)) / trials
    assert other == pytest.approx(0.55 * (1 - 1 / len(legal)), abs=0.03)


def test_heuristic_may_draw_where_the_variant_allows() -> None:
    # muggins lets a player draw while able: across many hands the heuristic
    # uses that option at least once, and only when a draw is legal
    rules = compiled("muggins", 2)
    bot = make_bot("heuristic")
    draws_by_choice = 0
    rng = Rng(0)
    for seed in range(40):
        hand = Match(rules, seed).new_hand()
        while not hand.over:
            legal = hand.legal_moves()
            move = bot.choose(observe(hand, hand.turn), rng)
            if move == DRAW and any(m >= 0 for m in legal):
                draws_by_choice += 1
            hand.apply(move)
    assert draws_by_choice > 0


# ---------------------------------------------- the heuristic and issue 31


def _rules(name: str, overrides: dict[str, Any] | None = None, players: int = 4) -> Rules:
    return compile_rules(load_variant(name, overrides=overrides), players, None)


def _dealt(rules: Rules, mine: list[str]) -> Hand:
    """A hand whose leader, seat 0, holds ``mine``; the other seats the rest
    of the set in order, a hand's size each (no lead tile imposed)."""
    ts = rules.tiles
    mask = sum(1 << ts.parse(t) for t in mine)
    rest = [t for t in range(ts.size) if not mask >> t & 1]
    size = len(mine)
    hands = [mask] + [sum(1 << t for t in rest[i * size:(i + 1) * size])
                      for i in range(rules.players - 1)]
    return Hand(rules, hands, [], 0)


def _view(hand: Hand) -> tuple[int, list[int]]:
    """The unseen tiles and the tile counts the mover of ``hand`` sees."""
    seat = hand.turn
    unseen = hand.rules.tiles.full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play)
    return unseen, [h.bit_count() for h in hand.hands]


def test_ends_pay_is_compiled_from_the_bonuses_and_the_blocked_settlement() -> None:
    # bonuses (dominican), a lock decided by comparison (kozel's losers_pay,
    # cuban's and all-fives' lightest); neither (sniff's own penalty,
    # fives-and-threes' nobody) until a bonus is added
    for name in ("dominican", "kozel", "cuban", "puerto-rico-500", "all-fives"):
        assert compiled(name).ends_pay, name
    for name in ("sniff", "fives-and-threes", "muggins"):
        assert not compiled(name).ends_pay, name
    assert _rules("sniff", {"bonuses": {"round_pass": 5}}, 2).ends_pay
    assert _rules("sniff", {"bonuses": {"capicua": {"points": 5, "doubles": True}}}, 2).ends_pay


def test_none_held_is_the_hypergeometric_chance() -> None:
    for unseen, fitting, held in ((21, 6, 7), (21, 0, 21), (10, 3, 4), (5, 5, 1), (9, 2, 7)):
        exact = math.comb(unseen - fitting, held) / math.comb(unseen, held)
        assert none_held(unseen, fitting, held) == pytest.approx(exact)
    assert none_held(21, 6, 21) == 0.0  # every unseen tile is held: a fitting one too
    assert [share_of(c, 145, 26) for c in (0, 1, 7)] == [0, 6, 39]


def test_a_lead_nobody_else_can_follow_is_worth_both_pass_bonuses() -> None:
    # the leader holds every 0: after the 0-0 lead nobody else can play, so
    # the next player passes on the opening double (25) and every other
    # player passes after it (25); the other leads leave a chance of a pass
    seven = [f"0-{b}" for b in range(7)]
    on = _dealt(compiled("dominican", 4), seven)
    off = _dealt(_rules("dominican", {"bonuses": {"opening_pass": None, "round_pass": 0}}), seven)
    unseen, counts = _view(on)
    legal = on.legal_moves()
    with_bonuses = heuristic_values(on, unseen, counts, 0, legal)
    without = heuristic_values(off, unseen, counts, 0, legal)
    double = on.rules.tiles.parse("0-0")
    for move, a, b in zip(legal, with_bonuses, without, strict=True):
        if move >> 7 == double:
            assert a - b == pytest.approx(50.0)
        else:  # a pass on the lead is possible, a round of passes is not
            assert 0.0 < a - b < 50.0
    assert heuristic_move(on.public_copy(0), unseen, counts, 0) >> 7 == double


def test_a_lead_that_locks_earns_no_pass_bonus() -> None:
    # the leader holds the 0-0 and no other 0, the other 0s out of play: the
    # lead locks the hand at once, and nobody passes (the lock is judged
    # the same with the bonuses or without)
    values = []
    for rules in (compiled("dominican", 4),
                  _rules("dominican", {"bonuses": {"opening_pass": None, "round_pass": 0}})):
        ts = rules.tiles
        mine = sum(1 << ts.parse(t) for t in ("0-0", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"))
        out = sum(1 << ts.parse(f"0-{b}") for b in range(1, 7))
        rest = [t for t in range(ts.size) if not (mine | out) >> t & 1]
        hands = [mine] + [sum(1 << t for t in rest[i::3]) for i in range(3)]
        hand = Hand(rules, hands, [], 0, out_of_play=out)
        unseen, counts = _view(hand)
        legal = [m for m in hand.legal_moves() if m >> 7 == ts.parse("0-0")]
        values.append(heuristic_values(hand, unseen, counts, 0, legal)[0])
    assert values[0] == values[1]


def test_a_finish_is_worth_the_bonuses_the_hand_scores() -> None:
    # Puerto Rico's capicúa, chuchazo (the 0-0 last) and bonuses by hand
    # number: what the heuristic adds to a finish is what the hand scores
    rules = compiled("puerto-rico-500", 4, True)
    bare = _rules("puerto-rico-500", {"bonuses": {"capicua": None, "last_tile": None,
                                                  "by_hand": None}})
    finishes = bonuses = 0
    for seed in range(12):
        for hand in positions(rules, seed, hands=4, choices_only=False):
            if hand.hands[hand.turn].bit_count() != 1:
                continue
            unseen, counts = _view(hand)
            legal = hand.legal_moves()
            plain = hand.copy()
            plain.rules = bare
            with_bonuses = heuristic_values(hand, unseen, counts, hand.drawable, legal)
            without = heuristic_values(plain, unseen, counts, hand.drawable, legal)
            for move, a, b in zip(legal, with_bonuses, without, strict=True):
                if move < 0:
                    continue
                out = hand.copy()
                out.apply(move)
                assert a - b == pytest.approx(out.bonus), (seed, hand.log, move)
                finishes += 1
                bonuses += out.bonus > 0
    assert finishes > 20 and bonuses > 5


@pytest.mark.parametrize("against,win,expected", [
    ("previous", 30, 45 + 30),  # 23 pips against seat 3's 39: the locker's side wins
    ("next", 30, -(23 + 39) - 30),  # against seat 1's 6: the locker's side loses
    ("previous", 0, 45),
])
def test_a_lock_is_judged_by_the_blocked_settlement(against: str, win: int,
                                                    expected: int) -> None:
    # dominican's lock: the locker's hand against a neighbour's, the sides'
    # pips (the others' estimated as their share of the tiles that cannot
    # fit) and the bonus for a block won going to the winner
    rules = _rules("dominican", {"settlement": {"blocked": {"against": against}},
                                 "bonuses": {"blocked_win": win}})
    hand = _dealt(rules, ["5-6", "6-6"])
    ts = rules.tiles
    left = hand.hands[0]
    unseen = ts.full & ~left  # 26 tiles of 145 pips: 6 for one tile, 39 for seven
    judge = _Judge(hand, unseen, [2, 1, 7, 7], 0)
    assert judge.lock(0, left) == expected


_FLAT = {"settlement": {"domino": {"amount": "flat", "points": 1}}}


@pytest.mark.parametrize("name,overrides,pip_worth,flat", [
    ("all-fives", None, 1.0, 0),  # the opponents' pips
    ("all-fives-cribbage", None, 0.2, 0),  # their pips divided by five
    ("fives-and-threes", None, 0.0, 1),  # one point for chipping out, whatever is left
    ("bergen", None, 0.0, 1),
    ("all-fives", _FLAT, 0.0, 1),
    # where no play scores, the settlement is all there is: pips judge it
    ("block-2p", _FLAT, 1.0, 0),
])
def test_going_out_is_worth_what_the_settlement_pays(name: str, overrides: dict[str, Any] | None,
                                                     pip_worth: float, flat: int) -> None:
    # issue 34: a finish was valued at the opponents' pips in every game, so
    # where going out pays one point (Fives and Threes, Bergen) or the pips
    # over five (All Fives Cribbage) the heuristic raced out for nothing; a
    # pip shed is worth what the settlement makes of it (flat: nothing)
    rules = _rules(name, overrides, players=2)
    hand = _dealt(rules, ["1-2"])
    unseen = rules.tiles.full & ~hand.hands[0]  # 27 tiles of 165 pips; the opponent holds 7
    judge = _Judge(hand, unseen, [1, 7], 0)
    move = hand.legal_moves()[0]
    value, keeps = judge.play(move)
    assert not keeps
    settlement = flat or 165 / 27 * 7 * pip_worth
    expected = points_if(hand, move) + _SHED_LATE * pip_worth * 3 + settlement
    assert value == pytest.approx(expected)


@pytest.mark.parametrize("name,mine,expected", [
    # the opponent's seven tiles: their share of the 26 unseen, 43 pips
    # against 1-2 2-3, 39 against 5-6 6-6
    ("bergen", ["1-2", "2-3"], 1.0),  # the lighter hand: one flat point
    ("bergen", ["5-6", "6-6"], -1.0),  # a hand holding a double loses to a double-free one
    ("all-fives-cribbage", ["1-2", "2-3"], 43 / 5),  # the opponent's pips, over five
    ("all-fives", ["1-2", "2-3"], 43.0),
    ("all-fives", ["5-6", "6-6"], 39.0),  # no double rule: 23 pips against 39 win
])
def test_a_lock_is_worth_what_the_blocked_settlement_pays(name: str, mine: list[str],
                                                          expected: float) -> None:
    rules = _rules(name, players=2)
    hand = _dealt(rules, mine)
    left = hand.hands[0]
    unseen = rules.tiles.full & ~left
    judge = _Judge(hand, unseen, [2, 7], 0)
    assert judge.lock(0, left) == pytest.approx(expected)


def test_a_capicua_set_up_keeps_a_share_of_its_bonus_when_others_can_follow() -> None:
    # Dominican, a player with two tiles: the play that leaves the last tile
    # fitting both ends is worth the capicúa (25) in full when nobody else
    # can follow (every other seat passes, and it goes out next) and
    # ``_READY`` of it for the chance that somebody can; every other play
    # is worth the same with the capicúa or without (issue 31)
    from bones.bots.basic import _READY

    rules = compiled("dominican", 4, True)
    bare = _rules("dominican", {"bonuses": {"capicua": None}})
    set_ups = others = 0
    for seed in range(40):
        for hand in positions(rules, seed, hands=3, choices_only=False):
            if hand.hands[hand.turn].bit_count() != 2 or hand.drawable:
                continue
            unseen, counts = _view(hand)
            legal = [m for m in hand.legal_moves() if m >= 0]
            if len(legal) < 2:
                continue
            plain = hand.copy()
            plain.rules = bare
            with_bonus = heuristic_values(hand, unseen, counts, 0, legal)
            without = heuristic_values(plain, unseen, counts, 0, legal)
            for move, a, b in zip(legal, with_bonus, without, strict=True):
                after = hand.copy()
                after.apply(move)
                last = hand.hands[hand.turn] & ~(1 << (move >> 7))
                if after.out_bonus(last.bit_length() - 1) >= rules.capicua_points:
                    assert _READY * 25 - 1e-9 <= a - b <= 25 + 1e-9, (seed, hand.log, move)
                    set_ups += 1
                else:
                    assert a == b, (seed, hand.log, move)
                    others += 1
    assert set_ups > 10 and others > 10


def test_in_a_penalty_match_no_play_point_can_reach_the_heuristic() -> None:
    # Kozel (match.kind: penalty): a point scored would count against the
    # side that scores it, so the language refuses plays that score and
    # bonuses there, each at its key; the compiled rules leave the
    # heuristic's point terms (the play's points, the reply's, the
    # finish's bonuses) nothing to take as good, and its finish is worth
    # what the other side is charged (issue 31)
    from bones.lang.load import VariantError

    with pytest.raises(VariantError, match="scoring.when.kind: under match kind penalty plays "
                       "cannot score"):
        load_variant("kozel", overrides={"scoring": {"when": {"kind": "multiple_of",
                                                              "divisors": [5]}}})
    with pytest.raises(VariantError, match="bonuses.round_pass: under match kind penalty"):
        load_variant("kozel", overrides={"bonuses": {"round_pass": 25}})
    rules = compiled("kozel", 4, True)
    assert not rules.scores_plays and not rules.round_pass and not rules.capicua_points
    finishes = 0
    for seed in range(6):
        for hand in positions(rules, seed, hands=2, choices_only=False):
            for move in hand.legal_moves():
                assert points_if(hand, move) == 0
                if move >= 0 and hand.hands[hand.turn].bit_count() == 1:
                    assert finish_bonus(hand, hand.turn, move >> 7) == 0
                    finishes += 1
    assert finishes > 5
