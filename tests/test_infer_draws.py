"""The inference past the first draw (``bones.bots.infer``, ``draws``;
``search:idraw=1``): a start of the hand consistent with the world, the
choices made after the mover's last draw judged, nothing changed where
nobody has drawn, and the same numbers in both cores.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
from native_support import bones_native

from bones.bots.basic import HeuristicBot
from bones.bots.infer import drawn_tiles, last_draws, log_likelihood, other_choices, replay_start
from bones.bots.ismcts import IsmctsBot
from bones.bots.search import SearchBot
from bones.engine.core import flat_table
from bones.engine.hand import DRAW, PLAYING, Hand
from bones.engine.match import Match
from bones.engine.moves import TILE_SHIFT
from bones.engine.rng import Rng
from bones.seat.observation import observe, sample_world
from tests.support import compiled, positions

#: draw games: two seats, three (one of them drawing while able), a
#: partnership of four
DRAW_TABLES = [
    ("bergen", 2, False),
    ("all-fives", 2, False),
    ("sniff", 2, False),
    ("all-fives", 4, True),
    ("muggins", 3, False),
    ("sniff-english", 3, False),
]


def heuristic_positions(name: str, players: int, teams: bool, seed: int) -> Iterator[Hand]:
    """Every position of the first hand of a match the heuristic plays
    against itself."""
    rules = compiled(name, players, teams)
    hand = Match(rules, seed).new_hand()
    bot, rng = HeuristicBot(), Rng(seed)
    while hand.state == PLAYING:
        yield hand
        hand.apply(bot.choose(observe(hand, hand.turn), rng))


def drew(hand: Hand) -> bool:
    return any(move == DRAW for _, move, _ in hand.log)


def replays_whole(world: Hand, history: list[tuple[int, int, int]]) -> bool:
    """Whether the replay from :func:`replay_start` follows every move of
    ``history``: the mover's turn, each play legal."""
    h = replay_start(world, history)
    assert h is not None
    for s, move, _ in history:
        if h.state != PLAYING or h.turn != s:
            return False
        if move >= 0 and (move & ~1 if not h.placed else move) not in h.legal_moves():
            return False
        h.apply(move)
    return True


@pytest.mark.parametrize("name,players,teams", DRAW_TABLES)
def test_the_true_world_replays_the_whole_history(name: str, players: int, teams: bool) -> None:
    """The start built for the true world plays every move of the history
    again (the turns and the draws' forcing as they were), and a forced
    draw followed by the drawer's play drew the tile played."""
    rules = compiled(name, players, teams)
    followed = total = with_draws = 0
    for seed in range(6):
        for hand in positions(rules, seed, hands=2, every=2):
            history = list(hand.log)
            total += 1
            followed += replays_whole(hand, history)
            if not drew(hand):
                continue
            with_draws += 1
            got = drawn_tiles(hand, history)
            assert got is not None and len(got) == hand.bone_pos
            draws = [i for i, (_, m, _) in enumerate(history) if m == DRAW]
            for i, tile in zip(draws, got):
                s = history[i][0]
                if i + 1 < len(history) and history[i + 1][0] == s and history[i + 1][1] >= 0:
                    assert tile == history[i + 1][1] >> TILE_SHIFT
    assert with_draws >= 5
    # (under draw_while_able a voluntary draw's fitting tile may be lost)
    assert followed >= 0.95 * total


@pytest.mark.parametrize("name,players,teams", [("block-2p", 2, False),
                                                ("all-fives", 2, False)])
def test_without_draws_nothing_changes(name: str, players: int, teams: bool) -> None:
    rules = compiled(name, players, teams)
    compared = 0
    for seed in range(3):
        for hand in positions(rules, seed, hands=1, every=2):
            if drew(hand):
                continue
            world = sample_world(observe(hand, hand.turn), Rng(seed))
            for w in (hand, world):
                assert log_likelihood(w, hand.turn, hand.log, 8.0, True) == \
                    log_likelihood(w, hand.turn, hand.log, 8.0, False)
            compared += 1
    assert compared >= 6


