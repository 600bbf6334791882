//! Exact values of positions above the tables: alpha-beta searches with no
//! evaluation that stop where the game ends or the seeds in play reach a
//! layer of the tablebase, whose exact value they take.
//!
//! The value is the tablebase's: the net score the player to move will
//! still gain under perfect play, an endless game worth 0 (RULES.md §4,
//! `repetition = even`).
//!
//! **Proofs.** [`ExactSearch::at_least`] proves or refutes one bound,
//! `value ≥ t`, by iterative deepening: at each depth the player to move
//! searches with the lines still open at that depth scored as the loss of
//! every seed in play (so its result can only understate the true value),
//! then the opponent searches with them scored as *its* loss of everything.
//! Either search that reaches its goal is a proof. Short proofs are found
//! first, and the bounds proved on the way order the next iteration.
//! [`ExactSearch::value`] and [`ExactSearch::move_values`] bisect on such
//! bounds; [`ExactSearch::exact_value`] is the plain full-width search with
//! no depth limit, the reference, affordable only where every line soon
//! captures enough seeds to reach the tables (as in Hoyito I on 2×6).
//!
//! **Cycles.** A position that comes back on the current line scores 0: a
//! cycle captures nothing (a capture lowers the seeds in play for good), so
//! going round it is worth 0, as endless play is, and either player may
//! leave it at any of its positions, which the search tries. A value that
//! depended on a cut back to a position *above* it on the line holds only
//! for that line (the graph-history problem), so it is not stored in the
//! transposition table; once the search is back at the position the cut
//! returned to, the value no longer depends on the line and is stored. The
//! tests compare this search with the tables on every variant.
//!
//! ```
//! use hoyito_core::{Position, Rules, Variant};
//! use hoyito_tablebase::{search::ExactSearch, Tablebase};
//!
//! let rules = Rules::new(Variant::I, 4)?;
//! let low = Tablebase::solve_in_memory(rules, 8)?;
//! let high = Tablebase::solve_in_memory(rules, 16)?;
//! let pos = Position::from_notation(rules, "2,0,3,1/0,4,0,2 s 16-16")?;
//! let mut search = ExactSearch::new(&low, 1 << 16);
//! assert_eq!(search.value(&pos)?, high.value(&pos)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use hoyito_core::rules::MAX_BOARD;
use hoyito_core::{Move, Position, Side};

use crate::{Tablebase, TablebaseError};

/// A settled position's exact identity: board and side to move.
type Key = [u8; MAX_BOARD + 1];

fn key(pos: &Position) -> Key {
    let mut k = [0u8; MAX_BOARD + 1];
    k[..pos.board().len()].copy_from_slice(pos.board());
    k[MAX_BOARD] = pos.to_move().index() as u8;
    k
}

/// No repetition cut: the value does not depend on the line above.
const FREE: usize = usize::MAX;

/// How far a search looks: everything (the exact search), or `depth` plies
/// with the lines cut there scored as badly as possible for `prover`
/// (a proof search: its result bounds the true value from `prover`'s side).
#[derive(Clone, Copy)]
struct Limit {
    depth: u32,
    prover: Option<Side>,
}

impl Limit {
    const EXACT: Limit = Limit {
        depth: u32::MAX,
        prover: None,
    };

    fn deeper(self) -> Limit {
        match self.prover {
            None => self,
            Some(_) => Limit {
                depth: self.depth - 1,
                ..self
            },
        }
    }
}

/// Stack of the search thread (reserved address space; only the pages the
/// recursion reaches are used).
const SEARCH_STACK: usize = 4 << 30;

/// One transposition-table slot: bounds on the value of `key`.
#[derive(Clone, Copy)]
struct Entry {
    key: Key,
    used: bool,
    lower: i8,
    upper: i8,
    /// Index of the best move found in the legal-move list, or 255.
    best: u8,
}

const EMPTY: Entry = Entry {
    key: [0; MAX_BOARD + 1],
    used: false,
    lower: 0,
    upper: 0,
    best: 255,
};

/// Counters of a search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions searched, with those counted by callers through
    /// [`ExactSearch::count_node`] (tablebase probes and finished games
    /// excluded).
    pub nodes: u64,
    /// Tablebase probes.
    pub probes: u64,
    /// Lines cut because a position came back (scored 0).
    pub repetitions: u64,
    /// The depth of the current proof iteration ([`ExactSearch::at_least`];
    /// 0 in the exact search).
    pub depth: u32,
}

/// A progress callback.
type Progress<'a> = Box<dyn FnMut(&SearchStats) + Send + 'a>;

