//! Game records: a PGN-like text format for single games and whole matches.
//!
//! ```text
//! [Event "Friendly"]
//! [Variant "II"]
//! [Holes "6"]
//! [Seeds "4"]
//! [SkipOrigin "no"]
//! [Direction "fixed"]
//! [TwoHoleOpening "no"]
//! [Repetition "even"]
//! [CaptureSide "any"]
//! [Match "no"]
//! [Result "south"]
//! [Score "28-20"]
//!
//! 3 4 1 5 2 6 {comments in braces are ignored} 1 2
//! ```
//!
//! Tags come first, one per line. `Variant`, `Holes`, `Seeds` and each
//! option set the [`Rules`]; `Position` (single games only) gives a start
//! position in the one-line notation; `Match "yes"` makes the body a match
//! in which `[Round "k"]` lines start each round. `Result` (`south`,
//! `north`, `draw` or `*`) and `Score` are written from the game and, when
//! read, checked against the replayed moves. Other tags are kept as they
//! are. In the body, move tokens are separated by white space; ply numbers
//! such as `12.` and `{comments}` are ignored. A game or round ended by a
//! player's concession ([`Game::concede`]) ends with the token
//! `concede:south` or `concede:north`.
//!
//! # Examples
//!
//! ```
//! use hoyito_core::{Game, Record, Rules, Variant};
//! let mut game = Game::new(Rules::standard(Variant::I));
//! game.play_token("3")?;
//! let text = Record::from_game(game.clone()).write();
//! let back = Record::read(&text)?;
//! assert_eq!(back.game().unwrap().moves(), game.moves());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::contest::Contest;
use crate::error::RecordError;
use crate::game::{concession_token, parse_concession, Game};
use crate::matchplay::Match;
use crate::options::{OptionValue, RulesOption};
use crate::position::Position;
use crate::rules::{Rules, RulesSpec};

/// A game record: tags plus a single game or a match.
#[derive(Debug, Clone)]
pub struct Record {
    /// Tags other than those the format writes itself (Event, South, North, Date, …), in order.
    pub tags: Vec<(String, String)>,
    /// The game or match.
    pub body: Contest,
}

/// Longest record text accepted, to bound work on hostile input.
const MAX_RECORD_BYTES: usize = 16 << 20;

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn result_of(pos: &Position) -> (String, String) {
    let c = pos.captured();
    let r = pos.reserve();
    let result = match pos.outcome() {
        None => "*".to_string(),
        Some(o) => o.result().to_string(),
    };
    (
        result,
        format!(
            "{}-{}",
            c.south as u32 + r.south as u32,
            c.north as u32 + r.north as u32
        ),
    )
}

impl From<Contest> for Record {
    fn from(body: Contest) -> Record {
        Record {
            tags: Vec::new(),
            body,
        }
    }
}

impl Record {
    /// A record of a single game.
    pub fn from_game(game: Game) -> Record {
        Record {
            tags: Vec::new(),
            body: Contest::Game(game),
        }
    }

