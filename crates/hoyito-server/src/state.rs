//! [`AppState`]: the store, the games held in memory (loaded on first use,
//! evicted when idle) and the engine's thread budget.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{broadcast, watch, Semaphore};

use crate::ai;
use crate::engine_task::kick_engine;
use crate::error::ApiError;
use crate::limits::{Held, PerClient, RateLimit};
use crate::listen::Limits;
use crate::live::{LiveGame, Prepared};
use crate::metrics::Metrics;
use crate::store::Store;
use crate::view::MoveEvent;

/// Messages buffered per game for slow WebSocket clients; a client that
/// falls further behind gets a fresh state instead. The channel keeps its
/// last messages (each a full game view) in memory, so this stays small.
const CHANNEL_CAPACITY: usize = 16;

/// A game in memory, with its live-update channel.
pub struct Slot {
    pub(crate) game: tokio::sync::Mutex<LiveGame>,
    /// The live-update channel, made when the first watcher subscribes: a
    /// game nobody watches costs no channel.
    tx: std::sync::OnceLock<broadcast::Sender<Arc<str>>>,
    pub(crate) last_used: AtomicI64,
    /// A hint is being searched for this game (one at a time per game).
    pub(crate) hinting: AtomicBool,
}

impl Slot {
    /// A receiver of the game's live updates.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx
            .get_or_init(|| broadcast::channel(CHANNEL_CAPACITY).0)
            .subscribe()
    }

    /// Sends a live update to the game's watchers (none if nobody ever
    /// subscribed).
    pub(crate) fn send(&self, msg: Arc<str>) {
        if let Some(tx) = self.tx.get() {
            let _ = tx.send(msg);
        }
    }

    /// How many receivers of the game's live updates are open.
    pub(crate) fn watchers(&self) -> usize {
        self.tx.get().map_or(0, broadcast::Sender::receiver_count)
    }
}

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
    pub(crate) limits: Limits,
    /// One permit per open WebSocket.
    pub(crate) ws_slots: Arc<Semaphore>,
    /// Post-game analyses (`crate::analysis`).
    pub(crate) analyses: crate::analysis::Analyses,
    /// Rate limits per client IP.
    pub(crate) rates: Rates,
    /// Open WebSockets per client IP.
    pub(crate) ws_per_ip: Arc<PerClient>,
    /// Engine jobs queued or running per client IP.
    pub(crate) engine_per_ip: Arc<PerClient>,
    /// The metrics served at `/metrics`.
    pub(crate) metrics: Metrics,
    /// Asks for a game to be reloaded from the database (after another
    /// server node changed it first); set while following other nodes.
    pub(crate) reloads: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<crate::store::Change>>,
}

/// The rate limits per client IP of the API's routes.
#[derive(Debug, Clone)]
pub(crate) struct Rates {
    pub(crate) create: Arc<RateLimit>,
    pub(crate) moves: Arc<RateLimit>,
    pub(crate) hints: Arc<RateLimit>,
    pub(crate) chat: Arc<RateLimit>,
}

impl Rates {
    fn new(limits: &Limits) -> Rates {
        Rates {
            create: Arc::new(RateLimit::new("new games", limits.create_rate)),
            moves: Arc::new(RateLimit::new("moves", limits.move_rate)),
            hints: Arc::new(RateLimit::new("hints", limits.hint_rate)),
            chat: Arc::new(RateLimit::new("chat messages", limits.chat_rate)),
        }
    }

    /// Requests refused by the rate limits so far.
    pub(crate) fn refused(&self) -> u64 {
        self.create.refused() + self.moves.refused() + self.hints.refused() + self.chat.refused()
    }

    /// Forgets clients back to their full allowance.
    pub(crate) fn forget_idle(&self) {
        self.create.forget_idle();
        self.moves.forget_idle();
        self.hints.forget_idle();
        self.chat.forget_idle();
    }
}

impl AppState {
    /// Server state over `store`. Engine searches run at most
    /// `engine_threads` at a time; WebSockets close when `shutdown` turns true.
    pub fn new(store: Store, engine_threads: usize, shutdown: watch::Receiver<bool>) -> Arc<AppState> {
        AppState::with_options(store, engine_threads, shutdown, None, Limits::default())
    }

