//! `hoyito puzzles generate|check` end to end, on small 2×4 tables.

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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hoyito-puzzles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn generate(out: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "puzzles",
        "generate",
        "--variant",
        "III",
        "--holes",
        "4",
        "--max-seeds",
        "12",
        "--count",
        "8",
        "--seed",
        "3",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    hoyito(&args)
}

#[test]
fn generate_writes_the_same_set_twice_and_check_certifies_it() {
    let dir = temp_dir("gen");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let (code, out, err) = generate(a.to_str().unwrap(), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Hoyito III 2x4: ") && out.contains(" accepted ("),
        "{out}"
    );
    assert!(out.contains("themes: casa "), "{out}");
    assert!(out.contains("wrote 8 puzzles to"), "{out}");
    assert!(err.contains("tables of layers [4, 8, 12] ready"), "{err}");
    let (code, _, err) = generate(b.to_str().unwrap(), &["--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text.lines().count(), 8);
    assert!(
        text.starts_with(r#"{"id":"III-4-0001","variant":"III","holes":4,"#),
        "{text}"
    );
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());

    let (code, out, err) = hoyito(&["puzzles", "check", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("8 puzzles\nall puzzles certified again\n"), "{out}");

    // A puzzle whose solution is not the only good move fails the check.
    let first = text.lines().next().unwrap();
    let mut v: serde_json::Value = serde_json::from_str(first).unwrap();
    v["rating"] = serde_json::json!(v["rating"].as_u64().unwrap() + 10);
    std::fs::write(&b, format!("{v}\n")).unwrap();
    let (code, out, _) = hoyito(&["puzzles", "check", b.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("III-4-0001 is not certified again") && out.contains("1 puzzles FAILED"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The positions of a game record come first: its puzzle is the first one.
#[test]
fn the_positions_of_records_are_examined_first() {
    use hoyito_core::{Game, Position, Record, Rules, Variant};
    let dir = temp_dir("records");
    let rules = Rules::new(Variant::II, 4).unwrap();
    // South's hole 1 makes a casa in hole 4: the only move that wins.
    let start = "3,0,0,3/1,1,1,7 s 4-12";
    let mut game = Game::from_position(Position::from_notation(rules, start).unwrap());
    game.play_token("1").unwrap();
    let record = dir.join("game.hoy");
    std::fs::write(&record, Record::from_game(game).write()).unwrap();
    let out = dir.join("p.jsonl");
    let (code, stdout, err) = hoyito(&[
        "puzzles",
        "generate",
        "--variant",
        "II",
        "--holes",
        "4",
        "--max-seeds",
        "16",
        "--count",
        "1",
        "--quiet",
        "--records",
        record.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains(": 1 games, "), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with(&format!(r#"{{"id":"II-4-0001","variant":"II","holes":4,"position":"{start}","solution":["1"],"themes":["casa","extra_turn"]"#)),
        "{text}"
    );
    // A record of other rules is refused.
    let (code, _, err) = hoyito(&[
        "puzzles",
        "generate",
        "--variant",
        "III",
        "--holes",
        "4",
        "--records",
        record.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a record of Hoyito II 2x4, not of Hoyito III 2x4"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games a server stored (here one imported, resigned after its first
/// move) give puzzles with `--db`, after the server stopped; a missing
/// database file is an error that makes none.
#[test]
fn the_games_of_a_servers_database_are_examined() {
    use crate::process::{request_with, serve, TempDir};
    use hoyito_core::{Game, Position, Record, Rules, Variant};
    let dir = TempDir::new("puzzles-db");
    let db = dir.0.join("hoyito.db");
    let rules = Rules::new(Variant::II, 4).unwrap();
    let start = "3,0,0,3/1,1,1,7 s 4-12";
    let mut game = Game::from_position(Position::from_notation(rules, start).unwrap());
    game.play_token("1").unwrap();
    let mut record = Record::from_game(game);
    record.tags.push(("Termination".into(), "north resigned".into()));
    {
        let server = serve(&dir.0, db.as_os_str(), &[], &[]);
        let made = request_with(
            &server.addr,
            "POST",
            "/api/games/import",
            &[],
            Some(&serde_json::json!({ "record": record.write(), "mode": "hotseat" })),
        );
        assert_eq!(made.status, 201, "{made:?}");
        assert_eq!(made.json()["game"]["status"].as_str(), Some("over"), "{made:?}");
    }
    let out = dir.0.join("p.jsonl");
    let generate = |db: &std::path::Path| {
        hoyito(&[
            "puzzles",
            "generate",
            "--variant",
            "II",
            "--holes",
            "4",
            "--max-seeds",
            "16",
            "--count",
            "1",
            "--max-games",
            "0",
            "--db",
            db.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (code, stdout, err) = generate(&db);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("1 games over read, 1 of Hoyito II 2x4 taken"),
        "{err}"
    );
    assert!(stdout.contains(": 1 games, "), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with(&format!(
            r#"{{"id":"II-4-0001","variant":"II","holes":4,"position":"{start}","solution":["1"]"#
        )),
        "{text}"
    );
    std::fs::remove_file(&out).unwrap();
    let missing = dir.0.join("none.db");
    let (code, _, err) = generate(&missing);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no such database file"), "{err}");
    assert!(!missing.exists() && !out.exists());
}

#[test]
fn bad_arguments_are_usage_errors_and_write_nothing() {
    let dir = temp_dir("bad");
    let out = dir.join("x.jsonl");
    let o = out.to_str().unwrap();
    let (code, _, err) = generate(o, &["--levels", "0-4"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "hoyito: --levels \"0-4\": expected LOW-HIGH within 1-9, e.g. 3-6\n"
    );
    let (code, _, err) = hoyito(&["puzzles", "generate", "--max-seeds", "2", "--out", o]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("hoyito: --max-seeds 2: expected 4 or more"),
        "{err}"
    );
    let (code, _, err) = generate(o, &["--skip-origin"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the other rules options must keep their defaults"),
        "{err}"
    );
    let (code, _, err) = hoyito(&["puzzles", "check", o]);
    assert_eq!(code, 2);
    assert!(err.starts_with("hoyito: cannot read "), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
