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

from bones.web.games import ApiError

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.hand import Hand
    from bones.engine.leads import Deal
    from bones.engine.rules import Rules
    from bones.games.record import Record

#: The largest record text accepted for a replay.
MAX_RECORD_TEXT = 2 * 1024 * 1024
#: The most moves a replay shows (a real match has a few hundred).
MAX_FRAMES = 5000


def replay_record_text(text: str) -> dict[str, Any]:
    from bones.games.record import RecordError, loads_record_json, parse_record

    if len(text) > MAX_RECORD_TEXT:
        raise ApiError(413, f"the record is larger than {MAX_RECORD_TEXT // (1024 * 1024)} MiB")
    try:
        # the same reader as `bones replay`: NaN, a number of thousands of
        # digits, a key written twice, deep nesting or a control character
        # is named, not taken for "no format"
        record = parse_record(loads_record_json(text, "record"), "record")
    except RecordError as err:
        raise ApiError(422, str(err).splitlines()[0]) from None
    return frames_of(record, "record")


def replay_save(path: Path) -> dict[str, Any]:
    from bones.games.record import RecordError, load_record

    try:
        record = load_record(path)
    except (RecordError, RecursionError) as err:
        raise ApiError(422, f"{path.name}: {str(err).splitlines()[0]}") from None
    return frames_of(record, path.name)


def frames_of(record: Record, label: str) -> dict[str, Any]:
    from bones.engine.hand import Hand
    from bones.engine.notation import parse_move
    from bones.games.record import RecordError, _deal_from, replay

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
        hand = Hand(rules, deal.hands, deal.boneyard, deal.leader, list(scores),
                    deal.lead_tile, deal.lead_doubles_only, deal.out_of_play, done.pot)
        codes: list[int] = []
        frames = []

        frames.append(_frame(rules, deal, codes, hand, None, None, 0))
        claims = hrec.claims
        for i, text in enumerate(hrec.moves):
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
    from bones.web.view import layout_json

    ts = rules.tiles
    return {
        "move": move, "seat": seat, "points": points, "count": hand.count,
        "scores": list(hand.scores), "boneyard": hand.boneyard_left,
        "hands": [[ts.names[t] for t in ts.tiles_of(h)] for h in hand.hands],
        "layout": layout_json(rules, deal, list(codes)),
    }
