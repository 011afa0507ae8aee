"""A game as one seat may see it: the JSON of ``GET /api/games/{id}``.

What a seat sees is what a player at a real table sees: its own tiles, the
layout, how many tiles each seat holds, the boneyard's size, the scores, the
public history (a draw shows its tile only to the drawer) and, once a hand is
over, the tiles left in every hand (they are turned face up to settle).  The
other seats' tiles during a hand, the boneyard's order and the bots' state
never appear: :func:`seat_view` reads the hand only through
:func:`bones.seat.observation.observe` for the hand in play, and the
settlement table only from hands that have ended.

A spectator (a watch link, :mod:`bones.web.watch`) is the viewer
:data:`~bones.web.tokens.SPECTATOR`: it sees what every seat sees in common,
and no hand at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.engine.hand import DRAW, PASS, Hand
from bones.engine.handlike import HandLike
from bones.engine.moves import Outcome, arm_of, tile_of
from bones.engine.notation import arm_name, move_value
from bones.engine.trains import python_hand
from bones.games.game import GameSession
from bones.lang.describe import target_phrase
from bones.seat.observation import observe
from bones.seat.placement import layout_of
from bones.seat.tally import count_parts
from bones.web.etiquette import notices_json
from bones.web.levels import level_of
from bones.web.tokens import SPECTATOR

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from bones.engine.leads import Deal
    from bones.engine.rules import Rules
    from bones.games.game import Event
    from bones.seat.placement import Piece


def version_of(session: GameSession) -> int:
    """A number that grows with every move and every take-back, the same after a restart.

    Moves made, plus for each take-back the moves it undid and one: a
    take-back of k moves removes k moves and adds k + 1.
    """
    made = sum(len(log.moves) for log in session.hands)
    undone = sum(len(t.get("undone", [])) + 1 for t in session.takebacks)
    return made + undone


def tile_json(session: GameSession, t: int) -> dict[str, Any]:
    ts = session.rules.tiles
    return {"name": ts.names[t], "a": ts.low[t], "b": ts.high[t]}


def seat_label(session: GameSession, seat: int, viewer: int) -> str:
    """"You", the seat's person's name (people.py), or "Seat k"; a bot's name follows."""
    if seat == viewer:
        return "You"
    kind = session.config.seats[seat]
    name = session.names[seat] or f"Seat {seat}"
    return name + ("" if kind == "human" else f" ({kind.split(':')[0]})")


def owner_label(session: GameSession, owner: int, viewer: int) -> str:
    rules = session.rules
    if rules.teams:
        seats = [s for s in range(rules.players) if rules.owner[s] == owner]
        mine = " (yours)" if viewer >= 0 and rules.owner[viewer] == owner else ""
        if any(session.names[s] for s in seats):  # the people's names (bones.web.people)
            who = "+".join(session.names[s] or f"seat {s}" for s in seats)
        else:
            who = "seats " + "+".join(str(s) for s in seats)
        return f"Team {'AB'[owner]}: {who}{mine}"
    return seat_label(session, owner, viewer)


def trains_json(session: GameSession, deal: Deal, codes: list[int], viewer: int) -> dict[str, Any]:
    """A train layout as rows from the hub (:func:`bones.seat.trainlayout.train_table`):
    the hub double and what it still takes (``H``), then each train or arm by its target
    in the notation (``T0``, ``M``, ``A3``) with its owner, marker, tiles from the hub
    outwards, open end, the covers its double is owed and the foot's toes (``F``).
    Only what lies on the table: the same for every seat but the names ("You")."""
    return train_rows_json(session.rules, deal, codes,
                           lambda seat: seat_label(session, seat, viewer))


