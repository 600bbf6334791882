//! Move tokens (`3`, `3R`, `2+5`, RULES.md §1) and the one-line position
//! notation documented in `docs/NOTATION.md`.
//!
//! # Examples
//!
//! ```
//! use hoyito_core::{Position, Rules, Variant};
//! let pos = Position::new(Rules::standard(Variant::III));
//! let text = pos.to_notation();
//! assert_eq!(text, "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0");
//! assert_eq!(Position::from_notation(Rules::standard(Variant::III), &text)?, pos);
//! # Ok::<(), hoyito_core::PositionError>(())
//! ```

use core::fmt::{self, Write};

use crate::error::{MoveParseError, MoveParseReason, PositionError};
use crate::moves::Move;
use crate::position::{LastFour, Position, Setup};
use crate::rules::{Direction, DirectionRule, Rules};
use crate::side::{ByPlayer, Side};

/// A move written as its token, borrowing the position it is played in.
/// Formatting allocates nothing.
pub struct MoveToken<'a> {
    pos: &'a Position,
    m: Move,
}

impl fmt::Display for MoveToken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.pos.rules().holes();
        let num = |h: usize| h % n + 1;
        write!(f, "{}", num(self.m.hole()))?;
        if let Some(b) = self.m.second() {
            write!(f, "+{}", num(b))?;
        }
        if self.pos.direction_is_choice()
            || self.m.direction() != Direction::Ccw && self.pos.rules().direction() == DirectionRule::Fixed
        {
            f.write_char(self.m.direction().suffix())?;
        }
        Ok(())
    }
}

impl Position {
    /// Whether the mover chooses a direction on this move (a suffix is written).
    pub fn direction_is_choice(&self) -> bool {
        match self.rules().direction() {
            DirectionRule::Fixed => false,
            DirectionRule::PerMove => true,
            DirectionRule::PerPlayer => self.chosen_directions()[self.to_move()].is_none(),
        }
    }

    /// The token of `m` played by the side to move, e.g. `3`, `3R`, `2+5`.
    pub fn move_token(&self, m: Move) -> MoveToken<'_> {
        MoveToken { pos: self, m }
    }

    /// The tokens of the legal moves, in [`Position::legal_moves`] order.
    ///
    /// ```
    /// use hoyito_core::{Position, Rules, Variant};
    /// let pos = Position::new(Rules::standard(Variant::I));
    /// assert_eq!(pos.legal_tokens(), ["1", "2", "3", "4", "5", "6"]);
    /// ```
    pub fn legal_tokens(&self) -> Vec<String> {
        self.legal_moves()
            .iter()
            .map(|&m| self.move_token(m).to_string())
            .collect()
    }

    /// A line of moves from this position (a game continuation or a
    /// principal variation) as tokens, each written in the position it is
    /// played in; passes are automatic. Stops before the first move that is
    /// not legal.
    ///
    /// ```
    /// use hoyito_core::{Position, Rules, Variant};
    /// let pos = Position::new(Rules::standard(Variant::I));
    /// let first = pos.legal_moves()[2];
    /// let mut after = pos;
    /// after.play(first)?;
    /// let line = [first, after.legal_moves()[0]];
    /// assert_eq!(pos.line_tokens(&line), ["3", "1"]);
    /// # Ok::<(), hoyito_core::PlayError>(())
    /// ```
    pub fn line_tokens(&self, line: &[Move]) -> Vec<String> {
        let mut pos = *self;
        let mut out = Vec::with_capacity(line.len());
        for &m in line {
            let token = pos.move_token(m).to_string();
            if pos.play(m).is_err() {
                break;
            }
            out.push(token);
        }
        out
    }

    /// Reads a move token for the side to move. Only the syntax and the hole
    /// range are checked here; [`Position::play`] checks legality. Without
    /// a suffix the direction is the player's chosen one (`per_player`) or
    /// counter-clockwise.
    ///
    /// # Errors
    /// [`MoveParseError`] if the token is not `k`, `kL`, `kR` or `a+b` (with
    /// optional suffix) with hole numbers `1..=n`.
    pub fn parse_move(&self, token: &str) -> Result<Move, MoveParseError> {
        let n = self.rules().holes();
        let err = |reason| MoveParseError {
            token: crate::echo::echo(token),
            reason,
            holes: n,
        };
        let t = token.trim();
        if t.is_empty() {
            return Err(err(MoveParseReason::Empty));
        }
        let (body, dir) = match t.as_bytes()[t.len() - 1] {
            b'L' | b'l' => (&t[..t.len() - 1], Some(Direction::Ccw)),
            b'R' | b'r' => (&t[..t.len() - 1], Some(Direction::Cw)),
            _ => (t, None),
        };
        let dir = dir.unwrap_or_else(|| self.chosen_directions()[self.to_move()].unwrap_or(Direction::Ccw));
        let hole = |s: &str| -> Result<usize, MoveParseError> {
            if let Some(c) = s.chars().find(|c| !c.is_ascii_digit()) {
                return Err(err(MoveParseReason::Unexpected(c)));
            }
            if s.is_empty() {
                return Err(err(MoveParseReason::Missing));
            }
            if s.len() > 2 {
                return Err(err(MoveParseReason::TooLong));
            }
            let k: usize = s.parse().map_err(|_| err(MoveParseReason::TooLong))?;
            if k == 0 || k > n {
                return Err(err(MoveParseReason::OutOfRange));
            }
            Ok(self.row(self.to_move()).start + k - 1)
        };
        match body.split_once('+') {
            Some((a, b)) => Ok(Move::pair(hole(a)?, hole(b)?, dir)),
            None => Ok(Move::single(hole(body)?, dir)),
        }
    }

    /// The one-line position notation (see `docs/NOTATION.md`).
    pub fn to_notation(&self) -> String {
        let mut s = String::new();
        let n = self.rules().holes();
        for (i, &c) in self.board().iter().enumerate() {
            if i == n {
                s.push('/');
            } else if i > 0 {
                s.push(',');
            }
            if self.is_closed(i) {
                s.push('x');
            } else {
                let _ = write!(s, "{c}");
            }
        }
        let cap = self.captured();
        let _ = write!(s, " {} {}-{}", self.to_move().letter(), cap.south, cap.north);
        let res = self.reserve();
        if res != ByPlayer::default() {
            let _ = write!(s, " reserve={}-{}", res.south, res.north);
        }
        if self.round() != 1 {
            let _ = write!(s, " round={}", self.round());
        }
        if let LastFour::To(side) = self.last_four() {
            let _ = write!(s, " last4={}", side.letter());
        }
        let ch = self.chosen_directions();
        if ch != ByPlayer::default() {
            let d = |x: Option<Direction>| x.map_or('-', Direction::suffix);
            let _ = write!(s, " dir={}{}", d(ch.south), d(ch.north));
        }
        if self.opening_pending() {
            s.push_str(" opening");
        }
        s
    }

    /// Reads the one-line position notation under `rules`.
    ///
    /// # Errors
    /// [`PositionError::Notation`] naming the field that is wrong and what
    /// was expected, or another [`PositionError`] if the position is invalid.
    pub fn from_notation(rules: Rules, text: &str) -> Result<Position, PositionError> {
        let setup = parse_setup(&rules, text)?;
        Position::from_setup(rules, &setup).map_err(|e| match e {
            // Rules the text contradicts: say so with the text.
            PositionError::Round(_)
            | PositionError::OpeningWithoutRule
            | PositionError::ChosenWithoutRule(_) => PositionError::Notation {
                text: text.chars().take(200).collect(),
                reason: e.to_string(),
            },
            e => e,
        })
    }
}

