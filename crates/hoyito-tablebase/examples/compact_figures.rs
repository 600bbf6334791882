//! Figures of the compact table format against one-byte tables: bits a
//! position and probe latency, per table set.
//!
//! ```text
//! cargo run --release -p hoyito-tablebase --example compact_figures -- \
//!     --dir ./tablebases [--out DIR] [--block 2048] [--probes 20000] [SET…]
//! ```
//!
//! `--dir` holds one-byte tables (`hoyito tablebase build`); each SET
//! (`II-2x6-24`: variant, board, largest layer; default: every set of
//! `--dir`) is compacted into `--out` (default: a temporary directory),
//! every value compared, and both formats probed at random through
//! `Tablebase::board_value`: compact "cold" (each probe a block not in the
//! cache), "warm" (the same probes again, their blocks cached) and
//! "random" (uniform over the set's positions, the default 8 MiB cache).

use std::path::PathBuf;
use std::time::Instant;

use hoyito_core::{Rules, Variant};
use hoyito_tablebase::compact::{compact_file_name, write_compact, DEFAULT_BLOCK_LEN, DEFAULT_CACHE_BYTES};
use hoyito_tablebase::file::{layer_file_name, rules_dir, LayerFile};
use hoyito_tablebase::{layer_seeds, Indexer, LayerFormat, Tablebase};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// Nanoseconds this thread has run on a CPU, so that a loaded machine's
/// waits are not counted.
fn cpu_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// CPU nanoseconds a probe over `boards`, and the sum of values (kept live).
fn time_probes(tb: &Tablebase, boards: &[Vec<u8>]) -> (f64, i64) {
    let t = cpu_ns();
    let mut sum = 0i64;
    for b in boards {
        sum += tb.board_value(b).expect("a layer of the set") as i64;
    }
    ((cpu_ns() - t) as f64 / boards.len().max(1) as f64, sum)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut out, mut block, mut probes) =
        (PathBuf::from("tablebases"), None, DEFAULT_BLOCK_LEN, 20_000usize);
    let mut sets: Vec<(Rules, u32)> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--dir" => dir = args.next().ok_or("--dir DIR")?.into(),
            "--out" => out = Some(PathBuf::from(args.next().ok_or("--out DIR")?)),
            "--block" => block = args.next().ok_or("--block N")?.parse()?,
            "--probes" => probes = args.next().ok_or("--probes N")?.parse()?,
            set => {
                let parts: Vec<&str> = set.split(['-', 'x']).collect();
                let [v, "2", n, max] = parts[..] else {
                    return Err(format!("a set is VARIANT-2xN-MAXSEEDS, e.g. II-2x6-24, not {set}").into());
                };
                let variant = match v {
                    "I" => Variant::I,
                    "II" => Variant::II,
                    "III" => Variant::III,
                    _ => return Err(format!("unknown variant {v}").into()),
                };
                sets.push((Rules::new(variant, n.parse()?)?, max.parse()?));
            }
        }
    }
    if sets.is_empty() {
        for v in Variant::ALL {
            for n in 4..=12 {
                let rules = Rules::new(v, n)?;
                let sub = rules_dir(&dir, &rules);
                let top = layer_seeds(127)
                    .take_while(|&s| sub.join(layer_file_name(s)).exists())
                    .last();
                if let Some(top) = top {
                    sets.push((rules, top));
                }
            }
        }
    }
    let tmp = tempfile::tempdir()?;
    let out = out.unwrap_or_else(|| tmp.path().to_path_buf());
    println!(
        "block {block} positions, cache {} MiB, {} threads, {probes} probes a layer",
        DEFAULT_CACHE_BYTES >> 20,
        rayon::current_num_threads()
    );
    println!(
        "{:<12} {:>6} {:>13} {:>12} {:>12} {:>7} {:>6} {:>8} | probe ns: {:>6} {:>8} {:>7} {:>8} ({:>5})",
        "set",
        "layer",
        "positions",
        "bytes",
        "compact",
        "bits/p",
        "ratio",
        "write s",
        "bytes",
        "cold",
        "warm",
        "random",
        "miss"
    );
    for (rules, max) in sets {
        let name = format!("{}-2x{}-{max}", rules.variant(), rules.holes());
        let (src, dst) = (rules_dir(&dir, &rules), rules_dir(&out, &rules));
        let (mut tot_pos, mut tot_bytes, mut tot_compact, mut tot_write) = (0u64, 0u64, 0u64, 0f64);
        for seeds in layer_seeds(max) {
            let positions = Indexer::new(rules.board_len(), seeds).count();
            let f = LayerFile::open(&src.join(layer_file_name(seeds)), &rules, seeds, positions)?;
            let t = Instant::now();
            let st = write_compact(
                &dst.join(compact_file_name(seeds)),
                &rules,
                seeds,
                f.values(),
                block,
            )?;
            let secs = t.elapsed().as_secs_f64();
            let bytes = 64 + positions;
            tot_pos += positions;
            tot_bytes += bytes;
            tot_compact += st.file_bytes;
            tot_write += secs;
            println!(
                "{name:<12} {seeds:>6} {positions:>13} {bytes:>12} {:>12} {:>7.3} {:>6.2} {secs:>8.2} | scheme {}, model {} B, index {} B",
                st.file_bytes,
                st.bits_per_position(),
                bytes as f64 / st.file_bytes as f64,
                st.scheme,
                st.model_bytes,
                st.index_bytes,
            );
        }
        // The same values through the normal probing API, every position.
        let bytes_tb = Tablebase::open(rules, &dir)?;
        let compact_tb = Tablebase::open(rules, &out)?;
        assert_eq!(compact_tb.layer_format(4), Some(LayerFormat::Compact));
        let mut rng = Rng(0x5EED ^ max as u64);
        // Cold: one probe in each of `probes` distinct random blocks a layer,
        // weighted by layer size below.
        let mut cold = Vec::new();
        let mut random = Vec::new();
        for seeds in layer_seeds(max) {
            let ix = Indexer::new(rules.board_len(), seeds);
            let blocks = ix.count().div_ceil(block as u64);
            let take = (probes as u64).min(blocks);
            let mut chosen: Vec<u64> = (0..blocks).collect();
            for i in 0..take {
                let j = i + rng.below(blocks - i);
                chosen.swap(i as usize, j as usize);
            }
            for &b in &chosen[..take as usize] {
                let first = b * block as u64;
                let r = first + rng.below((ix.count() - first).min(block as u64));
                let mut board = vec![0u8; rules.board_len()];
                ix.unrank(r, &mut board);
                cold.push(board);
            }
        }
        // Random: uniform over the set's positions.
        let counts: Vec<(u32, u64)> = layer_seeds(max)
            .map(|s| (s, Indexer::new(rules.board_len(), s).count()))
            .collect();
        for _ in 0..probes {
            let mut r = rng.below(tot_pos);
            let &(s, c) = counts
                .iter()
                .find(|&&(_, c)| {
                    let here = r < c;
                    if !here {
                        r -= c;
                    }
                    here
                })
                .expect("within the set");
            let _ = c;
            let ix = Indexer::new(rules.board_len(), s);
            let mut board = vec![0u8; rules.board_len()];
            ix.unrank(r, &mut board);
            random.push(board);
        }
        // Every value equal through board_value, layer by layer.
        for seeds in layer_seeds(max) {
            let ix = Indexer::new(rules.board_len(), seeds);
            let mut board = vec![0u8; rules.board_len()];
            ix.unrank(0, &mut board);
            loop {
                assert_eq!(
                    bytes_tb.board_value(&board),
                    compact_tb.board_value(&board),
                    "{board:?}"
                );
                if !ix.next(&mut board) {
                    break;
                }
            }
        }
        // Fresh tablebases for timing: a large cache, so that the warm pass hits.
        let big = Tablebase::open_with_cache(rules, &out, 256 << 20)?;
        let (bytes_ns, s1) = time_probes(&bytes_tb, &cold);
        let (cold_ns, s2) = time_probes(&big, &cold);
        let decoded = big.block_cache().decoded();
        let (warm_ns, s3) = time_probes(&big, &cold);
        assert_eq!(decoded, cold.len() as u64, "one block decoded a cold probe");
        let warm_miss = (big.block_cache().decoded() - decoded) as f64 / cold.len() as f64;
        assert!(s1 == s2 && s2 == s3);
        let fresh = Tablebase::open(rules, &out)?;
        let (_, r1) = time_probes(&bytes_tb, &random);
        let (random_ns, r2) = time_probes(&fresh, &random);
        assert_eq!(r1, r2);
        let miss = fresh.block_cache().decoded() as f64 / random.len() as f64;
        let (random_bytes_ns, _) = time_probes(&bytes_tb, &random);
        println!(
            "{name:<12} {:>6} {tot_pos:>13} {tot_bytes:>12} {tot_compact:>12} {:>7.3} {:>6.2} {tot_write:>8.2} | {bytes_ns:>6.0} {cold_ns:>8.0} {warm_ns:>7.0} {random_ns:>8.0} ({:>4.0}%)  bytes random {random_bytes_ns:.0} ns; {} cold probes, warm {:.1}% decoded again",
            "all",
            tot_compact as f64 * 8.0 / tot_pos as f64,
            tot_bytes as f64 / tot_compact as f64,
            miss * 100.0,
            cold.len(),
            warm_miss * 100.0,
        );
    }
    Ok(())
}
