//! # hoyito-wasm
//!
//! Hoyito's rules ([`hoyito_core`]), engine ([`hoyito_engine`], with
//! tablebases given as bytes, not files) and the compact tables' reader ([`hoyito_tablebase`]) as a WebAssembly module for browsers and Node, built with
//! `wasm-bindgen --target web` (`scripts/build-wasm.sh` writes
//! `web/wasm/hoyito_wasm.js` and `web/wasm/hoyito_wasm_bg.wasm`).
//!
//! A thin binding: every rule and every search is the native crates' own
//! code. The JavaScript API (`docs/WASM.md`):
//!
//! - `new Game(options)`, `Game.fromSetup(options, {board, closed,
//!   to_move, captured})`, `Game.fromNotation(options, text)` and
//!   `new Match(options)`, where `options` is
//!   `{variant, holes, seeds, skip_origin, direction, two_hole_opening,
//!   repetition, capture_side}` with the RULES.md spellings (missing ones
//!   take their standard values); `legalMoves()`, `play(token)` (throws an
//!   `Error` with the reason and leaves the game unchanged; returns the
//!   move's sowing events), `state()` (the RULES.md §7 object), `isOver()`,
//!   `notation()`, `bestMove(level)`, `analyze({level, timeMs})`,
//!   `useTables(tables)` (the engine probes the endgame tables on the
//!   device);
//! - `new Room(setup, steps, epoch)`: a game or a match on this device,
//!   played by the server's own room ([`hoyito_room`]): `step(token)`,
//!   `checkTurn()`, `resignation(round)`, `undoTarget()`, `undone(keep)`,
//!   `view()`, `summary()`, `tokens()`, `record()`, `bestMove(level)`,
//!   `useTables(tables)`;
//! - `new Tables()`: endgame tables on the device, from the bytes of the
//!   server's compact layer files: `load(options, seeds, bytes)`,
//!   `layers(options)`, `probe(options, position)` (the exact values, as
//!   `GET /api/tablebase` answers, or null outside the tables);
//! - `randomPlayouts(n, options, seed)`;
//! - `rulesOptions()`: the core's table of rules options (names, values,
//!   defaults, limits, meanings), from which the web app makes its
//!   new-game form.
//!
//! The logic lives in [`play`], in plain Rust, and is tested natively;
//! this file only converts values between JavaScript and Rust.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod options;
pub mod play;
pub mod room;
pub mod tables;

use std::time::Duration;

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use play::Play;
use tables::Tables;

/// Why a call was refused; thrown to JavaScript as an `Error` with this text.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The options object is not valid.
    #[error("invalid options: {0}")]
    Options(String),
    /// The options name invalid rules.
    #[error("invalid rules: {0}")]
    Rules(#[from] hoyito_core::RulesError),
    /// The move cannot be played.
    #[error("{0}")]
    Move(String),
    /// An engine level outside 1 to 10.
    #[error("level {0} is not allowed: expected 1 to 10")]
    Level(u8),
    /// `analyze`'s time limit is out of range.
    #[error("timeMs {0} is not allowed: expected 1 to {max}", max = play::MAX_ANALYZE_MS)]
    Time(f64),
    /// A playout count or seed that is not a whole number in range.
    #[error("{what} must be a whole number from 0 to 2^53, not {value}")]
    Number {
        /// Which argument.
        what: &'static str,
        /// Its value.
        value: f64,
    },
    /// `Game.fromSetup`'s or `Game.fromNotation`'s position is not valid.
    #[error("invalid setup: {0}")]
    Setup(String),
    /// Endgame tables that cannot be loaded.
    #[error("tables: {0}")]
    Tables(String),
    /// The next round cannot start.
    #[error("the next round can start only when a round of an unfinished match is over")]
    NextRound,
}

impl From<Error> for JsValue {
    fn from(e: Error) -> JsValue {
        JsError::new(&e.to_string()).into()
    }
}

/// A Rust value as a plain JavaScript value (through JSON).
fn to_js<T: serde::Serialize>(v: &T) -> JsValue {
    let text = serde_json::to_string(v).expect("the binding's values serialise");
    js_sys::JSON::parse(&text).expect("serde_json writes valid JSON")
}

/// The JSON text of a JavaScript value (`undefined` and `null` as `null`).
fn json_of(v: &JsValue, what: &str) -> Result<String, Error> {
    if v.is_undefined() || v.is_null() {
        return Ok("null".into());
    }
    js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::Options(format!("{what} cannot be read as JSON")))
}

/// A non-negative whole number of at most 2^53 from JavaScript.
fn whole(what: &'static str, value: f64) -> Result<u64, Error> {
    if value.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&value) {
        Ok(value as u64)
    } else {
        Err(Error::Number { what, value })
    }
}