def train_rows_json(rules: Rules, deal: Deal, codes: list[int],
                    who: Callable[[int], str]) -> dict[str, Any]:
    """:func:`trains_json` with each seat named by ``who`` (the replays: "seat 2")."""
    from bones.seat.trainlayout import ARM, PUBLIC, train_table

    table = train_table(rules, deal, codes)
    hub = table.hub
    pip = rules.tiles.low[table.hub_tile]
    return {
        "hub": ({"a": hub.near, "b": hub.far, "last": bool(hub.last)} if hub is not None
                else None),
        "hub_tile": {"a": pip, "b": pip},
        "hub_left": table.hub_left,
        "hub_binds": table.hub_binds,
        "rows": [{
            "target": row.name,
            "owner": row.owner if row.owner >= 0 else None,
            "kind": "seat" if row.owner >= 0 else "public" if row.owner == PUBLIC else "arm",
            "who": (who(row.owner) if row.owner >= 0 else
                    "public train" if row.owner == PUBLIC else
                    "from the hub" if row.source == "hub" else f"toe of {row.source}"),
            "from": row.source if row.owner == ARM else "hub",
            "tiles": [{"near": p.near, "far": p.far, "double": bool(p.double), "last": bool(p.last)}
                      for p in row.tiles],
            "open": row.open, "started": row.started, "marked": row.marked,
            "owes": row.owes, "binds": row.binds,
            "foot": ({"pip": row.foot.pip, "left": row.foot.left, "binds": row.foot.binds}
                     if row.foot is not None else None),
        } for row in table.rows],
        "needs": dict(table.needs),
        "turn": table.turn,
        "first_turn": table.first_turn,
        "markers": bool(rules.trains is not None and rules.trains.seat_trains),
    }


def layout_json(rules: Rules, deal: Deal, codes: list[int]) -> dict[str, Any]:
    """The layout of a hand dealt ``deal`` after ``codes``: the lead and each arm's tiles,
    inner first.  A train layout's rows are :func:`trains_json`'s: here only its hub, as
    the lead, with no arms (a line's picture of it would mean nothing)."""
    if rules.trains is not None:
        from bones.seat.trainlayout import train_table

        hub = train_table(rules, deal, codes).hub
        return {"lead": ({"near": hub.near, "far": hub.far, "double": True, "cross": None,
                          "last": bool(hub.last)} if hub is not None else None),
                "arms": []}
    lay = layout_of(rules, deal, codes)

    def piece(p: Piece) -> dict[str, Any]:
        return {"near": p.near, "far": p.far, "double": bool(p.double),
                "cross": list(p.cross) if p.cross is not None else None, "last": bool(p.last)}

    return {
        "lead": piece(lay.lead) if lay.lead is not None else None,
        "arms": [{"arm": a, "name": arm_name(a), "open": (lay.open[a] if a < len(lay.open) else -1),
                  "tiles": [piece(p) for p in pieces]} for a, pieces in enumerate(lay.arms)],
    }


def _event_json(session: GameSession, ev: Event, viewer: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": ev.seat, "who": seat_label(session, ev.seat, viewer), "move": ev.text,
        "kind": "draw" if ev.move == DRAW else "pass" if ev.move == PASS else "play",
        "count": ev.count, "points": ev.points, "gains": list(ev.gains),
        "claim": ev.claim, "hand_over": ev.hand_over,
    }
    if ev.move == DRAW and ev.seat == viewer and ev.drawn >= 0:
        out["drew"] = tile_json(session, ev.drawn)
    if ev.bonuses:  # the pass bonuses this pass earned, as they happened
        out["bonuses"] = [{"owner": o, "who": owner_label(session, o, viewer), "points": p,
                           "kind": which} for o, p, which in ev.bonuses]
    return out


def replay_hand(session: GameSession, index: int) -> Hand:
    """Hand ``index`` (0-based) of the session replayed to its end on a scratch score list."""
    log = session.hands[index]
    rules = session.rules
    deal = log.deal
    history = session.match.history
    pot = history[index - 1].pot if 0 < index <= len(history) else 0  # ties: carry
    # who was in when it began (get_in_scope: match)
    got_in = history[index - 1].got_in if 0 < index <= len(history) else None
    number = history[index].number if index < len(history) else session.match.hand_number()
    hand = python_hand(rules, deal, list(log.start_scores), pot, got_in, number)
    for code, claim in zip(log.codes, log.claims):
        hand.apply(code, claim if code >= 0 else None)
    return hand


