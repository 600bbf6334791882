"""The Python API: every error path, copies and pickling, the engine with
the GIL released, tablebases, playouts and the batched game."""

import copy
import pickle
import random
import threading

import numpy as np
import pytest

import hoyito
from hoyito import Game, Match


# ----- errors ------------------------------------------------------------------


def test_every_error_is_a_value_error():
    for cls in (
        hoyito.RulesError,
        hoyito.IllegalMove,
        hoyito.NotationError,
        hoyito.EngineError,
        hoyito.TablebaseError,
    ):
        assert issubclass(cls, hoyito.HoyitoError) and issubclass(cls, ValueError)


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"variant": "IV"}, ["variant", "I, II or III"]),
        ({"holes": 3}, ["holes", "4 to 12"]),
        ({"holes": 13}, ["holes", "4 to 12"]),
        ({"holes": -1}, ["holes", "4 to 12"]),
        ({"holes": 10**30}, ["holes", "4 to 12"]),
        ({"holes": 10**300}, ["holes", "4 to 12"]),
        ({"seeds": 0}, ["seeds"]),
        ({"seeds": 11, "holes": 12}, ["seeds", "240"]),
        ({"direction": "sideways"}, ["direction", "fixed, per_player or per_move"]),
        ({"repetition": "never"}, ["repetition", "even or own_row"]),
        ({"capture_side": "both"}, ['bad value "both" for capture_side: expected any or opponent']),
    ],
)
def test_bad_rules_name_the_option_and_the_allowed_values(kwargs, words):
    for make in (Game, Match, hoyito.rules_dict, lambda **k: hoyito.VectorGame(2, **k)):
        with pytest.raises(hoyito.RulesError) as e:
            make(**kwargs)
        for w in words:
            assert w in str(e.value)
        assert len(str(e.value)) < 200, "a huge value is not repeated whole"


def test_bad_rule_types_and_names_are_type_errors():
    with pytest.raises(TypeError):
        Game(holes="6")
    with pytest.raises(TypeError):
        Game(skip_origin="yes")
    # A bool is no number of holes, though Python counts it as an int.
    for make in (Game, Match, hoyito.rules_dict):
        with pytest.raises(TypeError, match="holes must be an int, not bool"):
            make(holes=True)
        with pytest.raises(TypeError, match="must be True or False, not int"):
            make(two_hole_opening=1)
    with pytest.raises(TypeError, match="unknown rules option"):
        hoyito.rules_dict(colour="red")
    with pytest.raises(TypeError, match="must be True or False"):
        hoyito.rules_dict(skip_origin=1)
    with pytest.raises(TypeError, match="must be a str"):
        hoyito.rules_dict(direction=2)


def test_the_options_are_the_core_table():
    import inspect

    opts = hoyito.rules_options()
    assert tuple(o["name"] for o in opts) == hoyito.RULES_OPTIONS
    assert hoyito.RULES_OPTIONS[-1] == "capture_side"
    assert hoyito.rules_dict() == {o["name"]: o["default"] for o in opts}
    direction = opts[4]
    assert (direction["type"], tuple(direction["values"]), direction["section"]) == (
        "choice",
        ("fixed", "per_player", "per_move"),
        "§6.1",
    )
    assert (opts[2]["min"], opts[2]["max"]) == (1, 30)
    # The constructors' keywords and defaults are the table's.
    for cls in (Game, Match):
        params = inspect.signature(cls).parameters
        assert tuple(params) == hoyito.RULES_OPTIONS
        assert {k: p.default for k, p in params.items()} == hoyito.rules_dict()


def test_rules_errors_are_the_core_texts():
    with pytest.raises(TypeError) as e:
        hoyito.rules_dict(colour="red")
    assert str(e.value) == (
        'unknown rules option "colour": expected one of variant, holes, seeds, '
        "skip_origin, direction, two_hole_opening, repetition, capture_side"
    )
    for make in (Game, hoyito.rules_dict):
        with pytest.raises(hoyito.RulesError) as e:
            make(direction="x")
        assert str(e.value) == 'bad value "x" for direction: expected fixed, per_player or per_move'
        with pytest.raises(hoyito.RulesError) as e:
            make(holes=13)
        assert str(e.value) == 'bad value "13" for holes: expected a whole number from 4 to 12'


def test_rule_spellings_are_accepted():
    d = hoyito.rules_dict(variant="Hoyito II", direction="per-player", repetition="OWN_ROW", capture_side=" opponent ")
    assert d == {
        "variant": "II",
        "holes": 6,
        "seeds": 4,
        "skip_origin": False,
        "direction": "per_player",
        "two_hole_opening": False,
        "repetition": "own_row",
        "capture_side": "opponent",
    }
    assert Game(**d).rules == d


