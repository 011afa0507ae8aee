"""Replays for the page: a record or a save, step by step.

The record is checked exactly as `bones replay` checks it
(:func:`bones.games.record.replay`); then each hand is played again move by
move and every position is given as a frame: the layout, the count, the
tiles in every hand (a record is a finished game's whole story), the boneyard
size and the scores.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from bones.web.games import ANALYSIS_BUDGET, ApiError

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.hand import Hand
    from bones.engine.leads import Deal
    from bones.engine.rules import Rules
    from bones.games.record import Record

#: The largest record text accepted for a replay.
MAX_RECORD_TEXT = 2 * 1024 * 1024
#: The most moves a replay shows (a real match has a few hundred).
MAX_FRAMES = 5000


def record_of_text(text: str) -> Record:
    """The record in a page's upload (its problems are API errors)."""
    from bones.games.record import RecordError, loads_record_json, parse_record

    if len(text) > MAX_RECORD_TEXT:
        raise ApiError(413, f"the record is larger than {MAX_RECORD_TEXT // (1024 * 1024)} MiB")
    try:
        # the same reader as `bones replay`: NaN, a number of thousands of
        # digits, a key written twice, deep nesting or a control character
        # is named, not taken for "no format"
        return parse_record(loads_record_json(text, "record"), "record")
    except RecordError as err:
        raise ApiError(422, str(err).splitlines()[0]) from None


def record_of_save(path: Path) -> Record:
    """The record in a save (its problems are API errors)."""
    from bones.games.record import RecordError, load_record

    try:
        return load_record(path)
    except (RecordError, RecursionError) as err:
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        message = message.removeprefix(f"{path}: ")  # the save by its name alone
        raise ApiError(422, f"{path.name}: {message}") from None


def replay_record_text(text: str) -> dict[str, Any]:
    return frames_of(record_of_text(text), "record")


def replay_save(path: Path) -> dict[str, Any]:
    return frames_of(record_of_save(path), path.name)


def analysis_of(record: Record, label: str, budget: int = ANALYSIS_BUDGET) -> dict[str, Any]:
    """`bones analyse --json` of a record for the Replay page, each decision
    with ``best_layout``: the layout had the best move been played instead
    (the frame of that move shows the move played); a train layout's with
    ``best_trains`` too, its rows from the hub after the best move."""
    from bones.engine.moves import DRAW, PASS
    from bones.games.analysis import analyse, analysis_json
    from bones.games.record import RecordError, deal_from_record
    from bones.web.view import layout_json, train_rows_json

    try:
        analysis = analyse(record, budget=budget)
    except (RecordError, RecursionError) as err:
        raise ApiError(422, f"{label}: {str(err).splitlines()[0]}") from None
    out = analysis_json(analysis, label)
    rules = _rules_of(record)
    for hand, data in zip(analysis.hands, out["hands"], strict=True):
        deal = deal_from_record(rules, record.hands[hand.number - 1].deal, f"hand {hand.number}")
        codes = _codes(rules, record, hand.number)
        for d, entry in zip(hand.decisions, data["decisions"], strict=True):
            before = codes[:d.ply - 1]
            played = d.best.move not in (DRAW, PASS)
            entry["best_layout"] = (layout_json(rules, deal, before + [d.best.move])
                                    if played else None)
            if rules.trains is not None:
                entry["best_trains"] = (train_rows_json(rules, deal, before + [d.best.move],
                                                        lambda k: f"seat {k}")
                                        if played else None)
    return out


def _rules_of(record: Record) -> Rules:
    from bones.games.record import replay

    return replay(record).rules


def _codes(rules: Rules, record: Record, number: int) -> list[int]:
    """The move codes of hand ``number`` of ``record`` (it replays)."""
    from bones.engine.match import Match
    from bones.engine.notation import parse_move
    from bones.games.record import deal_from_record, legacy_pass

    match = Match(rules, seed=0, scores=list(record.start_scores or [0] * rules.owners))
    codes: list[int] = []
    for n, entry in enumerate(record.hands[:number], 1):
        hand = match.start_hand(deal_from_record(rules, entry.deal, f"hand {n}"))
        codes = []
        for i, text in enumerate(entry.moves):
            if legacy_pass(hand, entry.moves, i, record.version):
                break  # an older record's pass after the draw that blocked the hand
            code = parse_move(hand, text)
            hand.play(code, entry.claims[i] if entry.claims is not None else None)
            codes.append(code)
        if hand.over and n < number:
            match.finish_hand(hand)
    return codes


def frames_of(record: Record, label: str) -> dict[str, Any]:
    from bones.engine.notation import parse_move
    from bones.engine.trains import python_hand
    from bones.games.record import RecordError, _deal_from, legacy_pass, replay

    try:
        result = replay(record)
    except (RecordError, RecursionError) as err:
        raise ApiError(422, f"{label}: {str(err).splitlines()[0]}") from None
    rules = result.rules

    hands_out = []
    total = 0
    scores = list(record.start_scores or [0] * rules.owners)
    for number, (hrec, done) in enumerate(zip(record.hands, result.hands), 1):
        deal = _deal_from(rules, hrec.deal, f"hand {number}")
        start = done.start_scores if done.start_scores is not None else scores
        hand = python_hand(rules, deal, list(start), done.pot, done.got_in, done.bonus_number)
        codes: list[int] = []
        frames = []

        frames.append(_frame(rules, deal, codes, hand, None, None, 0))
        claims = hrec.claims
        for i, text in enumerate(hrec.moves):
            if legacy_pass(hand, hrec.moves, i, record.version):
                break  # an older record's pass after the draw that blocked the hand
            total += 1
            if total > MAX_FRAMES:
                raise ApiError(413, f"{label}: more than {MAX_FRAMES} moves to show")
            seat = hand.turn
            code = parse_move(hand, text)
            hand.apply(code, claims[i] if claims is not None and code >= 0 else None)
            codes.append(code)
            frames.append(_frame(rules, deal, codes, hand, text, seat, hand.last_points if code >= 0 else 0))
        scores = list(done.scores)
        hands_out.append({"hand": number, "leader": done.leader, "end": done.end,
                          "settlement": done.settlement, "scores": done.scores, "frames": frames})
    return {"label": label, "variant": result.variant.name, "players": rules.players,
            "teams": rules.teams, "owners": rules.owners, "hands": hands_out,
            "finished": result.finished, "winner": result.winner, "scores": result.scores}


def _frame(rules: Rules, deal: Deal, codes: list[int], hand: Hand, move: str | None,
           seat: int | None, points: int) -> dict[str, Any]:
    from bones.web.view import layout_json, train_rows_json

    ts = rules.tiles
    return {
        "move": move, "seat": seat, "points": points, "count": hand.count,
        "scores": list(hand.scores), "boneyard": hand.boneyard_left,
        "hands": [[ts.names[t] for t in ts.tiles_of(h)] for h in hand.hands],
        "layout": layout_json(rules, deal, list(codes)),
        # a train layout's rows from the hub (bones.web.view.trains_json)
        "trains": (train_rows_json(rules, deal, list(codes), lambda k: f"seat {k}")
                   if rules.trains is not None else None),
    }