    /// A record of a match.
    pub fn from_match(m: Match) -> Record {
        Record {
            tags: Vec::new(),
            body: Contest::Match(m),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.body.rules()
    }

    /// The single game, if the record holds one.
    pub fn game(&self) -> Option<&Game> {
        self.body.as_game()
    }

    /// The match, if the record holds one.
    pub fn match_(&self) -> Option<&Match> {
        self.body.as_match()
    }

    /// Every game of the record in order (one for a single game).
    pub fn games(&self) -> &[Game] {
        self.body.rounds()
    }

    /// Writes the record as text.
    pub fn write(&self) -> String {
        self.write_annotated(&[])
    }

    /// Writes the record as text with a comment after moves:
    /// `comments[r][i]` follows move `i` (from 0) of round `r` (0 for a
    /// single game). Annotated moves are written one per line with their
    /// ply number (`12. 3 {comment}`); the reader ignores both, so the
    /// record reads back to the same game. Braces inside a comment become
    /// parentheses.
    ///
    /// ```
    /// use hoyito_core::{Game, Record, Rules, Variant};
    /// let mut game = Game::new(Rules::standard(Variant::II));
    /// game.play_token("3")?;
    /// game.play_token("4")?;
    /// let rec = Record::from_game(game.clone());
    /// let text = rec.write_annotated(&[vec![Some("best {really}".into()), None]]);
    /// assert!(text.ends_with("\n1. 3 {best (really)}\n2. 4\n"));
    /// assert_eq!(Record::read(&text)?.game().unwrap().moves(), game.moves());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_annotated(&self, comments: &[Vec<Option<String>>]) -> String {
        let rules = *self.rules();
        let mut out = String::new();
        let mut tag = |k: &str, v: &str| {
            // A tag is one line: line breaks in a value become spaces.
            out.push_str(&format!(
                "[{k} \"{}\"]\n",
                v.replace(['\n', '\r'], " ")
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
            ));
        };
        for (k, v) in &self.tags {
            tag(k, v);
        }
        // The rules options, one tag each, in the table's order.
        for (option, value) in rules.spec().values() {
            match value {
                OptionValue::Flag(b) => tag(option.tag, yes_no(b)),
                other => tag(option.tag, &other.to_string()),
            }
        }
        match &self.body {
            Contest::Game(g) => {
                tag("Match", "no");
                if *g.start() != Position::new(rules) {
                    tag("Position", &g.start().to_notation());
                }
                let (res, score) = result_of(g.position());
                tag("Result", &res);
                tag("Score", &score);
                out.push('\n');
                write_moves(&mut out, g, comments.first());
            }
            Contest::Match(m) => {
                tag("Match", "yes");
                let result = match m.outcome() {
                    None => "*".to_string(),
                    Some(o) => o.result().to_string(),
                };
                tag("Result", &result);
                tag("Rounds", &m.round().to_string());
                for (i, g) in m.rounds().iter().enumerate() {
                    out.push_str(&format!("\n[Round \"{}\"]\n", i + 1));
                    let (res, score) = result_of(g.position());
                    out.push_str(&format!("{{round result {res} {score}}}\n"));
                    write_moves(&mut out, g, comments.get(i));
                }
            }
        }
        out
    }

    /// The rules of a record, from its tag pairs alone: no move is replayed,
    /// so a caller can refuse a record before paying for its moves.
    ///
    /// # Errors
    /// [`RecordError`] for a malformed tag or an unknown rule value.
    ///
    /// ```
    /// use hoyito_core::{Record, Variant};
    /// let rules = Record::read_rules("[Variant \"III\"]\n[Seeds \"5\"]\n\n1 2 3").unwrap();
    /// assert_eq!((rules.variant(), rules.seeds()), (Variant::III, 5));
    /// ```
    pub fn read_rules(text: &str) -> Result<Rules, RecordError> {
        check_size(text)?;
        Header::read(&mut text.lines().enumerate().peekable())?.rules()
    }

