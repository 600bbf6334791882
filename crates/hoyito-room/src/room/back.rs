//! Going back in a [`Room`]: how many steps an undo or an accepted
//! takeback keeps (the same walk back through the current round), and the
//! room with only those steps.

use hoyito_core::{Position, Side};

use super::Room;
use crate::mode::Mode;
use crate::RoomError;

impl Room {
    /// How many steps to keep to undo: in a game against the engine, back
    /// to the human's last move in this round; in hot-seat, one move.
    ///
    /// # Errors
    /// [`RoomError::UndoUnavailable`] in online games,
    /// [`RoomError::NothingToUndo`], or the game is over.
    pub fn undo_target(&self) -> Result<u64, RoomError> {
        let human = match self.setup.mode {
            Mode::Online => return Err(RoomError::UndoUnavailable),
            Mode::Hotseat => None,
            Mode::Engine => self.setup.engine_side.map(Side::other),
        };
        self.back_to(human)
    }

    /// Whether an undo asked from a view of the first `seen` steps (at this
    /// undo count) takes back what it takes back now: no step since, or, in
    /// a game against the engine, only the engine's moves in this round
    /// (its reply came while the request was on its way), so the human's
    /// last move, the one undone, is the same.
    pub fn undo_still_means(&self, seen: u64) -> bool {
        let Some(since) = usize::try_from(seen).ok().and_then(|seen| self.steps.get(seen..)) else {
            return false;
        };
        let engine = self.setup.engine_side.filter(|_| self.setup.mode == Mode::Engine);
        since
            .iter()
            .all(|s| s.kind == crate::StepKind::Move && s.side.is_some() && s.side == engine)
    }

    /// How many steps to keep to take back `side`'s last move in an online
    /// game (a takeback its opponent accepted): back to before that move
    /// in this round, taking back any move made after it, with `side` to
    /// move.
    ///
    /// # Errors
    /// [`RoomError::TakebackUnavailable`] in a game that is not online,
    /// [`RoomError::NothingToUndo`] with no move of `side`'s to take back
    /// in this round, [`RoomError::RoundOver`] once the round was played to
    /// its end, or the game (the match) is over.
    pub fn takeback_target(&self, side: Side) -> Result<u64, RoomError> {
        if self.setup.mode != Mode::Online {
            return Err(RoomError::TakebackUnavailable);
        }
        self.check_not_stopped()?;
        if self.position().is_over() {
            // A result stands: a round or game played to its end.
            return Err(if self.can_next_round() {
                RoomError::RoundOver
            } else {
                RoomError::Over {
                    what: if self.play.is_match() { "match" } else { "game" },
                }
            });
        }
        self.back_to(Some(side))
    }

    /// The steps to keep to go back in the current round: to before
    /// `side`'s last move with `side` to move, or (without a side) one
    /// step. What undo and takeback share.
    fn back_to(&self, side: Option<Side>) -> Result<u64, RoomError> {
        self.check_not_stopped()?;
        if self.play.is_match() && self.play.is_over() {
            return Err(RoomError::Over { what: "match" });
        }
        // Steps of the current round: after the last round start.
        let first = self
            .steps
            .iter()
            .rposition(|s| s.kind == crate::StepKind::Round)
            .map_or(0, |i| i + 1);
        let mut keep = self.steps.len();
        let Some(side) = side else {
            return if keep > first {
                Ok(keep as u64 - 1)
            } else {
                Err(RoomError::NothingToUndo)
            };
        };
        // Remove moves until one by `side` was removed and `side` is to move.
        let mut removed = false;
        while keep > first {
            let s = &self.steps[keep - 1];
            removed |= s.side == Some(side);
            keep -= 1;
            let to_move = if keep == first {
                Some(self.round_start().to_move())
            } else {
                self.steps[keep - 1].to_move
            };
            if removed && to_move == Some(side) {
                return Ok(keep as u64);
            }
        }
        Err(RoomError::NothingToUndo)
    }

    fn round_start(&self) -> Position {
        *self.play.rounds()[self.position().round() as usize - 1].start()
    }

    /// The room after an undo back to the first `keep` steps: their replay,
    /// one undo more.
    pub fn undone(&self, keep: u64) -> Room {
        let mut room = self.kept(keep);
        room.epoch += 1;
        room
    }

    /// Goes back to the first `keep` steps at the same undo count (a step
    /// that could not be stored).
    pub fn rollback(&mut self, keep: u64) {
        *self = self.kept(keep);
    }

    fn kept(&self, keep: u64) -> Room {
        let keep = keep.min(self.seq());
        Room::replay(self.setup.clone(), self.epoch, &self.step_tokens(keep)).expect("its own steps replay")
    }
}
