"""Move-path counts ("perft") from fixed positions, so a change in legal-move
generation (arms, edge order, stubs, drawing, passing) cannot pass unnoticed.

Each ``tests/perft/*.yaml`` names a variant, a whole deal, the moves that
lead to the position, ``perft: {depth: leaves}`` (the number of move
sequences of that length from the position, where a sequence that ends the
hand early counts as one leaf) and ``divide``: the leaves at the deepest
depth under each first move, as python-chess's ``divide`` prints them, so a
failure names the move whose subtree changed.  Draws are deterministic (the
boneyard order is part of the deal).  Tiles not dealt or in the boneyard are
out of play.  A train layout's file names the round's hub double (``hub``),
which its holder places as the first move.  There is a file for every
built-in variant.

To print the counts of a position: ``python tests/test_perft.py FILE``; to
write a position of a variant (a deal from a seed, a few moves in) as a new
file: ``python tests/test_perft.py --new VARIANT SEED MOVES > FILE``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from bones.engine.hand import Hand
from bones.engine.match import Deal, Match
from bones.engine.notation import format_move, parse_move
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant

HERE = Path(__file__).resolve().parent / "perft"
FILES = sorted(HERE.glob("*.yaml"))


def perft(hand: Hand, depth: int) -> int:
    if depth == 0 or hand.over:
        return 1
    total = 0
    for move in hand.legal_moves():
        child = hand.copy()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def divide(hand: Hand, depth: int) -> dict[str, int]:
    """The leaves at ``depth`` under each first move, by its notation."""
    out = {}
    for move in hand.legal_moves():
        child = hand.copy()
        child.apply(move)
        out[format_move(hand, move, bare=False)] = perft(child, depth - 1)
    return out


def position(spec: dict) -> Hand:
    variant = load_variant(spec["variant"])
    rules = compile_rules(variant, spec.get("players", len(spec["deal"])), spec.get("teams"))
    ts = rules.tiles
    hands = tuple(ts.mask_of([ts.parse(t) for t in seat]) for seat in spec["deal"])
    boneyard = tuple(ts.parse(t) for t in spec.get("boneyard", []))
    used = ts.mask_of(list(boneyard))
    for mask in hands:
        assert not used & mask, "a tile is dealt twice"
        used |= mask
    match = Match(rules, seed=0)
    hub = ts.parse(spec["hub"]) if "hub" in spec else -1
    hand = match.start_hand(Deal(hands, boneyard, spec.get("leader", 0), lead_tile=hub,
                                 out_of_play=ts.full & ~used))
    for text in spec.get("moves", []):
        hand.play(parse_move(hand, text))
    return hand


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def test_every_builtin_variant_has_a_perft_file():
    variants = {load(p)["variant"] for p in FILES}
    assert variants == set(builtin_names())


def mismatch_report(hand: Hand, spec: dict, got: dict[int, int]) -> str:
    """Which depths differ and, at the shallowest, the count under each first
    move against the file's ``divide`` (when the file has it at that depth)."""
    wrong = sorted(d for d in spec["perft"] if got[d] != spec["perft"][d])
    depth = wrong[0]
    lines = [f"depth {d}: expected {spec['perft'][d]}, got {got[d]}" for d in wrong]
    now = divide(hand, depth)
    want = spec.get("divide") if depth == max(spec["perft"]) else None
    lines.append(f"divide at depth {depth} (leaves under each first move):")
    for move in sorted(set(now) | set(want or {})):
        have = now.get(move, "-")
        if want is None:
            lines.append(f"  {move}: {have}")
        else:
            mark = "" if want.get(move) == have else "   <-- expected " + str(want.get(move, "-"))
            lines.append(f"  {move}: {have}{mark}")
    return "\n".join(lines)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_perft(path):
    spec = load(path)
    hand = position(spec)
    got = {depth: perft(hand, depth) for depth in spec["perft"]}
    if got != spec["perft"]:
        pytest.fail(f"{path.name}: move-path counts changed\n{mismatch_report(hand, spec, got)}",
                    pytrace=False)
    if "divide" in spec:
        deepest = max(spec["perft"])
        assert divide(hand, deepest) == spec["divide"]
        assert sum(spec["divide"].values()) == spec["perft"][deepest]


def test_a_mismatch_names_the_first_move_whose_count_changed():
    spec = load(HERE / "sniff-spinner-lead.yaml")
    hand = position(spec)
    depth = max(spec["perft"])
    wrong = dict(spec, perft={**spec["perft"], depth: spec["perft"][depth] + 1},
                 divide={**spec["divide"], "6-2@W": spec["divide"]["6-2@W"] + 1})
    got = {d: perft(hand, d) for d in spec["perft"]}
    report = mismatch_report(hand, wrong, got)
    flagged = [line for line in report.splitlines() if "<-- expected" in line]
    assert flagged == [f"  6-2@W: {spec['divide']['6-2@W']}   <-- expected "
                       f"{spec['divide']['6-2@W'] + 1}"]


def new_file(variant: str, seed: int, moves: int, depth: int = 4) -> str:
    """A perft file for a position of ``variant``: the deal of ``seed``, after
    its first ``moves`` legal moves (always the first listed)."""
    rules = compile_rules(load_variant(variant))
    ts = rules.tiles
    match = Match(rules, seed=seed)
    deal = match.next_deal()
    hand = match.start_hand(deal)
    played = []
    for _ in range(moves):
        move = hand.legal_moves()[0]
        played.append(format_move(hand, move))
        hand.play(move)
    counts = {d: perft(hand, d) for d in range(1, depth + 1)}
    legal = [format_move(hand, m, bare=False) for m in hand.legal_moves()]
    out = [f"# {variant}: a deal from seed {seed}, {moves} moves in.",
           "# Generated with the engine (python tests/test_perft.py --new ...).",
           f"variant: {variant}", f"players: {rules.players}"]
    if rules.teams:
        out.append("teams: true")
    out.append("deal:")
    out += [f"  - [{', '.join(ts.names[t] for t in ts.tiles_of(m))}]" for m in deal.hands]
    out.append(f"boneyard: [{', '.join(ts.names[t] for t in deal.boneyard)}]")
    out.append(f"leader: {deal.leader}")
    if rules.trains is not None:
        out.append(f"hub: {ts.names[deal.lead_tile]}")
    out.append(f"moves: [{', '.join(played)}]")
    out.append(f"# depth 1: seat {hand.turn} may play {', '.join(legal)}")
    out.append("perft:")
    out += [f"  {d}: {n}" for d, n in counts.items()]
    out.append(f"divide:  # depth {depth}")
    out += [f"  {m}: {n}" for m, n in divide(hand, depth).items()]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--new"]:
        name, seed, moves = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        print(new_file(name, seed, moves, int(sys.argv[5]) if len(sys.argv) > 5 else 4), end="")
    else:
        for name in sys.argv[1:]:
            spec = load(Path(name))
            hand = position(spec)
            depth = max(spec["perft"])
            print(name, {d: perft(hand, d) for d in range(1, depth + 1)})
            print("divide:", divide(hand, depth))
