"""Train layouts in the learners' adapters (issue 35): the action space
names a play by tile and target (``T<n>``, ``M``, ``H``, ``F``, ``A<k>``)
from the compiled rules, the same index for the same play in every
position; the Gymnasium and PettingZoo environments pass their frameworks'
checkers on the Python core; OpenSpiel refuses with one line (the native
vector environment plays them: tests/test_adapters_vector_trains.py)."""

from __future__ import annotations

import contextlib
import functools
import io
import random
import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from test_trains import _rules as _changed_rules  # noqa: E402

from bones.adapters import gymnasium as gym_adapter  # noqa: E402
from bones.adapters import pettingzoo as pz_adapter  # noqa: E402
from bones.adapters.common import Game  # noqa: E402
from bones.engine.match import Match  # noqa: E402
from bones.engine.moves import arm_of, tile_of  # noqa: E402
from bones.engine.notation import format_move  # noqa: E402
from bones.engine.rng import Rng  # noqa: E402
from bones.engine.trains import TrainHand  # noqa: E402
from bones.lang.compile import compile_rules  # noqa: E402
from bones.lang.load import load_variant  # noqa: E402
from bones.seat.actions import ActionSpace, train_arms  # noqa: E402
from bones.seat.encoding import Encoding  # noqa: E402
from bones.seat.observation import observe  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CYCLES = 60


def _rules(name: str, players: int):
    return compile_rules(load_variant(name), players)


def _no_warnings(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    assert [str(w.message) for w in got] == []
    return out


def _positions(rules, seed: int, hands: int = 2):
    """Every position of the first ``hands`` rounds of a match of random moves."""
    match = Match(rules, seed)
    rng = Rng(seed)
    for _ in range(hands):
        hand = match.new_hand()
        while not hand.over:
            yield hand
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)
        if match.game_over:
            return


def _target(name: str) -> str:
    return name.split("@")[1]


def test_the_slots_are_the_notation_s_targets() -> None:
    mexican = ActionSpace(_rules("mexican-train", 4))
    names = [_target(mexican.name(slot)) for slot in range(mexican.arms)]
    assert names == ["T0", "T1", "T2", "T3", "M"]
    assert mexican.num_actions == 91 * 5 + 2  # double-twelve; draw and pass
    eight = ActionSpace(_rules("mexican-train", 8))
    assert [_target(eight.name(s)) for s in range(eight.arms)] == [
        *(f"T{n}" for n in range(8)), "M"]
    foot = ActionSpace(_rules("chicken-foot", 3))
    # 4 arms against the hub, 3 toes for each of the 9 other doubles, then H and F
    assert train_arms(foot.rules) == 4 + 3 * 9
    names = [_target(foot.name(s)) for s in range(foot.arms)]
    assert names == [*(f"A{k}" for k in range(1, 32)), "H", "F"]
    assert foot.name(foot.draw_index) == "draw" and foot.name(foot.pass_index) == "pass"


@pytest.mark.parametrize("name,players", [("mexican-train", 4), ("mexican-train", 8),
                                          ("chicken-foot", 3)])
def test_every_legal_move_has_one_stable_action(name: str, players: int) -> None:
    rules = _rules(name, players)
    space = ActionSpace(rules)
    seen = 0
    for seed in range(3):
        for hand in _positions(rules, seed):
            legal = hand.legal_moves()
            indices = space.legal(hand)
            assert len(set(indices)) == len(legal)
            assert sorted(space.move(i) for i in indices) == sorted(legal)
            for move in legal:
                i = space.index(move)
                assert space.move(i) == move
                if move >= 0 and hand.placed:
                    # the action's target is the one the move's notation names
                    text = format_move(hand, move, bare=False)
                    assert _target(space.name(i)) == text.split("@")[1], (text, space.name(i))
                    seen += 1
            assert sum(space.mask(hand)) == len(legal)
    assert seen > 50


def test_a_mask_with_plays_on_several_trains() -> None:
    """Mexican Train: a position whose legal plays go to several trains (the
    player's own, the Mexican train, a marked one) has them all in the
    mask, each at its tile and target, and nothing else."""
    rules = _rules("mexican-train", 4)
    space = ActionSpace(rules)
    found = 0
    for seed in range(12):
        for hand in _positions(rules, seed, hands=1):
            legal = [m for m in hand.legal_moves() if m >= 0]
            if not hand.placed or hand.in_first_turn():
                continue
            targets = {hand.target_of(arm_of(m)) for m in legal}
            if len(targets) < 3:
                continue
            mask = space.mask(hand)
            on = [i for i, bit in enumerate(mask) if bit]
            names = {space.name(i) for i in on if i < space.draw_index}
            want = {f"{rules.tiles.names[tile_of(m)]}@"
                    f"{format_move(hand, m, bare=False).split('@')[1]}" for m in legal}
            assert names == want
            assert len({_target(n) for n in names}) >= 3
            found += 1
    assert found >= 3


