//! Nicknames: no accounts, just a name a player gives when creating or
//! joining a game, checked here and shown to everyone as plain text.

use hoyito_core::Side;
use serde::Serialize;

use crate::error::ApiError;
use crate::store::Meta;

/// Longest nickname, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 24;

/// A nickname as given, trimmed; `None` stays `None`.
///
/// # Errors
/// 422 `invalid_name` if it is empty after trimming, longer than
/// [`MAX_NAME_CHARS`] characters, or holds a control character (a new line,
/// a tab, a bidirectional override).
pub fn check_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    let name = name.trim();
    let bad = |why: &str| ApiError::unprocessable("invalid_name", format!("the nickname {why}"));
    if name.is_empty() {
        return Err(bad("is empty: leave it out instead"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(bad(&format!("is longer than {MAX_NAME_CHARS} characters")));
    }
    if name.chars().any(is_forbidden) {
        return Err(bad("holds a control character"));
    }
    Ok(Some(name.to_string()))
}

/// Control characters, and the invisible ones that reorder or hide text
/// (bidirectional overrides and isolates, zero-width marks).
pub fn is_forbidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// The players' nicknames in a game view.
#[derive(Debug, Clone, Serialize)]
pub struct NamesView {
    /// South's nickname, if given.
    pub south: Option<String>,
    /// North's nickname, if given.
    pub north: Option<String>,
}

impl NamesView {
    /// The names in `meta`.
    pub fn of(meta: &Meta) -> NamesView {
        NamesView {
            south: meta.names[Side::South].clone(),
            north: meta.names[Side::North].clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded_and_plain() {
        assert_eq!(check_name(None), Ok(None));
        assert_eq!(check_name(Some("  Ana María ")), Ok(Some("Ana María".into())));
        assert_eq!(check_name(Some(&"é".repeat(24))), Ok(Some("é".repeat(24))));
        for bad in ["", "   ", "a\nb", "tab\there", "x\u{202e}y", &"a".repeat(25)] {
            assert_eq!(check_name(Some(bad)).unwrap_err().code, "invalid_name", "{bad:?}");
        }
    }
}
