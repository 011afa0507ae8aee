"""Properties of every built-in variant at every table it allows, over random games.

Hypothesis picks the seed and the policy's choices; every move of every hand
is then checked against invariants the rules imply (docs/rules.md decisions 1, 9,
10, 11, 12): tiles are conserved, legal moves are well formed and complete,
the incremental count equals a recount, points follow the predicate, scores
move only by play points and settlement, hands and matches end.  A train
layout's round (docs/trains.md) is checked against its own rules: every play
goes where the rules allow (the hub while it takes tiles, the double its
layer must cover, an open train that is the mover's, public or marked), no
play scores, each round charges every hand its own value and the match is
one round per hub double, the lowest total winning.

The ``ci`` profile (tests/conftest.py) keeps this file well under a minute;
``HYPOTHESIS_PROFILE=dev`` runs many more games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bones.engine.hand import (
    BLOCKED,
    DOMINO,
    DRAW,
    PASS,
    PLAYING,
    TARGET,
    Hand,
    IllegalMoveError,
)
from bones.engine.match import MAX_HANDS, Match
from bones.engine.moves import ARM_MASK, ARM_SHIFT, FOOT_ARM, HUB_ARM
from bones.engine.rules import (
    AFTER_ANOTHER_DOUBLE,
    CHECK_EXACT,
    CHECK_HAND_WINNER,
    CHECK_IMMEDIATE,
    CHECK_PENALTY,
    MUGGINS_OFF,
    MUGGINS_TRANSFER,
    OVER_CLAIM_CALLER,
    OVER_CLAIM_CLAIMER,
    Rules,
)
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant

# the Python reference alone plays these (no core is asked): the same in both
# passes of .ci/run, so they run in one, the Python-core pass's
pytestmark = pytest.mark.core_blind


@dataclass(frozen=True, eq=False)
class Table:
    name: str
    players: int
    teams: bool | None
    overrides: tuple = ()

    def __str__(self) -> str:
        extra = "-teams" if self.teams else ""
        return f"{self.name}-{self.players}{extra}{'-' + self.overrides[0][0] if self.overrides else ''}"


def _tables() -> list[Table]:
    out = []
    for name in builtin_names():
        variant = load_variant(name)
        part = variant.players.partnerships
        for players in variant.players.counts:
            choices: list[bool | None] = [None]
            if part.kind == "optional" and players in part.player_counts:
                choices = [False, True]
            out.extend(Table(name, players, teams) for teams in choices)
    return out


# Rule axes no built-in uses, played through a built-in with overrides, so
# the same invariants cover them: muggins claims, get-in, knocks, exact and
# immediate targets with drawing, limited drawing with optional play.
_EXTRA = [
    Table("muggins", 3, None, (("muggins-on", {"scoring": {"muggins": {
        "kind": "transfer", "penalise_over_claim": True}}}),)),
    Table("all-fives", 2, None, (("muggins-forfeit", {"scoring": {"muggins": {
        "kind": "forfeit"}}}),)),
    Table("all-fives", 4, True, (("get-in", {"scoring": {"get_in": 10}}),)),
    Table("fives-and-threes", 3, None, (("knock", {"drawing": {"kind": "none", "knock_bonus": 1}}),)),
    Table("sniff", 3, None, (("immediate", {"match": {"kind": "target", "points": 100,
                                                        "check": "immediate"}}),)),
    Table("five-up", 2, None, (("limited", {"drawing": {
        "kind": "limited", "max_per_turn": 2, "must_play_drawn": False,
        "draw_while_able": True}, "deal": {"reserve": 2}}),)),
    Table("all-fives", 3, None, (("exact", {"match": {"kind": "target", "points": 100,
                                                       "check": "exact"}}),)),
]

TABLES = _tables() + _EXTRA
_RULES: dict[str, Rules] = {}


def rules_for(table: Table) -> Rules:
    key = str(table)
    if key not in _RULES:
        overrides = table.overrides[0][1] if table.overrides else None
        variant = load_variant(table.name, overrides=overrides) if overrides else load_variant(table.name)
        _RULES[key] = compile_rules(variant, table.players, table.teams)
    return _RULES[key]


# ------------------------------------------------------------- checkers


def check_tiles_conserved(hand: Hand) -> None:
    ts = hand.rules.tiles
    parts = [*hand.hands, hand.on_table, hand.out_of_play]
    parts.append(ts.mask_of(hand.boneyard[hand.bone_pos:]))
    union = 0
    for part in parts:
        assert not union & part, f"a tile is in two places: {ts.name_mask(union & part)}"
        union |= part
    assert union == ts.full, f"tiles lost: {ts.name_mask(ts.full & ~union)}"


def check_legal_moves(hand: Hand, legal: list[int]) -> None:
    """Legal moves are well formed and nothing playable is missing."""
    rules, ts = hand.rules, hand.rules.tiles
    mine = hand.hands[hand.turn]
    assert legal, "a hand in play with no legal move"
    assert len(set(legal)) == len(legal), "a legal move listed twice"
    plays = [m for m in legal if m >= 0]
    for m in plays:
        tile = m >> 7
        assert mine >> tile & 1, f"{ts.names[tile]} is not in the mover's hand"
        if hand.placed:
            pip = hand.arm_open[(m >> 1) & 63]
            assert pip >= 0 and ts.other_half[tile][pip] >= 0, "tile does not match its arm"
    if hand.extra >= 0:
        # an optional extra play after a double: the allowed plays, and the
        # pass that declines them (turn.after_double)
        assert legal[-1] == PASS and PASS not in legal[:-1] and DRAW not in legal
        doubles_only = rules.after_double == AFTER_ANOTHER_DOUBLE
        expected = {(t << 7 | a << 1) for a, pip in hand.open_ends().items()
                    if not (doubles_only and a == hand.extra)
                    for t in ts.tiles_of(mine & ts.matching[pip])
                    if not doubles_only or ts.is_double[t]}
        assert set(plays) == expected and expected, "the extra plays differ from the rule"
        return
    can_draw = hand.drawable > 0 and hand.drawn_turn < rules.max_draws
    if DRAW in legal:
        assert can_draw, "draw offered with nothing to draw"
    if hand.placed:
        expected = {(t << 7 | a << 1) for a, pip in hand.open_ends().items()
                    for t in ts.tiles_of(mine & ts.matching[pip])}
        assert set(plays) == expected, "legal plays differ from the open ends"
        if not plays:
            assert legal == ([DRAW] if can_draw else [PASS]), "a blocked player must draw or pass"
        else:
            # decision 10: a voluntary draw only where the variant allows it
            assert (DRAW in legal) == (can_draw and rules.draw_while_able)
            assert (PASS in legal) == bool(hand.drawn_turn and not rules.must_play_drawn)
    elif hand.lead_tile < 0:
        allowed = mine & ts.doubles if hand.lead_doubles_only else mine
        assert {m >> 7 for m in plays} == set(ts.tiles_of(allowed))


def expected_points(hand: Hand, is_lead: bool, got_in: bool) -> int | None:
    """The true points of the play just made (before claims and knocks), or None if unknown."""
    rules = hand.rules
    if rules.header_points is not None or not rules.scores_plays:
        return None
    base = rules.count_points[hand.count]
    if hand.count <= 0:
        assert base == 0, "a count of 0 scored (decision 1)"
    if not got_in and base < rules.get_in:
        base = 0
    if is_lead and not rules.win_on_lead:
        return None
    return base


def move_gains(rules: Rules, seat: int, true: int, claim: int | None,
               knocks: int) -> list[int]:
    """What a play hands out to each owner (decision 11 for claims)."""
    gains = [0] * rules.owners
    owner = rules.owner[seat]
    if claim is None or rules.muggins == MUGGINS_OFF or claim == true:
        gains[owner] += true
    else:
        caller = rules.owner[rules.next_opponent(seat)]
        if claim < true:
            gains[owner] += max(claim, 0)
            if rules.muggins == MUGGINS_TRANSFER:
                gains[caller] += true - max(claim, 0)
        else:
            # an over-claim: the penalty, and the true points where the rules give them
            if rules.penalise_over_claim:
                gains[caller] += claim
            if true and rules.over_claim_points == OVER_CLAIM_CALLER:
                gains[caller] += true
            elif true and rules.over_claim_points == OVER_CLAIM_CLAIMER:
                gains[owner] += true
    gains[owner] += knocks * rules.knock_bonus
    return gains


def pass_gains(hand: Hand, seat: int) -> list[int]:
    """What a pass hands out (the pass bonuses), from the hand before it."""
    rules = hand.rules
    gains = [0] * rules.owners
    if hand.extra >= 0:
        return gains  # declining an extra play: no knock, no bonus
    ts = rules.tiles
    if hand.placed == 1 and hand.passes == 0 and seat == (hand.leader + 1) % rules.players:
        lead = ts.tiles_of(hand.on_table)[0]
        gains[rules.owner[hand.leader]] += (rules.opening_pass_double if ts.is_double[lead]
                                            else rules.opening_pass_other)
    if rules.round_pass and hand.last_player >= 0 and hand.passes + 1 == rules.players - 1:
        gains[rules.owner[hand.last_player]] += rules.round_pass
    return gains


def play_checked(hand: Hand, move: int, claim: int | None) -> list[int]:
    """Apply one move through the checked path, verify it, return its gains by owner."""
    rules = hand.rules
    seat = hand.turn
    owner = rules.owner[seat]
    before = list(hand.scores)
    knocks = hand.passes
    passed = pass_gains(hand, seat) if move == PASS else [0] * rules.owners
    is_lead = not hand.placed
    got_in = hand.got_in[owner]
    fast = hand.copy()
    fast.apply(move, claim)
    unclaimed = hand.copy()
    unclaimed.apply(move, None)
    hand.play(move, claim)
    # the unchecked path does exactly what the checked one does
    assert (fast.count, fast.hands, fast.scores, fast.state, fast.turn) == (
        hand.count, hand.hands, hand.scores, hand.state, hand.turn)
    assert hand.log[-1][:2] == (seat, move)
    check_tiles_conserved(hand)
    assert hand.count == hand.recount(), "incremental count differs from the recount"
    if move < 0:
        assert hand.last_points == 0
        if hand.state == PLAYING and rules.check != CHECK_EXACT and rules.floor is None:
            assert [a - b for a, b in zip(hand.scores, before)] == passed, (
                "a draw or pass changed the scores by more than its bonuses")
        return passed
    true = expected_points(hand, is_lead, got_in)
    if true is None:  # matching ends (Bergen) or a lead barred from winning
        # what the play is worth with no claim made: what a claim is judged against
        true = unclaimed.last_points - knocks * rules.knock_bonus
        assert true >= 0
    gains = move_gains(rules, seat, true, claim, knocks)
    assert hand.last_points == gains[owner], (
        f"count {hand.count} gave the mover {hand.last_points}, expected {gains[owner]}")
    if hand.state == PLAYING or hand.state == TARGET:
        delta = [a - b for a, b in zip(hand.scores, before)]
        if rules.check == CHECK_EXACT:
            # a move's gain for one side that would pass the target is
            # ignored whole (decision 9): the play and its knock bonus alike
            for o, d in enumerate(delta):
                assert d == gains[o] or (d == 0 and before[o] + gains[o] > rules.target)
                assert hand.scores[o] <= rules.target
        elif hand.state == PLAYING:
            assert delta == gains, f"scores moved by {delta}, the play gave {gains}"
        if hand.state == TARGET:
            assert rules.check in (CHECK_IMMEDIATE, CHECK_EXACT)
            assert hand.game_over and max(hand.scores) >= rules.target
    return gains


def choose(hand: Hand, rng: random.Random, greed: float) -> int:
    legal = hand.legal_moves()
    check_legal_moves(hand, legal)
    if rng.random() >= greed or len(legal) == 1:
        return rng.choice(legal)
    owner = hand.rules.owner[hand.turn]
    best, best_score = legal[0], None
    for move in rng.sample(legal, len(legal)):
        trial = hand.copy()
        trial.apply(move)
        if best_score is None or trial.scores[owner] > best_score:
            best, best_score = move, trial.scores[owner]
    return best


def claim_for(hand: Hand, move: int, rng: random.Random) -> int | None:
    if hand.rules.muggins == MUGGINS_OFF or move < 0:
        return None
    trial = hand.copy()
    trial.apply(move)
    true = trial.last_points
    if not true:
        # a claim on a play worth nothing is an over-claim
        return rng.choice([None, None, None, 5])
    return rng.choice([None, true, 0, max(true - 5, 0), true + 5])


def check_train_legal_moves(hand, legal: list[int]) -> None:
    """A train layout's legal moves are well formed and go where the rules allow."""
    rules, ts = hand.rules, hand.rules.tiles
    trains = rules.trains
    seat = hand.turn
    mine = hand.hands[seat]
    assert legal, "a round in play with no legal move"
    assert len(set(legal)) == len(legal), "a legal move listed twice"
    plays = [m for m in legal if m >= 0]
    if not hand.placed:
        assert legal == plays and len(plays) == 1 and plays[0] >> 7 == hand.lead_tile, (
            "the round opens with its hub double, placed by its holder")
        return
    first_turn = not hand.first_done[seat]
    for m in plays:
        tile, arm = m >> 7, (m >> ARM_SHIFT) & ARM_MASK
        assert mine >> tile & 1, f"{ts.names[tile]} is not in the mover's hand"
        if hand.hub_left:
            assert arm == HUB_ARM, "a play elsewhere while the hub is owed tiles"
        if arm == HUB_ARM:
            assert hand.hub_left and ts.other_half[tile][hand.hub_number] >= 0
            continue
        if arm == FOOT_ARM:
            owed = hand.binding()
            assert owed is not None and owed[0] < 0, "a toe with no foot owed"
            assert ts.other_half[tile][owed[1]] >= 0
            continue
        pip = hand.arm_open[arm]
        assert pip >= 0 and ts.other_half[tile][pip] >= 0, "tile does not match its train"
        if hand.must_cover >= 0:
            assert arm == hand.must_cover, "the layer of a double must cover it first"
        owner = hand.arm_owner[arm]
        if first_turn:
            assert owner == seat or (owner == -1 and trains.public_in_first_turn), (
                "a first turn of many tiles builds one's own train")
        elif owner >= 0 and owner != seat and hand.binding() is None:
            assert hand.marked[owner], "a play on another player's unmarked train"
    if DRAW in legal:
        assert not plays and hand.drawable and hand.drawn_turn < rules.max_draws


