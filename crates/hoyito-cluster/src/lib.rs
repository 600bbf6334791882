//! # hoyito-cluster
//!
//! The retrograde layer solver of `hoyito-tablebase`, partitioned over the
//! workers of a [timely-dataflow](https://docs.rs/timely) computation: one
//! process or many, on one machine or several, talking over TCP. Each
//! layer's positions are split into one contiguous rank range per worker;
//! each sweep, the workers exchange the states of the children that other
//! workers own through a timely exchange channel, one timely epoch per
//! sweep, until a sweep changes nothing anywhere. The layer files it writes
//! are byte-identical to `hoyito tablebase build`'s, in the same format and
//! directory, so either can build on the other's layers. How the solver
//! works is in [`solver`].
//!
//! ## Running it
//!
//! On one machine, `local` starts the worker processes on loopback ports
//! and waits for them:
//!
//! ```text
//! hoyito-cluster local --processes 4 --variant II --holes 5 --max-seeds 32 --dir ./tablebases
//! ```
//!
//! On several machines, start one `build` per machine with the same host
//! list (one `host:port` a line, process 0 first) and the same directory,
//! shared by every machine (each needs the lower layers, and process 0
//! writes the layer files):
//!
//! ```text
//! hoyito-cluster build --variant II --holes 5 --max-seeds 32 --dir /shared/tablebases \
//!     --hosts hosts.txt --process I [--threads T]
//! ```
//!
//! Each process runs `--threads` workers (default 1). Worker 0 prints each
//! sweep's figures to stderr: positions changed and evaluated, the state
//! updates sent, their records and bytes, and seconds.
//!
//! From Rust, [`run`] builds with a `timely::Config`:
//!
//! ```no_run
//! use hoyito_cluster::{run, BuildJob};
//! use hoyito_core::{Rules, Variant};
//!
//! let job = BuildJob {
//!     rules: Rules::new(Variant::II, 4)?,
//!     dir: "tablebases".into(),
//!     max_seeds: 20,
//!     verbose: false,
//!     on_sweep: None,
//! };
//! // Two worker threads in this process.
//! let layers = run(timely::Config::process(2), job)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Failures.** Layer files appear only when complete (written under a
//! temporary name and renamed). A worker that fails tells the others in
//! the round it fails in, and all stop with an error. A worker process
//! that dies breaks its TCP connections; timely's network threads then
//! panic in the other processes, and the `hoyito-cluster` binary makes any
//! panic end its process with an error. A layer that was being solved is
//! solved again from its first sweep by the next run; the finished layers
//! are reused.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod solver;
pub mod wire;

pub use error::ClusterError;
pub use solver::{build_worker, BuildJob, LayerSummary, OnSweep, SweepFigures};
pub use wire::Report;

/// Builds `job` on the workers that `config` gives this process (every
/// process of a cluster calls it with its own `config` and the same job),
/// and returns the layer summaries of this process's first worker.
///
/// # Errors
/// [`ClusterError::Timely`] if timely cannot start (for example, this
/// process's address cannot be bound), [`ClusterError::Panicked`] if a
/// worker thread panicked, else the first worker's error (see
/// [`build_worker`]).
pub fn run(config: timely::Config, job: BuildJob) -> Result<Vec<LayerSummary>, ClusterError> {
    let guards =
        timely::execute(config, move |worker| build_worker(worker, &job)).map_err(ClusterError::Timely)?;
    let mut first = None;
    for result in guards.join() {
        let r = match result {
            Ok(r) => r,
            Err(panic) => Err(ClusterError::Panicked(panic)),
        };
        match (&first, r) {
            (None, r) => first = Some(r),
            (Some(Ok(_)), Err(e)) => first = Some(Err(e)),
            _ => {}
        }
    }
    first.unwrap_or_else(|| Err(ClusterError::Timely("no workers".into())))
}

/// The `timely::Config` of process `process` of a cluster whose processes
/// listen at `addresses` (`host:port`, process 0 first), each running
/// `threads` workers.
///
/// # Errors
/// [`ClusterError::Hosts`] if `process` is not in the list, an address has
/// no valid port, or the list is empty.
pub fn cluster_config(
    addresses: Vec<String>,
    process: usize,
    threads: usize,
) -> Result<timely::Config, ClusterError> {
    if addresses.is_empty() {
        return Err(ClusterError::Hosts("no addresses".into()));
    }
    if process >= addresses.len() {
        return Err(ClusterError::Hosts(format!(
            "process {process}, but the list has {} addresses (processes 0 to {})",
            addresses.len(),
            addresses.len() - 1
        )));
    }
    if threads == 0 {
        return Err(ClusterError::Hosts("0 threads a process".into()));
    }
    for a in &addresses {
        let port = a.rsplit_once(':').map(|(_, p)| p);
        match port.map(str::parse::<u16>) {
            Some(Ok(p)) if p > 0 => {}
            _ => {
                return Err(ClusterError::Hosts(format!(
                    "{a:?} is not host:port with a port from 1 to 65535"
                )))
            }
        }
    }
    Ok(timely::Config {
        communication: timely::CommunicationConfig::Cluster {
            threads,
            process,
            addresses,
            report: false,
            zerocopy: false,
        },
        worker: timely::WorkerConfig::default(),
    })
}

/// Parses a host list: one `host:port` a line; blank lines and lines
/// starting with `#` are skipped.
pub fn parse_hosts(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}
