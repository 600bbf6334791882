//! Property tests over random games and matches of every variant, board size
//! 4..=12 and every option combination.
//!
//! After every move: seeds on the board + captured + reserve equal the total;
//! a `SowObserver` mirror of the sowing agrees with the board and the hand
//! never goes negative; captures are multiples of 4; every legal move plays
//! (none is endless) and every other candidate is endless; move tokens and
//! position notation round-trip. At the end: records written and read back
//! give the same moves and final positions, for single games and matches.

mod common;

use common::*;
use hoyito_core::{
    CaptureSide, Direction, DirectionRule, EndReason, Game, LastFour, Match, Move, PlayError, Position,
    Record, Repetition, Rules, RulesSpec, Side, Variant,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Everything that must hold of any position reached in play.
fn check_position(p: &Position, total_seeds: u32) {
    total_check(p);
    assert_eq!(total(p), total_seeds, "seeds are conserved: {}", p.to_notation());
    let n = p.rules().holes();
    for i in p.closed_holes() {
        assert_eq!(p.seeds(i), 0, "closed holes hold nothing");
        assert!(i < 2 * n);
    }
    if p.is_over() {
        assert!(
            p.board().iter().all(|&s| s == 0),
            "a finished game has no seed in play"
        );
        assert!(p.legal_moves().is_empty());
        let o = p.outcome().unwrap();
        if matches!(o.reason, EndReason::LastFour | EndReason::Exhausted) {
            assert_eq!(p.captured().south % 4, 0);
            assert_eq!(p.captured().north % 4, 0);
        }
        return;
    }
    assert_eq!(
        p.captured().south % 4,
        0,
        "captures are multiples of 4: {}",
        p.to_notation()
    );
    assert_eq!(
        p.captured().north % 4,
        0,
        "captures are multiples of 4: {}",
        p.to_notation()
    );
    // Notation round trip.
    let text = p.to_notation();
    let back = Position::from_notation(*p.rules(), &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, *p, "notation round trip of {text}");
    assert_eq!(back.fingerprint(), p.fingerprint());
    // Legal moves: settled positions have one; all play; none is endless.
    let legal = p.legal_moves();
    assert!(!legal.is_empty(), "a settled position has a legal move: {text}");
    assert!(p.has_legal_move());
    for &m in &legal {
        let mut q = *p;
        match q.play(m) {
            Ok(played) => assert_eq!(played.captured % 4, 0),
            Err(e) => panic!("legal move {} of {text} fails: {e}", p.move_token(m)),
        }
        let token = p.move_token(m).to_string();
        assert_eq!(p.parse_move(&token), Ok(m), "token {token} of {text} reads back");
        assert!(p.is_legal(m));
    }
    // One-hole candidates that are not legal are exactly the endless ones.
    if !legal.iter().any(|m| m.is_pair()) {
        for m in p.candidates() {
            let mut q = *p;
            if !legal.contains(&m) {
                assert_eq!(q.play(m), Err(PlayError::Endless), "{text} {}", p.move_token(m));
                // The independent reference agrees that it never ends.
                assert_eq!(
                    ref_sow_at(p, m.hole(), m.direction(), p.to_move()),
                    RefSow::Endless,
                    "{text}"
                );
            }
        }
    }
}

/// Plays `m` in `game` and checks it against an observed copy.
fn play_checked(game: &mut Game, m: Move) -> hoyito_core::Played {
    let before = *game.position();
    let mover = before.to_move();
    let mut q = before;
    let mut obs = Mirror::new(&before);
    let played_q = q.play_observed(m, &mut obs).expect("legal move");
    // play_unchecked + settle is the same as play.
    let mut u = before;
    u.play_unchecked(m).expect("legal move");
    u.settle();
    assert_eq!(u, q, "play_unchecked + settle == play");
    let played = game.play(m).expect("legal move");
    assert_eq!(played, played_q);
    if game.position().outcome().map(|o| o.reason) != Some(EndReason::Repetition) {
        assert_eq!(*game.position(), q);
    }
    // The observer's account of the move.
    assert!(obs.min_hand >= 0);
    assert_eq!(obs.laps, played.laps);
    assert_eq!(played.captured % 4, 0);
    let delta = |p: &Position| {
        (p.captured().south as i64 - before.captured().south as i64)
            + (p.captured().north as i64 - before.captured().north as i64)
    };
    let mirror_sum: i64 = obs.board.iter().sum();
    let caught = obs.captured() as i64;
    match q.outcome().map(|o| o.reason) {
        None => {
            assert_eq!(obs.hand, 0);
            assert_eq!(obs.board, q.board().iter().map(|&s| s as i64).collect::<Vec<_>>());
            assert_eq!(delta(&q), caught);
            assert_eq!(played.captured as i64, caught);
        }
        Some(EndReason::LastFour) => {
            assert_eq!(mirror_sum + obs.hand, 4, "four left, in holes and hand");
            assert_eq!(delta(&q), caught + 4);
            let to = match before.last_four() {
                LastFour::Captor => mover,
                LastFour::To(s) => s,
            };
            let award = if to == mover { 4 } else { 0 };
            assert_eq!(played.captured as i64, caught + award);
            assert!(!played.extra_turn);
        }
        Some(EndReason::Exhausted) => {
            assert_eq!(mirror_sum + obs.hand, 0);
            assert_eq!(delta(&q), caught);
            assert!(!played.extra_turn);
        }
        Some(EndReason::NoMoves) | Some(EndReason::Repetition) => {
            assert_eq!(obs.hand, 0);
            assert_eq!(delta(&q), caught + mirror_sum);
        }
        Some(EndReason::Conceded) => panic!("a move never ends a game by concession"),
    }
    if played.extra_turn {
        assert!(before.rules().variant() != Variant::I && played.captured > 0);
    }
    if !q.is_over() && played.extra_turn && q.has_seeds(mover) && q.to_move() != mover {
        // An extra turn is lost only to the pass rule: every sowing the
        // mover could make must be endless (checked with the reference
        // sowing).
        assert_all_endless(&q, mover);
    }
    if !q.is_over() && !played.extra_turn && q.has_seeds(mover.other()) && q.to_move() != mover.other() {
        // The opponent has seeds but passes: every one of their sowings
        // must be endless (checked with the reference sowing).
        assert_all_endless(&q, mover.other());
    }
    // The reference sowing agrees.
    check_against_reference(&before, m, &q, played);
    played
}

/// Every sowing `side` could make in `p` is endless (reference sowing).
fn assert_all_endless(p: &Position, side: Side) {
    let dirs: Vec<Direction> = match (p.rules().direction(), p.chosen_directions()[side]) {
        (DirectionRule::Fixed, _) => vec![Direction::Ccw],
        (DirectionRule::PerPlayer, Some(d)) => vec![d],
        _ => vec![Direction::Ccw, Direction::Cw],
    };
    let mut any = false;
    for i in p.row(side) {
        if p.seeds(i) > 0 {
            for &d in &dirs {
                any = true;
                assert_eq!(
                    ref_sow_at(p, i, d, side),
                    RefSow::Endless,
                    "{side} passes in {}",
                    p.to_notation()
                );
            }
        }
    }
    assert!(any);
    eprintln!("pass on endless sowings only: {} ({side})", p.to_notation());
}

/// Replays `m` from `before` with the reference sowing and compares.
fn check_against_reference(before: &Position, m: Move, after: &Position, played: hoyito_core::Played) {
    let mover = before.to_move();
    let closed: Vec<bool> = (0..before.board().len()).map(|i| before.is_closed(i)).collect();
    let mut board = before.board().to_vec();
    let mut captured = 0u32;
    let mut laps = 0u32;
    let mut over = None;
    for h in [Some(m.hole()), m.second()].into_iter().flatten() {
        if over.is_some() {
            break;
        }
        assert!(board[h] > 0);
        match ref_sow(before.rules(), &board, &closed, h, m.direction(), mover) {
            RefSow::Endless => panic!(
                "reference finds {} endless in {}",
                before.move_token(m),
                before.to_notation()
            ),
            RefSow::Done {
                board: b,
                captured: c,
                laps: l,
                game_over,
            } => {
                board = b;
                captured += c;
                laps += l;
                over = game_over;
            }
        }
    }
    let ctx = || format!("{} from {}", before.move_token(m), before.to_notation());
    assert_eq!(played.laps, laps, "laps of {}", ctx());
    let delta = |side: Side| after.captured()[side] as u32 - before.captured()[side] as u32;
    match over {
        None => {
            if !after.is_over() {
                assert_eq!(after.board(), &board[..], "board after {}", ctx());
                assert_eq!(delta(mover), captured, "captures of {}", ctx());
                assert_eq!(delta(mover.other()), 0);
            }
        }
        Some(left) => {
            let o = after.outcome().expect("the game ended");
            assert_eq!(
                o.reason,
                if left == 4 {
                    EndReason::LastFour
                } else {
                    EndReason::Exhausted
                },
                "{}",
                ctx()
            );
            assert_eq!(delta(mover) + delta(mover.other()), captured + left, "{}", ctx());
        }
    }
    if played.extra_turn {
        assert!(captured > 0);
    } else if over.is_none() && before.rules().variant() != Variant::I {
        assert_eq!(captured, 0, "a capture in II/III gives another turn: {}", ctx());
    }
}

/// A random game from `start`, checked at every ply.
fn random_game(start: Position, seed: u64, max_plies: usize) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let total_seeds = total(&start);
    let mut g = Game::from_position(start);
    for _ in 0..max_plies {
        let p = *g.position();
        check_position(&p, total_seeds);
        if p.is_over() {
            break;
        }
        let legal = p.legal_moves();
        let m = legal[rng.random_range(0..legal.len())];
        play_checked(&mut g, m);
    }
    check_position(g.position(), total_seeds);
    g
}

