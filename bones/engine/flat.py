"""A compiled :class:`~bones.engine.rules.Rules` flattened into plain ints.

The native core (the ``bones_native`` extension, built from ``native/``)
does not read pydantic models, closures or Python tuples: it receives the
table this module makes once per run, a dict of ints and lists of ints, and
interprets it.  Nothing here is variant-specific: every rule the compiler
turned into a code is passed on as that code.

:data:`TABLE_FORMAT` describes the table, field by field, and
:data:`FORMAT_VERSION` is a hash of that description.  The extension carries
the version it was built for (``bones_native.TABLE_FORMAT``): when they
differ (an editable checkout pulled without rebuilding the extension),
:mod:`bones.engine.core` says how to rebuild and runs the Python core.

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> table = flatten(compile_rules(load_variant("sniff"), 2))
>>> table["players"], table["highest"], table["spinner_mult"]
(2, 6, [2, 2, 2, 1, 0])
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.rules import LeadRule, Rules
    from bones.engine.settle import Settle

# (the variant model is read by class name: checking the format version,
# as every start-up does, must not import pydantic)

#: Every field of the flat table, in order, with its meaning.  Changing the
#: table (a field, a code, a meaning) means changing this text, which changes
#: :data:`FORMAT_VERSION`; the Rust side must be updated to match (see
#: ``native/src/kernel/format.rs``; a test checks the two agree).
TABLE_FORMAT = """\
players: int; owners: int; teams: 0|1; owner: [owner per seat]; a seat's mates: the other seats of its owner
  opponent_after: [per seat, the next seat in turn not on its side: the muggins caller]
highest: int (tile ids in the order of bones.engine.tiles); hand_size; reserve
order: ORDER_*; plain_arms: 0|1 (no arm ever frozen); spinner_mult: [5]; double_weight
  the spinner kind is not passed: its facts are, compiled once (rules.py)
  spins_led: 0|1 (a led double spins); spins_later: [before, after] (a later double
  spins, while no double has been played | after one has); cross_stubs: 0|1 (the in-line
  sniff's cross ends are stubs, its hub never spins); lead_double_mult: [5] (a led double's hub)
  max_arms: the most arms a layout can have (2 + 2 per double that may spin)
scores_plays: 0|1; count_points: [points by count]; headers: 0|1; header_points: [by weight]
when: 0 none|1 multiple_of|2 in_list|3 matching_ends; when_values: [divisors or counts]
points: 0 count|1 divided|2 sum_of_quotients|3 per_divisor|4 flat; points_param
get_in; get_in_match: 0|1 (who is in carries through the match; Hand takes got_in)
lead_cannot_win: 0|1 (a lead reaching the target scores nothing); muggins: MUGGINS_*
  penalise_over_claim: 0|1
  over_claim_points: 0 lost|1 caller|2 claimer
drawing: DRAW_*; max_draws (1<<30 unlimited); must_play_drawn; draw_while_able; knock_bonus
  stuck_blocks: 0|1 (the player to move who can neither play nor draw ends the hand, blocked)
  a failed draw of the last drawable tile blocks the hand when nobody can play
partners_both_out: 0|1; floor_set: 0|1; floor; check: CHECK_*; target; hands_in_match
  check 0 none|1 hand_end|2 immediate|3 exact|4 hand_winner (settle.hand_winners)
