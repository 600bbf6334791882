//! `hoyito serve` (a real process on loopback) on an SQLite database whose
//! disk fills up: a small tmpfs, mounted by the test (which needs root, as
//! in CI), filled by a file of the test's. Writes answer 503 `storage_full`
//! with `Retry-After` and store nothing, reads go on, the health check
//! reports the storage degraded; a server started on the full disk says why
//! in one line; once the file is gone, the server starts and serves again.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::{fails_to_start, request, serve, wait_healthy, TempDir};
use serde_json::json;

/// A tmpfs of `size` mounted at a directory, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Tmpfs {
        std::fs::create_dir_all(at).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .status()
            .expect("run mount");
        assert!(status.success(), "mount a tmpfs at {} (needs root)", at.display());
        Tmpfs(at.to_path_buf())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the disk of `path`'s directory with the file `path`, until no byte more fits.
fn fill(path: &Path) {
    let mut file = std::fs::File::create(path).unwrap();
    let chunk = vec![0u8; 4096];
    loop {
        match file.write(&chunk) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
    let _ = file.sync_all();
}

#[test]
#[ignore = "mounts a small tmpfs, which needs root: run by scripts/test.sh as root"]
fn a_full_disk_is_503_storage_full_and_a_start_on_it_says_why() {
    let dir = TempDir::new("disk-full");
    let disk = Tmpfs::mount(&dir.0.join("disk"), "4m");
    let db = disk.0.join("games.db");
    let filler = disk.0.join("filler");
    let server = serve(&dir.0, db.as_os_str(), &[], &[("HOYITO_LOG", "off")]);
    let addr = server.addr.as_str();
    let created = request(
        addr,
        "POST",
        "/api/games",
        None,
        Some(&json!({ "mode": "hotseat" })),
    );
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.json()["id"].as_str().unwrap().to_string();
    assert_eq!(request(addr, "GET", "/api/health", None, None).status, 200);

    fill(&filler);
    // The database's files may have room left in their last pages: new
    // games are stored until they do not (a few at most).
    let mut refused = None;
    for _ in 0..1000 {
        let a = request(
            addr,
            "POST",
            "/api/games",
            None,
            Some(&json!({ "mode": "hotseat" })),
        );
        if a.status != 201 {
            refused = Some(a);
            break;
        }
    }
    let refused = refused.expect("a write refused once the disk is full");
    assert_eq!(refused.status, 503, "{refused:?}");
    assert_eq!(refused.header("retry-after"), Some("30"), "{refused:?}");
    let v = refused.json();
    assert_eq!(v["code"], "storage_full", "{refused:?}");
    assert!(
        v["error"].as_str().unwrap().contains("disk is full"),
        "{refused:?}"
    );
    let health = request(addr, "GET", "/api/health", None, None);
    assert_eq!(health.status, 503, "{health:?}");
    assert_eq!(
        (health.json()["storage"].as_str(), health.json()["code"].as_str()),
        (Some("degraded"), Some("storage_full")),
        "{health:?}"
    );
    assert!(health.header("retry-after").is_some(), "{health:?}");
    // Reads go on.
    assert_eq!(
        request(addr, "GET", &format!("/api/games/{id}"), None, None).status,
        200
    );

    // Stopped (SIGTERM) on the full disk, it cannot start again, and says why.
    let mut server = server;
    let pid = server.child.id().to_string();
    let signalled = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(signalled.success());
    assert!(server.child.wait().unwrap().success(), "stopped by SIGTERM");
    drop(server);
    let (code, stderr) = fails_to_start(&dir.0, db.as_os_str(), &[], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    assert!(
        lines[0].starts_with(&format!(
            "hoyito: cannot open database {}: the disk holding it is full",
            db.display()
        )),
        "{stderr}"
    );

    // Room again: the server starts, the games are there, and new ones are stored.
    std::fs::remove_file(&filler).unwrap();
    let server = serve(&dir.0, db.as_os_str(), &[], &[("HOYITO_LOG", "off")]);
    let addr = server.addr.as_str();
    assert_eq!(
        request(addr, "GET", &format!("/api/games/{id}"), None, None).status,
        200
    );
    let created = request(
        addr,
        "POST",
        "/api/games",
        None,
        Some(&json!({ "mode": "hotseat" })),
    );
    assert_eq!(created.status, 201, "{created:?}");
    wait_healthy(addr);
    drop(server);
    drop(disk);
}
