//! [`Game`]: one game with its move list and the repetition rule.

use crate::error::{MoveError, PlayError, TokenError};
use crate::moves::Move;
use crate::position::{Played, Position, RepetitionTracker};
use crate::rules::Rules;
use crate::side::Side;
use crate::trace::TracedMove;

/// The record token of a concession: `concede:south` or `concede:north`.
pub fn concession_token(side: Side) -> String {
    format!("concede:{}", side.name())
}

/// The side a concession token names (`concede:south`, `concede:north`, in
/// any case); `None` for any other text.
pub fn parse_concession(token: &str) -> Option<Side> {
    let (kind, side) = token.trim().split_once(':')?;
    if !kind.eq_ignore_ascii_case("concede") {
        return None;
    }
    match side.to_ascii_lowercase().as_str() {
        "south" => Some(Side::South),
        "north" => Some(Side::North),
        _ => None,
    }
}

/// One game from a start position, with every move played and the
/// repetition rule (RULES.md §4) applied after each move; a player may
/// concede it ([`Game::concede`]).
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    tracker: RepetitionTracker,
    conceded: Option<Side>,
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
            conceded: None,
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
    /// The side that conceded the game, if one did.
    pub fn conceded(&self) -> Option<Side> {
        self.conceded
    }

    /// Ends the game by `side`'s concession ([`Position::concede`]): the
    /// seeds still in play go to the other side and the game is counted.
    /// In a match this resigns one round; the match goes on.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game is over already.
    pub fn concede(&mut self, side: Side) -> Result<(), PlayError> {
        self.pos.concede(side)?;
        self.conceded = Some(side);
        Ok(())
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

    /// Reads `token` and plays it on a copy of the position
    /// ([`Position::prepare_token`]); changes nothing. Commit the result
    /// with [`Game::commit`].
    ///
    /// # Errors
    /// As [`Position::prepare_token`].
    pub fn prepare_token(&self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        self.pos.prepare_token(token, trace_limit)
    }

    /// Applies a move prepared in the current position without sowing it
    /// again: takes the position after it, then applies the repetition rule
    /// (the returned value's [`TracedMove::after`] and
    /// [`TracedMove::round_over`] say the result).
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game is over, [`MoveError::Stale`] if
    /// the move was prepared in another position; the game is then unchanged.
    pub fn commit(&mut self, mut t: TracedMove) -> Result<TracedMove, MoveError> {
        if self.pos.is_over() {
            return Err(MoveError::GameOver {
                token: t.token().to_string(),
            });
        }
        if *t.before() != self.pos {
            return Err(MoveError::Stale {
                token: t.token().to_string(),
            });
        }
        self.pos = t.after;
        self.moves.push(t.mv());
        if !self.pos.is_over() && self.tracker.push(&self.pos) >= 3 {
            self.pos.end_by_repetition();
        }
        t.after = self.pos;
        Ok(t)
    }

    /// Reads and plays `token`, sowing it once, keeping at most
    /// `trace_limit` sowing events: [`Game::prepare_token`] then
    /// [`Game::commit`].
    ///
    /// # Errors
    /// As [`Position::prepare_token`]; the game is then unchanged.
    pub fn play_traced(&mut self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        let t = self.prepare_token(token, trace_limit)?;
        self.commit(t)
    }

    /// Takes back the last move (replaying from the start), and a
    /// concession after it. Returns the move.
    pub fn undo(&mut self) -> Option<Move> {
        if self.conceded.is_some() && self.moves.is_empty() {
            *self = Game::from_position(self.start);
            return None;
        }
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

    /// The positions before each move and the final one (`moves().len() + 1`
    /// positions; the final one after a concession, if there was one).
    pub fn positions(&self) -> Vec<Position> {
        let mut g = Game::from_position(self.start);
        let mut out = vec![g.pos];
        for &m in &self.moves {
            g.play(m).expect("moves of a game are legal");
            out.push(g.pos);
        }
        if self.conceded.is_some() {
            if let Some(last) = out.last_mut() {
                *last = self.pos;
            }
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

    #[test]
    fn a_concession_gives_the_seeds_in_play_to_the_other_side() {
        use crate::position::EndReason;
        let mut g = Game::new(Rules::standard(Variant::I));
        g.play_token("3").unwrap();
        let before = *g.position();
        g.concede(Side::North).unwrap();
        let p = *g.position();
        assert!(p.is_over());
        assert_eq!(p.outcome().unwrap().reason, EndReason::Conceded);
        assert_eq!(g.conceded(), Some(Side::North));
        assert_eq!(p.in_play(), 0);
        assert!(p.board().iter().all(|&c| c == 0));
        assert_eq!(p.captured().south, before.captured().south + before.in_play());
        assert_eq!(p.captured().north, before.captured().north);
        assert_eq!(g.concede(Side::South), Err(PlayError::GameOver));
        assert!(g.play_token("1").is_err());
        // The final position of `positions` is the conceded one.
        assert_eq!(g.positions().last(), Some(&p));
        // Undo takes back the concession with the move.
        g.undo();
        assert_eq!(g.conceded(), None);
        assert!(!g.is_over());
        assert!(g.moves().is_empty());
    }

    #[test]
    fn concession_tokens_read_back() {
        for side in Side::ALL {
            assert_eq!(parse_concession(&concession_token(side)), Some(side));
        }
        assert_eq!(parse_concession("Concede:North"), Some(Side::North));
        assert_eq!(parse_concession("concede:east"), None);
        assert_eq!(parse_concession("resign:south"), None);
        assert_eq!(parse_concession("3L"), None);
    }
}
