//! Fuzz-style robustness: arbitrary strings and mutated valid texts fed to
//! `Position::from_notation`, `Position::parse_move` and `Record::read`
//! must never panic, and whatever they accept must round-trip.
//!
//! Cases per test default to 2,000; set `HOYITO_FUZZ_CASES` for a longer run:
//!
//! ```text
//! HOYITO_FUZZ_CASES=200000 cargo test -p hoyito-core --test fuzz --release
//! ```

mod common;

use std::sync::OnceLock;

use common::*;
use hoyito_core::{
    CaptureSide, DirectionRule, Game, Position, Record, Repetition, Rules, RulesSpec, Variant,
};
use proptest::prelude::*;
use proptest::sample::Index;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn cases() -> u32 {
    std::env::var("HOYITO_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        max_shrink_iters: 2_000,
        ..ProptestConfig::default()
    }
}

/// Valid texts to mutate: notations of positions and records of games and
/// matches under varied rules.
struct Corpus {
    notations: Vec<(Rules, String)>,
    records: Vec<String>,
}

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(2024);
        let mut notations = Vec::new();
        let mut records = Vec::new();
        for k in 0..24u64 {
            let spec = RulesSpec {
                variant: Variant::ALL[(k % 3) as usize],
                holes: [4, 6, 12, 5][(k % 4) as usize],
                direction: DirectionRule::ALL[(k / 3 % 3) as usize],
                two_hole_opening: matches!(k % 5, 0),
                skip_origin: matches!(k % 7, 0),
                repetition: Repetition::ALL[(k / 2 % 2) as usize],
                capture_side: CaptureSide::ALL[(k / 4 % 2) as usize],
                ..RulesSpec::default()
            };
            let rules = Rules::try_from(spec).unwrap();
            if k % 4 == 3 {
                // A match, a few rounds long.
                let mut mat = hoyito_core::Match::new(rules);
                for _ in 0..600 {
                    if mat.outcome().is_some() {
                        break;
                    }
                    if mat.current().is_over() {
                        if !mat.start_next_round() {
                            break;
                        }
                        continue;
                    }
                    let p = *mat.current().position();
                    notations.push((rules, p.to_notation()));
                    let legal = p.legal_moves();
                    mat.play(legal[rng.random_range(0..legal.len())]).unwrap();
                }
                records.push(Record::from_match(mat).write());
            } else {
                let mut g = Game::new(rules);
                for _ in 0..rng.random_range(0..120) {
                    let p = *g.position();
                    if p.is_over() {
                        break;
                    }
                    notations.push((rules, p.to_notation()));
                    let legal = p.legal_moves();
                    g.play(legal[rng.random_range(0..legal.len())]).unwrap();
                }
                let mut rec = Record::from_game(g.clone());
                rec.tags.push(("Event".into(), "fuzz \"corpus\" \\ test".into()));
                records.push(rec.write());
                // A game from a mid-game position: a record with a Position tag.
                if !g.is_over() {
                    let mut g2 = Game::from_position(*g.position());
                    for _ in 0..20 {
                        let p = *g2.position();
                        if p.is_over() {
                            break;
                        }
                        let legal = p.legal_moves();
                        g2.play(legal[rng.random_range(0..legal.len())]).unwrap();
                    }
                    records.push(Record::from_game(g2).write());
                }
            }
        }
        Corpus { notations, records }
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Insert(Index, char),
    Delete(Index),
    Replace(Index, char),
    Duplicate(Index, Index),
    Truncate(Index),
}

fn arb_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(
            "0123456789x,/ \n\t[]\"{}+RLrl-=.\\snSNabc".chars().collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ]
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<Index>(), arb_char()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        3 => any::<Index>().prop_map(Mutation::Delete),
        3 => (any::<Index>(), arb_char()).prop_map(|(i, c)| Mutation::Replace(i, c)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Duplicate(a, b)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, muts: &[Mutation]) -> String {
    let mut cs: Vec<char> = text.chars().collect();
    for m in muts {
        let len = cs.len();
        match m {
            Mutation::Insert(i, c) => cs.insert(i.index(len + 1), *c),
            Mutation::Delete(i) if len > 0 => {
                cs.remove(i.index(len));
            }
            Mutation::Replace(i, c) if len > 0 => cs[i.index(len)] = *c,
            Mutation::Duplicate(a, b) if len > 0 => {
                let (a, b) = (a.index(len), b.index(len));
                let (lo, hi) = (a.min(b), a.max(b));
                let piece: Vec<char> = cs[lo..=hi.min(lo + 40)].to_vec();
                let at = hi.min(len);
                cs.splice(at..at, piece);
            }
            Mutation::Truncate(i) => cs.truncate(i.index(len + 1)),
            _ => {}
        }
    }
    cs.into_iter().collect()
}

