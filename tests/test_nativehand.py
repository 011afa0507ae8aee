"""The native stepwise hand behind the Python Hand's interface, and who uses it.

:class:`bones.engine.nativehand.NativeHand` must be a drop-in for the Python
:class:`~bones.engine.hand.Hand` wherever the scenario runner, record replay
and the adapters step one: every slot the Python hand keeps (the layout's
arms and hubs, the voids, the log, the scores shared with the match) equals
the Python hand's after every move of random matches on every built-in
table.  And :func:`bones.engine.core.new_hand` hands out the native hand
exactly when the native core is active: the scenario runner, ``replay``
and the three adapters get theirs from it (checked by the type of hand they
step under ``BONES_CORE=native`` and ``BONES_CORE=python``).

The native half is skipped only when the native core is not installed;
``BONES_CORE=native`` (CI's native pass) turns a missing core into a failure.
"""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import pytest
from native_support import bones_native, builtin_tables
from support import compiled

from bones.engine import core
from bones.engine.hand import FIELDS, PASS, Hand, IllegalMoveError
from bones.engine.match import Match
from bones.engine.nativehand import NativeHand

needs_native = pytest.mark.skipif(bones_native is None, reason="native core not installed")
ROOT = Path(__file__).resolve().parent.parent
CORES = ["python", pytest.param("native", marks=needs_native)]
EXPECTED = {"python": Hand, "native": NativeHand}


def slots(hand: Hand) -> dict[str, object]:
    """Every slot of a Python hand, lists and tuples made comparable."""
    out: dict[str, object] = {}
    for name in FIELDS:
        value = getattr(hand, name)
        out[name] = list(value) if isinstance(value, (list, tuple)) else value
    return out


def assert_twins(py: Hand, nat: NativeHand, where: str) -> None:
    """The native hand is in exactly the Python hand's state, read either way."""
    assert slots(nat.to_python()) == slots(py), where
    # read through the native hand's own attributes, as callers do
    for name in FIELDS:
        if name in ("rules",):
            continue
        got = getattr(nat, name)
        want = getattr(py, name)
        assert (list(got) if isinstance(got, (list, tuple)) else got) == (
            list(want) if isinstance(want, (list, tuple)) else want), f"{where}: {name}"
    assert nat.legal_moves() == py.legal_moves(), where
    assert nat.open_ends() == py.open_ends(), where
    assert (nat.over, nat.drawable, nat.boneyard_left, nat.recount()) == (
        py.over, py.drawable, py.boneyard_left, py.recount()), where
    for seat in range(len(py.hands)):
        assert slots(nat.public_copy(seat)) == slots(py.public_copy(seat)), where
        assert nat.pips_left(seat) == py.pips_left(seat), where


#: What a train round's two stepwise hands must agree on after every move.
TRAIN_FIELDS = ("state", "turn", "placed", "passes", "drawn_turn", "bone_pos", "laid_turn",
                "hub_left", "must_cover", "arm_open", "arm_end", "arm_owner", "marked",
                "first_done", "owed", "hands", "scores", "settlement", "domino_seat")


def play_both_trains(rules, seed: int, max_hands: int = 3) -> int:
    """A train layout's rounds stepped by a Python match and a stepwise one in
    lockstep: the stepwise match's hand (the kernel's round behind
    :class:`~bones.engine.nativetrains.NativeTrainHand`, docs/trains.md)
    agrees with the reference on every field of the layout and the legal
    moves after every move."""
    from bones.engine.nativetrains import NativeTrainHand
    from bones.engine.trains import TrainHand

    rng = random.Random(seed)
    py_match = Match(rules, seed=seed)
    nat_match = Match(rules, seed=seed, stepwise_core=True)
    plies = 0
    for number in range(max_hands):
        if py_match.game_over:
            break
        py, nat = py_match.new_hand(), nat_match.new_hand()
        assert type(py) is TrainHand and type(nat) is NativeTrainHand
        assert nat.scores is nat_match.scores  # kept up to date like the Python hand's
        where = f"{rules.name} {rules.players}p seed {seed} round {number + 1}"
        while True:
            for name in TRAIN_FIELDS:
                got, want = getattr(nat, name), getattr(py, name)
                if isinstance(want, (list, tuple)):  # the native hands are a tuple
                    got, want = list(got), list(want)
                assert got == want, f"{where} ply {plies}: {name}"
            assert nat.legal_moves() == py.legal_moves(), f"{where} ply {plies}"
            if py.over:
                break
            move = rng.choice(py.legal_moves())
            py.apply(move)
            nat.apply(move)
            plies += 1
        assert py_match.finish_hand(py) == nat_match.finish_hand(nat), where
    return plies


