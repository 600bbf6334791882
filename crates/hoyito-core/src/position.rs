//! [`Position`]: the state of one game (one round of a match), the sowing
//! loop shared by every variant, captures, passes and the last-four rule.

use crate::error::{PlayError, PositionError};
use crate::moves::{Move, MoveList, SingleMoves};
use crate::rules::{CaptureSide, Direction, DirectionRule, Repetition, Rules, Variant, MAX_BOARD};
use crate::side::{ByPlayer, Side};

/// Laps sown before endless-sowing detection starts. Detection (see
/// [`CycleCheck`]) is exact from any starting lap; waiting
/// keeps ordinary moves, almost all shorter than this, free of its cost.
const CYCLE_CHECK_FROM_LAP: u32 = 32;

/// `ONES[k]`: the 24-byte board with 1 in each of the first `k` holes, as three words.
const ONES: [[u64; 3]; MAX_BOARD + 1] = {
    let mut t = [[0u64; 3]; MAX_BOARD + 1];
    let mut k = 0;
    while k <= MAX_BOARD {
        let mut i = 0;
        while i < k {
            t[k][i / 8] |= 1u64 << (8 * (i % 8));
            i += 1;
        }
        k += 1;
    }
    t
};

/// The board as three little-endian words (hole `i` is byte `i % 8` of word `i / 8`).
#[inline(always)]
fn board_words(b: &[u8; MAX_BOARD]) -> [u64; 3] {
    let w = |k: usize| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().expect("8 bytes"));
    [w(0), w(1), w(2)]
}

/// One in every byte.
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

/// Bit `i` set for each non-empty hole `i`, computed eight holes at a time.
#[inline(always)]
fn nonempty_mask(b: &[u8; MAX_BOARD]) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    board_words(b).iter().enumerate().fold(0u32, |m, (k, &x)| {
        // High bit of each byte set iff the byte is non-zero.
        let high = (((x & LOW7) + LOW7) | x) & !LOW7;
        // Gather the eight high bits into one byte.
        let bits = ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        m | bits << (8 * k)
    })
}

#[inline(always)]
fn set_board_words(b: &mut [u8; MAX_BOARD], w: &[u64; 3]) {
    for (k, x) in w.iter().enumerate() {
        b[8 * k..8 * k + 8].copy_from_slice(&x.to_le_bytes());
    }
}

#[inline(always)]
fn byte(w: &[u64; 3], i: usize) -> u8 {
    (w[i / 8] >> (8 * (i % 8))) as u8
}

/// Empties byte `i`, branch-free and without an indexed store: the words
/// are then read whole, and a wide load after a narrow store would stall.
#[inline(always)]
fn clear_byte(w: &mut [u64; 3], i: usize) {
    let m = 0xFFu64 << (8 * (i % 8));
    let k = i / 8;
    w[0] &= !(m & 0u64.wrapping_sub((k == 0) as u64));
    w[1] &= !(m & 0u64.wrapping_sub((k == 1) as u64));
    w[2] &= !(m & 0u64.wrapping_sub((k == 2) as u64));
}

/// Adds one lap of `h` seeds sown from `pos` (counter-clockwise if `CCW`)
/// on a board of `len` holes without closed holes or skipping, and returns
/// the hole of the last seed. Counts stay below 256, so bytes never carry.
#[inline(always)]
fn add_lap<const CCW: bool>(w: &mut [u64; 3], pos: usize, h: usize, len: usize) -> usize {
    let (full, r) = if h < len { (0, h) } else { (h / len, h % len) };
    let add = |w: &mut [u64; 3], a: usize, b: usize, times: u64| {
        w[0] = w[0].wrapping_add(ONES[b][0].wrapping_sub(ONES[a][0]).wrapping_mul(times));
        w[1] = w[1].wrapping_add(ONES[b][1].wrapping_sub(ONES[a][1]).wrapping_mul(times));
        w[2] = w[2].wrapping_add(ONES[b][2].wrapping_sub(ONES[a][2]).wrapping_mul(times));
    };
    if full > 0 {
        add(w, 0, len, full as u64);
    }
    // One range, or two when the lap wraps past the board's end; computed
    // without branches (the wrap is unpredictable).
    if CCW {
        let end = pos + r + 1; // holes pos+1 .. end (mod len)
        let wrap = end.saturating_sub(len);
        add(w, pos + 1, end - wrap, 1);
        add(w, 0, wrap, 1);
        (end - 1) - if end > len { len } else { 0 }
    } else {
        let under = r.saturating_sub(pos); // holes pos-r .. pos (mod len)
        add(w, pos - (r - under), pos, 1);
        add(w, len - under, len, 1);
        pos + if under > 0 { len } else { 0 } - r
    }
}

/// The holes a lap of `h < len` seeds from `pos` makes into casas: those
/// holding 3 among the holes it sows (each gets one seed), as the high bit
/// of their byte, found eight holes at a time.
#[inline(always)]
fn lap_casas<const CCW: bool>(w: &[u64; 3], pos: usize, h: usize, len: usize) -> [u64; 3] {
    debug_assert!(h < len);
    const LOW: u64 = 0x0101_0101_0101_0101;
    let (a1, b1, a2, b2) = if CCW {
        let end = pos + h + 1;
        let wrap = end.saturating_sub(len);
        (pos + 1, end - wrap, 0, wrap)
    } else {
        let under = h.saturating_sub(pos);
        (pos - (h - under), pos, len - under, len)
    };
    // A plain loop rather than `array::from_fn`, which is not always inlined.
    let mut casas = [0; 3];
    for (k, c) in casas.iter_mut().enumerate() {
        let range = ONES[b1][k].wrapping_sub(ONES[a1][k]) | ONES[b2][k].wrapping_sub(ONES[a2][k]);
        let y = w[k] ^ (3 * LOW); // bytes holding 3 become 0
                                  // Exactly the zero bytes (no borrow crosses a byte).
        let zero = !(((y & (0x7F * LOW)) + 0x7F * LOW) | y) & (0x80 * LOW);
        *c = zero & (range << 7);
    }
    casas
}

/// Whether a relay sowing of Hoyito II or III is sure never to end, read
/// from one lap start: `hand` seeds just lifted from the origin, on a ring
/// of `len` open holes whose seeds after the origin, in sowing order,
/// `ahead` gives; the origin is not skipped.
///
/// Sowing then moves one hole per seed without a break, across laps too,
/// so every hole gets a seed once every `len` seeds, and a hole's seeds
/// count the turns since it was last lifted (an earlier time for its
/// seeds at the start). When hole `x`, last lifted at time `t_x` (counted
/// in seeds sown), is lifted at time `t`, its hand is `h = (t − t_x)/len`,
/// and that lap ends at `t + h ≡ t_x (mod len + 1)`, as `len ≡ −1`.
/// So the residues modulo `len + 1` of the holes' last lifting times and
/// of the end of the current lap are a multiset that each lift only
/// permutes, and a lap's last seed makes `h ≡ t_x − t (mod len + 1)` in
/// its hole. A move ends only on a last seed making 1 or 4 (Hoyito II and
/// III sow nothing away in between), so if no two residues differ by 1 or
/// 4 the sowing goes round forever. Checked once: the residues are the
/// same at every lap. Endless sowings whose residues allow an end that
/// never comes are left to [`CycleCheck`], as are rings of fewer than 4
/// holes (where 4 ≡ 0 or 1).
#[cold]
fn relay_never_ends(hand: u8, ahead: impl Iterator<Item = u8>, len: usize) -> bool {
    if len < 4 {
        return false;
    }
    let m = len + 1;
    // One bit per residue present: the origin was lifted at time 0, the
    // lap ends at time `hand`, and the hole `d` after the origin, reached
    // at time `d` with `c` seeds, was last lifted at `d − (c + 1)·len`,
    // that is `d + c + 1`.
    let mut set = 1u32 | 1 << (hand as usize % m);
    for (d, c) in (1..len).zip(ahead) {
        set |= 1 << ((d + c as usize + 1) % m);
    }
    let full = (1u32 << m) - 1;
    let rotate = |k: usize| ((set << k) | (set >> (m - k))) & full;
    set & (rotate(1) | rotate(4)) == 0
}

