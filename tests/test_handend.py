"""The hand-end account (bones.seat.handend) and the terminal's table drawn from it."""

from __future__ import annotations

import io
import random

from rich.console import Console

from bones.cli.render import TerminalUI
from bones.engine.match import Match
from bones.engine.moves import Outcome
from bones.engine.settle import round_nearest
from bones.games.game import GameSession
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.handend import hand_end
from bones.seat.picture import TileFace


def finished(name: str, seed: int, players: int | None = None, teams: bool | None = None):
    rules = compile_rules(load_variant(name), players, teams)
    match = Match(rules, seed)
    hand = match.new_hand()
    rnd = random.Random(seed)
    while not hand.over:
        hand.apply(rnd.choice(hand.legal_moves()))
    return rules, hand, match.finish_hand(hand)


def test_the_account_adds_up_for_every_builtin_seat_count() -> None:
    from bones.lang.load import builtin_names

    for name in builtin_names():
        variant = load_variant(name)
        for players in variant.players.counts:
            for seed in range(3):
                rules, hand, summary = finished(name, seed, players)
                account = hand_end(rules, hand, summary)
                assert account.outcome == Outcome(summary.end)
                assert [s.pips for s in account.seats] == summary.pips
                for owner in range(rules.owners):
                    rows = [s for s in account.seats if s.owner == owner]
                    assert sum(s.pips for s in rows) == account.pooled[owner]
                    assert sum(s.scoring_row for s in rows) == 1
                if account.rounded is not None:
                    assert account.rounded == tuple(round_nearest(p, account.unit)
                                                    for p in account.pooled)
                assert account.settlement == tuple(summary.settlement)
                if summary.end in (Outcome.DOMINO, Outcome.BLOCKED):
                    assert account.rule


def test_the_team_amount_is_on_the_row_of_the_seat_that_went_out() -> None:
    for seed in range(60):
        rules, hand, summary = finished("sniff", seed, 4, True)
        if hand.domino_seat in (2, 3) and any(summary.settlement):
            break
    else:  # pragma: no cover
        raise AssertionError("no hand went out from seat 2 or 3")
    account = hand_end(rules, hand, summary)
    assert [s.seat for s in account.seats if s.scoring_row and
            s.owner == rules.owner[hand.domino_seat]] == [hand.domino_seat]


def test_the_terminal_table_shows_the_team_amount_on_the_scoring_row() -> None:
    for seed in range(60):
        session = GameSession.new(load_variant("sniff"), players=4, teams=True, humans=0,
                                  bots=["random"], seed=seed)
        while session.finished is None:
            session.bot_move()
        hand, summary = session.finished
        if hand.domino_seat in (2, 3) and summary.settlement[rules_owner(session, hand)]:
            break
    else:  # pragma: no cover
        raise AssertionError("no hand went out from seat 2 or 3")
    out = io.StringIO()
    ui = TerminalUI(Console(file=out, width=100, no_color=True), interactive=False,
                    face=TileFace())
    ui.show_hand_end(session, hand, summary)
    owner = rules_owner(session, hand)
    amount = f"{summary.settlement[owner]:+d}"
    rows = {line.split()[1]: line for line in out.getvalue().splitlines()
            if line.strip().startswith("Seat ")}
    scorer, partner = str(hand.domino_seat), str(hand.domino_seat - 2)
    assert rows[scorer].rstrip().endswith(amount), out.getvalue()
    assert not rows[partner].rstrip().endswith(amount), out.getvalue()


def rules_owner(session: GameSession, hand) -> int:
    return session.rules.owner[hand.domino_seat]


def test_the_account_reads_the_compiled_rule_not_the_variant_model() -> None:
    # after compilation the engine plays by the codes in Rules; the account
    # says what those codes did (here the variant model beside them is a
    # different variant's, whose settlement rule reads differently)
    import dataclasses

    rules, hand, summary = finished("sniff", 1, 2)
    elsewhere = dataclasses.replace(rules, variant=load_variant("block-2p"))
    assert hand_end(elsewhere, hand, summary) == hand_end(rules, hand, summary)
    assert hand_end(rules, hand, summary).rule != "nobody scores"


def test_a_train_round_is_accounted_as_charges_not_as_nobody_scoring() -> None:
    """A train layout's round charges each hand its own value ([0-0] 50 in
    both built-ins), the account says so and its pips are those charges."""
    seen_double_blank = False
    for name in ("mexican-train", "chicken-foot"):
        for seed in range(12):
            rules, hand, summary = finished(name, seed, 3)
            account = hand_end(rules, hand, summary)
            assert account.rule == ("each player is charged the pips left in his own hand, "
                                    "[0-0] 50")
            double_blank = rules.tiles.double(0)
            for left in account.seats:
                raw = rules.tiles.pips_of(hand.hands[left.seat])
                held = bool(hand.hands[left.seat] >> double_blank & 1)
                assert left.pips == raw + (50 if held else 0)
                seen_double_blank |= held
            assert account.settlement == tuple(account.pooled)  # no marker charge in these
    assert seen_double_blank