def play_train_hand(match: Match, rng: random.Random, greed: float) -> None:
    """A train layout's round, every move checked (no play scores; the round
    charges every hand its own value)."""
    hand = match.new_hand()
    rules = match.rules
    trains = rules.trains
    start = list(match.scores)
    assert rules.tiles.low[hand.lead_tile] == trains.hub_pip(len(match.history) + 1), (
        "round r's hub is the double top - (r - 1)")
    bound = 4 * (rules.tiles.size + len(hand.boneyard)) * rules.players
    moves = 0
    while not hand.over:
        legal = hand.legal_moves()
        check_train_legal_moves(hand, legal)
        move = rng.choice(legal)
        seat = hand.turn
        hand.play(move)
        assert hand.log[-1] == (seat, move, 0) and hand.last_points == 0, "a play scored"
        check_tiles_conserved(hand)
        if not hand.over:
            assert hand.scores == start, "the scores moved during a round"
        moves += 1
        assert moves <= bound, "the round does not end"
    assert hand.state in (DOMINO, BLOCKED) and not hand.legal_moves()
    charges = [hand.pips_left(s) + (trains.marker_penalty if hand.marked[s] else 0)
               for s in range(rules.players)]
    if hand.state == DOMINO:
        assert not hand.hands[hand.domino_seat]
        charges[hand.domino_seat] = 0
    else:
        assert hand.drawable == 0, "blocked with tiles left to draw"
    assert hand.settlement == charges
    assert [a - b for a, b in zip(hand.scores, start)] == charges
    summary = match.finish_hand(hand)
    assert summary.scores == match.scores


