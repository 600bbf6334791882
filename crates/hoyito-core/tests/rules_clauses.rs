//! One test (or more) per clause of RULES.md, each on a hand-worked board.
//!
//! Boards are written in the position notation: South's holes 1..n (board
//! indices 0..n-1), `/`, North's holes 1..n (indices n..2n-1), the side to
//! move, and the captures `south-north`. Every expected board below was
//! worked out by hand from the rules text; the comments give the working
//! (`iK` is board index K, `a→b` the count of a hole before and after a seed).

mod common;

use common::*;
use hoyito_core::{
    CaptureSide, Direction, DirectionRule, EndReason, Game, LastFour, Match, Move, MoveParseError, Outcome,
    PlayError, Played, Position, PositionError, Repetition, Rules, RulesSpec, Setup, Side, State, Variant,
};

/// Asserts a finished game: empty board, captures, winner and reason.
#[track_caller]
fn assert_over(p: &Position, captured: (u8, u8), winner: Option<Side>, reason: EndReason) {
    assert!(p.is_over(), "game over: {}", p.to_notation());
    assert!(p.board().iter().all(|&s| s == 0), "no seed left in play");
    assert_eq!(p.in_play(), 0);
    assert_eq!((p.captured().south, p.captured().north), captured);
    assert_eq!(p.outcome(), Some(Outcome { winner, reason }));
    assert!(p.legal_moves().is_empty());
}

// ----- §1 Equipment and notation ---------------------------------------------

#[test]
fn s1_start_position_every_board_size() {
    for n in 4..=12u8 {
        for v in Variant::ALL {
            let r = rules(v, n);
            let p = Position::new(r);
            assert_eq!(p.board().len(), 2 * n as usize);
            assert!(p.board().iter().all(|&s| s == 4), "4 seeds in each hole");
            assert_eq!(total(&p), 8 * n as u32);
            assert_eq!(p.to_move(), Side::South, "South moves first in the first game");
            assert_eq!((p.captured().south, p.captured().north), (0, 0));
            assert_eq!(p.closed_holes().count(), 0);
        }
    }
    assert_eq!(Rules::standard(Variant::I).total_seeds(), 48);
    assert_eq!(rules(Variant::II, 12).total_seeds(), 96);
    assert!(Rules::new(Variant::I, 3).is_err());
    assert!(Rules::new(Variant::I, 13).is_err());
}

#[test]
fn s1_hole_indices_and_move_names() {
    let r = Rules::standard(Variant::I);
    let south = Position::new(r);
    for k in 1..=6 {
        // South's hole k is index k-1.
        assert_eq!(
            south.parse_move(&k.to_string()).unwrap(),
            Move::single(k - 1, Direction::Ccw)
        );
    }
    let north = at(r, "4,4,4,4,4,4/4,4,4,4,4,4 n 0-0");
    for k in 1..=6 {
        // North's hole k is index n+k-1.
        assert_eq!(
            north.parse_move(&k.to_string()).unwrap(),
            Move::single(6 + k - 1, Direction::Ccw)
        );
    }
    assert_eq!(south.owner(5), Side::South);
    assert_eq!(south.owner(6), Side::North);
    assert_eq!(south.row(Side::South), 0..6);
    assert_eq!(south.row(Side::North), 6..12);
    // 2×4 and 2×12.
    let p4 = at(rules(Variant::I, 4), "4,4,4,4/4,4,4,4 n 0-0");
    assert_eq!(p4.parse_move("1").unwrap().hole(), 4);
    let p12 = Position::new(rules(Variant::I, 12));
    assert_eq!(p12.parse_move("12").unwrap().hole(), 11);
    assert_eq!(p12.parse_move("10").unwrap().hole(), 9);
}

#[test]
fn s1_counter_clockwise_sowing_goes_from_south_into_north() {
    // South 6 (i5, 3 seeds): i6 0→1, i7 0→1, i8 0→1 (last, empty): ends.
    case(
        Rules::standard(Variant::I),
        "0,0,0,0,0,3/0,0,0,0,0,0 s 0-0",
        "6",
        "0,0,0,0,0,0/1,1,1,0,0,0 n 0-0",
        1,
        0,
        false,
    );
}

#[test]
fn s1_counter_clockwise_sowing_wraps_from_north_into_south() {
    // North 6 (i11, 2 seeds): i0 1→2, i1 0→1 (last, empty): ends.
    case(
        Rules::standard(Variant::I),
        "1,0,0,0,0,0/0,0,0,0,0,2 n 0-0",
        "6",
        "2,1,0,0,0,0/0,0,0,0,0,0 s 0-0",
        1,
        0,
        false,
    );
}

#[test]
fn s1_move_token_syntax() {
    let r = Rules::standard(Variant::I);
    let p = Position::new(r);
    assert_eq!(p.parse_move("3").unwrap(), Move::single(2, Direction::Ccw));
    assert_eq!(p.parse_move(" 3 ").unwrap(), Move::single(2, Direction::Ccw));
    assert_eq!(p.parse_move("3L").unwrap(), Move::single(2, Direction::Ccw));
    assert_eq!(p.parse_move("3R").unwrap(), Move::single(2, Direction::Cw));
    assert_eq!(p.parse_move("3r").unwrap(), Move::single(2, Direction::Cw));
    assert_eq!(p.parse_move("2+5").unwrap(), Move::pair(1, 4, Direction::Ccw));
    assert_eq!(p.parse_move("2+5R").unwrap(), Move::pair(1, 4, Direction::Cw));
    for bad in [
        "", " ", "0", "7", "R", "L", "+", "2+", "+5", "3RR", "3X", "a", "-1", "1.5", "2+5+6", "100", "３",
    ] {
        let e: MoveParseError = p.parse_move(bad).expect_err(bad);
        assert_eq!(e.holes, 6);
    }
    // Names are relative to the side to move.
    let n = at(r, "4,4,4,4,4,4/4,4,4,4,4,4 n 0-0");
    assert_eq!(n.parse_move("2+5").unwrap(), Move::pair(7, 10, Direction::Ccw));
    // Writing: fixed direction writes no suffix; a pair is a+b.
    assert_eq!(p.move_token(Move::single(2, Direction::Ccw)).to_string(), "3");
    assert_eq!(p.move_token(Move::pair(1, 4, Direction::Ccw)).to_string(), "2+5");
    assert_eq!(n.move_token(Move::single(11, Direction::Ccw)).to_string(), "6");
    let pm = Position::new(rules_with(Variant::I, 6, |s| {
        s.direction = DirectionRule::PerMove
    }));
    assert_eq!(pm.move_token(Move::single(2, Direction::Cw)).to_string(), "3R");
    assert_eq!(pm.move_token(Move::single(2, Direction::Ccw)).to_string(), "3L");
}

