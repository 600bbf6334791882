//! The traced move (`Contest::play_traced`, `prepare_token` + `commit`)
//! against plain `play`: on random games and matches of every variant, board
//! size and option, both give the same positions and the same `Played`; the
//! trace replays to the board after the move; seeds are conserved; the
//! captures, the pass and the ends of round and match agree with the
//! positions. And the errors: what was wrong, nothing changed.

mod common;

use common::*;
use hoyito_core::{
    CaptureKind, Contest, EndReason, Event, Game, Match, MoveError, PlayError, Position, Rules, Side,
    TracedMove, Variant, MAX_TRACE_EVENTS,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Replays the trace's events on the board before the move: returns the
/// board and the seeds the events captured.
fn replay(t: &TracedMove) -> (Vec<u32>, u32) {
    let mut board: Vec<u32> = t.before().board().iter().map(|&s| s as u32).collect();
    let mut captured = 0;
    for e in &t.trace().events {
        match *e {
            Event::Lap(h, n) => {
                assert_eq!(board[h as usize], n as u32, "a lap lifts every seed of its hole");
                board[h as usize] = 0;
            }
            Event::Seed(h) => board[h as usize] += 1,
            Event::Capture(h, n) => {
                assert_eq!(board[h as usize], n as u32, "a capture takes the whole hole");
                board[h as usize] = 0;
                captured += n as u32;
            }
        }
    }
    (board, captured)
}

/// Everything a traced move says, checked against the contests before and
/// after it (`plain` played the same move with `play`).
fn check_traced(t: &TracedMove, before: &Contest, after: &Contest, plain: &Contest, limit: usize) {
    let (pos, b) = (after.position(), before.position());
    assert_eq!(pos, plain.position(), "traced and plain play agree");
    assert_eq!(t.after(), pos, "the move's position after is the game's");
    assert_eq!(t.before(), b);
    assert_eq!((t.side(), t.round()), (b.to_move(), b.round()));
    assert_eq!(t.token(), b.move_token(t.mv()).to_string(), "canonical token");
    assert_eq!(b.parse_move(t.token()), Ok(t.mv()));
    assert_eq!(total(pos), total(b), "seeds are conserved");
    let shared =
        matches!(t.round_over(), Some(o) if matches!(o.reason, EndReason::Repetition | EndReason::NoMoves));
    if !shared {
        assert_eq!(t.captured(), pos.captured()[t.side()] - b.captured()[t.side()]);
    }
    // The trace: cut at the limit, laps counted in full.
    let tr = t.trace();
    assert!(tr.events.len() <= limit);
    assert_eq!(tr.laps, t.laps());
    if tr.truncated {
        assert_eq!(tr.events.len(), limit, "a trace is cut only at its limit");
    } else {
        let laps = tr.events.iter().filter(|e| matches!(e, Event::Lap(..))).count();
        assert_eq!(laps as u32, t.laps(), "every lap is in an uncut trace");
    }
    // Captures are never cut and agree with the seeds captured.
    let casas: u32 = t.captures().iter().map(|c| c.seeds as u32).sum();
    let four = matches!(t.round_over(), Some(o) if o.reason == EndReason::LastFour);
    let award = t.captured() as u32;
    if four {
        assert!(casas <= award, "the last four are awarded, not captured");
    } else {
        assert_eq!(casas, award);
    }
    assert!(t.captures().iter().all(|c| c.seeds == 4), "a casa holds 4");
    if b.rules().variant() != Variant::I {
        assert!(t.captures().iter().all(|c| c.kind != CaptureKind::EnPassant));
    }
    if b.rules().variant() != Variant::II {
        assert!(t.captures().iter().all(|c| c.kind != CaptureKind::Chain));
    }
    assert_eq!(t.last_lap().is_some(), t.laps() > 0);
    if !tr.truncated {
        let (board, captured) = replay(t);
        assert_eq!(captured, casas);
        if pos.outcome().is_none() {
            let want: Vec<u32> = pos.board().iter().map(|&s| s as u32).collect();
            assert_eq!(board, want, "the trace replays to the board after the move");
        }
        if let Some(h) = t.landed_empty() {
            assert_eq!(tr.events.last(), Some(&Event::Seed(h as u8)));
        }
        let lap = tr.events.iter().rev().find_map(|e| match *e {
            Event::Lap(h, n) => Some((h as usize, n)),
            _ => None,
        });
        assert_eq!(lap, t.last_lap());
    }
    // The pass, the end of the round and of the match.
    let expected = if t.extra_turn() {
        t.side()
    } else {
        t.side().other()
    };
    let sown = t.before().prepare(t.mv(), 0).expect("it was legal");
    match t.passed() {
        Some(s) => {
            assert_eq!(s, expected);
            assert!(!sown.after().is_over());
            assert_eq!(sown.after().to_move(), s.other());
        }
        None => assert!(sown.after().is_over() || sown.after().to_move() == expected),
    }
    assert_eq!(t.round_over(), pos.outcome());
    assert_eq!(t.match_over(), after.as_match().and_then(Match::outcome));
    if t.match_over().is_some() {
        assert!(after.is_over());
    }
}

/// Plays a random contest both ways, checking every move.
fn random_contest(mut traced: Contest, seed: u64, max_plies: usize) -> (u32, u32) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut plain = traced.clone();
    let total_seeds = traced.rules().total_seeds();
    let (mut plies, mut cut) = (0u32, 0u32);
    while (plies as usize) < max_plies && !traced.is_over() {
        if traced.can_start_next_round() {
            assert!(traced.start_next_round() && plain.start_next_round());
            continue;
        }
        let p = *traced.position();
        let legal = p.legal_moves();
        assert!(!legal.is_empty(), "a position that goes on has a legal move");
        let m = legal[rng.random_range(0..legal.len())];
        let token = p.move_token(m).to_string();
        let limit = [0, 1, 7, 64, MAX_TRACE_EVENTS][rng.random_range(0..5)];
        let before = traced.clone();
        let played = plain.play(m).expect("legal");
        let t = if rng.random_bool(0.5) {
            traced.play_traced(&token, limit).expect("legal")
        } else {
            let t = traced.prepare_token(&token, limit).expect("legal");
            assert_eq!(traced.position(), before.position(), "prepare changes nothing");
            traced.commit(t).expect("prepared here")
        };
        assert_eq!(t.played(), played, "traced and plain play agree");
        check_traced(&t, &before, &traced, &plain, limit);
        assert_eq!(total(traced.position()), total_seeds, "seeds are conserved");
        assert_eq!(traced.plies(), plain.plies());
        assert_eq!(traced.result(), plain.result());
        cut += t.trace().truncated as u32;
        plies += 1;
    }
    (plies, cut)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn traced_games_agree_with_plain_play(rules in arb_rules(), seed in any::<u64>()) {
        random_contest(Contest::new_game(rules), seed, 200);
    }

    #[test]
    fn traced_matches_agree_with_plain_play(rules in arb_rules(), seed in any::<u64>()) {
        random_contest(Contest::new_match(rules), seed, 400);
    }
}

