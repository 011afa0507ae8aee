"""``bench.inference_quality``: the inference's worlds scored against the true deal."""

from __future__ import annotations

import math

import pytest

from bench import inference_quality as iq
from bones.bots import make_bot
from bones.bots.infer import log_likelihood
from bones.engine.hand import PLAYING
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import observe


def _played(seed: int, moves: int):
    """A first hand of block-2p after ``moves`` moves of ``heuristic``, and
    the number of legal moves at each of seat 1's choices."""
    rules = compile_rules(load_variant("block-2p"), 2, False)
    hand = Match(rules, seed).new_hand()
    bot = make_bot("heuristic")
    rng = Rng(seed)
    choices = []
    for _ in range(moves):
        if hand.state != PLAYING:
            break
        legal = hand.legal_moves()
        if hand.turn == 1 and len(legal) > 1:
            choices.append(len(legal))
        move = legal[0] if len(legal) == 1 else bot.choose(observe(hand, hand.turn, legal), rng)
        hand.apply(move)
    return hand, choices


@pytest.mark.parametrize("seed", range(6))
def test_the_mixed_model_is_the_softmax_or_a_uniform_guess_at_its_ends(seed: int) -> None:
    hand, choices = _played(seed, 8)
    history = list(hand.log)
    for tau in (0.5, 8.0):
        plain = log_likelihood(hand, 0, history, tau)
        assert iq.mixed_log_likelihood(hand, 0, history, tau, 0.0) == plain
        # a vanishing uniform share: the softmax's own likelihood
        assert iq.mixed_log_likelihood(hand, 0, history, tau, 1e-12) == pytest.approx(
            plain, abs=1e-6)
        # all uniform: each choice of the other seat is one of its legal moves
        uniform = -sum(math.log(n) for n in choices)
        assert iq.mixed_log_likelihood(hand, 0, history, tau, 1.0) == pytest.approx(uniform)
        # a share of uniform never makes an unlikely play less likely than chance allows
        mixed = iq.mixed_log_likelihood(hand, 0, history, tau, 0.3)
        assert mixed >= sum(math.log(0.3 / n) for n in choices) - 1e-9


def test_inference_brings_the_worlds_closer_to_heuristic_hands() -> None:
    got = iq.measure("block-2p", ["heuristic", "heuristic"], 10, 40, [0.0, 0.5], 11)
    assert got["positions"] > 10
    brier, ess = got["brier"], got["ess"]
    # the sampler alone: every world weighs the same
    assert ess["0.0"] == pytest.approx(1.0)
    assert 0 < ess["0.5"] < 1
    # against the play it models, a sharp model knows the other hand better
    assert brier["0.5"] < brier["0.0"] < 2 / 9 + 0.01
    assert got == iq.measure("block-2p", ["heuristic", "heuristic"], 10, 40, [0.0, 0.5], 11)


def test_the_command_prints_a_row_a_temperature(capsys) -> None:
    assert iq.main(["block-2p", "--hands", "2", "--worlds", "10", "--taus", "0,2",
                    "--mix", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "tau" in out and out.count("\n") == 4
