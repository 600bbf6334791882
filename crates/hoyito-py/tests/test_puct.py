"""hoyito.PuctSearch: the AlphaZero-style tree search in Rust with a Python
evaluator. It must find the only winning move of small 2x4 positions (the
tablebase says which), back values up with the right sign across extra
turns, give the evaluator the batches it promises, be reproducible, refuse
bad answers with the game unchanged, and stop on Ctrl-C."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hoyito
from hoyito import Game, PuctSearch


# 2x4 positions (12 seeds in play) where exactly one move wins and every
# other loses under perfect play; the test checks this with the tablebase.
ONLY_WINNING_MOVE = [
    ("II", "3,0,2,1/0,3,2,1 s 12-8"),
    ("II", "1,3,1,0/3,0,2,2 n 12-8"),
    ("II", "2,1,1,8/0,0,0,0 s 8-12"),
    ("II", "0,1,3,3/2,0,2,1 n 8-12"),
    ("II", "1,0,3,3/0,1,2,2 n 8-12"),
    ("II", "3,0,0,3/4,1,0,1 n 12-8"),
    ("II", "0,4,2,1/3,1,0,1 n 12-8"),
    ("II", "1,1,2,4/0,2,0,2 s 8-12"),
    ("II", "2,1,0,1/0,2,5,1 n 12-8"),
    ("I", "0,3,3,2/1,2,1,0 s 8-12"),
]


def uniform(obs, masks):
    """Uniform priors over the legal actions, value 0 (a draw) everywhere."""
    return masks.astype(np.float32), np.zeros(len(obs), np.float32)


def rollout_values(obs, masks, games):
    """Uniform priors; the value is the mean result of 16 random games in Rust."""
    values = np.empty(len(games))
    for i, g in enumerate(games):
        south, north = g.rollouts(16, seed=i)
        values[i] = south if g.to_move() == "south" else north
    return masks.astype(np.float64), values


@pytest.fixture(scope="module")
def tablebases(tmp_path_factory):
    d = tmp_path_factory.mktemp("tb")
    return {v: hoyito.Tablebase.build(d / v, 12, variant=v, holes=4) for v in ("I", "II")}


def only_winning_move(tb, g):
    """The tablebase's only winning move of `g` (the test positions have one)."""
    p = tb.probe(g)
    south, north = g.captured
    margin = south - north if g.to_move() == "south" else north - south
    final = {m: margin + v for m, v in p["moves"].items()}
    wins = [m for m, f in final.items() if f > 0]
    assert len(wins) == 1 and all(f < 0 for m, f in final.items() if m != wins[0]), final
    assert wins[0] in p["best"]
    return wins[0]


@pytest.mark.parametrize("variant,notation", ONLY_WINNING_MOVE)
def test_rollout_values_find_the_only_winning_move(tablebases, variant, notation):
    g = Game.from_notation(notation, variant=variant, holes=4)
    best = only_winning_move(tablebases[variant], g)
    r = PuctSearch(rollout_values, simulations=64, batch_size=8, pass_games=True).search(g)
    assert r["move"] == best, r
    assert r["visits"].sum() == r["simulations"] == 64
    assert r["action"] == g.move_to_action(best)
    assert r["value"] > 0


@pytest.mark.parametrize("variant,notation", ONLY_WINNING_MOVE)
def test_exact_results_of_finished_games_find_it_too(tablebases, variant, notation):
    # No information but the results at the leaves the search reaches.
    g = Game.from_notation(notation, variant=variant, holes=4)
    best = only_winning_move(tablebases[variant], g)
    for batch in (1, 16):
        r = PuctSearch(uniform, simulations=800, batch_size=batch).search(g)
        assert r["move"] == best, (batch, r)
        others = [a for a in g.legal_actions() if a != r["action"]]
        assert r["q"][r["action"]] > np.nanmax(r["q"][others])


def test_a_move_that_wins_at_once_is_worth_one():
    # Every move ends the game, won by South: each is worth exactly 1.
    g = Game.from_notation("0,0,0,1/3,0,0,0 s 0-0", variant="II", holes=4)
    r = PuctSearch(uniform, simulations=100).search(g)
    legal = g.legal_actions()
    assert r["evaluations"] == 1 and r["batches"] == 1  # only the root was evaluated
    assert np.all(r["q"][legal] == 1.0)
    assert r["value"] == pytest.approx(100 / 101)


