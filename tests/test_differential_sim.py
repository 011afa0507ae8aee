"""The two cores simulate the same games: whole ``bones simulate`` runs.

The native core plays a run's batches itself (``bones_native.Simulation``:
deals, leads, redeals, match ends, the built-in bots and the summary) when
every bot of the lineup is one it plays.  Here each run is simulated twice
in-process, once on the Python path (``core.native`` patched to say there is
no native core) and once natively, and the totals (every vector sum, pair
product and histogram) must be identical: for every built-in variant at
every allowed player count (teams where allowed), random, greedy,
heuristic and blunder bots,
whole matches and ``--hands`` mode; for bigger tile sets and for
hypothesis-generated variant files; and duplicate runs (every deal from
every rotation, the deals' sums and results too).  Through the command
line, the ``--json`` report must be byte-identical (outside ``run``) between
``BONES_CORE=python`` and ``BONES_CORE=native`` and between ``--jobs 1``
and ``--jobs 2``, for ``simulate``, ``tournament`` and ``compare``, plain
and ``--duplicate``.

Skipped without the native core; ``BONES_CORE=native`` (CI's native pass)
turns a missing core into a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis_budget import examples
from native_support import bones_native, builtin_tables, skip_native

from bones.engine import core
from bones.engine.rules import RulesError
from bones.lang.load import load_variant
from bones.sim import simulation as sim

pytestmark = [*skip_native(when_python_forced=True), pytest.mark.once]


def both(config: sim.SimConfig, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """(Python totals, native totals) of one run; an error is a result too."""
    def run() -> Any:
        sim._CACHE.clear()
        try:
            return sim.simulate(config).totals()
        except RulesError as err:
            return f"RulesError: {err}"

    with monkeypatch.context() as m:
        m.setattr(core, "native", lambda: None)
        assert sim.native_module(config) is None
        python = run()
    assert sim.native_module(config) is bones_native, "this run should play natively"
    return python, run()


@pytest.mark.parametrize("name,players,teams", builtin_tables())
def test_builtin_variants_simulate_the_same(name: str, players: int, teams: bool,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    variant = load_variant(name)
    table = sim.Table(name, variant, players, teams)
    # blunder (issue 34): two draws a decision from the seat's generator, over
    # either base, two blunders at one table
    for bots in (["random"], ["greedy", "random"], ["heuristic", "greedy"],
                 ["blunder", "blunder:base=greedy:rate=0.3"]):
        for hands_only, games in ((False, 8), (True, 40)):
            config = sim.make_config([table], bots, games=games, seed=players * 7 + len(bots),
                                     hands_only=hands_only)
            python, native = both(config, monkeypatch)
            assert python == native, (name, players, teams, bots, hands_only)
            assert native["n"] == games and any(native["sums"])
    # duplicate: every deal from every rotation, its leads apart
    for bots in (["greedy", "random"], ["heuristic", "greedy", "random", "greedy"][:players],
                 ["blunder", "heuristic"]):
        for hands_only, deals in ((False, 3), (True, 12)):
            config = sim.make_config([table], bots, games=deals, seed=players + 40,
                                     hands_only=hands_only, duplicate=True)
            python, native = both(config, monkeypatch)
            assert python == native, (name, players, teams, bots, hands_only, "duplicate")
            assert native["deals"] == deals and native["n"] == deals * config.rotations


def test_bigger_sets_and_paired_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """double-9, double-12 (two mask words) and double-18 (three), four
    players; and a paired comparison of two variants (two tables a game)."""
    base = load_variant("all-fives")
    for highest in (9, 12, 18):
        variant = base.model_copy(update={
            "tiles": base.tiles.model_copy(update={"highest": highest}),
            "name": f"all-fives-{highest}",
        })
        config = sim.make_config([sim.Table("x", variant, 4, False)],
                                 ["heuristic", "greedy", "random"], games=4, seed=highest)
        python, native = both(config, monkeypatch)
        assert python == native, highest
    config = sim.make_config(["sniff", "all-fives"], ["greedy", "random"], games=10, seed=2,
                             players=2)
    python, native = both(config, monkeypatch)
    assert python == native
    for players in (2, 4):
        config = sim.make_config(["all-fives", "docs/examples/house-fives.yaml"],
                                 ["heuristic", "random"], games=6, seed=2, players=players,
                                 duplicate=True)
        python, native = both(config, monkeypatch)
        assert python == native and native["deals"] == 6


try:
    from test_spec_roundtrip import variants as generated_variants
except ImportError:  # pragma: no cover
    generated_variants = None


@pytest.mark.skipif(generated_variants is None, reason="variant generator not importable")
@examples(30)
@given(variant=generated_variants() if generated_variants else None)
def test_generated_variants_simulate_the_same(variant: Any) -> None:
    """Every lead rule, fallback, redeal and match end the generator writes."""
    mp = pytest.MonkeyPatch()
    try:
        players = variant.players.counts[0]
        for teams in sorted({variant.partnered(players, False),
                             variant.partnered(players, True)}):
            table = sim.Table("generated", variant, players, teams)
            for hands_only in (False, True):
                bots = ["heuristic", "greedy", "random"][:players]
                config = sim.make_config([table], bots, games=3, seed=4, hands_only=hands_only)
                python, native = both(config, mp)
                assert python == native, (teams, hands_only)
    finally:
        mp.undo()


#: the options of issue 12, section 4, as house rules over built-ins; the
#: small blocked hands of the first make tied hands (and so pots) common
OPTION_RULES = [
    ("all-fives", 2, {"settlement": {"blocked": {"ties": "carry", "rounding": {"kind": "none"}}},
                      "drawing": {"kind": "none"}, "deal": {"hand_size": {2: 3, 3: 3, 4: 3}}}),
    ("all-fives", 4, {"settlement": {"blocked": {"ties": "carry", "rounding": {"kind": "none"}}},
                      "drawing": {"kind": "none"}, "deal": {"hand_size": {2: 3, 3: 3, 4: 3}}}),
    ("all-fives", 3, {"settlement": {"domino": {"rounding": {"kind": "up", "per": "player"}},
                                     "blocked": {"ties": "full"}},
                      "layout": {"spinner": {"kind": "every_double_but_led"}}}),
    # issue 21, section 2: whole matches, where the match state matters
    ("all-fives", 3, {"match": {"check": "hand_winner", "points": {2: 100, 3: 100, 4: 100}},
                      "settlement": {"blocked": {"ties": "share"}}}),
    ("muggins", 2, {"lead": {"first": {"kind": "highest_double", "if_none": "lightest_tile"},
                             "later": {"kind": "first"}},
                    "deal": {"hand_size": {2: 3, 3: 3, 4: 3}}}),
    ("muggins", 3, {"lead": {"first": {"kind": "lightest_tile"}, "later": {"kind": "winner"}}}),
    ("sniff", 4, {"settlement": {"domino": {"rounding": {"per": "player"}}}}),
    ("bergen", 2, {"drawing": {"stuck": "block"}}),
    ("all-fives", 2, {"scoring": {"get_in": 10, "get_in_scope": "match"}}),
    ("muggins", 3, {"scoring": {"get_in": 15, "get_in_scope": "match"}}),
]


@pytest.mark.parametrize("name,players,overrides", OPTION_RULES)
def test_rule_options_simulate_the_same(name: str, players: int, overrides: dict,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    variant = load_variant(name, overrides=overrides)
    table = sim.Table(name, variant, players, False)
    config = sim.make_config([table], ["greedy", "random"], games=20, seed=players)
    python, native = both(config, monkeypatch)
    assert python == native


#: issue 31's bonuses, lock rules and hand ends under the heuristic, which
#: judges them once nothing can be drawn (its pass, lock and finish terms):
#: beyond the built-ins, a block on the first stuck player, a bonus for a
#: block won, partners who both go out, and the terms in a draw game
HEURISTIC_RULES = [
    ("dominican", 4, {"bonuses": {"blocked_win": 30, "last_tile": {"tile": "6-6", "points": 40},
                                  "by_hand": {"points": [50, 20], "tied_hands": "count"}},
                      "hand_end": {"partners_both_out": True}}),
    ("partnership-block", 4, {"drawing": {"stuck": "block"},
                              "bonuses": {"capicua": {"points": 20, "doubles": True},
                                          "round_pass": 10,
                                          "opening_pass": {"double": 5, "other": 10}}}),
    ("kozel", 4, {"settlement": {"blocked": {"compare": "player"}}}),
    ("dominican", 4, {"settlement": {"blocked": {"against": "next", "ties": "not_blocker"}}}),
    ("all-fives", 2, {"bonuses": {"capicua": {"points": 10, "doubles": False}, "round_pass": 5}}),
    ("block-2p", 2, {"drawing": {"stuck": "block"}, "bonuses": {"blocked_win": 10}}),
]


@pytest.mark.parametrize("name,players,overrides", HEURISTIC_RULES)
def test_the_heuristic_judges_bonuses_and_locks_the_same(name: str, players: int,
                                                         overrides: dict,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    variant = load_variant(name, overrides=overrides)
    table = sim.Table(name, variant, players, variant.partnered(players, False))
    config = sim.make_config([table], ["heuristic", "greedy"], games=6, seed=players + 31)
    python, native = both(config, monkeypatch)
    assert python == native


def test_only_the_native_bots_play_natively() -> None:
    assert set(bones_native.SIM_BOTS) >= {"random", "greedy", "heuristic"}
    config = sim.make_config(["sniff"], ["greedy", "random"], games=1, seed=1)
    assert sim.native_module(config) is bones_native
    config = sim.make_config(["sniff"], ["search:iterations=4", "random"], games=1, seed=1)
    assert sim.native_module(config) is None
    # a bot with parameters the core reads: blunder's base and rate
    assert "blunder" in bones_native.SIM_BOTS
    config = sim.make_config(["sniff"], ["Blunder:rate=.2:base=greedy", "heuristic"], games=1,
                             seed=1)
    assert config.lineup[0] == "blunder:base=greedy:rate=0.2"
    assert sim.native_module(config) is bones_native
    assert sim.plays_natively(config)


def _cli(core_name: str, *args: str, command: str = "simulate") -> dict[str, Any]:
    env = {**os.environ, "BONES_CORE": core_name}
    out = subprocess.run([sys.executable, "-m", "bones", command, *args, "--json", "--quiet"],
                         capture_output=True, text=True, env=env, timeout=300, check=True)
    body = json.loads(out.stdout)
    body.pop("run")
    return body


@pytest.mark.parametrize("args", [
    ("sniff", "--hands", "3000", "--bots", "random", "--seed", "12"),
    ("partnership-block", "-n", "60", "--bots", "greedy,random", "--seed", "3"),
    ("all-fives", "-n", "20", "--bots", "heuristic,greedy", "--seed", "8"),
    ("block-2p", "--hands", "300", "--bots", "heuristic,greedy", "--seed", "9", "--duplicate"),
    ("all-fives", "-n", "10", "--bots", "heuristic,greedy", "--seed", "8", "--duplicate"),
    ("partnership-block", "-n", "10", "--bots", "heuristic,greedy,random,greedy", "--seed", "3",
     "--duplicate"),
    ("fives-and-threes", "-n", "10", "--bots", "random,blunder", "--seed", "8", "--duplicate"),
    ("dominican", "-n", "4", "--bots", "blunder:base=greedy:rate=0.7,heuristic", "--seed", "2"),
    # the search's tree with the heuristic's prior (issue 34), at a small budget
    ("all-fives", "-n", "2", "--bots", "search:iterations=3:tree=4:prior=2,heuristic", "--seed",
     "6"),
])
def test_cli_json_is_the_same_for_both_cores_and_any_jobs(args: tuple[str, ...]) -> None:
    python = _cli("python", *args)
    native = _cli("native", *args)
    native2 = _cli("native", *args, "--jobs", "2")
    text = json.dumps(python, sort_keys=True)
    assert json.dumps(native, sort_keys=True) == text
    assert json.dumps(native2, sort_keys=True) == text
    dup = python["duplicate"]
    per = dup["games_per_deal"] if dup else 1
    assert python["games"] == int(args[2]) * per and not python["partial"]


@pytest.mark.parametrize("command,args", [
    ("tournament", ("all-fives", "--bots", "random,greedy,heuristic", "-n", "6", "--seed", "4",
                    "--duplicate")),
    ("compare", ("all-fives", "docs/examples/house-fives.yaml", "-n", "8", "--bots",
                 "heuristic,greedy", "--seed", "4", "--duplicate")),
])
def test_duplicate_tournaments_and_comparisons_are_the_same_for_both_cores(
        command: str, args: tuple[str, ...]) -> None:
    python = _cli("python", *args, command=command)
    text = json.dumps(python, sort_keys=True)
    assert json.dumps(_cli("native", *args, command=command), sort_keys=True) == text
    assert json.dumps(_cli("native", *args, "--jobs", "2", command=command),
                      sort_keys=True) == text
    assert python["duplicate"] is not None


def test_a_hand_that_wins_one_game_of_several_scores_what_it_gained(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``match.games`` a won game starts the match's scores again from
    0; a hand's result (``--hands``) is still what the hand gained: its
    settlement plus its play points, on both cores."""
    variant = load_variant("all-fives", overrides={"match": {"points": 10, "games": 2}})
    config = sim.make_config([sim.Table("all-fives", variant, 2, False)], ["greedy", "random"],
                             games=60, seed=5, hands_only=True)
    python, native = both(config, monkeypatch)
    assert python == native
    layout = sim.Layout(config)
    sums = native["sums"]
    for seat in range(2):
        win = layout.index[f"0.seat{seat}.win"]
        play, settle, score = (sums[win + k] for k in (1, 2, 3))
        assert score == play + settle and score > 0
