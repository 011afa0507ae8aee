"""``render()`` draws one seat's view by default, what that seat may see: a
default render never shows a tile of another seat's hand or of the boneyard
(checked at every step of whole episodes in the Gymnasium, PettingZoo and
vector environments), while ``render_all=True`` shows every hand; the
vector environment draws a chosen table exactly as the scalar environment
playing the same episode draws it."""

from __future__ import annotations

import re

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from bones.adapters import gymnasium as gym_adapter  # noqa: E402
from bones.adapters import pettingzoo as pz_adapter  # noqa: E402
from bones.engine import core  # noqa: E402
from bones.engine.rules import Rules  # noqa: E402

native_vector = pytest.mark.skipif(
    core.native() is None or not hasattr(core.native(), "VectorCore"),
    reason="the vector environment needs the native core")

#: (variant, players): drawing, a sniff, every double a spinner, partners,
#: a block game
TABLES = [("all-fives", 2), ("sniff", 3), ("muggins", 3), ("five-up", 2), ("partners", 4),
          ("block-2p", 2)]


def _shown(rules: Rules, text: str) -> set[int]:
    """The tiles a render names: in the layout ``[a|b]``, in a hand ``a-b``."""
    ts = rules.tiles
    index = {(min(ts.low[t], ts.high[t]), max(ts.low[t], ts.high[t])): t for t in range(ts.size)}
    pairs = re.findall(r"\[(\d+)\|(\d+)\]", text) + re.findall(r"\b(\d+)-(\d+)\b", text)
    return {index[min(int(a), int(b)), max(int(a), int(b))] for a, b in pairs}


def _tiles(rules: Rules, mask: int) -> set[int]:
    return {t for t in range(rules.tiles.size) if mask >> t & 1}


def _check_view(rules: Rules, text: str, seat: int, hands: list[int], on_table: int) -> None:
    """``text`` is ``seat``'s view: its own tiles and the table's, nothing else."""
    shown = _shown(rules, text)
    own = _tiles(rules, hands[seat])
    hidden = _tiles(rules, (1 << rules.tiles.size) - 1) - own - _tiles(rules, on_table)
    assert not shown & hidden, f"seat {seat} is shown hidden tiles {sorted(shown & hidden)}"
    assert own <= shown
    assert f"seat {seat} holds:" in text
    assert all(f"seat {s} holds:" not in text for s in range(rules.players) if s != seat)


@pytest.mark.parametrize("variant, players", TABLES)
def test_gymnasium_renders_the_seats_view(variant: str, players: int) -> None:
    env = gym_adapter.env(variant, seat="random", opponents="random", players=players,
                          render_mode="ansi")
    full = gym_adapter.env(variant, seat="random", opponents="random", players=players,
                           render_mode="ansi", render_all=True)
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=2)
    full.reset(seed=2)
    for _ in range(4):
        done = False
        while not done:
            hand = env.game.hand
            _check_view(env.rules, env.render(), env.seat, list(hand.hands), hand.on_table)
            everything = full.render()
            assert all(f"seat {s} holds:" in everything for s in range(players))
            assert _shown(env.rules, everything) >= _tiles(env.rules, sum(hand.hands))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, done, _, info = env.step(action)
            full.step(action)
        hand = env.game.hand
        _check_view(env.rules, env.render(), env.seat, list(hand.hands), hand.on_table)
        _, info = env.reset()
        full.reset()


