"""`bones.lang.describe` and the `bones list` / `bones show` commands."""

from __future__ import annotations

import copy
import json
import typing
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel
from typer.testing import CliRunner

from bones.cli.app import app
from bones.lang import spec
from bones.lang.describe import describe
from bones.lang.load import load_variant

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

#: no core plays in the tests marked so (tools/core_calls.py: 0 calls of
#: core.native and no process under BONES_CORE=native, the most of this
#: module's CPU): the Python-core pass of .ci/run only (issue 37)
BLIND = pytest.mark.core_blind

BUILTINS = [p.stem for p in sorted((ROOT / "variants").glob("*.yaml"))]

# Sentences each built-in's rules must contain (docs/rules.md's table, in words).
KEY_SENTENCES = {
    "sniff": [
        "each player takes 7 tiles with 2 players, 6 tiles with 3 and 5 tiles with 4",
        "The first hand is led by lot",
        "led by the player who went out (dominoed) in the hand before; after a blocked hand it is led by lot",
        "The first double played, whether led or played later, is the spinner",
        "Any free edge of a spinner may be played on at any time.",
        "(the sniff-count model)",
        "3 of its four edges covered: one half (its number once); a [5-5] counts 5",
        "A drawn tile that will play must be played at once",
        "Every player (or team) loses their own pips",
        "rounded to the nearest multiple of 5: a remainder of 1 or 2 rounds down, of 3 or 4 rounds up",
        "Scores can fall below zero.",
        "The game is played to 250 points with 2 players, 200 points with 3 and 200 points with 4.",
        "the highest score at or above the target wins",
        "may agree to play as two teams of partners",
    ],
    "sniff-english": [
        "is the sniff. It is laid in line",
        "exactly one stub tile",
        "A stub's outer end counts in every later count and can never be built on",
        "1 of its two line ends covered: one half (its number once)",
    ],
    "all-fives": [
        "each player takes 9 tiles with 2 players, 7 tiles with 3 and 5 tiles with 4",
        "Both long sides of a spinner must be covered before either cross end may be played on.",
        "(the drop2 model)",
        "2 of its four edges covered: nothing",
        "The player (or team) who went out scores the pips left in the opponents' hands.",
        "The opponents' pips are added up first, then rounded once.",
        "with 3 players, the tied players share the amount equally, each share rounded down to a multiple of 5",
        "with 2 players, nobody scores",
        "Scoring counts up to 48",
        "35 scores 35",
    ],
    "all-fives-cribbage": [
        "each player takes 7 tiles with 2 players, 5 tiles with 3 and 5 tiles with 4",
        "It scores one point per 5: the count divided by 5, rounded down",
        "the pips left in the opponents' hands less their own",
        "26 pips round to 25, which score 5",
        "The game is played to 61 points.",
    ],
    "muggins": [
        "There is no spinner: the tiles form one line with two open ends.",
        "The first hand is led by the holder of the highest double, who must lead it",
        "Every later hand is led the same way as the first.",
        "may draw one tile instead of playing",
        "against each opponent holding more pips, the difference between the two hands",
        "The pips are not rounded.",
        "The game ends the moment a score reaches the target, even in the middle of a hand",
        "The game is played to 200 points.",
        "20 scores 20",
    ],
    "all-threes": ["A play scores when the count is a multiple of 3.", "9 scores 9"],
    "all-threes-and-fives": ["A play scores when the count is a multiple of 3 or 5.", "15 scores 15"],
    "all-primes": ["one of these numbers: 1, 2, 3, 5, 7, 11, 13, 17, 19, 23", "1 scores 1"],
    "all-fibs": ["one of these numbers: 1, 2, 3, 5, 8, 13, 21, 34, 55", "8 scores 8"],
    "fives-and-threes": [
        "added together (with 5 and 3, 15 scores 3 + 5 = 8)",
        "3 scores 1, 5 scores 1, 6 scores 2, 9 scores 3, 10 scores 2, 12 scores 4, 15 scores 8, 18 scores 6, 20 scores 4",
        "There is no drawing. A player who cannot play knocks (passes)",
        "stay face down out of play",
        "until both partners of a team are out",
        "who went out scores 1 point.",
        "When the hand is blocked:\n  Nobody scores.",
        "The target must be reached exactly: a gain that would pass it is ignored whole",
        "each later hand is led by the seat after the last leader in the order of play (to the left)",
    ],
    "five-up": [
        "Every double is a spinner",
        "each player takes 5 tiles whatever the number of players",
        "(the drop2 model)",
    ],
    "bergen": [
        "A play scores when open ends show the same number.",
        "two ends alike (a double-header): 2 points",
        "three ends alike (a triple-header): 3 points",
        "The last 2 tiles of the boneyard are a reserve that is never drawn",
        "The first hand is led by the holder of the lowest double",
        "A hand holding a double loses to any hand without one",
        "The player with the lightest hand scores 1 point.",
        "The game is played to 15 points with 2 players, 10 points with 3 and 10 points with 4.",
    ],
    "partners": [
        "always play as two teams of partners, partners sitting opposite each other: seats 0 and 2 against 1 and 3",
        "Play goes counter-clockwise, to the right.",
        "All 28 tiles are dealt: there is no boneyard.",
        "The first hand is led by the holder of [6-6], who must lead it",
        "(to the right)",
        "The game is played to 250 points.",
        "Partners win or lose together",
    ],
    "block-2p": [
        "For 2 players.",
        "The first hand is led by seat 0, always.",
        "No points are scored during play",
        "The rest, 14 tiles, stay face down out of play",
        "The player with the lightest hand scores the pips left in the opponents' hands.",
        "The game is a single hand",
    ],
    "partnership-block": [
        "The first hand is led by the holder of [6-6]",
        "series rule of the PyPI dominoes package",
        "scores all the pips left in every hand, a partner's included",
        "If the lightest hands tie, nobody scores.",
        "The game is played to 200 points.",
    ],
    "dominican": [
        "The first hand is led by the holder of [6-6]",
        "Each later hand is led by the winner of the hand before, the winner of a blocked hand "
        "included",
        "the leader's team scores 25 points when it is a double and 50 points when it is not",
        "that team scores 25 points at the last pass",
        "a double that fits both (equal) ends counts too) scores 25 points more, in the settlement",
        "Only two hands are compared: the locker's (the player who made the last play) and that "
        "of the player who played just before him",
        "a tie goes to the locker",
        "The game is played to 200 points.",
    ],
    "puerto-rico-500": [
        "the seat after the last leader in the order of play",
        "scores 100, 75, 50, 25 more, in the settlement, whether the hand is won by going out or "
        "blocked",
        "a double never makes capicúa) scores 100 points more",
        "Going out with [0-0] scores 100 points more, in the settlement (not when it blocks the hand)",
        "scores all the pips left in every hand, a partner's included",
        "The game is played to 500 points.",
    ],
    "world-pairs": [
        "each player's own hand, not the team's: the player with the fewest pips wins for his "
        "team; two partners lowest: their team",
        "nobody scores now: what one tied hand would have scored alone",
        "The game is played to 50 points.",
    ],
    "latin-match": [
        "Every later hand is led the same way as the first.",
        "The game ends void, with no winner, the moment every player (or team) has 5 points or more",
        "The game is played to 10 points.",
    ],
    "cuban": [
        "A double-nine set: 55 tiles",
        "each player takes 10 tiles",
        "The rest, 15 tiles, stay face down out of play for the whole hand",
        "The first hand is led by lot",
        "The game is played to 150 points.",
    ],
    "kozel": [
        "If any player's hand holds five or more doubles or six or more tiles bearing the same "
        "number (a double counted once), the deal is void",
        "The first hand is led by the holder of [1-1], then [2-2]",
        "after a blocked hand it is led by the player who made the blocked hand's last play (the "
        "locker)",
        "Two doubles in one move",
        "is charged their own pips",
        "a settlement of less than 13 to it is not recorded",
        "whose score reaches 101 points loses the game",
    ],
    "mexican-train": [
        "A double-twelve set: 91 tiles",
        "each player takes 15 tiles with 2 players, 15 tiles with 3, 15 tiles with 4, 12 tiles "
        "with 5, 12 tiles with 6, 10 tiles with 7 and 10 tiles with 8",
        "round 1 uses [12-12], round 2 [11-11], and so on down ([0-0] in round 13)",
        "Placing it does not end the placer's turn",
        "One more train, the public (Mexican) train, is anyone's to start and extend.",
        "another player's train only while it carries a marker",
        "must take 1 tile before any other play, each cover continuing the double's train",
        "The player who lays a double must cover it in the same turn",
        "In his first turn of a round each player may lay any number of tiles on his own train",
        "A double he leaves bare in his first turn binds nobody until every player has had his "
        "first turn",
        "[0-0] is charged 50.",
        "The game is 13 rounds, each with its own hub double: the lowest total wins",
    ],
    "chicken-foot": [
        "A double-nine set: 55 tiles",
        "each player takes 9 tiles with 2 players, 7 tiles with 3, 7 tiles with 4",
        "round 1 uses [9-9], round 2 [8-8], and so on down ([0-0] in round 10)",
        "Placing it is the placer's turn: the next player plays next.",
        "Before anything else, 4 tiles must be laid against the hub double itself",
        "Arms are numbered A1, A2, ... in the order they are made",
        "must take 3 tiles before any other play, each cover starting a new arm (the double "
        "closes its own arm)",
        "The next tiles laid, by whoever is to play, must go on it",
        "[0-0] is charged 50.",
        "The game is 10 rounds, each with its own hub double: the lowest total wins",
    ],
}

