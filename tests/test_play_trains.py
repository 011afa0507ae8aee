"""`bones play` with a train layout (issue 35): the hub and a row per train, markers,
the doubles owed covers and the chicken foot's toes, 2 to 8 players at 80 columns.

Games are played through the CLI with piped input against the cheap bot (greedy);
the picture is checked against the engine's own hand at the same position, so a
marker or an owed double shown on the wrong train, or not shown, fails.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.cli.render import TerminalUI, make_console
from bones.engine.trains import TrainHand
from bones.games.game import GameError, GameSession
from bones.games.record import load_record, replay
from bones.lang.load import load_variant
from bones.seat.picture import TileFace

runner = CliRunner()
#: a row of the picture: "  T1  Seat 1 (greedy)  marker  …2[6|7][7|8]  → 8  double owes 1 ◀ now"
ROW = re.compile(r"^  (T\d+|M\d*|A\d+)\s")


def play(args: list[str], answers: str, tmp_path: Path, columns: int = 80):
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": str(columns)}
    result = runner.invoke(app, ["play", *args], input=answers, env=env)
    assert "Traceback" not in result.output, result.output
    return result


@pytest.mark.parametrize("variant,players,seed", [
    ("mexican-train", 2, 3),
    ("mexican-train", 8, 4),
    ("chicken-foot", 2, 5),
    ("chicken-foot", 8, 6),
])
def test_a_whole_match_at_80_columns_to_the_end(tmp_path: Path, variant: str, players: int,
                                                seed: int) -> None:
    save = tmp_path / "game.json"
    result = play([variant, "--players", str(players), "--bots", "greedy", "--seed", str(seed),
                   "--save", str(save), "--json"], "1\n" * 4000, tmp_path)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "game over:" in out
    record = load_record(save)
    assert record.result.finished
    end = json.loads(out.strip().splitlines()[-1])
    replayed = replay(record)
    assert replayed.finished and end["scores"] == list(replayed.scores[:players])
    rounds = 13 if variant == "mexican-train" else 10
    assert end["hands"] == rounds
    # every round's hub, from the top double down, and each one's end
    top = 12 if variant == "mexican-train" else 9
    for r in range(rounds):
        assert f"hub [{top - r}|{top - r}]" in out
        assert re.search(rf"round {r + 1} over: ", out)
    # the picture's rows fit 80 columns (the banner's save path is left whole for copying)
    rows = [line for line in out.splitlines() if ROW.match(line) or line.startswith("  hub ")]
    assert rows and max(len(line) for line in rows) <= 80
    # the human's moves are offered and shown in the train notation
    assert re.search(r"You play \d+-\d+@(T\d|M|H|F|A\d+)", out)
    if variant == "mexican-train":
        assert re.search(r"^  T0  You\s", out, re.M)
        assert re.search(rf"^  T{players - 1}  Seat {players - 1} \(greedy\)", out, re.M)
        assert re.search(r"^  M   public train", out, re.M)
    else:
        assert re.search(r"^  A1 +from the hub", out, re.M)
        assert re.search(r"^  A\d+ +toe of A\d+", out, re.M)


def _picture(session: GameSession, width: int = 80) -> list[str]:
    ui = TerminalUI(make_console(True, False), interactive=False,
                    face=TileFace(False, session.rules.tiles.highest))
    ui.console.width = width
    return [line.plain for line in ui.trains_picture(session, session.current.deal,
                                                     session.current.codes)]


def _rows(lines: list[str]) -> dict[str, str]:
    return {m.group(1): line for line in lines if (m := ROW.match(line))}


@pytest.mark.parametrize("players", [3, 8])
def test_markers_and_owed_doubles_are_on_the_engines_trains(tmp_path: Path, players: int) -> None:
    """Every position of random Mexican Train rounds: a row says `marker` exactly when
    the engine's train carries one, ends at the engine's open end, and a double owed a
    cover is marked on its row (`◀ now` when it binds)."""
    seen = {"marker": 0, "owes": 0, "now": 0, "first": 0}
    for seed in range(4):
        session = GameSession.new(load_variant("mexican-train"), players=players,
                                  humans=players, seed=seed, save_path=tmp_path / f"{seed}.json")
        rng = random.Random(seed)
        while session.hand_number == 1 and not session.over:
            hand = session.hand
            assert isinstance(hand, TrainHand)
            lines = _picture(session)
            if hand.placed:
                rows = _rows(lines)
                assert sorted(rows) == sorted([f"T{s}" for s in range(players)] + ["M"])
                for s in range(players):
                    assert ("marker" in rows[f"T{s}"].split("  ")) == hand.marked[s], rows
                    seen["marker"] += hand.marked[s]
                for name, pip in ((f"T{s}", hand.arm_open[s]) for s in range(players)):
                    assert rows[name].split("→ ")[1].split()[0] == str(pip)
                owed = {hand.target_of(arm) for arm, _, _, _ in hand.owed}
                for name, line in rows.items():
                    from bones.engine.moves import arm_index

                    assert ("double owes 1" in line) == (arm_index(name) in owed), line
                    seen["owes"] += "double owes" in line
                binding = hand.binding()
                mover = hand.must_cover if hand.must_cover >= 0 else (
                    binding[0] if binding is not None else -1)
                now = [name for name, line in rows.items() if line.endswith("◀ now")]
                assert now == ([] if mover < 0 else
                               [next(n for n in rows if arm_index(n) == hand.target_of(mover))])
                seen["now"] += bool(now)
                if hand.in_first_turn() and not now:  # a double to cover comes first
                    assert any("first turn: as many tiles as fit on T" in x for x in lines)
                    seen["first"] += 1
            options = session.options()
            session.play(rng.choice(options).move)
    assert all(seen.values()), seen


def test_the_chicken_foot_and_the_hub_are_marked(tmp_path: Path) -> None:
    """The hub takes its tiles first (`H`), then a double laid on an arm closes it and its
    toes are owed (`F`) on that arm's row; each toe is a new row naming its arm."""
    seen = {"hub": 0, "foot": 0, "toe": 0}
    for seed in range(3):
        session = GameSession.new(load_variant("chicken-foot"), players=4, humans=4, seed=seed,
                                  save_path=tmp_path / f"{seed}.json")
        rng = random.Random(seed)
        while session.hand_number == 1 and not session.over:
            hand = session.hand
            assert isinstance(hand, TrainHand)
            lines = _picture(session)
            text = "\n".join(lines)
            if hand.placed and hand.hub_left:
                assert f"takes {hand.hub_left} more against it (H)" in lines[0]
                assert "now: every play goes against the hub (H)" in text
                seen["hub"] += 1
            feet = [o for o in hand.owed if o[0] < 0]
            if feet:
                toes = feet[0][2]
                closed = [line for line in _rows(lines).values()
                          if f"closed by its double: {toes} toe{'s' * (toes != 1)} owed (F)" in line]
                assert len(closed) == 1, text
                assert closed[0].rstrip().endswith("◀ now")
                seen["foot"] += 1
            seen["toe"] += any("toe of A" in line for line in lines)
            session.play(rng.choice(session.options()).move)
    assert all(seen.values()), seen


