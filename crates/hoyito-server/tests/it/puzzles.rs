//! `GET /api/puzzles/{id}`, `GET /api/puzzles/next`, `/daily` and
//! `/streak`: the shipped puzzles, filtered and walked in order, a day's
//! puzzle, a streak's rungs, and their errors; the offline pack
//! (`/puzzle-pack.json`) the app caches.

use crate::common::{error_code, Api};
use hoyito_core::{Game, Position, Rules, Variant};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::Value;

/// The puzzle's solution plays from its position, alternating sides.
fn check_shape(p: &Value) {
    let variant: Variant = p["variant"].as_str().unwrap().parse().unwrap();
    let rules = Rules::new(variant, p["holes"].as_u64().unwrap() as usize).unwrap();
    let pos = Position::from_notation(rules, p["position"].as_str().unwrap()).unwrap();
    let solver = pos.to_move();
    let mut game = Game::from_position(pos);
    let solution = p["solution"].as_array().unwrap();
    assert_eq!(solution.len() % 2, 1, "{p}");
    for (i, m) in solution.iter().enumerate() {
        let side = if i % 2 == 0 { solver } else { solver.other() };
        assert_eq!(game.position().to_move(), side, "{p}");
        game.play_token(m.as_str().unwrap()).unwrap();
    }
    assert!(
        p["themes"].is_array() && p["rating"].is_u64() && p["value"].is_i64(),
        "{p}"
    );
    assert!(["win", "draw"].contains(&p["result"].as_str().unwrap()), "{p}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_served_by_id_and_in_order() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (status, first) = api.get("/api/puzzles/next").await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["id"], "I-6-0001");
    check_shape(&first);

    let (status, p) = api.get("/api/puzzles/next?variant=II&holes=4").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(
        (
            p["id"].as_str().unwrap(),
            p["variant"].as_str().unwrap(),
            p["holes"].as_u64()
        ),
        ("II-4-0001", "II", Some(4))
    );
    check_shape(&p);
    let (status, same) = api.get("/api/puzzles/II-4-0001").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(same, p);

    let (_, second) = api
        .get("/api/puzzles/next?variant=II&holes=4&after=II-4-0001")
        .await;
    assert_eq!(second["id"], "II-4-0002");
    // The last one of a filter wraps around to its first.
    let (_, last) = api.get("/api/puzzles/II-4-0150").await;
    assert_eq!(last["id"], "II-4-0150");
    let (_, wrapped) = api
        .get("/api/puzzles/next?variant=II&holes=4&after=II-4-0150")
        .await;
    assert_eq!(wrapped["id"], "II-4-0001");

    let (status, hard) = api
        .get("/api/puzzles/next?holes=6&min_rating=1500&max_rating=1600")
        .await;
    assert_eq!(status, StatusCode::OK, "{hard}");
    let r = hard["rating"].as_u64().unwrap();
    assert!((1500..=1600).contains(&r) && hard["holes"] == 6, "{hard}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_is_one_a_utc_day() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (status, a) = api
        .get("/api/puzzles/daily?variant=III&holes=6&date=2026-12-05")
        .await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["date"], "2026-12-05");
    // API.md's example: 2026-12-05 is day 20792, splitmix64(20792) mod 1100 is
    // 1063: the 1064th of the 1,100 puzzles of III 2×6.
    assert_eq!(a["id"], "III-6-1064");
    assert_eq!(
        (a["variant"].as_str(), a["holes"].as_u64()),
        (Some("III"), Some(6))
    );
    check_shape(&a);
    // The same day gives the same puzzle, and it is the puzzle of its id.
    let (_, again) = api
        .get("/api/puzzles/daily?date=2026-12-05&holes=6&variant=III")
        .await;
    assert_eq!(again, a);
    let (_, by_id) = api
        .get(&format!("/api/puzzles/{}", a["id"].as_str().unwrap()))
        .await;
    let mut without_date = a.clone();
    without_date.as_object_mut().unwrap().remove("date");
    assert_eq!(by_id, without_date);
    // A week has (almost) a puzzle a day.
    let mut ids = std::collections::HashSet::new();
    for d in 5..12 {
        let (_, p) = api
            .get(&format!(
                "/api/puzzles/daily?variant=III&holes=6&date=2026-12-{d:02}"
            ))
            .await;
        ids.insert(p["id"].as_str().unwrap().to_string());
    }
    assert!(ids.len() >= 6, "{ids:?}");
    // Without a date: today, in UTC.
    let (status, today) = api.get("/api/puzzles/daily").await;
    assert_eq!(status, StatusCode::OK, "{today}");
    let date = today["date"].as_str().unwrap();
    let (_, same) = api.get(&format!("/api/puzzles/daily?date={date}")).await;
    assert_eq!(same["id"], today["id"]);
    check_shape(&today);

    for (path, status, code) in [
        (
            "/api/puzzles/daily?date=2026-02-30",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/daily?date=today",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/daily?variant=IV",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/daily?after=I-6-0001",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/daily?holes=5",
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
    ] {
        let (got, v) = api.get(path).await;
        assert_eq!((got, error_code(&v)), (status, code), "{path}: {v}");
    }
    let (_, v) = api.get("/api/puzzles/daily?date=2026-02-30").await;
    assert_eq!(
        v["error"],
        "date must be a day YYYY-MM-DD from 2000-01-01 to 2999-12-31, not \"2026-02-30\""
    );
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzle_errors_say_what_was_wrong() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    for (path, status, code) in [
        (
            "/api/puzzles/II-6-9999",
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
        (
            "/api/puzzles/next?after=nope",
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
        (
            "/api/puzzles/next?holes=5",
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
        (
            "/api/puzzles/next?variant=IV",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/next?holes=six",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/next?level=3",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ] {
        let (got, v) = api.get(path).await;
        assert_eq!((got, error_code(&v)), (status, code), "{path}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {v}");
    }
    let (_, v) = api.get("/api/puzzles/next?variant=IV").await;
    assert_eq!(v["error"], "variant must be I, II or III");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attempt_answers_the_solvers_new_rating() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (_, p) = api.get("/api/puzzles/II-4-0001").await;
    let new = serde_json::json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
    let (status, won) = api
        .post(
            "/api/puzzles/II-4-0001/attempt",
            None,
            serde_json::json!({"solved": true, "rating": new}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{won}");
    assert_eq!((&won["id"], &won["puzzle_rating"]), (&p["id"], &p["rating"]));
    let r = won["rating"]["rating"].as_f64().unwrap();
    assert!(
        r > 1500.0 && won["rating"]["deviation"].as_f64().unwrap() < 350.0,
        "{won}"
    );
    assert_eq!(won["change"].as_i64().unwrap(), (r - 1500.0).round() as i64);
    let (_, lost) = api
        .post(
            "/api/puzzles/II-4-0001/attempt",
            None,
            serde_json::json!({"solved": false, "rating": new}),
        )
        .await;
    assert!(lost["change"].as_i64().unwrap() < 0, "{lost}");

    for (path, body, status, code) in [
        (
            "/api/puzzles/II-4-9999/attempt",
            serde_json::json!({"solved": true, "rating": new}),
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
        (
            "/api/puzzles/II-4-0001/attempt",
            serde_json::json!({"solved": true, "rating": {"rating": 1500.0, "deviation": 0.0, "volatility": 0.06}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_rating",
        ),
        (
            "/api/puzzles/II-4-0001/attempt",
            serde_json::json!({"solved": true, "rating": {"rating": 9e9, "deviation": 350.0, "volatility": 0.06}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_rating",
        ),
        (
            "/api/puzzles/II-4-0001/attempt",
            serde_json::json!({"solved": "yes", "rating": new}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        ),
        (
            "/api/puzzles/II-4-0001/attempt",
            serde_json::json!({"solved": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        ),
    ] {
        let (got, v) = api.post(path, None, body.clone()).await;
        assert_eq!(got, status, "{path} {body}: {v}");
        if !code.is_empty() {
            assert_eq!(error_code(&v), code, "{v}");
        }
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    let (_, v) = api
        .post(
            "/api/puzzles/II-4-0001/attempt",
            None,
            serde_json::json!({"solved": true, "rating": {"rating": 1500.0, "deviation": 0.0, "volatility": 0.06}}),
        )
        .await;
    assert_eq!(
        v["error"],
        "rating.deviation must be a number from 1 to 350, not 0"
    );
    api.stop().await;
}

/// Signed in, the rating is the account's: the first attempt starts from
/// the device's, the next from the account's whatever the device sends;
/// `GET /api/puzzles/rating` reads it, the export carries it, and signed
/// out nothing is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_solvers_rating_is_kept_on_the_account() {
    use crate::common::passkey::Page;
    use serde_json::json;
    let api = Api::start(Store::in_memory().unwrap()).await;
    let mut page = Page::new(&api.base);
    let (status, _) = page.call("GET", "/api/puzzles/rating", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, up) = page
        .call(
            "POST",
            "/api/account",
            Some(json!({ "username": "Rosa", "password": "tambor-lluvia-semilla-42" })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{up}");
    let (_, none) = page.call("GET", "/api/puzzles/rating", None).await;
    assert_eq!(none, json!({ "rating": null, "attempts": 0 }));

    let device = json!({"rating": 1600.0, "deviation": 200.0, "volatility": 0.06});
    let attempt = |rating: &Value, solved: bool| json!({ "solved": solved, "rating": rating });
    let (status, first) = page
        .call(
            "POST",
            "/api/puzzles/II-4-0001/attempt",
            Some(attempt(&device, true)),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["account"], true);
    // The same attempt signed out, from the same rating: the same answer.
    let (_, anonymous) = api
        .post("/api/puzzles/II-4-0001/attempt", None, attempt(&device, true))
        .await;
    assert_eq!(anonymous["account"], false);
    assert_eq!(anonymous["rating"], first["rating"]);
    // The next attempt starts from the account's rating, not the device's stale one.
    let stale = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
    let (_, second) = page
        .call(
            "POST",
            "/api/puzzles/II-4-0002/attempt",
            Some(attempt(&stale, false)),
        )
        .await;
    let (_, from_kept) = api
        .post(
            "/api/puzzles/II-4-0002/attempt",
            None,
            attempt(&first["rating"], false),
        )
        .await;
    assert_eq!(second["rating"], from_kept["rating"], "{second}");
    let (_, kept) = page.call("GET", "/api/puzzles/rating", None).await;
    assert_eq!(kept, json!({ "rating": second["rating"], "attempts": 2 }));
    let (_, export) = page.call("GET", "/api/account/export", None).await;
    assert_eq!(export["puzzle_rating"]["attempts"], 2, "{export}");
    assert_eq!(export["puzzle_rating"]["rating"], second["rating"]["rating"]);
    // Signed out again: the device's rating, nothing kept.
    page.call("DELETE", "/api/session", None).await;
    let (_, out) = page
        .call(
            "POST",
            "/api/puzzles/II-4-0001/attempt",
            Some(attempt(&stale, true)),
        )
        .await;
    assert_eq!(out["account"], false);
    api.stop().await;
}

/// A streak of Hoyito II on 2×6 walked to its end through the API.
async fn climb(api: &Api, seed: u32) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    loop {
        let above = out
            .last()
            .map(|p| format!("&above={}", p["rating"]))
            .unwrap_or_default();
        let (status, p) = api
            .get(&format!(
                "/api/puzzles/streak?variant=II&holes=6&seed={seed}{above}"
            ))
            .await;
        if status == StatusCode::NOT_FOUND {
            assert_eq!(error_code(&p), "puzzle_not_found", "{p}");
            return out;
        }
        assert_eq!(status, StatusCode::OK, "{p}");
        out.push(p);
        assert!(out.len() < 500, "a streak ends");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streak_climbs_the_ratings_one_rung_a_puzzle() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let a = climb(&api, 12345).await;
    // Every rating of Hoyito II's 2×6 puzzles, from the lowest, once each.
    let ratings: Vec<u64> = a.iter().map(|p| p["rating"].as_u64().unwrap()).collect();
    let mut expected: Vec<u64> = include_str!("../../../../data/puzzles/II-6.jsonl")
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["rating"]
                .as_u64()
                .unwrap()
        })
        .collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(ratings, expected);
    for p in &a {
        assert_eq!(
            (p["variant"].as_str(), p["holes"].as_u64()),
            (Some("II"), Some(6))
        );
        check_shape(p);
        let (_, by_id) = api
            .get(&format!("/api/puzzles/{}", p["id"].as_str().unwrap()))
            .await;
        assert_eq!(&by_id, p);
    }
    // The same seed, the same puzzles; another seed, others on the crowded rungs.
    assert_eq!(climb(&api, 12345).await, a);
    let b = climb(&api, 54321).await;
    assert_eq!(b.len(), a.len());
    assert_ne!(a, b);
    // Without `above`, the first rung; without any filter, of every set.
    let (status, any) = api.get("/api/puzzles/streak").await;
    assert_eq!(status, StatusCode::OK, "{any}");
    assert_eq!(any["rating"], 1000);

    for (path, status, code) in [
        (
            "/api/puzzles/streak?variant=II&above=9999",
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
        (
            "/api/puzzles/streak?holes=5",
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        ),
        (
            "/api/puzzles/streak?variant=IV",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/streak?seed=-1",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/streak?above=high",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/puzzles/streak?after=I-6-0001",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ] {
        let (got, v) = api.get(path).await;
        assert_eq!((got, error_code(&v)), (status, code), "{path}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {v}");
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_offline_pack_is_served_listed_for_the_service_worker_and_small() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let res = api
        .http
        .get(format!("{}/puzzle-pack.json", api.base))
        .header("accept-encoding", "identity")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let bytes = res.bytes().await.unwrap();
    // Small enough to cache when the app installs (docs/PUZZLES.md).
    assert!(bytes.len() < 200_000, "{} bytes", bytes.len());
    let pack: Value = serde_json::from_slice(&bytes).unwrap();
    let puzzles = pack["puzzles"].as_array().unwrap();
    assert_eq!(pack["count"].as_u64(), Some(puzzles.len() as u64));
    assert!((300..=500).contains(&puzzles.len()), "{}", puzzles.len());
    // Every variant and board, and every rating of each: each puzzle as the API serves it.
    let mut sets = std::collections::BTreeMap::new();
    for p in puzzles {
        let (_, by_id) = api
            .get(&format!("/api/puzzles/{}", p["id"].as_str().unwrap()))
            .await;
        assert_eq!(&by_id, p);
        let key = format!("{}-{}", p["variant"].as_str().unwrap(), p["holes"]);
        sets.entry(key)
            .or_insert_with(Vec::new)
            .push(p["rating"].as_u64().unwrap());
    }
    assert_eq!(
        sets.keys().cloned().collect::<Vec<_>>(),
        ["I-4", "I-6", "II-4", "II-6", "III-4", "III-6"]
    );
    let streak: Vec<u64> = climb(&api, 1)
        .await
        .iter()
        .map(|p| p["rating"].as_u64().unwrap())
        .collect();
    let mut rungs = sets["II-6"].clone();
    rungs.sort_unstable();
    assert_eq!(rungs, streak, "one puzzle of every rung of the streak");
    // Compressed when the client accepts it; 304 with its ETag.
    let res = api
        .http
        .get(format!("{}/puzzle-pack.json", api.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "gzip");
    let res = api
        .http
        .get(format!("{}/puzzle-pack.json", api.base))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    // The service worker caches it when the app installs.
    let (_, list) = api.get("/precache.json").await;
    assert!(
        list["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "/puzzle-pack.json"),
        "{list}"
    );
    api.stop().await;
}
