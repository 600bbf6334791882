//! [`RoomError`]: why a room refused a step, with a stable code for the API.

use hoyito_core::Side;

use crate::OfferKind;

/// Why a room refused a step or a request. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoomError {
    /// The game (or the match) was stopped: resigned, aborted, drawn by
    /// agreement, or lost on time (the text says how, as a record's
    /// `Termination` tag).
    #[error("the game is over: {0}")]
    Stopped(String),
    /// The game (or the match: `what`) was played to its end.
    #[error("the {what} is over")]
    Over {
        /// `game` or `match`.
        what: &'static str,
    },
    /// This round of a match is over; the next has not started.
    #[error("this round is over: start the next round")]
    RoundOver,
    /// The seat asked to move for the other side.
    #[error("it is {0}'s turn")]
    NotYourTurn(Side),
    /// The move token cannot be read.
    #[error("{0}")]
    BadMove(String),
    /// The move is not legal here.
    #[error("{0}")]
    IllegalMove(String),
    /// An abort once both players have moved.
    #[error("both players have moved: resign or offer a draw instead")]
    TooLateToAbort,
    /// The next round was asked for while none can start.
    #[error("the next round can start only when a round of an unfinished match is over")]
    NoNextRound,
    /// A round was resigned in a single game.
    #[error("only a round of a match can be resigned: resign the game instead")]
    NotAMatch,
    /// Undo in a game between two people on two devices.
    #[error("undo is not available in online games")]
    UndoUnavailable,
    /// A takeback request in a game that is not between two people on two
    /// devices (elsewhere there is undo).
    #[error("takeback requests are only for online games: use undo")]
    TakebackUnavailable,
    /// A draw offer where both sides play at one device.
    #[error("both sides play at this device: there is nobody to offer a draw to")]
    DrawUnavailable,
    /// An offer between rounds of a match, or after the last.
    #[error("{}", match .0 {
        OfferKind::Draw => "this round is over: offer a draw while a round is played",
        OfferKind::Takeback => "this round is over: a move can be taken back only while a round is played",
    })]
    OfferRoundOver(OfferKind),
    /// An offer in an online game before the other player joined.
    #[error("the other player has not joined yet: wait for them, or abort the game")]
    WaitingForOpponent,
    /// A move while the engine searches (its own move, or until an undo
    /// stops it).
    #[error("the engine is thinking")]
    EngineThinking,
    /// A move in a timed game before its second player joined.
    #[error("a timed game starts once the second player has joined")]
    NotStarted,
    /// A hint in an online game.
    #[error("hints are off in online games")]
    HintUnavailable,
    /// An answer to an offer that does not wait.
    #[error("{}", match .0 {
        OfferKind::Draw => "the other player has not offered a draw",
        OfferKind::Takeback => "the other player has not asked to take back a move",
    })]
    NoOffer(OfferKind),
    /// An offer while one waits (`mine`: the asker's own), or a draw
    /// offered again at the same move.
    #[error("{}", match (.kind, .mine) {
        (OfferKind::Draw, _) => "you offered a draw at this move already: offer again after a move",
        (OfferKind::Takeback, true) => "you asked to take back your move already: wait for the other player's answer",
        (OfferKind::Takeback, false) => "the other player asked to take back their move: accept or decline it first",
    })]
    Offered {
        /// What was offered.
        kind: OfferKind,
        /// Whether the asker made the offer that waits.
        mine: bool,
    },
    /// A draw offered to the engine on its move.
    #[error("offer the computer a draw on your move")]
    OfferOnYourMove,
    /// Nothing of the asker's to take back in this round.
    #[error("no move of yours to take back in this round")]
    NothingToUndo,
    /// The start position is not valid notation for the rules.
    #[error("{0}")]
    InvalidPosition(String),
    /// A stop or concession token names no side.
    #[error("{name:?} is no side: expected {kind}:south or {kind}:north")]
    BadSide {
        /// The token's kind (`resign`, `abort`, `flag`, `left`, `left-draw`, `concede`).
        kind: crate::StepKind,
        /// What stood where the side should be.
        name: String,
    },
    /// A claim against a player who left, where none can be made: not an
    /// online game with a clock of minutes, or the claimant is not connected.
    #[error("{0}")]
    ClaimUnavailable(&'static str),
    /// A claim against a player who is connected.
    #[error("the other player is connected: a claim is only for a player who left")]
    OpponentConnected,
    /// A claim before the other player has been away long enough.
    #[error("the other player may still come back: claim in {seconds} s")]
    TooEarlyToClaim {
        /// Seconds until the claim may be made.
        seconds: u64,
    },
    /// A stored step does not replay.
    #[error("step {step} ({token}): {source}")]
    BadStep {
        /// The step's number, from 1.
        step: usize,
        /// Its token.
        token: String,
        /// Why it does not replay.
        source: Box<RoomError>,
    },
}

