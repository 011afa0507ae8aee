"""The variant file's schema: pydantic models that are its source of truth.

A variant file is read by :mod:`bones.lang.load` into a :class:`Variant`.  Every
rule axis is either a discriminated union chosen by ``kind:`` or a small typed
field; nothing here is a free string that the engine interprets later.  Type
checks live in the models; checks that relate several fields (hands that fit
in the set, a predicate that some count can meet...) live in
:func:`semantic_problems`, which names the key path of each problem so the
loader can point at its line and column.

The engine never reads these models while playing: :mod:`bones.engine.rules`
compiles a validated variant into immutable tables once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import gcd
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from bones.engine.bounds import NUMBER_LIMIT, bound_message
from bones.engine.rules import (
    POINTS_COUNT,
    POINTS_DIVIDED,
    POINTS_FLAT,
    POINTS_PER_DIVISOR,
    POINTS_SUM_OF_QUOTIENTS,
    WHEN_IN_LIST,
    WHEN_MATCHING_ENDS,
    WHEN_MULTIPLE_OF,
    WHEN_NONE,
    count_points_of,
)
from bones.engine.tiles import TileError, parse_halves

T = TypeVar("T")

TILE_PATTERN = r"^\s*\d{1,2}\s*-\s*\d{1,2}\s*$"
NAME_PATTERN = r"^[a-z0-9][a-z0-9-]*$"

#: What each text pattern of these models means, for messages:
#: ``{pattern: (headline, what was expected)}``.
FORMS: dict[str, tuple[str, str]] = {
    TILE_PATTERN: ("not a tile", "two numbers like 6-6 or 3-2"),
    NAME_PATTERN: ("not a valid name", "lower-case letters, digits and hyphens, like all-fives"),
}

TileText = Annotated[
    str,
    StringConstraints(pattern=TILE_PATTERN),
    Field(description="A tile written as two numbers, like 6-6 or 3-2."),
]
PlayerCount = Annotated[int, Field(ge=2, le=10)]
Name = Annotated[
    str,
    StringConstraints(pattern=NAME_PATTERN, max_length=60),
    Field(description="Lower-case letters, digits and hyphens, like all-fives."),
]

PositiveCount = Union[
    Annotated[int, Field(gt=0)],
    dict[PlayerCount, Annotated[int, Field(gt=0)]],
]
NonNegativeCount = Union[
    Annotated[int, Field(ge=0)],
    dict[PlayerCount, Annotated[int, Field(ge=0)]],
]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="after")
    @classmethod
    def _bounded(cls, value: Any) -> Any:
        """Every whole number of a variant is at most :data:`bones.engine.bounds.NUMBER_LIMIT`
        either way: the native core holds them in 64 bits, with room for a match's sums."""
        return bounded(value)


def bounded(value: T, limit: int = NUMBER_LIMIT) -> T:
    """``value`` if every whole number in it is within ``limit`` either way;
    else a ``ValueError`` whose message gives the bound (for a model's validator)."""
    problem = bound_message(value, limit)
    if problem is not None:
        raise ValueError(problem)
    return value


def for_players(value: int | str | dict[int, T], players: int) -> T:
    """The value of a per-player-count field for ``players`` players.

    >>> for_players({2: 7, 3: 6, 4: 5}, 3)
    6
    >>> for_players(150, 4)
    150
    """
    if isinstance(value, dict):
        return value[players]
    return value  # type: ignore[return-value]


# ---------------------------------------------------------------- metadata


class Source(Model):
    """A rule source the variant follows, and what it supports."""

    title: str = Field(min_length=1)
    url: str | None = None
    supports: str | None = Field(
        None, description="Which rules of this variant the source supports."
    )


# ------------------------------------------------------- tiles and players


class Tiles(Model):
    highest: int = Field(
        6, ge=3, le=18, description="The set is double-N for this N (28 tiles for 6)."
    )


class Partnerships(Model):
    kind: Literal["none", "optional", "required"] = Field(
        "none",
        description="none: everyone plays alone; optional: the players may agree "
        "to play as two teams (bones play --teams); required: always two teams.",
    )
    player_counts: list[PlayerCount] = Field(
        default_factory=lambda: [4],
        description="The player counts at which partnerships apply.",
    )


class Players(Model):
    counts: list[PlayerCount] = Field(
        default_factory=lambda: [2, 3, 4], min_length=1, description="Allowed player counts."
    )
    partnerships: Partnerships = Partnerships()
    direction: Literal["clockwise", "counterclockwise"] = Field(
        "clockwise",
        description="The direction of play at the table. Seats are numbered from 0 "
        "in play order whatever the direction.",
    )


class Redeal(Model):
    """A deal thrown in for what a hand holds (Kozel: five doubles, or six of a suit)."""

    doubles: int | None = Field(
        None, ge=1, description="Redeal when any dealt hand holds at least this many doubles "
        "(none: never for doubles)."
    )
    suit: int | None = Field(
        None, ge=2, description="Redeal when any dealt hand holds at least this many tiles "
        "bearing one number, a double counted once (none: never for a suit)."
    )


class DealRule(Model):
    hand_size: PositiveCount = Field(
        description="Tiles dealt to each player: one number, or one per player count."
    )
    reserve: NonNegativeCount = Field(
        0,
        description="Tiles at the bottom of the boneyard that are never drawn "
        "(\"sleepers\"), one number or one per player count.",
    )
    redeal: Redeal = Field(
        default_factory=Redeal,
        description="Deals thrown in for their content: all tiles are dealt again (the "
        "same lead rule), until no hand is refused.",
    )


# ------------------------------------------------------------------ leads

NoDoubleFallback = Literal["draw_more", "heaviest_hand", "heaviest_tile", "lightest_tile", "lot",
                           "redeal"]
_NO_DOUBLE = (
    "What happens when nobody holds a double: draw_more (everyone draws one more "
    "tile, in turn, until someone holds one), heaviest_hand (the heaviest hand leads "
    "any tile), heaviest_tile (the holder of the heaviest tile leads it), lightest_tile "
    "(the holder of the lightest tile leads it), lot, redeal."
)


class LotLead(Model):
    kind: Literal["lot"] = "lot"


class RandomLead(Model):
    kind: Literal["random"]


class HighestDoubleLead(Model):
    kind: Literal["highest_double"]
    if_none: NoDoubleFallback = Field("heaviest_tile", description=_NO_DOUBLE)


class LowestDoubleLead(Model):
    kind: Literal["lowest_double"]
    if_none: NoDoubleFallback = Field("heaviest_tile", description=_NO_DOUBLE)


class TileLead(Model):
    kind: Literal["tile"]
    tile: TileText | Annotated[list[TileText], Field(min_length=1)] = Field(
        description="The tile whose holder leads it, or a list of tiles: the first of "
        "them that was dealt leads (Kozel: [1-1, 2-2, 3-3, 4-4, 5-5, 6-6, 0-0])."
    )
    if_none: Literal["heaviest_tile", "lightest_tile", "highest_double", "lot", "redeal"] = Field(
        "highest_double",
        description="When nobody holds the tile, or any tile of the list (not every tile "
        "was dealt).",
    )

    def tiles(self) -> list[str]:
        """The tiles in order (one for a single tile)."""
        return [self.tile] if isinstance(self.tile, str) else list(self.tile)


class SeatLead(Model):
    kind: Literal["seat"]
    seat: int = Field(0, ge=0)


class LightestTileLead(Model):
    """The holder of the lightest tile leads it: the fewest pips, then the
    lower higher half ([1-2] is lighter than [0-3])."""

    kind: Literal["lightest_tile"]


class LockerLead(Model):
    """After a blocked hand: the player who made its last play (the locker)
    leads any tile.  Only for ``later.after_block``."""

    kind: Literal["locker"]


FirstLead = Annotated[
    Union[LotLead, RandomLead, HighestDoubleLead, LowestDoubleLead, TileLead, SeatLead,
          LightestTileLead],
    Field(discriminator="kind"),
]
AfterBlockLead = Annotated[
    Union[LotLead, RandomLead, HighestDoubleLead, LowestDoubleLead, TileLead, SeatLead,
          LightestTileLead, LockerLead],
    Field(discriminator="kind"),
]


