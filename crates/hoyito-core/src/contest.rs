//! [`Contest`]: a single game or a whole match, behind one interface, for
//! everything that plays either (records, the server's rooms, the terminal).

use crate::error::PlayError;
use crate::error::{MoveError, TokenError};
use crate::game::Game;
use crate::matchplay::Match;
use crate::moves::Move;
use crate::position::{GameResult, Played, Position};
use crate::rules::Rules;
use crate::side::Side;
use crate::trace::TracedMove;

/// A single game or a whole match.
///
/// # Examples
///
/// ```
/// use hoyito_core::{Contest, Rules, Variant};
/// let mut contest = Contest::new_match(Rules::standard(Variant::II));
/// contest.play_token("3")?;
/// assert_eq!((contest.plies(), contest.rounds().len()), (1, 1));
/// assert!(contest.is_match() && !contest.is_over());
/// # Ok::<(), hoyito_core::TokenError>(())
/// ```
#[derive(Debug, Clone)]
pub enum Contest {
    /// One game.
    Game(Game),
    /// A match of one or more rounds.
    Match(Match),
}

impl Contest {
    /// A single game from the standard start.
    pub fn new_game(rules: Rules) -> Contest {
        Contest::Game(Game::new(rules))
    }

    /// A new match.
    pub fn new_match(rules: Rules) -> Contest {
        Contest::Match(Match::new(rules))
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        match self {
            Contest::Game(g) => g.rules(),
            Contest::Match(m) => m.rules(),
        }
    }

    /// Whether this is a match.
    pub fn is_match(&self) -> bool {
        matches!(self, Contest::Match(_))
    }

    /// The single game, if this is one.
    pub fn as_game(&self) -> Option<&Game> {
        match self {
            Contest::Game(g) => Some(g),
            Contest::Match(_) => None,
        }
    }

    /// The match, if this is one.
    pub fn as_match(&self) -> Option<&Match> {
        match self {
            Contest::Game(_) => None,
            Contest::Match(m) => Some(m),
        }
    }

