//! [`RulesSpec`] from JSON (and any self-describing format) through the
//! table: missing options take their defaults, an unknown one is refused
//! with the table's error text, a value goes through
//! [`RulesSpec::set_value`] (so the aliases of the text front ends are
//! accepted: `"per-player"`, `"2"`). [`RulesOption`] serialises as the
//! metadata the web app builds its form from.

use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{OptionKind, OptionValue, RulesOption};
use crate::rules::RulesSpec;

/// Any value of a self-describing format, kept to be checked against the option.
enum Raw {
    Text(String),
    Number(u64),
    Flag(bool),
    /// Anything else, as it would be written.
    Other(String),
}

impl Raw {
    fn shown(&self) -> String {
        match self {
            Raw::Text(s) | Raw::Other(s) => s.clone(),
            Raw::Number(n) => n.to_string(),
            Raw::Flag(b) => b.to_string(),
        }
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string, a number or a boolean")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
                Ok(Raw::Flag(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
                Ok(Raw::Number(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
                Ok(u64::try_from(v).map_or_else(|_| Raw::Other(v.to_string()), Raw::Number))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
                Ok(Raw::Other(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
                Ok(Raw::Text(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Raw, E> {
                Ok(Raw::Other("null".into()))
            }
            fn visit_none<E>(self) -> Result<Raw, E> {
                Ok(Raw::Other("null".into()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                while a.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(Raw::Other("an array".into()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                while a.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
                Ok(Raw::Other("an object".into()))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for RulesSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RulesSpec, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RulesSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of rules options")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RulesSpec, A::Error> {
                let mut spec = RulesSpec::default();
                while let Some(key) = map.next_key::<String>()? {
                    let option = RulesOption::named(&key)
                        .ok_or_else(|| de::Error::custom(RulesOption::unknown(&key)))?;
                    let raw: Raw = map.next_value()?;
                    let value = match (option.kind, &raw) {
                        (OptionKind::Choice(_), Raw::Text(s)) => spec.set_option(option.id, s),
                        // Any count a spec holds; its limits are checked
                        // with the rules (`Rules::try_from`, the same text).
                        (OptionKind::Number { .. }, Raw::Number(n)) => match u8::try_from(*n) {
                            Ok(n) => {
                                spec.set_count(option.id, n);
                                Ok(())
                            }
                            Err(_) => Err(option.bad_value(n)),
                        },
                        (OptionKind::Flag, Raw::Flag(b)) => spec.set_value(option.id, OptionValue::Flag(*b)),
                        _ => Err(option.bad_value(raw.shown())),
                    };
                    value.map_err(de::Error::custom)?;
                }
                Ok(spec)
            }
        }
        d.deserialize_map(V)
    }
}

impl Serialize for OptionValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            OptionValue::Choice(c) => s.serialize_str(c),
            OptionValue::Number(n) => s.serialize_u32(*n),
            OptionValue::Flag(b) => s.serialize_bool(*b),
        }
    }
}

/// `{"name", "tag", "flag", "type": "choice"|"number"|"flag", "values"
/// (choices) or "min"/"max" (numbers), "default", "section", "meaning"}`.
impl Serialize for RulesOption {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", self.name)?;
        m.serialize_entry("tag", self.tag)?;
        m.serialize_entry("flag", &self.flag())?;
        match self.kind {
            OptionKind::Choice(values) => {
                m.serialize_entry("type", "choice")?;
                m.serialize_entry("values", values)?;
            }
            OptionKind::Number { min, max } => {
                m.serialize_entry("type", "number")?;
                m.serialize_entry("min", &min)?;
                m.serialize_entry("max", &max)?;
            }
            OptionKind::Flag => m.serialize_entry("type", "flag")?,
        }
        m.serialize_entry("default", &self.default_value())?;
        m.serialize_entry("section", self.section)?;
        m.serialize_entry("meaning", self.meaning)?;
        m.end()
    }
}
