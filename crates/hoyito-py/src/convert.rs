//! Rust values to Python objects.

use hoyito_core::{Position, State};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

/// A JSON value as the Python object `json.loads` would give.
pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, None, Some(f)) => f.into_pyobject(py)?.into_any(),
            _ => py.None().into_bound(py),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// The RULES.md §7 state of a position as a dict (exactly the JSON the
/// core's [`State`] serialises to).
pub(crate) fn state_dict<'py>(py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(State::from_position(pos))
        .map_err(|e| PyRuntimeError::new_err(format!("cannot write the state: {e}")))?;
    json_to_py(py, &value)
}
