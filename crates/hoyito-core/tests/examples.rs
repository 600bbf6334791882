//! Examples found by search, committed as exact facts: endless and long
//! sowings, a position where neither player can move, and matches that show
//! the match rules. The searches are programs of the `hoyito-lab` crate
//! (`find_long_sowings`, `longest_sowing`, `search_no_moves`,
//! `search_matches`); docs/research/README.md says how to run them.

mod common;

use common::*;
use hoyito_core::{Direction, EndReason, LastFour, Move, PlayError, Position, Record, Rules, Side, Variant};

// ----- Endless sowings (RULES.md §2) ---------------------------------------------

/// Checks that `token` in `text` (Hoyito `v`, 2×6) is endless: `play`
/// refuses it, the position is unchanged, and it is not a legal move.
#[track_caller]
fn assert_endless(v: Variant, text: &str, token: &str) {
    let r = Rules::standard(v);
    let p = at(r, text);
    let m = p.parse_move(token).unwrap();
    assert!(p.candidates().contains(&m));
    let mut q = p;
    assert_eq!(q.play(m), Err(PlayError::Endless));
    assert_eq!(q, p, "an endless move leaves the position unchanged");
    let mut q = p;
    assert_eq!(q.play_unchecked(m), Err(PlayError::Endless));
    assert!(!p.legal_moves().contains(&m));
    assert!(!p.is_legal(m));
}

#[test]
fn endless_sowing_short_cycle() {
    // Found by random play in Hoyito II (find_long_sowings, seed 1). The
    // reference sowing (Floyd) confirms a cycle of 60 laps.
    let text = "1,0,1,0,2,1/0,2,1,0,1,3 n 12-24";
    assert_endless(Variant::II, text, "6");
    let p = at(Rules::standard(Variant::II), text);
    assert_eq!(ref_sow_at(&p, 11, Direction::Ccw, Side::North), RefSow::Endless);
    // Every other move of North is legal.
    assert_eq!(tokens(&p, &p.legal_moves()), vec!["2", "3", "5"]);
}

#[test]
fn endless_sowing_found_first_by_random_play() {
    // The first endless sowing found by random play in Hoyito II
    // (find_long_sowings, seed 1): North 6. Its lap-start state comes back
    // after 50,511 laps (checked with an independent simulation).
    assert_endless(Variant::II, "1,2,1,0,2,14/8,2,1,2,4,3 n 4-4", "6");
}

#[test]
fn endless_sowing_with_a_cycle_of_millions_of_laps() {
    // Found by random play (seed 1): a cycle of 4,628,448 laps, in Hoyito II
    // and III alike (no capture is ever made). Detected exactly, in constant memory.
    assert_endless(Variant::II, "1,0,4,6,2,1/13,9,3,7,0,2 n 0-0", "4");
    assert_endless(Variant::III, "1,0,4,6,2,1/13,9,3,7,0,2 n 0-0", "4");
    // Hoyito III, found by random play: a cycle of 2,352,774 laps.
    assert_endless(Variant::III, "13,2,1,0,1,5/1,0,1,0,2,22 s 0-0", "6");
}

#[test]
fn endless_sowings_with_many_seeds_are_found_at_once() {
    // 2×6 with 20 seeds per hole and 2×5 with 24 (find_long_sowings
    // boards): relays that go round cycles of billions of laps, which the
    // cycle check alone took minutes to close. The residues of their lap
    // starts (position/endless.rs, `relay_never_ends`) prove them endless at once.
    for (holes, seeds, text, token) in [
        (6, 20, "21,23,24,18,27,19/24,18,12,24,18,12 s 0-0", "6"),
        (6, 10, "8,14,15,12,5,10/11,8,7,11,10,9 s 0-0", "1"),
    ] {
        for variant in [Variant::II, Variant::III] {
            let r = Rules::try_from(hoyito_core::RulesSpec {
                variant,
                holes,
                seeds,
                ..Default::default()
            })
            .unwrap();
            let p = at(r, text);
            let m = p.parse_move(token).unwrap();
            let mut q = p;
            assert_eq!(q.play_unchecked(m), Err(PlayError::Endless), "{text}");
            assert!(!p.is_legal(m), "{text}");
        }
    }
    // Endless too, but its residues allow an end that never comes: only
    // the cycle check can tell (2×4, 4 seeds per hole, South 2).
    let r = Rules::new(Variant::II, 4).unwrap();
    let p = at(r, "1,6,4,6/3,7,3,2 s 0-0");
    let m = p.parse_move("2").unwrap();
    assert_eq!({ p }.play_unchecked(m), Err(PlayError::Endless));
    assert!(!p.is_legal(m));
    // Finite, and longer than any sowing found with 4 seeds per hole: 3,687
    // laps on 2×5 with 24 seeds per hole.
    let r = Rules::try_from(hoyito_core::RulesSpec {
        variant: Variant::II,
        holes: 5,
        seeds: 24,
        ..Default::default()
    })
    .unwrap();
    let mut p = at(r, "29,23,24,23,25/15,25,18,25,33 s 0-0");
    let m = p.parse_move("5").unwrap();
    assert_eq!(p.play(m).unwrap().laps, 3687);
}

