"""Every valid variant file plays soundly.

Hypothesis writes random valid variant files (the strategies of
``test_spec_roundtrip``, which reach every model and every union member of
the language), loads them back from YAML like a user's file, compiles them
for a table they allow and plays them through the invariant checker of
``test_properties``: tiles conserved, every legal move well formed and none
missing, the count recomputed from scratch after every play, the checked and
unchecked paths agreeing, scores moved only by play points, claims, knocks
and settlement, every hand ending; then a match of the same file with claims
left to the engine is recorded, written as JSON, read back and replayed.

The ``ci`` profile runs ``GENERATED`` variants per test (at least 500 per
run in all); ``HYPOTHESIS_PROFILE=dev`` runs many more.  The invariant test
plays only the Python reference, so it is marked ``core_blind`` (the
Python-core pass of ``.ci/run``); the replay test replays on the core of
each pass.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import play_checked, play_hand
from test_spec_roundtrip import dump, variants

from bones.engine.match import Match
from bones.engine.rules import CHECK_HAND_WINNER, CHECK_PENALTY, Rules
from bones.games.record import dumps_record, parse_record, record_match, replay
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.lang.spec import Variant

#: hands of a generated match played and replayed (matches to a far target go on longer)
HANDS = 12
GENERATED = int(__import__("os").environ.get("BONES_GENERATED", "250"))


def budget(n: int) -> settings:
    base = settings()
    return settings(base, max_examples=max(n, base.max_examples), deadline=None,
                    suppress_health_check=[*base.suppress_health_check,
                                           HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


class Table:
    """A generated variant compiled for one table; shown as its YAML text when a test fails."""

    def __init__(self, text: str, rules: Rules) -> None:
        self.text, self.rules = text, rules

    def __repr__(self) -> str:
        return f"<players {self.rules.players}, teams {self.rules.teams}, file:\n{self.text}>"


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """A generated variant, read back from its YAML text, compiled for one of its tables."""
    variant = draw(variants())
    text = dump(variant)
    loaded = load_variant_text(text)
    assert loaded == variant, "the generated file does not load back unchanged"
    players = draw(st.sampled_from(loaded.players.counts))
    part = loaded.players.partnerships
    teams: bool | None = None
    if part.kind == "optional" and players in part.player_counts:
        teams = draw(st.booleans())
    return Table(text, compile_rules(loaded, players, teams))


def load_variant_text(text: str) -> Variant:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "generated.yaml"
        path.write_text(text, encoding="utf-8")
        return load_variant(str(path))


# the Python reference alone plays these (no core is asked): the same in both
# passes of .ci/run, so it runs in one, the Python-core pass's (the replays
# below run on each core)
@pytest.mark.core_blind
@budget(GENERATED)
@given(table=tables(), seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1),
       greed=st.sampled_from([0.0, 0.8]))
def test_generated_variants_keep_every_invariant(table: Table, seed: int,
                                                  policy: int, greed: float) -> None:
    rules = table.rules
    match = Match(rules, seed=seed)
    rng = random.Random(policy)
    for _ in range(3):
        if match.game_over:
            break
        play_hand(match, rng, greed)


@budget(GENERATED)
@given(table=tables(), seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_generated_matches_end_and_replay_from_their_records(table: Table, seed: int,
                                                               policy: int) -> None:
    rules = table.rules
    match = Match(rules, seed=seed)
    rng = random.Random(policy)
    while not match.game_over and len(match.history) < HANDS:
        hand = match.new_hand()
        bound = (rules.tiles.size + len(hand.boneyard)) * rules.players
        while not hand.over:
            bound -= 1
            assert bound >= 0, "the hand does not end"
            legal = hand.legal_moves()
            move = rng.choice(legal)
            if len(legal) > 1 and rng.random() < 0.3:
                # now and then the greediest move, so targets are reached too
                owner = rules.owner[hand.turn]
                gains = []
                for candidate in legal:
                    trial = hand.copy()
                    trial.apply(candidate)
                    gains.append(trial.scores[owner])
                move = legal[gains.index(max(gains))]
            play_checked(hand, move, None)
        match.finish_hand(hand)
    if match.game_over:
        if rules.hands_in_match:
            assert len(match.history) == rules.hands_in_match
        elif rules.check == CHECK_PENALTY:
            # penalties: a side reached the losing score; the lowest wins (a tie: nobody)
            assert max(match.scores) >= rules.target
            if match.winner >= 0:
                assert match.scores[match.winner] == min(match.scores)
        elif match.winner < 0:
            assert rules.void_at and min(match.scores) >= rules.void_at, "over with no winner"
        else:
            if rules.check == CHECK_HAND_WINNER:
                # the hand's winner at the target wins, even with a lower score
                assert match.scores[match.winner] >= rules.target
            else:
                assert match.scores[match.winner] == max(match.scores) >= rules.target
    # the record, finished or not, replays to the same scores
    record = record_match(match)
    again = parse_record(json.loads(dumps_record(record)))
    result = replay(again)
    assert result.finished == match.game_over
    assert result.scores == match.scores