    /// [`AppState::new`], with endgame tablebases for level-10 engine moves
    /// and hints, and the server's limits (WebSockets follow them).
    pub fn with_options(
        store: Store,
        engine_threads: usize,
        shutdown: watch::Receiver<bool>,
        tablebases: Option<ai::Tablebases>,
        limits: Limits,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            store: Arc::new(store),
            games: Mutex::new(HashMap::new()),
            engine_permits: Arc::new(Semaphore::new(engine_threads.max(1))),
            quick_permits: Arc::new(Semaphore::new(engine_threads.max(1))),
            engine_jobs: Arc::new(AtomicUsize::new(0)),
            engine_jobs_max: engine_threads.max(1) * QUEUE_PER_THREAD,
            shutdown,
            engine_movetime: ai::ENGINE_MOVETIME,
            tablebases: tablebases.map(Arc::new),
            ws_slots: Arc::new(Semaphore::new(limits.max_websockets.max(1))),
            analyses: crate::analysis::Analyses::new(crate::analysis::analysis_workers(engine_threads)),
            rates: Rates::new(&limits),
            ws_per_ip: PerClient::new(limits.max_websockets_per_ip),
            engine_per_ip: PerClient::new(limits.engine_jobs_per_ip),
            metrics: Metrics::new(),
            reloads: std::sync::OnceLock::new(),
            limits,
        })
    }

    /// Runs a storage call on a blocking thread.
    pub(crate) async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> crate::store::StoreResult<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = self.store.clone();
        let result = tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(|e| ApiError::internal(format!("storage task failed: {e}")))
            .and_then(|r| {
                r.map_err(|e| {
                    // Another node stored first: this node's copy is stale.
                    if let (crate::store::StoreError::Conflict { id, .. }, Some(reloads)) =
                        (&e, self.reloads.get())
                    {
                        let _ = reloads.send(crate::store::Change {
                            node: String::new(),
                            game: id.clone(),
                            chat: None,
                        });
                    }
                    ApiError::from(e)
                })
            });
        if result.is_err() {
            self.metrics.db_errors.inc();
        }
        result
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

    pub(crate) fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Makes room for one more game in memory: at
    /// [`Limits::max_games_in_memory`], drops the least recently used games
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
    pub(crate) fn insert(&self, id: String, game: LiveGame) -> Arc<Slot> {
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if !map.contains_key(&id) {
            make_room(&mut map, self.limits.max_games_in_memory);
        }
        map.entry(id)
            .or_insert_with(|| {
                Arc::new(Slot {
                    game: tokio::sync::Mutex::new(game),
                    tx: std::sync::OnceLock::new(),
                    last_used: AtomicI64::new(crate::store::now()),
                    hinting: AtomicBool::new(false),
                })
            })
            .clone()
    }

    /// The game with this id, loaded from the store (and replayed) on first use.
    pub(crate) async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.cached(id) {
            s.last_used.store(crate::store::now(), Ordering::Relaxed);
            return Ok(s);
        }
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::no_game(id));
        }
        self.make_room()?;
        let key = id.to_string();
        let loaded = self.db(move |s| s.load(&key)).await?;
        let Some(stored) = loaded else {
            return Err(ApiError::no_game(id));
        };
        let timed = stored.meta.clock.is_some();
        let key = id.to_string();
        let mut game = AppState::rules(move || {
            let game = LiveGame::restore(stored)
                .map_err(|e| ApiError::internal(format!("game {key} does not replay: {}", e.message)))?;
            game.warm();
            Ok(game)
        })
        .await?;
        if timed {
            let key = id.to_string();
            game.times = self.db(move |s| s.step_times(&key)).await?;
        }
        let slot = self.insert(id.to_string(), game);
        kick_engine(self.clone(), slot.clone());
        if timed {
            let mut g = slot.game.lock().await;
            if g.clock_timer.is_none() {
                crate::clock::arm(self.clone(), slot.clone(), &mut g);
            }
        }
        Ok(slot)
    }
}

/// Drops the least recently used games nobody uses from `map` if it holds
/// `cap` games or more, down to nine tenths of `cap`. False if it still
/// holds `cap` games (all in use).
fn make_room(map: &mut HashMap<String, Arc<Slot>>, cap: usize) -> bool {
    let cap = cap.max(1);
    if map.len() < cap {
        return true;
    }
    let keep = cap - cap.div_ceil(10);
    let mut idle: Vec<(i64, String)> = map
        .iter()
        .filter(|(_, slot)| evictable(slot))
        .map(|(k, slot)| (slot.last_used.load(Ordering::Relaxed), k.clone()))
        .collect();
    idle.sort_unstable();
    let excess = map.len().saturating_sub(keep);
    for (_, k) in idle.into_iter().take(excess) {
        map.remove(&k);
    }
    map.len() < cap
}

/// Whether a game may leave memory: nobody watches it, no request or
/// engine search holds it.
fn evictable(slot: &Arc<Slot>) -> bool {
    // One reference in the map: no request or task holds it.
    Arc::strong_count(slot) == 1
        && slot.watchers() == 0
        // A game whose clock runs keeps its timer in memory.
        && slot
            .game
            .try_lock()
            .is_ok_and(|g| !g.thinking && g.deadline().is_none())
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
    /// [`Limits::engine_jobs_per_ip`] engine jobs queued or running;
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

    /// Games held in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
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
    let token = prepared.token.clone();
    let event = g.commit(prepared);
    store_last_step(st, g, token).await?;
    Ok(event)
}