fn check_game_record(g: &Game) {
    let text = Record::from_game(g.clone()).write();
    let back = Record::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let bg = back.game().expect("a single game");
    assert_eq!(bg.moves(), g.moves(), "{text}");
    assert_eq!(bg.start(), g.start());
    assert_eq!(bg.position(), g.position(), "{text}");
    assert_eq!(bg.tokens(), g.tokens());
    assert_eq!(back.rules(), g.rules());
    // Writing again gives the same text.
    assert_eq!(Record::from_game(bg.clone()).write(), text);
}

/// What RULES.md §5 says the next round's start is, computed independently.
struct NextRound {
    board: Vec<u8>,
    closed: Vec<usize>,
    reserve: (u8, u8),
    starter: Side,
    last_four: LastFour,
}

fn expected_next_round(rules: &Rules, prev: &Game, round: u32) -> NextRound {
    let end = prev.position();
    let n = rules.holes();
    let s = rules.seeds() as u32;
    let mut board = vec![0u8; 2 * n];
    let mut closed = Vec::new();
    let mut reserve = [0u8; 2];
    for (k, side) in Side::ALL.into_iter().enumerate() {
        let have = end.captured()[side] as u32 + end.reserve()[side] as u32;
        let filled = ((have / s) as usize).min(n);
        for h in 0..n {
            let i = k * n + h;
            if h < filled {
                board[i] = s as u8;
            } else {
                closed.push(i);
            }
        }
        reserve[k] = (have - filled as u32 * s) as u8;
    }
    let winner = end.outcome().unwrap().winner;
    let prev_starter = prev.start().to_move();
    let starter = winner.unwrap_or(prev_starter.other());
    let last_four = match winner {
        Some(w) if rules.variant() == Variant::III && round >= 3 => LastFour::To(w),
        _ => LastFour::Captor,
    };
    NextRound {
        board,
        closed,
        reserve: (reserve[0], reserve[1]),
        starter,
        last_four,
    }
}