SECTIONS = ["Equipment", "Players and the deal", "The lead", "The layout and the spinner",
            "Scoring during play", "Drawing and passing", "End of the hand and settlement",
            "Winning the game", "Sources"]


@BLIND
def test_every_builtin_has_key_sentences():
    assert sorted(KEY_SENTENCES) == sorted(BUILTINS)


@BLIND
@pytest.mark.parametrize("name", BUILTINS)
def test_describe_has_sections_and_key_sentences(name):
    text = describe(load_variant(name))
    for title in SECTIONS:
        assert f"\n{title}\n{'-' * len(title)}\n" in text
    for sentence in KEY_SENTENCES[name]:
        assert sentence in text, sentence
    for source in load_variant(name).sources:
        assert source.title in text
    assert "Muggins rule\n" not in text  # off in every built-in
    assert text.endswith("\n") and "\n\n\n" not in text


@BLIND
@pytest.mark.parametrize("name", BUILTINS)
def test_show_prints_the_description(name):
    result = runner.invoke(app, ["show", name])
    assert result.exit_code == 0, result.output
    assert result.stdout == describe(load_variant(name))


def test_describe_for_a_player_count():
    sniff = load_variant("sniff")
    three = describe(sniff, 3)
    assert "Rules for 3 players." in three
    assert "each player takes 6 tiles." in three
    assert "The rest form the boneyard (the stock): 10 tiles." in three
    assert "The game is played to 200 points." in three
    assert "250" not in three.split("\nSources\n")[0]
    assert "Everyone plays alone (partnerships are for 4 players)." in three
    four = describe(sniff, 4)
    assert "With 4 players the players may agree to play as two teams" in four
    with pytest.raises(ValueError):
        describe(sniff, 5)
    result = runner.invoke(app, ["show", "sniff", "--players", "3"])
    assert result.exit_code == 0 and result.stdout == three


