//! The board as three little-endian words of one byte per hole: the
//! word-at-a-time primitives the sowing loop uses (laps sown arithmetically,
//! casas found eight holes at a time).

use crate::rules::MAX_BOARD;

/// `ONES[k]`: the 24-byte board with 1 in each of the first `k` holes, as three words.
pub(super) const ONES: [[u64; 3]; MAX_BOARD + 1] = {
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
pub(super) fn board_words(b: &[u8; MAX_BOARD]) -> [u64; 3] {
    let w = |k: usize| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().expect("8 bytes"));
    [w(0), w(1), w(2)]
}

/// One in every byte.
pub(super) const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

/// Bit `i` set for each non-empty hole `i`, computed eight holes at a time.
#[inline(always)]
pub(super) fn nonempty_mask(b: &[u8; MAX_BOARD]) -> u32 {
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
pub(super) fn set_board_words(b: &mut [u8; MAX_BOARD], w: &[u64; 3]) {
    for (k, x) in w.iter().enumerate() {
        b[8 * k..8 * k + 8].copy_from_slice(&x.to_le_bytes());
    }
}

#[inline(always)]
pub(super) fn byte(w: &[u64; 3], i: usize) -> u8 {
    (w[i / 8] >> (8 * (i % 8))) as u8
}

/// Empties byte `i`, branch-free and without an indexed store: the words
/// are then read whole, and a wide load after a narrow store would stall.
#[inline(always)]
pub(super) fn clear_byte(w: &mut [u64; 3], i: usize) {
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
pub(super) fn add_lap<const CCW: bool>(w: &mut [u64; 3], pos: usize, h: usize, len: usize) -> usize {
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
pub(super) fn lap_casas<const CCW: bool>(w: &[u64; 3], pos: usize, h: usize, len: usize) -> [u64; 3] {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