@pytest.mark.parametrize("token", ["", " ", "0", "7", "99", "123", "x", "3X", "1+", "+2", "2+2", "1+9", "3R", "-1", "é", "3\x00"])
def test_illegal_tokens_raise_and_change_nothing(token):
    g = Game("II")
    g.play("3")
    before = (g.notation(), g.moves(), g.legal_moves())
    with pytest.raises(hoyito.IllegalMove) as e:
        g.play(token)
    assert "legal moves: " + " ".join(before[2]) in str(e.value)
    assert e.value.legal_moves == before[2] and e.value.move == token
    assert (g.notation(), g.moves(), g.legal_moves()) == before


def test_play_checks_the_type():
    with pytest.raises(TypeError):
        Game().play(3)


def test_empty_hole_and_game_over_are_explained():
    g = Game.from_notation("0,1,0,0,0,0/0,0,0,0,0,1 s 0-0")
    with pytest.raises(hoyito.IllegalMove, match="empty"):
        g.play("1")
    g = Game.from_notation("0,0,0,0,0,1/3,0,0,0,0,4 s 0-0", variant="II")
    g.play("6")
    assert g.is_over()
    with pytest.raises(hoyito.IllegalMove, match="over"):
        g.play("1")
    with pytest.raises(hoyito.IllegalMove, match="over"):
        g.play_action(0)
    assert g.legal_moves() == [] and g.legal_actions() == [] and g.to_move() is None


def test_bad_actions_raise_and_change_nothing():
    g = Game()
    for a in (-1, 6, 10**6, 2**62):
        with pytest.raises(hoyito.IllegalMove, match="outside the action space"):
            g.play_action(a)
        with pytest.raises(hoyito.IllegalMove):
            g.action_to_move(a)
    with pytest.raises(OverflowError):
        g.play_action(2**70)
    g = Game.from_notation("0,1,0,0,0,0/0,0,0,0,0,1 s 0-0")
    with pytest.raises(hoyito.IllegalMove, match="empty"):
        g.play_action(0)
    with pytest.raises(hoyito.IllegalMove):
        g.move_to_action("1")
    with pytest.raises(hoyito.IllegalMove):
        g.move_to_action("zz")
    assert g.move_to_action("2") == 1
    assert g.moves() == []


@pytest.mark.parametrize(
    "text",
    ["", "garbage", "4,4,4/4,4,4 s 0-0", "4,4,4,4,4,4/4,4,4,4,4,4 q 0-0", "4,4,4,4,4,4/4,4,4,4,4,4 s 0",
     "300,4,4,4,4,4/4,4,4,4,4,4 s 0-0", "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0 round=0", "x,4,4,4,4,4/4,4,4,4,4,4 s 0-0 opening"],
)
def test_bad_notation_raises_notation_error(text):
    with pytest.raises(hoyito.NotationError):
        Game.from_notation(text)


def test_bad_records_raise_notation_error():
    for text in ("[Variant \"V\"]\n", "[Variant \"I\"]\n\n9 9 9", "\x00" * 10, "[Holes \"40\"]\n"):
        with pytest.raises(hoyito.NotationError):
            Game.from_record(text)
    m = Match()
    with pytest.raises(hoyito.NotationError, match="Match.from_record"):
        Game.from_record(m.record())
    with pytest.raises(hoyito.NotationError, match="Game.from_record"):
        Match.from_record(Game().record())


def test_no_input_panics():
    """Random junk into every entry point: only ValueError/TypeError/OverflowError, never PanicException."""
    rng = random.Random(3)
    alphabet = "0123456789LRlr+ ,/snx-=abcdefghijklmnopqrstuvwxyz\t\n\x00é"
    junk = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40))) for _ in range(400)]
    g = Game("III", direction="per_move", two_hole_opening=True)
    for s in junk:
        for call in (
            lambda: g.copy().play(s),
            lambda: Game.from_notation(s),
            lambda: Game.from_record(s),
            lambda: Match.from_record(s),
            lambda: g.move_to_action(s),
            lambda: hoyito.rules_dict(variant=s),
            lambda: hoyito.rules_dict(direction=s),
        ):
            try:
                call()
            except (ValueError, TypeError, OverflowError):
                pass
    for a in [rng.randrange(-(2**63), 2**63) for _ in range(200)]:
        for call in (lambda: g.copy().play_action(a), lambda: g.action_to_move(a)):
            try:
                call()
            except (ValueError, OverflowError):
                pass


# ----- copies and pickling -------------------------------------------------------


