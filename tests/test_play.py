"""`bones play` driven through the CLI with piped input, cross-checked with its save.

Every game here uses the cheap bots (random, greedy) so the file stays fast.
The screen is read back line by line and compared with what the engine says
the same moves are worth: the counts, the points, the muggins calls, the
settlement of every hand and the winner.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.engine.hand import Hand
from bones.engine.match import Deal
from bones.engine.notation import parse_move
from bones.games.game import GameError, GameSession, bot_rng, seat_config
from bones.games.record import dumps_record, load_record, replay
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

# "  You play 5-0@W: count 10, worth 10; claimed 1 · muggins! Seat 1 takes 9"
PLAY_LINE = re.compile(
    r"^  (You|Seat \d+) (?:draws? \d+, then )?plays? (\S+): count (\d+)"
    r"(?:, worth (\d+); claimed (\d+))?(?: scores (\d+))?(.*)$"
)
SETTLEMENT_LINE = re.compile(r"^  settlement: (.*)$")
HAND_OVER = re.compile(r"hand (\d+) over: (.*?) ─*$")


def play(args: list[str], answers: str, tmp_path: Path, **kw):
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "100"}
    result = runner.invoke(app, ["play", *args], input=answers, env=env, **kw)
    assert "Traceback" not in result.output, result.output
    return result


def ones(n: int = 3000) -> str:
    """Answer "1" to every prompt: the first move listed, a claim of 1 point."""
    return "1\n" * n


def screen_plays(output: str) -> list[tuple[str, str, int, int | None, int | None, str]]:
    """(who, notation, count, points shown, claim, rest of line) for every play on screen."""
    out = []
    for line in output.splitlines():
        m = PLAY_LINE.match(line)
        if m:
            who, text, count, worth, claim, scores, rest = m.groups()
            points = int(worth) if worth is not None else int(scores or 0)
            out.append((who, text, int(count), points, int(claim) if claim else None, rest))
    return out


def engine_plays(record) -> list[tuple[int, str, int, int, int | None, list[int]]]:
    """(seat, notation, count, true points, claim, owner gains) of every play, by the engine."""
    variant, rules = load_record_rules(record)
    out = []
    scores = [0] * rules.owners
    for entry in record.hands:
        d = entry.deal
        ts = rules.tiles
        hand = Hand(rules, [ts.mask_of([ts.parse(t) for t in h]) for h in d.hands],
                    [ts.parse(t) for t in d.boneyard], d.leader, scores,
                    ts.parse(d.lead_tile) if d.lead_tile else -1, d.lead_doubles_only,
                    ts.mask_of([ts.parse(t) for t in d.out_of_play]))
        claims = entry.claims or [None] * len(entry.moves)
        for text, claim in zip(entry.moves, claims):
            seat = hand.turn
            move = parse_move(hand, text)
            trial = hand.copy()
            trial.apply(move)
            before = list(hand.scores)
            hand.apply(move, claim)
            gains = [a - b for a, b in zip(hand.scores, before)]
            if hand.over and hand.settlement:
                gains = [g - s for g, s in zip(gains, hand.settlement)]
            if move >= 0:
                out.append((seat, text, hand.count, trial.last_points, claim, gains))
        scores = list(hand.scores)
    return out


def load_record_rules(record):
    from bones.lang.spec import Variant

    variant = Variant.model_validate(record.variant)
    return variant, compile_rules(variant, record.players, record.teams)


def seat_of(who: str) -> int:
    return 0 if who == "You" else int(who.split()[1])


def check_game(output: str, save: Path, *, human: int | None = 0) -> None:
    """The screen agrees with the engine's replay of the save, move by move and hand by hand."""
    record = load_record(save)
    result = replay(record)  # also proves the save is a valid record for `bones replay`
    assert result.finished and record.result.finished
    shown = screen_plays(output)
    expected = engine_plays(record)
    assert len(shown) == len(expected) > 0
    for (who, text, count, points, claim, _rest), (seat, etext, ecount, epoints, eclaim, _) in zip(
            shown, expected):
        if human is None:
            assert who != "You"
        assert (seat_of(who) if who != "You" else human) == seat
        assert (text, count, claim) == (etext, ecount, eclaim)
        if claim is None:
            assert points == epoints
    # every hand's end and settlement
    settlements = [m.group(1) for m in map(SETTLEMENT_LINE.match, output.splitlines()) if m]
    assert len(settlements) == len(record.hands)
    for line, hand in zip(settlements, record.hands):
        values = [int(v) for v in re.findall(r"([+-]?\d+)(?: ·|$)", line)]
        assert values == hand.settlement, (line, hand.settlement)
    overs = [m.group(1) for m in map(HAND_OVER.search, output.splitlines()) if m]
    assert overs == [str(i) for i in range(1, len(record.hands) + 1)]
    # the winner and the final scores
    final = [line for line in output.splitlines() if line.startswith("  final: ")]
    assert len(final) == 1
    assert [int(v) for v in re.findall(r" (-?\d+)(?: ·|$)", final[0])] == record.result.scores
    winner = record.result.winner
    assert winner is not None
    assert re.search(r"game over: .* wins?", output)
    names = re.search(r"game over: (.*?) wins? ", output)
    assert names is not None
    name = names.group(1)
    if record.teams:
        assert name.startswith(f"Team {'AB'[winner]}")
    else:
        assert name == ("You" if winner == human else f"Seat {winner}")


