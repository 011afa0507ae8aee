"""The two cores play train layouts alike (issue 35, docs/trains.md).

* Move for move: rounds of both built-ins, of every alternative key and of
  hypothesis-drawn combinations of them are dealt by the Python ``Match``
  and played on the Python ``TrainHand`` and ``bones_native.TrainHand``
  with the same (seeded) moves; after every move the legal moves (in
  order), every field of the layout (arms, owners, markers, owed doubles,
  first turns), the hands, the boneyard's position and, at the round's
  end, the settlement, scores and winner must agree; so must the
  ``greedy`` and ``heuristic`` bots' choice at every decision.
* Move counts: the leaf positions 1 to 3 moves ahead (draws included: the
  boneyard's order is known) of random positions, counted on each core.
* Whole simulations: ``bones simulate``'s totals (every vector sum, pair
  product and histogram) of the Python path and the native core, whole
  matches of rounds and ``--hands``, duplicate runs, random, greedy and
  heuristic bots, both built-ins and every alternative key.

Skipped without the native core (``BONES_CORE=native`` makes a missing core
a failure).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import examples
from native_support import bones_native, skip_native
from test_trains import TRAINS, _rules, _tables

from bones.bots.basic import HeuristicBot
from bones.bots.policies import greedy_move
from bones.engine import core
from bones.engine.flat import flatten
from bones.engine.match import Match
from bones.engine.rules import RulesError
from bones.engine.trains import TrainHand
from bones.seat.observation import observe
from bones.sim import simulation as sim

pytestmark = [*skip_native(), pytest.mark.once]

#: One variant per alternative key of docs/rules.md "Train layouts" (the
#: built-ins' other readings), by (built-in, {key: value}).
ALTERNATIVES: list[tuple[str, dict[str, Any]]] = [
    ("mexican-train", {"layout.trains.first_turn.tiles": "one"}),
    ("mexican-train", {"layout.trains.first_turn.may_stop": False}),
    ("mexican-train", {"layout.trains.first_turn.public": True}),
    ("mexican-train", {"layout.trains.public": 0}),
    ("mexican-train", {"layout.trains.public": 2}),
    ("mexican-train", {"layout.trains.public_needs_own": True}),
    ("mexican-train", {"layout.trains.marker_off": "anywhere"}),
    ("mexican-train", {"layout.trains.doubles.by": "next_players"}),
    ("mexican-train", {"layout.trains.doubles.cover": 0}),
    ("mexican-train", {"layout.trains.doubles.by": "same_player_only"}),
    ("mexican-train", {"layout.trains.doubles.by": "one_more_anywhere"}),
    ("mexican-train", {"layout.trains.doubles.release": "no_cover_left"}),
    ("mexican-train", {"layout.trains.doubles.release": "no_cover_left",
                       "layout.trains.doubles.by": "next_players"}),
    ("mexican-train", {"settlement.domino.out_on_double": 2}),
    ("mexican-train", {"layout.trains.hub.top": 6}),
    ("mexican-train", {"layout.trains.hub.placing_ends_turn": True}),
    ("mexican-train", {"layout.trains.hub.comes": "set_aside"}),
    ("mexican-train", {"settlement.domino.per_marker": 10, "settlement.blocked.per_marker": 10}),
    ("mexican-train", {"settlement.domino.double_blank": 0, "settlement.blocked.double_blank": 0}),
    ("mexican-train", {"drawing": {"kind": "until_playable", "must_play_drawn": True}}),
    ("mexican-train", {"drawing.must_play_drawn": False}),
    ("mexican-train", {"match.lose_at": 150}),
    ("chicken-foot", {"layout.trains.hub.tiles": 6}),
    ("chicken-foot", {"layout.trains.doubles.cover": 1}),
    ("chicken-foot", {"layout.trains.doubles.release": "no_cover_left"}),
    ("chicken-foot", {"layout.trains.turn_tiles": "all_that_fit"}),
    ("chicken-foot", {"layout.trains.doubles.first_spinner": True}),
    ("mexican-train", {"layout.trains.turn_tiles": "all_that_fit"}),
    ("chicken-foot", {"layout.trains.hub.placing_ends_turn": False}),
    ("chicken-foot", {"settlement.domino.blanks": 25, "settlement.blocked.blanks": 25}),
    ("chicken-foot", {"match.count": 4}),
    ("chicken-foot", {"layout.trains.hub.comes": "set_aside", "match.count": 3}),
    ("chicken-foot", {"layout.trains.hub.comes": "set_aside",
                      "layout.trains.hub.placing_ends_turn": False}),
]


def _alternative(name: str, changes: dict[str, Any], players: int) -> Any:
    try:
        return _rules(name, players, changes)
    except (RulesError, ValueError) as err:  # pragma: no cover - a key renamed
        pytest.fail(f"{name} {changes}: {err}")


def native_of(py: TrainHand) -> Any:
    """The native round of the Python round ``py`` as dealt (no move yet)."""
    rules = py.rules
    ts = rules.tiles
    return bones_native.TrainHand(
        flatten(rules), [ts.tiles_of(h) for h in py.hands], list(py.boneyard), py.leader,
        py.lead_tile, list(py.scores), py.number)


def assert_same(py: TrainHand, nat: Any, where: str) -> None:
    got = nat.fields()
    assert nat.legal_moves() == py.legal_moves(), where
    want = {
        "state": int(py.state), "turn": py.turn, "leader": py.leader, "placed": py.placed,
        "passes": py.passes, "drawn_turn": py.drawn_turn, "drawn": list(py.drawn),
        "bone_pos": py.bone_pos, "drawable": py.drawable, "laid_turn": py.laid_turn,
        "hub_left": py.hub_left, "hub_arms": py.hub_arms, "must_cover": py.must_cover,
        "extra": py.extra, "spun": py.spun,
        "arm_open": list(py.arm_open), "arm_end": list(py.arm_end),
        "arm_owner": list(py.arm_owner), "marked": list(py.marked),
        "first_done": list(py.first_done), "owed": [list(o) for o in py.owed],
        "scores": list(py.scores), "hands": list(py.hands), "on_table": py.on_table,
        "log": [(s, m, p) for s, m, p in py.log], "last_player": py.last_player,
    }
    assert {k: got[k] for k in want} == want, where
    if py.state:
        assert got["settlement"] == py.settlement, where
        assert got["domino_seat"] == py.domino_seat, where
        assert got["won_by"] == py.won_by, where
        assert got["game_over"] == py.game_over, where
        if py.game_over:
            assert got["winner"] == py.winner, where


def bots_agree(py: TrainHand, nat: Any, where: str) -> None:
    """The greedy and heuristic choices of the mover, on each core."""
    legal = py.legal_moves()
    if len(legal) < 2:
        return
    assert nat.greedy_move() == greedy_move(py, legal), where
    obs = observe(py, py.turn, legal)
    assert nat.heuristic_move() == HeuristicBot().choose(obs, None), where


def play_round(py: TrainHand, rng: random.Random, where: str, bots: bool = True) -> int:
    """Play ``py`` to its end with random moves, its native twin in step."""
    nat = native_of(py)
    assert_same(py, nat, where)
    plies = 0
    while not py.state:
        if bots:
            bots_agree(py, nat, f"{where} ply {plies}")
        move = rng.choice(py.legal_moves())
        py.apply(move)
        nat.apply(move)
        plies += 1
        assert_same(py, nat, f"{where} ply {plies} move {move}")
        assert plies < 5000, where
    return plies


def play_match(rules: Any, seed: int, rounds: int, bots: bool = True) -> int:
    """Up to ``rounds`` rounds of a match on both cores, the scores carried."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    plies = 0
    for number in range(rounds):
        if match.game_over:
            break
        hand = match.new_hand()
        assert isinstance(hand, TrainHand)
        plies += play_round(hand, rng, f"{rules.name} {rules.players}p seed {seed} round "
                            f"{number + 1}", bots)
        match.finish_hand(hand)
    return plies


