"""The Python API against the Rust crate: the core's `random_trace` example
plays seeded random games and matches under every variant and option and
prints the legal moves, the move and the state at every step; the bindings
replay the moves and must agree at every step. `random_playouts` must play
exactly the games of `hoyito bench` with the same seed."""

import itertools
import json
import subprocess

import pytest

import hoyito

VARIANTS = ["I", "II", "III"]
OPTION_SETS = [
    {},
    {"holes": 4},
    {"holes": 5, "seeds": 3},
    {"holes": 12},
    {"skip_origin": True},
    {"direction": "per_player"},
    {"direction": "per_move"},
    {"two_hole_opening": True},
    {"two_hole_opening": True, "direction": "per_move", "holes": 4},
    {"repetition": "own_row", "holes": 4, "seeds": 2},
    {"capture_side": "opponent"},
    {"seeds": 5, "direction": "per_player", "capture_side": "opponent", "skip_origin": True},
]
CASES = [
    (v, i, as_match)
    for (v, i), as_match in itertools.product(itertools.product(VARIANTS, range(len(OPTION_SETS))), [False, True])
]


def trace(trace_bin, rules, seed, games, as_match):
    args = [str(trace_bin), json.dumps(rules), str(seed), str(games)] + (["match"] if as_match else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("variant,opt,as_match", CASES)
def test_random_games_agree_with_the_rust_crate(trace_bin, variant, opt, as_match):
    rules = {"variant": variant, **OPTION_SETS[opt]}
    full = hoyito.rules_dict(**rules)
    lines = trace(trace_bin, full, seed=1000 + opt, games=3, as_match=as_match)
    plies = 0
    game = None
    for line in lines:
        if "start" in line:
            assert line["rules"] == full
            game = hoyito.Match(**rules) if as_match else hoyito.Game(**rules)
            assert game.state() == line["start"]
        elif "round" in line:
            assert game.start_next_round()
            assert game.round == line["round"]
            assert game.state() == line["state"]
        else:
            assert game.legal_moves() == line["legal"], game.notation()
            if not as_match:
                # The integer actions name the same moves.
                acts = game.legal_actions()
                assert [game.action_to_move(a) for a in acts] == line["legal"]
                assert sorted(acts) == [i for i, x in enumerate(game.action_mask()) if x]
            game.play(line["move"])
            assert game.state() == line["state"]
            plies += 1
    assert plies > 0


def test_records_and_notation_round_trip(trace_bin):
    lines = trace(trace_bin, hoyito.rules_dict(variant="II", direction="per_player"), 5, 1, False)
    g = hoyito.Game("II", direction="per_player")
    for line in lines[1:]:
        g.play(line["move"])
        back = hoyito.Game.from_notation(g.notation(), variant="II", direction="per_player")
        assert back.notation() == g.notation()
        assert back.legal_moves() == g.legal_moves()
    again = hoyito.Game.from_record(g.record())
    assert again == g and again.moves() == [line["move"] for line in lines[1:]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_play_the_games_of_hoyito_bench(hoyito_bin, variant):
    out = subprocess.run(
        [str(hoyito_bin), "bench", "--variant", variant, "--games", "300", "--seed", "7", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    bench = json.loads(out.splitlines()[0])
    ours = hoyito.random_playouts(300, variant=variant, seed=7)
    for key in ("games", "plies", "south_wins", "north_wins"):
        assert ours[key] == bench[key], key
    assert ours["draws"] == 300 - bench["south_wins"] - bench["north_wins"]