// ----- Passing when every sowing is endless (RULES.md §4) -------------------------

#[test]
fn a_player_whose_only_sowing_is_endless_passes() {
    // Reached in a random Hoyito III match (round 45): South has one open
    // hole, and its sowing never ends, so South passes and North moves.
    let r = Rules::standard(Variant::III);
    let text = "3,x,x,x,x,x/1,0,4,1,2,1 s 8-8 reserve=0-20 round=45 last4=n";
    let p = Position::from_notation(r, text).unwrap();
    assert!(!p.is_over());
    assert_eq!(p.to_move(), Side::North);
    assert_eq!(
        p.to_notation(),
        "3,x,x,x,x,x/1,0,4,1,2,1 n 8-8 reserve=0-20 round=45 last4=n"
    );
    assert_eq!(ref_sow_at(&p, 0, Direction::Ccw, Side::South), RefSow::Endless);
    assert!(!p.legal_moves().is_empty());
}

#[test]
fn neither_player_can_move_the_seeds_are_shared() {
    // Found by the lab's search_no_moves. Only one hole is open, South's
    // hole 2 with 2 seeds: sowing into the only open hole, i1 0→1, 1→2:
    // relay, the same lap again, forever. North has no open hole. Neither
    // player has a legal move: the game ends and the 2 seeds are shared.
    for v in Variant::ALL {
        let p = Position::from_notation(rules(v, 4), "x,2,x,x/x,x,x,x s 0-0").unwrap();
        assert_eq!(
            p.outcome(),
            Some(hoyito_core::Outcome {
                winner: None,
                reason: EndReason::NoMoves
            })
        );
        assert_eq!((p.captured().south, p.captured().north), (1, 1));
        assert!(p.board().iter().all(|&s| s == 0));
    }
}

// ----- Long finite sowings (RULES.md §2) -----------------------------------------

#[test]
fn longest_finite_sowing_found_by_random_play() {
    // The longest finite sowing in 10^9 candidate moves of random Hoyito II/III
    // games on 2×6 (find_long_sowings, seed 3): 592 laps, ending in a casa
    // (the chain stops at once: i2 holds 0). No sowing of more than 10,000
    // laps was found by random play; the longer sowings below were built
    // (see docs/research/find-long-sowings.md).
    let r = Rules::standard(Variant::II);
    let mut p = at(r, "1,10,1,2,1,0/4,0,2,9,0,2 s 8-8");
    let m = p.parse_move("2").unwrap();
    let played = p.play(m).unwrap();
    assert_eq!(
        played,
        hoyito_core::Played {
            laps: 592,
            captured: 4,
            extra_turn: true
        }
    );
    assert_eq!(p.to_notation(), "7,1,0,4,3,0/0,4,3,2,4,0 s 12-8");
    // The independent reference sowing agrees.
    let q = at(r, "1,10,1,2,1,0/4,0,2,9,0,2 s 8-8");
    match ref_sow_at(&q, 1, Direction::Ccw, Side::South) {
        RefSow::Done {
            board,
            captured,
            laps,
            game_over,
        } => {
            assert_eq!((laps, captured, game_over), (592, 4, None));
            assert_eq!(board, p.board());
        }
        RefSow::Endless => panic!("finite"),
    }
}