def test_8_players_fit_80_columns_in_play(tmp_path: Path) -> None:
    """With 8 players and long trains, each row keeps its newest tiles and its end."""
    session = GameSession.new(load_variant("mexican-train"), players=8, humans=0, bots=["greedy"],
                              seed=9, save_path=tmp_path / "g.json")
    longest = 0
    while session.hand_number == 1 and not session.over:
        lines = _picture(session)
        assert max(len(x) for x in lines) <= 78 or any("…" in x for x in lines)
        assert all(len(x) <= 78 for x in lines if ROW.match(x)), lines
        hand = session.hand
        assert hand is not None
        for line in lines:
            if ROW.match(line) and "…" in line:
                hidden = int(re.search(r"…(\d+)", line).group(1))
                shown = len(re.findall(r"\[\d+\|\d+\]", line))
                longest = max(longest, hidden + shown)
        session.bot_move()
    assert longest > 6  # some train outgrew its row and still counted every tile


def test_typed_train_moves_and_their_errors(tmp_path: Path) -> None:
    session = GameSession.new(load_variant("mexican-train"), players=2, humans=2, seed=1,
                              save_path=tmp_path / "g.json")
    session.play(session.options()[0].move)  # the hub
    options = session.options()
    first = next(o for o in options if o.move >= 0)
    assert re.fullmatch(r"\d+-\d+@T\d", first.text)  # the train always named
    # the halves either way round, the target in any case
    a, b = first.text.split("@")[0].split("-")
    assert session.parse(f"{b}-{a}@{first.text.split('@')[1].lower()}") == first.move
    with pytest.raises(GameError, match=r"^'12-\d+@T5': the layout has no T5 now"):
        session.parse(f"{first.text.split('@')[0]}@T5")
    with pytest.raises(GameError, match=r"this layout's places are train targets"):
        session.parse(f"{first.text.split('@')[0]}@E")
    with pytest.raises(GameError, match=r"is not legal now; legal: .*@T\d"):
        session.parse(f"{first.text.split('@')[0]}@M")  # not in a first turn


def test_take_back_quit_and_resume_go_on_identically(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    # the first turn of Mexican Train: several tiles on one's own train, the last taken back
    first = play(["mexican-train", "--players", "2", "--bots", "greedy", "--seed", "3",
                  "--save", str(save)], "1\n1\nu\n1\nq\n", tmp_path)
    assert first.exit_code == 0, first.output
    assert re.search(r"took back \d+ moves?", first.output)
    moves = load_record(save).hands[-1].moves
    again = play(["--resume", str(save)], "q\n", tmp_path)
    assert again.exit_code == 0, again.output
    assert "hub [12|12]" in again.output and re.search(r"^  T0  You ", again.output, re.M)
    assert load_record(save).hands[-1].moves == moves
    # the same moves from the same seed, played straight through, give the same save
    straight = tmp_path / "s.json"
    play(["mexican-train", "--players", "2", "--bots", "greedy", "--seed", "3",
          "--save", str(straight)], "1\n1\nq\n", tmp_path)
    assert load_record(straight).hands[-1].moves == moves