class DominoerLead(Model):
    kind: Literal["domino_er"] = "domino_er"
    after_block: AfterBlockLead = Field(
        default_factory=LotLead,
        description="Who leads after a blocked hand: a first-lead rule, or locker (the "
        "player who made the blocked hand's last play).",
    )


class WinnerLead(Model):
    """The player who won the last hand leads: the domino-er, or the player
    whose hand won a blocked hand (the settlement's comparison decides it)."""

    kind: Literal["winner"]
    if_none: FirstLead = Field(
        default_factory=LotLead,
        description="Who leads when the last hand had no single winner.",
    )


class RotateLead(Model):
    kind: Literal["rotate"]
    to: Literal["next", "previous"] = Field(
        "next", description="next: the seat after the last leader in play order."
    )


class AlternateLead(Model):
    kind: Literal["alternate"]


class SeriesLead(Model):
    """The PyPI ``dominoes`` package's rule for the games of a series."""

    kind: Literal["series"]


class SameAsFirstLead(Model):
    kind: Literal["first"]


LaterLead = Annotated[
    Union[DominoerLead, WinnerLead, RotateLead, AlternateLead, SeriesLead, SameAsFirstLead],
    Field(discriminator="kind"),
]


class Lead(Model):
    first: FirstLead = Field(default_factory=LotLead)
    later: LaterLead = Field(default_factory=DominoerLead)
    allowed: Literal["any", "double"] = Field(
        "any",
        description="What the lead may be when the lead rule names no tile.",
    )
    if_no_double: Literal["next_seat", "draw"] = Field(
        "next_seat",
        description="Under allowed: double, when the leader holds no double: next_seat (the "
        "first seat round the table that holds one leads it; nobody: a redeal), or draw (the "
        "leader draws from the boneyard, one tile at a time, until a double comes, and leads "
        "it; the drawn tiles stay in the hand; the boneyard spent first: a redeal).",
    )


# ----------------------------------------------------------------- layout

SpinnerCountPreset = Literal["drop2", "sniff-count"]
SpinnerCount = Union[
    SpinnerCountPreset,
    Annotated[list[Annotated[int, Field(ge=0, le=4)]], Field(min_length=5, max_length=5)],
]
_COUNT = (
    "How the spinner's own pips count, as multipliers of its number by how many "
    "of its four edges are covered (0 to 4); drop2 = [2, 2, 0, 0, 0], "
    "sniff-count = [2, 2, 2, 1, 0]."
)
EdgeOrder = Literal["sides_first", "any", "all_four_first"]
_ORDER = (
    "sides_first: the cross ends open once both long sides are covered; any: any "
    "free edge at any time; all_four_first: no arm may grow until all four edges "
    "are covered."
)


class NoSpinner(Model):
    kind: Literal["none"] = "none"


class DoubleSpinner(Model):
    """Doubles that spin: the kind says which; edge order and count are common to every kind."""

    kind: Literal["first_double", "every_double", "led_double", "every_double_but_led"] = Field(
        description="Which doubles are spinners. first_double: the first double played, "
        "led or not; every_double: every double; led_double: a double led, and no other; "
        "every_double_but_led: every double except a led one, which is an ordinary "
        "crosswise double."
    )
    order: EdgeOrder = Field("sides_first", description=_ORDER)
    count: SpinnerCount = Field("drop2", description=_COUNT)


class InlineSniff(Model):
    """The English sniff: the first double lies in the line and takes one stub tile on each long side."""

    kind: Literal["inline_sniff"]
    count: SpinnerCount = Field(
        default_factory=lambda: [2, 1, 0, 0, 0],
        description="Multipliers of the sniff's number by how many of its two line "
        "ends are covered: as the lone lead 2, at a line end 1 (one half shows), "
        "enclosed 0. The stubs' outer ends always count.",
    )


Spinner = Annotated[
    Union[NoSpinner, DoubleSpinner, InlineSniff],
    Field(discriminator="kind"),
]


class TrainHub(Model):
    """The hub double of a train layout: the round's double."""

    top: int | None = Field(
        None, ge=0, le=18,
        description="Round 1's hub double (round r uses top - (r - 1)); none: the set's "
        "highest (a lower double makes a shorter game).",
    )
    placing_ends_turn: bool = Field(
        False,
        description="Placing the hub is the placer's whole turn (Chicken Foot); false: he "
        "then takes the round's first turn (Mexican Train).",
    )
    tiles: int = Field(
        0, ge=0, le=8,
        description="Tiles that must lie against the hub, each a new arm, before any other "
        "play (Chicken Foot: 4, one per side; 6 for the double chicken foot); 0: none.",
    )
    comes: Literal["dealt", "set_aside"] = Field(
        "dealt",
        description="dealt: its holder places it (when nobody holds it, the players draw in "
        "turn from seat 0 until it comes); set_aside: it is taken out before the deal and "
        "placed by the first player, chosen by lot in the match's first round and then the "
        "next seat each round.",
    )


class TrainDoubles(Model):
    """A double laid at a train's end and the tiles it is owed."""

    cover: int = Field(
        1, ge=0, le=8,
        description="Tiles a double at a train's end must take before any other play "
        "(Mexican Train 1, Chicken Foot 3); 0: doubles are ordinary tiles.",
    )
    covers: Literal["continue", "new_arms"] = Field(
        "continue",
        description="continue: the cover continues the double's train; new_arms: the "
        "double closes its arm and each cover is a new arm (a chicken foot's toes).",
    )
    by: Literal["same_player", "same_player_only", "one_more_anywhere", "next_players"] = Field(
        "same_player",
        description="same_player: whoever lays a double covers it in the same turn (drawing "
        "one tile if he cannot; else he passes and it binds every player in turn); "
        "same_player_only: the same, but a double its player cannot cover binds nobody; "
        "one_more_anywhere: its player lays one more tile anywhere he may, and a double "
        "still bare after his turn binds every player in turn; next_players: the next "
        "tiles laid, by whoever is to play, go on it.",
    )
    first_spinner: bool = Field(
        False,
        description="With covers: new_arms, the first double laid on an arm is a spinner: it "
        "owes nothing, its arm goes on through it and two more arms start from its sides; "
        "only later doubles are owed toes (one Chicken Foot rule).",
    )
    release: Literal["never", "no_cover_left"] = Field(
        "never",
        description="never: a double nobody can cover blocks the round once nothing can be "
        "drawn; no_cover_left: a double owed covers is released (play goes on elsewhere) "
        "once no tile that could cover it is left in a hand or the boneyard.",
    )


class TrainFirstTurn(Model):
    """Each player's first turn of a round."""

    tiles: Literal["one", "many"] = Field(
        "one",
        description="many: in his first turn a player lays any number of tiles on his own "
        "train, one after another (a double he leaves bare binds nobody until every seat has "
        "had its first turn); one: a first turn is one tile like any other.",
    )
    may_stop: bool = Field(
        True, description="With tiles: many, the player may end his first turn after any "
        "tile (pass, no marker); false: he goes on while a tile fits.")
    public: bool = Field(
        False, description="With tiles: many, the first turn may also start or extend a "
        "public train; false: only one's own train.")


class Trains(Model):
    """A hub double with trains or arms growing from it (docs/trains.md)."""

    hub: TrainHub = Field(default_factory=TrainHub)
    personal: bool = Field(
        True,
        description="A personal train per seat, with a marker: a player may play on his own "
        "train, on public trains, and on another seat's train while it carries a marker; "
        "false: no personal trains, arms grow from the hub (Chicken Foot).",
    )
    public: int = Field(
        1, ge=0, le=4,
        description="Public trains anyone may start and extend (Mexican Train 1; 0: private "
        "trains only; 2: dual Mexican train). Needs personal trains.",
    )
    public_needs_own: bool = Field(
        False, description="A player may play on a public train only once his own train is "
        "started.")
    marker_off: Literal["own_train", "anywhere"] = Field(
        "own_train",
        description="When a train's marker comes off: own_train, when its owner plays on it; "
        "anywhere, when its owner plays anywhere. A marker goes on when its owner ends a "
        "turn without laying a tile.",
    )
    doubles: TrainDoubles = Field(default_factory=TrainDoubles)
    first_turn: TrainFirstTurn = Field(default_factory=TrainFirstTurn)
    turn_tiles: Literal["one", "all_that_fit"] = Field(
        "one",
        description="one: a turn is one tile (a double's cover and a first turn aside); "
        "all_that_fit: a player goes on laying tiles while one can be laid where he may "
        "play, and a tile drawn and laid ends the turn.",
    )