#[test]
fn longest_finite_sowings_found_by_residues() {
    // Built by find_long_sowings `construct`: boards whose lap residues have
    // exactly one pair that can end the sowing.
    // - 8,350 laps on 2×4 with 30 seeds per hole, capture side opponent
    //   (seed 8), sown from the built board itself;
    // - 10,499 laps on 2×8 with 15 seeds per hole, capture side opponent
    //   (seed 41, `HOYITO_BACK`), the longest finite sowing found: a built
    //   board's 1,024 laps or more extended back along the laps leading to
    //   it;
    // - 6,604 laps on 2×8 with 15 seeds per hole, standard capture side
    //   (seed 5, `HOYITO_BACK`), the longest found under the standard rules
    //   but for the seeds.
    // All end in a casa made by the last seed, captured, with an extra turn
    // (with capture side opponent, in North's row). The core and the
    // reference sowing must agree on every lap.
    use hoyito_core::CaptureSide::{Any, Opponent};
    for (holes, seeds, capture_side, text, token, laps) in [
        (4, 30, Opponent, "19,9,25,51/32,13,55,4 s 32-0", "2", 8350),
        (
            8,
            15,
            Opponent,
            "19,18,2,18,15,32,7,45/22,4,1,2,6,5,1,3 s 40-0",
            "5",
            10_499,
        ),
        (
            8,
            15,
            Any,
            "9,15,14,1,22,38,20,4/0,50,3,24,13,2,11,10 s 4-0",
            "8",
            6604,
        ),
    ] {
        let r = Rules::try_from(hoyito_core::RulesSpec {
            variant: Variant::II,
            holes,
            seeds,
            capture_side,
            ..Default::default()
        })
        .unwrap();
        let start = at(r, text);
        let mut p = start;
        let m = p.parse_move(token).unwrap();
        let played = p.play(m).unwrap();
        assert_eq!(
            (played.laps, played.captured, played.extra_turn),
            (laps, 4, true),
            "{text}"
        );
        match ref_sow_at(&start, m.hole(), Direction::Ccw, Side::South) {
            RefSow::Done {
                board,
                laps: l,
                captured,
                ..
            } => {
                assert_eq!((l, captured), (laps, 4), "{text}");
                assert_eq!(board, p.board(), "{text}");
            }
            RefSow::Endless => panic!("{text} is finite"),
        }
    }
}

#[test]
fn longest_finite_sowings_of_small_rings_found_by_exhaustive_search() {
    // The longest finite sowing over every board and hole (the lab's
    // `longest_sowing`): 120 laps on 2×4 with 32 seeds, and 136 laps
    // on 2×4 with one hole closed (7 holes, 28 seeds), which random matches
    // had found too. Both ways of sowing must agree on every lap count.
    for (text, token, laps) in [
        ("0,6,5,4/5,4,0,8 n 0-0", "2", 120),
        ("0,2,6,8/7,1,4,x n 0-4", "2", 136),
    ] {
        let r = Rules::new(Variant::II, 4).unwrap();
        let start = at(r, text);
        let mut p = start;
        let m = p.parse_move(token).unwrap();
        let played = p.play(m).unwrap();
        assert_eq!(played.laps, laps, "{text}");
        match ref_sow_at(&start, m.hole(), Direction::Ccw, Side::North) {
            RefSow::Done { board, laps: l, .. } => {
                assert_eq!(l, laps, "{text}");
                assert_eq!(board, p.board(), "{text}");
            }
            RefSow::Endless => panic!("{text} is finite"),
        }
    }
}

// ----- Match play (RULES.md §5) on matches found by random play -----------------

/// Hoyito I, found by the lab's search_matches: round 1 is drawn 24-24.
const DRAWN_ROUND: &str = r#"[Variant "I"]
[Holes "6"]
[Match "yes"]
[Result "north"]

[Round "1"]
4 1 5 2 6 4 4 6 6 4 4 1
[Round "2"]
2 6 1 3 3 4 6 1 1 3 5 6 6 1 1 2
2
[Round "3"]
1 1 3 2 6 2 3 6 1 4 1 1 2 1 4
"#;

