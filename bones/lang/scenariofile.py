"""The scenario file's language: the pydantic models of a scenario file
(``bones check``), validated like a variant file and described by its JSON
Schema.  Running a scenario is :mod:`bones.games.scenario`; the format is
documented in ``docs/scenarios.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from bones.engine.bounds import NUMBER_LIMIT, SEED_LIMIT
from bones.lang import spec
from bones.lang.spec import TileText

PLAY_PATTERN = (r"^\s*\d{1,2}\s*-\s*\d{1,2}\s*(@\s*([NSEWnsew][0-9]*|[TtAa][0-9]+|[Mm][0-9]*"
                r"|[HhFf])\s*)?$")

#: What each text pattern of the scenario models means, for messages.
FORMS = {**spec.FORMS, PLAY_PATTERN: ("not a play", "a tile like 6-4, or TILE@ARM like 6-4@W")}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @field_validator("*", mode="after")
    @classmethod
    def _bounded(cls, value: Any, info: ValidationInfo) -> Any:
        """Every whole number within its bound (:mod:`bones.engine.bounds`): a seed 64
        bits, the rest :data:`~bones.engine.bounds.NUMBER_LIMIT`; ``rules`` are checked
        as the variant they change."""
        if info.field_name == "rules":
            return value  # checked as the variant it changes
        return spec.bounded(value, SEED_LIMIT if info.field_name == "seed" else NUMBER_LIMIT)


Winner = Union[int, Literal["none"]]


class Expect(_Model):
    """What must hold after a step (every key optional)."""

    count: int | None = Field(None, ge=0, description="The count after the move.")
    points: int | None = Field(
        None, description="Points the mover scored by this move itself (not settlement)."
    )
    ends: dict[str, int] | None = Field(
        None,
        description="The pip to match on every arm open for play, by arm name "
        "(W, E, N, S, N2, S2...); arms not listed must not be open. Train layouts: every "
        "started train (T0, M...) or open arm (A1...), H while the hub takes tiles, F while "
        "a foot is owed toes.",
    )
    open_trains: list[int] | None = Field(
        None, description="Train layouts: the seats whose trains carry a marker, ascending.")
    needs: dict[str, int] | None = Field(
        None, description="Train layouts: what must still be laid before play may go "
        "elsewhere, by target ({T1: 1}, {H: 4}, {F: 2}); {} for nothing.")
    scores: list[int] | None = Field(
        None, description="Running match scores, per seat (per team when partnered)."
    )
    game_over: bool | None = None
    winner: Winner | None = Field(
        None, description="The seat (team when partnered) that won the game, or none."
    )
    error: Literal["illegal"] | None = Field(
        None,
        description="The move must be rejected and the state left unchanged; the "
        "other keys are then checked against that unchanged state.",
    )


class Step(_Model):
    """One move: exactly one of play, draw and pass."""

    #: How a step is written, for the message about a value that is not one.
    written_as: ClassVar[tuple[str, str]] = ("not a step", "draw, pass, or a mapping like {play: 6-4@W}")

    play: str | None = Field(
        None,
        pattern=PLAY_PATTERN,
        description="A tile (the lead's halves in W-to-E order), or TILE@ARM.",
    )
    draw: Union[bool, TileText, None] = Field(
        None, description="true, or the tile the draw must bring."
    )
    pass_: bool | None = Field(None, alias="pass")
    seat: int | None = Field(None, ge=0, description="Whose turn it must be.")
    claim: int | None = Field(
        None, ge=0, description="The points the mover claims (muggins rule on)."
    )
    expect: Expect | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in ("draw", "pass"):
            return {value.strip().lower(): True}
        return value

    @model_validator(mode="after")
    def _one_move(self) -> Step:
        given = [k for k, v in (("play", self.play), ("draw", self.draw), ("pass", self.pass_))
                 if v is not None and v is not False]
        if len(given) != 1:
            what = " and ".join(given) if given else "none"
            raise ValueError(f"a step takes exactly one of play, draw and pass (got {what})")
        return self

    @property
    def kind(self) -> str:
        return "play" if self.play is not None else "draw" if self.draw is not None else "pass"

    def text(self) -> str:
        if self.play is not None:
            return self.play.strip()
        return self.kind


class ExpectEnd(_Model):
    """What must hold once the steps are done."""

    hand: Literal["domino", "blocked", "target", "playing"] | None = Field(
        None,
        description="How the hand ended: domino (a player or team went out), blocked, "
        "target (a score reached the target mid-hand), or playing (not over).",
    )
    settlement: list[int] | None = Field(
        None, description="What each seat (team) got at the end of the hand, chip-out included."
    )
    scores: list[int] | None = None
    game_over: bool | None = None
    winner: Winner | None = None
    got_in: list[bool] | None = Field(
        None, description="Which seats (teams) have got in (scoring.get_in) at the end, in order."
    )


GOT_IN_DESCRIPTION = (
    "Which seats (teams when partnered) start this hand already in, under a get-in "
    "score (scoring.get_in), one true or false each; left out, as the match has it "
    "(nobody at the start; under get_in_scope: match, whoever got in before)."
)
LOT_DESCRIPTION = (
    "The tiles drawn by lot for this hand's lead, one list per round: in the first "
    "round one tile per seat in seat order, in each later round one per seat still "
    "tied, in seat order. The engine's own lot rule (heaviest tile leads; a tie "
    "draws again) decides from them; left out, the lot is drawn from the seed."
)
EXPECT_LEADER_DESCRIPTION = (
    "The seat the variant's lead rule must choose for this hand (checked before "
    "the first step)."
)


class MatchHand(_Model):
    """One hand of a match file: its deal, its lead, its moves and its end."""

    deal: list[list[TileText]] = Field(
        description="Each seat's hand in seat order (any sizes); tiles neither dealt "
        "nor in the boneyard are out of play in this hand."
    )
    boneyard: list[TileText] | None = Field(
        None, description="The boneyard, top first; the variant's reserve applies."
    )
    leader: int | None = Field(
        None, ge=0,
        description="Who leads, given: the variant's lead rule is not applied and any "
        "tile may lead. Left out, the lead rule (the first-hand rule for hand 1, the "
        "later-lead rule after) chooses.",
    )
    expect_leader: int | None = Field(None, ge=0, description=EXPECT_LEADER_DESCRIPTION)
    lot: list[list[TileText]] | None = Field(None, description=LOT_DESCRIPTION)
    got_in: list[bool] | None = Field(None, description=GOT_IN_DESCRIPTION)
    steps: list[Step] = Field(default_factory=list)
    expect_end: ExpectEnd | None = None
    expect_redeal: bool = Field(
        False,
        description="The variant's deal-content rule (deal.redeal) must refuse this deal: the "
        "hand is not played (it gives only deal), and the next hand entry is the redeal.",
    )


class ExpectMatch(_Model):
    """What must hold once every hand of a match file is done."""

    scores: list[int] | None = Field(
        None, description="The match scores, per seat (per team when partnered)."
    )
    game_over: bool | None = Field(None, description="Whether the match is over.")
    winner: Winner | None = Field(
        None, description="The seat (team when partnered) that won the match, or none."
    )


class Scenario(_Model):
    """A scenario file."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True,
        json_schema_extra={"title": "bones scenario file"},
    )

    variant: str = Field(
        min_length=1, description="A built-in variant name, or a path relative to this file."
    )
    source: str = Field(min_length=1, description="Where the example comes from.")
    description: str = ""
    players: int | None = Field(
        None, ge=2, le=10, description="Default: the variant's smallest player count."
    )
    teams: bool | None = Field(
        None, description="Play in two teams where the variant makes partnerships optional."
    )
    seed: int = Field(0, ge=0, description="For lead rules by lot or at random.")
    round: int | None = Field(
        None, ge=1,
        description="Train layouts: the round of the file's first hand in its match (its "
        "hub double follows; with hands: the hands are rounds N, N+1, ...); default 1.",
    )
    rules: dict[str, Any] | None = Field(
        None, description="Overrides deep-merged over the variant, exactly as extends does."
    )
    leader: int | None = Field(
        None, ge=0,
        description="Who leads. In hand mode, a given leader may lead any tile (the "
        "variant's lead rule is not applied); left out, the lead rule decides.",
    )
    scores: list[int] | None = Field(
        None, description="Starting match scores, per seat (per team when partnered)."
    )
    deal: list[list[TileText]] | None = Field(
        None,
        description="Hand mode: each seat's hand in seat order (any sizes); tiles "
        "neither dealt nor in the boneyard are out of play.",
    )
    boneyard: list[TileText] | None = Field(
        None, description="Hand mode: the boneyard, top first; the variant's reserve applies."
    )
    expect_leader: int | None = Field(
        None, ge=0, description="Hand mode: " + EXPECT_LEADER_DESCRIPTION
    )
    lot: list[list[TileText]] | None = Field(None, description="Hand mode: " + LOT_DESCRIPTION)
    got_in: list[bool] | None = Field(None, description="Hand mode: " + GOT_IN_DESCRIPTION)
    steps: list[Step] = Field(default_factory=list)
    expect_end: ExpectEnd | None = None
    hands: list[MatchHand] | None = Field(
        None, min_length=1,
        description="A match file: the hands in order, each with its deal; scores carry "
        "from hand to hand (leader, deal, boneyard, lot, steps and expect_end then go "
        "under each hand).",
    )
    expect_match: ExpectMatch | None = Field(
        None, description="A match file: what must hold once every hand is done."
    )
