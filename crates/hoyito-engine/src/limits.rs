//! How long a search may run: [`Limits`], and the time to spend on a move
//! under a clock ([`time_for_move`]).

use std::time::Duration;

/// Search limits. Each given limit stops the search; with none, the search
/// runs until `stop` is set (alpha-beta also stops at its maximum depth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterative-deepening depth in plies (an extra turn is a ply). For MCTS:
    /// `depth × 1000` playouts.
    pub depth: Option<u32>,
    /// Nodes (alpha-beta) or playouts (MCTS).
    pub nodes: Option<u64>,
    /// Wall-clock time.
    pub movetime: Option<Duration>,
    /// A node budget standing in for `movetime` (machine- and load-independent
    /// timing): alpha-beta stops at this many nodes and, as with a time
    /// limit, starts no iteration after half of them and returns at once
    /// with a single legal move. MCTS treats it as `nodes`.
    pub node_budget: Option<u64>,
}

impl Limits {
    /// Whether the depth is the only limit: such a search starts from an
    /// empty table, so its result depends only on the game and the depth.
    pub(crate) fn depth_only(&self) -> bool {
        self.depth.is_some() && self.nodes.is_none() && self.movetime.is_none() && self.node_budget.is_none()
    }

    /// The node limit of alpha-beta: the smaller of `nodes` and
    /// `node_budget`, unlimited without either.
    pub(crate) fn node_limit(&self) -> u64 {
        self.nodes
            .unwrap_or(u64::MAX)
            .min(self.node_budget.unwrap_or(u64::MAX))
    }

    /// What is left of these limits after a first phase of the move spent
    /// `time` and `nodes` (at least 1 ms and 1 node of each given limit).
    pub(crate) fn after(self, time: Duration, nodes: u64) -> Limits {
        let left = |n: u64| n.saturating_sub(nodes).max(1);
        Limits {
            movetime: self
                .movetime
                .map(|t| t.saturating_sub(time).max(Duration::from_millis(1))),
            nodes: self.nodes.map(left),
            node_budget: self.node_budget.map(left),
            ..self
        }
    }
}

/// Time to spend on a move given the remaining clock and increment (UGI
/// p1time/p2time): a 30th of the remaining time plus three quarters of the
/// increment, never more than half of the remaining time, at least 1 ms.
pub fn time_for_move(remaining: Duration, increment: Duration) -> Duration {
    let t = remaining / 30 + increment * 3 / 4;
    t.min(remaining / 2).max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::time_for_move;

    #[test]
    fn time_for_move_is_sane() {
        use std::time::Duration;
        let t = time_for_move(Duration::from_secs(60), Duration::from_secs(1));
        assert!(t > Duration::from_secs(1) && t < Duration::from_secs(10));
        assert!(time_for_move(Duration::from_millis(10), Duration::ZERO) <= Duration::from_millis(5));
    }
}
