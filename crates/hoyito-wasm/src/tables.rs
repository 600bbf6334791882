//! Endgame tables on the device: the compact layer files of the server's
//! default tables (`GET /api/tables`), downloaded by the web app and given
//! to the module as bytes, probed by `hoyito-tablebase`'s own reader — the
//! values `GET /api/tablebase` answers, without a server.
//!
//! [`OfflineTables`] is the plain-Rust logic (tested natively); [`Tables`]
//! its JavaScript face: `new Tables()`, `load(options, seeds, bytes)`,
//! `layers(options)`, `probe(options, position)`.

use std::sync::Arc;

use hoyito_core::{Position, Rules};
use hoyito_tablebase::{Tablebase, TablebaseError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::options::parse_options;
use crate::{json_of, to_js, Error};

/// Bytes of decoded blocks the tables of one rule set keep (a block of
/// 2,048 positions is 2 KiB).
const CACHE_BYTES: usize = 2 << 20;

/// A position's exact values, as `GET /api/tablebase` answers them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExactValues {
    /// The seeds the side to move gains from here on with perfect play; 0
    /// once the game is over.
    pub value: i32,
    /// Every legal move with its value for the mover.
    pub moves: Vec<MoveValue>,
    /// Seeds in play.
    pub seeds: u32,
    /// Always `tables`: a probe of the tables.
    pub proved: &'static str,
}

/// A move and its exact value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The move's token.
    #[serde(rename = "move")]
    pub token: String,
    /// The seeds the mover gains from here on with perfect play after it.
    pub value: i32,
}

/// The layers of one rule set: their bytes and the tablebase over them
/// (shared with the engines that use it as their oracle).
struct RuleSet {
    rules: Rules,
    files: Vec<(u32, Arc<Vec<u8>>)>,
    tables: Arc<Tablebase>,
}

/// The tables loaded so far, for any number of rule sets.
#[derive(Default)]
pub struct OfflineTables {
    sets: Vec<RuleSet>,
}

impl std::fmt::Debug for OfflineTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.sets.iter().map(|s| (s.rules.to_string(), s.tables.layers())))
            .finish()
    }
}

/// Whether a position of `a` may be probed in the tables of `b`.
fn same_tables(a: &Rules, b: &Rules) -> bool {
    a.variant() == b.variant()
        && a.holes() == b.holes()
        && a.skip_origin() == b.skip_origin()
        && a.capture_side() == b.capture_side()
}

impl OfflineTables {
    /// Adds layer `seeds` of `rules` from the bytes of its compact file
    /// (replacing the same layer loaded before).
    ///
    /// # Errors
    /// [`TablebaseError::Unsupported`] for rules the tables do not cover or
    /// a layer that is not a multiple of 4 seeds up to 127;
    /// [`TablebaseError::Corrupt`] if the bytes are not that layer's file.
    pub fn load(&mut self, rules: Rules, seeds: u32, bytes: Vec<u8>) -> Result<(), TablebaseError> {
        // The bytes stay where wasm-bindgen copied them from JavaScript.
        let bytes = Arc::new(bytes);
        let at = self.sets.iter().position(|s| same_tables(&s.rules, &rules));
        let mut files = at.map(|i| self.sets[i].files.clone()).unwrap_or_default();
        files.retain(|(s, _)| *s != seeds);
        files.push((seeds, bytes));
        files.sort_by_key(|(s, _)| *s);
        let top = files.last().map_or(seeds, |(s, _)| *s).max(4);
        let mut tables = Tablebase::in_memory(rules, top, CACHE_BYTES)?;
        for (s, b) in &files {
            tables.insert_compact(*s, Arc::clone(b))?;
        }
        let set = RuleSet {
            rules,
            files,
            tables: Arc::new(tables),
        };
        match at {
            Some(i) => self.sets[i] = set,
            None => self.sets.push(set),
        }
        Ok(())
    }

    /// The layers loaded for `rules` (seeds in play, ascending).
    pub fn layers(&self, rules: &Rules) -> Vec<u32> {
        self.set(rules).map(|s| s.tables.layers()).unwrap_or_default()
    }

    /// The tablebase over the layers loaded for `rules` (the same one, not
    /// a copy), for the engine's oracle; `None` if none are loaded.
    pub fn tablebase(&self, rules: &Rules) -> Option<Arc<Tablebase>> {
        self.set(rules).map(|s| Arc::clone(&s.tables))
    }

    fn set(&self, rules: &Rules) -> Option<&RuleSet> {
        self.sets.iter().find(|s| same_tables(&s.rules, rules))
    }