/// [`relay_never_ends`] of the lap start `hand` seeds lifted from `pos` on
/// the board words `w` of `len` holes, none closed.
fn words_never_end<const CCW: bool>(w: &[u64; 3], pos: usize, hand: u8, len: usize) -> bool {
    let after = |d| {
        if CCW {
            (pos + d) % len
        } else {
            (pos + len - d) % len
        }
    };
    relay_never_ends(hand, (1..len).map(|d| byte(w, after(d))), len)
}

/// A lap-start state: the board words, and the lap origin and the seeds in
/// hand packed into one word.
type LapState = [u64; 4];

/// Exact endless-sowing detection in constant memory, on the lap-start state
/// (board, lap origin, seeds in hand), with two comparisons per lap:
///
/// - with the *anchor*, the state where detection started. Relay sowing
///   hardly ever merges two lap sequences: a lap of fewer seeds than holes
///   has only one possible predecessor (back to the nearest empty hole). So
///   an endless sowing is in practice a pure cycle through its own laps
///   (every one checked so far was), and this finds it after exactly one
///   turn, the least any method can take;
/// - Brent's algorithm, which finds any cycle, with a tail or not, within
///   three to five turns.
struct CycleCheck {
    anchor: LapState,
    brent: Brent,
}

impl CycleCheck {
    /// Starts detection at the lap whose start state this is.
    fn new(board: &[u64; 3], pos: usize, hand: u8) -> Self {
        let anchor = lap_state(board, pos, hand);
        CycleCheck {
            anchor,
            brent: Brent {
                saved: anchor,
                power: 1,
                lam: 0,
            },
        }
    }

    /// Records the state at the start of a later lap; `true` if it was seen
    /// before.
    #[inline(always)]
    fn repeats(&mut self, board: &[u64; 3], pos: usize, hand: u8) -> bool {
        let state = lap_state(board, pos, hand);
        same_state(&state, &self.anchor) || self.brent.repeats(&state)
    }
}

/// `a == b`, word by word in registers: the array comparison is compiled
/// to 16-byte loads of a state just stored as 8-byte words, which cannot
/// be forwarded from the stores and stalled every lap.
#[inline(always)]
fn same_state(a: &LapState, b: &LapState) -> bool {
    (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) == 0
}

#[inline(always)]
fn lap_state(board: &[u64; 3], pos: usize, hand: u8) -> LapState {
    [board[0], board[1], board[2], (pos as u64) << 8 | hand as u64]
}

/// Brent's cycle detection (see [`CycleCheck`]).
struct Brent {
    saved: LapState,
    power: u64,
    lam: u64,
}

impl Brent {
    #[inline(always)]
    fn repeats(&mut self, state: &LapState) -> bool {
        if same_state(&self.saved, state) {
            return true;
        }
        self.lam += 1;
        if self.lam >= self.power {
            self.saved = *state;
            self.power = self.power.saturating_mul(2);
            self.lam = 0;
        }
        false
    }
}

/// How a lap ended.
enum Lap {
    /// The last seed fell in an occupied hole: its seeds (the second field)
    /// were lifted from it (the first) for a new lap.
    Relay(usize, u8),
    /// The move ended (empty hole, capture, or end of the game).
    End,
}

/// Who receives the last four seeds (RULES.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LastFour {
    /// The captor of the penultimate casa (Hoyito I, II; III in rounds 1–2 and single games).
    #[default]
    Captor,
    /// A fixed player: in Hoyito III from round 3, the winner of the previous round.
    To(Side),
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum EndReason {
    /// A capture left exactly 4 seeds, which were awarded (RULES.md §4).
    LastFour,
    /// A capture left no seed in play.
    Exhausted,
    /// A position occurred for the third time; the seeds were shared.
    Repetition,
    /// Neither player had a legal move; the seeds were shared.
    NoMoves,
}

impl EndReason {
    /// Snake-case name.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::LastFour => "last_four",
            EndReason::Exhausted => "exhausted",
            EndReason::Repetition => "repetition",
            EndReason::NoMoves => "no_moves",
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// Events of a sowing, for animation, tracing and incremental hashing.
/// Every method has an empty default; the unit type `()` observes nothing
/// and costs nothing.
///
/// An observer with `TRACES = true` gets one [`seed`](Self::seed) event per
/// seed. With `TRACES = false`, laps on a board without closed holes or
/// skipping may be sown arithmetically, and such a lap is reported by one
/// [`lap_sown`](Self::lap_sown) event instead of its seed events (other
/// laps still report their seeds).
pub trait SowObserver {
    /// Whether the observer wants per-seed events. When `false` (the unit
    /// observer), laps may be sown arithmetically.
    const TRACES: bool = true;
    /// Whether the observer wants the events at all when `TRACES` is
    /// `false`; the unit observer does not, so no event costs it anything.
    const EVENTS: bool = true;
    /// A lap starts: `seeds` were lifted from `hole` (the move's first lap included).
    #[inline]
    fn lap(&mut self, _hole: usize, _seeds: u8) {}
    /// One seed was dropped into `hole`.
    #[inline]
    fn seed(&mut self, _hole: usize) {}
    /// A lap of `seeds` seeds lifted from `hole` was sown arithmetically
    /// (only when `TRACES` is `false`) on a board of `len` holes, none closed
    /// and none skipped: every hole got `seeds / len`, and the next
    /// `seeds % len` holes from `hole` in the sowing direction (`ccw`:
    /// increasing indices) one more. Captures made during the lap follow as
    /// [`capture`](Self::capture) events.
    #[inline]
    fn lap_sown(&mut self, _hole: usize, _seeds: u8, _ccw: bool, _len: usize) {}
    /// The mover captured `seeds` from `hole`.
    #[inline]
    fn capture(&mut self, _hole: usize, _seeds: u8) {}
}

impl SowObserver for () {
    const TRACES: bool = false;
    const EVENTS: bool = false;
}

/// What a played move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Played {
    /// Laps sown (both sowings of a two-hole opening together; at most
    /// `u32::MAX`, where the count stops).
    pub laps: u32,
    /// Seeds the mover captured, the last-four award included.
    pub captured: u8,
    /// The mover moves again (Hoyito II/III capture).
    pub extra_turn: bool,
}

/// The unvalidated form of a [`Position`], with public fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Seeds per hole in index order, `2n` entries; closed holes hold 0.
    pub board: Vec<u8>,
    /// Indices of closed holes.
    pub closed: Vec<usize>,
    /// The player to move.
    pub to_move: Side,
    /// Seeds captured this round.
    pub captured: ByPlayer<u8>,
    /// Seeds held in reserve from earlier rounds (RULES.md §5).
    pub reserve: ByPlayer<u8>,
    /// Directions chosen under `direction = per_player`.
    pub chosen: ByPlayer<Option<Direction>>,
    /// The next move is the two-hole opening of the game.
    pub opening: bool,
    /// Who gets the last four.
    pub last_four: LastFour,
    /// Round of the match (1 for a single game).
    pub round: u32,
}

impl Setup {
    /// The start of a single game under `rules`.
    pub fn start(rules: &Rules) -> Setup {
        Setup {
            board: vec![rules.seeds(); rules.board_len()],
            closed: Vec::new(),
            to_move: Side::South,
            captured: ByPlayer::default(),
            reserve: ByPlayer::default(),
            chosen: ByPlayer::default(),
            opening: rules.two_hole_opening(),
            last_four: LastFour::Captor,
            round: 1,
        }
    }
}

