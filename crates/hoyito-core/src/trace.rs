//! [`Trace`]: the sowing events of one move (laps, seeds, captures), for a
//! lap-by-lap animation (the web app's, on the server and in WebAssembly).

use crate::position::SowObserver;

/// Most events kept for one move. A sowing of thousands of laps cannot be
/// watched seed by seed; past this the trace is cut and marked `truncated`,
/// and the browser jumps to the final board.
pub const MAX_TRACE_EVENTS: usize = 4096;

/// One sowing event, serialised as a short array:
/// `["l", hole, seeds]` a lap starts (seeds lifted from `hole`),
/// `["s", hole]` a seed dropped into `hole`,
/// `["c", hole, seeds]` the mover captured `seeds` from `hole`
/// (with the `serde` feature).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A lap starts: `seeds` lifted from `hole`.
    Lap(u8, u8),
    /// A seed dropped into a hole.
    Seed(u8),
    /// The mover captured `seeds` from `hole`.
    Capture(u8, u8),
}

#[cfg(feature = "serde")]
impl serde::Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Event::Lap(h, n) => ("l", h, n).serialize(s),
            Event::Seed(h) => ("s", h).serialize(s),
            Event::Capture(h, n) => ("c", h, n).serialize(s),
        }
    }
}

/// The events of one move, cut at a limit: pass it to
/// [`Position::play_observed`](crate::Position::play_observed).
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Trace {
    /// The events kept, in order.
    pub events: Vec<Event>,
    /// Laps sown (all of them, kept or not).
    pub laps: u32,
    /// Whether events were dropped past the limit.
    pub truncated: bool,
    #[cfg_attr(feature = "serde", serde(skip))]
    limit: usize,
}

impl Trace {
    /// An empty trace keeping at most `limit` events.
    pub fn new(limit: usize) -> Trace {
        Trace {
            limit,
            ..Trace::default()
        }
    }

    fn push(&mut self, e: Event) {
        if self.events.len() < self.limit {
            self.events.push(e);
        } else {
            self.truncated = true;
        }
    }
}

impl SowObserver for Trace {
    fn lap(&mut self, hole: usize, seeds: u8) {
        self.laps += 1;
        self.push(Event::Lap(hole as u8, seeds));
    }
    fn seed(&mut self, hole: usize) {
        self.push(Event::Seed(hole as u8));
    }
    fn capture(&mut self, hole: usize, seeds: u8) {
        self.push(Event::Capture(hole as u8, seeds));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Rules, Variant};

    #[test]
    fn trace_replays_to_the_board() {
        // Replaying the events on the board before the move gives the board after it.
        let mut pos = Position::new(Rules::standard(Variant::I));
        for token in ["3", "4", "1", "2"] {
            let before = pos.board().to_vec();
            let m = pos.parse_move(token).unwrap();
            let mut t = Trace::new(MAX_TRACE_EVENTS);
            let mover = pos.to_move();
            let cap_before = pos.captured()[mover] as u32;
            pos.play_observed(m, &mut t).unwrap();
            assert!(!t.truncated);
            let mut board: Vec<u32> = before.iter().map(|&x| x as u32).collect();
            let mut captured = 0u32;
            for e in &t.events {
                match *e {
                    Event::Lap(h, n) => {
                        assert_eq!(board[h as usize], n as u32);
                        board[h as usize] = 0;
                    }
                    Event::Seed(h) => board[h as usize] += 1,
                    Event::Capture(h, n) => {
                        assert_eq!(board[h as usize], n as u32);
                        board[h as usize] = 0;
                        captured += n as u32;
                    }
                }
            }
            if !pos.is_over() {
                let after: Vec<u32> = pos.board().iter().map(|&x| x as u32).collect();
                assert_eq!(board, after, "move {token}");
                assert_eq!(cap_before + captured, pos.captured()[mover] as u32);
            }
        }
    }

    #[test]
    fn trace_is_cut_at_the_limit() {
        let mut pos = Position::new(Rules::standard(Variant::I));
        let m = pos.parse_move("3").unwrap();
        let mut t = Trace::new(3);
        pos.play_observed(m, &mut t).unwrap();
        assert_eq!(t.events.len(), 3);
        assert!(t.truncated);
        #[cfg(feature = "serde")]
        assert_eq!(
            serde_json::to_string(&t.events[..2]).unwrap(),
            r#"[["l",2,4],["s",3]]"#
        );
    }
}
