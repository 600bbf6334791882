//! The server's [`ServerLimits`] (timeouts, caps and rates), and the limits per
//! client, keyed by the client's IP address: rate limits on requests
//! ([`RateLimit`], a keyed `governor` limiter answering 429 with a JSON
//! error and `Retry-After`) and counts of things a client holds at once
//! ([`PerClient`]: connections, WebSockets, engine jobs).
//!
//! A [`RateLimit`] guards a route through the middleware
//! [`crate::http::client_ip::enforce`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::ApiError;

/// Timeouts and caps of a server (documented in `docs/API.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerLimits {
    /// Open HTTP connections at most (WebSockets count separately).
    pub max_connections: usize,
    /// Open WebSockets at most; beyond, an upgrade is answered 503.
    pub max_websockets: usize,
    /// Time to send a request's head, counted from the connection's start or
    /// from the previous answer: also how long a keep-alive connection may idle.
    pub header_read_timeout: Duration,
    /// Time to send a JSON request body once its head arrived.
    pub body_read_timeout: Duration,
    /// A write to a connection (an answer, a WebSocket message) that makes
    /// no progress for this long fails and closes the connection: a client
    /// that does not read cannot hold the server's buffers.
    pub write_timeout: Duration,
    /// The server pings each WebSocket this often.
    pub ws_ping_interval: Duration,
    /// A WebSocket from which nothing (not even a pong) arrives for this
    /// long, or that does not take a message for this long, is closed.
    pub ws_idle_timeout: Duration,
    /// After a shutdown signal, connections still open after this long are
    /// closed without waiting further.
    pub shutdown_grace: Duration,
    /// Open HTTP connections per client IP address at most; a connection
    /// beyond is answered 429 and closed (0: no cap).
    pub max_connections_per_ip: usize,
    /// Open WebSockets per client IP address at most; beyond, an upgrade
    /// is answered 429 (0: no cap).
    pub max_websockets_per_ip: usize,
    /// Open WebSockets per client IP address on one game at most (a page
    /// needs one; a few tabs more); beyond, an upgrade is answered 429
    /// (0: no cap).
    pub max_websockets_per_ip_per_game: usize,
    /// Origins (`https://example.org`) whose pages may open WebSockets,
    /// besides the server's own (an `Origin` whose host is the request's
    /// `Host`). An upgrade with another `Origin` is answered 403
    /// `bad_origin`; one without `Origin` (not from a browser) is served.
    pub allowed_origins: Vec<String>,
    /// The most steps a game may have (moves, concessions, new rounds): a
    /// move or a new round past it is refused with 422 `game_too_long`, and
    /// so is the import of a longer record; the game may still end (resign,
    /// a draw, abort). It bounds a game's memory and its full view
    /// (docs/DEPLOY.md).
    pub max_steps: u64,
    /// Games held in memory at most: beyond, the least recently used game
    /// that nobody watches is dropped from memory (it stays stored); if
    /// every game is in use, creating or loading another is answered 503.
    pub max_games_in_memory: usize,
    /// Game creations (and record imports) per client IP.
    pub create_rate: Rate,
    /// Games (creations and imports) stored per client IP in 24 hours at
    /// most (0: no quota).
    pub create_quota: u32,
    /// Online games still waiting for their second player and unchanged
    /// for this many days are deleted (0: never).
    pub expire_waiting_days: u32,
    /// Moves per client IP.
    pub move_rate: Rate,
    /// Hints per client IP.
    pub hint_rate: Rate,
    /// Chat messages per client IP (each player also has a flood limit).
    pub chat_rate: Rate,
    /// Draw offers and takeback requests (made, accepted or declined) and
    /// rematch requests per client IP.
    pub offer_rate: Rate,
    /// Seats taken in online games (`POST /api/games/{id}/join`) per
    /// client IP.
    pub join_rate: Rate,
    /// Sign-ins, sign-ups and recoveries per client IP: each costs a
    /// password hash.
    pub sign_in_rate: Rate,
    /// Sign-in and recovery attempts per account (by the username's
    /// skeleton, whether or not the account exists).
    pub account_sign_in_rate: Rate,
    /// Password hashes computed at once (sign-ins, sign-ups, recoveries);
    /// the next ones wait for a free one.
    pub password_hashes: usize,
    /// Password requests waiting for a hash at most; beyond, 503 `busy`.
    pub password_queue: usize,
    /// How long a session lasts after it is made.
    pub session_lifetime: Duration,
    /// Whether the session cookie is marked `Secure` (the server is reached
    /// over HTTPS, through a proxy that ends TLS).
    pub secure_cookies: bool,
    /// The origin the site is reached at (`https://example.org`, as
    /// [`crate::passkeys::parse_public_origin`] writes it), behind a proxy:
    /// the relying party of passkeys, whose host is their RP id. `None`:
    /// the origin of the page that asks (its `Origin`, whose host must be
    /// the request's `Host`).
    pub public_origin: Option<String>,
    /// How long a passkey registration or sign-in may take between its
    /// two requests.
    pub passkey_timeout: Duration,
    /// Seats of public (lobby) games one client IP may hold at once in
    /// games that go on; a join from the lobby beyond is answered 429
    /// (0: no cap). Invited joins are not counted.
    pub open_seats_per_ip: usize,
    /// After a draw offer or takeback request is declined, the side that
    /// made it may make it again in the same game only after this long
    /// (429 `offer_cooldown`).
    pub offer_cooldown: Duration,
    /// Engine jobs (deep engine moves, hints, the engine's answers to draw
    /// offers, analyses) a client IP may have
    /// queued or running at once; a move or hint beyond is answered 429.
    pub engine_jobs_per_ip: usize,
    /// Whether `GET /metrics` is served (Prometheus text format).
    pub metrics: bool,
    /// How long a player of an online game with a clock of minutes must
    /// have been disconnected before the other may claim the win or call it
    /// a draw.
    pub claim_after: Duration,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_connections: 8192,
            max_websockets: 8192,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(15),
            ws_ping_interval: Duration::from_secs(30),
            ws_idle_timeout: Duration::from_secs(75),
            shutdown_grace: Duration::from_secs(5),
            max_connections_per_ip: 256,
            max_websockets_per_ip: 256,
            max_websockets_per_ip_per_game: 4,
            allowed_origins: Vec::new(),
            max_steps: crate::room::live::MAX_STEPS,
            max_games_in_memory: 20_000,
            create_rate: Rate::per_minute(60, 20),
            create_quota: 500,
            expire_waiting_days: 7,
            move_rate: Rate::per_minute(1200, 60),
            hint_rate: Rate::per_minute(30, 10),
            chat_rate: Rate::per_minute(120, 30),
            offer_rate: Rate::per_minute(30, 10),
            join_rate: Rate::per_minute(20, 5),
            sign_in_rate: Rate::per_minute(20, 10),
            account_sign_in_rate: Rate::per_minute(3, 10),
            password_hashes: 2,
            password_queue: 32,
            session_lifetime: Duration::from_secs(30 * 24 * 3600),
            secure_cookies: false,
            public_origin: None,
            passkey_timeout: crate::passkeys::CEREMONY_TIMEOUT,
            open_seats_per_ip: 3,
            offer_cooldown: Duration::from_secs(20),
            engine_jobs_per_ip: 4,
            metrics: true,
            claim_after: Duration::from_millis(hoyito_room::CLAIM_AFTER_MS),
        }
    }
}