// ----- §2 Sowing ------------------------------------------------------------------

#[test]
fn s2_a_move_takes_all_seeds_of_an_own_nonempty_open_hole() {
    let r = Rules::standard(Variant::I);
    let p = at(r, "0,3,x,0,0,0/1,0,0,0,0,0 s 0-0");
    let mut q = p;
    assert_eq!(
        q.play(Move::single(7, Direction::Ccw)),
        Err(PlayError::NotOwnHole { hole: 7 })
    );
    assert_eq!(
        q.play(Move::single(0, Direction::Ccw)),
        Err(PlayError::Empty { hole: 0 })
    );
    assert_eq!(
        q.play(Move::single(2, Direction::Ccw)),
        Err(PlayError::Closed { hole: 2 })
    );
    assert_eq!(q, p, "an illegal move changes nothing");
    assert_eq!(p.legal_moves().to_vec(), vec![Move::single(1, Direction::Ccw)]);
    // South 2 (i1, 3): i2 closed, skipped; i3 0→1, i4 0→1, i5 0→1 (last, empty).
    case(
        r,
        "0,3,x,0,0,0/1,0,0,0,0,0 s 0-0",
        "2",
        "0,0,x,1,1,1/1,0,0,0,0,0 n 0-0",
        1,
        0,
        false,
    );
}

#[test]
fn s2_emptied_start_hole_is_sown_into_on_a_lap_of_2n_seeds() {
    // 2×4, South 1 (i0, 8 seeds): i1..i7 0→1 (7 seeds), the 8th into i0
    // itself, 0→1: empty, the move ends.
    case(
        rules(Variant::II, 4),
        "8,0,0,0/0,0,0,0 s 0-0",
        "1",
        "1,1,1,1/1,1,1,1 n 0-0",
        1,
        0,
        false,
    );
}

#[test]
fn s2_skip_origin_skips_the_emptied_start_hole() {
    // Same move with skip_origin: i1..i7 0→1, i0 skipped, 8th seed i1 1→2:
    // relay (lift 2 from i1): i2 1→2, i3 1→2: relay (i3): i4 1→2, i5 1→2:
    // relay (i5): i6 1→2, i7 1→2: relay (i7): i0 0→1, i1 0→1: empty, ends.
    case(
        rules_with(Variant::II, 4, |s| s.skip_origin = true),
        "8,0,0,0/0,0,0,0 s 0-0",
        "1",
        "1,1,2,0/2,0,2,0 n 0-0",
        5,
        0,
        false,
    );
}

#[test]
fn s2_skip_origin_skips_the_origin_of_every_relay_lap() {
    // ◆ The code reads "the emptied starting hole" as the origin of each lap.
    // 2×4, South 1 (i0, 1 seed): i1 7→8: relay, lift 8 from i1.
    let before = "1,7,0,0/0,0,0,0 s 0-0";
    // Without skip_origin: i2..i7 0→1, i0 0→1, 8th seed into i1 0→1: ends.
    case(
        rules(Variant::II, 4),
        before,
        "1",
        "1,1,1,1/1,1,1,1 n 0-0",
        2,
        0,
        false,
    );
    // With skip_origin: i2..i7 0→1, i0 0→1, i1 skipped, 8th seed i2 1→2:
    // relay (i2): i3 1→2, i4 1→2: relay (i4): i5 1→2, i6 1→2: relay (i6):
    // i7 1→2, i0 1→2: relay (i0): i1 0→1, i2 0→1: ends.
    case(
        rules_with(Variant::II, 4, |s| s.skip_origin = true),
        before,
        "1",
        "0,1,1,2/0,2,0,2 n 0-0",
        6,
        0,
        false,
    );
}

#[test]
fn s2_closed_holes_never_receive_a_seed() {
    let r = rules(Variant::I, 4);
    // South 1 (i0, 3): i1 0→1, i2 closed, i3 0→1, i4 0→1: ends.
    case(
        r,
        "3,0,x,0/0,x,0,0 s 0-0",
        "1",
        "0,1,x,1/1,x,0,0 n 0-0",
        1,
        0,
        false,
    );
    // Relay across closed holes: i0 (2): i1 0→1, (i2), i3 1→2: relay (i3, 2):
    // i4 0→1, (i5), i6 0→1: ends.
    case(
        r,
        "2,0,x,1/0,x,0,0 s 0-0",
        "1",
        "0,1,x,0/1,x,1,0 n 0-0",
        2,
        0,
        false,
    );
    // A closed hole is never played.
    let mut p = at(r, "2,0,x,1/0,x,0,0 s 0-0");
    let m = p.parse_move("3").unwrap();
    assert_eq!(p.play(m), Err(PlayError::Closed { hole: 2 }));
}

#[test]
fn s2_relay_lifts_the_landing_hole_and_continues_from_the_next() {
    for v in Variant::ALL {
        let r = Rules::standard(v);
        // Landing makes 2: i0 (1): i1 1→2: relay (2): i2 0→1, i3 0→1: ends.
        case(
            r,
            "1,1,0,0,0,0/0,0,0,0,0,1 s 0-0",
            "1",
            "0,0,1,1,0,0/0,0,0,0,0,1 n 0-0",
            2,
            0,
            false,
        );
        // Landing makes 3: i1 2→3: relay (3): i2, i3, i4 0→1: ends.
        case(
            r,
            "1,2,0,0,0,0/0,0,0,0,0,1 s 0-0",
            "1",
            "0,0,1,1,1,0/0,0,0,0,0,1 n 0-0",
            2,
            0,
            false,
        );
        // Landing makes 5: i1 4→5: relay (5): i2..i6 0→1: ends.
        case(
            r,
            "1,4,0,0,0,0/0,0,0,0,0,1 s 0-0",
            "1",
            "0,0,1,1,1,1/1,0,0,0,0,1 n 0-0",
            2,
            0,
            false,
        );
        // A chain of relays: i0 (1): i1 1→2: relay: i2 0→1, i3 1→2: relay:
        // i4 0→1, i5 2→3: relay (3): i6 0→1, i7 0→1, i8 0→1: ends.
        case(
            r,
            "1,1,0,1,0,2/0,0,0,0,0,1 s 0-0",
            "1",
            "0,0,1,0,1,0/1,1,1,0,0,1 n 0-0",
            4,
            0,
            false,
        );
    }
}