def test_muggins_section_when_on():
    data = load_variant("all-fives").model_dump()
    data["scoring"]["muggins"] = {"kind": "forfeit", "penalise_over_claim": True}
    text = describe(spec.Variant.model_validate(data))
    assert "\nMuggins rule\n" in text
    assert "are lost: nobody scores them" in text
    assert "the next opponent in turn scores the amount claimed as a penalty" in text


# ------------------------------------------- every field influences the text


def _models_in(tp) -> list[type[BaseModel]]:
    out = []
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    for arg in typing.get_args(tp):
        out += _models_in(arg)
    return out


def all_fields() -> set[tuple[str, str]]:
    seen: dict[str, type[BaseModel]] = {}
    stack: list[type[BaseModel]] = [spec.Variant]
    while stack:
        model = stack.pop()
        if model.__name__ in seen:
            continue
        seen[model.__name__] = model
        for field in model.model_fields.values():
            stack += _models_in(field.annotation)
    return {(name, f) for name, model in seen.items() for f in model.model_fields}


def _set(data: dict, path: str, value) -> None:
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    node = data
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = copy.deepcopy(value)


def _variant(base) -> spec.Variant:
    name, changes = (base, {}) if isinstance(base, str) else base
    data = load_variant(name).model_dump()
    for path, value in changes.items():
        _set(data, path, value)
    return spec.Variant.model_validate(data)


def _covered(a, b, owner: str, field: str, out: set) -> None:
    """The (model, field) pairs whose values differ between a and b."""
    if isinstance(a, BaseModel) and isinstance(b, BaseModel):
        if type(a) is not type(b):
            out.add((type(a).__name__, "kind"))
            out.add((type(b).__name__, "kind"))
            out.add((owner, field))
            return
        for name in type(a).model_fields:
            before = len(out)
            _covered(getattr(a, name), getattr(b, name), type(a).__name__, name, out)
            if len(out) > before:
                out.add((owner, field))
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a and isinstance(a[0], BaseModel):
        for x, y in zip(a, b):
            _covered(x, y, owner, field, out)
        return
    if a != b:
        out.add((owner, field))


LIMITED = {"drawing": {"kind": "limited", "max_per_turn": 2}}
FLAT = {"scoring.points": {"kind": "flat", "amount": 1}}
WINNER = {"lead.later": {"kind": "winner"}}
LED = {"layout.spinner": {"kind": "led_double"}}
MUGGINS_ON = {"scoring.muggins": {"kind": "transfer"}}
BUT_LED = {"layout.spinner": {"kind": "every_double_but_led"}}

