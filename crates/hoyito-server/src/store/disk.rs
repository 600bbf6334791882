//! A full disk under the SQLite database: the health check's free-space
//! test ([`check_space`]) and the one-line message at start
//! ([`on_open_error`]).

use std::path::{Path, PathBuf};

use super::{OpenError, StoreError, StoreResult};

/// The least free space on the database's disk for the health check to
/// call it writable: below it, writes fail or soon will.
pub const MIN_FREE: u64 = 1024 * 1024;

/// The free space (for this process) on the disk holding the file `db`.
pub fn free_space(db: &Path) -> Option<u64> {
    let dir = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs4::available_space(dir).ok()
}

/// Checks the free space on the disk holding the database `db` (a file
/// path; `None` or empty for a database in memory).
///
/// # Errors
/// [`StoreError::DiskFull`] below [`MIN_FREE`].
pub fn check_space(db: Option<&str>) -> StoreResult<()> {
    let Some(db) = db.filter(|d| !d.is_empty()) else {
        return Ok(());
    };
    match free_space(Path::new(db)) {
        Some(free) if free < MIN_FREE => Err(StoreError::DiskFull {
            path: PathBuf::from(db),
            free,
        }),
        _ => Ok(()),
    }
}

/// Whether SQLite failed because the disk is full (`SQLITE_FULL`).
pub fn sqlite_full(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull)
}

/// Whether SQLite failed to read or write its files (`SQLITE_IOERR` and
/// its kinds, a file it cannot open or that is read-only).
pub fn sqlite_io(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(
            rusqlite::ErrorCode::SystemIoFailure
                | rusqlite::ErrorCode::CannotOpen
                | rusqlite::ErrorCode::ReadOnly
        )
    )
}

/// `e`, the failure to open the database `db`, as [`OpenError::DiskFull`]
/// if the disk is full: SQLite said so, or a file could not be written and
/// the disk has less than [`MIN_FREE`] free.
pub fn on_open_error(db: &Path, e: OpenError) -> OpenError {
    let free = free_space(db);
    let low = free.is_some_and(|f| f < MIN_FREE);
    let full = match &e {
        OpenError::Sqlite(s) => sqlite_full(s) || (low && sqlite_io(s)),
        OpenError::Lock { source, .. } => source.kind() == std::io::ErrorKind::StorageFull || low,
        _ => false,
    };
    if full {
        OpenError::DiskFull {
            db: db.to_path_buf(),
            free,
            cause: e.to_string(),
        }
    } else {
        e
    }
}
