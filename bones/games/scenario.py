"""Scenario files: worked examples from the rule sources, replayed by the engine.

A scenario names a variant (a built-in name, or a path relative to the
scenario file), optional rule overrides, and a list of steps, each with what
the source says must happen.  :func:`run_scenario` replays it and reports the
first place where the engine disagrees; ``bones check`` prints that report.

Three forms:

* **layout mode** (no ``deal``): every seat is treated as holding every tile
  not yet on the table, so only the layout's legality, the count and the
  points are checked; plays alternate seats from seat 0 (or ``leader``) so
  running ``scores`` still mean something;
* **hand mode** (``deal`` given): a fixed deal played by the full rules, with
  drawing, passing, blocking and settlement;
* **a match** (``hands`` given): several hands in order, each in hand mode,
  with the match's scores carried from hand to hand, so the later-lead rule,
  the target reached across hands and the match's end can be checked.

Where a lead is drawn by lot, the file may give the tiles drawn (``lot``):
the engine's own lot rule then decides from them, through a stand-in for its
random stream (:class:`_ScriptedLot`).  Left out, the lot (and a lead at
random) is drawn from ``seed`` as docs/random.md says.

The format is documented in ``docs/scenarios.md``.  Malformed files are
reported as :class:`~bones.lang.yamlsource.LocatedProblem` lines
(``FILE:LINE:COL: key.path: message``), never as tracebacks.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bones.engine.hand import IllegalMoveError
from bones.engine.leads import draw_for_double, refused
from bones.engine.match import Deal, Match
from bones.engine.moves import Outcome
from bones.engine.notation import AmbiguousMoveError, NotationError, arm_index, arm_name, parse_move
from bones.engine.rng import Rng
from bones.engine.rules import MUGGINS_OFF, RulesError
from bones.engine.tiles import TileError
from bones.lang import spec
from bones.lang.compile import compile_rules
from bones.lang.errors import VariantError
from bones.lang.load import NO_FOLDER, load_variant
from bones.lang.problems import pydantic_problems
from bones.lang.scenariofile import (
    FORMS,
    Expect,
    ExpectEnd,
    ExpectMatch,
    MatchHand,
    Scenario,
    Step,
)
from bones.lang.yamlsource import (
    MAX_BYTES,
    LocatedProblem,
    YNode,
    decode,
    display_name,
    parse_yaml,
    read_yaml,
)

if TYPE_CHECKING:  # pragma: no cover - compiled only when a scenario runs
    from bones.engine.handlike import HandLike
    from bones.engine.rules import Rules

# ---------------------------------------------------------------- results


@dataclass
class ScenarioResult:
    """The outcome of one scenario file.

    ``status`` is ``"ok"``, ``"mismatch"`` (the engine disagreed with the
    file) or ``"error"`` (the file cannot be run; ``problems`` say where).
    A mismatch says where: ``phase`` is ``"step"`` (at ``step``, counted
    from 1), ``"start"`` (the lead of a hand), ``"end"`` (the end of a hand;
    ``step`` is then 0) or ``"match"`` (the end of a match file); ``hand``
    is the hand's number (from 1) in a match file, else ``None``.
    """

    file: str
    status: str
    step: int | None = None
    message: str = ""
    expected: Any = None
    got: Any = None
    key: str | None = None
    problems: list[LocatedProblem] = field(default_factory=list)
    hand: int | None = None
    phase: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def where(self) -> str:
        """``hand 2: step 3``, ``end``, ``hand 1: start``, ``match``..."""
        phase = self.phase or ("end" if self.step == 0 else "step")
        where = f"step {self.step}" if phase == "step" else phase
        return where if self.hand is None or phase == "match" else f"hand {self.hand}: {where}"

    def lines(self) -> list[str]:
        """The report: ``FILE: ok``, ``FILE: step N: ...`` or located problems."""
        if self.status == "ok":
            return [f"{self.file}: ok"]
        if self.status == "error":
            return [p.format() for p in self.problems]
        return [f"{self.file}: {self.where()}: {self.message}"]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "status": self.status}
        if self.status == "mismatch":
            if self.hand is not None:
                out["hand"] = self.hand
            if self.phase in ("start", "match"):  # else step says where: N, or 0 for the end
                out["phase"] = self.phase
            out.update(step=self.step, key=self.key, expected=self.expected, got=self.got,
                       message=self.message)
        if self.status == "error":
            out["problems"] = [p.to_dict() for p in self.problems]
        return out


#: ``_Mismatch.step`` for the lead of a hand and for the end of a match
START, MATCH_END = -1, -2


class _Mismatch(Exception):
    def __init__(self, step: int, message: str, key: str | None = None,
                 expected: Any = None, got: Any = None) -> None:
        super().__init__(message)
        self.step, self.message, self.key = step, message, key
        self.expected, self.got = expected, got
        self.hand: int | None = None

    def result(self, file: str) -> ScenarioResult:
        phase = {START: "start", MATCH_END: "match", 0: "end"}.get(self.step, "step")
        step = self.step if self.step >= 0 else None
        return ScenarioResult(file, "mismatch", step, self.message, self.expected, self.got,
                              self.key, hand=self.hand, phase=phase)


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
    rules: Rules
    root: YNode


def load_scenario(path: str | os.PathLike[str], *, allow_dirs: Any = None) -> LoadedScenario:
    """Read, validate and compile a scenario file; raises :class:`ScenarioError`.

    Its ``variant:`` is a built-in name or a ``.yaml`` file inside the
    scenario's folder (or inside ``allow_dirs``), as ``extends:`` in a
    variant file (see :func:`bones.lang.load.load_variant`).
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


