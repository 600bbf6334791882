//! Reading UGI command lines into [`Command`] values. Pure: no I/O, no
//! engine; every error says what was wrong and what was expected.

use std::time::Duration;

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
        /// The value as given (may be empty for `check`-less buttons; none here).
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

/// Reads one line. `Ok(None)` for a blank line (ignored silently).
///
/// # Errors
/// A one-line message naming the problem and what was expected.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    if line.len() > MAX_LINE {
        return Err(format!(
            "line of {} bytes is too long: at most {MAX_LINE}",
            line.len()
        ));
    }
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(None);
    };
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!(
                "{head} takes no arguments, got {:?}: expected just \"{head}\"",
                rest.join(" ")
            ))
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
            _ => Err(format!(
                "bad query {:?}: expected query gameover, query p1turn or query result",
                rest.join(" ")
            )),
        },
        _ => Err(format!(
            "unknown command {:?}: expected ugi, isready, setoption, uginewgame, position, go, stop, query or quit",
            clip(head)
        )),
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

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    const EXPECTED: &str = "expected setoption name <Name> value <value>";
    if rest.first() != Some(&"name") {
        return Err(format!("setoption without \"name\": {EXPECTED}"));
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(format!("setoption without an option name: {EXPECTED}"));
    }
    let Some(v) = value_at else {
        return Err(format!(
            "setoption name {} has no \"value\": {EXPECTED}",
            clip(&name_words.join(" "))
        ));
    };
    let value = rest[v + 1..].join(" ");
    if value.is_empty() {
        return Err(format!(
            "setoption name {} has an empty value: {EXPECTED}",
            clip(&name_words.join(" "))
        ));
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    const EXPECTED: &str = "expected position startpos [moves …] or position <notation> [moves …]";
    let moves_at = rest.iter().position(|&w| w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves: Vec<String> = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let notation = match head {
        [] => return Err(format!("position without a position: {EXPECTED}")),
        ["startpos"] => None,
        ["startpos", ..] => {
            return Err(format!(
                "unexpected {:?} after startpos: {EXPECTED}",
                clip(&head[1..].join(" "))
            ))
        }
        // UCI's `position fen <…>` is accepted as a synonym.
        ["fen"] => return Err(format!("position fen without a notation: {EXPECTED}")),
        ["fen", n @ ..] => Some(n.join(" ")),
        n => Some(n.join(" ")),
    };
    Ok(Command::Position { notation, moves })
}

fn parse_go(rest: &[&str]) -> Result<GoArgs, String> {
    const EXPECTED: &str =
        "expected go depth N | nodes N | movetime MS | p1time MS p2time MS [p1inc MS p2inc MS] | infinite";
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
            return Err(format!("unknown go parameter {:?}: {EXPECTED}", clip(key)));
        }
        let Some(&val) = it.next() else {
            return Err(format!("go {key} needs a number: {EXPECTED}"));
        };
        let num: u64 = val
            .parse()
            .map_err(|_| format!("go {key} {:?}: expected a whole number 0 or more", clip(val)))?;
        let ms = Duration::from_millis(num);
        let dup = match key {
            "depth" => {
                let d = u32::try_from(num)
                    .ok()
                    .filter(|&d| d >= 1)
                    .ok_or_else(|| format!("go depth {num}: expected a depth from 1 to {}", u32::MAX))?;
                g.depth.replace(d).is_some()
            }
            "nodes" => {
                if num == 0 {
                    return Err("go nodes 0: expected 1 or more nodes".into());
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
            return Err(format!("go {key} is given twice: {EXPECTED}"));
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
        assert!(parse("isready now").unwrap_err().contains("takes no arguments"));
        assert!(parse("fly").unwrap_err().contains("unknown command \"fly\""));
        assert_eq!(parse("query result"), Ok(Some(Command::Query(Query::Result))));
        assert!(parse("query").unwrap_err().contains("expected query gameover"));
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
        assert!(parse("setoption Variant II")
            .unwrap_err()
            .contains("without \"name\""));
        assert!(parse("setoption name Variant")
            .unwrap_err()
            .contains("no \"value\""));
        assert!(parse("setoption name value 3")
            .unwrap_err()
            .contains("without an option name"));
        assert!(parse("setoption name Holes value")
            .unwrap_err()
            .contains("empty value"));
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
        assert!(parse("position").is_err());
        assert!(parse("position moves 3").is_err());
        assert!(parse("position startpos 3 4")
            .unwrap_err()
            .contains("after startpos"));
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
        assert!(parse("go depth").unwrap_err().contains("needs a number"));
        assert!(parse("go depth x").unwrap_err().contains("whole number"));
        assert!(parse("go depth 0").unwrap_err().contains("from 1"));
        assert!(parse("go nodes 0").is_err());
        assert!(parse("go depth 3 depth 4").unwrap_err().contains("twice"));
        assert!(parse("go wtime 100")
            .unwrap_err()
            .contains("unknown go parameter"));
        assert!(parse("go depth -3").is_err());
    }

    #[test]
    fn long_input_is_clipped_in_messages() {
        let long = "x".repeat(500);
        let e = parse(&long).unwrap_err();
        assert!(e.len() < 200, "{e}");
        assert!(parse(&"y".repeat(MAX_LINE + 1)).unwrap_err().contains("too long"));
    }
}
