//! What a move did, in words: laps, where the last seed fell, casas
//! captured (en passant, at the last seed, or in a chain), extra turns,
//! passes and the end of the game. Read from the core's [`TracedMove`].

use crate::cmd::common::side_name;
use hoyito_core::{EndReason, Event, LastFour, Position, TracedMove};

/// Laps listed in full at the start of a long relay; the rest are counted.
/// (A trace of `MAX_TRACE_EVENTS` always holds them: a lap sows at most 240
/// seeds.)
const LAPS_SHOWN: usize = 8;

/// `S3` / `N5`: a hole by its owner's initial and the owner's hole number.
pub fn hole_name(pos: &Position, i: usize) -> String {
    let n = pos.rules().holes();
    let (c, k) = if i < n { ('S', i + 1) } else { ('N', i - n + 1) };
    format!("{c}{k}")
}

/// Lines describing a move played in a game or match (`t` as the commit
/// returned it: its position after has the repetition rule applied).
/// `who` names the mover (e.g. `North (engine, level 3)`).
pub fn describe(who: &str, t: &TracedMove) -> Vec<String> {
    let (before, after, mover) = (t.before(), t.after(), t.side());
    let mut lines = Vec::new();
    let mut sowing = String::new();
    let mut shown = 0;
    let mut prev = None;
    for &e in &t.trace().events {
        if let Event::Lap(h, s) = e {
            if shown == LAPS_SHOWN {
                break;
            }
            // A relay lap starts where the last seed fell; any other lap after
            // the first starts the second sowing of a two-hole opening.
            if shown > 0 && prev != Some(Event::Seed(h)) {
                sowing.push_str("; then ");
            } else if shown > 0 {
                sowing.push_str(" → ");
            }
            sowing.push_str(&format!("{}({s})", hole_name(before, h as usize)));
            shown += 1;
        }
        prev = Some(e);
    }
    match t.last_lap() {
        Some((h, s)) if t.laps() as usize > shown => {
            let hidden = t.laps() as usize - shown - 1;
            if hidden > 0 {
                sowing.push_str(&format!(" → … {hidden} more laps …"));
            }
            sowing.push_str(&format!(" → {}({s})", hole_name(before, h)));
        }
        _ => {}
    }
    let mut head = format!(
        "{who} plays {}: {} lap{}: {sowing}",
        t.token(),
        t.laps(),
        if t.laps() == 1 { "" } else { "s" }
    );
    if let Some(h) = t.landed_empty() {
        head.push_str(&format!("; last seed in {} (was empty)", hole_name(before, h)));
    }
    lines.push(head);
    if !t.captures().is_empty() {
        let caps: Vec<String> = t
            .captures()
            .iter()
            .map(|c| format!("{} {} ({})", hole_name(before, c.hole), c.seeds, c.kind.name()))
            .collect();
        let total: u32 = t.captures().iter().map(|c| c.seeds as u32).sum();
        lines.push(format!("  captures {total}: {}", caps.join(", ")));
    }
    if let Some(o) = after.outcome() {
        match o.reason {
            EndReason::LastFour => {
                let to = match before.last_four() {
                    LastFour::Captor => mover,
                    LastFour::To(side) => side,
                };
                lines.push(format!("  the last four seeds go to {}", side_name(to)));
            }
            EndReason::Exhausted => lines.push("  no seed is left in play".into()),
            EndReason::Repetition => {
                lines.push("  the position occurred for the third time: the seeds in play are shared".into())
            }
            EndReason::NoMoves => {
                lines.push("  neither player can move: the seeds in play are shared".into())
            }
            // A move never concedes; a concession is reported where it is made.
            EndReason::Conceded => lines.push("  the game was conceded".into()),
        }
    } else {
        if t.extra_turn() {
            lines.push(format!("  {} captured and moves again", side_name(mover)));
        }
        if let Some(passer) = t.passed() {
            lines.push(format!("  {} has no legal move and passes", side_name(passer)));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{CaptureKind, Rules, Variant, MAX_TRACE_EVENTS};

    fn traced(pos: &Position, token: &str) -> TracedMove {
        pos.prepare_token(token, MAX_TRACE_EVENTS).expect("legal")
    }

    /// Random games of every variant are described, laps and captures as
    /// the core counted them.
    #[test]
    fn random_games_are_described() {
        for variant in Variant::ALL {
            let mut pos = Position::new(Rules::standard(variant));
            let mut k = 7usize;
            while !pos.is_over() {
                let moves = pos.legal_moves();
                k = k.wrapping_mul(2_654_435_761).wrapping_add(12345);
                let m = moves[(k >> 7) % moves.len()];
                let t = pos.prepare(m, MAX_TRACE_EVENTS).expect("legal");
                let lines = describe("South", &t);
                let laps = t.laps();
                let head = format!("plays {}: {laps} lap", t.token());
                assert!(
                    lines[0].starts_with("South ") && lines[0].contains(&head),
                    "{lines:?}"
                );
                assert_eq!(
                    lines.iter().any(|l| l.contains("captures")),
                    !t.captures().is_empty()
                );
                pos = *t.after();
            }
        }
    }

    /// South sows S1 (2 seeds) into S2 and S3, each made 4: Hoyito I takes
    /// S2 en passant and S3 as the last seed's casa; II takes S3 then S2 in
    /// the chain; III takes S3 only.
    #[test]
    fn capture_kinds() {
        let text = "2,3,3,0,0,0/1,1,1,1,1,1 s 0-0";
        let expect = [
            (Variant::I, "  captures 8: S2 4 (en passant), S3 4 (casa)"),
            (Variant::II, "  captures 8: S3 4 (casa), S2 4 (chain)"),
            (Variant::III, "  captures 4: S3 4 (casa)"),
        ];
        for (variant, captures) in expect {
            let pos = Position::from_notation(Rules::standard(variant), text).unwrap();
            let lines = describe("South", &traced(&pos, "1"));
            assert!(lines[0].starts_with("South plays 1: 1 lap: S1(2)"), "{lines:?}");
            assert_eq!(lines[1], captures, "{variant}");
            assert_eq!(
                lines.iter().any(|l| l.contains("moves again")),
                variant != Variant::I
            );
        }
        assert_eq!(CaptureKind::Chain.name(), "chain");
    }

    /// The second sowing of a two-hole opening is shown as such, once.
    #[test]
    fn two_hole_opening_shows_both_sowings() {
        let spec = hoyito_core::RulesSpec {
            variant: Variant::II,
            two_hole_opening: true,
            ..Default::default()
        };
        let pos = Position::new(Rules::try_from(spec).unwrap());
        for m in pos.legal_moves() {
            assert!(m.is_pair());
            let t = pos.prepare(m, MAX_TRACE_EVENTS).unwrap();
            let head = &describe("South", &t)[0];
            let thens = head.matches("; then ").count();
            if t.laps() as usize <= LAPS_SHOWN && !t.after().is_over() {
                assert_eq!(thens, 1, "{head}");
                let second = m.second().unwrap();
                assert!(
                    head.contains(&format!("; then {}(", hole_name(&pos, second))),
                    "{head}"
                );
            } else {
                assert!(thens <= 1, "{head}");
            }
        }
        // One-hole moves never show a second sowing.
        let pos = Position::new(Rules::standard(Variant::II));
        for m in pos.legal_moves() {
            let t = pos.prepare(m, MAX_TRACE_EVENTS).unwrap();
            assert!(!describe("South", &t)[0].contains("; then "));
        }
    }

    /// A long relay lists its first laps, counts the hidden ones and shows the last.
    #[test]
    fn long_relays_are_cut() {
        let mut pos = Position::new(Rules::standard(Variant::II));
        let t = loop {
            let m = pos.legal_moves()[0];
            let t = pos.prepare(m, MAX_TRACE_EVENTS).unwrap();
            if t.laps() as usize > LAPS_SHOWN + 1 {
                break t;
            }
            pos = *t.after();
            assert!(!pos.is_over(), "a long relay comes up");
        };
        let head = &describe("South", &t)[0];
        let hidden = t.laps() as usize - LAPS_SHOWN - 1;
        assert!(head.contains(&format!(" → … {hidden} more laps … → ")), "{head}");
        let (h, s) = t.last_lap().unwrap();
        assert!(
            head.contains(&format!(" → {}({s})", hole_name(&pos, h))),
            "{head}"
        );
    }

    #[test]
    fn hole_names() {
        let pos = Position::new(Rules::standard(Variant::I));
        assert_eq!(hole_name(&pos, 0), "S1");
        assert_eq!(hole_name(&pos, 5), "S6");
        assert_eq!(hole_name(&pos, 6), "N1");
        assert_eq!(hole_name(&pos, 11), "N6");
    }
}
