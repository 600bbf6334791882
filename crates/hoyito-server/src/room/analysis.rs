//! An analysis of a game as the API sends (and the database stores) it:
//! [`AnalysisView`], its steps and each side's summary. The analysis is
//! made by [`crate::jobs::analysis`].

use std::collections::HashMap;

use hoyito_core::Side;
use hoyito_engine::review::{Mark, SideStats};
use serde::{Deserialize, Serialize};

use crate::room::live::LiveGame;

/// A legal move with its score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveScore {
    /// The move's token.
    pub token: String,
    /// Expected final margin for the mover after this move, in seeds.
    pub score: i32,
    /// Whether `score` is proved.
    pub exact: bool,
    /// Board indices of the holes it sows, as a game view's `legal_moves`
    /// gives them (empty in analyses stored before the field).
    #[serde(default)]
    pub holes: Vec<u8>,
    /// Its direction, `L` or `R` (`null` in analyses stored before the field).
    #[serde(default)]
    pub dir: Option<char>,
}

/// The move that led to a step's position, judged against the best move of the
/// position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// The mover.
    pub side: Side,
    /// Its token.
    pub token: String,
    /// Its score for the mover.
    pub score: i32,
    /// Seeds lost against the best move (0 for a best move).
    pub loss: i32,
    /// `best`, `inaccuracy`, `mistake` or `blunder`.
    pub mark: String,
    /// The best move of that position, and its score.
    pub best: String,
    /// The best move's score.
    pub best_score: i32,
    /// The comment written after the move in an annotated record.
    pub comment: String,
}

/// One move of the best line, with the position after it (for showing
/// the line on the board).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineStep {
    /// The mover.
    pub side: Side,
    /// The move's token.
    pub token: String,
    /// Board indices of the holes it sows.
    #[serde(default)]
    pub holes: Vec<u8>,
    /// The board after it.
    pub board: Vec<u8>,
    /// `[south, north]` captured after it.
    pub captured: [u8; 2],
}

/// Longest best line sent with a step's analysis.
pub const MAX_LINE: usize = 16;

/// The analysis of one step: the position after step `seq` of the game
/// (0: the start).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepAnalysis {
    /// The step after which this position stands (0: the start). Analyses
    /// stored before the field had this name call it `ply`.
    #[serde(alias = "ply")]
    pub seq: usize,
    /// The side to move, `null` once the game (or round) is over.
    pub to_move: Option<Side>,
    /// The expected final margin for South, in seeds.
    pub eval: i32,
    /// Whether `eval` is proved (tablebases, the exact search, or the end).
    pub exact: bool,
    /// The best move, `null` once over.
    pub best: Option<String>,
    /// Board indices of the holes the best move sows.
    #[serde(default)]
    pub best_holes: Vec<u8>,
    /// Its direction, `L` or `R`.
    #[serde(default)]
    pub best_dir: Option<char>,
    /// Its principal variation, starting with it.
    pub pv: Vec<String>,
    /// The first [`MAX_LINE`] moves of the principal variation with the
    /// position after each.
    pub line: Vec<LineStep>,
    /// Every legal move with its score, best first.
    pub moves: Vec<MoveScore>,
    /// The move that led here, if step `seq` was a move.
    pub played: Option<PlayedMove>,
    /// The depth the engine's search of this position completed, in plies
    /// (0 once over; analyses stored before the field had none).
    #[serde(default)]
    pub depth: u32,
    /// The engine time this position was searched, in ms (0 in analyses
    /// stored before the field).
    #[serde(default)]
    pub movetime_ms: u64,
}

/// A side's totals: moves, average loss, marks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: u32,
    /// Seeds lost per move on average.
    pub average_loss: f64,
    /// How many moves got each mark.
    pub counts: HashMap<String, u32>,
}

impl From<SideStats> for SideSummary {
    fn from(s: SideStats) -> SideSummary {
        SideSummary {
            moves: s.moves,
            average_loss: (s.average_loss() * 100.0).round() / 100.0,
            counts: Mark::ALL
                .iter()
                .map(|&m| (m.name().to_string(), s.count(m)))
                .collect(),
        }
    }
}

/// The thresholds of the marks of the game's variant, in seeds lost (a move
/// that makes the result worse is a blunder whatever it lost).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Fewest seeds lost for an inaccuracy.
    pub inaccuracy: i32,
    /// For a mistake.
    pub mistake: i32,
    /// For a blunder.
    pub blunder: i32,
    /// An estimated score nearer 0 than this is read as a draw when deciding
    /// whether a move changed the result (a proved one by its sign):
    /// `hoyito_engine::review::Scale::even`.
    #[serde(default = "even")]
    pub even: i32,
}