@pytest.mark.parametrize("name", TRAINS)
@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_the_built_ins_agree_move_for_move(name: str, players: int) -> None:
    rules = _rules(name, players)
    plies = sum(play_match(rules, 100 * players + seed, rounds=3) for seed in range(3))
    assert plies > 0


@pytest.mark.parametrize("name", TRAINS)
def test_a_whole_match_agrees_to_its_winner(name: str) -> None:
    """Every round of a two-player match, the scores carried, the match's end."""
    rules = _rules(name, 2)
    rng = random.Random(9)
    match = Match(rules, seed=9)
    while not match.game_over:
        hand = match.new_hand()
        play_round(hand, rng, f"{name} round {len(match.history) + 1}", bots=False)
        match.finish_hand(hand)
    assert len(match.history) == rules.trains.rounds


@pytest.mark.parametrize("name,changes", ALTERNATIVES,
                         ids=[f"{n}:{','.join(c)}" for n, c in ALTERNATIVES])
def test_every_alternative_agrees_move_for_move(name: str, changes: dict[str, Any]) -> None:
    for players in (2, 5):
        rules = _alternative(name, changes, players)
        assert play_match(rules, 7 * players, rounds=2) > 0


@examples(30)
@given(_tables(), st.integers(1, 13))
def test_drawn_alternatives_agree_move_for_move(table: Any, round_number: int) -> None:
    rules, seed = table
    match = Match(rules, seed=seed)
    match.first_round = min(round_number, rules.trains.rounds)
    play_round(match.new_hand(), random.Random(seed), f"{rules.name} seed {seed}")


# ------------------------------------------------------------ move counts