/// What the engine does in a game, as on the server: `{levels, move_ms,
/// hint_level, hint_ms}` — the levels are 1 to `levels`; the engine thinks
/// at most `move_ms` about a move of a game; a hint is searched at level
/// `hint_level` at least (the game's own, if higher) for at most `hint_ms`.
#[wasm_bindgen(js_name = engineLimits)]
pub fn engine_limits() -> JsValue {
    to_js(&serde_json::json!({
        "levels": hoyito_engine::LEVELS.len(),
        "move_ms": hoyito_engine::PLAY_MOVETIME.as_millis() as u64,
        "hint_level": hoyito_engine::HINT_LEVEL,
        "hint_ms": hoyito_engine::HINT_MOVETIME.as_millis() as u64,
    }))
}

/// `rulesOptions()`: the rules options as the core's table describes them
/// (an array of `{name, tag, flag, type, values | min, max, default,
/// section, meaning}`, in order).
#[wasm_bindgen(js_name = rulesOptions)]
pub fn rules_options() -> JsValue {
    to_js(&options::rules_options())
}

/// The options of `analyze`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyzeOptions {
    level: Option<u8>,
    #[serde(rename = "timeMs")]
    time_ms: Option<f64>,
}

/// The engine's time limit for a move: the server's unless `time_ms` is given.
fn move_time(time_ms: Option<f64>) -> Result<Option<Duration>, Error> {
    match time_ms {
        None => Ok(None),
        Some(t) if t >= 1.0 && t <= play::MAX_ANALYZE_MS as f64 => Ok(Some(Duration::from_millis(t as u64))),
        Some(t) => Err(Error::Time(t)),
    }
}

fn analyze_options(v: &JsValue) -> Result<(u8, Duration), Error> {
    let text = json_of(v, "analyze's options")?;
    let o: Option<AnalyzeOptions> =
        serde_json::from_str(&text).map_err(|e| Error::Options(format!("analyze: {e}")))?;
    let o = o.unwrap_or(AnalyzeOptions {
        level: None,
        time_ms: None,
    });
    Ok((
        o.level.unwrap_or(10),
        move_time(o.time_ms)?.unwrap_or(play::ENGINE_MOVETIME),
    ))
}

// The methods `Game` and `Match` share.
macro_rules! shared_methods {
    ($ty:ident) => {
        #[wasm_bindgen]
        impl $ty {
            /// Legal move tokens of the player to move (empty once over).
            #[wasm_bindgen(js_name = legalMoves)]
            pub fn legal_moves(&self) -> Vec<String> {
                self.0.legal_moves()
            }

            /// Plays a move token. Returns what the move did (its canonical
            /// token, the mover, the board before, the sowing events, seeds
            /// captured, extra turn, pass). Throws an `Error` with the
            /// reason if the token is unreadable or illegal; then nothing changes.
            pub fn play(&mut self, token: &str) -> Result<JsValue, Error> {
                self.0.play(token).map(|p| to_js(&p))
            }

            /// `side` (`"south"` or `"north"`) concedes the game (in a
            /// match: the current round): the seeds in play go to the other
            /// side and the game (round) is counted. Throws if it is over.
            pub fn concede(&mut self, side: &str) -> Result<(), Error> {
                self.0.concede(side)
            }

            /// The current position as the JSON state of RULES.md §7.
            pub fn state(&self) -> JsValue {
                to_js(&self.0.state())
            }

            /// Whether the game (a match: the whole match) is over.
            #[wasm_bindgen(js_name = isOver)]
            pub fn is_over(&self) -> bool {
                self.0.is_over()
            }

            /// The current position's one-line notation.
            pub fn notation(&self) -> String {
                self.0.notation()
            }

            /// Whether the player to move chooses the sowing direction
            /// (legal tokens then end in `L` or `R`).
            #[wasm_bindgen(js_name = directionChoice)]
            pub fn direction_choice(&self) -> bool {
                self.0.direction_choice()
            }

            /// The current round's move tokens.
            pub fn tokens(&self) -> Vec<String> {
                self.0.tokens()
            }

            /// Every round so far: start board, closed holes, starter,
            /// reserve, moves, result and score.
            pub fn rounds(&self) -> JsValue {
                to_js(&self.0.rounds())
            }

            /// `"south"`, `"north"` or `"draw"` once over, else null.
            pub fn result(&self) -> JsValue {
                to_js(&self.0.result().map(|r| r.name()))
            }

            /// The record of the game or match (the text `hoyito replay` reads).
            pub fn record(&self) -> String {
                self.0.record()
            }

            /// Makes `bestMove` and `analyze` use the endgame tables of
            /// `tables` (a `Tables`) for these rules as the engine's oracle,
            /// as the server's engine uses its tablebases: where they hold
            /// the position, the engine plays perfectly. Shares the loaded
            /// tables (no copy), including layers loaded into `tables`
            /// before this call only. Returns whether `tables` holds any
            /// layer of these rules (if not, the engine searches as before).
            #[wasm_bindgen(js_name = useTables)]
            pub fn use_tables(&mut self, tables: &Tables) -> bool {
                let tb = tables.tablebase(self.0.rules());
                let found = tb.is_some();
                self.0.set_tables(tb);
                found
            }

            /// The engine's move (a token) at `level` 1 to 10, null once over.
            /// Levels 1–9 stop at their depth; all stop after the server's
            /// time limit (1.5 s), or after `timeMs` if given.
            #[wasm_bindgen(js_name = bestMove)]
            pub fn best_move(
                &self,
                level: u8,
                #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
            ) -> Result<Option<String>, Error> {
                self.0.best_move(level, move_time(time_ms)?, rand::random())
            }

            /// Every legal move's score: `{best, score, moves: [{move, score,
            /// pv}]}`, best first, scores in seeds from the mover's view.
            /// `level` defaults to 10, `timeMs` to the server's 1500.
            pub fn analyze(&self, options: JsValue) -> Result<JsValue, Error> {
                let (level, time) = analyze_options(&options)?;
                self.0.analyze(level, time).map(|a| to_js(&a))
            }
        }
    };
}

