//! Layer files: a versioned, checksummed header and one `i8` per position.
//!
//! ```text
//! offset size  field
//!      0    8  magic "HOYITOTB"
//!      8    4  format version (little-endian u32, currently 1)
//!     12    1  variant (1, 2, 3)
//!     13    1  holes per row
//!     14    1  skip_origin (0/1)
//!     15    1  capture_side (0 any, 1 opponent)
//!     16    4  seeds in play (the layer)
//!     20    4  reserved, 0
//!     24    8  positions (u64)
//!     32    8  xxh3-64 of the payload
//!     40   24  reserved, 0
//!     64    …  payload: one i8 value per position, in rank order
//! ```
//!
//! Files are written to a temporary file in the same directory, synced, and
//! renamed into place, so an interrupted build (Ctrl-C) never leaves a
//! partial layer under the final name. They are checked (header and
//! checksum) when opened and then memory-mapped.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use hoyito_core::{CaptureSide, Rules};
use memmap2::Mmap;
use xxhash_rust::xxh3::xxh3_64;

use crate::error::TablebaseError;
use crate::tag::layer_tag;

/// File magic.
pub const MAGIC: &[u8; 8] = b"HOYITOTB";
/// Current format version.
pub const FORMAT_VERSION: u32 = 1;
/// Header length; the payload starts here.
pub const HEADER_LEN: usize = 64;

/// The name of a layer's file inside a tablebase directory.
pub fn layer_file_name(seeds: u32) -> String {
    format!("seeds-{seeds:03}.htb")
}

/// The subdirectory of `dir` holding the tables of `rules`, e.g. `II-2x6`
/// or `I-2x5-skip_origin-capture_opponent`.
pub fn rules_dir(dir: &Path, rules: &Rules) -> PathBuf {
    let mut name = format!("{}-2x{}", rules.variant(), rules.holes());
    if rules.skip_origin() {
        name.push_str("-skip_origin");
    }
    if rules.capture_side() == CaptureSide::Opponent {
        name.push_str("-capture_opponent");
    }
    dir.join(name)
}

fn header(rules: &Rules, seeds: u32, payload: &[u8]) -> [u8; HEADER_LEN] {
    header_of(rules, seeds, payload.len() as u64, xxh3_64(payload))
}

/// The header of a layer of `len` positions whose payload hashes to `hash`.
fn header_of(rules: &Rules, seeds: u32, len: u64, hash: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..32].copy_from_slice(&layer_tag(rules, seeds, len));
    h[32..40].copy_from_slice(&hash.to_le_bytes());
    h
}

/// Writes one layer of `positions` values atomically, as [`write_layer`],
/// without holding its values in memory: `fill(start, buf)` writes the
/// values of ranks `start..start + buf.len()` into `buf`, block by block in
/// rank order.
///
/// # Errors
/// [`TablebaseError::Io`] if the directory cannot be created or written.
pub fn write_layer_with(
    path: &Path,
    rules: &Rules,
    seeds: u32,
    positions: u64,
    mut fill: impl FnMut(u64, &mut [i8]),
) -> Result<(), TablebaseError> {
    write_layer_try_with(path, rules, seeds, positions, |start, block| {
        fill(start, block);
        Ok(())
    })
}

/// As [`write_layer_with`], with a `fill` that can fail (for example one
/// that reads the values from other files): its first error stops the
/// writing, and then no file appears at `path` (the temporary file is
/// removed).
///
/// # Errors
/// [`TablebaseError::Io`] if the directory cannot be created or written,
/// or with `fill`'s error.
pub fn write_layer_try_with(
    path: &Path,
    rules: &Rules,
    seeds: u32,
    positions: u64,
    mut fill: impl FnMut(u64, &mut [i8]) -> std::io::Result<()>,
) -> Result<(), TablebaseError> {
    use std::io::{Seek, SeekFrom};
    let io = |e: std::io::Error| TablebaseError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    write_atomic(path, |f| {
        f.write_all(&[0u8; HEADER_LEN])?;
        let mut hash = xxhash_rust::xxh3::Xxh3::new();
        let mut block = vec![0i8; 1 << 20];
        let mut w = std::io::BufWriter::new(&mut *f);
        let mut start = 0u64;
        while start < positions {
            let n = (positions - start).min(block.len() as u64) as usize;
            fill(start, &mut block[..n])?;
            let bytes: Vec<u8> = block[..n].iter().map(|&v| v as u8).collect();
            hash.update(&bytes);
            w.write_all(&bytes)?;
            start += n as u64;
        }
        w.flush()?;
        drop(w);
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header_of(rules, seeds, positions, hash.digest()))
    })
    .map_err(io)
}