def py_perft(hand: TrainHand, depth: int) -> int:
    if depth == 0 or hand.state:
        return 1
    total = 0
    for move in hand.legal_moves():
        child = hand.copy()
        child.apply(move)
        total += py_perft(child, depth - 1)
    return total


@examples(25)
@given(_tables(), st.integers(0, 60), st.integers(1, 3))
def test_move_counts_agree_on_random_positions(table: Any, steps: int, depth: int) -> None:
    rules, seed = table
    rng = random.Random(seed)
    hand = Match(rules, seed=seed).new_hand()
    nat = native_of(hand)
    for _ in range(steps):
        if hand.state:
            break
        move = rng.choice(hand.legal_moves())
        hand.apply(move)
        nat.apply(move)
    assert nat.perft(depth) == py_perft(hand, depth)


def test_the_native_round_refuses_bad_input_in_one_line() -> None:
    rules = _rules("chicken-foot", 2)
    hand = Match(rules, seed=1).new_hand()
    nat = native_of(hand)
    with pytest.raises(ValueError, match="is not legal here"):
        nat.apply(12345)
    with pytest.raises(ValueError, match="not a train layout"):
        bones_native.TrainHand(flatten(_rules("sniff", 2)), [[], []], [], 0, 0)
    # the line hand and the line searches refuse a train table
    with pytest.raises(ValueError, match="in simulations only"):
        bones_native.Rules(flatten(rules))
    assert core.native_object(rules, "Searcher") is None


# ------------------------------------------------------------ simulations


def both(config: sim.SimConfig, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """(Python totals, native totals) of one run."""
    def run() -> Any:
        sim._CACHE.clear()
        return sim.simulate(config).totals()

    with monkeypatch.context() as m:
        m.setattr(core, "native", lambda: None)
        python = run()
    sim._CACHE.clear()
    assert sim.plays_natively(config), "this run should play natively"
    return python, run()


def _table(rules_name: str, players: int, changes: dict[str, Any] | None = None) -> sim.Table:
    from test_trains import _variant

    return sim.Table(rules_name, _variant(rules_name, changes), players, False)


@pytest.mark.skipif(core.native() is None, reason="BONES_CORE=python forces the Python core")
@pytest.mark.parametrize("name", TRAINS)
@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_built_ins_simulate_the_same(name: str, players: int,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(name, players)
    for bots in (["random"], ["greedy", "random"], ["heuristic", "greedy"]):
        for hands_only, games in ((False, 2), (True, 12)):
            config = sim.make_config([table], bots, games=games, seed=players * 7 + len(bots),
                                     hands_only=hands_only)
            python, native = both(config, monkeypatch)
            assert python == native, (name, players, bots, hands_only)
            assert native["n"] == games and any(native["sums"])
    config = sim.make_config([table], ["heuristic", "random"], games=3, seed=players + 40,
                             hands_only=True, duplicate=True)
    python, native = both(config, monkeypatch)
    assert python == native and native["deals"] == 3


@pytest.mark.skipif(core.native() is None, reason="BONES_CORE=python forces the Python core")
@pytest.mark.parametrize("name,changes", ALTERNATIVES,
                         ids=[f"{n}:{','.join(c)}" for n, c in ALTERNATIVES])
def test_every_alternative_simulates_the_same(name: str, changes: dict[str, Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(name, 3, changes)
    for bots in (["random"], ["heuristic", "greedy", "random"]):
        config = sim.make_config([table], bots, games=10, seed=3, hands_only=True)
        python, native = both(config, monkeypatch)
        assert python == native, (name, changes, bots)
    if "match.lose_at" in changes or "match.count" in changes:
        config = sim.make_config([table], ["greedy"], games=2, seed=4)
        python, native = both(config, monkeypatch)
        assert python == native, (name, changes, "match")



def test_a_refused_train_table_simulates_in_python_saying_why(monkeypatch, capsys) -> None:
    """What the port leaves out (bonuses on a train layout, which only the
    heuristic's valuation reads) runs on the Python path, with one line
    under BONES_CORE=native, and the same totals as the Python core."""
    table = _table("chicken-foot", 2, {"bonuses.round_pass": 2})
    config = sim.make_config([table], ["heuristic", "random"], games=4, seed=2, hands_only=True)
    with monkeypatch.context() as m:
        m.setattr(core, "native", lambda: None)
        sim._CACHE.clear()
        python = sim.simulate(config).totals()
    monkeypatch.setenv(core.ENV, "native")
    monkeypatch.setattr(core, "_noted", set())
    sim._CACHE.clear()
    if core.native() is None:
        pytest.skip("the native core is not in use")
    assert not sim.plays_natively(config)
    assert sim.simulate(config).totals() == python
    assert capsys.readouterr().err.splitlines() == [
        "bones: the native core does not play chicken-foot: its pass, capicua or last-tile "
        "bonuses on a train layout are not ported (using the Python core)"]
