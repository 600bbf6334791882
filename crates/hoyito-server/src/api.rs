//! The HTTP API and WebSocket handlers (documented in `docs/API.md`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use hoyito_core::{ByPlayer, Record, RulesSpec, Side};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch, Semaphore};

use crate::ai;
use crate::error::{ApiError, ApiJson};
use crate::live::{GameView, LiveGame, MoveEvent, Seat, NEXT_ROUND};
use crate::store::{ListedGame, Meta, Mode, Store};

/// Largest JSON body accepted by the API (except record import).
pub const MAX_BODY: usize = 16 * 1024;
/// Largest body accepted by record import.
pub const MAX_IMPORT_BODY: usize = 1024 * 1024;
/// Messages buffered per game for slow WebSocket clients; a client that
/// falls further behind gets a fresh state instead. The channel keeps its
/// last messages (each a full game view) in memory, so this stays small.
const CHANNEL_CAPACITY: usize = 16;

/// A game in memory, with its live-update channel.
pub struct Slot {
    game: tokio::sync::Mutex<LiveGame>,
    tx: broadcast::Sender<Arc<str>>,
    last_used: AtomicI64,
}

/// A game nobody has touched or watched for this long is dropped from
/// memory (it stays in the database and is reloaded on the next request).
pub const IDLE_EVICT_MS: i64 = 10 * 60 * 1000;

/// Shared server state: the store, the games in memory, and the engine's
/// thread budget.
pub struct AppState {
    store: Arc<Store>,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    engine_permits: Arc<Semaphore>,
    shutdown: watch::Receiver<bool>,
    engine_movetime: std::time::Duration,
    /// Endgame tablebases for level-10 engine moves and hints, if any.
    tablebases: Option<Arc<ai::Tablebases>>,
}

impl AppState {
    /// Server state over `store`. Engine searches run at most
    /// `engine_threads` at a time; WebSockets close when `shutdown` turns true.
    pub fn new(store: Store, engine_threads: usize, shutdown: watch::Receiver<bool>) -> Arc<AppState> {
        AppState::with_tablebases(store, engine_threads, shutdown, None)
    }

    /// [`AppState::new`], with endgame tablebases for level-10 engine moves
    /// and hints.
    pub fn with_tablebases(
        store: Store,
        engine_threads: usize,
        shutdown: watch::Receiver<bool>,
        tablebases: Option<ai::Tablebases>,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            store: Arc::new(store),
            games: Mutex::new(HashMap::new()),
            engine_permits: Arc::new(Semaphore::new(engine_threads.max(1))),
            shutdown,
            engine_movetime: ai::ENGINE_MOVETIME,
            tablebases: tablebases.map(Arc::new),
        })
    }

    /// Runs a storage call on a blocking thread.
    async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(|e| ApiError::internal(format!("storage task failed: {e}")))?
            .map_err(ApiError::from)
    }

    fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    fn insert(&self, id: String, game: LiveGame) -> Arc<Slot> {
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(id)
            .or_insert_with(|| {
                Arc::new(Slot {
                    game: tokio::sync::Mutex::new(game),
                    tx: broadcast::channel(CHANNEL_CAPACITY).0,
                    last_used: AtomicI64::new(crate::store::now()),
                })
            })
            .clone()
    }

    /// The game with this id, loaded from the store (and replayed) on first use.
    async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.cached(id) {
            s.last_used.store(crate::store::now(), Ordering::Relaxed);
            return Ok(s);
        }
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::no_game(id));
        }
        let key = id.to_string();
        let loaded = self.db(move |s| s.load(&key)).await?;
        let Some((meta, undos, steps)) = loaded else {
            return Err(ApiError::no_game(id));
        };
        let game = LiveGame::replay(meta, undos, &steps)
            .map_err(|e| ApiError::internal(format!("game {id} does not replay: {}", e.message)))?;
        let slot = self.insert(id.to_string(), game);
        kick_engine(self.clone(), slot.clone());
        Ok(slot)
    }
}