/// Writes one layer atomically (with [`write_atomic`]), creating its
/// directory if needed.
///
/// # Errors
/// [`TablebaseError::Io`] if the directory cannot be created or written.
pub fn write_layer(path: &Path, rules: &Rules, seeds: u32, values: &[i8]) -> Result<(), TablebaseError> {
    let io = |e: std::io::Error| TablebaseError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let payload: Vec<u8> = values.iter().map(|&v| v as u8).collect();
    write_atomic(path, |f| {
        f.write_all(&header(rules, seeds, &payload))?;
        f.write_all(&payload)
    })
    .map_err(io)
}

/// Writes the file at `path` atomically: `write` fills a temporary file
/// in the same directory (`.partial-*.tmp`), which is then synced to disk,
/// made readable by everyone (`0644` on Unix) and renamed over `path`. So
/// `path` is either untouched or complete, even after a crash or Ctrl-C,
/// and on any error the temporary file is removed.
///
/// # Errors
/// The first I/O error: `path` has no file name, its directory does not
/// exist or cannot be written, `write` failed, or the rename failed.
///
/// # Examples
///
/// ```
/// use std::io::Write;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("notes.txt");
/// hoyito_tablebase::file::write_atomic(&path, |f| f.write_all(b"kept whole"))?;
/// assert_eq!(std::fs::read(&path)?, b"kept whole");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} has no file name: expected a path to a file", path.display()),
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".partial-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    write(tmp.as_file_mut())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Temporary files are private; a finished file is for everyone to read.
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A layer file, checked and memory-mapped.
#[derive(Debug)]
pub struct LayerFile {
    map: Mmap,
    seeds: u32,
}

impl LayerFile {
    /// Opens and checks a layer file: magic, version, rules, layer, length
    /// and checksum must all match.
    ///
    /// # Errors
    /// [`TablebaseError::Io`] if it cannot be read, [`TablebaseError::Corrupt`]
    /// if any check fails.
    pub fn open(path: &Path, rules: &Rules, seeds: u32, positions: u64) -> Result<LayerFile, TablebaseError> {
        let file = File::open(path).map_err(|e| TablebaseError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        // SAFETY: the file is only ever created by an atomic rename and never
        // modified in place; a concurrent writer replaces it with a new inode.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TablebaseError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        let corrupt = |why: &str| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: why.to_string(),
        };
        if map.len() < HEADER_LEN || &map[..8] != MAGIC {
            return Err(corrupt("not a Hoyito tablebase file (bad magic)"));
        }
        let version = u32::from_le_bytes(map[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(corrupt(&format!(
                "format version {version}, expected {FORMAT_VERSION}"
            )));
        }
        let payload = &map[HEADER_LEN..];
        let expected = header(rules, seeds, payload);
        if map[12..16] != expected[12..16] {
            return Err(corrupt("built for other rules"));
        }
        if map[16..20] != expected[16..20] {
            return Err(corrupt("holds another layer"));
        }
        let len = u64::from_le_bytes(map[24..32].try_into().expect("8 bytes"));
        if len != positions || payload.len() as u64 != positions {
            return Err(corrupt(&format!(
                "{} positions, expected {positions}",
                payload.len()
            )));
        }
        if map[32..40] != expected[32..40] {
            return Err(corrupt("checksum mismatch"));
        }
        Ok(LayerFile { map, seeds })
    }

    /// The layer's seeds in play.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The value of rank `rank`.
    #[inline]
    pub fn value(&self, rank: u64) -> i8 {
        self.map[HEADER_LEN + rank as usize] as i8
    }

    /// All values, in rank order.
    pub fn values(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::Variant;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// Success replaces the file whole; a failing writer, a missing
    /// directory or a path without a file name is an error that leaves the
    /// old file as it was and no temporary file behind.
    #[test]
    fn write_atomic_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomic(&path, |f| f.write_all(b"first")).unwrap();
        write_atomic(&path, |f| f.write_all(b"second")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["out.txt"]);

        let e = write_atomic(&path, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["out.txt"]);

        let missing = dir.path().join("no-such-dir").join("out.txt");
        let e = write_atomic(&missing, |f| f.write_all(b"x")).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        let e = write_atomic(&dir.path().join(".."), |f| f.write_all(b"x")).unwrap_err();
        assert!(e.to_string().contains("has no file name"), "{e}");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    /// A layer is written into a directory it creates, readable by
    /// everyone, with no temporary file left.
    #[cfg(unix)]
    #[test]
    fn layers_are_readable_by_everyone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("layer.tb");
        write_layer(&path, &Rules::standard(Variant::I), 2, &[1, -1, 0]).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
        assert_eq!(names(&dir.path().join("sub")), ["layer.tb"]);
    }
}