# (base variant, or (base, {path: value}) changes applied first; path; new value)
MUTATIONS = [
    ("sniff", "name", "sniffy"),
    ("sniff", "extends", "all-fives"),
    ("sniff", "aliases", ["sniffer"]),
    ("sniff", "summary", "Another summary."),
    ("sniff", "sources.0.title", "Another book"),
    ("sniff", "sources.0.url", "https://example.org/sniff"),
    ("sniff", "sources.0.supports", "nothing at all"),
    ("sniff", "sources", []),
    ("sniff", "tiles.highest", 9),
    ("block-2p", "players.counts", [2, 3]),
    ("sniff", "players.partnerships.kind", "required"),
    ("all-fives", "players.partnerships.kind", "none"),
    ("sniff", "players.partnerships.player_counts", [2, 4]),
    ("sniff", "players.direction", "counterclockwise"),
    ("sniff", "deal.hand_size", {2: 6, 3: 6, 4: 5}),
    ("sniff", "deal.reserve", 2),
    ("fives-and-threes", "deal.reserve", 1),
    # leads
    ("sniff", "lead.first", {"kind": "random"}),
    ("sniff", "lead.first", {"kind": "highest_double"}),
    ("sniff", "lead.first", {"kind": "lowest_double"}),
    ("sniff", "lead.first", {"kind": "tile", "tile": "5-5"}),
    ("sniff", "lead.first", {"kind": "seat", "seat": 1}),
    ("muggins", "lead.first.if_none", "draw_more"),
    ("bergen", "lead.first.if_none", "heaviest_hand"),
    ("partners", "lead.first.tile", "5-5"),
    ("partners", "lead.first.if_none", "lot"),
    ("block-2p", "lead.first.seat", 1),
    ("sniff", "lead.later.after_block", {"kind": "random"}),
    ("sniff", "lead.later", {"kind": "winner"}),
    (("sniff", WINNER), "lead.later.if_none", {"kind": "random"}),
    ("sniff", "lead.later", {"kind": "rotate"}),
    ("fives-and-threes", "lead.later.to", "previous"),
    ("block-2p", "lead.later", {"kind": "alternate"}),
    ("sniff", "lead.later", {"kind": "series"}),
    ("sniff", "lead.later", {"kind": "first"}),
    ("sniff", "lead.allowed", "double"),
    ("bergen", "lead.allowed", "double"),
    # layout
    ("sniff", "layout.spinner", {"kind": "none"}),
    ("sniff", "layout.spinner", {"kind": "every_double"}),
    ("sniff", "layout.spinner", {"kind": "led_double"}),
    ("sniff", "layout.spinner", {"kind": "inline_sniff"}),
    ("sniff", "layout.spinner", {"kind": "every_double_but_led"}),
    (("sniff", BUT_LED), "layout.spinner.order", "any"),
    (("sniff", BUT_LED), "layout.spinner.count", [2, 2, 2, 1, 0]),
    ("sniff", "layout.spinner.order", "sides_first"),
    ("sniff", "layout.spinner.order", "all_four_first"),
    ("sniff", "layout.spinner.count", "drop2"),
    ("sniff", "layout.spinner.count", [2, 2, 2, 2, 0]),
    ("five-up", "layout.spinner.order", "any"),
    ("five-up", "layout.spinner.count", [2, 2, 1, 0, 0]),
    (("sniff", LED), "layout.spinner.order", "any"),
    (("sniff", LED), "layout.spinner.count", [2, 2, 2, 1, 0]),
    ("sniff-english", "layout.spinner.count", [2, 2, 0, 0, 0]),
    ("muggins", "layout.doubles", "inline"),
    ("five-up", "layout.doubles", "inline"),
    # scoring
    ("sniff", "scoring.when", {"kind": "none"}),
    ("sniff", "scoring.when", {"kind": "in_list", "counts": [5, 10]}),
    ("sniff", "scoring.when", {"kind": "matching_ends", "points": {2: 2}}),
    ("sniff", "scoring.when.divisors", [3]),
    ("all-fibs", "scoring.when.counts", [1, 2, 3]),
    ("bergen", "scoring.when.points", {2: 1, 3: 3}),
    ("sniff", "scoring.points", {"kind": "divided", "by": 5}),
    ("all-fives-cribbage", "scoring.points.by", 3),
    ("all-threes-and-fives", "scoring.points", {"kind": "sum_of_quotients"}),
    ("all-threes-and-fives", "scoring.points", {"kind": "per_divisor"}),
    ("sniff", "scoring.points", {"kind": "flat", "amount": 1}),
    (("sniff", FLAT), "scoring.points.amount", 2),
    ("sniff", "scoring.get_in", 10),
    ("sniff", "scoring.winning_points_on_lead", False),
    ("sniff", "scoring.muggins", {"kind": "transfer"}),
    (("sniff", MUGGINS_ON), "scoring.muggins.kind", "forfeit"),
    (("sniff", MUGGINS_ON), "scoring.muggins.penalise_over_claim", True),
    (("sniff", MUGGINS_ON), "scoring.muggins.over_claim_points", "caller"),
    (("sniff", MUGGINS_ON), "scoring.muggins.over_claim_points", "claimer"),
    # drawing
    ("sniff", "drawing", {"kind": "limited", "max_per_turn": 2}),
    ("sniff", "drawing", {"kind": "none"}),
    ("sniff", "drawing.must_play_drawn", False),
    ("sniff", "drawing.draw_while_able", True),
    ("sniff", "drawing.knock_bonus", 1),
    (("sniff", LIMITED), "drawing.max_per_turn", 3),
    (("sniff", LIMITED), "drawing.must_play_drawn", False),
    (("sniff", LIMITED), "drawing.draw_while_able", True),
    (("sniff", LIMITED), "drawing.knock_bonus", 2),
    (("sniff", LIMITED), "drawing.stuck", "block"),
    ("fives-and-threes", "drawing.knock_bonus", 1),
    ("fives-and-threes", "hand_end.partners_both_out", False),
    # settlement
    ("sniff", "settlement.domino", {"kind": "domino_er"}),
    ("sniff", "settlement.domino", {"kind": "lightest"}),
    ("sniff", "settlement.blocked", {"kind": "each_heavier"}),
    ("sniff", "settlement.blocked", {"kind": "nobody"}),
    ("all-fives", "settlement.domino", {"kind": "own_penalty"}),
    ("all-fives", "settlement.domino.rounding", {"kind": "none"}),
    ("all-fives", "settlement.domino.divisor", 5),
    ("all-fives", "settlement.domino.amount", "all_hands"),
    ("all-fives", "settlement.domino.amount", "opponents_minus_own"),
    ("bergen", "settlement.domino.points", 2),
    ("all-fives", "settlement.domino.rounding.unit", 10),
    ("all-fives", "settlement.domino.rounding.per", "opponent"),
    (("all-fives", {"players.partnerships.kind": "required"}), "settlement.domino.rounding.per",
     "player"),
    ("all-fives", "settlement.domino.rounding", {"kind": "up", "unit": 5}),
    ("all-fives", "settlement.domino.rounding", {"kind": "down", "unit": 5}),
    ("all-fives", "settlement.blocked.rounding", {"kind": "none"}),
    ("all-fives", "settlement.blocked.divisor", 5),
    ("all-fives", "settlement.blocked.amount", "opponents_minus_own"),
    ("bergen", "settlement.blocked.points", 2),
    ("all-fives", "settlement.blocked.ties", "share"),
    ("all-fives", "settlement.blocked.ties", "full"),
    ("all-fives", "settlement.blocked.ties", "carry"),
    ("all-fives", "settlement.blocked.ties", {2: "nobody", 3: "not_blocker", 4: "nobody"}),
    ("all-fives", "settlement.blocked.doubles_lose", True),
    ("muggins", "settlement.blocked.rounding", {"kind": "nearest"}),
    ("muggins", "settlement.blocked.divisor", 5),
    ("sniff", "settlement.domino.rounding", {"kind": "none"}),
    ("sniff", "settlement.domino.divisor", 5),
    ("sniff", "settlement.blocked.rounding.per", "player"),
    ("sniff", "settlement.floor", 0),
    ("all-fives", "settlement.floor", -50),
    # match
    ("sniff", "match", {"kind": "hands", "count": 3}),
    ("sniff", "match.points", 300),
    ("sniff", "match.check", "immediate"),
    ("sniff", "match.check", "exact"),
    ("sniff", "match.check", "hand_winner"),
    ("bergen", "match.check", "hand_winner"),
    ("sniff", "lead.first", {"kind": "lightest_tile"}),
    ("muggins", "lead.first.if_none", "lightest_tile"),
    ("sniff", "drawing.stuck", "block"),
    ("fives-and-threes", "drawing.stuck", "block"),
    (("all-fives", {"scoring.get_in": 10}), "scoring.get_in_scope", "match"),
    ("block-2p", "match.count", 2),
    # the partnership games' options (issue 31)
    ("dominican", "deal.redeal", {"doubles": 5}),
    ("kozel", "deal.redeal.doubles", 4),
    ("kozel", "deal.redeal.suit", 5),
    ("kozel", "lead.first.tile", ["2-2", "1-1"]),
    ("partnership-block", "lead.later", {"kind": "domino_er", "after_block": {"kind": "locker"}}),
    (("all-fives", {"lead.allowed": "double"}), "lead.if_no_double", "draw"),
    ("block-2p", "layout.ends", "one"),
    ("partnership-block", "turn.after_double", {"kind": "another_double"}),
    ("partnership-block", "turn.after_double", {"kind": "extra_tile"}),
    (("partnership-block", {"turn.after_double": {"kind": "extra_tile"}}),
     "turn.after_double.repeat", False),
    ("dominican", "bonuses.capicua", {"points": 30}),
    ("dominican", "bonuses.capicua.points", 50),
    ("dominican", "bonuses.capicua.doubles", False),
    ("puerto-rico-500", "bonuses.last_tile", {"tile": "6-6", "points": 100}),
    ("puerto-rico-500", "bonuses.last_tile.points", 50),
    ("dominican", "bonuses.opening_pass", {"double": 10, "other": 20}),
    ("dominican", "bonuses.opening_pass.double", 50),
    ("dominican", "bonuses.opening_pass.other", 25),
    ("dominican", "bonuses.round_pass", 50),
    ("dominican", "bonuses.by_hand", {"points": [50]}),
    ("puerto-rico-500", "bonuses.by_hand.points", [100, 50]),
    ("puerto-rico-500", "bonuses.by_hand.tied_hands", "skip"),
    ("puerto-rico-500", "bonuses.blocked_win", 100),
    ("dominican", "settlement.blocked.against", "next"),
    ("dominican", "settlement.blocked.ties", "nobody"),
    ("dominican", "settlement.blocked.amount", "all_hands"),
    ("sniff", "lead.later.after_block", {"kind": "locker"}),
    ("partnership-block", "settlement.blocked", {"kind": "locker"}),
    ("kozel", "settlement.domino", {"kind": "nobody"}),
    ("kozel", "match", {"kind": "hands", "count": 1}),
    ("dominican", "settlement.blocked", {"kind": "locker", "amount": "flat", "points": 2}),
    ("dominican", "settlement.blocked.rounding", {"kind": "nearest", "unit": 5}),
    ("dominican", "settlement.blocked.divisor", 5),
    ("partnership-block", "settlement.blocked.compare", "player"),
    ("partnership-block", "settlement.blocked.ties", "blocker"),
    ("kozel", "settlement.domino.rounding", {"kind": "nearest", "unit": 5}),
    ("kozel", "settlement.domino.divisor", 5),
    ("kozel", "settlement.blocked", {"kind": "losers_pay", "compare": "player"}),
    ("kozel", "settlement.blocked.compare", "player"),
    ("kozel", "settlement.first_minimum", 10),
    ("kozel", "match.points", 151),
    ("partnership-block", "match", {"kind": "target", "points": 200, "void_at": 150}),
    ("latin-match", "match.void_at", 6),
    ("partnership-block", "match.games", 2),
    # train layouts (issue 35)
    ("sniff", "layout.trains", {}),
    ("mexican-train", "layout.trains.hub.top", 9),
    ("mexican-train", "layout.trains.hub.placing_ends_turn", True),
    ("mexican-train", "layout.trains.hub.tiles", 2),
    ("mexican-train", "layout.trains.personal", False),
    ("mexican-train", "layout.trains.public", 2),
    ("mexican-train", "layout.trains.public", 0),
    ("mexican-train", "layout.trains.public_needs_own", True),
    ("mexican-train", "layout.trains.marker_off", "anywhere"),
    ("mexican-train", "layout.trains.doubles.cover", 0),
    ("chicken-foot", "layout.trains.doubles.cover", 2),
    ("chicken-foot", "layout.trains.doubles.covers", "continue"),
    ("mexican-train", "layout.trains.doubles.by", "next_players"),
    ("mexican-train", "layout.trains.doubles.by", "same_player_only"),
    ("mexican-train", "layout.trains.doubles.by", "one_more_anywhere"),
    ("mexican-train", "layout.trains.doubles.release", "no_cover_left"),
    ("mexican-train", "layout.trains.hub.comes", "set_aside"),
    ("chicken-foot", "layout.trains.turn_tiles", "all_that_fit"),
    ("chicken-foot", "layout.trains.doubles.first_spinner", True),
    ("mexican-train", "settlement.domino.out_on_double", 2),
    ("mexican-train", "layout.trains.first_turn.tiles", "one"),
    ("mexican-train", "layout.trains.first_turn.may_stop", False),
    ("mexican-train", "layout.trains.first_turn.public", True),
    ("sniff", "settlement.domino", {"kind": "own_hand"}),
    ("mexican-train", "settlement.domino.double_blank", 25),
    ("mexican-train", "settlement.blocked.double_blank", None),
    ("mexican-train", "settlement.blocked.blanks", 25),
    ("mexican-train", "settlement.domino.per_marker", 10),
    ("sniff", "match", {"kind": "rounds"}),
    ("mexican-train", "match.count", 5),
    ("mexican-train", "match.lose_at", 200),
]