def _load_variant(path: Any, ref: str, overrides: YNode | None, allow_dirs: Any) -> spec.Variant:
    """The scenario's variant: a built-in name, or a path under the file policy of
    :func:`bones.lang.load.load_variant` relative to the scenario file."""
    return load_variant(ref, overrides=overrides, allow_dirs=allow_dirs, named_by=path)


def _compile(path: Any, file: str, root: YNode, scenario: Scenario,
             allow_dirs: Any = None) -> Rules:

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

    def __init__(self, s: Scenario, rules: Rules, root: YNode, file: str) -> None:
        self.s, self.rules, self.root, self.file = s, rules, root, file
        self.problems: list[LocatedProblem] = []
        self.owners = rules.owners
        self.who = "team" if rules.teams else "seat"
        self.seen: dict[int, tuple[Any, ...]] = {}

    def add(self, path: tuple[Any, ...], message: str) -> None:
        self.problems.append(_locate(self.root, self.file, path, message))

    def tile(self, text: str, path: tuple[Any, ...]) -> int | None:
        try:
            return int(self.rules.tiles.parse(text))
        except TileError as err:
            self.add(path, str(err))
            return None

    def arm(self, name: str, path: tuple[Any, ...]) -> None:
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

    def seat(self, path: tuple[Any, ...], seat: int | None) -> None:
        players = self.rules.players
        if seat is not None and seat >= players:
            self.add(path, f"seat {seat} does not exist with {players} players "
                     "(seats are numbered from 0)")

    def table(self) -> None:
        s = self.s
        self.seat(("leader",), s.leader)
        trains = self.rules.trains
        if trains is None and s.round is not None:
            self.add(("round",), "round is for train layouts (the variant's layout.trains is "
                     "none)")
        if trains is not None:
            if s.round is not None and s.round > trains.rounds:
                self.add(("round",), f"the match has {trains.rounds} rounds")
            if s.hands is None and s.deal is None:
                self.add(("deal",), "a train layout's file gives a deal (the holder of the "
                         "round's double places it)")
            for prefix, h in ([((), s)] if s.hands is None else
                              [(("hands", i), h) for i, h in enumerate(s.hands)]):
                if h.leader is not None:
                    self.add(prefix + ("leader",), "in a train layout the holder of the "
                             "round's double starts: leave out leader (expect_leader checks it)")
        if s.scores is not None and len(s.scores) != self.owners:
            self.add(("scores",), f"give {self.owners} scores, one per {self.who} (got {len(s.scores)})")
        if s.hands is not None:
            for key in ("leader", "expect_leader", "lot", "deal", "boneyard", "expect_end",
                        "got_in"):
                if getattr(s, key) is not None:
                    self.add((key,), f"a match file (hands:) gives {key} under each hand")
            if s.steps:
                self.add(("steps",), "a match file (hands:) gives steps under each hand")
        elif s.expect_match is not None:
            self.add(("expect_match",), "expect_match needs hands: (a match file); the end "
                     "of a single hand goes under expect_end")

    def lead(self, prefix: tuple[Any, ...], leader: int | None, expect_leader: int | None,
             lot: list[list[str]] | None, deal: Any) -> None:
        """A hand's leader (given or expected) and its lot."""
        self.seat(prefix + ("expect_leader",), expect_leader)
        if leader is not None and expect_leader is not None:
            self.add(prefix + ("expect_leader",), "give leader (the lead rule is not applied) or "
                     "expect_leader (the lead rule's choice is checked), not both")
        if lot is None:
            return
        if deal is None:
            self.add(prefix + ("lot",), "a lot needs a deal (hand mode)")
        elif leader is not None:
            self.add(prefix + ("lot",), "a lot is drawn only when the lead rule chooses the "
                     "leader: leave out leader")
        for r, draws in enumerate(lot):
            path = prefix + ("lot", r)
            if not draws:
                self.add(path, "a round of the lot gives one tile per contender")
            seen: dict[int, int] = {}
            for i, text in enumerate(draws):
                t = self.tile(text, path + (i,))
                if t is not None and t in seen:
                    self.add(path + (i,), f"{self.rules.tiles.names[t]} is drawn twice in one "
                             f"round of the lot (also at {seen[t]}): each draws a different tile")
                elif t is not None:
                    seen[t] = i

    def deal(self, prefix: tuple[Any, ...], deal: Any, boneyard: Any) -> None:
        rules = self.rules
        self.seen = {}  # every hand is dealt anew
        if deal is None and boneyard is not None:
            self.add(prefix + ("boneyard",), "a boneyard needs a deal (hand mode)")
        if deal is not None:
            if len(deal) != rules.players:
                self.add(prefix + ("deal",), f"give {rules.players} hands, one per seat (got {len(deal)})")
            for seat, tiles in enumerate(deal):
                for i, text in enumerate(tiles):
                    path = prefix + ("deal", seat, i)
                    self.claim_tile(self.tile(text, path), path)
        for i, text in enumerate(boneyard or []):
            path = prefix + ("boneyard", i)
            self.claim_tile(self.tile(text, path), path)

    def step(self, base: tuple[Any, ...], step: Step, has_deal: bool) -> None:
        players = self.rules.players
        if step.seat is not None and step.seat >= players:
            self.add(base + ("seat",), f"seat {step.seat} does not exist with {players} players")
        if step.claim is not None and self.rules.muggins == MUGGINS_OFF:
            self.add(base + ("claim",), "the variant's muggins rule is off "
                     "(set scoring.muggins.kind: transfer or forfeit, for example under rules:)")
        if not has_deal and step.kind != "play":
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

    def end(self, prefix: tuple[Any, ...], end: ExpectEnd | ExpectMatch | None, key: str) -> None:
        if end is None:
            return
        for name in ("settlement", "scores"):
            self.per_owner(prefix + (key, name), getattr(end, name, None), "numbers")
        got_in = getattr(end, "got_in", None)
        if got_in is not None and len(got_in) != self.owners:
            self.add(prefix + (key, "got_in"), f"give {self.owners} values, one per {self.who}")
        self.winner(prefix + (key, "winner"), end.winner)

    def hand(self, prefix: tuple[Any, ...], h: Scenario | MatchHand) -> None:
        """The checks of one hand: the top level of a single-hand file, or an
        item of a match file's hands."""
        self.lead(prefix, h.leader, h.expect_leader, h.lot, h.deal)
        self.deal(prefix, h.deal, h.boneyard)
        if h.got_in is not None:
            if len(h.got_in) != self.owners:
                self.add(prefix + ("got_in",), f"give {self.owners} values, one per {self.who}")
            elif not self.rules.get_in:
                self.add(prefix + ("got_in",), "the variant has no get-in score (scoring.get_in is 0)")
        for n, step in enumerate(h.steps):
            self.step(prefix + ("steps", n), step, h.deal is not None)
        self.end(prefix, h.expect_end, "expect_end")
        if isinstance(h, MatchHand) and h.expect_redeal:
            given = [k for k in ("leader", "expect_leader", "lot", "got_in", "expect_end",
                                 "boneyard") if getattr(h, k) is not None] + (
                ["steps"] if h.steps else [])
            if given:
                self.add(prefix + (given[0],), "a deal expected to be redealt is not played: "
                         "give only its deal")
            elif not (self.rules.redeal_doubles or self.rules.redeal_suit):
                self.add(prefix + ("expect_redeal",), "the variant redeals no deal for its "
                         "content (deal.redeal)")


