//! Session tests that look inside: the tablebase option and line reading.
//! The protocol as a GUI sees it is tested in `tests/ugi.rs`.

// The session helpers serve the tablebase test (feature `tablebase-files`).
#![cfg_attr(not(feature = "tablebase-files"), allow(dead_code))]

use hoyito_core::Variant;

use super::*;

/// Output captured in memory, readable while the session writes.
#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}

/// `go depth 1` on `pos`: the info and bestmove lines.
fn go_depth_1(s: &mut Session<Buf>, buf: &Buf, pos: &str) -> Vec<String> {
    s.handle(&format!("position {pos}"));
    s.handle("go depth 1");
    s.finish(Ending::EndOfInput);
    // Mask the volatile nps and time.
    buf.take()
        .into_iter()
        .map(|l| {
            let mut w: Vec<&str> = l.split(' ').collect();
            for i in 1..w.len() {
                if matches!(w[i - 1], "nps" | "time") {
                    w[i] = "*";
                }
            }
            w.join(" ")
        })
        .collect()
}

/// `setoption name TablebaseDir`: a bad directory is an error that
/// changes nothing; good tables (2×4 Hoyito II up to 8 seeds, built here)
/// are reported, shown by `ugi`, and make a depth-1 search score the
/// position exactly, as the table says; `<empty>` removes them.
#[cfg(feature = "tablebase-files")]
#[test]
fn tablebase_dir_option() {
    let rules = Rules::try_from(hoyito_core::RulesSpec {
        variant: Variant::II,
        holes: 4,
        ..hoyito_core::RulesSpec::default()
    })
    .unwrap();
    let dir = std::env::temp_dir().join(format!("hoyito-ugi-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tb = hoyito_tablebase::Tablebase::build(rules, &dir, 8, Default::default(), |_| {}).unwrap();
    let pos = "1,0,3,0/0,2,0,2 s 20-4";
    let exact = tb
        .final_margin(&hoyito_core::Position::from_notation(rules, pos).unwrap())
        .unwrap();
    assert_eq!(exact, 8);

    let buf = Buf::default();
    let mut s = Session::new(rules, buf.clone());
    // Without tables, depth 1 does not see the exact value.
    let plain = go_depth_1(&mut s, &buf, pos);
    assert!(!plain[0].contains("score cp 800 "), "{plain:?}");

    s.handle("setoption name TablebaseDir value /nonexistent/hoyito-tables");
    let out = buf.take();
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with(
            "info string error: option TablebaseDir not changed: cannot use the tablebases in /nonexistent/hoyito-tables"
        ),
        "{out:?}"
    );
    assert!(s.tablebases.is_none());

    s.handle(&format!("setoption name TablebaseDir value {}", dir.display()));
    assert_eq!(
        buf.take(),
        [format!(
            "info string tablebases in {}: layers of 4, 8 seeds",
            dir.display()
        )]
    );
    s.handle("ugi");
    let shown = format!("option name TablebaseDir type string default {}", dir.display());
    assert!(buf.take().contains(&shown));
    let with = go_depth_1(&mut s, &buf, pos);
    assert!(with[0].starts_with("info depth 1 score cp 800 "), "{with:?}");

    s.handle("setoption name TablebaseDir value <empty>");
    assert_eq!(go_depth_1(&mut s, &buf, pos), plain);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lines are read as bytes: invalid UTF-8 is replaced, a line longer than
/// `MAX_LINE` is dropped whole (and reported with its length), and the
/// next line is read normally.
#[test]
fn read_line_kinds() {
    let long = "x".repeat(parse::MAX_LINE + 10);
    let input = format!("isready\r\n\u{1}{long}\nquit");
    let mut bytes = input.into_bytes();
    bytes.splice(0..0, *b"\xffa\n");
    let mut r = std::io::BufReader::with_capacity(64, bytes.as_slice());
    let mut buf = Vec::new();
    assert_eq!(read_line(&mut r, &mut buf), Line::Text("\u{fffd}a\n".into()));
    assert_eq!(read_line(&mut r, &mut buf), Line::Text("isready\r\n".into()));
    assert_eq!(
        read_line(&mut r, &mut buf),
        Line::TooLong {
            bytes: parse::MAX_LINE + 12
        }
    );
    assert_eq!(read_line(&mut r, &mut buf), Line::Text("quit".into()));
    assert_eq!(read_line(&mut r, &mut buf), Line::End);
}

/// The rules options of `ugi` and `setoption` are the core's table: one
/// line per entry with the session's value, the names in any spelling of
/// the table, and the core's error texts.
#[test]
fn rules_options_are_the_core_table() {
    let buf = Buf::default();
    let mut s = Session::new(Rules::standard(Variant::II), buf.clone());
    s.handle("ugi");
    let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    let options: Vec<&str> = out.lines().filter(|l| l.starts_with("option name ")).collect();
    for (line, o) in options.iter().zip(&RULES_OPTIONS) {
        assert_eq!(
            *line,
            rules_option_line(o, Rules::standard(Variant::II).spec().get(o.id))
        );
        assert!(
            line.starts_with(&format!("option name {} type ", o.tag)),
            "{line}"
        );
    }
    assert_eq!(
        options[0],
        "option name Variant type combo default II var I var II var III"
    );
    assert_eq!(options[2], "option name Seeds type spin default 4 min 1 max 30");
    assert_eq!(options.len(), RULES_OPTIONS.len() + ENGINE_OPTIONS.len());
    for o in &ENGINE_OPTIONS {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {o} type "))),
            "{o}"
        );
    }
    s.set_option("capture_side", "opponent").unwrap();
    s.set_option("skiporigin", "yes").unwrap();
    assert_eq!(s.rules.capture_side(), hoyito_core::CaptureSide::Opponent);
    assert!(s.rules.skip_origin());
    assert_eq!(
        s.set_option("Direction", "sideways").unwrap_err(),
        "bad value \"sideways\" for direction: expected fixed, per_player or per_move"
    );
    assert_eq!(
        s.set_option("Level", "0").unwrap_err(),
        "bad value \"0\" for Level: expected a whole number from 1 to 10"
    );
    assert!(s
        .set_option("Colour", "red")
        .unwrap_err()
        .starts_with("unknown option \"Colour\": expected one of Variant, Holes,"));
}
