//! The rules options of `new Game(options)`, `new Match(options)` and
//! `randomPlayouts`, and `rulesOptions()`: both the core's table of options
//! ([`hoyito_core::RULES_OPTIONS`]).

use hoyito_core::{Rules, RulesSpec};

use crate::Error;

/// Reads the rules from the JSON text of an options object, through the
/// core's table of options (`RulesSpec`'s deserialisation): missing options
/// take their standard values; an unknown name or a bad value is refused
/// with the core's text.
pub fn parse_options(json: &str) -> Result<Rules, Error> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::Options(e.to_string()))?;
    let value = match value {
        serde_json::Value::Null => serde_json::Value::Object(Default::default()),
        serde_json::Value::Object(map) => serde_json::Value::Object(map),
        _ => return Err(Error::Options("options must be an object".into())),
    };
    let spec: RulesSpec = serde_json::from_value(value).map_err(|e| Error::Options(e.to_string()))?;
    Ok(Rules::try_from(spec)?)
}

/// The core's table of rules options as JSON (`rulesOptions()`): for each
/// its `name`, `tag`, `flag`, `type`, `values` or `min`/`max`, `default`,
/// `section` and `meaning`. The web app's new-game form is made from it.
pub fn rules_options() -> serde_json::Value {
    serde_json::to_value(hoyito_core::RULES_OPTIONS).expect("the options serialise")
}

#[cfg(test)]
mod tests {
    use hoyito_core::{DirectionRule, Variant, RULES_OPTIONS};

    use super::*;

    #[test]
    fn options_take_the_rules_md_spellings_and_refuse_the_rest() {
        let r =
            parse_options(r#"{"variant":"III","holes":8,"direction":"per_move","capture_side":"opponent"}"#)
                .unwrap();
        assert_eq!(r.variant(), Variant::III);
        assert_eq!(r.holes(), 8);
        assert_eq!(parse_options("null").unwrap(), Rules::default());
        // Old spellings of the text front ends are accepted too.
        let r = parse_options(r#"{"direction":"per-player","variant":"2"}"#).unwrap();
        assert_eq!(
            (r.variant(), r.direction()),
            (Variant::II, DirectionRule::PerPlayer)
        );
        for (bad, says) in [
            (
                r#"{"variant":"IV"}"#,
                "invalid options: bad value \"IV\" for variant: expected I, II or III",
            ),
            (
                r#"{"holes":13}"#,
                "invalid rules: bad value \"13\" for holes: expected a whole number from 4 to 12",
            ),
            (
                r#"{"colour":"red"}"#,
                "invalid options: unknown rules option \"colour\": expected one of variant, holes, seeds, \
                 skip_origin, direction, two_hole_opening, repetition, capture_side",
            ),
            (
                r#"{"seeds":0}"#,
                "invalid rules: bad value \"0\" for seeds: expected a whole number from 1 to 30",
            ),
            (
                r#"{"holes":12,"seeds":11}"#,
                "invalid rules: 11 seeds per hole on 2x12",
            ),
            ("[1]", "invalid options: options must be an object"),
        ] {
            let e = parse_options(bad).unwrap_err().to_string();
            assert!(e.starts_with(says), "{bad}: {e}");
        }
    }

    #[test]
    fn rules_options_are_the_core_table() {
        let meta = rules_options();
        let names: Vec<&str> = meta
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, RULES_OPTIONS.map(|o| o.name));
        assert_eq!(meta[1]["type"], "number");
        assert_eq!(
            (meta[1]["min"].as_u64(), meta[1]["max"].as_u64()),
            (Some(4), Some(12))
        );
        assert_eq!(meta[7]["values"], serde_json::json!(["any", "opponent"]));
    }
}
