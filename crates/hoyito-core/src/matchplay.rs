//! [`Match`]: games chained into rounds with refills, closed holes and
//! reserves (RULES.md §5).

use crate::error::PlayError;
use crate::error::{MoveError, TokenError};
use crate::game::Game;
use crate::moves::Move;
use crate::position::MatchOutcome;
use crate::position::{LastFour, Played, Position, Setup};
use crate::rules::{Rules, Variant};
use crate::side::{ByPlayer, Side};
use crate::trace::TracedMove;

/// A match: games chained into rounds with refills, closed holes, reserves,
/// who starts, and the round number Hoyito III's last-four rule reads.
///
/// ◆ Refills and the match-losing threshold use the rules' seeds per hole
/// (4, as RULES.md §5 says, unless the `seeds` option changes the start).
#[derive(Debug, Clone)]
pub struct Match {
    rules: Rules,
    rounds: Vec<Game>,
    outcome: Option<MatchOutcome>,
}

impl Match {
    /// A new match; round 1 is the standard start.
    pub fn new(rules: Rules) -> Match {
        Match {
            rules,
            rounds: vec![Game::new(rules)],
            outcome: None,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Every round so far, the current one last.
    pub fn rounds(&self) -> &[Game] {
        &self.rounds
    }
    /// The current round's game.
    pub fn current(&self) -> &Game {
        self.rounds.last().expect("a match has a round")
    }
    /// The current round's game, to play in.
    fn current_mut(&mut self) -> &mut Game {
        self.rounds.last_mut().expect("a match has a round")
    }
    /// The current round number, from 1.
    pub fn round(&self) -> u32 {
        self.rounds.len() as u32
    }
    /// The match result, once the match is over.
    pub fn outcome(&self) -> Option<MatchOutcome> {
        self.outcome
    }

    /// Plays a move in the current round. When the round ends, the match
    /// result is decided if a player is left with too few seeds.
    ///
    /// # Errors
    /// [`PlayError::MatchOver`] or [`PlayError::RoundOver`] if the match or
    /// the round is over; otherwise [`PlayError`] if the move is illegal.
    pub fn play(&mut self, m: Move) -> Result<Played, PlayError> {
        if let Some(e) = self.over() {
            return Err(e);
        }
        let played = self.current_mut().play(m)?;
        self.check_end();
        Ok(played)
    }

    /// Reads and plays a move token in the current round ([`Match::play`]).
    ///
    /// # Errors
    /// [`TokenError`] if the token is unreadable or the move illegal (the
    /// round or the match over: [`PlayError::RoundOver`],
    /// [`PlayError::MatchOver`]); nothing changes then.
    pub fn play_token(&mut self, token: &str) -> Result<Played, TokenError> {
        let m = self.current().position().parse_move(token)?;
        self.play(m).map_err(|error| TokenError::Illegal {
            token: token.trim().to_string(),
            error,
        })
    }

    /// Why no move can be played now: the match or the current round is over.
    fn over(&self) -> Option<PlayError> {
        if self.outcome.is_some() {
            Some(PlayError::MatchOver)
        } else if self.current().is_over() {
            Some(PlayError::RoundOver { round: self.round() })
        } else {
            None
        }
    }

    /// [`Match::over`] for `token`.
    fn over_error(&self, token: &str) -> Option<MoveError> {
        let token = token.trim().to_string();
        Some(match self.over()? {
            PlayError::RoundOver { round } => MoveError::RoundOver { token, round },
            _ => MoveError::MatchOver { token },
        })
    }

    /// Reads `token` and plays it on a copy of the current round's position
    /// ([`Position::prepare_token`]); changes nothing. Commit the result with
    /// [`Match::commit`].
    ///
    /// # Errors
    /// [`MoveError::MatchOver`] or [`MoveError::RoundOver`] if the match or
    /// the round is over; otherwise as [`Position::prepare_token`].
    pub fn prepare_token(&self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        match self.over_error(token) {
            Some(e) => Err(e),
            None => self.current().prepare_token(token, trace_limit),
        }
    }

    /// Applies a move prepared in the current round's position without
    /// sowing it again ([`Game::commit`]); when the round ends, the match
    /// result is decided ([`TracedMove::match_over`]).
    ///
    /// # Errors
    /// [`MoveError::MatchOver`], [`MoveError::RoundOver`] or
    /// [`MoveError::Stale`]; the match is then unchanged.
    pub fn commit(&mut self, t: TracedMove) -> Result<TracedMove, MoveError> {
        if let Some(e) = self.over_error(t.token()) {
            return Err(e);
        }
        let mut t = self.current_mut().commit(t)?;
        self.check_end();
        t.match_over = self.outcome;
        Ok(t)
    }

    /// Reads and plays `token` in the current round, sowing it once:
    /// [`Match::prepare_token`] then [`Match::commit`].
    ///
    /// # Errors
    /// As [`Match::prepare_token`]; the match is then unchanged.
    pub fn play_traced(&mut self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        let t = self.prepare_token(token, trace_limit)?;
        self.commit(t)
    }

    /// Ends the current round by `side`'s concession ([`Game::concede`]):
    /// the seeds in play go to the other side and the round is counted; the
    /// match goes on unless a player is left with too few seeds.
    ///
    /// # Errors
    /// [`PlayError::MatchOver`] or [`PlayError::RoundOver`] if the match or
    /// the round is over.
    pub fn concede(&mut self, side: Side) -> Result<(), PlayError> {
        if let Some(e) = self.over() {
            return Err(e);
        }
        self.current_mut().concede(side)?;
        self.check_end();
        Ok(())
    }

    fn check_end(&mut self) {
        let pos = *self.current().position();
        if !pos.is_over() || self.outcome.is_some() {
            return;
        }
        let s = self.rules.seeds() as u32;
        let total = |side: Side| pos.captured()[side] as u32 + pos.reserve()[side] as u32;
        let short = ByPlayer::new_with(|side| total(side) < s);
        if short.south || short.north {
            let winner = match (short.south, short.north) {
                (true, false) => Some(Side::North),
                (false, true) => Some(Side::South),
                _ => None,
            };
            self.outcome = Some(MatchOutcome {
                winner,
                rounds: self.round(),
            });
        }
    }

    /// Whether the current round is over and another one can start.
    pub fn can_start_next_round(&self) -> bool {
        self.current().is_over() && self.outcome.is_none()
    }

    /// The start of the next round: each player refills holes of their row
    /// from hole 1 upward with the rules' seeds per hole from their winnings
    /// plus reserve; holes left unfilled are closed; the rest is reserve.
    /// The previous round's winner starts (after a draw, the player who did
    /// not start it). In Hoyito III from round 3 the last four go to the
    /// previous round's winner (after a draw, the captor).
    ///
    /// Returns `None` if the current round is not over or the match is over.
    pub fn next_round_start(&self) -> Option<Position> {
        if !self.can_start_next_round() {
            return None;
        }
        let game = self.current();
        let end = game.position();
        let n = self.rules.holes();
        let s = self.rules.seeds();
        let mut board = vec![0u8; 2 * n];
        let mut closed = Vec::new();
        let mut reserve = ByPlayer::default();
        for side in Side::ALL {
            let mut total = end.captured()[side] as u32 + end.reserve()[side] as u32;
            let base = side.index() * n;
            for k in 0..n {
                if total >= s as u32 {
                    board[base + k] = s;
                    total -= s as u32;
                } else {
                    closed.push(base + k);
                }
            }
            reserve[side] = total as u8;
        }
        let winner = end.outcome().and_then(|o| o.winner);
        let last_starter = game.start().to_setup().to_move;
        let starter = winner.unwrap_or(last_starter.other());
        let round = self.round() + 1;
        let last_four = match (self.rules.variant(), winner) {
            (Variant::III, Some(w)) if round >= 3 => LastFour::To(w),
            _ => LastFour::Captor,
        };
        let setup = Setup {
            board,
            closed,
            to_move: starter,
            captured: ByPlayer::default(),
            reserve,
            chosen: end.chosen_directions(),
            opening: self.rules.two_hole_opening(),
            last_four,
            round,
        };
        Position::from_setup(self.rules, &setup).ok()
    }

    /// Starts the next round (see [`Match::next_round_start`]). Returns
    /// `false` if the current round is not over or the match is over.
    pub fn start_next_round(&mut self) -> bool {
        match self.next_round_start() {
            Some(pos) => {
                self.rounds.push(Game::from_position(pos));
                true
            }
            None => false,
        }
    }
}
