"""`bones replay FILE`: replay a game record exactly, hand by hand."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from bones.cli.options import EXIT_USAGE, fail, missing_file


def register(app: typer.Typer) -> None:
    app.command(
        "replay",
        help="Replay a game record exactly, hand by hand, checking every move, "
        "settlement and score against the rules embedded in the record.  FILE must be a "
        "regular file of at most 4 MiB of JSON (a record written by bones, or a save of "
        "bones play).\n\n"
        "Exit codes: 0 the record replays; 1 the file is not a readable record, or a "
        "move is illegal or a recorded result differs; 2 usage error.",
    )(replay_command)


def replay_command(
    file: Path = typer.Argument(..., help="A record written by bones (JSON).", metavar="FILE"),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="Print every move with the count and points."),
    json_out: bool = typer.Option(False, "--json", help="Print the replay as JSON: every "
                                  "hand with its moves, counts, points, end, settlement and "
                                  "scores, and the result."),
) -> None:
    from bones.games.record import RecordError, load_record, replay

    problem = missing_file(str(file))
    if problem is not None:
        fail("replay", problem, EXIT_USAGE)
    try:
        record = load_record(file)
        result = replay(record)
    except RecordError as err:
        message = str(err)
        if not message.startswith(str(file)):
            message = f"{file}: {message}"
        typer.echo(f"bones replay: {message}", err=True)
        raise typer.Exit(1) from None

    if json_out:
        typer.echo(json.dumps(_as_json(file, record, result), indent=2))
        return
    rules = result.rules
    side = "team" if rules.teams else "seat"
    table = f"{rules.players} players" + (" in two teams" if rules.teams else "")
    seed = f", seed {record.seed}" if record.seed is not None else ""
    typer.echo(f"{file}: {rules.name}, {table}{seed}, recorded by bones {record.engine}")
    names = _names(record, rules.players)
    if any(names):
        typer.echo("seats: " + ", ".join(f"{k} {n}" for k, n in enumerate(names) if n))
    for hand in result.hands:
        if verbose:
            typer.echo(f"hand {hand.number}: seat {hand.leader} leads")
            for i, step in enumerate(hand.moves, 1):
                points = f"  +{step.points}" if step.points else ""
                typer.echo(f"  {i:3}. seat {step.seat}  {step.notation:<7} count {step.count}{points}")
        typer.echo(_hand_line(hand))
    if result.finished:
        outcome = f"{side} {result.winner} wins" if result.winner is not None else "a draw"
    else:
        outcome = "unfinished"
    typer.echo(f"result: {outcome}, scores {_scores(result.scores)}")


def _as_json(file: Path, record, result) -> dict:  # type: ignore[no-untyped-def,type-arg]
    rules = result.rules
    return {
        "file": str(file),
        "variant": rules.name,
        "players": rules.players,
        "teams": rules.teams,
        "seed": record.seed,
        "engine": record.engine,
        "names": _names(record, rules.players),
        "hands": [{
            "number": hand.number,
            "leader": hand.leader,
            "moves": [{"seat": m.seat, "move": m.notation, "count": m.count, "points": m.points}
                      for m in hand.moves],
            "end": hand.end,
            "domino_seat": hand.domino_seat if hand.domino_seat >= 0 else None,
            "settlement": hand.settlement,
            "scores": hand.scores,
        } for hand in result.hands],
        "result": {"finished": result.finished, "winner": result.winner,
                   "scores": result.scores},
    }


def _names(record, players: int) -> list[str | None]:  # type: ignore[no-untyped-def]
    """The names people chose for their seats in the browser (`bones serve`), if any
    (read when the record was: a corrupt ``meta.play`` never gets this far)."""
    from bones.games.playmeta import read_play

    play = read_play(record.meta, players)
    return list(play.names) if play is not None else [None] * players


def _scores(values: list[int]) -> str:
    return " ".join(str(v) for v in values)


def _hand_line(hand) -> str:  # type: ignore[no-untyped-def]
    from bones.engine.moves import Outcome

    moves = f"{len(hand.moves)} move{'s' if len(hand.moves) != 1 else ''}"
    if hand.end is None:
        how = "interrupted"
    elif hand.end == Outcome.DOMINO.label:
        how = f"domino by seat {hand.domino_seat}"
    elif hand.end == Outcome.TARGET.label:
        how = "target reached mid-hand"
    else:
        how = "blocked"
    settle = f", settlement {_scores(hand.settlement)}" if hand.settlement is not None else ""
    return (f"hand {hand.number}: seat {hand.leader} leads, {moves}, {how}{settle}, "
            f"scores {_scores(hand.scores)}")
