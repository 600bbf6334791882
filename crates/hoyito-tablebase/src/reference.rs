//! An independent, slow solver to verify the tablebase against.
//!
//! It shares nothing with the fast solver but `hoyito-core`'s sowing:
//! positions are enumerated recursively (not by rank), both sides to move are
//! kept apart (no rotation), keys are hashed, moves come from the checked
//! API (`legal_moves` + `play`, which settles passes exactly), values are
//! absolute (South's net future gain), and each threshold is solved on its
//! own by the classic retrograde attractor with predecessor lists and
//! counters, for South and North separately.

use std::collections::HashMap;

use hoyito_core::{Position, Rules, Setup, Side};

use crate::error::TablebaseError;

/// South's net future gain of positions, by [`key`] of the settled position.
#[derive(Debug, Clone)]
pub struct Reference {
    rules: Rules,
    values: HashMap<u128, i32>,
}

/// The exact key of a settled position: board and side to move.
///
/// # Panics
/// For boards of more than 15 holes.
pub fn key(pos: &Position) -> u128 {
    let b = pos.board();
    assert!(b.len() <= 15, "reference keys hold at most 15 holes");
    let mut k: u128 = pos.to_move().index() as u128;
    for &s in b {
        k = k << 8 | s as u128;
    }
    k
}

fn boards(holes: usize, seeds: u32, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if prefix.len() + 1 == holes {
        prefix.push(seeds as u8);
        out.push(prefix.clone());
        prefix.pop();
        return;
    }
    for a in 0..=seeds {
        prefix.push(a as u8);
        boards(holes, seeds - a, prefix, out);
        prefix.pop();
    }
}

enum Step {
    /// Leaves the layer (capture or end), with South's net gain including the rest of the game.
    Exit(i32),
    /// To another node of the layer.
    Inner(usize),
}

impl Reference {
    /// Solves every layer of 4, 8, …, `max_seeds` seeds.
    ///
    /// # Errors
    /// [`TablebaseError::Unsupported`] for rules the tablebase does not cover.
    pub fn solve(rules: Rules, max_seeds: u32) -> Result<Reference, TablebaseError> {
        crate::check_rules(&rules)?;
        let mut r = Reference {
            rules,
            values: HashMap::new(),
        };
        for seeds in crate::layer_seeds(max_seeds) {
            r.solve_layer(seeds);
        }
        Ok(r)
    }

    /// The settled position of `board` with `side` to move.
    pub fn position(&self, board: &[u8], side: Side) -> Position {
        let mut setup = Setup::start(&self.rules);
        setup.board = board.to_vec();
        setup.to_move = side;
        setup.opening = false;
        Position::from_setup(self.rules, &setup).expect("valid board")
    }

    /// The net future gain of the player to move in `board` with `side` to
    /// move, or `None` if its layer was not solved.
    pub fn value(&self, board: &[u8], side: Side) -> Option<i32> {
        let pos = self.position(board, side);
        let south = if pos.is_over() {
            0
        } else {
            *self.values.get(&key(&pos))?
        };
        Some(if side == Side::South { south } else { -south })
    }

    fn solve_layer(&mut self, seeds: u32) {
        let mut all = Vec::new();
        boards(self.rules.board_len(), seeds, &mut Vec::new(), &mut all);
        // The settled, unfinished positions of the layer.
        let mut nodes: Vec<Position> = Vec::new();
        let mut ids: HashMap<u128, usize> = HashMap::new();
        for b in &all {
            for side in Side::ALL {
                let p = self.position(b, side);
                if !p.is_over() && !ids.contains_key(&key(&p)) {
                    ids.insert(key(&p), nodes.len());
                    nodes.push(p);
                }
            }
        }
        let steps: Vec<Vec<Step>> = nodes
            .iter()
            .map(|p| {
                p.legal_moves()
                    .iter()
                    .map(|&m| {
                        let mut c = *p;
                        c.play(m).expect("legal");
                        let gain = c.margin(Side::South) - p.margin(Side::South);
                        if c.is_over() {
                            Step::Exit(gain)
                        } else if c.in_play() as u32 == seeds {
                            Step::Inner(ids[&key(&c)])
                        } else {
                            Step::Exit(gain + self.values[&key(&c)])
                        }
                    })
                    .collect()
            })
            .collect();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        for (i, s) in steps.iter().enumerate() {
            for st in s {
                if let Step::Inner(j) = *st {
                    preds[j].push(i);
                }
            }
        }
        let mut value = vec![0i32; nodes.len()];
        for player in Side::ALL {
            let sign = if player == Side::South { 1 } else { -1 };
            for u in 1..=seeds as i32 {
                // Attractor of "player's net gain ≥ u".
                let mut win = vec![false; nodes.len()];
                let mut counter = vec![0usize; nodes.len()];
                let mut queue = Vec::new();
                for (i, p) in nodes.iter().enumerate() {
                    let good_exit = |st: &Step| matches!(*st, Step::Exit(g) if sign * g >= u);
                    let initially = if p.to_move() == player {
                        steps[i].iter().any(good_exit)
                    } else {
                        counter[i] = steps[i].iter().filter(|st| !good_exit(st)).count();
                        counter[i] == 0
                    };
                    if initially {
                        win[i] = true;
                        queue.push(i);
                    }
                }
                while let Some(j) = queue.pop() {
                    for &i in &preds[j] {
                        if win[i] {
                            continue;
                        }
                        if nodes[i].to_move() == player {
                            win[i] = true;
                            queue.push(i);
                        } else {
                            counter[i] -= 1;
                            if counter[i] == 0 {
                                win[i] = true;
                                queue.push(i);
                            }
                        }
                    }
                }
                for (i, &w) in win.iter().enumerate() {
                    if w {
                        assert!(value[i] == 0 || value[i] * sign > 0, "both players force a gain");
                        value[i] = sign * u;
                    }
                }
            }
        }
        for (p, v) in nodes.iter().zip(value) {
            self.values.insert(key(p), v);
        }
    }
}

/// What [`compare_layer`] found: positions compared, mismatches, and
/// examples as `(notation, tablebase value, reference value)`.
pub type Comparison = (u64, u64, Vec<(String, i32, i32)>);

/// Compares every position of layer `seeds` (every board, both sides to
/// move) between `tb` and `reference`. Returns the number of positions
/// compared, the number of mismatches, and up to `max_report` of them as
/// `(notation, tablebase value, reference value)`.
///
/// # Errors
/// [`TablebaseError::Missing`] if either side lacks the layer.
pub fn compare_layer(
    tb: &crate::Tablebase,
    reference: &Reference,
    seeds: u32,
    max_report: usize,
) -> Result<Comparison, TablebaseError> {
    let missing = || TablebaseError::Missing {
        seeds,
        built: "reference or tablebase".into(),
    };
    let holes = reference.rules.board_len();
    let ix = crate::index::Indexer::new(holes, seeds);
    let mut board = vec![0u8; holes];
    ix.unrank(0, &mut board);
    let (mut n, mut wrong, mut bad) = (0u64, 0u64, Vec::new());
    loop {
        for side in Side::ALL {
            let pos = reference.position(&board, side);
            let expected = reference.value(&board, side).ok_or_else(missing)?;
            let got = match pos.is_over() {
                true => 0,
                false if pos.to_move() == side => tb.value(&pos)?,
                false => -tb.value(&pos)?,
            };
            n += 1;
            if got != expected {
                wrong += 1;
                if bad.len() < max_report {
                    bad.push((pos.to_notation(), got, expected));
                }
            }
        }
        if !ix.next(&mut board) {
            break;
        }
    }
    Ok((n, wrong, bad))
}
