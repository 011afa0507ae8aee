"""The layout as a picture of text: the line runs W to E on one row, each
spinner on it has its cross arms drawn as columns (N up, S down), and the
cross arms of a spinner that sits on a column branch sideways on its row.
Whatever cannot be placed without overlapping (deeper nests) is listed under
the picture by arm name.

Tiles are ASCII ``[3|5]`` by default, the left half being the one to the W (or,
in a column, the upper one).  Unicode glyphs exist for the double-six set
only; most terminals draw them two cells wide, which the picture allows for.

The terminal (``bones play``) draws it in colour; the learning adapters'
``render()`` take its plain text (``Text.plain``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bones.engine.moves import arm_name
from bones.seat.placement import Piece, Placement

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.rules import Rules

STYLES = {
    "spinner": "bold yellow",
    "last": "bold green",
    "label": "cyan",
    "error": "red",
    "hint": "magenta",
    "note": "dim",
    "points": "bold green",
    "muggins": "bold red",
    "title": "bold",
}


class TileStyleError(ValueError):
    """Unicode glyphs requested for a set they do not exist for."""


# ------------------------------------------------------------- tile text


class TileFace:
    """How a tile is written: ``[a|b]`` or a Unicode domino glyph."""

    def __init__(self, unicode: bool = False, highest: int = 6) -> None:
        if unicode and highest != 6:
            raise TileStyleError(
                f"Unicode domino glyphs exist only for the double-six set; this variant uses "
                f"double-{highest}: use --tiles ascii"
            )
        self.unicode = unicode

    @property
    def width(self) -> int:
        return 2 if self.unicode else 5

    def horizontal(self, left: int, right: int) -> str:
        if self.unicode:
            return chr(0x1F031 + 7 * left + right)
        return f"[{left}|{right}]"

    def vertical(self, top: int, bottom: int) -> str:
        if self.unicode:
            return chr(0x1F063 + 7 * top + bottom)
        return f"[{top}|{bottom}]"

    def tile(self, rules: Rules, t: int) -> str:
        ts = rules.tiles
        return self.horizontal(ts.low[t], ts.high[t])


class _Canvas:
    """Tokens on a grid of character cells; refuses overlaps."""

    def __init__(self) -> None:
        self.cells: set[tuple[int, int]] = set()
        self.tokens: list[tuple[int, int, int, str, str]] = []  # row, col, width, text, style

    def free(self, row: int, col: int, width: int) -> bool:
        return all((row, c) not in self.cells for c in range(col - 1, col + width + 1))

    def put(self, row: int, col: int, width: int, text: str, style: str = "") -> None:
        for c in range(col, col + width):
            self.cells.add((row, c))
        self.tokens.append((row, col, width, text, style))

    def render(self, indent: int = 0) -> list[Text]:
        if not self.tokens:
            return []
        left = min(t[1] for t in self.tokens)
        rows = sorted({t[0] for t in self.tokens})
        out = []
        for r in range(rows[0], rows[-1] + 1):
            line = Text(" " * indent)
            pos = left
            for _, col, width, text, style in sorted(t for t in self.tokens if t[0] == r):
                if col > pos:
                    line.append(" " * (col - pos))
                line.append(text, style)
                pos = col + width
            out.append(line)
        return out


class LayoutPicture:
    """Draws a :class:`Placement` within ``width`` columns."""

    def __init__(self, layout: Placement, face: TileFace, width: int, column: int = 0) -> None:
        self.layout = layout
        self.face = face
        self.width = max(width, 40)
        #: the most tiles drawn in a cross arm's column (0: no limit); inner
        #: plain tiles beyond it are shown as a ⋮, as a long line's are as …
        self.column = column
        self.canvas = _Canvas()
        self.listed: list[Text] = []
        self.placed_arms: set[int] = set()

    def _style(self, piece: Piece) -> str:
        if piece.last:
            return STYLES["last"]
        if piece.cross is not None:
            return STYLES["spinner"]
        return ""

    def _label(self, arm: int) -> str:
        pip = self.layout.open[arm] if arm < len(self.layout.open) else -1
        return f"{arm_name(arm)}:{pip}" if pip >= 0 else ""

    def draw(self) -> list[Text]:
        lay = self.layout
        if lay.lead is None:
            return [Text("  (nothing played yet)", STYLES["note"])]
        step = self.face.width + 1
        west, east = lay.arms[0], lay.arms[1]
        keep_w, keep_e = self._fit(west, east, step)
        # the main line: W arm (outermost first), the lead, the E arm
        tokens: list[tuple[str, Piece | None]] = []
        for piece in reversed(self._shown(west, keep_w)):
            tokens.append(("W", piece))
        tokens.append(("lead", lay.lead))
        for piece in self._shown(east, keep_e):
            tokens.append(("E", piece))
        col = 0
        label_w = self._label(0)
        if label_w:
            self.canvas.put(0, col, len(label_w), label_w, STYLES["label"])
            col += len(label_w) + 1
        anchors: list[tuple[Piece, int]] = []
        for side, piece in tokens:
            if piece is None:
                self.canvas.put(0, col, 1, "…", STYLES["note"])
                col += 2
                continue
            if side == "W":
                text = self.face.horizontal(piece.far, piece.near)
            elif side == "lead":
                text = self.face.horizontal(piece.near, piece.far)
            else:
                text = self.face.horizontal(piece.near, piece.far)
            self.canvas.put(0, col, self.face.width, text, self._style(piece))
            if piece.cross is not None:
                anchors.append((piece, col))
            col += step
        label_e = self._label(1)
        if label_e:
            self.canvas.put(0, col, len(label_e), label_e, STYLES["label"])
        self.placed_arms.update((0, 1))
        for piece, c in anchors:
            assert piece.cross is not None
            self._column(piece.cross[0], c, -1)
            self._column(piece.cross[1], c, +1)
        for arm in range(2, len(lay.arms)):
            if arm not in self.placed_arms and (lay.arms[arm] or self._label(arm)):
                self._list(arm)
        return self.canvas.render(indent=2) + self.listed

    def _fit(self, west: list[Piece], east: list[Piece], step: int) -> tuple[int, int]:
        """How many outer tiles of the W and E arms fit (the rest is shown as …)."""
        keep_w, keep_e = len(west), len(east)
        while True:
            count = len(self._shown(west, keep_w)) + len(self._shown(east, keep_e)) + 1
            if count * step + 16 <= self.width or max(keep_w, keep_e) <= 2:
                return keep_w, keep_e
            if keep_w >= keep_e:
                keep_w -= 1
            else:
                keep_e -= 1

    @staticmethod
    def _shown(arm: list[Piece], keep: int) -> list[Piece | None]:
        """The arm's pieces, inner first, with inner plain tiles beyond ``keep`` elided."""
        if len(arm) <= keep:
            return list(arm)
        out: list[Piece | None] = []
        outer_from = len(arm) - keep
        elided = False
        for i, piece in enumerate(arm):
            if i >= outer_from or piece.cross is not None or piece.last:
                out.append(piece)
                elided = False
            elif not elided:
                out.append(None)
                elided = True
        return out

    def _column(self, arm: int, col: int, direction: int) -> None:
        """A spinner's cross arm drawn up (-1) or down (+1) from row 0."""
        pieces = self.layout.arms[arm] if arm < len(self.layout.arms) else []
        w = self.face.width
        shown = self._shown(pieces, self.column) if self.column else list(pieces)
        cells = [(direction * (i + 1), p) for i, p in enumerate(shown)]
        label = self._label(arm)
        end_row = direction * (len(shown) + 1)
        if not all(self.canvas.free(r, col, w) for r, _ in cells) or (
            label and not self.canvas.free(end_row, col, len(label))
        ):
            self._list(arm)
            return
        self.placed_arms.add(arm)
        branches = []
        for row, piece in cells:
            if piece is None:
                self.canvas.put(row, col, w, "⋮".center(w), STYLES["note"])
                continue
            top, bottom = (piece.far, piece.near) if direction < 0 else (piece.near, piece.far)
            self.canvas.put(row, col, w, self.face.vertical(top, bottom), self._style(piece))
            if piece.cross is not None:
                branches.append((piece, row))
        if label:
            self.canvas.put(end_row, col, len(label), label, STYLES["label"])
        for piece, row in branches:
            assert piece.cross is not None
            self._branch(piece.cross[0], row, col, -1)
            self._branch(piece.cross[1], row, col + w + 1, +1)

    def _branch(self, arm: int, row: int, col: int, direction: int) -> None:
        """A cross arm of a spinner in a column, drawn sideways on its row."""
        pieces = self.layout.arms[arm] if arm < len(self.layout.arms) else []
        label = self._label(arm)
        texts: list[tuple[str, str]] = []
        for piece in pieces:
            left, right = (piece.far, piece.near) if direction < 0 else (piece.near, piece.far)
            texts.append((self.face.horizontal(left, right), self._style(piece)))
            if piece.cross is not None:
                self._list(piece.cross[0])
                self._list(piece.cross[1])
        if label:
            texts.append((label, STYLES["label"]))
        spots = []
        c = col
        for text, style in texts:
            width = self.face.width if not text[0].isalpha() else len(text)
            if direction < 0:
                c -= width + 1
                spots.append((c, width, text, style))
            else:
                spots.append((c, width, text, style))
                c += width + 1
        if not all(self.canvas.free(row, c, w) for c, w, _, _ in spots):
            self._list(arm)
            return
        self.placed_arms.add(arm)
        for c, w, text, style in spots:
            self.canvas.put(row, c, w, text, style)

    def _list(self, arm: int) -> None:
        if arm in self.placed_arms:
            return
        self.placed_arms.add(arm)
        pieces = self.layout.arms[arm] if arm < len(self.layout.arms) else []
        line = Text(f"  {arm_name(arm)}: ", STYLES["label"])
        for piece in pieces:
            line.append(self.face.horizontal(piece.near, piece.far), self._style(piece))
            line.append(" ")
        label = self._label(arm)
        line.append(f"(open {label.split(':')[1]})" if label else "(closed)", STYLES["note"])
        self.listed.append(line)


# ------------------------------------------------------------ explaining


# ------------------------------------------------------------------- UI
