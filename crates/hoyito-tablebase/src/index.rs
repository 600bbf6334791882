//! Perfect combinatorial indexing of one seed-count layer.
//!
//! A layer holds every distribution of `k` seeds over the `2n` holes of the
//! board, with the side to move owning holes `0..n` (positions with North to
//! move are rotated by `n` holes first, see [`rotate`]). There are
//! `C(k + 2n − 1, 2n − 1)` of them; [`Indexer::rank`] numbers them
//! `0..count` in lexicographic order of the hole counts (hole 0 most
//! significant), [`Indexer::unrank`] inverts it, and [`Indexer::next`] steps to
//! the following board without any arithmetic on the rank.

/// Binomial coefficient `C(n, r)` in `u64` (exact for every board here).
pub fn binomial(n: u64, r: u64) -> u64 {
    if r > n {
        return 0;
    }
    let r = r.min(n - r);
    let mut acc: u128 = 1;
    for i in 0..r {
        acc = acc * (n - i) as u128 / (i + 1) as u128;
    }
    acc as u64
}

/// Number of ways to put `seeds` seeds into `parts` holes (`parts ≥ 1`).
pub fn compositions(seeds: u32, parts: u32) -> u64 {
    binomial((seeds + parts - 1) as u64, (parts - 1) as u64)
}

/// The board with the other side to move: hole `i` becomes hole `i − n (mod 2n)`,
/// so that the player to move always owns holes `0..n`.
#[inline]
pub fn rotate(board: &[u8], out: &mut [u8]) {
    let n = board.len() / 2;
    out[..n].copy_from_slice(&board[n..]);
    out[n..].copy_from_slice(&board[..n]);
}

/// Ranks and unranks the boards of one layer (`seeds` seeds over `holes` holes).
#[derive(Debug, Clone)]
pub struct Indexer {
    holes: usize,
    seeds: u32,
    count: u64,
    /// `prefix[p][r][a]`: boards whose current hole holds fewer than `a`
    /// seeds, when `r` seeds remain for it and the `p` holes after it.
    prefix: Vec<u64>,
}

impl Indexer {
    /// The indexer of `seeds` seeds over `holes` holes (`holes ≥ 2`).
    pub fn new(holes: usize, seeds: u32) -> Indexer {
        assert!(holes >= 2, "a board has at least two holes");
        let k = seeds as usize;
        let mut prefix = vec![0u64; holes * (k + 1) * (k + 2)];
        for p in 1..holes {
            for r in 0..=k {
                let mut acc = 0u64;
                for a in 0..=r + 1 {
                    prefix[(p * (k + 1) + r) * (k + 2) + a] = acc;
                    if a <= r {
                        acc += compositions((r - a) as u32, p as u32);
                    }
                }
            }
        }
        Indexer {
            holes,
            seeds,
            count: compositions(seeds, holes as u32),
            prefix,
        }
    }

    /// Holes on the board (`2n`).
    pub fn holes(&self) -> usize {
        self.holes
    }

    /// Seeds on every board of the layer.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// Number of boards in the layer.
    pub fn count(&self) -> u64 {
        self.count
    }

    #[inline]
    fn prefix(&self, p: usize, r: usize, a: usize) -> u64 {
        let k = self.seeds as usize;
        self.prefix[(p * (k + 1) + r) * (k + 2) + a]
    }

    /// The rank of `board`, which must hold exactly `seeds` seeds in `holes` holes.
    #[inline]
    pub fn rank(&self, board: &[u8]) -> u64 {
        debug_assert_eq!(board.len(), self.holes);
        debug_assert_eq!(board.iter().map(|&s| s as u32).sum::<u32>(), self.seeds);
        let mut r = self.seeds as usize;
        let mut idx = 0u64;
        for (i, &a) in board[..self.holes - 1].iter().enumerate() {
            let a = a as usize;
            idx += self.prefix(self.holes - 1 - i, r, a);
            r -= a;
        }
        idx
    }

    /// Writes the board of rank `idx` (`idx < count`) into `board`.
    pub fn unrank(&self, mut idx: u64, board: &mut [u8]) {
        debug_assert!(idx < self.count);
        let mut r = self.seeds as usize;
        let last = self.holes - 1;
        for (i, slot) in board[..last].iter_mut().enumerate() {
            let p = last - i;
            // The largest a with prefix(p, r, a) <= idx.
            let mut a = 0;
            while a < r && self.prefix(p, r, a + 1) <= idx {
                a += 1;
            }
            idx -= self.prefix(p, r, a);
            *slot = a as u8;
            r -= a;
        }
        board[last] = r as u8;
    }

    /// Steps `board` to the board of the next rank. Returns `false` (leaving
    /// the board unchanged) if it was the last.
    #[inline]
    pub fn next(&self, board: &mut [u8]) -> bool {
        let m = self.holes;
        if board[m - 1] > 0 {
            let t = board[m - 1] - 1;
            board[m - 2] += 1;
            board[m - 1] = t;
            return true;
        }
        let Some(l) = board[..m - 1].iter().rposition(|&s| s != 0) else {
            return false;
        };
        if l == 0 {
            return false;
        }
        let t = board[l] - 1;
        board[l - 1] += 1;
        board[l] = 0;
        board[m - 1] = t;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(binomial(39, 7), 15_380_937);
        assert_eq!(compositions(32, 8), 15_380_937);
        assert_eq!(compositions(0, 5), 1);
        assert_eq!(Indexer::new(12, 48).count(), binomial(59, 11));
    }

    #[test]
    fn rank_unrank_next_agree() {
        for (holes, seeds) in [(8, 0), (8, 1), (8, 6), (10, 5), (12, 4), (2, 9)] {
            let ix = Indexer::new(holes, seeds);
            let mut board = vec![0u8; holes];
            ix.unrank(0, &mut board);
            let mut seen = 0u64;
            let mut prev: Option<Vec<u8>> = None;
            loop {
                assert_eq!(board.iter().map(|&s| s as u32).sum::<u32>(), seeds);
                assert_eq!(ix.rank(&board), seen, "{board:?}");
                let mut back = vec![0u8; holes];
                ix.unrank(seen, &mut back);
                assert_eq!(back, board);
                if let Some(p) = &prev {
                    assert!(p < &board, "lexicographic order");
                }
                prev = Some(board.clone());
                seen += 1;
                if !ix.next(&mut board) {
                    break;
                }
            }
            assert_eq!(seen, ix.count(), "{holes} holes, {seeds} seeds");
        }
    }

    #[test]
    fn rotation_is_an_involution() {
        let b = [1, 2, 3, 4, 5, 6, 7, 8];
        let mut r = [0; 8];
        rotate(&b, &mut r);
        assert_eq!(r, [5, 6, 7, 8, 1, 2, 3, 4]);
        let mut back = [0; 8];
        rotate(&r, &mut back);
        assert_eq!(back, b);
    }
}
