//! The puzzle set the server serves: the shipped files of `data/puzzles/`
//! (made by `scripts/generate-puzzles.sh`, certified by the tablebases),
//! embedded in the binary and read once, on first use; the rungs of a
//! puzzle streak ([`PuzzleSet::streak`]) and the offline pack the app
//! caches when it installs ([`pack_json`]).

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

    /// The next puzzle of a streak: of the puzzles matching `filter` rated
    /// above `above` (all of them without it), those of the lowest rating;
    /// of these, in the set's order, the one at index
    /// `splitmix64(splitmix64(seed) ^ rating) % n`, so that a streak's
    /// `seed` picks its puzzle at each rung. `None` once no puzzle is rated
    /// above `above`: the streak has climbed every rung.
    pub(crate) fn streak(&self, filter: &Filter, above: Option<u32>, seed: u32) -> Option<&PuzzleRecord> {
        streak_pick(self.puzzles.iter().filter(|p| filter.matches(p)), above, seed)
    }

    /// The offline pack ([`pack_json`]): of each shipped file, for each
    /// rating a puzzle of the file has, the first puzzle of that rating, in
    /// the set's order. A streak from the pack climbs the same rungs as one
    /// from the whole set, for any filter.
    pub(crate) fn pack(&self) -> Vec<&PuzzleRecord> {
        let mut seen = std::collections::HashSet::new();
        self.puzzles
            .iter()
            .filter(|p| seen.insert((p.variant, p.holes, p.rating)))
            .collect()
    }

    /// The puzzle of the UTC day `day` (days since 1970-01-01) among those
    /// matching `filter`: of the `n` matching puzzles in the set's order,
    /// the one at index `splitmix64(day) % n`. `None` if none matches.
    pub(crate) fn daily(&self, filter: &Filter, day: i64) -> Option<&PuzzleRecord> {
        let n = self.puzzles.iter().filter(|p| filter.matches(p)).count();
        if n == 0 {
            return None;
        }
        let k = (splitmix64(day as u64) % n as u64) as usize;
        self.puzzles.iter().filter(|p| filter.matches(p)).nth(k)
    }
}

/// The streak's pick among `puzzles` (see [`PuzzleSet::streak`]).
fn streak_pick<'a>(
    puzzles: impl Iterator<Item = &'a PuzzleRecord> + Clone,
    above: Option<u32>,
    seed: u32,
) -> Option<&'a PuzzleRecord> {
    let rating = puzzles
        .clone()
        .map(|p| p.rating)
        .filter(|&r| above.is_none_or(|a| r > a))
        .min()?;
    let mut rung = puzzles.filter(|p| p.rating == rating);
    let n = rung.clone().count() as u64;
    let k = splitmix64(splitmix64(u64::from(seed)) ^ u64::from(rating)) % n;
    rung.nth(k as usize)
}

/// The offline pack as the app fetches it (`/puzzle-pack.json`), built once:
/// `{"count": N, "puzzles": [puzzle…]}`, the puzzles of [`PuzzleSet::pack`]
/// with the fields of the API. An empty pack if the set does not read (the
/// puzzle routes then answer 500).
pub(crate) fn pack_json() -> &'static str {
    static PACK: LazyLock<String> = LazyLock::new(|| {
        let puzzles = PuzzleSet::shipped().map(PuzzleSet::pack).unwrap_or_default();
        serde_json::json!({ "count": puzzles.len(), "puzzles": puzzles }).to_string()
    });
    &PACK
}

