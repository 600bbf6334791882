//! `hoyito tablebase build|probe|verify|search` end to end, on small 2x4 layers.

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

#[test]
fn build_probe_verify() {
    let dir = tempfile_dir();
    let d = dir.to_str().unwrap();
    let (code, out, err) = hoyito(&[
        "tablebase",
        "build",
        "--variant",
        "II",
        "--holes",
        "4",
        "--max-seeds",
        "12",
        "--dir",
        d,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("seeds  12:         50388 positions"), "{out}");
    assert!(dir.join("II-2x4/seeds-012.htb").exists());

    // A position with 12 seeds; the value and best moves come from the table.
    let (code, out, err) = hoyito(&[
        "tablebase",
        "probe",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
        "2,0,1,3/0,4,0,2 s 10-10",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("south to move: value "), "{out}");
    assert!(lines[1].starts_with("best: "), "{out}");
    assert!(lines[2].starts_with("moves: "), "{out}");
    // The best moves are exactly the moves whose value equals the position's.
    let value: i32 = lines[0]["south to move: value ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let best: Vec<&str> = lines[1]["best: ".len()..].split(' ').collect();
    let keep: Vec<&str> = lines[2]["moves: ".len()..]
        .split(' ')
        .filter(|mv| mv.split_once(':').unwrap().1.parse::<i32>().unwrap() == value)
        .map(|mv| mv.split_once(':').unwrap().0)
        .collect();
    assert_eq!(best, keep);

    // Above the tables (16 seeds), the exact search finds the value that a
    // 16-seed table holds.
    let above = "2,2,3,1/0,4,2,2 s 8-8";
    let (code, out, err) = hoyito(&[
        "tablebase",
        "search",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
        "--quiet",
        above,
    ]);
    assert_eq!(code, 0, "{err}");
    let rules = hoyito_core::Rules::new(hoyito_core::Variant::II, 4).unwrap();
    let pos = hoyito_core::Position::from_notation(rules, above).unwrap();
    let exact = hoyito_tablebase::Tablebase::solve_in_memory(rules, 16)
        .unwrap()
        .value(&pos)
        .unwrap();
    assert!(
        out.starts_with(&format!("south to move: value {exact:+} ")),
        "expected {exact:+}: {out}"
    );
    assert!(out.contains("searched "), "{out}");
    // The null-window proofs bracket the same value.
    for (t, expect) in [
        (exact, format!(">= {exact:+}")),
        (exact + 1, format!("<= {exact:+}")),
    ] {
        let t = t.to_string();
        let (code, out, err) = hoyito(&[
            "tablebase",
            "search",
            "--variant",
            "II",
            "--holes",
            "4",
            "--dir",
            d,
            "--quiet",
            "--at-least",
            &t,
            above,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.starts_with(&format!("south to move: value {expect} ")),
            "--at-least {t}: expected {expect}: {out}"
        );
    }

    // A series can give the tables to its alpha-beta players, and only to them.
    let (code, out, err) = hoyito(&[
        "selfplay",
        "--variant",
        "II",
        "--holes",
        "4",
        "--a",
        "ab",
        "--b",
        "greedy",
        "--games",
        "2",
        "--depth",
        "2",
        "--json",
        "--tablebases",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("tablebases: layers [4, 8, 12]"), "{err}");
    assert!(out.contains(&format!("\"tablebases\":{:?}", d)), "{out}");
    let (code, _, err) = hoyito(&[
        "selfplay",
        "--variant",
        "II",
        "--holes",
        "4",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--tablebases",
        d,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--tablebases needs a full-strength alpha-beta player"),
        "{err}"
    );
    let (code, _, err) = hoyito(&[
        "selfplay",
        "--variant",
        "III",
        "--holes",
        "4",
        "--a",
        "ab",
        "--b",
        "random",
        "--games",
        "2",
        "--tablebases",
        d,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot use the tablebases"), "{err}");

    let (code, out, err) = hoyito(&[
        "tablebase",
        "verify",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
        "--reference-max-seeds",
        "8",
    ]);
    assert_eq!(code, 0, "{err}{out}");
    assert_eq!(out.matches(": ok (").count(), 3, "{out}");
    assert_eq!(out.matches("all equal").count(), 2, "{out}");

    // A missing layer and bad input are one-line errors with exit code 2.
    let (code, _, err) = hoyito(&[
        "tablebase",
        "probe",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
        "4,4,4,4/4,4,4,4 s 0-0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no tablebase layer for 32 seeds"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let (code, _, err) = hoyito(&[
        "tablebase",
        "build",
        "--holes",
        "4",
        "--max-seeds",
        "8",
        "--direction",
        "per-move",
        "--dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unsupported"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hoyito-tb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `hoyito analyze --tablebases DIR` scores a covered position exactly at
/// depth 1, as the table says; without the table, depth 1 does not.
#[test]
fn analyze_uses_the_tablebases() {
    let dir = std::env::temp_dir().join(format!("hoyito-tb-analyze-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let build = [
        "tablebase",
        "build",
        "--variant",
        "II",
        "--holes",
        "4",
        "--max-seeds",
        "16",
        "--dir",
        d,
        "--quiet",
    ];
    assert_eq!(hoyito(&build).0, 0);
    let pos = "1,0,3,0/0,2,0,2 s 20-4";
    let (code, out, err) = hoyito(&[
        "tablebase",
        "probe",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
        pos,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final margin +8 for south"), "{out}");
    let analyze = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "--variant",
            "II",
            "--holes",
            "4",
            "--position",
            pos,
            "--depth",
            "1",
        ];
        args.extend_from_slice(extra);
        hoyito(&args)
    };
    let (code, out, err) = analyze(&["--tablebases", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score +8"), "{out}");
    let (code, _, err) = analyze(&["--tablebases", "/nonexistent/hoyito-tables"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("hoyito: cannot use the tablebases"), "{err}");
}

/// `build --solver lean`, `--solver compact` and `--solver disk` write the
/// same bytes as the graph solver, and print one line per sweep; the disk
/// solver reports its edge file and leaves nothing else behind.
#[test]
fn lean_and_compact_builds_write_the_same_files() {
    let base = std::env::temp_dir().join(format!("hoyito-tb-lean-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let mut files = Vec::new();
    for solver in ["graph", "lean", "compact", "disk"] {
        let dir = base.join(solver);
        let (code, out, err) = hoyito(&[
            "tablebase",
            "build",
            "--variant",
            "III",
            "--holes",
            "4",
            "--max-seeds",
            "16",
            "--dir",
            dir.to_str().unwrap(),
            "--quiet",
            "--solver",
            solver,
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.contains("lean sweep   1:"), solver != "graph", "{out}");
        assert_eq!(out.contains("moves on disk"), solver == "disk", "{out}");
        files.push(std::fs::read(dir.join("III-2x4/seeds-016.htb")).unwrap());
        let names = std::fs::read_dir(dir.join("III-2x4")).unwrap().count();
        assert_eq!(names, 4, "only the four layer files");
    }
    assert_eq!(files[0], files[1]);
    assert_eq!(files[0], files[2]);
    assert_eq!(files[0], files[3]);
    let (code, _, err) = hoyito(&[
        "tablebase",
        "build",
        "--holes",
        "4",
        "--max-seeds",
        "8",
        "--solver",
        "nope",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("nope"), "{err}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// `hoyito tablebase compact` converts every rule set of a directory, and
/// probe, search and verify answer from compact files as from one-byte
/// ones; `build --compact` leaves compact files only.
#[test]
fn compact_tables_answer_as_one_byte_tables() {
    let dir = std::env::temp_dir().join(format!("hoyito-tb-compact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    for v in ["II", "III"] {
        let (code, _, err) = hoyito(&[
            "tablebase",
            "build",
            "--variant",
            v,
            "--holes",
            "4",
            "--max-seeds",
            "12",
            "--dir",
            d,
            "--quiet",
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let pos = "2,0,1,3/0,4,0,2 s 10-10";
    let probe = |v: &str| {
        hoyito(&[
            "tablebase",
            "probe",
            "--variant",
            v,
            "--holes",
            "4",
            "--dir",
            d,
            pos,
        ])
    };
    let search = || {
        hoyito(&[
            "tablebase",
            "search",
            "--variant",
            "II",
            "--holes",
            "4",
            "--dir",
            d,
            "--quiet",
            "2,2,3,1/0,4,2,2 s 8-8",
        ])
    };
    let before = (probe("II"), probe("III"), search());
    assert_eq!(before.0 .0, 0, "{}", before.0 .2);

    let (code, out, err) = hoyito(&["tablebase", "compact", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Hoyito II") || out.contains("II-2x4"), "{out}");
    assert_eq!(out.matches("written, one-byte file removed").count(), 6, "{out}");
    assert!(out.contains("bits per position"), "{out}");
    for v in ["II", "III"] {
        let mut names: Vec<String> = std::fs::read_dir(dir.join(format!("{v}-2x4")))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["seeds-004.htc", "seeds-008.htc", "seeds-012.htc"], "{v}");
    }
    let after = (probe("II"), probe("III"), search());
    assert_eq!(after.0, before.0);
    assert_eq!(after.1, before.1);
    // The search's own figures (time) aside, the same answer.
    assert_eq!(after.2 .1.lines().next(), before.2 .1.lines().next());
    let (code, out, err) = hoyito(&[
        "tablebase",
        "verify",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
    ]);
    assert_eq!(code, 0, "{err}{out}");
    assert_eq!(out.matches(": ok (").count(), 3, "{out}");
    // Run again: nothing to write.
    let (code, out, err) = hoyito(&[
        "tablebase",
        "compact",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("exists and checks out").count(), 3, "{out}");

    // build --compact; a build above compact layers goes on from them.
    let (code, out, err) = hoyito(&[
        "tablebase",
        "build",
        "--variant",
        "II",
        "--holes",
        "4",
        "--max-seeds",
        "16",
        "--dir",
        d,
        "--quiet",
        "--compact",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("file exists and checks out").count(), 3, "{out}");
    assert!(out.contains("compacted in "), "{out}");
    assert!(dir.join("II-2x4/seeds-016.htc").exists());
    assert!(!dir.join("II-2x4/seeds-016.htb").exists());

    let (code, _, err) = hoyito(&["tablebase", "compact", "--dir", "/nonexistent/hoyito-tables"]);
    assert_eq!(code, 2);
    assert!(err.contains("no tablebases in"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
