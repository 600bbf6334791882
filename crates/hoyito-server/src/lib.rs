//! # hoyito-server
//!
//! The Hoyito web server behind `hoyito serve`: a JSON HTTP API to create,
//! list, fetch and play games (against the engine, hot-seat, or online
//! between two people joined through an invite link), a WebSocket per game
//! for live updates, every game and move stored in SQLite before a move is
//! acknowledged, and the browser UI embedded in the binary.
//! The API is documented in `docs/API.md`.
//!
//! ```no_run
//! # fn main() -> Result<(), hoyito_server::RunError> {
//! let config = hoyito_server::Config::default();
//! hoyito_server::run(config, |addr| println!("listening on http://{addr}"))
//! # }
//! ```
//!
//! Engine searches never run on the async executor: they run on blocking
//! threads ([`tokio::task::spawn_blocking`]), at most one per core at a time.
//!
//! Inside, each part imports only those after it: `http` (the router, the
//! handlers, the WebSocket, the connection loop, the embedded front end),
//! `jobs` (engine moves, clocks' timers, analyses, loading, expiry, other
//! nodes), `state` ([`AppState`]: the games in memory, the engine's budget),
//! `room` (a game in memory and its views, no I/O), [`ApiError`],
//! [`store`], and small leaf types ([`auth`], limits, metrics, time
//! controls, [`ai`]). `docs/ARCHITECTURE.md` has the map.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ai;
pub mod auth;
mod clock_spec;
mod error;
mod http;
mod jobs;
mod limits;
mod metrics;
pub mod passkeys;
pub mod passwords;
mod puzzles;
pub mod ratings;
mod room;
mod state;
pub mod store;
mod stored_games;
pub mod table_files;
pub mod tables;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;

use tokio::net::TcpListener;
use tokio::sync::watch;

pub use error::ApiError;
pub use http::router;
pub use http::{assets, head};
pub use limits::{Rate, ServerLimits};
pub use room::live;
pub use state::AppState;
pub use store::Store;
pub use stored_games::{stored_games, StoredGames, StoredGamesError};

/// Where to listen and where the database lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The listening address (default `127.0.0.1:8080`; port 0 picks a free one).
    pub addr: SocketAddr,
    /// The SQLite database file (default `./hoyito.db`), created if
    /// missing, or a PostgreSQL URL.
    pub db: PathBuf,
    /// How to connect to PostgreSQL besides its URL (a password file).
    pub db_options: store::DbOptions,
    /// Endgame tablebases (`hoyito tablebase build`) for level-10 engine
    /// moves, hints and exact values (`GET /api/tablebase`): perfect play
    /// where they cover the position.
    pub tablebases: Option<PathBuf>,
    /// Build the default tables ([`tables::default_plan`]) into
    /// `tablebases` in the background (existing valid layers are kept).
    pub build_tables: bool,
    /// Keep the default tables built as one-byte files rather than
    /// converting each set to compact files once built.
    pub byte_tables: bool,
    /// Timeouts, caps and rate limits.
    pub limits: ServerLimits,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("./hoyito.db"),
            db_options: store::DbOptions::default(),
            tablebases: None,
            build_tables: false,
            byte_tables: false,
            limits: ServerLimits::default(),
        }
    }
}

/// Engine searches allowed at once: one per core.
pub fn engine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Serves on `listener` within `limits` until `shutdown` completes, then
/// closes WebSockets and finishes the requests in flight, for at most
/// [`ServerLimits::shutdown_grace`]. Level-10 engine moves and hints use
/// `tablebases`, if given.
///
/// # Errors
/// If the server fails to accept connections.
pub async fn serve_on(
    listener: TcpListener,
    store: Store,
    tablebases: Option<ai::Tablebases>,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (stop_tx, stop_rx) = watch::channel(false);
    let state = AppState::with_options(store, engine_threads(), stop_rx, tablebases, limits.clone());
    jobs::tables::start(&state);
    // Other server nodes on the same database (PostgreSQL).
    let nodes = jobs::nodes::follow(state.clone())
        .await
        .map_err(|e| std::io::Error::other(format!("following the other server nodes: {e}")))?;
    let sweeper = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tick.tick().await;
                state.evict_idle(state::IDLE_EVICT_MS);
                state.rates.forget_idle();
            }
        })
    };
    // Clocks run with nobody watching: their games are loaded at once.
    let clocks = tokio::spawn(jobs::clock::arm_stored(state.clone()));
    let expiry = tokio::spawn(jobs::expiry::run(state.clone()));
    let app = router(state.clone());
    let result = http::listen::serve_connections(listener, app, &limits, async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    })
    .await;
    // Wait for the sweeper to go: it holds the state, and with it the store
    // and its database lock, which a server started next in this process
    // needs.
    sweeper.abort();
    let _ = sweeper.await;
    clocks.abort();
    let _ = clocks.await;
    expiry.abort();
    let _ = expiry.await;
    nodes.abort();
    let _ = nodes.await;
    release(state).await;
    result
}