def _semantic_problems(s: Scenario, rules: Any, root: YNode, file: str) -> list[LocatedProblem]:
    checks = _Checks(s, rules, root, file)
    checks.table()
    if s.hands is None:
        checks.hand((), s)
        if not s.steps and s.expect_end is None:
            checks.add(("steps",), "nothing to check: give steps or expect_end")
    else:
        for i, h in enumerate(s.hands):
            checks.seat(("hands", i, "leader"), h.leader)
            checks.hand(("hands", i), h)
        checks.end((), s.expect_match, "expect_match")
    return sorted(dict.fromkeys(checks.problems), key=lambda p: (p.line, p.col))


# ---------------------------------------------------------------- running


class _ScriptedLot:
    """Stands in for a hand's random stream while the engine draws a lot the
    file gives: each draw of the engine's lot (docs/random.md, "The lot")
    returns the index that makes the engine's own pool yield the file's tile,
    so the engine's rule (the heaviest tile leads, a tie draws again) decides
    from the tiles the players drew."""

    def __init__(self, rounds: list[list[int]], size: int) -> None:
        self.rounds, self.size = rounds, size
        self.drawn: list[int] = []  # how many tiles the engine drew in each round
        self.pool: list[int] = []

    def below(self, n: int) -> int:
        i = self.size - n
        if i == 0:  # the engine starts a round with a full pool
            self.drawn.append(0)
            self.pool = list(range(self.size))
        r = len(self.drawn) - 1
        if r >= len(self.rounds):
            raise _Mismatch(START, f"the lot is tied after round {r} (the file gives {len(self.rounds)}): "
                            "give the next round under lot", "lot", len(self.rounds), r + 1)
        if i >= len(self.rounds[r]):
            raise _Mismatch(START, f"round {r + 1} of the lot has more contenders than the "
                            f"{len(self.rounds[r])} tiles the file gives", "lot",
                            len(self.rounds[r]), i + 1)
        self.drawn[r] += 1
        j = self.pool.index(self.rounds[r][i])
        self.pool[i], self.pool[j] = self.pool[j], self.pool[i]
        return j - i