#[test]
fn s2_last_seed_into_an_empty_hole_ends_the_move() {
    // Passing over empty holes does not end the move; only the last seed counts.
    // South 1 (i0, 3): i1 0→1, i2 0→1, i3 1→2: relay (2): i4 0→1, i5 0→1: ends.
    case(
        Rules::standard(Variant::II),
        "3,0,0,1,0,0/0,0,0,0,0,1 s 0-0",
        "1",
        "0,1,1,0,1,1/0,0,0,0,0,1 n 0-0",
        2,
        0,
        false,
    );
}

#[test]
fn s2_observer_sees_every_lap_seed_and_capture() {
    let r = Rules::standard(Variant::I);
    let mut p = at(r, "1,1,3,0,0,0/0,0,0,0,0,1 s 0-0");
    let mut obs = Mirror::new(&p);
    let m = p.parse_move("1").unwrap();
    let played = p.play_observed(m, &mut obs).unwrap();
    // i0 (1): i1 1→2: relay (2): i2 3→4 captured at once, i3 0→1: ends.
    assert_eq!(
        played,
        Played {
            laps: 2,
            captured: 4,
            extra_turn: false
        }
    );
    assert_eq!(p.to_notation(), "0,0,0,1,0,0/0,0,0,0,0,1 n 4-0");
    assert_eq!(obs.laps, 2);
    assert_eq!(obs.seeds, 3);
    assert_eq!(obs.captures, vec![(2, 4)]);
    assert_eq!(obs.hand, 0);
    assert_eq!(obs.board, p.board().iter().map(|&s| s as i64).collect::<Vec<_>>());
}

// ----- §3 Captures ------------------------------------------------------------------

/// One board, three variants: South 2 (i1, 5 seeds) sows i2 1→2, i3 3→4,
/// i4 3→4, i5 3→4, i6 3→4 (last seed). i0 and i7 hold 4 untouched.
const THREE_WAYS: &str = "4,5,1,3,3,3/3,4,0,0,0,1 s 0-0";

#[test]
fn s3_hoyito_i_captures_every_casa_during_the_sowing() {
    // Hoyito I: i3, i4, i5 captured en passant as each becomes 4, then i6 by
    // the last seed, which ends the move. Casas that were not made by a seed
    // (i0, i7) stay. No extra turn.
    let p = case(
        Rules::standard(Variant::I),
        THREE_WAYS,
        "2",
        "4,0,2,0,0,0/0,4,0,0,0,1 n 16-0",
        1,
        16,
        false,
    );
    assert_eq!(p.in_play(), 11);
}

#[test]
fn s3_hoyito_i_en_passant_in_both_rows() {
    // South 5 (i4, 6): i5 3→4 captured (South's row), i6 3→4 captured
    // (North's row), i7..i10 0→1, the last into an empty hole: ends.
    let r = Rules::standard(Variant::I);
    let mut p = at(r, "0,0,0,0,6,3/3,0,0,0,0,2 s 0-0");
    let mut obs = Mirror::new(&p);
    let played = p.play_observed(p.parse_move("5").unwrap(), &mut obs).unwrap();
    assert_eq!(p.to_notation(), "0,0,0,0,0,0/0,1,1,1,1,2 n 8-0");
    assert_eq!(
        played,
        Played {
            laps: 1,
            captured: 8,
            extra_turn: false
        }
    );
    assert_eq!(
        obs.captures,
        vec![(5, 4), (6, 4)],
        "captured at once, in sowing order"
    );
}

#[test]
fn s3_hoyito_i_en_passant_in_a_relay_lap_and_sowing_goes_on() {
    // i0 (1): i1 1→2: relay (2): i2 3→4 captured, the hand still has one:
    // i3 0→1: ends.
    case(
        Rules::standard(Variant::I),
        "1,1,3,0,0,0/0,0,0,0,0,1 s 0-0",
        "1",
        "0,0,0,1,0,0/0,0,0,0,0,1 n 4-0",
        2,
        4,
        false,
    );
}

#[test]
fn s3_hoyito_i_last_seed_casa_ends_the_move_without_extra_turn() {
    // South 5 (i4, 2): i5 0→1, i6 3→4 by the last seed: captured, the move
    // ends, North moves.
    case(
        Rules::standard(Variant::I),
        "0,0,0,0,2,0/3,0,0,0,0,2 s 0-0",
        "5",
        "0,0,0,0,0,1/0,0,0,0,0,2 n 4-0",
        1,
        4,
        false,
    );
    // The same sowing in Hoyito II gives another turn.
    case(
        Rules::standard(Variant::II),
        "0,0,0,0,2,0/3,0,0,0,0,2 s 0-0",
        "5",
        "0,0,0,0,0,1/0,0,0,0,0,2 s 4-0",
        1,
        4,
        true,
    );
}

#[test]
fn s3_hoyito_ii_backward_chain_stops_at_first_non_four() {
    // Hoyito II: nothing en passant; the last seed makes i6 = 4: captured,
    // then i5 (4), i4 (4), i3 (4); i2 holds 2: the chain stops, so i0 (4)
    // is not taken, nor i7 (4, ahead of the landing hole). Extra turn.
    let p = case(
        Rules::standard(Variant::II),
        THREE_WAYS,
        "2",
        "4,0,2,0,0,0/0,4,0,0,0,1 s 16-0",
        1,
        16,
        true,
    );
    // Another turn: any legal move of South.
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["1", "3"]);
}

#[test]
fn s3_hoyito_iii_captures_only_the_landing_hole() {
    // Hoyito III: only i6; i3, i4, i5 keep their 4. Extra turn.
    case(
        Rules::standard(Variant::III),
        THREE_WAYS,
        "2",
        "4,0,2,4,4,4/0,4,0,0,0,1 s 4-0",
        1,
        4,
        true,
    );
}

#[test]
fn s3_hoyito_ii_and_iii_never_capture_en_passant() {
    // South 5 (i4, 6): i5 3→4, i6 3→4 (not captured), i7..i10 0→1: ends.
    for v in [Variant::II, Variant::III] {
        case(
            Rules::standard(v),
            "0,0,0,0,6,3/3,0,0,0,0,2 s 0-0",
            "5",
            "0,0,0,0,0,4/4,1,1,1,1,2 n 0-0",
            1,
            0,
            false,
        );
    }
}

