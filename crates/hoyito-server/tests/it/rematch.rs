//! Rematches (`POST /api/games/{id}/rematch`) against a real server on
//! loopback: both players' requests meet in one game with the sides
//! swapped, the opponent is told of the offer, and every refused request
//! changes nothing.

use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::{error_code, Api};

impl Api {
    async fn rematch(&self, id: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.post(&format!("/api/games/{id}/rematch"), token, json!({}))
            .await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_players_meet_in_one_rematch_with_the_sides_swapped() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, ana, created) = api
        .create(
            json!({ "mode": "online", "side": "south", "name": "Ana", "match": true,
                        "clock": { "initial": 300, "increment": 3 }, "rules": { "variant": "II" } }),
        )
        .await;
    let jean = api.join_invited(&created, "Jean").await;

    // Not while the game goes on; never without a seat.
    let (status, v) = api.rematch(&id, Some(&ana)).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "game_not_over"),
        "{v}"
    );
    let (status, _) = api
        .post(&format!("/api/games/{id}/resign"), Some(&jean), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    for bad in [None, Some("not-a-seat")] {
        let (status, v) = api.rematch(&id, bad).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    }
    assert_eq!(
        api.game(&id).await["rematch"],
        Value::Null,
        "refused requests change nothing"
    );

    // Ana asks: a new game, Ana now North, Jean's seat kept for him.
    let (status, a) = api.rematch(&id, Some(&ana)).await;
    assert_eq!(status, StatusCode::CREATED, "{a}");
    let new_id = a["id"].as_str().unwrap().to_string();
    assert_ne!(new_id, id);
    assert_eq!(a["seat"], "north");
    assert_eq!(a["game"]["status"], "waiting");
    assert_eq!(a["game"]["names"]["north"], "Ana");
    assert_eq!(a["game"]["names"]["south"], "Jean");
    assert_eq!(a["game"]["match"], true);
    assert_eq!(a["game"]["clock"]["initial"], 300);
    // The old game tells Jean.
    let old = api.game(&id).await;
    assert_eq!(
        old["rematch"],
        json!({ "id": new_id, "by": "south", "accepted": false })
    );
    // Nobody takes Jean's seat by the lobby or an invite.
    let (status, v) = api
        .post(&format!("/api/games/{new_id}/join"), None, json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    // Asking twice is refused and changes nothing.
    let (status, v) = api.rematch(&id, Some(&ana)).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "rematch_asked"),
        "{v}"
    );

    // Jean accepts by asking too: the same game, South.
    let (status, j) = api.rematch(&id, Some(&jean)).await;
    assert_eq!(status, StatusCode::CREATED, "{j}");
    assert_eq!(j["id"], new_id.as_str());
    assert_eq!(j["seat"], "south");
    assert_eq!(j["game"]["status"], "playing");
    assert_eq!(api.game(&id).await["rematch"]["accepted"], true);
    // Each player has a new token for the new seat: the old ones hold none.
    let (ana2, jean2) = (a["token"].as_str().unwrap(), j["token"].as_str().unwrap());
    let mv = j["game"]["legal"][0].as_str().unwrap().to_string();
    let (status, v) = api.play(&new_id, &ana, &mv).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let (status, v) = api.play(&new_id, ana2, &mv).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "not_your_turn"),
        "{v}"
    );
    let (status, v) = api.play(&new_id, jean2, &mv).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = api.rematch(&id, Some(&jean)).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "rematch_asked"),
        "{v}"
    );
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_one_device_has_no_server_rematch() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "I" } }))
        .await;
    let (status, _) = api
        .post(&format!("/api/games/{id}/resign"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = api.rematch(&id, Some(&token)).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "not_online"),
        "{v}"
    );
    api.stop().await;
}
