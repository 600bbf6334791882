//! Compact layer files: every value equal after compaction, the same
//! answers through the probing API, reuse by builds, and typed errors for
//! corrupt, truncated or foreign files.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::{Position, Rules, Variant};
use hoyito_tablebase::compact::{
    compact_file_name, compact_tables, write_compact, BlockCache, CompactLayer, CompactOptions, CompactReport,
};
use hoyito_tablebase::file::{layer_file_name, rules_dir, LayerFile};
use hoyito_tablebase::{BuildOptions, Indexer, LayerFormat, LayerReport, Tablebase, TablebaseError};

/// The names in `dir`, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Every board of a layer, in rank order.
fn boards(holes: usize, seeds: u32) -> impl Iterator<Item = Vec<u8>> {
    let ix = Indexer::new(holes, seeds);
    let mut board = vec![0u8; holes];
    ix.unrank(0, &mut board);
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let b = board.clone();
        done = !ix.next(&mut board);
        Some(b)
    })
}

/// Solved tables of `rules` to `max_seeds` in one-byte files, and a copy
/// compacted (one-byte files removed) in another directory.
fn byte_and_compact(
    rules: Rules,
    max_seeds: u32,
) -> (tempfile::TempDir, tempfile::TempDir, Vec<CompactReport>) {
    let (bytes, compact) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    Tablebase::build(rules, bytes.path(), max_seeds, BuildOptions::default(), |_| {}).unwrap();
    Tablebase::build(rules, compact.path(), max_seeds, BuildOptions::default(), |_| {}).unwrap();
    let reports = compact_tables(rules, compact.path(), CompactOptions::default(), None, |_| {}).unwrap();
    (bytes, compact, reports)
}

#[test]
fn every_value_survives_compaction_and_probes_answer_the_same() {
    let rules = Rules::new(Variant::II, 4).unwrap();
    let (bytes, compact, reports) = byte_and_compact(rules, 16);
    assert_eq!(reports.len(), 4);
    for r in &reports {
        let CompactReport::Written {
            stats,
            removed,
            byte_file_bytes,
            ..
        } = r
        else {
            panic!("{r:?}");
        };
        assert!(removed);
        assert!(stats.file_bytes * 3 < *byte_file_bytes, "{stats:?}");
    }
    let sub = rules_dir(compact.path(), &rules);
    assert_eq!(
        names(&sub),
        ["seeds-004.htc", "seeds-008.htc", "seeds-012.htc", "seeds-016.htc"]
    );

    let a = Tablebase::open(rules, bytes.path()).unwrap();
    let b = Tablebase::open(rules, compact.path()).unwrap();
    let none = Tablebase::open_with_cache(rules, compact.path(), 0).unwrap();
    assert_eq!(a.layer_format(16), Some(LayerFormat::Bytes));
    assert_eq!(b.layer_format(16), Some(LayerFormat::Compact));
    assert_eq!(b.layers(), [4, 8, 12, 16]);
    for seeds in [4, 8, 12, 16] {
        // The file itself, every value, against the one-byte file.
        let positions = Indexer::new(8, seeds).count();
        let f = LayerFile::open(
            &rules_dir(bytes.path(), &rules).join(layer_file_name(seeds)),
            &rules,
            seeds,
            positions,
        )
        .unwrap();
        let c = CompactLayer::open(
            &sub.join(compact_file_name(seeds)),
            &rules,
            seeds,
            positions,
            Arc::new(BlockCache::new(0)),
        )
        .unwrap();
        let decoded: Vec<u8> = c.values().into_iter().map(|v| v as u8).collect();
        assert_eq!(decoded, f.values(), "layer {seeds}");
        // Through the probing API: with the cache, and without one.
        for board in boards(8, seeds) {
            let want = a.board_value(&board);
            assert_eq!(b.board_value(&board), want, "{board:?}");
            if seeds <= 8 {
                assert_eq!(none.board_value(&board), want, "{board:?}");
            }
        }
    }
    assert!(b.block_cache().decoded() > 0);
    assert_eq!(none.block_cache().slots(), 0);

    // Positions, moves and the Bellman check, as with one-byte files.
    for text in [
        "1,0,0,3/0,0,2,2 s 20-20",
        "2,0,1,3/0,4,0,2 n 10-10",
        "0,5,0,3/1,0,2,1 s 14-18",
    ] {
        let pos = Position::from_notation(rules, text).unwrap();
        assert_eq!(a.value(&pos).unwrap(), b.value(&pos).unwrap(), "{text}");
        assert_eq!(
            a.move_values(&pos).unwrap(),
            b.move_values(&pos).unwrap(),
            "{text}"
        );
        assert_eq!(a.final_margin(&pos), b.final_margin(&pos), "{text}");
    }
    let (n, bad) = b.check_bellman(12, 3).unwrap();
    assert_eq!((n, bad.len()), (Indexer::new(8, 12).count(), 0));

    // Decoded into memory, the same again.
    let mut c = Tablebase::open(rules, compact.path()).unwrap();
    c.expand();
    assert_eq!(c.layer_format(16), Some(LayerFormat::Memory));
    for board in boards(8, 16).step_by(97) {
        assert_eq!(c.board_value(&board), a.board_value(&board));
    }
}

