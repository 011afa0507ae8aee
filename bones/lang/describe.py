"""The rules of a variant in plain English, generated from the model.

:func:`describe` reads a resolved :class:`~bones.lang.spec.Variant` and writes the
rulebook a table can play from: equipment, players and the deal, the lead, the
layout and the spinner, scoring during play, drawing and passing, the end of
the hand and its settlement, winning the game, the muggins rule and the
sources.  Nothing here knows a variant by name: every sentence comes from a
field, so a house-rule file is described as faithfully as a built-in one, and
every field of the model shows somewhere in the text (``tests/test_show.py``
checks that changing any field changes the text).

With ``players`` the text is for that many players (one hand size, one
target); without it, every value that depends on the player count is given
for each allowed count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from bones.engine.rules import CHECK_EXACT, CHECK_PENALTY
from bones.lang import spec
from bones.lang.load import builtin_names, load_variant
from bones.lang.spec import points_for_count, spinner_multipliers

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.rules import Rules

_NUMBER_WORDS = {
    0: "zero", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
    7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve",
    13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen",
    17: "seventeen", 18: "eighteen",
}
_SCORING_LIST_LIMIT = 40  # list every scoring count when there are at most this many
_MULTIPLIER_WORDS = {
    0: "nothing",
    1: "one half (its number once)",
    2: "both halves (twice its number)",
    3: "three times its number",
    4: "four times its number",
}
_PRESET_NAMES: dict[tuple[int, ...], str] = {(2, 2, 0, 0, 0): "drop2", (2, 2, 2, 1, 0): "sniff-count"}


# ------------------------------------------------------------ small helpers


def _word(n: int) -> str:
    return _NUMBER_WORDS.get(n, str(n))


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _join(items: Iterable[str], last: str = "and") -> str:
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _tile(a: int, b: int) -> str:
    return f"[{a}-{b}]"


def _tile_text(text: str) -> str:
    a, b = (int(x) for x in text.replace("|", "-").split("-"))
    return _tile(a, b)


def _counts(players: int | None, variant: spec.Variant) -> list[int]:
    return [players] if players is not None else list(variant.players.counts)


def _per_count(value: Any, variant: spec.Variant, players: int | None,
               fmt: Callable[[Any], str] = str, unit: str = "") -> str:
    """A per-player-count value as text: one value, or one per player count."""
    counts = _counts(players, variant)
    if not isinstance(value, dict):
        return fmt(value) + unit
    values = [(c, value.get(c)) for c in counts if c in value]
    if not values:
        return "(no value for this number of players)"
    if len({v for _, v in values}) == 1:
        text = fmt(values[0][1]) + unit
        if players is None and len(counts) > 1:
            text += " whatever the number of players"
        return text
    if players is not None:
        return fmt(values[0][1]) + unit
    parts = []
    for i, (c, v) in enumerate(values):
        parts.append(f"{fmt(v)}{unit} with {c} players" if i == 0 else f"{fmt(v)} with {c}")
    return _join(parts)


def _players_text(counts: list[int]) -> str:
    return _join([str(c) for c in counts], "or") + (" player" if counts == [1] else " players")


def _team_word(variant: spec.Variant) -> bool:
    return variant.players.partnerships.kind != "none"


def _who(variant: spec.Variant, one: str = "player") -> str:
    return f"{one} (or team)" if _team_word(variant) else one


# ----------------------------------------------------------------- sections


def _header(variant: spec.Variant, players: int | None) -> list[str]:
    title = variant.name
    lines = [title, "=" * len(title)]
    if variant.aliases:
        lines.append("Also called: " + ", ".join(variant.aliases) + ".")
    if variant.extends:
        lines.append(
            f"This file extends {variant.extends}: it takes every rule from there and "
            "changes some; the rules below are the result."
        )
    if players is not None:
        lines.append(f"Rules for {players} players.")
    if variant.summary:
        lines += ["", variant.summary.strip()]
    return lines


def _equipment(variant: spec.Variant) -> list[str]:
    n = variant.tiles.highest
    size = (n + 1) * (n + 2) // 2
    return [
        f"A double-{_word(n)} set: {size} tiles, one for every pair of numbers from 0 "
        f"to {n}, doubles included. Each number appears on {n + 1} tiles; a tile's pips "
        f"are the sum of its two halves, so the heaviest tile, {_tile(n, n)}, has {2 * n}.",
        "Tiles are written [a-b]; a double is a tile like [5-5].",
    ]


def _players_and_deal(variant: spec.Variant, players: int | None) -> list[str]:
    p = variant.players
    lines = []
    lines.append(f"For {_players_text(p.counts)}.")
    parts = p.partnerships
    team_counts = [c for c in parts.player_counts if players is None or c == players]
    team_counts_text = _players_text(team_counts) if team_counts else ""
    if parts.kind == "none":
        lines.append("Everyone plays alone.")
    elif not team_counts:
        lines.append(f"Everyone plays alone (partnerships are for {_players_text(parts.player_counts)}).")
    elif parts.kind == "optional":
        lines.append(
            f"With {team_counts_text} the players may agree to play as two teams of partners "
            f"(bones play --teams), {_opposite(team_counts)}. Partners share one score. "
            "Otherwise everyone plays alone."
        )
    else:
        lines.append(
            f"With {team_counts_text} the players always play as two teams of partners, "
            f"{_opposite(team_counts)}. Partners share one score."
        )
    if p.direction == "clockwise":
        lines.append("Play goes clockwise, to the left.")
    else:
        lines.append("Play goes counter-clockwise, to the right.")
    lines.append("Seats are numbered from 0 in the order of play: seat 1 plays after seat 0.")
    return lines + _deal(variant, players)


def _deal(variant: spec.Variant, players: int | None) -> list[str]:
    """The deal: each hand's size, the boneyard, its reserve."""
    lines = []
    n = variant.tiles.highest
    size = (n + 1) * (n + 2) // 2
    hands = _per_count(variant.deal.hand_size, variant, players,
                       fmt=lambda v: _plural(v, "tile"))
    lines.append(f"The tiles are shuffled face down and each player takes {hands}.")
    left = {}
    for c in _counts(players, variant):
        try:
            left[c] = size - c * variant.hand_size(c)
        except (KeyError, TypeError):
            continue
    no_draw = isinstance(variant.drawing, spec.NoDrawing)
    if left:
        if all(v == 0 for v in left.values()):
            lines.append(f"All {size} tiles are dealt: there is no boneyard.")
        else:
            stock = _per_count(left, variant, players, fmt=lambda v: _plural(v, "tile"))
            if no_draw:
                lines.append(
                    f"The rest, {stock}, stay face down out of play for the whole hand: "
                    "nobody draws from them."
                )
            else:
                lines.append(f"The rest form the boneyard (the stock): {stock}.")
    reserve = variant.deal.reserve
    has_reserve = (any(v for v in reserve.values()) if isinstance(reserve, dict) else reserve > 0)
    if has_reserve:
        amount = _per_count(reserve, variant, players, fmt=lambda v: _plural(v, "tile"))
        if no_draw:
            lines.append(
                f"The file also keeps {amount} of the boneyard in reserve; with no drawing "
                "the whole boneyard is out of play anyway."
            )
        else:
            lines.append(
                f"The last {amount} of the boneyard are a reserve that is never drawn "
                "(\"sleepers\"): once only the reserve is left, there is nothing to draw."
            )
    elif not no_draw:
        lines.append("Every boneyard tile may be drawn (no reserve).")
    redeal = variant.deal.redeal
    reasons = []
    if redeal.doubles:
        reasons.append(f"{_word(redeal.doubles)} or more doubles")
    if redeal.suit:
        reasons.append(f"{_word(redeal.suit)} or more tiles bearing the same number (a double "
                       "counted once)")
    if reasons:
        lines.append(f"If any player's hand holds {_join(reasons, 'or')}, the deal is void: "
                     "all the tiles are shuffled and dealt again, with the same lead rule.")
    return lines


