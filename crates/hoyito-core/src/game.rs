//! [`Game`]: one game with its move list and the repetition rule.

use crate::error::{MoveParseError, PlayError};
use crate::moves::Move;
use crate::position::{Played, Position, RepetitionTracker};
use crate::rules::Rules;

/// A move token that could not be played: unreadable or illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// The token is not a move token.
    #[error(transparent)]
    Parse(#[from] MoveParseError),
    /// The move is not legal here.
    #[error("{token} is illegal: {error}")]
    Illegal {
        /// The token as given.
        token: String,
        /// Why.
        error: PlayError,
    },
}

/// One game from a start position, with every move played and the
/// repetition rule (RULES.md §4) applied after each move.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    tracker: RepetitionTracker,
}

impl Game {
    /// A single game from the standard start.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::new(rules))
    }

    /// A game from any position.
    pub fn from_position(start: Position) -> Game {
        let mut tracker = RepetitionTracker::new();
        if !start.is_over() {
            tracker.push(&start);
        }
        Game {
            start,
            pos: start,
            moves: Vec::new(),
            tracker,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.pos.rules()
    }
    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// Plays a move, then applies the repetition rule.
    ///
    /// # Errors
    /// [`PlayError`] if the move is illegal; the game is then unchanged.
    pub fn play(&mut self, m: Move) -> Result<Played, PlayError> {
        let played = self.pos.play(m)?;
        self.moves.push(m);
        if !self.pos.is_over() && self.tracker.push(&self.pos) >= 3 {
            self.pos.end_by_repetition();
        }
        Ok(played)
    }

    /// Reads and plays a move token.
    ///
    /// # Errors
    /// [`TokenError`] if the token is unreadable or the move illegal.
    pub fn play_token(&mut self, token: &str) -> Result<Played, TokenError> {
        let m = self.pos.parse_move(token)?;
        self.play(m).map_err(|error| TokenError::Illegal {
            token: token.trim().to_string(),
            error,
        })
    }

    /// Takes back the last move (replaying from the start). Returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        let moves = core::mem::take(&mut self.moves);
        *self = Game::from_position(self.start);
        for m in moves {
            self.play(m).expect("replaying moves that were legal");
        }
        Some(last)
    }

    /// The tokens of the moves played, each written in the position it was played in.
    pub fn tokens(&self) -> Vec<String> {
        let mut p = self.start;
        self.moves
            .iter()
            .map(|&m| {
                let t = p.move_token(m).to_string();
                p.play(m).expect("moves of a game are legal");
                t
            })
            .collect()
    }

    /// The positions before each move and the final one (`moves().len() + 1` positions).
    pub fn positions(&self) -> Vec<Position> {
        let mut g = Game::from_position(self.start);
        let mut out = vec![g.pos];
        for &m in &self.moves {
            g.play(m).expect("moves of a game are legal");
            out.push(g.pos);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn undo_restores() {
        let mut g = Game::new(Rules::standard(Variant::II));
        let before = *g.position();
        g.play_token("3").unwrap();
        assert_ne!(*g.position(), before);
        g.undo();
        assert_eq!(*g.position(), before);
        assert!(g.undo().is_none());
    }
}