def test_the_encoding_holds_the_trains_and_their_markers() -> None:
    rules = _rules("mexican-train", 4)
    enc = Encoding(rules)
    assert enc.arms == 5
    marked_seen = False
    for hand in _positions(rules, 4, hands=1):
        if not hand.placed:
            continue
        for seat in range(4):
            values = enc.values(observe(hand, seat))
            markers = enc.block(values, "markers")
            assert markers == [1.0 if hand.marked[(seat + k) % 4] else 0.0 for k in range(4)]
            marked_seen |= any(markers)
            ends = enc.block(values, "open_ends")
            assert sum(ends) == sum(1 for pip in hand.arm_open if pip >= 0)
    assert marked_seen
    # a line game has no marker block
    assert Encoding(compile_rules(load_variant("all-fives"))).block([0.0] * 162, "markers") == []


@pytest.mark.parametrize("name,players", [("mexican-train", 2), ("mexican-train", 8),
                                          ("chicken-foot", 4)])
def test_gymnasium_check_env(name: str, players: int) -> None:
    import gymnasium

    env_id = gym_adapter.env_id(name)
    for episode in ("hand", "match"):
        env = gymnasium.make(env_id, seat=players - 1, opponents="random", players=players,
                             episode=episode, render_mode="ansi")
        _no_warnings(check_env, env.unwrapped, skip_render_check=False)


def test_render_shows_the_trains_and_the_markers() -> None:
    """The environments' text render of a train layout: every train's open
    end by target and the markers (no picture yet), through a round of
    Chicken Foot (arms against the hub, toes) and of Mexican Train."""
    for name, players, want in (("chicken-foot", 2, "A1 "), ("mexican-train", 3, "T0 ")):
        env = gym_adapter.env(name, seat=0, opponents="random", players=players,
                              render_mode="ansi")
        obs, info = env.reset(seed=5)
        rng = np.random.default_rng(5)
        texts = []
        done = False
        while not done:
            texts.append(env.render())
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, term, trunc, info = env.step(action)
            done = term or trunc
        assert all(t.splitlines()[-1].startswith("markers: ") for t in texts)
        assert any(want in t for t in texts)
        assert all("seat 1 holds" not in t for t in texts)  # seat 0's view only


@pytest.mark.parametrize("name,players", [("mexican-train", 4), ("chicken-foot", 3)])
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    env = pz_adapter.env(name, players, render_mode="ansi", observation="box")
    _no_warnings(api_test, env, num_cycles=CYCLES)
    _no_warnings(seed_test, functools.partial(pz_adapter.env, name, players,
                                              observation="box"), num_cycles=CYCLES)


def test_a_round_s_charges_count_against_the_seat() -> None:
    """A train round charges each hand its tiles (the lowest total wins):
    the points reward is minus the seat's charge plus the mean of the
    others', and the round's winner gets the highest reward."""
    rules = _rules("mexican-train", 4)
    rng = np.random.default_rng(2)
    checked = 0
    for seed in range(4):
        game = Game(rules, Rng(seed))
        while not game.over:
            legal = game.space.legal(game.hand)
            game.step(game.space.move(int(rng.choice(legal))))
        charges = game.settlement
        assert sum(charges) > 0
        for seat in range(4):
            others = [c for s, c in enumerate(charges) if s != seat]
            assert game.rewards[seat] == pytest.approx(-charges[seat] + sum(others) / 3)
        assert game.rewards.index(max(game.rewards)) == charges.index(min(charges))
        checked += 1
    assert checked == 4


@pytest.mark.parametrize("changes", [
    {},
    {"layout.trains.doubles.first_spinner": True},
    {"layout.trains.doubles.first_spinner": True, "layout.trains.doubles.cover": 1},
], ids=["default", "spinner", "spinner-one-cover"])
def test_no_round_grows_more_arms_than_the_action_space_holds(changes: dict) -> None:
    # a spinner grows two arms where a double with one cover grows one: the
    # action space's bound must count it (it once fell one short)
    rules = _changed_rules("chicken-foot", 2, changes)
    bound, worst = train_arms(rules), 0
    for seed in range(300):
        hand = TrainHand.from_deal(rules, Match(rules, seed=seed).next_deal(), [0, 0])
        rng = random.Random(seed)
        while not hand.over:
            hand.play(rng.choice(hand.legal_moves()))
            worst = max(worst, len(hand.arm_open))
    assert worst <= bound
    if changes:
        assert worst > bound - 3  # the rounds came near the bound
