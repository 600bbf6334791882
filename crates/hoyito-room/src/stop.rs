//! [`Stop`]: a game (or a whole match) ended before it was played out — a
//! resignation, an abort, an agreed draw, a flag fall, a player who left
//! (claimed as a win or called a draw by the other, [`crate::absence`]) —
//! with its stored step token and the `Termination` tag of its record.

use hoyito_core::Side;

use crate::step::{End, StepKind};
use crate::RoomError;

/// How a game (or a whole match) was stopped before it was played out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The side resigned: the other side wins.
    Resign(Side),
    /// The side aborted the game before both players had moved: nobody wins.
    Abort(Side),
    /// The players agreed a draw.
    Draw,
    /// The side's clock ran out: the other side wins.
    Flag(Side),
    /// The side left the game (disconnected for long enough, in a game
    /// with a clock) and the other side claimed the win.
    Left(Side),
    /// The side left the game and the other side called it a draw.
    LeftDraw(Side),
}

impl Stop {
    /// The stop of `kind` about `side` (`draw` about nobody); `None` for a
    /// kind that is no stop (`move`, `round`, `concede`) or a side that
    /// does not fit it.
    pub fn of(kind: StepKind, side: Option<Side>) -> Option<Stop> {
        Some(match (kind, side) {
            (StepKind::Draw, None) => Stop::Draw,
            (StepKind::Resign, Some(s)) => Stop::Resign(s),
            (StepKind::Abort, Some(s)) => Stop::Abort(s),
            (StepKind::Flag, Some(s)) => Stop::Flag(s),
            (StepKind::Left, Some(s)) => Stop::Left(s),
            (StepKind::LeftDraw, Some(s)) => Stop::LeftDraw(s),
            _ => return None,
        })
    }

    /// The kind of step this stop is.
    pub fn kind(self) -> StepKind {
        match self {
            Stop::Resign(_) => StepKind::Resign,
            Stop::Abort(_) => StepKind::Abort,
            Stop::Draw => StepKind::Draw,
            Stop::Flag(_) => StepKind::Flag,
            Stop::Left(_) => StepKind::Left,
            Stop::LeftDraw(_) => StepKind::LeftDraw,
        }
    }

    /// The stored step token: the kind's name, then `:` and the side it is
    /// about (`resign:south`, `left-draw:north`), or `draw` alone.
    pub fn token(self) -> String {
        match self.side() {
            Some(side) => format!("{}:{}", self.kind(), side.name()),
            None => self.kind().name().to_string(),
        }
    }

    /// The stop a stored step token names, if `token` is one (an error if it
    /// looks like one but names no side).
    pub fn parse(token: &str) -> Option<Result<Stop, RoomError>> {
        let (name, side) = token.split_once(':').map_or((token, None), |(n, s)| (n, Some(s)));
        let kind = StepKind::parse(name)?;
        if Stop::of(kind, Some(Side::South)).is_none() {
            // `draw` alone; `move`, `round` and `concede` are no stops.
            return Stop::of(kind, None).filter(|_| side.is_none()).map(Ok);
        }
        let side = match side {
            Some("south") => Side::South,
            Some("north") => Side::North,
            other => {
                return Some(Err(RoomError::BadSide {
                    kind,
                    name: other.unwrap_or_default().chars().take(24).collect(),
                }))
            }
        };
        Stop::of(kind, Some(side)).map(Ok)
    }

    /// How the game ended, as the view's `end` (the stop's own name).
    pub fn end(self) -> End {
        match self {
            Stop::Resign(_) => End::Resign,
            Stop::Abort(_) => End::Abort,
            Stop::Draw => End::Draw,
            Stop::Flag(_) => End::Flag,
            Stop::Left(_) => End::Left,
            Stop::LeftDraw(_) => End::LeftDraw,
        }
    }

    /// The side the stop is about (who resigned, aborted, flagged or left).
    pub fn side(self) -> Option<Side> {
        match self {
            Stop::Resign(s) | Stop::Abort(s) | Stop::Flag(s) | Stop::Left(s) | Stop::LeftDraw(s) => Some(s),
            Stop::Draw => None,
        }
    }

    /// The result: `south` or `north` (the winner), `draw`, or `aborted`.
    pub fn result(self) -> &'static str {
        match self {
            Stop::Resign(s) | Stop::Flag(s) | Stop::Left(s) => s.other().name(),
            Stop::Abort(_) => "aborted",
            Stop::Draw | Stop::LeftDraw(_) => "draw",
        }
    }

    /// The value of the record's `Termination` tag: the stop said in words
    /// for a reader of the record (`South lost on time`), read back by
    /// [`Stop::from_termination`].
    pub fn termination(self) -> String {
        match self {
            Stop::Resign(s) => format!("{s} resigned"),
            Stop::Abort(s) => format!("{s} aborted"),
            Stop::Draw => "draw agreed".to_string(),
            Stop::Flag(s) => format!("{s} lost on time"),
            Stop::Left(s) => format!("{s} left the game"),
            Stop::LeftDraw(s) => format!("{s} left the game, draw"),
        }
    }

    /// The stop a `Termination` tag tells of ([`Stop::termination`]'s
    /// wording, in any case); `None` for any other text.
    pub fn from_termination(text: &str) -> Option<Stop> {
        let text = text.trim().to_ascii_lowercase();
        [Side::South, Side::North]
            .into_iter()
            .flat_map(|s| {
                [
                    Stop::Resign(s),
                    Stop::Abort(s),
                    Stop::Flag(s),
                    Stop::Left(s),
                    Stop::LeftDraw(s),
                ]
            })
            .chain([Stop::Draw])
            .find(|stop| stop.termination().to_ascii_lowercase() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_terminations_read_back() {
        for stop in [
            Stop::Resign(Side::South),
            Stop::Abort(Side::North),
            Stop::Draw,
            Stop::Flag(Side::North),
            Stop::Left(Side::South),
            Stop::LeftDraw(Side::North),
        ] {
            assert_eq!(Stop::parse(&stop.token()), Some(Ok(stop)));
            assert_eq!(Stop::from_termination(&stop.termination()), Some(stop));
        }
        assert_eq!(
            Stop::from_termination("South Resigned"),
            Some(Stop::Resign(Side::South))
        );
        assert_eq!(Stop::from_termination("time forfeit"), None);
        assert!(matches!(Stop::parse("resign:east"), Some(Err(_))));
        assert!(matches!(Stop::parse("left-draw:east"), Some(Err(_))));
        assert!(matches!(Stop::parse("resign"), Some(Err(_))));
        assert_eq!(Stop::parse("draw:south"), None);
        assert_eq!(Stop::parse("3L"), None);
        assert_eq!(Stop::parse("concede:south"), None);
        assert_eq!(Stop::parse("next"), None);
    }
}
