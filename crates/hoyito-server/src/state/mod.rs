//! [`AppState`]: what a server shares between its requests and its jobs:
//! the store, the games held in memory ([`slot`]), the engine's thread
//! budget, the analyses in memory ([`analyses`]), the limits per client and
//! the metrics; and storing a step of a room ([`commit_stored`],
//! [`store_last_step`]). Nothing here knows HTTP: the router and handlers
//! take it as their state (`crate::http`), the jobs as theirs
//! (`crate::jobs`).

pub(crate) mod analyses;
pub(crate) mod passwords;
pub(crate) mod rating;
pub(crate) mod slot;
pub(crate) mod storage;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{watch, Semaphore};

pub(crate) use self::slot::{broadcast_chat, broadcast_move, broadcast_presence, broadcast_state, Slot};
use self::slot::{evictable, make_room};
use crate::ai;
use crate::error::ApiError;
use crate::limits::{Held, PerClient, RateLimit, ServerLimits};
use crate::metrics::Metrics;
use crate::room::live::LiveGame;
use crate::room::view::MoveEvent;
use crate::store::Store;
use hoyito_room::Prepared;

/// A game nobody has touched or watched for this long is dropped from
/// memory (it stays in the database and is reloaded on the next request).
pub const IDLE_EVICT_MS: i64 = 10 * 60 * 1000;

/// The highest engine level that searches to a small depth and so stops in
/// a fraction of the move time; engine moves up to it use their own permits
/// and never wait behind deeper searches.
pub const QUICK_LEVEL_MAX: u8 = 5;

/// Engine jobs (searches running or waiting) allowed per engine thread
/// before hints are refused with 503 `engine_busy`.
pub const QUEUE_PER_THREAD: usize = 16;

/// Shared server state: the store, the games in memory, and the engine's
/// thread budget.
pub struct AppState {
    pub(crate) store: Arc<Store>,
    pub(crate) games: Mutex<HashMap<String, Arc<Slot>>>,
    /// Permits for hints and engine moves above [`QUICK_LEVEL_MAX`].
    pub(crate) engine_permits: Arc<Semaphore>,
    /// Permits for engine moves up to [`QUICK_LEVEL_MAX`] (as many as
    /// [`AppState::engine_permits`]).
    pub(crate) quick_permits: Arc<Semaphore>,
    /// Engine jobs on [`AppState::engine_permits`] running or waiting.
    pub(crate) engine_jobs: Arc<AtomicUsize>,
    /// Beyond this many [`AppState::engine_jobs`], hints are refused.
    pub(crate) engine_jobs_max: usize,
    pub(crate) shutdown: watch::Receiver<bool>,
    pub(crate) engine_movetime: std::time::Duration,
    /// Endgame tablebases for level-10 engine moves and hints, if any.
    pub(crate) tablebases: Option<Arc<ai::Tablebases>>,
    /// Timeouts and caps.
    pub(crate) limits: ServerLimits,
    /// One permit per open WebSocket.
    pub(crate) ws_slots: Arc<Semaphore>,
    /// Post-game analyses (`crate::jobs::analysis`).
    pub(crate) analyses: crate::state::analyses::Analyses,
    /// Rate limits per client IP.
    pub(crate) rates: Rates,
    /// Open WebSockets per client IP.
    pub(crate) ws_per_ip: Arc<PerClient>,
    /// Open WebSockets per client IP and game.
    pub(crate) ws_per_ip_game: Arc<PerClient<(IpAddr, String)>>,
    /// Engine jobs queued or running per client IP.
    pub(crate) engine_per_ip: Arc<PerClient>,
    /// The public games whose seat each client IP took from the lobby
    /// ([`AppState::take_open_seat`]).
    pub(crate) lobby_seats: Mutex<HashMap<IpAddr, Vec<String>>>,
    /// The metrics served at `/metrics`.
    pub(crate) metrics: Metrics,
    /// Asks for a game to be reloaded from the database (after another
    /// server node changed it first); set while following other nodes.
    pub(crate) reloads: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<crate::store::Change>>,
    /// The last storage fault a request met, for the health check.
    pub(crate) storage_faults: crate::state::storage::Faults,
    /// The password hashes computed at once and waiting ([`passwords`]).
    pub(crate) passwords: crate::state::passwords::PasswordWork,
}

