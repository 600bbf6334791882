//! Rules options from Python arguments (RULES.md spellings) and back.

use hoyito_core::{CaptureSide, DirectionRule, Repetition, Rules, RulesSpec, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::errors::{rules_err, RulesError};

/// The names of the rules options, in signature order.
pub(crate) const OPTION_NAMES: [&str; 8] = [
    "variant",
    "holes",
    "seeds",
    "skip_origin",
    "direction",
    "two_hole_opening",
    "repetition",
    "capture_side",
];

/// Reads one option into `spec`.
fn set_option(spec: &mut RulesSpec, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let text = |value: &Bound<'_, PyAny>| -> PyResult<String> {
        if value.is_instance_of::<PyString>() {
            value.extract::<String>()
        } else {
            Err(PyTypeError::new_err(format!(
                "rules option {name} must be a str, not {}",
                value.get_type().name()?
            )))
        }
    };
    let flag = |value: &Bound<'_, PyAny>| -> PyResult<bool> {
        if value.is_instance_of::<PyBool>() {
            value.extract::<bool>()
        } else {
            Err(PyTypeError::new_err(format!(
                "rules option {name} must be True or False, not {}",
                value.get_type().name()?
            )))
        }
    };
    let count = |value: &Bound<'_, PyAny>, expected: &str| -> PyResult<u8> {
        if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "rules option {name} must be an int, not {}",
                value.get_type().name()?
            )));
        }
        let v: i128 = value.extract()?;
        u8::try_from(v)
            .map_err(|_| RulesError::new_err(format!("{name} {v} is not allowed: expected {expected}")))
    };
    match name {
        "variant" => {
            // "II", "Hoyito II" or the number 2.
            let s = if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
                value.extract::<i64>()?.to_string()
            } else {
                text(value)?
            };
            spec.variant = s.parse::<Variant>().map_err(rules_err)?;
        }
        "holes" => spec.holes = count(value, "4 to 12")?,
        "seeds" => spec.seeds = count(value, "1 or more, at most 240 seeds on the board")?,
        "skip_origin" => spec.skip_origin = flag(value)?,
        "direction" => spec.direction = text(value)?.parse::<DirectionRule>().map_err(rules_err)?,
        "two_hole_opening" => spec.two_hole_opening = flag(value)?,
        "repetition" => spec.repetition = text(value)?.parse::<Repetition>().map_err(rules_err)?,
        "capture_side" => spec.capture_side = text(value)?.parse::<CaptureSide>().map_err(rules_err)?,
        other => {
            return Err(PyTypeError::new_err(format!(
                "unknown rules option {other:?}: expected one of {}",
                OPTION_NAMES.join(", ")
            )))
        }
    }
    Ok(())
}

/// Validated rules from keyword arguments (any subset of [`OPTION_NAMES`];
/// the others keep their defaults).
pub(crate) fn from_kwargs(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut spec = RulesSpec::default();
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let name: String = k.extract()?;
            set_option(&mut spec, &name, &v)?;
        }
    }
    Rules::try_from(spec).map_err(rules_err)
}

/// Validated rules from the explicit arguments of `Game(...)` and `Match(...)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn from_args(
    variant: &str,
    holes: i64,
    seeds: i64,
    skip_origin: bool,
    direction: &str,
    two_hole_opening: bool,
    repetition: &str,
    capture_side: &str,
) -> PyResult<Rules> {
    let count = |name: &str, v: i64, expected: &str| {
        u8::try_from(v)
            .map_err(|_| RulesError::new_err(format!("{name} {v} is not allowed: expected {expected}")))
    };
    let spec = RulesSpec {
        variant: variant.parse::<Variant>().map_err(rules_err)?,
        holes: count("holes", holes, "4 to 12")?,
        seeds: count("seeds", seeds, "1 or more, at most 240 seeds on the board")?,
        skip_origin,
        direction: direction.parse::<DirectionRule>().map_err(rules_err)?,
        two_hole_opening,
        repetition: repetition.parse::<Repetition>().map_err(rules_err)?,
        capture_side: capture_side.parse::<CaptureSide>().map_err(rules_err)?,
    };
    Rules::try_from(spec).map_err(rules_err)
}

/// The rules as a dict of the eight options, RULES.md spellings.
pub(crate) fn to_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("variant", rules.variant().name())?;
    d.set_item("holes", rules.holes())?;
    d.set_item("seeds", rules.seeds())?;
    d.set_item("skip_origin", rules.skip_origin())?;
    d.set_item("direction", rules.direction().name())?;
    d.set_item("two_hole_opening", rules.two_hole_opening())?;
    d.set_item("repetition", rules.repetition().name())?;
    d.set_item("capture_side", rules.capture_side().name())?;
    Ok(d)
}

/// rules_dict(**rules) -> dict
///
/// Validates rules options and returns all eight of them with their
/// defaults filled in, in the spellings of RULES.md: `variant` ("I", "II",
/// "III"), `holes` (4 to 12), `seeds` (per hole), `skip_origin` (bool),
/// `direction` ("fixed", "per_player", "per_move"), `two_hole_opening`
/// (bool), `repetition` ("even", "own_row"), `capture_side` ("any",
/// "opponent"). Raises `RulesError` (a `ValueError`) naming a bad option
/// and its allowed values, `TypeError` for an unknown option name.
#[pyfunction]
#[pyo3(signature = (**rules))]
pub(crate) fn rules_dict<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    to_dict(py, &from_kwargs(rules)?)
}
