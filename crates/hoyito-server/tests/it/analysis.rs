//! Post-game analysis over the API, on a real server on loopback: unknown
//! games, bad budgets, the per-address budget, and a second request that
//! joins the running analysis (stored once).

use crate::common::{error_code, eventually, first_legal, Api};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A hot-seat 2×4 game of Hoyito II with up to `moves` moves played (the
/// first legal move each time); returns its id and token.
async fn played_game(api: &Api, moves: usize) -> (String, String) {
    let (id, token, created) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "II", "holes": 4 } }))
        .await;
    let mut g = created["game"].clone();
    for _ in 0..moves {
        if g["status"] == "over" {
            break;
        }
        let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        g = v["game"].clone();
    }
    (id, token)
}

/// The mark of the move `m` played in the position of step `before` (Hoyito
/// II): a blunder if it makes the result worse (an estimate within 4 of 0
/// is even, a proved value counts by its sign), else by the seeds lost: 1,
/// 8 and 16 for an inaccuracy, a mistake, a blunder.
fn expected_mark(before: &Value, m: &Value) -> &'static str {
    let moves = before["moves"].as_array().unwrap();
    let best = &moves[0];
    let own = moves.iter().find(|s| s["token"] == m["token"]).unwrap();
    let result = |s: &Value| {
        let v = s["score"].as_i64().unwrap();
        let even = if s["exact"] == true { 1 } else { 4 };
        if v >= even {
            2
        } else if v <= -even {
            0
        } else {
            1
        }
    };
    let loss = best["score"].as_i64().unwrap() - own["score"].as_i64().unwrap();
    match loss {
        ..=0 => "best",
        _ if result(own) < result(best) => "blunder",
        1..=7 => "inaccuracy",
        8..=15 => "mistake",
        _ => "blunder",
    }
}

/// Polls the analysis of `id` until it is done.
async fn wait_done(api: &Api, id: &str) -> Value {
    eventually(&format!("the analysis of {id} to finish"), || async {
        let (status, v) = api.get(&format!("/api/games/{id}/analysis")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        (v["status"] == "done").then_some(v)
    })
    .await
}

#[tokio::test]
async fn unknown_games_and_bad_budgets_are_refused_and_nothing_is_stored() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (status, v) = api.post("/api/games/nosuchgame/analysis", None, json!({})).await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "unknown_game"));
    let (status, v) = api.get("/api/games/nosuchgame/analysis").await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "unknown_game"));

    let (id, _) = played_game(&api, 2).await;
    let path = format!("/api/games/{id}/analysis");
    let (status, v) = api.get(&path).await;
    assert_eq!(
        (status, v),
        (StatusCode::NO_CONTENT, Value::Null),
        "no analysis: 204, no body"
    );
    for (body, code) in [
        (json!({ "movetime_ms": 1 }), "invalid_budget"),
        (json!({ "movetime_ms": 100_000 }), "invalid_budget"),
        (json!({ "movetime_ms": "fast" }), "invalid_fields"),
        (json!({ "depth": 3 }), "invalid_fields"),
        (json!([1]), "invalid_fields"),
    ] {
        let (status, v) = api.post(&path, None, body.clone()).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, code),
            "{body}"
        );
    }
    let (status, v) = api.post_raw(&path, None, b"{".to_vec()).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    let (status, v) = api.get(&format!("{path}?from=x")).await;
    assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    // An online game is analysed once it is over.
    let (online, _, _) = api.create(json!({ "mode": "online" })).await;
    let (status, v) = api
        .post(&format!("/api/games/{online}/analysis"), None, json!({}))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "game_in_progress")
    );
    // Nothing was started or stored.
    let (status, v) = api.get(&path).await;
    assert_eq!(
        (status, v),
        (StatusCode::NO_CONTENT, Value::Null),
        "no analysis: 204, no body"
    );
    api.stop().await;
}