def _scenario_match(rules: Any, seed: int, scores: list[int] | None) -> Any:
    """A Match whose dealer hands out the file's deal of each hand (so the
    variant's own lead rules, with their fallbacks, pick the leader) and
    whose lot draws the file's tiles where the file gives them."""

    class ScriptedRng(Rng):
        __slots__ = ("script",)

        def __init__(self, script: _ScriptedLot) -> None:
            super().__init__(0)
            self.script = script

        def below(self, n: int) -> int:
            return self.script.below(n)

    class ScenarioMatch(Match):
        fixed: tuple[list[int], list[int]] = ([], [])
        lot: list[list[int]] | None = None
        script: _ScriptedLot | None = None

        def _shuffle_deal(self) -> tuple[list[int], list[int]]:
            return list(self.fixed[0]), list(self.fixed[1])

        def _lot(self, contenders: list[int]) -> int:
            if self.lot is None:
                return super()._lot(contenders)  # drawn from the seed
            if self.script is not None:
                raise _Mismatch(START, "the lead rule drew a second lot for this hand "
                                "(a redeal); give leader:", "lot", 1, 2)
            self.script = _ScriptedLot(self.lot, self.rules.tiles.size)
            saved = self.rng
            self.rng = ScriptedRng(self.script)
            try:
                return int(super()._lot(contenders))
            finally:
                self.rng = saved

    return ScenarioMatch(rules, seed, scores, stepwise_core=True)


