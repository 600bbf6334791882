//! Negamax alpha-beta with principal variation search, iterative deepening,
//! a transposition table, and move ordering by table move, captures,
//! killers and history.
//!
//! Side handling: a child whose side to move is the parent's (an extra turn,
//! or the opponent had no seed and passed) is searched with the same window
//! and its value is **not** negated; otherwise the usual negamax negation.
//! A node whose mover has only endless sowings passes with
//! [`Position::pass`] (which ends the game if nobody can move).
//!
//! Repetition: a child position (board, closed holes, side to move) that
//! already occurred on the search path or in the game history since the
//! last capture scores as the rules' split of the remaining seeds
//! ([`split_value`]): the engine treats a second occurrence as the end a
//! third would bring, like draw-by-repetition in chess engines.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};

use hoyito_core::{Move, Position, RepetitionKey, Side};

use crate::eval::{evaluate, split_value, EvalWeights, SCALE};
use crate::tt::{Bound, Tt};
use crate::{zobrist, Oracle};

/// Larger than any score.
pub(crate) const INF: i32 = 1_000_000;
/// Deepest ply the search reaches (extra turns and passes included).
pub(crate) const MAX_PLY: usize = 128;

/// Children of nodes at this depth are leaves (evaluated, never keyed), so
/// they get no incremental hash.
const LEAF_PARENT_DEPTH: i32 = 1;

/// Table depth of a value proven without reaching the horizon (every line
/// ended by the rules): it holds at any depth.
pub(crate) const SOLVED: u8 = 255;

/// A child of a node: the move, the position after it, and an ordering key.
#[derive(Clone, Copy)]
pub(crate) struct Child {
    pub mv: Move,
    pub pos: Position,
    /// Board hash of `pos` ([`zobrist::board_hash`]) if the child was hashed.
    pub hb: u64,
    pub captured: u8,
    pub order: i32,
}

/// The state of one search.
pub(crate) struct Searcher<'a> {
    pub tt: &'a mut Tt,
    pub history: &'a mut [[i32; 48]; 2],
    pub oracle: Option<&'a dyn Oracle>,
    pub weights: EvalWeights,
    pub salt: u64,
    /// Probe and store the transposition table (off only in tests).
    pub use_tt: bool,
    /// Key the table by the incremental hash ([`zobrist`]) maintained from
    /// the sowings' events; otherwise by [`Position::fingerprint`] computed at
    /// each node (kept for measuring the difference).
    pub incremental: bool,
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    /// Aborting is allowed only once a first iteration has completed.
    pub can_abort: bool,
    pub aborted: bool,
    /// Some leaf was cut by the depth horizon (directly or through a table
    /// entry that was) in this iteration: the values are not final.
    pub horizon: bool,
    killers: Vec<[Option<Move>; 2]>,
    /// Positions since the last capture: game history, then the search path.
    path: Vec<(RepetitionKey, u8)>,
    bufs: Vec<Vec<Child>>,
    pv: Vec<Vec<Move>>,
}

