//! The model of a compact layer (the probabilities of each context) and the
//! rANS coding of one block with it.

use super::{PROB_BITS, PROB_SCALE, RANS_L};
use crate::index::Indexer;

/// The seeds on the mover's side (holes `0..n`), the mover's holes holding
/// 3 and the opponent's holes holding 3.
#[inline]
fn features(board: &[u8]) -> (usize, usize, usize) {
    let n = board.len() / 2;
    let (mut m, mut t3m, mut t3t) = (0usize, 0usize, 0usize);
    for &s in &board[..n] {
        m += s as usize;
        t3m += (s == 3) as usize;
    }
    for &s in &board[n..] {
        t3t += (s == 3) as usize;
    }
    (m, t3m, t3t)
}

/// One symbol of a context: its slots `start..start + freq` of the
/// probability scale.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) start: u16,
    pub(super) freq: u16,
    pub(super) symbol: u8,
}

/// The probabilities of every context (what a file's model section holds).
#[derive(Debug, Clone)]
pub(super) struct Model {
    pub(super) scheme: u8,
    /// Holes per row.
    pub(super) n: usize,
    pub(super) symbols: usize,
    pub(super) lowest: i8,
    pub(super) step: u8,
    /// Dense context → its row (row 0, a fallback, for contexts absent from the file).
    #[cfg_attr(not(feature = "files"), allow(dead_code))]
    pub(super) row_of: Vec<u32>,
    /// Dense context → where its row's entries start in `entries`: the
    /// symbols met in that context, most frequent first, their slots in
    /// that order (so that a decoder's scan mostly stops at the first).
    pub(super) entry_of: Vec<u32>,
    pub(super) entries: Vec<Entry>,
    /// For the encoder: row × symbol → its entry (freq 0 when absent).
    #[cfg_attr(not(feature = "files"), allow(dead_code))]
    pub(super) by_symbol: Vec<Entry>,
    /// Normalised frequencies of the present contexts, in context order (what is stored).
    #[cfg_attr(not(feature = "files"), allow(dead_code))]
    pub(super) stored: Vec<(u32, Vec<u16>)>,
}

/// Number of dense contexts of a scheme.
pub(super) fn context_count(scheme: u8, seeds: u32, n: usize, symbols: usize) -> usize {
    match scheme {
        0 => 1,
        _ => (seeds as usize + 1) * (n + 1) * (n + 1) * (symbols + 1),
    }
}

impl Model {
    /// The dense context of `board` after the symbol `prev` (`symbols` at a block's start).
    #[inline]
    pub(super) fn context(&self, board: &[u8], prev: usize) -> usize {
        if self.scheme == 0 {
            return 0;
        }
        let (m, t3m, t3t) = features(board);
        ((m * (self.n + 1) + t3m) * (self.n + 1) + t3t) * (self.symbols + 1) + prev
    }

    /// A model from normalised frequencies of the present contexts.
    pub(super) fn new(
        scheme: u8,
        n: usize,
        seeds: u32,
        symbols: usize,
        lowest: i8,
        step: u8,
        stored: Vec<(u32, Vec<u16>)>,
    ) -> Model {
        let count = context_count(scheme, seeds, n, symbols);
        // Row 0: a fallback for contexts the file does not have (never met
        // in a valid file; it keeps decoding a crafted one panic-free).
        let mut fallback = vec![(PROB_SCALE / symbols as u32) as u16; symbols];
        fallback[0] += (PROB_SCALE - fallback.iter().map(|&f| f as u32).sum::<u32>()) as u16;
        let mut row_of = vec![0u32; count];
        let mut row_start = vec![0u32];
        let mut entries = Vec::new();
        let mut by_symbol = Vec::new();
        let rows = std::iter::once(&fallback).chain(stored.iter().map(|(_, f)| f));
        for (r, freqs) in rows.enumerate() {
            let mut order: Vec<usize> = (0..symbols).filter(|&s| freqs[s] > 0).collect();
            order.sort_by_key(|&s| (std::cmp::Reverse(freqs[s]), s));
            let mut row = vec![Entry::default(); symbols];
            let mut start = 0u32;
            for s in order {
                let e = Entry {
                    start: start as u16,
                    freq: freqs[s],
                    symbol: s as u8,
                };
                entries.push(e);
                row[s] = e;
                start += freqs[s] as u32;
            }
            row_start.push(entries.len() as u32);
            by_symbol.extend(row);
            // A row's slots end at the scale: a scan never runs past it.
            debug_assert_eq!(start, PROB_SCALE);
            if r > 0 {
                row_of[stored[r - 1].0 as usize] = r as u32;
            }
        }
        let entry_of = row_of.iter().map(|&r| row_start[r as usize]).collect();
        Model {
            scheme,
            n,
            symbols,
            lowest,
            step,
            row_of,
            entry_of,
            entries,
            by_symbol,
            stored,
        }
    }

