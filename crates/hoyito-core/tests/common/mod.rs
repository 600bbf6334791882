//! Helpers shared by the integration tests of hoyito-core.
#![allow(dead_code)]

use hoyito_core::{
    CaptureSide, Direction, DirectionRule, Game, Move, Played, Position, Repetition, Rules, RulesSpec, Side,
    SowObserver, Variant,
};
use proptest::prelude::*;

/// Rules of `variant` on 2×`holes` with `f` applied to the options.
pub fn rules_with(variant: Variant, holes: u8, f: impl FnOnce(&mut RulesSpec)) -> Rules {
    let mut spec = RulesSpec {
        variant,
        holes,
        ..RulesSpec::default()
    };
    f(&mut spec);
    Rules::try_from(spec).expect("valid rules")
}

/// Any rules for the property tests: every variant, board size 4..=12 and
/// option, mostly 4 seeds per hole and else 1 to 6.
pub fn arb_rules() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(Variant::ALL.to_vec()),
        4u8..=12,
        prop_oneof![4 => Just(4u8), 1 => 1u8..=6],
        any::<bool>(),
        prop::sample::select(DirectionRule::ALL.to_vec()),
        any::<bool>(),
        prop::sample::select(Repetition::ALL.to_vec()),
        prop::sample::select(CaptureSide::ALL.to_vec()),
    )
        .prop_map(
            |(variant, holes, seeds, skip_origin, direction, two_hole_opening, repetition, capture_side)| {
                Rules::try_from(RulesSpec {
                    variant,
                    holes,
                    seeds,
                    skip_origin,
                    direction,
                    two_hole_opening,
                    repetition,
                    capture_side,
                })
                .expect("specs drawn here are valid")
            },
        )
}

/// Standard rules of `variant` on 2×`holes`.
pub fn rules(variant: Variant, holes: u8) -> Rules {
    rules_with(variant, holes, |_| {})
}

