//! The review's marks are right: on 2×4 games whose every position the
//! tablebase covers, the score of every move and the mark of every played
//! move agree with the tablebase's exact values, both when the review has
//! the tables and when it only searches.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::{Game, Position, Rules, Setup, Side, Variant};
use hoyito_engine::review::{margin_for_south, GameReview, Mark, Scale};
use hoyito_engine::{Engine, EngineKind, Limits};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Seeds on the board: the tables are built to this layer, once per variant.
const SEEDS: u32 = 12;

/// Games of `rules` from every `step`-th board of the [`SEEDS`] layer,
/// played on at random (seeded) to their end, never back to a position
/// seen before: the tables value positions without their history, and a
/// repetition in the game's history would change a move's value.
fn games(rules: Rules, step: usize, rng: &mut SmallRng) -> Vec<Game> {
    let ix = Indexer::new(8, SEEDS);
    let mut board = vec![0u8; 8];
    let mut setup = Setup::start(&rules);
    let mut out = Vec::new();
    for rank in (0..ix.count()).step_by(step) {
        ix.unrank(rank, &mut board);
        setup.board = board.clone();
        setup.to_move = if rank % 2 == 0 { Side::South } else { Side::North };
        let pos = Position::from_setup(rules, &setup).unwrap();
        if pos.is_over() {
            continue;
        }
        let mut game = Game::from_position(pos);
        let mut seen = vec![pos.repetition_key()];
        while !game.is_over() && game.moves().len() < 40 {
            let fresh: Vec<_> = game
                .position()
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut next = *game.position();
                    next.play(m).is_ok() && !seen.contains(&next.repetition_key())
                })
                .collect();
            if fresh.is_empty() {
                break;
            }
            let m = fresh[rng.random_range(0..fresh.len())];
            game.play(m).unwrap();
            seen.push(game.position().repetition_key());
        }
        out.push(game);
    }
    out
}

/// Checks `review` of `game` against the tables: with `tables` (the review
/// had them), every score and mark; without, the scores it claims exact.
/// Returns the played moves checked and how many of their marks agree.
fn check(tb: &Tablebase, game: &Game, review: &GameReview, tables: bool) -> (usize, usize) {
    let (mut checked, mut agree) = (0, 0);
    for (i, (pos, r)) in review.positions.iter().zip(&review.reviews).enumerate() {
        if pos.is_over() {
            assert!(r.moves.is_empty());
            assert_eq!(margin_for_south(pos, r), (pos.margin(Side::South), true));
            continue;
        }
        let me = pos.to_move();
        let exact: Vec<_> = tb
            .move_values(pos)
            .unwrap()
            .into_iter()
            .map(|(m, v)| (m, pos.margin(me) + v))
            .collect();
        let best = exact.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(r.moves.len(), exact.len(), "{}", pos.to_notation());
        for s in &r.moves {
            let &(_, v) = exact.iter().find(|(m, _)| *m == s.mv).unwrap();
            if tables || s.exact {
                assert_eq!(s.score, v, "{} move {}", pos.to_notation(), pos.move_token(s.mv));
            }
            if tables {
                assert!(s.exact, "{} move {}", pos.to_notation(), pos.move_token(s.mv));
            }
        }
        if tables {
            let (south, _) = margin_for_south(pos, r);
            assert_eq!(south, if me == Side::South { best } else { -best });
        }
        if let Some(&played) = game.moves().get(i) {
            let &(_, v) = exact.iter().find(|(m, _)| *m == played).unwrap();
            let right = r.mark(played) == Some(Mark::judge(Scale::of(pos.rules()), (best, true), (v, true)));
            if tables {
                assert!(right, "{}: move {}", pos.to_notation(), pos.move_token(played));
            }
            checked += 1;
            agree += usize::from(right);
        }
    }
    (checked, agree)
}

#[test]
fn marks_agree_with_the_tablebase_on_2x4_games() {
    let mut rng = SmallRng::seed_from_u64(26);
    let stop = AtomicBool::new(false);
    for variant in Variant::ALL {
        let rules = Rules::new(variant, 4).unwrap();
        let tb = Arc::new(Tablebase::solve_in_memory(rules, SEEDS).unwrap());
        let games = games(rules, 2999, &mut rng);
        assert!(games.len() >= 5, "{variant}: {} games", games.len());
        let (mut with_tables, mut searched, mut agree) = (0, 0, 0);
        let mut marks = [0usize; 4];
        for game in &games {
            // With the tables: every score exact.
            let mut engine = Engine::new(EngineKind::AlphaBeta);
            engine.set_tablebase(Arc::clone(&tb));
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            let review = GameReview::of_game(&mut engine, game, limits, &stop, &mut |_, _| {});
            with_tables += check(&tb, game, &review, true).0;
            for (r, &m) in review.reviews.iter().zip(game.moves()) {
                marks[r.mark(m).unwrap().index()] += 1;
            }
            // Without them, a deep search of these small endgames finds the
            // same values (each position searched without the game's
            // history, which the tables do not know either).
            let mut engine = Engine::new(EngineKind::AlphaBeta);
            let limits = Limits {
                depth: Some(16),
                ..Limits::default()
            };
            let positions = game.positions();
            let reviews = positions
                .iter()
                .map(|&p| engine.review(&Game::from_position(p), limits, &stop))
                .collect();
            let review = GameReview { positions, reviews };
            let (n, a) = check(&tb, game, &review, false);
            searched += n;
            agree += a;
        }
        assert_eq!(with_tables, searched);
        eprintln!("{variant}: {agree} of {searched} marks of the search alone agree");
        // The search alone is an estimate: most of its marks are right.
        assert!(agree * 10 >= searched * 9, "{variant}: {agree} of {searched}");
        assert!(with_tables >= 20, "{variant}: {with_tables} moves");
        // Random games have good moves and bad ones.
        assert!(
            marks[Mark::Best.index()] > 0 && marks[Mark::Blunder.index()] + marks[Mark::Mistake.index()] > 0,
            "{variant}: {marks:?}"
        );
    }
}