impl RoomError {
    /// A stable snake-case code: `game_over`, `round_over`,
    /// `not_your_turn`, `bad_move`, `illegal_move`, `too_late_to_abort`,
    /// `no_next_round`, `not_a_match`, `undo_unavailable`, `nothing_to_undo`,
    /// `takeback_unavailable`, `draw_unavailable`, `waiting_for_opponent`,
    /// `no_draw_offer`, `no_takeback_offer`, `draw_offered`,
    /// `takeback_offered`, `hint_unavailable`,
    /// `claim_unavailable`, `opponent_connected`, `too_early_to_claim`,
    /// `invalid_position` or `bad_step` (a stored step's, its cause's code).
    pub fn code(&self) -> &'static str {
        match self {
            RoomError::Stopped(_) | RoomError::Over { .. } => "game_over",
            RoomError::RoundOver => "round_over",
            RoomError::NotYourTurn(_) => "not_your_turn",
            RoomError::BadMove(_) => "bad_move",
            RoomError::IllegalMove(_) => "illegal_move",
            RoomError::TooLateToAbort => "too_late_to_abort",
            RoomError::NoNextRound => "no_next_round",
            RoomError::NotAMatch => "not_a_match",
            RoomError::UndoUnavailable => "undo_unavailable",
            RoomError::NothingToUndo => "nothing_to_undo",
            RoomError::TakebackUnavailable => "takeback_unavailable",
            RoomError::DrawUnavailable => "draw_unavailable",
            RoomError::OfferRoundOver(_) => "round_over",
            RoomError::WaitingForOpponent | RoomError::NotStarted => "waiting_for_opponent",
            RoomError::EngineThinking => "not_your_turn",
            RoomError::HintUnavailable => "hint_unavailable",
            RoomError::NoOffer(OfferKind::Draw) => "no_draw_offer",
            RoomError::NoOffer(OfferKind::Takeback) => "no_takeback_offer",
            RoomError::Offered {
                kind: OfferKind::Draw,
                ..
            } => "draw_offered",
            RoomError::Offered {
                kind: OfferKind::Takeback,
                ..
            } => "takeback_offered",
            RoomError::OfferOnYourMove => "not_your_turn",
            RoomError::ClaimUnavailable(_) => "claim_unavailable",
            RoomError::OpponentConnected => "opponent_connected",
            RoomError::TooEarlyToClaim { .. } => "too_early_to_claim",
            RoomError::InvalidPosition(_) => "invalid_position",
            RoomError::BadSide { .. } => "bad_step",
            RoomError::BadStep { source, .. } => source.code(),
        }
    }

    /// Whether the step conflicts with the game's state (HTTP 409: it could
    /// be right at another moment) rather than being invalid in itself (422).
    pub fn is_conflict(&self) -> bool {
        match self {
            RoomError::Stopped(_)
            | RoomError::Over { .. }
            | RoomError::RoundOver
            | RoomError::NotYourTurn(_)
            | RoomError::TooLateToAbort
            | RoomError::NoNextRound
            | RoomError::NotAMatch
            | RoomError::UndoUnavailable
            | RoomError::NothingToUndo
            | RoomError::TakebackUnavailable
            | RoomError::DrawUnavailable
            | RoomError::OfferRoundOver(_)
            | RoomError::WaitingForOpponent
            | RoomError::NotStarted
            | RoomError::EngineThinking
            | RoomError::HintUnavailable
            | RoomError::NoOffer(_)
            | RoomError::Offered { .. }
            | RoomError::OfferOnYourMove
            | RoomError::ClaimUnavailable(_)
            | RoomError::OpponentConnected
            | RoomError::TooEarlyToClaim { .. } => true,
            RoomError::BadMove(_)
            | RoomError::IllegalMove(_)
            | RoomError::InvalidPosition(_)
            | RoomError::BadSide { .. }
            | RoomError::BadStep { .. } => false,
        }
    }
}
