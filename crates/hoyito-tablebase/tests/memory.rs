//! Compact layers held in memory (`Tablebase::in_memory`,
//! `insert_compact`) answer every probe exactly as the same files opened
//! from disk, and bytes that are not the layer's file are refused with a
//! typed error.

use hoyito_core::{Position, Rules, Setup, Side, Variant};
use hoyito_tablebase::compact::{compact_file_name, compact_tables, CompactOptions, DEFAULT_CACHE_BYTES};
use hoyito_tablebase::file::rules_dir;
use hoyito_tablebase::{BuildOptions, Indexer, LayerFormat, Tablebase, TablebaseError};

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

/// Tables of `rules` up to `max_seeds`, built and compacted in a temporary directory.
fn compact_dir(rules: Rules, max_seeds: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    Tablebase::build(rules, dir.path(), max_seeds, BuildOptions::default(), |_| {}).unwrap();
    compact_tables(rules, dir.path(), CompactOptions::default(), None, |_| {}).unwrap();
    dir
}

/// The bytes of the compact file of layer `seeds`.
fn layer_bytes(dir: &std::path::Path, rules: &Rules, seeds: u32) -> Vec<u8> {
    std::fs::read(rules_dir(dir, rules).join(compact_file_name(seeds))).unwrap()
}

#[test]
fn in_memory_layers_answer_every_probe_as_the_files_do() {
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let dir = compact_dir(rules, 12);
        let files = Tablebase::open(rules, dir.path()).unwrap();
        assert_eq!(files.layer_format(12), Some(LayerFormat::Compact));
        let mut memory = Tablebase::in_memory(rules, 12, DEFAULT_CACHE_BYTES).unwrap();
        for seeds in [4, 8, 12] {
            memory
                .insert_compact(seeds, layer_bytes(dir.path(), &rules, seeds))
                .unwrap();
        }
        assert_eq!(memory.layers(), [4, 8, 12]);
        assert_eq!(memory.layer_format(12), Some(LayerFormat::Compact));
        let mut probed = 0;
        for seeds in [4, 8, 12] {
            for board in boards(8, seeds) {
                assert_eq!(memory.board_value(&board), files.board_value(&board), "{board:?}");
                for to_move in [Side::South, Side::North] {
                    let mut setup = Setup::start(&rules);
                    setup.board = board.clone();
                    setup.opening = false;
                    setup.to_move = to_move;
                    setup.captured.south = 10;
                    setup.captured.north = 6;
                    let pos = Position::from_setup(rules, &setup).unwrap();
                    assert_eq!(
                        memory.value(&pos).unwrap(),
                        files.value(&pos).unwrap(),
                        "{board:?} {to_move:?}"
                    );
                    assert_eq!(
                        memory.move_values(&pos).unwrap(),
                        files.move_values(&pos).unwrap(),
                        "{board:?} {to_move:?}"
                    );
                    assert_eq!(
                        memory.best_moves(&pos).unwrap(),
                        files.best_moves(&pos).unwrap(),
                        "{board:?} {to_move:?}"
                    );
                    assert_eq!(
                        memory.final_margin(&pos),
                        files.final_margin(&pos),
                        "{board:?} {to_move:?}"
                    );
                    probed += 1;
                }
            }
        }
        assert_eq!(
            probed,
            2 * [4, 8, 12].map(|s| Indexer::new(8, s).count()).iter().sum::<u64>()
        );
    }
}

#[test]
fn foreign_cut_or_corrupt_bytes_are_refused_and_missing_layers_named() {
    let rules = Rules::new(Variant::II, 4).unwrap();
    let dir = compact_dir(rules, 8);
    let mut tb = Tablebase::in_memory(rules, 12, 1 << 20).unwrap();
    let eight = layer_bytes(dir.path(), &rules, 8);
    let corrupt = |r: Result<(), TablebaseError>, why: &str| match r {
        Err(TablebaseError::Corrupt { path, reason }) => {
            assert!(reason.contains(why), "{reason}");
            assert!(path.to_string_lossy().ends_with(".htc"), "{path:?}");
        }
        other => panic!("expected corrupt ({why}), got {other:?}"),
    };
    // Another layer's file, another rule set's file.
    corrupt(tb.insert_compact(4, eight.clone()), "another layer");
    let other = Rules::new(Variant::I, 4).unwrap();
    let other_dir = compact_dir(other, 4);
    corrupt(
        tb.insert_compact(4, layer_bytes(other_dir.path(), &other, 4)),
        "other rules",
    );
    // Cut short, padded, empty, one byte changed.
    corrupt(
        tb.insert_compact(8, eight[..eight.len() - 1].to_vec()),
        "cut short",
    );
    let mut padded = eight.clone();
    padded.push(0);
    corrupt(tb.insert_compact(8, padded), "cut short or padded");
    corrupt(tb.insert_compact(8, Vec::new()), "bad magic");
    let mut flipped = eight.clone();
    let last = flipped.len() - 9;
    flipped[last] ^= 0x55;
    corrupt(tb.insert_compact(8, flipped), "checksum");
    // Layers that cannot be there.
    assert!(matches!(
        tb.insert_compact(6, eight.clone()),
        Err(TablebaseError::Unsupported(_))
    ));
    assert!(matches!(
        tb.insert_compact(16, eight.clone()),
        Err(TablebaseError::Unsupported(_))
    ));
    assert!(tb.layers().is_empty());

    // Layer 8 alone: its positions whose moves all stay in it are
    // answered; a capture into the missing layer 4 is a typed error.
    tb.insert_compact(8, eight).unwrap();
    assert_eq!(tb.layers(), [8]);
    let pos = Position::from_notation(rules, "2,0,1,1/0,2,0,2 s 16-16").unwrap();
    assert!(tb.value(&pos).is_ok());
    let four = Position::from_notation(rules, "1,0,0,1/0,1,0,1 s 18-18").unwrap();
    assert!(matches!(
        tb.value(&four),
        Err(TablebaseError::Missing { seeds: 4, .. })
    ));
    tb.insert_compact(4, layer_bytes(dir.path(), &rules, 4)).unwrap();
    let files = Tablebase::open(rules, dir.path()).unwrap();
    assert_eq!(tb.move_values(&pos).unwrap(), files.move_values(&pos).unwrap());
}