/// The rate limits per client IP of the API's routes.
#[derive(Debug, Clone)]
pub(crate) struct Rates {
    pub(crate) create: Arc<RateLimit>,
    pub(crate) moves: Arc<RateLimit>,
    pub(crate) hints: Arc<RateLimit>,
    pub(crate) chat: Arc<RateLimit>,
    pub(crate) offers: Arc<RateLimit>,
    pub(crate) joins: Arc<RateLimit>,
    /// Sign-ins, sign-ups and recoveries per client IP.
    pub(crate) sign_ins: Arc<RateLimit>,
    /// Sign-ins and recoveries per account (the username's skeleton).
    pub(crate) account_sign_ins: Arc<RateLimit<String>>,
}

impl Rates {
    fn new(limits: &ServerLimits) -> Rates {
        Rates {
            create: Arc::new(RateLimit::new("new games", limits.create_rate)),
            moves: Arc::new(RateLimit::new("moves", limits.move_rate)),
            hints: Arc::new(RateLimit::new("hints", limits.hint_rate)),
            chat: Arc::new(RateLimit::new("chat messages", limits.chat_rate)),
            offers: Arc::new(RateLimit::new("offers", limits.offer_rate)),
            joins: Arc::new(RateLimit::new("joins", limits.join_rate)),
            sign_ins: Arc::new(RateLimit::new("sign-ins", limits.sign_in_rate)),
            account_sign_ins: Arc::new(RateLimit::keyed(
                "sign-in attempts",
                "for this username",
                limits.account_sign_in_rate,
            )),
        }
    }

    /// Requests refused by the rate limits so far.
    pub(crate) fn refused(&self) -> u64 {
        self.create.refused()
            + self.moves.refused()
            + self.hints.refused()
            + self.chat.refused()
            + self.offers.refused()
            + self.joins.refused()
            + self.sign_ins.refused()
            + self.account_sign_ins.refused()
    }

    /// Forgets clients back to their full allowance.
    pub(crate) fn forget_idle(&self) {
        self.create.forget_idle();
        self.moves.forget_idle();
        self.hints.forget_idle();
        self.chat.forget_idle();
        self.offers.forget_idle();
        self.joins.forget_idle();
        self.sign_ins.forget_idle();
        self.account_sign_ins.forget_idle();
    }
}

impl AppState {
    /// Server state over `store`. Engine searches run at most
    /// `engine_threads` at a time; WebSockets close when `shutdown` turns true.
    pub fn new(store: Store, engine_threads: usize, shutdown: watch::Receiver<bool>) -> Arc<AppState> {
        AppState::with_options(store, engine_threads, shutdown, None, ServerLimits::default())
    }

    /// [`AppState::new`], with endgame tablebases for level-10 engine moves
    /// and hints, and the server's limits (WebSockets follow them).
    pub fn with_options(
        store: Store,
        engine_threads: usize,
        shutdown: watch::Receiver<bool>,
        tablebases: Option<ai::Tablebases>,
        limits: ServerLimits,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            store: Arc::new(store),
            games: Mutex::new(HashMap::new()),
            engine_permits: Arc::new(Semaphore::new(engine_threads.max(1))),
            quick_permits: Arc::new(Semaphore::new(engine_threads.max(1))),
            engine_jobs: Arc::new(AtomicUsize::new(0)),
            engine_jobs_max: engine_threads.max(1) * QUEUE_PER_THREAD,
            shutdown,
            engine_movetime: ai::PLAY_MOVETIME,
            tablebases: tablebases.map(Arc::new),
            ws_slots: Arc::new(Semaphore::new(limits.max_websockets.max(1))),
            analyses: crate::state::analyses::Analyses::new(crate::state::analyses::analysis_workers(
                engine_threads,
            )),
            rates: Rates::new(&limits),
            ws_per_ip: PerClient::new(limits.max_websockets_per_ip),
            ws_per_ip_game: PerClient::new(limits.max_websockets_per_ip_per_game),
            engine_per_ip: PerClient::new(limits.engine_jobs_per_ip),
            lobby_seats: Mutex::new(HashMap::new()),
            metrics: Metrics::new(),
            reloads: std::sync::OnceLock::new(),
            storage_faults: crate::state::storage::Faults::default(),
            passwords: crate::state::passwords::PasswordWork::new(
                limits.password_hashes,
                limits.password_queue,
            ),
            limits,
        })
    }

    /// Deep engine jobs running or waiting.
    pub(crate) fn engine_queue_depth(&self) -> usize {
        self.engine_jobs.load(Ordering::Acquire)
    }

    /// Runs rules work (replaying a game, proving sowings, listing legal
    /// moves) on a blocking thread, off the async executor.
    pub(crate) async fn rules<T: Send + 'static>(
        f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| ApiError::internal(format!("rules task failed: {e}")))?
    }
}

