"""Game records: a played (or interrupted) match as JSON, and its exact replay.

A record stores the fully resolved variant, the table (players, teams), the
seed and, for every hand, the dealt hands, the boneyard order and every move
in notation.  Deals are stored rather than re-dealt from the seed, so a record
replays exactly even if the random generator changes.

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> from bones.engine.match import Match
>>> match = Match(compile_rules(load_variant("all-fives")), seed=3)
>>> hand = match.new_hand()
>>> while not hand.over:
...     hand.apply(hand.legal_moves()[0])
>>> summary = match.finish_hand(hand)
>>> record = record_match(match)
>>> replay(record).scores == match.scores
True
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from bones._version import __version__
from bones.engine.bounds import NUMBER_LIMIT, SEED_LIMIT, bound_message
from bones.engine.hand import Hand, IllegalMoveError
from bones.engine.handlike import HandLike
from bones.engine.match import Deal, Match
from bones.engine.moves import DRAW, Outcome
from bones.engine.notation import NotationError, format_move, parse_move
from bones.engine.rules import RulesError
from bones.engine.tiles import TileError
from bones.engine.trains import python_hand
from bones.games.playmeta import PlayMetaError, read_play
from bones.games.saves import create_save, replace_save
from bones.lang.compile import compile_rules
from bones.lang.problems import pydantic_problems
from bones.lang.spec import FORMS, Variant, semantic_problems
from bones.lang.yamlsource import from_plain

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.match import Deal, HandSummary, Match
    from bones.engine.rules import Rules
    from bones.lang.spec import Variant

FORMAT = "bones-record"
#: 3: a hand is blocked by the failed draw that takes the last drawable tile
#: (docs/rules.md, decision 12); records of 1 and 2 may hold one more pass
#: there, which replay accepts (:data:`BLOCK_AT_DRAW`).
#: 2: seeds deal from the specified stream (docs/random.md); 1: from Python's
#: random (such records replay the same: deals are stored)
VERSION = 3
#: The first record version written under the rule that a hand is blocked
#: at the last failed draw, with no pass after it.
BLOCK_AT_DRAW = 3

class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message is one line."""


# ------------------------------------------------------------------ model


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _bounded(cls, value: Any, info: ValidationInfo) -> Any:
        """Every whole number of a record within its bound (:mod:`bones.engine.bounds`):
        the seed 64 bits, the rest :data:`~bones.engine.bounds.NUMBER_LIMIT`; the
        variant is checked as a variant, ``meta`` by its reader."""
        if info.field_name in ("variant", "meta"):
            return value
        problem = bound_message(value, SEED_LIMIT if info.field_name == "seed" else NUMBER_LIMIT)
        if problem is not None:
            raise ValueError(problem)
        return value


class DealRecord(_Model):
    """A deal by tile names: whole hands in seat order, the boneyard top first."""

    hands: list[list[str]]
    boneyard: list[str] = Field(default_factory=list)
    leader: int = Field(ge=0)
    lead_tile: str | None = None
    lead_doubles_only: bool = False
    out_of_play: list[str] = Field(default_factory=list)


class HandRecord(_Model):
    deal: DealRecord
    moves: list[str] = Field(default_factory=list)
    #: the points each mover claimed, aligned with ``moves`` (None: the true points)
    claims: list[int | None] | None = None
    #: "domino", "blocked", "target" (the match ended mid-hand), None: interrupted
    end: str | None = None
    settlement: list[int] | None = None
    #: the match scores after the hand (or at the interruption)
    scores: list[int]


class ResultRecord(_Model):
    finished: bool
    winner: int | None = None
    scores: list[int]


