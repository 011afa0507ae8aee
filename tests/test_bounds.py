"""Numbers, counts, bot parameters and delays are range-checked where they
are read, with one line that gives the bound (issue 24, points 2, 8, 10, 13,
14): nothing reaches the native core to overflow, nothing is allocated in
proportion to a count, no saved bot hangs a resumed game.  The hostile
corpus (tests/corpus) holds the files; this file drives the command lines,
the library and the web endpoint."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.bots import BOT_LIMITS, MAX_DELAY, BotError, delay_problem, make_bot
from bones.bots.solve import MAX_NODES
from bones.cli.app import app
from bones.engine.bounds import GAMES_LIMIT, NUMBER_LIMIT, SEED_LIMIT, bound_message
from bones.games.record import RecordError, loads_record_json, parse_record
from bones.sim.simulation import batches

runner = CliRunner()
CORPUS = Path(__file__).resolve().parent / "corpus"
GOOD = (CORPUS / "records" / "good-save.json").read_text()


def run(args: list[str], answers: str = "q\n"):
    result = runner.invoke(app, args, input=answers, env={"NO_COLOR": "1", "COLUMNS": "200"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output
    return result


def test_the_bounds() -> None:
    assert SEED_LIMIT == 2**64 - 1 and NUMBER_LIMIT == 10**12 and GAMES_LIMIT == 10**9
    assert bound_message([1, [2, 10**13]]) == "too large at [1][1] (at most 1000000000000, got 10000000000000)"
    assert bound_message({"a": -(10**30)}) == ("too small at a (at least -1000000000000, got "
                                               "-1000000000000000000000000000000)")
    assert bound_message(10**50) == "too large (at most 1000000000000, got a number of 51 digits)"
    assert bound_message([True, 10**12, -(10**12)]) is None


# ------------------------------------------------ integers beyond 64 bits


@pytest.mark.parametrize("command", [
    ["simulate", "huge-target.yaml", "-n", "1", "--seed", "1", "-q"],
    ["compare", "huge-target.yaml", "all-fives", "-n", "1", "--seed", "1", "-q"],
    ["tournament", "huge-target.yaml", "--bots", "random,greedy", "-n", "1", "--seed", "1", "-q"],
])
def test_a_variant_number_beyond_the_bound_is_one_line_in_every_command(
        command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # it passed `bones validate`, then overflowed in the native core
    monkeypatch.chdir(CORPUS / "variants")
    result = run(command)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"bones {command[0]}: huge-target.yaml:5:11: match.points: too large "
        "(at most 1000000000000, got 100000000000000000000000)"]


def test_a_variant_built_in_python_is_bounded_too() -> None:
    from pydantic import ValidationError

    from bones.lang.load import load_variant
    from bones.lang.spec import Variant

    data = load_variant("all-fives").model_dump()
    data["match"]["points"] = 2**63
    with pytest.raises(ValidationError, match="at most 1000000000000"):
        Variant.model_validate(data)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("seed", 2**64, "seed: too large (at most 18446744073709551615, got 18446744073709551616)"),
    ("start_scores", [2**63, 0],
     "start_scores: too large at [0] (at most 1000000000000, got 9223372036854775808)"),
])
def test_a_record_number_beyond_the_bound_is_named(field: str, value: object, message: str) -> None:
    data = json.loads(GOOD)
    data[field] = value
    with pytest.raises(RecordError) as err:
        parse_record(data, "game.json")
    assert str(err.value) == f"game.json: {message}"


# --------------------------------------------------------------- counts


@pytest.mark.parametrize("args", [
    ["simulate", "sniff", "-n", "99999999999999999999999999"],
    ["simulate", "sniff", "--hands", str(GAMES_LIMIT + 1)],
    ["compare", "sniff", "all-fives", "-n", str(10**30)],
    ["tournament", "sniff", "--bots", "random,greedy", "-n", str(10**30)],
])
def test_a_huge_count_is_a_usage_error_at_once(args: list[str]) -> None:
    result = run(args)
    assert result.exit_code == 2
    assert f"x<={GAMES_LIMIT}" in result.stderr  # the bound, in Click's usage error


@pytest.mark.parametrize("seed", [str(2**64), str(-(2**64)), "9" * 30])
def test_a_seed_beyond_64_bits_is_a_usage_error(seed: str) -> None:
    result = run(["simulate", "sniff", "-n", "1", "--seed", seed])
    assert result.exit_code == 2 and "--seed" in result.stderr


def test_batches_are_made_as_they_are_played() -> None:
    # a list of every batch was built before the first game: 10**9 games, 5 million tuples
    todo = batches(10**18, 1)
    assert next(todo) == (0, 1) and next(todo) == (1, 2)


# ------------------------------------------------ bots and delays


def test_one_set_of_bot_limits_for_every_front_end() -> None:
    assert BOT_LIMITS == {"random": {}, "greedy": {}, "heuristic": {},
                          "pimc": {"iterations": 2000, "rollouts": 8, "seconds": 5.0},
                          "search": {"iterations": 2000, "rollouts": 8, "seconds": 5.0,
                                     "solve": 16, "infer": 10.0, "idraw": 1, "threads": 64,
                                     "tree": 100,
                                     "scale": 1000.0, "nodes": MAX_NODES, "explore": 10.0,
                                     "tinfer": 10.0, "tworlds": 2000, "prior": 10.0},
                          "ismcts": {"iterations": 20000, "seconds": 5.0, "explore": 10.0,
                                     "scale": 1000.0, "solve": 16, "infer": 10.0,
                                     "worlds": 2000, "depth": 100, "nodes": MAX_NODES,
                                     "threads": 64, "prior": 10.0},
                          "epimc": {"iterations": 2000, "solve": 16, "infer": 10.0,
                                    "nodes": MAX_NODES},
                          "blunder": {"rate": 1.0}}
    assert MAX_NODES == 10_000_000
    import bones.web.games as web_games

    assert not hasattr(web_games, "BOT_LIMITS")  # the server reads the library's table


@pytest.mark.parametrize(("text", "message"), [
    ("search:seconds=nan", "search: seconds must be a finite number, not 'nan'"),
    ("search:seconds=inf", "search: seconds must be a finite number, not 'inf'"),
    ("search:rollouts=" + str(10**23), "search: rollouts may be at most 8, not 100000000000000000000000"),
    ("search:seconds=100000", "search: seconds may be at most 5, not 100000"),
    ("search:iterations=100000000", "search: iterations may be at most 2000, not 100000000"),
    ("search:iterations=" + "9" * 5000, "search: iterations must be a whole number, not "
                                        "'99999999999999999999...'"),
])
def test_out_of_range_bot_parameters_are_refused(text: str, message: str) -> None:
    with pytest.raises(BotError) as err:
        make_bot(text)
    assert str(err.value) == message


def test_bots_at_their_limits_are_made() -> None:
    assert make_bot("search:iterations=2000:rollouts=8:seconds=5").name == \
        "search:iterations=2000:rollouts=8:seconds=5"


@pytest.mark.parametrize("args", [
    ["simulate", "sniff", "-n", "1", "--bots", "search:rollouts=" + str(10**23)],
    ["play", "sniff", "--bots", "search:seconds=nan"],
    ["play", "sniff", "--delay", "1e308"],
    ["play", "sniff", "--delay", "nan"],
    ["play", "sniff", "--delay", "-1"],
    ["serve", "--pace", "nan"],
    ["serve", "--pace", "11"],
])
def test_out_of_range_bots_and_delays_on_the_command_line(args: list[str]) -> None:
    result = run(args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"bones {args[0]}: "), result.stderr


def test_delays() -> None:
    assert delay_problem(0.0, "--delay") is None and delay_problem(MAX_DELAY, "--pace") is None
    assert delay_problem(math.nan, "--pace") == "--pace must be from 0 to 10 seconds, not nan"


# ------------------------------------------------------- records read


@pytest.mark.parametrize(("text", "problem"), [
    ("\ufeff" + GOOD.replace('"seed": 7,', '"seed": NaN,'),
     "not a bones record (a number is NaN or infinite, which JSON does not allow)"),
    (GOOD.replace('"seed": 7,', '"seed": 1e400,'),
     "not a bones record (a number is NaN or infinite, which JSON does not allow)"),
    (GOOD.replace('"seed": 7,', '"seed": 7, "seed": 8,'),
     "not a bones record (the key 'seed' is written twice in one object)"),
    (GOOD.replace('"seed": 7,', '"seed": ' + "9" * 5000 + ","),
     "not a bones record (a number has thousands of digits)"),
    (GOOD.replace('"engine": "', '"engine": "\\u0000'),
     "not a bones record (a string holds a control character, which no record has)"),
])
def test_a_damaged_record_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(RecordError) as err:
        parse_record(loads_record_json(text, "r.json"), "r.json")
    assert str(err.value) == f"r.json: {problem}"


def test_a_bom_before_a_good_record_is_read() -> None:
    assert parse_record(loads_record_json("\ufeff" + GOOD, "r.json"), "r.json").seed == 7


@pytest.mark.parametrize(("text", "words"), [
    (GOOD.replace('"seed": 7,', '"seed": ' + "9" * 5000 + ","), "thousands of digits"),
    (GOOD.replace('"seed": 7,', '"seed": ' + str(2**64) + ","), "at most 18446744073709551615"),
    (GOOD.replace('"seed": 7,', '"seed": 7, "seed": 8,'), "'seed' is written twice"),
    (GOOD.replace('"seed": 7,', '"seed": NaN,'), "NaN or infinite"),
    (GOOD.replace('"engine": "', '"engine": "\\u0000'), "control character"),
    ("\ufeff" + GOOD[:300], "not valid JSON"),
])
def test_the_replay_endpoint_says_what_is_wrong(text: str, words: str, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from bones.web.app import ServeConfig, create_app

    app = create_app(ServeConfig(saves=tmp_path, pace=0.0, processes=False))
    with TestClient(app, base_url="http://localhost") as client:
        r = client.post("/api/replay", json={"record": text}, headers={"Origin": "http://localhost"})
    assert r.status_code == 422, r.text
    assert words in r.json()["error"] and "\n" not in r.json()["error"]