def _random_game(rng, **rules):
    g = Game(**rules)
    for _ in range(rng.randrange(0, 40)):
        if g.is_over():
            break
        g.play(rng.choice(g.legal_moves()))
    return g


def test_copy_is_independent():
    g = Game("II")
    g.play("3")
    for c in (g.copy(), copy.copy(g), copy.deepcopy(g)):
        assert c == g and c.notation() == g.notation()
        c.play(c.legal_moves()[0])
        assert c != g and g.moves() == ["3"]


@pytest.mark.parametrize(
    "rules",
    [{}, {"variant": "II", "direction": "per_player"}, {"variant": "III", "two_hole_opening": True, "holes": 5}],
)
def test_pickle_keeps_rules_position_and_history(rules):
    rng = random.Random(1)
    for _ in range(20):
        g = _random_game(rng, **rules)
        back = pickle.loads(pickle.dumps(g))
        assert back == g
        assert back.state() == g.state() and back.moves() == g.moves() and back.rules == g.rules
        assert back.legal_moves() == g.legal_moves()
        # The repetition history comes along: the same continuation ends the same way.
        while not g.is_over():
            t = rng.choice(g.legal_moves())
            g.play(t)
            back.play(t)
            assert back.state() == g.state()


def test_pickle_match():
    rng = random.Random(2)
    m = Match("III", holes=4)
    for _ in range(400):
        if m.is_over():
            break
        if m.is_round_over():
            m.start_next_round()
            continue
        m.play(rng.choice(m.legal_moves()))
    back = pickle.loads(pickle.dumps(m))
    assert back.state() == m.state() and back.round == m.round
    assert [r.moves() for r in back.rounds()] == [r.moves() for r in m.rounds()]
    assert back.is_over() == m.is_over() and back.winner() == m.winner()


def test_undo_and_moves():
    g = Game("II")
    start = g.state()
    g.play("3")
    assert g.undo() == "3"
    assert g.state() == start and g.undo() is None


# ----- engine ----------------------------------------------------------------------


def test_analyze_scores_every_legal_move():
    g = Game("II")
    a = g.analyze(depth=3)
    assert sorted(m["move"] for m in a["moves"]) == sorted(g.legal_moves())
    assert a["best"] == a["moves"][0]["move"] and a["score"] == a["moves"][0]["score"]
    assert a["pv"][0] == a["best"]
    assert [m["score"] for m in a["moves"]] == sorted((m["score"] for m in a["moves"]), reverse=True)
    # The pv is a line of legal moves.
    c = g.copy()
    for t in a["pv"]:
        c.play(t)
    assert g.analyze(time=0.05)["best"] in g.legal_moves()
    assert g.analyze(engine="mcts", depth=1)["best"] in g.legal_moves()


def test_best_move_levels_are_legal_and_seeded():
    g = Game("III")
    for level in range(1, 8):
        assert g.best_move(level=level, seed=5) in g.legal_moves()
    assert g.best_move(level=3, seed=9) == g.best_move(level=3, seed=9)
    e = hoyito.Engine(level=4, seed=1)
    m = Match("II")
    assert e.best_move(m) in m.legal_moves()
    r = e.search(g)
    assert r["best"] in g.legal_moves() and r["nodes"] >= 1
    over = Game.from_notation("0,0,0,0,0,1/3,0,0,0,0,4 s 0-0")
    over.play("6")
    assert over.best_move(depth=2) is None and over.analyze(depth=2)["best"] is None


@pytest.mark.parametrize(
    "kwargs,word",
    [
        ({"level": 0}, "level"),
        ({"level": 11}, "level"),
        ({"time": 0}, "time"),
        ({"time": -1.0}, "time"),
        ({"time": float("nan")}, "time"),
        ({"time": float("inf")}, "time"),
        ({"depth": 0}, "depth"),
        ({"depth": 1000}, "depth"),
        ({"depth": 3, "time": 1.0}, "not both"),
        ({"engine": "deep blue"}, "engine"),
        ({"hash_mb": 0}, "hash_mb"),
        ({"hash_mb": 10**6}, "hash_mb"),
        ({"level": 3, "engine": "mcts"}, "level"),
    ],
)
def test_bad_engine_settings(kwargs, word):
    g = Game()
    with pytest.raises(hoyito.EngineError, match=word):
        g.analyze(**kwargs)
    with pytest.raises(hoyito.EngineError, match=word):
        g.best_move(**kwargs)


def test_engine_methods_check_their_game_argument():
    e = hoyito.Engine()
    with pytest.raises(TypeError, match="hoyito.Game"):
        e.analyze("4,4,4,4,4,4/4,4,4,4,4,4 s 0-0")


