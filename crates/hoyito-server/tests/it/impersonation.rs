//! A nickname cannot pass for the other player nor for what the page itself
//! calls a player: look-alikes of the other seat's name, the page's words
//! for players in its three languages, mixed-script look-alikes, private-use
//! and unassigned code points are refused at creation, at join and in an
//! imported record, and nothing is stored. Against a real server on
//! loopback.

use hoyito_server::{Rate, ServerLimits, Store};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::{error_code, Api};

/// The invite secret of a new online game's answer.
fn invite_of(created: &Value) -> String {
    let link = created["invite"].as_str().expect("an invite link");
    link.split("invite=").nth(1).expect("a secret").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joining_player_cannot_take_a_name_that_passes_for_another() {
    // Fifteen refused joins from one address: the joins' rate is tested
    // elsewhere (client_limits.rs).
    let limits = ServerLimits {
        join_rate: Rate::OFF,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let (id, south, created) = api.create(json!({ "mode": "online", "name": "Ana" })).await;
    let invite = invite_of(&created);
    let join = |name: &str| {
        let body = json!({ "invite": invite, "name": name });
        let (api, path) = (&api, format!("/api/games/{id}/join"));
        async move { api.post(&path, None, body).await }
    };
    for (name, code) in [
        ("Ana", "name_taken"),
        ("ana", "name_taken"),
        ("\u{410}na", "invalid_name"),                 // Cyrillic А, Latin na
        ("\u{ff21}\u{ff4e}\u{ff41}", "name_taken"),    // fullwidth
        ("\u{1d400}\u{1d427}\u{1d41a}", "name_taken"), // mathematical bold
        ("You", "reserved_name"),
        ("Opponent", "reserved_name"),
        ("Computer (level 10)", "reserved_name"),
        ("Tú", "reserved_name"),
        ("Lòt jwè a", "reserved_name"),
        ("Ana (You)", "reserved_name"),
        ("North", "reserved_name"),
        ("Jean\u{e000}", "invalid_name"),
        ("Jean\u{0378}", "invalid_name"),
    ] {
        let (status, v) = join(name).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, code),
            "{name:?}: {v}"
        );
        assert_eq!(
            api.game(&id).await["status"],
            "waiting",
            "{name:?}: the seat is still free"
        );
    }
    let (_, v) = join("Ana").await;
    assert_eq!(
        v["error"],
        "the nickname looks the same as the other player's, \"Ana\": choose another"
    );
    let (_, v) = join("You").await;
    assert_eq!(
        v["error"],
        "the nickname reads as \"You\", which the page shows for a player: choose another"
    );

    // Real names in one script are welcome.
    let (status, v) = join("Анна").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["names"], json!({ "south": "Ana", "north": "Анна" }));
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&south),
            json!({ "text": "hola Анна" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "chat may mix scripts");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creation_and_import_refuse_names_that_pass_for_another() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let count = || async { api.get("/api/health").await.1["games"].as_u64().unwrap() };
    let before = count().await;
    for (mode, name) in [
        ("online", "You"),
        ("engine", "Computer (level 3)"),
        ("engine", "Computadora (nivel 3)"),
        ("online", "Òdinatè (nivo 3)"),
        ("online", "Opponent (South)"),
    ] {
        let (status, v) = api
            .post("/api/games", None, json!({ "mode": mode, "name": name }))
            .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "reserved_name"),
            "{name:?}: {v}"
        );
    }
    for name in ["محمد", "देवनागरी", "王小明", "Ti Zòrèy", "👩\u{200d}👩\u{200d}👧"]
    {
        let (status, v) = api
            .post("/api/games", None, json!({ "mode": "online", "name": name }))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{name:?}: {v}");
    }
    assert_eq!(count().await, before + 5, "only the real names were stored");

    // A record whose two names look the same is refused.
    let (id, _, created) = api.create(json!({ "mode": "online", "name": "Ana" })).await;
    let invite = invite_of(&created);
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": invite, "name": "Jean" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let record = api
        .http
        .get(format!("{}/api/games/{id}/record", api.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(record.contains("[NorthName \"Jean\"]"), "{record}");
    let before = count().await;
    for (tag, code) in [
        ("[NorthName \"\u{ff21}na\"]", "name_taken"),
        ("[NorthName \"You\"]", "reserved_name"),
    ] {
        let bad = record.replace("[NorthName \"Jean\"]", tag);
        let (status, v) = api
            .post("/api/games/import", None, json!({ "record": bad }))
            .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, code),
            "{tag}: {v}"
        );
    }
    assert_eq!(count().await, before, "nothing stored");
    api.stop().await;
}