/// A position from notation; the notation must read back exactly as written
/// (so every test board is also a notation round trip).
#[track_caller]
pub fn at(rules: Rules, text: &str) -> Position {
    let p = Position::from_notation(rules, text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(p.to_notation(), text, "notation must read back as written");
    p
}

/// Plays a token, panicking with the position if it is unreadable or illegal.
#[track_caller]
pub fn play(p: &mut Position, token: &str) -> Played {
    let m = p
        .parse_move(token)
        .unwrap_or_else(|e| panic!("{token} in {}: {e}", p.to_notation()));
    p.play(m)
        .unwrap_or_else(|e| panic!("{token} in {}: {e}", p.to_notation()))
}

/// Plays `token` from `before` and checks the exact resulting position (in
/// notation: board, closed holes, side to move, captures, …) and what the
/// move reports. The game must go on.
#[track_caller]
pub fn case(
    rules: Rules,
    before: &str,
    token: &str,
    after: &str,
    laps: u32,
    captured: u8,
    extra_turn: bool,
) -> Position {
    let mut p = at(rules, before);
    let played = play(&mut p, token);
    assert_eq!(p.to_notation(), after, "board after {token} from {before}");
    assert!(!p.is_over(), "the game goes on after {token} from {before}");
    assert_eq!(
        played,
        Played {
            laps,
            captured,
            extra_turn
        },
        "what {token} from {before} did"
    );
    total_check(&p);
    p
}

/// Seeds on the board + captured + reserve.
pub fn total(p: &Position) -> u32 {
    let c = p.captured();
    let r = p.reserve();
    p.board().iter().map(|&s| s as u32).sum::<u32>()
        + c.south as u32
        + c.north as u32
        + r.south as u32
        + r.north as u32
}

/// In-play counter agrees with the board.
#[track_caller]
pub fn total_check(p: &Position) {
    assert_eq!(
        p.in_play() as u32,
        p.board().iter().map(|&s| s as u32).sum::<u32>(),
        "in_play agrees with the board of {}",
        p.to_notation()
    );
}

/// Plays a list of tokens in a game.
#[track_caller]
pub fn play_all(g: &mut Game, tokens: &[&str]) {
    for t in tokens {
        g.play_token(t)
            .unwrap_or_else(|e| panic!("{t} in {}: {e}", g.position().to_notation()));
    }
}

/// Every combination of the options of RULES.md §6 (and a few seed counts),
/// for `variant` on 2×`holes`.
pub fn all_option_specs(variant: Variant, holes: u8) -> Vec<RulesSpec> {
    let mut out = Vec::new();
    for &skip_origin in &[false, true] {
        for &direction in DirectionRule::ALL {
            for &two_hole_opening in &[false, true] {
                for &repetition in Repetition::ALL {
                    for &capture_side in CaptureSide::ALL {
                        out.push(RulesSpec {
                            variant,
                            holes,
                            seeds: 4,
                            skip_origin,
                            direction,
                            two_hole_opening,
                            repetition,
                            capture_side,
                        });
                    }
                }
            }
        }
    }
    out
}

/// An observer that mirrors the board from the sowing events and checks the
/// hand never goes negative and every capture takes exactly 4.
#[derive(Debug, Clone)]
pub struct Mirror {
    pub board: Vec<i64>,
    pub hand: i64,
    pub laps: u32,
    pub seeds: u64,
    pub captures: Vec<(usize, u8)>,
    pub min_hand: i64,
}

impl Mirror {
    pub fn new(p: &Position) -> Mirror {
        Mirror {
            board: p.board().iter().map(|&s| s as i64).collect(),
            hand: 0,
            laps: 0,
            seeds: 0,
            captures: Vec::new(),
            min_hand: 0,
        }
    }
    pub fn captured(&self) -> u32 {
        self.captures.iter().map(|&(_, s)| s as u32).sum()
    }
}

impl SowObserver for Mirror {
    fn lap(&mut self, hole: usize, seeds: u8) {
        assert!(seeds > 0, "a lap lifts at least one seed");
        assert_eq!(self.hand, 0, "a lap starts with an empty hand");
        assert_eq!(
            self.board[hole], seeds as i64,
            "a lap lifts all the seeds of hole {hole}"
        );
        self.board[hole] = 0;
        self.hand += seeds as i64;
        self.laps += 1;
    }
    fn seed(&mut self, hole: usize) {
        self.hand -= 1;
        self.min_hand = self.min_hand.min(self.hand);
        assert!(self.hand >= 0, "the hand went negative");
        self.board[hole] += 1;
        self.seeds += 1;
    }
    fn capture(&mut self, hole: usize, seeds: u8) {
        assert_eq!(seeds, 4, "a capture takes exactly the 4 seeds of a casa");
        assert_eq!(self.board[hole], 4, "the captured hole {hole} held 4");
        self.board[hole] = 0;
        self.captures.push((hole, seeds));
    }
}

/// Index of a move token for the side to move (convenience for asserting lists).
pub fn tokens(p: &Position, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|&m| p.move_token(m).to_string()).collect()
}

// ----- An independent reference sowing ------------------------------------------

/// Result of [`ref_sow`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefSow {
    /// The relay sowing never ends.
    Endless,
    /// The sowing ended.
    Done {
        /// The board afterwards (as it is when the move ends; before any
        /// last-four award empties it).
        board: Vec<u8>,
        /// Seeds captured from holes by the mover (casas only, no award).
        captured: u32,
        /// Laps sown.
        laps: u32,
        /// Seeds left in play (board + hand) if a capture ended the game (4 or 0).
        game_over: Option<u32>,
    },
}

#[derive(Clone, PartialEq, Eq)]
struct LapState {
    board: Vec<u8>,
    pos: usize,
    hand: u32,
    captured: u32,
}