/// A request rate per client: `per_minute` requests a minute on average,
/// at most `burst` at once. A rate of 0 a minute is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests a minute, on average (0: no limit).
    pub per_minute: u32,
    /// Requests allowed at once before the rate applies (at least 1).
    pub burst: u32,
}

impl Rate {
    /// `per_minute` requests a minute, `burst` at once.
    pub const fn per_minute(per_minute: u32, burst: u32) -> Rate {
        Rate { per_minute, burst }
    }

    /// No limit.
    pub const OFF: Rate = Rate::per_minute(0, 0);
}

/// Why a [`Rate`] could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no rate: expected N (requests a minute) or N,BURST, e.g. 60,20; 0 for no limit")]
pub struct BadRate(String);

impl FromStr for Rate {
    type Err = BadRate;

    /// `N` (N a minute, bursts of N) or `N,BURST`; `0` is no limit.
    fn from_str(s: &str) -> Result<Rate, BadRate> {
        let bad = || BadRate(s.to_string());
        let (n, burst) = match s.split_once(',') {
            Some((n, b)) => (n.trim(), Some(b.trim())),
            None => (s.trim(), None),
        };
        let per_minute: u32 = n.parse().map_err(|_| bad())?;
        let burst: u32 = match burst {
            Some(b) => b.parse().map_err(|_| bad())?,
            None => per_minute,
        };
        if per_minute > 0 && burst == 0 {
            return Err(bad());
        }
        Ok(Rate::per_minute(per_minute, burst))
    }
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.per_minute, self.burst)
    }
}

/// A rate limit per client IP (or per other key, such as an account) on
/// one kind of request.
pub struct RateLimit<K: std::hash::Hash + Eq + Clone = IpAddr> {
    what: &'static str,
    whose: &'static str,
    limiter: Option<DefaultKeyedRateLimiter<K>>,
    refused: std::sync::atomic::AtomicU64,
}

impl<K: std::hash::Hash + Eq + Clone> std::fmt::Debug for RateLimit<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimit")
            .field("what", &self.what)
            .field("on", &self.limiter.is_some())
            .finish()
    }
}

