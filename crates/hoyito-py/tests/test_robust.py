"""What a researcher meets at the edges: Ctrl-C in long calls, errors that
say what is wrong without repeating a huge input, games as dict keys and
as base classes, analysis figures."""

import copy
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hoyito
from hoyito import Game, Match

# ----- Ctrl-C ----------------------------------------------------------------------

# The child starts a long call in its main thread; another thread sends it
# SIGINT (what Ctrl-C sends) once the call has used 0.3 s of CPU, that is
# once the Rust work is running. The call must end with KeyboardInterrupt,
# leaving the game as it was.
CHILD = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    import hoyito

    def interrupt_when_busy():
        start = time.process_time()
        while time.process_time() < start + 0.3:
            time.sleep(0.005)
        os.kill(os.getpid(), signal.SIGINT)

    g = hoyito.Game()
    before = (g.notation(), g.moves())
    calls = {
        "analyze": lambda: g.analyze(time=86400),
        "best_move": lambda: g.best_move(time=86400),
        "engine.search": lambda: hoyito.Engine().search(g, time=86400),
        "engine.analyze": lambda: hoyito.Engine(engine="mcts").analyze(g, time=86400),
        "tablebase.build": lambda: hoyito.Tablebase.build(sys.argv[2], 40, variant="II", holes=6),
    }
    threading.Thread(target=interrupt_when_busy, daemon=True).start()
    try:
        calls[sys.argv[1]]()
    except KeyboardInterrupt:
        assert (g.notation(), g.moves()) == before, "the game is unchanged"
        print("KeyboardInterrupt")
    else:
        print("finished")
    """
)


@pytest.mark.parametrize("call", ["analyze", "best_move", "engine.search", "engine.analyze", "tablebase.build"])
def test_ctrl_c_interrupts_long_calls(call, tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", CHILD, call, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "KeyboardInterrupt"
    if call == "tablebase.build":
        # The layers solved before Ctrl-C are whole files (opening checks
        # them); the 40-seed layer was not reached; building again resumes.
        layers = hoyito.Tablebase(tmp_path).layers(variant="II", holes=6) if any(tmp_path.rglob("*.htb")) else []
        assert 40 not in layers
        top = max(layers, default=0)
        again = hoyito.Tablebase.build(tmp_path, max(top, 8), variant="II", holes=6)
        assert again.layers(variant="II", holes=6)[-1] == max(top, 8)


# ----- errors ----------------------------------------------------------------------


def test_a_huge_input_is_not_repeated_whole():
    g = Game()
    for bad in ("3" * 5000, "x" * 5000):
        with pytest.raises(hoyito.IllegalMove) as e:
            g.play(bad)
        assert len(str(e.value)) < 300
        assert e.value.move == bad, "the attribute keeps the input whole"
    with pytest.raises(hoyito.RulesError) as e:
        Game(variant="X" * 10_000)
    assert len(str(e.value)) < 200 and "…" in str(e.value)
    with pytest.raises(TypeError) as e:
        hoyito.rules_dict(**{"c" * 10_000: 1})
    assert len(str(e.value)) < 300


def test_a_bad_token_says_what_is_wrong():
    g = Game()
    cases = {
        "3X": "'X' cannot stand there",
        "2-5": "'-' cannot stand there",
        "+5": "a hole number is missing",
        "123": "a hole number has 1 or 2 digits",
        "9": "hole number out of range",
    }
    for token, reason in cases.items():
        with pytest.raises(hoyito.IllegalMove, match=reason):
            g.play(token)
    assert g.moves() == []


def test_conceding_names_the_sides():
    g = Game()
    with pytest.raises(hoyito.IllegalMove) as e:
        g.concede("east")
    assert str(e.value) == 'cannot concede for "east": expected "south" or "north"'
    m = Match()
    with pytest.raises(hoyito.IllegalMove, match='cannot concede for "South"'):
        m.concede("South")
    assert not g.is_over() and not m.is_over()


def test_variant_by_number_as_everywhere():
    assert Game(variant=2).variant == "II"
    assert Match(variant=3).rules["variant"] == "III"
    assert hoyito.rules_dict(variant=1)["variant"] == "I"
    with pytest.raises(hoyito.RulesError, match='bad value "4" for variant'):
        Game(variant=4)


def test_a_position_cannot_hold_more_seeds_than_the_game():
    with pytest.raises(hoyito.NotationError, match="holds 143 seeds .* expected at most 48"):
        Game.from_notation("4,4,4,4,4,99/4,4,4,4,4,4 s 0-0")
    with pytest.raises(hoyito.NotationError, match="holds 50 seeds"):
        Game.from_notation("4,4,4,4,4,4/4,4,4,4,4,4 s 1-1")
    # Fewer seeds (an endgame study) are fine, and every count in the
    # observation stays within the game's 48 seeds.
    g = Game.from_notation("0,0,0,0,0,1/3,0,0,0,0,4 s 20-20")
    obs = g.observation()
    assert obs.min() >= 0 and obs.max() <= 48


def test_gymnasium_refuses_actions_that_are_not_integers():
    pytest.importorskip("gymnasium")
    from hoyito.gymnasium import HoyitoEnv

    env = HoyitoEnv()
    _, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad in (legal + 0.7, float(legal), True, "2", np.float64(legal)):
        with pytest.raises(TypeError, match="an action is an integer"):
            env.step(bad)
    env.step(np.int64(legal))


# ----- games as values and base classes --------------------------------------------


def test_games_hash_as_they_compare():
    a, b = Game(), Game()
    a.play("3")
    b.play("3")
    assert a == b and hash(a) == hash(b)
    c = Game(variant="II")
    c.play("3")
    assert a != c
    seen = {a: "first"}
    assert seen[b] == "first" and c not in seen
    assert len({a, b, c, Game()}) == 3


class Study(Game):
    """A subclass with an attribute of its own."""

    def __init__(self):
        super().__init__()
        self.notes = []


def test_game_can_be_subclassed():
    s = Study()
    s.play("3")
    s.notes.append("a good start")
    for c in (s.copy(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert type(c) is Study and c == s and c.notes == ["a good start"]
    deep = copy.deepcopy(s)
    deep.notes.append("more")
    assert s.notes == ["a good start"], "a deep copy has its own attributes"
    assert type(Study.from_notation(s.notation())) is Study
    assert type(Study.from_record(s.record())) is Study
    assert type(Game.from_record(s.record())) is Game
    assert s.analyze(depth=2)["best"] in s.legal_moves()


# ----- analysis figures ------------------------------------------------------------


def test_analysis_tells_the_depth_reached():
    g = Game()
    timed = g.analyze(time=0.05)
    assert isinstance(timed["depth"], int) and timed["depth"] >= 1
    assert timed["nodes"] > 0
    assert g.analyze(depth=3)["depth"] == 3
    over = Game.from_notation("0,0,0,0,0,0/0,0,0,0,0,0 s 24-24")
    assert over.analyze(time=0.05)["depth"] is None