impl AppState {
    pub(crate) fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Makes room for one more game in memory: at
    /// [`ServerLimits::max_games_in_memory`], drops the least recently used games
    /// that nobody uses (they stay stored), a tenth of the cap at once.
    ///
    /// # Errors
    /// 503 `server_full` if every game in memory is in use.
    pub(crate) fn make_room(&self) -> Result<(), ApiError> {
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if make_room(&mut map, self.limits.max_games_in_memory) {
            Ok(())
        } else {
            Err(ApiError::unavailable(
                "server_full",
                "the server holds as many games in memory as it may, all in use; try again later",
            )
            .retry_after(5))
        }
    }

    /// Holds `game` in memory (or returns the copy already held), after
    /// [`AppState::make_room`] (which the caller should call first, before
    /// storing anything).
    pub(crate) fn insert(&self, id: String, mut game: LiveGame) -> Arc<Slot> {
        game.presence.claim_after_ms = self.claim_after_ms();
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if !map.contains_key(&id) {
            make_room(&mut map, self.limits.max_games_in_memory);
        }
        map.entry(id).or_insert_with(|| Arc::new(Slot::new(game))).clone()
    }

    /// Drops from memory the games idle for `idle_ms` with no WebSocket
    /// watcher and no engine search. Returns how many were dropped.
    pub fn evict_idle(&self, idle_ms: i64) -> usize {
        let now = crate::store::now();
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let before = map.len();
        map.retain(|_, slot| {
            let idle = now - slot.last_used.load(Ordering::Relaxed) >= idle_ms;
            !(idle && evictable(slot))
        });
        before - map.len()
    }

    /// How long a player must be away before the other may claim against
    /// them ([`ServerLimits::claim_after`]); `None` on a database that
    /// other server nodes share, where a player connected to another node
    /// would look away here.
    pub(crate) fn claim_after_ms(&self) -> Option<u64> {
        if self.store.node().is_some() {
            return None;
        }
        Some(self.limits.claim_after.as_millis() as u64)
    }

    /// Games held in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl AppState {
    /// Counts game `id`'s seat, taken from the lobby, among those `client`
    /// holds: the seats of games that go on (in memory and not over).
    ///
    /// # Errors
    /// 429 `too_many_seats` if `client` holds
    /// [`ServerLimits::open_seats_per_ip`] such seats already.
    pub(crate) async fn take_open_seat(&self, client: IpAddr, id: &str) -> Result<(), ApiError> {
        let max = self.limits.open_seats_per_ip;
        if max == 0 {
            return Ok(());
        }
        let held: Vec<String> = {
            let seats = self.lobby_seats.lock().unwrap_or_else(|e| e.into_inner());
            seats.get(&client).cloned().unwrap_or_default()
        };
        let mut going_on = Vec::with_capacity(held.len() + 1);
        for gid in held {
            if let Some(slot) = self.cached(&gid) {
                if !slot.game.lock().await.room.finished() {
                    going_on.push(gid);
                }
            }
        }
        let mut seats = self.lobby_seats.lock().unwrap_or_else(|e| e.into_inner());
        if going_on.len() >= max {
            seats.insert(client, going_on);
            return Err(ApiError::too_many(
                "too_many_seats",
                format!("your address holds {max} seats of public games that go on: finish one first"),
            )
            .retry_after(60));
        }
        going_on.push(id.to_string());
        seats.insert(client, going_on);
        Ok(())
    }

    /// Forgets `client`'s seat in game `id` (its join failed).
    pub(crate) fn release_open_seat(&self, client: IpAddr, id: &str) {
        let mut seats = self.lobby_seats.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(held) = seats.get_mut(&client) {
            held.retain(|g| g != id);
            if held.is_empty() {
                seats.remove(&client);
            }
        }
    }
}