impl RateLimit {
    /// A limit of `rate` per client on requests of kind `what` (named in
    /// the error message, e.g. `"game creations"`).
    pub fn new(what: &'static str, rate: Rate) -> RateLimit {
        RateLimit::keyed(what, "from your address", rate)
    }
}

impl<K: std::hash::Hash + Eq + Clone> RateLimit<K> {
    /// A limit of `rate` per key on requests of kind `what`, the key named
    /// by `whose` in the error message (`"for this account"`).
    pub fn keyed(what: &'static str, whose: &'static str, rate: Rate) -> RateLimit<K> {
        let limiter = NonZeroU32::new(rate.per_minute).map(|n| {
            let burst = NonZeroU32::new(rate.burst).unwrap_or(NonZeroU32::MIN);
            governor::RateLimiter::keyed(Quota::per_minute(n).allow_burst(burst))
        });
        RateLimit {
            what,
            whose,
            limiter,
            refused: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Counts one request of `client`.
    ///
    /// # Errors
    /// 429 `rate_limited`, with `Retry-After` in seconds, if the client is
    /// over the rate.
    pub fn check(&self, client: K) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter.check_key(&client).map_err(|not_until| {
            self.refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiError::too_many(
                "rate_limited",
                format!(
                    "too many {} {}; try again in {} s",
                    self.what,
                    self.whose,
                    seconds.max(1)
                ),
            )
            .retry_after(seconds.max(1))
        })
    }

    /// Requests refused so far.
    pub fn refused(&self) -> u64 {
        self.refused.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Forgets clients whose limit is back to full (call now and then, so
    /// the table does not grow with every address ever seen).
    pub fn forget_idle(&self) {
        if let Some(l) = &self.limiter {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// How many of something each client holds at once (connections,
/// WebSockets, engine jobs), with a cap per client.
#[derive(Debug)]
pub struct PerClient<K = IpAddr> {
    max: usize,
    held: Mutex<HashMap<K, usize>>,
}

/// One thing held by a client in a [`PerClient`], released when dropped.
#[derive(Debug)]
pub struct Held<K: std::hash::Hash + Eq = IpAddr> {
    counts: Arc<PerClient<K>>,
    client: K,
}

impl<K: std::hash::Hash + Eq + Clone> PerClient<K> {
    /// At most `max` per client (0: no cap).
    pub fn new(max: usize) -> Arc<PerClient<K>> {
        Arc::new(PerClient {
            max: if max == 0 { usize::MAX } else { max },
            held: Mutex::new(HashMap::new()),
        })
    }

    /// Takes one for `client`; `None` if it holds the cap already.
    pub fn try_take(self: &Arc<Self>, client: K) -> Option<Held<K>> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let n = held.entry(client.clone()).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Held {
            counts: self.clone(),
            client,
        })
    }

    /// How many `client` holds.
    #[cfg(test)]
    pub fn held_by(&self, client: K) -> usize {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.get(&client).copied().unwrap_or(0)
    }
}

impl<K: std::hash::Hash + Eq> Drop for Held<K> {
    fn drop(&mut self) {
        let mut held = self.counts.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_read_with_or_without_a_burst() {
        assert_eq!("60".parse(), Ok(Rate::per_minute(60, 60)));
        assert_eq!("60, 20".parse(), Ok(Rate::per_minute(60, 20)));
        assert_eq!("0".parse(), Ok(Rate::OFF));
        for bad in ["", "x", "60,", "-1", "5,0"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_client_over_its_rate_is_told_when_to_come_back() {
        let limit = RateLimit::new("moves", Rate::per_minute(6, 2));
        let (a, b) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        assert!(limit.check(a).is_ok());
        assert!(limit.check(a).is_ok());
        let e = limit.check(a).unwrap_err();
        assert_eq!((e.status.as_u16(), e.code), (429, "rate_limited"));
        // One request comes back every 10 s.
        assert!(matches!(e.retry_after, Some(1..=10)), "{e:?}");
        // Another client is not affected.
        assert!(limit.check(b).is_ok());
        // No limit at all.
        let off = RateLimit::new("moves", Rate::OFF);
        assert!((0..1000).all(|_| off.check(a).is_ok()));
    }

    #[test]
    fn per_client_counts_are_capped_and_released() {
        let counts = PerClient::new(2);
        let ip: IpAddr = [10, 0, 0, 1].into();
        let first = counts.try_take(ip).unwrap();
        let _second = counts.try_take(ip).unwrap();
        assert!(counts.try_take(ip).is_none());
        assert!(counts.try_take([10, 0, 0, 2].into()).is_some());
        drop(first);
        assert_eq!(counts.held_by(ip), 1);
        assert!(counts.try_take(ip).is_some());
    }
}