/// A single game.
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct Game(Play);

#[wasm_bindgen]
impl Game {
    /// A game from the standard start under `options`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Game, Error> {
        let rules = play::parse_options(&json_of(&options, "options")?)?;
        Ok(Game(Play::game(rules)))
    }

    /// A game from a position under `options`: `setup` is `{board,
    /// closed, to_move, captured}` (seeds per hole in index order, South's
    /// row first; the closed holes' indices, default none; `"south"` or
    /// `"north"`, default South; the seeds South and North captured,
    /// default none). Throws an `Error` if the position is not valid (a
    /// board of the wrong length, seeds in a closed hole, too many seeds).
    #[wasm_bindgen(js_name = fromSetup)]
    pub fn from_setup(options: JsValue, setup: JsValue) -> Result<Game, Error> {
        let rules = play::parse_options(&json_of(&options, "options")?)?;
        Ok(Game(Play::from_setup(rules, &json_of(&setup, "setup")?)?))
    }

    /// A game from a position in the one-line notation of NOTATION.md
    /// (`1,0,3,0/0,2,0,2 s 20-4`) under `options`. Throws an `Error` that
    /// says what is wrong with the text or the position.
    #[wasm_bindgen(js_name = fromNotation)]
    pub fn from_notation(options: JsValue, text: &str) -> Result<Game, Error> {
        let rules = play::parse_options(&json_of(&options, "options")?)?;
        Ok(Game(Play::from_notation(rules, text)?))
    }

    /// Takes back the last move; returns its token (null at the start).
    pub fn undo(&mut self) -> Option<String> {
        self.0.undo()
    }
}

shared_methods!(Game);

/// A match of rounds (RULES.md §5).
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct Match(Play);

#[wasm_bindgen]
impl Match {
    /// A match under `options`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Match, Error> {
        let rules = play::parse_options(&json_of(&options, "options")?)?;
        Ok(Match(Play::new_match(rules)))
    }

    /// The current round, from 1.
    pub fn round(&self) -> u32 {
        self.0.contest().rounds().len() as u32
    }

    /// Whether the current round is over and the next can start.
    #[wasm_bindgen(js_name = canStartNextRound)]
    pub fn can_start_next_round(&self) -> bool {
        self.0.can_start_next_round()
    }

    /// Starts the next round (refills, closed holes, reserves, who starts).
    /// Throws if the round goes on or the match is over.
    #[wasm_bindgen(js_name = startNextRound)]
    pub fn start_next_round(&mut self) -> Result<(), Error> {
        self.0.start_next_round()
    }

    /// `{winner, rounds}` once the match is over, else null.
    #[wasm_bindgen(js_name = matchResult)]
    pub fn match_result(&self) -> JsValue {
        to_js(&self.0.match_result())
    }
}

shared_methods!(Match);

/// `n` uniformly random games from the start under `options`, from a
/// generator seeded with `seed` as `hoyito bench --seed` does: `{games,
/// plies, south_wins, north_wins, draws}`.
#[wasm_bindgen(js_name = randomPlayouts)]
pub fn random_playouts(n: f64, options: JsValue, seed: f64) -> Result<JsValue, Error> {
    let n = whole("n", n)?;
    let seed = whole("seed", seed)?;
    let rules = play::parse_options(&json_of(&options, "options")?)?;
    Ok(to_js(&play::random_playouts(n, rules, seed)))
}