    /// Reads a record, replaying and checking every move.
    ///
    /// # Errors
    /// [`RecordError`] with the line number and what was wrong: a malformed
    /// tag, an unknown rule value, a bad start position, an unreadable or
    /// illegal move, moves after the end, or a Result/Score tag that the
    /// moves contradict.
    pub fn read(text: &str) -> Result<Record, RecordError> {
        check_size(text)?;
        let mut lines = text.lines().enumerate().peekable();
        let header = Header::read(&mut lines)?;
        let rules = header.rules()?;
        let Header {
            tags,
            is_match,
            start,
            claimed_result,
            claimed_score,
            ..
        } = header;
        let start_pos = match start {
            Some((ln, text)) => {
                if is_match {
                    return Err(RecordError {
                        line: ln,
                        reason: "a Position tag is only allowed for a single game".into(),
                    });
                }
                Position::from_notation(rules, &text).map_err(|e| RecordError {
                    line: ln,
                    reason: e.to_string(),
                })?
            }
            None => Position::new(rules),
        };
        let mut game = Game::from_position(start_pos);
        let mut mat = Match::new(rules);
        let mut started_rounds = 0u32;
        // Body.
        let mut in_comment = false;
        for (i, line) in lines {
            let ln = i + 1;
            let err = |reason: String| RecordError { line: ln, reason };
            let trimmed = line.trim();
            if !in_comment && trimmed.starts_with('[') {
                let (k, v) = parse_tag(trimmed).map_err(err)?;
                if k != "Round" || !is_match {
                    return Err(err(format!(
                        "tag {k:?} after the moves began: only [Round \"k\"] lines may stand between the rounds of a match"
                    )));
                }
                let want: u32 = v
                    .parse()
                    .map_err(|_| err(format!("Round {v:?}: expected a number")))?;
                if started_rounds == 0 && want == 1 && mat.current().moves().is_empty() {
                    started_rounds = 1;
                    continue;
                }
                if !mat.start_next_round() {
                    return Err(err(format!(
                        "round {want} cannot start: round {} is not over, or the match is over",
                        mat.round()
                    )));
                }
                started_rounds = mat.round();
                if want != mat.round() {
                    return Err(err(format!("round {want}: expected round {}", mat.round())));
                }
                continue;
            }
            for word in split_words(line, &mut in_comment) {
                if is_ply_number(word) || word == "*" {
                    continue;
                }
                if is_match {
                    if mat.current().is_over() && !mat.start_next_round() {
                        return Err(err(format!("move {word:?} after the end of the match")));
                    }
                    if let Some(side) = parse_concession(word) {
                        mat.concede(side).map_err(|e| err(format!("{word}: {e}")))?;
                        continue;
                    }
                    let m = mat
                        .current()
                        .position()
                        .parse_move(word)
                        .map_err(|e| err(e.to_string()))?;
                    mat.play(m).map_err(|e| err(format!("{word} is illegal: {e}")))?;
                } else {
                    if game.is_over() {
                        return Err(err(format!("move {word:?} after the end of the game")));
                    }
                    if let Some(side) = parse_concession(word) {
                        game.concede(side).map_err(|e| err(format!("{word}: {e}")))?;
                        continue;
                    }
                    game.play_token(word).map_err(|e| err(e.to_string()))?;
                }
            }
        }
        if in_comment {
            return Err(RecordError {
                line: text.lines().count().max(1),
                reason: "a comment '{' is never closed".into(),
            });
        }
        let (actual_result, actual_score) = if is_match {
            let res = match mat.outcome() {
                None => "*".to_string(),
                Some(o) => o.result().to_string(),
            };
            (res, None)
        } else {
            let (r, s) = result_of(game.position());
            (r, Some(s))
        };
        if let Some((ln, claimed)) = claimed_result {
            if claimed != "*" && claimed != actual_result {
                return Err(RecordError {
                    line: ln,
                    reason: format!("Result says {claimed:?} but the moves give {actual_result:?}"),
                });
            }
        }
        if let (Some((ln, claimed)), Some(actual)) = (claimed_score, actual_score) {
            if claimed != actual && actual_result != "*" {
                return Err(RecordError {
                    line: ln,
                    reason: format!("Score says {claimed:?} but the moves give {actual:?}"),
                });
            }
        }
        Ok(Record {
            tags,
            body: if is_match {
                Contest::Match(mat)
            } else {
                Contest::Game(game)
            },
        })
    }
}

fn write_moves(out: &mut String, g: &Game, comments: Option<&Vec<Option<String>>>) {
    // A concession ends the move list as a token of its own.
    let concession = g.conceded().map(concession_token);
    if let Some(comments) = comments.filter(|c| c.iter().any(Option::is_some)) {
        for (i, t) in g.tokens().iter().enumerate() {
            out.push_str(&format!("{}. {t}", i + 1));
            if let Some(Some(c)) = comments.get(i) {
                let c = c.replace('{', "(").replace('}', ")").replace(['\n', '\r'], " ");
                out.push_str(&format!(" {{{c}}}"));
            }
            out.push('\n');
        }
        if let Some(c) = &concession {
            out.push_str(c);
            out.push('\n');
        }
        return;
    }
    let tokens = g.tokens();
    for (i, t) in tokens.iter().chain(&concession).enumerate() {
        if i > 0 {
            out.push(if i % 16 == 0 { '\n' } else { ' ' });
        }
        out.push_str(t);
    }
    out.push('\n');
}

