//! The default tables as downloads (`GET /api/tables`): for each set of
//! [`default_plan`], the compact layer files the server has of it, their
//! sizes and checksums, so that the web app can keep them on the device
//! and probe them without a server (the WebAssembly module's `Tables`).
//! Only compact files are offered: one-byte tables are three times the size.

use std::io::Read;
use std::path::PathBuf;

use hoyito_core::Rules;
use hoyito_tablebase::compact::{compact_file_name, HEADER_LEN, MAGIC};
use hoyito_tablebase::Tablebase;

use crate::tables::{default_plan, Tablebases};

/// One compact layer file offered for download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableFile {
    /// Seeds in play of the layer.
    pub seeds: u32,
    /// Bytes of the file.
    pub bytes: u64,
    /// The checksum its header holds (xxh3-64 of everything after the
    /// header): part of its download name, so that the name is immutable.
    pub checksum: u64,
    /// Where it is.
    pub path: PathBuf,
}

impl TableFile {
    /// Its name in the download's URL: `seeds-012-<checksum>.htc`.
    pub fn download_name(&self) -> String {
        format!("seeds-{:03}-{:016x}.htc", self.seeds, self.checksum)
    }
}

/// One set of the default tables as it stands on this server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDownload {
    /// The rules.
    pub rules: Rules,
    /// Its name in URLs, as its directory's: `II-2x4`.
    pub name: String,
    /// The layers it goes up to: the top layer on disk once ready, the
    /// plan's top while building.
    pub max_seeds: u32,
    /// Built, and its compact files on disk: `files` lists them.
    pub ready: bool,
    /// Being built (or still to be built) by this server.
    pub building: bool,
    /// Its compact files, layers 4, 8, … (empty unless ready).
    pub files: Vec<TableFile>,
}

impl TableDownload {
    /// Bytes of all its files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum()
    }
}

/// The name of `rules`' set in URLs: its directory's (`II-2x4`).
fn set_name(rules: &Rules) -> String {
    Tablebase::files_dir(std::path::Path::new(""), rules)
        .to_string_lossy()
        .into_owned()
}

/// The size and header checksum of a compact file, if it is one.
fn read_file(path: PathBuf, seeds: u32) -> Option<TableFile> {
    let mut file = std::fs::File::open(&path).ok()?;
    let bytes = file.metadata().ok()?.len();
    let mut header = [0u8; HEADER_LEN];
    file.read_exact(&mut header).ok()?;
    if &header[..8] != MAGIC {
        return None;
    }
    let checksum = u64::from_le_bytes(header[32..40].try_into().ok()?);
    Some(TableFile {
        seeds,
        bytes,
        checksum,
        path,
    })
}

impl Tablebases {
    /// The default tables' sets as downloads: every set of
    /// [`default_plan`], ready or not. Reads the files' headers: call from
    /// a blocking thread.
    pub fn downloads(&self) -> Vec<TableDownload> {
        default_plan()
            .into_iter()
            .map(|set| {
                let building = self.building(&set.rules).is_some();
                let sub = Tablebase::files_dir(self.dir(), &set.rules);
                let files: Vec<TableFile> = if building {
                    Vec::new()
                } else {
                    hoyito_tablebase::layer_seeds(set.max_seeds)
                        .map_while(|s| read_file(sub.join(compact_file_name(s)), s))
                        .collect()
                };
                let ready = !files.is_empty();
                TableDownload {
                    rules: set.rules,
                    name: set_name(&set.rules),
                    max_seeds: files.last().map_or(set.max_seeds, |f| f.seeds),
                    ready,
                    building,
                    files,
                }
            })
            .collect()
    }

    /// The file a download URL names (`II-2x4`, `seeds-012-<checksum>.htc`),
    /// if this server offers it now. Call from a blocking thread.
    pub fn download(&self, set: &str, name: &str) -> Option<TableFile> {
        let plan = default_plan();
        let wanted = plan.iter().find(|s| set_name(&s.rules) == set)?;
        if self.building(&wanted.rules).is_some() {
            return None;
        }
        let seeds: u32 = name.strip_prefix("seeds-")?.get(..3)?.parse().ok()?;
        if seeds > wanted.max_seeds || !seeds.is_multiple_of(4) || seeds == 0 {
            return None;
        }
        let sub = Tablebase::files_dir(self.dir(), &wanted.rules);
        read_file(sub.join(compact_file_name(seeds)), seeds).filter(|f| f.download_name() == name)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use hoyito_core::Variant;

    use super::*;
    use crate::tables::TableSet;

    #[test]
    fn built_sets_list_their_compact_files_by_checksum_others_are_not_ready() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::new(Variant::II, 4).unwrap();
        let tb = Tablebases::with_plan(dir.path().to_path_buf(), vec![TableSet { rules, max_seeds: 8 }]);
        let before = tb.downloads();
        assert_eq!(before.len(), 6);
        assert!(before.iter().all(|d| !d.ready && d.files.is_empty()));
        assert_eq!(
            before.iter().map(|d| d.building).collect::<Vec<_>>(),
            [false, true, false, false, false, false]
        );
        assert_eq!(before[1].name, "II-2x4");
        assert_eq!(before[1].max_seeds, 32);
        tb.build_plan(&AtomicBool::new(false)).unwrap();
        let after = tb.downloads();
        let two = &after[1];
        assert!(two.ready && !two.building);
        assert_eq!(two.max_seeds, 8);
        assert_eq!(two.files.iter().map(|f| f.seeds).collect::<Vec<_>>(), [4, 8]);
        let on_disk = std::fs::metadata(&two.files[1].path).unwrap().len();
        assert_eq!(two.files[1].bytes, on_disk);
        assert_eq!(two.bytes(), two.files[0].bytes + on_disk);
        assert!(!after[0].ready && !after[2].ready);
        let name = two.files[1].download_name();
        assert_eq!(tb.download("II-2x4", &name), Some(two.files[1].clone()));
        // A wrong checksum, another set, a layer it does not have: none.
        let wrong = format!("seeds-008-{:016x}.htc", two.files[1].checksum ^ 1);
        assert_eq!(tb.download("II-2x4", &wrong), None);
        assert_eq!(tb.download("I-2x4", &name), None);
        assert_eq!(tb.download("II-2x4", "seeds-012-0000000000000000.htc"), None);
        assert_eq!(tb.download("II-2x4", "../../etc"), None);
    }
}
