"""VectorGame for self-play at scale: both players' rewards, margins,
final observations on auto-reset, observations from the mover's side, and
the Gymnasium vector form, each checked against single Games."""

import numpy as np
import pytest

import hoyito
from hoyito import Game


def mover_view(g: Game) -> np.ndarray:
    """The observation of `g` from the player to move, built in Python."""
    obs = g.observation()
    n = g.holes
    if g.to_move() != "north":  # South, or None once over: as it is
        return obs
    out = obs.copy()
    board, closed = obs[: 2 * n], obs[2 * n : 4 * n]
    out[: 2 * n] = np.concatenate([board[n:], board[:n]])
    out[2 * n : 4 * n] = np.concatenate([closed[n:], closed[:n]])
    out[4 * n], out[4 * n + 1] = obs[4 * n + 1], obs[4 * n]
    return out


@pytest.mark.parametrize("n", [8, 1100])  # one thread, and chunks over the cores
@pytest.mark.parametrize("reward", ["seeds", "margin", "win_loss"])
def test_rewards_final_observations_and_perspective_match_single_games(n, reward):
    v = hoyito.VectorGame(n, reward=reward, perspective="mover", variant="II", holes=4)
    assert v.perspective == "mover"
    obs, mask = v.reset()
    watched = [0, 1, n - 1]
    mirrors = {i: Game("II", 4) for i in watched}
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(150):
        acts = (mask * rng.random(mask.shape)).argmax(axis=1)
        before = {i: g.captured for i, g in mirrors.items()}
        movers = {i: g.to_move() for i, g in mirrors.items()}
        for i, g in mirrors.items():
            g.play_action(int(acts[i]))
        obs, r, done, mask = v.step(acts)
        both = v.last_rewards()
        finals = v.final_observations()
        for i, g in mirrors.items():
            gs, gn = g.captured[0] - before[i][0], g.captured[1] - before[i][1]
            want = {
                "seeds": (gs, gn),
                "margin": (gs - gn, gn - gs),
                "win_loss": {None: (0, 0), "south": (1, -1), "north": (-1, 1), "draw": (0, 0)}[g.winner()],
            }[reward]
            assert tuple(both[i]) == want
            assert r[i] == want[0 if movers[i] == "south" else 1]
            if g.is_over():
                assert done[i]
                np.testing.assert_array_equal(finals[i], mover_view(g))
                mirrors[i] = Game("II", 4)
                ended += 1
            else:
                assert not done[i] and not finals[i].any()
            np.testing.assert_array_equal(obs[i], mover_view(mirrors[i]))
    assert ended > 0


def test_game_observation_from_the_mover():
    g = Game(holes=4)
    np.testing.assert_array_equal(g.observation("mover"), g.observation())
    g.play("1")
    assert g.to_move() == "north"
    np.testing.assert_array_equal(g.observation("mover"), mover_view(g))
    with pytest.raises(hoyito.HoyitoError, match='unknown perspective "north"'):
        g.observation("north")
    with pytest.raises(hoyito.HoyitoError, match="perspective"):
        hoyito.VectorGame(2, perspective="up")


def test_gymnasium_vector_env_for_self_play():
    pytest.importorskip("gymnasium")
    from hoyito.gymnasium import HoyitoVectorEnv

    env = HoyitoVectorEnv(6, reward="margin", variant="II", holes=4)
    assert env.single_action_space.n == hoyito.action_count(variant="II", holes=4)
    obs, info = env.reset(seed=0)
    assert obs.shape == (6, 19) and env.observation_space.contains(obs)
    twin = hoyito.VectorGame(6, reward="margin", perspective="mover", variant="II", holes=4)
    twin.reset()
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(120):
        mask = info["action_mask"]
        acts = (mask * rng.random(mask.shape)).argmax(axis=1)
        movers = twin.observations()[:, -1]
        obs, reward, term, trunc, info = env.step(acts)
        o2, r2, d2, m2 = twin.step(acts)
        np.testing.assert_array_equal(obs, o2)
        np.testing.assert_array_equal(reward, r2)
        np.testing.assert_array_equal(term, d2)
        np.testing.assert_array_equal(info["mover"], movers)
        np.testing.assert_array_equal(info["rewards"], twin.last_rewards())
        np.testing.assert_array_equal(info["final_obs"][info["_final_obs"]], twin.final_observations()[d2])
        assert not trunc.any() and env.observation_space.contains(obs)
        ended += int(term.sum())
    assert ended > 0
    with pytest.raises(TypeError, match="integers"):
        env.step(np.full(6, 0.5))


def test_the_self_play_example_trains_and_measures():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "selfplay_2x4.py"
    spec = importlib.util.spec_from_file_location("selfplay_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(["--iterations", "2", "--envs", "16", "--steps", "16", "--levels", "1", "--eval-games", "2"])
    assert sum(out["levels"][1].values()) == 2
    assert 0 <= out["optimal_share"] <= 1 and out["moves_probed"] > 0
