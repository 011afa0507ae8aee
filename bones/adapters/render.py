"""The table as text, for the learning environments' ``render()``.

A render is one seat's view by default: what that seat may see, as ``bones
play`` shows it (the scores, how many tiles each seat holds, the boneyard's
size, the layout picture of :mod:`bones.seat.picture`, the open ends and the
count) and its own tiles; never another seat's tiles or the boneyard's.  The
whole table, every hand, only when asked (``seat=None``; the environments'
``render_all=True``).

>>> from bones.adapters.common import Game, compile_table
>>> from bones.engine.rng import Rng
>>> game = Game(compile_table("all-fives", 2, None), Rng(1))
>>> text = render_text(game.rules, game.hand, game.match, game.match.current_deal, seat=1)
>>> print(text.splitlines()[0])
all-fives · hand 1 · scores: seat 0 0 · seat 1 0 · the view of seat 1
>>> [line.split(":")[0] for line in text.splitlines() if "holds" in line]
['seat 1 holds']
"""

from __future__ import annotations

from typing import Any

from bones.engine.handlike import HandLike
from bones.engine.leads import Deal
from bones.engine.nativetrains import NativeTrainHand, twin_of
from bones.engine.notation import arm_name
from bones.engine.rules import Rules
from bones.engine.trains import TrainHand
from bones.seat.picture import LayoutPicture, TileFace
from bones.seat.placement import Placement, layout_of


def draw_table(rules: Rules, *, hand_number: int, scores: list[int], hands: list[int],
               turn: int, playing: bool, boneyard_left: int, layout: Placement | None,
               open_ends: dict[int, int], count: int, seat: int | None) -> str:
    """The text of a table: ``hands`` are every seat's tiles (masks), of
    which only ``seat``'s are written (every seat's when ``seat`` is None);
    ``layout`` is where the tiles on the table lie (None: not drawn)."""
    lines = []
    side = "team" if rules.teams else "seat"
    line = (f"{rules.name} · hand {hand_number} · scores: "
            + " · ".join(f"{side} {o} {s}" for o, s in enumerate(scores)))
    lines.append(line + ("" if seat is None else f" · the view of seat {seat}"))
    held = " · ".join(f"{'▶' if s == turn and playing else ''}seat {s} {hands[s].bit_count()}"
                      for s in range(rules.players))
    lines.append(f"tiles: {held} · boneyard {boneyard_left}")
    if layout is not None:
        lines += [line.plain for line in LayoutPicture(layout, TileFace(), 100).draw()]
    ends = "  ".join(f"{arm_name(a)} {p}" for a, p in open_ends.items())
    lines.append(f"open ends: {ends or 'none yet'}   count: {count}")
    for s in range(rules.players) if seat is None else [seat]:
        lines.append(f"seat {s} holds: {rules.tiles.name_mask(hands[s])}")
    return "\n".join(lines) + "\n"


def render_text(rules: Rules, hand: HandLike, match: Any, deal: Deal | None,
                seat: int | None = None) -> str:
    """A hand of ``match`` dealt ``deal``, drawn as ``bones play`` draws it:
    ``seat``'s view (its own tiles alone), or with ``seat=None`` every
    seat's tiles.  A train layout is drawn as its trains' open ends by
    target (``T0 12  M 7  A3 5``) and the markers, without a picture."""
    if rules.trains is not None:
        # a Python TrainHand, or the native one that reads alike (docs/trains.md)
        train: TrainHand | NativeTrainHand = hand  # type: ignore[assignment]
        return _draw_trains(rules, train, len(match.history) + (0 if hand.over else 1),
                            list(match.scores), seat)
    layout = None
    if deal is not None:
        # the boneyard as it was drawn (a draw chosen by chance reorders it)
        played = Deal(deal.hands, tuple(hand.boneyard), deal.leader, deal.lead_tile,
                      deal.lead_doubles_only, deal.out_of_play)
        layout = layout_of(rules, played, [move for _, move, _ in hand.log])
    return draw_table(rules, hand_number=len(match.history) + (0 if hand.over else 1),
                      scores=list(match.scores), hands=list(hand.hands), turn=hand.turn,
                      playing=not hand.over, boneyard_left=hand.boneyard_left,
                      layout=layout, open_ends=hand.open_ends(), count=hand.count, seat=seat)


def _draw_trains(rules: Rules, train: TrainHand | NativeTrainHand, hand_number: int,
                 scores: list[int], seat: int | None) -> str:
    """A train round drawn as its trains' open ends by target and the markers."""
    marked = [s for s, m in enumerate(train.marked) if m]
    text = draw_table(rules, hand_number=hand_number, scores=scores, hands=list(train.hands),
                      turn=train.turn, playing=not train.over,
                      boneyard_left=train.boneyard_left, layout=None, open_ends=train.ends(),
                      count=train.count, seat=seat)
    return text + "markers: " + (", ".join(f"seat {s}" for s in marked) or "none") + "\n"


def render_state(rules: Rules, state: dict[str, Any], seat: int | None = None) -> str:
    """A table of the vector environment (``bones_native.VectorCore.table``:
    its hand, how it was dealt and the moves made; a train round's fields),
    drawn as :func:`render_text` draws a hand."""
    if rules.trains is not None:
        train = twin_of(rules, state, list(state["boneyard"]),
                        (False, 0, 0, None, state["lead_tile"], state["number"]))
        return _draw_trains(rules, train, state["hands_played"] + (1 if state["playing"] else 0),
                            list(state["scores"]), seat)
    deal = Deal(tuple(state["dealt"]), tuple(state["boneyard"]), state["leader"],
                state["lead_tile"], state["lead_doubles_only"], state["out_of_play"])
    layout = layout_of(rules, deal, list(state["moves"]))
    playing = state["playing"]
    return draw_table(rules, hand_number=state["hands_played"] + (1 if playing else 0),
                      scores=list(state["scores"]), hands=list(state["hands"]),
                      turn=state["turn"], playing=playing,
                      boneyard_left=len(state["boneyard"]) - state["bone_pos"], layout=layout,
                      open_ends={a: p for a, p in enumerate(layout.open) if p >= 0},
                      count=state["count"], seat=seat)


__all__ = ["draw_table", "render_state", "render_text"]
