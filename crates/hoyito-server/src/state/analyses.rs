//! The analyses of a server held in memory ([`Analyses`]): those running or
//! just finished, each client address's budget, and the worker threads.
//! An analysis runs in [`crate::jobs::analysis`].

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::error::ApiError;
use crate::room::analysis::AnalysisView;

/// Analyses one client address may have running at once.
pub const RUNNING_PER_IP: usize = 1;
/// Analyses one client address may start per [`STARTS_WINDOW`].
pub const STARTS_PER_IP: usize = 30;
/// The window of [`STARTS_PER_IP`].
pub const STARTS_WINDOW: Duration = Duration::from_secs(3600);
/// How long a finished analysis stays in memory (for requests that raced
/// with its end), after which it is read from the database.
const KEEP_FINISHED: Duration = Duration::from_secs(120);
/// Blocking threads reviewing positions at once: half the engine threads
/// (at least one), so that live games always keep the other half.
pub fn analysis_workers(engine_threads: usize) -> usize {
    (engine_threads / 2).max(1)
}

/// An analysis running (or just finished) in memory.
pub(crate) struct Job {
    pub(crate) view: Mutex<AnalysisView>,
    pub(crate) finished: Mutex<Option<Instant>>,
}

impl Job {
    pub(crate) fn view(&self) -> AnalysisView {
        self.view.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What one client address used.
#[derive(Default)]
struct IpUse {
    running: usize,
    starts: VecDeque<Instant>,
}

/// The analyses of a server: those running, the budget of each client
/// address, and the worker threads.
pub struct Analyses {
    pub(crate) jobs: Mutex<HashMap<String, Arc<Job>>>,
    ips: Arc<Mutex<HashMap<IpAddr, IpUse>>>,
    pub(crate) workers: Arc<Semaphore>,
}

impl Analyses {
    /// No analysis yet; `workers` positions reviewed at once.
    pub fn new(workers: usize) -> Analyses {
        Analyses {
            jobs: Mutex::new(HashMap::new()),
            ips: Arc::new(Mutex::new(HashMap::new())),
            workers: Arc::new(Semaphore::new(workers.max(1))),
        }
    }

    /// Drops a failed analysis: the next request starts it again.
    pub(crate) fn forget(&self, id: &str) {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    pub(crate) fn job(&self, id: &str) -> Option<Arc<Job>> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.retain(|_, j| {
            j.finished
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_none_or(|t| t.elapsed() < KEEP_FINISHED)
        });
        jobs.get(id).cloned()
    }

    /// Takes one start from `ip`'s budget, or says when to try again.
    pub(crate) fn charge(&self, ip: IpAddr) -> Result<IpGuard, ApiError> {
        let mut ips = self.ips.lock().unwrap_or_else(|e| e.into_inner());
        let u = ips.entry(ip).or_default();
        while u.starts.front().is_some_and(|t| t.elapsed() >= STARTS_WINDOW) {
            u.starts.pop_front();
        }
        if u.running >= RUNNING_PER_IP {
            return Err(ApiError::too_many(
                "analysis_budget",
                format!("this address already has {RUNNING_PER_IP} analysis running: wait for it to finish"),
            )
            .retry_after(5));
        }
        if u.starts.len() >= STARTS_PER_IP {
            let wait = u
                .starts
                .front()
                .map_or(STARTS_WINDOW, |t| STARTS_WINDOW.saturating_sub(t.elapsed()));
            return Err(ApiError::too_many(
                "analysis_budget",
                format!(
                    "this address started {STARTS_PER_IP} analyses in the last {} minutes",
                    STARTS_WINDOW.as_secs() / 60
                ),
            )
            .retry_after(wait.as_secs().max(1)));
        }
        u.running += 1;
        u.starts.push_back(Instant::now());
        Ok(IpGuard {
            ips: self.ips.clone(),
            ip,
        })
    }
}

/// One running analysis counted against an address until dropped.
pub(crate) struct IpGuard {
    ips: Arc<Mutex<HashMap<IpAddr, IpUse>>>,
    ip: IpAddr,
}

impl Drop for IpGuard {
    fn drop(&mut self) {
        let mut ips = self.ips.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(u) = ips.get_mut(&self.ip) {
            u.running = u.running.saturating_sub(1);
        }
    }
}