impl AppState {
    /// Drops from memory the games idle for `idle_ms` with no WebSocket
    /// watcher and no engine search. Returns how many were dropped.
    pub fn evict_idle(&self, idle_ms: i64) -> usize {
        let now = crate::store::now();
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let before = map.len();
        map.retain(|_, slot| {
            let idle = now - slot.last_used.load(Ordering::Relaxed) >= idle_ms;
            let unwatched = slot.tx.receiver_count() == 0;
            let quiet = slot.game.try_lock().is_ok_and(|g| !g.thinking);
            !(idle && unwatched && quiet)
        });
        before - map.len()
    }

    /// Games held in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    v.strip_prefix("Bearer ").map(str::trim)
}

fn seat(game: &LiveGame, headers: &HeaderMap) -> Result<Seat, ApiError> {
    match bearer(headers) {
        None => Err(ApiError::forbidden(
            "this needs the seat's token: send Authorization: Bearer <token>",
        )),
        Some(t) => game
            .seat_of(Some(t))
            .ok_or_else(|| ApiError::forbidden("this token holds no seat in this game")),
    }
}

fn random_id(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

fn random_token() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum WsMessage<'a> {
    State {
        game: &'a GameView,
    },
    Move {
        r#move: &'a MoveEvent,
        game: &'a GameView,
    },
}

fn broadcast_state(slot: &Slot, game: &GameView) {
    let msg = serde_json::to_string(&WsMessage::State { game }).expect("serialise");
    let _ = slot.tx.send(msg.into());
}

fn broadcast_move(slot: &Slot, ev: &MoveEvent, game: &GameView) {
    let msg = serde_json::to_string(&WsMessage::Move { r#move: ev, game }).expect("serialise");
    let _ = slot.tx.send(msg.into());
}

/// Lets the engine play while it is to move in an engine game: searches on
/// a blocking thread (bounded by the engine permits), then stores, applies
/// and broadcasts its move, unless the game changed meanwhile.
fn kick_engine(state: Arc<AppState>, slot: Arc<Slot>) {
    tokio::spawn(async move {
        loop {
            let (game, level, epoch, seq, stop) = {
                let mut g = slot.game.lock().await;
                if !g.engine_to_move() || g.thinking {
                    return;
                }
                g.thinking = true;
                g.stop = Arc::new(AtomicBool::new(false));
                (
                    g.current().clone(),
                    g.meta.level,
                    g.epoch,
                    g.seq(),
                    g.stop.clone(),
                )
            };
            let Ok(permit) = state.engine_permits.clone().acquire_owned().await else {
                return;
            };
            let movetime = state.engine_movetime;
            // Only level 10 plays perfectly.
            let tablebases = state.tablebases.clone().filter(|_| level == 10);
            let choice = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                ai::choose(&game, level, tablebases.as_deref(), movetime, &stop)
            })
            .await;
            let mut g = slot.game.lock().await;
            g.thinking = false;
            if g.epoch != epoch || g.seq() != seq {
                continue; // an undo came in: think again if the engine is still to move
            }
            let Ok(Some((token, _))) = choice else {
                return;
            };
            let Ok(prepared) = g.prepare(&token, LiveGame::TRACE_LIMIT) else {
                return;
            };
            let Ok(ev) = commit_stored(&state, &mut g, prepared).await else {
                return;
            };
            let view = g.view();
            broadcast_move(&slot, &ev, &view);
        }
    });
}

/// Applies a prepared move in memory, then stores it; if storing fails the
/// game is rolled back and the error returned. The caller holds the game's
/// lock throughout, so nobody sees the move before it is stored.
async fn commit_stored(
    st: &AppState,
    g: &mut LiveGame,
    prepared: crate::live::Prepared,
) -> Result<MoveEvent, ApiError> {
    let token = prepared.token.clone();
    let event = g.commit(prepared);
    let (gid, seq, summary) = (g.meta.id.clone(), g.seq(), g.summary());
    match st.db(move |s| s.append(&gid, seq, &token, &summary)).await {
        Ok(()) => Ok(event),
        Err(e) => {
            g.rollback(seq - 1);
            Err(e)
        }
    }
}