def test_the_sign_flips_only_when_the_mover_changes():
    # Action 3 (hole 4) captures and gives South another turn (RULES.md §3).
    g = Game.from_notation("5,0,0,18,1,0/3,1,0,6,1,1 s 8-4", variant="II", holes=6)
    h = g.copy()
    h.play_action(3)
    assert h.to_move() == "south" and not h.is_over()
    h = g.copy()
    h.play_action(0)
    assert h.to_move() == "north"

    def south_is_ahead(obs, masks, games):
        # Worth +0.5 to South everywhere, given from the mover's view.
        v = [0.5 if x.to_move() == "south" else -0.5 for x in games]
        return masks, np.array(v)

    r = PuctSearch(south_is_ahead, simulations=60, batch_size=4, pass_games=True).search(g)
    visited = r["visits"] > 0
    assert visited[[0, 3, 4]].all()
    # No game ends within 60 simulations from here, so every action is worth
    # exactly what the evaluator says South's positions are worth.
    assert np.allclose(r["q"][visited], 0.5)
    assert r["value"] == pytest.approx(0.5)


def test_visits_batches_and_what_the_evaluator_sees():
    g = Game("II", holes=6)
    g.play("3")  # North to move: observations from North's side
    seen = []

    def evaluator(obs, masks, games):
        assert obs.dtype == np.float32 and masks.dtype == np.int8
        assert obs.shape == (len(games), g.observation_size) and masks.shape == (len(games), g.num_actions)
        for o, m, x in zip(obs, masks, games):
            assert not x.is_over()
            np.testing.assert_array_equal(o, x.observation("mover"))
            np.testing.assert_array_equal(m, x.action_mask())
            assert x.moves()[: len(g.moves())] == g.moves()  # the history comes along
        seen.append(len(games))
        return uniform(obs, masks)

    for batch in (1, 5, 16):
        seen.clear()
        r = PuctSearch(evaluator, simulations=333, batch_size=batch, pass_games=True).search(g)
        assert seen[0] == 1  # the root first
        assert max(seen) <= batch and (batch == 1 or max(seen) == batch)
        assert r["simulations"] == 333 and r["visits"].sum() == 333 and r["visits"].dtype == np.int64
        assert r["evaluations"] == sum(seen) and r["batches"] == len(seen)
        assert r["to_move"] == "north"
        legal = np.zeros(g.num_actions, bool)
        legal[g.legal_actions()] = True
        assert np.all(r["visits"][~legal] == 0) and np.isnan(r["q"][~legal]).all()
        assert r["prior"][legal].sum() == pytest.approx(1.0) and np.all(r["prior"][~legal] == 0)
        assert r["move"] == g.action_to_move(r["action"])
    assert g.moves() == ["3"]


def test_policy_temperature():
    g = Game("II", holes=4)
    r1 = PuctSearch(uniform, simulations=300).search(g, temperature=1.0)
    v = r1["visits"].astype(float)
    np.testing.assert_allclose(r1["policy"], v / v.sum())
    r2 = PuctSearch(uniform, simulations=300).search(g, temperature=0.5)
    np.testing.assert_allclose(r2["policy"], v**2 / (v**2).sum())
    r0 = PuctSearch(uniform, simulations=300).search(g, temperature=0)
    assert r0["policy"][r0["action"]] == 1.0 and r0["policy"].sum() == 1.0
    assert r0["visits"][r0["action"]] == r0["visits"].max()
    tiny = PuctSearch(uniform, simulations=300).search(g, temperature=1e-6)["policy"]
    assert np.isfinite(tiny).all() and tiny.sum() == pytest.approx(1.0)


def test_a_seed_makes_the_noise_reproducible():
    g = Game("II", holes=6)

    def run(seed):
        s = PuctSearch(uniform, simulations=200, batch_size=4, dirichlet_alpha=0.3, seed=seed)
        return [s.search(g) for _ in range(3)]

    a, b, c = run(7), run(7), run(8)
    for x, y in zip(a, b):
        for k in ("visits", "prior", "policy"):
            np.testing.assert_array_equal(x[k], y[k])
    assert not np.array_equal(a[0]["prior"], c[0]["prior"])
    assert not np.array_equal(a[0]["prior"], a[1]["prior"])  # each search draws new noise
    assert a[0]["prior"].sum() == pytest.approx(1.0)
    # Without noise, a search depends on nothing but the evaluator.
    x = PuctSearch(uniform, simulations=200, seed=1).search(g)
    y = PuctSearch(uniform, simulations=200, seed=2).search(g)
    np.testing.assert_array_equal(x["visits"], y["visits"])