fn is_ply_number(w: &str) -> bool {
    w.len() > 1 && w.ends_with('.') && w[..w.len() - 1].bytes().all(|b| b.is_ascii_digit())
}

/// Words of a body line outside `{comments}` (which may span lines).
fn split_words<'a>(line: &'a str, in_comment: &mut bool) -> Vec<&'a str> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in line.char_indices() {
        if *in_comment {
            if c == '}' {
                *in_comment = false;
            }
            continue;
        }
        if c == '{' || c.is_whitespace() {
            if let Some(s) = start.take() {
                words.push(&line[s..i]);
            }
            if c == '{' {
                *in_comment = true;
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        words.push(&line[s..]);
    }
    words
}

/// Parses `[Key "value"]`.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("bad tag {line:?}: expected [Key \"value\"]"))?;
    let (key, rest) = inner
        .split_once(' ')
        .ok_or_else(|| format!("bad tag {line:?}: expected [Key \"value\"]"))?;
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad tag name {key:?}: expected letters and digits"));
    }
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("bad tag {line:?}: the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => {
                    return Err(format!(
                        "bad escape in tag {line:?}: only \\\\ and \\\" are allowed"
                    ))
                }
            },
            '"' => {
                return Err(format!(
                    "bad tag {line:?}: a quote inside the value must be written \\\""
                ))
            }
            c => value.push(c),
        }
    }
    Ok((key.to_string(), value))
}

fn check_size(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordError {
            line: 1,
            reason: format!("record is {} bytes: at most {MAX_RECORD_BYTES}", text.len()),
        });
    }
    Ok(())
}

/// The tag pairs of a record, read before its moves.
#[derive(Default)]
struct Header {
    spec: RulesSpec,
    tags: Vec<(String, String)>,
    is_match: bool,
    start: Option<(usize, String)>,
    claimed_result: Option<(usize, String)>,
    claimed_score: Option<(usize, String)>,
}

impl Header {
    /// Reads the tag pairs up to the first move or `[Round ...]` line.
    fn read(
        lines: &mut core::iter::Peekable<core::iter::Enumerate<core::str::Lines<'_>>>,
    ) -> Result<Header, RecordError> {
        let mut h = Header::default();
        while let Some(&(i, line)) = lines.peek() {
            let line = line.trim();
            if line.is_empty() {
                lines.next();
                continue;
            }
            if !line.starts_with('[') || line.starts_with("[Round ") {
                break;
            }
            lines.next();
            let ln = i + 1;
            let (k, v) = parse_tag(line).map_err(|reason| RecordError { line: ln, reason })?;
            let err = |e: String| RecordError { line: ln, reason: e };
            let flag = |v: &str| -> Result<bool, RecordError> {
                match v.to_ascii_lowercase().as_str() {
                    "yes" | "true" | "1" => Ok(true),
                    "no" | "false" | "0" => Ok(false),
                    _ => Err(err(format!("{k} {v:?}: expected yes or no"))),
                }
            };
            if let Some(option) = RulesOption::tagged(&k) {
                h.spec.set_option(option.id, &v).map_err(|e| err(e.to_string()))?;
                continue;
            }
            match k.as_str() {
                "Match" => h.is_match = flag(&v)?,
                "Position" => h.start = Some((ln, v)),
                "Result" => h.claimed_result = Some((ln, v)),
                "Score" => h.claimed_score = Some((ln, v)),
                "Rounds" => {}
                _ => h.tags.push((k, v)),
            }
        }
        Ok(h)
    }

    /// The rules the tags name.
    fn rules(&self) -> Result<Rules, RecordError> {
        Rules::try_from(self.spec).map_err(|e| RecordError {
            line: 1,
            reason: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests;