# ------------------------------------------------------------ whole games


@pytest.mark.parametrize("args", [
    ["sniff", "--bots", "greedy", "--seed", "3"],
    ["all-fives", "--players", "3", "--bots", "random,greedy", "--seed", "8"],
    ["fives-and-threes", "--bots", "greedy", "--seed", "5"],
    ["bergen", "--players", "3", "--bots", "random", "--seed", "2", "--seat", "2"],
])
def test_whole_game_with_piped_moves(tmp_path: Path, args: list[str]) -> None:
    save = tmp_path / "game.json"
    result = play([*args, "--save", str(save)], ones(), tmp_path)
    assert result.exit_code == 0, result.output
    seat = int(args[args.index("--seat") + 1]) if "--seat" in args else 0
    check_game(result.output, save, human=seat)
    assert f"seed {args[args.index('--seed') + 1]}" in result.output.splitlines()[0]


def test_partnership_game(tmp_path: Path) -> None:
    save = tmp_path / "teams.json"
    # --teams alone picks the smallest partnership table: four players
    result = play(["sniff", "--teams", "--bots", "random,greedy",
                   "--seed", "21", "--save", str(save)], ones(), tmp_path)
    assert result.exit_code == 0, result.output
    check_game(result.output, save)
    assert "Team A (0+2)" in result.output and "Team B (1+3)" in result.output
    record = load_record(save)
    assert record.teams and len(record.result.scores) == 2
    assert "team pips" in result.output


