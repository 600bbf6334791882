//! `GET /api/tables` and the files it lists: the default tables' compact
//! layer files for download, immutable, not offered while being built, and
//! answering, once loaded from the bytes downloaded, what `GET
//! /api/tablebase` answers.

use crate::common::{error_code, eventually, Api};
use hoyito_core::{Position, Rules, Variant};
use hoyito_server::ai::Tablebases;
use hoyito_server::tables::TableSet;
use hoyito_server::{ServerLimits, Store};
use hoyito_tablebase::compact::DEFAULT_CACHE_BYTES;
use hoyito_tablebase::Tablebase;
use reqwest::StatusCode;
use serde_json::Value;

/// The set of `variant` on `holes` in a manifest.
fn set<'a>(manifest: &'a Value, variant: &str, holes: u64) -> &'a Value {
    manifest["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["variant"] == variant && s["holes"] == holes)
        .unwrap_or_else(|| panic!("no {variant} 2x{holes} in {manifest}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_sets_are_offered_file_by_file_immutable_and_load_on_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Rules::new(Variant::III, 4).unwrap();
    // A small set, then one too large to be built before the first request.
    let small = TableSet { rules, max_seeds: 8 };
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
    let (status, first) = api.get("/api/tables").await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["sets"].as_array().unwrap().len(), 6, "{first}");
    let building = set(&first, "II", 6);
    assert_eq!(
        (&building["ready"], &building["max_seeds"], &building["bytes"]),
        (&Value::Bool(false), &Value::from(16), &Value::from(0))
    );
    assert_eq!(building["files"], serde_json::json!([]));
    assert_eq!(building["building"], true);
    // Not in this server's plan and not on disk: not ready, not being built.
    assert_eq!(
        (&set(&first, "I", 4)["ready"], &set(&first, "I", 4)["building"]),
        (&Value::Bool(false), &Value::Bool(false))
    );

    let manifest = eventually("the 2x4 tables of Hoyito III are offered", || async {
        let (_, v) = api.get("/api/tables").await;
        (set(&v, "III", 4)["ready"] == true).then_some(v)
    })
    .await;
    let three = set(&manifest, "III", 4);
    assert_eq!(
        (&three["max_seeds"], &three["building"]),
        (&Value::from(8), &Value::Bool(false))
    );
    let files = three["files"].as_array().unwrap();
    assert_eq!(
        files
            .iter()
            .map(|f| f["seeds"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [4, 8]
    );
    let sum: u64 = files.iter().map(|f| f["bytes"].as_u64().unwrap()).sum();
    assert_eq!(three["bytes"], sum);

    let mut tables = Tablebase::in_memory(rules, 8, DEFAULT_CACHE_BYTES).unwrap();
    for f in files {
        let url = f["url"].as_str().unwrap();
        assert!(url.starts_with("/api/tables/III-2x4/seeds-00"), "{url}");
        let res = api.http.get(format!("{}{url}", api.base)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{url}");
        let h = res.headers().clone();
        assert_eq!(h["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(h["content-type"], "application/octet-stream");
        let etag = h["etag"].to_str().unwrap().to_string();
        let body = res.bytes().await.unwrap();
        assert_eq!(body.len() as u64, f["bytes"].as_u64().unwrap(), "{url}");
        // Asked again with its ETag: not sent again.
        let again = api
            .http
            .get(format!("{}{url}", api.base))
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{url}");
        let seeds = f["seeds"].as_u64().unwrap() as u32;
        tables.insert_compact(seeds, body.to_vec()).unwrap();
    }
    // The bytes downloaded answer what the server answers.
    for text in ["2,0,1,1/0,2,0,2 s 12-12", "1,0,0,3/0,0,2,2 n 10-14"] {
        let pos = Position::from_notation(rules, text).unwrap();
        let q = text.replace(' ', "%20").replace(',', "%2C").replace('/', "%2F");
        let (status, v) = api
            .get(&format!("/api/tablebase?variant=III&holes=4&position={q}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["value"], tables.value(&pos).unwrap(), "{text}");
        let moves: Vec<(String, i64)> = tables
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .map(|(m, v)| (pos.move_token(m).to_string(), v as i64))
            .collect();
        let served: Vec<(String, i64)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].as_str().unwrap().into(), m["value"].as_i64().unwrap()))
            .collect();
        assert_eq!(served, moves, "{text}");
    }

    // Unknown, mistyped or not yet built: 404 with a JSON error.
    let url = files[1]["url"].as_str().unwrap();
    // The same name with another checksum (its last digit changed).
    let last = if url.ends_with("0.htc") { '1' } else { '0' };
    for bad in [
        format!("{}{last}.htc", &url[..url.len() - 5]),
        "/api/tables/III-2x4/seeds-012-0000000000000000.htc".to_string(),
        "/api/tables/II-2x6/seeds-004-0000000000000000.htc".to_string(),
        "/api/tables/nothing/here".to_string(),
    ] {
        let (status, v) = api.get(&bad).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{bad}: {v}");
        assert_eq!(error_code(&v), "unknown_table_file", "{bad}");
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_tables_offers_none() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (status, v) = api.get("/api/tables").await;
    assert_eq!((status, &v), (StatusCode::OK, &serde_json::json!({"sets": []})));
    let (status, v) = api.get("/api/tables/II-2x4/seeds-004-0000000000000000.htc").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::NOT_FOUND, "unknown_table_file")
    );
    api.stop().await;
}
