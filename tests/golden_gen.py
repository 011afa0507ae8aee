"""Golden playthroughs: one seeded match per built-in variant, dumped move by move.

Each built-in variant is played at its smallest player count from a fixed
seed by a seeded random policy (every random choice, the deal's and the
policy's, flows from that seed).  The dump lists each hand's deal, then for
every turn the legal moves in notation, the move chosen, the count, the
points and the running scores, then the settlement.  ``tests/test_golden.py``
regenerates the dumps and diffs them against ``tests/golden/<variant>.txt``;
``<variant>.record.json`` is the same match as a game record, which
``bones replay`` must round-trip.

Regenerate after an intended rule change, and read the diff before
committing it::

    python tests/golden_gen.py --update           # every built-in
    python tests/golden_gen.py --update sniff     # one
    python tests/golden_gen.py                    # check only (exit 1 on a difference)
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from bones.engine.match import Match
from bones.engine.moves import Outcome
from bones.engine.notation import format_move
from bones.engine.rng import Rng
from bones.games.record import Record, Recorder, dumps_record
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant

GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 2026


def _names(ts, mask: int) -> str:
    return " ".join(ts.names[t] for t in ts.tiles_of(mask)) or "-"


def playthrough(name: str, seed: int = SEED) -> tuple[str, Record]:
    """The golden text and the record of ``name``'s seeded match."""
    variant = load_variant(name)
    players = min(variant.players.counts)
    rules = compile_rules(variant, players)
    ts = rules.tiles
    match = Match(rules, seed=seed)
    policy = Rng(seed)  # docs/random.md: one choice() per move, forced or not
    recorder = Recorder(match, meta={"policy": "seeded random", "policy_seed": seed})
    side = "team" if rules.teams else "seat"
    out = [
        f"# golden playthrough of {name}; regenerate with: python tests/golden_gen.py --update {name}",
        (f"variant {name}, {players} players{' in two teams' if rules.teams else ''}, "
         f"seed {seed}, policy: seeded random choice among the legal moves"),
    ]
    while not match.game_over:
        hand = match.new_hand()
        deal = match.current_deal
        assert deal is not None
        recorder.start_hand(deal)
        out.append(f"hand {len(match.history) + 1}")
        for seat, mask in enumerate(deal.hands):
            out.append(f"  seat {seat}: {_names(ts, mask)}")
        out.append(f"  boneyard (top first): {' '.join(ts.names[t] for t in deal.boneyard) or '-'}"
                   f"{f' (last {rules.reserve} never drawn)' if rules.reserve else ''}")
        lead = ts.names[deal.lead_tile] if deal.lead_tile >= 0 else "any"
        if deal.lead_doubles_only:
            lead = "a double"
        out.append(f"  leader: seat {deal.leader}, leads {lead}")
        number = 0
        while not hand.over:
            number += 1
            legal = hand.legal_moves()
            texts = [format_move(hand, m) for m in legal]
            move = policy.choice(legal)
            seat = hand.turn
            chosen = format_move(hand, move)
            points = recorder.play(hand, move)
            out.append(
                f"  {number:3}. seat {seat} [{' '.join(texts)}] -> {chosen}: count {hand.count}, "
                f"points {points}, scores {' '.join(map(str, hand.scores))}"
            )
        recorder.end_hand(hand)
        summary = match.finish_hand(hand)
        how = Outcome(summary.end).label
        if summary.domino_seat >= 0:
            how += f" by seat {summary.domino_seat}"
        out.append(f"  end: {how}; pips left {' '.join(map(str, summary.pips))}; "
                   f"settlement {' '.join(map(str, summary.settlement))}; "
                   f"scores {' '.join(map(str, summary.scores))}")
    winner = f"{side} {match.winner} wins" if match.winner >= 0 else "no winner"
    out.append(f"result: {winner} after {len(match.history)} hands, "
               f"scores {' '.join(map(str, match.scores))}")
    return "\n".join(out) + "\n", recorder.record()


def paths(name: str) -> tuple[Path, Path]:
    return GOLDEN / f"{name}.txt", GOLDEN / f"{name}.record.json"


def diff(expected: str, got: str, label: str) -> str:
    return "".join(difflib.unified_diff(
        expected.splitlines(keepends=True), got.splitlines(keepends=True),
        fromfile=f"{label} (golden)", tofile=f"{label} (engine now)", n=2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write the golden files")
    parser.add_argument("variants", nargs="*", help="built-in names (default: all)")
    args = parser.parse_args(argv)
    names = args.variants or builtin_names()
    GOLDEN.mkdir(exist_ok=True)
    status = 0
    for name in names:
        text, record = playthrough(name)
        record_text = dumps_record(record)
        for path, new in zip(paths(name), (text, record_text)):
            old = path.read_text() if path.exists() else ""
            if old == new:
                continue
            if args.update:
                path.write_text(new)
                print(f"wrote {path.relative_to(GOLDEN.parent.parent)}")
            else:
                status = 1
                print(diff(old, new, path.name) if old else f"{path.name}: missing")
    return status


if __name__ == "__main__":
    sys.exit(main())