class LayoutRule(Model):
    """How tiles join the layout: the spinner, and how other doubles count."""

    trains: Trains | None = Field(
        None,
        description="A train layout (Mexican Train, Chicken Foot): the round's double in a "
        "hub, trains or arms growing from it; none: a line, with or without spinners.",
    )

    spinner: Spinner = Field(default_factory=NoSpinner)
    doubles: Literal["crosswise", "inline"] = Field(
        "crosswise",
        description="How a double that is not a spinner counts at the end of an arm: "
        "crosswise, both halves (a 5-5 counts 10); inline, one half.",
    )
    ends: Literal["both", "one"] = Field(
        "both",
        description="both: the line grows at both ends; one: after the lead only its E end "
        "is open (the lead's W end is closed for the hand), as in Tiddly-Wink and One-Arm Joe.",
    )


# ---------------------------------------------------------------- scoring


class NoPredicate(Model):
    kind: Literal["none"] = "none"


class MultipleOf(Model):
    kind: Literal["multiple_of"]
    divisors: list[Annotated[int, Field(ge=1)]] = Field(
        min_length=1, description="A count scores when any of these divides it."
    )


class InList(Model):
    kind: Literal["in_list"]
    counts: list[Annotated[int, Field(ge=0)]] = Field(
        min_length=1, description="A count scores when it is one of these."
    )


class MatchingEnds(Model):
    """Bergen's headers: the open ends show the same number."""

    kind: Literal["matching_ends"]
    points: dict[Annotated[int, Field(ge=2, le=8)], Annotated[int, Field(ge=0)]] = Field(
        description="Points by how many open ends show the same number (a double at "
        "an end shows its number twice): {2: 2, 3: 3} scores a double-header 2 and "
        "a triple-header 3."
    )


Predicate = Annotated[
    Union[NoPredicate, MultipleOf, InList, MatchingEnds], Field(discriminator="kind")
]


class CountPoints(Model):
    kind: Literal["count"] = "count"


class DividedPoints(Model):
    kind: Literal["divided"]
    by: int = Field(ge=1, description="Points are the count divided by this (rounded down).")


class SumOfQuotients(Model):
    """UK Fives and Threes: count/5 if 5 divides it, plus count/3 if 3 does."""

    kind: Literal["sum_of_quotients"]


class PerDivisor(Model):
    """The count once for each of the predicate's divisors that divides it."""

    kind: Literal["per_divisor"]


class FlatPoints(Model):
    kind: Literal["flat"]
    amount: int = Field(1, ge=1)


Points = Annotated[
    Union[CountPoints, DividedPoints, SumOfQuotients, PerDivisor, FlatPoints],
    Field(discriminator="kind"),
]


class MugginsOff(Model):
    """Scores are counted for the players (the default)."""

    kind: Literal["none"] = "none"


class MugginsOn(Model):
    """Players must claim their own scores.

    ``kind`` says what happens to points a player fails to claim: transfer
    (the next opponent in turn calls muggins and scores them) or forfeit (lost).
    """

    kind: Literal["transfer", "forfeit"]
    penalise_over_claim: bool = Field(
        False,
        description="Whether the next opponent in turn scores the amount of a claim "
        "that was too high.",
    )
    over_claim_points: Literal["lost", "caller", "claimer"] = Field(
        "lost",
        description="Who scores the true points of a play whose claim was too high "
        "(the claim is rejected): lost (nobody), caller (the next opponent in turn, who "
        "calls it; transfer only), or claimer (the player who made the play). Any "
        "penalty for the over-claim is scored as well.",
    )


Muggins = Annotated[Union[MugginsOff, MugginsOn], Field(discriminator="kind")]


class Scoring(Model):
    when: Predicate = Field(
        default_factory=NoPredicate,
        description="When a play scores: a predicate on the count, or matching ends.",
    )
    points: Points = Field(
        default_factory=CountPoints, description="What a scoring count is worth."
    )
    get_in: int = Field(
        0,
        ge=0,
        description="\"Ten to get in\": a player's (or team's) play points count only "
        "once a single play has scored at least this much (0: off).",
    )
    get_in_scope: Literal["hand", "match"] = Field(
        "hand",
        description="How long a side that has got in stays in: hand (each hand starts "
        "again) or match (once in, in for the rest of the match).",
    )
    winning_points_on_lead: bool = Field(
        True, description="Whether points scored by a lead may win the game."
    )
    muggins: Muggins = Field(default_factory=MugginsOff)


# ---------------------------------------------------------------- drawing


Stuck = Literal["pass", "block"]
_STUCK = (
    "What a player to move does who can neither play nor draw: pass (the turn goes on; "
    "the hand is blocked only when nobody can play), or block (the hand ends there, "
    "settled as a blocked hand)."
)


class _DrawingCommon(Model):
    must_play_drawn: bool = Field(
        True,
        description="A player whose draw brings a playable tile must play it (else they may pass).",
    )
    draw_while_able: bool = Field(
        False,
        description="A player holding a playable tile may draw one tile instead, "
        "which ends the turn.",
    )
    knock_bonus: int = Field(
        0,
        ge=0,
        description="Points the next player able to play scores for each knock (pass) "
        "since the last play.",
    )
    stuck: Stuck = Field("pass", description=_STUCK)


class DrawUntilPlayable(_DrawingCommon):
    kind: Literal["until_playable"] = "until_playable"


class DrawLimited(_DrawingCommon):
    kind: Literal["limited"]
    max_per_turn: int = Field(ge=1, description="Draws allowed per turn; then the player passes.")


class NoDrawing(Model):
    kind: Literal["none"]
    knock_bonus: int = Field(0, ge=0, description=_DrawingCommon.model_fields["knock_bonus"].description)
    stuck: Stuck = Field("pass", description=_STUCK)


Drawing = Annotated[
    Union[DrawUntilPlayable, DrawLimited, NoDrawing], Field(discriminator="kind")
]


class HandEndRule(Model):
    partners_both_out: bool = Field(
        False,
        description="In partnership play the hand goes on until both partners of a "
        "team are out; a partner who is out is skipped.",
    )


# ------------------------------------------------------------------ turns


class AfterDouble(Model):
    """An optional extra play in the same turn, after a double."""

    kind: Literal["none", "another_double", "extra_tile"] = Field(
        "none",
        description="none: a turn is one play; another_double: a player who plays a double "
        "(not the lead) and holds another double fitting the other open end may play it too, "
        "at once (Kozel); extra_tile: a player who plays a double (the lead included) may play "
        "one more tile at once (Tiddly-Wink). The extra play is optional: the player passes to "
        "end the turn, and that pass is no knock.",
    )
    repeat: bool = Field(
        True,
        description="extra_tile: a double played as the extra tile gives the option again "
        "(false: at most one extra tile a turn).",
    )


class TurnRule(Model):
    after_double: AfterDouble = Field(default_factory=AfterDouble)


# ---------------------------------------------------------------- bonuses


class CapicuaBonus(Model):
    points: int = Field(ge=1, description="Points to the side that goes out.")
    doubles: bool = Field(
        True,
        description="Whether a double that fits both ends (ends 3 and 3, last tile 3-3) "
        "counts (the Dominican reading) or never does (the Puerto Rican).",
    )


class LastTileBonus(Model):
    tile: TileText = Field(description="The tile (0-0: the chuchazo).")
    points: int = Field(ge=1, description="Points to the side that goes out with it.")