// ----- requests and responses -------------------------------------------

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// `engine`, `hotseat` (default) or `online`.
    #[serde(default = "default_mode")]
    pub mode: Mode,
    /// The rules; missing fields take their defaults.
    #[serde(default)]
    pub rules: RulesSpec,
    /// Play a match of rounds.
    #[serde(default, rename = "match")]
    pub is_match: bool,
    /// Engine level 1–10 (default 3).
    #[serde(default = "default_level")]
    pub level: u8,
    /// The creator's seat (engine and online games), default south.
    #[serde(default)]
    pub side: Option<Side>,
}

fn default_mode() -> Mode {
    Mode::Hotseat
}
fn default_level() -> u8 {
    3
}

/// The answer to creating, importing or joining a game.
#[derive(Debug, Serialize)]
pub struct SeatResponse {
    /// The game id.
    pub id: String,
    /// The seat's secret token: send it as `Authorization: Bearer <token>`.
    pub token: String,
    /// `south`, `north` or `both`.
    pub seat: &'static str,
    /// For a new online game: the invite link (path) for the other player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game.
    pub game: GameView,
}

/// `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move token, e.g. `3`, `3R`, `2+5`.
    #[serde(rename = "move")]
    pub token: String,
    /// If given, the move is refused (409) unless the game has exactly this many steps.
    #[serde(default)]
    pub seq: Option<u64>,
}

/// The answer to a move.
#[derive(Debug, Serialize)]
pub struct MoveResponse {
    /// The move as played, with its sowing trace.
    #[serde(rename = "move")]
    pub event: MoveEvent,
    /// The game after it.
    pub game: GameView,
}

/// `POST /api/games/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite secret from the invite link.
    pub invite: String,
}

/// `POST /api/games/import`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The record text.
    pub record: String,
    /// How to go on playing: `hotseat` (default) or `engine`.
    #[serde(default = "default_mode")]
    pub mode: Mode,
    /// Engine level for `engine`.
    #[serde(default = "default_level")]
    pub level: u8,
    /// The importer's seat for `engine`.
    #[serde(default)]
    pub side: Option<Side>,
}

/// `GET /api/games` query.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// At most this many games (default 50, at most 500).
    pub limit: Option<u32>,
    /// Only games with this status: `waiting`, `playing` or `over`.
    pub status: Option<String>,
}

/// `GET /api/games` answer.
#[derive(Debug, Serialize)]
pub struct ListResponse {
    /// The games, most recently changed first.
    pub games: Vec<ListedGame>,
}

/// The answer to a hint.
#[derive(Debug, Serialize)]
pub struct HintResponse {
    /// The suggested move token.
    #[serde(rename = "move")]
    pub token: String,
    /// Expected final margin in seeds for the player to move.
    pub score: i32,
}

// ----- handlers ----------------------------------------------------------

/// Most seeds per hole the server plays. With more, an endless sowing that
/// the core's residue check cannot prove may take minutes to prove by its
/// cycle (docs/API.md), and the server would stall; the library and the
/// CLI take any count up to the 240-seed total.
pub const MAX_SEEDS_PER_HOLE: u8 = 6;

/// Refuses rules the server does not play (see [`MAX_SEEDS_PER_HOLE`]).
fn check_served(rules: &hoyito_core::Rules, code: &'static str) -> Result<(), ApiError> {
    if rules.seeds() > MAX_SEEDS_PER_HOLE {
        return Err(ApiError::unprocessable(
            code,
            format!(
                "{} seeds per hole: this server plays at most {MAX_SEEDS_PER_HOLE} \
                 (with more, proving a sowing endless can take minutes)",
                rules.seeds()
            ),
        ));
    }
    Ok(())
}

