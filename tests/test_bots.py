"""Bots: legal under every variant, greedy's tie-breaks, the text form and its errors."""

from __future__ import annotations

from functools import cache

import pytest
from support import compiled

from bones.bots import BOTS, BotError, make_bot, parse_bots
from bones.bots.policies import greedy_move, points_if
from bones.engine.hand import DRAW, Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.lang.load import builtin_names, load_variant
from bones.seat.observation import observe

_QUICK = ("random", "greedy", "heuristic", "search:iterations=2",
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
    assert set(BOTS) == {"random", "greedy", "heuristic", "pimc", "search", "ismcts", "epimc"}


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