/// Whole matches on the standard board, so that long sowings, cut traces,
/// repetition and the ends of matches come up.
#[test]
fn standard_matches_agree_with_plain_play() {
    let (mut plies, mut cut, mut ended) = (0, 0, 0);
    for v in Variant::ALL {
        for seed in 0..6u64 {
            let c = Contest::new_match(Rules::standard(v));
            let (p, k) = random_contest(c, seed, 5000);
            plies += p;
            cut += k;
        }
        let mut c = Contest::new_match(Rules::standard(v));
        random_contest(c.clone(), 99, 100_000);
        // A match played to its end reports it on its last move.
        let mut rng = SmallRng::seed_from_u64(5);
        let mut last = None;
        while !c.is_over() {
            if c.start_next_round() {
                continue;
            }
            let legal = c.position().legal_moves();
            let token = c
                .position()
                .move_token(legal[rng.random_range(0..legal.len())])
                .to_string();
            last = Some(c.play_traced(&token, 0).unwrap());
        }
        let last = last.unwrap();
        assert!(last.round_over().is_some());
        assert_eq!(last.match_over(), c.as_match().unwrap().outcome());
        ended += last.match_over().is_some() as u32;
    }
    assert!(plies > 10_000 && cut > 0, "{plies} plies, {cut} cut traces");
    assert_eq!(ended, 3);
}