class Record(_Model):
    """A game record, as stored in the JSON file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    format: str = FORMAT
    version: int = VERSION
    engine: str = __version__
    variant: dict[str, Any]
    players: int = Field(ge=2)
    teams: bool = False
    seed: int | None = None
    start_scores: list[int] | None = None
    hands: list[HandRecord] = Field(default_factory=list)
    result: ResultRecord
    meta: dict[str, Any] = Field(default_factory=dict)


# -------------------------------------------------------------- building


def _deal_record(rules: Rules, deal: Deal) -> DealRecord:
    ts = rules.tiles
    return DealRecord(
        hands=[[ts.names[t] for t in ts.tiles_of(mask)] for mask in deal.hands],
        boneyard=[ts.names[t] for t in deal.boneyard],
        leader=deal.leader,
        lead_tile=ts.names[deal.lead_tile] if deal.lead_tile >= 0 else None,
        lead_doubles_only=deal.lead_doubles_only,
        out_of_play=[ts.names[t] for t in ts.tiles_of(deal.out_of_play)],
    )


def _end_name(state: int) -> str | None:
    return None if state == Outcome.PLAYING else Outcome(state).label


def _result(match: Match) -> ResultRecord:
    return ResultRecord(
        finished=match.game_over,
        winner=match.winner if match.game_over and match.winner >= 0 else None,
        scores=list(match.scores),
    )


class Recorder:
    """Builds a record while a game loop plays.

    The loop calls :meth:`start_hand` with each deal, :meth:`move` for every
    move *with its notation formatted before the move was made*, and
    :meth:`end_hand` when a hand is over; :meth:`record` can be called at any
    time (an unfinished hand is stored as interrupted).  :meth:`play` does the
    formatting, the checked move and the logging in one call.
    """

    def __init__(self, match: Match, meta: dict[str, Any] | None = None) -> None:
        self.match = match
        self.start_scores = list(match.scores)
        self.meta = dict(meta or {})
        self.hands: list[HandRecord] = []
        self._current: HandRecord | None = None

    def start_hand(self, deal: Deal) -> None:
        if self._current is not None:
            raise ValueError("start_hand() before the last hand was ended")
        self._current = HandRecord(
            deal=_deal_record(self.match.rules, deal), scores=list(self.match.scores)
        )

    def move(self, seat: int, move: int, notation: str, claim: int | None = None) -> None:
        del seat, move  # the notation says it all; kept so loops can pass what they have
        hand = self._require_hand()
        hand.moves.append(notation)
        if claim is not None:
            if hand.claims is None:
                hand.claims = [None] * (len(hand.moves) - 1)
            hand.claims.append(claim)
        elif hand.claims is not None:
            hand.claims.append(None)

    def discard_hand(self) -> None:
        """Forget the hand in progress, deal and moves (a take-back starts it again)."""
        self._require_hand()
        self._current = None

    def play(self, hand: Hand, move: int, claim: int | None = None) -> int:
        """Make ``move`` in ``hand`` (checked) and record it; returns its points."""
        text = format_move(hand, move)
        seat = hand.turn
        points = hand.play(move, claim)
        self.move(seat, move, text, claim)
        return points

    def end_hand(self, hand: HandLike) -> None:
        record = self._require_hand()
        record.end = _end_name(hand.state)
        record.settlement = list(hand.settlement) if hand.settlement is not None else (
            [0] * self.match.rules.owners if hand.over else None)
        record.scores = list(hand.scores)
        self.hands.append(record)
        self._current = None

    def record(self) -> Record:
        hands = list(self.hands)
        if self._current is not None:
            current = self._current.model_copy(deep=True)
            current.scores = list(self.match.scores)
            live = self.match.current
            if live is not None and live.over:  # over, but end_hand() not called yet
                current.end = _end_name(live.state)
                current.settlement = list(live.settlement or [0] * self.match.rules.owners)
            hands.append(current)
        return _make_record(self.match, hands, self.start_scores, self.meta)

    def _require_hand(self) -> HandRecord:
        if self._current is None:
            raise ValueError("start_hand() first")
        return self._current


def _make_record(match: Match, hands: list[HandRecord], start_scores: list[int],
                 meta: dict[str, Any]) -> Record:
    rules = match.rules
    return Record(
        variant=rules.variant.model_dump(mode="json"),
        players=rules.players,
        teams=rules.teams,
        seed=match.seed,
        start_scores=None if not any(start_scores) else list(start_scores),
        hands=hands,
        result=_result(match),
        meta=dict(meta),
    )


def record_match(match: Match, meta: dict[str, Any] | None = None,
                 start_scores: list[int] | None = None) -> Record:
    """The record of ``match`` from its history (and its unfinished hand, if any).

    The notation of each move is rebuilt by replaying the hand's move codes.
    Muggins claims are not in the history: use a :class:`Recorder` for games
    where players claim.  ``start_scores`` are the scores the match began
    with, when it did not start from zero.
    """
    rules = match.rules
    scores = list(start_scores) if start_scores is not None else [0] * rules.owners
    hands: list[HandRecord] = []
    items: list[tuple[Deal, list[int], HandSummary | None]] = [
        (s.deal, s.moves, s) for s in match.history
    ]
    current = match.current
    if current is not None and match.current_deal is not None:
        items.append((match.current_deal, [m for _, m, _ in current.log], None))
    first_scores = list(scores)
    got_in: list[bool] | None = None
    for deal, moves, summary in items:
        hand = python_hand(rules, deal, list(scores), 0, got_in)
        if summary is not None:
            got_in = summary.got_in
        texts = []
        # a train layout's records always name the target (docs/trains.md)
        bare = False if rules.trains is not None else None
        for move in moves:
            texts.append(format_move(hand, move, bare=bare))
            hand.apply(move)
        if summary is None:
            end, settlement, after = None, None, list(match.scores)
        else:
            end = _end_name(summary.end)
            settlement, after = list(summary.settlement), list(summary.scores)
        hands.append(HandRecord(deal=_deal_record(rules, deal), moves=texts, end=end,
                                settlement=settlement, scores=after))
        scores = after
    return _make_record(match, hands, first_scores, meta or {})


# ------------------------------------------------------------- reading


def _format_json(value: Any, indent: int = 0) -> str:
    """JSON with one key per line but short lists of scalars kept on one line."""
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {_format_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return json.dumps(value)
        items = [inner + _format_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value)


def dumps_record(record: Record) -> str:
    """The JSON text of a record (stable: the same record gives the same text)."""
    return _format_json(record.model_dump(mode="json")) + "\n"


def save_record(record: Record, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` atomically (and fsync it): a crash never leaves half a file."""
    write_record(record, path, fsync=True)