/// Whatever `from_notation` accepts is a valid position that reads back.
fn check_notation(rules: Rules, text: &str) {
    if let Ok(p) = Position::from_notation(rules, text) {
        assert!(total(&p) <= 240);
        total_check(&p);
        if !p.is_over() {
            let t = p.to_notation();
            assert_eq!(
                Position::from_notation(rules, &t).as_ref(),
                Ok(&p),
                "{text:?} → {t:?}"
            );
            let legal = p.legal_moves();
            assert!(!legal.is_empty());
            let mut q = p;
            q.play(legal[0]).expect("a legal move plays");
        }
    }
}

/// Whatever `parse_move` accepts names a hole of the side to move; legal
/// moves' tokens read back.
fn check_move(p: &Position, token: &str) {
    if let Ok(m) = p.parse_move(token) {
        assert!(p.row(p.to_move()).contains(&m.hole()));
        if let Some(b) = m.second() {
            assert!(p.row(p.to_move()).contains(&b));
        }
        let mut q = *p;
        if q.play(m).is_ok() {
            let t = p.move_token(m).to_string();
            assert_eq!(p.parse_move(&t), Ok(m), "{token:?} → {t:?}");
        } else {
            assert_eq!(q, *p, "an illegal move changes nothing");
        }
    }
}

/// Whatever `Record::read` accepts writes and reads back the same.
fn check_record(text: &str) {
    if let Ok(rec) = Record::read(text) {
        let out = rec.write();
        let back =
            Record::read(&out).unwrap_or_else(|e| panic!("{e}\n--- from ---\n{text}\n--- wrote ---\n{out}"));
        let (a, b) = (rec.games(), back.games());
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x.moves(), y.moves());
            assert_eq!(x.start(), y.start());
            assert_eq!(x.position(), y.position());
        }
        assert_eq!(back.write(), out, "writing is stable");
    }
}

fn positions_for_moves() -> Vec<Position> {
    let mut out = Vec::new();
    for (rules, text) in corpus().notations.iter().step_by(17) {
        out.push(Position::from_notation(*rules, text).unwrap());
    }
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn notation_arbitrary_strings(rules in arb_rules(), text in any::<String>()) {
        check_notation(rules, &text);
    }

    #[test]
    fn notation_alphabet_strings(rules in arb_rules(), text in "[0-9x,/ snSN=a-z\\-]{0,80}") {
        check_notation(rules, &text);
    }

    #[test]
    fn notation_mutated(k in any::<Index>(), muts in prop::collection::vec(arb_mutation(), 1..6), other in arb_rules(), swap in any::<bool>()) {
        let c = corpus();
        let (rules, text) = &c.notations[k.index(c.notations.len())];
        let t = mutate(text, &muts);
        check_notation(*rules, &t);
        if swap {
            // The same text under other rules.
            check_notation(other, &t);
        }
    }

    #[test]
    fn move_tokens_arbitrary(k in any::<Index>(), token in prop_oneof![any::<String>(), "[0-9+LRlr \\-]{0,6}".prop_map(String::from)]) {
        static P: OnceLock<Vec<Position>> = OnceLock::new();
        let ps = P.get_or_init(positions_for_moves);
        check_move(&ps[k.index(ps.len())], &token);
    }

    #[test]
    fn records_arbitrary_strings(text in prop_oneof![any::<String>(), "(\\[[A-Za-z]{1,12} \"[a-z0-9_ ]{0,10}\"\\]\n){0,6}\n([0-9+LR.{}* ]{0,5} ?){0,30}".prop_map(String::from)]) {
        check_record(&text);
    }

    #[test]
    fn records_mutated(k in any::<Index>(), muts in prop::collection::vec(arb_mutation(), 1..6)) {
        let c = corpus();
        let text = &c.records[k.index(c.records.len())];
        check_record(&mutate(text, &muts));
    }
}

#[test]
fn corpus_texts_are_valid() {
    let c = corpus();
    assert!(c.notations.len() > 500);
    for (rules, text) in &c.notations {
        check_notation(*rules, text);
    }
    for text in &c.records {
        assert!(Record::read(text).is_ok(), "{text}");
        check_record(text);
    }
}