#[test]
fn any_i8_values_and_any_block_length_round_trip() {
    let rules = Rules::new(Variant::I, 6).unwrap();
    let ix = Indexer::new(12, 8);
    let dir = tempfile::tempdir().unwrap();
    // Values a board predicts (the context model wins), and noise over
    // every i8 (one context, 256 symbols).
    let predictable: Vec<u8> = boards(12, 8)
        .map(|b| (4 * (b[..6].iter().sum::<u8>() % 3) as i8 - 4) as u8)
        .collect();
    let mut state = 7u64;
    let noise: Vec<u8> = (0..ix.count())
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 56) as u8
        })
        .collect();
    let constant = vec![(-8i8) as u8; ix.count() as usize];
    for (name, values, scheme) in [
        ("predictable", &predictable, 1),
        ("noise", &noise, 0),
        ("constant", &constant, 0),
    ] {
        for block in [1, 100, 2048, 1 << 20] {
            let path = dir.path().join(format!("{name}-{block}.htc"));
            let stats = write_compact(&path, &rules, 8, values, block).unwrap();
            assert_eq!(stats.scheme, scheme, "{name}");
            let c = CompactLayer::open(&path, &rules, 8, ix.count(), Arc::new(BlockCache::new(64))).unwrap();
            let back: Vec<u8> = c.values().into_iter().map(|v| v as u8).collect();
            assert!(back == *values, "{name}, blocks of {block}");
            // Single probes through the cache, in a scattered order.
            for r in (0..ix.count()).step_by(31).chain([ix.count() - 1]) {
                assert_eq!(
                    c.value(r) as u8,
                    values[r as usize],
                    "{name}, block {block}, rank {r}"
                );
            }
            if name == "predictable" && block == 2048 {
                assert!(stats.bits_per_position() < 0.5, "{stats:?}");
            }
        }
    }
}

/// Rewrites `path` with `edit` applied, then expects `open` to fail with a
/// reason containing `why`.
fn expect_corrupt(path: &std::path::Path, open: impl Fn() -> Result<(), TablebaseError>, why: &str) {
    match open() {
        Err(TablebaseError::Corrupt { reason, path: p }) => {
            assert!(reason.contains(why), "{reason} (expected {why})");
            assert_eq!(p, path);
        }
        Err(e) => panic!("{e} (expected {why})"),
        Ok(()) => panic!("accepted (expected {why})"),
    }
}

#[test]
fn corrupt_truncated_and_foreign_files_are_refused() {
    let rules = Rules::new(Variant::III, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |_| {}).unwrap();
    compact_tables(rules, dir.path(), CompactOptions::default(), None, |_| {}).unwrap();
    let sub = rules_dir(dir.path(), &rules);
    let path = sub.join(compact_file_name(12));
    let good = std::fs::read(&path).unwrap();
    let positions = Indexer::new(8, 12).count();
    let open = |r: Rules, seeds: u32, positions: u64| {
        CompactLayer::open(&path, &r, seeds, positions, Arc::new(BlockCache::new(0))).map(|_| ())
    };
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        edit(&mut b);
        std::fs::write(&path, &b).unwrap();
    };

    with(&|b| b[good.len() / 2] ^= 0x10);
    expect_corrupt(&path, || open(rules, 12, positions), "checksum");
    // And through Tablebase::open, naming the file.
    expect_corrupt(
        &path,
        || Tablebase::open(rules, dir.path()).map(|_| ()),
        "checksum",
    );
    with(&|b| b.truncate(good.len() - 3));
    expect_corrupt(&path, || open(rules, 12, positions), "cut short");
    with(&|b| b.truncate(40));
    expect_corrupt(&path, || open(rules, 12, positions), "bad magic");
    with(&|b| b.push(0));
    expect_corrupt(&path, || open(rules, 12, positions), "cut short or padded");
    with(&|b| b[0] = b'X');
    expect_corrupt(&path, || open(rules, 12, positions), "bad magic");
    with(&|b| b[8] = 9);
    expect_corrupt(&path, || open(rules, 12, positions), "version 9");
    with(&|b| b[40..44].copy_from_slice(&0u32.to_le_bytes()));
    expect_corrupt(&path, || open(rules, 12, positions), "block length");
    std::fs::write(&path, &good).unwrap();
    expect_corrupt(
        &path,
        || open(Rules::new(Variant::II, 4).unwrap(), 12, positions),
        "other rules",
    );
    expect_corrupt(
        &path,
        || open(rules, 8, Indexer::new(8, 8).count()),
        "another layer",
    );
    assert!(open(rules, 12, positions).is_ok());

    // A crafted file that passes every check (blocks zeroed, checksum
    // recomputed) decodes to some values, without a panic or a hang.
    with(&|b| {
        let model = u32::from_le_bytes(b[52..56].try_into().unwrap()) as usize;
        let data = u64::from_le_bytes(b[56..64].try_into().unwrap()) as usize;
        b[64 + model..64 + model + data].fill(0);
        let sum = xxhash_rust::xxh3::xxh3_64(&b[64..]);
        b[32..40].copy_from_slice(&sum.to_le_bytes());
    });
    let crafted = CompactLayer::open(&path, &rules, 12, positions, Arc::new(BlockCache::new(4))).unwrap();
    assert_eq!(crafted.values().len() as u64, positions);
    let _ = crafted.value(positions - 1);
    drop(crafted);

    // A one-byte file beside a compact one is preferred; a corrupt compact
    // file with no one-byte file is an error of compact_tables too.
    with(&|b| b[good.len() - 1] ^= 1);
    assert!(matches!(
        compact_tables(rules, dir.path(), CompactOptions::default(), None, |_| {}),
        Err(TablebaseError::Corrupt { .. })
    ));
    // Building again replaces it with a one-byte layer, and compacting again
    // restores the compact file.
    let mut solved = Vec::new();
    Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |r| {
        if let LayerReport::Solved(s) = r {
            solved.push(s.seeds);
        }
    })
    .unwrap();
    assert_eq!(solved, [12]);
    assert_eq!(
        Tablebase::open(rules, dir.path()).unwrap().layer_format(12),
        Some(LayerFormat::Bytes)
    );
    compact_tables(rules, dir.path(), CompactOptions::default(), None, |_| {}).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert_eq!(names(&sub), ["seeds-004.htc", "seeds-008.htc", "seeds-012.htc"]);
}

