//! Names and chat messages with invisible or look-alike characters are
//! refused and store nothing; emoji sequences are welcome. Against a real
//! server on loopback.

use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{error_code, Api};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invisible_characters_are_refused_in_names_and_chat_and_emoji_are_not() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let count = || async { api.get("/api/health").await.1["games"].as_u64().unwrap() };
    let before = count().await;
    for name in [
        "An\u{2060}a",
        "\u{3164}",
        "Ana\u{e0041}",
        "a\u{200d}b",
        "x\u{fe0f}",
    ] {
        let (status, v) = api
            .post("/api/games", None, json!({ "mode": "online", "name": name }))
            .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_name"),
            "{name:?}: {v}"
        );
        assert!(
            v["error"].as_str().unwrap().starts_with("names may not contain"),
            "{v}"
        );
    }
    let (_, v) = api
        .post(
            "/api/games",
            None,
            json!({ "mode": "online", "name": "An\u{2060}a" }),
        )
        .await;
    assert_eq!(
        v["error"],
        "names may not contain invisible characters such as U+2060"
    );
    assert_eq!(count().await, before, "nothing stored");

    // Emoji joined by U+200D, and with U+FE0F, are names like any other.
    let (id, south, created) = api
        .create(json!({ "mode": "online", "name": "👩\u{200d}💻 Ana" }))
        .await;
    assert_eq!(created["game"]["names"]["south"], "👩\u{200d}💻 Ana");
    let invite = created["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let join = |name: &'static str| {
        let (api, id, invite) = (&api, id.clone(), invite.clone());
        async move {
            api.post(
                &format!("/api/games/{id}/join"),
                None,
                json!({ "invite": invite, "name": name }),
            )
            .await
        }
    };
    let (status, v) = join("Je\u{200b}an").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_name"),
        "{v}"
    );
    assert_eq!(api.game(&id).await["status"], "waiting", "the seat is still free");
    let (status, v) = join("❤\u{fe0f} Jean").await;
    assert_eq!(status, StatusCode::OK, "{v}");

    let chat = format!("/api/games/{id}/chat");
    for text in [
        "hola\u{2060}",
        "\u{2800}",
        "Z\u{0351}\u{0360}\u{036e}\u{0344}algo",
        "\u{202e}olleh",
    ] {
        let (status, v) = api.post(&chat, Some(&south), json!({ "text": text })).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_chat"),
            "{text:?}: {v}"
        );
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("messages may not contain"),
            "{v}"
        );
    }
    let (_, v) = api.get_with(&chat, Some(&south)).await;
    assert_eq!(v["messages"], json!([]), "nothing stored");
    let text = "¡hola! 👨\u{200d}👩\u{200d}👧 ❤\u{fe0f}\nnew line";
    let (status, v) = api.post(&chat, Some(&south), json!({ "text": text })).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, v) = api.get_with(&chat, Some(&south)).await;
    assert_eq!(v["messages"][0]["text"], text);
    api.stop().await;
}