def _opposite(counts: list[int]) -> str:
    if counts == [4]:
        return "partners sitting opposite each other: seats 0 and 2 against 1 and 3"
    return "partners sitting alternately: the even seats against the odd ones"


_IF_NONE = {
    "draw_more": "everyone draws one more tile from the boneyard, in turn, until "
                 "someone holds a double, who then leads it",
    "heaviest_hand": "the player with the heaviest hand (most pips) leads any tile",
    "heaviest_tile": "the holder of the heaviest tile leads it",
    "lightest_tile": ("the holder of the lightest tile leads it (the fewest pips, then the "
                      "lower higher half: [1-2] is lighter than [0-3])"),
    "lot": "the leader is decided by lot",
    "redeal": "the tiles are shuffled and dealt again",
    "highest_double": "the holder of the highest double leads it",
}


def _first_lead(rule: Any) -> str:
    """Who leads, as a clause that follows "is led by" or "leads"."""
    kind = rule.kind
    if kind == "lot":
        return ("lot: each player draws a tile face down, the heaviest tile (most pips) "
                "leads, and the tiles go back before the deal")
    if kind == "random":
        return "a player chosen at random"
    if kind == "highest_double":
        return (f"the holder of the highest double, who must lead it; if nobody holds a "
                f"double, {_IF_NONE[rule.if_none]}")
    if kind == "lowest_double":
        return (f"the holder of the lowest double, who must lead it; if nobody holds a "
                f"double, {_IF_NONE[rule.if_none]}")
    if kind == "tile":
        if not isinstance(rule.tile, str):
            order = ", then ".join(_tile_text(t) for t in rule.tile)
            return (f"the holder of {order}: the first of these tiles that was dealt, who "
                    f"must lead it; if none was dealt, {_IF_NONE[rule.if_none]}")
        return (f"the holder of {_tile_text(rule.tile)}, who must lead it; if nobody holds "
                f"it (not every tile was dealt), {_IF_NONE[rule.if_none]}")
    if kind == "locker":
        return ("the player who made the blocked hand's last play (the locker), who may "
                "lead any tile")
    if kind == "seat":
        return f"seat {rule.seat}, always"
    if kind == "lightest_tile":
        return ("the holder of the lightest tile, who must lead it (the fewest pips, then "
                "the lower higher half: [1-2] is lighter than [0-3])")
    raise ValueError(kind)  # pragma: no cover


def _names_tile(rule: Any) -> bool:
    return rule.kind in ("highest_double", "lowest_double", "tile", "lightest_tile")


def _train_hub(variant: spec.Variant, trains: spec.Trains) -> list[str]:
    """The lead of a train layout: the round's double placed in the hub."""
    top = trains.hub.top if trains.hub.top is not None else variant.tiles.highest
    rounds = (f"Each round has its own double, the hub: round 1 uses {_tile(top, top)}, "
              f"round 2 {_tile(max(top - 1, 0), max(top - 1, 0))}, and so on down "
              f"({_tile(0, 0)} in round {top + 1}).")
    if trains.hub.comes == "set_aside":
        lines = [rounds + " It is set aside before the deal and placed face up in the middle "
                 "of the table by the round's first player, as the round's first move: the "
                 "first player is chosen by lot in the first round, and is the next player "
                 "each round after."]
    else:
        lines = [rounds + " The player who holds it places it in the middle of the table as "
                 "the round's first move. If nobody holds it, the players draw one tile each "
                 "in turn, from seat 0, until it is drawn; the drawn tiles stay in the "
                 "drawers' hands, and the one who draws it places it."]
    if trains.hub.placing_ends_turn:
        lines.append("Placing it is the placer's turn: the next player plays next.")
    else:
        lines.append("Placing it does not end the placer's turn: he then takes the round's "
                     "first turn, and play goes on round the table.")
    return lines


def _lead(variant: spec.Variant) -> list[str]:
    lead = variant.lead
    if variant.layout.trains is not None:
        return _train_hub(variant, variant.layout.trains)
    lines = [f"The first hand is led by {_first_lead(lead.first)}."]
    later = lead.later
    direction_word = "left" if variant.players.direction == "clockwise" else "right"
    other_word = "right" if direction_word == "left" else "left"
    later_names_tile = False
    if later.kind == "domino_er":
        lines.append(
            "Each later hand is led by the player who went out (dominoed) in the hand "
            f"before; after a blocked hand it is led by {_first_lead(later.after_block)}."
        )
    elif later.kind == "winner":
        lines.append(
            "Each later hand is led by the winner of the hand before, the winner of a "
            "blocked hand included; when that hand had no single winner it is led by "
            f"{_first_lead(later.if_none)}."
        )
    elif later.kind == "rotate":
        if later.to == "next":
            lines.append(
                "The lead passes round the table: each later hand is led by the seat after "
                f"the last leader in the order of play (to the {direction_word})."
            )
        else:
            lines.append(
                "The lead passes round the table against the order of play: each later "
                f"hand is led by the seat before the last leader (to the {other_word})."
            )
    elif later.kind == "alternate":
        lines.append("The two players lead alternate hands.")
    elif later.kind == "series":
        lines.append(
            "Later hands follow the series rule of the PyPI dominoes package: the player "
            "who went out leads; after a blocked hand, the last player to lay a tile (the "
            "blocker) leads if their side won it, the previous leader leads if it was tied, "
            "and otherwise the seat after the blocker leads."
        )
    elif later.kind == "first":
        lines.append("Every later hand is led the same way as the first.")
        later_names_tile = _names_tile(lead.first)
    else:  # pragma: no cover
        raise ValueError(later.kind)
    if _names_tile(lead.first) and (later_names_tile or later.kind == "first"):
        pass  # the lead rules always name the tile
    else:
        which = "Where the rule above names no tile, the leader" if _names_tile(lead.first) else "The leader"
        if lead.allowed == "any":
            lines.append(f"{which} may lead any tile.")
        else:
            lines.append(f"{which} must lead a double.")
    if lead.allowed == "double" and _names_tile(lead.first) and later.kind == "first":
        lines.append("(The file also asks for a double lead; the lead rule already names the tile.)")
    if lead.allowed == "double" and lead.if_no_double == "draw":
        lines.append(
            "A leader who holds no double draws from the boneyard, one tile at a time, until a "
            "double comes, and leads it; the drawn tiles stay in the hand. If the boneyard runs "
            "out first, the tiles are dealt again.")
    elif lead.allowed == "double":
        lines.append("If the leader holds no double, the next seat round the table that holds "
                     "one leads it; if nobody holds a double, the tiles are dealt again.")
    return lines