def test_search_releases_the_gil():
    """One thread searches for about a second while this one keeps playing:
    the playing thread makes progress during the search."""
    g = Game("II")
    done = threading.Event()
    result = {}

    def search():
        result["a"] = g.analyze(time=1.0)
        done.set()

    t = threading.Thread(target=search)
    rng = random.Random(0)
    t.start()
    plies_during = 0
    while not done.is_set():
        h = Game("II")
        while not h.is_over() and not done.is_set():
            h.play(rng.choice(h.legal_moves()))
            plies_during += 1
    t.join()
    assert result["a"]["best"] in g.legal_moves()
    # Holding the GIL for the search would allow at most a few switch
    # intervals (5 ms each) of play; hundreds of plies show it was released.
    assert plies_during > 500, plies_during


# ----- tablebases -------------------------------------------------------------------


def test_tablebase_build_and_probe(tmp_path):
    tb = hoyito.Tablebase.build(tmp_path, 8, variant="II", holes=4)
    assert tb.layers(variant="II", holes=4) == [4, 8]
    again = hoyito.Tablebase(tmp_path)
    g = Game.from_notation("0,0,0,1/3,0,0,4 s 0-0", variant="II", holes=4)
    p = again.probe(g)
    assert set(p["moves"]) == set(g.legal_moves())
    assert p["value"] == max(p["moves"].values())
    assert p["best"] and all(p["moves"][t] == p["value"] for t in p["best"])
    # The probe agrees with a full-depth search of the engine.
    a = g.analyze(depth=30)
    assert a["score"] == p["final_margin"]
    # An engine with the tables plays a best move.
    assert g.best_move(tablebase=again) in p["best"]


def test_tablebase_errors(tmp_path):
    with pytest.raises(hoyito.TablebaseError, match="none does not exist: expected the directory of a tablebase"):
        hoyito.Tablebase(tmp_path / "none")
    (tmp_path / "file").write_text("")
    with pytest.raises(hoyito.TablebaseError, match="file is not a directory"):
        hoyito.Tablebase(tmp_path / "file")
    (tmp_path / "file").unlink()
    tb = hoyito.Tablebase(tmp_path)
    with pytest.raises(hoyito.TablebaseError, match="no tablebase layer"):
        tb.probe(Game(holes=4))
    built = hoyito.Tablebase.build(tmp_path, 4, holes=4)
    with pytest.raises(hoyito.TablebaseError, match="no tablebase layer"):
        built.probe(Game(holes=4))  # 32 seeds in play: not built
    with pytest.raises(hoyito.TablebaseError, match="max_seeds"):
        hoyito.Tablebase.build(tmp_path, 6, holes=4)
    with pytest.raises(hoyito.TablebaseError, match="max_seeds"):
        hoyito.Tablebase.build(tmp_path, -4, holes=4)
    with pytest.raises(hoyito.TablebaseError):
        hoyito.Tablebase.build(tmp_path, 4, holes=4, two_hole_opening=True)
    with pytest.raises(TypeError):
        tb.probe("not a game")
    # A damaged file is refused with its path.
    files = sorted((tmp_path).rglob("*"))
    layer = [f for f in files if f.is_file()][0]
    layer.write_bytes(layer.read_bytes()[:-3] + b"bad")
    with pytest.raises(hoyito.TablebaseError):
        hoyito.Tablebase(tmp_path).probe(Game.from_notation("0,0,0,1/3,0,0,0 s 0-0", holes=4))


# ----- playouts and the batched game ------------------------------------------------


def test_random_playouts_summary():
    s = hoyito.random_playouts(500, variant="II", holes=5, seed=3)
    assert s["games"] == 500 and s["south_wins"] + s["north_wins"] + s["draws"] == 500
    assert s["plies"] > 500 and s["mean_plies"] == s["plies"] / 500
    assert s == {**s, **hoyito.random_playouts(500, variant="II", holes=5, seed=3), "seconds": s["seconds"],
                 "games_per_s": s["games_per_s"], "plies_per_s": s["plies_per_s"]}
    assert hoyito.random_playouts(0)["games"] == 0
    with pytest.raises(hoyito.HoyitoError, match="n -1"):
        hoyito.random_playouts(-1)
    with pytest.raises(hoyito.RulesError):
        hoyito.random_playouts(1, holes=2)


def test_random_playouts_release_the_gil():
    done = threading.Event()

    def run():
        hoyito.random_playouts(100000, variant="II")
        done.set()

    t = threading.Thread(target=run)
    t.start()
    ticks = 0
    while not done.is_set():
        Game().legal_moves()
        ticks += 1
    t.join()
    assert ticks > 200, ticks