/// The exact search; see the [module documentation](self).
pub struct ExactSearch<'a> {
    tb: &'a Tablebase,
    /// The largest layer of the tablebase: positions with at most this many
    /// seeds in play are probed.
    top: u32,
    table: Vec<Entry>,
    path: Vec<Key>,
    stats: SearchStats,
    progress: Option<Progress<'a>>,
    /// Give up after this many positions (see [`ExactSearch::set_node_limit`]).
    node_limit: u64,
    /// Give up at this time (see [`ExactSearch::set_deadline`]).
    deadline: Option<crate::clock::Instant>,
    /// Running on the search's own large stack already (see [`ExactSearch::run`]).
    on_deep_stack: bool,
}

impl<'a> ExactSearch<'a> {
    /// A search probing `tb`, with a transposition table of `entries` slots
    /// (rounded up to a power of two; 32 bytes each). Every layer from 4
    /// seeds to the tablebase's largest must be present.
    pub fn new(tb: &'a Tablebase, entries: usize) -> Self {
        let top = tb.layers().last().copied().unwrap_or(0);
        ExactSearch {
            tb,
            top,
            table: vec![EMPTY; entries.max(1).next_power_of_two()],
            path: Vec::new(),
            stats: SearchStats::default(),
            progress: None,
            node_limit: u64::MAX,
            deadline: None,
            on_deep_stack: false,
        }
    }

    /// Runs `f` on one thread with the search's large stack, so that the
    /// searches `f` calls (for example many [`ExactSearch::value`]s) do not
    /// each start a thread of their own.
    pub fn run<T: Send>(&mut self, f: impl FnOnce(&mut Self) -> T + Send) -> T {
        self.deep(f)
    }

    /// Makes every later call fail with [`TablebaseError::NodeLimit`] once
    /// the counted positions ([`SearchStats::nodes`], over the search's
    /// life) pass `limit`: a budget for callers that have other ways to
    /// choose a move. Bounds proved before the limit stay in the table.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// Makes every later call fail with [`TablebaseError::Deadline`] once
    /// `deadline` has passed (checked every 1,024 counted positions), as
    /// [`ExactSearch::set_node_limit`] does for a number of positions.
    pub fn set_deadline(&mut self, deadline: Option<crate::clock::Instant>) {
        self.deadline = deadline;
    }

    /// Counts one position that the caller visits in a search of its own
    /// (such as a model of the opponent built on [`ExactSearch::value`])
    /// towards [`SearchStats::nodes`], so that the caller's walk stays
    /// within the same node limit as the proofs it asks for.
    ///
    /// # Errors
    /// [`TablebaseError::NodeLimit`] once the counted positions pass the
    /// limit of [`ExactSearch::set_node_limit`], [`TablebaseError::Deadline`]
    /// once the deadline of [`ExactSearch::set_deadline`] has passed.
    pub fn count_node(&mut self) -> Result<(), TablebaseError> {
        self.stats.nodes += 1;
        if self.stats.nodes > self.node_limit {
            return Err(TablebaseError::NodeLimit {
                limit: self.node_limit,
            });
        }
        if self.stats.nodes & 1023 == 0 && self.deadline.is_some_and(|d| crate::clock::Instant::now() >= d) {
            return Err(TablebaseError::Deadline);
        }
        if self.stats.nodes & ((1 << 20) - 1) == 0 {
            if let Some(f) = self.progress.as_mut() {
                f(&self.stats);
            }
        }
        Ok(())
    }

    /// Calls `f` every 2^20 nodes (for a progress display).
    pub fn on_progress(&mut self, f: impl FnMut(&SearchStats) + Send + 'a) {
        self.progress = Some(Box::new(f));
    }

