//! [`Setup`], the unvalidated form of a [`Position`], and the validating
//! constructor between them.

use super::*;

/// The unvalidated form of a [`Position`], with public fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Seeds per hole in index order, `2n` entries; closed holes hold 0.
    pub board: Vec<u8>,
    /// Indices of closed holes.
    pub closed: Vec<usize>,
    /// The player to move.
    pub to_move: Side,
    /// Seeds captured this round.
    pub captured: ByPlayer<u8>,
    /// Seeds held in reserve from earlier rounds (RULES.md §5).
    pub reserve: ByPlayer<u8>,
    /// Directions chosen under `direction = per_player`.
    pub chosen: ByPlayer<Option<Direction>>,
    /// The next move is the two-hole opening of the game.
    pub opening: bool,
    /// Who gets the last four.
    pub last_four: LastFour,
    /// Round of the match (1 for a single game).
    pub round: u32,
}

impl Setup {
    /// The start of a single game under `rules`.
    pub fn start(rules: &Rules) -> Setup {
        Setup {
            board: vec![rules.seeds(); rules.board_len()],
            closed: Vec::new(),
            to_move: Side::South,
            captured: ByPlayer::default(),
            reserve: ByPlayer::default(),
            chosen: ByPlayer::default(),
            opening: rules.two_hole_opening(),
            last_four: LastFour::Captor,
            round: 1,
        }
    }
}

impl Position {
    /// Builds a position from a [`Setup`], validating it, then settles any
    /// automatic pass (and ends the game if nobody can move).
    ///
    /// # Errors
    /// [`PositionError`] if the board has the wrong length, a closed hole is
    /// out of range or holds seeds, or there are more than 240 seeds.
    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Position, PositionError> {
        let len = rules.board_len();
        if setup.board.len() != len {
            return Err(PositionError::BoardLength {
                got: setup.board.len(),
                holes: rules.holes(),
            });
        }
        let mut closed = 0u32;
        for &c in &setup.closed {
            if c >= len || setup.board[c] != 0 {
                return Err(PositionError::Closed(c));
            }
            closed |= 1 << c;
        }
        let in_play: u32 = setup.board.iter().map(|&s| s as u32).sum();
        let total = in_play
            + (setup.captured.south as u32)
            + (setup.captured.north as u32)
            + (setup.reserve.south as u32)
            + (setup.reserve.north as u32);
        if total > crate::rules::MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds(total));
        }
        let mut board = [0u8; MAX_BOARD];
        board[..len].copy_from_slice(&setup.board);
        if setup.round == 0 || setup.round > u16::MAX as u32 {
            return Err(PositionError::Round(setup.round));
        }
        if setup.opening && !rules.two_hole_opening() {
            return Err(PositionError::OpeningWithoutRule);
        }
        if setup.chosen != ByPlayer::default() && rules.direction() != DirectionRule::PerPlayer {
            return Err(PositionError::ChosenWithoutRule(rules.direction()));
        }
        let mut pos = Position {
            rules,
            board,
            closed,
            to_move: setup.to_move,
            opening: setup.opening,
            in_play: in_play as u8,
            captured: setup.captured,
            reserve: setup.reserve,
            chosen: setup.chosen,
            last_four: setup.last_four,
            round: setup.round as u16,
            outcome: None,
        };
        if in_play == 0 {
            pos.finish(EndReason::Exhausted);
        } else {
            pos.settle();
        }
        Ok(pos)
    }

    /// The unvalidated form of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board().to_vec(),
            closed: self.closed_holes().collect(),
            to_move: self.to_move,
            captured: self.captured,
            reserve: self.reserve,
            chosen: self.chosen,
            opening: self.opening,
            last_four: self.last_four,
            round: self.round as u32,
        }
    }
}