#[test]
fn match_after_a_draw_the_non_starter_starts() {
    let rec = Record::read(DRAWN_ROUND).unwrap();
    let m = rec.match_().unwrap();
    assert_eq!(m.round(), 3);
    let r = m.rounds();
    // Round 1: South started; drawn 24-24.
    assert_eq!(r[0].start().to_move(), Side::South);
    let e1 = r[0].position();
    assert_eq!((e1.captured().south, e1.captured().north), (24, 24));
    assert_eq!(e1.outcome().unwrap().winner, None);
    // Round 2: each fills all 6 holes with 24; North, who did not start round 1, starts.
    assert_eq!(
        r[1].start().to_notation(),
        "4,4,4,4,4,4/4,4,4,4,4,4 n 0-0 round=2"
    );
    // Round 2 ends 8-40 for North: South fills holes 1-2 (8), 3-6 closed;
    // North fills all 6 (24) and keeps 16 in reserve; North, the winner, starts.
    let e2 = r[1].position();
    assert_eq!((e2.captured().south, e2.captured().north), (8, 40));
    assert_eq!(
        r[2].start().to_notation(),
        "4,4,x,x,x,x/4,4,4,4,4,4 n 0-0 reserve=0-16 round=3"
    );
    // Round 3: South ends with 0 < 4 seeds: South loses the match.
    let e3 = r[2].position();
    assert_eq!((e3.captured().south, e3.captured().north), (0, 32));
    assert_eq!(e3.reserve().north, 16);
    assert_eq!(m.outcome().unwrap().winner, Some(Side::North));
    assert_eq!(m.outcome().unwrap().rounds, 3);
    // South's closed holes are skipped and cannot be played in round 3.
    let s3 = *r[2].start();
    let mut q = at(*m.rules(), "4,4,x,x,x,x/4,4,4,4,4,4 s 0-0 reserve=0-16 round=3");
    assert_eq!(
        q.play(Move::single(3, Direction::Ccw)),
        Err(PlayError::Closed { hole: 3 })
    );
    assert!(s3.legal_moves().iter().all(|m| m.hole() >= 6));
    // No move after the end of the match.
    let mut m2 = m.clone();
    assert!(!m2.start_next_round());
    assert!(Record::read(&format!("{DRAWN_ROUND}3\n")).is_err());
}

/// Hoyito I, found by the lab's search_matches: the shortest match that ends.
const SHORT_MATCH: &str = r#"[Variant "I"]
[Match "yes"]

[Round "1"]
4 5 3 4 2 3 1 4 3 1 5 4 4 4 5
[Round "2"]
5 1 3 2 5 2 5
"#;

#[test]
fn match_refill_closed_holes_reserve_and_end() {
    let rec = Record::read(SHORT_MATCH).unwrap();
    let m = rec.match_().unwrap();
    let r = m.rounds();
    let e1 = r[0].position();
    assert_eq!((e1.captured().south, e1.captured().north), (16, 32));
    // South: 16 fills holes 1-4, holes 5-6 closed. North: 32 fills 6 holes,
    // 8 in reserve. North won round 1 and starts round 2.
    assert_eq!(
        r[1].start().to_notation(),
        "4,4,4,4,x,x/4,4,4,4,4,4 n 0-0 reserve=0-8 round=2"
    );
    let e2 = r[1].position();
    assert_eq!((e2.captured().south, e2.captured().north), (0, 40));
    // The reserve counts at the end of the round: North 48.
    assert_eq!(e2.margin(Side::North), 48);
    assert_eq!(m.outcome().unwrap().winner, Some(Side::North));
    assert!(rec.write().contains("{round result north 0-48}"));
}

/// Hoyito III, found by the lab's search_matches: South wins rounds 1-3.
const HOYITO_III_MATCH: &str = r#"[Variant "III"]
[Match "yes"]
[Result "south"]

[Round "1"]
2 5 4 3 4 2 1 6 2 4 3 6 2 2 3 6
6 1 5 3 3 1 5 2 3 4 3 6 6 4 2 1
3 4 5 3 6 5 4 2 3 4 6 1 4 1 1 5
6 6 4 4 5 1 1 2 3 5 5 1 2 5 5 6
[Round "2"]
5 4 4 5 4 4 5 3 3 4 4 4 1 1 3 4
2 5 6 1 4 1 2 1 2 2 5 4 5 1 2 5
5 3 5 2 3 4 4 5 3 6 1 2 3 5 3 1
2 5 5 2 3 1 4 4
[Round "3"]
6 3 5 1 1 5 1 3 2 4 4 6 1 3 4 2
4 2 4 3 2 5 6 2 4 3 6 1 4 2 1 3
2 3 3 1 3 2 3 6 1
[Round "4"]
4 1 4 2 6 6 2 1 1 5 3 2 6 4 1 1
2 2 1 1 5 1 3 3 5 1 2 6 1 3 1 5
"#;

