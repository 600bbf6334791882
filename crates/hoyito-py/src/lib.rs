//! # hoyito-py
//!
//! The native part of the `hoyito` Python package (module `hoyito._hoyito`),
//! built by maturin: thin PyO3 classes over [`hoyito_core`] (games,
//! matches, notation, records, the JSON state), [`hoyito_engine`]
//! (analysis, engine moves) and [`hoyito_tablebase`] (probes), plus the
//! Rust loops researchers need from Python: random playouts, a batched
//! game for vectorised reinforcement learning and an AlphaZero-style tree
//! search (PUCT) whose leaves a Python callable evaluates. No rule is
//! implemented here: every move, legality check and ending goes through
//! `hoyito-core`.
//!
//! Every Rust error becomes a Python exception derived from `ValueError`
//! (see [`errors`]); nothing panics on user input.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use pyo3::prelude::*;

mod actions;
mod classes;
mod convert;
mod engine;
pub mod errors;
mod game;
mod interrupt;
mod matchplay;
mod puct;
mod rollout;
mod rules;
mod spiel;
mod vector;

/// The `hoyito._hoyito` module.
#[pymodule]
fn _hoyito(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("HoyitoError", py.get_type::<errors::HoyitoError>())?;
    m.add("RulesError", py.get_type::<errors::RulesError>())?;
    m.add("IllegalMove", py.get_type::<errors::IllegalMove>())?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add("EngineError", py.get_type::<errors::EngineError>())?;
    m.add("TablebaseError", py.get_type::<errors::TablebaseError>())?;
    m.add_class::<classes::PyGame>()?;
    m.add_class::<classes::PyMatch>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyTablebase>()?;
    m.add_class::<vector::PyVectorGame>()?;
    m.add_class::<spiel::PySpielState>()?;
    m.add_class::<puct::PyPuctSearch>()?;
    m.add_function(wrap_pyfunction!(vector::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(rules::rules_dict, m)?)?;
    m.add_function(wrap_pyfunction!(rules::rules_options, m)?)?;
    m.add("RULES_OPTIONS", rules::names(py)?)?;
    m.add_function(wrap_pyfunction!(actions::action_count, m)?)?;
    m.add_function(wrap_pyfunction!(actions::observation_size, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