@BLIND
@pytest.mark.parametrize("base, path, value", MUTATIONS,
                         ids=[f"{m[0] if isinstance(m[0], str) else m[0][0]}:{m[1]}={m[2]!r}"[:80]
                              for m in MUTATIONS])
def test_changing_a_field_changes_the_text(base, path, value):
    before = _variant(base)
    data = before.model_dump()
    _set(data, path, value)
    after = spec.Variant.model_validate(data)
    assert before != after, "the mutation must change the variant"
    assert describe(before) != describe(after)


@BLIND
def test_the_mutations_cover_every_field_of_the_model():
    covered: set[tuple[str, str]] = set()
    for base, path, value in MUTATIONS:
        before = _variant(base)
        data = before.model_dump()
        _set(data, path, value)
        _covered(before, spec.Variant.model_validate(data), "Variant", "", covered)
    missing = sorted(all_fields() - covered)
    assert missing == [], f"fields no mutation changes: {missing}"


# ------------------------------------------------------------------- list


def test_list_table_names_every_builtin():
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    for name in BUILTINS:
        assert name in result.stdout
    assert "west-coast" in result.stdout and "east-coast" in result.stdout


def test_list_json():
    result = runner.invoke(app, ["list", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["name"] for r in rows] == sorted(BUILTINS)
    by_name = {r["name"]: r for r in rows}
    assert set(by_name["sniff"]) >= {"name", "aliases", "summary", "players", "spinner",
                                     "scoring", "target"}
    assert by_name["sniff"]["aliases"] == ["east-coast", "us-sniff"]
    assert by_name["sniff"]["players"] == [2, 3, 4]
    assert by_name["sniff"]["spinner"] == "first double, sniff-count, any edge"
    assert by_name["sniff"]["target"] == "250/200/200"
    assert by_name["muggins"]["spinner"] == "none"
    assert by_name["muggins"]["target"] == "200, immediate"
    assert by_name["fives-and-threes"]["scoring"] == "x5|3 -> sum of quotients"
    assert by_name["fives-and-threes"]["target"] == "61, exact"
    assert by_name["block-2p"]["target"] == "1 hand"
    assert by_name["partners"]["players"] == [4]


# ------------------------------------------------------------------- show


def test_show_yaml_is_the_resolved_file(tmp_path):
    result = runner.invoke(app, ["show", "docs/examples/house-fives.yaml", "--yaml"])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.stdout)
    assert "extends" not in data
    assert data["match"]["points"] == 150 and data["deal"]["reserve"] == 2
    assert data["scoring"]["muggins"]["kind"] == "none"
    written = tmp_path / "resolved.yaml"
    written.write_text(result.stdout, encoding="utf-8")
    again = load_variant(str(written))
    house = load_variant("docs/examples/house-fives.yaml")
    assert again.model_dump(exclude={"extends"}) == house.model_dump(exclude={"extends"})