    /// The exact values of `pos`, or `None` if the loaded tables do not
    /// hold it (no tables for its rules, a layer not loaded, closed holes,
    /// options the tables do not cover).
    pub fn probe(&self, pos: &Position) -> Option<ExactValues> {
        let tb = &self.set(pos.rules())?.tables;
        let (value, moves) = if pos.is_over() {
            tb.value(pos).ok()?;
            (0, Vec::new())
        } else {
            (tb.value(pos).ok()?, tb.move_values(pos).ok()?)
        };
        Some(ExactValues {
            value,
            moves: moves
                .into_iter()
                .map(|(m, value)| MoveValue {
                    token: pos.move_token(m).to_string(),
                    value,
                })
                .collect(),
            seeds: pos.in_play() as u32,
            proved: "tables",
        })
    }
}

/// Endgame tables on this device (`new Tables()`).
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Tables(OfflineTables);

#[wasm_bindgen]
impl Tables {
    /// No tables yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Loads layer `seeds` of the rules `options` (`{variant, holes}`)
    /// from the bytes of its compact file (a `Uint8Array`, as `GET
    /// /api/tables` lists them). Throws an `Error` if the bytes are not
    /// that layer's file (another layer's or rule set's, cut short,
    /// corrupt) or the rules are not covered.
    pub fn load(&mut self, options: JsValue, seeds: u32, bytes: Vec<u8>) -> Result<(), Error> {
        let rules = parse_options(&json_of(&options, "options")?)?;
        self.0
            .load(rules, seeds, bytes)
            .map_err(|e| Error::Tables(e.to_string()))
    }

    /// The tablebase of the tables loaded for `rules`, for an engine.
    pub(crate) fn tablebase(&self, rules: &Rules) -> Option<Arc<Tablebase>> {
        self.0.tablebase(rules)
    }

    /// The layers loaded for the rules `options`: seeds in play, ascending.
    pub fn layers(&self, options: JsValue) -> Result<Vec<u32>, Error> {
        let rules = parse_options(&json_of(&options, "options")?)?;
        Ok(self.0.layers(&rules))
    }

    /// The exact values of `position` (the one-line notation, as
    /// `Game.notation()` writes it) under the rules `options`: `{value,
    /// moves: [{move, value}], seeds, proved: "tables"}` as `GET
    /// /api/tablebase` answers, or `null` if the loaded tables do not hold
    /// it. Throws an `Error` for invalid options or notation.
    pub fn probe(&self, options: JsValue, position: &str) -> Result<JsValue, Error> {
        let rules = parse_options(&json_of(&options, "options")?)?;
        let pos = Position::from_notation(rules, position).map_err(|e| Error::Setup(e.to_string()))?;
        Ok(self.0.probe(&pos).map_or(JsValue::NULL, |v| to_js(&v)))
    }
}

#[cfg(test)]
mod tests {
    use hoyito_core::Variant;
    use hoyito_tablebase::compact::{compact_file_name, compact_tables, CompactOptions};
    use hoyito_tablebase::file::rules_dir;
    use hoyito_tablebase::BuildOptions;

    use super::*;

    #[test]
    fn loaded_layers_answer_as_the_files_and_refuse_foreign_bytes() {
        let rules = Rules::new(Variant::III, 4).unwrap();
        let dir = tempfile::tempdir().unwrap();
        Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |_| {}).unwrap();
        compact_tables(rules, dir.path(), CompactOptions::default(), None, |_| {}).unwrap();
        let files = Tablebase::open(rules, dir.path()).unwrap();
        let read = |s: u32| std::fs::read(rules_dir(dir.path(), &rules).join(compact_file_name(s))).unwrap();

        let mut t = OfflineTables::default();
        let pos = Position::from_notation(rules, "2,0,1,3/0,2,0,4 s 10-10").unwrap();
        assert_eq!(pos.in_play(), 12);
        assert_eq!(t.probe(&pos), None);
        // Layers in any order; a wrong file is refused and changes nothing.
        t.load(rules, 12, read(12)).unwrap();
        assert!(matches!(
            t.load(rules, 8, read(4)),
            Err(TablebaseError::Corrupt { .. })
        ));
        t.load(rules, 4, read(4)).unwrap();
        assert_eq!(t.layers(&rules), [4, 12]);
        t.load(rules, 8, read(8)).unwrap();
        assert_eq!(t.layers(&rules), [4, 8, 12]);
        let got = t.probe(&pos).unwrap();
        assert_eq!(got.value, files.value(&pos).unwrap());
        let want: Vec<(String, i32)> = files
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .map(|(m, v)| (pos.move_token(m).to_string(), v))
            .collect();
        let moves: Vec<(String, i32)> = got.moves.iter().map(|m| (m.token.clone(), m.value)).collect();
        assert_eq!(moves, want);
        assert_eq!((got.seeds, got.proved), (12, "tables"));
        // Other rules, more seeds than loaded: not held.
        let other = Rules::new(Variant::II, 4).unwrap();
        assert_eq!(
            t.probe(&Position::from_notation(other, "2,0,1,3/0,2,0,4 s 10-10").unwrap()),
            None
        );
        assert_eq!(
            t.probe(&Position::from_notation(rules, "2,0,1,3/0,2,4,4 s 8-8").unwrap()),
            None
        );
    }
}