async fn create(
    State(st): State<Arc<AppState>>,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<(StatusCode, Json<SeatResponse>), ApiError> {
    let rules = hoyito_core::Rules::try_from(req.rules)
        .map_err(|e| ApiError::unprocessable("invalid_rules", e.to_string()))?;
    check_served(&rules, "invalid_rules")?;
    if !(1..=10).contains(&req.level) {
        return Err(ApiError::unprocessable("invalid_level", "level must be 1 to 10"));
    }
    let side = req.side.unwrap_or(Side::South);
    let token = random_token();
    let id = random_id(10);
    let (tokens, engine_side, invite, seat) = match req.mode {
        Mode::Hotseat => (
            ByPlayer::new(Some(token.clone()), Some(token.clone())),
            None,
            None,
            Seat::Both,
        ),
        Mode::Engine => {
            let mut t = ByPlayer::new(None, None);
            t[side] = Some(token.clone());
            (t, Some(side.other()), None, Seat::One(side))
        }
        Mode::Online => {
            let mut t = ByPlayer::new(None, None);
            t[side] = Some(token.clone());
            (t, None, Some(random_token()), Seat::One(side))
        }
    };
    let meta = Meta {
        id: id.clone(),
        created_ms: crate::store::now(),
        mode: req.mode,
        rules,
        is_match: req.is_match,
        level: req.level,
        engine_side,
        start: None,
        tokens,
        invite: invite.clone(),
    };
    let game = LiveGame::new(meta.clone(), 0)?;
    let summary = game.summary();
    st.db(move |s| s.insert_game(&meta, &summary)).await?;
    let view = game.view();
    let slot = st.insert(id.clone(), game);
    kick_engine(st.clone(), slot);
    Ok((
        StatusCode::CREATED,
        Json(SeatResponse {
            invite: invite.map(|i| format!("/g/{id}?invite={i}")),
            id,
            token,
            seat: seat.name(),
            game: view,
        }),
    ))
}

async fn import(
    State(st): State<Arc<AppState>>,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<(StatusCode, Json<SeatResponse>), ApiError> {
    if req.mode == Mode::Online {
        return Err(ApiError::unprocessable(
            "invalid_mode",
            "an imported record is played on as hotseat or engine",
        ));
    }
    if !(1..=10).contains(&req.level) {
        return Err(ApiError::unprocessable("invalid_level", "level must be 1 to 10"));
    }
    // The rules first: replaying a record the server does not play could stall it.
    let rules = Record::read_rules(&req.record)
        .map_err(|e| ApiError::unprocessable("invalid_record", e.to_string()))?;
    check_served(&rules, "invalid_record")?;
    let record =
        Record::read(&req.record).map_err(|e| ApiError::unprocessable("invalid_record", e.to_string()))?;
    let mut steps = Vec::new();
    let mut start = None;
    match &record.body {
        hoyito_core::Contest::Game(g) => {
            if *g.start() != hoyito_core::Position::new(rules) {
                start = Some(g.start().to_notation());
            }
            steps.extend(g.tokens());
        }
        hoyito_core::Contest::Match(m) => {
            for (i, g) in m.rounds().iter().enumerate() {
                if i > 0 {
                    steps.push(NEXT_ROUND.to_string());
                }
                steps.extend(g.tokens());
            }
        }
    }
    let side = req.side.unwrap_or(Side::South);
    let token = random_token();
    let id = random_id(10);
    let (tokens, engine_side, seat) = match req.mode {
        Mode::Engine => {
            let mut t = ByPlayer::new(None, None);
            t[side] = Some(token.clone());
            (t, Some(side.other()), Seat::One(side))
        }
        _ => (
            ByPlayer::new(Some(token.clone()), Some(token.clone())),
            None,
            Seat::Both,
        ),
    };
    let meta = Meta {
        id: id.clone(),
        created_ms: crate::store::now(),
        mode: req.mode,
        rules,
        is_match: record.match_().is_some(),
        level: req.level,
        engine_side,
        start,
        tokens,
        invite: None,
    };
    let game = LiveGame::replay(meta.clone(), 0, &steps)?;
    let summary = game.summary();
    st.db(move |s| s.insert_game_with_steps(&meta, &steps, &summary))
        .await?;
    let view = game.view();
    let slot = st.insert(id.clone(), game);
    kick_engine(st.clone(), slot);
    Ok((
        StatusCode::CREATED,
        Json(SeatResponse {
            id,
            token,
            seat: seat.name(),
            invite: None,
            game: view,
        }),
    ))
}

async fn list(
    State(st): State<Arc<AppState>>,
    Query(q): Query<ListQuery>,
) -> Result<Json<ListResponse>, ApiError> {
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    if let Some(s) = &q.status {
        if !["waiting", "playing", "over"].contains(&s.as_str()) {
            return Err(ApiError::bad_request("status must be waiting, playing or over"));
        }
    }
    let games = st.db(move |s| s.list(limit, q.status.as_deref())).await?;
    Ok(Json(ListResponse { games }))
}

async fn get_game(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let g = slot.game.lock().await;
    Ok(Json(g.view()))
}

async fn post_move(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<MoveResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    if let Some(expect) = req.seq {
        if expect != g.seq() {
            return Err(ApiError::conflict(
                "stale",
                format!("the game has {} steps, not {expect}: reload it", g.seq()),
            ));
        }
    }
    g.check_turn(seat)?;
    if g.thinking {
        return Err(ApiError::conflict("not_your_turn", "the engine is thinking"));
    }
    let prepared = g.prepare(&req.token, LiveGame::TRACE_LIMIT)?;
    let event = commit_stored(&st, &mut g, prepared).await?;
    let view = g.view();
    drop(g);
    broadcast_move(&slot, &event, &view);
    kick_engine(st.clone(), slot.clone());
    Ok(Json(MoveResponse { event, game: view }))
}

async fn undo(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    seat(&g, &headers)?;
    let keep = g.undo_target()?;
    let kept = g.step_tokens(keep);
    let rebuilt = LiveGame::replay(g.meta.clone(), g.epoch + 1, &kept)?;
    let summary = rebuilt.summary();
    let gid = g.meta.id.clone();
    st.db(move |s| s.truncate(&gid, keep, &summary)).await?;
    g.stop.store(true, Ordering::Relaxed);
    let thinking = g.thinking;
    *g = LiveGame { thinking, ..rebuilt };
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    kick_engine(st.clone(), slot.clone());
    Ok(Json(view))
}

async fn next_round(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    seat(&g, &headers)?;
    g.check_next_round()?;
    g.commit_next_round();
    let (gid, seq, summary) = (g.meta.id.clone(), g.seq(), g.summary());
    if let Err(e) = st.db(move |s| s.append(&gid, seq, NEXT_ROUND, &summary)).await {
        g.rollback(seq - 1);
        return Err(e);
    }
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    kick_engine(st.clone(), slot.clone());
    Ok(Json(view))
}

async fn join(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<JoinRequest>,
) -> Result<Json<SeatResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    if g.meta.mode != Mode::Online {
        return Err(ApiError::conflict(
            "not_online",
            "only online games can be joined",
        ));
    }
    let Some(invite) = g.meta.invite.clone() else {
        return Err(ApiError::conflict("seat_taken", "both seats are taken"));
    };
    if invite != req.invite {
        return Err(ApiError::forbidden("this invite is not valid for this game"));
    }
    let side = if g.meta.tokens.south.is_none() {
        Side::South
    } else {
        Side::North
    };
    let token = random_token();
    g.meta.tokens[side] = Some(token.clone());
    g.meta.invite = None;
    let summary = g.summary();
    let (gid, tok) = (g.meta.id.clone(), token.clone());
    if let Err(e) = st.db(move |s| s.bind_seat(&gid, side, &tok, &summary)).await {
        g.meta.tokens[side] = None;
        g.meta.invite = Some(invite);
        return Err(e);
    }
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    Ok(Json(SeatResponse {
        id,
        token,
        seat: side.name(),
        invite: None,
        game: view,
    }))
}

async fn hint(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<HintResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let (game, level) = {
        let g = slot.game.lock().await;
        let seat = seat(&g, &headers)?;
        if g.meta.mode == Mode::Online {
            return Err(ApiError::conflict(
                "hint_unavailable",
                "hints are off in online games",
            ));
        }
        g.check_turn(seat)?;
        (g.current().clone(), g.meta.level.max(ai::HINT_LEVEL))
    };
    let permit = st
        .engine_permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::internal("engine unavailable"))?;
    let movetime = st.engine_movetime.min(std::time::Duration::from_millis(800));
    let tablebases = st.tablebases.clone();
    let res = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        ai::choose(
            &game,
            level,
            tablebases.as_deref(),
            movetime,
            &AtomicBool::new(false),
        )
    })
    .await
    .map_err(|e| ApiError::internal(format!("engine task failed: {e}")))?;
    let (token, score) = res.ok_or_else(|| ApiError::conflict("game_over", "the game is over"))?;
    Ok(Json(HintResponse { token, score }))
}

