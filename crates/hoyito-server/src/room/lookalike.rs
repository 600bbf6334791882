//! Names that pass for another: two names that look the same (their
//! confusable skeletons, Unicode TS #39, through `unicode-security`), the
//! words the web app itself shows for players ("You", "Opponent",
//! "Computer (level 3)", "South"… in each of its languages, read from
//! `web/i18n/`), and letters of scripts mixed beyond TS #39's moderately
//! restrictive level ("Аna": a Cyrillic А and a Latin "na").

use std::sync::LazyLock;

use unicode_script::{Script, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;
use unicode_security::RestrictionLevel;

/// The web app's strings, as embedded in the binary.
const I18N: [&str; 3] = [
    include_str!("../../../../web/i18n/en.js"),
    include_str!("../../../../web/i18n/es.js"),
    include_str!("../../../../web/i18n/ht.js"),
];

/// The keys of `web/i18n/` whose strings the page shows instead of a
/// player's nickname or beside it (`playerName` in `web/game/state.js`,
/// the chat's author in `web/game/chat.js`).
pub const PLAYER_KEYS: &[&str] = &[
    "game.you",
    "game.opponent",
    "game.engine",
    "side.south",
    "side.north",
    "chat.you",
];

/// `text` as compared for look-alikes: its confusable skeleton, in lower
/// case, skeleton again, without white space. Two names with the same
/// skeleton fold the same ("Ana", "Аna" with a Cyrillic А, "Ａｎａ", "𝐀𝐧𝐚"),
/// and so do names that differ only in case or spacing ("ANA", "A na").
pub fn fold(text: &str) -> String {
    let skeleton: String = unicode_security::skeleton(text).collect();
    let lower = skeleton.to_lowercase();
    unicode_security::skeleton(&lower)
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Whether `a` and `b` look the same ([`fold`]).
pub fn look_alike(a: &str, b: &str) -> bool {
    fold(a) == fold(b)
}

/// A string of [`PLAYER_KEYS`] in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerWord {
    /// The string as `web/i18n/` has it (`Computer (level {level})`).
    pub text: String,
    /// Its [`fold`], or of the part before `{level}`.
    before: String,
    /// The [`fold`] of the part after `{level}`; `None` for a string
    /// without a placeholder.
    after: Option<String>,
}

impl PlayerWord {
    fn new(text: &str) -> PlayerWord {
        match text.split_once("{level}") {
            Some((before, after)) => PlayerWord {
                text: text.to_string(),
                before: fold(before),
                after: Some(fold(after)),
            },
            None => PlayerWord {
                text: text.to_string(),
                before: fold(text),
                after: None,
            },
        }
    }

    /// Whether the folded name `folded` reads as this word (any level in
    /// place of `{level}`).
    fn matches(&self, folded: &str) -> bool {
        match &self.after {
            None => folded == self.before,
            Some(after) => {
                folded.len() >= self.before.len() + after.len()
                    && folded.starts_with(&self.before)
                    && folded.ends_with(after.as_str())
            }
        }
    }
}

/// Every string of [`PLAYER_KEYS`] in every language of `web/i18n/`.
pub static PLAYER_WORDS: LazyLock<Vec<PlayerWord>> = LazyLock::new(|| {
    PLAYER_KEYS
        .iter()
        .flat_map(|key| I18N.iter().flat_map(move |catalogue| strings_of(catalogue, key)))
        .map(|text| PlayerWord::new(&text))
        .collect()
});

/// The strings of `key` in the catalogue `source` (one per language): the
/// quoted value after each `'key':`.
pub fn strings_of(source: &str, key: &str) -> Vec<String> {
    let needle = format!("'{key}':");
    source
        .match_indices(&needle)
        .filter_map(|(at, _)| quoted(source[at + needle.len()..].trim_start()))
        .collect()
}

/// The JavaScript string literal (`'…'` or `"…"`) at the start of `s`.
fn quoted(s: &str) -> Option<String> {
    let mut chars = s.chars();
    let quote = chars.next().filter(|q| matches!(q, '\'' | '"'))?;
    let mut out = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            c if c == quote => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// The word of the page that `name` reads as, if any: the whole name
/// ("You", "Computer (level 10)", "Opponent", "Sur"), or either part of a
/// name shaped like the page's "Ana (You)" and "You (South)": the part in
/// the closing parentheses or the part before them.
pub fn player_word(name: &str) -> Option<&'static PlayerWord> {
    let folded = fold(name);
    let find = |f: &str| PLAYER_WORDS.iter().find(|w| w.matches(f));
    if let Some(w) = find(&folded) {
        return Some(w);
    }
    let inner = folded.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    find(&inner[..open]).or_else(|| find(&inner[open + 1..]))
}

/// The restriction level of `name` (TS #39 §5.2) counting its letters
/// only: as `unicode-security`'s `detect_restriction_level`, except that
/// characters outside identifiers (spaces, punctuation, emoji), which
/// belong to every script (Common, Inherited), leave the level as it is,
/// where that function calls any string with one unrestricted.
pub fn restriction_level(name: &str) -> RestrictionLevel {
    let mut ascii = true;
    let mut all = AugmentedScriptSet::default();
    let mut beside_latin = AugmentedScriptSet::default();
    for c in name.chars() {
        ascii &= c.is_ascii();
        let set = AugmentedScriptSet::for_char(c);
        all.intersect_with(set);
        if !set.base.contains_script(Script::Latin) {
            beside_latin.intersect_with(set);
        }
    }
    if ascii {
        RestrictionLevel::ASCIIOnly
    } else if !all.is_empty() {
        RestrictionLevel::SingleScript
    } else if beside_latin.kore || beside_latin.hanb || beside_latin.jpan {
        RestrictionLevel::HighlyRestrictive
    } else if single(beside_latin)
        .is_some_and(|s| s.is_recommended() && !matches!(s, Script::Cyrillic | Script::Greek))
    {
        RestrictionLevel::ModeratelyRestrictive
    } else {
        RestrictionLevel::MinimallyRestrictive
    }
}

/// The one script of `set`, if it has exactly one.
fn single(set: AugmentedScriptSet) -> Option<Script> {
    let mut scripts = set.base.iter();
    let first = scripts.next()?;
    scripts.next().is_none().then_some(first)
}

/// The most mixed scripts a name may have: Latin with one other script
/// that has no letters like Latin's (not Cyrillic, not Greek), or Han with
/// the scripts written with it (Japanese kana, Korean Hangul, Bopomofo).
pub const MAX_RESTRICTION: RestrictionLevel = RestrictionLevel::ModeratelyRestrictive;

/// The scripts of `name`'s letters, by their English names, in order of
/// first appearance ("Latin and Cyrillic").
pub fn scripts(name: &str) -> String {
    let mut seen: Vec<Script> = Vec::new();
    for c in name.chars() {
        let s = c.script();
        if !matches!(s, Script::Common | Script::Inherited | Script::Unknown) && !seen.contains(&s) {
            seen.push(s);
        }
    }
    let names: Vec<&str> = seen.iter().map(|s| s.full_name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_fold_the_same() {
        for (a, b) in [
            ("Ana", "Ana"),
            ("Ana", "\u{410}na"),                   // Cyrillic А
            ("Ana", "\u{ff21}\u{ff4e}\u{ff41}"),    // fullwidth
            ("Ana", "\u{1d400}\u{1d427}\u{1d41a}"), // mathematical bold
            ("Ana", "ANA"),
            ("Ana", "A na"),
            ("Paypal", "PayPaI"),
            ("Jean", "J\u{0435}an"), // Cyrillic е
        ] {
            assert!(look_alike(a, b), "{a:?} {b:?}: {:?} {:?}", fold(a), fold(b));
        }
        for (a, b) in [("Ana", "Ane"), ("Ana", "Anna"), ("Zoë", "Zoe")] {
            assert!(!look_alike(a, b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn the_page_words_come_from_i18n_in_every_language() {
        for catalogue in I18N {
            for key in PLAYER_KEYS {
                assert_eq!(
                    strings_of(catalogue, key).len(),
                    1,
                    "{key} once in every language"
                );
            }
        }
        let english: Vec<_> = PLAYER_KEYS
            .iter()
            .map(|k| strings_of(I18N[0], k)[0].clone())
            .collect();
        assert_eq!(
            english,
            [
                "You",
                "Opponent",
                "Computer (level {level})",
                "South",
                "North",
                "You"
            ]
        );
        assert_eq!(
            strings_of("'a': \"it's\", 'b': 'x\\'y'", "b"),
            ["x'y"],
            "escapes and both quotes"
        );
    }

    #[test]
    fn names_that_read_as_a_page_word_are_found() {
        for name in [
            "You",
            "you",
            "YOU",
            "Y\u{43e}u", // Cyrillic о
            "Opponent",
            "Computer (level 10)",
            "Computer (level 3)",
            "Computer(level 99)",
            "South",
            "North",
            "Tú",
            "Rival",
            "Computadora (nivel 5)",
            "Sur",
            "Norte",
            "Ou",
            "Ou menm",
            "Lòt jwè a",
            "Òdinatè (nivo 2)",
            "Sid",
            "Nò",
            "Ana (You)",
            "Ana (Tú)",
            "You (South)",
            "Opponent (North)",
            "Rival (Norte)",
        ] {
            assert!(player_word(name).is_some(), "{name:?}");
        }
        for name in [
            "Ana",
            "Youssef",
            "Southpaw",
            "Computer whiz",
            "Jean (Haiti)",
            "Tu",
            "No",
        ] {
            assert_eq!(player_word(name), None, "{name:?}");
        }
        assert_eq!(player_word("Rival (Norte)").unwrap().text, "Rival");
    }

    #[test]
    fn restriction_levels_count_letters_only() {
        use RestrictionLevel::*;
        for (name, level) in [
            ("Ana María", SingleScript),
            ("Jean-Pierre 2", ASCIIOnly),
            ("Анна", SingleScript),
            ("محمد علي", SingleScript),
            ("देवनागरी", SingleScript),
            ("王小明", SingleScript),
            ("山田 たろう", SingleScript),
            ("Ana 👩\u{200d}👩\u{200d}👧", SingleScript),
            ("Ana 王", HighlyRestrictive),
            ("Ali علي", ModeratelyRestrictive),
            ("\u{410}na", MinimallyRestrictive),
            ("Ana Ωmega", MinimallyRestrictive),
            ("Анна Ωmega", MinimallyRestrictive),
        ] {
            assert_eq!(restriction_level(name), level, "{name:?}");
        }
        assert_eq!(scripts("\u{410}na"), "Cyrillic and Latin");
        assert_eq!(scripts("Ana Ωmega Анна"), "Latin, Greek and Cyrillic");
    }
}
