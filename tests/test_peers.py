"""block-2p and partnership-block play exactly the peers' games.

Random games are played in the peer itself (the PyPI ``dominoes`` package;
OpenSpiel's ``python_block_dominoes`` where it is installed) and replayed
move by move in bones from the same deal, on the hand of the core that runs (the native
stepwise hand under ``BONES_CORE=native``, the Python one under
``BONES_CORE=python``).  At every turn the two agree on the
legal moves (bones names both arms where a peer merges equal ends, and
writes passes where a peer skips a seat), every move the peer makes is legal
in bones, and each game ends the same way with the same points.
"""

from __future__ import annotations

import random

import pytest

from bones.engine.core import native
from bones.engine.hand import PASS
from bones.engine.match import Deal, Match
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant

GAMES = 400


def _start(rules, deal: Deal):
    """The hand of ``deal`` on the core that runs (bones.engine.core.new_hand)."""
    hand = Match(rules, seed=0, stepwise_core=True).start_hand(deal)
    assert type(hand).__name__ == ("NativeHand" if native() is not None else "Hand")
    return hand


def _as_peer(hand, move: int) -> tuple[int, int | None]:
    """(tile id, pip covered) of a bones play: the form both peers reduce to."""
    tile, arm = move >> 7, (move >> 1) & 63
    return tile, hand.arm_open[arm] if hand.placed else None


# ----------------------------------------------------------- dominoes (PyPI)


def test_partnership_block_is_the_dominoes_package_game() -> None:
    dominoes = pytest.importorskip("dominoes")
    rules = compile_rules(load_variant("partnership-block"), 4)
    ts = rules.tiles
    six = ts.parse("6-6")
    py_random = random.getstate()
    try:
        random.seed(2026)
        outcomes = set()
        for _ in range(GAMES):
            game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
            leader = game.starting_player
            hands = [ts.mask_of([ts.tile(d.first, d.second) for d in h]) for h in game.hands]
            hands[leader] |= 1 << six  # Game.new has already played the 6-6
            hand = _start(rules, Deal(tuple(hands), (), leader, lead_tile=six))
            hand.play(six << 7)
            while game.result is None:
                # seats the peer skipped are explicit passes in bones
                while hand.turn != game.turn:
                    assert hand.legal_moves() == [PASS]
                    hand.play(PASS)
                legal = {_as_peer(hand, m) for m in hand.legal_moves()}
                peer_legal = {
                    (ts.tile(d.first, d.second),
                     game.board.left_end() if left else game.board.right_end())
                    for d, left in game.valid_moves
                }
                assert legal == peer_legal
                d, left = random.choice(game.valid_moves)
                pip = game.board.left_end() if left else game.board.right_end()
                move = next(m for m in hand.legal_moves()
                            if _as_peer(hand, m) == (ts.tile(d.first, d.second), pip))
                hand.play(move)
                game.make_move(d, left)
            assert hand.over
            result = game.result
            points = [max(result.points, 0), max(-result.points, 0)]
            assert hand.settlement == points
            assert (hand.state == 1) == result.won  # 1: domino
            if not result.won:
                assert hand.last_player == result.player  # the blocker
            outcomes.add((result.won, result.points == 0))
    finally:
        random.setstate(py_random)
    assert (True, False) in outcomes and (False, False) in outcomes


# -------------------------------------------------------------- OpenSpiel


def test_block_2p_is_openspiels_block_dominoes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    block = pytest.importorskip("open_spiel.python.games.block_dominoes")
    game = pyspiel.load_game("python_block_dominoes")
    actions = block.create_possible_actions() if hasattr(block, "create_possible_actions") else None
    rules = compile_rules(load_variant("block-2p"), 2)
    ts = rules.tiles
    rng = random.Random(2026)

    def tile_of(t) -> int:
        return ts.tile(int(t[0]), int(t[1]))

    for _ in range(GAMES):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        hands = [ts.mask_of([tile_of(t) for t in h]) for h in state.hands]
        hand = _start(rules, Deal(tuple(hands), (), 0))
        while not state.is_terminal():
            while hand.turn != state.current_player():
                assert hand.legal_moves() == [PASS]
                hand.play(PASS)
            decoded = {}
            for a in state.legal_actions():
                act = actions[a] if actions is not None else state._actions[a]  # noqa: SLF001
                pip = None if act.edge is None else int(act.edge)
                decoded[(tile_of(act.tile), pip)] = a
            assert {_as_peer(hand, m) for m in hand.legal_moves()} == set(decoded)
            choice = rng.choice(sorted(decoded))
            hand.play(next(m for m in hand.legal_moves() if _as_peer(hand, m) == choice))
            state.apply_action(decoded[choice])
        assert hand.over
        returns = state.returns()
        assert hand.settlement == [max(int(r), 0) for r in returns]