/// One engine job counted in [`AppState::engine_jobs`] until dropped.
pub(crate) struct JobTicket(Arc<AtomicUsize>);

impl Drop for JobTicket {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl AppState {
    /// Counts one more engine job on the long-search permits.
    pub(crate) fn engine_job(&self) -> JobTicket {
        self.engine_jobs.fetch_add(1, Ordering::AcqRel);
        JobTicket(self.engine_jobs.clone())
    }

    /// Counts one more engine job if fewer than the bound are queued;
    /// otherwise 503 `engine_busy`.
    pub(crate) fn try_engine_job(&self) -> Result<JobTicket, ApiError> {
        let ticket = self.engine_job();
        if self.engine_jobs.load(Ordering::Acquire) > self.engine_jobs_max {
            return Err(ApiError::unavailable(
                "engine_busy",
                format!(
                    "the engine has {} searches queued; try again shortly",
                    self.engine_jobs_max
                ),
            )
            .retry_after(2));
        }
        Ok(ticket)
    }

    /// Reserves an engine job for `client`'s move in `g`, if the engine
    /// will search deeply after it (an engine game above
    /// [`QUICK_LEVEL_MAX`]); `None` for other games.
    ///
    /// # Errors
    /// 429 `too_many_engine_jobs` if the client has
    /// [`ServerLimits::engine_jobs_per_ip`] engine jobs queued or running;
    /// 503 `engine_busy` if the engine queue is full. Both with `Retry-After`.
    pub(crate) fn reserve_engine(&self, g: &LiveGame, client: IpAddr) -> Result<Option<Held>, ApiError> {
        if g.meta.mode != crate::store::Mode::Engine || g.meta.level <= QUICK_LEVEL_MAX {
            return Ok(None);
        }
        self.reserve_deep(client).map(Some)
    }

    /// One engine job for `client` on the deep-search permits (hints and
    /// deep engine moves): 429 if the client holds its share, 503 if the
    /// queue is full.
    pub(crate) fn reserve_deep(&self, client: IpAddr) -> Result<Held, ApiError> {
        let held = self.engine_per_ip.try_take(client).ok_or_else(|| {
            ApiError::too_many(
                "too_many_engine_jobs",
                format!(
                    "the engine is already searching {} times for your address; wait for its answers",
                    self.limits.engine_jobs_per_ip
                ),
            )
            .retry_after(2)
        })?;
        if self.engine_jobs.load(Ordering::Acquire) >= self.engine_jobs_max {
            return Err(ApiError::unavailable(
                "engine_busy",
                format!(
                    "the engine has {} searches queued; try again shortly",
                    self.engine_jobs_max
                ),
            )
            .retry_after(2));
        }
        Ok(held)
    }

    /// The permits an engine move at `level` waits for.
    pub(crate) fn permits_for_level(&self, level: u8) -> &Arc<Semaphore> {
        if level <= QUICK_LEVEL_MAX {
            &self.quick_permits
        } else {
            &self.engine_permits
        }
    }
}

/// Applies a prepared move in memory, then stores it; if storing fails the
/// game is rolled back and the error returned. The caller holds the game's
/// lock throughout, so nobody sees the move before it is stored.
pub(crate) async fn commit_stored(
    st: &AppState,
    g: &mut LiveGame,
    prepared: Prepared,
) -> Result<MoveEvent, ApiError> {
    crate::room::live::check_room_for_step(g.room.seq(), st.limits.max_steps)?;
    let token = prepared.token.clone();
    let event = g.room.commit(prepared);
    store_last_step(st, g, token).await?;
    Ok(event)
}

/// Stores the step just committed to the room (`token`, the step's stored
/// form); if the write fails the room is rolled back to before it.
pub(crate) async fn store_last_step(st: &AppState, g: &mut LiveGame, token: String) -> Result<(), ApiError> {
    let (gid, seq, summary) = (g.meta.id.clone(), g.room.seq(), g.summary());
    let at = crate::store::now();
    g.times.resize(seq as usize - 1, None);
    g.times.push(Some(at));
    if let Err(e) = st.append_step(gid, seq, token, at, summary).await {
        g.rollback(seq - 1);
        return Err(e);
    }
    st.metrics.moves.inc();
    st.rate_if_over(g).await;
    Ok(())
}