    #[cfg(feature = "files")]
    pub(super) fn serialize(&self, seeds: u32) -> Vec<u8> {
        let count = context_count(self.scheme, seeds, self.n, self.symbols);
        let mut bitmap = vec![0u8; count.div_ceil(8)];
        let mut freqs = Vec::new();
        for (ctx, f) in &self.stored {
            bitmap[*ctx as usize / 8] |= 1 << (ctx % 8);
            for &v in f {
                leb128(&mut freqs, v as u32);
            }
        }
        bitmap.extend(freqs);
        bitmap
    }

    pub(super) fn parse(
        bytes: &[u8],
        scheme: u8,
        n: usize,
        seeds: u32,
        symbols: usize,
        lowest: i8,
        step: u8,
    ) -> Result<Model, String> {
        let count = context_count(scheme, seeds, n, symbols);
        let map_len = count.div_ceil(8);
        if bytes.len() < map_len {
            return Err("model shorter than its bitmap".into());
        }
        let (bitmap, mut rest) = bytes.split_at(map_len);
        if !count.is_multiple_of(8) && bitmap[map_len - 1] >> (count % 8) != 0 {
            return Err("model bitmap names contexts that do not exist".into());
        }
        let mut stored = Vec::new();
        for ctx in 0..count {
            if bitmap[ctx / 8] & (1 << (ctx % 8)) == 0 {
                continue;
            }
            let mut f = Vec::with_capacity(symbols);
            for _ in 0..symbols {
                let (v, used) = read_leb128(rest).ok_or("model frequencies cut short")?;
                rest = &rest[used..];
                if v > PROB_SCALE {
                    return Err("a frequency above the probability scale".into());
                }
                f.push(v as u16);
            }
            if f.iter().map(|&v| v as u32).sum::<u32>() != PROB_SCALE {
                return Err(format!("context {ctx}: frequencies do not sum to {PROB_SCALE}"));
            }
            stored.push((ctx as u32, f));
        }
        if !rest.is_empty() {
            return Err("bytes left after the model".into());
        }
        Ok(Model::new(scheme, n, seeds, symbols, lowest, step, stored))
    }
}

#[cfg(feature = "files")]
fn leb128(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_leb128(b: &[u8]) -> Option<(u32, usize)> {
    let mut v = 0u32;
    for (i, &byte) in b.iter().enumerate().take(3) {
        v |= ((byte & 0x7f) as u32) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// Encodes one block: the values of ranks `first..first + codes.len()`
/// (as symbols).
#[cfg(feature = "files")]
pub(super) fn encode_block(model: &Model, ix: &Indexer, first: u64, codes: &[u8]) -> Vec<u8> {
    let mut board = vec![0u8; ix.holes()];
    ix.unrank(first, &mut board);
    let mut slots = Vec::with_capacity(codes.len());
    let mut prev = model.symbols;
    for &c in codes {
        let ctx = model.context(&board, prev);
        let row = model.row_of[ctx] as usize;
        slots.push(model.by_symbol[row * model.symbols + c as usize]);
        prev = c as usize;
        ix.next(&mut board);
    }
    let mut out = Vec::with_capacity(codes.len() / 2 + 8);
    let mut x = RANS_L;
    for e in slots.iter().rev() {
        let freq = e.freq as u32;
        debug_assert!(freq > 0, "every coded symbol has a frequency");
        let x_max = ((RANS_L >> PROB_BITS) << 8) * freq;
        while x >= x_max {
            out.push(x as u8);
            x >>= 8;
        }
        x = ((x / freq) << PROB_BITS) + (x % freq) + e.start as u32;
    }
    let mut block = x.to_le_bytes().to_vec();
    block.extend(out.iter().rev());
    block
}

/// Decodes the first `out.len()` values of a block starting at rank `first`.
pub(super) fn decode_block(model: &Model, ix: &Indexer, first: u64, bytes: &[u8], out: &mut [i8]) {
    let mut board = vec![0u8; ix.holes()];
    ix.unrank(first, &mut board);
    let mut x = match bytes.get(..4) {
        Some(b) => u32::from_le_bytes(b.try_into().expect("4 bytes")),
        None => RANS_L,
    };
    let mut p = 4;
    let mut prev = model.symbols;
    for v in out.iter_mut() {
        let ctx = model.context(&board, prev);
        let slot = x & (PROB_SCALE - 1);
        // The row's slots cover the whole scale (checked when parsed), so
        // the scan stops within it.
        let row = &model.entries[model.entry_of[ctx] as usize..];
        let e = *row
            .iter()
            .find(|e| slot < e.start as u32 + e.freq as u32)
            .unwrap_or(&row[0]);
        *v = model
            .lowest
            .wrapping_add((model.step as i8).wrapping_mul(e.symbol as i8));
        x = (e.freq as u32)
            .wrapping_mul(x >> PROB_BITS)
            .wrapping_add(slot)
            .wrapping_sub(e.start as u32);
        while x < RANS_L {
            // A valid stream holds exactly the bytes the decoder reads; a
            // crafted one that runs out (or a zero state) must not loop.
            let Some(&b) = bytes.get(p) else {
                x |= RANS_L;
                break;
            };
            x = (x << 8) | b as u32;
            p += 1;
        }
        prev = e.symbol as usize;
        ix.next(&mut board);
    }
}