def write_record(record: Record, path: str | os.PathLike[str], *, new: bool = False,
                 fsync: bool = False) -> None:
    """Write ``record`` to ``path``: the one writer of records and saves.

    ``new=True`` creates the file and never replaces one
    (:class:`bones.games.saves.SaveExists` if the name is taken); otherwise
    the file is replaced atomically, so a killed process leaves the old
    version or the new one, never half a file.  ``fsync`` also flushes it to
    the disk: worth it for a record written once, not for a game saved after
    every move (an fsync costs tens of milliseconds on many disks).
    """
    target = Path(path)
    text = dumps_record(record)
    if new:
        create_save(target, text)
    else:
        replace_save(target, text, fsync=fsync)


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "record"


def parse_record(data: Any, source: str = "record") -> Record:
    """A :class:`Record` from decoded JSON, or :class:`RecordError` naming the problem
    (a save's ``meta.play`` included: :func:`bones.games.playmeta.read_play`)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{source}: not a bones record (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"{source}: the record has no format version")
    if version > VERSION:
        raise RecordError(f"{source}: record format version {version} is newer than this "
                          f"bones reads (up to {VERSION}); upgrade bones")
    if version < 1:
        raise RecordError(f"{source}: unknown record format version {version}")
    try:
        record = Record.model_validate(data)
    except ValidationError as err:
        problems = _problems(data, err, Record, {})
        more = len(problems) - 1
        extra = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise RecordError(f"{source}: {problems[0]}{extra}") from None
    # a save's own fields, by their one reader: the same verdict for every front end

    try:
        read_play(record.meta, record.players)
    except PlayMetaError as err:
        raise RecordError(f"{source}: {err}") from None
    return record


def _problems(data: Any, err: ValidationError, model: type[BaseModel],
              forms: dict[str, tuple[str, str]], prefix: str = "") -> list[str]:
    """``PATH: MESSAGE`` for each problem pydantic found in ``data``, worded as a
    variant file's problems are (:func:`bones.lang.problems.pydantic_problems`):
    a record is JSON, so a problem has a path but no line."""

    errors = err.errors(include_url=False)
    found = pydantic_problems(from_plain(data, "record"), errors, model, forms)
    return ([f"{prefix}{_where(tuple(p.path))}: {p.message}" for p in found]
            or [f"{prefix}{_where(errors[0]['loc'])}: {errors[0]['msg']}"])


#: The largest record or save bones reads: 4 MiB.  The longest match of any
#: built-in variant in a sweep of random play (sniff-english, 3 players, 113
#: hands) is an 89 KB record, so this leaves room for matches some 45 times
#: longer, while a wrong file (``/dev/zero``, a disk image) is refused at once.
MAX_RECORD_BYTES = 4 * 1024 * 1024
#: How deeply a record's JSON may nest: a real one nests 6 levels.
MAX_DEPTH = 64


def read_record_text(path: str | os.PathLike[str]) -> str:
    """The text of a record file, checked to be a regular file of at most
    :data:`MAX_RECORD_BYTES` and UTF-8; every problem is a one-line
    :class:`RecordError`.  A FIFO or a device is refused without reading from
    it (nothing waits for a writer, nothing reads without end)."""
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise RecordError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{name}: is a directory, not a record file") from None
    except OSError as err:
        raise RecordError(f"{name}: cannot read ({err.strerror or err})") from None
    try:
        _check_stat(os.fstat(fd), name)
        chunks = []
        size = 0
        while size <= MAX_RECORD_BYTES:
            chunk = os.read(fd, MAX_RECORD_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise RecordError(f"{name}: cannot read ({err.strerror or err})") from None
    finally:
        os.close(fd)
    if size > MAX_RECORD_BYTES:  # it grew while we read it
        raise RecordError(_too_big(name, size))
    try:
        return b"".join(chunks).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(f"{name}: not a bones record (not UTF-8 text)") from None


def check_record_file(path: str | os.PathLike[str]) -> None:
    """Refuse (:class:`RecordError`) a path that is not a regular file of a
    record's size, without opening it: for a caller about to lock it."""
    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise RecordError(f"{name}: no such file") from None
    except OSError as err:
        raise RecordError(f"{name}: cannot read ({err.strerror or err})") from None
    _check_stat(info, name)


