//! Rules options from Python arguments (RULES.md spellings) and back.

use hoyito_core::{OptionKind, OptionValue, Rules, RulesOption, RulesSpec, RULES_OPTIONS};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::errors::rules_err;

/// Reads one option into `spec`: its name and kind from the core's table,
/// the value parsed by the core (so every spelling and error text is the
/// core's). An unknown name or a value of the wrong Python type is a
/// `TypeError`, a value the option does not take a `RulesError`.
fn set_option(spec: &mut RulesSpec, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let option = RulesOption::named(name)
        .ok_or_else(|| PyTypeError::new_err(RulesOption::unknown(name).to_string()))?;
    let is_int = value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>();
    let wrong = |what: &str| -> PyResult<PyErr> {
        Ok(PyTypeError::new_err(format!(
            "rules option {name} must be {what}, not {}",
            value.get_type().name()?
        )))
    };
    let text = match option.kind {
        OptionKind::Choice(_) if value.is_instance_of::<PyString>() => value.extract::<String>()?,
        // "II", "Hoyito II" or the number 2.
        // Any size of int: the core refuses what is out of range.
        OptionKind::Choice(_) if option.name == "variant" && is_int => value.str()?.to_string(),
        OptionKind::Choice(_) => return Err(wrong("a str")?),
        OptionKind::Number { .. } if is_int => value.str()?.to_string(),
        OptionKind::Number { .. } => return Err(wrong("an int")?),
        OptionKind::Flag if value.is_instance_of::<PyBool>() => value.extract::<bool>()?.to_string(),
        OptionKind::Flag => return Err(wrong("True or False")?),
    };
    spec.set_option(option.id, &text).map_err(rules_err)
}

/// Validated rules from keyword arguments (any subset of `RULES_OPTIONS`;
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

/// Validated rules from the explicit arguments of `Game(...)` and
/// `Match(...)`, in the table's order (None: the default), read as the
/// keyword arguments of `rules_dict` are.
pub(crate) fn from_args(values: [Option<&Bound<'_, PyAny>>; 8]) -> PyResult<Rules> {
    let mut spec = RulesSpec::default();
    for (o, v) in RULES_OPTIONS.iter().zip(values) {
        if let Some(v) = v {
            set_option(&mut spec, o.name, v)?;
        }
    }
    Rules::try_from(spec).map_err(rules_err)
}

fn py_value<'py>(py: Python<'py>, v: OptionValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        OptionValue::Choice(c) => PyString::new(py, c).into_any(),
        OptionValue::Number(n) => n.into_pyobject(py)?.into_any(),
        OptionValue::Flag(b) => PyBool::new(py, b).to_owned().into_any(),
    })
}

/// The rules as a dict of the eight options, RULES.md spellings.
pub(crate) fn to_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (o, v) in rules.spec().values() {
        d.set_item(o.name, py_value(py, v)?)?;
    }
    Ok(d)
}

/// The names of the options, in order: the module's `RULES_OPTIONS`.
pub(crate) fn names(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, RULES_OPTIONS.iter().map(|o| o.name))
}

/// rules_options() -> list[dict]
///
/// The rules options as the core's table describes them, in order: for
/// each `name` (the keyword), `tag` (record tag and UGI option), `flag`
/// (command line), `type` (`"choice"`, `"number"` or `"flag"`), `values`
/// (choices) or `min` and `max` (numbers), `default`, `section` (of
/// RULES.md) and `meaning`.
#[pyfunction]
pub(crate) fn rules_options(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for o in &RULES_OPTIONS {
        let d = PyDict::new(py);
        d.set_item("name", o.name)?;
        d.set_item("tag", o.tag)?;
        d.set_item("flag", o.flag())?;
        match o.kind {
            OptionKind::Choice(values) => {
                d.set_item("type", "choice")?;
                d.set_item("values", PyTuple::new(py, values.iter())?)?;
            }
            OptionKind::Number { min, max } => {
                d.set_item("type", "number")?;
                d.set_item("min", min)?;
                d.set_item("max", max)?;
            }
            OptionKind::Flag => d.set_item("type", "flag")?,
        }
        d.set_item("default", py_value(py, o.default_value())?)?;
        d.set_item("section", o.section)?;
        d.set_item("meaning", o.meaning)?;
        list.append(d)?;
    }
    Ok(list)
}

/// rules_dict(**rules) -> dict
///
/// Validates rules options and returns all eight of them with their
/// defaults filled in, in the spellings of RULES.md (`rules_options()`
/// lists them with their values): `variant` ("I", "II", "III"), `holes`
/// (4 to 12), `seeds` (per hole, 1 to 30, at most 240 on the board),
/// `skip_origin` (bool), `direction` ("fixed", "per_player", "per_move"),
/// `two_hole_opening` (bool), `repetition` ("even", "own_row"),
/// `capture_side` ("any", "opponent"). Raises `RulesError` (a
/// `ValueError`) naming a bad option and its allowed values, `TypeError`
/// for an unknown option name or a value of the wrong type.
#[pyfunction]
#[pyo3(signature = (**rules))]
pub(crate) fn rules_dict<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    to_dict(py, &from_kwargs(rules)?)
}
