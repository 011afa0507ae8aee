"""A report's lines and tables, printed through rich or, where rich would
print exactly the same text, without it (issue 37).

Importing rich's console and table is about a fifth of what a short ``bones
simulate`` executes, and to standard output that is no terminal (a pipe, a
file, a test) rich prints no colour: only the text, the tables in their box
characters at their natural width.  A report written on a :class:`Page`
(:meth:`Page.print` for a line, :meth:`Page.table` for a :class:`Grid`) is
printed by :class:`RichPage` through a rich console, or by
:class:`PlainPage` as that same text, for a stream that is surely no
terminal (:func:`plain_width`) and only while every line and table fits its
width as it is (nothing to wrap or cut, plain ASCII, no markup or emoji
code that rich would read); anything else goes to rich.
``tests/test_page.py`` prints reports both ways and compares them.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

if TYPE_CHECKING:  # pragma: no cover - rich is imported by RichPage's user
    from rich.console import Console
    from rich.table import Table

#: Text rich might print otherwise: a character other than printable ASCII
#: and ``±`` (each one column wide), a markup tag (``[bold]``), an escape
#: (``\\[``) or an emoji code (``:smile:``)
_UNSAFE = re.compile(r"[^ -~±]|\[[a-z#/@]|\\|:\S*:")

#: The box rich draws a table in by default (``rich.box.HEAVY_HEAD``): the
#: top, the header's row, the line under the header, a row and the bottom,
#: each as (left, padding, between columns, right)
_TOP, _HEAD, _UNDER, _ROW, _BOTTOM = ("┏━┳┓", "┃ ┃┃", "┡━╇┩", "│ ││", "└─┴┘")


class Column(NamedTuple):
    """A table's column: its header, and how rich lays it out when the table
    is wider than the screen (``no_wrap``, ``overflow``, as rich's own)."""

    header: str
    right: bool = False
    no_wrap: bool = False
    overflow: Literal["fold", "crop", "ellipsis", "ignore"] = "ellipsis"


class Grid(NamedTuple):
    """A table: its title (over it, on the left), columns and rows of text."""

    title: str
    columns: list[Column]
    rows: list[list[str]]


class Page(Protocol):
    """Where a report is written: lines and tables, top to bottom."""

    def print(self, text: str, *, markup: bool = True, wrap: bool = True) -> None:
        """A line (``wrap=False``: never wrapped nor cut, however long)."""

    def table(self, grid: Grid) -> None:
        """A table."""

    def fits(self, grid: Grid) -> bool:
        """Whether ``grid`` prints at its natural width, nothing wrapped or cut."""


class RichPage:
    """A page printed by a rich console."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def print(self, text: str, *, markup: bool = True, wrap: bool = True) -> None:
        if wrap:
            self.console.print(text, markup=markup, highlight=False)
        else:
            self.console.print(text, no_wrap=True, overflow="ignore", crop=False,
                               markup=markup, highlight=False)

    def table(self, grid: Grid) -> None:
        self.console.print(self._rich(grid))

    def fits(self, grid: Grid) -> bool:
        return fits(self.console, self._rich(grid))

    @staticmethod
    def _rich(grid: Grid) -> Table:
        from rich.table import Table

        table = Table(title=grid.title, title_justify="left")
        for c in grid.columns:
            table.add_column(c.header, justify="right" if c.right else "left",
                             no_wrap=c.no_wrap, overflow=c.overflow)
        for row in grid.rows:
            table.add_row(*row)
        return table


def fits(console: Console, table: Table) -> bool:
    """Whether a rich table prints at its natural width, nothing wrapped or cut."""
    from rich.measure import Measurement

    unlimited = console.options.update(width=1_000_000)  # measure unclamped
    width: int = Measurement.get(console, unlimited, table).maximum
    return width <= int(console.width)


class PlainPage:
    """A page as the text rich prints to a stream that is no terminal,
    ``width`` columns wide: :meth:`text` is None once anything was written
    that rich might print otherwise."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []
        self.same = True  # nothing written yet that rich might print otherwise

    def print(self, text: str, *, markup: bool = True, wrap: bool = True) -> None:
        if _UNSAFE.search(text) or text != text.rstrip() or (wrap and len(text) > self.width):
            self.same = False
        self.lines.append(text)

    def table(self, grid: Grid) -> None:
        cells = [[c.header for c in grid.columns], *grid.rows]
        if (not grid.rows or any(len(row) != len(grid.columns) for row in grid.rows)
                or any(_UNSAFE.search(text) or text != text.strip()
                       for text in [grid.title, *(t for row in cells for t in row)])):
            self.same = False
            return
        widths = [max(len(row[i]) for row in cells) for i in range(len(grid.columns))]
        total = sum(widths) + 3 * len(widths) + 1
        if total > self.width or len(grid.title) > total:
            self.same = False
            return

        def line(box: str, texts: list[str] | None = None) -> str:
            left, pad, between, right = box[0], box[1], box[2], box[3]
            if texts is None:
                parts = [pad * (w + 2) for w in widths]
            else:
                parts = [f" {t.rjust(w) if c.right else t.ljust(w)} "
                         for t, w, c in zip(texts, widths, grid.columns)]
            return left + between.join(parts) + right

        if grid.title:
            self.lines.append(grid.title.ljust(total))
        self.lines += [line(_TOP), line(_HEAD, cells[0]), line(_UNDER)]
        self.lines += [line(_ROW, row) for row in grid.rows]
        self.lines.append(line(_BOTTOM))

    def fits(self, grid: Grid) -> bool:
        widths = [max(len(t) for t in [c.header, *(row[i] for row in grid.rows)])
                  for i, c in enumerate(grid.columns)]
        return sum(widths) + 3 * len(widths) + 1 <= self.width

    def text(self) -> str | None:
        """What was written, each line ended; None if rich might print it otherwise."""
        return "".join(line + "\n" for line in self.lines) if self.same else None


def plain_width() -> int | None:
    """The width rich gives a console on standard output when that is surely
    no terminal, as rich reads it (``COLUMNS``, else the first of standard
    input, output and error that has a size, else 80); None when rich might
    print colour or other boxes there (a terminal, ``FORCE_COLOR`` or
    ``TTY_COMPATIBLE`` set, Windows, Jupyter, an encoding other than UTF)."""
    stream = sys.stdout
    isatty = getattr(stream, "isatty", None)
    try:
        terminal = isatty is None or isatty()
    except ValueError:  # closed: rich's own answer is "no terminal", but print nothing special
        terminal = True
    if (terminal or sys.platform == "win32" or hasattr(builtins, "get_ipython")
            or "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ
            or not (getattr(stream, "encoding", None) or "utf-8").lower().startswith("utf")):
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    width = None
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80


__all__ = ["Column", "Grid", "Page", "PlainPage", "RichPage", "fits", "plain_width"]
