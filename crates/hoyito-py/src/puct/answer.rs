//! What a [`PuctSearch`](super::PyPuctSearch)'s evaluator returns: read
//! from any numeric array or nested list, and checked (shapes, finite
//! non-negative priors, values from -1 to 1) with errors that name the
//! entry.

use numpy::{PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::errors::HoyitoError;

pub(super) fn value_err(msg: impl Into<String>) -> PyErr {
    HoyitoError::new_err(msg.into())
}

/// A float array from the evaluator as f64 (any numeric array or nested list).
fn floats<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<(Vec<usize>, Vec<f64>)> {
    if let Ok(a) = obj.extract::<PyReadonlyArrayDyn<'_, f32>>() {
        return Ok((
            a.shape().to_vec(),
            a.as_array().iter().map(|&x| f64::from(x)).collect(),
        ));
    }
    if let Ok(a) = obj.extract::<PyReadonlyArrayDyn<'_, f64>>() {
        return Ok((a.shape().to_vec(), a.as_array().iter().copied().collect()));
    }
    let py = obj.py();
    let arr = py
        .import("numpy")?
        .call_method1("asarray", (obj, "float64"))
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "the evaluator's {what} must be a numeric array, not {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
    let arr = arr.cast_into::<numpy::PyArrayDyn<f64>>()?;
    let ro = arr.readonly();
    Ok((ro.shape().to_vec(), ro.as_array().iter().copied().collect()))
}

fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Reads and checks what the evaluator returned for `k` positions.
pub(super) fn read_answer(answer: &Bound<'_, PyAny>, k: usize, na: usize) -> PyResult<(Vec<f64>, Vec<f64>)> {
    let (p, v) = answer
        .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "the evaluator must return a pair (priors, values), not {}",
                answer
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
    let (pshape, priors) = floats(&p, "priors")?;
    if pshape != [k, na] {
        return Err(value_err(format!(
            "the evaluator's priors have shape {}: expected ({k}, {na}), one row over the actions per position",
            shape_text(&pshape)
        )));
    }
    let (vshape, values) = floats(&v, "values")?;
    if vshape != [k] && vshape != [k, 1] {
        return Err(value_err(format!(
            "the evaluator's values have shape {}: expected ({k},), one per position",
            shape_text(&vshape)
        )));
    }
    for (i, &x) in priors.iter().enumerate() {
        if !x.is_finite() || x < 0.0 {
            return Err(value_err(format!(
                "the evaluator's prior [{}, {}] is {x}: expected a finite number >= 0",
                i / na,
                i % na
            )));
        }
    }
    for (i, &x) in values.iter().enumerate() {
        if !(-1.0..=1.0).contains(&x) {
            return Err(value_err(format!(
                "the evaluator's value [{i}] is {x}: expected a number from -1 to 1 (the mover's view)"
            )));
        }
    }
    Ok((priors, values))
}
