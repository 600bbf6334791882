//! The daily quota of stored games per client IP ([`DailyQuota`]): beside
//! the rate per minute, at most so many creations and imports in any 24
//! hours, so that one address cannot fill the database. Only requests that
//! store a game (answered 201) count.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The quota's window: 24 hours, in milliseconds.
pub(crate) const QUOTA_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// Every this many takes, clients whose window emptied are forgotten.
const SWEEP_EVERY: u64 = 256;

/// At most `max` games stored per client IP in any [`QUOTA_WINDOW_MS`].
#[derive(Debug)]
pub(crate) struct DailyQuota {
    max: usize,
    /// Per client, when each of its games in the window was taken, oldest first.
    taken: Mutex<HashMap<IpAddr, VecDeque<i64>>>,
    takes: std::sync::atomic::AtomicU64,
}

/// One game counted against a client's quota: kept with [`Ticket::keep`]
/// once the game is stored, given back when dropped otherwise.
#[derive(Debug)]
pub(crate) struct Ticket {
    quota: Arc<DailyQuota>,
    client: IpAddr,
    at_ms: i64,
    kept: bool,
}

impl DailyQuota {
    /// At most `max` a day per client (0: no quota).
    pub(crate) fn new(max: u32) -> Arc<DailyQuota> {
        Arc::new(DailyQuota {
            max: if max == 0 { usize::MAX } else { max as usize },
            taken: Mutex::new(HashMap::new()),
            takes: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Counts one game of `client` at `now_ms` (ms since the epoch).
    ///
    /// # Errors
    /// 429 `daily_quota`, with `Retry-After` in seconds (until the oldest
    /// game of the window leaves it), if the client stored its quota already.
    pub(crate) fn take(self: &Arc<Self>, client: IpAddr, now_ms: i64) -> Result<Ticket, ApiError> {
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        let n = self.takes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n.is_multiple_of(SWEEP_EVERY) {
            taken.retain(|_, times| {
                times.retain(|&t| now_ms - t < QUOTA_WINDOW_MS);
                !times.is_empty()
            });
        }
        let times = taken.entry(client).or_default();
        while times.front().is_some_and(|&t| now_ms - t >= QUOTA_WINDOW_MS) {
            times.pop_front();
        }
        if times.len() >= self.max {
            let oldest = times.front().copied().unwrap_or(now_ms);
            let wait_ms = (oldest + QUOTA_WINDOW_MS - now_ms).max(1);
            let seconds = (wait_ms as u64).div_ceil(1000);
            return Err(ApiError::too_many(
                "daily_quota",
                format!(
                    "your address stored {} games in the last 24 hours, as many as it may; \
                     try again in {seconds} s",
                    self.max
                ),
            )
            .retry_after(seconds));
        }
        times.push_back(now_ms);
        Ok(Ticket {
            quota: self.clone(),
            client,
            at_ms: now_ms,
            kept: false,
        })
    }

    /// Games `client` stored in the window ending at `now_ms`.
    #[cfg(test)]
    pub(crate) fn used(&self, client: IpAddr, now_ms: i64) -> usize {
        let taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        taken.get(&client).map_or(0, |t| {
            t.iter().filter(|&&at| now_ms - at < QUOTA_WINDOW_MS).count()
        })
    }
}

impl Ticket {
    /// The game was stored: it counts.
    pub(crate) fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        let mut taken = self.quota.taken.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(times) = taken.get_mut(&self.client) {
            if let Some(i) = times.iter().rposition(|&t| t == self.at_ms) {
                times.remove(i);
            }
        }
    }
}

/// Middleware: counts a creation or import against the client's
/// [`DailyQuota`] and answers 429 (JSON, `Retry-After`) when it is used up;
/// only an answer 201 (a game stored) keeps the count.
pub(crate) async fn enforce(State(quota): State<Arc<DailyQuota>>, req: Request, next: Next) -> Response {
    let client = crate::http::client_ip::client_of(req.extensions());
    let ticket = match quota.take(client, crate::store::now()) {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    let res = next.run(req).await;
    if res.status() == StatusCode::CREATED {
        ticket.keep();
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_stores_its_quota_a_day_and_failures_do_not_count() {
        let quota = DailyQuota::new(2);
        let (a, b): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        let t0 = 1_000_000_000_000;
        quota.take(a, t0).unwrap().keep();
        drop(quota.take(a, t0 + 1).unwrap()); // not stored: given back
        quota.take(a, t0 + 2).unwrap().keep();
        assert_eq!(quota.used(a, t0 + 3), 2);
        let e = quota.take(a, t0 + 3).unwrap_err();
        assert_eq!((e.status.as_u16(), e.code), (429, "daily_quota"));
        // The first game leaves the window 24 h after it was stored.
        assert_eq!(e.retry_after, Some(((QUOTA_WINDOW_MS - 3) as u64).div_ceil(1000)));
        assert!(quota.take(b, t0 + 3).is_ok(), "another client is not affected");
        quota.take(a, t0 + QUOTA_WINDOW_MS).unwrap().keep();
        assert!(quota.take(a, t0 + QUOTA_WINDOW_MS + 1).is_err());
        let off = DailyQuota::new(0);
        assert!((0..1000).all(|i| off.take(a, t0 + i).map(Ticket::keep).is_ok()));
    }
}