def _first_round(match: Any, scenario: Scenario) -> Any:
    """A train layout's match starting at the file's ``round``."""
    if scenario.round is not None:
        match.first_round = scenario.round
    return match


def _refused(rules: Any, hands: list[int]) -> bool:
    return refused(rules, hands)


def _check_redeal(loaded: LoadedScenario, h: MatchHand) -> None:
    """A hand the file expects the deal-content rule to refuse."""
    ts = loaded.rules.tiles
    hands = [ts.mask_of([ts.parse(t) for t in tiles]) for tiles in h.deal]
    if not _refused(loaded.rules, hands):
        raise _Mismatch(START, "expected the deal to be refused, but it was accepted",
                        "redeal", True, False)


def _start_hand(match: Any, loaded: LoadedScenario, h: Scenario | MatchHand,
                prefix: tuple[Any, ...]) -> HandLike:
    """Deal a hand (hand mode) and check its lead; returns the hand."""

    rules = loaded.rules
    ts = rules.tiles
    assert h.deal is not None
    hands = [ts.mask_of([ts.parse(t) for t in tiles]) for tiles in h.deal]
    boneyard = [ts.parse(t) for t in h.boneyard or []]
    used = ts.mask_of(boneyard)
    for m in hands:
        used |= m
    out_of_play = ts.full & ~used
    if _refused(rules, hands):
        raise _Mismatch(START, "the variant's deal.redeal refuses this deal (give "
                        "expect_redeal: true, then the redeal)", "redeal", False, True)
    match.fixed = (hands, boneyard)
    match.lot = [[ts.parse(t) for t in r] for r in h.lot] if h.lot is not None else None
    match.script = None
    if h.leader is not None:
        doubles_only = rules.lead_doubles_only
        lead_tile = -1
        if doubles_only and rules.lead_draws_double:
            # the given leader still draws for a double by the variant's rule
            drawn = draw_for_double(rules, hands, boneyard, h.leader, lambda: boneyard.pop(0))
            if drawn is None:
                raise ScenarioError([_locate(
                    loaded.root, loaded.file, prefix + ("boneyard",),
                    "the leader draws for a double, and the boneyard runs out first")])
            lead_tile = drawn
            doubles_only = lead_tile < 0
        deal = Deal(tuple(hands), tuple(boneyard), h.leader, lead_tile, doubles_only, out_of_play)
    else:
        try:
            deal = match.next_deal()
        except RulesError:
            raise ScenarioError([_locate(
                loaded.root, loaded.file, prefix + ("deal",),
                "the variant's lead rule finds no leader in this deal (give leader:)")]) from None
        deal = dataclasses.replace(deal, out_of_play=out_of_play)
    if match.lot is not None:
        script = match.script
        if script is None:
            raise _Mismatch(START, f"the file gives a lot, but the lead rule chose seat "
                            f"{deal.leader} without drawing one", "lot", "a lot", "none")
        if len(script.drawn) < len(match.lot):
            raise _Mismatch(START, f"the lot was decided in round {len(script.drawn)}, but the "
                            f"file gives {len(match.lot)} rounds", "lot", len(match.lot),
                            len(script.drawn))
        for r, (want, got) in enumerate(zip(match.lot, script.drawn), 1):
            if len(want) != got:
                raise _Mismatch(START, f"round {r} of the lot has {got} contenders, the file "
                                f"gives {len(want)} tiles", "lot", len(want), got)
    if h.expect_leader is not None:
        _check(START, "leader", h.expect_leader, deal.leader)
    hand: HandLike = match.start_hand(  # the core that runs steps it
        deal, list(h.got_in) if h.got_in is not None else None)
    return hand