def _check_stat(info: os.stat_result, name: str) -> None:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise RecordError(f"{name}: is a directory, not a record file")
    if not stat.S_ISREG(mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise RecordError(f"{name}: is {kind}, not a record file")
    if info.st_size > MAX_RECORD_BYTES:
        raise RecordError(_too_big(name, info.st_size))


def _too_big(name: str, size: int) -> str:
    return (f"{name}: too large for a record ({size:,} bytes; records and saves are "
            f"limited to {MAX_RECORD_BYTES // (1024 * 1024)} MiB)")


def loads_record_json(text: str, name: str = "record") -> Any:
    """Decoded JSON of a record; bad, too deeply nested or unprintable JSON is a :class:`RecordError`."""
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_unique_keys)
    except _DuplicateKey as err:
        raise RecordError(f"{name}: not a bones record (the key {_shown_key(err.key)} is "
                          "written twice in one object)") from None
    except json.JSONDecodeError as err:
        raise RecordError(f"{name}:{err.lineno}:{err.colno}: not valid JSON ({err.msg}); "
                          "the file is truncated or corrupt") from None
    except RecursionError:
        raise RecordError(f"{name}: not a bones record (its JSON nests more than "
                          f"{MAX_DEPTH} levels deep)") from None
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise RecordError(f"{name}: not a bones record (a number has thousands of digits)") from None
    problem = _json_problem(data)
    if problem:
        raise RecordError(f"{name}: not a bones record ({problem})")
    return data


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the record's JSON: a key written twice is refused (JSON
    readers disagree on which value wins, so the file means two things)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _shown_key(key: str) -> str:
    if len(key) > 40 or not _printable(key) or _CONTROL.search(key):
        return "(a key that is not printable text)" if not _printable(key) or _CONTROL.search(key) \
            else repr(key[:40] + "...")
    return repr(key)


def _json_problem(data: Any) -> str | None:
    """Why decoded JSON cannot be a record: too deep, or text that cannot be printed."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"its JSON nests more than {MAX_DEPTH} levels deep"
        if isinstance(value, dict):
            for key, item in value.items():
                if not _printable(key) or _CONTROL.search(key):
                    return "a key is not printable text"
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str) and not _printable(value):
            return "a string holds a lone surrogate escape (\\udXXX), which is not text"
        elif isinstance(value, str) and _CONTROL.search(value):
            return "a string holds a control character, which no record has"
        elif isinstance(value, float) and not math.isfinite(value):
            return "a number is NaN or infinite, which JSON does not allow"
    return None


#: control characters other than tab and newline (an escape sequence in a
#: move's text would otherwise reach the terminal inside an error message)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _printable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file; every problem is a one-line :class:`RecordError`.

    The file must be a regular file of at most :data:`MAX_RECORD_BYTES`,
    UTF-8 JSON nested at most :data:`MAX_DEPTH` levels.
    """
    name = str(path)
    return parse_record(loads_record_json(read_record_text(path), name), name)


# -------------------------------------------------------------- replay


@dataclass
class ReplayedMove:
    seat: int
    notation: str
    count: int
    points: int


@dataclass
class ReplayedHand:
    number: int
    leader: int
    moves: list[ReplayedMove]
    end: str | None
    settlement: list[int] | None
    scores: list[int]
    domino_seat: int = -1
    pot: int = 0  # what tied hands left on the table when this hand began (ties: carry)
    # who was in when this hand began (get_in_scope: match; None otherwise)
    got_in: list[bool] | None = None
    # the scores when it began, and its number for bonuses by hand number
    start_scores: list[int] | None = None
    bonus_number: int = 1


