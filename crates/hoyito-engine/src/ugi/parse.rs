//! Reading UGI command lines into [`Command`] values. Pure: no I/O, no
//! engine; every [`ParseError`] says what was wrong and what was expected.

use std::time::Duration;

use thiserror::Error;

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `ugi`: identify and list the options.
    Ugi,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <Name> value <v>`.
    SetOption {
        /// The option name as given.
        name: String,
        /// The value as given (never empty).
        value: String,
    },
    /// `uginewgame`.
    NewGame,
    /// `position startpos|<notation> [moves …]`.
    Position {
        /// `None` for `startpos`, else the one-line position notation.
        notation: Option<String>,
        /// Move tokens to play from there.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(GoArgs),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `query gameover|p1turn|result`.
    Query(Query),
}

/// What `query` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Is the game over?
    GameOver,
    /// Is it South's (p1's) turn?
    P1Turn,
    /// `p1win`, `p2win`, `draw` or `none`.
    Result,
}

/// The limits of a `go` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GoArgs {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `p1time MS` (South's clock).
    pub p1time: Option<Duration>,
    /// `p2time MS` (North's clock).
    pub p2time: Option<Duration>,
    /// `p1inc MS`.
    pub p1inc: Option<Duration>,
    /// `p2inc MS`.
    pub p2inc: Option<Duration>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

/// Longest line read; longer input is refused (it cannot be a valid command:
/// a 2×12 notation plus a few thousand moves fits easily).
pub const MAX_LINE: usize = 1 << 20;

const SETOPTION_USAGE: &str = "expected setoption name <Name> value <value>";
const POSITION_USAGE: &str = "expected position startpos [moves …] or position <notation> [moves …]";
const GO_USAGE: &str =
    "expected go depth N | nodes N | movetime MS | p1time MS p2time MS [p1inc MS p2inc MS] | infinite";

/// A command line that is not a valid UGI command. User input quoted in a
/// message is clipped to 40 characters.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The line is longer than [`MAX_LINE`] bytes.
    #[error("line of {bytes} bytes is too long: at most {MAX_LINE}")]
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// The first word is not a command.
    #[error(
        "unknown command {0:?}: expected ugi, isready, setoption, uginewgame, position, go, stop, query or quit"
    )]
    UnknownCommand(String),
    /// A command without arguments (`ugi`, `isready`, …) was given some.
    #[error("{command} takes no arguments, got {got:?}: expected just \"{command}\"")]
    TakesNoArguments {
        /// The command.
        command: String,
        /// Its arguments.
        got: String,
    },
    /// `query` of something else than gameover, p1turn or result.
    #[error("bad query {0:?}: expected query gameover, query p1turn or query result")]
    BadQuery(String),
    /// `setoption` not followed by `name`.
    #[error("setoption without \"name\": {SETOPTION_USAGE}")]
    SetOptionWithoutName,
    /// `setoption name` followed directly by `value` or nothing.
    #[error("setoption without an option name: {SETOPTION_USAGE}")]
    SetOptionWithoutOptionName,
    /// `setoption name <Name>` without `value`.
    #[error("setoption name {name} has no \"value\": {SETOPTION_USAGE}")]
    SetOptionWithoutValue {
        /// The option name.
        name: String,
    },
    /// `setoption name <Name> value` with nothing after `value`.
    #[error("setoption name {name} has an empty value: {SETOPTION_USAGE}")]
    SetOptionEmptyValue {
        /// The option name.
        name: String,
    },
    /// `position` or `position moves …`: no position.
    #[error("position without a position: {POSITION_USAGE}")]
    PositionMissing,
    /// Words between `startpos` and `moves`.
    #[error("unexpected {0:?} after startpos: {POSITION_USAGE}")]
    AfterStartpos(String),
    /// `position fen` without a notation.
    #[error("position fen without a notation: {POSITION_USAGE}")]
    FenWithoutNotation,
    /// A `go` parameter that is not one of the known ones.
    #[error("unknown go parameter {0:?}: {GO_USAGE}")]
    UnknownGoParameter(String),
    /// A `go` parameter at the end of the line, without its number.
    #[error("go {key} needs a number: {GO_USAGE}")]
    GoNeedsNumber {
        /// The parameter.
        key: String,
    },
    /// A `go` parameter followed by something else than a whole number.
    #[error("go {key} {value:?}: expected a whole number 0 or more")]
    GoNotANumber {
        /// The parameter.
        key: String,
        /// What followed it.
        value: String,
    },
    /// `go depth 0` or a depth beyond `u32`.
    #[error("go depth {0}: expected a depth from 1 to {max}", max = u32::MAX)]
    GoDepth(u64),
    /// `go nodes 0`.
    #[error("go nodes 0: expected 1 or more nodes")]
    GoNodesZero,
    /// A `go` parameter given twice.
    #[error("go {key} is given twice: {GO_USAGE}")]
    GoTwice {
        /// The parameter.
        key: String,
    },
}

/// Reads one line. `Ok(None)` for a blank line (ignored silently).
///
/// # Errors
/// A [`ParseError`] naming the problem and what was expected.
///
/// # Examples
///
/// ```
/// use hoyito_engine::ugi::parse::{parse, Command, GoArgs};
///
/// let go = parse("go depth 3").unwrap();
/// assert_eq!(go, Some(Command::Go(GoArgs { depth: Some(3), ..GoArgs::default() })));
/// assert_eq!(parse("  ").unwrap(), None);
/// assert!(parse("go depth").is_err());
/// ```
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    if line.len() > MAX_LINE {
        return Err(ParseError::TooLong { bytes: line.len() });
    }
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(None);
    };
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(ParseError::TakesNoArguments {
                command: head.to_string(),
                got: rest.join(" "),
            })
        }
    };
    match head {
        "ugi" => no_args(Command::Ugi),
        "isready" => no_args(Command::IsReady),
        "uginewgame" => no_args(Command::NewGame),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "setoption" => parse_setoption(rest).map(Some),
        "position" => parse_position(rest).map(Some),
        "go" => parse_go(rest).map(|g| Some(Command::Go(g))),
        "query" => match rest {
            ["gameover"] => Ok(Some(Command::Query(Query::GameOver))),
            ["p1turn"] => Ok(Some(Command::Query(Query::P1Turn))),
            ["result"] => Ok(Some(Command::Query(Query::Result))),
            _ => Err(ParseError::BadQuery(rest.join(" "))),
        },
        _ => Err(ParseError::UnknownCommand(clip(head))),
    }
}

