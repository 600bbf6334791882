"""Rules examples (RULES.md sections 1-7) through the Python API. Each
position and expected result is worked out by hand from the rules text."""

import pytest

import hoyito
from hoyito import Game, Match

THREE_WAYS = "4,5,1,3,3,3/3,4,0,0,0,1 s 0-0"


def test_s1_start_position_and_move_names():
    for n in range(4, 13):
        g = Game(holes=n)
        assert g.board == [4] * (2 * n)
        assert g.to_move() == "south"
        assert g.legal_moves() == [str(k) for k in range(1, n + 1)]
        assert g.captured == (0, 0)
    g = Game("II")
    assert g.state()["holes_per_row"] == 6
    assert sum(g.board) == 48


def test_s1_counter_clockwise_sowing_and_tokens_with_direction():
    # South's hole 6 (index 5) sows into North's hole 1 (index 6) and on.
    g = Game.from_notation("0,0,0,0,0,2/0,0,0,0,0,0 s 0-0")
    g.play("6")
    assert g.board == [0] * 6 + [1, 1, 0, 0, 0, 0]
    assert g.to_move() == "north"
    # With direction per_move every token carries L or R; R is clockwise.
    g = Game.from_notation("2,0,0,0,0,0/0,0,0,0,0,0 s 0-0", direction="per_move")
    assert g.legal_moves() == ["1L", "1R"]
    g.play("1R")
    assert g.board == [0] * 10 + [1, 1]


def test_s3_hoyito_i_captures_every_casa_during_the_sowing():
    g = Game.from_notation(THREE_WAYS, variant="I")
    assert g.play("2") == 16
    assert g.notation() == "4,0,2,0,0,0/0,4,0,0,0,1 n 16-0"


def test_s3_hoyito_ii_backward_chain_and_extra_turn():
    g = Game.from_notation(THREE_WAYS, variant="II")
    assert g.play("2") == 16
    assert g.notation() == "4,0,2,0,0,0/0,4,0,0,0,1 s 16-0"
    assert g.to_move() == "south"
    assert g.legal_moves() == ["1", "3"]


def test_s3_hoyito_iii_captures_only_the_landing_hole():
    g = Game.from_notation(THREE_WAYS, variant="III")
    assert g.play("2") == 4
    assert g.notation() == "4,0,2,4,4,4/0,4,0,0,0,1 s 4-0"


def test_s4_a_player_without_seeds_passes():
    g = Game.from_notation("1,1,0,0,0,0/0,0,0,0,0,0 s 0-0")
    g.play("1")
    assert g.notation() == "0,0,1,1,0,0/0,0,0,0,0,0 s 0-0"
    assert g.to_move() == "south"


@pytest.mark.parametrize("variant", ["I", "II", "III"])
def test_s4_last_four_go_to_the_captor(variant):
    g = Game.from_notation("0,0,0,0,0,1/3,0,0,0,0,4 s 0-0", variant=variant)
    assert g.play("6") == 8
    s = g.state()
    assert s["over"] and s["winner"] == "south" and s["end_reason"] == "last_four"
    assert s["captured"] == [8, 0]
    assert g.legal_moves() == []


def test_s4_third_repetition_shares_the_seeds_evenly():
    cycle = ["4", "1", "1", "2", "2", "3", "3", "4"]
    g = Game.from_notation("0,0,0,0/1,0,0,1 n 0-0", holes=4)
    for t in cycle * 2:
        assert not g.is_over()
        g.play(t)
    s = g.state()
    assert s["over"] and s["end_reason"] == "repetition"
    assert s["captured"] == [1, 1] and s["winner"] == "draw"
    with pytest.raises(hoyito.IllegalMove, match="game is over"):
        g.play("4")


def test_s5_match_refills_close_holes_and_keep_reserves():
    import random

    for seed in range(100):
        rng = random.Random(seed)
        m = Match(holes=4)
        while not m.is_round_over():
            m.play(rng.choice(m.legal_moves()))
        if m.is_over():
            with pytest.raises(hoyito.IllegalMove, match="match is over"):
                m.play("1")
            assert not m.start_next_round()
            continue
        break
    else:
        pytest.fail("no random first round left the match going on")
    winner = m.round_winner()
    south, north = m.state()["captured"]
    with pytest.raises(hoyito.IllegalMove, match="start_next_round"):
        m.play("1")
    assert m.start_next_round()
    s = m.state()
    assert s["round"] == 2 and m.round == 2
    # Each player refills from hole 1 with 4 seeds per hole; the rest is reserve.
    for side, total, row in ((0, south, range(0, 4)), (1, north, range(4, 8))):
        full = min(total // 4, 4)
        assert [s["board"][i] for i in row] == [4] * full + [0] * (4 - full)
        assert [i for i in s["closed"] if i in row] == list(row)[full:]
        assert s["reserve"][side] == total - 4 * full
    if winner in ("south", "north"):
        assert m.to_move() == winner


def test_conceding_a_round_gives_the_seeds_in_play_away():
    # A convention of this project (docs/NOTATION.md): RULES.md is silent.
    m = Match()
    m.play(m.legal_moves()[0])
    before = m.state()
    with pytest.raises(hoyito.IllegalMove, match='cannot concede for "east"'):
        m.concede("east")
    m.concede("north")
    s = m.state()
    assert s["over"] and s["end_reason"] == "conceded"
    assert s["captured"] == [before["captured"][0] + sum(before["board"]), before["captured"][1]]
    with pytest.raises(hoyito.IllegalMove):
        m.concede("south")
    assert "concede:north" in m.record()
    g = Game()
    g.concede("south")
    assert g.is_over() and g.winner() == "north"
    assert Game.from_record(g.record()).is_over()
    import pickle

    assert pickle.loads(pickle.dumps(g)) == g and g != Game()
    assert pickle.loads(pickle.dumps(m)).state() == s


def test_s6_two_hole_opening_and_capture_side():
    g = Game(two_hole_opening=True)
    moves = g.legal_moves()
    assert all("+" in t for t in moves) and "2+5" in moves and "1+1" not in moves
    with pytest.raises(hoyito.IllegalMove, match="two holes"):
        g.play("3")
    g.play("2+5")
    assert all("+" not in t for t in g.legal_moves())
    # capture_side="opponent": a casa in the mover's own row relays instead.
    a = Game.from_notation("0,0,0,0,1,3/0,0,0,0,0,1 s 0-0", variant="II")
    b = Game.from_notation("0,0,0,0,1,3/0,0,0,0,0,1 s 0-0", variant="II", capture_side="opponent")
    assert a.play("5") == 4
    assert b.play("5") == 0


def test_s7_state_fields():
    s = Game("III", holes=5).state()
    for key in ("variant", "holes_per_row", "board", "closed", "captured", "to_move", "over", "winner"):
        assert key in s
    assert s["variant"] == "III" and s["holes_per_row"] == 5 and len(s["board"]) == 10
    assert s["to_move"] == "south" and s["over"] is False and s["winner"] is None