fn parse_setup(rules: &Rules, text: &str) -> Result<Setup, PositionError> {
    let bad = |reason: String| PositionError::Notation {
        text: text.chars().take(200).collect(),
        reason,
    };
    let n = rules.holes();
    let mut fields = text.split_ascii_whitespace();
    let board_f = fields
        .next()
        .ok_or_else(|| bad("empty; expected e.g. \"4,4,4,4,4,4/4,4,4,4,4,4 s 0-0\"".into()))?;
    let rows: Vec<&str> = board_f.split('/').collect();
    if rows.len() != 2 {
        return Err(bad(
            "the board needs two rows separated by '/': South's holes 1..n, then North's".into(),
        ));
    }
    let mut board = Vec::with_capacity(2 * n);
    let mut closed = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != n {
            return Err(bad(format!(
                "{} row has {} holes: expected {n}",
                if r == 0 { "South's" } else { "North's" },
                cells.len()
            )));
        }
        for c in cells {
            if c == "x" || c == "X" {
                closed.push(board.len());
                board.push(0);
            } else {
                let v: u8 = c
                    .parse()
                    .map_err(|_| bad(format!("hole count {c:?} is not a number 0..240 or x (closed)")))?;
                board.push(v);
            }
        }
    }
    let side_f = fields
        .next()
        .ok_or_else(|| bad("missing side to move: expected s or n".into()))?;
    let to_move = match side_f {
        "s" | "S" => Side::South,
        "n" | "N" => Side::North,
        _ => return Err(bad(format!("side to move {side_f:?}: expected s or n"))),
    };
    let pair = |f: &str, what: &str| -> Result<ByPlayer<u8>, PositionError> {
        let (a, b) = f
            .split_once('-')
            .ok_or_else(|| bad(format!("{what} {f:?}: expected south-north, e.g. 8-4")))?;
        let p = |x: &str| {
            x.parse::<u8>()
                .map_err(|_| bad(format!("{what} {f:?}: expected two numbers 0..240")))
        };
        Ok(ByPlayer::new(p(a)?, p(b)?))
    };
    let cap_f = fields
        .next()
        .ok_or_else(|| bad("missing captured seeds: expected south-north, e.g. 0-0".into()))?;
    let captured = pair(cap_f, "captured")?;
    let mut setup = Setup {
        board,
        closed,
        to_move,
        captured,
        reserve: ByPlayer::default(),
        chosen: ByPlayer::default(),
        opening: false,
        last_four: LastFour::Captor,
        round: 1,
    };
    for f in fields {
        let (key, val) = f.split_once('=').unwrap_or((f, ""));
        match key {
            "reserve" => setup.reserve = pair(val, "reserve")?,
            "round" => {
                setup.round = val
                    .parse()
                    .map_err(|_| bad(format!("round {val:?}: expected a number from 1 to 65535")))?
            }
            "last4" => {
                setup.last_four = LastFour::To(match val {
                    "s" => Side::South,
                    "n" => Side::North,
                    _ => return Err(bad(format!("last4 {val:?}: expected s or n"))),
                })
            }
            "dir" => {
                let d = |c: char| match c {
                    'L' => Ok(Some(Direction::Ccw)),
                    'R' => Ok(Some(Direction::Cw)),
                    '-' => Ok(None),
                    _ => Err(bad(format!(
                        "dir {val:?}: expected two of L, R, - (South then North)"
                    ))),
                };
                let cs: Vec<char> = val.chars().collect();
                if cs.len() != 2 {
                    return Err(bad(format!(
                        "dir {val:?}: expected two of L, R, - (South then North)"
                    )));
                }
                setup.chosen = ByPlayer::new(d(cs[0])?, d(cs[1])?);
            }
            "opening" if val.is_empty() => setup.opening = true,
            _ => {
                return Err(bad(format!(
                    "unknown field {f:?}: expected reserve=, round=, last4=, dir= or opening"
                )))
            }
        }
    }
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RulesSpec, Variant};

    #[test]
    fn a_bad_token_is_told_what_is_wrong_with_it() {
        let pos = Position::new(Rules::standard(Variant::I));
        let reason = |t: &str| pos.parse_move(t).unwrap_err().reason;
        assert_eq!(reason("  "), MoveParseReason::Empty);
        assert_eq!(reason("3X"), MoveParseReason::Unexpected('X'));
        assert_eq!(reason("x3"), MoveParseReason::Unexpected('x'));
        assert_eq!(reason("2-5"), MoveParseReason::Unexpected('-'));
        assert_eq!(reason("L"), MoveParseReason::Missing);
        assert_eq!(reason("+5"), MoveParseReason::Missing);
        assert_eq!(reason("2+"), MoveParseReason::Missing);
        assert_eq!(reason("333"), MoveParseReason::TooLong);
        assert_eq!(reason("0"), MoveParseReason::OutOfRange);
        assert_eq!(reason("7"), MoveParseReason::OutOfRange);
        assert_eq!(
            pos.parse_move("3X").unwrap_err().to_string(),
            "bad move token \"3X\": 'X' cannot stand there; expected a hole number 1..6 \
             with an optional L/R suffix, or a two-hole opening like 2+5"
        );
        // A huge token comes back as its first characters only.
        let huge = "3".repeat(5000);
        let e = pos.parse_move(&huge).unwrap_err();
        assert_eq!(e.token, format!("{}…", "3".repeat(crate::error::ECHO_CHARS)));
        assert!(e.to_string().len() < 200, "{e}");
    }

    #[test]
    fn tokens() {
        let pos = Position::new(Rules::standard(Variant::I));
        let m = pos.parse_move("3").unwrap();
        assert_eq!(m, Move::single(2, Direction::Ccw));
        assert_eq!(pos.move_token(m).to_string(), "3");
        assert!(pos.parse_move("0").is_err());
        assert!(pos.parse_move("7").is_err());
        assert!(pos.parse_move("").is_err());
        assert!(pos.parse_move("+").is_err());
        assert!(pos.parse_move("3RR").is_err());
        let spec = RulesSpec {
            direction: DirectionRule::PerMove,
            two_hole_opening: true,
            ..RulesSpec::default()
        };
        let pos = Position::new(Rules::try_from(spec).unwrap());
        let m = pos.parse_move("2+5R").unwrap();
        assert_eq!(m, Move::pair(1, 4, Direction::Cw));
        assert_eq!(pos.move_token(m).to_string(), "2+5R");
    }

    #[test]
    fn notation_fields() {
        let spec = RulesSpec {
            direction: DirectionRule::PerPlayer,
            two_hole_opening: true,
            ..RulesSpec::default()
        };
        let rules = Rules::try_from(spec).unwrap();
        let text = "4,x,0,0,0,0/4,4,0,0,0,0 n 20-12 reserve=4-0 round=3 last4=s dir=R- opening";
        let pos = Position::from_notation(rules, text).unwrap();
        assert_eq!(pos.to_notation(), text);
        assert!(Position::from_notation(rules, "4,4/4,4 s 0-0").is_err());
        assert!(Position::from_notation(rules, "4,4,4,4,4,4/4,4,4,4,4,4 w 0-0").is_err());
        assert!(Position::from_notation(rules, "4,4,4,4,4,4/4,4,4,4,4,4 s 0").is_err());
        assert!(Position::from_notation(rules, "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0 bogus").is_err());
    }
}