#[test]
fn errors_say_what_was_wrong_and_change_nothing() {
    let rules = Rules::standard(Variant::I);
    let mut c = Contest::Game(Game::from_position(at(rules, "0,4,4,4,4,4/4,4,4,4,4,4 s 4-0")));
    let before = c.position().to_notation();
    match c.play_traced(" x ", 10) {
        Err(MoveError::Parse(e)) => assert_eq!(e.token, " x "),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        c.play_traced(" 1 ", 10),
        Err(MoveError::Illegal {
            token: "1".into(),
            error: PlayError::Empty { hole: 0 }
        })
    );
    let e = c.play_traced("3R", 10).unwrap_err();
    assert_eq!(
        e.to_string(),
        "3R is illegal: that sowing direction is not allowed here"
    );
    assert_eq!(c.position().to_notation(), before);
    assert_eq!(c.plies(), 0);

    // A move prepared in another position is refused.
    let legal = c.position().legal_tokens();
    let stale = c.prepare_token(&legal[0], 0).unwrap();
    c.play_traced(&legal[1], 0).unwrap();
    let after = *c.position();
    let e = c.commit(stale).unwrap_err();
    assert_eq!(
        e,
        MoveError::Stale {
            token: legal[0].clone()
        }
    );
    assert!(e.to_string().contains("prepared in another position"), "{e}");
    assert_eq!((c.plies(), *c.position()), (1, after));

    // A finished game.
    let mut g = Game::new(Rules::standard(Variant::I));
    g.concede(Side::South).unwrap();
    assert_eq!(
        g.play_traced(" 1", 0),
        Err(MoveError::GameOver { token: "1".into() })
    );
    assert_eq!(
        g.play_traced("1", 0).unwrap_err().to_string(),
        "1 cannot be played: the game is over"
    );

    // A match: a finished round, then a finished match.
    let mut m = Match::new(Rules::standard(Variant::I));
    let mut rng = SmallRng::seed_from_u64(1);
    while !m.current().is_over() {
        let legal = m.current().position().legal_tokens();
        m.play_traced(&legal[rng.random_range(0..legal.len())], 0)
            .unwrap();
    }
    assert!(m.outcome().is_none(), "a standard round 1 never ends the match");
    let e = m.play_traced("1", 0).unwrap_err();
    assert_eq!(
        e,
        MoveError::RoundOver {
            token: "1".into(),
            round: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "1 cannot be played: round 1 is over; start the next round"
    );
    while m.outcome().is_none() {
        if m.current().is_over() {
            assert!(m.start_next_round());
        } else {
            let side = m.current().position().to_move();
            m.concede(side.other()).unwrap();
        }
    }
    assert_eq!(
        m.play_traced("1", 0),
        Err(MoveError::MatchOver { token: "1".into() })
    );
}

#[test]
fn a_match_plays_tokens() {
    let mut m = Match::new(Rules::standard(Variant::III));
    let p = m.play_token(" 3 ").unwrap();
    assert_eq!(m.current().moves().len(), 1);
    let mut g = Game::new(Rules::standard(Variant::III));
    assert_eq!(g.play_token("3").unwrap(), p);
    assert!(matches!(
        m.play_token("9"),
        Err(hoyito_core::TokenError::Parse(_))
    ));
    assert_eq!(m.current().moves().len(), 1);
}

/// South sows S1 (2 seeds) into S2 and S3, each made 4: Hoyito I takes S2
/// en passant and S3 as the last seed's casa; II takes S3 then S2 in the
/// chain; III takes S3 only.
#[test]
fn capture_kinds() {
    use CaptureKind::*;
    let text = "2,3,3,0,0,0/1,1,1,1,1,1 s 0-0";
    for (variant, want) in [
        (Variant::I, vec![(1, EnPassant), (2, Casa)]),
        (Variant::II, vec![(2, Casa), (1, Chain)]),
        (Variant::III, vec![(2, Casa)]),
    ] {
        let pos = Position::from_notation(Rules::standard(variant), text).unwrap();
        let t = pos.prepare_token("1", MAX_TRACE_EVENTS).unwrap();
        let got: Vec<_> = t.captures().iter().map(|c| (c.hole, c.kind)).collect();
        assert_eq!(got, want, "{variant}");
        assert_eq!(t.last_lap(), Some((0, 2)));
        assert_eq!(t.landed_empty(), None);
        assert_eq!(t.extra_turn(), variant != Variant::I);
        assert_eq!(EnPassant.name(), "en passant");
    }
}

#[test]
fn a_pass_is_reported() {
    // North has no seeds: after South's move North passes.
    let pos = at(rules(Variant::I, 6), "1,0,0,0,0,0/0,0,0,0,0,0 s 23-24");
    let t = pos.prepare_token("1", 16).unwrap();
    assert_eq!(t.passed(), Some(Side::North));
    assert_eq!(t.landed_empty(), Some(1));
    assert_eq!(t.after().to_move(), Side::South);
    assert_eq!(t.trace().events, [Event::Lap(0, 1), Event::Seed(1)]);
}

#[cfg(feature = "serde")]
#[test]
fn serialised_as_the_web_apps_move_event() {
    let mut c = Contest::new_game(Rules::standard(Variant::I));
    let t = c.play_traced("3", 2).unwrap();
    let v = serde_json::to_value(&t).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    let mut want = [
        "token",
        "side",
        "round",
        "board_before",
        "captured_before",
        "trace",
        "captured",
        "extra_turn",
        "passed",
    ];
    want.sort();
    assert_eq!(keys, want);
    assert_eq!(
        serde_json::to_string(&v["trace"]).unwrap(),
        r#"{"events":[["l",2,4],["s",3]],"laps":5,"truncated":true}"#
    );
    assert!(v["token"] == "3" && v["side"] == "south" && v["passed"] == false && v["round"] == 1);
    assert_eq!(v["board_before"], serde_json::json!(vec![4; 12]));
}