/// How long [`serve_on`] waits, once stopped, for the work still holding its
/// state (engine searches told to stop, requests being finished) to end.
const RELEASE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Stops the clocks' timers and the engine's searches of the games in
/// memory, and waits (at most [`RELEASE_WAIT`]) until nothing else holds
/// the state, so that its store, and the database's lock with it, is
/// released when `serve_on` returns.
async fn release(state: std::sync::Arc<AppState>) {
    let slots: Vec<_> = state
        .games
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .cloned()
        .collect();
    for slot in slots {
        let mut g = slot.game.lock().await;
        if let Some(timer) = g.clock_timer.take() {
            timer.abort();
        }
        g.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let deadline = tokio::time::Instant::now() + RELEASE_WAIT;
    while std::sync::Arc::strong_count(&state) > 1 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Why [`run`] failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// SQLite could not open the database or set up its schema.
    #[error("opening database {}", .db.display())]
    Database {
        /// The database file.
        db: PathBuf,
        /// The failure.
        #[source]
        source: store::OpenError,
    },
    /// The database is in use by another server, its lock file cannot be
    /// made, or PostgreSQL cannot be reached or set up (the message names
    /// the database).
    #[error(transparent)]
    Store(store::OpenError),
    /// The async runtime could not start.
    #[error("starting the async runtime")]
    Runtime(#[source] std::io::Error),
    /// The address could not be bound.
    #[error("binding {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The failure.
        #[source]
        source: std::io::Error,
    },
    /// The server stopped accepting connections.
    #[error("serving")]
    Serve(#[source] std::io::Error),
}

/// Opens the database, binds the address, calls `on_listen` with the
/// bound address, and serves until Ctrl-C or SIGTERM. Builds its own runtime
/// and logs to standard error (`http::log::init`).
///
/// # Errors
/// [`RunError`]: if the database cannot be opened (or another server holds
/// it), the address cannot be bound, or serving fails.
pub fn run(config: Config, on_listen: impl FnOnce(SocketAddr)) -> Result<(), RunError> {
    http::log::init();
    let store = Store::open_with(&config.db, &config.db_options).map_err(|e| match e {
        // The lock errors and PostgreSQL's name the database already.
        store::OpenError::Sqlite(_) => RunError::Database {
            db: config.db.clone(),
            source: e,
        },
        _ => RunError::Store(e),
    })?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(RunError::Runtime)?;
    let addr = config.addr;
    let result = rt.block_on(async move {
        let bind = |source| RunError::Bind { addr, source };
        let listener = listen(addr).map_err(bind)?;
        on_listen(listener.local_addr().map_err(bind)?);
        let plan = if config.build_tables {
            tables::default_plan()
        } else {
            Vec::new()
        };
        let byte_tables = config.byte_tables;
        let tablebases = config
            .tablebases
            .map(|dir| ai::Tablebases::with_plan(dir, plan).keep_bytes(byte_tables));
        serve_on(listener, store, tablebases, config.limits, shutdown_signal())
            .await
            .map_err(RunError::Serve)
    });
    // Engine searches still running are abandoned after a short grace period.
    rt.shutdown_timeout(std::time::Duration::from_secs(2));
    result
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

/// Starts a server on a background task bound to `127.0.0.1:0` (for
/// tests and the load test): returns its address and a handle that stops it.
///
/// # Errors
/// If binding fails.
pub async fn spawn_local(store: Store) -> std::io::Result<(SocketAddr, LocalServer)> {
    spawn_local_with(store, ServerLimits::default()).await
}

/// [`spawn_local`] with other limits (short timeouts for tests).
///
/// # Errors
/// If binding fails.
pub async fn spawn_local_with(
    store: Store,
    limits: ServerLimits,
) -> std::io::Result<(SocketAddr, LocalServer)> {
    spawn_local_tables(store, limits, None).await
}

/// [`spawn_local_with`] with endgame tablebases (and the tables they are
/// to build in the background, [`tables::Tablebases::with_plan`]).
///
/// # Errors
/// If binding fails.
pub async fn spawn_local_tables(
    store: Store,
    limits: ServerLimits,
    tablebases: Option<ai::Tablebases>,
) -> std::io::Result<(SocketAddr, LocalServer)> {
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let addr = listener.local_addr()?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        let _ = serve_on(listener, store, tablebases, limits, async {
            let _ = rx.await;
        })
        .await;
    });
    Ok((
        addr,
        LocalServer {
            stop: Some(tx),
            handle,
        },
    ))
}

/// A server started by [`spawn_local`].
#[derive(Debug)]
pub struct LocalServer {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    handle: tokio::task::JoinHandle<()>,
}

impl LocalServer {
    /// Stops the server and waits for it to finish.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let _ = (&mut self.handle).await;
    }
}

/// Connections waiting to be accepted, at most: a burst of clients
/// connecting at once (thousands of players after a restart) waits in the
/// kernel's queue instead of being refused. The kernel caps it at
/// `net.core.somaxconn` (4096 by default).
pub const LISTEN_BACKLOG: u32 = 4096;

/// A listening socket on `addr` with a queue of [`LISTEN_BACKLOG`].
fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As std's and tokio's own bind: a restarted server may take the port at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}
