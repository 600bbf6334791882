//! A client of a real server on loopback (127.0.0.1, a free port), shared
//! by the API test files.
#![allow(dead_code)]

pub mod passkey;

use std::future::Future;
use std::time::Duration;

use hoyito_server::{LocalServer, ServerLimits, Store};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// How long a test waits for an event before it fails: generous, since
/// only a broken server (or a stalled machine) waits this long.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// Polls `check` until it gives `Some`, with a short pause between tries;
/// panics, naming `what`, after [`PATIENCE`]. For states the API reports:
/// the test waits for the state, never for a fixed time.
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited {PATIENCE:?} for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The value of the metric `name` (a line `name value`) in `text`, if there.
pub fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

pub struct Api {
    pub base: String,
    pub http: reqwest::Client,
    pub server: Option<LocalServer>,
}

impl Api {
    pub async fn start(store: Store) -> Api {
        Api::start_with(store, ServerLimits::default()).await
    }

    pub async fn start_with(store: Store, limits: ServerLimits) -> Api {
        Api::start_tables(store, limits, None).await
    }

    /// A server with endgame tablebases.
    pub async fn start_tables(
        store: Store,
        limits: ServerLimits,
        tablebases: Option<hoyito_server::ai::Tablebases>,
    ) -> Api {
        let (addr, server) = hoyito_server::spawn_local_tables(store, limits, tablebases)
            .await
            .expect("bind");
        Api {
            base: format!("http://{addr}"),
            // A fresh connection per request: the server closes a connection
            // after refusing an oversized body unread, and a pooled client
            // could send the next request on it (IncompleteMessage).
            http: reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .build()
                .expect("an HTTP client"),
            server: Some(server),
        }
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.server.take() {
            s.stop().await;
        }
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        if status == StatusCode::NO_CONTENT {
            return (status, Value::Null);
        }
        (status, res.json().await.expect("a JSON body"))
    }

    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: Vec<u8>) -> (StatusCode, Value) {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        if status == StatusCode::NO_CONTENT {
            return (status, Value::Null);
        }
        (status, res.json().await.expect("a JSON body"))
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.get_with(path, None).await
    }

    /// A GET with `token` as the bearer, if given.
    pub async fn get_with(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        if status == StatusCode::NO_CONTENT {
            return (status, Value::Null);
        }
        (status, res.json().await.expect("a JSON body"))
    }

    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let (status, v) = self.post("/api/games", None, body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        (
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
            v,
        )
    }

    /// Takes the free seat of the online game whose creation answered
    /// `created`, through its invite link, as `name`: the joiner's token.
    pub async fn join_invited(&self, created: &Value, name: &str) -> String {
        let id = created["id"].as_str().expect("a game id");
        let link = created["invite"].as_str().expect("an invite link");
        let invite = link.split("invite=").nth(1).expect("an invite secret");
        let (status, joined) = self
            .post(
                &format!("/api/games/{id}/join"),
                None,
                json!({ "invite": invite, "name": name }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{joined}");
        joined["token"].as_str().expect("a seat token").to_string()
    }

    pub async fn play(&self, id: &str, token: &str, mv: &str) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            Some(token),
            json!({ "move": mv }),
        )
        .await
    }

    pub async fn game(&self, id: &str) -> Value {
        let (status, v) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    /// Game `id`'s record, as `GET /api/games/{id}/record` sends it.
    pub async fn record(&self, id: &str) -> String {
        let res = self
            .http
            .get(format!("{}/api/games/{id}/record", self.base))
            .send()
            .await
            .expect("request");
        assert_eq!(res.status(), StatusCode::OK, "the record of game {id}");
        res.text().await.expect("a text body")
    }

    /// Waits until the game satisfies `f` (engine moves are asynchronous):
    /// watches the game's WebSocket, which sends the game on connect and
    /// then every change, and checks each game it sends; fails after
    /// [`PATIENCE`] without one that satisfies `f`.
    pub async fn wait_for(&self, id: &str, f: impl Fn(&Value) -> bool) -> Value {
        use futures_util::StreamExt;
        let url = format!("{}/api/games/{id}/ws", self.base.replace("http://", "ws://"));
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("the game's WebSocket");
        let mut last = Value::Null;
        let watch = async {
            while let Some(m) = ws.next().await {
                let m = m.expect("a WebSocket message");
                let Ok(text) = m.into_text() else { continue };
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                if v["game"].is_object() {
                    last = v["game"].clone();
                    if f(&last) {
                        return Some(last.clone());
                    }
                }
            }
            None
        };
        match tokio::time::timeout(PATIENCE, watch).await {
            Ok(Some(g)) => g,
            Ok(None) => panic!("the WebSocket of game {id} closed before the expected state: {last}"),
            Err(_) => panic!("game {id} never reached the expected state in {PATIENCE:?}: {last}"),
        }
    }

    /// The server's metrics (Prometheus text).
    pub async fn metrics(&self) -> String {
        let res = self
            .http
            .get(format!("{}/metrics", self.base))
            .send()
            .await
            .expect("request");
        assert_eq!(res.status(), StatusCode::OK);
        res.text().await.expect("a text body")
    }
}

pub fn first_legal(game: &Value) -> String {
    game["legal"][0].as_str().expect("a legal move").to_string()
}

pub fn error_code(v: &Value) -> &str {
    assert!(
        v["error"].as_str().is_some_and(|e| !e.is_empty()),
        "an error message: {v}"
    );
    v["code"].as_str().unwrap()
}