def test_vector_game_steps_every_game_with_numpy_arrays():
    v = hoyito.VectorGame(64, variant="II")
    obs, mask = v.reset()
    assert obs.shape == (64, 27) and obs.dtype == np.float32
    assert mask.shape == (64, 6) and mask.dtype == np.int8
    rng = np.random.default_rng(0)
    # Mirror a few slots with Games fed the same actions.
    mirrors = [Game("II") for _ in range(3)]
    finished = 0
    for _ in range(400):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        before = [g.captured for g in mirrors]
        movers = [g.to_move() for g in mirrors]
        for g, a in zip(mirrors, acts):
            g.play_action(int(a))
        obs, reward, done, mask = v.step(acts)
        assert reward.dtype == np.float32 and done.dtype == np.bool_
        for i, g in enumerate(mirrors):
            side = 0 if movers[i] == "south" else 1
            assert reward[i] == g.captured[side] - before[i][side]
            if g.is_over():
                assert done[i]
                assert v.results()[i] == {"south": 1, "north": -1, "draw": 0}[g.winner()]
                mirrors[i] = Game("II")
            else:
                assert not done[i]
            np.testing.assert_array_equal(obs[i], mirrors[i].observation())
            np.testing.assert_array_equal(mask[i], mirrors[i].action_mask())
        finished += int(done.sum())
    assert finished > 0 and v.games_finished == finished
    np.testing.assert_array_equal(v.observations(), obs)
    np.testing.assert_array_equal(v.action_masks(), mask)
    assert v.game(0).observation().tolist() == obs[0].tolist()


def test_vector_game_errors_change_nothing():
    v = hoyito.VectorGame(3, variant="I", holes=4)
    obs, mask = v.reset()
    good = [int(np.flatnonzero(m)[0]) for m in mask]
    for bad in ([0, 0], [0, 0, 0, 0], [good[0], good[1], 4], [good[0], -1, good[2]], "abc", [1.5, 2, 3], None):
        with pytest.raises((ValueError, TypeError)):
            v.step(bad)
        np.testing.assert_array_equal(v.observations(), obs)
    with pytest.raises(hoyito.IllegalMove, match="game 2"):
        v.step([good[0], good[1], 4])
    with pytest.raises(hoyito.HoyitoError):
        hoyito.VectorGame(0)
    with pytest.raises(hoyito.HoyitoError, match="reward"):
        hoyito.VectorGame(2, reward="elo")
    with pytest.raises(hoyito.HoyitoError, match="game 3"):
        v.game(3)
    v.step(np.array(good, dtype=np.int32))
    v2 = hoyito.VectorGame(2, reward="win_loss")
    o, m = v2.reset()
    total = 0.0
    for _ in range(2000):
        o, r, d, m = v2.step([int(np.flatnonzero(x)[0]) for x in m])
        assert set(np.unique(r)) <= {-1.0, 0.0, 1.0}
        assert np.all(r[~d] == 0)
        total += abs(r).sum()
    assert v2.games_finished > 0


def test_engine_and_play_on_random_positions():
    """Random positions (closed holes, any options) read from notation:
    analysis, every level's move, actions and whole random continuations
    work, with legal results only."""
    rng = random.Random(5)
    for _ in range(100):
        holes = rng.randint(4, 8)
        board = [rng.choice([0, 0, 1, 2, 3, 4, 5, 9, 14]) for _ in range(2 * holes)]
        cells = ["x" if c == 0 and rng.random() < 0.2 else str(c) for c in board]
        text = ",".join(cells[:holes]) + "/" + ",".join(cells[holes:])
        caps = (rng.randint(0, 8), rng.randint(0, 8))
        text += f" {rng.choice('sn')} {caps[0]}-{caps[1]}"
        # Seeds per hole enough for every seed of the position.
        total = sum(board) + sum(caps)
        rules = {
            "variant": rng.choice(["I", "II", "III"]),
            "holes": holes,
            "seeds": max(4, -(-total // (2 * holes))),
            "direction": rng.choice(["fixed", "per_move", "per_player"]),
            "capture_side": rng.choice(["any", "opponent"]),
            "skip_origin": rng.random() < 0.3,
        }
        g = Game.from_notation(text, **rules)
        legal = g.legal_moves()
        a = g.analyze(depth=3)
        assert sorted(m["move"] for m in a["moves"]) == sorted(legal)
        assert g.best_move(level=rng.randint(1, 10), depth=2) in legal + [None]
        assert sorted(g.action_to_move(x) for x in g.legal_actions()) == sorted(legal)
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))
        assert g.state()["winner"] in ("south", "north", "draw")
