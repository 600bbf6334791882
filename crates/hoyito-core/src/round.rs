//! [`RoundSummary`]: one round of a match (or the single game) at a glance,
//! as the web app's rounds table and the bindings show it.

use crate::contest::Contest;
use crate::game::Game;
use crate::side::Side;

/// One round of a match (or the single game): how it started, how it stands
/// or ended. Serialised (with the `serde` feature) with these field names.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RoundSummary {
    /// Round number, from 1.
    pub round: u32,
    /// The board at the start of the round.
    pub start_board: Vec<u8>,
    /// Closed holes in this round.
    pub closed: Vec<usize>,
    /// Who started the round.
    pub starter: Side,
    /// `[south, north]` reserve carried into the round.
    pub reserve: [u8; 2],
    /// Moves played in the round.
    pub moves: usize,
    /// Whether the round is over.
    pub over: bool,
    /// `south`, `north`, `draw` once over.
    pub winner: Option<&'static str>,
    /// Why it ended ([`EndReason::name`](crate::EndReason::name)).
    pub reason: Option<&'static str>,
    /// `[south, north]`: captured plus reserve.
    pub score: [u32; 2],
}

impl RoundSummary {
    /// The summary of `game`, round number `round` (from 1).
    pub fn of(round: u32, game: &Game) -> RoundSummary {
        let s = game.start();
        let e = game.position();
        let o = e.outcome();
        let (c, r) = (e.captured(), e.reserve());
        RoundSummary {
            round,
            start_board: s.board().to_vec(),
            closed: s.closed_holes().collect(),
            starter: s.to_setup().to_move,
            reserve: [s.reserve().south, s.reserve().north],
            moves: game.moves().len(),
            over: o.is_some(),
            winner: o.map(|o| o.result().name()),
            reason: o.map(|o| o.reason.name()),
            score: [c.south as u32 + r.south as u32, c.north as u32 + r.north as u32],
        }
    }
}

impl Contest {
    /// The summary of every round so far (one for a single game).
    pub fn round_summaries(&self) -> Vec<RoundSummary> {
        self.rounds()
            .iter()
            .enumerate()
            .map(|(i, g)| RoundSummary::of(i as u32 + 1, g))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};

    #[test]
    fn a_conceded_round_is_summed_up() {
        let mut c = Contest::new_match(Rules::standard(Variant::I));
        c.play_token("3").unwrap();
        c.concede(Side::North).unwrap();
        let [r] = &c.round_summaries()[..] else {
            panic!("one round")
        };
        assert_eq!((r.round, r.moves, r.over), (1, 1, true));
        assert_eq!(r.starter, Side::South);
        assert_eq!(r.reason, Some("conceded"));
        assert_eq!(r.winner, Some("south"));
        assert_eq!(r.score[0] + r.score[1], 48);
        assert_eq!(r.start_board, vec![4; 12]);
    }
}
