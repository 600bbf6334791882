//! What the engine needs from perfect-play knowledge (an endgame
//! tablebase, say): exact values of the positions it covers, and, if it
//! can, proofs of exact values above them.
//!
//! The engine never opens such knowledge itself: the caller builds or opens
//! it once and hands it over with [`Engine::set_oracle`](crate::Engine::set_oracle).
//! With the `tablebase` feature (on by default), `hoyito_tablebase::Tablebase`
//! is an [`Oracle`] whose [`Prover`] is its exact search.

use hoyito_core::{Move, Position};

/// Perfect-play knowledge the engine consults.
///
/// A closure `Fn(&Position) -> Option<i32>` is an oracle that answers
/// [`Oracle::final_margin`] and proves nothing.
pub trait Oracle: Send + Sync {
    /// The final margin of the game (as [`Position::margin`], in seeds,
    /// captures so far included) from the view of the side to move of
    /// `pos` (not over) under perfect play, or `None` if unknown. The
    /// search asks at every node below the root, so this must be cheap.
    fn final_margin(&self, pos: &Position) -> Option<i32>;

    /// A proof search over positions [`Oracle::final_margin`] does not
    /// answer, with a transposition table of about `table_entries` slots;
    /// `None` (the default) if this oracle cannot prove anything.
    fn prover(&self, table_entries: usize) -> Option<Box<dyn Prover + '_>> {
        let _ = table_entries;
        None
    }
}

impl<F> Oracle for F
where
    F: Fn(&Position) -> Option<i32> + Send + Sync,
{
    fn final_margin(&self, pos: &Position) -> Option<i32> {
        self(pos)
    }
}

/// An exact search above an [`Oracle`]'s knowledge, within a budget of
/// positions and time.
///
/// Values here are *net* values: what the side to move of a position will
/// still gain under perfect play (0 once the game is over), so the final
/// margin is `pos.margin(mover) + value`. Every call counts the positions it
/// visits; once the budget of [`Prover::set_budget`] is spent, every call
/// fails with [`ProofError::NodeLimit`] or [`ProofError::Deadline`].
pub trait Prover {
    /// Whether `pos` (settled) is answered by the oracle directly, with no
    /// proof.
    fn covers(&self, pos: &Position) -> bool;

    /// Gives up once `nodes` positions in all (over the prover's life) have
    /// been counted, or once `deadline` has passed; `None` lifts a limit.
    fn set_budget(&mut self, nodes: Option<u64>, deadline: Option<crate::clock::Instant>);

    /// The positions counted so far.
    fn nodes(&self) -> u64;

    /// Counts one position of a search of the caller's own (such as a model
    /// of the opponent built on [`Prover::at_least`]), so that it stays
    /// within the same budget as the proofs it asks for.
    ///
    /// # Errors
    /// [`ProofError::NodeLimit`] or [`ProofError::Deadline`] once the budget
    /// is spent.
    fn count_node(&mut self) -> Result<(), ProofError>;

    /// The net value of `pos` for its side to move.
    ///
    /// # Errors
    /// Once the budget is spent, or if the oracle cannot answer `pos`.
    fn value(&mut self, pos: &Position) -> Result<i32, ProofError>;

    /// Whether the net value of `pos` for its side to move is at least
    /// `threshold`: one proved bound, cheaper than [`Prover::value`].
    ///
    /// # Errors
    /// As [`Prover::value`].
    fn at_least(&mut self, pos: &Position, threshold: i32) -> Result<bool, ProofError>;

    /// Every legal move of `pos` with its net value for the mover (the gain
    /// of the move plus what follows under perfect play).
    ///
    /// # Errors
    /// As [`Prover::value`].
    fn move_values(&mut self, pos: &Position) -> Result<Vec<(Move, i32)>, ProofError>;

    /// Runs `f` with this prover in whatever setting its searches need
    /// (the tablebase's exact search recurses deeply and runs on a thread
    /// with a large stack), so that the many proofs `f` asks for do not each
    /// set it up again.
    fn run(&mut self, f: &mut (dyn FnMut(&mut dyn Prover) + Send));
}

/// Why a [`Prover`] gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The budget of positions was spent.
    #[error("the proof reached its limit of {limit} positions without a result")]
    NodeLimit {
        /// The limit set by [`Prover::set_budget`].
        limit: u64,
    },
    /// The deadline passed.
    #[error("the proof ran out of its time without a result")]
    Deadline,
    /// The oracle cannot answer (for example a missing tablebase layer).
    #[error("the oracle cannot answer: {0}")]
    Oracle(#[source] Box<dyn std::error::Error + Send + Sync>),
}
