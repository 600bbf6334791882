//! Root proofs: above an oracle's knowledge, a full-strength search first
//! tries to prove the value of every root move down into it, and plays a
//! best move perfectly (or swindles, see [`Engine::set_swindle`]) if the
//! proof finishes within its budget.

use crate::clock::Instant;

use hoyito_core::Position;

use crate::swindle::deepest_swindle;
use crate::{Engine, Info, Limits, SearchResult};

/// The node limit of a root proof when the search has neither a node nor a
/// time limit.
const DEFAULT_PROOF_NODES: u64 = 200_000;

/// Slots of a root proof's transposition table (32 bytes each).
const PROOF_TABLE_ENTRIES: usize = 1 << 16;

/// What a root proof came to.
pub(crate) enum RootProof {
    /// Every root move's value is proved: the move to play, perfectly.
    Proved(SearchResult),
    /// No proof (no oracle that proves, a search limited by depth alone, a
    /// position the oracle answers directly with nothing to swindle, or the
    /// budget ran out): the usual search decides, with what is left of the
    /// limits after `nodes_spent`.
    Unproved {
        /// Positions the failed proof counted.
        nodes_spent: u64,
    },
}

impl Engine {
    /// A perfect move above the oracle's knowledge, if the values of all
    /// root moves can be proved within the budget (see
    /// [`Engine::set_oracle`]). Searches limited by depth alone are left to
    /// alpha-beta, so that they stay as documented.
    pub(crate) fn prove_root(
        &mut self,
        pos: &Position,
        limits: Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> RootProof {
        const NOTHING: RootProof = RootProof::Unproved { nodes_spent: 0 };
        let Some(mut prover) = self.oracle.as_deref().and_then(|o| o.prover(PROOF_TABLE_ENTRIES)) else {
            return NOTHING;
        };
        let start = Instant::now();
        let moves_nodes = limits.node_budget.or(limits.nodes);
        // The proof gets a quarter of the move's nodes (an exact-search
        // node costs several alpha-beta nodes) and half of its time.
        let (budget, deadline) = match (moves_nodes, limits.movetime) {
            (None, None) if limits.depth.is_some() => return NOTHING,
            (None, None) => (Some(DEFAULT_PROOF_NODES), None),
            (n, t) => (n.map(|n| n / 4), t.map(|t| start + t / 2)),
        };
        // Closed holes (later rounds of a match) have no tables.
        if pos.closed_mask() != 0 || budget == Some(0) {
            return NOTHING;
        }
        let me = pos.to_move();
        prover.set_budget(budget, deadline);
        let covered = prover.covers(pos);
        // Covered positions need no proof (the oracle makes the search
        // perfect) unless the engine may swindle.
        if covered && !self.swindle {
            return NOTHING;
        }
        // Fails on the limit: the usual search takes over.
        let values = match prover.move_values(pos) {
            Ok(v) => v,
            Err(_) => {
                return RootProof::Unproved {
                    nodes_spent: prover.nodes(),
                }
            }
        };
        // Won and covered: nothing to swindle for, and the search is perfect.
        if covered && values.iter().any(|&(_, v)| pos.margin(me) + v > 0) {
            return NOTHING;
        }
        let Some(&(mut best, mut value)) = values.iter().rev().max_by_key(|&&(_, v)| v) else {
            return RootProof::Unproved {
                nodes_spent: prover.nodes(),
            };
        };
        if self.swindle && pos.margin(me) + value <= 0 {
            // Deeper and deeper traps, within twice the proof's node budget
            // and 90 % of the move's time (no search follows a proved root).
            let limit = budget.map(|b| prover.nodes() + 2 * b);
            prover.set_budget(limit, limits.movetime.map(|t| start + t * 9 / 10));
            if let Some((m, v)) = deepest_swindle(&mut *prover, pos, &values) {
                (best, value) = (m, v);
            }
        }
        let nodes = prover.nodes();
        let time_ms = start.elapsed().as_millis() as u64;
        let score = pos.margin(me) + value;
        on_info(&Info {
            depth: 0,
            score,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            pv: vec![best],
        });
        RootProof::Proved(SearchResult {
            best: Some(best),
            score,
            pv: vec![best],
            depth: 0,
            nodes,
            time_ms,
        })
    }
}
