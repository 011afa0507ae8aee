"""The levels people pick a bot by (bones.bots.levels, issue 34 section 1): the
data, `bones bots`' listing, and the ladder that calibrates them
(`python -m bench.strength`).  `bones play --level` is tested in test_play."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from bones.bots import make_bot
from bones.bots.levels import (
    ALIASES,
    DEFAULT,
    DEFAULT_LEVEL,
    LEVELS,
    OTHERS,
    LevelError,
    find_level,
    level_names,
    level_of,
)
from bones.cli.app import app

runner = CliRunner()


# ----------------------------------------------------------------- the data


def test_four_to_six_levels_with_unique_names_and_bots() -> None:
    assert 4 <= len(LEVELS) <= 6
    names = [level.name for level in LEVELS]
    assert len({n.casefold() for n in names}) == len(names) == len(set(level_names()))
    assert len({level.bot for level in LEVELS}) == len(LEVELS)
    # no level is also offered as another bot, and no alias shadows a level's name
    assert not {level.bot for level in LEVELS} & {bot for bot, _, _ in OTHERS}
    assert not set(ALIASES) & {n.casefold() for n in names}
    for level in LEVELS:
        assert level.description and "\n" not in level.description


def test_every_level_and_other_is_a_bot_that_parses() -> None:
    for bot in [level.bot for level in LEVELS] + [bot for bot, _, _ in OTHERS]:
        assert make_bot(bot).name == bot


def test_the_levels_go_weakest_first_to_the_strongest_bot() -> None:
    from bench.strength import ladder

    # the order of the algorithms' ladder, strongest last; the top level plays the
    # strongest of them at its default settings, which is what the pickers start on
    rungs = ladder(45)
    # a blunder of a bot sits between random and that bot (rate 1 is random,
    # rate 0 the bot); the Beginner is a blunder of the Casual bot
    order = []
    for level in LEVELS:
        bot = make_bot(level.bot)
        if level.bot.startswith("blunder"):
            assert 0 < bot.rate < 1
            order.append(rungs.index(bot.base.name) - 0.5)
        else:
            order.append(rungs.index(level.bot))
    assert order == sorted(order) and len(set(order)) == len(order)
    beginner, casual = (find_level(name) for name in ("Beginner", "Casual"))
    assert make_bot(beginner.bot).base.name == casual.bot
    assert LEVELS[-1].bot == "search" == DEFAULT
    assert DEFAULT_LEVEL == LEVELS[-1].name


def test_the_beginner_s_description_says_its_rate() -> None:
    beginner = make_bot(find_level("Beginner").bot)
    assert f"{beginner.rate:.0%}" in find_level("Beginner").description
    assert "Casual" in find_level("Beginner").description


def test_a_level_is_found_by_its_name_in_any_case() -> None:
    for level in LEVELS:
        assert find_level(level.name) is level
        assert find_level(level.name.upper()) is level
        assert find_level(f" {level.name.lower()} ") is level
        assert level_of(level.bot) == level.name
    assert [find_level(old).bot for old in ("easy", "medium", "hard")] == [
        "blunder", "heuristic", "search"]
    assert level_of("search:iterations=20") is None and level_of("human") is None


@pytest.mark.parametrize("name", ["master", "", "search", "Expert2"])
def test_a_bad_level_names_every_level_in_one_line(name: str) -> None:
    with pytest.raises(LevelError) as err:
        find_level(name)
    message = str(err.value)
    assert "\n" not in message and repr(name) in message
    assert message.endswith("one of " + ", ".join(level.name for level in LEVELS))


# ------------------------------------------------------------------ bones bots


def test_bones_bots_lists_the_levels_before_the_algorithms() -> None:
    r = runner.invoke(app, ["bots"], env={"NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("Levels, weakest first (bones play --level NAME")
    for k, level in enumerate(LEVELS, start=1):
        assert lines[k].split()[:2] == [level.name, level.bot + ":"]
        assert lines[k].endswith(level.description)
    assert lines[len(LEVELS) + 1].startswith("Bots by algorithm")
    assert lines[len(LEVELS) + 2].startswith("random: ")
    assert any(line.startswith("search: ") for line in lines)


def test_bones_bots_json_has_the_levels_first() -> None:
    r = runner.invoke(app, ["bots", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert [(row["name"], row["kind"], row["bot"]) for row in rows[:len(LEVELS)]] == [
        (level.name, "level", level.bot) for level in LEVELS]
    assert rows[len(LEVELS)]["name"] == "random" and rows[len(LEVELS)]["kind"] == "builtin"


# ------------------------------------------------------------------ the ladder


def _row(variant: str, above: str, elo: float, elo_lo: float) -> dict[str, object]:
    return {"variant": variant, "above": above, "elo": elo, "elo_lo": elo_lo}


def test_the_check_finds_every_level_short_of_the_spacing() -> None:
    from bench.strength import MIN_ELO, short

    rows = [_row("all-fives", "greedy", 400.0, 300.0), _row("all-fives", "search", 170.0, 100.0),
            _row("block-2p", "greedy", 149.9, 80.0), _row("block-2p", "search", math.inf, 160.0),
            _row("sniff", "search", -20.0, -90.0)]
    assert MIN_ELO == 150
    assert [(r["variant"], r["above"]) for r in short(rows)] == [("block-2p", "greedy"),
                                                                  ("sniff", "search")]
    # --strict: by the lower end of the interval
    assert [(r["variant"], r["above"]) for r in short(rows, strict=True)] == [
        ("all-fives", "search"), ("block-2p", "greedy"), ("sniff", "search")]
    assert short(rows, min_elo=-50.0) == []


def test_a_short_rung_beyond_the_games_span_is_named_not_failed() -> None:
    """A short rung is "beyond the span" only when the lowest level's
    measured span to its level, or to the level above, is under that many
    rungs of 150: levels 1 to j cannot all be 150 apart whatever sits
    between.  Elsewhere it fails --check."""
    from bench.strength import beyond_span, short, spans_needed

    bots = ["random", "blunder", "heuristic", "search"]

    def row(variant: str, below: str, above: str, e: float) -> dict[str, object]:
        return {"variant": variant, "below": below, "above": above, "elo": e, "elo_lo": e - 50}

    rows = [row("block-2p", "random", "blunder", 50.0), row("block-2p", "blunder", "heuristic", 40.0),
            row("block-2p", "heuristic", "search", 45.0),
            row("bergen", "random", "blunder", 190.0), row("bergen", "blunder", "heuristic", 180.0),
            row("bergen", "heuristic", "search", 143.0),
            row("sniff", "random", "blunder", 120.0), row("sniff", "blunder", "heuristic", 400.0),
            row("sniff", "heuristic", "search", 300.0)]
    failed = short(rows)
    # block-2p's three rungs need the spans to Casual (2) and Expert (3);
    # Bergen's top rung the span to Expert; Sniff's lowest the span to Casual
    assert spans_needed(rows, failed, bots) == {"block-2p": [2, 3], "bergen": [3], "sniff": [2]}
    spans = [row("block-2p", "random", "heuristic", 85.0), row("block-2p", "random", "search", 151.0),
             row("bergen", "random", "search", 600.0), row("sniff", "random", "heuristic", 520.0)]
    beyond = beyond_span(rows, failed, spans, bots)
    # block-2p: 85 < 2 x 150 and 151 < 3 x 150; Bergen's span holds 4 levels,
    # so its top rung is short, not beyond; Sniff's Beginner is misplaced
    assert [(r["variant"], r["above"]) for r in beyond] == [
        ("block-2p", "blunder"), ("block-2p", "heuristic"), ("block-2p", "search")]
    # a span not measured never excuses a rung
    assert beyond_span(rows, failed, [], bots) == []


def test_the_elo_of_a_win_rate() -> None:
    from bench.strength import elo

    assert elo(0.5) == 0.0
    assert elo(0.7035) == pytest.approx(150.0, abs=0.5)  # 150 Elo: a 70.35% win rate
    assert elo(0.25) == pytest.approx(-elo(0.75))
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_a_rungs_figures_come_from_the_paired_report() -> None:
    from bench.strength import paired

    report = {"duplicate": {"deals": 100, "games": 200, "decided": 190, "bots": [
        {"bot": "greedy", "wins": 57}, {"bot": "heuristic", "wins": 133}]}}
    got = paired(report, "heuristic")
    assert (got["deals"], got["matches"], got["decided"], got["wins"]) == (100, 200, 190, 133)
    assert got["value"] == pytest.approx(0.7)
    assert got["lo"] == pytest.approx(0.6316, abs=1e-3) and got["hi"] == pytest.approx(0.7597, abs=1e-3)
    assert got["elo"] == pytest.approx(147.2, abs=0.1)
    assert got["elo_lo"] < got["elo"] < got["elo_hi"]


@pytest.mark.parametrize("args, message", [
    (["--peers"], "--peers needs --tournament"),
    (["--tournament", "--check"], "--check, --players and --hands are for the levels' ladder"),
    (["-n", "0"], "-n must be at least 1"),
    (["--min-elo", "lots"], "invalid float value"),
])
def test_the_ladders_bad_arguments(args: list[str], message: str, capsys) -> None:
    from bench import strength

    with pytest.raises(SystemExit) as done:
        strength.main(args)
    assert done.value.code == 2 and message in capsys.readouterr().err


# once: the ladder's rows, commands and exit code are bench/strength.py's; the
# games are `bones simulate --duplicate` processes, which play the same on
# either core (test_differential_sim); in the Python-core pass the search's
# two matches of All Fives took most of two minutes of CPU
@pytest.mark.once
def test_a_two_match_ladder_plays_each_level_against_the_one_below(capsys, tmp_path) -> None:
    from bench import strength

    out = tmp_path / "ladder.json"
    code = strength.main(["--variants", "all-fives", "-n", "2", "--seed", "5", "--check",
                          "--json", "--out", str(out)])
    data = json.loads(out.read_text())
    rows = data["pairings"]
    assert [(r["below"], r["above"]) for r in rows] == [
        (below.bot, above.bot) for below, above in zip(LEVELS, LEVELS[1:])]
    for r in rows:
        # one deal from both seatings: two matches, each bot in each seat once
        assert r["variant"] == "all-fives" and (r["deals"], r["matches"]) == (1, 2)
        assert r["command"] == (f"bones simulate all-fives --bots {r['below']},{r['above']} -n 1 "
                                "--duplicate --seed 5 --jobs 1 --json -q")
        assert 0 <= r["wins"] <= r["decided"] <= 2 and r["lo"] <= r["value"] <= r["hi"]
    assert data["levels"] == [[level.name, level.bot] for level in LEVELS]
    # --check exits 1 exactly when some level is short of 150 Elo where the
    # span from the lowest level (measured for the short rungs) could hold it
    assert data["short"] == [[r["variant"], r["above"]] for r in rows if not r["elo"] >= 150]
    for span in data["spans"]:
        assert span["below"] == LEVELS[0].bot and span["above"] in [lv.bot for lv in LEVELS[2:]]
    assert all(pair in data["short"] for pair in data["beyond_span"])
    assert code == (1 if len(data["short"]) > len(data["beyond_span"]) else 0)
    # the same seed, the same games, in the table's text
    assert strength.main(["--variants", "all-fives", "-n", "2", "--seed", "5",
                          "--bots", f"{LEVELS[0].bot},{LEVELS[1].bot}"]) == 0
    text = capsys.readouterr().out
    first = rows[0]
    assert (f"| all-fives | {LEVELS[1].name} (`{first['above']}`) | {LEVELS[0].name} "
            f"(`{first['below']}`) | {first['wins']} / {first['decided']} (2) |") in text
    assert (f"bones simulate all-fives --bots {LEVELS[0].bot},{LEVELS[1].bot} -n 1 --duplicate "
            "--seed 5") in text