@BLIND
@pytest.mark.parametrize("name", BUILTINS)
def test_show_yaml_round_trips_builtins(name, tmp_path):
    result = runner.invoke(app, ["show", name, "--yaml"])
    assert result.exit_code == 0, result.output
    path = tmp_path / f"{name}.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    assert load_variant(str(path)) == load_variant(name)


def test_show_a_file_that_extends():
    result = runner.invoke(app, ["show", "docs/examples/house-fives.yaml"])
    assert result.exit_code == 0, result.output
    assert "This file extends all-fives" in result.stdout
    assert "The game is played to 150 points." in result.stdout
    assert "The last 2 tiles of the boneyard are a reserve that is never drawn" in result.stdout


def test_show_unknown_name_is_a_usage_error():
    result = runner.invoke(app, ["show", "no-such-game"])
    assert result.exit_code == 2
    assert result.stderr.startswith("bones show: no-such-game")
    assert "Traceback" not in result.output


def test_show_invalid_file_is_a_problem_with_a_location(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: all-fives\ndeal:\n  hand_size: seven\n", encoding="utf-8")
    result = runner.invoke(app, ["show", str(bad)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "hand_size" in result.stderr
    assert "bad.yaml" in result.stderr


def test_show_missing_file_is_a_usage_error(tmp_path):
    result = runner.invoke(app, ["show", str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_show_usage_errors_exit_2():
    assert runner.invoke(app, ["show"]).exit_code == 2
    result = runner.invoke(app, ["show", "sniff", "--players", "5"])
    assert result.exit_code == 2
    assert "2, 3, 4" in result.stderr
    assert runner.invoke(app, ["show", "sniff", "--players", "many"]).exit_code == 2
    assert runner.invoke(app, ["list", "--bogus"]).exit_code == 2


def test_the_command_module_imports_nothing_heavy():
    import subprocess
    import sys

    code = (
        "import sys, bones.cli.variants_cmd\n"
        "heavy = [m for m in ('bones.lang.spec', 'pydantic', 'yaml', 'rich') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# ------------------------------------------- a house rule shows only its truth

AXIS_CHANGES = {
    "tiles": "tiles: {highest: 9}",
    "players": "players: {counts: [2, 3]}",
    "deal": "deal: {reserve: 2}",
    "lead": "lead: {first: {kind: highest_double}}",
    "layout": "layout: {spinner: {kind: none}}",
    "scoring": "scoring: {when: {kind: multiple_of, divisors: [3]}}",
    "drawing": "drawing: {kind: none}",
    "hand_end": "hand_end: {partners_both_out: true}",
    "settlement": "settlement: {blocked: {kind: nobody}}",
    "match": "match: {kind: hands, count: 3}",
}


def _sentences(text: str) -> set[str]:
    import re

    return {s.strip() for s in re.split(r"(?<=[.;:])\s+|\n", text) if len(s.strip()) > 12}


@BLIND
@pytest.mark.parametrize("parent", ["all-fives", "sniff", "fives-and-threes"])
@pytest.mark.parametrize("axis", sorted(AXIS_CHANGES))
def test_a_house_rule_shows_nothing_stale(parent: str, axis: str, tmp_path: Path) -> None:
    """Changing any rule axis in a child: `bones show` prints what is true of the
    child, exactly as for the same rules written out in one file, and none of
    the parent's prose (its summary and source notes describe the parent)."""
    from bones.cli.variants_cmd import resolved_yaml

    house = tmp_path / "house.yaml"
    house.write_text(f"name: house\nextends: {parent}\n{AXIS_CHANGES[axis]}\n", encoding="utf-8")
    child = load_variant(house)
    shown = describe(child)
    # the same rules, written out as a standalone file
    flat = tmp_path / "flat.yaml"
    flat.write_text(resolved_yaml(child), encoding="utf-8")
    standalone = describe(load_variant(flat))
    body = shown.split("\nSources\n")[0].splitlines()
    expected = standalone.split("\nSources\n")[0].splitlines()
    assert [line for line in body if not line.startswith("This file extends")] == expected
    original = load_variant(parent)
    stale = _sentences(original.summary)
    for source in original.sources:
        stale |= _sentences(source.supports or "")
    assert not {s for s in stale if s in shown}
    assert f"bones show {parent}" in shown.split("\nSources\n")[1]


def _on_a_terminal(args: list[str], columns: int, tmp_path: Path) -> str:
    """`bones ARGS` on a pseudo-terminal COLUMNS wide and 24 lines tall, with a
    pager that marks where it starts; returns what the screen received."""
    import os
    import pty
    import select
    import subprocess
    import sys

    pager = tmp_path / "pager.sh"
    pager.write_text("#!/bin/sh\necho '<<PAGER>>'\ncat\n", encoding="utf-8")
    pager.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("MANPAGER", "NO_COLOR")}
    env.update(COLUMNS=str(columns), LINES="24", TERM="xterm", PAGER=str(pager))
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "bones", *args], stdin=follower,
                            stdout=follower, stderr=follower, env=env, cwd=tmp_path)
    os.close(follower)
    out = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            proc.kill()
            raise AssertionError(f"bones {' '.join(args)} hung:\n{out.decode(errors='replace')}")
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the program is done
            break
        if not chunk:
            break
        out += chunk
    assert proc.wait(timeout=30) == 0, out.decode(errors="replace")
    os.close(leader)
    import re

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode()).replace("\r\n", "\n")


def _words(text: str) -> set[str]:
    return {w for w in text.split() if w.isalpha()}


@pytest.mark.parametrize("columns", [80, 200])
def test_show_at_a_terminal_wraps_at_words_and_pages(columns: int, tmp_path: Path) -> None:
    """At a terminal `bones show` fits the lines to its width without breaking a
    word, and (taller than the screen) goes through the pager; in a pipe the
    text is printed as is."""
    text = describe(load_variant("all-fives"))
    screen = _on_a_terminal(["show", "all-fives"], columns, tmp_path)
    assert screen.lstrip().startswith("<<PAGER>>")
    body = screen.split("<<PAGER>>", 1)[1]
    assert all(len(line) <= columns for line in body.splitlines())
    assert _words(body) == _words(text)  # every word whole, none split by a line end
    piped = runner.invoke(app, ["show", "all-fives"], env={"COLUMNS": "80"})
    assert piped.stdout == text


@pytest.mark.parametrize("columns", [80, 200])
def test_list_at_a_terminal_never_breaks_a_name(columns: int, tmp_path: Path) -> None:
    """`bones list` on a narrow or a wide terminal, and in a pipe: every variant
    name and alias (what the user types next) is printed whole on one line."""
    rows = json.loads(runner.invoke(app, ["list", "--json"]).stdout)
    names = [r["name"] for r in rows] + [a for r in rows for a in r["aliases"]]
    screens = [_on_a_terminal(["list"], columns, tmp_path),
               runner.invoke(app, ["list"], env={"COLUMNS": str(columns)}).stdout]
    for screen in screens:
        assert all(len(line) <= max(columns, 160) for line in screen.splitlines())
        assert "…" not in screen
        words = {w.strip("│,() ") for line in screen.splitlines() for w in line.split()}
        assert set(names) <= words, sorted(set(names) - words)
    assert all(len(line) <= columns for line in screens[0].splitlines())