def test_priors_of_illegal_actions_are_ignored():
    g = Game.from_notation("0,0,1,1/1,0,0,1 s 14-14", variant="II", holes=4)
    legal = g.legal_actions()
    illegal = [a for a in range(g.num_actions) if a not in legal]

    def on_illegal(obs, masks):
        p = 1.0 - masks.astype(np.float64)  # all the mass on illegal actions
        return p, np.zeros(len(obs))

    r = PuctSearch(on_illegal, simulations=10).search(g)
    np.testing.assert_allclose(r["prior"][legal], 1 / len(legal))  # uniform over the legal ones
    assert np.all(r["prior"][illegal] == 0)

    def lists(obs, masks):
        return [[1.0, 3.0, 0.0, 0.0]] * len(obs), [0] * len(obs)

    r = PuctSearch(lists, simulations=1).search(Game("II", holes=4))
    np.testing.assert_allclose(r["prior"], [0.25, 0.75, 0, 0])


def test_a_match_is_searched_in_its_current_round():
    m = hoyito.Match("II", holes=4)
    m.play("1")
    r = PuctSearch(uniform, simulations=50).search(m)
    assert r["to_move"] == m.to_move() and r["move"] in m.legal_moves()
    assert m.game().moves() == ["1"]


def answer(priors=None, values=None, k_extra=0):
    def evaluator(obs, masks):
        k = len(obs) + k_extra
        p = masks.astype(np.float32) if priors is None else priors(k, masks.shape[1])
        v = np.zeros(k) if values is None else values(k)
        return p, v

    return evaluator


BAD_ANSWERS = [
    (answer(priors=lambda k, n: np.ones((k, n + 1))), hoyito.HoyitoError, r"priors have shape \(1, 7\): expected \(1, 6\)"),
    (answer(priors=lambda k, n: np.ones(n)), hoyito.HoyitoError, r"priors have shape \(6,\): expected \(1, 6\)"),
    (answer(values=lambda k: np.zeros(k + 2)), hoyito.HoyitoError, r"values have shape \(3,\): expected \(1,\)"),
    (answer(priors=lambda k, n: np.full((k, n), np.nan)), hoyito.HoyitoError, r"prior \[0, 0\] is NaN"),
    (answer(priors=lambda k, n: -np.ones((k, n))), hoyito.HoyitoError, r"prior \[0, 0\] is -1"),
    (answer(values=lambda k: np.full(k, np.nan)), hoyito.HoyitoError, r"value \[0\] is NaN"),
    (answer(values=lambda k: np.full(k, 1.5)), hoyito.HoyitoError, r"value \[0\] is 1.5: expected a number from -1 to 1"),
    (answer(values=lambda k: np.full(k, np.inf)), hoyito.HoyitoError, r"value \[0\] is inf"),
    (lambda obs, masks: None, TypeError, r"must return a pair \(priors, values\), not NoneType"),
    (lambda obs, masks: (masks, "x"), TypeError, r"values must be a numeric array"),
    (lambda obs, masks: 1 / 0, ZeroDivisionError, r"division by zero"),
]


@pytest.mark.parametrize("evaluator,error,words", BAD_ANSWERS)
def test_bad_answers_raise_and_leave_the_game_unchanged(evaluator, error, words):
    g = Game("II")
    g.play("3")
    before = (g.notation(), g.moves(), g.record())
    with pytest.raises(error, match=words):
        PuctSearch(evaluator, simulations=20).search(g)
    assert (g.notation(), g.moves(), g.record()) == before