async fn record(State(st): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = st.slot(&id).await?;
    let g = slot.game.lock().await;
    let mut rec = Record {
        tags: Vec::new(),
        body: g.play.clone(),
    };
    rec.tags.push(("Event".into(), "Hoyito web game".into()));
    rec.tags.push(("Site".into(), format!("/g/{}", g.meta.id)));
    rec.tags.push(("Mode".into(), g.meta.mode.name().into()));
    if let Some(e) = g.meta.engine_side {
        rec.tags.push((
            if e == Side::South { "South" } else { "North" }.into(),
            format!("hoyito engine level {}", g.meta.level),
        ));
    }
    let text = rec.write();
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"hoyito-{}.txt\"", g.meta.id),
            ),
        ],
        text,
    )
        .into_response())
}

async fn ws(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = st.slot(&id).await?;
    let shutdown = st.shutdown.clone();
    Ok(upgrade.on_upgrade(move |socket| ws_session(socket, slot, shutdown)))
}

async fn ws_session(mut socket: WebSocket, slot: Arc<Slot>, mut shutdown: watch::Receiver<bool>) {
    let mut rx = slot.tx.subscribe();
    let snapshot =
        |view: &GameView| serde_json::to_string(&WsMessage::State { game: view }).expect("serialise");
    let first = snapshot(&slot.game.lock().await.view());
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            msg = rx.recv() => {
                let text: String = match msg {
                    Ok(m) => m.to_string(),
                    Err(broadcast::error::RecvError::Lagged(_)) => snapshot(&slot.game.lock().await.view()),
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(Message::Text(t))) if t.as_str() == "ping" => {
                        if socket.send(Message::Text("pong".into())).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(_)) => {}
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
}

async fn health(State(st): State<Arc<AppState>>) -> Result<Json<serde_json::Value>, ApiError> {
    let games = st.db(|s| s.count()).await?;
    Ok(Json(serde_json::json!({ "ok": true, "games": games })))
}

async fn api_not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such API endpoint")
}