/// A validated position of one game: board, closed holes, side to move,
/// captures, reserves, direction choices, and the game's result once over.
///
/// `Position` is `Copy` (about 48 bytes); playing a move never allocates.
///
/// # Examples
///
/// ```
/// use hoyito_core::{Position, Rules, Variant};
/// let mut pos = Position::new(Rules::standard(Variant::I));
/// let m = pos.parse_move("3")?;
/// pos.play(m)?;
/// assert_eq!(pos.board().iter().map(|&s| s as u32).sum::<u32>()
///     + pos.captured().south as u32 + pos.captured().north as u32, 48);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    board: [u8; MAX_BOARD],
    closed: u32,
    to_move: Side,
    opening: bool,
    in_play: u8,
    captured: ByPlayer<u8>,
    reserve: ByPlayer<u8>,
    chosen: ByPlayer<Option<Direction>>,
    last_four: LastFour,
    round: u16,
    outcome: Option<Outcome>,
}

impl Position {
    /// The start position of a single game.
    pub fn new(rules: Rules) -> Position {
        Position::from_setup(rules, &Setup::start(&rules)).expect("the start position is valid")
    }

    /// Builds a position from a [`Setup`], validating it, then settles any
    /// automatic pass (and ends the game if nobody can move).
    ///
    /// # Errors
    /// [`PositionError`] if the board has the wrong length, a closed hole is
    /// out of range or holds seeds, or there are more than 240 seeds.
    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Position, PositionError> {
        let len = rules.board_len();
        if setup.board.len() != len {
            return Err(PositionError::BoardLength {
                got: setup.board.len(),
                holes: rules.holes(),
            });
        }
        let mut closed = 0u32;
        for &c in &setup.closed {
            if c >= len || setup.board[c] != 0 {
                return Err(PositionError::Closed(c));
            }
            closed |= 1 << c;
        }
        let in_play: u32 = setup.board.iter().map(|&s| s as u32).sum();
        let total = in_play
            + (setup.captured.south as u32)
            + (setup.captured.north as u32)
            + (setup.reserve.south as u32)
            + (setup.reserve.north as u32);
        if total > crate::rules::MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds(total));
        }
        let mut board = [0u8; MAX_BOARD];
        board[..len].copy_from_slice(&setup.board);
        let chosen = match rules.direction() {
            DirectionRule::PerPlayer => setup.chosen,
            _ => ByPlayer::default(),
        };
        let mut pos = Position {
            rules,
            board,
            closed,
            to_move: setup.to_move,
            opening: setup.opening && rules.two_hole_opening(),
            in_play: in_play as u8,
            captured: setup.captured,
            reserve: setup.reserve,
            chosen,
            last_four: setup.last_four,
            round: setup.round.clamp(1, u16::MAX as u32) as u16,
            outcome: None,
        };
        if in_play == 0 {
            pos.finish(EndReason::Exhausted);
        } else {
            pos.settle();
        }
        Ok(pos)
    }

    /// The unvalidated form of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board().to_vec(),
            closed: self.closed_holes().collect(),
            to_move: self.to_move,
            captured: self.captured,
            reserve: self.reserve,
            chosen: self.chosen,
            opening: self.opening,
            last_four: self.last_four,
            round: self.round as u32,
        }
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Seeds per hole in index order (`2n` entries; closed holes hold 0).
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.board[..self.rules.board_len()]
    }
    /// Seeds in hole `i`.
    #[inline]
    pub fn seeds(&self, i: usize) -> u8 {
        self.board[i]
    }
    /// Whether hole `i` is closed this round.
    #[inline]
    pub fn is_closed(&self, i: usize) -> bool {
        self.closed >> i & 1 != 0
    }
    /// Bit mask of closed holes (bit `i` for hole `i`).
    #[inline]
    pub fn closed_mask(&self) -> u32 {
        self.closed
    }
    /// Indices of closed holes, ascending.
    pub fn closed_holes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rules.board_len()).filter(move |&i| self.is_closed(i))
    }
    /// The player to move (after automatic passes). Meaningless once the game is over.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    /// Seeds captured this round by each player (last-four award and final shares included).
    #[inline]
    pub fn captured(&self) -> ByPlayer<u8> {
        self.captured
    }
    /// Seeds each player holds in reserve from earlier rounds.
    #[inline]
    pub fn reserve(&self) -> ByPlayer<u8> {
        self.reserve
    }
    /// Seeds still in play (on the board).
    #[inline]
    pub fn in_play(&self) -> u8 {
        self.in_play
    }
    /// Directions chosen so far under `direction = per_player`.
    #[inline]
    pub fn chosen_directions(&self) -> ByPlayer<Option<Direction>> {
        self.chosen
    }
    /// Whether the next move is the two-hole opening.
    #[inline]
    pub fn opening_pending(&self) -> bool {
        self.opening
    }
    /// Who gets the last four in this game.
    #[inline]
    pub fn last_four(&self) -> LastFour {
        self.last_four
    }
    /// Round number of the match (1 in a single game).
    #[inline]
    pub fn round(&self) -> u32 {
        self.round as u32
    }
    /// The result, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// The owner of hole `i`.
    #[inline]
    pub fn owner(&self, i: usize) -> Side {
        if i < self.rules.holes() {
            Side::South
        } else {
            Side::North
        }
    }
    /// Board indices of `side`'s row.
    #[inline]
    pub fn row(&self, side: Side) -> core::ops::Range<usize> {
        let n = self.rules.holes();
        match side {
            Side::South => 0..n,
            Side::North => n..2 * n,
        }
    }
    /// Seeds in `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u32 {
        self.board[self.row(side)].iter().map(|&s| s as u32).sum()
    }
    /// Captured minus the opponent's captured, from `side`'s view.
    pub fn margin(&self, side: Side) -> i32 {
        (self.captured[side] as i32 + self.reserve[side] as i32)
            - (self.captured[side.other()] as i32 + self.reserve[side.other()] as i32)
    }

    /// An exact key of what the repetition rule compares: board, closed
    /// holes and player to move (RULES.md §4).
    #[inline]
    pub fn repetition_key(&self) -> RepetitionKey {
        let b = &self.board;
        let w = |k: usize| u64::from_le_bytes(b[k..k + 8].try_into().expect("8 bytes"));
        RepetitionKey([
            w(0),
            w(8),
            w(16),
            (self.closed as u64) << 1 | self.to_move.index() as u64,
        ])
    }

    /// A 64-bit hash of board, closed holes, side to move, and the state that
    /// decides legal moves (direction choices, opening).
    #[inline]
    pub fn hash(&self) -> u64 {
        let k = self.repetition_key().0;
        let extra = (self.opening as u64) << 40
            | (dir_code(self.chosen.south) as u64) << 42
            | (dir_code(self.chosen.north) as u64) << 44;
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for w in [k[0], k[1], k[2], k[3] ^ extra] {
            h = (h ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        h
    }

    // ----- move generation ------------------------------------------------

    /// Directions the player to move may sow in.
    #[inline]
    pub(crate) fn directions(&self) -> (Direction, Option<Direction>) {
        match self.rules.direction() {
            DirectionRule::Fixed => (Direction::Ccw, None),
            DirectionRule::PerMove => (Direction::Ccw, Some(Direction::Cw)),
            DirectionRule::PerPlayer => match self.chosen[self.to_move] {
                Some(d) => (d, None),
                None => (Direction::Ccw, Some(Direction::Cw)),
            },
        }
    }

    /// Whether `side` has seeds in an open hole of their row (closed holes hold none).
    #[inline]
    pub fn has_seeds(&self, side: Side) -> bool {
        let n = self.rules.holes();
        let (a, b) = (n * side.index(), n * side.index() + n);
        let w = board_words(&self.board);
        // Whether any byte of the row is non-zero, eight holes at a time.
        (0..3).fold(0, |acc, k| {
            acc | w[k] & ONES[b][k].wrapping_sub(ONES[a][k]).wrapping_mul(0xFF)
        }) != 0
    }

    /// The mover's non-empty holes as bits, bit `k` for the row's `k`-th
    /// hole (index `row.start + k`).
    #[inline]
    pub(crate) fn mover_mask(&self) -> (u32, usize) {
        let row = self.row(self.to_move);
        (
            (nonempty_mask(&self.board) >> row.start) & ((1u32 << row.len()) - 1),
            row.start,
        )
    }

    /// Candidate one-hole moves: every non-empty open hole of the mover in
    /// every allowed direction, ignoring the opening and endless sowings.
    /// Cheap; [`Position::play`] rejects the endless ones.
    #[inline]
    pub fn candidates(&self) -> SingleMoves {
        let mut list = SingleMoves::new();
        if self.is_over() {
            return list;
        }
        let (d0, d1) = self.directions();
        // A mask of non-empty holes first: no branch per hole.
        let (mut mask, start) = self.mover_mask();
        while mask != 0 {
            let i = start + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            list.push(Move::single(i, d0));
            if let Some(d1) = d1 {
                list.push(Move::single(i, d1));
            }
        }
        list
    }

    /// Every legal move: candidates whose sowing ends, or, while the two-hole
    /// opening is pending, every legal pair (falling back to one-hole moves ◆
    /// when no pair is legal). Simulates each candidate; never allocates.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_over() {
            return list;
        }
        if self.opening {
            let (d0, d1) = self.directions();
            for d in [Some(d0), d1].into_iter().flatten() {
                for a in self.row(self.to_move) {
                    for b in self.row(self.to_move) {
                        let m = Move::pair(a, b, d);
                        if a != b && self.board[a] != 0 && self.board[b] != 0 && self.try_apply(m) {
                            list.push(m);
                        }
                    }
                }
            }
            if !list.is_empty() {
                return list;
            }
        }
        for m in self.candidates() {
            let mut p = *self;
            if p.sow_move(m.hole(), m.direction(), &mut ()).is_ok() {
                list.push(m);
            }
        }
        list
    }

    /// Whether the player to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.is_over() {
            return false;
        }
        // A legal pair starts with a finite one-hole sowing, and one-hole
        // moves are legal when no pair is: checking one-hole sowings suffices.
        self.candidates().iter().any(|&m| {
            let mut p = *self;
            p.sow_move(m.hole(), m.direction(), &mut ()).is_ok()
        })
    }

    /// Checks and applies `m` on a copy, without settling passes.
    fn try_apply(&self, m: Move) -> bool {
        self.check(m).is_ok() && {
            let mut p = *self;
            p.apply(m, &mut ()).is_ok()
        }
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut p = *self;
        p.play(m).is_ok()
    }

    // ----- playing --------------------------------------------------------

    /// Plays a move, checking everything, then settles automatic passes
    /// exactly (a player whose every move is endless passes too).
    ///
    /// # Errors
    /// [`PlayError`] if the move is not legal; the position is then unchanged.
    pub fn play(&mut self, m: Move) -> Result<Played, PlayError> {
        self.play_observed(m, &mut ())
    }

    /// [`Position::play`] reporting every lap, seed and capture to `obs`.
    ///
    /// # Errors
    /// As [`Position::play`]. Events already reported for a move that turns
    /// out endless are not taken back.
    pub fn play_observed<O: SowObserver>(&mut self, m: Move, obs: &mut O) -> Result<Played, PlayError> {
        self.check(m)?;
        if self.opening && !m.is_pair() && self.legal_moves().iter().any(|x| x.is_pair()) {
            return Err(PlayError::Opening(
                "the first move of this game must use two holes, like 2+5",
            ));
        }
        let mut next = *self;
        let played = next.apply(m, obs)?;
        next.settle();
        *self = next;
        Ok(played)
    }

    /// Plays a move without the legality checks of [`Position::play`] other
    /// than endlessness, and with passes settled only cheaply (a player with
    /// no seeds passes; a player whose every move is endless is left to
    /// move, so callers find no legal move and call [`Position::pass`]).
    /// This is the hot path for search and playouts.
    ///
    /// # Errors
    /// [`PlayError::Endless`] if the sowing never ends; the position is then unchanged.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Result<Played, PlayError> {
        debug_assert!(self.check(m).is_ok(), "illegal move {m:?}");
        let backup = *self;
        let played = self.apply(m, &mut ());
        if played.is_err() {
            *self = backup;
        }
        played
    }

    /// [`Position::play_unchecked`] reporting the sowing's events to `obs`
    /// (see [`SowObserver`]; with `TRACES = false` it is as fast as the
    /// unobserved path).
    ///
    /// # Errors
    /// As [`Position::play_unchecked`]. Events already reported for a move
    /// that turns out endless are not taken back.
    #[inline]
    pub fn play_unchecked_observed<O: SowObserver>(
        &mut self,
        m: Move,
        obs: &mut O,
    ) -> Result<Played, PlayError> {
        debug_assert!(self.check(m).is_ok(), "illegal move {m:?}");
        let backup = *self;
        let played = self.apply(m, obs);
        if played.is_err() {
            *self = backup;
        }
        played
    }

    /// The player to move, who has no legal move, passes. If the opponent has
    /// none either, the game ends and the seeds are shared (RULES.md §4).
    /// Does nothing if the game is over.
    pub fn pass(&mut self) {
        if self.is_over() {
            return;
        }
        self.opening = false;
        self.to_move = self.to_move.other();
        if !self.has_legal_move() {
            self.share(EndReason::NoMoves);
        }
    }

    /// Resolves automatic passes exactly: while the player to move has no
    /// legal move, they pass.
    pub fn settle(&mut self) {
        if !self.is_over() && !self.has_legal_move() {
            self.pass();
        }
    }

    /// Ends the game by the repetition rule, sharing the seeds in play.
    pub fn end_by_repetition(&mut self) {
        if !self.is_over() {
            self.share(EndReason::Repetition);
        }
    }

    fn check(&self, m: Move) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let (d0, d1) = self.directions();
        if m.direction() != d0 && Some(m.direction()) != d1 {
            return Err(PlayError::Direction);
        }
        if m.is_pair() && !self.opening {
            return Err(PlayError::Opening(
                "a two-hole move is only allowed as the opening move",
            ));
        }
        for h in [Some(m.hole()), m.second()].into_iter().flatten() {
            if !self.row(self.to_move).contains(&h) {
                return Err(PlayError::NotOwnHole { hole: h as u8 });
            }
            if self.is_closed(h) {
                return Err(PlayError::Closed { hole: h as u8 });
            }
            if self.board[h] == 0 {
                return Err(PlayError::Empty { hole: h as u8 });
            }
        }
        if m.second() == Some(m.hole()) {
            return Err(PlayError::Opening("the two holes of the opening must differ"));
        }
        Ok(())
    }

    /// Applies a checked move: one or two sowings, extra turn, cheap passes.
    #[inline]
    fn apply<O: SowObserver>(&mut self, m: Move, obs: &mut O) -> Result<Played, PlayError> {
        let mover = self.to_move;
        let before = self.captured[mover];
        let mut laps = self.sow_move(m.hole(), m.direction(), obs)?;
        let mut captured_any = self.captured[mover] != before;
        if let Some(b) = m.second() {
            if !self.is_over() {
                if self.board[b] == 0 {
                    return Err(PlayError::Opening(
                        "the second hole of the opening is empty after the first sowing",
                    ));
                }
                let before2 = self.captured[mover];
                laps = laps.saturating_add(self.sow_move(b, m.direction(), obs)?);
                captured_any |= self.captured[mover] != before2;
            }
        }
        self.opening = false;
        if self.rules.direction() == DirectionRule::PerPlayer {
            self.chosen[mover] = Some(m.direction());
        }
        let extra_turn = captured_any && self.rules.variant().extra_turn() && !self.is_over();
        if !self.is_over() {
            let next = if extra_turn { mover } else { mover.other() };
            self.to_move = if self.has_seeds(next) { next } else { next.other() };
        }
        Ok(Played {
            laps,
            captured: self.captured[mover] - before,
            extra_turn,
        })
    }

    /// Whether the mover may capture a casa in hole `i` (option `capture_side`).
    #[inline]
    fn capturable(&self, i: usize) -> bool {
        match self.rules.capture_side() {
            CaptureSide::Any => true,
            CaptureSide::Opponent => self.owner(i) != self.to_move,
        }
    }

    /// The mover captures hole `i`. Returns `true` if the game ended
    /// (last four or no seed left).
    #[inline]
    fn capture_hole<O: SowObserver>(&mut self, i: usize, obs: &mut O) -> bool {
        let s = self.board[i];
        self.board[i] = 0;
        self.captured[self.to_move] += s;
        self.in_play -= s;
        obs.capture(i, s);
        match self.in_play {
            0 => {
                self.finish(EndReason::Exhausted);
                true
            }
            4 => {
                let to = match self.last_four {
                    LastFour::Captor => self.to_move,
                    LastFour::To(side) => side,
                };
                self.captured[to] += 4;
                self.in_play = 0;
                self.board = [0; MAX_BOARD];
                self.finish(EndReason::LastFour);
                true
            }
            _ => false,
        }
    }

    /// The next open hole after `i` (counter-clockwise if `CCW`), skipping
    /// closed holes and `skip` (the lap's origin under `skip_origin`, or
    /// `usize::MAX`) when `GENERAL`; on a board without closed holes or
    /// skipping, the plain neighbour.
    #[inline(always)]
    fn step<const CCW: bool, const GENERAL: bool>(&self, mut i: usize, skip: usize) -> usize {
        let len = self.rules.board_len();
        loop {
            i = if CCW {
                if i + 1 == len {
                    0
                } else {
                    i + 1
                }
            } else if i == 0 {
                len - 1
            } else {
                i - 1
            };
            if !GENERAL || (self.closed >> i & 1 == 0 && i != skip) {
                return i;
            }
        }
    }

    /// The one sowing loop of every variant (RULES.md §2–§3): relay laps,
    /// casas, captures, chains, the last four, and exact endless-sowing
    /// detection. Returns the number of laps. On `Err` the position is
    /// garbage: callers sow on a copy.
    #[inline]
    fn sow_move<O: SowObserver>(
        &mut self,
        start: usize,
        dir: Direction,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        // skip_origin only when another open hole exists, so a lap always progresses.
        let skip_origin =
            self.rules.skip_origin() && (self.closed.count_ones() as usize) + 1 < self.rules.board_len();
        let general = skip_origin || self.closed != 0;
        // Hoyito I's en-passant captures are found eight holes at a time when
        // every casa is capturable; otherwise seed by seed.
        let words = !general
            && !O::TRACES
            && (self.rules.variant() != Variant::I || self.rules.capture_side() == CaptureSide::Any);
        match (dir, general) {
            (Direction::Ccw, false) if words => self.sow_words::<O, true>(start, obs),
            (Direction::Cw, false) if words => self.sow_words::<O, false>(start, obs),
            (Direction::Ccw, false) => self.sow::<O, true, false>(start, false, obs),
            (Direction::Cw, false) => self.sow::<O, false, false>(start, false, obs),
            (Direction::Ccw, true) => self.sow::<O, true, true>(start, skip_origin, obs),
            (Direction::Cw, true) => self.sow::<O, false, true>(start, skip_origin, obs),
        }
    }

    /// Sows the seeds of one lap from `pos`, seed by seed, with Hoyito I's
    /// en-passant captures, and returns the hole of the last seed, or
    /// `None` if a capture ended the move.
    #[inline(always)]
    fn sow_lap<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        mut pos: usize,
        mut hand: u8,
        skip: usize,
        obs: &mut O,
    ) -> Option<usize> {
        let variant_i = self.rules.variant() == Variant::I;
        while hand > 0 {
            pos = self.step::<CCW, GENERAL>(pos, skip);
            let b = self.board[pos] + 1;
            self.board[pos] = b;
            hand -= 1;
            obs.seed(pos);
            if variant_i && b == 4 && self.capturable(pos) {
                // Hoyito I: a casa anywhere is captured at once (en passant);
                // a casa made by the last seed ends the move.
                if self.capture_hole(pos, obs) || hand == 0 {
                    return None;
                }
            }
        }
        Some(pos)
    }

    /// The sowing loop on a board without closed holes or skipping, when
    /// nobody observes single seeds: the board is kept in three registers,
    /// and each lap adds its seeds arithmetically (every hole gets
    /// `hand / 2n`, the next `hand % 2n` holes one more) eight holes at a
    /// time. Captures, which end the move, go back to the general code.
    fn sow_words<O: SowObserver, const CCW: bool>(
        &mut self,
        start: usize,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        let shape = (self.rules.board_len(), self.rules.variant() == Variant::I);
        let mut w = board_words(&self.board);
        let mut pos = start;
        let mut hand = byte(&w, pos);
        clear_byte(&mut w, pos);
        obs.lap(pos, hand);
        for laps in 1..CYCLE_CHECK_FROM_LAP {
            match self.lap_words::<O, CCW>(&mut w, pos, hand, shape, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
        }
        self.sow_words_long::<O, CCW>(w, pos, hand, obs)
    }

    /// [`Position::sow_words`] from lap [`CYCLE_CHECK_FROM_LAP`] on, with
    /// endless-sowing detection. Rare, so kept apart: the detection's state
    /// does not weigh on ordinary moves.
    #[cold]
    #[inline(never)]
    fn sow_words_long<O: SowObserver, const CCW: bool>(
        &mut self,
        mut w: [u64; 3],
        mut pos: usize,
        mut hand: u8,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        let shape = (self.rules.board_len(), self.rules.variant() == Variant::I);
        if !shape.1 && words_never_end::<CCW>(&w, pos, hand, shape.0) {
            return Err(PlayError::Endless);
        }
        let mut cycle = CycleCheck::new(&w, pos, hand);
        let mut laps = CYCLE_CHECK_FROM_LAP;
        loop {
            if laps > CYCLE_CHECK_FROM_LAP && cycle.repeats(&w, pos, hand) {
                return Err(PlayError::Endless);
            }
            match self.lap_words::<O, CCW>(&mut w, pos, hand, shape, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
            laps = laps.saturating_add(1);
        }
    }

    /// Sows one lap of `hand` seeds from `pos` on the board words `w` (see
    /// [`Position::sow_words`]) and, if the move goes on, lifts the hole of
    /// the last seed. When the move ends, the board is written back.
    /// `(len, variant_i)`: the board's length, and whether this is Hoyito I
    /// (read once per move: the compiler cannot keep them across the
    /// board's stores).
    #[inline(always)]
    fn lap_words<O: SowObserver, const CCW: bool>(
        &mut self,
        w: &mut [u64; 3],
        mut pos: usize,
        hand: u8,
        (len, variant_i): (usize, bool),
        obs: &mut O,
    ) -> Lap {
        if !variant_i {
            obs.lap_sown(pos, hand, CCW, len);
            pos = add_lap::<CCW>(w, pos, hand as usize, len);
        } else {
            // Hoyito I: each hole at 3 that the lap sows becomes a casa and
            // is captured at once (en passant). A lap of fewer seeds than
            // holes sows each hole once, so its casas are the holes at 3 in
            // its way and are captured arithmetically, unless they may end
            // the game (the last four), which is done seed by seed, as are
            // longer laps.
            let short = (hand as usize) < len;
            let casas = if short {
                lap_casas::<CCW>(w, pos, hand as usize, len)
            } else {
                [0; 3]
            };
            // At most 23 casas: the byte sums cannot overflow.
            let count = casas
                .iter()
                .map(|&c| ((c >> 7).wrapping_mul(LOW_BYTES) >> 56) as u8)
                .sum::<u8>();
            if short && count == 0 {
                obs.lap_sown(pos, hand, CCW, len);
                pos = add_lap::<CCW>(w, pos, hand as usize, len);
            } else if short && self.in_play > 4 * count + 4 {
                obs.lap_sown(pos, hand, CCW, len);
                pos = add_lap::<CCW>(w, pos, hand as usize, len);
                for (x, c) in w.iter_mut().zip(casas) {
                    *x &= !((c >> 7) * 0xFF);
                }
                if O::EVENTS {
                    // The casas' high bits: one capture event per casa.
                    for (k, &c) in casas.iter().enumerate() {
                        let mut bits = c & 0x8080_8080_8080_8080;
                        while bits != 0 {
                            obs.capture(8 * k + bits.trailing_zeros() as usize / 8, 4);
                            bits &= bits - 1;
                        }
                    }
                }
                self.captured[self.to_move] += 4 * count;
                self.in_play -= 4 * count;
                if byte(&casas, pos) != 0 {
                    // The lap's last seed made a casa: the move ends.
                    set_board_words(&mut self.board, w);
                    return Lap::End;
                }
            } else {
                set_board_words(&mut self.board, w);
                match self.sow_lap::<O, CCW, false>(pos, hand, usize::MAX, obs) {
                    Some(p) => pos = p,
                    None => return Lap::End,
                }
                *w = board_words(&self.board);
            }
        }
        let last = byte(w, pos);
        if last == 1 {
            set_board_words(&mut self.board, w);
            return Lap::End;
        }
        if last == 4 && self.capturable(pos) {
            set_board_words(&mut self.board, w);
            self.final_capture::<O, CCW, false>(pos, obs);
            return Lap::End;
        }
        clear_byte(w, pos);
        obs.lap(pos, last);
        Lap::Relay(pos, last)
    }

    /// The final seed made a casa at `pos` (Hoyito II/III): capture it and,
    /// in Hoyito II, the backward chain.
    #[inline]
    fn final_capture<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        pos: usize,
        obs: &mut O,
    ) {
        if self.capture_hole(pos, obs) {
            return;
        }
        if self.rules.variant() == Variant::II {
            // The backward chain, against the sowing direction, skipping closed holes.
            let back = |p: &Self, i: usize| {
                if CCW {
                    p.step::<false, GENERAL>(i, usize::MAX)
                } else {
                    p.step::<true, GENERAL>(i, usize::MAX)
                }
            };
            let mut i = back(self, pos);
            while self.board[i] == 4 && self.capturable(i) {
                if self.capture_hole(i, obs) {
                    return;
                }
                i = back(self, i);
            }
        }
    }

    /// The sowing loop, specialised by direction and by whether closed holes
    /// or `skip_origin` must be checked at each step.
    fn sow<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        start: usize,
        skip_origin: bool,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        let mut pos = start;
        let mut hand = self.board[pos];
        self.board[pos] = 0;
        obs.lap(pos, hand);
        for laps in 1..CYCLE_CHECK_FROM_LAP {
            match self.relay_lap::<O, CCW, GENERAL>(pos, hand, skip_origin, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
        }
        self.sow_long::<O, CCW, GENERAL>(pos, hand, skip_origin, obs)
    }

    /// [`Position::sow`] from lap [`CYCLE_CHECK_FROM_LAP`] on, with
    /// endless-sowing detection (see [`Position::sow_words_long`]).
    #[cold]
    #[inline(never)]
    fn sow_long<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        mut pos: usize,
        mut hand: u8,
        skip_origin: bool,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        if !skip_origin
            && self.rules.variant() != Variant::I
            && self.relay_never_ends::<CCW, GENERAL>(pos, hand)
        {
            return Err(PlayError::Endless);
        }
        let mut cycle = CycleCheck::new(&board_words(&self.board), pos, hand);
        let mut laps = CYCLE_CHECK_FROM_LAP;
        loop {
            if laps > CYCLE_CHECK_FROM_LAP && cycle.repeats(&board_words(&self.board), pos, hand) {
                return Err(PlayError::Endless);
            }
            match self.relay_lap::<O, CCW, GENERAL>(pos, hand, skip_origin, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
            laps = laps.saturating_add(1);
        }
    }

    /// [`relay_never_ends`] of the lap start `hand` seeds lifted from `pos`
    /// on this board, its ring the open holes (the origin not skipped).
    fn relay_never_ends<const CCW: bool, const GENERAL: bool>(&self, pos: usize, hand: u8) -> bool {
        let open = self.rules.board_len() - self.closed.count_ones() as usize;
        let ahead = std::iter::successors(Some(pos), |&x| Some(self.step::<CCW, GENERAL>(x, usize::MAX)))
            .skip(1)
            .map(|x| self.board[x]);
        relay_never_ends(hand, ahead, open)
    }

    /// Sows one lap seed by seed and, if the move goes on (relay), lifts the
    /// hole of the last seed.
    #[inline(always)]
    fn relay_lap<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        pos: usize,
        hand: u8,
        skip_origin: bool,
        obs: &mut O,
    ) -> Lap {
        let skip = if skip_origin { pos } else { usize::MAX };
        let Some(pos) = self.sow_lap::<O, CCW, GENERAL>(pos, hand, skip, obs) else {
            return Lap::End;
        };
        let last = self.board[pos];
        if last == 1 {
            return Lap::End;
        }
        if last == 4 && self.capturable(pos) {
            // Hoyito II/III (Hoyito I captured it already): the final seed's casa.
            self.final_capture::<O, CCW, GENERAL>(pos, obs);
            return Lap::End;
        }
        // Relay: lift the hole and start a new lap from the next hole.
        self.board[pos] = 0;
        obs.lap(pos, last);
        Lap::Relay(pos, last)
    }

    /// Shares the seeds in play and ends the game.
    fn share(&mut self, reason: EndReason) {
        match self.rules.repetition() {
            Repetition::Even => {
                let half = self.in_play / 2;
                self.captured.south += half;
                self.captured.north += self.in_play - half;
            }
            Repetition::OwnRow => {
                for side in Side::ALL {
                    self.captured[side] += self.row_seeds(side) as u8;
                }
            }
        }
        self.in_play = 0;
        self.board = [0; MAX_BOARD];
        self.finish(reason);
    }

    fn finish(&mut self, reason: EndReason) {
        let s = self.captured.south as u32 + self.reserve.south as u32;
        let n = self.captured.north as u32 + self.reserve.north as u32;
        let winner = match s.cmp(&n) {
            core::cmp::Ordering::Greater => Some(Side::South),
            core::cmp::Ordering::Less => Some(Side::North),
            core::cmp::Ordering::Equal => None,
        };
        self.outcome = Some(Outcome { winner, reason });
    }
}

