//! The documents' tables of rules options are made from the core's table,
//! [`RULES_OPTIONS`]: the command line's flags (README.md), the UGI options
//! (docs/PROTOCOL.md), the JSON fields of the server and the WebAssembly
//! module (docs/API.md, docs/WASM.md) and the Python keywords
//! (docs/PYTHON.md). Each row is found by its first cell; run with
//! `HOYITO_UPDATE_DOCS=1` to rewrite the rows from the table.

use std::path::{Path, PathBuf};

use hoyito_core::{OptionKind, OptionValue, RulesOption, RULES_OPTIONS};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn meaning(o: &RulesOption) -> String {
    format!("{} (RULES.md {})", o.meaning, o.section)
}

fn ticked(values: &[&str], quote: &str) -> String {
    values
        .iter()
        .map(|v| format!("`{quote}{v}{quote}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// README.md: `| flag | values | meaning (RULES.md) |`.
fn cli_row(o: &RulesOption) -> (String, String) {
    let default = o.default_value().to_string();
    let values = match o.kind {
        OptionKind::Choice(values) => values
            .iter()
            .map(|v| {
                if *v == default {
                    format!("`{v}` (default)")
                } else {
                    format!("`{v}`")
                }
            })
            .collect::<Vec<_>>()
            .join(", "),
        OptionKind::Number { min, max } => format!("{min} to {max} (default {default})"),
        OptionKind::Flag => "off unless given; `=yes`/`=no`".to_string(),
    };
    let key = format!("| `{}` |", o.flag());
    (key.clone(), format!("{key} {values} | {} |", meaning(o)))
}

/// docs/PROTOCOL.md: `| Option | Type | Default | Values |`.
fn ugi_row(o: &RulesOption) -> (String, String) {
    let (kind, values) = match o.kind {
        OptionKind::Choice(values) => ("combo", ticked(values, "")),
        OptionKind::Number { min, max } => ("spin", format!("{min} to {max}")),
        OptionKind::Flag => ("check", "`true`, `false`".to_string()),
    };
    let key = format!("| `{}` |", o.tag);
    (
        key.clone(),
        format!(
            "{key} {kind} | `{}` | {values}: {} |",
            o.default_value(),
            meaning(o)
        ),
    )
}

/// docs/API.md and docs/WASM.md: `| field | values | standard | meaning (RULES.md) |`.
fn json_row(o: &RulesOption, t: &str, f: &str) -> (String, String) {
    let values = match o.kind {
        OptionKind::Choice(values) => ticked(values, "\""),
        OptionKind::Number { min, max } => format!("{min} to {max}"),
        OptionKind::Flag => format!("`{t}`, `{f}`"),
    };
    let default = match o.default_value() {
        OptionValue::Choice(c) => format!("`\"{c}\"`"),
        OptionValue::Number(n) => format!("`{n}`"),
        OptionValue::Flag(b) => format!("`{}`", if b { t } else { f }),
    };
    let key = format!("| `{}` |", o.name);
    (
        key.clone(),
        format!("{key} {values} | {default} | {} |", meaning(o)),
    )
}

/// Checks (or, with `HOYITO_UPDATE_DOCS=1`, rewrites) the rows of `file`.
fn check(file: &str, rows: impl Iterator<Item = (String, String)>) -> Vec<String> {
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut wrong = Vec::new();
    for (key, row) in rows {
        let found: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with(&key)).collect();
        match found.as_slice() {
            [i] if lines[*i] == row => {}
            [i] => {
                wrong.push(format!("{file}: {row}"));
                lines[*i] = row;
            }
            _ => wrong.push(format!(
                "{file}: {} rows start with {key}; want one: {row}",
                found.len()
            )),
        }
    }
    if !wrong.is_empty() && std::env::var_os("HOYITO_UPDATE_DOCS").is_some() {
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(&path, out).unwrap();
    }
    wrong
}

#[test]
fn the_documents_tables_are_the_core_table() {
    let mut wrong = Vec::new();
    wrong.extend(check("README.md", RULES_OPTIONS.iter().map(cli_row)));
    wrong.extend(check("docs/PROTOCOL.md", RULES_OPTIONS.iter().map(ugi_row)));
    wrong.extend(check(
        "docs/WASM.md",
        RULES_OPTIONS.iter().map(|o| json_row(o, "true", "false")),
    ));
    wrong.extend(check(
        "docs/API.md",
        RULES_OPTIONS.iter().map(|o| json_row(o, "true", "false")),
    ));
    wrong.extend(check(
        "docs/PYTHON.md",
        RULES_OPTIONS.iter().map(|o| json_row(o, "True", "False")),
    ));
    assert!(
        wrong.is_empty(),
        "rows differ from the table (HOYITO_UPDATE_DOCS=1 rewrites them):\n{}",
        wrong.join("\n")
    );
}
