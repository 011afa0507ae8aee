"""Proposal 14's prototype: a whole block hand played in one loop.

It must play exactly the games the engine plays; ``bench.proposals`` and
``tests/test_bench_smoke.py`` check that before anything is timed.
"""

from __future__ import annotations

import random

from bench.common import match_factory


def fusable(rules) -> bool:
    """Block games on a plain line: no spinner, no drawing, no play points."""
    from bones.engine.rules import SPIN_NONE

    return (rules.spinner == SPIN_NONE and not rules.scores_plays and not rules.max_draws
            and not rules.partners_both_out and not rules.knock_bonus)


def fused_playout(hand, pick) -> None:
    """The step past micro-tuning: a whole hand in one loop over local state.

    Plays exactly the moves ``hand.apply(pick(hand.legal_moves()))`` would
    (same move lists, in the same order, so the same random stream), then
    writes the state back and settles through the engine.  Only for
    :func:`fusable` rules and after the lead; the layout's count and hubs are
    not kept up to date (block games never read them).
    """
    from bones.engine.hand import BLOCKED, DOMINO, PASS

    rules = hand.rules
    matching = rules.tiles.matching
    other = rules.tiles.other_half
    players = rules.players
    nxt = [(s + 1) % players for s in range(players)]
    hands = hand.hands
    arm_open = hand.arm_open
    n_arms = len(arm_open)
    log = hand.log
    voids = hand.voids
    drawn = hand.drawn
    seat = hand.turn
    passes = hand.passes
    placed = hand.placed
    on_table = hand.on_table
    last = hand.last_player
    mask = hand.open_mask
    end = -1
    while True:
        mine = hands[seat]
        moves = []
        if mine & mask:
            for arm in range(n_arms):
                pip = arm_open[arm]
                if pip >= 0:
                    fits = mine & matching[pip]
                    while fits:
                        low = fits & -fits
                        moves.append((low.bit_length() - 1) << 7 | arm << 1)
                        fits ^= low
        else:
            moves.append(PASS)
        move = pick(moves)
        if move < 0:
            voids.append((seat, mask, drawn[seat], len(log)))
            log.append((seat, PASS, 0))
            passes += 1
        else:
            tile = move >> 7
            arm = move >> 1 & 63
            mine ^= 1 << tile
            hands[seat] = mine
            arm_open[arm] = other[tile][arm_open[arm]]
            mask = 0
            for pip in arm_open:
                if pip >= 0:
                    mask |= matching[pip]
            placed += 1
            on_table |= 1 << tile
            last = seat
            passes = 0
            log.append((seat, move, 0))
            if not mine:
                end = DOMINO
                break
        seat = nxt[seat]
        for h in hands:
            if h & mask:
                break
        else:
            end = BLOCKED
            break
    hand.turn, hand.passes, hand.placed, hand.on_table = seat, passes, placed, on_table
    hand.last_player, hand.open_mask, hand.drawn_turn, hand.last_points = last, mask, 0, 0
    hand._end_hand(end, seat if end == DOMINO else -1, [])


def fused_games(rules, games: int, seed: int, fused: bool) -> list:
    """One-hand games as bench.peers plays them; returns each hand's log."""
    rng = random.Random(seed)
    pick = rng.choice
    new_match = match_factory(rules)
    logs = []
    for g in range(games):
        match = new_match(seed + g)
        hand = match.new_hand()
        hand.apply(pick(hand.legal_moves()))  # the lead, through the engine
        if fused and not hand.state:
            fused_playout(hand, pick)
        while not hand.state:
            hand.apply(pick(hand.legal_moves()))
        match.finish_hand(hand)
        logs.append((hand.log, hand.settlement, hand.state, match.scores))
    return logs
