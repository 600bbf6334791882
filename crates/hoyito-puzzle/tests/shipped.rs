//! The shipped puzzle set (data/puzzles/) against the tables, and the
//! generation's reproducibility.

use hoyito_core::{Rules, Variant};
use hoyito_puzzle::generate::{generate, Plan};
use hoyito_puzzle::{certify, read_set, PuzzleRecord};
use hoyito_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

/// The shipped files, as the server embeds them.
const FILES: [(&str, &str); 6] = [
    ("I-6", include_str!("../../../data/puzzles/I-6.jsonl")),
    ("II-6", include_str!("../../../data/puzzles/II-6.jsonl")),
    ("III-6", include_str!("../../../data/puzzles/III-6.jsonl")),
    ("I-4", include_str!("../../../data/puzzles/I-4.jsonl")),
    ("II-4", include_str!("../../../data/puzzles/II-4.jsonl")),
    ("III-4", include_str!("../../../data/puzzles/III-4.jsonl")),
];

/// Most seeds in play of a sampled puzzle: the tables up to there are
/// solved in a fraction of a second a rule set (`hoyito puzzles check
/// data/puzzles/*.jsonl` checks every puzzle, with the whole tables).
fn sample_limit(holes: u8) -> u32 {
    if holes == 4 {
        16
    } else {
        8
    }
}

#[test]
fn every_shipped_file_reads_and_a_sample_is_certified_again() {
    let mut total = 0;
    let mut checked = 0;
    let mut rng = SmallRng::seed_from_u64(46);
    for (name, text) in FILES {
        let set = read_set(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        total += set.len();
        let first = &set[0];
        assert!(set
            .iter()
            .all(|r| r.variant == first.variant && r.holes == first.holes));
        assert_eq!(name, format!("{}-{}", first.variant, first.holes));
        let small: Vec<&PuzzleRecord> = set
            .iter()
            .filter(|r| r.to_position().unwrap().in_play() as u32 <= sample_limit(r.holes))
            .collect();
        let sample: Vec<&&PuzzleRecord> = small.choose_multiple(&mut rng, 5).collect();
        assert_eq!(sample.len(), 5, "{name}: puzzles with few seeds");
        let rules = Rules::new(first.variant, first.holes as usize).unwrap();
        let tb = Tablebase::solve_in_memory(rules, sample_limit(first.holes)).unwrap();
        for r in sample {
            let pos = r.to_position().unwrap();
            let again = certify(&tb, &pos)
                .unwrap()
                .unwrap_or_else(|| panic!("{}: not a puzzle", r.id));
            assert_eq!(&PuzzleRecord::new(r.id.clone(), &again), *r);
            checked += 1;
        }
    }
    assert!(total >= 3000 + 3 * 100, "{total} puzzles");
    assert_eq!(checked, 30);
}

/// The ids of the shipped set are numbered in order, and a position is
/// never shipped twice.
#[test]
fn ids_are_in_order_and_positions_unique() {
    let mut seen = std::collections::HashSet::new();
    for (name, text) in FILES {
        for (i, r) in read_set(text).unwrap().iter().enumerate() {
            assert_eq!(r.id, format!("{name}-{:04}", i + 1));
            let pos = r.to_position().unwrap();
            assert!(
                seen.insert((name, pos.board().to_vec(), pos.to_move())),
                "{} twice",
                r.id
            );
        }
    }
}

fn small_set(threads: usize) -> Vec<PuzzleRecord> {
    let rules = Rules::new(Variant::II, 4).unwrap();
    let tb = Tablebase::solve_in_memory(rules, 12).unwrap();
    let plan = Plan {
        rules,
        seed: 7,
        count: 12,
        levels: (3, 6),
        per_game: 2,
        max_games: 400,
        max_seeds: 12,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| generate(&tb, &plan, &[], |_| {}).unwrap().0)
}

#[test]
fn generation_is_reproducible_whatever_the_threads() {
    let one = small_set(1);
    assert_eq!(one.len(), 12);
    assert_eq!(one, small_set(2));
    let lines: String = one.iter().map(|r| r.to_line() + "\n").collect();
    assert_eq!(read_set(&lines).unwrap(), one);
}