/// The router: the JSON API under `/api`, the WebSocket, and the embedded UI.
pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/health", get(health))
        .route("/games", get(list).post(create))
        .route(
            "/games/import",
            post(import).layer(DefaultBodyLimit::max(MAX_IMPORT_BODY)),
        )
        .route("/games/{id}", get(get_game))
        .route("/games/{id}/moves", post(post_move))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/next-round", post(next_round))
        .route("/games/{id}/join", post(join))
        .route("/games/{id}/hint", post(hint))
        .route("/games/{id}/record", get(record))
        .route("/games/{id}/ws", get(ws))
        .fallback(api_not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY));
    Router::new()
        .nest("/api", api)
        .merge(crate::assets::router())
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let Json(played) = post_move(State(st.clone()), Path(created.id.clone()), headers, ApiJson(mv))
            .await
            .unwrap();
        assert_eq!(st.games_in_memory(), 1);
        // Let the spawned engine checks (which lock the game briefly) run.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        // Recently used games stay; idle ones go.
        assert_eq!(st.evict_idle(IDLE_EVICT_MS), 0);
        assert_eq!(st.evict_idle(0), 1);
        assert_eq!(st.games_in_memory(), 0);
        // The next request reloads the game exactly as it was.
        let Json(view) = get_game(State(st.clone()), Path(created.id.clone()))
            .await
            .unwrap();
        assert_eq!(st.games_in_memory(), 1);
        assert_eq!(view.seq, 1);
        assert_eq!(view.state, played.game.state);
        // A watched game is never evicted.
        let slot = st.cached(&created.id).unwrap();
        let _rx = slot.tx.subscribe();
        assert_eq!(st.evict_idle(0), 0);
    }
}
