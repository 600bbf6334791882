//! Nicknames: no accounts, just a name a player gives when creating or
//! joining a game, checked here and shown to everyone as plain text.
//!
//! Names and chat messages ([`check_chars`]) refuse what could hide text or
//! pass one name off as another: control characters, invisible and format
//! characters (zero-width spaces and joiners, bidirectional controls, soft
//! hyphens, tags, Hangul fillers, the blank braille pattern…), variation
//! selectors outside an emoji, and piles of combining marks. Emoji are
//! welcome, in sequences joined by U+200D (👩‍💻, 👨‍👩‍👧) and with U+FE0F (❤️).

use hoyito_core::Side;
use serde::Serialize;
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};

use crate::error::ApiError;
use crate::store::Meta;

/// Longest nickname, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 24;

/// Most combining marks in a row on one character: enough for a Hebrew
/// letter with its dagesh, dot and vowel or a Tibetan stack, not for text
/// piled up over the lines around it.
pub const MAX_MARKS: usize = 3;

/// A nickname as given, trimmed; `None` stays `None`.
///
/// # Errors
/// 422 `invalid_name` if it is empty after trimming, longer than
/// [`MAX_NAME_CHARS`] characters, or holds a character [`check_chars`]
/// refuses (a new line, a tab, a bidirectional override, an invisible one…).
pub fn check_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    let name = name.trim();
    let bad = |why: String| ApiError::unprocessable("invalid_name", why);
    if name.is_empty() {
        return Err(bad("the nickname is empty: leave it out instead".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(bad(format!(
            "the nickname is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    check_chars(name, false).map_err(|f| bad(format!("names may not contain {f}")))?;
    Ok(Some(name.to_string()))
}

/// Why a text may not be shown as a name or a chat message. Each reads
/// after "names may not contain".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TextFault {
    /// A control character (a new line in a name, a tab, an escape…).
    #[error("control characters such as {}", code(*.0))]
    Control(char),
    /// An invisible or format character.
    #[error("invisible characters such as {}", code(*.0))]
    Invisible(char),
    /// U+200D anywhere but between two emoji.
    #[error("a zero-width joiner (U+200D) other than between two emoji")]
    StrayJoiner,
    /// A variation selector anywhere but U+FE0E/U+FE0F after an emoji.
    #[error("variation selectors such as {} other than after an emoji", code(*.0))]
    StraySelector(char),
    /// More than [`MAX_MARKS`] combining marks in a row.
    #[error("more than {MAX_MARKS} combining marks on one character")]
    TooManyMarks,
}

/// `U+2060`.
fn code(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// Checks every character of `text` (a new line is allowed if `newlines`).
///
/// # Errors
/// The first [`TextFault`] found.
pub fn check_chars(text: &str, newlines: bool) -> Result<(), TextFault> {
    let chars: Vec<char> = text.chars().collect();
    let mut marks = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' && newlines {
            marks = 0;
        } else if c.is_control() {
            return Err(TextFault::Control(c));
        } else if c == ZWJ {
            if !joins_emoji(&chars, i) {
                return Err(TextFault::StrayJoiner);
            }
            marks = 0;
        } else if is_variation_selector(c) {
            let emoji_selector = matches!(c, '\u{fe0e}' | '\u{fe0f}');
            if !(emoji_selector && i > 0 && chars[i - 1].is_emoji_char()) {
                return Err(TextFault::StraySelector(c));
            }
        } else if is_invisible(c) {
            return Err(TextFault::Invisible(c));
        } else if matches!(
            c.general_category(),
            GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark
        ) {
            marks += 1;
            if marks > MAX_MARKS {
                return Err(TextFault::TooManyMarks);
            }
        } else {
            marks = 0;
        }
    }
    Ok(())
}

/// The zero-width joiner.
const ZWJ: char = '\u{200d}';

/// Invisible characters: every format character (general category Cf:
/// zero-width spaces, bidirectional controls, U+2060–U+2064, U+FEFF, the
/// soft hyphen, U+061C, U+180E, tags…) and the letters and symbols that
/// show as nothing (the grapheme joiner, Hangul fillers, the blank
/// braille pattern, Khmer inherent vowels), the line and paragraph
/// separators, and the unassigned code points among them.
fn is_invisible(c: char) -> bool {
    c.general_category() == GeneralCategory::Format
        || matches!(
            c,
            '\u{034f}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{2060}'..='\u{206f}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{ffa0}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// Variation selectors: U+FE00–U+FE0F, the Mongolian free variation
/// selectors and the supplement U+E0100–U+E01EF.
fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{fe00}'..='\u{fe0f}' | '\u{180b}'..='\u{180d}' | '\u{180f}' | '\u{e0100}'..='\u{e01ef}')
}

/// A pictographic emoji (not the digits, `#` and `*`, which are emoji
/// only in keycaps).
fn is_pictographic(c: char) -> bool {
    !c.is_ascii() && c.is_emoji_char()
}

/// Whether the joiner at `chars[i]` stands between two emoji (the one
/// before may carry U+FE0F or a skin tone).
fn joins_emoji(chars: &[char], i: usize) -> bool {
    let before = chars[..i]
        .iter()
        .rev()
        .find(|&&c| !(c == '\u{fe0f}' || ('\u{1f3fb}'..='\u{1f3ff}').contains(&c)));
    before.is_some_and(|&c| is_pictographic(c)) && chars.get(i + 1).is_some_and(|&c| is_pictographic(c))
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

    #[test]
    fn invisible_characters_are_refused_by_name() {
        let e = check_name(Some("An\u{2060}a")).unwrap_err();
        assert_eq!(e.code, "invalid_name");
        assert_eq!(
            e.message,
            "names may not contain invisible characters such as U+2060"
        );
        let invisible = [
            '\u{200b}',
            '\u{200c}',
            '\u{200e}',
            '\u{200f}',
            '\u{202a}',
            '\u{202e}',
            '\u{2061}',
            '\u{2064}',
            '\u{2066}',
            '\u{2069}',
            '\u{feff}',
            '\u{180e}',
            '\u{00ad}',
            '\u{034f}',
            '\u{3164}',
            '\u{ffa0}',
            '\u{115f}',
            '\u{1160}',
            '\u{2800}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{061c}',
            '\u{2028}',
        ];
        for c in invisible {
            let text = format!("An{c}a");
            assert_eq!(
                check_chars(&text, false),
                Err(TextFault::Invisible(c)),
                "{:04X}",
                u32::from(c)
            );
            // Alone, at either end, or in a chat message: refused all the same.
            assert!(check_name(Some(&c.to_string())).is_err(), "{:04X}", u32::from(c));
            assert!(check_chars(&format!("{c}Ana"), true).is_err());
        }
        assert_eq!(
            check_chars("a\u{0007}", true),
            Err(TextFault::Control('\u{0007}'))
        );
        assert_eq!(check_chars("a\nb", false), Err(TextFault::Control('\n')));
        assert_eq!(check_chars("a\nb", true), Ok(()));
    }

    #[test]
    fn emoji_sequences_are_welcome_and_stray_joiners_and_selectors_are_not() {
        for good in [
            "Ana 👩\u{200d}💻",
            "👨\u{200d}👩\u{200d}👧",
            "❤\u{fe0f}",
            "❤\u{fe0f}\u{200d}🔥",
            "🏳\u{fe0f}\u{200d}🌈",
            "🏃🏽\u{200d}♀\u{fe0f}",
            "1\u{fe0f}\u{20e3}",
            "🇫🇷 Jean",
            "Zoë",
            "Nguyễn",
            "e\u{0323}\u{0302}",
            "שָׁלוֹם",
            "日本語",
        ] {
            assert_eq!(check_chars(good, false), Ok(()), "{good:?}");
            assert_eq!(check_name(Some(good)).map(|n| n.is_some()), Ok(true), "{good:?}");
        }
        for (bad, fault) in [
            ("a\u{200d}b", TextFault::StrayJoiner),
            ("👩\u{200d}", TextFault::StrayJoiner),
            ("\u{200d}💻", TextFault::StrayJoiner),
            ("1\u{200d}2", TextFault::StrayJoiner),
            ("a\u{fe0f}", TextFault::StraySelector('\u{fe0f}')),
            ("\u{fe0f}", TextFault::StraySelector('\u{fe0f}')),
            ("❤\u{fe00}", TextFault::StraySelector('\u{fe00}')),
            ("葛\u{e0100}", TextFault::StraySelector('\u{e0100}')),
            ("\u{1820}\u{180b}", TextFault::StraySelector('\u{180b}')),
        ] {
            assert_eq!(check_chars(bad, false), Err(fault), "{bad:?}");
        }
        let e = check_name(Some("a\u{200d}b")).unwrap_err();
        assert_eq!(
            e.message,
            "names may not contain a zero-width joiner (U+200D) other than between two emoji"
        );
    }

    #[test]
    fn piles_of_combining_marks_are_refused() {
        let pile = |n: usize| format!("Ana{}", "\u{0301}".repeat(n));
        assert_eq!(check_chars(&pile(MAX_MARKS), false), Ok(()));
        assert_eq!(
            check_chars(&pile(MAX_MARKS + 1), false),
            Err(TextFault::TooManyMarks)
        );
        assert_eq!(
            check_chars("Z\u{0351}\u{0360}\u{036e}\u{0344}\u{0350}algo", true),
            Err(TextFault::TooManyMarks)
        );
        // Marks on different characters do not add up.
        assert_eq!(check_chars("a\u{0301}\u{0301}b\u{0301}\u{0301}", false), Ok(()));
        assert!(check_name(Some(&pile(10)))
            .unwrap_err()
            .message
            .contains("combining marks"));
    }
}