#[inline]
fn dir_code(d: Option<Direction>) -> u8 {
    match d {
        None => 0,
        Some(Direction::Ccw) => 1,
        Some(Direction::Cw) => 2,
    }
}

/// The exact state the repetition rule compares (board, closed holes, side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RepetitionKey([u64; 4]);

/// Counts occurrences of positions since the last capture, to end a game
/// on the third occurrence (RULES.md §4). Captures are irreversible, so the
/// history is forgotten whenever the seeds in play change. An open-addressing
/// table with generation stamps: `push` and forgetting are O(1), keys are
/// compared exactly, and the buffer is reused from game to game.
#[derive(Debug, Clone)]
pub struct RepetitionTracker {
    slots: Vec<Slot>,
    gen: u32,
    len: usize,
    in_play: u8,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    key: RepetitionKey,
    gen: u32,
    count: u32,
}

const EMPTY_SLOT: Slot = Slot {
    key: RepetitionKey([0; 4]),
    gen: 0,
    count: 0,
};

impl Default for RepetitionTracker {
    fn default() -> Self {
        RepetitionTracker {
            slots: vec![EMPTY_SLOT; 64],
            gen: 1,
            len: 0,
            in_play: u8::MAX,
        }
    }
}

impl RepetitionKey {
    /// Equality word by word in registers (see `RepetitionTracker::insert`).
    #[inline(always)]
    fn same(&self, other: &RepetitionKey) -> bool {
        let (a, b) = (self.0, other.0);
        (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) == 0
    }

