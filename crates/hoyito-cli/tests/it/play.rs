//! `hoyito play` driven by scripted sessions on stdin. Every move the
//! transcript reports is replayed with hoyito-core, so the tests check the
//! terminal game against the rules library, not against fixed text.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use hoyito_core::{Game, Match, Record, Rules, RulesSpec, Side, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// Runs `hoyito play ARGS` with `input` on stdin; returns stdout and whether it exited with 0.
fn play(args: &[&str], input: &str) -> (String, bool) {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hoyito play");
    let mut stdin = child.stdin.take().expect("stdin");
    let text = input.to_string();
    // Write from a thread: the output pipe must be drained at the same time.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.success(),
    )
}

/// The move tokens of the `… plays T: …` lines, in order.
fn played_tokens(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(" plays ")?;
            Some(rest.split(':').next()?.to_string())
        })
        .collect()
}

/// The boards shown, in order (the lines from the `North` header to the `score` line).
fn boards(transcript: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for l in transcript.lines() {
        if l.starts_with("  North ") {
            cur = Some(String::new());
        }
        if let Some(c) = cur.as_mut() {
            c.push_str(l);
            c.push('\n');
            if l.starts_with("  score:") {
                out.push(cur.take().unwrap());
            }
        }
    }
    out
}

/// The score line the game shows for a position.
fn score_line(game: &Game) -> String {
    let pos = game.position();
    let t = |s: Side| pos.captured()[s] as u32 + pos.reserve()[s] as u32;
    format!(
        "  score: South {} - North {}   ply {}",
        t(Side::South),
        t(Side::North),
        game.moves().len()
    )
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoyito-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Tokens 1..=n repeated: enough input for a whole game, the illegal ones refused.
fn all_holes(n: usize, times: usize) -> String {
    let mut s = String::new();
    for _ in 0..times {
        for k in 1..=n {
            s.push_str(&format!("{k}\n"));
        }
    }
    s
}

#[test]
fn two_humans_and_refused_tokens() {
    let (out, ok) = play(&["--humans"], "3\n4\nmoves\n9\n3\nhello\n1\nhelp\nquit\n");
    assert!(ok);
    let mut game = Game::new(Rules::standard(Variant::I));
    game.play_token("3").unwrap();
    game.play_token("4").unwrap();
    assert!(out.contains("South plays 3: "), "{out}");
    assert!(out.contains("North plays 4: "), "{out}");
    assert!(out.contains("Legal moves: 1 2 5 6"), "{out}");
    assert!(out.contains("Not a move: bad move token \"9\""), "{out}");
    assert!(
        out.contains("Illegal move 3: South's hole 3 is empty. Legal moves: 1 2 5 6"),
        "{out}"
    );
    assert!(out.contains("Unknown command \"hello\""), "{out}");
    assert!(out.contains("save FILE"), "help is shown: {out}");
    // The game went on after the refused input.
    game.play_token("1").unwrap();
    assert_eq!(played_tokens(&out), ["3", "4", "1"]);
    let last = boards(&out).pop().unwrap();
    assert!(last.ends_with(&format!("{}\n", score_line(&game))), "{last}");
    assert!(out.trim_end().ends_with("Goodbye."));
}

#[test]
fn against_the_engine_to_the_end() {
    let (out, ok) = play(&["--level", "1", "--variant", "III"], &all_holes(6, 250));
    assert!(ok);
    assert!(out.contains("North (engine, level 1) plays "), "{out}");
    // Every reported move is legal, and the game ends as the rules say.
    let mut game = Game::new(Rules::standard(Variant::III));
    for t in played_tokens(&out) {
        game.play_token(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    let o = game.position().outcome().expect("the scripted game ends");
    let result = match o.winner {
        Some(Side::South) => "South (you) wins".to_string(),
        Some(Side::North) => "North (engine, level 1) wins".to_string(),
        None => "a draw".to_string(),
    };
    assert!(
        out.contains(&format!(
            "Game over ({}): {result}",
            o.reason.name().replace('_', " ")
        )),
        "{out}"
    );
    assert!(
        out.contains("The game is over"),
        "moves after the end are refused"
    );
}

#[test]
fn engine_moves_first_when_human_is_north() {
    let (out, ok) = play(&["--level", "1", "--side", "north"], "");
    assert!(ok);
    let first = out.lines().find(|l| l.contains(" plays ")).expect("a move");
    assert!(first.starts_with("South (engine, level 1) plays "), "{first}");
    assert!(out.contains("North (you) > "));
    assert!(out.contains("End of input: goodbye."));
}

#[test]
fn undo_against_the_engine() {
    let (out, ok) = play(&["--level", "1"], "undo\n3\nundo\nquit\n");
    assert!(ok);
    assert!(out.contains("Nothing to undo."), "{out}");
    assert!(out.contains("Took back 2 plies; South to move."), "{out}");
    let b = boards(&out);
    // Start, after South's 3, after the engine's reply, after the undo.
    assert_eq!(b.len(), 4, "{out}");
    assert_eq!(b[3], b[0], "undo returns to the start");
}

#[test]
fn undo_two_humans_one_ply() {
    let (out, ok) = play(&["--humans", "--variant", "II"], "3\n4\nundo\nundo\nundo\n");
    assert!(ok);
    let b = boards(&out);
    assert!(out.contains("Took back 1 ply; North to move."), "{out}");
    assert!(out.contains("Took back 1 ply; South to move."), "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
    assert_eq!(b.len(), 5);
    assert_eq!(b[3], b[1]);
    assert_eq!(b[4], b[0]);
}

#[test]
fn save_and_load_round_trip() {
    let path = temp_path("round-trip.hoy");
    let p = path.to_str().unwrap();
    let (out, ok) = play(
        &["--humans", "--variant", "II"],
        &format!("3\n4\n2\n5\nsave {p}\nquit\n"),
    );
    assert!(ok);
    let tokens = played_tokens(&out);
    assert!(
        out.contains(&format!("Saved {} plies to {p}.", tokens.len())),
        "{out}"
    );
    let record = Record::read(&std::fs::read_to_string(&path).unwrap()).expect("a valid record");
    assert_eq!(record.rules().variant(), Variant::II);
    assert_eq!(record.game().unwrap().tokens(), tokens);
    assert!(record.tags.iter().any(|(k, v)| k == "South" && v == "human"));
    let saved_board = boards(&out).pop().unwrap();

    // Load into a Hoyito I session: the record's rules replace them.
    let (out2, ok) = play(&["--humans"], &format!("load {p}\nundo\nquit\n"));
    assert!(ok);
    assert!(
        out2.contains(&format!("Loaded {p} (Hoyito II 2x6, {} plies).", tokens.len())),
        "{out2}"
    );
    let b = boards(&out2);
    assert_eq!(b[1], saved_board);
    assert!(
        out2.contains("Took back 1 ply"),
        "undo works through a loaded game: {out2}"
    );
    assert_eq!(b[2], boards(&out)[tokens.len() - 1]);

    // --load at start-up.
    let (out3, ok) = play(&["--load", p, "--humans"], "");
    assert!(ok);
    assert_eq!(boards(&out3).last().unwrap(), &saved_board);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn save_and_load_errors_leave_the_game_going() {
    let missing = temp_path("no-such-dir").join("x.hoy");
    let bad = temp_path("bad.hoy");
    std::fs::write(&bad, "[Variant \"IV\"]\n").unwrap();
    let input = format!(
        "3\nsave {}\nload {}\nload {}\nsave\n4\n",
        missing.display(),
        missing.display(),
        bad.display()
    );
    let (out, ok) = play(&["--humans"], &input);
    assert!(ok);
    assert!(out.contains("Not saved: cannot write"), "{out}");
    assert!(!missing.parent().unwrap().exists(), "nothing written");
    assert!(out.contains("Not loaded: cannot read"), "{out}");
    assert!(
        out.contains("Not loaded: ") && out.contains("bad value \"IV\" for variant"),
        "{out}"
    );
    assert!(out.contains("save needs a file name"), "{out}");
    assert_eq!(played_tokens(&out), ["3", "4"]);
    std::fs::remove_file(&bad).unwrap();

    // A record that cannot be read at start-up is a usage error.
    let out = Command::new(BIN)
        .args(["play", "--load"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn end_of_input_quits_cleanly() {
    let (out, ok) = play(&["--humans", "--holes", "8"], "");
    assert!(ok);
    assert!(out.contains("Hoyito I 2x8 game"), "{out}");
    assert!(out.trim_end().ends_with("End of input: goodbye."));
}

#[test]
fn a_whole_match() {
    let args = [
        "--humans",
        "--match",
        "--variant",
        "II",
        "--holes",
        "4",
        "--seeds",
        "2",
    ];
    let path = temp_path("match.hoy");
    let p = path.to_str().unwrap();
    let (out, ok) = play(&args, &format!("{}save {p}\nundo\n", all_holes(4, 150)));
    assert!(ok);
    let rules = Rules::try_from(RulesSpec {
        variant: Variant::II,
        holes: 4,
        seeds: 2,
        ..RulesSpec::default()
    })
    .unwrap();
    let mut m = Match::new(rules);
    for t in played_tokens(&out) {
        if m.current().is_over() {
            assert!(m.start_next_round());
        }
        let pos = *m.current().position();
        let mv = pos.parse_move(&t).unwrap();
        m.play(mv).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    let o = m.outcome().expect("the scripted match ends");
    assert!(o.rounds >= 2, "a match of one round proves little: {out}");
    assert!(out.contains("== Round 2 =="), "{out}");
    let winner = o
        .winner
        .map_or("no winner", |w| if w == Side::South { "South" } else { "North" });
    assert!(
        out.contains(&format!("Match over after {} rounds", o.rounds)) && out.contains(winner),
        "{out}"
    );
    // Undo after the end of the match goes back into the last round.
    let b = boards(&out);
    assert!(out.contains("Took back 1 ply"), "{out}");
    assert_eq!(b[b.len() - 1], b[b.len() - 3]);
    // The saved match record loads with every round.
    let record = Record::read(&std::fs::read_to_string(&path).unwrap()).expect("a valid record");
    assert_eq!(record.games().len() as u32, o.rounds);
    let (out2, ok) = play(&["--humans"], &format!("load {p}\nundo\n"));
    assert!(ok);
    assert!(out2.contains("match round"), "{out2}");
    let b2 = boards(&out2);
    assert_eq!(b2[1], b[b.len() - 2], "the loaded match ends where it was saved");
    assert_eq!(b2[2], b[b.len() - 1]);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn conceding_a_round_gives_the_seeds_in_play_away() {
    let path = temp_path("conceded.hoy");
    let p = path.to_str().unwrap();
    // South concedes round 1 at once: North takes all 48 seeds and South,
    // left with fewer than 4, loses the match (RULES.md §5).
    let (out, ok) = play(&["--humans", "--match"], &format!("concede\nsave {p}\n3\n"));
    assert!(ok);
    assert!(
        out.contains("South concedes: the 48 seeds in play go to North."),
        "{out}"
    );
    assert!(
        out.contains("Round over (conceded): North wins, 0 to 48."),
        "{out}"
    );
    assert!(
        out.contains("Match over after 1 round: North wins the match."),
        "{out}"
    );
    assert!(
        out.contains("The game is over"),
        "a move after the end is refused: {out}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("concede:south"), "{text}");
    let record = Record::read(&text).expect("a valid record");
    assert_eq!(record.match_().unwrap().rounds()[0].conceded(), Some(Side::South));
    // The loaded record ends conceded; undo takes the concession back.
    let (out2, ok) = play(&["--humans"], &format!("load {p}\nundo\n3\n"));
    assert!(ok);
    assert!(out2.contains("Round over (conceded)"), "{out2}");
    assert!(out2.contains("Took back 1 ply; South to move."), "{out2}");
    assert!(out2.contains("South plays 3"), "{out2}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn options_two_hole_opening_and_directions() {
    let (out, ok) = play(
        &["--humans", "--two-hole-opening", "--direction", "per-move"],
        "3\n2+5R\nmoves\n",
    );
    assert!(ok);
    assert!(
        out.contains("Illegal move 3: the first move of this game must use two holes"),
        "{out}"
    );
    assert_eq!(played_tokens(&out)[0], "2+5R");
    let legal = out.lines().find(|l| l.starts_with("Legal moves:")).unwrap();
    assert!(
        legal
            .split_whitespace()
            .skip(2)
            .all(|t| t.ends_with('L') || t.ends_with('R')),
        "{legal}"
    );
}

#[test]
fn hint_suggests_a_legal_move() {
    let (out, ok) = play(&["--humans", "--level", "3"], "hint\n");
    assert!(ok);
    let line = out.lines().find(|l| l.contains("Hint: ")).expect("a hint");
    let token = line
        .split("Hint: ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let mut g = Game::new(Rules::standard(Variant::I));
    g.play_token(token).expect("the hint is legal");
}