def settlement_json(session: GameSession, index: int, viewer: int) -> dict[str, Any] | None:
    """The hand-end table of hand ``index`` (it must have ended): who went out or why it
    blocked, the rule, each seat's tiles and pips, each side's settlement and scores."""
    match = session.match
    if index >= len(match.history):
        return None
    summary = match.history[index]
    hand = replay_hand(session, index)
    rules = session.rules
    from bones.seat.handend import hand_end

    account = hand_end(rules, hand, summary)
    how = account.how(lambda seat: seat_label(session, seat, viewer))
    phrase = account.rule
    rows = []
    for left in account.seats:
        rows.append({
            "seat": left.seat, "who": seat_label(session, left.seat, viewer), "owner": left.owner,
            "tiles": [tile_json(session, t) for t in left.tiles], "pips": left.pips,
            "scoring_row": left.scoring_row,
        })
    return {
        "hand": summary.hand_number,
        "end": Outcome(summary.end).label,
        "how": how,
        "rule": phrase,
        "rows": rows,
        "settlement": [{"owner": o, "who": owner_label(session, o, viewer),
                        "points": summary.settlement[o]} for o in range(rules.owners)],
        "scores": list(summary.scores),
        "pooled": list(account.pooled),
        "unit": account.unit,
        "rounded": list(account.rounded) if account.rounded is not None else None,
        "counted": list(account.counted) if account.counted is not None else None,
        "bonuses": [{"what": what, "points": points} for what, points in account.bonuses],
        "bonus_to": owner_label(session, hand.won_by, viewer) if account.bonuses else None,
        "layout": layout_json(rules, session.hands[index].deal, session.hands[index].codes),
        "trains": (trains_json(session, session.hands[index].deal, session.hands[index].codes,
                               viewer) if rules.trains is not None else None),
    }


def _legal_json(session: GameSession, hand: HandLike) -> list[dict[str, Any]]:
    """The moves of the seat to play: notation, kind, tile, arm, the pip it matches and,
    without muggins, its points and count."""
    legal = []
    trains = session.rules.trains is not None
    for opt in session.options():
        entry: dict[str, Any] = {"move": opt.text, "kind": "play" if opt.move >= 0 else
                                 ("draw" if opt.move == DRAW else "pass")}
        if opt.move >= 0 and trains:
            # the target in the notation (T0, M, H, F, A3) and the pip it is laid against
            value = move_value(hand, opt.move)
            entry["tile"] = session.rules.tiles.names[tile_of(opt.move)]
            entry["arm"] = arm_name(value.arm) if hand.placed and value.arm is not None else None
            if hand.placed and value.halves is not None:
                entry["pip"] = value.halves[0]
        elif opt.move >= 0:
            entry["tile"] = session.rules.tiles.names[tile_of(opt.move)]
            entry["arm"] = arm_name(arm_of(opt.move)) if hand.placed else None
            if hand.placed:
                entry["pip"] = hand.arm_open[arm_of(opt.move)]
            if not session.muggins:  # under muggins, seeing the points is the player's job
                entry["points"] = opt.points
                entry["count"] = opt.count
        legal.append(entry)
    return legal