    #[inline]
    fn mix(&self) -> u64 {
        let [a, b, c, d] = self.0;
        let h = (a ^ d.rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ c.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 32)
    }
}

impl RepetitionTracker {
    /// An empty tracker.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every position.
    #[inline]
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(EMPTY_SLOT);
            self.gen = 1;
        }
        self.len = 0;
        self.in_play = u8::MAX;
    }

    /// Records that `pos` occurred and returns how many times it has
    /// occurred since the seeds in play last changed.
    #[inline]
    pub fn push(&mut self, pos: &Position) -> usize {
        if pos.in_play() != self.in_play {
            self.clear();
            self.in_play = pos.in_play();
        }
        self.insert(pos.repetition_key())
    }

    /// Takes back the last [`push`](Self::push) of `pos` (its mover turned
    /// out to have no legal move, so the position does not count).
    #[inline]
    pub fn pop(&mut self, pos: &Position) {
        let key = pos.repetition_key();
        let mask = self.slots.len() - 1;
        let mut i = key.mix() as usize & mask;
        while self.slots[i].gen == self.gen {
            if self.slots[i].key == key {
                self.slots[i].count = self.slots[i].count.saturating_sub(1);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    // Inlined so that the key stays in registers: passed through memory, its
    // four word stores would stall the wide loads that compare it.
    #[inline(always)]
    fn insert(&mut self, key: RepetitionKey) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = key.mix() as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.gen != self.gen {
                *slot = Slot {
                    key,
                    gen: self.gen,
                    count: 1,
                };
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return 1;
            }
            if slot.key.same(&key) {
                slot.count += 1;
                return slot.count as usize;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bigger = vec![EMPTY_SLOT; self.slots.len() * 2];
        let old = core::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.gen == self.gen) {
            let mut i = slot.key.mix() as usize & mask;
            while self.slots[i].gen == self.gen {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{DirectionRule, RulesSpec};

    /// The endless-sowing check on synthetic state sequences: a tail of
    /// `tail` distinct states, then a cycle of `cycle` distinct states. It
    /// must report a repeat exactly at a state seen before, never earlier;
    /// a pure cycle (no tail) after exactly one turn, and any other within
    /// Brent's bound.
    #[test]
    fn cycle_check_is_exact() {
        let state = |i: u64| -> ([u64; 3], usize, u8) {
            // Distinct for distinct i; spread over the words like boards.
            (
                [i.wrapping_mul(0x0101_0101), i >> 7, i % 5],
                (i % 12) as usize,
                (i % 251) as u8,
            )
        };
        for (tail, cycle) in [
            (0, 1),
            (1, 1),
            (0, 2),
            (3, 7),
            (100, 1000),
            (0, 100_000),
            (70_000, 30_000),
        ] {
            let at = |n: u64| if n < tail { n } else { tail + (n - tail) % cycle };
            let (b, p, h) = state(at(0));
            let mut check = CycleCheck::new(&b, p, h);
            let mut n = 1;
            loop {
                let (b, p, h) = state(at(n));
                if check.repeats(&b, p, h) {
                    break;
                }
                n += 1;
                assert!(
                    n < 2 * tail + 6 * cycle + 8,
                    "tail {tail}, cycle {cycle}: no repeat found by step {n}"
                );
            }
            // A repeat is only reported at a state already seen.
            assert!(
                n >= tail + cycle,
                "tail {tail}, cycle {cycle}: repeat reported at step {n}"
            );
            if tail == 0 {
                assert_eq!(n, cycle, "a pure cycle is found after one turn");
            }
        }
        // No repeat in a long run of distinct states.
        let (b, p, h) = state(0);
        let mut check = CycleCheck::new(&b, p, h);
        for i in 1..200_000 {
            let (b, p, h) = state(i);
            assert!(!check.repeats(&b, p, h), "false repeat at {i}");
        }
    }

    /// The holes of a board in notation order (South's row, then North's).
    fn parse_board(text: &str) -> Vec<u8> {
        text.split(['/', ',']).map(|c| c.parse().unwrap()).collect()
    }

    /// `relay_never_ends` of the first lap of a counter-clockwise move.
    fn never_ends(board: &[u8], origin: usize) -> bool {
        let mut b = [0u8; MAX_BOARD];
        b[..board.len()].copy_from_slice(board);
        let hand = std::mem::take(&mut b[origin]);
        let len = board.len();
        relay_never_ends(hand, (1..len).map(|d| b[(origin + d) % len]), len)
    }

    /// Laps of a counter-clockwise Hoyito II relay (standard rules), sown
    /// seed by seed, or `None` if it has not ended after `cap` laps.
    fn relay_laps(board: &[u8], mut origin: usize, cap: u32) -> Option<u32> {
        let mut b: Vec<u32> = board.iter().map(|&c| c.into()).collect();
        for laps in 1..=cap {
            let mut hand = std::mem::take(&mut b[origin]);
            while hand > 0 {
                origin = (origin + 1) % b.len();
                b[origin] += 1;
                hand -= 1;
            }
            if b[origin] == 1 || b[origin] == 4 {
                return Some(laps);
            }
        }
        None
    }

    /// The residue invariant recognises the endless sowings of the examples
    /// at their first lap, and leaves to the cycle check those that could
    /// end by their residues, endless or not.
    #[test]
    fn residues_prove_endless_sowings() {
        // Endless (hoyito-core's tests/examples.rs; North's hole k is n + k − 1).
        for (board, origin) in [
            ("1,0,1,0,2,1/0,2,1,0,1,3", 11),
            ("1,2,1,0,2,14/8,2,1,2,4,3", 11),
            ("1,0,4,6,2,1/13,9,3,7,0,2", 9),
            ("13,2,1,0,1,5/1,0,1,0,2,22", 5),
            // 2×5 with 24 seeds per hole: a cycle of billions of laps.
            ("21,23,24,18,27,19/24,18,12,24,18,12", 5),
        ] {
            assert!(never_ends(&parse_board(board), origin), "{board}");
        }
        // Endless on 2×4, but its residues allow an end: the cycle check's.
        let board = parse_board("1,6,4,6/3,7,3,2");
        assert!(!never_ends(&board, 1));
        assert_eq!(relay_laps(&board, 1, 1_000_000), None);
        // Finite: 3,687 laps (2×5, 24 seeds per hole), 592 laps (2×6).
        let board = parse_board("29,23,24,23,25/15,25,18,25,33");
        assert!(!never_ends(&board, 4));
        assert_eq!(relay_laps(&board, 4, 1_000_000), Some(3687));
        let board = parse_board("1,10,1,2,1,0/4,0,2,9,0,2");
        assert!(!never_ends(&board, 1));
        assert_eq!(relay_laps(&board, 1, 1_000_000), Some(592));
    }

    /// Whatever the board, a relay the residues call endless goes on, and
    /// most others end. Random boards of every size, 2 to 20 seeds per hole,
    /// rarely have endless residues, so boards are also built to have them:
    /// residues drawn from a set without two differing by 1 or 4, each
    /// hole's seeds chosen to give its residue. None of those ends within
    /// 20,000 laps; most random boards end within a few hundred.
    #[test]
    fn residues_never_call_a_finite_sowing_endless() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let (mut built, mut ended) = (0, 0);
        for sample in 0..40_000 {
            let len = 2 * rng.gen_range(4..=12);
            let m = len + 1;
            let mut board = vec![0u8; len];
            let origin = rng.gen_range(0..len);
            if sample % 2 == 0 {
                let total = len * rng.gen_range(2..=240 / len);
                for _ in 0..total {
                    board[rng.gen_range(0..len)] += 1;
                }
                if board[origin] == 0 {
                    continue;
                }
                if !never_ends(&board, origin) {
                    ended += u32::from(relay_laps(&board, origin, 1_000).is_some());
                    continue;
                }
            } else {
                // Residues without a difference of 1 or 4, 0 among them.
                let mut set = vec![0];
                for r in 1..m {
                    let far = |a: usize| {
                        set.iter()
                            .all(|&b| ![1, 4, m - 1, m - 4].contains(&((a + m - b) % m)))
                    };
                    if rng.gen_bool(0.5) && far(r) {
                        set.push(r);
                    }
                }
                // Hole x, d holes after the origin, gets residue d + c + 1;
                // the hand, its own residue; extra turns of 2n + 1 seeds.
                for d in 1..len {
                    let r = set[rng.gen_range(0..set.len())];
                    board[(origin + d) % len] = ((r + 2 * m - d - 1) % m + m * rng.gen_range(0..3)) as u8;
                }
                let hand = set[rng.gen_range(0..set.len())];
                board[origin] = (hand + m * rng.gen_range(usize::from(hand == 0)..3)) as u8;
                assert!(never_ends(&board, origin), "{board:?} from {origin}");
                built += 1;
            }
            assert_eq!(
                relay_laps(&board, origin, 5_000),
                None,
                "{board:?} from {origin} (sample {sample})"
            );
        }
        assert!(built >= 15_000, "only {built} boards built");
        assert!(ended >= 18_000, "only {ended} of the random sowings ended");
    }

    /// With closed holes the residues are those of the ring of open holes,
    /// in sowing order either way round.
    #[test]
    fn residues_with_closed_holes_are_those_of_the_open_ring() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        let rules = Rules::standard(Variant::II);
        let (mut proved, mut not) = (0, 0);
        for _ in 0..300_000 {
            let mut p = Position::from_setup(rules, &Setup::start(&rules)).unwrap();
            let len = rules.board_len();
            p.closed = 0;
            // Up to 9 closed: small rings often have endless residues.
            for _ in 0..rng.gen_range(0..=9) {
                p.closed |= 1 << rng.gen_range(0..len);
            }
            let open: Vec<usize> = (0..len).filter(|&i| p.closed >> i & 1 == 0).collect();
            let Some(&pos) = open.get(rng.gen_range(0..open.len().max(1))) else {
                continue;
            };
            for i in 0..len {
                p.board[i] = if p.closed >> i & 1 == 0 {
                    rng.gen_range(0..12)
                } else {
                    0
                };
            }
            let hand = rng.gen_range(1..30);
            p.board[pos] = 0;
            // The open ring, counter-clockwise, the hand in its origin.
            let mut ring: Vec<u8> = open.iter().map(|&i| p.board[i]).collect();
            let k = open.iter().position(|&i| i == pos).unwrap();
            ring[k] = hand;
            let ccw = never_ends(&ring, k);
            ring.reverse();
            let cw = never_ends(&ring, ring.len() - 1 - k);
            assert_eq!(p.relay_never_ends::<true, true>(pos, hand), ccw);
            assert_eq!(p.relay_never_ends::<false, true>(pos, hand), cw);
            if p.closed == 0 {
                assert_eq!(p.relay_never_ends::<true, false>(pos, hand), ccw);
                assert_eq!(p.relay_never_ends::<false, false>(pos, hand), cw);
                let w = board_words(&p.board);
                assert_eq!(words_never_end::<true>(&w, pos, hand, len), ccw);
                assert_eq!(words_never_end::<false>(&w, pos, hand, len), cw);
            }
            if ccw {
                proved += 1;
            } else {
                not += 1;
            }
        }
        assert!(proved >= 400 && not >= 100_000, "{proved} proved, {not} not");
    }

    /// The tracker counts exactly through growth, `pop` and `clear`.
    #[test]
    fn repetition_tracker_counts_through_growth_and_clear() {
        let rules = Rules::standard(Variant::II);
        let mut positions = Vec::new();
        for a in 0..12 {
            for b in (0..12).filter(|&b| b != a) {
                for k in 1..=4u8 {
                    for to_move in Side::ALL {
                        let mut setup = Setup::start(&rules);
                        setup.board[a] -= k;
                        setup.board[b] += k;
                        setup.to_move = to_move;
                        positions.push(Position::from_setup(rules, &setup).unwrap());
                    }
                }
            }
        }
        let mut t = RepetitionTracker::new();
        for round in 0..3 {
            for p in &positions {
                assert_eq!(t.push(p), 1, "round {round}");
            }
            assert!(t.slots.len() >= 2 * positions.len());
            for p in &positions {
                assert_eq!(t.push(p), 2);
            }
            for p in positions.iter().step_by(3) {
                t.pop(p);
            }
            for (i, p) in positions.iter().enumerate() {
                assert_eq!(t.push(p), if i % 3 == 0 { 2 } else { 3 });
            }
            t.clear();
        }
    }

    /// Counts seeds so that sowing goes seed by seed (TRACES = true).
    #[derive(Default)]
    struct Trace {
        seeds: u64,
    }
    impl SowObserver for Trace {
        fn seed(&mut self, _hole: usize) {
            self.seeds += 1;
        }
    }

    #[test]
    fn nonempty_mask_matches_board() {
        let mut b = [0u8; MAX_BOARD];
        for (i, x) in b.iter_mut().enumerate() {
            *x = if i % 3 == 0 { 0 } else { (i * 37 % 250) as u8 + 1 };
        }
        b[23] = 200;
        let want = b
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, &x)| m | ((x != 0) as u32) << i);
        assert_eq!(nonempty_mask(&b), want);
    }

    /// The arithmetic lap (unobserved) and the seed-by-seed lap (observed)
    /// give the same positions, in both directions, on every board size.
    #[test]
    fn fast_lap_matches_seed_by_seed() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for variant in Variant::ALL {
            for holes in 4..=12u8 {
                let rules = Rules::try_from(RulesSpec {
                    variant,
                    holes,
                    direction: DirectionRule::PerMove,
                    ..RulesSpec::default()
                })
                .unwrap();
                for _ in 0..20 {
                    let mut pos = Position::new(rules);
                    while !pos.is_over() {
                        let moves = pos.candidates();
                        if moves.is_empty() {
                            pos.pass();
                            continue;
                        }
                        let m = moves[rnd(moves.len())];
                        let (mut a, mut b) = (pos, pos);
                        let ra = a.play_unchecked(m);
                        let rb = b.play_observed(m, &mut Trace::default());
                        if ra.is_ok() {
                            b.settle_cheap_to_match(&a);
                        }
                        assert_eq!(ra.is_ok(), rb.is_ok(), "{}", pos.to_notation());
                        if let (Ok(x), Ok(y)) = (ra, rb) {
                            assert_eq!(x, y);
                            assert_eq!(a.board(), b.board(), "{} {m:?}", pos.to_notation());
                            assert_eq!(a.captured(), b.captured());
                            pos = a;
                        } else {
                            break;
                        }
                    }
                }
            }
        }
    }

    impl Position {
        /// `play_observed` settles passes exactly, `play_unchecked` cheaply;
        /// compare boards only, with the same side to move.
        fn settle_cheap_to_match(&mut self, other: &Position) {
            self.to_move = other.to_move;
            self.outcome = other.outcome.or(self.outcome);
        }
    }
}