def _start(loaded: LoadedScenario) -> tuple[Any, HandLike, bool]:
    """(match, hand, layout_mode) for a loaded single-hand scenario."""
    s, rules = loaded.scenario, loaded.rules
    scores = list(s.scores) if s.scores is not None else None
    match = _first_round(_scenario_match(rules, s.seed, scores), s)
    if s.deal is None:
        doubles_only = rules.variant.lead.allowed == "double"
        deal = Deal(tuple([rules.tiles.full] * rules.players), (), s.leader or 0, -1,
                    doubles_only, 0)
        return match, match.start_hand(deal), True
    return match, _start_hand(match, loaded, s, ()), False


def _ends(hand: HandLike) -> dict[str, int]:
    if hand.rules.trains is not None:  # a train layout names its trains and arms
        return {arm_name(t): pip for t, pip in hand.ends().items()}  # type: ignore[attr-defined]
    return {arm_name(a): pip for a, pip in hand.open_ends().items()}


def _needs(hand: HandLike) -> dict[str, int]:
    if hand.rules.trains is None:
        return {}
    return {arm_name(t): n for t, n in hand.needs().items()}  # type: ignore[attr-defined]


def _open_trains(hand: HandLike) -> list[int]:
    marked = getattr(hand, "marked", None)
    return [seat for seat, on in enumerate(marked or ()) if on]


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
    norm = {arm_name(arm_index(k)): v for k, v in expected.items()}
    return norm == got


def _check(step: int, key: str, expected: Any, got: Any) -> None:
    if key in ("ends", "needs"):
        if not _same_ends(expected, got):
            raise _Mismatch(step, f"expected {key} {_fmt(expected)}, got {_fmt(got)}",
                            key, expected, got)
        return
    if expected != got:
        raise _Mismatch(step, f"expected {key} {_fmt(expected)}, got {_fmt(got)}",
                        key, expected, got)


def _winner(value: int) -> Any:
    return "none" if value < 0 else value


def _check_expect(n: int, e: Expect, hand: HandLike) -> None:
    if e.count is not None:
        _check(n, "count", e.count, hand.count)
    if e.points is not None:
        _check(n, "points", e.points, hand.last_points)
    if e.ends is not None:
        _check(n, "ends", e.ends, _ends(hand))
    if e.open_trains is not None:
        _check(n, "open_trains", sorted(e.open_trains), _open_trains(hand))
    if e.needs is not None:
        _check(n, "needs", e.needs, _needs(hand))
    if e.scores is not None:
        _check(n, "scores", list(e.scores), list(hand.scores))
    if e.game_over is not None:
        _check(n, "game_over", e.game_over, hand.game_over)
    if e.winner is not None:
        _check(n, "winner", e.winner, _winner(hand.winner))


def _snapshot(hand: HandLike) -> tuple[Any, ...]:
    return (hand.count, hand.turn, len(hand.log), tuple(hand.hands), hand.bone_pos,
            tuple(hand.scores), tuple(hand.arm_open), hand.state,
            tuple(getattr(hand, "marked", ())), str(getattr(hand, "owed", "")))


