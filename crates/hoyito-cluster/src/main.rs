//! `hoyito-cluster`: builds tablebase layers on the workers of a
//! timely-dataflow cluster (see the library's documentation).

#![forbid(unsafe_code)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use hoyito_cluster::{cluster_config, parse_hosts, run, BuildJob, LayerSummary};
use hoyito_core::{Rules, Variant};

#[derive(Parser)]
#[command(
    name = "hoyito-cluster",
    version,
    about = "Build Hoyito tablebase layers on several worker processes (timely dataflow over TCP)"
)]
enum Cli {
    /// Run one process of a cluster: its workers build their parts of each layer.
    Build(BuildArgs),
    /// Start --processes `build` processes on loopback ports and wait for them.
    Local(LocalArgs),
}

#[derive(clap::Args, Clone)]
struct Layers {
    /// Variant: I, II or III.
    #[arg(long)]
    variant: Variant,
    /// Holes per row.
    #[arg(long)]
    holes: usize,
    /// Largest number of seeds in play to solve (layers are multiples of 4).
    #[arg(long)]
    max_seeds: u32,
    /// Directory of the tablebases (one subdirectory per rule set), shared by all processes.
    #[arg(long, default_value = "./tablebases")]
    dir: PathBuf,
    /// Worker threads per process.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// No figures per sweep.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    layers: Layers,
    /// The host list: one `host:port` a line, process 0 first.
    #[arg(long)]
    hosts: PathBuf,
    /// This process's index in the host list.
    #[arg(long)]
    process: usize,
    /// After sweep SWEEP of layer SEEDS, say so on stderr and wait until
    /// stdin closes (for tests that stop a process mid-layer).
    #[arg(long, value_name = "SEEDS:SWEEP", hide = true)]
    hold_at: Option<String>,
}

#[derive(clap::Args)]
struct LocalArgs {
    #[command(flatten)]
    layers: Layers,
    /// Worker processes to start.
    #[arg(long, default_value_t = 2)]
    processes: usize,
    /// First port (processes listen on 127.0.0.1 at PORT, PORT+1, …);
    /// default: ports the system reports free.
    #[arg(long)]
    base_port: Option<u16>,
}