def test_all_bots_mode(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    result = play(["partnership-block", "--humans", "0", "--bots", "random", "--seed", "4",
                   "--save", str(save)], "", tmp_path)
    assert result.exit_code == 0, result.output
    check_game(result.output, save, human=None)
    assert "Your move" not in result.output


@pytest.fixture
def muggins_file(tmp_path: Path) -> Path:
    path = tmp_path / "claims.yaml"
    path.write_text(
        "extends: muggins\nname: muggins-claims\n"
        "scoring:\n  muggins: {kind: transfer}\n", encoding="utf-8")
    return path


def test_muggins_claims(tmp_path: Path, muggins_file: Path) -> None:
    """Claiming 1 point for every play: each scoring play of ours is called by the bot."""
    save = tmp_path / "mug.json"
    result = play([str(muggins_file), "--bots", "greedy", "--seed", "6", "--save", str(save)],
                  ones(), tmp_path)
    assert result.exit_code == 0, result.output
    check_game(result.output, save)
    record = load_record(save)
    calls = 0
    rules = load_record_rules(record)[1]
    for who, _text, _count, points, claim, rest in screen_plays(result.output):
        if who != "You":
            assert claim is None  # bots claim right, silently
            continue
        assert claim == 1
        if points > 1:
            caller = rules.owner[rules.next_opponent(0)]
            assert f"muggins! Seat {caller} takes {points - 1}" in rest
            assert "You score 1" in rest
            calls += 1
        else:
            assert "muggins!" not in rest
    assert calls > 0
    # the options do not give the points away under the muggins rule
    assert " scores " not in "\n".join(
        line for line in result.output.splitlines() if re.match(r"^\s+\d+\. ", line))


def test_a_claim_is_ascii_digits(tmp_path: Path, muggins_file: Path) -> None:
    r = play([str(muggins_file), "--bots", "greedy", "--seed", "6", "--save", str(tmp_path / "g.json")],
             "1\n\u00b2\n" + "9" * 5000 + "\n0\nq\n", tmp_path)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "'\u00b2' is not a number of points" in r.output
    assert "'99999999999999999...' is not a number of points" in r.output
    assert "claimed 0" in r.output


def test_muggins_exact_claims_score_normally(tmp_path: Path, muggins_file: Path) -> None:
    save = tmp_path / "mug2.json"
    first = play([str(muggins_file), "--bots", "greedy", "--seed", "6", "--save", str(save)],
                 "1\n", tmp_path)
    assert first.exit_code == 0
    session = GameSession.resume(save)
    # play on (the session saves every move) to our first scoring move, then
    # make it with the exact claim through the CLI
    answers = []
    while True:
        options = session.options()
        scoring = [i for i, o in enumerate(options, 1) if o.points]
        if scoring and session.hand is not None and session.hand.turn == 0:
            answers += [str(scoring[0]), str(options[scoring[0] - 1].points)]
            break
        session.play(options[0].move, 0 if options[0].move >= 0 else None)
        while not session.over and session.hand is not None and session.hand.turn != 0:
            session.bot_move()
        assert not session.over
    second = play(["--resume", str(save)], "\n".join(answers) + "\nq\n", tmp_path)
    assert second.exit_code == 0, second.output
    mine = [p for p in screen_plays(second.output) if p[0] == "You"]
    who, text, count, points, claim, rest = mine[-1]
    assert claim == points > 0 and "muggins" not in rest and f"You score {points}" in rest


# --------------------------------------------------------- stop and resume


def test_resume_continues_identically(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    cut = tmp_path / "cut.json"
    args = ["sniff", "--bots", "random", "--seed", "17"]
    full = play([*args, "--save", str(whole)], ones(), tmp_path)
    assert full.exit_code == 0
    for k in (9, 31):  # EOF after k answers: mid-hand, then again later
        if k == 9:
            part = play([*args, "--save", str(cut)], ones(k), tmp_path)
        else:
            part = play(["--resume", str(cut)], ones(k - 9), tmp_path)
        assert part.exit_code == 0, part.output
        assert "input ended: the game is saved in" in part.output
        assert f"bones play --resume {cut}" in part.output
        record = load_record(cut)
        assert not record.result.finished and record.hands[-1].end is None
        assert replay(record).finished is False
    rest = play(["--resume", str(cut)], ones(), tmp_path)
    assert rest.exit_code == 0, rest.output
    assert "resumed" in rest.output.splitlines()[0]
    assert dumps_record(load_record(cut)) == dumps_record(load_record(whole))


def test_quit_saves_and_resume_of_finished_game(tmp_path: Path) -> None:
    save = tmp_path / "q.json"
    result = play(["all-fives", "--bots", "greedy", "--seed", "2", "--save", str(save)],
                  "1\nq\n", tmp_path)
    assert result.exit_code == 0
    assert f"resume it with: bones play --resume {save}" in result.output
    assert len(load_record(save).hands[0].moves) >= 1
    done = play(["--resume", str(save)], ones(), tmp_path)
    assert done.exit_code == 0 and "game over" in done.output
    again = play(["--resume", str(save)], "", tmp_path)
    assert again.exit_code == 0 and "already over" in again.output


def test_take_back_restores_the_position_and_is_recorded(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    undo = tmp_path / "undo.json"
    args = ["all-fives", "--bots", "random", "--seed", "12"]
    a = play([*args, "--save", str(plain)], "1\n1\n1\nq\n", tmp_path)
    b = play([*args, "--save", str(undo)], "1\n1\nu\nu\n1\n1\n1\nq\n", tmp_path)
    assert a.exit_code == b.exit_code == 0
    assert b.output.count("took back") == 2
    ra, rb = load_record(plain), load_record(undo)
    assert [h.moves for h in ra.hands] == [h.moves for h in rb.hands]
    assert ra.result.scores == rb.result.scores
    takebacks = rb.meta["play"]["takebacks"]
    assert [t["hand"] for t in takebacks] == [1, 1] and all(t["undone"] for t in takebacks)
    # the table after a take-back is the table before the move taken back
    tables = [block.split("Your move:")[0]
              for block in re.split(r"^─+ all-fives · hand \d+", b.output, flags=re.M)[1:]]
    assert len(tables) >= 5
    assert tables[3] == tables[1] and tables[4] == tables[0]
    assert tables[2] != tables[1] != tables[0]


def test_take_back_refused_before_moving_and_in_hot_seat(tmp_path: Path) -> None:
    # --ask-forced: a forced draw made for the player would count as a move
    r = play(["sniff", "--bots", "greedy", "--seed", "1", "--ask-forced",
              "--save", str(tmp_path / "a.json")], "u\nq\n", tmp_path)
    assert "you have not moved yet in this hand" in r.output
    h = play(["sniff", "--humans", "2", "--seed", "1", "--ask-forced",
              "--save", str(tmp_path / "b.json")],
             "\n1\n\nu\nq\n", tmp_path)
    assert "take-backs are for games against bots only" in h.output


def test_only_ascii_digits_number_a_move_or_a_claim(tmp_path: Path) -> None:
    # issue 32 point 3: str.isdigit() let these through to int(), a traceback
    r = play(["all-fives", "--bots", "greedy", "--seed", "3", "--save", str(tmp_path / "g.json")],
             "\u00b2\n\u0663\n" + "9" * 5000 + "\n1\nq\n", tmp_path)
    assert r.exit_code == 0 and r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "'\u00b2' is not a tile" in r.output and "'\u0663' is not a tile" in r.output
    assert "there is no move 99999999999999999...: choose 1 to 9" in r.output
    assert "You play 0-2" in r.output


def _to_human_turn(session: GameSession) -> None:
    while not session.over and not session.is_human(session.hand.turn):
        session.bot_move()


def test_a_draw_cannot_be_taken_back_so_the_stock_keeps_its_secret(tmp_path: Path) -> None:
    # issue 32: draw gave [2|6], u, draw gave [2|6] again; the player knew the
    # next tile and could play instead of drawing it
    from bones.engine.moves import DRAW

    session = GameSession.new(load_variant("muggins"), players=3, bots=["greedy"], seed=2,
                              save_path=tmp_path / "g.json")
    _to_human_turn(session)
    hand = session.hand
    assert hand.legal_moves() == [DRAW]  # the forced draw of `bones play`
    assert session.rules.tiles.names[session.play(DRAW).drawn] == "0-6"
    drawn = session.play(DRAW).drawn  # by choice: a tile fits
    assert session.rules.tiles.names[drawn] == "2-6"
    pos = hand.bone_pos
    _to_human_turn(session)
    reason = session.can_take_back()
    assert reason is not None and "a draw cannot be taken back" in reason
    with pytest.raises(GameError, match="a draw cannot be taken back"):
        session.take_back()
    assert session.hand.bone_pos == pos  # nothing went back into the stock
    assert session.hand.hands[0] >> drawn & 1


def test_u_after_a_draw_at_the_terminal_says_why_and_the_next_draw_is_new(tmp_path: Path) -> None:
    r = play(["muggins", "--players", "3", "--seed", "2", "--bots", "greedy",
              "--save", str(tmp_path / "g.json")], "draw\nu\ndraw\nq\n", tmp_path)
    assert r.exit_code == 0, r.output
    assert "your last move was a draw, and a draw cannot be taken back" in r.output
    assert "took back" not in r.output
    drew = re.findall(r"You drew (\[\d\|\d\])", r.output)
    assert drew[:2] == ["[0|6]", "[2|6]"] and len(drew) == len(set(drew))


def test_a_take_back_never_puts_a_bots_draw_back(tmp_path: Path) -> None:
    # the human plays, a bot draws and plays the tile it drew: undoing that
    # would tell the human the stock's next tile
    from bones.engine.moves import DRAW

    for seed in range(40):
        session = GameSession.new(load_variant("all-fives"), bots=["greedy"], seed=seed,
                                  save_path=tmp_path / f"{seed}.json")
        while not session.over and session.hand_number == 1:
            _to_human_turn(session)
            hand = session.hand
            before = len(hand.log)
            plays = [m for m in hand.legal_moves() if m >= 0]
            session.play(plays[0] if plays else hand.legal_moves()[0])
            if session.hand_number != 1 or session.hand is not hand:
                break
            _to_human_turn(session)
            if session.hand is not hand:
                break
            replies = [s for s, m, _ in hand.log[before + 1:] if m == DRAW]
            if plays and replies:
                pos = hand.bone_pos
                reason = session.can_take_back()
                assert reason == ("Seat 1 drew since your last move, and a draw cannot be taken "
                                  "back (you would know a tile of the stock)")
                with pytest.raises(GameError):
                    session.take_back()
                assert hand.bone_pos == pos
                return
    raise AssertionError("no seed had a bot draw after the human's play")


@pytest.mark.parametrize("seed", range(6))
def test_no_sequence_of_moves_and_take_backs_gives_a_drawn_tile_back(tmp_path: Path, seed: int) -> None:
    import random

    rnd = random.Random(seed)
    name = ["muggins", "all-fives", "sniff"][seed % 3]
    session = GameSession.new(load_variant(name), players=2 + seed % 2, bots=["random"], seed=seed,
                              save_path=tmp_path / "g.json")
    seen_stock = 0  # the stock tiles drawn so far this hand: never fewer
    number = 1
    for _ in range(120):
        if session.over:
            break
        _to_human_turn(session)
        if session.over:
            break
        if session.hand_number != number:
            number, seen_stock = session.hand_number, 0
        hand = session.hand
        assert hand.bone_pos >= seen_stock
        seen_stock = hand.bone_pos
        if rnd.random() < 0.4 and session.can_take_back() is None:
            session.take_back()
            assert session.hand.bone_pos == seen_stock
            continue
        session.play(rnd.choice(hand.legal_moves()))
    # the record replays exactly, take-backs and all
    replay(load_record(session.save_path))


def test_hot_seat_asks_to_pass_the_keyboard(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    r = play(["all-fives", "--humans", "2", "--seed", "5", "--save", str(save)],
             ones(400), tmp_path)
    assert r.exit_code == 0, r.output
    assert "Pass the keyboard to seat 0" in r.output and "Pass the keyboard to seat 1" in r.output
    assert "Seat 1, your move" in r.output and "You hold" not in r.output


# --------------------------------------------------------------- prompts


def test_bad_input_gets_a_reason_and_the_prompt_again(tmp_path: Path) -> None:
    save = tmp_path / "bad.json"
    r = play(["all-fives", "--bots", "greedy", "--seed", "9", "--save", str(save)],
             "\nzz\n99\n6-6@Q\n9-9\nh\n?\nr\nq\n", tmp_path)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "empty line: type a move's number" in out
    assert "'zz' is not a tile" in out and "'zz': 'zz'" not in out
    assert "there is no move 99" in out
    assert "9-9 is not in the double-6 set" in out
    assert re.search(r"hint: \S+", out)
    assert "Scoring during play" in out  # the rules, as `bones show` gives them
    assert out.count("Your move:") == 9
    assert len(load_record(save).hands[0].moves) <= 1  # nothing played by the human


def test_notation_moves_and_illegal_ones(tmp_path: Path) -> None:
    save = tmp_path / "n.json"
    # what seat 0 may play at its first turn in this game
    first = play(["all-fives", "--bots", "greedy", "--seed", "30", "--save", str(save)], "q\n",
                 tmp_path)
    listed = re.findall(r"^\s+\d+\. (\S+)", first.output, re.M)
    assert listed
    illegal = "0-0@W" if "0-0@W" not in listed else "6-6@W"
    save2 = tmp_path / "n2.json"
    r = play(["all-fives", "--bots", "greedy", "--seed", "30", "--save", str(save2)],
             f"{illegal}\n{listed[-1]}\nq\n", tmp_path)
    assert re.search(r"(is not legal now; legal: |no arm W yet|the lead takes no arm|fits|"
                     r"you don.t hold 0-0\n)", r.output)
    record = load_record(save2)
    assert listed[-1] in record.hands[0].moves


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("args, code, message", [
    (["no-such-game"], 2, "no-such-game"),
    (["sniff", "--seat", "5"], 2, "--seat must be between 0 and 1"),
    (["sniff", "--players", "7"], 2, "not 7"),
    (["sniff", "--humans", "3"], 2, "--humans must be between 0 and 2"),
    (["sniff", "--level", "master"], 2,
     "bones play: --level: unknown level 'master': one of Novice, Beginner, Casual, Expert"),
    (["sniff", "--level", "master", "--bots", "greedy"], 2, "unknown level 'master'"),
    (["sniff", "--bots", "gredy"], 2, "unknown bot 'gredy'"),
    (["muggins", "--teams"], 2, "no partnership game for 2 players"),
    (["sniff", "--players", "3", "--teams"], 2, "no partnership game for 3 players"),
    (["sniff", "--tiles", "wide"], 2, "--tiles must be ascii or unicode"),
    ([], 2, "name a variant"),
])
def test_usage_errors(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    r = play(args, "", tmp_path)
    assert r.exit_code == code, r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], r.output


def test_unicode_tiles_only_for_double_six(tmp_path: Path) -> None:
    nine = tmp_path / "nine.yaml"
    nine.write_text("extends: all-fives\nname: nines\ntiles: {highest: 9}\n", encoding="utf-8")
    r = play([str(nine), "--tiles", "unicode"], "", tmp_path)
    assert r.exit_code == 2 and "only for the double-six set" in r.output
    ok = play(["sniff", "--tiles", "unicode", "--bots", "greedy", "--seed", "3",
               "--save", str(tmp_path / "u.json")], "q\n", tmp_path)
    assert ok.exit_code == 0 and re.search("[\U0001F031-\U0001F061]", ok.output)


def test_save_refusals_leave_files_untouched(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "bones-record", "version": 1, "hands": [', encoding="utf-8")
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    for path in (corrupt, foreign):
        before = path.read_bytes()
        r = play(["--resume", str(path)], "", tmp_path)
        assert r.exit_code == 1, r.output
        assert len(r.output.strip().splitlines()) == 1
        assert path.read_bytes() == before
    # a plain record (from `bones simulate` or a test) is not a play save
    bots = tmp_path / "bots.json"
    play(["block-2p", "--humans", "0", "--bots", "random", "--seed", "1", "--save", str(bots)],
         "", tmp_path)
    data = json.loads(bots.read_text())
    del data["meta"]["play"]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(data), encoding="utf-8")
    r = play(["--resume", str(plain)], "", tmp_path)
    assert r.exit_code == 1 and "not a `bones play` save" in r.output
    # a save whose moves were tampered with
    data = json.loads(bots.read_text())
    data["hands"][0]["moves"][1] = "9-9"
    data["result"] = {"finished": False, "winner": None, "scores": [0, 0]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = bad.read_bytes()
    r = play(["--resume", str(bad)], "", tmp_path)
    assert r.exit_code == 1 and "hand 1, move 2 '9-9'" in r.output and bad.read_bytes() == before
    assert len(r.output.strip().splitlines()) == 1
    # a save whose recorded settlement disagrees with its moves
    data = json.loads(bots.read_text())
    data["hands"][0]["settlement"] = [99, -99]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    r = play(["--resume", str(edited)], "", tmp_path)
    assert r.exit_code == 1 and "recorded settlement [99, -99]" in r.output
    # an existing --save file is never overwritten by a new game
    r = play(["sniff", "--save", str(bots)], "", tmp_path)
    assert r.exit_code == 2 and "already exists" in r.output
    # --resume continues a game; it cannot set one up
    r = play(["--resume", str(bots), "--players", "3"], "", tmp_path)
    assert r.exit_code == 2 and "--players cannot change a saved game" in r.output
    r = play(["sniff", "--resume", str(bots)], "", tmp_path)  # --resume FILE takes one FILE
    assert r.exit_code == 2 and "unexpected extra argument" in r.output


def test_default_save_location(tmp_path: Path) -> None:
    r = play(["sniff", "--bots", "greedy", "--seed", "44"], "q\n", tmp_path)
    assert r.exit_code == 0
    saves = list((tmp_path / "data" / "bones" / "saves").glob("sniff-*-44.json"))
    assert len(saves) == 1
    assert str(saves[0]) in r.output
    assert load_record(saves[0]).meta["play"]["seats"] == ["human", "greedy"]


# ------------------------------------------------------ session and seats


def test_default_seats_and_levels() -> None:
    assert seat_config(2).seats == ("human", "search")
    assert seat_config(2).level == "Expert"
    assert seat_config(2, level="easy").seats == ("human", "blunder")
    assert seat_config(4, seat=3, humans=2, bots=["random", "greedy"]).seats == (
        "human", "random", "greedy", "human")
    assert seat_config(3, humans=0, level="medium").seats == ("heuristic",) * 3
    # a level by its name in any case, saved under its name
    novice = seat_config(3, level="NOVICE")
    assert novice.seats == ("human", "random", "random") and novice.level == "Novice"
    # --bots beside --level: the bots take the first bot seats, the level the rest
    assert seat_config(4, bots=["search"], level="beginner", level_given=True).seats == (
        "human", "search", "blunder", "blunder")
    # without --level a shorter --bots list repeats, as before
    assert seat_config(4, bots=["search", "random"]).seats == ("human", "search", "random", "search")
    with pytest.raises(GameError, match="^--level: unknown level 'master': one of Novice, "
                       "Beginner, Casual, Expert$"):
        seat_config(2, level="master")


def test_bot_decisions_depend_only_on_where_they_are_made() -> None:
    a = bot_rng(5, 2, 17, 1).random()
    assert a == bot_rng(5, 2, 17, 1).random()
    assert len({a, bot_rng(5, 2, 18, 1).random(), bot_rng(5, 3, 17, 1).random(),
                bot_rng(6, 2, 17, 1).random(), bot_rng(5, 2, 17, 0).random()}) == 5


# ---------------------------------------------------------- the picture


def _sniff_hand(tiles: list[list[str]]):
    rules = compile_rules(load_variant("sniff"), 2)
    ts = rules.tiles
    deal = Deal(tuple(ts.mask_of([ts.parse(t) for t in h]) for h in tiles), (), 0)
    return rules, deal


def test_layout_picture_draws_the_spinner_cross() -> None:
    from bones.seat.picture import LayoutPicture, TileFace
    from bones.seat.placement import layout_of

    # SEED1's sniff (docs/rules.md S2): [4-4], then [6-4] W, [1-4] E (15), then 4-2 N and 4-3 S
    rules, deal = _sniff_hand([["4-4", "1-4", "2-4", "5-5"], ["6-4", "4-3", "0-0", "6-6"]])
    hand = Hand(rules, deal.hands, deal.boneyard, 0, [0, 0])
    codes = []
    for text in ["4-4", "6-4@W", "1-4@E", "4-2@N", "4-3@S"]:
        move = parse_move(hand, text)
        codes.append(move)
        hand.apply(move)
    lines = [t.plain for t in LayoutPicture(layout_of(rules, deal, codes), TileFace(), 80).draw()]
    assert lines == [
        "            N:2",
        "            [2|4]",
        "  W:6 [6|4] [4|4] [4|1] E:1",
        "            [4|3]",
        "            S:3",
    ]


def test_layout_picture_elides_long_lines_but_keeps_spinners() -> None:
    from bones.seat.picture import LayoutPicture, TileFace
    from bones.seat.placement import layout_of

    rules = compile_rules(load_variant("all-fives"), 2)
    session_codes = []
    import random

    from bones.engine.match import Match

    match = Match(rules, 3)
    rng = random.Random(3)
    hand = match.new_hand()
    deal = match.current_deal
    while not hand.over:
        move = rng.choice(hand.legal_moves())
        session_codes.append(move)
        hand.apply(move)
    assert deal is not None
    layout = layout_of(rules, deal, session_codes)
    wide = [t.plain for t in LayoutPicture(layout, TileFace(), 400).draw()]
    narrow = [t.plain for t in LayoutPicture(layout, TileFace(), 50).draw()]
    placed = sum(len(a) for a in layout.arms) + 1
    assert sum(line.count("[") for line in wide) == placed
    assert max(len(line) for line in narrow) <= 60 or any("…" in line for line in narrow)
    for text in (wide, narrow):
        assert any(re.search(r"W:\d", line) for line in text)


def test_no_color_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    from bones.cli.render import make_console

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert make_console(True, interactive=True).no_color
    assert not make_console(False, interactive=True).no_color
    monkeypatch.setenv("NO_COLOR", "1")
    assert make_console(False, interactive=True).no_color


def test_over_claims_and_forfeited_points(tmp_path: Path) -> None:
    """Under forfeit with over-claims penalised: a claim too high gives the
    next opponent the amount claimed, a short claim loses the rest."""
    from rich.console import Console

    from bones.cli.render import TerminalUI
    from bones.seat.picture import TileFace

    path = tmp_path / "strict.yaml"
    path.write_text("extends: muggins\nname: strict\nscoring:\n  muggins: {kind: forfeit, "
                    "penalise_over_claim: true}\n", encoding="utf-8")
    session = GameSession.new(load_variant(str(path)), bots=["greedy"], seed=3,
                              save_path=tmp_path / "strict.json")
    ui = TerminalUI(Console(width=200, no_color=True), interactive=False, face=TileFace())
    seen: dict[str, str] = {}
    while len(seen) < 2 and not session.over:
        hand = session.hand
        assert hand is not None
        if hand.turn != 0:
            session.bot_move()
            continue
        options = session.options()
        scoring = [o for o in options if o.points]
        if not scoring:
            first = options[0]
            session.play(first.move, 0 if first.move >= 0 else None)
            continue
        choice = scoring[0]
        before = list(session.match.scores)
        if "over" not in seen:
            event = session.play(choice.move, choice.points + 5)
            kind = "over"
            assert event.gains == [0, choice.points + 5]
        else:
            event = session.play(choice.move, 0)
            kind = "short"
            assert event.gains == [0, 0]
        assert event.points == choice.points
        if not event.hand_over:
            assert [a - b for a, b in zip(session.match.scores, before)] == event.gains
        seen[kind] = ui.describe(session, event).plain
    assert "too high, rejected · muggins! Seat 1 takes" in seen["over"]
    assert seen["short"].endswith(" lost") and "muggins!" not in seen["short"]
    record = load_record(session.save_path)
    replay(record)
    claims = [c for h in record.hands for c in (h.claims or []) if c is not None]
    assert claims and max(claims) > 0


@pytest.mark.parametrize("level, bot, name", [
    (None, "search", "Expert"), ("Casual", "heuristic", "Casual"), ("beginner", "blunder", "Beginner"),
    ("novice", "random", "Novice"), ("EXPERT", "search", "Expert"),
    # the first levels' names, still accepted
    ("medium", "heuristic", "Casual"), ("easy", "blunder", "Beginner")])
def test_levels_pick_the_bot(tmp_path: Path, level: str | None, bot: str, name: str) -> None:
    save = tmp_path / "level.json"
    args = ["sniff", "--seed", "2", "--save", str(save)] + (["--level", level] if level else [])
    r = play(args, "1\nq\n", tmp_path)
    assert r.exit_code == 0, r.output
    assert f"seat 1 {bot}" in r.output.splitlines()[1]
    play_meta = load_record(save).meta["play"]
    assert play_meta["seats"] == ["human", bot] and play_meta["level"] == name


def test_a_level_beside_bots_takes_the_seats_after_them(tmp_path: Path) -> None:
    save = tmp_path / "partners.json"
    r = play(["partners", "--seed", "2", "--bots", "heuristic", "--level", "novice",
              "--save", str(save)], "q\n", tmp_path)
    assert r.exit_code == 0, r.output
    assert load_record(save).meta["play"]["seats"] == ["human", "heuristic", "random", "random"]