/// SplitMix64's output function (Steele, Lea and Flood 2014): spreads
/// consecutive days over the whole set.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The civil date (proleptic Gregorian) of `day` days since 1970-01-01,
/// as `YYYY-MM-DD` (Howard Hinnant's `civil_from_days`).
pub(crate) fn date_of_day(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The day (days since 1970-01-01) of a `YYYY-MM-DD` date from 2000-01-01
/// to 2999-12-31, or `None` if it is not one (Hinnant's `days_from_civil`).
pub(crate) fn day_of_date(date: &str) -> Option<i64> {
    let b = date.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = &date[r];
        s.bytes().all(|c| c.is_ascii_digit()).then(|| s.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(2000..=2999).contains(&y) || !(1..=12).contains(&m) || d < 1 {
        return None;
    }
    let yy = if m <= 2 { y - 1 } else { y };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let day = era * 146_097 + doe - 719_468;
    // A day past the month's end (2026-02-30) reads back as another date.
    (date_of_day(day) == date).then_some(day)
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
    fn dates_and_days_agree() {
        assert_eq!(date_of_day(0), "1970-01-01");
        assert_eq!(date_of_day(20_427), "2025-12-05");
        assert_eq!(day_of_date("2025-12-05"), Some(20_427));
        assert_eq!(day_of_date("2024-02-29"), Some(19_782));
        for day in 10_957..12_000 {
            assert_eq!(day_of_date(&date_of_day(day)), Some(day));
        }
        for bad in [
            "2023-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-1-05",
            "1999-12-31",
            "2025-12-05T",
            "２０２５-12-05",
        ] {
            assert_eq!(day_of_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_daily_puzzle_depends_on_the_day_and_filter_only() {
        let set = PuzzleSet::shipped().unwrap();
        let f = Filter {
            variant: Some(Variant::II),
            holes: Some(6),
            ..Filter::default()
        };
        let a = set.daily(&f, 20_427).unwrap();
        assert_eq!(a.id, set.daily(&f, 20_427).unwrap().id);
        assert!(f.matches(a));
        let week: std::collections::HashSet<_> =
            (20_427..20_434).map(|d| &set.daily(&f, d).unwrap().id).collect();
        assert!(week.len() >= 6, "{week:?}");
        let none = Filter {
            holes: Some(5),
            ..Filter::default()
        };
        assert!(set.daily(&none, 20_427).is_none());
    }

    /// The rungs of a streak: every rating of the filter's puzzles, from the
    /// lowest, once each; the seed picks the puzzle of a rung, the same each time.
    #[test]
    fn a_streak_climbs_every_rating_once_and_its_seed_picks_the_puzzles() {
        let set = PuzzleSet::shipped().unwrap();
        let f = Filter {
            variant: Some(Variant::II),
            holes: Some(6),
            ..Filter::default()
        };
        let climb = |seed| {
            let mut out = Vec::new();
            let mut above = None;
            while let Some(p) = set.streak(&f, above, seed) {
                assert!(f.matches(p));
                above = Some(p.rating);
                out.push(p.id.clone());
            }
            out
        };
        let a = climb(7);
        let ratings: Vec<u32> = a.iter().map(|id| set.get(id).unwrap().rating).collect();
        let mut all: Vec<u32> = set
            .puzzles
            .iter()
            .filter(|p| f.matches(p))
            .map(|p| p.rating)
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(ratings, all);
        assert_eq!(climb(7), a);
        let b = climb(8);
        assert_eq!(b.len(), a.len());
        assert!(
            a.iter().zip(&b).filter(|(x, y)| x != y).count() > a.len() / 2,
            "{a:?} {b:?}"
        );
        assert_eq!(set.streak(&f, Some(5000), 7), None);
    }

    /// The pack: every rating of every file once, in the set's order, small
    /// enough to cache when the app installs; a streak from it climbs the same rungs.
    #[test]
    fn the_pack_has_every_rating_of_every_file_and_is_small() {
        let set = PuzzleSet::shipped().unwrap();
        let pack = set.pack();
        assert!((300..=500).contains(&pack.len()), "{}", pack.len());
        let mut keys: Vec<_> = set
            .puzzles
            .iter()
            .map(|p| (p.variant, p.holes, p.rating))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(pack.len(), keys.len());
        let order: Vec<usize> = pack.iter().map(|p| set.by_id[&p.id]).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]));
        let json = pack_json();
        assert!(json.len() < 200_000, "{} bytes", json.len());
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(v["count"], pack.len());
        assert_eq!(v["puzzles"][0], serde_json::to_value(pack[0]).unwrap());
        for f in [
            Filter::default(),
            Filter {
                variant: Some(Variant::III),
                holes: Some(4),
                ..Filter::default()
            },
        ] {
            let mut above = None;
            while let Some(p) = set.streak(&f, above, 3) {
                let q = streak_pick(pack.iter().copied().filter(|q| f.matches(q)), above, 3).unwrap();
                assert_eq!(q.rating, p.rating);
                above = Some(p.rating);
            }
        }
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