fn main() -> ExitCode {
    // A worker process that dies breaks its connections: timely's network
    // threads panic in the others. Any panic ends the process, with an error.
    std::panic::set_hook(Box::new(|info| {
        let lost = info.to_string().contains("timely communication error");
        eprintln!("hoyito-cluster: {info}");
        if lost {
            eprintln!("hoyito-cluster: lost the connection to another worker process; stopping");
        }
        std::process::exit(2);
    }));
    let result = match Cli::parse() {
        Cli::Build(a) => build(a),
        Cli::Local(a) => local(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hoyito-cluster: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Peak resident set (`VmHWM`) and CPU seconds of this process, from /proc.
fn own_usage() -> Option<(u64, f64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<u64>()
        .ok()?;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 (utime, stime), in clock ticks of 1/100 s.
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some((hwm * 1024, ticks as f64 / 100.0))
}

fn build(a: BuildArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.hosts).with_context(|| format!("reading {}", a.hosts.display()))?;
    let hosts = parse_hosts(&text);
    let config = cluster_config(hosts, a.process, a.layers.threads)?;
    let rules = Rules::new(a.layers.variant, a.layers.holes)?;
    let hold = match &a.hold_at {
        None => None,
        Some(s) => {
            let (k, w) = s.split_once(':').context("--hold-at takes SEEDS:SWEEP")?;
            Some((k.parse::<u32>()?, w.parse::<u32>()?))
        }
    };
    let process = a.process;
    let on_sweep: Option<hoyito_cluster::OnSweep> = hold.map(|(k, w)| {
        Arc::new(move |seeds: u32, sweep: u32| {
            if (seeds, sweep) == (k, w) {
                eprintln!("hoyito-cluster: process {process} holding after layer {seeds} sweep {sweep}");
                let mut sink = Vec::new();
                let _ = std::io::stdin().read_to_end(&mut sink);
            }
        }) as hoyito_cluster::OnSweep
    });
    let t0 = Instant::now();
    let job = BuildJob {
        rules,
        dir: a.layers.dir.clone(),
        max_seeds: a.layers.max_seeds,
        verbose: !a.layers.quiet && process == 0,
        on_sweep,
    };
    let layers = run(config, job)?;
    report(process, &layers, t0.elapsed());
    Ok(())
}

/// One line per process at the end: its part's figures and its resources.
fn report(process: usize, layers: &[LayerSummary], wall: Duration) {
    let solved: Vec<&LayerSummary> = layers.iter().filter(|l| !l.reused).collect();
    let work = solved.iter().map(|l| l.work_bytes).max().unwrap_or(0);
    let (rss, cpu) = own_usage().unwrap_or((0, 0.0));
    let mut text = format!(
        "process {process}: {} layers solved, {} reused; largest work memory {:.1} MB; peak RSS {:.1} MiB; CPU {cpu:.1} s; wall clock {:.1} s\n",
        solved.len(),
        layers.len() - solved.len(),
        work as f64 / 1e6,
        rss as f64 / (1 << 20) as f64,
        wall.as_secs_f64()
    );
    if let Some(top) = solved.last() {
        text += &format!(
            "process {process}: layer {}: {} positions, {} inner edges, {} ghosts, {} wanted by others\n",
            top.seeds, top.part_positions, top.part_edges, top.ghosts, top.subscriptions
        );
    }
    // One write, so that the processes' lines do not interleave.
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// Ports for `n` processes: `base..base + n`, or ports the system reports free.
fn ports(n: usize, base: Option<u16>) -> anyhow::Result<Vec<u16>> {
    if let Some(b) = base {
        if b == 0 || b as usize + n > 65536 {
            bail!(
                "--base-port {b}: ports {b} to {} are not all valid ports",
                b as usize + n - 1
            );
        }
        return Ok((0..n).map(|i| b + i as u16).collect());
    }
    // Bound together so that they differ; released just before the processes bind them.
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<_, _>>()
        .context("finding free loopback ports")?;
    listeners
        .iter()
        .map(|l| Ok(l.local_addr()?.port()))
        .collect::<anyhow::Result<_>>()
}

fn local(a: LocalArgs) -> anyhow::Result<()> {
    if a.processes == 0 {
        bail!("--processes 0: at least one process");
    }
    let ports = ports(a.processes, a.base_port)?;
    let hosts = tempfile::Builder::new()
        .prefix("hoyito-cluster-hosts-")
        .tempfile()
        .context("writing the host list")?;
    let list: String = ports.iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(hosts.path(), list).context("writing the host list")?;
    let exe = std::env::current_exe().context("finding this program")?;
    let l = &a.layers;
    let mut children: Vec<(usize, Child)> = Vec::new();
    for i in 0..a.processes {
        let mut cmd = Command::new(&exe);
        cmd.arg("build")
            .args(["--variant", &l.variant.to_string()])
            .args(["--holes", &l.holes.to_string()])
            .args(["--max-seeds", &l.max_seeds.to_string()])
            .arg("--dir")
            .arg(&l.dir)
            .args(["--threads", &l.threads.to_string()])
            .arg("--hosts")
            .arg(hosts.path())
            .args(["--process", &i.to_string()])
            .stdin(Stdio::null());
        if l.quiet {
            cmd.arg("--quiet");
        }
        match cmd.spawn() {
            Ok(c) => children.push((i, c)),
            Err(e) => {
                stop_all(&mut children);
                return Err(e).context(format!("starting process {i}"));
            }
        }
    }
    // Wait for every process; the first that fails stops the others.
    let mut failed: Option<String> = None;
    while !children.is_empty() {
        let mut i = 0;
        while i < children.len() {
            let (p, c) = &mut children[i];
            match c.try_wait().context("waiting for a worker process")? {
                Some(status) => {
                    if !status.success() && failed.is_none() {
                        failed = Some(format!("worker process {p} exited with {status}"));
                    }
                    children.swap_remove(i);
                }
                None => i += 1,
            }
        }
        if failed.is_some() {
            stop_all(&mut children);
        }
        if !children.is_empty() {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    if let Some(f) = failed {
        bail!("{f}; stopped the others (no layer file is left unfinished)");
    }
    Ok(())
}

fn stop_all(children: &mut Vec<(usize, Child)>) {
    for (_, c) in children.iter_mut() {
        let _ = c.kill();
    }
    for (_, c) in children.iter_mut() {
        let _ = c.wait();
    }
    children.clear();
}