#[tokio::test]
async fn a_second_request_joins_the_running_analysis_and_it_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, _) = played_game(&api, 40).await;
    let game = api.game(&id).await;
    let seq = game["seq"].as_u64().unwrap();
    let path = format!("/api/games/{id}/analysis");
    let body = json!({ "movetime_ms": 40 });
    let (first, second) = tokio::join!(
        api.post(&path, None, body.clone()),
        api.post(&path, None, body.clone())
    );
    assert_eq!(first.0, StatusCode::ACCEPTED, "{}", first.1);
    // Joined while it runs (202), or, on a very slow machine, found done (200).
    assert!(
        [StatusCode::ACCEPTED, StatusCode::OK].contains(&second.0),
        "{}",
        second.1
    );
    assert_eq!(
        first.1["id"], second.1["id"],
        "the second request joined the first"
    );
    assert_eq!(first.1["total"], seq + 1);

    let done = wait_done(&api, &id).await;
    assert_eq!(done["id"], first.1["id"]);
    let steps = done["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, seq + 1);
    assert_eq!(done["done"], seq + 1);
    let mut marked = 0;
    for (k, p) in steps.iter().enumerate() {
        assert_eq!(p["seq"], k);
        assert!(p["eval"].is_i64(), "{p}");
        if p["to_move"].is_null() {
            assert_eq!(p["exact"], true, "the final position is exact: {p}");
            continue;
        }
        // The best move comes first among the scored moves, and the
        // evaluation is its score from South's view.
        let best = &p["moves"][0];
        assert_eq!(p["best"], best["token"]);
        assert_eq!(p["pv"][0], best["token"]);
        // Every move says where it is sown, as the best move's holes do.
        assert_eq!(best["holes"], p["best_holes"], "{p}");
        assert_eq!(best["dir"], p["best_dir"], "{p}");
        for m in p["moves"].as_array().unwrap() {
            assert_eq!(m["holes"].as_array().map(Vec::len), Some(1), "{p}");
        }
        // Played in the game: the holes of the game view's step.
        if let Some(next) = game["history"].get(k) {
            if next["kind"] == "move" {
                let own = p["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|m| m["token"] == next["token"])
                    .unwrap();
                assert_eq!(own["holes"], next["holes"], "{p}");
            }
        }
        let south = if p["to_move"] == "south" {
            best["score"].as_i64()
        } else {
            best["score"].as_i64().map(|s| -s)
        };
        assert_eq!(p["eval"].as_i64(), south, "{p}");
        if k > 0 {
            let m = &p["played"];
            assert_eq!(m["token"], game["history"][k - 1]["token"], "{p}");
            let loss = m["best_score"].as_i64().unwrap() - m["score"].as_i64().unwrap();
            assert_eq!(m["loss"].as_i64().unwrap(), loss.max(0));
            assert_eq!(m["mark"], expected_mark(&steps[k - 1], m), "{p}");
            marked += 1;
        }
    }
    assert_eq!(marked as u64, seq);
    let summary = &done["summary"];
    let moves = summary["south"]["moves"].as_u64().unwrap() + summary["north"]["moves"].as_u64().unwrap();
    assert_eq!(moves, seq);
    // Hoyito II's scale: less than a casa (8 seeds of margin), one, two.
    assert_eq!(
        done["thresholds"],
        json!({ "inaccuracy": 1, "mistake": 8, "blunder": 16, "even": 4 })
    );
    // The time asked for makes one pass, and every step says how deep it searched.
    assert_eq!(
        (done["pass"].as_u64(), done["passes"].as_u64()),
        (Some(1), Some(1))
    );
    for p in steps {
        assert_eq!(p["movetime_ms"], 40, "{p}");
        assert!(p["to_move"].is_null() || p["depth"].as_u64() >= Some(1), "{p}");
    }
    // Only the steps asked for.
    let (_, tail) = api.get(&format!("{path}?from=3")).await;
    assert_eq!(tail["from"], 3);
    assert_eq!(tail["steps"][0]["seq"], 3);

    // A later request gets the stored analysis at once: the same run.
    let (status, again) = api.post(&path, None, body).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["id"], done["id"]);

    // The downloaded record carries the marks as comments.
    let text = api.record(&id).await;
    assert!(
        text.contains("[Annotator \"hoyito analysis, 40 ms per position\"]"),
        "{text}"
    );
    let first_move = &steps[1]["played"];
    let line = format!(
        "1. {} {{{}}}",
        first_move["token"].as_str().unwrap(),
        first_move["comment"].as_str().unwrap()
    );
    assert!(text.contains(&line), "{line} in {text}");
    api.stop().await;

    // One row, of the one run.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM analyses", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1);
    let data: String = conn
        .query_row("SELECT data FROM analyses", [], |r| r.get(0))
        .unwrap();
    let stored: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(stored["id"], done["id"]);
}