#[test]
fn hoyito_iii_last_four_from_round_three_go_to_the_previous_winner() {
    let rec = Record::read(HOYITO_III_MATCH).unwrap();
    let m = rec.match_().unwrap();
    let r = m.rounds();
    assert_eq!(m.round(), 4);
    // Rounds 1-2: the captor; from round 3: South, winner of the round before.
    assert_eq!(r[0].start().last_four(), LastFour::Captor);
    assert_eq!(r[1].start().last_four(), LastFour::Captor);
    assert_eq!(r[2].start().last_four(), LastFour::To(Side::South));
    assert_eq!(r[3].start().last_four(), LastFour::To(Side::South));
    // Refills: 28-20 → South 6 holes + 4 reserve, North 5 holes.
    assert_eq!(
        r[1].start().to_notation(),
        "4,4,4,4,4,4/4,4,4,4,4,x s 0-0 reserve=4-0 round=2"
    );
    // 28-16 (+4) → South 6 holes + 8, North 4 holes.
    assert_eq!(
        r[2].start().to_notation(),
        "4,4,4,4,4,4/4,4,4,4,x,x s 0-0 reserve=8-0 round=3 last4=s"
    );
    // Round 3 ends when North captures the penultimate casa: North takes
    // those 4 only, and the last four go to South.
    let positions = r[2].positions();
    let (before, after) = (positions[positions.len() - 2], positions[positions.len() - 1]);
    assert_eq!(before.to_move(), Side::North);
    assert_eq!(before.in_play(), 8);
    assert_eq!(after.captured().north, before.captured().north + 4);
    assert_eq!(after.captured().south, before.captured().south + 4);
    assert_eq!(after.outcome().unwrap().reason, EndReason::LastFour);
    assert_eq!((after.captured().south, after.captured().north), (28, 12));
    // Round 4: 36-0 (+12 reserve): North ends with nothing and loses the match.
    assert_eq!(
        r[3].start().to_notation(),
        "4,4,4,4,4,4/4,4,4,x,x,x s 0-0 reserve=12-0 round=4 last4=s"
    );
    assert_eq!(m.outcome().unwrap().winner, Some(Side::South));
    // The same moves read as Hoyito I or II would give another game.
    assert!(Record::read(&HOYITO_III_MATCH.replace("\"III\"", "\"II\"")).is_err());
}

#[test]
fn game_records_read_with_comments_and_ply_numbers() {
    let text =
        "[Event \"Barahona \\\"casitas\\\"\"]\n[Variant \"II\"]\n\n1. 3 {a comment\nover two lines} 2. 4 *\n";
    let rec = Record::read(text).unwrap();
    assert_eq!(
        rec.tags,
        vec![("Event".to_string(), "Barahona \"casitas\"".to_string())]
    );
    let g = rec.game().unwrap();
    assert_eq!(g.tokens(), vec!["3", "4"]);
    let back = Record::read(&rec.write()).unwrap();
    assert_eq!(back.game().unwrap().moves(), g.moves());
    // Errors name the line.
    let e = Record::read("[Variant \"II\"]\n\n3 4\n9\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(Record::read("[Variant \"II\"]\n\n3 {open").is_err());
}

#[test]
fn a_two_hole_opening_pair_with_an_endless_sowing_is_illegal() {
    // RULES.md §6.2: a pair is legal only if neither sowing is endless.
    // North 6 is endless here (endless_sowing_short_cycle), so no pair may
    // start with it.
    let r = common::rules_with(Variant::II, 6, |s| s.two_hole_opening = true);
    let p = at(r, "1,0,1,0,2,1/0,2,1,0,1,3 n 12-24 opening");
    let legal = p.legal_moves();
    assert!(!legal.is_empty());
    assert!(legal.iter().all(|m| m.is_pair() && m.hole() != 11));
    for b in ["2", "3", "5"] {
        let mut q = p;
        let m = q.parse_move(&format!("6+{b}")).unwrap();
        assert_eq!(q.play(m), Err(PlayError::Endless));
    }
}

#[test]
fn record_tags_with_line_breaks_stay_readable() {
    // A tag is one line of the record: a value given with a line break is
    // written with a space instead, so the record reads back.
    let mut rec = Record::from_game(hoyito_core::Game::new(Rules::standard(Variant::II)));
    rec.tags.push((
        "Event".into(),
        "Barahona\nJanuary 2005 [field work] \"Johnny\"\r\n".into(),
    ));
    let back = Record::read(&rec.write()).unwrap();
    assert_eq!(
        back.tags,
        vec![(
            "Event".to_string(),
            "Barahona January 2005 [field work] \"Johnny\"  ".to_string()
        )]
    );
}