    /// Whether the tablebase answers `pos` (settled) with one probe: at
    /// most as many seeds in play as its largest layer. Other positions
    /// need proofs.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.in_play() as u32 <= self.top
    }

    /// The tablebase the search probes.
    pub fn tablebase(&self) -> &'a Tablebase {
        self.tb
    }

    /// The counters so far.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The net score the player to move will still gain from `pos` under
    /// perfect play (0 once the game is over), found by bisection with the
    /// proofs of [`ExactSearch::at_least`].
    ///
    /// # Errors
    /// As [`Tablebase::value`]: positions outside the tablebase's rules,
    /// or a missing layer below the largest.
    pub fn value(&mut self, pos: &Position) -> Result<i32, TablebaseError> {
        let mut pos = *pos;
        pos.settle();
        if !pos.is_over() && self.covers(&pos) {
            // Covered: one probe, not one per bisection step.
            self.stats.probes += 1;
            return self.tb.value(&pos);
        }
        self.deep(|search| search.bisect(&pos))
    }

    /// The same value by one full-width search without a depth limit (the
    /// reference for [`ExactSearch::value`]; far slower where lines run long
    /// without captures, as from the Hoyito II and III starts on 2×6).
    ///
    /// # Errors
    /// As [`ExactSearch::value`].
    pub fn exact_value(&mut self, pos: &Position) -> Result<i32, TablebaseError> {
        let mut pos = *pos;
        pos.settle();
        let s = pos.in_play() as i32;
        self.deep(|search| Ok(search.negamax(&pos, -s - 1, s + 1, Limit::EXACT)?.0))
    }

    /// The value of a settled position by bisection on proved bounds.
    fn bisect(&mut self, pos: &Position) -> Result<i32, TablebaseError> {
        if pos.is_over() {
            return Ok(0);
        }
        let s = pos.in_play() as i32;
        let (mut lo, mut hi) = (-s, s);
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if self.prove(pos, mid)? {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Ok(lo)
    }

    /// Whether the net score the player to move will still gain from `pos`
    /// under perfect play is at least `threshold`: a proof of a lower bound
    /// (`true`) or of the upper bound `threshold - 1` (`false`).
    ///
    /// The proof deepens iteratively. At each depth the mover tries to
    /// prove the bound with every line cut at that depth scored as a loss of
    /// all seeds in play, then the opponent tries to refute it the same way;
    /// either result is a proof, since every cut line is scored as badly as
    /// possible for the side proving. Bounds proved on the way are kept in
    /// the transposition table and order the moves of the next iteration,
    /// so short proofs are found first; without a result by depth 1,000
    /// the exact null-window search settles it.
    ///
    /// # Errors
    /// As [`ExactSearch::value`].
    pub fn at_least(&mut self, pos: &Position, threshold: i32) -> Result<bool, TablebaseError> {
        let mut pos = *pos;
        pos.settle();
        if pos.is_over() {
            return Ok(0 >= threshold);
        }
        self.deep(|search| search.prove(&pos, threshold))
    }

    /// [`ExactSearch::at_least`] on a settled position that is not over.
    fn prove(&mut self, pos: &Position, threshold: i32) -> Result<bool, TablebaseError> {
        let mover = pos.to_move();
        let mut depth = 2;
        while depth <= 1000 {
            self.stats.depth = depth;
            let mut limit = Limit {
                depth,
                prover: Some(mover),
            };
            if self.negamax(pos, threshold - 1, threshold, limit)?.0 >= threshold {
                return Ok(true);
            }
            limit.prover = Some(mover.other());
            if self.negamax(pos, threshold - 1, threshold, limit)?.0 < threshold {
                return Ok(false);
            }
            depth += 2;
        }
        self.stats.depth = 0;
        Ok(self.negamax(pos, threshold - 1, threshold, Limit::EXACT)?.0 >= threshold)
    }

    /// Runs `f` on a thread with a large stack: lines without captures can
    /// run through many positions before one repeats, and the search
    /// recurses along them.
    ///
    /// If no such thread can be started (a system that refuses to reserve
    /// the address space), a smaller stack is tried, then this thread's own.
    fn deep<T: Send>(&mut self, f: impl FnOnce(&mut Self) -> T + Send) -> T {
        if self.on_deep_stack {
            return f(self);
        }
        let mut job = Some(f);
        for stack in [SEARCH_STACK, SEARCH_STACK / 16] {
            let started = std::thread::scope(|scope| {
                let (job, search) = (&mut job, &mut *self);
                std::thread::Builder::new()
                    .name("exact-search".into())
                    .stack_size(stack)
                    .spawn_scoped(scope, move || {
                        job.take().map(|f| {
                            search.on_deep_stack = true;
                            let v = f(search);
                            search.on_deep_stack = false;
                            v
                        })
                    })
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            });
            if let Ok(Some(v)) = started {
                return v;
            }
        }
        let f = job.take().expect("the search has not run");
        f(self)
    }

    /// Every legal move of `pos` (settled first) with its exact value for
    /// the mover, as [`Tablebase::move_values`].
    ///
    /// # Errors
    /// As [`ExactSearch::value`].
    pub fn move_values(&mut self, pos: &Position) -> Result<Vec<(Move, i32)>, TablebaseError> {
        let mut pos = *pos;
        pos.settle();
        let mover = pos.to_move();
        self.deep(|search| {
            let mut out = Vec::new();
            for m in pos.legal_moves() {
                let (child, gain) = Self::play(&pos, m);
                // A child's value does not depend on the line to it.
                let v = search.bisect(&child)?;
                out.push((
                    m,
                    if child.to_move() == mover {
                        gain + v
                    } else {
                        gain - v
                    },
                ));
            }
            Ok(out)
        })
    }

    /// `pos` after the legal move `m`, settled, and the mover's gain from it.
    fn play(pos: &Position, m: Move) -> (Position, i32) {
        let mover = pos.to_move();
        let mut child = *pos;
        child.play(m).expect("legal moves can be played");
        child.settle();
        (child, child.margin(mover) - pos.margin(mover))
    }

    /// The value for `mover` of a move that gained `gain` and led to
    /// `child`, searched in the window `(alpha, beta)`, the shallowest line
    /// index a repetition cut under it returned to ([`FREE`] if none), and
    /// whether a line under it was cut by the depth limit.
    fn child_value(
        &mut self,
        child: &Position,
        gain: i32,
        mover: Side,
        alpha: i32,
        beta: i32,
        limit: Limit,
    ) -> Result<(i32, usize, bool), TablebaseError> {
        if child.is_over() {
            return Ok((gain, FREE, false));
        }
        if child.to_move() == mover {
            let (v, dep, cut) = self.negamax(child, alpha - gain, beta - gain, limit)?;
            Ok((gain + v, dep, cut))
        } else {
            let (v, dep, cut) = self.negamax(child, gain - beta, gain - alpha, limit)?;
            Ok((gain - v, dep, cut))
        }
    }

    /// Fail-soft alpha-beta on a settled position that is not over; also
    /// returns the shallowest line index that a repetition cut under it
    /// returned to ([`FREE`] if none), and whether the depth limit cut a
    /// line under it.
    ///
    /// Under a depth limit for a prover, a line cut at the limit scores the
    /// worst for the prover (all seeds in play lost), and the table's
    /// bounds are used only where they are at least as bad for the prover
    /// (its lower bounds where the prover moves, upper bounds elsewhere).
    /// Every value is then at most the true value where the prover moves
    /// and at least it elsewhere, and only such true bounds are stored.
    fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        limit: Limit,
    ) -> Result<(i32, usize, bool), TablebaseError> {
        if pos.is_over() {
            return Ok((0, FREE, false));
        }
        if pos.in_play() as u32 <= self.top {
            self.stats.probes += 1;
            return Ok((self.tb.value(pos)?, FREE, false));
        }
        let k = key(pos);
        if let Some(at) = self.path.iter().position(|p| *p == k) {
            self.stats.repetitions += 1;
            return Ok((0, at, false));
        }
        let mover = pos.to_move();
        if limit.depth == 0 {
            let s = pos.in_play() as i32;
            return Ok((if limit.prover == Some(mover) { -s } else { s }, FREE, true));
        }
        self.count_node()?;
        let slot = (pos.fingerprint() as usize) & (self.table.len() - 1);
        let e = self.table[slot];
        let mut first = 255;
        if e.used && e.key == k {
            let (lo, hi) = (e.lower as i32, e.upper as i32);
            let (use_lo, use_hi) = match limit.prover {
                None => (true, true),
                Some(p) => (p == mover, p != mover),
            };
            if lo == hi || (use_lo && lo >= beta) {
                return Ok((lo, FREE, false));
            }
            if use_hi && hi <= alpha {
                return Ok((hi, FREE, false));
            }
            first = e.best;
        }
        let moves = pos.legal_moves();
        // Order: the table's best move, then the others by immediate gain.
        // Each move is played once; the children are kept for the search.
        let mut children: Vec<(i32, usize, Position, i32)> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let (child, gain) = Self::play(pos, m);
                (if i == first as usize { i32::MAX } else { gain }, i, child, gain)
            })
            .collect();
        children.sort_by_key(|&(key, ..)| std::cmp::Reverse(key));
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_i = 255u8;
        let depth = self.path.len();
        let mut dep = FREE;
        let mut cut = false;
        self.path.push(k);
        for (_, i, child, gain) in &children {
            let (i, gain) = (*i, *gain);
            let r = self.child_value(child, gain, mover, alpha, beta, limit.deeper());
            let (v, d, c) = match r {
                Ok(x) => x,
                Err(e) => {
                    self.path.pop();
                    return Err(e);
                }
            };
            dep = dep.min(d);
            cut |= c;
            if v > best {
                best = v;
                best_i = i as u8;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        // Cuts back to this position itself or below it are part of its
        // own value; only cuts to positions above it tie it to this line.
        if dep >= depth {
            dep = FREE;
            let (mut lower, mut upper) = (-(pos.in_play() as i32), pos.in_play() as i32);
            if e.used && e.key == k {
                (lower, upper) = (e.lower as i32, e.upper as i32);
            }
            match (cut, limit.prover) {
                // Cut lines: only the bound on the prover's side is true.
                (true, Some(p)) if p == mover => {
                    if best > alpha0 {
                        lower = lower.max(best);
                    }
                }
                (true, _) => {
                    if best < beta {
                        upper = upper.min(best);
                    }
                }
                (false, _) => {
                    if best <= alpha0 {
                        upper = upper.min(best);
                    } else if best >= beta {
                        lower = lower.max(best);
                    } else {
                        (lower, upper) = (best, best);
                    }
                }
            }
            self.table[slot] = Entry {
                key: k,
                used: true,
                lower: lower as i8,
                upper: upper as i8,
                best: best_i,
            };
        }
        Ok((best, dep, cut))
    }
}
