//! What a move did, in words: laps, where the last seed fell, casas
//! captured (en passant, at the last seed, or in a chain), extra turns,
//! passes and the end of the game. Built from a [`SowObserver`].

use crate::cmd::common::side_name;
use hoyito_core::{EndReason, LastFour, Move, Played, Position, SowObserver};

/// Laps listed in full at the start of a long relay; the rest are counted.
const LAPS_SHOWN: usize = 8;

/// How a casa was captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureKind {
    /// In the middle of a lap (Hoyito I): the sowing went on.
    EnPassant,
    /// By the last seed of a lap.
    Casa,
    /// Behind the last seed's casa (Hoyito II's backward chain).
    Chain,
}

impl CaptureKind {
    fn name(self) -> &'static str {
        match self {
            CaptureKind::EnPassant => "en passant",
            CaptureKind::Casa => "casa",
            CaptureKind::Chain => "chain",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    None,
    Lap,
    Seed,
    Capture,
}

/// Records a sowing with bounded memory (relay sowings can run to tens of
/// thousands of laps).
#[derive(Debug, Clone)]
pub struct Trace {
    laps: u32,
    /// `(hole, seeds lifted, starts a new sowing)`: the second sowing of a
    /// two-hole opening is not a relay of the first.
    first_laps: Vec<(usize, u8, bool)>,
    last_lap: Option<(usize, u8)>,
    last_seed: Option<usize>,
    /// `(hole, seeds, kind)` in order.
    pub captures: Vec<(usize, u8, CaptureKind)>,
    last: Last,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            laps: 0,
            first_laps: Vec::new(),
            last_lap: None,
            last_seed: None,
            captures: Vec::new(),
            last: Last::None,
        }
    }
}

impl SowObserver for Trace {
    fn lap(&mut self, hole: usize, seeds: u8) {
        // A relay lap starts where the last seed fell; any other lap after
        // the first starts the second sowing of a two-hole opening.
        let relay = self.last == Last::Seed && self.last_seed == Some(hole);
        let new_sowing = self.laps > 0 && !relay;
        self.laps += 1;
        if self.first_laps.len() < LAPS_SHOWN {
            self.first_laps.push((hole, seeds, new_sowing));
        } else {
            self.last_lap = Some((hole, seeds));
        }
        self.last = Last::Lap;
    }

    fn seed(&mut self, hole: usize) {
        if self.last == Last::Capture {
            if let Some(c) = self.captures.last_mut() {
                c.2 = CaptureKind::EnPassant;
            }
        }
        self.last_seed = Some(hole);
        self.last = Last::Seed;
    }

    fn capture(&mut self, hole: usize, seeds: u8) {
        let kind = if self.last == Last::Capture {
            CaptureKind::Chain
        } else {
            CaptureKind::Casa
        };
        self.captures.push((hole, seeds, kind));
        self.last = Last::Capture;
    }
}

/// `S3` / `N5`: a hole by its owner's initial and the owner's hole number.
pub fn hole_name(pos: &Position, i: usize) -> String {
    let n = pos.rules().holes();
    let (c, k) = if i < n { ('S', i + 1) } else { ('N', i - n + 1) };
    format!("{c}{k}")
}

/// Plays `m` on a copy of `before` to trace it. `None` if the move is illegal.
pub fn trace(before: &Position, m: Move) -> Option<(Trace, Played)> {
    let mut p = *before;
    let mut t = Trace::default();
    let played = p.play_observed(m, &mut t).ok()?;
    Some((t, played))
}