def _multiplier_lines(mult: list[int], edges: int, what: str) -> list[str]:
    out = []
    for k in range(edges + 1):
        m = mult[k]
        covered = "none" if k == 0 else ("all" if k == edges else str(k))
        example = f"; a [5-5] counts {5 * m}" if m else ""
        words = _MULTIPLIER_WORDS.get(m, f"{m} times its number")
        out.append(f"  - {covered} of its {what} covered: {words}{example}")
    return out


_DOUBLE_TEXT = {
    "crosswise": ("A double that is not a spinner is laid crosswise and, while it stands at the "
                  "end of a line or arm, counts both halves (a [5-5] counts 10); once a tile is "
                  "played on it, only the new end counts. A double led alone counts both "
                  "halves once (a led [5-5] counts 10)."),
    "inline": ("A double that is not a spinner is laid in line and counts one half at an "
               "open end (a [5-5] at an end counts 5)."),
}
_SPINNER_TEXT = {
    "first_double": (
        "The first double played, whether led or played later, is the spinner. It lies "
        "crosswise and takes tiles on all four edges, its two long sides and its two "
        "cross ends, each starting an arm. Later doubles are ordinary."),
    "every_double": (
        "Every double is a spinner: it lies crosswise and takes tiles on all four edges, "
        "its two long sides and its two cross ends, each starting an arm."),
    "every_double_but_led": (
        "Every double is a spinner except a led one: a double played after the lead lies "
        "crosswise and takes tiles on all four edges, its two long sides and its two cross "
        "ends, each starting an arm. A double that is led is an ordinary double: it takes "
        "tiles on its two long sides only."),
    "led_double": (
        "A double that is led is the spinner: it lies crosswise and takes tiles on all "
        "four edges, its two long sides and its two cross ends, each starting an arm. "
        "When the lead is not a double there is no spinner; later doubles are ordinary."),
}
_ORDER_TEXT = {
    "sides_first": "Both long sides of a spinner must be covered before either cross end may be played on.",
    "any": "Any free edge of a spinner may be played on at any time.",
}
_ALL_EDGES_FIRST = "No arm may be extended until all four edges of the spinner are covered."


def _trains_layout(trains: spec.Trains) -> list[str]:
    """The layout of trains and arms growing from the hub (docs/trains.md)."""
    lines = ["Each tile is played against an open end with the matching number touching it, "
             "its other half becoming the new end. Nothing is counted during play."]
    hub = trains.hub
    if trains.personal:
        public = {0: "There is no public train (private trains).",
                  1: "One more train, the public (Mexican) train, is anyone's to start "
                     "and extend."}.get(trains.public, f"{_word(trains.public).capitalize()} "
                                                       "public trains are anyone's to start "
                                                       "and extend.")
        lines += [
            "From the hub grow one personal train per player and the public trains: each "
            "is a single line with one open end; an empty train's end is the hub's number.",
            public,
            "A player may play on his own train, on a public train, and on another "
            "player's train only while it carries a marker. A player's marker goes on his "
            "train when he ends a turn without laying a tile, and comes off when he "
            + ("plays on his own train." if trains.marker_off == "own_train"
               else "lays a tile anywhere."),
        ]
        if trains.public_needs_own:
            lines.append("A player may play on a public train only once his own train is "
                         "started.")
    if hub.tiles:
        lines.append(f"Before anything else, {_plural(hub.tiles, 'tile')} must be laid "
                     "against the hub double itself, each bearing its number and each "
                     "starting a new arm; until then every play must go there.")
    if not trains.personal:
        lines.append("Arms are numbered A1, A2, ... in the order they are made; each is a "
                     "line with one open end.")
    d = trains.doubles
    if d.cover:
        where = ("each cover starting a new arm (the double closes its own arm)"
                 if d.covers == "new_arms" else "each cover continuing the double's train")
        who = {
            "same_player": "The player who lays a double must cover it in the same turn, his "
            "next tile going on it; if he cannot, he draws one tile and lays it there if it "
            "fits, else he passes (a marker goes on his train) and every player in turn must "
            "cover the double before playing anywhere else.",
            "same_player_only": "The player who lays a double must cover it in the same "
            "turn, his next tile going on it; if he cannot, he draws one tile and lays it "
            "there if it fits, else he passes (a marker goes on his train) and the double "
            "stays bare: nobody else owes it a cover.",
            "one_more_anywhere": "The player who lays a double lays one more tile, anywhere "
            "he may play (on the double or not); if he cannot, he draws one tile and lays it "
            "if it fits, else he passes (a marker goes on his train). A double still bare "
            "when his turn ends must be covered by every player in turn before playing "
            "anywhere else.",
        }.get(d.by, "The next tiles laid, by whoever is to play, must go on it; a player who "
              "cannot draws one tile, lays it there if it fits, and otherwise passes.")
        lines += [f"A double is laid crosswise at a train's end and must take "
                  f"{_plural(d.cover, 'tile')} before any other play, {where}.", who,
                  "Several doubles owed covers are served in the order they were laid. "
                  "Going out ends the round even with a cover owed."]
        if d.first_spinner:
            lines.append("The first double laid on an arm is a spinner instead: it is owed "
                         "nothing, its arm goes on through it, and two more arms start from "
                         "its sides; only later doubles are owed covers.")
        if d.release == "no_cover_left":
            lines.append("A double is released, and play goes on elsewhere, once no tile "
                         "that could cover it is left in any hand or the boneyard.")
    else:
        lines.append("Doubles are ordinary tiles.")
    first = trains.first_turn
    if first.tiles == "many":
        lines.append(
            "In his first turn of a round each player may lay any number of tiles on his own "
            "train, one after another, each fitting the last"
            + (" (he may stop after any tile by passing, which puts no marker on)"
               if first.may_stop else " (while a tile fits he must go on)")
            + ("; he may also play on a public train." if first.public else
               "; he may play nowhere else in that turn.")
            + " A double he leaves bare in his first turn binds nobody until every player "
            "has had his first turn. A player who cannot start his train draws one tile and "
            "lays it if it fits; otherwise he passes and his train gets a marker.")
    if trains.turn_tiles == "all_that_fit":
        lines.append("In every turn a player goes on laying tiles while one can be laid "
                     "where he may play; the turn ends by itself when none can, or after a "
                     "tile he drew and laid.")
    return lines