class OpeningPassBonus(Model):
    double: int = Field(ge=0, description="Points when the opening tile is a double.")
    other: int = Field(ge=0, description="Points when it is not.")


class HandNumberBonus(Model):
    points: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)] = Field(
        description="Points to the winner of hand 1, 2, 3, ... of the match; later hands 0."
    )
    tied_hands: Literal["count", "skip"] = Field(
        "count",
        description="count: a hand with no winner uses up its number (its bonus is lost); "
        "skip: only hands with a winner are numbered.",
    )


class Bonuses(Model):
    """Points beyond a play's count and the settlement's amount: at the end of
    a hand (added to its settlement) or at the moment they happen (pass bonuses,
    added to the score then, like play points)."""

    capicua: CapicuaBonus | None = Field(
        None,
        description="Capicúa: the side that goes out with a tile fitting both open ends "
        "scores these points more, in the settlement (never at a block).",
    )
    last_tile: LastTileBonus | None = Field(
        None,
        description="Going out with this tile scores these points more, in the settlement "
        "(the chuchazo: 0-0; never at a block).",
    )
    opening_pass: OpeningPassBonus | None = Field(
        None,
        description="Pase de salida: when the player after the leader cannot play on the "
        "opening tile and passes, the leader's side scores at once.",
    )
    round_pass: int = Field(
        0, ge=0,
        description="Paso redondo: when a play is followed by a pass of every other player, "
        "so that the same player is to move again, that player's side scores this at the "
        "last pass (0: off).",
    )
    by_hand: HandNumberBonus | None = Field(
        None,
        description="Points to the winner of each hand by the hand's number in the match "
        "(Puerto Rico: 100, 75, 50, 25), in the settlement.",
    )
    blocked_win: int = Field(
        0, ge=0,
        description="Points more to the side that wins a blocked hand, in the settlement (0: off).",
    )


# ------------------------------------------------------------- settlement


class NoRounding(Model):
    kind: Literal["none"] = "none"


class UnitRounding(Model):
    kind: Literal["nearest", "up", "down"] = Field(
        description="nearest: to the nearest multiple of the unit (a remainder of half "
        "a unit or more rounds up); up: to the next multiple (26 -> 30); down: to the "
        "multiple below (29 -> 25)."
    )
    unit: int = Field(5, ge=2, description="Round to a multiple of this.")
    per: Literal["aggregate", "opponent", "player"] = Field(
        "aggregate",
        description="What is rounded apart. With the amount opponents: aggregate: the "
        "total, once; opponent: each opponent's hand (partners' pips pooled), then added; "
        "player: each opposing player's hand on its own, partners too, then added (the "
        "same as opponent without partnerships). With own_penalty: aggregate: each side's "
        "pips (partners' pooled); player: each partner's own hand. Any other use has no "
        "effect and is refused.",
    )


#: The name of :class:`UnitRounding` when it only rounded to the nearest unit.
NearestRounding = UnitRounding


Rounding = Annotated[Union[NoRounding, UnitRounding], Field(discriminator="kind")]

Amount = Literal["opponents", "opponents_minus_own", "all_hands", "flat"]
_AMOUNT = (
    "opponents: the opponents' pips; opponents_minus_own: those less the scorer's own "
    "(a team's pooled); all_hands: all pips left in every hand, a partner's included "
    "(both teams' pips); flat: the fixed number of points."
)
Tie = Literal["nobody", "share", "not_blocker", "blocker", "full", "carry"]
TieRule = Union[Tie, dict[PlayerCount, Tie]]


class _Arithmetic(Model):
    rounding: Rounding = Field(default_factory=NoRounding)
    divisor: int = Field(1, ge=1, description="Divide after rounding (rounded down).")


class DominoerSettles(_Arithmetic):
    kind: Literal["domino_er"]
    amount: Amount = Field("opponents", description=_AMOUNT)
    points: int = Field(1, ge=1, description="The points of a flat amount.")


class LightestSettles(_Arithmetic):
    kind: Literal["lightest"]
    amount: Amount = Field("opponents", description=_AMOUNT)
    points: int = Field(1, ge=1, description="The points of a flat amount.")
    ties: TieRule = Field(
        "nobody",
        description="When the lightest hands tie: nobody scores, the tied share the "
        "amount (rounded down to the rounding unit), not_blocker (the tied hand that "
        "did not make the last play wins), blocker (the tied hand that made it wins), "
        "full (each tied hand scores the whole amount from the hands not tied), or carry "
        "(nobody scores now: what one tied hand would have scored alone stays on the "
        "table, and the winner of the next hand that has one takes it); one value or one "
        "per player count.",
    )
    doubles_lose: bool = Field(
        False, description="A hand holding a double loses to any double-free hand."
    )
    compare: Literal["side", "player"] = Field(
        "side",
        description="side: each side's pips, partners' pooled; player: each player's own "
        "hand (the lowest wins for its side; partners tied for it: their side; opponents "
        "tied: the ties rule). The same without partnerships.",
    )


class LockerSettles(_Arithmetic):
    """A blocked hand decided between two hands: the locker's (the player who
    made the last play) and one neighbour's; the lower wins for its side."""

    kind: Literal["locker"]
    against: Literal["previous", "next"] = Field(
        "previous",
        description="previous: the player who played just before the locker; next: the "
        "one who plays after him.",
    )
    amount: Amount = Field("opponents", description=_AMOUNT)
    points: int = Field(1, ge=1, description="The points of a flat amount.")
    ties: Literal["blocker", "nobody", "not_blocker"] = Field(
        "blocker",
        description="When the two hands tie: blocker (the locker wins), nobody, or "
        "not_blocker (the neighbour wins).",
    )


class LosersPaySettles(_Arithmetic):
    """Penalty scoring: every side that did not win is charged its own pips
    (added to its score, which counts against it: pair it with match kind
    penalty). At a domino every side but the domino-er's; at a block every
    side but the lightest."""

    kind: Literal["losers_pay"]
    compare: Literal["side", "player"] = Field(
        "side", description="At a block, what is compared (as lightest's compare); tied "
        "lightest hands: nobody is charged."
    )


class EachHeavierSettles(_Arithmetic):
    """Every player scores, against each opponent holding more, the difference."""

    kind: Literal["each_heavier"]


class OwnPenaltySettles(_Arithmetic):
    """Every player (or team) subtracts their own pips from their score."""

    kind: Literal["own_penalty"]


class NobodySettles(Model):
    kind: Literal["nobody"] = "nobody"


class OwnHandSettles(Model):
    """Every player is charged what his own hand holds (the player who went
    out 0), added to his score, which counts against him (train layouts)."""

    kind: Literal["own_hand"]
    double_blank: int | None = Field(
        None, ge=0,
        description="What [0-0] is charged (Mexican Train and Chicken Foot: 50); none: its "
        "face value, 0.",
    )
    blanks: int | None = Field(
        None, ge=0,
        description="What every other tile with a blank half is charged (25 in one Chicken "
        "Foot rule); none: its face value.",
    )
    per_marker: int = Field(
        0, ge=0, description="Charged more to a player whose train carries a marker at the "
        "round's end (5, 10 or 25 in some Mexican Train rules).")
    out_on_double: int = Field(
        1, ge=1, le=10,
        description="When the player who goes out lays a double last, every other player's "
        "charge for the round is multiplied by this (2 in one Mexican Train rule); 1: off. "
        "settlement.domino only.")


SettleRule = Annotated[
    Union[DominoerSettles, LightestSettles, LockerSettles, LosersPaySettles, EachHeavierSettles,
          OwnPenaltySettles, NobodySettles, OwnHandSettles],
    Field(discriminator="kind"),
]


class Settlement(Model):
    domino: SettleRule = Field(description="When a player (or team) goes out.")
    blocked: SettleRule = Field(description="When nobody can play and nothing can be drawn.")
    floor: int | None = Field(
        None, le=0,
        description="Scores never fall below this (none: negative scores allowed). At "
        "most 0: scores start at 0, so a floor above it would lift a first gain to it.",
    )
    first_minimum: int = Field(
        0, ge=0,
        description="While a side's score is still 0, a settlement to it below this is not "
        "recorded (Kozel: 13; 0: off).",
    )