/// A straightforward re-implementation of RULES.md §2–§4 for one sowing,
/// written from the rules text independently of `Position::sow_move`.
/// Endless sowings are found with Floyd's algorithm on lap-start states.
pub fn ref_sow(
    rules: &Rules,
    board: &[u8],
    closed: &[bool],
    start: usize,
    dir: Direction,
    mover: Side,
) -> RefSow {
    let len = board.len();
    let n = len / 2;
    let open = closed.iter().filter(|&&c| !c).count();
    let skip_origin = rules.skip_origin() && open >= 2;
    let variant = rules.variant();
    let capturable = |i: usize| {
        rules.capture_side() == CaptureSide::Any || (if i < n { Side::South } else { Side::North }) != mover
    };
    let step = |i: usize, forward: bool, skip: Option<usize>| {
        let mut j = i;
        loop {
            j = if forward == (dir == Direction::Ccw) {
                (j + 1) % len
            } else {
                (j + len - 1) % len
            };
            if !closed[j] && Some(j) != skip {
                return j;
            }
        }
    };
    // One lap from a lap-start state: Ok(next lap start) or Err((final state, seeds left if over)).
    let lap = |mut s: LapState| -> Result<LapState, (LapState, Option<u32>)> {
        let origin = s.pos;
        let skip = skip_origin.then_some(origin);
        let mut pos = origin;
        let left = |s: &LapState| s.board.iter().map(|&x| x as u32).sum::<u32>() + s.hand;
        while s.hand > 0 {
            pos = step(pos, true, skip);
            s.board[pos] += 1;
            s.hand -= 1;
            if variant == Variant::I && s.board[pos] == 4 && capturable(pos) {
                s.board[pos] = 0;
                s.captured += 4;
                let l = left(&s);
                if l == 4 || l == 0 {
                    return Err((s, Some(l)));
                }
                if s.hand == 0 {
                    return Err((s, None));
                }
            }
        }
        let last = s.board[pos];
        if last == 1 {
            return Err((s, None));
        }
        if last == 4 && capturable(pos) {
            s.board[pos] = 0;
            s.captured += 4;
            let l = left(&s);
            if l == 4 || l == 0 {
                return Err((s, Some(l)));
            }
            if variant == Variant::II {
                let mut i = step(pos, false, None);
                while s.board[i] == 4 && capturable(i) {
                    s.board[i] = 0;
                    s.captured += 4;
                    let l = left(&s);
                    if l == 4 || l == 0 {
                        return Err((s, Some(l)));
                    }
                    i = step(i, false, None);
                }
            }
            return Err((s, None));
        }
        s.hand = last as u32;
        s.board[pos] = 0;
        s.pos = pos;
        Ok(s)
    };
    let mut b = board.to_vec();
    let hand = b[start] as u32;
    b[start] = 0;
    let s0 = LapState {
        board: b,
        pos: start,
        hand,
        captured: 0,
    };
    // Floyd: if the hare ever finishes, the sowing is finite.
    let (mut t, mut h) = (s0.clone(), s0.clone());
    'floyd: loop {
        t = match lap(t) {
            Ok(x) => x,
            Err(_) => break 'floyd,
        };
        for _ in 0..2 {
            h = match lap(h) {
                Ok(x) => x,
                Err(_) => break 'floyd,
            };
        }
        if t == h {
            return RefSow::Endless;
        }
    }
    let mut s = s0;
    let mut laps = 1;
    loop {
        match lap(s) {
            Ok(x) => {
                s = x;
                laps += 1;
            }
            Err((f, over)) => {
                return RefSow::Done {
                    board: f.board,
                    captured: f.captured,
                    laps,
                    game_over: over,
                }
            }
        }
    }
}

/// The reference sowing of hole `start` of `p`'s side to move.
pub fn ref_sow_at(p: &Position, start: usize, dir: Direction, mover: Side) -> RefSow {
    let closed: Vec<bool> = (0..p.board().len()).map(|i| p.is_closed(i)).collect();
    ref_sow(p.rules(), p.board(), &closed, start, dir, mover)
}
