//! [`UniqueKeys`]: a JSON value read so that no object has a key twice.
//!
//! `serde_json` keeps the last of duplicated keys, so without this check
//! `{"mode": "online", "mode": "engine"}` would quietly make an engine game
//! while a reader of the body (a proxy, a log, another parser) may see an
//! online one. Every JSON body of the API is read through it
//! ([`crate::http::extract::ApiJson`]).

use std::fmt;

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON value in which no object, at any depth, has the same key twice.
/// Reading an object that has one fails with an error naming the key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UniqueKeys(pub(crate) Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor).map(UniqueKeys)
    }
}

/// Builds a [`Value`] as `serde_json`'s own visitor does, but refuses a key
/// seen before in the same object.
struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<Value, E> {
        // JSON has no NaN or infinity, so this is always a number.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E: Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        UniqueKeys::deserialize(d).map(|v| v.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(UniqueKeys(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "duplicate key `{key}`: a key may appear only once in an object"
                )));
            }
            let UniqueKeys(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::UniqueKeys;
    use serde_json::json;

    fn read(text: &str) -> Result<serde_json::Value, String> {
        serde_json::from_str::<UniqueKeys>(text)
            .map(|v| v.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text =
            r#"{"a": [1, -2, 2.5, "x", null, true, {"b": {}}], "c": {"d": [[]]}, "e": 18446744073709551615}"#;
        assert_eq!(
            read(text).unwrap(),
            serde_json::from_str::<serde_json::Value>(text).unwrap()
        );
        // The same key in different objects is no duplicate.
        assert_eq!(
            read(r#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#).unwrap()["b"][1]["a"],
            json!(3)
        );
    }

    #[test]
    fn a_duplicated_key_at_any_depth_is_named() {
        for (text, key) in [
            (r#"{"mode": "online", "mode": "engine"}"#, "mode"),
            (
                r#"{"rules": {"variant": "I", "holes": 6, "variant": "II"}}"#,
                "variant",
            ),
            (r#"{"a": [{"b": 1}, {"c": [{"d": 1, "d": 1}]}]}"#, "d"),
            (r#"[{"x": 1, "x": 2}]"#, "x"),
        ] {
            let e = read(text).expect_err(text);
            assert!(e.contains(&format!("duplicate key `{key}`")), "{text}: {e}");
        }
    }
}
