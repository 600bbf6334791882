"""The three environments pass their libraries' checkers, and play real games."""

import importlib.util
import pickle
from pathlib import Path

import numpy as np
import pytest

import hoyito

RULE_SETS = [
    {"variant": "I"},
    {"variant": "II"},
    {"variant": "III", "holes": 4},
    {"variant": "II", "direction": "per_move", "two_hole_opening": True, "holes": 5},
    {"variant": "I", "direction": "per_player", "capture_side": "opponent", "skip_origin": True},
]


# ----- PettingZoo ------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("reward", ["seeds", "margin", "win_loss"])
def test_pettingzoo_api_test(rules, reward):
    from pettingzoo.test import api_test

    from hoyito.pettingzoo import env

    api_test(env(reward=reward, **rules), num_cycles=300)


def test_pettingzoo_seed_and_render_tests():
    from pettingzoo.test import render_test, seed_test

    from hoyito.pettingzoo import env

    seed_test(lambda render_mode=None: env(render_mode=render_mode, variant="II"), num_cycles=200)
    render_test(lambda render_mode=None: env(render_mode=render_mode, variant="II"))


def test_pettingzoo_rewards_and_extra_turns_follow_the_game():
    from hoyito.pettingzoo import env

    e = env(variant="II")
    e.reset(seed=1)
    mirror = hoyito.Game("II")
    totals = {"south": 0.0, "north": 0.0}
    rng = np.random.default_rng(1)
    extra_turns = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert agent == mirror.to_move()
        np.testing.assert_array_equal(obs["observation"], mirror.observation())
        np.testing.assert_array_equal(obs["action_mask"], mirror.action_mask())
        other = "north" if agent == "south" else "south"
        assert not e.observe(other)["action_mask"].any()
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        mirror.play_action(a)
        extra_turns += mirror.to_move() == agent
        e.step(a)
    assert mirror.is_over()
    assert (totals["south"], totals["north"]) == tuple(float(x) for x in mirror.captured)
    assert extra_turns > 0


def test_pettingzoo_bad_input():
    from hoyito.pettingzoo import env

    with pytest.raises(hoyito.RulesError):
        env(holes=2)
    with pytest.raises(ValueError, match="reward"):
        env(reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="3d")
    e = env()
    e.reset()
    with pytest.raises(hoyito.IllegalMove):
        e.step(99)
    with pytest.raises(ValueError, match="action is required"):
        e.step(None)
    assert e.unwrapped.game.moves() == []


# ----- Gymnasium --------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS[:3])
@pytest.mark.parametrize("player", ["south", "north", "random"])
def test_gymnasium_check_env(rules, player):
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import hoyito.gymnasium  # noqa: F401  registers hoyito/Hoyito-v0

    env = gym.make("hoyito/Hoyito-v0", opponent_level=2, player=player, **rules)
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("reward", ["seeds", "margin", "win_loss"])
def test_gymnasium_plays_whole_games_against_the_engine(reward):
    from hoyito.gymnasium import HoyitoEnv

    env = HoyitoEnv(variant="II", opponent_level=3, player="north", reward=reward)
    obs, info = env.reset(seed=4)
    assert info["side"] == "north"
    assert env.game.to_move() == "north"  # the engine has played South's moves
    rng = np.random.default_rng(4)
    total, done = 0.0, False
    while not done:
        mask = info["action_mask"]
        np.testing.assert_array_equal(mask, env.action_masks())
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        done = term or trunc
        assert obs[-1] == 1.0 or term  # North to move again, or over
    south, north = env.game.captured
    winner = env.game.winner()
    assert info["winner"] == winner
    if reward == "seeds":
        assert total == north
    elif reward == "margin":
        assert total == north - south
    else:
        assert total == {"north": 1.0, "south": -1.0, "draw": 0.0}[winner]


