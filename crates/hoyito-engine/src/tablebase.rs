//! The endgame tablebase as the engine's [`Oracle`] (feature `tablebase`, which
//! needs no files: tables in memory are one too): probes answer the
//! positions it covers, and its exact search
//! ([`ExactSearch`]) proves values above them.

use hoyito_core::{Move, Position};
use hoyito_tablebase::search::ExactSearch;
use hoyito_tablebase::{Tablebase, TablebaseError};

use crate::{Oracle, ProofError, Prover};

impl Oracle for Tablebase {
    fn final_margin(&self, pos: &Position) -> Option<i32> {
        Tablebase::final_margin(self, pos)
    }

    fn prover(&self, table_entries: usize) -> Option<Box<dyn Prover + '_>> {
        Some(Box::new(ExactSearch::new(self, table_entries)))
    }
}

impl From<TablebaseError> for ProofError {
    fn from(e: TablebaseError) -> ProofError {
        match e {
            TablebaseError::NodeLimit { limit } => ProofError::NodeLimit { limit },
            TablebaseError::Deadline => ProofError::Deadline,
            other => ProofError::Oracle(Box::new(other)),
        }
    }
}

impl Prover for ExactSearch<'_> {
    fn covers(&self, pos: &Position) -> bool {
        ExactSearch::covers(self, pos)
    }

    fn set_budget(&mut self, nodes: Option<u64>, deadline: Option<crate::clock::Instant>) {
        self.set_node_limit(nodes);
        self.set_deadline(deadline);
    }

    fn nodes(&self) -> u64 {
        self.stats().nodes
    }

    fn count_node(&mut self) -> Result<(), ProofError> {
        Ok(ExactSearch::count_node(self)?)
    }

    fn value(&mut self, pos: &Position) -> Result<i32, ProofError> {
        Ok(ExactSearch::value(self, pos)?)
    }

    fn at_least(&mut self, pos: &Position, threshold: i32) -> Result<bool, ProofError> {
        Ok(ExactSearch::at_least(self, pos, threshold)?)
    }

    fn move_values(&mut self, pos: &Position) -> Result<Vec<(Move, i32)>, ProofError> {
        // Covered: one probe per move, no proof.
        if ExactSearch::covers(self, pos) {
            return Ok(self.tablebase().move_values(pos)?);
        }
        Ok(ExactSearch::move_values(self, pos)?)
    }

    fn run(&mut self, f: &mut (dyn FnMut(&mut dyn Prover) + Send)) {
        ExactSearch::run(self, |search| f(search));
    }
}
