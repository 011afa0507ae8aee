"""The prompts of `bones play` (issue 11 items 11-14): what a player may type, and what they see."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from bones.cli.app import app
from bones.cli.render import TerminalUI
from bones.cli.turns import STOPPED, run
from bones.games.game import GameSession
from bones.games.record import load_record
from bones.lang.load import load_variant
from bones.seat.picture import TileFace

runner = CliRunner()


def play(args: list[str], answers: str, tmp_path: Path):
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "100"}
    result = runner.invoke(app, ["play", *args], input=answers, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


class ScriptedUI(TerminalUI):
    """A terminal UI as at a real terminal (interactive), answering prompts from a script."""

    def __init__(self, answer) -> None:
        self.out = io.StringIO()
        super().__init__(Console(file=self.out, width=100, no_color=True), interactive=True,
                         face=TileFace())
        self.answer = answer
        self.prompts: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.console.print(prompt, end="")
        return str(self.answer(prompt))


def test_the_tile_as_printed_is_accepted(tmp_path: Path) -> None:
    first = play(["all-fives", "--bots", "greedy", "--seed", "30"], "q\n", tmp_path)
    option = re.search(r"^\s+1\. (\d+)-(\d+)(@\w+)?", first.output, re.M)
    assert option is not None
    a, b, arm = option.groups()
    save = tmp_path / "t.json"
    r = play(["all-fives", "--bots", "greedy", "--seed", "30", "--save", str(save)],
             f"[{a}|{b}]{arm or ''}\nq\n", tmp_path)
    assert r.exit_code == 0
    assert "not a tile" not in r.output
    moves = load_record(save).hands[0].moves
    assert f"{a}-{b}{arm or ''}" in moves


def test_help_shows_the_keys_and_a_tile_not_held_is_named(tmp_path: Path) -> None:
    r = play(["all-fives", "--bots", "greedy", "--seed", "30"], "help\n0-0\nq\n", tmp_path)
    assert "keys: a move's number" in r.output and "q save and quit (at any prompt)" in r.output
    assert "you don't hold 0-0" in r.output
    assert "'help'" not in r.output  # not taken for a tile


def test_q_saves_and_quits_at_the_next_hand_prompt(tmp_path: Path) -> None:
    save = tmp_path / "n.json"
    session = GameSession.new(load_variant("all-fives"), bots=["greedy"], seed=3, save_path=save)
    ui = ScriptedUI(lambda prompt: "q" if prompt.startswith("Press Enter") else "1")
    with session.new_save():
        assert run(session, ui) == STOPPED
    assert any(p.startswith("Press Enter for the next hand") for p in ui.prompts)
    record = load_record(save)
    assert record.hands[0].end is not None  # the first hand is over and saved...
    assert len(record.hands) == 2 and record.hands[1].moves == []  # ...and nothing after


def test_q_at_the_hot_seat_hand_off_saves_and_quits(tmp_path: Path) -> None:
    session = GameSession.new(load_variant("sniff"), humans=2, seed=5,
                              save_path=tmp_path / "h.json")
    ui = ScriptedUI(lambda prompt: "q" if prompt.startswith("Pass the keyboard") else "1")
    with session.new_save():
        assert run(session, ui) == STOPPED
    assert len(ui.prompts) == 1 and ui.prompts[0].startswith("Pass the keyboard to seat ")
    assert load_record(tmp_path / "h.json").hands[0].moves == []


def test_hot_seat_clears_the_scrollback_and_the_first_turn_heading(tmp_path: Path) -> None:
    session = GameSession.new(load_variant("sniff"), humans=2, seed=5,
                              save_path=tmp_path / "h.json")
    answers = iter(["", "1", "", "1", "", "q"])
    ui = ScriptedUI(lambda prompt: next(answers))
    ui._banner = False  # as after the first screen
    with session.new_save():
        run(session, ui)
    out = ui.out.getvalue()
    assert "\x1b[3J" in out  # the scrollback is cleared at each hand-off
    if "since" in out:
        first = out.index("since")
        assert out[first:].startswith("since the hand began:")


def test_a_forced_draw_is_made_and_shown(tmp_path: Path) -> None:
    # answer the first listed move every time until a forced draw comes up
    for seed in range(1, 40):
        save = tmp_path / f"f{seed}.json"
        r = play(["all-fives", "--bots", "greedy", "--seed", str(seed), "--save", str(save)],
                 "1\n" * 40 + "q\n", tmp_path)
        if "(forced)" in r.output:
            break
    else:  # pragma: no cover
        raise AssertionError("no forced draw in 40 games")
    assert re.search(r"You: nothing fits.*: draw \(forced\)\n\s+You drew \[\d\|\d\]", r.output)
    # the old behaviour on request: the draw is offered as the only move
    old = play(["all-fives", "--bots", "greedy", "--seed", str(seed), "--ask-forced",
                "--save", str(tmp_path / "old.json")], "1\n" * 40 + "q\n", tmp_path)
    assert "(forced)" not in old.output
    assert re.search(r"^\s+1\. draw\s*$", old.output, re.M)


def test_play_bots_gets_the_checks_of_simulate(tmp_path: Path) -> None:
    r = play(["sniff", "--bots", "random,random,random"], "", tmp_path)
    s = runner.invoke(app, ["simulate", "sniff", "--bots", "random,random,random", "-n", "1"])
    assert r.exit_code == 2 and s.exit_code == 2
    assert r.output.strip() == "bones play: 3 bots for 1 seat"
    assert s.output.strip().endswith("3 bots for 2 seats")
    r = play(["sniff", "--bots", "greedy,,random", "--humans", "0"], "", tmp_path)
    assert r.exit_code == 2 and "an empty bot name in 'greedy,,random'" in r.output


def test_resume_without_a_file_lists_the_saves_and_continue_goes_on(tmp_path: Path) -> None:
    saves = tmp_path / "data" / "bones" / "saves"
    r = play(["--resume"], "", tmp_path)
    assert r.exit_code == 0 and "no saved games" in r.output
    play(["block-2p", "--humans", "0", "--bots", "greedy", "--seed", "1"], "", tmp_path)
    play(["all-fives", "--bots", "greedy", "--seed", "2"], "1\nq\n", tmp_path)
    files = sorted(saves.glob("*.json"))
    assert len(files) == 2
    listing = play(["--resume"], "", tmp_path)
    assert listing.exit_code == 0
    names = re.findall(r"^  (\S+\.json)$", listing.output, re.M)
    assert names[0].startswith("all-fives-") and names[1].startswith("block-2p-")  # newest first
    assert re.search(r"all-fives, 2 players, hand 1, scores \d+-\d+, unfinished", listing.output)
    assert re.search(r"block-2p, 2 players, hand \d+, scores \d+-\d+, finished", listing.output)
    assert re.search(r"^      \d{4}-\d\d-\d\d \d\d:\d\d  ", listing.output, re.M)
    unfinished = saves / names[0]
    before = len(load_record(unfinished).hands[0].moves)
    cont = play(["--continue"], "1\nq\n", tmp_path)
    assert cont.exit_code == 0 and "resumed" in cont.output and str(unfinished) in cont.output
    assert len(load_record(unfinished).hands[0].moves) > before


def test_the_list_of_saves_names_a_seat_handed_to_a_bot(tmp_path: Path) -> None:
    saves = tmp_path / "data" / "bones" / "saves"
    play(["all-fives", "--bots", "greedy", "--seed", "2"], "1\nq\n", tmp_path)
    (path,) = saves.glob("*.json")
    data = json.loads(path.read_text())
    data["meta"]["play"]["handed"] = [1]  # as bones serve records a person's seat a bot took
    path.write_text(json.dumps(data))
    listing = play(["--resume"], "", tmp_path)
    assert listing.exit_code == 0
    assert re.search(r"all-fives, 2 players, hand 1, scores \d+-\d+, unfinished, "
                     r"seat 1 handed to greedy$", listing.output, re.M)


def test_play_offers_json_at_the_end(tmp_path: Path) -> None:
    r = play(["block-2p", "--humans", "0", "--bots", "greedy", "--seed", "1", "--json"], "",
             tmp_path)
    assert r.exit_code == 0
    data = json.loads(r.output.strip().splitlines()[-1])
    assert data["state"] == "finished" and data["variant"] == "block-2p"
    assert data["seed"] == 1 and len(data["scores"]) == 2
    assert load_record(data["save"]).result.scores == data["scores"]
    stopped = play(["all-fives", "--bots", "greedy", "--seed", "2", "--json"], "q\n", tmp_path)
    assert json.loads(stopped.output.strip().splitlines()[-1])["state"] == "stopped"


# ------------------------------------------------------- the board and the list


def _random_positions(per_table: int = 3):
    import random

    from bones.engine.match import Match
    from bones.lang.compile import compile_rules
    from bones.lang.load import builtin_names

    for name in builtin_names():
        variant = load_variant(name)
        for players in variant.players.counts:
            rules = compile_rules(variant, players)
            for seed in range(per_table):
                match = Match(rules, seed)
                hand = match.new_hand()
                rnd = random.Random(seed)
                while not hand.over:
                    yield name, hand
                    hand.apply(rnd.choice(hand.legal_moves()))


def test_what_each_end_adds_is_the_count() -> None:
    from bones.seat.tally import count_parts

    seen_hub = seen_free = False
    for _, hand in _random_positions():
        if not hand.placed:
            continue
        parts = count_parts(hand)
        assert sum(p.points for p in parts) == hand.count
        seen_hub |= any(p.kind == "hub" for p in parts)
        seen_free |= any(p.kind == "free" for p in parts)
    assert seen_hub and seen_free  # spinners counted whole, free edges adding nothing


def test_the_board_line_adds_up_on_screen(tmp_path: Path) -> None:
    for seed in range(1, 30):
        r = play(["all-fives", "--bots", "greedy", "--seed", str(seed)], "1\n" * 12 + "q\n",
                 tmp_path)
        lines = re.findall(r"count: (.*) = (\d+)$", r.output, re.M)
        if any("(free)" in parts or "[" in parts for parts, _ in lines):
            break
    assert lines
    for parts, total in lines:
        numbers = [int(x) for x in re.findall(r"(?:^|\+ )(?:[WENS]\d* |\[\d\|\d\] )?(\d+)(?:\+(\d+))?",
                                              parts) for x in x if x]
        assert sum(numbers) == int(total), (parts, total)


def test_a_led_double_lists_each_placement_once(tmp_path: Path) -> None:
    from bones.engine.moves import tile_of
    from bones.engine.notation import format_move

    checked = 0
    for seed in range(300):
        session = GameSession.new(load_variant("block-2p"), humans=2, seed=seed,
                                  save_path=tmp_path / f"{seed}.json")
        hand = session.hand
        assert hand is not None
        doubles = [m for m in hand.legal_moves()
                   if m >= 0 and session.rules.tiles.is_double[tile_of(m)]]
        if not doubles:
            continue
        session.play(doubles[0])
        legal = [m for m in hand.legal_moves() if m >= 0]
        listed = [m for m in session.listed_moves() if m >= 0]
        assert sorted(tile_of(m) for m in listed) == sorted({tile_of(m) for m in legal})
        if len(legal) > len(listed):
            checked += 1
            numbers = [o.text for o in session.options()]
            assert len(numbers) == len(set(numbers))
            for dropped in set(legal) - set(listed):  # typed, it is still accepted
                assert session.parse(format_move(hand, dropped)) == dropped
        if checked >= 3:
            break
    assert checked >= 1


def test_replay_offers_json(tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parent / "corpus" / "records" / "good-save.json"
    r = runner.invoke(app, ["replay", str(corpus), "--json"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    record = load_record(corpus)
    assert data["result"]["scores"] == record.result.scores
    assert [m["move"] for m in data["hands"][0]["moves"]] == record.hands[0].moves
    assert data["hands"][0]["end"] == record.hands[0].end
    bad = runner.invoke(app, ["replay", str(corpus.parent / "nested-arrays.json"), "--json"])
    assert bad.exit_code == 1 and bad.stdout == ""


# ------------------------------------------------------------- 80 columns


def test_the_rules_wrap_at_words_at_80_columns(tmp_path: Path) -> None:
    from bones.lang.describe import describe

    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "80"}
    r = runner.invoke(app, ["play", "all-fives", "--bots", "greedy", "--seed", "3"],
                      input="r\nq\n", env=env)
    assert r.exit_code == 0
    out = r.output
    start = out.index("Your move: r\n") + len("Your move: r\n")
    shown = out[start:out.index("Your move:", start)]
    assert max(len(line) for line in shown.splitlines()) <= 80
    text = describe(load_variant("all-fives"), 2)
    assert shown.split() == text.split()  # no word cut in two


def test_a_tall_layout_is_elided_vertically() -> None:
    from bones.seat.picture import LayoutPicture
    from bones.seat.placement import Piece, Placement

    lead = Piece(27, 6, 6, True, cross=(2, 3))
    north = [Piece(20 + i, 6 if i == 0 else i, i + 1, False) for i in range(8)]
    layout = Placement(lead=lead, arms=[[], [], north, []], open=[6, 6, 1, 6])
    full = LayoutPicture(layout, TileFace(), 78).draw()
    short = LayoutPicture(layout, TileFace(), 78, column=2).draw()
    assert len(full) >= 10
    assert len(short) <= 6
    assert any("⋮" in line.plain for line in short)
    assert "N:1" in "".join(line.plain for line in short)  # the open end is still shown


def test_the_keys_wrap_at_words_at_80_columns(tmp_path: Path) -> None:
    """The keys, at the start and after `help`, are prose: at 80 columns they wrap
    between words, never inside a word or an item like ([6|4])."""
    from bones.cli.turns import KEYS

    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "80"}
    r = runner.invoke(app, ["play", "all-fives", "--bots", "greedy", "--seed", "30"],
                      input="help\nq\n", env=env)
    lines = r.output.splitlines()
    for first_words in ("type a move's number", "keys: a move's number"):
        start = next(i for i, line in enumerate(lines) if first_words in line)
        block = []
        for line in lines[start:]:
            block.append(line)
            if line.rstrip().endswith(("q save and quit", "help these keys")):
                break
        assert all(len(line) <= 80 for line in block), block
        assert len(block) > 1  # it did not fit on one line: it wrapped
        text = " ".join(line.strip() for line in block)
        text = text[text.index(first_words):]
        if first_words.startswith("keys"):
            assert text == KEYS
        else:
            assert text.endswith("? hint, h history, r rules, u take back, q save and quit")