@pytest.mark.parametrize("name,players,teams", DRAW_TABLES[:4])
def test_past_draws_the_true_world_is_likelier_than_sampled_ones(name: str, players: int,
                                                                  teams: bool) -> None:
    """With draws in the history: no choice judged without ``draws``; with
    it, only choices after the mover's last draw, and the true world of the
    heuristic's play is on average likelier than the worlds sampled from
    the observer's view, which contradict some of those choices."""
    true_ll = sampled_ll = 0.0
    judged = n = 0
    for seed in range(8):
        for hand in heuristic_positions(name, players, teams, seed):
            history = list(hand.log)
            if not drew(hand) or hand.placed < 4:
                continue
            seat = hand.turn
            assert log_likelihood(hand, seat, history, 8.0, False) == 0.0
            last = last_draws(players, history)
            choices = list(other_choices(hand, seat, history, True))
            judgeable = sum(1 for i, (s, m, _) in enumerate(history)
                            if s != seat and m >= 0 and i > last[s])
            assert len(choices) <= judgeable
            if not choices:
                continue
            judged += len(choices)
            obs = observe(hand, seat)
            true_ll += log_likelihood(hand, seat, history, 8.0, True)
            for k in range(4):
                sampled_ll += log_likelihood(sample_world(obs, Rng(seed * 100 + k)), seat,
                                             history, 8.0, True) / 4
            n += 1
    assert n >= 10 and judged >= 2 * n
    assert true_ll / n > sampled_ll / n, (true_ll / n, sampled_ll / n)


@pytest.mark.parametrize("name,players,teams", [("bergen", 2, False)])
def test_a_world_contradicting_a_choice_after_a_draw_is_less_likely(name: str, players: int,
                                                                     teams: bool) -> None:
    """The opponent drew, then played one tile of two it could play: the
    true world against the world where it held, instead of the other, a
    tile it would rather have played (the same counts, the same history)."""
    rules = compiled(name, players, teams)
    found = 0
    for seed in range(30):
        for hand in heuristic_positions(name, players, teams, seed):
            history = list(hand.log)
            seat = hand.turn
            other = 1 - seat
            last = last_draws(players, history)
            if last[other] < 0 or not hand.hands[other]:
                continue
            truth = list(other_choices(hand, seat, history, True))
            if not truth:
                continue
            base = log_likelihood(hand, seat, history, 1.0, True)
            # give the opponent every unseen tile in turn in place of one it holds
            unseen = rules.tiles.full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play
                                          | hand.hands[other])
            held = hand.hands[other].bit_length() - 1
            lower = 0
            for t in range(rules.tiles.size):
                if not unseen >> t & 1 or t not in hand.boneyard[hand.bone_pos:]:
                    continue
                world = hand.copy()
                world.hands = list(hand.hands)
                world.hands[other] = hand.hands[other] & ~(1 << held) | 1 << t
                world.boneyard = list(hand.boneyard)
                world.boneyard[world.boneyard.index(t, hand.bone_pos)] = held
                lower += log_likelihood(world, seat, history, 1.0, True) < base
            found += lower > 0
            break
    assert found >= 3


# ------------------------------------------------ both cores


@cache
def _searcher(name: str, players: int, teams: bool) -> object:
    return bones_native.Searcher(flat_table(compiled(name, players, teams)))


@pytest.mark.once  # compares the two cores itself, whichever the pass forces
@pytest.mark.parametrize("name,players,teams", DRAW_TABLES)
def test_both_cores_weigh_worlds_past_draws_alike(name: str, players: int, teams: bool) -> None:
    """``search:idraw=1`` (a small budget): the same totals and the same sum
    of the worlds' weights (each world's likelihood, to the last bit) in
    both cores, on positions with draws; and its tree's inference alike."""
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled(name, players, teams)
    searcher = _searcher(name, players, teams)
    tree_native = bones_native.Ismcts(flat_table(rules))
    bot = SearchBot(iterations=4, solve=10, idraw=1)
    plain = SearchBot(iterations=4, solve=10, idraw=0)
    tree = IsmctsBot(iterations=10, policy="heuristic", scale=10.0, infer=4.0, worlds=4,
                     draws=True)
    compared = differs = 0
    for seed in range(4):
        for hand in positions(rules, seed, hands=2, every=2):
            if not drew(hand):
                continue
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            a, b = Rng(seed * 1000 + compared), Rng(seed * 1000 + compared)
            got = bot.python_search(obs, a, legal)
            assert got == bot.native_search(searcher, obs, b, legal), (name, seed, hand.log)
            assert a.state == b.state
            differs += got[2] != plain.native_search(searcher, obs, Rng(seed * 1000 + compared),
                                                     legal)[2]
            if compared % 3 == 0:
                a, b = Rng(seed), Rng(seed)
                assert tree.python_search(obs, a, legal) == \
                    tree.native_search(tree_native, obs, b, legal)
                assert a.state == b.state
            compared += 1
    assert compared >= 8
    assert differs > 0  # the worlds are weighed past draws