/// Index of a one-hole move in the history table.
#[inline]
fn hist_index(m: Move) -> usize {
    m.hole() * 2 + (m.direction() == hoyito_core::Direction::Cw) as usize
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a mut Tt,
        history: &'a mut [[i32; 48]; 2],
        oracle: Option<&'a dyn Oracle>,
        weights: EvalWeights,
        salt: u64,
        stop: &'a AtomicBool,
        history_positions: &[Position],
    ) -> Searcher<'a> {
        let mut path = Vec::with_capacity(256);
        // Only positions since the last capture can repeat.
        if let Some(last) = history_positions.last() {
            for p in history_positions.iter().rev() {
                if p.in_play() != last.in_play() {
                    break;
                }
                path.push((p.repetition_key(), p.in_play()));
            }
            path.reverse();
        }
        Searcher {
            tt,
            history,
            oracle,
            weights,
            salt,
            use_tt: true,
            incremental: true,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop,
            can_abort: false,
            aborted: false,
            horizon: false,
            killers: vec![[None; 2]; MAX_PLY + 2],
            path,
            bufs: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            pv: vec![Vec::new(); MAX_PLY + 2],
        }
    }

    /// The principal variation found by the last root call.
    pub fn pv(&self, ply: usize) -> &[Move] {
        &self.pv[ply]
    }

    #[inline]
    fn check_abort(&mut self) {
        if !self.can_abort {
            return;
        }
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || (self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// Whether `pos` repeats a position of the path or history.
    #[inline]
    fn repeats(&self, pos: &Position) -> bool {
        let key = pos.repetition_key();
        let in_play = pos.in_play();
        for (k, ip) in self.path.iter().rev() {
            if *ip != in_play {
                return false;
            }
            if *k == key {
                return true;
            }
        }
        false
    }

    /// Plays every candidate of `pos` (every legal move while the opening is
    /// pending), skipping endless sowings.
    pub fn gen_children(pos: &Position, out: &mut Vec<Child>) {
        Self::gen(pos, None, out);
    }

    /// [`Searcher::gen_children`]; with `hb = Some(board hash of pos)`, each
    /// child's board hash is updated from its sowing's events
    /// ([`zobrist::play_hashed_unchecked`]), otherwise children are played on the
    /// cheaper unobserved path and not hashed.
    pub fn gen(pos: &Position, hb: Option<u64>, out: &mut Vec<Child>) {
        out.clear();
        let push = |m: Move, out: &mut Vec<Child>| {
            let mut p = *pos;
            let played = match hb {
                Some(h) => zobrist::play_hashed_unchecked(&mut p, h, m),
                None => p.play_unchecked(m).map(|pl| (pl, 0)),
            };
            if let Ok((played, hb)) = played {
                out.push(Child {
                    mv: m,
                    pos: p,
                    hb,
                    captured: played.captured,
                    order: 0,
                });
            }
        };
        if pos.opening_pending() {
            for m in pos.legal_moves() {
                push(m, out);
            }
        } else {
            for m in pos.candidates() {
                push(m, out);
            }
        }
    }

    /// The value of `child` (reached by a move of `me` that changed the seeds
    /// in play iff `captured > 0`), from `me`'s view.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn child_value(
        &mut self,
        child: &Position,
        hb: u64,
        me: Side,
        captured: u8,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if child.is_over() {
            self.pv[ply].clear();
            return child.margin(me) * SCALE;
        }
        if captured == 0 && self.repeats(child) {
            self.pv[ply].clear();
            return split_value(child, me);
        }
        if child.to_move() == me {
            self.node(child, hb, depth, ply, alpha, beta)
        } else {
            -self.node(child, hb, depth, ply, -beta, -alpha)
        }
    }

    /// Negamax value of `pos` (not over, board hash `hb` when keyed
    /// incrementally) from its mover's view.
    pub fn node(
        &mut self,
        pos: &Position,
        hb: u64,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.check_abort();
        self.pv[ply].clear();
        if self.aborted {
            return 0;
        }
        let me = pos.to_move();
        let base = pos.margin(me) * SCALE;
        if let Some(oracle) = self.oracle {
            if let Some(v) = oracle.final_margin(pos) {
                return v * SCALE;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.horizon = true;
            if self.weights.quiescence > 0 && ply < MAX_PLY {
                return self.quiesce(pos, self.weights.quiescence, ply, alpha, beta);
            }
            return evaluate(pos, &self.weights);
        }
        // Every node above the horizon is keyed.
        let use_tt = self.use_tt;
        let key = if !use_tt {
            0
        } else if self.incremental {
            debug_assert_eq!(hb, zobrist::board_hash(pos), "incremental hash");
            zobrist::key(pos, hb)
        } else {
            pos.fingerprint()
        } ^ self.salt;
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key).filter(|_| use_tt) {
            tt_move = hit.mv;
            if hit.depth >= depth {
                let v = hit.value + base;
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    self.horizon |= hit.depth < SOLVED as i32;
                    return v;
                }
            }
        }

        let mut children = std::mem::take(&mut self.bufs[ply]);
        // Children that will be keyed get their board hash from their
        // sowing's events (word-wise laps cost one event each); the others
        // are played on the unobserved path.
        let keyed = self.incremental && depth > LEAF_PARENT_DEPTH;
        Self::gen(pos, keyed.then_some(hb), &mut children);
        if children.is_empty() {
            // Every sowing is endless: the mover passes.
            self.bufs[ply] = children;
            let mut p = *pos;
            p.pass();
            if p.is_over() {
                return p.margin(me) * SCALE;
            }
            let v = -self.node(&p, hb, depth, ply + 1, -beta, -alpha);
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply].clone_from(&tail[0]);
            return v;
        }
        let killers = self.killers[ply];
        let hist = &self.history[me.index()];
        for c in children.iter_mut() {
            c.order = if Some(c.mv) == tt_move {
                i32::MAX
            } else if c.pos.is_over() {
                // Game-ending moves: try them early, the value is exact and cheap.
                1 << 29
            } else if c.captured > 0 {
                (1 << 28) + c.captured as i32
            } else if Some(c.mv) == killers[0] {
                1 << 27
            } else if Some(c.mv) == killers[1] {
                (1 << 27) - 1
            } else if c.mv.is_pair() {
                0
            } else {
                hist[hist_index(c.mv)].min((1 << 26) - 1)
            };
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.order));

        self.path.push((pos.repetition_key(), pos.in_play()));
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (i, c) in children.iter_mut().enumerate() {
            let v = if i == 0 {
                self.child_value(&c.pos, c.hb, me, c.captured, depth - 1, ply + 1, alpha, beta)
            } else {
                let v = self.child_value(&c.pos, c.hb, me, c.captured, depth - 1, ply + 1, alpha, alpha + 1);
                if v > alpha && v < beta && !self.aborted {
                    self.child_value(&c.pos, c.hb, me, c.captured, depth - 1, ply + 1, alpha, beta)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(c.mv);
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(c.mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        if c.captured == 0 && !c.mv.is_pair() {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(c.mv) {
                                k[1] = k[0];
                                k[0] = Some(c.mv);
                            }
                            let h = &mut self.history[me.index()][hist_index(c.mv)];
                            *h += depth * depth;
                            if *h > 1 << 24 {
                                for row in self.history.iter_mut() {
                                    for x in row.iter_mut() {
                                        *x /= 2;
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.bufs[ply] = children;
        let solved = !self.horizon;
        self.horizon |= outer_horizon;
        if self.aborted {
            return 0;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if use_tt {
            // A subtree where every line ended holds at any depth.
            let depth = if solved { SOLVED as i32 } else { depth };
            self.tt.store(key, best - base, depth, bound, best_move);
        }
        best
    }

    /// Quiescence: the static value, or better by a capture (an extra
    /// turn continues), up to `q` plies.
    fn quiesce(&mut self, pos: &Position, q: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let stand = evaluate(pos, &self.weights);
        if q <= 0 || stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        let me = pos.to_move();
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut children = std::mem::take(&mut self.bufs[ply]);
        Self::gen_children(pos, &mut children);
        for c in children.iter().filter(|c| c.captured > 0) {
            self.nodes += 1;
            let v = if c.pos.is_over() {
                c.pos.margin(me) * SCALE
            } else if c.pos.to_move() == me {
                self.quiesce(&c.pos, q - 1, ply + 1, alpha, beta)
            } else {
                -self.quiesce(&c.pos, q - 1, ply + 1, -beta, -alpha)
            };
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        self.bufs[ply] = children;
        best
    }

    /// Pushes a position onto the repetition path (a root child whose
    /// replies are searched); [`Searcher::pop_path`] removes it.
    pub fn push_path(&mut self, pos: &Position) {
        self.path.push((pos.repetition_key(), pos.in_play()));
    }

    /// Removes the last position pushed by [`Searcher::push_path`].
    pub fn pop_path(&mut self) {
        self.path.pop();
    }

    /// Pushes the root onto the repetition path (call once before searching root children).
    pub fn push_root(&mut self, root: &Position) {
        let entry = (root.repetition_key(), root.in_play());
        if self.path.last() != Some(&entry) {
            self.path.push(entry);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