/// A random match, checked at every ply and at every round change.
fn random_match(rules: Rules, seed: u64, max_plies: usize) -> Match {
    let mut rng = SmallRng::seed_from_u64(seed);
    let total_seeds = rules.total_seeds();
    let mut mat = Match::new(rules);
    let mut plies = 0;
    while plies < max_plies && mat.outcome().is_none() {
        let p = *mat.current().position();
        check_position(&p, total_seeds);
        if p.is_over() {
            // §5: the match ends when a player has fewer than 4 (the rules' seeds).
            let short =
                |side: Side| (p.captured()[side] as u32 + p.reserve()[side] as u32) < rules.seeds() as u32;
            assert!(
                !short(Side::South) && !short(Side::North),
                "the match should have ended"
            );
            let round = mat.round() + 1;
            let want = expected_next_round(&rules, mat.current(), round);
            let prev_chosen = p.chosen_directions();
            assert!(mat.start_next_round());
            assert_eq!(mat.round(), round);
            let start = *mat.current().start();
            assert_eq!(start.round(), round);
            assert_eq!(total(&start), total_seeds);
            assert_eq!(start.board(), &want.board[..], "refill from hole 1 upward");
            assert_eq!(start.closed_holes().collect::<Vec<_>>(), want.closed);
            assert_eq!((start.reserve().south, start.reserve().north), want.reserve);
            assert_eq!(start.last_four(), want.last_four);
            assert_eq!((start.captured().south, start.captured().north), (0, 0));
            assert_eq!(
                start.chosen_directions(),
                prev_chosen,
                "direction kept for the match"
            );
            if !start.is_over() && start.has_legal_move() {
                let starter_can_move = {
                    let mut s = start.to_setup();
                    s.to_move = want.starter;
                    let q = Position::from_setup(rules, &s).unwrap();
                    q.to_move() == want.starter
                };
                if starter_can_move {
                    assert_eq!(start.to_move(), want.starter, "who starts round {round}");
                    assert_eq!(start.opening_pending(), rules.two_hole_opening());
                }
            }
            continue;
        }
        if rng.random_range(0..40) == 0 {
            // ◆ A round resigned: the seeds in play go to the other side.
            let side = if rng.random_bool(0.5) {
                Side::South
            } else {
                Side::North
            };
            assert_eq!(mat.concede(side), Ok(()));
            let q = *mat.current().position();
            assert_eq!(q.outcome().map(|o| o.reason), Some(EndReason::Conceded));
            assert_eq!(mat.current().conceded(), Some(side));
            assert_eq!(q.captured()[side], p.captured()[side]);
            assert_eq!(
                q.captured()[side.other()],
                p.captured()[side.other()] + p.in_play()
            );
            check_position(&q, total_seeds);
        } else {
            let legal = p.legal_moves();
            let m = legal[rng.random_range(0..legal.len())];
            let mut g = mat.current().clone();
            let played = play_checked(&mut g, m);
            assert_eq!(mat.play(m), Ok(played));
            assert_eq!(mat.current().position(), g.position());
        }
        plies += 1;
        let q = *mat.current().position();
        if q.is_over() {
            let short =
                |side: Side| (q.captured()[side] as u32 + q.reserve()[side] as u32) < rules.seeds() as u32;
            let (s, n) = (short(Side::South), short(Side::North));
            match mat.outcome() {
                Some(o) => {
                    assert!(s || n);
                    let want = match (s, n) {
                        (true, false) => Some(Side::North),
                        (false, true) => Some(Side::South),
                        _ => None,
                    };
                    assert_eq!(o.winner, want, "fewer than 4 loses the match");
                    assert_eq!(o.rounds, mat.round());
                    assert!(!mat.start_next_round());
                }
                None => assert!(!s && !n),
            }
        }
    }
    mat
}