#[test]
fn s3_hoyito_ii_chain_skips_closed_holes() {
    // South 2 (i1, 4): i2 1→2, i3 3→4, (i4 closed), i5 3→4, i6 3→4 last:
    // captured; chain back: i5 = 4, (i4 closed, skipped), i3 = 4, i2 = 2 stops.
    case(
        Rules::standard(Variant::II),
        "4,4,1,3,x,3/3,0,0,0,0,1 s 0-0",
        "2",
        "4,0,2,0,x,0/0,0,0,0,0,1 s 12-0",
        1,
        12,
        true,
    );
}

#[test]
fn s3_hoyito_ii_chain_wraps_around_the_board() {
    // North 4 (i9, 4): i10 1→2, i11 3→4, i0 3→4, i1 3→4 last: captured;
    // back: i0 = 4, i11 = 4, i10 = 2 stops. The mover (North) captures.
    case(
        Rules::standard(Variant::II),
        "3,3,0,0,0,1/0,0,0,4,1,3 n 0-0",
        "4",
        "0,0,0,0,0,1/0,0,0,0,2,0 n 0-12",
        1,
        12,
        true,
    );
}

#[test]
fn s3_the_mover_captures_whoever_owns_the_hole() {
    // South captures a casa in South's own row (THREE_WAYS shows North's row):
    // i0 (1): i1 1→2: relay (2): i2 2→3, i3 3→4 last: captured by South.
    case(
        Rules::standard(Variant::III),
        "1,1,2,3,0,0/0,0,0,0,2,1 s 0-0",
        "1",
        "0,0,3,0,0,0/0,0,0,0,2,1 s 4-0",
        2,
        4,
        true,
    );
}

// ----- §4 Turns and end of a game -------------------------------------------------

#[test]
fn s4_a_player_without_seeds_passes() {
    let r = Rules::standard(Variant::I);
    // i0 (1): i1 1→2: relay: i2 0→1, i3 0→1: ends. North has no seed: South again.
    let p = case(
        r,
        "1,1,0,0,0,0/0,0,0,0,0,0 s 0-0",
        "1",
        "0,0,1,1,0,0/0,0,0,0,0,0 s 0-0",
        2,
        0,
        false,
    );
    assert_eq!(State::from_position(&p).to_move, Some(Side::South));
    // A position given with an empty side to move is settled at once.
    let q = Position::from_notation(r, "0,0,0,0,0,0/1,0,0,0,0,0 s 0-0").unwrap();
    assert_eq!(q.to_move(), Side::North);
    assert_eq!(q.to_notation(), "0,0,0,0,0,0/1,0,0,0,0,0 n 0-0");
    // An extra turn with an empty row passes too: i5 (1): i6 3→4 captured.
    let mut p = at(Rules::standard(Variant::II), "0,0,0,0,0,1/3,2,0,0,0,0 s 0-0");
    let played = play(&mut p, "6");
    assert_eq!(played.captured, 4);
    assert_eq!(p.to_notation(), "0,0,0,0,0,0/0,2,0,0,0,0 n 4-0");
}

#[test]
fn s4_an_extra_turn_with_only_endless_sowings_passes() {
    // Found by the match property test. Hoyito II, 2×4, capture side
    // opponent, round 2 with South's holes 3 and 4 closed. South 2 (i1, 2)
    // ends with a capture in North's row after 6 laps: an extra turn.
    let opp = rules_with(Variant::II, 4, |s| s.capture_side = CaptureSide::Opponent);
    case(
        opp,
        "1,2,x,x/1,2,0,6 s 0-12 reserve=0-8 round=2",
        "2",
        "2,0,x,x/2,3,0,1 n 4-12 reserve=0-8 round=2",
        6,
        4,
        true,
    );
    // But South's only sowing, 1 (i0, 2), never ends, so South passes and
    // North moves. The same board given with South to move settles to North.
    let q = Position::from_notation(opp, "2,0,x,x/2,3,0,1 s 4-12 reserve=0-8 round=2").unwrap();
    assert_eq!(q.to_move(), Side::North);
    let mut s = q.to_setup();
    s.to_move = Side::South;
    let south = Position::from_setup(opp, &s).unwrap();
    assert_eq!(south.to_move(), Side::North, "the pass is settled at once");
    assert_eq!(ref_sow_at(&q, 0, Direction::Ccw, Side::South), RefSow::Endless);
}

#[test]
fn s4_last_four_go_to_the_captor_in_hoyito_i_and_ii() {
    // 8 in play; South 6 (i5, 1): i6 3→4 captured: 4 left: South takes them.
    for v in [Variant::I, Variant::II, Variant::III] {
        let mut p = at(Rules::standard(v), "0,0,0,0,0,1/3,0,0,0,0,4 s 0-0");
        let played = play(&mut p, "6");
        assert_eq!(
            played,
            Played {
                laps: 1,
                captured: 8,
                extra_turn: false
            }
        );
        assert_over(&p, (8, 0), Some(Side::South), EndReason::LastFour);
    }
    // A last-four ending can be a draw: 12+8 = 20 against 20.
    let mut p = at(Rules::standard(Variant::II), "0,0,0,0,0,1/3,0,0,0,0,4 s 12-20");
    play(&mut p, "6");
    assert_over(&p, (20, 20), None, EndReason::LastFour);
}

#[test]
fn s4_last_four_count_the_seeds_still_in_hand() {
    // Hoyito I, South 5 (i4, 3): i5 0→1, i6 3→4 captured en passant: in play
    // now i5 1 + i11 2 + 1 in hand = 4: the game ends at once, South takes them.
    let mut p = at(Rules::standard(Variant::I), "0,0,0,0,3,0/3,0,0,0,0,2 s 0-0");
    let played = play(&mut p, "5");
    assert_eq!(played.captured, 8);
    assert_over(&p, (8, 0), Some(Side::South), EndReason::LastFour);
}

#[test]
fn s4_last_four_end_a_hoyito_ii_chain_at_once() {
    // South 5 (i4, 2): i5 3→4, i6 3→4 last: captured (8 left), chain i5 = 4:
    // captured (4 left): the game ends, South gets the last four.
    let mut p = at(Rules::standard(Variant::II), "0,0,0,0,2,3/3,0,0,0,0,4 s 0-0");
    let played = play(&mut p, "5");
    assert_eq!(
        played,
        Played {
            laps: 1,
            captured: 12,
            extra_turn: false
        }
    );
    assert_over(&p, (12, 0), Some(Side::South), EndReason::LastFour);
}

