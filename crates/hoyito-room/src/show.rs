//! [`Room::view`]: a room shown whole or from a step on.

use hoyito_core::{Side, State};

use crate::may::Host;
use crate::room::Room;
use crate::step::End;
use crate::stop::Stop;
use crate::view::{MatchResultView, MoveHoles, RoomView};

impl Room {
    /// The full view, for a room whose host adds nothing ([`Host::ALONE`]).
    pub fn view(&self) -> RoomView {
        self.view_with(None, &Host::ALONE)
    }

    /// A delta, for a room whose host adds nothing: the view with only the
    /// steps from index `from` on in its history (0-based; every step if
    /// `from` is 0, none past the last), so that a move's message does not
    /// grow with the game.
    pub fn view_since(&self, from: u64) -> RoomView {
        self.view_with(Some(from), &Host::ALONE)
    }

    /// The view (a delta from step index `from`, or whole), with what each
    /// seat may do as `host` knows it.
    pub fn view_with(&self, from: Option<u64>, host: &Host) -> RoomView {
        let from = from.map(|f| f.min(self.seq()));
        let pos = *self.position();
        let setup = self.setup();
        let stop = self.stop();
        let legal = self.legal_tokens();
        let side_of = |f: fn(Stop) -> bool| stop.filter(|&s| f(s)).and_then(Stop::side);
        RoomView {
            mode: setup.mode,
            rules: setup.rules.spec(),
            is_match: setup.is_match,
            engine_side: setup.engine_side,
            status: self.summary().status,
            end: match (stop, self.finished()) {
                (Some(stop), _) => Some(stop.end()),
                (None, true) => Some(End::Play),
                (None, false) => None,
            },
            result: self.result(),
            resigned: side_of(|s| matches!(s, Stop::Resign(_))),
            aborted: side_of(|s| matches!(s, Stop::Abort(_))),
            flagged: side_of(|s| matches!(s, Stop::Flag(_))),
            abandoned: side_of(|s| matches!(s, Stop::Left(_) | Stop::LeftDraw(_))),
            seq: self.seq(),
            epoch: self.epoch(),
            round: pos.round(),
            state: State::from_position(&pos),
            opening_pair: pos.opening_pending() && legal.iter().any(|t| t.contains('+')),
            direction_choice: !self.finished() && !pos.is_over() && pos.direction_is_choice(),
            legal_moves: legal.iter().filter_map(|t| MoveHoles::read(&pos, t)).collect(),
            legal,
            rounds: self.contest().round_summaries(),
            history: self.steps()[from.unwrap_or(0) as usize..].to_vec(),
            history_from: from,
            match_result: match (self.contest().as_match(), stop) {
                (Some(_), Some(stop)) => Some(MatchResultView {
                    winner: stop.result(),
                    rounds: self.contest().rounds().len() as u32,
                }),
                (m, _) => m.and_then(|m| m.outcome()).map(|o| MatchResultView {
                    winner: o.result().name(),
                    rounds: o.rounds,
                }),
            },
            can_next_round: self.can_next_round(),
            conceding_ends_match: self.conceding_ends_match(),
            may: self.may_view(host),
        }
    }

    /// For a match whose round can be resigned: whether resigning it ends
    /// the match, for South and for North.
    fn conceding_ends_match(&self) -> Option<[bool; 2]> {
        if !self.contest().is_match() || self.check_concede().is_err() {
            return None;
        }
        let ends = |side| {
            let mut c = self.contest().clone();
            c.concede(side).is_ok() && c.is_over()
        };
        Some([ends(Side::South), ends(Side::North)])
    }
}
