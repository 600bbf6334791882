//! Move-path counts ("perft") from the start position.
//!
//! - An independent count: [`ref_perft`] plays the rules with the reference
//!   sowing of `tests/common` (written from RULES.md, not from the library)
//!   and its own turn, pass, last-four and repetition logic; its counts at
//!   depths 1 to 5 must equal [`perft`]'s for every variant and option it
//!   models.
//! - Golden counts for deeper plies and more options, in `tests/golden/`
//!   (made with `hoyito perft`): a change in move generation, sowing,
//!   captures, passes or repetition changes some count.

mod common;

use common::{ref_sow, RefSow};
use hoyito_core::perft::perft;
use hoyito_core::{Direction, DirectionRule, Position, Rules, RulesSpec, Side, Variant};

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
    // Two-hole opening from the start: the ordered pairs of different holes
    // whose second hole still holds seeds after the first sowing (a relay
    // empties the hole it lifts), both sowings finite, counted with the
    // reference sowing.
    let rules = Rules::try_from(spec_from_flags("--variant I --two-hole-opening")).unwrap();
    let start = Position::new(rules);
    let closed = vec![false; 12];
    let mut want = 0;
    for a in 0..6 {
        for b in (0..6).filter(|&b| b != a) {
            let RefSow::Done { board, .. } =
                ref_sow(&rules, start.board(), &closed, a, Direction::Ccw, Side::South)
            else {
                continue;
            };
            if board[b] > 0
                && ref_sow(&rules, &board, &closed, b, Direction::Ccw, Side::South) != RefSow::Endless
            {
                want += 1;
            }
        }
    }
    assert!(want < 30, "some first sowing empties a second hole");
    assert_eq!(perft(&start, 1), want);
}

/// A game state for the reference count: no closed holes (single games).
#[derive(Clone, PartialEq, Eq)]
struct RefState {
    board: Vec<u8>,
    to_move: Side,
    /// Directions chosen under `per_player`.
    chosen: [Option<Direction>; 2],
    over: bool,
}

/// The legal one-hole moves of the side to move: own non-empty holes, each
/// allowed direction, endless sowings excluded; with their results.
fn ref_moves(rules: &Rules, s: &RefState) -> Vec<(usize, Direction, RefSow)> {
    let n = rules.holes();
    let me = s.to_move;
    let dirs: Vec<Direction> = match (rules.direction(), s.chosen[me.index()]) {
        (DirectionRule::Fixed, _) => vec![Direction::Ccw],
        (DirectionRule::PerPlayer, Some(d)) => vec![d],
        _ => vec![Direction::Ccw, Direction::Cw],
    };
    let closed = vec![false; 2 * n];
    let mut out = Vec::new();
    for h in me.index() * n..me.index() * n + n {
        if s.board[h] == 0 {
            continue;
        }
        for &d in &dirs {
            let r = ref_sow(rules, &s.board, &closed, h, d, me);
            if !matches!(r, RefSow::Endless) {
                out.push((h, d, r));
            }
        }
    }
    out
}

/// The game ends with the seeds in play shared (RULES.md §4): nothing more
/// to count, so only `over` matters here.
fn ref_end(s: &mut RefState) {
    s.over = true;
}

/// After a move: whoever is to move passes while they have no legal move;
/// if neither has one, the game ends.
fn ref_settle(rules: &Rules, s: &mut RefState) {
    if s.over || !ref_moves(rules, s).is_empty() {
        return;
    }
    s.to_move = s.to_move.other();
    if ref_moves(rules, s).is_empty() {
        ref_end(s);
    }
}

/// Move sequences of `depth` plies, from the rules text: an extra turn is
/// a ply, passes are not, a finished game is a leaf, and a position (board
/// and player to move) occurring for the third time on the path ends the game.
fn ref_perft(rules: &Rules, s: &RefState, depth: u32, path: &mut Vec<(Vec<u8>, Side)>) -> u64 {
    let mut s = s.clone();
    let key = (s.board.clone(), s.to_move);
    if !s.over && path.iter().filter(|k| **k == key).count() >= 2 {
        ref_end(&mut s);
    }
    if depth == 0 || s.over {
        return 1;
    }
    path.push(key);
    let mut count = 0;
    for (_, d, result) in ref_moves(rules, &s) {
        let RefSow::Done {
            board,
            captured,
            game_over,
            ..
        } = result
        else {
            unreachable!("endless sowings are not moves")
        };
        let mut next = RefState { board, ..s.clone() };
        let me = s.to_move;
        if rules.direction() == DirectionRule::PerPlayer {
            next.chosen[me.index()] = Some(d);
        }
        if game_over.is_some() {
            // A capture left 4 (awarded) or 0 seeds in play.
            next.over = true;
        } else {
            let extra = captured > 0 && rules.variant() != Variant::I;
            next.to_move = if extra { me } else { me.other() };
            ref_settle(rules, &mut next);
        }
        count += ref_perft(rules, &next, depth - 1, path);
    }
    path.pop();
    count
}

/// The library's perft equals the reference count at depths 1 to 5 for
/// every variant, board size 4 to 6, and each option the reference models
/// (direction per move and per player, capture side, skipping the origin,
/// other seed counts).
#[test]
fn perft_matches_the_reference_rules() {
    type Named = (&'static str, fn(&mut RulesSpec));
    let options: [Named; 6] = [
        ("standard", |_| {}),
        ("direction per_move", |s| s.direction = DirectionRule::PerMove),
        ("direction per_player", |s| s.direction = DirectionRule::PerPlayer),
        ("capture side opponent", |s| {
            s.capture_side = "opponent".parse().unwrap()
        }),
        ("skip origin, 7 seeds", |s| {
            s.skip_origin = true;
            s.seeds = 7;
        }),
        ("3 seeds", |s| s.seeds = 3),
    ];
    let mut compared = 0;
    for variant in Variant::ALL {
        for holes in [4u8, 5, 6] {
            for (name, f) in &options {
                let mut spec = RulesSpec {
                    variant,
                    holes,
                    ..RulesSpec::default()
                };
                f(&mut spec);
                let rules = Rules::try_from(spec).unwrap();
                let start = Position::new(rules);
                let s = RefState {
                    board: start.board().to_vec(),
                    to_move: Side::South,
                    chosen: [None; 2],
                    over: false,
                };
                let max_depth = if holes == 6 && *name != "standard" { 4 } else { 5 };
                for depth in 1..=max_depth {
                    let want = ref_perft(&rules, &s, depth, &mut Vec::new());
                    assert_eq!(
                        perft(&start, depth),
                        want,
                        "Hoyito {variant} 2x{holes} {name}, depth {depth}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 3 * (3 * 6 * 5 - 5));
}