#[test]
fn s4_hoyito_iii_last_four_by_round() {
    let r = Rules::standard(Variant::III);
    // Single game and rounds 1–2: the captor (South) gets the last four.
    for text in [
        "0,0,0,0,0,1/3,0,0,0,0,4 s 12-16",
        "0,0,0,0,0,1/3,0,0,0,0,4 s 12-16 round=2",
    ] {
        let mut p = at(r, text);
        assert_eq!(p.last_four(), LastFour::Captor);
        play(&mut p, "6");
        assert_over(&p, (20, 16), Some(Side::South), EndReason::LastFour);
    }
    // Round 3 on: the winner of the previous round (here North) gets them,
    // even though South made the capture.
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,4 s 12-16 round=3 last4=n");
    assert_eq!(p.last_four(), LastFour::To(Side::North));
    let played = play(&mut p, "6");
    assert_eq!(played.captured, 4, "South keeps only the penultimate casa");
    assert_over(&p, (16, 20), Some(Side::North), EndReason::LastFour);
    // After a drawn round the captor gets them (no last4 field).
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,4 s 12-16 round=3");
    play(&mut p, "6");
    assert_over(&p, (20, 16), Some(Side::South), EndReason::LastFour);
}

#[test]
fn s4_a_capture_leaving_no_seed_ends_the_game() {
    for v in Variant::ALL {
        // 4 in play; i5 (1): i6 3→4 captured: nothing left.
        let mut p = at(Rules::standard(v), "0,0,0,0,0,1/3,0,0,0,0,0 s 20-24");
        let played = play(&mut p, "6");
        assert_eq!(
            played,
            Played {
                laps: 1,
                captured: 4,
                extra_turn: false
            }
        );
        assert_over(&p, (24, 24), None, EndReason::Exhausted);
    }
}

/// 2×4, one seed each side. North 4 (i7→i0), South 1 (i0→i1), North 1
/// (i4→i5), South 2, North 2, South 3, North 3 (i6→i7), South 4 (i3→i4):
/// back to the start, North to move.
const CYCLE: [&str; 8] = ["4", "1", "1", "2", "2", "3", "3", "4"];

#[test]
fn s4_third_repetition_ends_the_game_with_an_even_share() {
    let r = rules(Variant::I, 4);
    let start = at(r, "0,0,0,0/1,0,0,1 n 0-0");
    let mut g = Game::from_position(start);
    play_all(&mut g, &CYCLE);
    assert_eq!(*g.position(), start, "second occurrence");
    assert!(!g.is_over());
    play_all(&mut g, &CYCLE[..7]);
    assert!(!g.is_over(), "the position after 15 plies occurred twice only");
    play_all(&mut g, &CYCLE[7..]);
    // Third occurrence: 2 seeds in play, shared 1-1.
    assert_over(g.position(), (1, 1), None, EndReason::Repetition);
    assert!(g.play_token("4").is_err());
}

/// ◆ An odd count of seeds in play (possible with an odd `seeds` option in
/// a match) is shared with the odd seed to North.
#[test]
fn s4_an_odd_share_gives_the_odd_seed_to_north() {
    let r = rules_with(Variant::I, 4, |s| s.seeds = 5);
    let mut p = at(r, "1,0,2,0/0,0,0,0 s 17-20");
    p.end_by_repetition();
    assert_over(&p, (18, 22), Some(Side::North), EndReason::Repetition);
}

#[test]
fn s4_repetition_own_row_gives_each_player_their_row() {
    let r = rules_with(Variant::I, 4, |s| s.repetition = Repetition::OwnRow);
    let mut g = Game::from_position(at(r, "0,0,0,0/1,0,0,1 n 0-0"));
    for _ in 0..2 {
        play_all(&mut g, &CYCLE);
    }
    // Both seeds are in North's row.
    assert_over(g.position(), (0, 2), Some(Side::North), EndReason::Repetition);
}

#[test]
fn s4_repetition_counts_positions_with_the_same_side_to_move() {
    // The same board with the other side to move is another position.
    let r = rules(Variant::I, 4);
    let a = at(r, "0,0,0,0/1,0,0,1 n 0-0");
    let b = Position::from_notation(r, "0,0,0,0/1,0,0,1 s 0-0").unwrap();
    assert_eq!(b.to_move(), Side::North, "South has no seed and passes");
    assert_eq!(a, b);
    assert_eq!(a.repetition_key(), b.repetition_key());
    let c = at(r, "1,0,0,0/1,0,0,0 s 0-0");
    let d = at(r, "1,0,0,0/1,0,0,0 n 0-0");
    assert_ne!(c.repetition_key(), d.repetition_key());
}

#[test]
fn s4_winner_has_more_seeds_draw_on_equal() {
    let r = Rules::standard(Variant::II);
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,4 s 0-28");
    play(&mut p, "6");
    assert_over(&p, (8, 28), Some(Side::North), EndReason::LastFour);
    // Reserve counts (RULES.md §5): equal captures, South's reserve decides.
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,4 s 12-20 reserve=4-0");
    play(&mut p, "6");
    assert_over(&p, (20, 20), Some(Side::South), EndReason::LastFour);
}

// ----- §5 Match play -------------------------------------------------------------

#[test]
fn s5_closed_holes_and_reserve_in_a_round_position() {
    // Round 2 after 28-20: South fills 6 holes, 4 in reserve; North fills 5,
    // hole 6 (i11) closed.
    let r = Rules::standard(Variant::II);
    let p = at(r, "4,4,4,4,4,4/4,4,4,4,4,x s 0-0 reserve=4-0 round=2");
    assert_eq!(total(&p), 48);
    assert!(p.is_closed(11));
    assert_eq!(p.reserve().south, 4);
    // South 6 (i5, 4): i6, i7, i8, i9 4→5: relay (5): i10 4→5, (i11 closed),
    // i0, i1, i2, i3 4→5: relay (5): i4 4→5, i5 0→1, i6 5→6, i7 5→6, i8 5→6:
    // relay (6): i9 0→1, i10 5→6, (i11), i0 5→6, i1 5→6, i2 5→6, i3 0→1: ends.
    case(
        r,
        "4,4,4,4,4,4/4,4,4,4,4,x s 0-0 reserve=4-0 round=2",
        "6",
        "6,6,6,1,5,1/6,6,0,1,6,x n 0-0 reserve=4-0 round=2",
        4,
        0,
        false,
    );
}

