//! Exact values of positions above the tables: a full-width alpha-beta
//! search that stops only where the game ends or the seeds in play reach a
//! layer of the tablebase.
//!
//! The value is the tablebase's: the net score the player to move will
//! still gain under perfect play, an endless game worth 0 (RULES.md §4,
//! `repetition = even`). There is no depth limit and no evaluation, so the
//! result is exact; it is affordable when every line soon captures enough
//! seeds to reach the tables (as in Hoyito I on 2×6 from the start).
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
//! [`ExactSearch::at_least`] asks only whether the value reaches a
//! threshold (a null-window search), which proves a bound far sooner than
//! the exact value when the game is large.
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
    /// Positions searched (tablebase probes and finished games excluded).
    pub nodes: u64,
    /// Tablebase probes.
    pub probes: u64,
    /// Lines cut because a position came back (scored 0).
    pub repetitions: u64,
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
        }
    }

    /// Calls `f` every 2^20 nodes (for a progress display).
    pub fn on_progress(&mut self, f: impl FnMut(&SearchStats) + Send + 'a) {
        self.progress = Some(Box::new(f));
    }

    /// The counters so far.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The net score the player to move will still gain from `pos` under
    /// perfect play (0 once the game is over).
    ///
    /// # Errors
    /// As [`Tablebase::value`]: positions outside the tablebase's rules,
    /// or a missing layer below the largest.
    pub fn value(&mut self, pos: &Position) -> Result<i32, TablebaseError> {
        let mut pos = *pos;
        pos.settle();
        let s = pos.in_play() as i32;
        self.deep(|search| Ok(search.negamax(&pos, -s - 1, s + 1)?.0))
    }

    /// Whether the net score the player to move will still gain from `pos`
    /// under perfect play is at least `threshold`: a proof of a lower bound
    /// (`true`) or of the upper bound `threshold - 1` (`false`).
    ///
    /// # Errors
    /// As [`ExactSearch::value`].
    pub fn at_least(&mut self, pos: &Position, threshold: i32) -> Result<bool, TablebaseError> {
        let mut pos = *pos;
        pos.settle();
        if pos.is_over() {
            return Ok(0 >= threshold);
        }
        self.deep(|search| Ok(search.negamax(&pos, threshold - 1, threshold)?.0 >= threshold))
    }

    /// Runs `f` on a thread with a large stack: lines without captures can
    /// run through many positions before one repeats, and the search
    /// recurses along them.
    fn deep<T: Send>(&mut self, f: impl FnOnce(&mut Self) -> T + Send) -> T {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("exact-search".into())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, || f(self))
                .expect("a thread for the search")
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))
        })
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
        let s = pos.in_play() as i32;
        self.deep(|search| {
            let mut out = Vec::new();
            search.path.push(key(&pos));
            for m in pos.legal_moves() {
                let (child, gain) = Self::play(&pos, m);
                match search.child_value(&child, gain, mover, -s - 1, s + 1) {
                    Ok((v, _)) => out.push((m, v)),
                    Err(e) => {
                        search.path.clear();
                        return Err(e);
                    }
                }
            }
            search.path.clear();
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
    /// `child`, searched in the window `(alpha, beta)`, and the shallowest
    /// line index a repetition cut under it returned to ([`FREE`] if none).
    fn child_value(
        &mut self,
        child: &Position,
        gain: i32,
        mover: Side,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, usize), TablebaseError> {
        if child.is_over() {
            return Ok((gain, FREE));
        }
        if child.to_move() == mover {
            let (v, dep) = self.negamax(child, alpha - gain, beta - gain)?;
            Ok((gain + v, dep))
        } else {
            let (v, dep) = self.negamax(child, gain - beta, gain - alpha)?;
            Ok((gain - v, dep))
        }
    }

    /// Fail-soft alpha-beta on a settled position that is not over; also
    /// returns the shallowest line index that a repetition cut under it
    /// returned to ([`FREE`] if none).
    fn negamax(&mut self, pos: &Position, mut alpha: i32, beta: i32) -> Result<(i32, usize), TablebaseError> {
        if pos.is_over() {
            return Ok((0, FREE));
        }
        if pos.in_play() as u32 <= self.top {
            self.stats.probes += 1;
            return Ok((self.tb.value(pos)?, FREE));
        }
        let k = key(pos);
        if let Some(at) = self.path.iter().position(|p| *p == k) {
            self.stats.repetitions += 1;
            return Ok((0, at));
        }
        self.stats.nodes += 1;
        if self.stats.nodes & ((1 << 20) - 1) == 0 {
            if let Some(f) = self.progress.as_mut() {
                f(&self.stats);
            }
        }
        let slot = (pos.hash() as usize) & (self.table.len() - 1);
        let e = self.table[slot];
        let mut first = 255;
        if e.used && e.key == k {
            let (lo, hi) = (e.lower as i32, e.upper as i32);
            if lo >= beta || lo == hi {
                return Ok((lo, FREE));
            }
            if hi <= alpha {
                return Ok((hi, FREE));
            }
            first = e.best;
        }
        let mover = pos.to_move();
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
        self.path.push(k);
        for (_, i, child, gain) in &children {
            let (i, gain) = (*i, *gain);
            let r = self.child_value(child, gain, mover, alpha, beta);
            let (v, d) = match r {
                Ok(x) => x,
                Err(e) => {
                    self.path.pop();
                    return Err(e);
                }
            };
            dep = dep.min(d);
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
            if best <= alpha0 {
                upper = upper.min(best);
            } else if best >= beta {
                lower = lower.max(best);
            } else {
                (lower, upper) = (best, best);
            }
            self.table[slot] = Entry {
                key: k,
                used: true,
                lower: lower as i8,
                upper: upper as i8,
                best: best_i,
            };
        }
        Ok((best, dep))
    }
}
