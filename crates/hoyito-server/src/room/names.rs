//! Nicknames: no accounts, just a name a player gives when creating or
//! joining a game, checked here and shown to everyone as plain text.
//!
//! Names and chat messages ([`check_chars`]) refuse what could hide text or
//! pass one name off as another: control characters, invisible and format
//! characters (zero-width spaces and joiners, bidirectional controls, soft
//! hyphens, tags, Hangul fillers, the blank braille pattern…), variation
//! selectors outside an emoji, piles of combining marks, private-use,
//! unassigned and noncharacter code points, and characters (grapheme
//! clusters) of more than [`MAX_CLUSTER`] code points. Emoji are welcome,
//! in sequences joined by U+200D (👩‍💻, 👨‍👩‍👧) and with U+FE0F (❤️).
//!
//! A nickname ([`check_name`]) may besides not mix scripts whose letters
//! look alike, nor read as a word the page shows for a player ("You",
//! "Opponent", "Computer (level 3)", "South"… in each of the web app's
//! languages), and a player joining may not take a name that looks the
//! same as the other player's ([`check_beside`]): see `lookalike`.

use hoyito_core::Side;
use serde::Serialize;
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};
use unicode_segmentation::UnicodeSegmentation;

use crate::error::ApiError;
use crate::room::lookalike;
use crate::store::Meta;

/// Longest nickname, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 24;

/// Most combining marks in a row on one character: enough for a Hebrew
/// letter with its dagesh, dot and vowel or a Tibetan stack, not for text
/// piled up over the lines around it.
pub const MAX_MARKS: usize = 3;

/// Most code points in one character as shown (an extended grapheme
/// cluster): enough for the longest emoji sequences (👩🏻‍❤️‍💋‍👨🏼, 10), not
/// for a stack of Hangul jamo or a chain of joined emoji drawn as one.
pub const MAX_CLUSTER: usize = 10;

/// A nickname as given, trimmed; `None` stays `None`.
///
/// # Errors
/// 422 `invalid_name` if it is empty after trimming, longer than
/// [`MAX_NAME_CHARS`] characters, holds a character [`check_chars`]
/// refuses (a new line, a tab, a bidirectional override, an invisible one,
/// a private-use one…), or mixes scripts beyond
/// [`lookalike::MAX_RESTRICTION`] (a Cyrillic letter among Latin ones);
/// 422 `reserved_name` if it reads as a word the page shows for a player
/// ([`lookalike::player_word`]: "You", "Opponent (North)", "Rival"…).
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
    if lookalike::restriction_level(name) > lookalike::MAX_RESTRICTION {
        return Err(bad(format!(
            "the nickname mixes letters of {}, which can pass for one another: \
             write it in one script",
            lookalike::scripts(name)
        )));
    }
    if let Some(word) = lookalike::player_word(name) {
        return Err(ApiError::unprocessable(
            "reserved_name",
            format!(
                "the nickname reads as \"{}\", which the page shows for a player: choose another",
                word.text.replace("{level}", "N")
            ),
        ));
    }
    Ok(Some(name.to_string()))
}

/// Checks a nickname `name` (as [`check_name`] gave it) beside `other`, the
/// other player's.
///
/// # Errors
/// 422 `name_taken` if the two look the same ([`lookalike::look_alike`]:
/// the same confusable skeleton, case and spacing aside).
pub fn check_beside(name: Option<&str>, other: Option<&str>) -> Result<(), ApiError> {
    match (name, other) {
        (Some(name), Some(other)) if lookalike::look_alike(name, other) => Err(ApiError::unprocessable(
            "name_taken",
            format!("the nickname looks the same as the other player's, \"{other}\": choose another"),
        )),
        _ => Ok(()),
    }
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
    /// A private-use character (U+E000–U+F8FF, planes 15 and 16), which
    /// every device shows as it likes.
    #[error("private-use characters such as {}, which each device shows differently", code(*.0))]
    PrivateUse(char),
    /// A noncharacter (U+FDD0–U+FDEF, U+FFFE and U+FFFF of every plane).
    #[error("noncharacters such as {}", code(*.0))]
    Noncharacter(char),
    /// A code point Unicode has not assigned (yet).
    #[error("unassigned code points such as {}", code(*.0))]
    Unassigned(char),
    /// A character (grapheme cluster) of more than [`MAX_CLUSTER`] code points.
    #[error("a character made of {0} code points (at most {MAX_CLUSTER})")]
    LongCluster(usize),
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
        } else if let Some(fault) = unassigned_or_private(c) {
            return Err(fault);
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
    match text.graphemes(true).map(|g| g.chars().count()).max() {
        Some(n) if n > MAX_CLUSTER => Err(TextFault::LongCluster(n)),
        _ => Ok(()),
    }
}