/// ◆ With the option `seeds = s`, every round of a match refills holes with
/// `s` seeds from hole 1 on, a remainder below `s` goes to the reserve, holes
/// left unfilled are closed, and a player with fewer than `s` seeds in all
/// loses the match. Checked round after round of whole matches for odd and
/// even `s`.
#[test]
fn s5_the_seeds_option_sets_refills_and_the_losing_threshold() {
    let mut rounds_checked = 0;
    for seeds in [3u8, 5, 6] {
        for variant in Variant::ALL {
            let r = rules_with(variant, 4, |s| s.seeds = seeds);
            let s = seeds as u32;
            let mut m = Match::new(r);
            while m.outcome().is_none() && m.round() < 30 {
                while !m.current().is_over() {
                    let mv = m.current().position().legal_moves()[0];
                    m.play(mv).unwrap();
                }
                let end = *m.current().position();
                let total = |side: Side| end.captured()[side] as u32 + end.reserve()[side] as u32;
                if let Some(o) = m.outcome() {
                    let short: Vec<Side> = Side::ALL.into_iter().filter(|&x| total(x) < s).collect();
                    assert!(!short.is_empty(), "a match ends only when a player is short");
                    if short.len() == 1 {
                        assert_eq!(o.winner, Some(short[0].other()), "{seeds} seeds");
                    }
                    break;
                }
                assert!(
                    Side::ALL.into_iter().all(|x| total(x) >= s),
                    "nobody short, the match goes on"
                );
                let next = m.next_round_start().expect("the next round can start");
                for side in Side::ALL {
                    let filled = (total(side) / s).min(4) as usize;
                    let row = next.row(side);
                    for (k, i) in row.enumerate() {
                        if k < filled {
                            assert_eq!(
                                (next.seeds(i), next.is_closed(i)),
                                (seeds, false),
                                "{seeds} seeds, hole {i}"
                            );
                        } else {
                            assert!(next.is_closed(i), "{seeds} seeds, hole {i} unfilled");
                        }
                    }
                    assert_eq!(next.reserve()[side] as u32, total(side) - filled as u32 * s);
                }
                assert!(m.start_next_round());
                rounds_checked += 1;
            }
            assert!(
                rounds_checked >= 1,
                "Hoyito {variant}, {seeds} seeds: no second round"
            );
        }
    }
}

// ----- §6.1 Direction --------------------------------------------------------------

#[test]
fn s6_1_fixed_direction_is_counter_clockwise_only() {
    let mut p = Position::new(Rules::standard(Variant::I));
    assert_eq!(p.play(p.parse_move("3R").unwrap()), Err(PlayError::Direction));
    assert!(p.legal_moves().iter().all(|m| m.direction() == Direction::Ccw));
    assert_eq!(p.legal_moves().len(), 6);
}

#[test]
fn s6_1_per_player_choice_is_kept_contrary_suffix_illegal() {
    let r = rules_with(Variant::I, 6, |s| s.direction = DirectionRule::PerPlayer);
    let mut p = at(r, "0,0,2,0,0,0/0,0,1,0,0,0 s 0-0");
    // Before choosing, both directions are legal and written with a suffix.
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["3L", "3R"]);
    // South 3R (i2, 2, clockwise): i1 0→1, i0 0→1: ends.
    play(&mut p, "3R");
    assert_eq!(p.to_notation(), "1,1,0,0,0,0/0,0,1,0,0,0 n 0-0 dir=R-");
    // North chooses counter-clockwise (no suffix means L for a first move).
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["3L", "3R"]);
    play(&mut p, "3");
    assert_eq!(p.to_notation(), "1,1,0,0,0,0/0,0,0,1,0,0 s 0-0 dir=RL");
    // South keeps clockwise: no suffix needed, matching suffix accepted,
    // contrary suffix illegal.
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["1", "2"]);
    let mut q = p;
    assert_eq!(q.play(q.parse_move("1L").unwrap()), Err(PlayError::Direction));
    let mut q = p;
    play(&mut q, "1R");
    // South 1 (i0, 1, clockwise): i11 0→1: ends.
    play(&mut p, "1");
    assert_eq!(p, q);
    assert_eq!(p.to_notation(), "0,1,0,0,0,0/0,0,0,1,0,1 n 0-0 dir=RL");
    let mut q = p;
    assert_eq!(q.play(q.parse_move("4R").unwrap()), Err(PlayError::Direction));
    // North 4 (i9, 1): i10 0→1: ends.
    play(&mut p, "4");
    assert_eq!(p.to_notation(), "0,1,0,0,0,0/0,0,0,0,1,1 s 0-0 dir=RL");
}

#[test]
fn s6_1_per_move_chain_runs_against_a_clockwise_sowing() {
    let r = rules_with(Variant::II, 6, |s| s.direction = DirectionRule::PerMove);
    let before = "3,3,3,1,5,0/1,0,0,0,4,3 s 0-0";
    // 5L (i4, 5): i5 0→1, i6 1→2, i7, i8, i9 0→1: ends.
    case(r, before, "5L", "3,3,3,1,0,1/2,1,1,1,4,3 n 0-0", 1, 0, false);
    // 5R (i4, 5, clockwise): i3 1→2, i2 3→4, i1 3→4, i0 3→4, i11 3→4 last:
    // captured; the chain runs counter-clockwise: i0, i1, i2 (4 each), i3 = 2
    // stops. i10 (4, next in the sowing direction) is not taken.
    let p = case(r, before, "5R", "0,0,0,2,0,0/1,0,0,0,4,0 s 16-0", 1, 16, true);
    // The extra turn may go either way.
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["4L", "4R"]);
    // 4R (i3, 2): i2 0→1, i1 0→1: ends.
    let mut q = p;
    play(&mut q, "4R");
    assert_eq!(q.to_notation(), "0,1,1,0,0,0/1,0,0,0,4,0 n 16-0");
    // 4L (i3, 2): i4 0→1, i5 0→1: ends.
    let mut q = p;
    play(&mut q, "4L");
    assert_eq!(q.to_notation(), "0,0,0,0,1,1/1,0,0,0,4,0 n 16-0");
}

#[test]
fn s6_1_per_move_relay_laps_keep_the_direction() {
    // Clockwise relay: 2R (i1, 1): i0 1→2: relay (2) clockwise: i11 0→1,
    // i10 1→2: relay: i9 0→1, i8 0→1: ends.
    case(
        rules_with(Variant::I, 6, |s| s.direction = DirectionRule::PerMove),
        "1,1,0,0,0,0/0,0,0,0,1,0 s 0-0",
        "2R",
        "0,0,0,0,0,0/0,0,1,1,0,1 n 0-0",
        3,
        0,
        false,
    );
}