/// Without a time asked for, a quick pass, then a deeper one that replaces
/// its steps: the analysis done is the second pass's, at its time.
#[tokio::test]
async fn a_quick_pass_is_refined_by_a_deeper_one() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, _) = played_game(&api, 30).await;
    let seq = api.game(&id).await["seq"].as_u64().unwrap();
    let positions = seq as usize + 1;
    // The game's budgets (docs/API.md): 1.6 s, then 20 s, shared among its
    // positions, 30 to 250 ms a position.
    let n = positions as u64;
    let times = [
        (1600 / n).clamp(30, 250),
        (20_000 / n).clamp((1600 / n).clamp(30, 250), 250),
    ];
    assert!(
        positions > 6 && times[1] > times[0],
        "{positions} positions: {times:?}"
    );
    let path = format!("/api/games/{id}/analysis");
    let (status, first) = api.post(&path, None, json!({})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    assert_eq!(
        (first["pass"].as_u64(), first["passes"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(first["movetime_ms"], times[0]);
    // The second pass starts with every step of the first there.
    let second = eventually("the second pass", || async {
        let (_, v) = api.get(&path).await;
        (v["pass"] == 2 || v["status"] == "done").then_some(v)
    })
    .await;
    assert_eq!(second["steps"].as_array().unwrap().len(), positions);
    assert!(
        second["summary"].is_object(),
        "the first pass's summary: {second}"
    );
    let done = wait_done(&api, &id).await;
    assert_eq!(
        (done["pass"].as_u64(), done["passes"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(done["movetime_ms"], times[1]);
    assert_eq!(done["done"].as_u64(), Some(positions as u64));
    for p in done["steps"].as_array().unwrap() {
        assert_eq!(p["movetime_ms"], times[1], "{p}");
    }
    api.stop().await;
}

#[tokio::test]
async fn an_address_has_one_analysis_running_at_a_time() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (a, _) = played_game(&api, 12).await;
    let (b, _) = played_game(&api, 4).await;
    let (status, v) = api
        .post(
            &format!("/api/games/{a}/analysis"),
            None,
            json!({ "movetime_ms": 500 }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    // Joining the running one is free; starting another is not.
    let (status, _) = api
        .post(&format!("/api/games/{a}/analysis"), None, json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let res = api
        .http
        .post(format!("{}/api/games/{b}/analysis", api.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(res.headers()["retry-after"], "5");
    let v: Value = res.json().await.unwrap();
    assert_eq!(error_code(&v), "analysis_budget");
    let (status, v) = api.get(&format!("/api/games/{b}/analysis")).await;
    assert_eq!(
        (status, v),
        (StatusCode::NO_CONTENT, Value::Null),
        "no analysis: 204, no body"
    );
    // Once the first is done, the next may start.
    wait_done(&api, &a).await;
    let (status, v) = api
        .post(
            &format!("/api/games/{b}/analysis"),
            None,
            json!({ "movetime_ms": 20 }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    wait_done(&api, &b).await;
    api.stop().await;
}

/// A match: round starts and a resignation are steps without a played
/// move; the record's comments follow the moves of each round.
#[tokio::test]
async fn a_resigned_match_is_analysed_round_by_round() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, created) = api
        .create(json!({ "mode": "hotseat", "match": true, "rules": { "variant": "I", "holes": 4 } }))
        .await;
    let mut g = created["game"].clone();
    // Round 1 to its end, then a move of round 2, then a resignation.
    for k in 0..500 {
        if g["can_next_round"] == true {
            break;
        }
        let legal = g["legal"].as_array().unwrap();
        let mv = legal[k % legal.len()].as_str().unwrap().to_string();
        let (status, v) = api.play(&id, &token, &mv).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        g = v["game"].clone();
    }
    assert_eq!(g["can_next_round"], true, "round 1 ended: {g}");
    let (status, v) = api
        .post(&format!("/api/games/{id}/next-round"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = api.play(&id, &token, &first_legal(&v)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _) = api
        .post(&format!("/api/games/{id}/resign"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let game = api.game(&id).await;
    let history = game["history"].as_array().unwrap();
    let path = format!("/api/games/{id}/analysis");
    let (status, v) = api.post(&path, None, json!({ "movetime_ms": 20 })).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let done = wait_done(&api, &id).await;
    let steps = done["steps"].as_array().unwrap();
    assert_eq!(steps.len(), history.len() + 1);
    for (step, a) in history.iter().zip(&steps[1..]) {
        assert_eq!(a["played"].is_null(), step["kind"] != "move", "{step} {a}");
        if step["kind"] == "move" {
            assert_eq!(a["played"]["token"], step["token"]);
            assert_eq!(a["played"]["side"], step["side"]);
        }
    }
    // The round's start is a fresh position: the end of round 1 is over, the
    // start of round 2 is not.
    let round = history.iter().position(|s| s["kind"] == "round").unwrap() + 1;
    assert!(steps[round - 1]["to_move"].is_null());
    assert!(!steps[round]["to_move"].is_null());
    // The record: the first round's and the second round's moves are commented.
    let text = api.record(&id).await;
    let round2 = text
        .split("[Round \"2\"]")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let last_move = &steps[history.len() - 1]["played"];
    let line = format!(
        "1. {} {{{}}}",
        last_move["token"].as_str().unwrap(),
        last_move["comment"].as_str().unwrap()
    );
    assert!(round2.contains(&line), "{line} in {round2}");
    assert!(
        text.split("[Round \"2\"]").next().unwrap().contains("\n1. "),
        "{text}"
    );
    api.stop().await;
}
