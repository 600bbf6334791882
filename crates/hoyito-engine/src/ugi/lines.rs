//! The lines a UGI [`Session`](super::Session) writes and what it builds
//! from a command: the `option` lines, the game of a `position`, the
//! limits of a `go`, `info` lines, and the legal moves and the reason a
//! move is illegal (also shown by the terminal interface).

use hoyito_core::{Game, OptionKind, OptionValue, PlayError, Position, Rules, RulesOption, Side};

use super::parse::GoArgs;
use crate::{time_for_move, Info, Limits};

/// Opens the tablebases of `rules` under `dir` to check them; the seed
/// counts of their layers.
#[cfg(feature = "tablebase-files")]
pub(super) fn check_tablebases(rules: hoyito_core::Rules, dir: &std::path::Path) -> Result<Vec<u32>, String> {
    crate::Engine::with_level(1)
        .load_tablebases(rules, dir)
        .map_err(|e| e.to_string())
}

/// Without the `tablebase-files` feature there are no tablebase files to use.
#[cfg(not(feature = "tablebase-files"))]
pub(super) fn check_tablebases(
    _rules: hoyito_core::Rules,
    _dir: &std::path::Path,
) -> Result<Vec<u32>, String> {
    Err("this engine was built without tablebase files".into())
}

/// The engine's own options, after the rules options in `ugi`'s list.
pub(super) const ENGINE_OPTIONS: [&str; 4] = ["Level", "EngineType", "Hash", "TablebaseDir"];

/// The `option name …` line of a rules option (its UGI name is its record
/// tag), with its current value as the default.
pub fn rules_option_line(option: &RulesOption, value: OptionValue) -> String {
    match option.kind {
        OptionKind::Choice(values) => combo(option.tag, &value.to_string(), values.iter().copied()),
        OptionKind::Number { min, max } => {
            format!(
                "option name {} type spin default {value} min {min} max {max}",
                option.tag
            )
        }
        OptionKind::Flag => format!("option name {} type check default {value}", option.tag),
    }
}

pub(super) fn combo<'a>(name: &str, default: &str, vars: impl IntoIterator<Item = &'a str>) -> String {
    let vars: String = vars.into_iter().map(|v| format!(" var {v}")).collect();
    format!("option name {name} type combo default {default}{vars}")
}

/// The engine limits of a `go`: the clock of the side to move gives a move
/// time (the smaller one wins if `movetime` is given too).
pub(super) fn limits_for(g: &GoArgs, to_move: Side) -> Limits {
    let mut limits = Limits::default();
    if g.infinite {
        return limits;
    }
    limits.depth = g.depth;
    limits.nodes = g.nodes;
    limits.movetime = g.movetime;
    let (time, inc) = match to_move {
        Side::South => (g.p1time, g.p1inc),
        Side::North => (g.p2time, g.p2inc),
    };
    if let Some(remaining) = time {
        let t = time_for_move(remaining, inc.unwrap_or_default());
        limits.movetime = Some(limits.movetime.map_or(t, |m| m.min(t)));
    }
    limits
}

/// A game from `startpos` or a notation, then the moves; any error leaves nothing changed.
pub(super) fn build_game(rules: Rules, notation: Option<&str>, moves: &[String]) -> Result<Game, String> {
    let start = match notation {
        None => Position::new(rules),
        Some(text) => Position::from_notation(rules, text).map_err(|e| format!("{e} (rules: {rules})"))?,
    };
    let mut game = Game::from_position(start);
    for (i, token) in moves.iter().enumerate() {
        if game.is_over() {
            return Err(format!(
                "move {} ({token:?}) comes after the end of the game",
                i + 1
            ));
        }
        let before = *game.position();
        let legal = || legal_tokens(&before);
        let m = before
            .parse_move(token)
            .map_err(|e| format!("move {} ({token:?}): {e}; legal moves were: {}", i + 1, legal()))?;
        if let Err(e) = game.play(m) {
            return Err(format!(
                "move {} ({token:?}) is illegal: {}; legal moves were: {}",
                i + 1,
                explain_illegal(&before, e),
                legal()
            ));
        }
    }
    Ok(game)
}

/// The legal moves of `pos` as tokens, space-separated, or `(none)`: the
/// list the protocol (and the terminal interface) shows after a bad move.
pub fn legal_tokens(pos: &Position) -> String {
    let tokens = pos.legal_tokens();
    if tokens.is_empty() {
        return "(none)".into();
    }
    tokens.join(" ")
}

/// Why a move cannot be played in `pos`, in the mover's own hole numbers
/// (`South's hole 3 is empty`) where [`PlayError`]'s message has board
/// indices.
pub fn explain_illegal(pos: &Position, e: PlayError) -> String {
    let n = pos.rules().holes();
    let own = |h: usize| h % n + 1;
    let who = match pos.to_move() {
        Side::South => "South",
        Side::North => "North",
    };
    match e {
        PlayError::Empty { hole } => format!("{who}'s hole {} is empty", own(hole)),
        PlayError::Closed { hole } => format!("{who}'s hole {} is closed this round", own(hole)),
        PlayError::NotOwnHole { hole } => format!("hole {} is not {who}'s", own(hole)),
        other => other.to_string(),
    }
}

/// `info depth … score cp … nodes … nps … time … pv …`, the PV as tokens.
/// The engine scores in seeds (final margin, side to move's view); `cp` is
/// hundredths of a seed, as UCI's centipawns are hundredths of a pawn.
pub(super) fn info_line(root: &Position, info: &Info) -> String {
    let mut line = format!(
        "info depth {} score cp {} nodes {} nps {} time {}",
        info.depth,
        info.score.saturating_mul(100),
        info.nodes,
        info.nps,
        info.time_ms
    );
    let pv = root.line_tokens(&info.pv);
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}