# ------------------------------------------------------------------ match


class TargetMatch(Model):
    kind: Literal["target"]
    points: PositiveCount = Field(description="The target: one number, or one per player count.")
    void_at: int | None = Field(
        None, ge=1,
        description="The match ends void, with no winner, once every side has at least this "
        "many points (Latin match dominoes: 10 games won while the other side has 4 or fewer; "
        "5 each is void). None: never.",
    )
    games: int = Field(
        1, ge=1,
        description="The match is won by the first side to win this many games, each a run of "
        "hands to the target, every score starting again at 0 (2: best of three).",
    )
    check: Literal["hand_end", "immediate", "exact", "hand_winner"] = Field(
        "hand_end",
        description="hand_end: after settlement, the highest score at or above the "
        "target wins; immediate: the game ends the moment a score reaches it; exact: "
        "a gain that would pass the target is ignored and reaching it exactly wins at "
        "once; hand_winner: after settlement, only the hand's winner (the domino-er; "
        "when blocked, the lightest hand as the ties rule decides it) is tested, and "
        "wins at or above the target.",
    )


class PenaltyMatch(Model):
    """Scores are penalties: the first side whose score reaches the points
    loses, after a hand's settlement; the side with the lowest score wins."""

    kind: Literal["penalty"]
    points: PositiveCount = Field(description="The losing score: one number, or one per player count.")


class HandsMatch(Model):
    kind: Literal["hands"]
    count: int = Field(1, ge=1, description="The match is this many hands; the highest total wins.")


class RoundsMatch(Model):
    """Rounds of a train layout, each with its own hub double; the lowest
    total wins, and equal lowest totals share the win (no winner)."""

    kind: Literal["rounds"]
    count: int | None = Field(
        None, ge=1,
        description="The rounds of the match; none: one for each double from the first "
        "round's hub down to [0-0] (13 with a double-12 set).",
    )
    lose_at: int | None = Field(
        None, ge=1,
        description="The match also ends once a total reaches this (the lowest total then "
        "wins); none: only the rounds end it.",
    )


MatchRule = Annotated[Union[TargetMatch, PenaltyMatch, HandsMatch, RoundsMatch],
                      Field(discriminator="kind")]


# ---------------------------------------------------------------- variant