/// At most 40 characters of user input in a message.
fn clip(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(40).collect();
        t.push('…');
        t
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    if rest.first() != Some(&"name") {
        return Err(ParseError::SetOptionWithoutName);
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(ParseError::SetOptionWithoutOptionName);
    }
    let Some(v) = value_at else {
        return Err(ParseError::SetOptionWithoutValue {
            name: clip(&name_words.join(" ")),
        });
    };
    let value = rest[v + 1..].join(" ");
    if value.is_empty() {
        return Err(ParseError::SetOptionEmptyValue {
            name: clip(&name_words.join(" ")),
        });
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let moves_at = rest.iter().position(|&w| w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves: Vec<String> = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let notation = match head {
        [] => return Err(ParseError::PositionMissing),
        ["startpos"] => None,
        ["startpos", ..] => return Err(ParseError::AfterStartpos(clip(&head[1..].join(" ")))),
        // UCI's `position fen <…>` is accepted as a synonym.
        ["fen"] => return Err(ParseError::FenWithoutNotation),
        ["fen", n @ ..] => Some(n.join(" ")),
        n => Some(n.join(" ")),
    };
    Ok(Command::Position { notation, moves })
}

fn parse_go(rest: &[&str]) -> Result<GoArgs, ParseError> {
    let mut g = GoArgs::default();
    let mut it = rest.iter();
    while let Some(&key) = it.next() {
        if key == "infinite" {
            g.infinite = true;
            continue;
        }
        let known = matches!(
            key,
            "depth" | "nodes" | "movetime" | "p1time" | "p2time" | "p1inc" | "p2inc"
        );
        if !known {
            return Err(ParseError::UnknownGoParameter(clip(key)));
        }
        let Some(&val) = it.next() else {
            return Err(ParseError::GoNeedsNumber { key: key.to_string() });
        };
        let num: u64 = val.parse().map_err(|_| ParseError::GoNotANumber {
            key: key.to_string(),
            value: clip(val),
        })?;
        let ms = Duration::from_millis(num);
        let dup = match key {
            "depth" => {
                let d = u32::try_from(num)
                    .ok()
                    .filter(|&d| d >= 1)
                    .ok_or(ParseError::GoDepth(num))?;
                g.depth.replace(d).is_some()
            }
            "nodes" => {
                if num == 0 {
                    return Err(ParseError::GoNodesZero);
                }
                g.nodes.replace(num).is_some()
            }
            "movetime" => g.movetime.replace(ms).is_some(),
            "p1time" => g.p1time.replace(ms).is_some(),
            "p2time" => g.p2time.replace(ms).is_some(),
            "p1inc" => g.p1inc.replace(ms).is_some(),
            _ => g.p2inc.replace(ms).is_some(),
        };
        if dup {
            return Err(ParseError::GoTwice { key: key.to_string() });
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse("ugi"), Ok(Some(Command::Ugi)));
        assert_eq!(parse("  isready \r"), Ok(Some(Command::IsReady)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   \t"), Ok(None));
        assert_eq!(
            parse("isready now"),
            Err(ParseError::TakesNoArguments {
                command: "isready".into(),
                got: "now".into()
            })
        );
        let e = parse("fly").unwrap_err();
        assert_eq!(e, ParseError::UnknownCommand("fly".into()));
        assert!(
            e.to_string()
                .starts_with("unknown command \"fly\": expected ugi,"),
            "{e}"
        );
        assert_eq!(parse("query result"), Ok(Some(Command::Query(Query::Result))));
        assert_eq!(parse("query"), Err(ParseError::BadQuery(String::new())));
    }

    #[test]
    fn setoption() {
        assert_eq!(
            parse("setoption name Variant value II"),
            Ok(Some(Command::SetOption {
                name: "Variant".into(),
                value: "II".into()
            }))
        );
        assert_eq!(
            parse("setoption name Tablebase Dir value /a b"),
            Ok(Some(Command::SetOption {
                name: "Tablebase Dir".into(),
                value: "/a b".into()
            }))
        );
        assert_eq!(
            parse("setoption Variant II"),
            Err(ParseError::SetOptionWithoutName)
        );
        assert_eq!(
            parse("setoption name Variant"),
            Err(ParseError::SetOptionWithoutValue {
                name: "Variant".into()
            })
        );
        assert_eq!(
            parse("setoption name value 3"),
            Err(ParseError::SetOptionWithoutOptionName)
        );
        let e = parse("setoption name Holes value").unwrap_err();
        assert_eq!(
            e.to_string(),
            "setoption name Holes has an empty value: expected setoption name <Name> value <value>"
        );
    }

    #[test]
    fn position() {
        assert_eq!(
            parse("position startpos moves 3 4R 2+5"),
            Ok(Some(Command::Position {
                notation: None,
                moves: vec!["3".into(), "4R".into(), "2+5".into()]
            }))
        );
        assert_eq!(
            parse("position 4,4,4,4,4,4/4,4,4,4,4,4 n 0-0 round=2 moves 1"),
            Ok(Some(Command::Position {
                notation: Some("4,4,4,4,4,4/4,4,4,4,4,4 n 0-0 round=2".into()),
                moves: vec!["1".into()]
            }))
        );
        assert_eq!(
            parse("position fen 4,4,4,4,4,4/4,4,4,4,4,4 s 0-0"),
            Ok(Some(Command::Position {
                notation: Some("4,4,4,4,4,4/4,4,4,4,4,4 s 0-0".into()),
                moves: vec![]
            }))
        );
        assert_eq!(parse("position"), Err(ParseError::PositionMissing));
        assert_eq!(parse("position moves 3"), Err(ParseError::PositionMissing));
        assert_eq!(parse("position fen"), Err(ParseError::FenWithoutNotation));
        assert_eq!(
            parse("position startpos 3 4"),
            Err(ParseError::AfterStartpos("3 4".into()))
        );
    }

    #[test]
    fn go() {
        assert_eq!(
            parse("go depth 5 movetime 100"),
            Ok(Some(Command::Go(GoArgs {
                depth: Some(5),
                movetime: Some(Duration::from_millis(100)),
                ..GoArgs::default()
            })))
        );
        assert_eq!(
            parse("go p1time 1000 p2time 2000 p1inc 10 p2inc 20"),
            Ok(Some(Command::Go(GoArgs {
                p1time: Some(Duration::from_millis(1000)),
                p2time: Some(Duration::from_millis(2000)),
                p1inc: Some(Duration::from_millis(10)),
                p2inc: Some(Duration::from_millis(20)),
                ..GoArgs::default()
            })))
        );
        assert_eq!(
            parse("go infinite"),
            Ok(Some(Command::Go(GoArgs {
                infinite: true,
                ..GoArgs::default()
            })))
        );
        assert_eq!(parse("go"), Ok(Some(Command::Go(GoArgs::default()))));
        let key = || "depth".to_string();
        assert_eq!(parse("go depth"), Err(ParseError::GoNeedsNumber { key: key() }));
        assert_eq!(
            parse("go depth x"),
            Err(ParseError::GoNotANumber {
                key: key(),
                value: "x".into()
            })
        );
        assert_eq!(parse("go depth 0"), Err(ParseError::GoDepth(0)));
        assert_eq!(parse("go depth 4294967296"), Err(ParseError::GoDepth(1 << 32)));
        assert_eq!(parse("go nodes 0"), Err(ParseError::GoNodesZero));
        assert_eq!(
            parse("go depth 3 depth 4"),
            Err(ParseError::GoTwice { key: key() })
        );
        assert_eq!(
            parse("go wtime 100"),
            Err(ParseError::UnknownGoParameter("wtime".into()))
        );
        assert!(matches!(
            parse("go depth -3"),
            Err(ParseError::GoNotANumber { .. })
        ));
    }

    #[test]
    fn long_input_is_clipped_in_messages() {
        let long = "x".repeat(500);
        let e = parse(&long).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        assert_eq!(
            parse(&"y".repeat(MAX_LINE + 1)),
            Err(ParseError::TooLong { bytes: MAX_LINE + 1 })
        );
    }
}