settle_domino, settle_blocked: [kind, amount, flat, unit, per, divisor, ties, doubles_lose, mode]
  kind 0 nobody|1 own_penalty|2 each_heavier|3 domino_er|4 lightest
  amount 0 opponents|1 opponents_minus_own|2 all_hands|3 flat
  ties 0 nobody|1 share|2 not_blocker|3 full|4 carry
  carry: a hand's pot (Hand.pot) comes in, is paid to its winner, and grows by a tie
  per 0 aggregate|1 opponent|2 player (player rounds each seat's pips apart: opponents amount, own_penalty)
  mode 0 nearest|1 up|2 down
moves: tile << 7 | arm << 1 | flip; DRAW -1; PASS -2; ends PLAYING 0 DOMINO 1 BLOCKED 2 TARGET 3
match (read by whole simulations): lead_first, lead_again: [kind LEAD_*, arg, if_none NONE_*]
  kind 6 lightest_tile; if_none 6 lightest_tile (fewest pips, then the lower high half)
  lead_later: LATER_*; lead_doubles_only: 0|1; boneyard_unread: 0|1 (deal by shuffle_tail)
stepwise hand: Hand.fields(seat) gives hand.FIELDS but rules, scores, voids, in order (HAND_FIELDS)
"""

FORMAT_VERSION = hashlib.sha256(TABLE_FORMAT.encode()).hexdigest()[:16]

_POINTS_KINDS = {
    "CountPoints": 0,
    "DividedPoints": 1,
    "SumOfQuotients": 2,
    "PerDivisor": 3,
    "FlatPoints": 4,
}
_WHEN_KINDS = {"NoPredicate": 0, "MultipleOf": 1, "InList": 2, "MatchingEnds": 3}


class Unsupported(ValueError):
    """A rule the flat table (and so the native core) cannot express yet."""


def _settlement(rule: Settle) -> list[int]:
    """A compiled :class:`~bones.engine.settle.Settle` as its codes."""
    return [rule.kind, rule.amount, rule.flat, rule.unit, rule.per, rule.divisor,
            rule.ties, int(rule.doubles_lose), rule.mode]


def _lead(rule: LeadRule) -> list[int]:
    return [rule.kind, rule.arg, rule.if_none]


def flatten(rules: Rules) -> dict[str, Any]:
    """The flat table of ``rules`` (raises :class:`Unsupported`)."""
    variant = rules.variant
    scoring = variant.scoring
    when = scoring.when
    when_code = _WHEN_KINDS.get(type(when).__name__)
    if when_code is None:  # pragma: no cover - a predicate added to the language later
        raise Unsupported(f"scoring predicate {type(when).__name__}")
    when_values = list(getattr(when, "divisors", None) or getattr(when, "counts", None) or ())
    points = scoring.points
    points_code = _POINTS_KINDS.get(type(points).__name__)
    if points_code is None:  # pragma: no cover
        raise Unsupported(f"points form {type(points).__name__}")
    points_param = getattr(points, "by", getattr(points, "amount", 0))
    return {
        "format": FORMAT_VERSION,
        "players": rules.players,
        "owners": rules.owners,
        "teams": int(rules.teams),
        "owner": list(rules.owner),
        "opponent_after": list(rules.opponent_after),
        "highest": rules.tiles.highest,
        "hand_size": rules.hand_size,
        "reserve": rules.reserve,
        "order": rules.order,
        "plain_arms": int(rules.plain_arms),
        "spinner_mult": list(rules.spinner_mult),
        "double_weight": rules.double_weight,
        "spins_led": int(rules.spins_led),
        "spins_later": [int(s) for s in rules.spins_later],
        "cross_stubs": int(rules.cross_stubs),
        "lead_double_mult": list(rules.lead_double_mult),
        "max_arms": rules.max_arms,
        "scores_plays": int(rules.scores_plays),
        "count_points": list(rules.count_points),
        "headers": int(rules.headers),
        "header_points": list(rules.header_points or ()),
        "when": when_code,
        "when_values": when_values,
        "points": points_code,
        "points_param": int(points_param),
        "get_in": rules.get_in,
        "get_in_match": int(rules.get_in_match),
        "lead_cannot_win": int(rules.lead_cannot_win),
        "muggins": rules.muggins,
        "penalise_over_claim": int(rules.penalise_over_claim),
        "over_claim_points": rules.over_claim_points,
        "drawing": rules.drawing,
        "max_draws": rules.max_draws,
        "must_play_drawn": int(rules.must_play_drawn),
        "draw_while_able": int(rules.draw_while_able),
        "knock_bonus": rules.knock_bonus,
        "stuck_blocks": int(rules.stuck_blocks),
        "partners_both_out": int(rules.partners_both_out),
        "floor_set": int(rules.floor is not None),
        "floor": rules.floor or 0,
        "check": rules.check,
        "target": rules.target,
        "hands_in_match": rules.hands_in_match,
        "settle_domino": _settlement(rules.settle_domino),
        "settle_blocked": _settlement(rules.settle_blocked),
        "lead_first": _lead(rules.lead_first),
        "lead_later": rules.lead_later,
        "lead_again": _lead(rules.lead_again),
        "lead_doubles_only": int(rules.lead_doubles_only),
        "boneyard_unread": int(rules.boneyard_unread),
    }


__all__ = ["FORMAT_VERSION", "TABLE_FORMAT", "Unsupported", "flatten"]