def play_hand(match: Match, rng: random.Random, greed: float) -> None:
    if match.rules.trains is not None:
        play_train_hand(match, rng, greed)
        return
    hand = match.new_hand()
    rules = match.rules
    start = list(match.scores)
    if rules.get_in_match:
        # once in, in for the match (get_in_scope: match)
        assert hand.got_in == (match.got_in or [False] * rules.owners)
    else:
        assert hand.got_in == [rules.get_in == 0] * rules.owners
    gains = [0] * rules.owners
    bound = (rules.tiles.size + len(hand.boneyard)) * rules.players
    passes_in_a_row = 0
    moves = 0
    while not hand.over:
        legal = hand.legal_moves()
        if legal == [PASS] and hand.placed:
            # a pass is asked only where the hand is not blocked (decision 12:
            # no further passes), and never of a stuck player under stuck: block
            assert (hand.drawable and rules.max_draws) or any(
                hand.hands[s] & hand.open_tiles() for s in range(rules.players)), (
                "a pass asked in a blocked hand")
            if rules.stuck_blocks:
                assert hand.hands[hand.turn] & hand.open_tiles(), "a stuck player asked to pass"
        move = choose(hand, rng, greed)
        claim = claim_for(hand, move, rng)
        declined = hand.extra >= 0 and move == PASS  # no knock: the turn just ends
        for o, g in enumerate(play_checked(hand, move, claim)):
            gains[o] += g
        if not declined:
            passes_in_a_row = passes_in_a_row + 1 if move == PASS else 0
        # a full round of passes means nobody can play: the hand is blocked
        # (one more where a player may pass holding the tile just drawn)
        assert passes_in_a_row < rules.players + (not rules.must_play_drawn), (
            "a full round of passes without a block")
        moves += 1
        assert moves <= bound, "the hand does not end"
    assert hand.log and not hand.legal_moves()
    if hand.state in (DOMINO, BLOCKED):
        assert hand.settlement is not None and len(hand.settlement) == rules.owners
        if hand.state == DOMINO:
            assert not hand.hands[hand.domino_seat]
            if rules.partners_both_out:
                # every member of the domino-er's team is out (seats alternate)
                team = table_teams(rules.players)[hand.domino_seat]
                assert not any(hand.hands[s] for s, t in enumerate(table_teams(rules.players))
                               if t == team)
        elif rules.stuck_blocks and hand.hands[hand.turn] & hand.open_tiles() == 0 and (
                hand.drawable == 0 or hand.drawn_turn >= rules.max_draws):
            pass  # the player to move was stuck: neither a play nor a draw
        else:
            assert not any(hand.hands[s] & hand.open_tiles()
                           for s in range(rules.players) if not hand.out[s])
            assert hand.drawable == 0 or rules.max_draws == 0
        if rules.check == CHECK_HAND_WINNER and hand.game_over:
            # only the hand's winner, at the target, ends the match
            assert hand.scores[hand.winner] >= rules.target
            if hand.state == DOMINO:
                assert hand.winner == rules.owner[hand.domino_seat]
        if rules.check != CHECK_EXACT and rules.floor is None and hand.state != TARGET:
            # scores move only by play points (and claims, knocks) and settlement
            for o in range(rules.owners):
                assert hand.scores[o] - start[o] == gains[o] + hand.settlement[o], (
                    f"owner {o}: {start[o]} -> {hand.scores[o]}, gains {gains[o]}, "
                    f"settlement {hand.settlement[o]}")
        if rules.floor is not None:
            assert min(hand.scores) >= rules.floor
    if rules.check == CHECK_EXACT:
        assert max(hand.scores) <= rules.target
    summary = match.finish_hand(hand)
    if summary.game_won >= 0 and not match.game_over:
        # one game of several won (match.games): every score starts again
        assert match.scores == [0] * rules.owners and rules.games > 1
    else:
        assert summary.scores == match.scores
    if rules.get_in_match:
        assert match.got_in == hand.got_in