def play_both(rules, seed: int, max_hands: int = 6) -> int:
    """Random matches stepped by a Python match and a native one in
    lockstep (the same deals, moves and muggins claims); the plies played."""
    rng = random.Random(seed)
    py_match = Match(rules, seed=seed)
    nat_match = Match(rules, seed=seed, stepwise_core=True)
    plies = 0
    for number in range(max_hands):
        if py_match.game_over:
            break
        py = py_match.new_hand()
        nat = nat_match.new_hand()
        assert isinstance(nat, NativeHand)
        assert nat.scores is nat_match.scores  # kept up to date like the Python hand's
        where = f"{rules.name} {rules.players}p teams={rules.teams} seed {seed} hand {number}"
        assert_twins(py, nat, where)
        while not py.over:
            legal = py.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            if not py.placed and move >= 0 and rng.random() < 0.5:
                move |= 1  # the lead's other orientation
            claim = None
            if rules.muggins and move >= 0 and rng.random() < 0.3:
                claim = rng.randrange(0, 25)
            if rng.random() < 0.5:
                assert nat.play(move, claim) == py.play(move, claim)
            else:
                py.apply(move, claim)
                nat.apply(move, claim)
            plies += 1
            assert_twins(py, nat, f"{where} ply {plies} move {move} claim {claim}")
            assert nat_match.scores == py_match.scores
        if not py.over:
            break
        a, b = py_match.finish_hand(py), nat_match.finish_hand(nat)
        assert a == b, where
    return plies


@pytest.fixture
def native_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native core runs (whatever BONES_CORE the suite runs under)."""
    monkeypatch.setenv(core.ENV, "native")


@needs_native
@pytest.mark.usefixtures("native_core")
@pytest.mark.parametrize("name,players,teams", builtin_tables())
def test_native_hand_is_the_python_hand_slot_for_slot(name: str, players: int,
                                                       teams: bool) -> None:
    rules = compiled(name, players, teams)
    if rules.trains is not None:
        # a train round's stepwise hand (docs/trains.md, "What runs where")
        assert sum(play_both_trains(rules, 7000 + seed) for seed in range(2)) > 0
        return
    assert sum(play_both(rules, 7000 + seed) for seed in range(3)) > 0


@needs_native
@pytest.mark.usefixtures("native_core")
def test_the_kernel_hands_over_the_fields_the_wrapper_reads() -> None:
    from bones.engine.nativehand import NATIVE_FIELDS

    assert tuple(bones_native.HAND_FIELDS) == NATIVE_FIELDS
    assert set(NATIVE_FIELDS) | {"rules", "scores", "voids"} == set(FIELDS)
    rules = compiled("all-fives", 2)
    hand = Match(rules, 3, stepwise_core=True).new_hand()
    assert isinstance(hand, NativeHand)
    with pytest.raises(ValueError, match="seat 2 is not at the table"):
        hand.native.fields(2)


@needs_native
@pytest.mark.usefixtures("native_core")
def test_copies_are_independent_and_pickles_load_as_the_python_twin() -> None:
    rules = compiled("all-fives", 3)
    match = Match(rules, seed=5, stepwise_core=True)
    hand = match.new_hand()
    assert isinstance(hand, NativeHand)
    hand.apply(hand.legal_moves()[0])
    twin = hand.copy()
    assert twin.scores is not hand.scores and twin.scores == hand.scores
    twin.apply(twin.legal_moves()[-1])
    assert len(twin.log) == len(hand.log) + 1 and len(hand.log) == 1
    # deepcopy keeps the scores shared with a match copied alongside
    match2 = copy.deepcopy(match)
    assert isinstance(match2.current, NativeHand)
    assert match2.current.scores is match2.scores
    # a pickle holds the Python twin, sharing the match's scores
    match3 = pickle.loads(pickle.dumps(match))
    assert type(match3.current) is Hand
    assert match3.current.scores is match3.scores
    assert slots(match3.current) == slots(hand.to_python())
    while not hand.over:
        move = hand.legal_moves()[0]
        hand.apply(move)
        match3.current.apply(move)
    assert slots(match3.current) == slots(hand.to_python())


@needs_native
@pytest.mark.usefixtures("native_core")
def test_native_hand_mutations() -> None:
    """What the scenario runner and the adapters change: whole sequences."""
    rules = compiled("sniff", 2)
    hand = Match(rules, seed=3, stepwise_core=True).new_hand()
    assert isinstance(hand, NativeHand)
    full = rules.tiles.full
    hand.hands = [full, full]
    assert hand.hands == (full, full)
    assert len(hand.legal_moves()) == rules.tiles.size  # any tile may lead
    with pytest.raises(TypeError):
        hand.hands[0] = 0  # a view: never a silent no-op
    with pytest.raises(AttributeError):
        hand.count = 3
    pile = list(reversed(hand.boneyard))
    hand.boneyard = pile
    assert list(hand.boneyard) == pile
    with pytest.raises(ValueError, match="boneyard"):
        hand.boneyard = pile[:-1]
    with pytest.raises(ValueError, match="not a tile"):
        hand.boneyard = [-1] * len(pile)  # nothing drawn yet: every entry is real
    with pytest.raises(IllegalMoveError, match="not legal"):
        hand.play(PASS)
    # a re-dealt world: the boneyard's drawn part may be scrubbed (-1)
    hand.play(hand.legal_moves()[0])
    while hand.bone_pos == 0 and not hand.over:
        hand.apply(hand.legal_moves()[-1])
    if hand.bone_pos:
        scrubbed = [-1] * hand.bone_pos + list(hand.boneyard[hand.bone_pos:])
        hand.boneyard = scrubbed
        assert list(hand.boneyard) == scrubbed


# ----------------------------------------------- who steps which hand


class Spy:
    """Wraps :func:`bones.engine.core.new_hand`, noting each hand's type."""

    def __init__(self) -> None:
        self.types: set[type] = set()
        self.real = core.new_hand

    def __call__(self, *args, **kwargs):
        hand = self.real(*args, **kwargs)
        self.types.add(type(hand))
        return hand


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    watch = Spy()
    monkeypatch.setattr(core, "new_hand", watch)
    return watch


