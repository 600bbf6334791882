//! The distributed build writes the single-process build's files, byte for
//! byte, with in-process workers and with worker processes on loopback; a
//! worker process that dies makes the build fail and leaves no layer file.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};

use hoyito_cluster::{run, BuildJob};
use hoyito_core::{Rules, Variant};
use hoyito_tablebase::{layer_seeds, BuildOptions, Tablebase};

const EXE: &str = env!("CARGO_BIN_EXE_hoyito-cluster");

/// Builds the single-process reference tables into `dir`.
fn reference(rules: Rules, dir: &Path, max_seeds: u32) {
    Tablebase::build(rules, dir, max_seeds, BuildOptions::default(), |_| {}).unwrap();
}

/// Every layer file up to `max_seeds` is the same in both directories, and
/// nothing else (no part or temporary file) is left in `built`.
fn assert_same_files(rules: &Rules, reference: &Path, built: &Path, max_seeds: u32) {
    let (a, b) = (
        Tablebase::files_dir(reference, rules),
        Tablebase::files_dir(built, rules),
    );
    let mut names = Vec::new();
    for seeds in layer_seeds(max_seeds) {
        let name = hoyito_tablebase::file::layer_file_name(seeds);
        let (x, y) = (
            std::fs::read(a.join(&name)).unwrap(),
            std::fs::read(b.join(&name)).unwrap(),
        );
        assert!(x == y, "{rules}: {name} differs");
        names.push(name);
    }
    let mut left: Vec<String> = std::fs::read_dir(&b)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, names, "only the layer files are left");
}

fn job(rules: Rules, dir: &Path, max_seeds: u32) -> BuildJob {
    BuildJob {
        rules,
        dir: dir.to_path_buf(),
        max_seeds,
        verbose: false,
        on_sweep: None,
    }
}

#[test]
fn in_process_workers_write_the_single_process_files() {
    for (variant, holes, max_seeds, workers) in [
        (Variant::II, 4, 20, 3),
        (Variant::III, 5, 12, 2),
        (Variant::I, 4, 16, 1),
    ] {
        let rules = Rules::new(variant, holes).unwrap();
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        reference(rules, a.path(), max_seeds);
        let layers = run(timely::Config::process(workers), job(rules, b.path(), max_seeds)).unwrap();
        assert_eq!(layers.len() as u32, max_seeds / 4);
        let top = layers.last().unwrap();
        assert!(!top.reused && top.sweeps.last().unwrap().total.changed == 0);
        if workers > 1 {
            assert!(top.ghosts > 0 && top.sweeps[0].total.updates > 0, "{top:?}");
        }
        assert_same_files(&rules, a.path(), b.path(), max_seeds);
        // A second run reuses every layer.
        let again = run(timely::Config::process(workers), job(rules, b.path(), max_seeds)).unwrap();
        assert!(again.iter().all(|l| l.reused));
    }
}

#[test]
fn local_processes_write_the_single_process_files() {
    for (variant, holes, max_seeds, processes) in [(Variant::II, 4, 20, 2), (Variant::I, 5, 12, 3)] {
        let rules = Rules::new(variant, holes).unwrap();
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        reference(rules, a.path(), max_seeds);
        let out = Command::new(EXE)
            .args(["local", "--processes", &processes.to_string()])
            .args(["--variant", &variant.to_string(), "--holes", &holes.to_string()])
            .args(["--max-seeds", &max_seeds.to_string()])
            .arg("--dir")
            .arg(b.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(err.contains(&format!("layer {max_seeds:>3}: done")), "{err}");
        for p in 0..processes {
            assert!(
                err.contains(&format!("process {p}: {} layers solved", max_seeds / 4)),
                "{err}"
            );
        }
        assert_same_files(&rules, a.path(), b.path(), max_seeds);
    }
}

/// `n` loopback ports free a moment ago.
fn free_ports(n: usize) -> Vec<u16> {
    let ls: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    ls.iter().map(|l| l.local_addr().unwrap().port()).collect()
}

#[test]
fn a_killed_worker_process_fails_the_build_and_leaves_no_layer_file() {
    let rules = Rules::new(Variant::II, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    let list: String = free_ports(3).iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(&hosts, list).unwrap();
    let tables = dir.path().join("tables");
    let start = |i: usize, hold: bool| {
        let mut c = Command::new(EXE);
        c.args(["build", "--variant", "II", "--holes", "4", "--max-seeds", "16"])
            .arg("--dir")
            .arg(&tables)
            .arg("--hosts")
            .arg(&hosts)
            .args(["--process", &i.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if hold {
            c.args(["--hold-at", "16:2"]);
        }
        c.spawn().unwrap()
    };
    let mut others = vec![start(0, false), start(2, false)];
    let mut victim = start(1, true);
    // Wait until the victim holds in the middle of the 16-seed layer, then kill it.
    let mut lines = BufReader::new(victim.stderr.take().unwrap()).lines();
    let held = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.contains("holding after layer 16 sweep 2"));
    assert!(held.is_some(), "the victim never held");
    victim.kill().unwrap();
    victim.wait().unwrap();
    for c in &mut others {
        let mut err = String::new();
        c.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let status = c.wait().unwrap();
        assert!(!status.success(), "{err}");
        assert!(
            err.contains("lost the connection to another worker process"),
            "{err}"
        );
    }
    let sub = Tablebase::files_dir(&tables, &rules);
    assert!(
        sub.join("seeds-012.htb").exists(),
        "the layers before are complete"
    );
    assert!(
        !sub.join("seeds-016.htb").exists(),
        "no layer file for the layer being solved"
    );
}

#[test]
fn a_bad_port_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "127.0.0.1:99999\n127.0.0.1:1234\n").unwrap();
    let out = Command::new(EXE)
        .args([
            "build",
            "--variant",
            "II",
            "--holes",
            "4",
            "--max-seeds",
            "8",
            "--process",
            "0",
        ])
        .arg("--dir")
        .arg(dir.path())
        .arg("--hosts")
        .arg(&hosts)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("\"127.0.0.1:99999\" is not host:port with a port from 1 to 65535"),
        "{err}"
    );
    let out = Command::new(EXE)
        .args(["local", "--processes", "2", "--base-port", "65535"])
        .args(["--variant", "II", "--holes", "4", "--max-seeds", "8"])
        .arg("--dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("are not all valid ports"));
}
