//! The Python exceptions: every one derives from `ValueError` through
//! `hoyito.HoyitoError`, so `except ValueError` catches all bad input.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

create_exception!(
    hoyito,
    HoyitoError,
    PyValueError,
    "Base class of every hoyito error (a ValueError)."
);
create_exception!(
    hoyito,
    RulesError,
    HoyitoError,
    "A rules option with a value that is not allowed: the message names the option and the allowed values."
);
create_exception!(
    hoyito,
    IllegalMove,
    HoyitoError,
    "A move token or action that cannot be played here. Attributes: `move` (what was given), \
     `legal_moves` (the legal move tokens). The game is unchanged."
);
create_exception!(
    hoyito,
    NotationError,
    HoyitoError,
    "A position notation or game record that cannot be read."
);
create_exception!(
    hoyito,
    EngineError,
    HoyitoError,
    "Engine settings that are not allowed (level, time, depth, hash size, engine kind)."
);
create_exception!(
    hoyito,
    TablebaseError,
    HoyitoError,
    "A tablebase that cannot be opened, built or probed (missing layers, unsupported rules, bad files)."
);

/// An `IllegalMove` with the reason, the move as given and the legal moves
/// (also as attributes `move` and `legal_moves`).
pub(crate) fn illegal(py: Python<'_>, given: &str, reason: &str, legal: &[String]) -> PyErr {
    let list = if legal.is_empty() {
        "none".to_string()
    } else {
        legal.join(" ")
    };
    let err = IllegalMove::new_err(format!("{reason}; legal moves: {list}"));
    let value = err.value(py);
    // Attributes are a convenience: the message already says everything.
    let _ = value.setattr("move", given);
    if let Ok(l) = PyList::new(py, legal) {
        let _ = value.setattr("legal_moves", l);
    }
    err
}

/// A `RulesError` from the core's validation error.
pub(crate) fn rules_err(e: impl std::fmt::Display) -> PyErr {
    RulesError::new_err(e.to_string())
}

/// A `NotationError` with context.
pub(crate) fn notation_err(e: impl std::fmt::Display) -> PyErr {
    NotationError::new_err(e.to_string())
}

/// A `TablebaseError` from the tablebase library's error.
pub(crate) fn tablebase_err(e: impl std::fmt::Display) -> PyErr {
    TablebaseError::new_err(e.to_string())
}

/// An `EngineError` with a message.
pub(crate) fn engine_err(msg: impl Into<String>) -> PyErr {
    EngineError::new_err(msg.into())
}
