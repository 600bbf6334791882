//! A storage that fails as a full disk does (SQLite's `SQLITE_FULL` on
//! every write) and as a failing one (`SQLITE_IOERR_WRITE`): requests that
//! write answer 503 with `Retry-After` and store nothing, reads go on, the
//! health check reports the storage degraded, and all is well again once
//! the disk has room. Against a real server on loopback; the fault is
//! injected in the store (a real full disk, on a small tmpfs, is
//! `hoyito-cli`'s `disk_full` test).

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use hoyito_core::Side;
use hoyito_server::store::{
    Change, ChatMessage, ListedGame, LobbyKind, Meta, OfferKind, Sqlite, Storage, StoreError, StoreResult,
    StoredGame, Summary,
};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::{eventually, first_legal, Api};

/// SQLite in memory whose writes fail with the SQLite code in `fault` (0:
/// none), and the health check's test write with the one in `health_fault`.
#[derive(Debug)]
struct Faulty {
    inner: Sqlite,
    fault: Arc<AtomicI32>,
    health_fault: Arc<AtomicI32>,
}

impl Faulty {
    fn new(fault: &Arc<AtomicI32>, health_fault: &Arc<AtomicI32>) -> Faulty {
        Faulty {
            inner: Sqlite::in_memory().unwrap(),
            fault: fault.clone(),
            health_fault: health_fault.clone(),
        }
    }

    fn write(&self) -> StoreResult<()> {
        fail(&self.fault)
    }
}

/// SQLite's failure with `fault`'s code, if any.
fn fail(fault: &AtomicI32) -> StoreResult<()> {
    match fault.load(Ordering::SeqCst) {
        0 => Ok(()),
        code => Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(code),
            None,
        ))),
    }
}

