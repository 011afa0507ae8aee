"""The stepwise native train hand (issue 35): ``core.new_hand`` under
``BONES_CORE=native`` steps a train layout's round in the kernel and reads
like the Python ``TrainHand``.

Rounds of both built-ins at 2, 4 and 8 players are played with the same
seeded moves on the Python ``TrainHand`` and on the ``NativeTrainHand``
``core.new_hand`` gives; after every move every field the code around a
train hand reads (every slot of the hand, the legal moves in order, each
seat's targets, ``binding``, ``needs``, ``ends``, the target of every arm,
each seat's public copy) must agree.  Skipped without the native core.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from native_support import skip_native
from test_trains import TRAINS, _rules
from test_trains_native import ALTERNATIVES

from bones.engine import core
from bones.engine.hand import IllegalMoveError
from bones.engine.match import Match
from bones.engine.moves import DRAW, PASS
from bones.engine.nativetrains import NativeTrainHand
from bones.engine.notation import format_move
from bones.engine.trains import TrainHand

pytestmark = skip_native()

SLOTS = [name for name in (*TrainHand.__slots__, *TrainHand.__mro__[1].__slots__)
         if name != "rules"]


@pytest.fixture
def native_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(core.ENV, "native")


def _read(hand: Any, name: str) -> Any:
    value = getattr(hand, name)
    if isinstance(value, (list, tuple)):
        return [list(v) if isinstance(v, (list, tuple)) else v for v in value]
    return value


def assert_same(py: TrainHand, nat: NativeTrainHand, where: str) -> None:
    assert nat.legal_moves() == py.legal_moves(), where
    for name in SLOTS:
        assert _read(nat, name) == _read(py, name), f"{where}: {name}"
    assert nat.over == py.over and nat.state == py.state, where
    players = py.rules.players
    for seat in range(players):
        assert nat.targets(seat) == py.targets(seat), f"{where}: targets of {seat}"
        assert nat.pips_left(seat) == py.pips_left(seat), where
        mine, theirs = nat.public_copy(seat), py.public_copy(seat)
        assert isinstance(mine, TrainHand), where
        for name in SLOTS:
            assert _read(mine, name) == _read(theirs, name), f"{where}: public {seat} {name}"
    assert nat.binding() == py.binding(), where
    assert nat.needs() == py.needs() and nat.ends() == py.ends(), where
    assert nat.open_tiles() == py.open_tiles(), where
    assert [nat.target_of(a) for a in range(len(py.arm_open))] == \
        [py.target_of(a) for a in range(len(py.arm_open))], where
    assert [format_move(nat, m) for m in py.legal_moves()] == \
        [format_move(py, m) for m in py.legal_moves()], where


def _pair(name: str, players: int, seed: int,
          changes: dict[str, Any] | None = None) -> tuple[TrainHand, NativeTrainHand]:
    rules = _rules(name, players, changes)
    deal = Match(rules, seed=seed).next_deal()
    py = TrainHand.from_deal(rules, deal, [0] * players)
    nat = core.new_hand(rules, deal, scores=[0] * players)
    assert isinstance(nat, NativeTrainHand)
    return py, nat


@pytest.mark.parametrize("name", TRAINS)
@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_field_after_every_move(native_core: None, name: str, players: int) -> None:
    for seed in range(2):
        py, nat = _pair(name, players, seed)
        rng = random.Random(seed * 31 + players)
        where = f"{name} {players}p seed {seed}"
        assert_same(py, nat, where)
        plies = 0
        draws = passes = 0
        while not py.over:
            move = rng.choice(py.legal_moves())
            draws += move == DRAW
            passes += move == PASS
            assert nat.play(move) == py.play(move) == 0
            plies += 1
            assert_same(py, nat, f"{where} ply {plies}")
            assert plies < 5000
        assert nat.settlement == py.settlement and nat.scores == py.scores, where
        assert sum(nat.scores) > 0 and plies > players, where  # a real round was played
    assert draws and passes  # the rounds drew and passed at some point


@pytest.mark.parametrize("name,changes", ALTERNATIVES,
                         ids=[f"{n}:{','.join(c)}" for n, c in ALTERNATIVES])
def test_every_field_after_every_move_under_each_house_rule(
        native_core: None, name: str, changes: dict[str, Any]) -> None:
    """Each alternative key of the train layouts (the extra tile after a double,
    the spinner, released doubles, ...) reads the same through the native hand."""
    py, nat = _pair(name, 3, 11, changes)
    rng = random.Random(7)
    plies = 0
    while not py.over:
        move = rng.choice(py.legal_moves())
        assert nat.play(move) == py.play(move) == 0
        plies += 1
        assert_same(py, nat, f"{name} {changes} ply {plies}")
        assert plies < 5000
    assert nat.settlement == py.settlement and nat.scores == py.scores


def test_a_stepwise_match_runs_its_rounds_on_the_native_hand(native_core: None) -> None:
    for name in TRAINS:
        rules = _rules(name, 3)
        native, python = (Match(rules, seed=5, stepwise_core=flag) for flag in (True, False))
        rng_a, rng_b = random.Random(9), random.Random(9)
        for _ in range(3):
            a, b = native.new_hand(), python.new_hand()
            assert isinstance(a, NativeTrainHand) and type(b) is TrainHand
            while not b.over:
                move = rng_b.choice(b.legal_moves())
                assert rng_a.choice(a.legal_moves()) == move
                a.play(move)
                b.play(move)
            native.finish_hand(a)
            python.finish_hand(b)
            assert native.scores == python.scores and a.scores is native.scores


def test_copies_pickles_and_assignments(native_core: None) -> None:
    py, nat = _pair("mexican-train", 4, 3)
    for hand in (py, nat):
        hand.apply(hand.legal_moves()[0])
    twin = nat.copy()
    twin.apply(twin.legal_moves()[-1])
    assert nat.log != twin.log and nat.log == py.log  # the copy is independent
    loaded = pickle.loads(pickle.dumps(nat))
    assert type(loaded) is TrainHand and loaded.log == py.log and loaded.hands == py.hands
    assert nat.to_python().arm_owner == py.arm_owner
    # a scenario's layout or a sampled world deals new hands and a new boneyard
    masks = list(py.hands)
    masks[0], masks[1] = masks[1], masks[0]
    nat.hands = masks
    py.hands = masks
    order = list(reversed(py.boneyard))
    nat.boneyard = order
    py.boneyard = order
    assert nat.hands == tuple(masks) and nat.boneyard == tuple(order)
    assert nat.legal_moves() == py.legal_moves()
    while not py.over:
        move = py.legal_moves()[0]
        py.apply(move)
        nat.apply(move)
    assert nat.settlement == py.settlement and nat.hands == tuple(py.hands)


def test_an_illegal_move_names_the_legal_ones(native_core: None) -> None:
    py, nat = _pair("chicken-foot", 2, 1)
    legal = nat.legal_moves()
    with pytest.raises(IllegalMoveError) as err:
        nat.play(DRAW if DRAW not in legal else PASS)
    assert str(err.value).endswith(", ".join(format_move(py, m) for m in legal))
    assert nat.legal_moves() == legal  # nothing was played


def test_auto_and_python_keep_the_python_train_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _rules("chicken-foot", 3)
    deal = Match(rules, seed=2).next_deal()
    for choice in ("auto", "python"):
        monkeypatch.setenv(core.ENV, choice)
        assert type(core.new_hand(rules, deal)) is TrainHand