def play_match(table: Table, seed: int, rng: random.Random, greed: float, max_hands: int) -> Match:
    match = Match(rules_for(table), seed=seed)
    while not match.game_over and len(match.history) < max_hands:
        play_hand(match, rng, greed)
    return match


# --------------------------------------------------------------- tests


@pytest.mark.parametrize("table", TABLES, ids=str)
@given(seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_invariants_hold_on_random_play(table, seed, policy):
    # random play, a few hands of a match: every move is checked
    play_match(table, seed, random.Random(policy), greed=0.0, max_hands=3)


@pytest.mark.parametrize("table", TABLES, ids=str)
@given(seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_every_match_ends(table, seed, policy):
    # mostly greedy play (purely random Sniff partnerships can sink below zero
    # for hundreds of hands, which is the game, not a bug)
    match = play_match(table, seed, random.Random(policy), greed=0.8, max_hands=MAX_HANDS)
    assert match.game_over
    assert len(match.history) < MAX_HANDS, "the MAX_HANDS guard ended the match"
    rules = match.rules
    if rules.trains is not None:
        # one round per hub double, unless a losing total ends it sooner; the lowest wins
        lose_at = rules.trains.lose_at
        assert len(match.history) == rules.trains.rounds or (
            lose_at and max(match.scores) >= lose_at)
        low = min(match.scores)
        lowest = [o for o, v in enumerate(match.scores) if v == low]
        assert match.winner == (lowest[0] if len(lowest) == 1 else -1)
    elif rules.hands_in_match:
        assert len(match.history) == rules.hands_in_match
    elif rules.check == CHECK_PENALTY:
        # penalties: a side reached the losing score, the lowest won
        assert max(match.scores) >= rules.target
        if match.winner >= 0:
            assert match.scores[match.winner] == min(match.scores)
    else:
        top = max(match.scores)
        if match.winner >= 0:
            assert match.scores[match.winner] == top
            assert top >= rules.target
            if rules.check == CHECK_EXACT:
                assert top == rules.target
        elif rules.void_at:
            assert min(match.scores) >= rules.void_at or top >= rules.target


def test_every_builtin_is_covered():
    assert {t.name for t in TABLES} == set(builtin_names())


def test_checked_play_leaves_state_unchanged_on_illegal_moves():
    rng = random.Random(5)
    for table in TABLES[:: max(1, len(TABLES) // 8)]:
        match = Match(rules_for(table), seed=11)
        hand = match.new_hand()
        ts = hand.rules.tiles
        for _ in range(6):
            if hand.over:
                break
            legal = set(hand.legal_moves())
            arms = max(len(hand.arm_open), 1)
            for code in [t << 7 | a << 1 for t in range(ts.size) for a in range(arms)] + [DRAW, PASS]:
                if code in legal or (not hand.placed and code | 1 in legal):
                    continue
                state = (hand.count, list(hand.hands), hand.turn, list(hand.scores), len(hand.log))
                with pytest.raises(IllegalMoveError):
                    hand.play(code)
                assert state == (hand.count, list(hand.hands), hand.turn, list(hand.scores),
                                 len(hand.log))
            hand.play(rng.choice(sorted(legal)))


# ------------------------------------------------- partnerships of any size


def table_teams(players: int) -> list[str]:
    """The oracle of the seating (docs/language.md): walking round the
    table, the seats belong to team A, B, A, B, ...; one name per seat."""
    teams = []
    current = "A"
    for _ in range(players):
        teams.append(current)
        current = "B" if current == "A" else "A"
    return teams


def _big_table(players: int) -> Rules:
    variant = load_variant("fives-and-threes", overrides={
        "tiles": {"highest": 9},
        "players": {"counts": [4, 6, 8],
                    "partnerships": {"kind": "required", "player_counts": [4, 6, 8]}},
        "deal": {"hand_size": 5},
        "settlement": {"domino": {"kind": "domino_er", "amount": "opponents"},
                       "blocked": {"kind": "lightest", "amount": "opponents"}},
        "match": {"kind": "hands", "count": 1},
    })
    return compile_rules(variant, players, True)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_partnerships_of_any_size_follow_the_seating(players: int) -> None:
    rules = _big_table(players)
    teams = table_teams(players)
    names = sorted(set(teams))
    # the scores are per team, and each seat scores for its own team
    assert rules.owners == 2
    assert [names[rules.owner[s]] for s in range(players)] == teams
    for seat in range(players):
        assert {s for s in rules.mates[seat]} == {
            s for s in range(players) if s != seat and teams[s] == teams[seat]}
    rng = random.Random(players)
    endings = {DOMINO: 0, BLOCKED: 0}
    for seed in range(150):
        match = Match(rules, seed=seed)
        hand = match.new_hand()
        while not hand.over:
            # a seat that is out never gets the turn
            assert hand.hands[hand.turn], "a player who is out was given the turn"
            legal = hand.legal_moves()
            hand.apply(legal[0] if len(legal) == 1 else rng.choice(legal))
            if not hand.over:
                # the hand goes on while each team has a member holding tiles
                for team in names:
                    assert any(hand.hands[s] for s in range(players) if teams[s] == team)
        endings[hand.state] += 1
        pooled = {t: sum(hand.pips_left(s) for s in range(players) if teams[s] == t)
                  for t in names}
        if hand.state == DOMINO:
            winner = teams[hand.domino_seat]
            loser = "B" if winner == "A" else "A"
            # every member of the team is out; some opponent is not
            assert pooled[winner] == 0
            assert any(hand.hands[s] for s in range(players) if teams[s] == loser)
            expected = {winner: pooled[loser], loser: 0}
        else:
            light = min(pooled, key=lambda t: pooled[t])
            heavy = max(pooled, key=lambda t: pooled[t])
            expected = ({light: pooled[heavy], heavy: 0} if pooled[light] != pooled[heavy]
                        else {"A": 0, "B": 0})
        assert hand.settlement == [expected[t] for t in names]
    assert endings[DOMINO] > 10