impl Storage for Faulty {
    fn accounts(&self) -> &dyn hoyito_server::store::AccountStorage {
        Storage::accounts(&self.inner)
    }
    fn ratings(&self) -> &dyn hoyito_server::store::RatingStorage {
        Storage::ratings(&self.inner)
    }
    fn passkeys(&self) -> &dyn hoyito_server::store::PasskeyStorage {
        Storage::passkeys(&self.inner)
    }
    fn insert_game(&self, meta: &Meta, summary: &Summary) -> StoreResult<()> {
        self.write()?;
        Storage::insert_game(&self.inner, meta, summary)
    }
    fn insert_game_with_steps(&self, meta: &Meta, steps: &[String], summary: &Summary) -> StoreResult<()> {
        self.write()?;
        Storage::insert_game_with_steps(&self.inner, meta, steps, summary)
    }
    fn append_at(&self, id: &str, seq: u64, token: &str, at_ms: i64, summary: &Summary) -> StoreResult<()> {
        self.write()?;
        Storage::append_at(&self.inner, id, seq, token, at_ms, summary)
    }
    fn truncate(&self, id: &str, keep: u64, summary: &Summary) -> StoreResult<()> {
        self.write()?;
        Storage::truncate(&self.inner, id, keep, summary)
    }
    fn bind_seat(
        &self,
        id: &str,
        side: Side,
        token: &str,
        name: Option<&str>,
        summary: &Summary,
    ) -> StoreResult<()> {
        self.write()?;
        Storage::bind_seat(&self.inner, id, side, token, name, summary)
    }
    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>> {
        Storage::load(&self.inner, id)
    }
    fn set_offer(&self, id: &str, kind: OfferKind, seq: u64, side: Option<Side>) -> StoreResult<u64> {
        self.write()?;
        Storage::set_offer(&self.inner, id, kind, seq, side)
    }
    fn list(&self, limit: u32, status: Option<&str>) -> StoreResult<Vec<ListedGame>> {
        Storage::list(&self.inner, limit, status)
    }
    fn over_game_ids(&self, limit: u32, offset: u64) -> StoreResult<Vec<String>> {
        Storage::over_game_ids(&self.inner, limit, offset)
    }
    fn check_writable(&self) -> StoreResult<()> {
        self.write()?;
        fail(&self.health_fault)?;
        Storage::check_writable(&self.inner)
    }
    fn save_analysis(&self, id: &str, epoch: u64, seq: u64, data: &str) -> StoreResult<()> {
        self.write()?;
        Storage::save_analysis(&self.inner, id, epoch, seq, data)
    }
    fn load_analysis(&self, id: &str) -> StoreResult<Option<(u64, u64, String)>> {
        Storage::load_analysis(&self.inner, id)
    }
    fn count(&self) -> StoreResult<u64> {
        Storage::count(&self.inner)
    }
    fn step_times(&self, id: &str) -> StoreResult<Vec<Option<i64>>> {
        Storage::step_times(&self.inner, id)
    }
    fn timed_games(&self) -> StoreResult<Vec<String>> {
        Storage::timed_games(&self.inner)
    }
    fn lobby(
        &self,
        kind: LobbyKind,
        variant: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> StoreResult<Vec<ListedGame>> {
        Storage::lobby(&self.inner, kind, variant, limit, offset)
    }
    fn games_by_id(&self, ids: &[String]) -> StoreResult<Vec<ListedGame>> {
        Storage::games_by_id(&self.inner, ids)
    }
    fn add_chat(&self, id: &str, side: Side, text: &str, at_ms: i64) -> StoreResult<ChatMessage> {
        self.write()?;
        Storage::add_chat(&self.inner, id, side, text, at_ms)
    }
    fn chat(&self, id: &str, limit: u32) -> StoreResult<Vec<ChatMessage>> {
        Storage::chat(&self.inner, id, limit)
    }
    fn delete_abandoned(&self, before_ms: i64, limit: u32) -> StoreResult<Vec<String>> {
        self.write()?;
        Storage::delete_abandoned(&self.inner, before_ms, limit)
    }
    fn follow(&self, to: tokio::sync::mpsc::UnboundedSender<Change>) -> StoreResult<()> {
        Storage::follow(&self.inner, to)
    }
}

/// A POST's status, `Retry-After` and body.
async fn post(
    api: &Api,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Option<String>, Value) {
    let mut req = api.http.post(format!("{}{path}", api.base)).json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.expect("an answer");
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (res.status(), retry, res.json().await.expect("a JSON body"))
}

/// `GET /api/health`: its status, `Retry-After` and body.
async fn health(api: &Api) -> (StatusCode, Option<String>, Value) {
    let res = api
        .http
        .get(format!("{}/api/health", api.base))
        .send()
        .await
        .expect("an answer");
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (res.status(), retry, res.json().await.expect("a JSON body"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_or_failing_disk_answers_503_with_retry_after_and_health_degraded() {
    let fault = Arc::new(AtomicI32::new(0));
    let api = Api::start(Store::new(Faulty::new(&fault, &Arc::default()))).await;
    let (status, _, v) = health(&api).await;
    assert_eq!((status, &v["storage"]), (StatusCode::OK, &json!("ok")), "{v}");
    let (id, token, created) = api.create(json!({ "mode": "hotseat" })).await;
    let mv = first_legal(&created["game"]);

    for (code, api_code, retry) in [
        (rusqlite::ffi::SQLITE_FULL, "storage_full", "30"),
        (rusqlite::ffi::SQLITE_IOERR_WRITE, "storage_unavailable", "3"),
    ] {
        fault.store(code, Ordering::SeqCst);
        let (status, retry_after, v) = post(
            &api,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({ "move": mv }),
        )
        .await;
        assert_eq!(
            (status, v["code"].as_str(), retry_after.as_deref()),
            (StatusCode::SERVICE_UNAVAILABLE, Some(api_code), Some(retry)),
            "{v}"
        );
        assert!(v["error"].as_str().unwrap().contains("nothing was stored"), "{v}");
        let (status, _, v) = post(&api, "/api/games", None, json!({ "mode": "hotseat" })).await;
        assert_eq!(
            (status, v["code"].as_str()),
            (StatusCode::SERVICE_UNAVAILABLE, Some(api_code)),
            "{v}"
        );
        // Reads go on, and the move was not made.
        assert_eq!(api.game(&id).await["seq"], 0);
        let (status, retry_after, v) = health(&api).await;
        assert_eq!(
            (status, retry_after.as_deref()),
            (StatusCode::SERVICE_UNAVAILABLE, Some(retry)),
            "{v}"
        );
        assert_eq!(
            (v["ok"].as_bool(), v["storage"].as_str(), v["code"].as_str()),
            (Some(false), Some("degraded"), Some(api_code)),
            "{v}"
        );
    }
    let (_, _, v) = post(&api, "/api/games", None, json!({ "mode": "hotseat" })).await;
    assert_eq!(
        v["error"],
        "the database cannot be reached now, and nothing was stored: try again in 3 s"
    );

    // Room on the disk again: the move is made, and the health check says
    // ok once the requests' faults are some seconds old.
    fault.store(0, Ordering::SeqCst);
    let (status, _, v) = post(
        &api,
        &format!("/api/games/{id}/moves"),
        Some(&token),
        json!({ "move": mv }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(api.game(&id).await["seq"], 1);
    eventually("the health check to say ok", || async {
        let (status, _, v) = health(&api).await;
        (status == StatusCode::OK && v["storage"] == "ok").then_some(())
    })
    .await;
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_health_checks_own_write_failing_is_degraded_too() {
    let fault = Arc::new(AtomicI32::new(rusqlite::ffi::SQLITE_FULL));
    let api = Api::start(Store::new(Faulty::new(&Arc::default(), &fault))).await;
    // No request met the fault: the health check's test write finds it.
    let (status, retry_after, v) = health(&api).await;
    assert_eq!(
        (
            status,
            retry_after.as_deref(),
            v["code"].as_str(),
            v["storage"].as_str()
        ),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Some("30"),
            Some("storage_full"),
            Some("degraded")
        ),
        "{v}"
    );
    fault.store(0, Ordering::SeqCst);
    let (status, _, v) = health(&api).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the health check's own fault is not remembered: {v}"
    );
    api.stop().await;
}