def test_gymnasium_illegal_actions():
    from hoyito.gymnasium import HoyitoEnv

    env = HoyitoEnv(variant="I")
    env.reset(seed=0)
    env.step(2)  # South's hole 3 is empty now, unless a sowing came round
    mask = env.action_masks()
    bad = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else 99
    before = env.game.moves()
    obs, r, term, trunc, info = env.step(bad)
    assert term and r == -1.0 and info["illegal"]
    assert env.game.moves() == before
    strict = HoyitoEnv(illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(hoyito.IllegalMove):
        strict.step(99)
    for kwargs in ({"opponent_level": 0}, {"player": "east"}, {"reward": "x"}, {"illegal": "ignore"}, {"holes": 40}):
        with pytest.raises(ValueError):
            HoyitoEnv(**kwargs)


# ----- OpenSpiel ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
def test_openspiel_game_loads_and_plays_random_games(rules):
    import pyspiel

    import hoyito.openspiel  # noqa: F401

    game = pyspiel.load_game("python_hoyito", rules)
    assert game.num_players() == 2
    assert game.num_distinct_actions() == hoyito.action_count(**rules)
    rng = np.random.default_rng(0)
    for _ in range(3):
        state = game.new_initial_state()
        mirror = hoyito.Game(**rules)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(mirror.legal_actions())
            player = state.current_player()
            assert player == ("south", "north").index(mirror.to_move())
            a = int(rng.choice(legal))
            assert state.action_to_string(player, a) == mirror.action_to_move(a)
            clone = state.clone()
            state.apply_action(a)
            mirror.play_action(a)
            assert str(clone) != str(state) or clone.history() != state.history()
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(0)), mirror.observation())
        assert mirror.is_over()
        r = state.returns()
        assert r == {"south": [1.0, -1.0], "north": [-1.0, 1.0], "draw": [0.0, 0.0]}[mirror.winner()]


def test_openspiel_parameters_and_checks():
    import pyspiel
    from open_spiel.python.algorithms import get_all_states  # noqa: F401

    import hoyito.openspiel  # noqa: F401

    g = pyspiel.load_game("python_hoyito(variant=III,holes=4,returns=margin)")
    assert g.get_parameters()["variant"] == "III"
    s = g.new_initial_state()
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    south, north = s.game_state.captured
    assert s.returns() == [south - north, north - south]
    with pytest.raises(Exception, match="returns"):
        pyspiel.load_game("python_hoyito", {"returns": "elo"})
    with pytest.raises(Exception, match="holes"):
        pyspiel.load_game("python_hoyito", {"holes": 20})
    s = g.new_initial_state()
    with pytest.raises(Exception):
        s.apply_action(99)
    # States pickle through OpenSpiel's own machinery.
    s2 = pickle.loads(pickle.dumps(g.new_initial_state()))
    assert str(s2) == str(g.new_initial_state())


@pytest.mark.parametrize("rules", [{}, {"variant": "III", "direction": "per_move", "two_hole_opening": True, "holes": 5},
                                   {"variant": "II", "returns": "margin"}])
def test_openspiel_python_answers_match_openspiels_cpp_state(rules):
    """The calls the Python state answers itself (current_player,
    is_terminal, legal_actions, returns, observation_tensor, ...) agree with
    OpenSpiel's C++ State methods, which reach the game through its
    callbacks; clones, serialization and pickles keep OpenSpiel's history."""
    import pyspiel

    import hoyito.openspiel  # noqa: F401

    game = pyspiel.load_game("python_hoyito", rules)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    C = pyspiel.State
    rng = np.random.default_rng(1)
    for _ in range(2):
        s = game.new_initial_state()
        while True:
            assert s.current_player() == C.current_player(s)
            assert s.is_terminal() == C.is_terminal(s)
            assert s.is_chance_node() is C.is_chance_node(s) is False
            assert s.is_player_node() == C.is_player_node(s)
            assert s.is_simultaneous_node() == C.is_simultaneous_node(s)
            r = s.returns()
            assert r == C.returns(s) and [repr(x) for x in r] == [repr(x) for x in C.returns(s)]
            assert s.legal_actions() == C.legal_actions(s)
            for p in (0, 1):
                assert s.legal_actions(p) == C.legal_actions(s, p)
                assert s.observation_tensor(p) == C.observation_tensor(s, p)
            for bad in ([-1, 2] if not s.is_terminal() else [-1, 2, None]):
                with pytest.raises(pyspiel.SpielError):
                    s.observation_tensor(bad) if bad is not None else s.observation_tensor()
            for back in (game.deserialize_state(s.serialize()), pickle.loads(pickle.dumps(s)), s.clone()):
                assert str(back) == str(s) and back.history() == s.history()
                assert back.move_number() == s.move_number() and back.legal_actions() == s.legal_actions()
            c = s.clone()
            assert c.game_state is not s.game_state
            if s.is_terminal():
                break
            a = int(rng.choice(s.legal_actions()))
            c.apply_action(a)
            assert c.history() == s.history() + [a]
            assert str(s) != str(c) or s.history() != c.history(), "a clone is independent"
            s.apply_action(a)
            assert str(c) == str(s)