/// Lines describing a played move: `before` is the position it was played
/// in, `after` the position after it (repetition rule applied).
/// `who` names the mover (e.g. `North (engine, level 3)`).
pub fn describe(
    who: &str,
    before: &Position,
    m: Move,
    t: &Trace,
    played: Played,
    after: &Position,
) -> Vec<String> {
    let mover = before.to_move();
    let mut lines = Vec::new();
    let mut sowing = String::new();
    for (i, &(h, s, new_sowing)) in t.first_laps.iter().enumerate() {
        if new_sowing {
            sowing.push_str("; then ");
        } else if i > 0 {
            sowing.push_str(" → ");
        }
        sowing.push_str(&format!("{}({s})", hole_name(before, h)));
    }
    if let Some((h, s)) = t.last_lap {
        let hidden = t.laps as usize - t.first_laps.len() - 1;
        if hidden > 0 {
            sowing.push_str(&format!(" → … {hidden} more laps …"));
        }
        sowing.push_str(&format!(" → {}({s})", hole_name(before, h)));
    }
    let mut head = format!(
        "{who} plays {}: {} lap{}: {sowing}",
        before.move_token(m),
        t.laps,
        if t.laps == 1 { "" } else { "s" }
    );
    // A move whose last event is a seed ended in an empty hole.
    if let (Some(h), Last::Seed) = (t.last_seed, t.last) {
        head.push_str(&format!("; last seed in {} (was empty)", hole_name(before, h)));
    }
    lines.push(head);
    if !t.captures.is_empty() {
        let caps: Vec<String> = t
            .captures
            .iter()
            .map(|&(h, s, k)| format!("{} {s} ({})", hole_name(before, h), k.name()))
            .collect();
        let total: u32 = t.captures.iter().map(|c| c.1 as u32).sum();
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
        if played.extra_turn {
            lines.push(format!("  {} captured and moves again", side_name(mover)));
        }
        let expected = if played.extra_turn { mover } else { mover.other() };
        if after.to_move() != expected {
            lines.push(format!("  {} has no legal move and passes", side_name(expected)));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{Rules, Variant};

    /// Replays random legal moves and checks the trace against the position:
    /// laps and captured seeds agree with `Played`.
    #[test]
    fn trace_agrees_with_played() {
        for variant in Variant::ALL {
            let mut pos = Position::new(Rules::standard(variant));
            let mut k = 7usize;
            while !pos.is_over() {
                let moves = pos.legal_moves();
                k = k.wrapping_mul(2_654_435_761).wrapping_add(12345);
                let m = moves[(k >> 7) % moves.len()];
                let (t, played) = trace(&pos, m).expect("legal");
                assert_eq!(t.laps, played.laps);
                let traced: u32 = t.captures.iter().map(|c| c.1 as u32).sum();
                let lines = describe("South", &pos, m, &t, played, &{
                    let mut p = pos;
                    p.play(m).unwrap();
                    p
                });
                assert!(lines[0].contains("plays"), "{lines:?}");
                // The last-four award is not a casa capture.
                assert!(traced <= played.captured as u32);
                if variant != Variant::I {
                    assert!(t.captures.iter().all(|c| c.2 != CaptureKind::EnPassant));
                }
                if variant != Variant::II {
                    assert!(t.captures.iter().all(|c| c.2 != CaptureKind::Chain));
                }
                pos.play(m).unwrap();
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
            (
                Variant::I,
                vec![(1, 4, CaptureKind::EnPassant), (2, 4, CaptureKind::Casa)],
            ),
            (
                Variant::II,
                vec![(2, 4, CaptureKind::Casa), (1, 4, CaptureKind::Chain)],
            ),
            (Variant::III, vec![(2, 4, CaptureKind::Casa)]),
        ];
        for (variant, captures) in expect {
            let pos = Position::from_notation(Rules::standard(variant), text).unwrap();
            let m = pos.parse_move("1").unwrap();
            let (t, played) = trace(&pos, m).unwrap();
            assert_eq!(t.captures, captures, "{variant}");
            let mut after = pos;
            after.play(m).unwrap();
            let lines = describe("South", &pos, m, &t, played, &after);
            assert!(lines[0].starts_with("South plays 1: 1 lap: S1(2)"), "{lines:?}");
            let kinds: Vec<&str> = captures.iter().map(|c| c.2.name()).collect();
            assert!(lines[1].contains(kinds[0]), "{lines:?}");
            assert_eq!(
                lines.iter().any(|l| l.contains("moves again")),
                variant != Variant::I
            );
        }
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
            let (t, played) = trace(&pos, m).unwrap();
            let mut after = pos;
            after.play(m).unwrap();
            let head = &describe("South", &pos, m, &t, played, &after)[0];
            let thens = head.matches("; then ").count();
            if t.laps as usize <= LAPS_SHOWN && !after.is_over() {
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
            let (t, played) = trace(&pos, m).unwrap();
            let mut after = pos;
            after.play(m).unwrap();
            assert!(!describe("South", &pos, m, &t, played, &after)[0].contains("; then "));
        }
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