def test_an_error_in_a_later_batch_is_raised_too():
    calls = []

    def evaluator(obs, masks):
        calls.append(len(obs))
        if len(calls) == 3:
            return masks, np.full(len(obs), -2.0)
        return uniform(obs, masks)

    g = Game("II", holes=4)
    with pytest.raises(hoyito.HoyitoError, match="expected a number from -1 to 1"):
        PuctSearch(evaluator, simulations=100, batch_size=4).search(g)
    assert g.moves() == [] and len(calls) == 3


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        ({"simulations": 0}, hoyito.HoyitoError, "simulations 0 is not allowed: expected 1 to 16777216"),
        ({"simulations": 2**24 + 1}, hoyito.HoyitoError, "simulations"),
        ({"batch_size": 0}, hoyito.HoyitoError, "batch_size 0 is not allowed: expected 1 to 4096"),
        ({"c_puct": -1.0}, hoyito.HoyitoError, "c_puct -1"),
        ({"c_puct": float("nan")}, hoyito.HoyitoError, "c_puct"),
        ({"dirichlet_alpha": 0.0}, hoyito.HoyitoError, "dirichlet_alpha 0"),
        ({"dirichlet_fraction": 1.5}, hoyito.HoyitoError, "dirichlet_fraction 1.5"),
        ({"simulations": "many"}, TypeError, None),
        ({"seed": -1}, OverflowError, None),
    ],
)
def test_bad_settings(kwargs, error, words):
    with pytest.raises(error, match=words):
        PuctSearch(uniform, **kwargs)


def test_bad_calls():
    with pytest.raises(TypeError, match="the evaluator must be callable, not int"):
        PuctSearch(3)
    s = PuctSearch(uniform, simulations=10)
    with pytest.raises(TypeError, match="expected a hoyito.Game or hoyito.Match"):
        s.search("3,0,2,1/0,3,2,1 s 12-8")
    over = Game.from_notation("0,0,0,0/0,0,0,0 s 16-16", holes=4)
    assert over.is_over()
    with pytest.raises(hoyito.HoyitoError, match="the game is over"):
        s.search(over)
    with pytest.raises(hoyito.HoyitoError, match="temperature -1"):
        s.search(Game(), temperature=-1)
    assert (s.simulations, s.c_puct, s.batch_size, s.dirichlet_alpha, s.dirichlet_fraction) == (10, 1.25, 8, None, 0.25)
    assert s.evaluator is uniform and s.seed is None and not s.pass_games
    assert "simulations=10" in repr(s)


def test_searches_in_threads_agree():
    # Two searches in two threads, each with its own evaluator, both finish
    # and agree with the same search run alone.
    import threading

    g = Game("II")
    alone = PuctSearch(uniform, simulations=3000, batch_size=16).search(g)
    out = {}

    def run(name):
        out[name] = PuctSearch(uniform, simulations=3000, batch_size=16).search(g)

    ts = [threading.Thread(target=run, args=(n,)) for n in "ab"]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for r in out.values():
        np.testing.assert_array_equal(r["visits"], alone["visits"])


# Ctrl-C: a child process searches in its main thread; another thread sends
# it SIGINT once the search has used 0.3 s of CPU. The search must end with
# KeyboardInterrupt (not run its 2**24 simulations), the game unchanged. In "endgame" every
# leaf is soon a finished game, so after the first few hundred batches the
# evaluator is not called again and only the Rust loop can see the signal.
CHILD = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    import numpy as np
    import hoyito

    sent = []
    def interrupt_when_busy():
        start = time.process_time()
        while time.process_time() < start + 0.3:
            time.sleep(0.005)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    def evaluator(obs, masks):
        return masks.astype(np.float32), np.zeros(len(obs), np.float32)

    if sys.argv[1] == "endgame":
        g = hoyito.Game.from_notation("3,0,2,1/0,3,2,1 s 12-8", variant="II", holes=4)
    else:
        g = hoyito.Game("II")
    before = (g.notation(), g.moves())
    s = hoyito.PuctSearch(evaluator, simulations=2**24, batch_size=16)
    threading.Thread(target=interrupt_when_busy, daemon=True).start()
    try:
        s.search(g)
    except KeyboardInterrupt:
        assert (g.notation(), g.moves()) == before, "the game is unchanged"
        print(f"KeyboardInterrupt {time.perf_counter() - sent[0]:.3f}")
    else:
        print("finished")
    """
)


@pytest.mark.parametrize("position", ["start", "endgame"])
def test_ctrl_c_stops_a_search(position):
    out = subprocess.run(
        [sys.executable, "-c", CHILD, position], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    # How soon it stops is measured in bench/interrupt.py, not asserted here.
    word, _seconds = out.stdout.split()
    assert word == "KeyboardInterrupt", out.stdout