def seat_view(session: GameSession, seat: int, *, version: int, game_id: str,
              busy: bool = False, error: str | None = None) -> dict[str, Any]:
    """Everything ``seat`` may see of the game now (``seat`` :data:`SPECTATOR`:
    what every seat sees, and no hand)."""
    rules = session.rules
    hand = session.hand
    assert hand is not None
    match = session.match
    watching = seat == SPECTATOR
    obs = observe(hand, 0 if watching else seat)
    own = 0 if watching else obs.hand  # a spectator's view is built without any hand
    table = obs.layout  # the public copy: other hands and the boneyard scrubbed
    log = session.current
    playing = not hand.over and not session.over  # a resignation ends the match mid-hand
    # a seat the host handed to a bot is the bot's to play (bones.web.people)
    my_turn = playing and hand.turn == seat and not session.over and session.is_human(seat)
    seats = [{
        "seat": k, "who": seat_label(session, k, seat),
        "kind": "human" if session.is_human(k) else "bot",
        "bot": None if session.is_human(k) else session.config.seats[k],
        # the bot's level as the seat pickers offer it (bones.web.offered), or None
        "level": None if session.is_human(k) else level_of(session.config.seats[k]),
        "owner": rules.owner[k], "tiles": obs.counts[k], "drawn": obs.drawn[k],
    } for k in range(rules.players)]
    finished = len(match.history)
    # the last hand that ended (the page shows it once, when it first appears)
    last_end = settlement_json(session, finished - 1, seat) if finished else None
    # why this seat cannot take back now (None: it can), e.g. a draw since its move
    why_not = (None if watching else session.can_take_back() if session.is_human(seat)
               else "a bot plays your seat now")
    trains = rules.trains is not None
    parts = [{"label": p.label, "points": p.points, "arm": arm_name(p.arm) if p.arm >= 0 else None}
             for p in count_parts(table) if p.kind != "free"] if playing and not trains else []
    # a train layout's open ends by target (T0, M, A3...; docs/scenarios.md's `ends`)
    ends = (table.ends() if trains else table.open_ends())  # type: ignore[attr-defined]
    return {
        "id": game_id,
        "version": version,
        "variant": {"name": session.variant.name, "source": session.source,
                    "summary": " ".join(session.variant.summary.split())},
        "players": rules.players,
        "teams": rules.teams,
        "you": seat,
        "spectator": watching,
        "seats": seats,
        "owners": [{"owner": o, "who": owner_label(session, o, seat),
                    "seats": [s for s in range(rules.players) if rules.owner[s] == o]}
                   for o in range(rules.owners)],
        "scores": list(match.scores),
        "target": target_phrase(rules),
        "hand_number": session.hand_number,
        "leader": hand.leader,
        "turn": hand.turn if playing else None,
        "your_turn": my_turn,
        "over": session.over,
        "winner": (match.winner if session.over else None),
        "result": _result_text(session, seat) if session.over else None,
        "hand": [tile_json(session, t) for t in rules.tiles.tiles_of(own)],
        "pips": rules.tiles.pips_of(own),
        "layout": layout_json(rules, log.deal, log.codes),
        # a train layout's rows (None for a line or spinner layout)
        "trains": trains_json(session, log.deal, log.codes, seat) if trains else None,
        "ends": [{"arm": arm_name(a), "pip": p} for a, p in ends.items()],
        "count": table.count if playing and not trains else 0,
        "count_parts": parts,
        "boneyard": obs.boneyard_left,
        "drawable": obs.drawable,
        "legal": _legal_json(session, hand) if my_turn else [],
        "muggins": session.muggins,
        "events": [_event_json(session, ev, seat) for ev in log.events],
        "hand_end": last_end,
        "history": [{"hand": s.hand_number, "end": Outcome(s.end).label,
                     "settlement": list(s.settlement), "scores": list(s.scores)}
                    for s in match.history],
        "take_back": not watching and why_not is None,
        "take_back_why": None if watching else why_not,
        "busy": busy,
        "error": error,
        # resignations and departures, for the log (bones.web.etiquette)
        "notices": notices_json(session, seat),
        "resigned": session.resigned is not None,
    }


def _result_text(session: GameSession, viewer: int) -> str:
    match = session.match
    if session.resigned is not None:
        seat = session.resigned["seat"]
        who = "You" if seat == viewer else (session.names[seat] or f"Seat {seat}")
        prefix = f"{who} resigned the match: "
        if match.winner < 0:
            return prefix + "it is a draw"
        winner = owner_label(session, match.winner, viewer)
        return prefix + f"{winner} win{'' if winner == 'You' else 's'}"
    if match.winner < 0:
        return "the game is a draw"
    who = owner_label(session, match.winner, viewer)
    return f"{who} win{'' if who == 'You' else 's'} the game"