class Variant(Model):
    """A complete variant: every rule the engine needs to play it."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={"title": "bones variant file"},
    )

    name: Name
    extends: str | None = Field(
        None,
        description="A built-in variant name or a path (relative to this file) whose "
        "rules this file changes; mappings merge key by key.",
    )
    aliases: list[Name] = Field(default_factory=list)
    summary: str = ""
    sources: list[Source] = Field(default_factory=list)
    tiles: Tiles = Field(default_factory=Tiles)
    players: Players = Field(default_factory=Players)
    deal: DealRule
    lead: Lead = Field(default_factory=Lead)
    layout: LayoutRule = Field(default_factory=LayoutRule)
    scoring: Scoring = Field(default_factory=Scoring)
    drawing: Drawing = Field(default_factory=DrawUntilPlayable)
    turn: TurnRule = Field(default_factory=TurnRule)
    hand_end: HandEndRule = Field(default_factory=HandEndRule)
    bonuses: Bonuses = Field(default_factory=Bonuses)
    settlement: Settlement
    match: MatchRule

    # --- convenience readers, used by the compiler, `show` and the CLI
    def points_for_count(self, count: int) -> int:
        """Points for a layout count (the compiled table holds every count a
        layout reaches; this answers beyond it)."""
        return points_for_count(self.scoring, count)

    def hand_size(self, players: int) -> int:
        return for_players(self.deal.hand_size, players)

    def reserve(self, players: int) -> int:
        return for_players(self.deal.reserve, players)

    def partnered(self, players: int, teams: bool | None = None) -> bool:
        """Whether a game of ``players`` is played in two teams.

        ``teams`` is the players' choice where partnerships are optional.
        """
        p = self.players.partnerships
        if p.kind == "none" or players not in p.player_counts:
            return False
        if p.kind == "required":
            return True
        return bool(teams)



# ------------------------------------------------- what the models mean

#: The spinner count presets: multipliers of the spinner's number by how many
#: of its four edges are covered (0 to 4).
SPINNER_PRESETS: dict[str, tuple[int, ...]] = {"drop2": (2, 2, 0, 0, 0), "sniff-count": (2, 2, 2, 1, 0)}


def spinner_multipliers(count: object) -> tuple[int, ...]:
    """A spinner's ``count`` (a preset name or five multipliers) as five multipliers.

    >>> spinner_multipliers("sniff-count")
    (2, 2, 2, 1, 0)
    """
    if isinstance(count, str):
        return SPINNER_PRESETS[count]
    return tuple(count)  # type: ignore[arg-type]


def scoring_codes(scoring: Scoring) -> tuple[int, tuple[int, ...], int, int]:
    """``scoring.when`` and ``scoring.points`` as the engine's codes: (when,
    its divisors or counts, points, the divisor of ``divided`` or the amount
    of ``flat``).

    >>> scoring_codes(Scoring(when=MultipleOf(kind="multiple_of", divisors=[5, 3]),
    ...                       points=DividedPoints(kind="divided", by=5)))
    (1, (5, 3), 1, 5)
    """
    when, points = scoring.when, scoring.points
    values: tuple[int, ...] = ()
    if isinstance(when, MultipleOf):
        values = tuple(when.divisors)
    elif isinstance(when, InList):
        values = tuple(when.counts)
    param = points.by if isinstance(points, DividedPoints) else \
        points.amount if isinstance(points, FlatPoints) else 0
    return _WHEN_CODES[when.kind], values, _POINTS_CODES[points.kind], param


_WHEN_CODES = {"none": WHEN_NONE, "multiple_of": WHEN_MULTIPLE_OF, "in_list": WHEN_IN_LIST,
               "matching_ends": WHEN_MATCHING_ENDS}
_POINTS_CODES = {"count": POINTS_COUNT, "divided": POINTS_DIVIDED,
                 "sum_of_quotients": POINTS_SUM_OF_QUOTIENTS, "per_divisor": POINTS_PER_DIVISOR,
                 "flat": POINTS_FLAT}


def points_for_count(scoring: Scoring, count: int) -> int:
    """The points a play scores when the layout shows ``count``: the
    engine's rule (:func:`bones.engine.rules.count_points_of`) on the
    scoring's codes.  A count of 0 never scores (docs/rules.md, decision 1).

    >>> s = Scoring(when=MultipleOf(kind="multiple_of", divisors=[5, 3]),
    ...             points=SumOfQuotients(kind="sum_of_quotients"))
    >>> [points_for_count(s, c) for c in (3, 5, 15, 30)]
    [1, 1, 8, 16]
    """
    return count_points_of(*scoring_codes(scoring), count)


# ------------------------------------------------------- semantic checks


@dataclass(frozen=True)
class Problem:
    """A rule combination that cannot be played, at a key path of the file."""

    path: tuple[str | int, ...]
    message: str


def max_reachable_count(variant: Variant) -> int:
    """An upper bound on the count any layout of this variant can show.

    The count adds one value per open end and one per hub (a spinner or the
    in-line sniff, counted once as ``multiplier x pip``). A plain end shows
    at most ``n`` (``2n`` for a crosswise double), a hub at most the largest
    multiplier times ``n``; a line has two ends, and each hub adds at most two
    arms besides itself.
    """
    n = variant.tiles.highest
    spinner = variant.layout.spinner
    double_weight = 2 if variant.layout.doubles == "crosswise" else 1
    line = double_weight * n + double_weight * (n - 1)
    if spinner.kind == "none":
        return line
    count = getattr(spinner, "count", "drop2")
    presets = {"drop2": (2, 2, 0, 0, 0), "sniff-count": (2, 2, 2, 1, 0)}
    top_mult = max(presets[count] if isinstance(count, str) else count)
    if top_mult > 2:
        # a hub may count more than a crosswise double: bound every item by it
        hubs = n + 1 if spinner.kind in ("every_double", "every_double_but_led") else 1
        stubs = 2 * n if spinner.kind == "inline_sniff" else 0
        return (2 + 3 * hubs) * top_mult * n + stubs
    if spinner.kind == "inline_sniff":
        return line + 2 * n  # the two stubs' outer ends
    if spinner.kind in ("every_double", "every_double_but_led"):
        return sum(2 * d for d in range(n + 1)) + 4 * n
    # one spinner: crosswise doubles on each of its four arms
    return sum(double_weight * (n - i) for i in range(4)) + 2 * n


def _scoring_counts(variant: Variant) -> list[int]:
    top = max_reachable_count(variant)
    when = variant.scoring.when
    if isinstance(when, MultipleOf):
        return [c for c in range(1, top + 1) if any(c % d == 0 for d in when.divisors)]
    if isinstance(when, InList):
        return [c for c in when.counts if 0 < c <= top]
    return []


def per_count_values(variant: Variant) -> list[tuple[tuple[str, ...], dict[int, object]]]:
    """Every value given per player count as a mapping, with its key path.

    >>> v = Variant(name="x", deal=DealRule(hand_size={2: 7, 3: 5}),
    ...             settlement=Settlement(domino=DominoerSettles(kind="domino_er"),
    ...                                   blocked=LightestSettles(kind="lightest")),
    ...             match=TargetMatch(kind="target", points=61))
    >>> per_count_values(v)
    [(('deal', 'hand_size'), {2: 7, 3: 5})]
    """
    found: list[tuple[tuple[str, ...], object]] = [
        (("deal", "hand_size"), variant.deal.hand_size),
        (("deal", "reserve"), variant.deal.reserve),
    ]
    if isinstance(variant.match, TargetMatch):
        found.append((("match", "points"), variant.match.points))
    for rule_name in ("domino", "blocked"):
        rule = getattr(variant.settlement, rule_name)
        if isinstance(rule, LightestSettles):
            found.append((("settlement", rule_name, "ties"), rule.ties))
    return [(path, value) for path, value in found if isinstance(value, dict)]


Add = Callable[[tuple[Union[str, int], ...], str], None]


def semantic_problems(variant: Variant) -> list[Problem]:
    """Every rule combination of ``variant`` that cannot be played."""
    problems: list[Problem] = []

    def add(path: tuple[str | int, ...], message: str) -> None:
        problems.append(Problem(path, message))

    for check in (_check_players_and_deal, _check_match, _check_settlement, _check_lead, _check_scoring,
                  _check_layout_and_turns, _check_bonuses, _check_trains):
        check(variant, add)
    return problems


def _check_per_count(variant: Variant, value: object, path: tuple[str | int, ...], add: Add) -> bool:
    """A per-player-count mapping gives a value for every allowed count and no other."""
    counts = variant.players.counts
    if not isinstance(value, dict):
        return True
    missing = [c for c in counts if c not in value]
    if missing:
        add(path, f"no value for {_players(missing)} (allowed player counts: {_list(counts)})")
    for c in value:
        if c not in counts:
            add(path + (c,), f"{c} players is not an allowed player count ({_list(counts)})")
    return not missing


def _check_players_and_deal(variant: Variant, add: Add) -> None:
    counts = variant.players.counts
    if len(set(counts)) != len(counts):
        add(("players", "counts"), "a player count is listed twice")
    set_size = (variant.tiles.highest + 1) * (variant.tiles.highest + 2) // 2
    hands_ok = _check_per_count(variant, variant.deal.hand_size, ("deal", "hand_size"), add)
    reserve_ok = _check_per_count(variant, variant.deal.reserve, ("deal", "reserve"), add)
    if hands_ok and reserve_ok:
        for c in counts:
            need = c * variant.hand_size(c) + variant.reserve(c)
            if need > set_size:
                path: tuple[str | int, ...] = ("deal", "hand_size")
                if isinstance(variant.deal.hand_size, dict):
                    path += (c,)
                add(
                    path,
                    f"{c} players x {variant.hand_size(c)} tiles"
                    + (f" + {variant.reserve(c)} reserved" if variant.reserve(c) else "")
                    + f" = {need} tiles, but the double-{variant.tiles.highest} set has {set_size}",
                )
    parts = variant.players.partnerships
    if parts.kind != "none":
        for i, c in enumerate(parts.player_counts):
            if c not in counts:
                add(("players", "partnerships", "player_counts", i),
                    f"{c} players is not an allowed player count ({_list(counts)})")
            elif c % 2:
                add(("players", "partnerships", "player_counts", i),
                    f"two equal teams need an even number of players, not {c}")
    if variant.hand_end.partners_both_out and parts.kind == "none":
        add(("hand_end", "partners_both_out"), "needs partnerships (players.partnerships.kind is none)")


def _check_settlement(variant: Variant, add: Add) -> None:
    for rule_name in ("domino", "blocked"):
        rule = getattr(variant.settlement, rule_name)
        if isinstance(rule, LightestSettles) and isinstance(rule.ties, dict):
            _check_per_count(variant, rule.ties, ("settlement", rule_name, "ties"), add)
    for rule_name in ("domino", "blocked"):
        rule = getattr(variant.settlement, rule_name)
        message = _per_problem(variant, rule)
        if message:
            add(("settlement", rule_name, "rounding", "per"), message)
    if isinstance(variant.settlement.blocked, DominoerSettles):
        add(("settlement", "blocked", "kind"), "nobody has gone out in a blocked hand: "
            "use lightest, locker, losers_pay, each_heavier, own_penalty or nobody")
    if isinstance(variant.settlement.domino, LockerSettles):
        add(("settlement", "domino", "kind"), "a hand someone went out of was not locked: the "
            "locker's comparison is for settlement.blocked")
    teams = variant.players.partnerships.kind != "none"
    for rule_name in ("domino", "blocked"):
        rule = getattr(variant.settlement, rule_name)
        if getattr(rule, "compare", "side") == "player":
            if not teams:
                add(("settlement", rule_name, "compare"), "player has no effect without "
                    "partnerships: each side is one player (use side)")
            elif rule_name == "domino" and isinstance(rule, LightestSettles):
                add(("settlement", rule_name, "compare"), "has no effect when a player goes "
                    "out: the hand that went out is the lightest")
            elif getattr(rule, "doubles_lose", False):
                add(("settlement", rule_name, "doubles_lose"), "compares sides' hands: it "
                    "cannot be used with compare: player")
    losers_pay = [isinstance(r, LosersPaySettles)
                  for r in (variant.settlement.domino, variant.settlement.blocked)]
    if any(losers_pay) and not isinstance(variant.match, PenaltyMatch):
        name = "domino" if losers_pay[0] else "blocked"
        add(("settlement", name, "kind"), "losers_pay charges penalties, so the lowest score "
            "must win: use match kind penalty")


def _per_problem(variant: Variant, rule: object) -> str | None:
    """Why ``rounding.per`` has no effect in a settlement rule (None: it has one)."""
    rounding = getattr(rule, "rounding", None)
    if not isinstance(rounding, UnitRounding) or rounding.per == "aggregate":
        return None
    per = rounding.per
    if isinstance(rule, EachHeavierSettles):
        return (f"{per} has no effect with each_heavier: each difference is rounded on "
                "its own (use aggregate)")
    if isinstance(rule, OwnPenaltySettles):
        if per == "opponent":
            return ("opponent has no effect with own_penalty: each side rounds its own "
                    "pips (aggregate pools partners, player rounds each partner's hand)")
        if variant.players.partnerships.kind == "none":
            return ("player has no effect without partnerships: each player's hand is "
                    "rounded on its own already (use aggregate)")
        return None
    amount = getattr(rule, "amount", "opponents")
    if amount != "opponents":
        return (f"{per} has no effect with amount {amount}: one total is rounded "
                "(per applies to amount opponents)")
    return None


def _check_lead(variant: Variant, add: Add) -> None:
    counts = variant.players.counts
    first, later = variant.lead.first, variant.lead.later
    _check_lead_tile(variant, first, ("lead", "first"), add)
    if isinstance(later, DominoerLead):
        _check_lead_tile(variant, later.after_block, ("lead", "later", "after_block"), add)
    if isinstance(later, WinnerLead):
        _check_lead_tile(variant, later.if_none, ("lead", "later", "if_none"), add)
    if isinstance(later, AlternateLead) and counts != [2]:
        add(("lead", "later", "kind"), "alternate leads need exactly two players "
            "(use rotate for more)")
    if isinstance(first, SeatLead) and first.seat >= min(counts):
        add(("lead", "first", "seat"), f"seat {first.seat} does not exist with {min(counts)} "
            "players (seats are numbered from 0)")


def _check_scoring(variant: Variant, add: Add) -> None:
    when, points = variant.scoring.when, variant.scoring.points
    if isinstance(when, (MultipleOf, InList)) and not _scoring_counts(variant):
        top = max_reachable_count(variant)
        what = "divisor" if isinstance(when, MultipleOf) else "count"
        key = "divisors" if isinstance(when, MultipleOf) else "counts"
        add(("scoring", "when", key), f"no reachable count can score: every {what} is "
            f"above {top}, the largest count this layout can show")
    if isinstance(when, MatchingEnds) and not when.points:
        add(("scoring", "when", "points"), "give points for at least one number of matching ends")
    if isinstance(points, (SumOfQuotients, PerDivisor)) and not isinstance(when, MultipleOf):
        add(("scoring", "points", "kind"), f"{points.kind} needs a multiple_of predicate "
            "(its divisors say what to divide by)")
    if isinstance(when, (NoPredicate, MatchingEnds)) and not isinstance(points, CountPoints):
        add(("scoring", "points", "kind"), "points are only used with a predicate on the count "
            f"(scoring.when.kind is {when.kind})")
    muggins = variant.scoring.muggins
    if (isinstance(muggins, MugginsOn) and muggins.kind == "forfeit"
            and muggins.over_claim_points == "caller"):
        add(("scoring", "muggins", "over_claim_points"), "under forfeit nobody calls muggins: "
            "use lost or claimer (or kind: transfer)")
    if isinstance(variant.scoring.muggins, MugginsOn) and isinstance(when, NoPredicate):
        add(("scoring", "muggins", "kind"), "the muggins rule needs scoring plays "
            "(scoring.when.kind is none)")
    if variant.scoring.get_in and isinstance(when, NoPredicate):
        add(("scoring", "get_in"), "a get-in score needs scoring plays (scoring.when.kind is none)")
    if variant.scoring.get_in_scope != "hand" and not variant.scoring.get_in:
        add(("scoring", "get_in_scope"), "has no effect without a get-in score (scoring.get_in is 0)")


def _check_match(variant: Variant, add: Add) -> None:
    match = variant.match
    if isinstance(match, PenaltyMatch):
        _check_penalty(variant, match, add)
        return
    if not isinstance(match, TargetMatch):
        return
    _check_per_count(variant, match.points, ("match", "points"), add)
    if match.void_at is not None:
        if match.check != "hand_end":
            add(("match", "void_at"), "a void game is decided after each hand: it needs "
                "check: hand_end")
        for c in variant.players.counts:
            target = for_players(match.points, c)
            if match.void_at >= target:
                add(("match", "void_at"), f"{match.void_at} is not below the target of {target}: "
                    "a side reaches the target first, and the game can never be void")
                break
    if not _scores_can_rise(variant):
        plays = (f"no play scores the get-in of {variant.scoring.get_in}" if max_play_points(variant)
                 else "no play scores")
        add(("match", "points"), f"the target can never be reached: nothing adds to a score ({plays}, "
            "there is no knock bonus, and each settlement is nobody or own_penalty)")
    if match.check == "exact":
        step = score_granularity(variant)
        if step > 1:
            for c in variant.players.counts:
                target = for_players(match.points, c)
                if target % step:
                    path: tuple[str | int, ...] = ("match", "points")
                    if isinstance(match.points, dict):
                        path += (c,)
                    add(path, f"an exact target of {target} can never be reached: every "
                        f"score changes by a multiple of {step}")


def _check_penalty(variant: Variant, match: PenaltyMatch, add: Add) -> None:
    """A loser's threshold: only penalties may add to a score."""
    _check_per_count(variant, match.points, ("match", "points"), add)
    for name in ("domino", "blocked"):
        rule = getattr(variant.settlement, name)
        if not isinstance(rule, (LosersPaySettles, NobodySettles)):
            add(("settlement", name, "kind"), "under match kind penalty the settlement charges "
                "the losers (losers_pay) or nobody: a winner's gain would count against it")
    if not isinstance(variant.scoring.when, NoPredicate):
        add(("scoring", "when", "kind"), "under match kind penalty plays cannot score: a gain "
            "would count against the player")
    gains = [k for k, v in variant.bonuses.model_dump().items() if v]
    if gains:
        add(("bonuses", gains[0]), "under match kind penalty a bonus would count against the "
            "side that earns it")
    if not any(isinstance(r, LosersPaySettles)
               for r in (variant.settlement.domino, variant.settlement.blocked)):
        add(("match", "points"), "the losing score can never be reached: no settlement "
            "charges anything (use losers_pay)")