@dataclass
class ReplayResult:
    variant: Variant
    rules: Rules
    hands: list[ReplayedHand] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    finished: bool = False
    winner: int | None = None


def deal_from_record(rules: Rules, deal: DealRecord, where: str) -> Deal:
    """The :class:`Deal` a :class:`DealRecord` names, checked (``where`` starts each message)."""

    ts = rules.tiles
    seen: dict[int, str] = {}

    def tile(text: str, place: str) -> int:
        try:
            t = ts.parse(text)
        except TileError as err:
            raise RecordError(f"{where}, {place}: {err}") from None
        if t in seen:
            raise RecordError(f"{where}, {place}: {ts.names[t]} is dealt twice "
                              f"(also in {seen[t]})")
        seen[t] = place
        return t

    if len(deal.hands) != rules.players:
        raise RecordError(f"{where}: {len(deal.hands)} hands dealt for {rules.players} players")
    hands = []
    for seat, tiles in enumerate(deal.hands):
        hands.append(ts.mask_of([tile(x, f"seat {seat}'s hand") for x in tiles]))
    boneyard = tuple(tile(x, "the boneyard") for x in deal.boneyard)
    out = ts.mask_of([tile(x, "out of play") for x in deal.out_of_play])
    if deal.leader >= rules.players:
        raise RecordError(f"{where}: leader {deal.leader} is not a seat "
                          f"(seats 0 to {rules.players - 1})")
    lead = -1
    if deal.lead_tile is not None:
        try:
            lead = ts.parse(deal.lead_tile)
        except TileError as err:
            raise RecordError(f"{where}, lead tile: {err}") from None
        if not hands[deal.leader] >> lead & 1:
            raise RecordError(f"{where}: the leader (seat {deal.leader}) does not hold "
                              f"the lead tile {deal.lead_tile}")
    return Deal(tuple(hands), boneyard, deal.leader, lead, deal.lead_doubles_only, out)


_deal_from = deal_from_record  # the old private name, still used by tests/test_golden.py


def _compile(record: Record) -> tuple[Variant, Rules]:

    try:
        variant = Variant.model_validate(record.variant)
    except ValidationError as err:
        raise RecordError(_problems(record.variant, err, Variant, FORMS, "variant.")[0]) from None
    problems = semantic_problems(variant)
    if problems:
        p = problems[0]
        raise RecordError(f"variant.{'.'.join(str(x) for x in p.path)}: {p.message}")
    try:
        rules = compile_rules(variant, record.players, record.teams)
    except RulesError as err:
        raise RecordError(str(err)) from None
    return variant, rules


def _check(what: str, recorded: object, got: object, where: str) -> None:
    if recorded != got:
        raise RecordError(f"{where}: recorded {what} {_show(recorded)}, "
                          f"but the replay gives {_show(got)}")


def _show(value: object) -> str:
    if value is None:
        return "none (interrupted)"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def blocked_at_draw(hand: HandLike) -> bool:
    """Whether ``hand`` ended blocked on a draw: under record versions before
    :data:`BLOCK_AT_DRAW` its drawer passed once more, and that pass ended it."""
    return hand.state == Outcome.BLOCKED and bool(hand.log) and hand.log[-1][1] == DRAW


def legacy_pass(hand: HandLike, moves: list[str], index: int, version: int) -> bool:
    """Whether ``moves[index]`` is the pass a record written before
    :data:`BLOCK_AT_DRAW` holds after the draw that now blocks ``hand``: the
    hand's last move, and the only move the old rule allowed there."""
    return (version < BLOCK_AT_DRAW and index == len(moves) - 1 and blocked_at_draw(hand)
            and moves[index].strip().lower() == "pass")


