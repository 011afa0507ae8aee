"""Scenario files: worked examples from the rule sources, replayed by the engine.

A scenario names a variant (a built-in name, or a path relative to the
scenario file), optional rule overrides, and a list of steps, each with what
the source says must happen.  :func:`run_scenario` replays it and reports the
first place where the engine disagrees; ``bones check`` prints that report.

Two modes:

* **layout mode** (no ``deal``): every seat is treated as holding every tile
  not yet on the table, so only the layout's legality, the count and the
  points are checked; plays alternate seats from seat 0 (or ``leader``) so
  running ``scores`` still mean something;
* **hand mode** (``deal`` given): a fixed deal played by the full rules, with
  drawing, passing, blocking and settlement.

The format is documented in ``docs/scenarios.md``.  Malformed files are
reported as :class:`~bones.engine.yamlsource.LocatedProblem` lines
(``FILE:LINE:COL: key.path: message``), never as tracebacks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bones.engine import spec
from bones.engine.moves import Outcome
from bones.engine.problems import pydantic_problems
from bones.engine.spec import TileText
from bones.engine.yamlsource import LocatedProblem, VariantError, YNode, display_name, read_yaml

PLAY_PATTERN = r"^\s*\d{1,2}\s*-\s*\d{1,2}\s*(@\s*[NSEWnsew][0-9]*\s*)?$"

#: What each text pattern of the scenario models means, for messages.
FORMS = {**spec.FORMS, PLAY_PATTERN: ("not a play", "a tile like 6-4, or TILE@ARM like 6-4@W")}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


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
        "(W, E, N, S, N2, S2...); arms not listed must not be open.",
    )
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
    steps: list[Step] = Field(default_factory=list)
    expect_end: ExpectEnd | None = None


# ---------------------------------------------------------------- results


@dataclass
class ScenarioResult:
    """The outcome of one scenario file.

    ``status`` is ``"ok"``, ``"mismatch"`` (the engine disagreed with the
    file at ``step``; 0 means the end of the hand) or ``"error"`` (the file
    cannot be run; ``problems`` say where).
    """

    file: str
    status: str
    step: int | None = None
    message: str = ""
    expected: Any = None
    got: Any = None
    key: str | None = None
    problems: list[LocatedProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def lines(self) -> list[str]:
        """The report: ``FILE: ok``, ``FILE: step N: ...`` or located problems."""
        if self.status == "ok":
            return [f"{self.file}: ok"]
        if self.status == "error":
            return [p.format() for p in self.problems]
        where = "end" if self.step == 0 else f"step {self.step}"
        return [f"{self.file}: {where}: {self.message}"]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "status": self.status}
        if self.status == "mismatch":
            out.update(step=self.step, key=self.key, expected=self.expected,
                       got=self.got, message=self.message)
        if self.status == "error":
            out["problems"] = [p.to_dict() for p in self.problems]
        return out


class _Mismatch(Exception):
    def __init__(self, step: int, message: str, key: str | None = None,
                 expected: Any = None, got: Any = None) -> None:
        super().__init__(message)
        self.step, self.message, self.key = step, message, key
        self.expected, self.got = expected, got


class ScenarioError(ValueError):
    """A scenario file that cannot be run; ``problems`` locate each reason."""

    def __init__(self, problems: list[LocatedProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(p.format() for p in problems))


# ---------------------------------------------------------------- loading


@dataclass
class LoadedScenario:
    """A validated scenario with its variant compiled."""

    path: Path
    file: str
    scenario: Scenario
    rules: Any  # bones.engine.rules.Rules
    root: YNode


def load_scenario(path: str | os.PathLike[str], *, allow_dirs: Any = None) -> LoadedScenario:
    """Read, validate and compile a scenario file; raises :class:`ScenarioError`.

    Its ``variant:`` is a built-in name or a ``.yaml`` file inside the
    scenario's folder (or inside ``allow_dirs``), as ``extends:`` in a
    variant file (see :func:`bones.engine.load.load_variant`).
    """
    path = Path(path)
    file = display_name(path)
    try:
        root, problems = read_yaml(path, file, what="scenario file")
    except VariantError as err:
        raise ScenarioError(err.problems) from None
    return _loaded(root, problems, path, file, allow_dirs)


def load_scenario_text(text: str | bytes, *, file: str = "<text>", allow_dirs: Any = None) -> LoadedScenario:
    """A scenario given as text (standard input): its ``variant:`` may name a
    built-in, or a file inside ``allow_dirs`` only (text has no folder)."""
    from bones.engine.load import NO_FOLDER
    from bones.engine.yamlsource import MAX_BYTES, decode, parse_yaml

    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    try:
        if len(data) > MAX_BYTES:
            raise VariantError([LocatedProblem(file, 1, 1, (), f"the text is too large ({len(data)} bytes; "
                                               "a scenario file is limited to 1 MiB)")])
        root, problems = parse_yaml(decode(data, file), file)
    except VariantError as err:
        raise ScenarioError(err.problems) from None
    return _loaded(root, problems, NO_FOLDER, file, allow_dirs)


def _loaded(root: YNode | None, problems: list[LocatedProblem], path: Any, file: str,
            allow_dirs: Any) -> LoadedScenario:
    if root is not None and root.refused:
        raise ScenarioError(problems)
    if root is None or root.kind != "map":
        # say what is wrong, never what the file holds
        line, col = (root.line, root.col) if root is not None else (1, 1)
        raise ScenarioError([LocatedProblem(
            file, line, col, (), "a scenario file is a mapping with variant, source and steps")])
    if problems:
        raise ScenarioError(problems)
    try:
        scenario = Scenario.model_validate(root.to_plain(), strict=True)
    except ValidationError as err:
        problems = pydantic_problems(root, err.errors(include_url=False), Scenario, FORMS)
        raise ScenarioError(sorted(dict.fromkeys(problems), key=lambda p: (p.line, p.col))) from None

    rules = _compile(path, file, root, scenario, allow_dirs)
    problems = _semantic_problems(scenario, rules, root, file)
    if problems:
        raise ScenarioError(problems)
    where = Path(path) if isinstance(path, (str, os.PathLike)) else Path(file)
    return LoadedScenario(where, file, scenario, rules, root)


def _node_at(root: YNode, path: tuple[Any, ...]) -> tuple[YNode, tuple[Any, ...]]:
    """The deepest node along ``path`` and the parts of it that were matched.

    Parts that name no node (pydantic's union branch names) are skipped.
    """
    node = root
    matched: list[Any] = []
    for part in path:
        if node.kind == "map" and part in node.value:
            node = node.value[part][1]
            matched.append(part)
        elif node.kind == "seq" and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            matched.append(part)
    return node, tuple(matched)


def _locate(root: YNode, file: str, path: tuple[Any, ...], message: str,
            at_key: bool = False) -> LocatedProblem:
    node, matched = _node_at(root, path)
    line, col = node.line, node.col
    if at_key and matched:
        parent, _ = _node_at(root, matched[:-1])
        entry = parent.get(matched[-1]) if parent.kind == "map" else None
        if entry is not None:
            line, col = entry[0].line, entry[0].col
    return LocatedProblem(file, line, col, matched, message)


# ------------------------------------------------------ variant and checks


def _load_variant(path: Any, ref: str, overrides: YNode | None, allow_dirs: Any) -> Any:
    """The scenario's variant: a built-in name, or a path under the file policy of
    :func:`bones.engine.load.load_variant` relative to the scenario file."""
    from bones.engine.load import load_variant

    return load_variant(ref, overrides=overrides, allow_dirs=allow_dirs, named_by=path)


def _compile(path: Any, file: str, root: YNode, scenario: Scenario, allow_dirs: Any = None) -> Any:
    from bones.engine.rules import RulesError, compile_rules

    ref = scenario.variant
    entry = root.get("rules")
    overrides = entry[1] if entry is not None and scenario.rules is not None else None
    try:
        variant = _load_variant(path, ref, overrides, allow_dirs)
    except VariantError as err:
        problems = []
        for p in err.problems:
            if p.file == file:
                # an override under rules: (located in this file, path inside rules)
                problems.append(LocatedProblem(p.file, p.line, p.col, ("rules",) + tuple(p.path),
                                               p.message))
            elif p.line == 0 or p.file in (ref, scenario.variant, display_name(ref)):
                # an unknown name or a missing file: point at the scenario's key
                problems.append(_locate(root, file, ("variant",), p.message))
            else:
                problems.append(p)
        raise ScenarioError(problems) from None
    try:
        return compile_rules(variant, scenario.players, scenario.teams)
    except RulesError as err:
        key = "teams" if scenario.teams is not None and "partnership" in str(err) else "players"
        if getattr(scenario, key) is None:
            key = "variant"
        raise ScenarioError([_locate(root, file, (key,), str(err))]) from None


class _Checks:
    """The checks of a scenario against its compiled variant, each located in the file."""

    def __init__(self, s: Scenario, rules: Any, root: YNode, file: str) -> None:
        self.s, self.rules, self.root, self.file = s, rules, root, file
        self.problems: list[LocatedProblem] = []
        self.owners = rules.owners
        self.who = "team" if rules.teams else "seat"
        self.seen: dict[int, tuple[Any, ...]] = {}

    def add(self, path: tuple[Any, ...], message: str) -> None:
        self.problems.append(_locate(self.root, self.file, path, message))

    def tile(self, text: str, path: tuple[Any, ...]) -> int | None:
        from bones.engine.tiles import TileError

        try:
            return int(self.rules.tiles.parse(text))
        except TileError as err:
            self.add(path, str(err))
            return None

    def arm(self, name: str, path: tuple[Any, ...]) -> None:
        from bones.engine.notation import NotationError, arm_index

        try:
            arm_index(name)
        except NotationError as err:
            self.add(path, str(err))

    def claim_tile(self, t: int | None, path: tuple[Any, ...]) -> None:
        """A tile given in the deal or the boneyard, given only once."""
        if t is None:
            return
        if t in self.seen:
            first = ".".join(str(p) for p in self.seen[t])
            self.add(path, f"{self.rules.tiles.names[t]} is given twice (also at {first})")
        else:
            self.seen[t] = path

    def per_owner(self, path: tuple[Any, ...], value: list[int] | None, what: str = "scores") -> None:
        if value is not None and len(value) != self.owners:
            self.add(path, f"give {self.owners} {what}, one per {self.who}")

    def winner(self, path: tuple[Any, ...], value: Any) -> None:
        if value not in (None, "none") and not 0 <= int(value) < self.owners:
            self.add(path, f"{self.who} {value} does not exist")

    def table(self) -> None:
        s, rules = self.s, self.rules
        if s.leader is not None and s.leader >= rules.players:
            self.add(("leader",), f"seat {s.leader} does not exist with {rules.players} players "
                     "(seats are numbered from 0)")
        if s.scores is not None and len(s.scores) != self.owners:
            self.add(("scores",), f"give {self.owners} scores, one per {self.who} (got {len(s.scores)})")

    def deal(self) -> None:
        s, rules = self.s, self.rules
        if s.deal is None and s.boneyard is not None:
            self.add(("boneyard",), "a boneyard needs a deal (hand mode)")
        if s.deal is not None:
            if len(s.deal) != rules.players:
                self.add(("deal",), f"give {rules.players} hands, one per seat (got {len(s.deal)})")
            for seat, tiles in enumerate(s.deal):
                for i, text in enumerate(tiles):
                    self.claim_tile(self.tile(text, ("deal", seat, i)), ("deal", seat, i))
        for i, text in enumerate(s.boneyard or []):
            self.claim_tile(self.tile(text, ("boneyard", i)), ("boneyard", i))

    def step(self, n: int, step: Step) -> None:
        from bones.engine.rules import MUGGINS_OFF

        base = ("steps", n)
        players = self.rules.players
        if step.seat is not None and step.seat >= players:
            self.add(base + ("seat",), f"seat {step.seat} does not exist with {players} players")
        if step.claim is not None and self.rules.muggins == MUGGINS_OFF:
            self.add(base + ("claim",), "the variant's muggins rule is off "
                     "(set scoring.muggins.kind: transfer or forfeit, for example under rules:)")
        if self.s.deal is None and step.kind != "play":
            self.add(base, f"a {step.kind} needs a deal: layout mode (no deal) takes only plays")
        if step.play is not None:
            tile_text, _, arm = step.play.partition("@")
            self.tile(tile_text, base + ("play",))
            if arm:
                self.arm(arm, base + ("play",))
        if isinstance(step.draw, str):
            self.tile(step.draw, base + ("draw",))
        e = step.expect
        if e is not None:
            self.per_owner(base + ("expect", "scores"), e.scores)
            for name in e.ends or {}:
                self.arm(name, base + ("expect", "ends", name))
            self.winner(base + ("expect", "winner"), e.winner)

    def end(self) -> None:
        end = self.s.expect_end
        if end is not None:
            for key in ("settlement", "scores"):
                self.per_owner(("expect_end", key), getattr(end, key), "numbers")
            self.winner(("expect_end", "winner"), end.winner)
        if not self.s.steps and end is None:
            self.add(("steps",), "nothing to check: give steps or expect_end")


def _semantic_problems(s: Scenario, rules: Any, root: YNode, file: str) -> list[LocatedProblem]:
    checks = _Checks(s, rules, root, file)
    checks.table()
    checks.deal()
    for n, step in enumerate(s.steps):
        checks.step(n, step)
    checks.end()
    return sorted(checks.problems, key=lambda p: (p.line, p.col))


# ---------------------------------------------------------------- running


class _FixedDeal:
    """Builds a Match whose dealer hands out the scenario's deal, so the
    variant's own first-lead rule (with its fallbacks) picks the leader."""

    @staticmethod
    def match(rules: Any, seed: int, scores: list[int] | None, hands: list[int],
              boneyard: list[int]) -> Any:
        from bones.engine.match import Match

        class FixedDealMatch(Match):
            def _shuffle_deal(self) -> tuple[list[int], list[int]]:
                return list(hands), list(boneyard)

        return FixedDealMatch(rules, seed, scores)


def _start(loaded: LoadedScenario) -> tuple[Any, Any, bool]:
    """(match, hand, layout_mode) for a loaded scenario."""
    from bones.engine.match import Deal

    s, rules = loaded.scenario, loaded.rules
    ts = rules.tiles
    scores = list(s.scores) if s.scores is not None else None
    doubles_only = rules.variant.lead.allowed == "double"
    if s.deal is None:
        from bones.engine.match import Match

        match = Match(rules, s.seed, scores)
        full = ts.full
        leader = s.leader or 0
        deal = Deal(tuple([full] * rules.players), (), leader, -1, doubles_only, 0)
        return match, match.start_hand(deal), True

    hands = [ts.mask_of([ts.parse(t) for t in tiles]) for tiles in s.deal]
    boneyard = [ts.parse(t) for t in s.boneyard or []]
    used = ts.mask_of(boneyard)
    for h in hands:
        used |= h
    out_of_play = ts.full & ~used
    match = _FixedDeal.match(rules, s.seed, scores, hands, boneyard)
    if s.leader is not None:
        deal = Deal(tuple(hands), tuple(boneyard), s.leader, -1, doubles_only, out_of_play)
    else:
        from bones.engine.rules import RulesError

        try:
            deal = match.next_deal()
        except RulesError:
            raise ScenarioError([_locate(
                loaded.root, loaded.file, ("deal",),
                "the variant's lead rule finds no leader in this deal (give leader:)")]) from None
        import dataclasses

        deal = dataclasses.replace(deal, out_of_play=out_of_play)
    return match, match.start_hand(deal), False


def _ends(hand: Any) -> dict[str, int]:
    from bones.engine.notation import arm_name

    return {arm_name(a): pip for a, pip in hand.open_ends().items()}


def _fmt(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _same_ends(expected: dict[str, int], got: dict[str, int]) -> bool:
    from bones.engine.notation import arm_index, arm_name

    norm = {arm_name(arm_index(k)): v for k, v in expected.items()}
    return norm == got


def _check(step: int, key: str, expected: Any, got: Any) -> None:
    if key == "ends":
        if not _same_ends(expected, got):
            raise _Mismatch(step, f"expected ends {_fmt(expected)}, got {_fmt(got)}",
                            key, expected, got)
        return
    if expected != got:
        raise _Mismatch(step, f"expected {key} {_fmt(expected)}, got {_fmt(got)}",
                        key, expected, got)


def _winner(value: int) -> Any:
    return "none" if value < 0 else value


def _check_expect(n: int, e: Expect, hand: Any) -> None:
    if e.count is not None:
        _check(n, "count", e.count, hand.count)
    if e.points is not None:
        _check(n, "points", e.points, hand.last_points)
    if e.ends is not None:
        _check(n, "ends", e.ends, _ends(hand))
    if e.scores is not None:
        _check(n, "scores", list(e.scores), list(hand.scores))
    if e.game_over is not None:
        _check(n, "game_over", e.game_over, hand.game_over)
    if e.winner is not None:
        _check(n, "winner", e.winner, _winner(hand.winner))


def _snapshot(hand: Any) -> tuple[Any, ...]:
    return (hand.count, hand.turn, len(hand.log), tuple(hand.hands), hand.bone_pos,
            tuple(hand.scores), tuple(hand.arm_open), hand.state)


def _run_step(n: int, step: Step, hand: Any, layout_mode: bool) -> None:
    from bones.engine.hand import IllegalMoveError
    from bones.engine.notation import AmbiguousMoveError, NotationError, parse_move

    if hand.over:
        raise _Mismatch(n, f"the hand is already over ({Outcome(hand.state).label}), "
                        f"but the file plays {step.text()}", "move", step.text(), Outcome(hand.state).label)
    if layout_mode:
        # every seat holds every tile not yet laid: only the layout decides
        rest = hand.rules.tiles.full & ~hand.on_table
        for seat in range(len(hand.hands)):
            hand.hands[seat] = rest
    if step.seat is not None and step.seat != hand.turn:
        raise _Mismatch(n, f"expected seat {step.seat} to move, got seat {hand.turn}",
                        "seat", step.seat, hand.turn)
    expect = step.expect
    want_illegal = expect is not None and expect.error == "illegal"
    text = step.text()
    try:
        move = parse_move(hand, text)
    except AmbiguousMoveError as err:
        raise _Mismatch(n, str(err), "move", text, err.options) from None
    except NotationError as err:
        if want_illegal:  # e.g. an arm the layout does not have yet
            _check_expect(n, expect, hand)  # type: ignore[arg-type]
            return
        raise _Mismatch(n, f"expected a legal move, got: {err}", "error", None, "illegal") from None
    if isinstance(step.draw, str):
        if hand.drawable:
            got = hand.rules.tiles.names[hand.boneyard[hand.bone_pos]]
            want = hand.rules.tiles.names[hand.rules.tiles.parse(step.draw)]
            if got != want:
                raise _Mismatch(n, f"expected draw {want}, got {got}", "draw", want, got)
    before = _snapshot(hand)
    try:
        hand.play(move, step.claim)
    except IllegalMoveError as err:
        if not want_illegal:
            raise _Mismatch(n, f"expected a legal move, got: {err}", "error", None, "illegal") from None
        if _snapshot(hand) != before:
            raise _Mismatch(n, "the rejected move changed the hand", "error", "unchanged",
                            "changed") from None
        _check_expect(n, expect, hand)  # type: ignore[arg-type]
        return
    if want_illegal:
        raise _Mismatch(n, f"expected {text} to be illegal, but it was played "
                        f"(count {hand.count}, points {hand.last_points})", "error", "illegal", "legal")
    if expect is not None:
        _check_expect(n, expect, hand)


def _run_end(end: ExpectEnd, match: Any, hand: Any) -> None:
    state = Outcome(hand.state).label
    if end.hand is not None:
        _check(0, "hand", end.hand, state)
    if end.settlement is not None:
        got = list(hand.settlement) if hand.settlement is not None else None
        if got is None:
            raise _Mismatch(0, f"expected settlement {_fmt(end.settlement)}, got none "
                            f"(the hand is {state})", "settlement", end.settlement, None)
        _check(0, "settlement", list(end.settlement), got)
    if end.scores is not None:
        _check(0, "scores", list(end.scores), list(hand.scores))
    game_over, winner = hand.game_over, hand.winner
    if hand.over and match.current is hand:
        match.finish_hand(hand)
        game_over, winner = match.game_over, match.winner
    if end.game_over is not None:
        _check(0, "game_over", end.game_over, game_over)
    if end.winner is not None:
        _check(0, "winner", end.winner, _winner(winner))


def run_loaded(loaded: LoadedScenario) -> ScenarioResult:
    """Replay a loaded scenario (see :func:`run_scenario`)."""
    s = loaded.scenario
    try:
        match, hand, layout_mode = _start(loaded)
        for n, step in enumerate(s.steps, 1):
            _run_step(n, step, hand, layout_mode)
        if s.expect_end is not None:
            _run_end(s.expect_end, match, hand)
    except _Mismatch as m:
        return ScenarioResult(loaded.file, "mismatch", m.step, m.message, m.expected, m.got, m.key)
    except ScenarioError as err:
        return ScenarioResult(loaded.file, "error", problems=err.problems)
    return ScenarioResult(loaded.file, "ok")


def run_scenario(path: str | os.PathLike[str], *, allow_dirs: Any = None) -> ScenarioResult:
    """Replay the scenario file at ``path`` and report the first mismatch.

    Never raises for a bad file: a file that cannot be read or run gives a
    result with ``status == "error"`` and located ``problems``.
    """
    try:
        loaded = load_scenario(path, allow_dirs=allow_dirs)
    except ScenarioError as err:
        return ScenarioResult(display_name(Path(path)), "error", problems=err.problems)
    return run_loaded(loaded)


def run_scenario_text(text: str | bytes, *, file: str = "<text>", allow_dirs: Any = None) -> ScenarioResult:
    """:func:`run_scenario` for a scenario given as text (see :func:`load_scenario_text`)."""
    try:
        loaded = load_scenario_text(text, file=file, allow_dirs=allow_dirs)
    except ScenarioError as err:
        return ScenarioResult(file, "error", problems=err.problems)
    return run_loaded(loaded)


__all__ = [
    "Scenario", "Step", "Expect", "ExpectEnd", "ScenarioResult", "ScenarioError",
    "LoadedScenario", "load_scenario", "load_scenario_text", "run_scenario", "run_scenario_text",
    "run_loaded",
]
