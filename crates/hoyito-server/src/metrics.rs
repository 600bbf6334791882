//! [`Metrics`]: the server's metrics (`prometheus` crate), one registry per
//! server, served at `GET /metrics` in the Prometheus text format
//! ([`crate::http::metrics`]).
//!
//! | metric | kind | what |
//! | --- | --- | --- |
//! | `hoyito_http_requests_total{route,status}` | counter | API requests answered, by route pattern and status |
//! | `hoyito_http_request_duration_seconds{route}` | histogram | API request latency by route pattern |
//! | `hoyito_moves_total` | counter | steps stored (moves, engine moves, round starts, resignations) |
//! | `hoyito_websockets_open` | gauge | open WebSockets |
//! | `hoyito_engine_queue_depth` | gauge | deep engine jobs (level 6–10 moves, hints) running or waiting |
//! | `hoyito_games_in_memory` | gauge | games held in memory |
//! | `hoyito_db_errors_total` | counter | storage calls that failed |
//! | `hoyito_rate_limited_total` | counter | requests refused by a rate limit per IP |

use prometheus::{HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry};

/// The metrics of one server.
#[derive(Debug, Clone)]
pub struct Metrics {
    pub(crate) registry: Registry,
    pub(crate) requests: IntCounterVec,
    pub(crate) latency: HistogramVec,
    pub(crate) moves: IntCounter,
    pub(crate) websockets: IntGauge,
    pub(crate) engine_queue: IntGauge,
    pub(crate) games: IntGauge,
    pub(crate) db_errors: IntCounter,
    pub(crate) rate_limited: IntCounter,
}

impl Metrics {
    /// A registry with every metric at zero.
    ///
    /// # Panics
    /// Never: the metrics' names are fixed and distinct.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new("hoyito_http_requests_total", "API requests answered"),
            &["route", "status"],
        )
        .expect("valid metric");
        let latency = HistogramVec::new(
            HistogramOpts::new("hoyito_http_request_duration_seconds", "API request latency").buckets(vec![
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ]),
            &["route"],
        )
        .expect("valid metric");
        let moves = IntCounter::new("hoyito_moves_total", "steps stored").expect("valid metric");
        let websockets = IntGauge::new("hoyito_websockets_open", "open WebSockets").expect("valid metric");
        let engine_queue = IntGauge::new("hoyito_engine_queue_depth", "deep engine jobs running or waiting")
            .expect("valid metric");
        let games = IntGauge::new("hoyito_games_in_memory", "games held in memory").expect("valid metric");
        let db_errors =
            IntCounter::new("hoyito_db_errors_total", "storage calls that failed").expect("valid metric");
        let rate_limited = IntCounter::new(
            "hoyito_rate_limited_total",
            "requests refused by a rate limit per IP",
        )
        .expect("valid metric");
        for m in [
            Box::new(requests.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(latency.clone()),
            Box::new(moves.clone()),
            Box::new(websockets.clone()),
            Box::new(engine_queue.clone()),
            Box::new(games.clone()),
            Box::new(db_errors.clone()),
            Box::new(rate_limited.clone()),
        ] {
            registry.register(m).expect("distinct metric names");
        }
        Metrics {
            registry,
            requests,
            latency,
            moves,
            websockets,
            engine_queue,
            games,
            db_errors,
            rate_limited,
        }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}
