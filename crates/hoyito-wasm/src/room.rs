//! `Room`: a game room on this device, the same room the server holds for
//! each of its games ([`hoyito_room`]), so the browser plays a game on the
//! device by the server's rules of steps, undo and resignation and shows
//! it through the same view. Conversions only.

use hoyito_core::Side;
use hoyito_room::{Host, Mode, RoomError, Seat, Setup, Stop};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::tables::Tables;
use crate::{json_of, move_time, play, to_js, Error};

/// What `new Room(setup, …)` takes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupJs {
    mode: Mode,
    #[serde(default)]
    rules: serde_json::Value,
    #[serde(rename = "match", default)]
    is_match: bool,
    #[serde(default)]
    engine_side: Option<Side>,
}

/// The room's setup from its JSON text; the seat this device's player holds.
///
/// # Errors
/// [`Error::Options`] for an unreadable setup or a game between two
/// devices; [`Error::Rules`] for invalid rules.
pub fn parse_setup(text: &str) -> Result<(Setup, Seat), Error> {
    let s: SetupJs = serde_json::from_str(text).map_err(|e| Error::Options(format!("room setup: {e}")))?;
    let rules = play::parse_options(&s.rules.to_string())?;
    let seat = match (s.mode, s.engine_side) {
        (Mode::Engine, Some(engine)) => Seat::One(engine.other()),
        (Mode::Engine, None) => {
            return Err(Error::Options(
                "a game against the engine needs its engine_side".into(),
            ))
        }
        (Mode::Hotseat, _) => Seat::Both,
        (Mode::Online, _) => {
            return Err(Error::Options(
                "a game between two devices is played on the server, not in a room on this device".into(),
            ))
        }
    };
    let engine_side = if s.mode == Mode::Engine {
        s.engine_side
    } else {
        None
    };
    Ok((
        Setup {
            mode: s.mode,
            rules,
            is_match: s.is_match,
            engine_side,
            start: None,
        },
        seat,
    ))
}

/// A room's refusal as a JavaScript `Error` with its `code` (e.g.
/// `illegal_move`) and `status` (409 for a conflict with the game's state,
/// 422 for an invalid step), as the server answers.
fn refusal(e: RoomError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let status = if e.is_conflict() { 409 } else { 422 };
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    let _ = js_sys::Reflect::set(&err, &"status".into(), &status.into());
    err.into()
}

/// A game or a match on this device, played step by step as the server
/// plays its games.
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct Room {
    room: hoyito_room::Room,
    seat: Seat,
    tables: play::EngineTables,
}

#[wasm_bindgen]
impl Room {
    /// A room opened with `setup` (`{mode: "engine" | "hotseat", rules,
    /// match, engine_side}`, `rules` as `new Game` takes them), replaying
    /// `steps` (its stored step tokens) after `epoch` undos. Throws an
    /// `Error` with `code` and `status` if a step does not replay.
    #[wasm_bindgen(constructor)]
    pub fn new(setup: JsValue, steps: Option<Vec<String>>, epoch: Option<f64>) -> Result<Room, JsValue> {
        let (setup, seat) = parse_setup(&json_of(&setup, "setup")?)?;
        let epoch = crate::whole("epoch", epoch.unwrap_or(0.0))?;
        let room = hoyito_room::Room::replay(setup, epoch, &steps.unwrap_or_default()).map_err(refusal)?;
        Ok(Room {
            room,
            seat,
            tables: play::EngineTables::default(),
        })
    }

    /// Checks and applies one step: a move token, `next` (the next round
    /// of a match), `concede:<side>` or `resign:<side>`. Returns a move's
    /// event (`{seq, epoch, round, side, token, board_before,
    /// captured_before, trace, captured, extra_turn, passed}`), null for
    /// the others. Throws (`code`, `status`) and changes nothing if refused.
    pub fn step(&mut self, token: &str) -> Result<JsValue, JsValue> {
        let ev = self
            .room
            .step(token, hoyito_core::MAX_TRACE_EVENTS)
            .map_err(refusal)?;
        Ok(to_js(&ev))
    }

    /// Plays move `token` for this device's player (a move only; see
    /// `checkTurn`). Returns its event; throws (`code`, `status`) and
    /// changes nothing if refused.
    pub fn play(&mut self, token: &str) -> Result<JsValue, JsValue> {
        self.room.check_turn(self.seat).map_err(refusal)?;
        let p = self
            .room
            .prepare(token, hoyito_core::MAX_TRACE_EVENTS)
            .map_err(refusal)?;
        Ok(to_js(&self.room.commit(p)))
    }

