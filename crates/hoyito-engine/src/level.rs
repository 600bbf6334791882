//! Levels 1 to 10 ([`Engine::with_level`](crate::Engine::with_level)): from
//! random play to full strength, by depth, noise and evaluation
//! (`docs/ENGINE.md` describes them).

use hoyito_core::Move;
use rand::rngs::SmallRng;
use rand::Rng;

use crate::Limits;

/// Longest time the engine thinks about one move of a game it plays (on
/// the server and on the device): levels 1–9 stop earlier at their depth,
/// level 10 uses all of it.
pub const PLAY_MOVETIME: std::time::Duration = std::time::Duration::from_millis(1500);

/// The least level a hint is searched at (a game's own level, if higher).
pub const HINT_LEVEL: u8 = 8;

/// Longest time a hint is searched.
pub const HINT_MOVETIME: std::time::Duration = std::time::Duration::from_millis(800);

/// What a level does (see `docs/ENGINE.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level, 1 to 10.
    pub level: u8,
    /// Plays a uniformly random legal move.
    pub random: bool,
    /// Greatest search depth (`None`: the caller's limits).
    pub depth: Option<u32>,
    /// Uniform noise in `[0, noise]` hundredths of a seed added to each root
    /// move's score before choosing; ties are broken at random.
    pub noise: i32,
    /// Captured margin only, no positional terms.
    pub material_only: bool,
}

/// The level table: `LEVELS[l - 1]` is level `l`.
pub const LEVELS: [LevelSpec; 10] = {
    const fn l(level: u8, random: bool, depth: Option<u32>, noise: i32, material_only: bool) -> LevelSpec {
        LevelSpec {
            level,
            random,
            depth,
            noise,
            material_only,
        }
    }
    [
        l(1, true, Some(0), 0, true),
        l(2, false, Some(1), 0, true),
        l(3, false, Some(2), 300, false),
        l(4, false, Some(3), 200, false),
        l(5, false, Some(4), 100, false),
        l(6, false, Some(6), 50, false),
        l(7, false, Some(8), 25, false),
        l(8, false, Some(10), 0, false),
        l(9, false, Some(13), 0, false),
        l(10, false, None, 0, false),
    ]
};

impl LevelSpec {
    /// The spec of `level` (1 to 10).
    pub(crate) fn of(level: u8) -> LevelSpec {
        LEVELS[level as usize - 1]
    }

    /// Whether the level chooses among all root moves by a noisy score
    /// (and so needs every root move's exact score) rather than playing
    /// the search's best move.
    pub(crate) fn noisy(&self) -> bool {
        self.noise > 0 || self.material_only
    }

    /// The caller's `limits`, capped by this level's depth.
    pub(crate) fn cap(&self, limits: Limits) -> Limits {
        match self.depth {
            Some(d) => Limits {
                depth: Some(limits.depth.map_or(d, |x| x.min(d))),
                ..limits
            },
            None => limits,
        }
    }

    /// The index in `moves` (root moves with their scores in internal
    /// units, not empty) of the move with the best score plus uniform noise
    /// in `[0, noise]`, ties broken at random.
    pub(crate) fn choose(&self, moves: &[(Move, i32, Vec<Move>)], rng: &mut SmallRng) -> usize {
        let mut best: Option<(i32, u32, usize)> = None;
        for (i, rm) in moves.iter().enumerate() {
            let v = rm.1
                + if self.noise > 0 {
                    rng.random_range(0..=self.noise)
                } else {
                    0
                };
            let tie = rng.random::<u32>();
            if best.is_none_or(|(bv, bt, _)| (v, tie) > (bv, bt)) {
                best = Some((v, tie, i));
            }
        }
        best.expect("a position that is not over has a move").2
    }
}

#[cfg(test)]
mod tests {
    use super::LEVELS;
    use crate::Engine;

    #[test]
    fn levels_table_is_ordered() {
        for w in LEVELS.windows(2) {
            assert!(w[0].level + 1 == w[1].level);
            assert!(w[0].noise >= w[1].noise || w[0].material_only);
            assert!(w[1].depth.is_none_or(|d| w[0].depth.is_some_and(|e| e <= d)));
        }
        assert_eq!(Engine::with_level(0).level(), Some(1));
        assert_eq!(Engine::with_level(42).level(), Some(10));
    }
}
