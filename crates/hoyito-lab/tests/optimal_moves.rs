//! The pieces of `optimal_moves` on 2×4 tables built here into a temporary
//! directory: the move values of a sampled position agree with the
//! position's stored value and with the exact search over smaller tables,
//! the sampler keeps only positions inside the tables with a real choice,
//! and a perfect player scores 100 %.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hoyito_core::{Game, Rules, Variant};
use hoyito_engine::Limits;
use hoyito_lab::optimal::{engine_move, sample_game, Choice, Sampling, Tally};
use hoyito_tablebase::search::ExactSearch;
use hoyito_tablebase::{BuildOptions, Tablebase};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A directory under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("hoyito-lab-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const TOP: u32 = 16;

/// Tables of `rules` to 16 seeds, built into `dir` and opened from it as
/// the program opens them.
fn tables(rules: Rules, dir: &TempDir) -> Tablebase {
    Tablebase::build(rules, &dir.0, TOP, BuildOptions::default(), |_| {}).unwrap();
    Tablebase::open(rules, &dir.0).unwrap()
}

#[test]
fn move_values_agree_with_the_tables_and_perfect_play_scores_everything() {
    let dir = TempDir::new("optimal-moves");
    for variant in Variant::ALL {
        let rules = Rules::new(variant, 4).unwrap();
        let tb = Arc::new(tables(rules, &dir));
        assert_eq!(tb.layers().into_iter().max(), Some(TOP));
        // Smaller tables, for an independent value of every move by the
        // exact search down into them.
        let small = Tablebase::solve_in_memory(rules, 8).unwrap();
        let mut search = ExactSearch::new(&small, 1 << 16);

        // Every position of random games once inside the tables: the best
        // move's value is the position's value, each move's value is the
        // exact search's.
        let mut rng = SmallRng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..60 {
            let mut game = Game::new(rules);
            while !game.is_over() {
                let pos = *game.position();
                if u32::from(pos.in_play()) <= TOP {
                    let c = Choice::new(&tb, &pos).unwrap();
                    assert_eq!(c.best, tb.value(&pos).unwrap(), "{rules}: {}", pos.to_notation());
                    assert_eq!(
                        c.moves,
                        search.move_values(&pos).unwrap(),
                        "{rules}: {}",
                        pos.to_notation()
                    );
                    checked += 1;
                }
                let legal = pos.legal_moves();
                game.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
        }
        assert!(checked >= 200, "{rules}: {checked} positions checked");

        // Sampled positions from level-3 games: inside the tables, with a
        // decisive choice, one per game.
        let sampling = Sampling {
            rules,
            max_seeds: TOP,
            level: 3,
            limits: Limits {
                node_budget: Some(20_000),
                ..Limits::default()
            },
            random_plies: 2,
            seed: 5,
        };
        let mut samples = Vec::new();
        for g in 0..40 {
            let s = sample_game(&tb, &sampling, g).unwrap();
            if let Some(c) = s.sample {
                assert!(s.entered);
                let pos = c.position;
                assert!(u32::from(pos.in_play()) <= TOP && !pos.is_over());
                assert!(c.decisive() && c.moves.len() >= 2 && c.distinct_values() >= 2);
                assert_eq!(c.best, tb.value(&pos).unwrap());
                assert_eq!(c.moves, search.move_values(&pos).unwrap());
                samples.push(c);
            }
        }
        assert!(samples.len() >= 30, "{rules}: {} samples", samples.len());

        // A perfect player (the tables' own best move) scores 100 %; a
        // random one does not, and whatever it loses it loses in seeds.
        let (mut perfect, mut random) = (Tally::default(), Tally::default());
        for (i, c) in samples.iter().enumerate() {
            let best = tb.best_moves(&c.position).unwrap()[0].0;
            perfect.add(c, best, Duration::ZERO);
            let worst = c.moves.iter().min_by_key(|&&(_, v)| v).unwrap();
            let j = c.judge(worst.0);
            assert!(!j.optimal && j.loss > 0 && j.loss == c.best - worst.1);
            let (m, _) = engine_move(1, i as u64, Limits::default(), None, &c.position);
            random.add(c, m, Duration::ZERO);
        }
        assert_eq!(perfect.positions, samples.len() as u64);
        assert_eq!(perfect.optimal_share(), 1.0);
        assert_eq!(
            (perfect.loss, perfect.result_changed, perfect.won_lost),
            (0, 0, 0)
        );
        assert!(
            random.optimal_share() < 1.0 && random.loss > 0,
            "{rules}: {random:?}"
        );

        // With the tables the full-strength engine never gives up the
        // result it has (it may swindle among lost moves, so its value
        // can fall short only where the position is lost).
        let mut full = Tally::default();
        for (i, c) in samples.iter().enumerate() {
            let limits = Limits {
                node_budget: Some(50_000),
                ..Limits::default()
            };
            let (m, t) = engine_move(10, i as u64, limits, Some(&tb), &c.position);
            let j = c.judge(m);
            assert!(j.optimal || c.result() < 0 || (c.result() == 0 && !j.result_changed));
            full.add(c, m, t);
        }
        assert_eq!(full.result_changed, 0, "{rules}: {full:?}");
    }
}