@pytest.mark.parametrize("core_name", CORES)
def test_the_factory_follows_the_core(core_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(core.ENV, core_name)
    rules = compiled("all-fives", 2)
    deal = Match(rules, seed=1).next_deal()
    hand = core.new_hand(rules, deal.hands, deal.boneyard, deal.leader)
    assert type(hand) is EXPECTED[core_name]
    # a plain Match stays on the Python reference; an opted-in one follows
    assert type(Match(rules, seed=1).new_hand()) is Hand
    assert type(Match(rules, seed=1, stepwise_core=True).new_hand()) is EXPECTED[core_name]


@pytest.mark.parametrize("core_name", CORES)
def test_scenarios_and_replay_step_the_core_that_runs(
        core_name: str, monkeypatch: pytest.MonkeyPatch, spy: Spy) -> None:
    from bones.games.record import load_record, replay
    from bones.games.scenario import _start, load_scenario, run_scenario

    monkeypatch.setenv(core.ENV, core_name)
    files = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
    for path in files[:5]:
        assert run_scenario(path).status == "ok", path
    # layout mode (no deal: every seat holds every tile not laid) sets the
    # hands of the core's hand on every step
    layout = [p for p in files if "deal:" not in p.read_text() and "hands:" not in p.read_text()]
    assert layout
    for path in layout[:3]:
        assert run_scenario(path).status == "ok", path
        _, hand, layout_mode = _start(load_scenario(path))
        assert layout_mode and type(hand) is EXPECTED[core_name]
    records = sorted((ROOT / "tests" / "golden").rglob("*.json"))
    assert records
    for path in records[:3]:
        replay(load_record(path))
    assert spy.types == {EXPECTED[core_name]}


@pytest.mark.parametrize("core_name", CORES)
def test_adapters_step_the_core_that_runs(core_name: str, monkeypatch: pytest.MonkeyPatch,
                                          spy: Spy) -> None:
    monkeypatch.setenv(core.ENV, core_name)
    pettingzoo = pytest.importorskip("bones.adapters.pettingzoo")
    gymnasium = pytest.importorskip("bones.adapters.gymnasium")
    e = pettingzoo.env("all-fives", players=2)
    e.reset(seed=1)
    for _agent in e.agent_iter(max_iter=40):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    g = gymnasium.env("muggins", opponents="greedy")
    obs, info = g.reset(seed=2)
    g.step(int(info["action_mask"].nonzero()[0][0]))
    assert spy.types == {EXPECTED[core_name]}
    pyspiel = pytest.importorskip("pyspiel")
    import bones.adapters.openspiel  # noqa: F401 - registers python_bones

    game = pyspiel.load_game("python_bones", {"variant": "block-2p"})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            assert type(state.table.hand) is EXPECTED[core_name]
            resampled = state.resample_from_infostate(state.current_player(), rng.random)
            assert type(resampled.table.hand) is EXPECTED[core_name]
            state.apply_action(rng.choice(state.legal_actions()))
