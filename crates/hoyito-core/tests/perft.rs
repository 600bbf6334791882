//! Golden move-path counts ("perft") from the start position, for every
//! variant on 2x6 and for the options on several boards. The files were made
//! with `hoyito perft`; a change in move generation, sowing, captures,
//! passes or repetition changes some count.

use hoyito_core::perft::perft;
use hoyito_core::{Position, Rules, RulesSpec};

/// Counts above this are skipped to keep the test quick.
const MAX_CHECKED: u64 = 1_000_000;

fn spec_from_flags(flags: &str) -> RulesSpec {
    let mut spec = RulesSpec::default();
    let words: Vec<&str> = flags.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let val = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "--variant" => spec.variant = val.parse().unwrap(),
            "--holes" => spec.holes = val.parse().unwrap(),
            "--seeds" => spec.seeds = val.parse().unwrap(),
            "--direction" => spec.direction = val.parse().unwrap(),
            "--repetition" => spec.repetition = val.parse().unwrap(),
            "--capture-side" => spec.capture_side = val.parse().unwrap(),
            "--skip-origin" => {
                spec.skip_origin = true;
                i += 1;
                continue;
            }
            "--two-hole-opening" => {
                spec.two_hole_opening = true;
                i += 1;
                continue;
            }
            other => panic!("unknown flag {other}"),
        }
        i += 2;
    }
    spec
}

fn check(flags: &str, depth: u32, want: u64) -> bool {
    if want > MAX_CHECKED {
        return false;
    }
    let rules = Rules::try_from(spec_from_flags(flags)).unwrap();
    let got = perft(&Position::new(rules), depth);
    assert_eq!(got, want, "perft {flags} depth {depth}");
    true
}

#[test]
fn perft_2x6_each_variant() {
    for v in ["I", "II", "III"] {
        let text = std::fs::read_to_string(format!(
            "{}/tests/golden/perft_2x6_{v}.txt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let mut checked = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (d, c) = line.split_once(' ').unwrap();
            if check(&format!("--variant {v}"), d.parse().unwrap(), c.parse().unwrap()) {
                checked += 1;
            }
        }
        assert!(checked >= 8, "Hoyito {v}: only {checked} depths checked");
    }
}

#[test]
fn perft_options() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/perft_options.txt"
    ))
    .unwrap();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let parts: Vec<&str> = line.split(" | ").collect();
        if check(parts[0], parts[1].parse().unwrap(), parts[2].parse().unwrap()) {
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} option counts checked");
}

/// Hand-checked counts: 6 first moves; after South's first move North has
/// 6 holes, except those emptied, and so on.
#[test]
fn perft_small_by_hand() {
    let rules = Rules::try_from(spec_from_flags("--variant I")).unwrap();
    let pos = Position::new(rules);
    assert_eq!(perft(&pos, 0), 1);
    assert_eq!(perft(&pos, 1), 6);
    // Two-hole opening: 6·5 ordered pairs of different holes at most.
    let rules = Rules::try_from(spec_from_flags("--variant I --two-hole-opening")).unwrap();
    assert!(perft(&Position::new(rules), 1) <= 30);
}
