"""The terminal face of `bones play`: the table drawn with rich, and the prompts.

:class:`TerminalUI` implements :class:`bones.cli.turns.PlayUI`.  The layout is
drawn by :class:`bones.seat.picture.LayoutPicture` (shared with the learning
adapters' text render); ``--tiles unicode`` uses the domino glyphs of the
double-six set.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from bones.cli.analyse_cmd import decision_line, why_line
from bones.cli.trainrender import train_picture
from bones.engine.hand import OPENING_PASS, ROUND_PASS
from bones.engine.handlike import HandLike
from bones.engine.moves import DRAW, PASS, Outcome, arm_name
from bones.games.record import RecordError
from bones.lang.describe import target_phrase
from bones.seat.picture import STYLES, LayoutPicture, TileFace
from bones.seat.placement import layout_of
from bones.seat.trainlayout import train_table

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.leads import Deal
    from bones.engine.match import HandSummary
    from bones.games.game import Event, GameSession, Option

#: The pass bonuses as a line of the game's log names them.
BONUS_NAMES = {OPENING_PASS: "pass on the opening tile (pase de salida)",
               ROUND_PASS: "all passed (paso redondo)"}


class TerminalUI:
    """:class:`bones.cli.turns.PlayUI` on a rich console and standard input."""

    def __init__(self, console: Console, *, interactive: bool, face: TileFace,
                 delay: float = 0.0, stdin: Any = None) -> None:
        self.console = console
        self.interactive = interactive
        self.face = face
        self.delay = delay
        self.stdin = stdin if stdin is not None else sys.stdin
        self.recent: list[tuple[int, Text]] = []  # (seat, line) since the screen was cleared
        self._draws: dict[int, int] = {}  # bots' draws not yet reported
        self._banner = True  # the start-up lines (seed, save file) are still on screen
        self._handed = False  # a hot-seat hand-off has just cleared the screen

    # -------------------------------------------------------------- io

    def read(self, prompt: str) -> str:
        self.console.print(Text(prompt, STYLES["title"]), end="")
        self.console.file.flush()
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        text = line.rstrip("\r\n")
        if not self.interactive:
            self.console.print(text, markup=False, highlight=False)  # a transcript reads like a session
        return text

    def message(self, text: str, style: str = "", prose: bool = False) -> None:
        """One message; ``prose`` wraps at words to the screen (a message that
        may hold a path or a command stays one line, whole, for copying)."""
        self.console.print(Text(text, STYLES.get(style, style)), soft_wrap=not prose)

    def bot_pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    # ------------------------------------------------------------ start

    def start(self, session: GameSession, resumed: bool) -> None:
        rules = session.rules
        table = f"{rules.players} players" + (" in two teams" if rules.teams else "")
        verb = "resumed" if resumed else "new game"
        self.console.print(Text(f"bones play {session.source}: {verb}, {table}, seed {session.seed}",
                                STYLES["title"]))
        seats = ", ".join(f"seat {k} {'human' if s == 'human' else s}"
                          for k, s in enumerate(session.config.seats))
        self.console.print(Text(f"seats: {seats}", STYLES["note"]))
        self.console.print(Text(f"saving every move to {session.save_path}", STYLES["note"]))
        if session.human_seats:
            example = "6-4@E"
            if rules.trains is not None:  # the targets of docs/language.md's train notation
                example = "12-5@T0, 5-3@M" if rules.trains.seat_trains else "9-3@H, 3-1@F, 5-2@A1"
            self.console.print(Text(
                f"type a move's number or notation ({example}, draw, pass); "
                "? hint, h history, r rules, u take back, q save and quit", STYLES["note"]),
                soft_wrap=False)  # prose: wrapped at words

    # ------------------------------------------------------------ table

    def show_table(self, session: GameSession, seat: int) -> None:
        console = self.console
        hand = session.hand
        assert hand is not None
        rules = session.rules
        self._flush_draws(session)
        if self._handed:
            self._handed = False
        else:
            self._clear()
        console.print()
        hand_word = "round" if rules.trains is not None else "hand"
        title = (f"{session.variant.name} · {hand_word} {session.hand_number} · seed "
                 f"{session.seed} · {target_phrase(rules)}")
        console.rule(Text(title, STYLES["title"]))
        console.print(self.scores_line(session), soft_wrap=False)
        seats = Text("  tiles: ")
        for k in range(rules.players):
            who = session.seat_name(k)
            kind = "" if session.is_human(k) else f" ({session.config.seats[k]})"
            mark = "▶" if k == hand.turn else ""
            seats.append(f"{mark}{who}{kind} {hand.hands[k].bit_count()}",
                         "bold" if k == hand.turn else "")
            seats.append(" · ")
        seats.append(f"boneyard {hand.boneyard_left}")
        if hand.drawable != hand.boneyard_left:
            seats.append(f" ({hand.drawable} drawable)", STYLES["note"])
        console.print(seats, soft_wrap=False)  # wrapped at words: up to 8 seats at 80 columns
        console.print()
        log = session.current
        if rules.trains is not None:
            for line in self.trains_picture(session, log.deal, log.codes):
                console.print(line, no_wrap=True, overflow="crop", crop=False)
        else:
            layout = layout_of(rules, log.deal, log.codes)
            # the table around the picture takes about 18 lines: the rest of the
            # screen, split between the up and the down columns, is the picture's
            column = max(2, (console.height - 18) // 2 - 1) if self.interactive else 0
            for line in LayoutPicture(layout, self.face, console.width - 2, column).draw():
                console.print(line, no_wrap=True, overflow="crop", crop=False)
            console.print()
            console.print(self.ends_line(hand))
        recent = [line for s, line in self.recent if s != seat]
        if recent and self.interactive:  # the screen was cleared: say what happened
            moved = any(s == seat for s, _, _ in hand.log)
            since = "since your last move:" if moved else "since the hand began:"
            console.print(Text(f"  {since}", STYLES["note"]))
            for line in recent:
                console.print(Text("    ").append_text(line))
        self.recent = []
        mine = Text(f"  {session.seat_name(seat)} hold: " if session.seat_name(seat) == "You"
                    else f"  Seat {seat} holds: ", "bold")
        for t in rules.tiles.tiles_of(hand.hands[seat]):
            mine.append(self.face.tile(rules, t) + " ")
        mine.append(f"({hand.pips_left(seat)} pips)", STYLES["note"])
        console.print(mine, soft_wrap=False)

    def trains_picture(self, session: GameSession, deal: Deal, codes: list[int], *,
                       wrap: bool = False) -> list[Text]:
        """A train layout's rows (bones.cli.trainrender), each owner named as the seats line
        names them."""
        def who(seat: int) -> str:
            kind = "" if session.is_human(seat) else f" ({session.config.seats[seat].split(':')[0]})"
            return session.seat_name(seat) + kind

        rules = session.rules
        return train_picture(train_table(rules, deal, codes), self.face, self.console.width - 2,
                             who, list(rules.tiles.low), wrap=wrap)

    def scores_line(self, session: GameSession) -> Text:
        rules = session.rules
        line = Text("  scores: ")
        parts = []
        for owner in range(rules.owners):
            parts.append(f"{session.owner_name(owner)} {session.match.scores[owner]}")
        line.append(" · ".join(parts), "bold")
        line.append(f"   ({target_phrase(rules)})", STYLES["note"])
        return line

    def ends_line(self, hand: HandLike) -> Text:
        """The open ends and what each adds to the count, so the numbers add up on screen:
        ``open ends: W 2  E 5  N 3  S 4`` then ``count: W 2 + E 5 + N 3 + S 0 (free) = 10``."""
        from bones.seat.tally import count_parts

        ends = hand.open_ends()
        line = Text("  open ends: ")
        if not hand.placed:
            line.append("none yet (the lead)")
            line.append("   count: ")
            line.append(str(hand.count), "bold")
            return line
        line.append("  ".join(f"{arm_name(a)} {p}" for a, p in ends.items()) or "none")
        line.append("   count: ")
        shown = []
        # the hubs that count first, then the arms
        for part in sorted(count_parts(hand), key=lambda p: p.kind != "hub"):
            if part.kind == "hub":
                if part.points:
                    shown.append(f"{self.face.horizontal(part.pip, part.pip)} {part.points}")
            elif part.kind == "free":
                if part.arm in ends:
                    shown.append(f"{arm_name(part.arm)} 0 (free)")
            elif part.kind == "double":
                shown.append(f"{arm_name(part.arm)} {part.pip}+{part.pip}"
                             if part.points == 2 * part.pip else
                             f"{arm_name(part.arm)} {part.points}")
            else:
                shown.append(f"{arm_name(part.arm)} {part.points}")
        line.append(" + ".join(shown) + " = " if len(shown) > 1 else "")
        line.append(str(hand.count), "bold")
        return line

    def show_options(self, session: GameSession, options: list[Option]) -> None:
        console = self.console
        console.print(Text("  your moves:", "bold"))
        # under the muggins rule seeing the points is the player's own job; a
        # train layout has no count
        hide = session.muggins or session.rules.trains is not None
        if session.rules.trains is not None:
            # in columns: a hand of many tiles and several trains keeps the table on screen
            cells = [f"  {i:>3}. {opt.text:<10}" for i, opt in enumerate(options, 1)]
            per = max(1, (console.width - 1) // max(len(c) for c in cells))
            for k in range(0, len(cells), per):
                console.print("".join(cells[k:k + per]).rstrip())
            return
        for i, opt in enumerate(options, 1):
            line = Text(f"  {i:>3}. {opt.text:<9}" if opt.move >= 0 and not hide else f"  {i:>3}. {opt.text}")
            if opt.move >= 0 and not hide:
                if opt.points:
                    line.append(f" count {opt.count:<3}")
                    line.append(f" scores {opt.points}", STYLES["points"])
                else:
                    line.append(f" count {opt.count}")
            console.print(line)
        if session.muggins:
            console.print(Text("  (muggins rule: after a play, claim its points yourself)",
                               STYLES["note"]))

    # ----------------------------------------------------------- events

    def describe(self, session: GameSession, event: Event, drew: int = 0) -> Text:
        """One line for a move: who, what, the count and what it scored."""
        who = session.seat_name(event.seat)
        you = who == "You"
        line = Text(who + " ")
        if drew:
            line.append(f"draw{'' if you else 's'} {drew}, then ")
        if event.move == DRAW:
            line.append("draw" if you else "draws")
            return line
        if event.move == PASS:
            line.append("pass" if you else "passes")
            for owner, points, which in event.bonuses:
                line.append(f" · {BONUS_NAMES[which]}: {session.owner_name(owner)} +{points}",
                            STYLES["points"])
            return line
        line.append("play " if you else "plays ")
        line.append(event.text, "bold")
        if session.rules.trains is not None:
            return line  # a train layout scores nothing during play
        line.append(f": count {event.count}")
        owner = session.rules.owner[event.seat]
        if event.claim is not None:
            line.append(f", worth {event.points}; claimed {event.claim}")
            if event.claim > event.points:
                line.append(" · nothing to claim" if not event.points else " · too high, rejected",
                            STYLES["muggins"])
            callers = [(o, g) for o, g in enumerate(event.gains) if o != owner and g > 0]
            for o, g in callers:
                line.append(f" · muggins! {session.owner_name(o)} takes {g}", STYLES["muggins"])
            mine = event.gains[owner]
            if mine:
                line.append(f" · {who} score{'' if you else 's'} {mine}", STYLES["points"])
            if event.claim < event.points and not callers:  # forfeit: unclaimed is nobody's
                line.append(f" · {event.points - event.claim} lost", STYLES["muggins"])
        elif event.points:
            line.append(f" scores {event.points}", STYLES["points"])
        elif event.gains[owner] > 0:  # a knock bonus and the like
            line.append(f" (+{event.gains[owner]})", STYLES["points"])
        return line

    def _flush_draws(self, session: GameSession, keep: int = -1) -> None:
        """Report bots' draws that no move of theirs followed (a voluntary draw ends a turn)."""
        for seat in [s for s in self._draws if s != keep]:
            count = self._draws.pop(seat)
            line = Text(f"{session.seat_name(seat)} draws" + (f" {count}" if count > 1 else ""))
            self.console.print(Text("  ").append_text(line))
            if session.human_seats:
                self.recent.append((seat, line))

    def show_event(self, session: GameSession, event: Event) -> None:
        human = session.is_human(event.seat)
        self._flush_draws(session, event.seat)
        if event.move == DRAW:
            if human:
                tile = self.face.tile(session.rules, event.drawn)
                self.console.print(Text(f"  {session.seat_name(event.seat)} drew {tile}"))
            else:  # a bot's draws are told with its next move, in one line
                self._draws[event.seat] = self._draws.get(event.seat, 0) + 1
            return
        line = self.describe(session, event, self._draws.pop(event.seat, 0))
        self.console.print(Text("  ").append_text(line))
        if session.human_seats:
            self.recent.append((event.seat, line))

    # ---------------------------------------------------------- hand end

    def show_hand_end(self, session: GameSession, hand: HandLike, summary: HandSummary) -> None:
        from bones.seat.handend import hand_end

        console = self.console
        rules = session.rules
        self._flush_draws(session)
        self.recent = []
        console.print()
        account = hand_end(rules, hand, summary)
        how = account.how(session.seat_name)
        hand_word = "round" if rules.trains is not None else "hand"
        console.rule(Text(f"{hand_word} {summary.hand_number} over: {how}", STYLES["title"]))
        log = session.hands[summary.hand_number - 1]
        if rules.trains is not None:
            for line in self.trains_picture(session, log.deal, log.codes, wrap=True):
                console.print(line, no_wrap=True, overflow="crop", crop=False)
        else:
            for line in LayoutPicture(layout_of(rules, log.deal, log.codes), self.face,
                                      console.width - 2).draw():
                console.print(line, no_wrap=True, overflow="crop", crop=False)
        if account.rule is not None:
            console.print(Text(f"  rule: {account.rule}", STYLES["note"]))
        table = Table(box=None, padding=(0, 2), show_edge=False)
        table.add_column("seat")
        table.add_column("tiles left")
        table.add_column("pips", justify="right")
        if rules.teams:
            table.add_column("team pips", justify="right")
        if account.rounded is not None:
            table.add_column(f"rounded to {account.unit}", justify="right")
        table.add_column("settlement", justify="right")
        for left in account.seats:
            owner = left.owner
            tiles = " ".join(self.face.tile(rules, t) for t in left.tiles)
            row = [session.seat_name(left.seat) + (f" ({session.owner_name(owner)})"
                                                   if rules.teams else ""),
                   tiles or "-", str(left.pips)]
            mine = left.scoring_row
            if rules.teams:
                row.append(str(account.pooled[owner]) if mine else "")
            if account.rounded is not None:
                row.append(str(account.rounded[owner]) if mine else "")
            delta = account.settlement[owner] if account.settlement else 0
            row.append((f"{delta:+d}" if delta else "0") if mine else "")
            table.add_row(*row)
        console.print(table)
        if account.counted is not None:
            counted, rounded = account.counted
            console.print(Text(f"  pips counted: {counted}, rounded to {rounded}", STYLES["note"]))
        for what, points in account.bonuses:
            console.print(Text(f"  bonus: {what} +{points} to {session.owner_name(hand.won_by)}",
                               STYLES["points"]))
        settlement = account.settlement
        console.print(Text("  settlement: " + " · ".join(
            f"{session.owner_name(o)} {settlement[o]:+d}" if settlement[o] else
            f"{session.owner_name(o)} 0" for o in range(rules.owners)), "bold"), soft_wrap=False)
        console.print(self.scores_line(session), soft_wrap=False)

    def show_match_end(self, session: GameSession) -> None:
        console = self.console
        match = session.match
        console.print()
        if match.winner >= 0:
            console.rule(Text(f"game over: {session.owner_name(match.winner)} win"
                              f"{'s' if session.owner_name(match.winner) != 'You' else ''}",
                              STYLES["title"]))
        else:
            console.rule(Text("game over: a draw", STYLES["title"]))
        table = Table(box=None, padding=(0, 2), show_edge=False, title="score history")
        table.add_column("hand", justify="right")
        table.add_column("end")
        owners = session.rules.owners
        for o in range(owners):
            table.add_column(session.owner_name(o), justify="right")
        for summary in match.history:
            end = Outcome(summary.end).label
            table.add_row(str(summary.hand_number), end, *(str(s) for s in summary.scores))
        console.print(table)
        console.print(Text("  final: " + " · ".join(
            f"{session.owner_name(o)} {match.scores[o]}" for o in range(owners)), "bold"),
                      soft_wrap=False)
        console.print(Text(f"  record: {session.save_path} (bones replay {session.save_path})",
                           STYLES["note"]))

    # ------------------------------------------------------------ extras

    def show_history(self, session: GameSession) -> None:
        events = session.history()
        if not events:
            self.message("no moves yet in this hand", "note")
            return
        for i, event in enumerate(events, 1):
            self.console.print(Text(f"  {i:>3}. ").append_text(self.describe(session, event)))

    def show_rules(self, session: GameSession) -> bool:
        """The variant's rules, wrapped at words; through a pager at a terminal.

        Returns whether the table must be drawn again (the pager took the screen).
        """
        from bones.lang.describe import describe

        text = describe(session.variant, session.players)
        if self.interactive:
            with self.console.pager(styles=False):
                self.console.print(text, markup=False, highlight=False, soft_wrap=False)
            return True
        self.console.print(text, markup=False, highlight=False, soft_wrap=False)
        return False

    def _clear(self, scrollback: bool = False) -> None:
        """Clear the terminal, except the first time: the banner names the save file.

        ``scrollback`` clears the terminal's scrollback too (``ESC [3J``), so
        in hot-seat the next player cannot scroll up to the last one's hand.
        """
        if self.interactive and not self._banner:
            self.console.clear()
            if scrollback:
                self.console.file.write("\x1b[3J")
                self.console.file.flush()
        self._banner = False

    def handoff(self, session: GameSession, seat: int) -> str:
        self._clear(scrollback=True)
        self._handed = True
        return self.read(f"Pass the keyboard to seat {seat}, then press Enter (q to save and quit) ")

    def between_hands(self, session: GameSession) -> str:
        hand = session.hand
        if hand is not None:
            self.console.print()
            who = session.seat_name(hand.leader)
            if session.rules.trains is not None:
                pip = session.rules.tiles.low[session.current.deal.lead_tile]
                hub = self.face.horizontal(pip, pip)
                self.console.print(Text(f"round {session.hand_number}: {who} "
                                        f"hold{'' if who == 'You' else 's'} the hub {hub}",
                                        STYLES["title"]))
            else:
                self.console.print(Text(f"hand {session.hand_number}: {who} "
                                        f"lead{'' if who == 'You' else 's'}", STYLES["title"]))
        if self.interactive and session.human_seats:
            return self.read("Press Enter for the next hand (a to analyse the hand, "
                             "q to save and quit) ")
        return ""

    def show_analysis(self, session: GameSession, number: int) -> None:
        """The analysis of hand ``number``: each decision of the human seats
        valued by the search from their view, as `bones analyse` prints it."""
        console = self.console
        console.print(Text(f"analysing hand {number}...", STYLES["note"]))
        try:
            analysis = session.analyse_hand(number)
        except RecordError as err:  # a layout the analysis does not judge yet (trains)
            self.message(str(err).splitlines()[0], "error")
            return
        decisions = analysis.decisions
        wins = any(d.played.win is not None for d in decisions)
        console.print(Text(f"hand {number} analysed by the search ({analysis.budget} worlds a "
                           "decision): expected points to the end of the hand, yours less "
                           "the best opponent's"
                           + ("; wins: your chance of winning the match, which ranks "
                              "the moves" if wins else ""),
                           STYLES["title"]))
        if not decisions:
            console.print("  no decision to analyse (every move was forced)")
        for d in decisions:
            console.print(Text("  " + decision_line(d).replace(f"seat {d.seat}",
                                                               session.seat_name(d.seat)),
                               STYLES["error"] if d.mistake else ""))
            why = why_line(d)
            if why is not None:
                console.print(Text("      " + why))
        for s in analysis.seats:
            mine = [d for d in decisions if d.seat == s]
            mistakes = sum(1 for d in mine if d.mistake)
            console.print(f"  {session.seat_name(s)}: expected loss {analysis.loss(s):.1f} points "
                          f"in {len(mine)} decision{'s' * (len(mine) != 1)}, "
                          f"{mistakes} mistake{'s' * (mistakes != 1)}")


def make_console(no_color: bool, interactive: bool) -> Console:
    """The console for a game: colour unless asked not to (``NO_COLOR`` included)."""
    return Console(
        file=sys.stdout,
        no_color=no_color or bool(os.environ.get("NO_COLOR")),
        highlight=False,
        emoji=False,
        force_terminal=None if interactive else False,
        # a pipe has no width: 100 columns unless COLUMNS says otherwise
        width=None if interactive or os.environ.get("COLUMNS") else 100,
        soft_wrap=True,  # long paths and commands stay on one line, whole
    )