def _layout(variant: spec.Variant) -> list[str]:
    if variant.layout.trains is not None:
        return _trains_layout(variant.layout.trains)
    sp = variant.layout.spinner
    dbl = _DOUBLE_TEXT[variant.layout.doubles]
    lines = [
        "Each tile is played against an open end with the matching number touching it. "
        "After every play the open ends are added up: that total is the count."
    ]
    if sp.kind == "none":
        if variant.layout.ends == "one":
            return [*lines, "There is no spinner, and the line grows at one end only: after the "
                    "lead only its E end (the second half, as the lead is laid) is open; its "
                    "other end is closed for the hand.", dbl]
        return [*lines, "There is no spinner: the tiles form one line with two open ends.", dbl]
    if sp.kind == "inline_sniff":
        return lines + _sniff(sp, dbl)
    return lines + _spinner(sp, variant.layout.doubles, dbl)


def _sniff(sp: spec.InlineSniff, dbl: str) -> list[str]:
    return [
        "The first double played, whether led or played later, is the sniff. It is laid "
        "in line like any tile, and each of its two long sides then takes exactly one "
        "stub tile, played at any time while the sniff is on the table. A stub's outer "
        "end counts in every later count and can never be built on; a stub added to a "
        "sniff already enclosed by the line still counts.",
        "The sniff's own pips count by how many of its two line ends are covered:",
        *_multiplier_lines(list(spinner_multipliers(sp.count)), 2, "two line ends"),
        dbl.replace("that is not a spinner", "other than the sniff"),
    ]


def _spinner(sp: spec.DoubleSpinner, doubles: str, dbl: str) -> list[str]:
    """A layout with spinners: which doubles spin, the order of their edges, their count."""
    mult = list(spinner_multipliers(sp.count))
    preset = _PRESET_NAMES.get(tuple(mult))
    name = f" (the {preset} model)" if preset else ""
    lines = [
        _SPINNER_TEXT[sp.kind],
        _ORDER_TEXT.get(sp.order, _ALL_EDGES_FIRST),
        "Edges count as covered however they were covered: a spinner played on the end of "
        "an arm starts with one edge covered, the one it arrived by.",
        f"A spinner's own pips count by how many of its four edges are covered{name}:",
        *_multiplier_lines(mult, 4, "four edges"),
        "The open end of every arm counts too; a free edge with no arm adds nothing.",
    ]
    if sp.kind == "every_double":
        style = "crosswise, both halves" if doubles == "crosswise" else "in line, one half"
        lines.append(f"(Every double is a spinner, so the file's rule for ordinary doubles, "
                     f"{style}, never applies.)")
    else:
        lines.append(dbl)
    return lines


def _scoring(variant: spec.Variant) -> list[str]:
    s = variant.scoring
    when, points = s.when, s.points
    lines = []
    if isinstance(when, spec.NoPredicate):
        lines.append("No points are scored during play: points come only at the end of the hand.")
        if not isinstance(points, spec.CountPoints):
            lines.append(f"(The file names {points.kind} points, which need scoring plays.)")
    elif isinstance(when, spec.MatchingEnds):
        lines += _matching_ends(when, points)
    else:
        lines += _count_scoring(variant, when, points)
    if not isinstance(when, spec.NoPredicate):
        lines.append("Nothing forces a scoring play: a player may choose any legal placement.")
        if s.get_in:
            lines.append(
                f"Getting in: a {_who(variant)}'s play points count only from the first single "
                f"play worth at least {s.get_in}; points made before that are not scored."
            )
            if s.get_in_scope == "match":
                lines.append("Once in, a side stays in for the rest of the game: later hands "
                             "need no new get-in score.")
            else:
                lines.append("Every hand starts afresh: each side must get in again.")
        if s.winning_points_on_lead:
            lines.append("Points scored by the lead count like any other, and may win the game.")
        else:
            lines.append("Points scored by a lead can never win the game: a lead that would "
                         "reach the target scores nothing.")
    elif s.get_in or not s.winning_points_on_lead:
        lines.append(f"(The file sets get_in {s.get_in} and winning_points_on_lead "
                     f"{str(s.winning_points_on_lead).lower()}, which need scoring plays.)")
    if isinstance(s.muggins, spec.MugginsOn):
        lines.append("The muggins rule is on: players must claim their own scores (see Muggins).")
    else:
        lines.append("Scores are counted for the players: the muggins rule (claiming) is off.")
    return lines


def _matching_ends(when: spec.MatchingEnds, points: spec.Points) -> list[str]:
    """Scoring by ends alike (double-headers, triple-headers)."""
    lines = []
    lines.append(
        "A play scores when open ends show the same number. A double at an end shows "
        "its number twice, so a double led alone is a pair."
    )
    names = {2: "a double-header", 3: "a triple-header"}
    for size in sorted(when.points):
        label = names.get(size, f"{size} alike")
        lines.append(f"  - {_word(size)} ends alike ({label}): {_plural(when.points[size], 'point')}")
    if when.points:
        top = max(when.points)
        lines.append(f"More than {_word(top)} ends alike score as {_word(top)}.")
    if not isinstance(points, spec.CountPoints):
        lines.append(f"(The file names {points.kind} points, which apply to counts only.)")
    return lines


def _count_scoring(variant: spec.Variant, when: spec.MultipleOf | spec.InList,
                   points: spec.Points) -> list[str]:
    """Scoring by the count: which counts score, what they score, the first of them."""
    lines = []
    if isinstance(when, spec.MultipleOf):
        divisors = _join([str(d) for d in when.divisors], "or")
        lines.append(f"A play scores when the count is a multiple of {divisors}. "
                     "A count of 0 never scores.")
    else:
        lines.append("A play scores when the count is one of these numbers: "
                     + ", ".join(str(c) for c in when.counts) + ". A count of 0 never scores.")
    if isinstance(points, spec.CountPoints):
        lines.append("It scores the count itself (a count of 15 scores 15).")
    elif isinstance(points, spec.DividedPoints):
        lines.append(f"It scores one point per {points.by}: the count divided by {points.by}, "
                     f"rounded down (a count of {3 * points.by} scores 3).")
    elif isinstance(points, spec.SumOfQuotients):
        lines.append("It scores the count divided by each of the numbers above that "
                     "divides it, added together (with 5 and 3, 15 scores 3 + 5 = 8).")
    elif isinstance(points, spec.PerDivisor):
        lines.append("It scores the count once for each of the numbers above that divides "
                     "it (with 3 and 5, 15 scores 30).")
    elif isinstance(points, spec.FlatPoints):
        lines.append(f"It scores {_plural(points.amount, 'point')}, whatever the count.")
    top = spec.max_reachable_count(variant)
    scoring = [(c, points_for_count(variant.scoring, c)) for c in range(1, top + 1)]
    scoring = [(c, p) for c, p in scoring if p > 0 or _qualifies(variant, c)]
    if scoring and len(scoring) <= _SCORING_LIST_LIMIT:
        table = ", ".join(f"{c} scores {p}" for c, p in scoring)
        lines.append(f"Scoring counts up to {top} (no count above {top} can arise in this "
                     f"layout): {table}.")
    elif scoring:
        table = ", ".join(f"{c} scores {p}" for c, p in scoring[:12])
        lines.append(f"The first scoring counts: {table}, and so on up to {top}.")
    lines.append("The lead itself scores if its count qualifies.")
    return lines


def _qualifies(variant: spec.Variant, count: int) -> bool:
    when = variant.scoring.when
    if isinstance(when, spec.MultipleOf):
        return any(count % d == 0 for d in when.divisors)
    if isinstance(when, spec.InList):
        return count in when.counts
    return False