    /// Throws (`not_your_turn`, `round_over`, `game_over`) unless this
    /// device's player may move now; `thinking`: the engine is searching.
    #[wasm_bindgen(js_name = checkTurn)]
    pub fn check_turn(&self, thinking: Option<bool>) -> Result<(), JsValue> {
        let host = Host {
            thinking: thinking.unwrap_or(false),
            ..Host::ALONE
        };
        self.room.check_move(self.seat, &host).map_err(refusal)
    }

    /// The step by which this device's player resigns (in hot-seat the
    /// player to move): the round of a match with `round`, else the game
    /// or the match. Checked, not applied: apply it with `step`.
    pub fn resignation(&self, round: bool) -> Result<String, JsValue> {
        self.room.resignation(self.seat, round).map_err(refusal)
    }

    /// How many steps an undo keeps: against the engine, back to the
    /// player's last move of this round; in hot-seat, one move. Throws
    /// (`nothing_to_undo`, `game_over`) if there is nothing to undo.
    #[wasm_bindgen(js_name = undoTarget)]
    pub fn undo_target(&self) -> Result<f64, JsValue> {
        self.room.undo_target().map(|k| k as f64).map_err(refusal)
    }

    /// The room after an undo back to its first `keep` steps (one undo more).
    pub fn undone(&self, keep: f64) -> Result<Room, JsValue> {
        let keep = crate::whole("keep", keep)?;
        Ok(Room {
            room: self.room.undone(keep),
            seat: self.seat,
            tables: self.tables.clone(),
        })
    }

    /// The room's view, as the server's game view has it (mode, rules,
    /// match, status, end, result, position, legal moves, rounds,
    /// history…, and `may`: what this device's player may do now);
    /// `thinking`: the engine is searching (its move, or until an undo
    /// stops it), so nobody may move.
    pub fn view(&self, thinking: Option<bool>) -> JsValue {
        let host = Host {
            thinking: thinking.unwrap_or(false),
            ..Host::ALONE
        };
        to_js(&self.room.view_with(None, &host))
    }

    /// The step by which this device's player aborts the game (in
    /// hot-seat the player to move), before both players have moved.
    /// Checked, not applied: apply it with `step`. Throws
    /// (`too_late_to_abort`, `game_over`) if it cannot be aborted.
    pub fn abortion(&self) -> Result<String, JsValue> {
        let stop = Stop::Abort(self.room.resigner(self.seat));
        self.room.check_stop(stop).map_err(refusal)?;
        Ok(stop.token())
    }

    /// Throws (`hint_unavailable`, `not_your_turn`, `round_over`,
    /// `game_over`) unless this device's player may ask for a hint now;
    /// `thinking`: the engine is searching.
    #[wasm_bindgen(js_name = checkHint)]
    pub fn check_hint(&self, thinking: Option<bool>) -> Result<(), JsValue> {
        let host = Host {
            thinking: thinking.unwrap_or(false),
            ..Host::ALONE
        };
        self.room.check_hint(self.seat, &host).map_err(refusal)
    }

    /// The room in one line: `{status, seq, result, score, to_move}`.
    pub fn summary(&self) -> JsValue {
        to_js(&self.room.summary())
    }

    /// Every step's token, as stored.
    pub fn tokens(&self) -> Vec<String> {
        self.room.tokens()
    }

    /// Steps so far.
    #[wasm_bindgen(getter)]
    pub fn seq(&self) -> f64 {
        self.room.seq() as f64
    }

    /// Undos so far.
    #[wasm_bindgen(getter)]
    pub fn epoch(&self) -> f64 {
        self.room.epoch() as f64
    }

    /// Whether the engine is to move.
    #[wasm_bindgen(js_name = engineToMove)]
    pub fn engine_to_move(&self) -> bool {
        self.room.engine_to_move()
    }

    /// Whether the game (or the match) is over: played out or stopped.
    pub fn finished(&self) -> bool {
        self.room.finished()
    }

    /// The record of the game or match (the text `hoyito replay` reads).
    pub fn record(&self) -> String {
        hoyito_core::Record::from(self.room.contest().clone()).write()
    }

    /// The engine's move (a token) at `level` 1 to 10 in the current
    /// position, null once the round is over; within the server's time
    /// limit (1.5 s), or `timeMs`; with the tables of `useTables`.
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(
        &self,
        level: u8,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<Option<String>, Error> {
        play::best_move(
            self.room.current(),
            level,
            move_time(time_ms)?,
            rand::random(),
            self.tables.0.clone(),
        )
    }

    /// Makes `bestMove` use the endgame tables of `tables` (a `Tables`) for
    /// the room's rules as the engine's oracle, as `Game.useTables`.
    /// Returns whether `tables` holds any layer of these rules.
    #[wasm_bindgen(js_name = useTables)]
    pub fn use_tables(&mut self, tables: &Tables) -> bool {
        let tb = tables.tablebase(self.room.contest().rules());
        let found = tb.is_some();
        self.tables = play::EngineTables(tb);
        found
    }
}