/// The fault of a private-use, noncharacter or unassigned code point.
fn unassigned_or_private(c: char) -> Option<TextFault> {
    let n = u32::from(c);
    if (0xfdd0..=0xfdef).contains(&n) || n & 0xfffe == 0xfffe {
        return Some(TextFault::Noncharacter(c));
    }
    match c.general_category() {
        GeneralCategory::PrivateUse => Some(TextFault::PrivateUse(c)),
        GeneralCategory::Unassigned => Some(TextFault::Unassigned(c)),
        _ => None,
    }
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

#[cfg(test)]
mod impersonation {
    use super::*;

    fn code_of(name: &str) -> Option<&'static str> {
        check_name(Some(name)).err().map(|e| e.code)
    }

    #[test]
    fn names_of_one_script_and_emoji_are_welcome() {
        for good in [
            "Ana",
            "Анна",
            "Ἀλέξανδρος",
            "محمد",
            "देवनागरी",
            "王小明",
            "山田たろう",
            "김민준",
            "Jean-Bòs Pyè",
            "Ti Zòrèy",
            "👩\u{200d}👩\u{200d}👧",
            "Ana 👩\u{200d}👩\u{200d}👧",
            "👩🏻\u{200d}❤\u{fe0f}\u{200d}💋\u{200d}👨🏼",
            "Ali علي",
            "Ana 王",
        ] {
            assert_eq!(check_name(Some(good)), Ok(Some(good.to_string())), "{good:?}");
        }
    }

    #[test]
    fn mixed_script_look_alikes_are_refused_saying_which_scripts() {
        for bad in ["\u{410}na", "J\u{435}an", "Ana Ωmega", "Pаypal"] {
            assert_eq!(code_of(bad), Some("invalid_name"), "{bad:?}");
        }
        let e = check_name(Some("\u{410}na")).unwrap_err();
        assert_eq!(
            e.message,
            "the nickname mixes letters of Cyrillic and Latin, which can pass for one another: \
             write it in one script"
        );
    }

    #[test]
    fn the_page_words_for_players_are_reserved_in_every_language() {
        for bad in [
            "You",
            "Opponent",
            "Computer (level 10)",
            "South",
            "North",
            "Tú",
            "Rival",
            "Computadora (nivel 1)",
            "Ou",
            "Lòt jwè a",
            "Òdinatè (nivo 9)",
            "Nò",
            "Ana (You)",
            "You (North)",
            "\u{ff39}\u{ff4f}\u{ff55}",
            "\u{1d418}\u{1d428}\u{1d42e}",
            "YOU",
        ] {
            assert_eq!(code_of(bad), Some("reserved_name"), "{bad:?}");
        }
        let e = check_name(Some("Computer (level 10)")).unwrap_err();
        assert_eq!(
            e.message,
            "the nickname reads as \"Computer (level N)\", which the page shows for a player: choose another"
        );
        assert!(check_name(Some("Youssef")).is_ok());
    }

    #[test]
    fn a_name_may_not_look_like_the_other_players() {
        for (bad, other) in [
            ("Ana", "Ana"),
            ("ana", "Ana"),
            ("\u{ff21}\u{ff4e}\u{ff41}", "Ana"),
            ("\u{1d400}\u{1d427}\u{1d41a}", "Ana"),
            ("A n a", "Ana"),
            // All Cyrillic, one script, yet the same look as the Latin name.
            ("\u{421}\u{43e}\u{441}\u{43e}", "Coco"),
        ] {
            let name = check_name(Some(bad)).expect("a valid name on its own");
            let e = check_beside(name.as_deref(), Some(other)).unwrap_err();
            assert_eq!(e.code, "name_taken", "{bad:?}");
        }
        let e = check_beside(Some("Ana"), Some("Ana")).unwrap_err();
        assert_eq!(
            e.message,
            "the nickname looks the same as the other player's, \"Ana\": choose another"
        );
        assert_eq!(check_beside(Some("Anna"), Some("Ana")), Ok(()));
        assert_eq!(check_beside(None, Some("Ana")), Ok(()));
        assert_eq!(check_beside(Some("Ana"), None), Ok(()));
    }

    #[test]
    fn private_unassigned_noncharacters_and_long_clusters_are_refused() {
        for (text, fault) in [
            ("An\u{e000}a", TextFault::PrivateUse('\u{e000}')),
            ("\u{f8ff}", TextFault::PrivateUse('\u{f8ff}')),
            ("A\u{f0000}", TextFault::PrivateUse('\u{f0000}')),
            ("A\u{10fffd}", TextFault::PrivateUse('\u{10fffd}')),
            ("A\u{fdd0}", TextFault::Noncharacter('\u{fdd0}')),
            ("A\u{ffff}", TextFault::Noncharacter('\u{ffff}')),
            ("A\u{1fffe}", TextFault::Noncharacter('\u{1fffe}')),
            ("A\u{0378}", TextFault::Unassigned('\u{0378}')),
            ("A\u{e0080}", TextFault::Unassigned('\u{e0080}')),
        ] {
            assert_eq!(check_chars(text, false), Err(fault), "{text:?}");
            assert_eq!(check_chars(text, true), Err(fault), "chat: {text:?}");
            assert_eq!(code_of(text), Some("invalid_name"), "{text:?}");
        }
        // A stack of Hangul jamo and a chain of joined emoji, each one
        // character as shown; spacing marks, which MAX_MARKS does not count.
        let jamo = format!("A{}", "\u{1100}".repeat(12));
        let chain = ["👩"; 6].join("\u{200d}");
        let spacing = format!("क{}", "\u{093e}".repeat(11));
        for text in [&jamo, &chain, &spacing] {
            assert!(
                matches!(check_chars(text, true), Err(TextFault::LongCluster(n)) if n > MAX_CLUSTER),
                "{text:?}"
            );
        }
        assert_eq!(
            check_name(Some(&chain)).unwrap_err().message,
            "names may not contain a character made of 11 code points (at most 10)"
        );
    }
}