fn check_match_record(mat: &Match) {
    let text = Record::from_match(mat.clone()).write();
    let back = Record::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let bm = back.match_().expect("a match");
    assert_eq!(bm.round(), mat.round(), "{text}");
    assert_eq!(bm.outcome(), mat.outcome());
    for (a, b) in bm.rounds().iter().zip(mat.rounds()) {
        assert_eq!(a.moves(), b.moves(), "{text}");
        assert_eq!(a.conceded(), b.conceded(), "{text}");
        assert_eq!(a.start(), b.start());
        assert_eq!(a.position(), b.position());
    }
    assert_eq!(Record::from_match(bm.clone()).write(), text);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(rules in arb_rules(), seed in any::<u64>()) {
        let g = random_game(Position::new(rules), seed, 160);
        check_game_record(&g);
    }

    #[test]
    fn random_games_from_midgame_positions(rules in arb_rules(), seed in any::<u64>(), skip in 1usize..40) {
        // Play a while, then start a new game (and record, with a Position
        // tag) from the position reached.
        let g = random_game(Position::new(rules), seed, skip);
        let start = *g.position();
        prop_assume!(!start.is_over());
        let g2 = random_game(start, seed ^ 0x5555, 120);
        check_game_record(&g2);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_matches_follow_the_round_rules(rules in arb_rules(), seed in any::<u64>()) {
        let mat = random_match(rules, seed, 400);
        check_match_record(&mat);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Long sowings on the standard board: every legal move of II/III plays.
    #[test]
    fn standard_board_random_games(variant in prop::sample::select(vec![Variant::II, Variant::III]), seed in any::<u64>()) {
        let g = random_game(Position::new(Rules::standard(variant)), seed, 300);
        check_game_record(&g);
    }
}

/// Matches to the end on the standard board (deterministic seeds), so that
/// match endings, draws and Hoyito III's round-3 rule are exercised.
#[test]
fn whole_matches_on_the_standard_board() {
    let mut ended = 0;
    let mut rounds_3 = 0;
    let mut reopened = 0;
    let mut drawn = 0;
    for v in Variant::ALL {
        for seed in 0..12u64 {
            let mat = random_match(Rules::standard(v), seed, 3000);
            if mat.outcome().is_some() {
                ended += 1;
            }
            if mat.round() >= 3 {
                rounds_3 += 1;
            }
            for w in mat.rounds().windows(2) {
                let (a, b) = (w[0].start(), w[1].start());
                reopened += a.closed_holes().filter(|&i| !b.is_closed(i)).count();
                drawn += usize::from(w[0].position().outcome().unwrap().winner.is_none());
            }
            check_match_record(&mat);
        }
    }
    assert!(ended > 0, "some random matches end");
    assert!(rounds_3 > 0, "some random matches reach round 3");
    assert!(reopened > 0, "closed holes are reopened in later rounds");
    assert!(drawn > 0, "some rounds are drawn");
}

/// Every combination of the options of §6, every variant, on 2×4, 2×6 and 2×12.
#[test]
fn every_option_combination_plays() {
    let mut n_games = 0;
    for v in Variant::ALL {
        for holes in [4u8, 6, 12] {
            for (k, spec) in all_option_specs(v, holes).into_iter().enumerate() {
                let rules = Rules::try_from(spec).unwrap();
                let g = random_game(Position::new(rules), k as u64 * 31 + holes as u64, 40);
                check_game_record(&g);
                n_games += 1;
            }
        }
    }
    assert_eq!(n_games, 3 * 3 * 2 * 3 * 2 * 2 * 2);
}

/// The case proptest found on CI (Hoyito II, 2×4, two-hole opening,
/// capture side opponent): kept as a fixed regression test.
#[test]
fn match_regression_two_hole_opening_opponent_captures() {
    let rules = Rules::try_from(RulesSpec {
        variant: Variant::II,
        holes: 4,
        seeds: 4,
        skip_origin: false,
        direction: DirectionRule::Fixed,
        two_hole_opening: true,
        repetition: Repetition::Even,
        capture_side: CaptureSide::Opponent,
    })
    .unwrap();
    let mat = random_match(rules, 5437700980014144553, 400);
    check_match_record(&mat);
}
