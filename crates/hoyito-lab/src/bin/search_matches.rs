//! Plays random matches of Hoyito I, II and III (in turn, seed by seed) and
//! prints the shortest that show the match rules of RULES.md §5:
//!
//! - `DRAW`: a drawn first round followed by a second round;
//! - `END`: a match that ends;
//! - `III`: a Hoyito III match with a round from the third on whose last
//!   four seeds go to the previous round's winner, who did not capture the
//!   penultimate casa.
//!
//! For each, every round's start, end and counts, then the match record.
//!
//! ```text
//! cargo run --release -p hoyito-lab --bin search_matches -- [matches]
//! ```
//!
//! `matches` (1,500 unless given) random matches are played, seeds
//! `0..matches`, at most 1,500 plies each. The records found with the
//! default are committed in hoyito-core's `tests/examples.rs`.

use hoyito_core::{EndReason, LastFour, Match, Record, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One random match of at most `max_plies` plies.
fn random_match(rules: Rules, seed: u64, max_plies: usize) -> Match {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut mat = Match::new(rules);
    for _ in 0..max_plies {
        if mat.outcome().is_some() {
            break;
        }
        if mat.current().is_over() {
            if !mat.start_next_round() {
                break;
            }
            continue;
        }
        let legal = mat.current().position().legal_moves();
        let m = legal[rng.random_range(0..legal.len())];
        mat.play(m).expect("a legal move plays");
    }
    mat
}

/// Plies played over all rounds of `m`.
fn plies(m: &Match) -> usize {
    m.rounds().iter().map(|g| g.moves().len()).sum()
}

fn main() {
    let usage = "usage: search_matches [matches]";
    let matches: u64 = std::env::args().nth(1).map_or(1_500, |s| s.parse().expect(usage));
    let mut best_draw: Option<Match> = None;
    let mut best_end: Option<Match> = None;
    let mut best_iii: Option<Match> = None;
    for seed in 0..matches {
        let v = Variant::ALL[(seed % 3) as usize];
        let mat = random_match(Rules::standard(v), seed, 1500);
        let better = |b: &Option<Match>| match b {
            None => true,
            Some(b) => plies(&mat) < plies(b),
        };
        // A drawn first round followed by a second round.
        let r1 = mat.rounds()[0].position();
        let drawn = r1.outcome().is_some_and(|o| o.winner.is_none());
        if mat.round() >= 2 && drawn && better(&best_draw) {
            best_draw = Some(mat.clone());
        }
        // A match that ends.
        if mat.outcome().is_some() && better(&best_end) {
            best_end = Some(mat.clone());
        }
        // Hoyito III, round >= 3, the last four awarded to the previous
        // round's winner who did not capture the penultimate casa.
        if v == Variant::III {
            for (k, g) in mat.rounds().iter().enumerate().skip(2) {
                let end = g.position();
                if let (Some(o), LastFour::To(w)) = (end.outcome(), g.start().last_four()) {
                    let positions = g.positions();
                    let captor = positions[positions.len() - 2].to_move();
                    if o.reason == EndReason::LastFour && captor != w && better(&best_iii) {
                        println!("III round {} last four to {w}, captor {captor}", k + 1);
                        best_iii = Some(mat.clone());
                    }
                }
            }
        }
    }
    for (name, m) in [("DRAW", best_draw), ("END", best_end), ("III", best_iii)] {
        let Some(m) = m else {
            println!("==== {name}: none in {matches} matches");
            continue;
        };
        println!("==== {name} {} plies, {} rounds", plies(&m), m.round());
        for (k, g) in m.rounds().iter().enumerate() {
            let p = g.position();
            println!(
                "round {}: start {} end {:?} captured {}-{} reserve {}-{}",
                k + 1,
                g.start().to_notation(),
                p.outcome(),
                p.captured().south,
                p.captured().north,
                p.reserve().south,
                p.reserve().north
            );
        }
        println!("{}", Record::from_match(m).write());
    }
}
