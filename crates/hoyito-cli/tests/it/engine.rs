//! `hoyito analyze` and `hoyito selfplay` end to end.

use std::process::Command;

fn hoyito(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.lines().last().unwrap()).unwrap()
}

#[test]
fn analyze_finds_the_double_capture() {
    // Hoyito III: holes 1 and 3 each make a casa with an extra turn; both
    // captures leave the last four to South, 12-0.
    let (code, out, err) = hoyito(&[
        "analyze",
        "--variant",
        "III",
        "--holes",
        "4",
        "--position",
        "1,3,1,3/0,0,0,4 s 0-0",
        "--depth",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["score"], 12);
    assert!(["1", "3"].contains(&v["best"].as_str().unwrap()), "{v}");
    assert_eq!(v["pv"].as_array().unwrap().len(), 2);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "every legal move is scored: {v}");
    assert!(moves
        .windows(2)
        .all(|w| w[0]["score"].as_i64() >= w[1]["score"].as_i64()));
}

#[test]
fn analyze_info_and_errors() {
    let (code, out, err) = hoyito(&["analyze", "--variant", "II", "--depth", "5", "--info"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("depth")).count(), 5, "{out}");
    assert!(out.lines().last().unwrap().starts_with("bestmove "), "{out}");

    let (code, out, err) = hoyito(&["analyze", "--position", "4,4/4,4 s 0-0"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("hoyito: "), "{err}");
}

#[test]
fn selfplay_reports_a_series() {
    let records = std::env::temp_dir().join(format!("hoyito-selfplay-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&records);
    let (code, out, err) = hoyito(&[
        "selfplay",
        "--variant",
        "II",
        "--a",
        "level:3",
        "--b",
        "random",
        "--games",
        "6",
        "--depth",
        "2",
        "--records",
        records.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 6);
    assert!(w >= 4, "level 3 should beat random: {v}");
    // Without a terminal, stderr logs one line per finished game, whose
    // running tally ends at the series' result.
    let games: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 6, "{err}");
    for n in 1..=6 {
        assert!(
            games.iter().any(|l| l.starts_with(&format!("game {n}/6: A as "))),
            "{err}"
        );
    }
    assert!(games[5].contains(&format!("6 played: +{w} ={d} -{l} (")), "{err}");
    // --records: one record per game, naming the players, that replays to
    // the game's end; A (level 3) is South in odd-numbered games.
    let mut names: Vec<_> = std::fs::read_dir(&records)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        (1..=6).map(|n| format!("game-000{n}.hoy")).collect::<Vec<_>>()
    );
    let first = std::fs::read_to_string(records.join("game-0001.hoy")).unwrap();
    assert!(first.contains("[Game \"1 of 6\"]"), "{first}");
    assert!(
        first.contains("[South \"level:3 (A)\"]\n[North \"random (B)\"]"),
        "{first}"
    );
    let second = std::fs::read_to_string(records.join("game-0002.hoy")).unwrap();
    assert!(
        second.contains("[South \"random (B)\"]\n[North \"level:3 (A)\"]"),
        "{second}"
    );
    for name in &names {
        let path = records.join(name);
        let (code, out, err) = hoyito(&["replay", "--record", path.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{name}: {err}");
        let last = json(&out);
        assert_eq!(last["over"], true, "{name} replays to the end: {last}");
    }
    std::fs::remove_dir_all(&records).unwrap();
    assert_eq!(
        v["a_south"]["wins"].as_u64().unwrap() + v["a_north"]["wins"].as_u64().unwrap(),
        w
    );
    // Three pairs from 2 random plies: at most 3 distinct openings.
    let openings = v["openings"].as_u64().unwrap();
    assert!((1..=3).contains(&openings), "{v}");

    // With no random plies every pair starts from the start position: one
    // opening, and a note that the games repeat.
    let (code, out, err) = hoyito(&[
        "selfplay",
        "--a",
        "level:8",
        "--b",
        "level:7",
        "--games",
        "4",
        "--depth",
        "2",
        "--random-plies",
        "0",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["openings"].as_u64(), Some(1));
    assert!(err.contains("1 distinct openings for 2 pairs"), "{err}");

    let (code, _, err) = hoyito(&["selfplay", "--a", "level:99", "--b", "random", "--games", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("level:N"), "{err}");
}

#[test]
fn selfplay_from_a_position() {
    // South's only move, 6, captures 8 and ends the game (the last four go
    // to the captor): whoever plays South wins, so A wins one game of two.
    let records = std::env::temp_dir().join(format!("hoyito-selfplay-position-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&records);
    let start = "0,0,0,0,0,1/3,0,0,0,0,4 s 0-0";
    let (code, out, err) = hoyito(&[
        "selfplay",
        "--a",
        "ab",
        "--b",
        "random",
        "--games",
        "2",
        "--depth",
        "2",
        "--random-plies",
        "0",
        "--position",
        start,
        "--records",
        records.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["position"], start);
    assert_eq!(
        (v["wins"].as_u64(), v["losses"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    assert_eq!(v["a_south"]["wins"].as_u64(), Some(1), "{v}");
    // The record starts from the position and replays to the end.
    let path = records.join("game-0001.hoy");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(start), "{text}");
    let (code, out, err) = hoyito(&["replay", "--record", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let last = json(out.lines().last().unwrap());
    assert_eq!(last["over"], true, "{last}");
    std::fs::remove_dir_all(&records).unwrap();

    // A finished or unreadable position is refused with one line.
    for bad in ["0,0,0,0,0,0/0,0,0,0,0,0 s 24-24", "1,2,3 s 0-0"] {
        let (code, out, err) = hoyito(&["selfplay", "--a", "ab", "--b", "random", "--position", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--position"), "{err}");
    }
}

/// `--annotate` writes the record back with a score and a mark after every
/// move and each side's totals; the annotated record reads back to the same
/// moves. A double capture missed is marked against the best move.
#[test]
fn analyze_annotate_marks_every_move() {
    let dir = std::env::temp_dir().join(format!("hoyito-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.hoy");
    // South misses the double capture (1 or 3) of the start position.
    let record = "[Variant \"III\"]\n[Holes \"4\"]\n[Position \"1,3,1,3/0,0,0,4 s 0-0\"]\n\n2 4\n";
    std::fs::write(&path, record).unwrap();
    let p = path.to_str().unwrap();
    let (code, out, err) = hoyito(&["analyze", "--record", p, "--annotate", "--depth", "6"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let first = lines
        .iter()
        .find(|l| l.starts_with("1. 2 {"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        // Still a win (+12 → +4): marked by the seeds lost on Hoyito III's scale.
        first.contains("mistake") && (first.contains("best 1 ") || first.contains("best 3 ")),
        "{first}"
    );
    assert!(lines.iter().any(|l| l.starts_with("2. 4 {")), "{out}");
    assert!(out.contains("[SouthReview \"average loss "), "{out}");
    assert!(
        out.contains("[Annotator \"hoyito analyze, depth 6 per position\"]"),
        "{out}"
    );
    // It reads back as the same game.
    let back = dir.join("back.hoy");
    std::fs::write(&back, &out).unwrap();
    let (code, again, err) = hoyito(&[
        "analyze",
        "--record",
        back.to_str().unwrap(),
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json(&again)["position"],
        json(&hoyito(&["analyze", "--record", p, "--depth", "2", "--json"]).1)["position"]
    );
    // --annotate needs a record.
    let (code, _, err) = hoyito(&["analyze", "--annotate"]);
    assert_ne!(code, 0);
    assert!(err.contains("required arguments"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