@pytest.mark.parametrize("variant, players", TABLES)
def test_pettingzoo_renders_the_view_of_the_agent_to_move(variant: str, players: int) -> None:
    env = pz_adapter.env(variant, players, render_mode="ansi")
    full = pz_adapter.env(variant, players, render_mode="ansi", render_all=True)
    rng = np.random.default_rng(2)
    for seed in range(2):
        env.reset(seed=seed)
        full.reset(seed=seed)
        for agent in env.agent_iter():
            game = env.unwrapped.game
            seat = env.unwrapped.agent_name_mapping[agent]
            _check_view(env.unwrapped.rules, env.render(), seat, list(game.hand.hands),
                        game.hand.on_table)
            everything = full.render()
            assert all(f"seat {s} holds:" in everything for s in range(players))
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(
                rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            full.step(action)


@native_vector
@pytest.mark.parametrize("seat", [0, "random", "all"])
@pytest.mark.parametrize("variant, players", TABLES)
def test_vector_renders_the_observed_seats_view(variant: str, players: int,
                                                seat: int | str) -> None:
    """Each table's render is the view of the seat it observes: the tiles it
    names are those the observation says the seat holds or sees played."""
    from bones.adapters.vector import BonesVectorEnv

    env = BonesVectorEnv(variant, num_envs=3, seat=seat, opponents="random", players=players,
                         render_mode="ansi")
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=4)
    for _ in range(50):
        texts = env.render()
        assert isinstance(texts, tuple) and len(texts) == 3
        for i, text in enumerate(texts):
            assert env.render_table(i) == text
            me = int(info["seat"][i])
            own = np.flatnonzero(env.encoding.block(obs[i], "own"))
            played = np.flatnonzero(env.encoding.block(obs[i], "played"))
            hands = [0] * players
            hands[me] = sum(1 << int(t) for t in own)
            _check_view(env.rules, text, me, hands, sum(1 << int(t) for t in played))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, _, _, _, info = env.step(actions)


@native_vector
@pytest.mark.parametrize("variant, players, episode", [
    ("sniff", 3, "hand"), ("muggins", 3, "hand"), ("five-up", 2, "hand"),
    ("all-fives", 2, "match"), ("partners", 4, "hand")])
def test_a_vector_table_is_drawn_as_the_scalar_environment_draws_it(
        variant: str, players: int, episode: str) -> None:
    """Table i plays the scalar environment's episodes for seed S + i; its
    render, the seat's view and the whole table, is the scalar render."""
    from bones.adapters.vector import BonesVectorEnv

    n, seed = 2, 9
    kwargs = {"seat": "random", "opponents": "heuristic", "players": players,
              "episode": episode, "render_mode": "ansi"}
    views = BonesVectorEnv(variant, num_envs=n, **kwargs)
    wholes = BonesVectorEnv(variant, num_envs=n, render_all=True, **kwargs)
    scalars = [gym_adapter.env(variant, **kwargs) for _ in range(n)]
    full = [gym_adapter.env(variant, render_all=True, **kwargs) for _ in range(n)]
    _, info = views.reset(seed=seed)
    wholes.reset(seed=seed)
    for i in range(n):
        scalars[i].reset(seed=seed + i)
        full[i].reset(seed=seed + i)
    rng = np.random.default_rng(4)
    done = [False] * n
    ended = 0
    for _ in range(120):
        for i in range(n):
            assert views.render_table(i) == scalars[i].render()
            assert wholes.render_table(i) == full[i].render()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        _, _, term, _, info = views.step(actions)
        wholes.step(actions)
        for i in range(n):
            for e in (scalars[i], full[i]):
                if done[i]:
                    e.reset()
                else:
                    e.step(int(actions[i]))
        done = list(term)
        ended += int(term.sum())
    assert ended >= n


@native_vector
def test_recording_the_moves_changes_no_episode() -> None:
    from bones.adapters.vector import BonesVectorEnv

    plain = BonesVectorEnv("sniff", num_envs=4, opponents="heuristic")
    drawn = BonesVectorEnv("sniff", num_envs=4, opponents="heuristic", render_mode="ansi")
    a, b = plain.reset(seed=1), drawn.reset(seed=1)
    rng = np.random.default_rng(5)
    for _ in range(80):
        np.testing.assert_array_equal(a[0], b[0])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in a[1]["action_mask"]])
        a = plain.step(actions)[::4]
        b = drawn.step(actions)[::4]
    assert plain.render() is None and plain.render_table(0) is None
    with pytest.raises(ValueError, match="`table` must be between 0 and 3, got 4"):
        drawn.render_table(4)
    with pytest.raises(TypeError, match="`table` must be an integer"):
        drawn.render_table("0")
    with pytest.raises(ValueError, match="render_mode must be 'ansi' or None"):
        BonesVectorEnv("sniff", num_envs=1, render_mode="human")
