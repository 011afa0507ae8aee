"""The bridges to outside opponents (bench/versus_*.py) play whole games in
step with the peer: short deals with small budgets, both sides of each deal.

Each bridge checks every move itself (legal in both games, the same mover,
the same legal moves, the same end and points) and raises ``OutOfStep``
otherwise; these tests run it, check the pair is the same deal with the
sides swapped, that a game replays identically from its seed, and that the
command writes its report.
"""

from __future__ import annotations

import json

import pytest

from bench.versus import Game, pairs_of, summarise


def _untimed(g: Game) -> tuple:
    return (g.deal, g.bones_side, g.outcome, g.points, g.moves, len(g.bones_ms), len(g.peer_ms))


def test_the_summary_counts_games_pairs_and_ties() -> None:
    games = [Game(1, 0, 1, 10, 20, [5.0]), Game(1, 1, 1, 4, 20, [7.0]),
             Game(2, 0, 0, 0, 20), Game(2, 1, -1, -8, 20, [], [9.0])]
    s = summarise(games)
    assert (s["wins"], s["ties"], s["losses"], s["pairs"]) == (2, 1, 1, 2)
    assert s["win_rate_decided"]["rate"] == pytest.approx(66.7)
    assert s["win_rate_all"]["rate"] == 50.0
    assert s["pairs_won_both"] == 1 and s["pairs_lost_both"] == 0
    assert s["bones_time"]["median_ms"] == 6.0 and s["peer_time"]["decisions"] == 1
    assert pairs_of(2, 7) == [(7, 0), (7, 1), (8, 0), (8, 1)]


def test_the_dominoes_bridge_plays_in_step() -> None:
    pytest.importorskip("dominoes")
    from bench import versus_dominoes as vd

    setup = vd.Setup(bot="search:iterations=10", start_move=14, sample_size=2)
    for deal in (1, 2):
        games = [vd.play(deal, team, setup) for team in (0, 1)]
        for team, g in enumerate(games):
            assert g.bones_side == team and g.moves >= 16  # 28 tiles: at least 4 plays a seat
            assert g.outcome == (g.points > 0) - (g.points < 0)
            assert g.bones_ms  # bones' bot chose at least once
        assert _untimed(vd.play(deal, 0, setup)) == _untimed(games[0])  # reproducible


def test_the_dominoes_bridge_catches_a_game_out_of_step(monkeypatch) -> None:
    dominoes = pytest.importorskip("dominoes")
    from bench import versus_dominoes as vd

    real = dominoes.Game.make_move

    def skew(game, d, left):
        # the package plays the other end whenever both are possible
        if len(game.board) > 1 and game.board.left_end() != game.board.right_end() \
                and (d, not left) in game.valid_moves:
            left = not left
        return real(game, d, left)

    monkeypatch.setattr(dominoes.Game, "make_move", skew)
    with pytest.raises(vd.OutOfStep):
        for deal in range(1, 6):
            vd.play(deal, 0, vd.Setup(bot="search:iterations=5", start_move=99, sample_size=1))


def test_the_openspiel_bridge_plays_in_step() -> None:
    pytest.importorskip("pyspiel")
    from bench import versus_openspiel as vo

    setup = vo.Setup(bot="search:iterations=10", simulations=30)
    first = [vo.play(3, seat, setup) for seat in (0, 1)]
    for seat, g in enumerate(first):
        assert g.bones_side == seat and g.moves >= 7  # the leader plays at least once a tile
        assert g.outcome == (g.points > 0) - (g.points < 0)
    assert _untimed(vo.play(3, 1, setup)) == _untimed(first[1])  # the deal and ISMCTS are seeded


@pytest.mark.parametrize("bridge", ["versus_dominoes", "versus_openspiel"])
def test_the_commands_report(bridge, tmp_path, capsys) -> None:
    pytest.importorskip("dominoes" if bridge == "versus_dominoes" else "pyspiel")
    import importlib

    module = importlib.import_module(f"bench.{bridge}")
    extra = ["--start-move", "14", "--sample-size", "1"] if bridge == "versus_dominoes" \
        else ["--simulations", "20"]
    out = tmp_path / "r.json"
    assert module.main(["--deals", "1", "--bot", "search:iterations=5", "--quiet",
                        "--json", str(out), *extra]) == 0
    text = capsys.readouterr().out
    assert "1 paired deals, 2 games: bones search:iterations=5" in text
    body = json.loads(out.read_text())
    assert body["summary"]["games"] == 2 and len(body["games"]) == 2
    assert {g["bones_side"] for g in body["games"]} == {0, 1}


def test_the_tuned_peer_backs_up_values_in_minus_one_to_one() -> None:
    """``--rewards sign`` and ``scaled`` rescale what ISMCTS backs up, from
    its rollouts and from the terminal states its tree reaches."""
    pytest.importorskip("pyspiel")
    from bench import versus_openspiel as vo

    game = vo.load("block-2p")
    total = sum(game.rules.tiles.pips)
    assert list(vo._rescaler(game, "sign")([12.0, -12.0])) == [1.0, -1.0]
    assert list(vo._rescaler(game, "scaled")([12.0, -12.0])) == [12 / total, -12 / total]
    assert vo._rescaler(game, "points")([12.0, -12.0]) == [12.0, -12.0]
    seen: list[float] = []
    bot = vo.ismcts_bot(game, 30, 5, rewards="sign")
    state = game.new_initial_state()
    import numpy as np

    chance = np.random.RandomState(1)
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(int(outcomes[chance.randint(len(outcomes))]))
    original = bot._evaluator.evaluate

    def evaluate(s):
        values = original(s)
        seen.extend(values)
        return values

    bot._evaluator.evaluate = evaluate
    assert bot.step(state) in state.legal_actions()
    assert seen and all(v in (-1.0, 0.0, 1.0) for v in seen)