def _check_trains(variant: Variant, add: Add) -> None:
    """A train layout and what only it can play: the own_hand settlement and
    a match of rounds go with it, and the line's options do not."""
    trains = variant.layout.trains
    own_hand = [name for name in ("domino", "blocked")
                if isinstance(getattr(variant.settlement, name), OwnHandSettles)]
    rounds = isinstance(variant.match, RoundsMatch)
    if trains is None:
        for name in own_hand:
            add(("settlement", name, "kind"), "own_hand settles a train layout only "
                "(layout.trains is none)")
        if rounds:
            add(("match", "kind"), "a match of rounds is played with a train layout only "
                "(layout.trains is none)")
        return
    for name in ("domino", "blocked"):
        if name not in own_hand:
            add(("settlement", name, "kind"), "a train layout charges every player his own "
                "hand: use own_hand")
    if not rounds:
        add(("match", "kind"), "a train layout is played in rounds, one per hub double: use "
            "kind rounds")
    top = trains.hub.top if trains.hub.top is not None else variant.tiles.highest
    if top > variant.tiles.highest:
        add(("layout", "trains", "hub", "top"), f"the double-{variant.tiles.highest} set has "
            f"no [{top}-{top}]")
    if isinstance(variant.match, RoundsMatch) and variant.match.count is not None \
            and variant.match.count > top + 1:
        add(("match", "count"), f"only {top + 1} hub doubles run from [{top}-{top}] down to "
            "[0-0]")
    if variant.layout.spinner.kind != "none":
        add(("layout", "spinner", "kind"), "a train layout has no spinner: use none")
    if variant.layout.ends != "both":
        add(("layout", "ends"), "has no effect in a train layout: leave it both")
    if variant.players.partnerships.kind != "none":
        add(("players", "partnerships", "kind"), "train layouts are played each for "
            "himself: use none")
    if variant.turn.after_double.kind != "none":
        add(("turn", "after_double", "kind"), "a train layout's doubles are covered by "
            "layout.trains.doubles: use none")
    if not isinstance(variant.scoring.when, NoPredicate):
        add(("scoring", "when", "kind"), "in a train layout no play scores: use none")
    if isinstance(variant.drawing, NoDrawing):
        add(("drawing", "kind"), "a train layout draws when a player cannot play: use "
            "limited or until_playable")
    if trains.public and not trains.personal:
        add(("layout", "trains", "public"), "public trains go beside personal trains "
            "(personal is false): use 0")
    if trains.public_needs_own and not (trains.personal and trains.public):
        add(("layout", "trains", "public_needs_own"), "needs personal and public trains")
    if trains.first_turn.tiles == "many" and not trains.personal:
        add(("layout", "trains", "first_turn", "tiles"), "a first turn of many tiles builds "
            "one's own train: needs personal trains")
    if not trains.personal and not trains.hub.tiles:
        add(("layout", "trains", "hub", "tiles"), "without personal trains the arms grow "
            "from tiles against the hub: at least 1")
    if trains.doubles.covers == "new_arms" and trains.doubles.by != "next_players":
        add(("layout", "trains", "doubles", "by"), "a chicken foot's toes are laid by the "
            "next players: use next_players")
    if trains.doubles.first_spinner and trains.doubles.covers != "new_arms":
        add(("layout", "trains", "doubles", "first_spinner"), "a spinner goes among chicken "
            "feet: needs doubles.covers: new_arms")
    if trains.doubles.release != "never" and not trains.doubles.cover:
        add(("layout", "trains", "doubles", "release"), "doubles are owed nothing "
            "(doubles.cover is 0): use never")
    blocked = variant.settlement.blocked
    if isinstance(blocked, OwnHandSettles) and blocked.out_on_double != 1:
        add(("settlement", "blocked", "out_on_double"), "nobody goes out in a blocked round: "
            "use 1 (the key belongs to settlement.domino)")
    _check_train_bonuses(variant, add)
    if trains.doubles.covers == "new_arms" and trains.personal:
        add(("layout", "trains", "doubles", "covers"), "personal trains are single lines: "
            "use continue")
    if trains.doubles.covers == "continue" and trains.doubles.cover > 1:
        add(("layout", "trains", "doubles", "cover"), "a double continued in line takes one "
            "cover: use 1 (or covers: new_arms)")