def test_openspiel_mcts_bot_against_the_engine():
    path = Path(__file__).resolve().parents[1] / "examples" / "openspiel_mcts_vs_engine.py"
    spec = importlib.util.spec_from_file_location("mcts_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tally = module.main(["--games", "2", "--variant", "II", "--holes", "4", "--level", "2", "--simulations", "30"])
    assert sum(tally.values()) == 2


def test_rollouts_in_rust():
    g = hoyito.Game(variant="II")
    g.play("3")
    before = g.notation()
    r = g.rollouts(200, seed=1)
    assert r.shape == (2,) and r.dtype == np.float64
    assert r[0] == -r[1] and -1 <= r[0] <= 1
    assert np.array_equal(r, g.rollouts(200, seed=1)), "a seed gives the same games"
    m = g.rollouts(50, seed=2, returns="margin")
    assert m[0] == -m[1] and abs(m[0]) <= 48
    assert g.notation() == before, "the game is unchanged"
    over = hoyito.Game.from_notation("0,0,0,0,0,0/0,0,0,0,0,0 s 30-18")
    assert list(over.rollouts(5, returns="margin")) == [12.0, -12.0]
    assert list(over.rollouts(5)) == [1.0, -1.0]
    with pytest.raises(hoyito.HoyitoError, match="expected 1 to"):
        g.rollouts(0)
    with pytest.raises(hoyito.HoyitoError, match='unknown returns "elo"'):
        g.rollouts(1, returns="elo")


def test_openspiel_mcts_with_rollouts_in_rust_plays_whole_games():
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from hoyito.openspiel import RolloutEvaluator

    game = pyspiel.load_game("python_hoyito", {"variant": "II", "holes": 4})
    bot = mcts.MCTSBot(game, 2, 40, RolloutEvaluator(2, seed=0), random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    while not state.is_terminal():
        a = bot.step(state)
        assert a in state.legal_actions()
        state.apply_action(a)
    assert sum(state.returns()) == 0
    with pytest.raises(TypeError, match="python_hoyito states"):
        RolloutEvaluator().evaluate(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(ValueError, match="n_rollouts"):
        RolloutEvaluator(0)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_parallel_api_test_and_games_as_single_games(rules):
    from pettingzoo.test import parallel_api_test

    from hoyito.pettingzoo import parallel_env

    parallel_api_test(parallel_env(**rules), num_cycles=200)
    env = parallel_env(reward="margin", **rules)
    obs, infos = env.reset(seed=0)
    mirror = hoyito.Game(**rules)
    rng = np.random.default_rng(0)
    while env.agents:
        mover = mirror.to_move()
        assert infos[mover]["to_move"] and not infos[{"south": "north", "north": "south"}[mover]]["to_move"]
        a = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        before = mirror.captured
        mirror.play_action(a)
        obs, rewards, term, trunc, infos = env.step({"south": a, "north": a} if rng.random() < 0.5 else {mover: a})
        gs, gn = mirror.captured[0] - before[0], mirror.captured[1] - before[1]
        assert rewards == {"south": gs - gn, "north": gn - gs}
        assert all(v == mirror.is_over() for v in term.values())
        np.testing.assert_array_equal(obs["south"]["observation"], mirror.observation())
    assert infos["south"]["winner"] == mirror.winner()
    env.reset()
    other = {"south": "north", "north": "south"}[env.game.to_move()]
    with pytest.raises(ValueError, match="is to move"):
        env.step({other: 0})
