//! Swindles ([`Engine::set_swindle`](crate::Engine::set_swindle)): in a
//! proved-lost (or drawn) position, the move that gives a fallible opponent
//! the best chance to go wrong, by two models of that opponent.

use std::collections::HashMap;

use hoyito_core::{Move, Position, Side};

use crate::{ProofError, Prover};

/// The most tempting moves of the opponent a swindle looks ahead (see
/// [`Engine::set_swindle`](crate::Engine::set_swindle)).
pub const MAX_SWINDLE_DEPTH: u32 = 8;

/// The random moves of the opponent that the swindle's random model (see
/// [`Engine::set_swindle`](crate::Engine::set_swindle)) plays before perfect
/// play when its tempting model plays `depth`: half as many, rounded up. A
/// random opponent has all its moves to choose from, a tempting one usually
/// one or two, so the two models cost about the same. At
/// [`MAX_SWINDLE_DEPTH`] that is 4.
pub const fn random_depth(depth: u32) -> u32 {
    depth.div_ceil(2)
}

/// The swindle of the deepest model that fits in the prover's budget: the
/// move and its proved value, `None` if no model finished or none gives
/// the opponent a chance. `values` holds every root move of `pos` with its
/// proved value for the mover. Exact values do not depend on the line to a
/// position, so each depth reuses the proofs of the shallower ones.
pub(crate) fn deepest_swindle(
    prover: &mut dyn Prover,
    pos: &Position,
    values: &[(Move, i32)],
) -> Option<(Move, i32)> {
    let mut found = None;
    prover.run(&mut |prover| {
        let mut model = Model {
            prover,
            results: HashMap::new(),
        };
        for depth in 1..=MAX_SWINDLE_DEPTH {
            match swindle(&mut model, pos, values, depth) {
                Swindle::Trap { mv, value } => found = Some((mv, value)),
                Swindle::NoChance => {}
                Swindle::OutOfBudget => break,
            }
        }
    });
    found
}

/// What a swindle of one depth found.
enum Swindle {
    /// The move that does best against the models, with its proved value.
    Trap {
        /// The move.
        mv: Move,
        /// Its proved value for the mover.
        value: i32,
    },
    /// No move gives either model of the opponent a chance to go wrong.
    NoChance,
    /// The models did not finish within the prover's budget.
    OutOfBudget,
}

/// The swindle in a lost (or drawn) position: among `values` (every root
/// move with its proved value for the mover), the move that does best
/// against an opponent who always plays one of its most tempting moves
/// (largest immediate gain, each equally likely) for its next `depth` moves
/// and perfectly after that, while the mover plays the same way (the best
/// move against that opponent while lost, perfectly once it is not). "Best"
/// is first the sum of two expected results (a win counts 1, a draw 1/2, a
/// loss 0): against that opponent, and against an opponent whose next
/// [`random_depth`] moves are uniformly random, perfect after them
/// ([`Opponent::Random`]; the mover plays as above), as if the opponent were
/// either kind with equal chance; then the proved value.
fn swindle(model: &mut Model<'_>, pos: &Position, values: &[(Move, i32)], depth: u32) -> Swindle {
    match try_swindle(model, pos, values, depth) {
        Ok(Some((mv, value))) => Swindle::Trap { mv, value },
        Ok(None) => Swindle::NoChance,
        Err(_) => Swindle::OutOfBudget,
    }
}

/// [`swindle`], with `Ok(None)` for [`Swindle::NoChance`].
fn try_swindle(
    model: &mut Model<'_>,
    pos: &Position,
    values: &[(Move, i32)],
    depth: u32,
) -> Result<Option<(Move, i32)>, ProofError> {
    let me = pos.to_move();
    let Some(result) = values.iter().map(|&(_, v)| (pos.margin(me) + v).signum()).max() else {
        return Ok(None);
    };
    // Only moves that keep the proved result: in a drawn position, the
    // moves that keep the draw. A fallible opponent may err greedily or at
    // random, so each is scored by the sum of the two models' expectations.
    let mut best: Option<(f64, i32, Move)> = None;
    for &(m, v) in values
        .iter()
        .filter(|&&(_, v)| (pos.margin(me) + v).signum() == result)
    {
        let child = after(pos, m);
        let e = expectation(model, &child, me, depth, Opponent::Tempting)?;
        let u = expectation(model, &child, me, random_depth(depth), Opponent::Random)?;
        let chance = e > points(result) || u > points(result);
        if chance && best.is_none_or(|(bs, bv, _)| (e + u, v) > (bs, bv)) {
            best = Some((e + u, v, m));
        }
    }
    Ok(best.map(|(_, v, m)| (m, v)))
}

/// `pos` after the legal move `m`, settled.
fn after(pos: &Position, m: Move) -> Position {
    let mut p = *pos;
    p.play(m).expect("the models play legal moves");
    p.settle();
    p
}

/// Points of a result: 1 for a win, 1/2 for a draw, 0 for a loss.
fn points(result: i32) -> f64 {
    (result.signum() as f64 + 1.0) / 2.0
}

/// The prover of a swindle and the results it has proved above the
/// oracle's knowledge (inside it a result is one probe, not worth the
/// memory).
///
/// The model needs only results (won, drawn or lost), not values: above
/// the oracle's knowledge a result is at most two threshold proofs
/// ([`Prover::at_least`]), where a value is a bisection of about six.
pub(crate) struct Model<'p> {
    pub(crate) prover: &'p mut dyn Prover,
    pub(crate) results: HashMap<Position, i8>,
}

