//! [`Stop`]: a game (or a whole match) ended before it was played out — a
//! resignation, an abort, an agreed draw, a flag fall, a player who left
//! (claimed as a win or called a draw by the other, [`crate::absence`]) —
//! with its stored step token and the `Termination` tag of its record.

use hoyito_core::Side;

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
    /// The stored step token: `resign:south`, `abort:north`, `draw`, `flag:south`.
    pub fn token(self) -> String {
        match self {
            Stop::Resign(s) => format!("resign:{}", s.name()),
            Stop::Abort(s) => format!("abort:{}", s.name()),
            Stop::Draw => "draw".to_string(),
            Stop::Flag(s) => format!("flag:{}", s.name()),
            Stop::Left(s) => format!("left:{}", s.name()),
            Stop::LeftDraw(s) => format!("left-draw:{}", s.name()),
        }
    }

    /// The stop a stored step token names, if `token` is one (an error if it
    /// looks like one but names no side).
    pub fn parse(token: &str) -> Option<Result<Stop, RoomError>> {
        if token == "draw" {
            return Some(Ok(Stop::Draw));
        }
        let (kind, name) = token.split_once(':')?;
        let make: fn(Side) -> Stop = match kind {
            "resign" => Stop::Resign,
            "abort" => Stop::Abort,
            "flag" => Stop::Flag,
            "left" => Stop::Left,
            "left-draw" => Stop::LeftDraw,
            _ => return None,
        };
        Some(match name {
            "south" => Ok(make(Side::South)),
            "north" => Ok(make(Side::North)),
            _ => Err(RoomError::BadSide {
                kind: match kind {
                    "resign" => "resign",
                    "abort" => "abort",
                    "left" => "left",
                    "left-draw" => "left-draw",
                    _ => "flag",
                },
                name: name.chars().take(24).collect(),
            }),
        })
    }

    /// The step's kind in the history: `resign`, `abort`, `draw`, `flag`,
    /// `left` or `left_draw`.
    pub fn kind(self) -> &'static str {
        match self {
            Stop::Resign(_) => "resign",
            Stop::Abort(_) => "abort",
            Stop::Draw => "draw",
            Stop::Flag(_) => "flag",
            Stop::Left(_) => "left",
            Stop::LeftDraw(_) => "left_draw",
        }
    }

    /// How the game ended, as the view's `end`: `resign`, `abort`,
    /// `agreed_draw`, `timeout`, `abandoned` (a player left, the other
    /// claimed the win) or `abandoned_draw` (a player left, the other
    /// called it a draw).
    pub fn end(self) -> &'static str {
        match self {
            Stop::Resign(_) => "resign",
            Stop::Abort(_) => "abort",
            Stop::Draw => "agreed_draw",
            Stop::Flag(_) => "timeout",
            Stop::Left(_) => "abandoned",
            Stop::LeftDraw(_) => "abandoned_draw",
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

    /// The value of the record's `Termination` tag.
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
        if text == "draw agreed" {
            return Some(Stop::Draw);
        }
        let (side, rest) = text.split_once(' ')?;
        let side = match side {
            "south" => Side::South,
            "north" => Side::North,
            _ => return None,
        };
        match rest {
            "resigned" => Some(Stop::Resign(side)),
            "aborted" => Some(Stop::Abort(side)),
            "lost on time" => Some(Stop::Flag(side)),
            "left the game" => Some(Stop::Left(side)),
            "left the game, draw" => Some(Stop::LeftDraw(side)),
            _ => None,
        }
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
        assert_eq!(Stop::parse("3L"), None);
        assert_eq!(Stop::parse("next"), None);
    }
}
