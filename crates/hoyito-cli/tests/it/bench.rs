//! `hoyito bench`: which variants it plays (`--variant`, `--all`).

use std::process::Command;

/// The variants `hoyito bench ARGS --games 3 --json` reports, in order.
fn variants(args: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .arg("bench")
        .args(args)
        .args(["--games", "3", "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["games"], 3, "{l}");
            v["variant"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn bench_plays_the_variant_given_or_all_three() {
    let all = ["I", "II", "III"];
    assert_eq!(variants(&[]), all);
    assert_eq!(variants(&["--variant", "II"]), ["II"]);
    assert_eq!(variants(&["--variant=3"]), ["III"]);
    assert_eq!(variants(&["--variant", "II", "--all"]), all);
    assert_eq!(variants(&["--all"]), all);
    // Another rules option alone leaves the three variants.
    assert_eq!(variants(&["--holes", "4"]), all);
}