#[test]
fn conversions_resume_keep_bytes_and_builds_go_on_above_compact_layers() {
    let rules = Rules::new(Variant::I, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |_| {}).unwrap();
    let sub = rules_dir(dir.path(), &rules);

    // Stopped before it starts: nothing changes.
    let stop = AtomicBool::new(true);
    assert!(matches!(
        compact_tables(rules, dir.path(), CompactOptions::default(), Some(&stop), |_| {}),
        Err(TablebaseError::Interrupted { seeds: 4 })
    ));
    assert_eq!(names(&sub), ["seeds-004.htb", "seeds-008.htb", "seeds-012.htb"]);

    // Keeping the one-byte files: both formats, the one-byte one read.
    let keep = CompactOptions {
        keep_bytes: true,
        ..CompactOptions::default()
    };
    compact_tables(rules, dir.path(), keep, None, |_| {}).unwrap();
    assert_eq!(names(&sub).len(), 6);
    assert_eq!(
        Tablebase::open(rules, dir.path()).unwrap().layer_format(8),
        Some(LayerFormat::Bytes)
    );
    // As after an interruption between writing and removing: the compact
    // files are reused and the one-byte ones removed.
    let reports = compact_tables(rules, dir.path(), CompactOptions::default(), None, |_| {}).unwrap();
    assert!(reports
        .iter()
        .all(|r| matches!(r, CompactReport::Existing { removed: true, .. })));
    assert_eq!(names(&sub), ["seeds-004.htc", "seeds-008.htc", "seeds-012.htc"]);

    // A build reuses compact layers and solves the next ones above them.
    let mut seen = Vec::new();
    let tb = Tablebase::build(rules, dir.path(), 16, BuildOptions::default(), |r| match r {
        LayerReport::Reused { seeds, .. } => seen.push(("reused", *seeds)),
        LayerReport::Solved(s) => seen.push(("solved", s.seeds)),
        LayerReport::Sweep { .. } => {}
    })
    .unwrap();
    assert_eq!(
        seen,
        [("reused", 4), ("reused", 8), ("reused", 12), ("solved", 16)]
    );
    let memory = Tablebase::solve_in_memory(rules, 16).unwrap();
    for board in boards(8, 16).step_by(13) {
        assert_eq!(tb.board_value(&board), memory.board_value(&board), "{board:?}");
    }
    let opened = Tablebase::open(rules, dir.path()).unwrap();
    assert_eq!(opened.layer_format(12), Some(LayerFormat::Compact));
    assert_eq!(opened.layer_format(16), Some(LayerFormat::Bytes));
    for board in boards(8, 12).step_by(7) {
        assert_eq!(
            opened.board_value(&board),
            memory.board_value(&board),
            "{board:?}"
        );
    }

    // Nothing to compact: Missing.
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        compact_tables(rules, empty.path(), CompactOptions::default(), None, |_| {}),
        Err(TablebaseError::Missing { .. })
    ));
}
