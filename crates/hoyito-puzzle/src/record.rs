//! The puzzle files: one JSON object a line ([`PuzzleRecord`]), read and
//! checked against the rules by [`read_set`].

use hoyito_core::{Game, Position, Rules, Variant};
use serde::{Deserialize, Serialize};

use crate::certify::Puzzle;
use crate::theme::Theme;

/// A puzzle as a line of a puzzle file and as the API serves it.
///
/// ```json
/// {"id":"II-6-0001","variant":"II","holes":6,"position":"0,0,1,2,0,1/0,1,0,0,3,0 s 16-16",
///  "solution":["4"],"themes":["casa","extra_turn"],"rating":1140,"value":8,"result":"win"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRecord {
    /// `<variant>-<holes>-<number>`, numbered from 1 in the file's order.
    pub id: String,
    /// `I`, `II` or `III`.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// The position (docs/NOTATION.md), the solver to move.
    pub position: String,
    /// The solution's moves, alternating solver and opponent, starting and
    /// ending with the solver's.
    pub solution: Vec<String>,
    /// Theme names ([`Theme::name`]).
    pub themes: Vec<String>,
    /// The difficulty estimate ([`rating`](crate::rating)).
    pub rating: u32,
    /// The position's exact value for the solver: the net seeds they gain
    /// from here with perfect play.
    pub value: i32,
    /// The result the solution keeps: `win` or `draw`.
    pub result: String,
}

/// A puzzle file that does not read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// A line is not a puzzle record.
    #[error("line {line}: {message}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong, and what was expected.
        message: String,
    },
    /// Two puzzles have the same id.
    #[error("line {line}: the id {id:?} is already used on line {first}")]
    DuplicateId {
        /// The line, from 1.
        line: usize,
        /// The id.
        id: String,
        /// The line of its first use.
        first: usize,
    },
}

impl PuzzleRecord {
    /// The record of `puzzle` under the id `id`.
    pub fn new(id: String, puzzle: &Puzzle) -> PuzzleRecord {
        let rules = puzzle.position.rules();
        PuzzleRecord {
            id,
            variant: rules.variant(),
            holes: rules.holes() as u8,
            position: puzzle.position.to_notation(),
            solution: puzzle.tokens.clone(),
            themes: puzzle.themes.iter().map(|t| t.name().to_string()).collect(),
            rating: puzzle.rating,
            value: puzzle.value,
            result: puzzle.outlook.name().to_string(),
        }
    }

    /// The rules of the puzzle: its variant and board, the other options standard.
    ///
    /// # Errors
    /// A message if the board size is not one of the rules'.
    pub fn rules(&self) -> Result<Rules, String> {
        Rules::new(self.variant, self.holes as usize).map_err(|e| e.to_string())
    }

    /// The position.
    ///
    /// # Errors
    /// A message if the rules or the position do not read.
    pub fn to_position(&self) -> Result<Position, String> {
        let rules = self.rules()?;
        Position::from_notation(rules, &self.position)
            .map_err(|e| format!("position {:?}: {e}", self.position))
    }

    /// The themes.
    pub fn theme_list(&self) -> Vec<Theme> {
        self.themes.iter().filter_map(|t| Theme::from_name(t)).collect()
    }

    /// Checks what the rules alone can check: the position reads and is
    /// not over, the solution is a non-empty sequence of legal moves of
    /// odd length that alternates sides, every theme is known, the result is
    /// `win` or `draw`.
    ///
    /// # Errors
    /// A message saying what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let pos = self.to_position()?;
        if pos.is_over() {
            return Err(format!("the position {:?} is a finished game", self.position));
        }
        if self.solution.len().is_multiple_of(2) {
            return Err(format!(
                "the solution has {} moves: expected an odd number (solver, opponent, …, solver)",
                self.solution.len()
            ));
        }
        let solver = pos.to_move();
        let mut game = Game::from_position(pos);
        for (i, token) in self.solution.iter().enumerate() {
            let expected = if i % 2 == 0 { solver } else { solver.other() };
            if game.is_over() || game.position().to_move() != expected {
                return Err(format!("move {} ({token:?}) is not {expected}'s turn", i + 1));
            }
            game.play_token(token)
                .map_err(|e| format!("move {} of the solution: {e}", i + 1))?;
        }
        if let Some(t) = self.themes.iter().find(|t| Theme::from_name(t).is_none()) {
            return Err(format!(
                "unknown theme {t:?}: expected one of {}",
                Theme::ALL.map(Theme::name).join(", ")
            ));
        }
        if self.result != "win" && self.result != "draw" {
            return Err(format!("result {:?}: expected win or draw", self.result));
        }
        Ok(())
    }

    /// The record as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }
}

/// Reads a puzzle file: one [`PuzzleRecord`] a line (blank lines skipped),
/// each checked ([`PuzzleRecord::check`]), ids unique.
///
/// # Errors
/// [`RecordError`] naming the first line that is wrong.
pub fn read_set(text: &str) -> Result<Vec<PuzzleRecord>, RecordError> {
    let mut out = Vec::new();
    let mut ids = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let record: PuzzleRecord = serde_json::from_str(line).map_err(|e| RecordError::Line {
            line: line_no,
            message: format!("not a puzzle record: {e}"),
        })?;
        record.check().map_err(|message| RecordError::Line {
            line: line_no,
            message: format!("puzzle {}: {message}", record.id),
        })?;
        if let Some(&first) = ids.get(&record.id) {
            return Err(RecordError::DuplicateId {
                line: line_no,
                id: record.id,
                first,
            });
        }
        ids.insert(record.id.clone(), line_no);
        out.push(record);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> PuzzleRecord {
        PuzzleRecord {
            id: "II-4-0001".into(),
            variant: Variant::II,
            holes: 4,
            position: "3,0,0,3/1,1,1,7 s 4-12".into(),
            solution: vec!["1".into()],
            themes: vec!["casa".into(), "extra_turn".into()],
            rating: 1000,
            value: 4,
            result: "win".into(),
        }
    }

    #[test]
    fn a_line_round_trips() {
        let r = record();
        let line = r.to_line();
        assert!(
            line.starts_with(r#"{"id":"II-4-0001","variant":"II","holes":4,"#),
            "{line}"
        );
        assert_eq!(read_set(&format!("{line}\n\n")).unwrap(), vec![r]);
    }

    #[test]
    fn bad_lines_are_named() {
        let mut r = record();
        r.solution = vec!["1".into(), "2".into()];
        let e = read_set(&r.to_line()).unwrap_err().to_string();
        assert!(
            e.starts_with("line 1: puzzle II-4-0001: the solution has 2 moves"),
            "{e}"
        );
        let mut r = record();
        r.themes.push("fork".into());
        let e = read_set(&format!("\n{}", r.to_line())).unwrap_err().to_string();
        assert!(
            e.starts_with("line 2: puzzle II-4-0001: unknown theme \"fork\""),
            "{e}"
        );
        let mut r = record();
        r.solution = vec!["2".into()];
        let e = read_set(&r.to_line()).unwrap_err().to_string();
        assert!(e.contains("move 1 of the solution"), "{e}");
        let line = record().to_line();
        let e = read_set(&format!("{line}\n{line}")).unwrap_err().to_string();
        assert_eq!(e, "line 2: the id \"II-4-0001\" is already used on line 1");
        let e = read_set("{\"id\":1}").unwrap_err().to_string();
        assert!(e.starts_with("line 1: not a puzzle record"), "{e}");
    }
}
