"""The terminal's picture of a train layout (Mexican Train, Chicken Foot; docs/trains.md).

A line or spinner layout is drawn by :class:`bones.seat.picture.LayoutPicture`;
a train layout is drawn as rows growing from the hub double, one per train
or arm, read from :func:`bones.seat.trainlayout.train_table`::

      hub [12|12]
      T0  You              marker  [12|5][5|3][3|3]  → 3  double owes 1 ◀ now
      T1  Seat 1 (greedy)          (not started)     → 12
      M   public train             [12|6]            → 6

Each row names its train in the notation (what a move types after ``@``),
its owner, the marker that opens it to every player, its tiles from the hub
outwards (the half laid against the train first, the last tile played
highlighted) and its open end; a double still owed covers, and the chicken
foot's toes, are marked on their row.  Rows fit the console's width: in play
the oldest tiles of a long train give way to ``…n`` (how many are hidden);
at a hand's end every tile is shown, wrapped.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from bones.seat.picture import STYLES, TileFace
from bones.seat.trainlayout import ARM, PUBLIC, TrainRow, TrainTable

#: the widest owner label before it is cut (8 players' names still leave room for tiles)
_OWNER_WIDTH = 18


def owner_text(row: TrainRow, who: Callable[[int], str]) -> str:
    """Whose train a row is: the seat's name, a public train, or what an arm grows from."""
    if row.owner >= 0:
        return who(row.owner)
    if row.owner == PUBLIC:
        return "public train"
    return "from the hub" if row.source == "hub" else f"toe of {row.source}"


def end_text(row: TrainRow) -> str:
    """Where a row stands: its open end, or why it takes nothing."""
    if row.foot is not None:
        toes = f"{row.foot.left} toe{'s' * (row.foot.left != 1)}"
        return f"closed by its double: {toes} owed (F)"
    if row.open < 0:
        return "closed"
    if not row.started:
        return f"(not started) → {row.open}"
    return f"→ {row.open}"


def _owes(row: TrainRow) -> tuple[str, bool]:
    """The covers a row's double is owed, and whether they bind now."""
    if row.owes:
        return f"double owes {row.owes}", row.binds
    if row.foot is not None:
        return "", row.foot.binds
    return "", False


def hub_line(table: TrainTable, face: TileFace, rules_tiles_low: list[int]) -> Text:
    line = Text("  hub ")
    if table.hub is None:
        pip = rules_tiles_low[table.hub_tile]
        line.append(f"not placed yet: {face.horizontal(pip, pip)} opens the round", STYLES["note"])
        return line
    line.append(face.horizontal(table.hub.near, table.hub.far),
                STYLES["last"] if table.hub.last else "bold")
    if table.hub_left:
        line.append(f"  takes {table.hub_left} more against it (H)"
                    + (" before any other play ◀ now" if table.hub_binds else ""),
                    STYLES["spinner"])
    return line


def train_rows(table: TrainTable, face: TileFace, width: int, who: Callable[[int], str], *,
               wrap: bool = False) -> list[Text]:
    """One line per train or arm (continuation lines when ``wrap``), at most ``width`` wide."""
    rows = table.rows
    if not rows:
        return []
    names = max(len(r.name) for r in rows)
    owners = min(_OWNER_WIDTH, max(len(owner_text(r, who)) for r in rows))
    markers = any(r.owner >= 0 for r in rows)
    out: list[Text] = []
    for row in rows:
        owner = owner_text(row, who)
        if len(owner) > owners:
            owner = owner[:owners - 1] + "…"
        head = Text(f"  {row.name:<{names}}  ", "bold")
        head.append(f"{owner:<{owners}}  ")
        if markers:
            head.append("marker" if row.marked else "      ", "bold magenta" if row.marked else "")
            head.append("  ")
        tail = Text("  " + end_text(row))
        owes, binds = _owes(row)
        if owes:
            tail.append("  " + owes, STYLES["spinner"])
        if binds:
            tail.append(" ◀ now", STYLES["error"])
        room = max(2 * (face.width + 2), width - head.cell_len - tail.cell_len)
        tiles = [_tile(face, p.near, p.far, p.last, p is row.tiles[-1] and (row.owes or row.foot))
                 for p in row.tiles]
        if wrap:
            lines = _wrapped(tiles, room)
            first = head.copy()
            first.append_text(lines[0])
            first.append_text(tail)
            out.append(first)
            for more in lines[1:]:
                out.append(Text(" " * head.cell_len).append_text(more))
        else:
            line = head.copy()
            line.append_text(_elided(tiles, room))
            line.append_text(tail)
            out.append(line)
    return out


def _tile(face: TileFace, near: int, far: int, last: bool, owed: object) -> Text:
    style = STYLES["last"] if last else STYLES["spinner"] if owed else ""
    return Text(face.horizontal(near, far), style)


def _elided(tiles: list[Text], room: int) -> Text:
    """The newest tiles that fit in ``room`` cells, after ``…n`` for the ones left out."""
    total = sum(t.cell_len for t in tiles)
    if total <= room:
        return Text("").join(tiles)
    kept: list[Text] = []
    used = 0
    for k, t in enumerate(reversed(tiles)):
        hidden = len(tiles) - k - 1
        mark = len(f"…{hidden}") if hidden else 0
        if used + t.cell_len + mark > room:
            break
        kept.insert(0, t)
        used += t.cell_len
    hidden = len(tiles) - len(kept)
    out = Text(f"…{hidden}", STYLES["note"])
    out.append_text(Text("").join(kept))
    return out


def _wrapped(tiles: list[Text], room: int) -> list[Text]:
    lines = [Text("")]
    for t in tiles:
        if lines[-1].cell_len and lines[-1].cell_len + t.cell_len > room:
            lines.append(Text(""))
        lines[-1].append_text(t)
    return lines


def now_line(table: TrainTable, who: Callable[[int], str]) -> Text | None:
    """What play must serve first, if anything: the hub, a double, a foot, or a first turn."""
    if table.over or table.hub is None:
        return None
    if table.hub_binds:
        return Text(f"  now: every play goes against the hub (H): {table.hub_left} more",
                    STYLES["spinner"])
    for row in table.rows:
        if row.binds:
            return Text(f"  now: the double on {row.name} must be covered before any other play",
                        STYLES["spinner"])
    for foot in table.feet:
        if foot.binds:
            toes = f"{foot.left} more toe{'s' * (foot.left != 1)}"
            return Text(f"  now: the double that closed {foot.row} takes {toes} (F) before any "
                        "other play", STYLES["spinner"])
    if table.first_turn:
        own = next((r.name for r in table.rows if r.owner == table.turn), None)
        where = f"on {own}" if own else "on his own train"
        return Text(f"  {who(table.turn)}: first turn: as many tiles as fit {where}; "
                    "pass stops", STYLES["note"])
    return None


def marker_note(table: TrainTable) -> Text | None:
    """The legend of the marker column, while a train carries one."""
    if any(r.marked for r in table.rows):
        return Text("  marker: the train is open to every player", STYLES["note"])
    return None


def train_picture(table: TrainTable, face: TileFace, width: int, who: Callable[[int], str],
                  tiles_low: list[int], *, wrap: bool = False) -> list[Text]:
    """The hub, the rows, the marker legend and what must be served now."""
    lines = [hub_line(table, face, tiles_low)]
    lines += train_rows(table, face, width, who, wrap=wrap)
    for extra in (marker_note(table), now_line(table, who)):
        if extra is not None:
            lines.append(extra)
    return lines


__all__ = ["ARM", "end_text", "now_line", "owner_text", "train_picture", "train_rows"]