def _drawing(variant: spec.Variant) -> list[str]:
    d = variant.drawing
    lines = []
    if isinstance(d, spec.NoDrawing):
        lines.append(
            "There is no drawing. A player who cannot play knocks (passes); knocking while "
            "able to play is not allowed."
        )
    else:
        if isinstance(d, spec.DrawLimited):
            lines.append(
                f"A player who cannot play draws from the boneyard, one tile at a time, at "
                f"most {_plural(d.max_per_turn, 'tile')} a turn, stopping when a tile will play; "
                "a player whose draws bring no playable tile passes."
            )
        else:
            lines.append(
                "A player who cannot play draws from the boneyard, one tile at a time, until "
                "a tile will play or there is nothing left to draw."
            )
        if d.must_play_drawn:
            lines.append("A drawn tile that will play must be played at once, which ends the turn.")
        else:
            lines.append("A player who draws a tile that will play may play it or pass.")
        if d.draw_while_able:
            lines.append(
                "A player holding a playable tile may draw one tile instead of playing, "
                "which ends the turn (to hold a tile back for a better count)."
            )
        else:
            lines.append("A player who can play must play: drawing is only for a player who cannot.")
        if d.stuck == "pass":
            lines.append("A player who can neither play nor draw passes.")
    if d.stuck == "block":
        lines.append(
            "A player to move who can neither play nor draw is stuck, and the hand ends "
            "there: it is settled as a blocked hand, even if another player could still play."
        )
    if d.knock_bonus:
        lines.append(
            f"Knock bonus: the next player able to play scores {_plural(d.knock_bonus, 'point')} "
            "for each pass since the last play."
        )
    lines.append("A pass is a move of its own. When nobody can play and nothing can be "
                 "drawn, the hand is blocked (see below).")
    return lines


_AMOUNT_TEXT = {
    "opponents": "the pips left in the opponents' hands",
    "opponents_minus_own": "the pips left in the opponents' hands less their own",
    "all_hands": "all the pips left in every hand, a partner's included",
}


def _turn(variant: spec.Variant) -> list[str]:
    after = variant.turn.after_double
    if after.kind == "another_double":
        return [
            "Two doubles in one move: a player who plays a double (not the lead) and still "
            "holds the double of the number at the other open end may play that one too, at "
            "once, in the same turn. It is optional: the player may pass instead, which ends "
            "the turn and is no knock (it proves nothing about the hand). At most two tiles "
            "a turn."]
    if after.kind == "extra_tile":
        again = ("A double played as that extra tile gives the option again."
                 if after.repeat else "At most one extra tile a turn.")
        return [
            "A player who plays a double (the lead included) may play one more tile at once, "
            "in the same turn. It is optional: the player may pass instead, which ends the "
            f"turn and is no knock. {again}"]
    return []


def _bonuses(variant: spec.Variant) -> list[str]:
    b = variant.bonuses
    who = "player"
    side = "team" if _team_word(variant) else "player"
    lines = []
    if b.opening_pass:
        lines.append(
            f"Pass on the opening tile (pase de salida): if the {who} after the leader cannot "
            f"play on the opening tile and passes, the leader's {side} scores "
            f"{_plural(b.opening_pass.double, 'point')} when it is a double and "
            f"{_plural(b.opening_pass.other, 'point')} when it is not, at once. Only that "
            "first pass counts.")
    if b.round_pass:
        lines.append(
            f"Passing round (paso redondo): when every other {who} passes after a play, so "
            f"that the same {who} is to move again, that {side} scores "
            f"{_plural(b.round_pass, 'point')} at the last pass. It may happen any number of "
            "times in a hand.")
    if b.opening_pass or b.round_pass:
        lines.append("These points are added to the score as the pass is made, during the "
                     "hand; the passer scores nothing.")
    if b.capicua:
        dbl = ("; a double that fits both (equal) ends counts too" if b.capicua.doubles
               else "; a double never makes capicúa")
        lines.append(
            f"Capicúa: going out with a tile that could be laid on either open end (the "
            f"tile [x-y] on ends x and y, or, when both ends show x, any tile bearing x{dbl}) "
            f"scores {_plural(b.capicua.points, 'point')} more, in the settlement. Never on "
            "a blocked hand.")
    if b.last_tile:
        lines.append(
            f"Going out with {_tile_text(b.last_tile.tile)} scores "
            f"{_plural(b.last_tile.points, 'point')} more, in the settlement (not when it "
            "blocks the hand).")
    if b.by_hand:
        amounts = ", ".join(str(p) for p in b.by_hand.points)
        numbered = ("every hand of the game is numbered, a hand with no winner included (its "
                    "bonus is lost)" if b.by_hand.tied_hands == "count"
                    else "only hands with a winner are numbered")
        lines.append(
            f"The winner of hand 1, 2, 3, ... of the game scores {amounts} more, in the "
            f"settlement, whether the hand is won by going out or blocked; later hands 0. "
            f"({numbered[0].upper() + numbered[1:]}.)")
    if b.blocked_win:
        lines.append(f"The {side} that wins a blocked hand scores "
                     f"{_plural(b.blocked_win, 'point')} more, in the settlement.")
    return lines


def _amount(rule: Any) -> str:
    if rule.amount == "flat":
        return _plural(rule.points, "point")
    return _AMOUNT_TEXT[rule.amount]


def _arithmetic(rule: Any, sample: int, teams: bool = False) -> list[str]:
    """How an amount of pips is rounded and divided, with a worked example."""
    out = []
    rounding = rule.rounding
    value = sample
    amount = getattr(rule, "amount", None)
    if isinstance(rounding, spec.UnitRounding):
        u = rounding.unit
        mode = rounding.kind
        if mode == "nearest":
            half = (u + 1) // 2
            up, down = 2 * u + half, 2 * u + half - 1
            out.append(
                f"The pips are rounded to the nearest multiple of {u}: a remainder "
                f"{_remainders(1, half - 1)} rounds down, {_remainders(half, u - 1)} rounds up "
                f"({up} pips count {3 * u}, {down} count {2 * u})."
            )
        elif mode == "up":
            out.append(f"The pips are rounded up to the next multiple of {u}: {2 * u + 1} pips "
                       f"count {3 * u}, {2 * u} count {2 * u}.")
        else:
            out.append(f"The pips are rounded down to a multiple of {u}: {3 * u - 1} pips "
                       f"count {2 * u}.")
        apart = rounding.per != "aggregate"
        if amount == "opponents":
            if rounding.per == "player" and teams:
                out.append(
                    "Each opposing player's hand is rounded on its own, partners' hands too, "
                    "and the results added: opponents holding 2 and 2 pips give "
                    f"{2 * _round(2, u, mode)} where the total, 4, would round to "
                    f"{_round(4, u, mode)}."
                )
            elif apart:
                out.append(
                    "Each opponent's hand (partners' pips pooled) is rounded separately and "
                    "the results added: opponents holding 2 and 2 pips give "
                    f"{2 * _round(2, u, mode)} where the total, 4, would round to "
                    f"{_round(4, u, mode)}."
                )
            else:
                out.append("The opponents' pips are added up first, then rounded once.")
        elif isinstance(rule, spec.OwnPenaltySettles) and rounding.per == "player":
            out.append(
                "Each player's own hand is rounded on its own, partners' hands too, and a "
                "team loses the sum: partners holding 2 and 2 pips lose "
                f"{2 * _round(2, u, mode)} where their pooled 4 would round to "
                f"{_round(4, u, mode)}."
            )
        else:
            what = {
                "opponents_minus_own": "The amount is worked out first, then rounded once.",
                "all_hands": "All the pips are added up first, then rounded once.",
                None: ("Each difference is rounded." if isinstance(rule, spec.EachHeavierSettles)
                       else "Each hand is rounded on its own (a team's pips pooled first)."),
            }[amount]
            out.append(what)
        value = _round(value, u, mode)
    else:
        out.append("The pips are not rounded.")
    if rule.divisor > 1:
        out.append(
            f"The result is then divided by {rule.divisor}, rounded down: {sample} pips"
            + (f" round to {value}, which" if value != sample else "")
            + f" score {value // rule.divisor}."
        )
    return out