/// Stores the step just committed to the room (`token`, the step's stored
/// form); if the write fails the room is rolled back to before it.
pub(crate) async fn store_last_step(st: &AppState, g: &mut LiveGame, token: String) -> Result<(), ApiError> {
    let (gid, seq, summary) = (g.meta.id.clone(), g.seq(), g.summary());
    let at = crate::store::now();
    g.times.resize(seq as usize - 1, None);
    g.times.push(Some(at));
    if let Err(e) = st.db(move |s| s.append_at(&gid, seq, &token, at, &summary)).await {
        g.rollback(seq - 1);
        return Err(e);
    }
    st.metrics.moves.inc();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query of a full game view.
    fn full() -> crate::error::ApiQuery<crate::wire::GameQuery> {
        crate::error::ApiQuery(crate::wire::GameQuery { history_from: None })
    }
    use crate::error::{ApiJson, ApiPath};
    use crate::limits::ClientIp;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    use crate::handlers::games::{create, get_game};
    use crate::handlers::play::{hint, post_move};
    use crate::store::Mode;
    use crate::wire::{CreateRequest, MoveRequest};
    use axum::extract::State;
    use axum::http::StatusCode;
    use axum::http::{header, HeaderMap};
    use axum::Json;
    use hoyito_core::RulesSpec;
    use hoyito_core::Side;
    use std::time::Duration;

    #[tokio::test]
    async fn idle_games_are_evicted_and_reloaded_from_the_store() {
        let (_stop, rx) = watch::channel(false);
        let st = AppState::new(Store::in_memory().unwrap(), 1, rx);
        let req = CreateRequest {
            mode: Mode::Hotseat,
            rules: RulesSpec::default(),
            is_match: false,
            level: 3,
            side: None,
            name: None,
            clock: None,
            public: false,
        };
        let (_, Json(created)) = create(State(st.clone()), ApiJson(req)).await.unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            header::AUTHORIZATION,
            format!("Bearer {}", created.token).parse().unwrap(),
        );
        let mv = MoveRequest {
            token: "3".into(),
            seq: None,
        };
        let Json(played) = post_move(
            State(st.clone()),
            ApiPath(created.id.clone()),
            ClientIp(LOCAL),
            headers,
            ApiJson(mv),
        )
        .await
        .unwrap();
        assert_eq!(st.games_in_memory(), 1);
        // The legal moves after the move were worked out with it, on a
        // rules thread, not under the game's lock afterwards.
        {
            let slot = st.cached(&created.id).unwrap();
            let g = slot.game.lock().await;
            assert_eq!(g.legal.get(), Some(&played.game.legal));
            assert_eq!(played.game.legal, g.position().legal_tokens());
        }
        // Let the spawned engine checks (which lock the game briefly) run.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        // Recently used games stay; idle ones go.
        assert_eq!(st.evict_idle(IDLE_EVICT_MS), 0);
        assert_eq!(st.evict_idle(0), 1);
        assert_eq!(st.games_in_memory(), 0);
        // The next request reloads the game exactly as it was.
        let Json(view) = get_game(State(st.clone()), ApiPath(created.id.clone()), full())
            .await
            .unwrap();
        assert_eq!(st.games_in_memory(), 1);
        assert_eq!(view.seq, 1);
        assert_eq!(view.state, played.game.state);
        // A watched game is never evicted.
        let slot = st.cached(&created.id).unwrap();
        let _rx = slot.subscribe();
        assert_eq!(st.evict_idle(0), 0);
    }

    /// Creates a game; returns its id and the headers carrying its token.
    async fn new_game(st: &Arc<AppState>, mode: Mode, level: u8, side: Option<Side>) -> (String, HeaderMap) {
        let req = CreateRequest {
            mode,
            rules: RulesSpec::default(),
            is_match: false,
            level,
            side,
            name: None,
            clock: None,
            public: false,
        };
        let (_, Json(created)) = create(State(st.clone()), ApiJson(req)).await.unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            header::AUTHORIZATION,
            format!("Bearer {}", created.token).parse().unwrap(),
        );
        (created.id, headers)
    }

    #[tokio::test]
    async fn games_in_memory_are_capped_and_evicted_least_recently_used_first() {
        let (_stop, rx) = watch::channel(false);
        let limits = Limits {
            max_games_in_memory: 10,
            ..Limits::default()
        };
        let st = AppState::with_options(Store::in_memory().unwrap(), 1, rx, None, limits);
        let mut ids = Vec::new();
        for _ in 0..30 {
            ids.push(new_game(&st, Mode::Hotseat, 3, None).await.0);
            tokio::time::sleep(Duration::from_millis(2)).await;
            assert!(st.games_in_memory() <= 10, "{}", st.games_in_memory());
        }
        // The oldest went first; every game is still there, reloaded on use.
        assert!(st.cached(&ids[0]).is_none());
        assert!(st.cached(&ids[29]).is_some());
        for id in &ids {
            let Json(view) = get_game(State(st.clone()), ApiPath(id.clone()), full())
                .await
                .unwrap();
            assert_eq!(view.seq, 0);
            // Let the engine check spawned on loading (it holds the game) run.
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        // With every game in memory watched, a new one is refused.
        let watchers: Vec<_> = st.games.lock().unwrap().values().map(|s| s.subscribe()).collect();
        assert_eq!(watchers.len(), 10);
        let req = CreateRequest {
            mode: Mode::Hotseat,
            rules: RulesSpec::default(),
            is_match: false,
            level: 3,
            side: None,
            name: None,
            clock: None,
            public: false,
        };
        let err = create(State(st.clone()), ApiJson(req)).await.unwrap_err();
        assert_eq!(
            (err.status, err.code),
            (StatusCode::SERVICE_UNAVAILABLE, "server_full")
        );
        drop(watchers);
    }

    #[tokio::test]
    async fn a_low_level_engine_move_does_not_wait_behind_deep_searches() {
        let (_stop, rx) = watch::channel(false);
        let st = AppState::new(Store::in_memory().unwrap(), 1, rx);
        // Every permit for deep searches is taken (as by level-10 games).
        let _busy = st.engine_permits.clone().acquire_many_owned(1).await.unwrap();
        // A level-1 engine game where the engine (south) moves first.
        let (id, _) = new_game(&st, Mode::Engine, 1, Some(Side::North)).await;
        let replied = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let Json(view) = get_game(State(st.clone()), ApiPath(id.clone()), full())
                    .await
                    .unwrap();
                if view.seq >= 1 {
                    return view.seq;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        assert_eq!(replied, Ok(1), "the level-1 engine never replied");
    }

    #[tokio::test]
    async fn one_hint_per_game_at_a_time_and_a_bounded_engine_queue() {
        let (_stop, rx) = watch::channel(false);
        let st = AppState::new(Store::in_memory().unwrap(), 1, rx);
        let busy = st.engine_permits.clone().acquire_many_owned(1).await.unwrap();
        let (id, headers) = new_game(&st, Mode::Hotseat, 3, None).await;
        // The first hint waits for the engine...
        let first = tokio::spawn(hint(
            State(st.clone()),
            ApiPath(id.clone()),
            ClientIp(LOCAL),
            headers.clone(),
        ));
        tokio::time::sleep(Duration::from_millis(100)).await;
        // ...and a second one for the same game is refused at once.
        let second = tokio::time::timeout(
            Duration::from_secs(2),
            hint(
                State(st.clone()),
                ApiPath(id.clone()),
                ClientIp(LOCAL),
                headers.clone(),
            ),
        )
        .await
        .expect("the second hint must not wait");
        let err = second.unwrap_err();
        assert_eq!(
            (err.status, err.code, err.retry_after),
            (StatusCode::TOO_MANY_REQUESTS, "hint_in_progress", Some(1))
        );
        // Hints of other games queue up to the bound, then get 503.
        let mut waiting = vec![first];
        // (From different addresses: one address has a smaller share.)
        for i in 1..st.engine_jobs_max {
            let (other, h) = new_game(&st, Mode::Hotseat, 3, None).await;
            let ip = ClientIp(std::net::Ipv4Addr::from(i as u32 + 1).into());
            waiting.push(tokio::spawn(hint(State(st.clone()), ApiPath(other), ip, h)));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (other, h) = new_game(&st, Mode::Hotseat, 3, None).await;
        let err = hint(
            State(st.clone()),
            ApiPath(other),
            ClientIp([10, 9, 9, 9].into()),
            h,
        )
        .await
        .unwrap_err();
        assert_eq!(
            (err.status, err.code, err.retry_after),
            (StatusCode::SERVICE_UNAVAILABLE, "engine_busy", Some(2))
        );
        // Once the engine is free, the queued hints are answered.
        for task in waiting.iter_mut().skip(1) {
            task.abort();
        }
        drop(busy);
        let Json(answer) = waiting.remove(0).await.unwrap().unwrap();
        assert!(!answer.token.is_empty());
        // And the game takes hints again.
        let again = hint(State(st.clone()), ApiPath(id), ClientIp(LOCAL), headers).await;
        assert!(again.is_ok(), "{again:?}");
    }
}