def _replay_moves(hand: HandLike, hand_record: HandRecord, where: str,
                  version: int = VERSION) -> list[ReplayedMove]:
    """Play a recorded hand's moves (and claims) on ``hand``, checked one by one."""
    claims = hand_record.claims
    if claims is not None and len(claims) != len(hand_record.moves):
        raise RecordError(f"{where}: {len(claims)} claims for {len(hand_record.moves)} moves")
    steps: list[ReplayedMove] = []
    for index, text in enumerate(hand_record.moves):
        at = f"{where}, move {index + 1} '{text}'"
        if legacy_pass(hand, hand_record.moves, index, version):
            break  # the extra pass of an older record: the hand ended at the draw
        if hand.over:
            raise RecordError(f"{at}: the hand is already over "
                              f"({Outcome(hand.state).label} after move {index})")
        seat = hand.turn
        try:
            move = parse_move(hand, text)
            points = hand.play(move, claims[index] if claims is not None else None)
        except NotationError as err:
            raise RecordError(f"{at}: {err}") from None
        except IllegalMoveError as err:
            legal = ", ".join(err.legal) or "nothing"
            raise RecordError(f"{at}: not legal now (legal: {legal})") from None
        steps.append(ReplayedMove(seat, text, hand.count, points))
    return steps


def replay(record: Record) -> ReplayResult:
    """Replay every hand of ``record`` with the checked move path.

    Rebuilds the variant from the embedded mapping, plays each stored deal
    and move, and checks every recorded end, settlement, score and the
    result; the first illegal move or mismatch raises :class:`RecordError`
    ("hand 3, move 17 '6-4@N': not legal now (legal: ...)").
    """
    variant, rules = _compile(record)
    start = record.start_scores if record.start_scores is not None else [0] * rules.owners
    if len(start) != rules.owners:
        raise RecordError(f"start_scores: {len(start)} scores for {rules.owners} "
                          f"{'teams' if rules.teams else 'players'}")
    match = Match(rules, seed=record.seed if record.seed is not None else 0, scores=start,
                  stepwise_core=True)
    result = ReplayResult(variant, rules)
    last = len(record.hands)
    legacy_end = False
    for number, hand_record in enumerate(record.hands, 1):
        where = f"hand {number}"
        if match.game_over:
            raise RecordError(f"{where}: the match was already over after hand {number - 1}")
        start_scores = list(match.scores)
        hand = match.start_hand(deal_from_record(rules, hand_record.deal, where))
        pot = hand.pot
        got_in = list(hand.got_in) if rules.get_in_match else None
        steps = _replay_moves(hand, hand_record, where, record.version)
        end = _end_name(hand.state)
        if (hand_record.end is None and number == last and record.version < BLOCK_AT_DRAW
                and blocked_at_draw(hand)):
            # an older record interrupted before the pass that ended the hand
            # under its rule: the hand now ends at the draw, and is settled
            summary = match.finish_hand(hand)
            result.hands.append(ReplayedHand(number, hand_record.deal.leader, steps, end,
                                             list(summary.settlement), list(match.scores),
                                             hand.domino_seat, pot, got_in, start_scores,
                                             hand.number))
            legacy_end = True
            break
        _check("end", hand_record.end, end, where)
        # the scores after the hand (a match of several games starts the next
        # one from 0 once a game is won: the hand's record keeps its end)
        after = list(match.scores)
        if hand.over:
            summary = match.finish_hand(hand)
            settlement: list[int] | None = list(summary.settlement)
            after = list(summary.scores)
            if hand_record.settlement is not None:
                _check("settlement", hand_record.settlement, settlement, where)
        else:
            if number != last:
                raise RecordError(f"{where}: unfinished, but more hands follow it")
            settlement = None
            match.current = None
        _check("scores", hand_record.scores, after, where)
        result.hands.append(ReplayedHand(number, hand_record.deal.leader, steps, end,
                                         settlement, after, hand.domino_seat, pot, got_in,
                                         start_scores, hand.number))
        if hand.state == Outcome.TARGET and not match.game_over and (
                not match.history or match.history[-1].game_won < 0):  # pragma: no cover - engine invariant
            raise RecordError(f"{where}: ended on the target but the match went on")
    result.scores = list(match.scores)
    result.finished = match.game_over
    result.winner = match.winner if match.game_over and match.winner >= 0 else None
    if legacy_end:
        return result  # its result was written one pass before the hand's end
    _check("finished", record.result.finished, result.finished, "result")
    _check("winner", record.result.winner, result.winner, "result")
    _check("final scores", record.result.scores, result.scores, "result")
    return result


__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_RECORD_BYTES",
    "VERSION",
    "DealRecord",
    "HandRecord",
    "Record",
    "RecordError",
    "Recorder",
    "ReplayResult",
    "ReplayedHand",
    "ReplayedMove",
    "ResultRecord",
    "check_record_file",
    "deal_from_record",
    "dumps_record",
    "load_record",
    "loads_record_json",
    "parse_record",
    "read_record_text",
    "record_match",
    "replay",
    "save_record",
    "write_record",
]