// ----- §6.2 Two-hole opening -------------------------------------------------------

#[test]
fn s6_2_two_hole_opening_ordered_pairs_second_hole_must_keep_seeds() {
    let r = rules_with(Variant::II, 4, |s| s.two_hole_opening = true);
    let before = "1,1,0,2/0,0,0,3 s 0-0 opening";
    let p = at(r, before);
    // 1+2: i0 (1): i1 1→2: relay: i2 0→1, i3 2→3: relay: i4, i5, i6 0→1:
    // ends — i1 (and i3) are now empty, so 1+2 and 1+4 are illegal.
    // 2+1, 2+4, 4+1, 4+2 are legal.
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["2+1", "2+4", "4+1", "4+2"]);
    for bad in ["1+2", "1+4"] {
        let mut q = p;
        assert!(
            matches!(q.play(q.parse_move(bad).unwrap()), Err(PlayError::Opening(_))),
            "{bad}"
        );
    }
    let mut q = p;
    assert!(matches!(
        q.play(q.parse_move("2").unwrap()),
        Err(PlayError::Opening(_))
    ));
    let mut q = p;
    assert!(matches!(
        q.play(q.parse_move("2+2").unwrap()),
        Err(PlayError::Opening(_))
    ));
    // 2+1: i1 (1): i2 0→1: ends; i0 (1): i1 0→1: ends.
    let after = case(r, before, "2+1", "0,1,1,2/0,0,0,3 n 0-0", 2, 0, false);
    assert!(!after.opening_pending());
    // 4+1: i3 (2): i4, i5 0→1: ends; i0 (1): i1 1→2: relay: i2, i3 0→1: ends.
    case(r, before, "4+1", "0,0,1,1/1,1,0,3 n 0-0", 3, 0, false);
    // 2+4: i1 (1): i2 0→1; i3 (2): i4, i5 0→1.
    case(r, before, "2+4", "1,0,1,0/1,1,0,3 n 0-0", 2, 0, false);
    // The opening is only the first move: North moves one hole.
    let mut n = after;
    assert!(matches!(
        n.play(Move::pair(7, 4, Direction::Ccw)),
        Err(PlayError::Opening(_))
    ));
    play(&mut n, "4");
}

#[test]
fn s6_2_two_hole_opening_extra_turn_after_the_second_sowing() {
    let r = rules_with(Variant::II, 4, |s| s.two_hole_opening = true);
    // 4+1: i3 (1): i4 3→4 last: captured (chain: i3 = 0 stops); then the
    // second sowing still happens: i0 (1): i1 0→1: ends. Then South again.
    let p = case(
        r,
        "1,0,0,1/3,0,2,3 s 0-0 opening",
        "4+1",
        "0,1,0,0/0,0,2,3 s 4-0",
        2,
        4,
        true,
    );
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["2"]);
    // In the other order the capture comes second: same board.
    case(
        r,
        "1,0,0,1/3,0,2,3 s 0-0 opening",
        "1+4",
        "0,1,0,0/0,0,2,3 s 4-0",
        2,
        4,
        true,
    );
    // Hoyito I: same sowings, no extra turn.
    let r1 = rules_with(Variant::I, 4, |s| s.two_hole_opening = true);
    case(
        r1,
        "1,0,0,1/3,0,2,3 s 0-0 opening",
        "4+1",
        "0,1,0,0/0,0,2,3 n 4-0",
        2,
        4,
        false,
    );
}

#[test]
fn s6_2_two_hole_opening_falls_back_to_one_hole_without_a_legal_pair() {
    // ◆ Only one non-empty hole: no pair exists, a one-hole move is played.
    let r = rules_with(Variant::II, 4, |s| s.two_hole_opening = true);
    let p = at(r, "0,0,0,2/1,0,0,0 s 0-0 opening");
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["4"]);
    // South 4 (i3, 2): i4 1→2, i5 0→1: ends.
    case(
        r,
        "0,0,0,2/1,0,0,0 s 0-0 opening",
        "4",
        "0,0,0,0/2,1,0,0 n 0-0",
        1,
        0,
        false,
    );
}

#[test]
fn s6_2_standard_opening_offers_only_pairs() {
    let r = rules_with(Variant::III, 6, |s| s.two_hole_opening = true);
    let p = Position::new(r);
    assert!(p.opening_pending());
    let legal = p.legal_moves();
    assert!(!legal.is_empty() && legal.len() <= 30);
    assert!(legal.iter().all(|m| m.is_pair() && m.second() != Some(m.hole())));
}

// ----- §6.4 Capture side -----------------------------------------------------------

#[test]
fn s6_4_capture_side_opponent_own_row_casa_relays() {
    let any = Rules::standard(Variant::II);
    let opp = rules_with(Variant::II, 6, |s| s.capture_side = CaptureSide::Opponent);
    // South 2 (i1, 1): i2 3→4 by the last seed, in South's own row.
    // any: captured, extra turn.
    case(
        any,
        "1,1,3,0,0,0/0,0,0,0,0,1 s 0-0",
        "2",
        "1,0,0,0,0,0/0,0,0,0,0,1 s 4-0",
        1,
        4,
        true,
    );
    // opponent: relays like any occupied hole: lift 4: i3, i4, i5, i6 0→1: ends.
    case(
        opp,
        "1,1,3,0,0,0/0,0,0,0,0,1 s 0-0",
        "2",
        "1,0,0,1,1,1/1,0,0,0,0,1 n 0-0",
        2,
        0,
        false,
    );
}

#[test]
fn s6_4_capture_side_opponent_chain_stops_at_the_movers_row() {
    let opp = rules_with(Variant::II, 6, |s| s.capture_side = CaptureSide::Opponent);
    // As THREE_WAYS: i6 (North's) captured; the chain reaches i5, South's: stops.
    case(opp, THREE_WAYS, "2", "4,0,2,4,4,4/0,4,0,0,0,1 s 4-0", 1, 4, true);
    // North captures in South's row: North 6 (i11, 1): i0 3→4: captured.
    case(
        opp,
        "3,0,0,0,0,1/1,0,0,0,0,1 n 0-0",
        "6",
        "0,0,0,0,0,1/1,0,0,0,0,0 n 0-4",
        1,
        4,
        true,
    );
    // North's own-row casa relays: North 1 (i6, 1): i7 3→4 (own): relay (4):
    // i8, i9, i10, i11 0→1: ends.
    case(
        opp,
        "1,0,0,0,0,0/1,3,0,0,0,0 n 0-0",
        "1",
        "1,0,0,0,0,0/0,0,1,1,1,1 s 0-0",
        2,
        0,
        false,
    );
}

