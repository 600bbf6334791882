//! Layer files: build, reuse, reopen, and refuse corrupt or foreign files.

use hoyito_core::{Position, Rules, Variant};
use hoyito_tablebase::file::{layer_file_name, rules_dir};
use hoyito_tablebase::{BuildOptions, LayerReport, Tablebase, TablebaseError};

#[test]
fn build_reopen_reuse_and_detect_corruption() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Rules::new(Variant::III, 4).unwrap();
    let mut solved = Vec::new();
    let built = Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |r| {
        if let LayerReport::Solved(s) = r {
            solved.push(s.seeds);
        }
    })
    .unwrap();
    assert_eq!(solved, [4, 8, 12]);
    let memory = Tablebase::solve_in_memory(rules, 12).unwrap();
    let pos = Position::from_notation(rules, "2,0,1,3/0,4,0,2 s 10-10").unwrap();
    assert_eq!(built.value(&pos).unwrap(), memory.value(&pos).unwrap());

    // Only the final files are left: no temporary files.
    let sub = rules_dir(dir.path(), &rules);
    let mut names: Vec<String> = std::fs::read_dir(&sub)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["seeds-004.htb", "seeds-008.htb", "seeds-012.htb"]);

    // A second build reuses every layer.
    let mut reused = 0;
    Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |r| {
        reused += matches!(r, LayerReport::Reused { .. }) as u32;
    })
    .unwrap();
    assert_eq!(reused, 3);

    let opened = Tablebase::open(rules, dir.path()).unwrap();
    assert_eq!(opened.layers(), [4, 8, 12]);
    assert_eq!(opened.value(&pos).unwrap(), memory.value(&pos).unwrap());

    // Other rules cannot open these files.
    let other = Rules::new(Variant::II, 4).unwrap();
    std::fs::rename(&sub, rules_dir(dir.path(), &other)).unwrap();
    assert!(matches!(
        Tablebase::open(other, dir.path()),
        Err(TablebaseError::Corrupt { .. })
    ));
    std::fs::rename(rules_dir(dir.path(), &other), &sub).unwrap();

    // One flipped payload byte is caught by the checksum.
    let path = sub.join(layer_file_name(8));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    match Tablebase::open(rules, dir.path()) {
        Err(TablebaseError::Corrupt { reason, .. }) => assert!(reason.contains("checksum"), "{reason}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a corrupt file was accepted"),
    }
    // Building again replaces the corrupt layer.
    let mut solved = Vec::new();
    Tablebase::build(rules, dir.path(), 12, BuildOptions::default(), |r| {
        if let LayerReport::Solved(s) = r {
            solved.push(s.seeds);
        }
    })
    .unwrap();
    assert_eq!(solved, [8]);
    assert!(Tablebase::open(rules, dir.path()).is_ok());

    // A truncated file is refused too.
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(
        Tablebase::open(rules, dir.path()),
        Err(TablebaseError::Corrupt { .. })
    ));
}