/// The `even` of analyses stored before the field: every variant's.
fn even() -> i32 {
    hoyito_engine::review::CASA_SWING / 2
}

/// An analysis as the API sends (and the database stores) it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisView {
    /// Identifies this run of the analysis: requests that joined it see the same.
    pub id: String,
    /// `running` or `done`.
    pub status: String,
    /// The game's undo count and steps when the analysis started.
    pub epoch: u64,
    /// Steps analysed: 0 to `seq`.
    pub seq: u64,
    /// Engine time per position of the pass under way (once done: of the
    /// last pass, whose steps are sent).
    pub movetime_ms: u64,
    /// The pass under way (once done: the last), from 1.
    #[serde(default = "one")]
    pub pass: u32,
    /// Passes in all: a quick one, then (unless the request set the time)
    /// a deeper one whose steps replace the first's one by one.
    #[serde(default = "one")]
    pub passes: u32,
    /// When it started (ms since the epoch).
    pub created_ms: i64,
    /// Positions in all (`seq + 1`).
    pub total: usize,
    /// Positions analysed so far by the pass under way: in a later pass,
    /// `steps` before `done` are this pass's, the others the last pass's.
    pub done: usize,
    /// The first step in `steps` (the `from` of the request).
    pub from: usize,
    /// The steps analysed, from `from`. Analyses stored before the field
    /// had this name call it `plies`.
    #[serde(alias = "plies")]
    pub steps: Vec<StepAnalysis>,
    /// Each side's totals, once done.
    pub summary: Option<HashMap<String, SideSummary>>,
    /// The thresholds of the marks.
    pub thresholds: Thresholds,
}

/// The pass of analyses stored before passes.
fn one() -> u32 {
    1
}

impl AnalysisView {
    /// This view with only the steps from `from` on.
    pub(crate) fn steps_from(&self, from: usize) -> AnalysisView {
        let from = from.min(self.steps.len());
        AnalysisView {
            from,
            steps: self.steps[from..].to_vec(),
            ..self.clone()
        }
    }

    /// The comment of each move of each round (for the annotated record).
    pub fn comments(&self, game: &LiveGame) -> Vec<Vec<Option<String>>> {
        let mut out: Vec<Vec<Option<String>>> = vec![Vec::new()];
        for s in game.room.steps().iter().take(self.seq as usize) {
            match s.kind {
                hoyito_room::StepKind::Round => out.push(Vec::new()),
                hoyito_room::StepKind::Move => {
                    let step = self.steps.get(s.seq as usize);
                    let comment = step.and_then(|p| p.played.as_ref()).map(|m| m.comment.clone());
                    out.last_mut().expect("a round").push(comment);
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Analyses stored before the fields were named `steps` and `seq`
    /// (`plies`, `ply`) still read; they are written with the new names.
    #[test]
    fn analyses_stored_with_the_old_field_names_still_read() {
        let step = StepAnalysis {
            seq: 3,
            to_move: Some(Side::North),
            eval: -2,
            exact: false,
            best: Some("4R".into()),
            best_holes: vec![9],
            best_dir: Some('R'),
            pv: vec!["4R".into()],
            line: Vec::new(),
            moves: vec![MoveScore {
                token: "4R".into(),
                score: 2,
                exact: false,
                holes: vec![9],
                dir: Some('R'),
            }],
            played: None,
            depth: 7,
            movetime_ms: 40,
        };
        let view = AnalysisView {
            id: "a1".into(),
            status: "done".into(),
            epoch: 0,
            seq: 3,
            movetime_ms: 40,
            pass: 1,
            passes: 1,
            created_ms: 1,
            total: 4,
            done: 4,
            from: 3,
            steps: vec![step],
            summary: None,
            thresholds: Thresholds {
                inaccuracy: 1,
                mistake: 3,
                blunder: 6,
                even: 4,
            },
        };
        let new = serde_json::to_string(&view).unwrap();
        assert!(new.contains(r#""steps":[{"seq":3,"#), "{new}");
        let old = new
            .replace(r#""steps":"#, r#""plies":"#)
            .replace(r#"{"seq":3,"#, r#"{"ply":3,"#);
        assert_ne!(old, new);
        assert_eq!(serde_json::from_str::<AnalysisView>(&old).unwrap(), view);
        assert_eq!(serde_json::from_str::<AnalysisView>(&new).unwrap(), view);
    }
}
