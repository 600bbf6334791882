//! `GET /api/tablebase`: a position's exact value and every move's from the
//! server's tables, the errors outside them, and the default tables built
//! in the background.

use crate::common::{error_code, eventually, Api};
use hoyito_core::{Position, Rules, Variant};
use hoyito_server::ai::Tablebases;
use hoyito_server::tables::TableSet;
use hoyito_server::{ServerLimits, Store};
use hoyito_tablebase::Tablebase;
use reqwest::StatusCode;

fn query(variant: &str, holes: u8, position: &str) -> String {
    let position: String = position
        .bytes()
        .map(|b| match b {
            b' ' => "%20".to_string(),
            b',' => "%2C".to_string(),
            b'/' => "%2F".to_string(),
            b => (b as char).to_string(),
        })
        .collect();
    format!("/api/tablebase?variant={variant}&holes={holes}&position={position}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_in_the_tables_gets_its_exact_value_and_every_moves() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Rules::new(Variant::II, 4).unwrap();
    let tb = Tablebase::build(rules, dir.path(), 12, Default::default(), |_| {}).unwrap();
    let api = Api::start_tables(
        Store::in_memory().unwrap(),
        ServerLimits::default(),
        Some(Tablebases::new(dir.path().to_path_buf())),
    )
    .await;
    for text in [
        "3,0,1,2/2,4,0,0 s 8-12",
        "0,5,2,1/3,0,0,1 n 12-8",
        "1,1,2,0/0,2,0,2 s 12-12",
    ] {
        let pos = Position::from_notation(rules, text).unwrap();
        let (status, v) = api.get(&query("II", 4, text)).await;
        assert_eq!(status, StatusCode::OK, "{text}: {v}");
        assert_eq!(v["value"], tb.value(&pos).unwrap(), "{text}");
        assert_eq!(v["seeds"], pos.in_play() as u64);
        let moves: Vec<(String, i64)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["value"].as_i64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(String, i64)> = tb
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .map(|(m, v)| (pos.move_token(m).to_string(), v as i64))
            .collect();
        assert_eq!(moves, want, "{text}");
        assert!(!moves.is_empty());
    }

    // Above the tables (16 seeds, tables to 12): the exact search proves
    // the values the tables built to 16 hold.
    let deeper = tempfile::tempdir().unwrap();
    let tb16 = Tablebase::build(rules, deeper.path(), 16, Default::default(), |_| {}).unwrap();
    for text in ["4,4,4,0/0,2,1,1 s 8-8", "0,3,1,2/5,0,4,1 n 2-6"] {
        let pos = Position::from_notation(rules, text).unwrap();
        assert!(pos.in_play() > 12, "{text}");
        let (status, v) = api.get(&query("II", 4, text)).await;
        assert_eq!(status, StatusCode::OK, "{text}: {v}");
        assert_eq!(
            (v["proved"].as_str(), &v["value"]),
            (Some("search"), &serde_json::json!(tb16.value(&pos).unwrap())),
            "{text}"
        );
        let want: Vec<serde_json::Value> = tb16
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .map(|(m, v)| serde_json::json!({ "move": pos.move_token(m).to_string(), "value": v }))
            .collect();
        assert_eq!(v["moves"], serde_json::json!(want), "{text}");
    }
    let (_, v) = api.get(&query("II", 4, "3,0,1,2/2,4,0,0 s 8-12")).await;
    assert_eq!(v["proved"].as_str(), Some("tables"), "{v}");
    // Other rules.
    let (status, v) = api.get(&query("I", 4, "3,0,1,2/2,4,0,0 s 8-12")).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "not_in_tablebases"),
        "{v}"
    );
    // Bad requests say what was wrong.
    let (status, v) = api.get(&query("II", 4, "3,0,1/2,4,0,0 s 8-12")).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_position"),
        "{v}"
    );
    let (status, v) = api.get("/api/tablebase?variant=IV&position=x").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_rules"),
        "{v}"
    );
    let (status, v) = api.get("/api/tablebase?variant=II&holes=4").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_tables_are_built_in_the_background_and_then_answer() {
    let dir = tempfile::tempdir().unwrap();
    let small = TableSet {
        rules: Rules::new(Variant::III, 4).unwrap(),
        max_seeds: 8,
    };
    // A set too large to be built before the first request.
    let large = TableSet {
        rules: Rules::standard(Variant::II),
        max_seeds: 16,
    };
    let api = Api::start_tables(
        Store::in_memory().unwrap(),
        ServerLimits::default(),
        Some(Tablebases::with_plan(
            dir.path().to_path_buf(),
            vec![small, large],
        )),
    )
    .await;
    // The 2x6 tables are not there yet: the answer says so, and when to ask again.
    let res = api
        .http
        .get(format!(
            "{}{}",
            api.base,
            query("II", 6, "2,2,2,2,2,2/2,0,0,0,0,2 s 16-16")
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(res.headers().get("retry-after").is_some());
    let v: serde_json::Value = res.json().await.unwrap();
    assert_eq!(error_code(&v), "tablebase_building", "{v}");
    // The small set is answered once built.
    let v = eventually("the 2x4 tables of Hoyito III are built", || async {
        let (status, v) = api.get(&query("III", 4, "2,0,1,1/0,2,0,2 s 12-12")).await;
        (status == StatusCode::OK).then_some(v)
    })
    .await;
    assert!(v["value"].is_i64(), "{v}");
    api.stop().await;
}
