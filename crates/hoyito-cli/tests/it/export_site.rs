//! `hoyito export-site DIR`: the app as static files.

use std::process::Command;

fn hoyito(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hoyito-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn writes_every_file_the_service_worker_caches() {
    let dir = temp_dir("ok");
    let (code, out, err) = hoyito(&["export-site".as_ref(), dir.as_os_str()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wrote "), "{out}");
    let list: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("precache.json")).unwrap()).unwrap();
    let files = list["files"].as_array().unwrap();
    assert!(files.len() > 20);
    for f in files {
        let f = f.as_str().unwrap();
        let path = if f == "/" {
            dir.join("index.html")
        } else {
            dir.join(&f[1..])
        };
        assert!(path.is_file(), "{f} is listed but not written");
    }
    for f in [
        "sw.js",
        "manifest.webmanifest",
        "wasm/hoyito_wasm_bg.wasm",
        "local/engine-worker.js",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let wasm = std::fs::read(dir.join("wasm/hoyito_wasm_bg.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refuses_a_directory_that_is_not_empty_or_a_file() {
    let dir = temp_dir("busy");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mine.txt"), "keep").unwrap();
    let (code, _, err) = hoyito(&["export-site".as_ref(), dir.as_os_str()]);
    assert_eq!(code, 2);
    assert!(err.contains("is not empty"), "{err}");
    assert!(!dir.join("index.html").exists(), "nothing written");
    let (code, _, err) = hoyito(&["export-site".as_ref(), dir.as_os_str(), "--force".as_ref()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("mine.txt")).unwrap(), "keep");
    assert!(dir.join("index.html").is_file());
    let file = dir.join("mine.txt");
    let (code, _, err) = hoyito(&["export-site".as_ref(), file.as_os_str()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a directory"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