def _check_train_bonuses(variant: Variant, add: Add) -> None:
    """A train layout is a penalty game (RULES-V section 0: no play scores,
    every player is charged his own hand, the lowest total wins): a bonus
    would be points to a side in a game that counts only charges, and no
    train table plays one, so each is refused at its key."""
    b = variant.bonuses
    for name in ("capicua", "last_tile", "opening_pass", "by_hand"):
        if getattr(b, name) is not None:
            add(("bonuses", name), "a train layout is a penalty game and scores no bonus: "
                "use none")
    for name in ("round_pass", "blocked_win"):
        if getattr(b, name):
            add(("bonuses", name), "a train layout is a penalty game and scores no bonus: "
                "use 0")


def _check_layout_and_turns(variant: Variant, add: Add) -> None:
    spinner = variant.layout.spinner
    if variant.layout.ends == "one" and spinner.kind != "none":
        add(("layout", "ends"), "a line that grows at one end has no spinner "
            "(layout.spinner.kind must be none)")
    after = variant.turn.after_double
    if not after.repeat and after.kind != "extra_tile":
        add(("turn", "after_double", "repeat"), f"has no effect with kind {after.kind}: "
            "it limits the extra tiles of kind extra_tile")
    redeal = variant.deal.redeal
    counts = variant.players.counts
    try:
        smallest = min(variant.hand_size(c) for c in counts)
    except (KeyError, TypeError):  # reported at deal.hand_size
        return
    doubles = variant.tiles.highest + 1
    if redeal.doubles is not None and redeal.doubles > min(smallest, doubles):
        add(("deal", "redeal", "doubles"), f"no hand can hold {redeal.doubles} doubles "
            f"({smallest} tiles a hand, {doubles} doubles in the set)")
    suit = min(smallest, variant.tiles.highest + 1)
    if redeal.suit is not None and redeal.suit > suit:
        add(("deal", "redeal", "suit"), f"no hand can hold {redeal.suit} tiles of one number "
            f"({smallest} tiles a hand, {variant.tiles.highest + 1} tiles bear each number)")
    lead = variant.lead
    if lead.if_no_double == "draw":
        if lead.allowed != "double":
            add(("lead", "if_no_double"), "has no effect unless the lead must be a double "
                "(lead.allowed: double)")
        else:
            size = (variant.tiles.highest + 1) * (variant.tiles.highest + 2) // 2
            if all(c * variant.hand_size(c) + variant.reserve(c) >= size for c in counts):
                add(("lead", "if_no_double"), "the leader cannot draw: every tile is dealt "
                    "or in the reserve")


def _check_bonuses(variant: Variant, add: Add) -> None:
    b = variant.bonuses
    if b.capicua is not None and variant.layout.ends == "one":
        add(("bonuses", "capicua"), "a line that grows at one end has one open end: a tile "
            "cannot fit both")
    if b.last_tile is not None:
        _check_tile(variant, b.last_tile.tile, ("bonuses", "last_tile", "tile"), add)
    blocked = variant.settlement.blocked
    if b.blocked_win and not isinstance(blocked, (LightestSettles, LockerSettles)):
        add(("bonuses", "blocked_win"), f"settlement.blocked.kind {blocked.kind} decides no "
            "winner of a blocked hand (use lightest or locker)")
    if b.by_hand is not None and isinstance(variant.match, HandsMatch) and \
            variant.match.count == 1:
        add(("bonuses", "by_hand"), "a game of one hand has only hand 1")


def max_play_points(variant: Variant) -> int:
    """The most points a single play can score (0 when plays never score)."""
    when = variant.scoring.when
    if isinstance(when, MatchingEnds):
        return max(when.points.values(), default=0)
    if isinstance(when, NoPredicate):
        return 0
    return max((points_for_count(variant.scoring, c) for c in _scoring_counts(variant)), default=0)


def _scores_can_rise(variant: Variant) -> bool:
    """Whether anything in the rules can ever add points to a score."""
    play = max_play_points(variant)
    if play > 0 and play >= variant.scoring.get_in:
        return True
    if variant.drawing.knock_bonus > 0:
        return True
    if any(variant.bonuses.model_dump().values()):
        return True
    return any(
        not isinstance(rule, (NobodySettles, OwnPenaltySettles, LosersPaySettles))
        for rule in (variant.settlement.domino, variant.settlement.blocked)
    )


def score_granularity(variant: Variant) -> int:
    """The largest number that divides every change a score can undergo
    (1 when nothing useful is known, e.g. where players claim their points)."""
    if isinstance(variant.scoring.muggins, MugginsOn) or variant.settlement.floor is not None:
        return 1
    step = 0
    when = variant.scoring.when
    if isinstance(when, MatchingEnds):
        for points in when.points.values():
            step = gcd(step, points)
    else:
        for count in range(1, max_reachable_count(variant) + 1):
            step = gcd(step, points_for_count(variant.scoring, count))
    step = gcd(step, variant.drawing.knock_bonus)
    for rule in (variant.settlement.domino, variant.settlement.blocked):
        if isinstance(rule, (NobodySettles, OwnHandSettles)):
            continue
        amount = getattr(rule, "amount", None)
        if amount == "flat":
            step = gcd(step, rule.points)  # type: ignore[union-attr]
            continue
        unit = rule.rounding.unit if isinstance(rule.rounding, UnitRounding) else 1
        step = gcd(step, unit // rule.divisor if unit % rule.divisor == 0 else 1)
    return step


def _check_lead_tile(variant: Variant, rule: object, path: tuple[str | int, ...], add: Add) -> None:
    if isinstance(rule, TileLead):
        listed = not isinstance(rule.tile, str)
        for i, tile in enumerate(rule.tiles()):
            where = path + (("tile", i) if listed else ("tile",))
            _check_tile(variant, tile, where, add)
        if listed and path != ("lead", "first"):
            add(path + ("tile",), "a list of tiles is for the first lead only (give one tile here)")


def _check_tile(variant: Variant, tile: str, path: tuple[str | int, ...], add: Add) -> None:
    try:
        a, b = parse_halves(tile)
    except TileError as err:  # pragma: no cover - the pattern already checks the form
        add(path, str(err))
        return
    if max(a, b) > variant.tiles.highest:
        add(path, f"{tile} is not in the double-{variant.tiles.highest} set")


def _list(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def _players(values: list[int]) -> str:
    return ", ".join(f"{v} players" for v in values)
