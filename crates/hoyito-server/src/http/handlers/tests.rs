//! Games in memory and the engine's queue, through the handlers: idle games
//! evicted and reloaded, the cap on games in memory, quick engine moves
//! beside deep searches, one hint per game and a bounded engine queue.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use hoyito_core::{RulesSpec, Side};
use tokio::sync::watch;

use crate::http::client_ip::ClientIp;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::handlers::games::{create, get_game};
use crate::http::handlers::play::{hint, post_move};
use crate::http::wire::{CreateRequest, GameQuery, MoveRequest};
use crate::limits::ServerLimits;
use crate::state::{AppState, IDLE_EVICT_MS};
use crate::store::{Mode, Store};

const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

/// Waits until `cond` holds, letting the other tasks run between looks
/// (the test runtime has one thread); fails after 30 s.
async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    tokio::time::timeout(Duration::from_secs(30), async {
        while !cond() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("timed out waiting until {what}"));
}

/// Waits until nothing but the map of games holds game `id` (the engine
/// checks spawned on a load or a move have let go of it).
async fn settled(st: &Arc<AppState>, id: &str) {
    until("no task holds the game", || {
        st.cached(id).is_some_and(|slot| Arc::strong_count(&slot) == 2)
    })
    .await;
}

/// The query of a full game view.
fn full() -> ApiQuery<GameQuery> {
    ApiQuery(GameQuery { history_from: None })
}

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
        rated: false,
        rating_range: None,
    };
    let (_, Json(created)) = create(State(st.clone()), Default::default(), ApiJson(req))
        .await
        .unwrap();
    let mut headers = HeaderMap::new();
    headers.insert(
        header::AUTHORIZATION,
        format!("Bearer {}", created.token).parse().unwrap(),
    );
    let mv = MoveRequest {
        token: "3".into(),
        seq: None,
    };
    let answer = post_move(
        State(st.clone()),
        ApiPath(created.id.clone()),
        ClientIp(LOCAL),
        headers,
        ApiJson(mv),
    )
    .await
    .unwrap();
    let played: serde_json::Value = serde_json::from_str(&answer.json).unwrap();
    assert_eq!(st.games_in_memory(), 1);
    // The legal moves after the move were worked out with it, on a
    // rules thread, not under the game's lock afterwards.
    {
        let slot = st.cached(&created.id).unwrap();
        let g = slot.game.lock().await;
        let legal: Vec<String> = serde_json::from_value(played["game"]["legal"].clone()).unwrap();
        assert_eq!(g.room.legal_cached(), Some(&legal));
        assert_eq!(legal, g.room.position().legal_tokens());
    }
    // The spawned engine checks (which lock the game briefly) have run.
    settled(&st, &created.id).await;
    // Recently used games stay; idle ones go.
    assert_eq!(st.evict_idle(IDLE_EVICT_MS), 0);
    assert_eq!(st.evict_idle(0), 1);
    assert_eq!(st.games_in_memory(), 0);
    // The next request reloads the game exactly as it was.
    let Json(view) = get_game(State(st.clone()), ApiPath(created.id.clone()), full())
        .await
        .unwrap();
    assert_eq!(st.games_in_memory(), 1);
    assert_eq!(view.room.seq, 1);
    assert_eq!(
        serde_json::to_value(&view.room.state).unwrap(),
        played["game"]["state"]
    );
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
        rated: false,
        rating_range: None,
    };
    let (_, Json(created)) = create(State(st.clone()), Default::default(), ApiJson(req))
        .await
        .unwrap();
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
    let limits = ServerLimits {
        max_games_in_memory: 10,
        ..ServerLimits::default()
    };
    let st = AppState::with_options(Store::in_memory().unwrap(), 1, rx, None, limits);
    let mut ids = Vec::new();
    for _ in 0..30 {
        ids.push(new_game(&st, Mode::Hotseat, 3, None).await.0);
        // Games are ordered by the millisecond of their last use.
        let at = crate::store::now();
        until("the clock moves on", || crate::store::now() > at).await;
        assert!(st.games_in_memory() <= 10, "{}", st.games_in_memory());
    }
    // The oldest went first; every game is still there, reloaded on use.
    assert!(st.cached(&ids[0]).is_none());
    assert!(st.cached(&ids[29]).is_some());
    for id in &ids {
        let Json(view) = get_game(State(st.clone()), ApiPath(id.clone()), full())
            .await
            .unwrap();
        assert_eq!(view.room.seq, 0);
        // The engine check spawned on loading (it holds the game) has run.
        settled(&st, id).await;
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
        rated: false,
        rating_range: None,
    };
    let err = create(State(st.clone()), Default::default(), ApiJson(req))
        .await
        .unwrap_err();
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
    // The engine's move is announced to the game's watchers.
    let mut moves = st.cached(&id).unwrap().subscribe();
    let Json(view) = get_game(State(st.clone()), ApiPath(id.clone()), full())
        .await
        .unwrap();
    if view.room.seq == 0 {
        tokio::time::timeout(Duration::from_secs(5), moves.recv())
            .await
            .expect("the level-1 engine never replied")
            .unwrap();
    }
    let Json(view) = get_game(State(st.clone()), ApiPath(id.clone()), full())
        .await
        .unwrap();
    assert_eq!(view.room.seq, 1, "the level-1 engine never replied");
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
    until("the first hint is queued", || st.engine_queue_depth() >= 1).await;
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
    until("the queue is full", || {
        st.engine_queue_depth() >= st.engine_jobs_max
    })
    .await;
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

#[tokio::test]
async fn the_engines_answer_to_a_draw_offer_counts_in_the_clients_engine_jobs() {
    use crate::http::handlers::offer::draw;
    use crate::http::wire::OfferRequest;
    use hoyito_room::OfferAction;
    let (_stop, rx) = watch::channel(false);
    let limits = ServerLimits {
        engine_jobs_per_ip: 1,
        ..ServerLimits::default()
    };
    let st = AppState::with_options(Store::in_memory().unwrap(), 1, rx, None, limits);
    let busy = st.engine_permits.clone().acquire_many_owned(1).await.unwrap();
    // A hint of this address waits for the engine, holding its one job...
    let (hinted, h) = new_game(&st, Mode::Hotseat, 3, None).await;
    let waiting = tokio::spawn(hint(State(st.clone()), ApiPath(hinted), ClientIp(LOCAL), h));
    until("the hint is queued", || st.engine_queue_depth() >= 1).await;
    // ...so its draw offer to a deep engine is refused at once, not queued.
    let (id, headers) = new_game(&st, Mode::Engine, 8, Some(Side::South)).await;
    let offer = || OfferRequest {
        action: OfferAction::Offer,
    };
    let refused = tokio::time::timeout(
        Duration::from_secs(5),
        draw(
            State(st.clone()),
            ApiPath(id.clone()),
            ClientIp(LOCAL),
            headers.clone(),
            ApiJson(offer()),
        ),
    )
    .await
    .expect("a draw offer over the address's share must not wait")
    .unwrap_err();
    assert_eq!(
        (refused.status, refused.code),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_engine_jobs")
    );
    // Another address's offer is a job in the same queue.
    let other = tokio::spawn(draw(
        State(st.clone()),
        ApiPath(id),
        ClientIp([10, 0, 0, 7].into()),
        headers,
        ApiJson(offer()),
    ));
    until("the draw offer is queued", || st.engine_queue_depth() >= 2).await;
    drop(busy);
    assert!(waiting.await.unwrap().is_ok());
    let answered = other.await.unwrap();
    assert!(answered.is_ok(), "{answered:?}");
}
