//! The puzzle set the server serves: the shipped files of `data/puzzles/`
//! (made by `scripts/generate-puzzles.sh`, certified by the tablebases),
//! embedded in the binary and read once, on first use.

use std::collections::HashMap;
use std::sync::LazyLock;

use hoyito_core::Variant;
use hoyito_puzzle::{read_set, PuzzleRecord};

/// The shipped files, in the order the set walks them.
const FILES: [(&str, &str); 6] = [
    ("I-6", include_str!("../../../data/puzzles/I-6.jsonl")),
    ("II-6", include_str!("../../../data/puzzles/II-6.jsonl")),
    ("III-6", include_str!("../../../data/puzzles/III-6.jsonl")),
    ("I-4", include_str!("../../../data/puzzles/I-4.jsonl")),
    ("II-4", include_str!("../../../data/puzzles/II-4.jsonl")),
    ("III-4", include_str!("../../../data/puzzles/III-4.jsonl")),
];

/// Every puzzle, in order, with an index by id.
#[derive(Debug)]
pub(crate) struct PuzzleSet {
    puzzles: Vec<PuzzleRecord>,
    by_id: HashMap<String, usize>,
}

/// Which puzzles `next` walks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    pub variant: Option<Variant>,
    pub holes: Option<u8>,
    pub min_rating: Option<u32>,
    pub max_rating: Option<u32>,
}

impl Filter {
    fn matches(&self, p: &PuzzleRecord) -> bool {
        self.variant.is_none_or(|v| v == p.variant)
            && self.holes.is_none_or(|h| h == p.holes)
            && self.min_rating.is_none_or(|r| p.rating >= r)
            && self.max_rating.is_none_or(|r| p.rating <= r)
    }
}

impl PuzzleSet {
    /// Reads the files (each line checked against the rules).
    fn read(files: &[(&str, &str)]) -> Result<PuzzleSet, String> {
        let mut puzzles = Vec::new();
        for (name, text) in files {
            puzzles.extend(read_set(text).map_err(|e| format!("data/puzzles/{name}.jsonl: {e}"))?);
        }
        let mut by_id = HashMap::new();
        for (i, p) in puzzles.iter().enumerate() {
            if by_id.insert(p.id.clone(), i).is_some() {
                return Err(format!("the puzzle id {} is used twice", p.id));
            }
        }
        Ok(PuzzleSet { puzzles, by_id })
    }

    /// The shipped set, read on first use.
    pub(crate) fn shipped() -> Result<&'static PuzzleSet, &'static str> {
        static SET: LazyLock<Result<PuzzleSet, String>> = LazyLock::new(|| PuzzleSet::read(&FILES));
        SET.as_ref().map_err(String::as_str)
    }

    /// The puzzle `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&PuzzleRecord> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    /// The first puzzle matching `filter` after the puzzle `after` in the
    /// set's order (from the start without `after`), wrapping around:
    /// `Ok(None)` if none matches, `Err(())` if `after` is no puzzle's id.
    pub(crate) fn next(&self, filter: &Filter, after: Option<&str>) -> Result<Option<&PuzzleRecord>, ()> {
        let start = match after {
            Some(id) => self.by_id.get(id).ok_or(())? + 1,
            None => 0,
        };
        let n = self.puzzles.len();
        Ok((0..n)
            .map(|k| &self.puzzles[(start + k) % n.max(1)])
            .find(|p| filter.matches(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_set_reads_and_next_wraps_around() {
        let set = PuzzleSet::shipped().unwrap();
        assert!(set.puzzles.len() >= 3000);
        let first = set.next(&Filter::default(), None).unwrap().unwrap();
        assert_eq!(first.id, "I-6-0001");
        let f = Filter {
            variant: Some(Variant::III),
            holes: Some(4),
            ..Filter::default()
        };
        let a = set.next(&f, None).unwrap().unwrap();
        assert_eq!(a.id, "III-4-0001");
        let last = set.puzzles.last().unwrap();
        assert_eq!(set.next(&f, Some(&last.id)).unwrap().unwrap().id, "III-4-0001");
        assert_eq!(
            set.next(&f, Some("III-4-0001")).unwrap().unwrap().id,
            "III-4-0002"
        );
        assert!(set.next(&f, Some("nope")).is_err());
        let none = Filter {
            holes: Some(5),
            ..Filter::default()
        };
        assert!(set.next(&none, None).unwrap().is_none());
    }

    #[test]
    fn a_bad_file_is_named() {
        let e = PuzzleSet::read(&[("X-4", "{}")]).unwrap_err();
        assert!(
            e.starts_with("data/puzzles/X-4.jsonl: line 1: not a puzzle record"),
            "{e}"
        );
    }
}
