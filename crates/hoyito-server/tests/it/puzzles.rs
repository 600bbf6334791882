//! `GET /api/puzzles/{id}` and `GET /api/puzzles/next`: the shipped puzzles,
//! filtered and walked in order, and their errors.

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
