"""Observations hide what a seat cannot see; sampled worlds agree with the history."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from functools import cache

import pytest
from support import compiled, positions

from bones.bots.policies import greedy_move
from bones.engine.hand import FIELDS, Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.lang.load import builtin_names, load_variant
from bones.seat.observation import (
    NoWorldError,
    Observation,
    _Constrained,
    consistent,
    deal_unseen,
    observe,
    sample_world,
)


@cache
def _tables() -> list[tuple[str, int]]:
    return [(name, p) for name in builtin_names() for p in load_variant(name).players.counts]


def _every_position(name: str, players: int, seeds: range, mix: float = 0.5) -> Iterator[Hand]:
    """Every position of the first hand of each seeded match."""
    for seed in seeds:
        yield from positions(compiled(name, players), seed, mix=mix, choices_only=False)


def test_observation_shows_nothing_hidden() -> None:
    rules = compiled("all-fives", 3)
    hand = Match(rules, 5).new_hand()
    for _ in range(6):
        hand.apply(greedy_move(hand))
    seat = hand.turn
    obs = observe(hand, seat)
    assert obs.hand == hand.hands[seat]
    assert all(h == 0 for s, h in enumerate(obs.layout.hands) if s != seat)
    assert set(obs.layout.boneyard) == {-1}
    assert obs.counts == tuple(h.bit_count() for h in hand.hands)
    assert obs.unseen == rules.tiles.full & ~(hand.hands[seat] | hand.on_table)
    # the real hand is not reachable from the observation
    assert obs.layout is not hand and obs.layout.hands is not hand.hands

    # swapping an opponent's tile with a boneyard tile changes nothing visible
    other = (seat + 1) % 3
    swapped = hand.copy()
    mine = swapped.hands[other] & -swapped.hands[other]
    pos = swapped.bone_pos
    theirs = swapped.boneyard[pos]
    swapped.hands[other] ^= mine | 1 << theirs
    swapped.boneyard[pos] = mine.bit_length() - 1
    a, b = observe(hand, seat), observe(swapped, seat)
    for field in Observation._fields:
        if field == "layout":
            for slot in FIELDS:
                assert getattr(a.layout, slot) == getattr(b.layout, slot), slot
        else:
            assert getattr(a, field) == getattr(b, field), field


@pytest.mark.parametrize("name,players", _tables())
def test_true_world_obeys_every_void_bound_and_samples_agree(name: str, players: int) -> None:
    """The bounds are sound (the real deal satisfies them) and every sample obeys them."""
    rng = Rng(7)
    for hand in _every_position(name, players, range(4)):
        seat = hand.turn
        obs = observe(hand, seat)
        assert consistent(obs, hand.hands)
        world = sample_world(obs, rng)
        assert consistent(obs, world.hands)
        assert world.hands[seat] == hand.hands[seat]
        assert world.legal_moves() == hand.legal_moves()
        rest = world.boneyard[world.bone_pos:]
        assert len(rest) == hand.boneyard_left and -1 not in rest
        every = world.on_table | world.out_of_play
        for h in world.hands:
            assert not every & h
            every |= h
        for t in rest:
            assert not every >> t & 1
            every |= 1 << t
        assert every == hand.rules.tiles.full


def test_void_bounds_are_enforced_on_many_positions() -> None:
    """Positions with binding bounds: no sample ever breaks one."""
    rng = Rng(3)
    binding = 0
    for name, players in (("all-fives", 2), ("sniff", 3), ("muggins", 4), ("five-up", 2)):
        for hand in _every_position(name, players, range(12), mix=0.8):
            obs = observe(hand, hand.turn)
            if not any(obs.limits()):
                continue
            binding += 1
            for _ in range(3):
                assert consistent(obs, sample_world(obs, rng).hands)
    assert binding > 100


def _small_positions() -> list[Observation]:
    """Late positions with few unseen tiles, where every deal can be listed."""
    out = []
    for hand in _every_position("all-fives", 3, range(40)):
        obs = observe(hand, hand.turn)
        if 3 <= obs.unseen.bit_count() <= 9:
            out.append(obs)
    return out[::7]


def _all_worlds(obs: Observation) -> list[tuple[int, ...]]:
    """Every deal of the unseen tiles to the other seats, by brute force."""
    tiles = [t for t in range(obs.rules.tiles.size) if obs.unseen >> t & 1]
    others = [s for s in range(len(obs.counts)) if s != obs.seat]
    worlds = []

    def deal(i: int, left: list[int], hands: list[int]) -> None:
        if i == len(others):
            worlds.append(tuple(hands))
            return
        s = others[i]
        for combo in itertools.combinations(left, obs.counts[s]):
            mask = sum(1 << t for t in combo)
            hands[s] = mask
            deal(i + 1, [t for t in left if t not in combo], hands)
        hands[s] = 0

    deal(0, tiles, [obs.hand if s == obs.seat else 0 for s in range(len(obs.counts))])
    return worlds


def _random_voids(obs: Observation, rng: Rng) -> Observation:
    """The same position under made-up proofs (some satisfiable, some not)."""
    drawn = list(obs.drawn)
    voids = []
    for _ in range(1 + rng.below(3)):
        seat = rng.choice([s for s in range(len(obs.counts)) if s != obs.seat])
        mask = 0
        for t in range(obs.rules.tiles.size):
            if obs.unseen >> t & 1 and rng.random() < 0.4:
                mask |= 1 << t
        drawn[seat] = max(drawn[seat], 2)
        voids.append((seat, mask, drawn[seat] - rng.choice((0, 0, 1, 2)), len(obs.layout.log)))
    return obs._replace(voids=tuple(voids), drawn=tuple(drawn))


def test_sampler_against_brute_force_on_small_positions() -> None:
    rng = Rng(11)
    views = _small_positions()
    assert len(views) >= 5
    checked = impossible = 0
    for base in views:
        for _ in range(6):
            obs = _random_voids(base, rng)
            good = {w for w in _all_worlds(obs) if consistent(obs, list(w))}
            limits = obs.limits()
            others = [s for s in range(len(obs.counts)) if s != obs.seat and obs.counts[s]]
            tiles = [t for t in range(obs.rules.tiles.size) if obs.unseen >> t & 1]
            exhaustive = _Constrained(obs, limits, others, tiles).exhaustive(rng)
            if not good:
                impossible += 1
                assert exhaustive is None
                with pytest.raises(NoWorldError):
                    deal_unseen(obs, rng)
                continue
            checked += 1
            assert exhaustive is not None
            found = [obs.hand if s == obs.seat else exhaustive.get(s, 0)
                     for s in range(len(obs.counts))]
            assert tuple(found) in good
            seen = set()
            for _ in range(12 * len(good)):
                w = tuple(deal_unseen(obs, rng))
                assert w in good
                seen.add(w)
            # the sampler reaches every consistent deal, not just one of them
            assert seen == good
    assert checked >= 15 and impossible >= 1


def test_sampling_is_deterministic_for_a_seed() -> None:
    hands = list(_every_position("all-fives", 2, range(2)))
    for hand in hands[::5]:
        obs = observe(hand, hand.turn)
        a = sample_world(obs, Rng(42))
        b = sample_world(obs, Rng(42))
        assert a.hands == b.hands and a.boneyard == b.boneyard


def test_tiles_out_of_play_are_left_undealt() -> None:
    """Cuban deals 40 of the double-nine set's 55 tiles: a world gives every
    other seat exactly its count and leaves the rest (15 and more) out of
    play, each unseen tile as likely as any other to be out while nothing
    is proven; a seat's pass keeps the suits it lacks out of its hand, not
    out of play (they are out of play more often than the others)."""
    rules = compiled("cuban", 4)
    assert rules.reserve == 0 and not rules.max_draws
    plain = voided = None
    for seed in range(40):
        for hand in positions(rules, seed, choices_only=False):
            obs = observe(hand, hand.turn)
            limits = obs.limits()
            if plain is None and not any(limits) and sum(obs.counts) >= 36:
                plain = obs
            if voided is None and sum(obs.counts) >= 30 and any(
                    cap == 0 for s in range(4) if s != obs.seat for _, cap in limits[s]):
                voided = obs
        if plain is not None and voided is not None:
            break
    assert plain is not None and voided is not None
    rng = Rng(11)
    for obs in (plain, voided):
        others = [s for s in range(4) if s != obs.seat]
        n = obs.unseen.bit_count()
        k = n - sum(obs.counts[s] for s in others)
        assert k >= 15
        out = [0] * rules.tiles.size
        samples = 2000
        for _ in range(samples):
            world = sample_world(obs, rng)
            held = 0
            for s in others:
                assert world.hands[s].bit_count() == obs.counts[s]
                assert not world.hands[s] & ~obs.unseen and not held & world.hands[s]
                held |= world.hands[s]
            rest = obs.unseen & ~held
            assert rest.bit_count() == k
            assert sorted(world.boneyard[len(world.boneyard) - obs.boneyard_left:]) == \
                rules.tiles.tiles_of(rest)
            for t in rules.tiles.tiles_of(rest):
                out[t] += 1
        share = k / n
        se = math.sqrt(share * (1 - share) / samples)
        tiles = rules.tiles.tiles_of(obs.unseen)
        if obs is plain:
            for t in tiles:
                assert abs(out[t] / samples - share) < 5 * se, t
        else:
            # the tiles some seat is proven not to hold: never in its hand
            # (consistent), out of play more often than the others
            void = [t for t in tiles for s in others
                    if any(cap == 0 and mask >> t & 1 for mask, cap in obs.limits()[s])]
            assert void
            mean = sum(out[t] for t in void) / (len(void) * samples)
            assert mean > share + 3 * se