def _round(value: int, unit: int, mode: str = "nearest") -> int:
    if mode == "up":
        return -(-value // unit) * unit
    if mode == "down":
        return value - value % unit
    quotient, remainder = divmod(value, unit)
    return (quotient + (1 if 2 * remainder >= unit else 0)) * unit


def _settle_rule(rule: Any, variant: spec.Variant, players: int | None, event: str) -> list[str]:
    who = _who(variant)
    lines: list[str] = []
    if isinstance(rule, spec.NobodySettles):
        return ["Nobody scores."]
    if isinstance(rule, spec.OwnHandSettles):
        lines = [f"Every {who} is charged the pips left in his own hand (the {who} who went "
                 "out, none); the charge is added to his score, which counts against him."]
        if rule.double_blank is not None:
            lines.append(f"{_tile(0, 0)} is charged {rule.double_blank}.")
        if rule.blanks is not None:
            lines.append(f"Every other tile with a blank half is charged {rule.blanks}.")
        if rule.per_marker:
            lines.append(f"A {who} whose train still carries a marker is charged "
                         f"{rule.per_marker} more.")
        if rule.out_on_double != 1:
            lines.append(f"When the {who} who went out laid a double last, every other "
                         f"{who}'s charge is multiplied by {rule.out_on_double}.")
        return lines
    if isinstance(rule, spec.DominoerSettles):
        lines.append(f"The {who} who went out scores {_amount(rule)}.")
    elif isinstance(rule, spec.LightestSettles):
        pooled = " (a team's pips pooled)" if _team_word(variant) else ""
        if rule.compare == "player" and _team_word(variant):
            pooled = (" (each player's own hand, not the team's: the player with the fewest "
                      "pips wins for his team; two partners lowest: their team)")
        if event == "domino":
            lines.append("The lightest hand wins: the player who went out holds none.")
        lines.append(f"The {who} with the lightest hand{pooled} scores {_amount(rule)}.")
        if rule.doubles_lose:
            lines.append(
                "A hand holding a double loses to any hand without one: the lightest "
                "double-free hand wins, and only when every hand holds a double does the "
                "lightest of them win."
            )
        ties = rule.ties
        unit = rule.rounding.unit if isinstance(rule.rounding, spec.UnitRounding) else 1
        tie_text = {
            "nobody": "nobody scores",
            "share": ("the tied players share the amount equally, each share rounded down"
                      + (f" to a multiple of {unit}" if unit > 1 else "")),
            "not_blocker": "the tied hand that did not make the last play wins",
            "blocker": "the tied hand that made the last play (the locker's) wins",
            "full": "each tied hand scores the whole amount from the hands that are not tied",
            "carry": ("nobody scores now: what one tied hand would have scored alone (from "
                      "every other hand, the other tied ones included) stays on the table, and "
                      "the winner of the next hand that has a winner (the player who goes out, "
                      "or the one best settlement) takes it with that hand's settlement; the "
                      "points of several tied hands in a row add up"),
        }
        if isinstance(ties, dict):
            parts = [f"with {c} players, {tie_text[ties[c]]}" for c in _counts(players, variant) if c in ties]
            lines.append("If the lightest hands tie: " + "; ".join(parts) + ".")
        else:
            lines.append(f"If the lightest hands tie, {tie_text[ties]}.")
    elif isinstance(rule, spec.LockerSettles):
        neighbour = ("the player who played just before him (on his left in counter-clockwise "
                     "play)" if rule.against == "previous" else "the player who plays after him")
        tie = {"blocker": "a tie goes to the locker",
               "not_blocker": "a tie goes to the other player",
               "nobody": "a tie scores nothing"}[rule.ties]
        lines.append(
            "Only two hands are compared: the locker's (the player who made the last play) "
            f"and that of {neighbour}. The lower wins the hand for its {_who(variant)}; {tie}. "
            f"The winning {_who(variant)} scores {_amount(rule)}.")
    elif isinstance(rule, spec.LosersPaySettles):
        if event == "domino":
            lines.append(f"Every {who} but the one who went out is charged their own pips: the "
                         "pips left in their hands are added to their score, a penalty.")
        else:
            what = ("each player's own hand" if rule.compare == "player"
                    else "the pooled pips of each side" if _team_word(variant) else "the hands")
            lines.append(f"The lightest wins ({what} compared), and every other {who} is "
                         "charged their own pips, added to their score as a penalty. If the "
                         "lightest tie, nobody is charged.")
    elif isinstance(rule, spec.EachHeavierSettles):
        lines.append(
            f"Every {who} scores, against each opponent holding more pips, the difference "
            "between the two hands; equal hands score nothing against each other."
        )
    elif isinstance(rule, spec.OwnPenaltySettles):
        lines.append(
            f"Every {who} loses their own pips: the pips left in their hand are subtracted "
            "from their score"
            + (" (the player who went out holds none)." if event == "domino" else ".")
        )
    if isinstance(rule, (spec.DominoerSettles, spec.LightestSettles, spec.LockerSettles)) \
            and rule.amount == "flat":
        if not isinstance(rule.rounding, spec.NoRounding) or rule.divisor > 1:
            lines.append(f"(The file's rounding and divisor do not apply to a flat amount: "
                         f"{_rounding_brief(rule)}.)")
        return lines
    sample = 26 if not isinstance(rule, spec.OwnPenaltySettles) else 13
    lines += _arithmetic(rule, sample, bool(_team_word(variant)))
    return lines


def _rounding_brief(rule: Any) -> str:
    r = rule.rounding
    text = "no rounding" if isinstance(r, spec.NoRounding) else f"{r.kind} {r.unit}, {r.per}"
    return f"{text}, divisor {rule.divisor}"


def _remainders(low: int, high: int) -> str:
    if low > high:
        return "of none"
    if low == high:
        return f"of {low}"
    if high == low + 1:
        return f"of {low} or {high}"
    return f"of {low} to {high}"


def _end_of_hand(variant: spec.Variant, players: int | None) -> list[str]:
    lines = [
        "The hand ends when a player plays their last tile (goes out, or dominoes), or when "
        "it is blocked: nobody can play and nothing can be drawn (a reserve left face down "
        "counts as nothing to draw). A blocked hand ends at once, with no further passes."
    ]
    if variant.layout.trains is not None:
        lines.append(
            "In a train layout the round is blocked the moment nothing can be drawn and no "
            "hand holds a tile that could be laid, counting every train as carrying a marker "
            "(a round of passes would open them all) and, while a double or the hub is owed "
            "tiles, only the tiles it can take.")
    if variant.hand_end.partners_both_out:
        lines.append(
            "In partnership play the hand goes on until both partners of a team are out: a "
            "partner who is out is skipped, and the team counts as going out when the second "
            "partner plays their last tile."
        )
    elif _team_word(variant):
        lines.append("In partnership play the hand ends as soon as either partner goes out.")
    lines.append("")
    lines.append("When a player goes out:")
    lines += ["  " + line for line in _settle_rule(variant.settlement.domino, variant, players, "domino")]
    lines.append("When the hand is blocked:")
    lines += ["  " + line for line in _settle_rule(variant.settlement.blocked, variant, players, "blocked")]
    lines.append("Points scored during the hand are kept whatever the settlement.")
    floor = variant.settlement.floor
    subtracts = any(isinstance(r, spec.OwnPenaltySettles)
                    for r in (variant.settlement.domino, variant.settlement.blocked))
    if floor is not None:
        lines.append(f"Scores never fall below {floor}.")
    elif subtracts:
        lines.append("Scores can fall below zero.")
    first = variant.settlement.first_minimum
    if first:
        lines.append(f"While a {_who(variant)}'s score is still 0, a settlement of less than "
                     f"{first} to it is not recorded; from {first} on it is, and once a score "
                     "is above 0 everything counts.")
    return lines


def _winning(variant: spec.Variant, players: int | None) -> list[str]:
    m = variant.match
    lines = []
    if isinstance(m, spec.RoundsMatch):
        trains = variant.layout.trains
        top = variant.tiles.highest if trains is None or trains.hub.top is None \
            else trains.hub.top
        count = m.count or top + 1
        lines.append(f"The game is {_plural(count, 'round')}, each with its own hub double: "
                     "the lowest total wins, and equal lowest totals share the win (no "
                     "single winner).")
        if m.lose_at:
            lines.append(f"It also ends after any round in which a total reaches "
                         f"{m.lose_at}; the lowest total then wins.")
        return lines
    if isinstance(m, spec.HandsMatch):
        if m.count == 1:
            lines.append("The game is a single hand: the higher score wins, and equal scores draw.")
        else:
            lines.append(f"The game is {m.count} hands: the highest total wins.")
    elif isinstance(m, spec.PenaltyMatch):
        limit = _per_count(m.points, variant, players, fmt=lambda v: f"{v} points")
        lines.append(
            f"Scores are penalties. After each hand's settlement, the first {_who(variant)} "
            f"whose score reaches {limit} loses the game (the \"goat\"), and the lowest "
            "score wins it.")
    else:
        target = _per_count(m.points, variant, players, fmt=lambda v: f"{v} points")
        lines.append(f"The game is played to {target}.")
        if m.check == "hand_end":
            lines.append(
                "Scores are checked after each hand's settlement: the highest score at or "
                "above the target wins. If the highest scores are tied, another hand is played."
            )
        elif m.check == "immediate":
            lines.append(
                "The game ends the moment a score reaches the target, even in the middle of "
                "a hand; that hand is not settled. If a hand's settlement takes several over "
                "the target, the highest wins."
            )
        elif m.check == "hand_winner":
            blocked = variant.settlement.blocked
            if isinstance(blocked, spec.LightestSettles):
                ties = {
                    "nobody": "a tie for the lightest hand has no winner",
                    "carry": "a tie for the lightest hand has no winner",
                    "not_blocker": "of tied lightest hands, the one that did not make the "
                                   "last play wins (if there is exactly one)",
                    "share": "tied lightest hands all win it",
                    "full": "tied lightest hands all win it",
                }
                tie_rule = blocked.ties
                if isinstance(tie_rule, dict):
                    tie_text = "; ".join(f"with {c} players, {ties[t]}"
                                         for c, t in sorted(tie_rule.items())
                                         if players is None or c == players)
                else:
                    tie_text = ties[tie_rule]
                lightest = ("the lightest hand"
                            + (" (a hand holding a double loses to a double-free one)"
                               if blocked.doubles_lose else "")
                            + f"; {tie_text}")
            else:
                lightest = "the lightest hand; a tie for it has no winner"
            lines.append(
                "Only the winner of a hand can win the game: after the hand's settlement, "
                "the hand's winner wins the game if their score is at or above the target, "
                "even if someone else's score is higher. Nobody else wins, even over the "
                "target. The winner of a hand is the player (or team) who went out; in a "
                f"blocked hand, {lightest}, even when the settlement gives it nothing. Of "
                "several winners at the target, the highest score wins; a tie plays another hand."
            )
        else:
            lines.append(
                "The target must be reached exactly: a gain that would pass it is ignored "
                "whole (a point for going out included), and reaching it exactly wins at "
                "once, even in the middle of a hand."
            )
    if isinstance(m, spec.TargetMatch) and m.void_at:
        lines.append(
            f"The game ends void, with no winner, the moment every {_who(variant)} has "
            f"{m.void_at} points or more (so it is won only while the others have fewer); "
            "the scores stand as they are, and a new game may start from 0.")
    if isinstance(m, spec.TargetMatch) and m.games > 1:
        lines.append(
            f"The match is won by the first to win {_plural(m.games, 'game')}: each game "
            "is a run of hands to the target above, after which every score starts again "
            "from 0.")
    if _team_word(variant):
        lines.append("Partners win or lose together, on their shared score.")
    return lines


def _muggins(variant: spec.Variant) -> list[str]:
    m = variant.scoring.muggins
    if not isinstance(m, spec.MugginsOn):
        return []
    if m.kind == "transfer":
        missed = ("go to the next opponent in turn, who calls \"muggins\" and scores them")
    else:
        missed = "are lost: nobody scores them"
    over = (", and the next opponent in turn scores the amount claimed as a penalty"
            if m.penalise_over_claim else "")
    truth = {
        "lost": "Nobody scores the true points of that play.",
        "caller": "The true points of that play go to the next opponent in turn, who calls it.",
        "claimer": "The player still scores the true points of that play.",
    }[m.over_claim_points]
    return [
        "Each player must claim the points of their own scoring play. Points not claimed "
        f"(a missed score, or the rest of an under-claim) {missed}.",
        f"A claim that is too high is rejected{over}. {truth}",
        "Bots always claim correctly and always call muggins when they may.",
    ]


def _sources(variant: spec.Variant) -> list[str]:
    if not variant.sources and variant.extends:
        return [f"This file names no sources of its own. The rules it takes unchanged from "
                f"{variant.extends} are sourced there (bones show {variant.extends})."]
    if not variant.sources:
        return ["No sources are named."]
    out = []
    for s in variant.sources:
        line = f"- {s.title}"
        if s.url:
            line += f" <{s.url}>"
        out.append(line)
        if s.supports:
            out.append(f"  Supports: {' '.join(s.supports.split())}")
    return out


# ------------------------------------------------- one line per rule axis


def _per(value: Any) -> str:
    if isinstance(value, dict):
        values = list(value.values())
        if len(set(values)) == 1:
            return str(values[0])
        return "/".join(str(value[k]) for k in sorted(value))
    return str(value)


def _players_summary(variant: spec.Variant) -> str:
    counts = sorted(variant.players.counts)
    text = str(counts[0]) if len(counts) == 1 else (
        f"{counts[0]}-{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1))
        else ",".join(str(c) for c in counts)
    )
    parts = variant.players.partnerships
    if parts.kind == "required":
        text += " (teams)"
    elif parts.kind == "optional":
        text += " (teams optional)"
    return text


def _spinner_summary(variant: spec.Variant) -> str:
    if variant.layout.trains is not None:
        return "personal trains, hub" if variant.layout.trains.personal else "arms from the hub"
    sp = variant.layout.spinner
    if sp.kind == "none":
        return "none"
    if sp.kind == "inline_sniff":
        return "in-line sniff"
    count = sp.count if isinstance(sp.count, str) else "[" + ",".join(str(m) for m in sp.count) + "]"
    order = {"sides_first": "sides first", "any": "any edge", "all_four_first": "all four first"}[sp.order]
    label = {"first_double": "first double", "every_double": "every double",
             "led_double": "led double", "every_double_but_led": "every double but a led one",
             }[sp.kind]
    return f"{label}, {count}, {order}"


def _scoring_summary(variant: spec.Variant) -> str:
    when, points = variant.scoring.when, variant.scoring.points
    if when.kind == "none":
        return "none"
    if when.kind == "matching_ends":
        return "matching ends " + ", ".join(f"{k}:{v}" for k, v in sorted(when.points.items()))
    if when.kind == "multiple_of":
        test = "x" + "|".join(str(d) for d in when.divisors)
    else:
        test = "list of " + str(len(when.counts))
    worth = {"count": "count", "sum_of_quotients": "sum of quotients",
             "per_divisor": "count per divisor"}.get(points.kind)
    if points.kind == "divided":
        worth = f"count/{points.by}"
    elif points.kind == "flat":
        worth = f"{points.amount} each"
    muggins = ", muggins" if variant.scoring.muggins.kind != "none" else ""
    return f"{test} -> {worth}{muggins}"


def _target_summary(variant: spec.Variant) -> str:
    match = variant.match
    if match.kind == "hands":
        return f"{match.count} hand" + ("" if match.count == 1 else "s")
    if match.kind == "penalty":
        return f"{_per(match.points)} loses"
    if match.kind == "rounds":
        return f"{match.count} rounds, lowest" if match.count else "rounds by hub, lowest"
    check = {"hand_end": "", "immediate": ", immediate", "exact": ", exact",
             "hand_winner": ", hand winner"}[match.check]
    extra = (f", void at {match.void_at} each" if match.void_at else "") + (
        f", first to {match.games} games" if match.games > 1 else "")
    return _per(match.points) + check + extra


#: The families ``bones list`` groups the built-ins into, in order, with
#: their headings: read from each variant's rules (:func:`family`).
FAMILIES = {
    "points": "Point games: plays score by the count",
    "partnership": "Partnership games: no points in play, two teams",
    "block": "Block games",
    "trains": "Train games: trains grow from the round's hub double, lowest total wins",
}


def family(v: spec.Variant) -> str:
    """The family a variant belongs to, from its rules (a key of :data:`FAMILIES`)."""
    if v.layout.trains is not None:
        return "trains"
    if v.scoring.when.kind != "none":
        return "points"
    if v.players.partnerships.kind == "required":
        return "partnership"
    return "block"


def catalogue_row(v: spec.Variant) -> dict[str, Any]:
    """A variant in one row of short phrases, as ``bones list`` shows it.

    >>> from bones.lang.load import load_variant
    >>> row = catalogue_row(load_variant("all-fives"))
    >>> row["players_text"], row["spinner"], row["scoring"], row["target"]
    ('2-4 (teams optional)', 'first double, drop2, sides first', 'x5 -> count', '250/200/200')
    """
    return {
        "name": v.name,
        "family": family(v),
        "aliases": list(v.aliases),
        "summary": " ".join(v.summary.split()),
        "players": sorted(v.players.counts),
        "partnerships": v.players.partnerships.kind,
        "players_text": _players_summary(v),
        "spinner": _spinner_summary(v),
        "scoring": _scoring_summary(v),
        "target": _target_summary(v),
    }


def catalogue() -> list[dict[str, Any]]:
    """Every built-in variant as a :func:`catalogue_row` (``bones list``, the page's list),
    by name; each row names its :func:`family`."""
    return [catalogue_row(load_variant(name)) for name in builtin_names()]


def target_phrase(rules: Rules) -> str:
    """How a match of compiled ``rules`` ends, in a few words.

    >>> from bones.lang.load import load_variant
    >>> from bones.lang.compile import compile_rules
    >>> [target_phrase(compile_rules(load_variant(name)))
    ...  for name in ("muggins", "fives-and-threes", "block-2p")]
    ['target 200', 'target 61 exactly', '1 hand']
    """
    if rules.trains is not None:
        return f"{_plural(rules.trains.rounds, 'round')}, lowest total"
    if rules.hands_in_match:
        return _plural(rules.hands_in_match, "hand")
    if rules.check == CHECK_PENALTY:
        return f"{rules.target} loses"
    return f"target {rules.target}{' exactly' if rules.check == CHECK_EXACT else ''}"


def describe(variant: spec.Variant, players: int | None = None) -> str:
    """The complete rules of ``variant`` in plain English.

    ``players`` narrows the text to that many players; it must be one of the
    variant's player counts.
    """
    if players is not None and players not in variant.players.counts:
        allowed = _join([str(c) for c in variant.players.counts], "or")
        raise ValueError(f"{variant.name} is played by {allowed} players, not {players}")
    sections: list[tuple[str, list[str]]] = [
        ("Equipment", _equipment(variant)),
        ("Players and the deal", _players_and_deal(variant, players)),
        ("The lead", _lead(variant)),
        ("The layout and the spinner", _layout(variant)),
        ("Scoring during play", _scoring(variant)),
        ("Drawing and passing", _drawing(variant)),
        ("Extra plays", _turn(variant)),
        ("Bonuses", _bonuses(variant)),
        ("End of the hand and settlement", _end_of_hand(variant, players)),
        ("Winning the game", _winning(variant, players)),
        ("Muggins rule", _muggins(variant)),
        ("Sources", _sources(variant)),
    ]
    out = _header(variant, players)
    for title, lines in sections:
        if not lines:
            continue
        out += ["", title, "-" * len(title)]
        out += lines
    return "\n".join(out).rstrip() + "\n"