def _run_step(n: int, step: Step, hand: HandLike, layout_mode: bool) -> None:

    if hand.over:
        raise _Mismatch(n, f"the hand is already over ({Outcome(hand.state).label}), "
                        f"but the file plays {step.text()}", "move", step.text(), Outcome(hand.state).label)
    if layout_mode:
        # every seat holds every tile not yet laid: only the layout decides
        rest = hand.rules.tiles.full & ~hand.on_table
        hand.hands = [rest] * len(hand.hands)
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


def _run_end(end: ExpectEnd, match: Any, hand: HandLike) -> None:
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
    if end.got_in is not None:
        _check(0, "got_in", list(end.got_in), list(hand.got_in))
    game_over, winner = hand.game_over, hand.winner
    if hand.over and match.current is hand:
        match.finish_hand(hand)
        game_over, winner = match.game_over, match.winner
    if end.game_over is not None:
        _check(0, "game_over", end.game_over, game_over)
    if end.winner is not None:
        _check(0, "winner", end.winner, _winner(winner))


def _run_match(loaded: LoadedScenario) -> None:
    """Replay a match file hand by hand; raises :class:`_Mismatch` with its hand."""
    s = loaded.scenario
    assert s.hands is not None
    scores = list(s.scores) if s.scores is not None else None
    match = _first_round(_scenario_match(loaded.rules, s.seed, scores), s)
    hand = None
    for i, h in enumerate(s.hands, 1):
        try:
            if match.game_over:
                who = "team" if loaded.rules.teams else "seat"
                won = "none" if match.winner < 0 else f"{who} {match.winner}"
                raise _Mismatch(START, f"the match is already over (winner {won} after hand "
                                f"{i - 1}), but the file gives hand {i}", "game_over", False, True)
            if h.expect_redeal:
                _check_redeal(loaded, h)
                continue
            hand = _start_hand(match, loaded, h, ("hands", i - 1))
            for n, step in enumerate(h.steps, 1):
                _run_step(n, step, hand, False)
            if h.expect_end is not None:
                _run_end(h.expect_end, match, hand)
            if hand.over and match.current is hand:
                match.finish_hand(hand)
            elif not hand.over and i < len(s.hands):
                raise _Mismatch(0, f"the hand is not over after its steps (playing), but the "
                                f"file gives hand {i + 1}", "hand", "over", "playing")
        except _Mismatch as m:
            m.hand = i
            raise
    end = s.expect_match
    if end is None:
        return
    game_over, winner = match.game_over, match.winner
    if hand is not None and match.current is hand:  # the last hand is still being played
        game_over, winner = hand.game_over, hand.winner
    if end.scores is not None:
        _check(MATCH_END, "scores", list(end.scores), list(match.scores))
    if end.game_over is not None:
        _check(MATCH_END, "game_over", end.game_over, game_over)
    if end.winner is not None:
        _check(MATCH_END, "winner", end.winner, _winner(winner))


def run_loaded(loaded: LoadedScenario) -> ScenarioResult:
    """Replay a loaded scenario (see :func:`run_scenario`)."""
    s = loaded.scenario
    try:
        if s.hands is not None:
            _run_match(loaded)
        else:
            match, hand, layout_mode = _start(loaded)
            for n, step in enumerate(s.steps, 1):
                _run_step(n, step, hand, layout_mode)
            if s.expect_end is not None:
                _run_end(s.expect_end, match, hand)
    except _Mismatch as m:
        return m.result(loaded.file)
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
    "Scenario", "Step", "Expect", "ExpectEnd", "ExpectMatch", "MatchHand", "ScenarioResult", "ScenarioError",
    "LoadedScenario", "load_scenario", "load_scenario_text", "run_scenario", "run_scenario_text",
    "run_loaded",
]