    /// The game being played: the single game, or the match's current round.
    pub fn current(&self) -> &Game {
        match self {
            Contest::Game(g) => g,
            Contest::Match(m) => m.current(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.current().position()
    }

    /// Every game in order: the single game, or the match's rounds so far.
    pub fn rounds(&self) -> &[Game] {
        match self {
            Contest::Game(g) => core::slice::from_ref(g),
            Contest::Match(m) => m.rounds(),
        }
    }

    /// Moves played in all rounds.
    pub fn plies(&self) -> usize {
        self.rounds().iter().map(|g| g.moves().len()).sum()
    }

    /// Plays a move in the current game (round).
    ///
    /// # Errors
    /// [`PlayError`] if the move is illegal, the round is over or the match
    /// is over; nothing changes then.
    pub fn play(&mut self, m: Move) -> Result<Played, PlayError> {
        match self {
            Contest::Game(g) => g.play(m),
            Contest::Match(x) => x.play(m),
        }
    }

    /// Reads and plays a move token in the current game (round).
    ///
    /// # Errors
    /// [`TokenError`] if the token is unreadable or the move illegal; nothing
    /// changes then.
    pub fn play_token(&mut self, token: &str) -> Result<Played, TokenError> {
        let m = self.position().parse_move(token)?;
        self.play(m).map_err(|error| TokenError::Illegal {
            token: token.trim().to_string(),
            error,
        })
    }

    /// Reads `token` and plays it on a copy of the current position;
    /// changes nothing ([`Game::prepare_token`], [`Match::prepare_token`]).
    /// Commit the result with [`Contest::commit`].
    ///
    /// # Errors
    /// [`MoveError`]: the game, round or match is over, the token is
    /// unreadable or the move illegal.
    pub fn prepare_token(&self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        match self {
            Contest::Game(g) => g.prepare_token(token, trace_limit),
            Contest::Match(m) => m.prepare_token(token, trace_limit),
        }
    }

    /// Applies a move prepared in the current position without sowing it
    /// again ([`Game::commit`], [`Match::commit`]).
    ///
    /// # Errors
    /// [`MoveError`]: the game, round or match is over, or the move was
    /// prepared in another position; nothing changes then.
    pub fn commit(&mut self, t: TracedMove) -> Result<TracedMove, MoveError> {
        match self {
            Contest::Game(g) => g.commit(t),
            Contest::Match(m) => m.commit(t),
        }
    }

    /// Reads and plays a move token, sowing it once, and returns what the
    /// move did with at most `trace_limit` sowing events
    /// ([`TracedMove`]): the one call the front ends play a move with.
    ///
    /// # Errors
    /// As [`Contest::prepare_token`]; nothing changes then.
    pub fn play_traced(&mut self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        let t = self.prepare_token(token, trace_limit)?;
        self.commit(t)
    }

    /// Ends the current game (round) by `side`'s concession: the seeds in
    /// play go to the other side and the game (round) is counted
    /// ([`Game::concede`], [`Match::concede`]).
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game is over, as [`Match::concede`]
    /// if the round or the match is.
    pub fn concede(&mut self, side: Side) -> Result<(), PlayError> {
        match self {
            Contest::Game(g) => g.concede(side),
            Contest::Match(x) => x.concede(side),
        }
    }

    /// Whether the whole contest is over: the game, or the match (a match's
    /// finished round is not the end of the match).
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The result once the game or the match is over.
    pub fn result(&self) -> Option<GameResult> {
        match self {
            Contest::Game(g) => g.position().outcome().map(|o| o.result()),
            Contest::Match(m) => m.outcome().map(|o| o.result()),
        }
    }

    /// Whether a match's round is over and the next can start (never for a
    /// single game).
    pub fn can_start_next_round(&self) -> bool {
        matches!(self, Contest::Match(m) if m.can_start_next_round())
    }

    /// Starts a match's next round; `false` for a single game, or if the
    /// round is not over or the match is over.
    pub fn start_next_round(&mut self) -> bool {
        match self {
            Contest::Game(_) => false,
            Contest::Match(m) => m.start_next_round(),
        }
    }
}

impl From<Game> for Contest {
    fn from(g: Game) -> Contest {
        Contest::Game(g)
    }
}

impl From<Match> for Contest {
    fn from(m: Match) -> Contest {
        Contest::Match(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// Plays the first legal move until the current round is over.
    fn finish_round(c: &mut Contest) {
        while !c.current().is_over() {
            let m = c.position().legal_moves()[0];
            c.play(m).unwrap();
        }
    }

    #[test]
    fn a_game_ends_with_its_round() {
        let mut c = Contest::new_game(Rules::standard(Variant::II));
        finish_round(&mut c);
        assert!(c.is_over());
        assert_eq!(c.result(), c.position().outcome().map(|o| o.result()));
        assert!(!c.can_start_next_round() && !c.start_next_round());
        let plies = c.plies();
        assert_eq!(
            c.play_token("1").map(|_| ()),
            Err(TokenError::Illegal {
                token: "1".into(),
                error: PlayError::GameOver
            })
        );
        assert_eq!(c.plies(), plies);
    }

    #[test]
    fn a_match_goes_on_after_a_round() {
        let mut c = Contest::new_match(Rules::standard(Variant::I));
        finish_round(&mut c);
        assert!(c.current().is_over());
        assert!(
            !c.is_over() && c.result().is_none(),
            "one round does not end a standard match"
        );
        // Until the next round starts, the round that is over refuses moves
        // and concessions, and says so.
        let round_over = PlayError::RoundOver { round: 1 };
        assert_eq!(round_over.to_string(), "round 1 is over; start the next round");
        let plies = c.plies();
        assert_eq!(
            c.play_token("1").map(|_| ()),
            Err(TokenError::Illegal {
                token: "1".into(),
                error: round_over
            })
        );
        assert_eq!(c.concede(Side::South), Err(round_over));
        assert_eq!(c.plies(), plies);
        assert!(c.can_start_next_round() && c.start_next_round());
        assert_eq!(c.rounds().len(), 2);
        assert_eq!(c.plies(), c.rounds()[0].moves().len());
    }

    #[test]
    fn a_finished_match_refuses_moves_and_concessions() {
        let mut c = Contest::new_match(Rules::standard(Variant::II));
        // South gives every seed away: too few to go on.
        c.concede(Side::South).unwrap();
        assert!(c.is_over() && !c.can_start_next_round());
        assert_eq!(PlayError::MatchOver.to_string(), "the match is over");
        assert_eq!(c.concede(Side::North), Err(PlayError::MatchOver));
        assert_eq!(
            c.play_token("1").map(|_| ()),
            Err(TokenError::Illegal {
                token: "1".into(),
                error: PlayError::MatchOver
            })
        );
    }
}