impl Model<'_> {
    /// The result of `pos` (settled) under perfect play for its mover:
    /// 1 won, 0 drawn, −1 lost, proved once.
    pub(crate) fn result(&mut self, pos: &Position) -> Result<i32, ProofError> {
        let mover = pos.to_move();
        if pos.is_over() {
            return Ok(pos.margin(mover).signum());
        }
        if self.prover.covers(pos) {
            return Ok((pos.margin(mover) + self.prover.value(pos)?).signum());
        }
        if let Some(&r) = self.results.get(pos) {
            return Ok(r.into());
        }
        // Not lost: the mover gains at least what it is behind by.
        let even = -pos.margin(mover);
        let r = if !self.prover.at_least(pos, even)? {
            -1
        } else if self.prover.at_least(pos, even + 1)? {
            1
        } else {
            0
        };
        self.results.insert(*pos, r);
        Ok(r.into())
    }

    /// [`Model::result`] for `me`, whoever moves in `pos`.
    fn result_for(&mut self, pos: &Position, me: Side) -> Result<i32, ProofError> {
        let r = self.result(pos)?;
        Ok(if pos.to_move() == me { r } else { -r })
    }
}

/// How the opponent of a swindle's model chooses its moves.
#[derive(Clone, Copy)]
enum Opponent {
    /// One of its most tempting moves (largest immediate gain), each
    /// equally likely, as a one-ply greedy player does.
    Tempting,
    /// Any legal move, each equally likely, as a random player does.
    Random,
}

/// Expected points for `me` in `pos` (settled) under the model of
/// [`swindle`], the opponent having `depth` moves of the `opponent` model
/// left before it plays perfectly.
/// Every position of the model counts as a node of the prover, so the model
/// stays within the search's node limit even where every result is a probe.
fn expectation(
    model: &mut Model<'_>,
    pos: &Position,
    me: Side,
    depth: u32,
    opponent: Opponent,
) -> Result<f64, ProofError> {
    model.prover.count_node()?;
    if pos.is_over() {
        return Ok(points(pos.margin(me)));
    }
    let mover = pos.to_move();
    if depth == 0 {
        // Perfect play from here on.
        return Ok(points(model.result_for(pos, me)?));
    }
    let moves = pos.legal_moves();
    if mover == me {
        let r = model.result(pos)?;
        if r > 0 {
            return Ok(1.0);
        }
        // Lost: any move. Drawn: only the moves that keep the draw, and
        // the draw at least.
        let mut best = if r == 0 { 0.5 } else { f64::NEG_INFINITY };
        for &m in moves.iter() {
            let child = after(pos, m);
            if r == 0 && model.result_for(&child, me)? < 0 {
                continue;
            }
            best = best.max(expectation(model, &child, me, depth, opponent)?);
        }
        return Ok(best);
    }
    // The opponent plays one of its most tempting moves, or any move.
    let children: Vec<(i32, Position)> = moves
        .iter()
        .map(|&r| {
            let p = after(pos, r);
            (p.margin(mover) - pos.margin(mover), p)
        })
        .collect();
    let chosen = match opponent {
        Opponent::Tempting => children
            .iter()
            .map(|&(g, _)| g)
            .max()
            .expect("a settled position that is not over has a legal move"),
        Opponent::Random => i32::MIN,
    };
    let (mut sum, mut n) = (0.0, 0.0);
    for (_, p) in children.iter().filter(|&&(g, _)| g >= chosen) {
        sum += expectation(model, p, me, depth - 1, opponent)?;
        n += 1.0;
    }
    Ok(sum / n)
}

#[cfg(all(test, feature = "tablebase-files"))]
mod tests {
    use hoyito_core::{Position, Rules, Variant};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::Model;
    use crate::search::tests::notation;

    /// The swindle model's results above the tables (at most two threshold
    /// proofs each) are those of perfect play: on 2×4 positions of 16 and 20
    /// seeds, over 12-seed tables, each won, drawn or lost result is what the
    /// 20-seed tables say.
    #[test]
    fn model_results_above_the_tables_are_exact() {
        use hoyito_tablebase::Tablebase;
        use std::collections::HashMap;
        let mut rng = SmallRng::seed_from_u64(11);
        for variant in Variant::ALL {
            let r = Rules::new(variant, 4).unwrap();
            let small = Tablebase::solve_in_memory(r, 12).unwrap();
            let big = Tablebase::solve_in_memory(r, 20).unwrap();
            let mut search = hoyito_tablebase::search::ExactSearch::new(&small, 1 << 14);
            let mut model = Model {
                prover: &mut search,
                results: HashMap::new(),
            };
            let mut seen = [0; 3];
            while seen.iter().sum::<i32>() < 60 {
                let in_play = if rng.random_bool(0.5) { 16 } else { 20 };
                let mut board = [0u8; 8];
                for _ in 0..in_play {
                    board[rng.random_range(0..8)] += 1;
                }
                let south = 4 * rng.random_range(0..=(32 - in_play) / 4);
                let text = notation(&board, rng.random_bool(0.5), south, 32 - in_play - south);
                let mut pos = Position::from_notation(r, &text).unwrap();
                pos.settle();
                if pos.is_over() {
                    continue;
                }
                let want = big.final_margin(&pos).unwrap().signum();
                assert_eq!(model.result(&pos).unwrap(), want, "{variant:?} {text}");
                // A second call reads the stored result.
                assert_eq!(model.result(&pos).unwrap(), want);
                seen[(want + 1) as usize] += 1;
            }
            assert!(
                seen.iter().all(|&n| n > 0),
                "{variant:?}: lost/drawn/won {seen:?}"
            );
        }
    }
}