#[test]
fn s6_4_capture_side_opponent_in_hoyito_i() {
    // i5 3→4 (South's own row) stays; i6 3→4 captured en passant.
    let opp = rules_with(Variant::I, 6, |s| s.capture_side = CaptureSide::Opponent);
    case(
        opp,
        "0,0,0,0,6,3/3,0,0,0,0,2 s 0-0",
        "5",
        "0,0,0,0,0,4/0,1,1,1,1,2 n 4-0",
        1,
        4,
        false,
    );
}

// ----- §6.3 Board size ---------------------------------------------------------------

#[test]
fn s6_3_twelve_holes_per_row() {
    // 2×12, South 12 (i11, 2): i12 (North 1) 0→1, i13 0→1: ends.
    let r = rules(Variant::II, 12);
    case(
        r,
        "0,0,0,0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0,0,0,0,1 s 0-0",
        "12",
        "0,0,0,0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0,0,0,1 n 0-0",
        1,
        0,
        false,
    );
    // North 12 (i23, 2) wraps: i0 0→1, i1 0→1: ends.
    case(
        r,
        "0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,2 n 0-0",
        "12",
        "1,1,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0 s 0-0",
        1,
        0,
        false,
    );
}

// ----- §7 JSON state ---------------------------------------------------------------

#[test]
fn s7_json_state_fields() {
    let r = Rules::standard(Variant::II);
    let p = at(r, "4,0,2,x,0,0/0,4,0,0,0,1 s 16-0");
    let v = serde_json::to_value(State::from_position(&p)).unwrap();
    assert_eq!(v["variant"], "II");
    assert_eq!(v["holes_per_row"], 6);
    assert_eq!(
        v["board"],
        serde_json::json!([4, 0, 2, 0, 0, 0, 0, 4, 0, 0, 0, 1])
    );
    assert_eq!(v["closed"], serde_json::json!([3]));
    assert_eq!(v["captured"], serde_json::json!([16, 0]));
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["over"], false);
    assert!(v["winner"].is_null());
    // After an automatic pass, to_move names who really moves next.
    let q = Position::from_notation(r, "0,0,0,0,0,0/1,0,0,0,0,0 s 0-0").unwrap();
    let v = serde_json::to_value(State::from_position(&q)).unwrap();
    assert_eq!(v["to_move"], "north");
    // Game over: the last-four award is in captured; winner named; draw.
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,4 s 0-0");
    play(&mut p, "6");
    let v = serde_json::to_value(State::from_position(&p)).unwrap();
    assert_eq!(v["captured"], serde_json::json!([8, 0]));
    assert_eq!(v["over"], true);
    assert_eq!(v["winner"], "south");
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,0 s 20-24");
    play(&mut p, "6");
    let v = serde_json::to_value(State::from_position(&p)).unwrap();
    assert_eq!(v["winner"], "draw");
    assert_eq!(v["over"], true);
    let mut p = at(r, "0,0,0,0,0,1/3,0,0,0,0,4 s 0-28");
    play(&mut p, "6");
    let v = serde_json::to_value(State::from_position(&p)).unwrap();
    assert_eq!(v["winner"], "north");
    // The JSON reads back into the same State.
    let s = State::from_position(&p);
    let back: State = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
}

// ----- Setup validation ----------------------------------------------------------------

#[test]
fn setups_are_validated() {
    let r = Rules::standard(Variant::I);
    let mut s = Setup::start(&r);
    s.board.pop();
    assert!(Position::from_setup(r, &s).is_err());
    let mut s = Setup::start(&r);
    s.closed = vec![3];
    assert!(
        Position::from_setup(r, &s).is_err(),
        "a closed hole must be empty"
    );
    let mut s = Setup::start(&r);
    s.board[3] = 0;
    s.closed = vec![12];
    assert!(Position::from_setup(r, &s).is_err(), "closed hole off the board");
    let mut s = Setup::start(&r);
    s.captured.south = 200;
    assert!(Position::from_setup(r, &s).is_err(), "more than 240 seeds");
}

/// `from_setup` refuses what the notation parser refuses, instead of
/// dropping or clamping it: a round of 0 or past 65535, a pending opening
/// without the two-hole opening rule, direction choices without
/// `direction = per_player`.
#[test]
fn setups_the_rules_contradict_are_refused() {
    let r = Rules::standard(Variant::I);
    for round in [0, 65_536] {
        let mut s = Setup::start(&r);
        s.round = round;
        assert_eq!(Position::from_setup(r, &s), Err(PositionError::Round(round)));
    }
    let mut s = Setup::start(&r);
    s.round = 65_535;
    assert_eq!(Position::from_setup(r, &s).map(|p| p.round()), Ok(65_535));
    let mut s = Setup::start(&r);
    s.opening = true;
    assert_eq!(
        Position::from_setup(r, &s),
        Err(PositionError::OpeningWithoutRule)
    );
    let mut s = Setup::start(&r);
    s.chosen.south = Some(Direction::Cw);
    assert_eq!(
        Position::from_setup(r, &s),
        Err(PositionError::ChosenWithoutRule(DirectionRule::Fixed))
    );
    // The notation parser gives the same reasons, with the text.
    for text in [
        "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0 round=0",
        "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0 opening",
        "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0 dir=R-",
    ] {
        match Position::from_notation(r, text) {
            Err(PositionError::Notation { text: t, .. }) => assert_eq!(t, text),
            other => panic!("{text}: {other:?}"),
        }
    }
    // Under the rules that allow them, the same setups are positions.
    let per_player = Rules::try_from(RulesSpec {
        direction: DirectionRule::PerPlayer,
        two_hole_opening: true,
        ..RulesSpec::default()
    })
    .unwrap();
    let mut s = Setup::start(&per_player);
    s.chosen.south = Some(Direction::Cw);
    let p = Position::from_setup(per_player, &s).unwrap();
    assert_eq!(
        (p.chosen_directions().south, p.opening_pending()),
        (Some(Direction::Cw), true)
    );
    assert_eq!(p.to_setup(), s);
}
