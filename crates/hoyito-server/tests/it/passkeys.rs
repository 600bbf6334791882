//! Passkeys against a real server on loopback, answered by a software
//! authenticator (tests/common/passkey.rs) as a browser page of
//! `http://localhost:PORT` would: signing up with a passkey (no password,
//! recovery codes), signing in with it (with and without the username),
//! adding and removing passkeys (never the last way to sign in), deleting
//! a passkey-only account with a passkey; and the refusals: an unknown,
//! used or expired ceremony, an answer signed for another origin or RP id,
//! another site's page, an IP address, a passkey registered twice, the
//! limit per username.

use std::time::Duration;

use hoyito_server::{Rate, ServerLimits, Store};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::passkey::{Page, SoftKey};
use crate::common::{error_code, Api};

/// A server on loopback with `limits`, and a page of it.
async fn site(limits: ServerLimits) -> (Api, Page) {
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let page = Page::new(&api.base);
    (api, page)
}

/// No limits per address: the tests sign in many times from one.
fn unlimited() -> ServerLimits {
    ServerLimits {
        sign_in_rate: Rate::OFF,
        ..ServerLimits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_and_in_with_a_passkey_add_and_remove_passkeys() {
    let (api, mut page) = site(unlimited()).await;
    let mut key = SoftKey::new();

    // The options: the relying party is the page's host, the user handle
    // is the account's, and the device is asked to keep the passkey.
    let (status, start) = page
        .call(
            "POST",
            "/api/passkeys/register/start",
            Some(json!({ "username": "Ana" })),
        )
        .await;
    assert_eq!(status, 200, "{start}");
    let options = &start["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], "Ana");
    assert_eq!(options["authenticatorSelection"]["residentKey"], "preferred");
    assert_eq!(options["authenticatorSelection"]["userVerification"], "required");
    assert_eq!(start["ceremony"].as_str().unwrap().len(), 64);

    // Sign up: the account has a passkey, no password, and recovery codes.
    let up = page.sign_up(&mut key, "Ana").await;
    assert_eq!(up["recovery_codes"].as_array().unwrap().len(), 8, "{up}");
    assert_eq!(up["account"]["username"], "Ana");
    assert_eq!(up["account"]["password"], false);
    assert_eq!(up["account"]["passkeys"], 1);
    let (_, me) = page.call("GET", "/api/account", None).await;
    assert_eq!(me["account"]["username"], "Ana");
    // No password signs in to it.
    let (status, body) = api
        .post("/api/session", None, json!({ "username": "Ana", "password": "" }))
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNAUTHORIZED, "bad_credentials")
    );
    // The username is taken, whatever signs up with it.
    let (status, body) = page
        .call(
            "POST",
            "/api/passkeys/register/start",
            Some(json!({ "username": "ANA" })),
        )
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::CONFLICT, "username_taken")
    );

    // Sign out, and in with the passkey: the device finds it by itself …
    page.call("DELETE", "/api/session", None).await;
    assert_eq!(page.cookie, None);
    let (status, body) = page.sign_in(&mut key, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["account"]["username"], "Ana");
    assert!(page.cookie.is_some());
    // … or the username names the account, and its passkeys are offered.
    let mut other = Page::new(&api.base);
    let (status, start) = other
        .call(
            "POST",
            "/api/session/passkey/start",
            Some(json!({ "username": "ana" })),
        )
        .await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(
        start["options"]["publicKey"]["allowCredentials"],
        json!([{ "type": "public-key", "id": key.id() }])
    );
    assert_eq!(start["options"]["publicKey"]["rpId"], "localhost");
    assert_eq!(start["options"]["publicKey"]["userVerification"], "required");
    let credential = key.sign_in(&start["options"], &other.origin);
    let (status, body) = other
        .call(
            "POST",
            "/api/session/passkey/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // The stored signature counter went up with each sign-in: a copy of the
    // passkey that answers with an older count is refused.
    let counted = key.counter;
    key.counter = 0;
    let (status, body) = other.sign_in(&mut key, None).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNAUTHORIZED, "passkey_refused"),
        "{body}"
    );
    key.counter = counted;
    // A username without passkeys, or without an account.
    for name in ["Nobody", ""] {
        let (status, body) = other
            .call(
                "POST",
                "/api/session/passkey/start",
                Some(json!({ "username": name })),
            )
            .await;
        assert_eq!(
            (status, error_code(&body)),
            (StatusCode::UNAUTHORIZED, "no_passkey"),
            "{name:?}"
        );
    }

    // A second passkey: the first is excluded from its options.
    let mut second = SoftKey::new();
    let (status, start) = page
        .call("POST", "/api/passkeys/register/start", Some(json!({})))
        .await;
    assert_eq!(status, 200, "{start}");
    let excluded: Vec<&str> = start["options"]["publicKey"]["excludeCredentials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(excluded, [key.id()]);
    let credential = second.register(&start["options"], &page.origin);
    let (status, added) = page
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(status, 201, "{added}");
    assert_eq!(added["account"]["passkeys"], 2);
    let (status, listed) = page.call("GET", "/api/account/passkeys", None).await;
    assert_eq!(status, 200);
    let listed = listed["passkeys"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 2);
    assert!(
        listed[0]["last_used_ms"].as_i64().is_some(),
        "the first has signed in: {listed:?}"
    );
    assert_eq!(listed[1]["id"], added["passkey"]["id"]);
    assert_eq!(listed[1]["last_used_ms"], Value::Null);
    let (status, body) = page.sign_in(&mut second, Some("Ana")).await;
    assert_eq!(status, 200, "{body}");

    // A passkey registered to one account cannot sign up another (and
    // nothing of that account is stored).
    let mut bea = Page::new(&api.base);
    let (_, start) = bea
        .call(
            "POST",
            "/api/passkeys/register/start",
            Some(json!({ "username": "Bea" })),
        )
        .await;
    let handle = key.user_handle.clone();
    let credential = key.register(&start["options"], &bea.origin);
    key.user_handle = handle;
    let (status, body) = bea
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::CONFLICT, "passkey_taken")
    );
    assert_eq!(bea.cookie, None);
    bea.sign_up(&mut SoftKey::new(), "Bea").await;
    // Another account's passkey is not removed from this one.
    let first_id = listed[0]["id"].as_str().unwrap();
    let (status, body) = bea
        .call("DELETE", &format!("/api/account/passkeys/{first_id}"), None)
        .await;
    assert_eq!((status, error_code(&body)), (StatusCode::NOT_FOUND, "not_found"));

    // Removing: the second goes; the first, the last way to sign in, stays.
    let second_id = listed[1]["id"].as_str().unwrap();
    let (status, body) = page
        .call("DELETE", &format!("/api/account/passkeys/{second_id}"), None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["account"]["passkeys"], 1);
    let (status, body) = page
        .call("DELETE", &format!("/api/account/passkeys/{first_id}"), None)
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::CONFLICT, "last_sign_in"),
        "{body}"
    );
    let (status, body) = page.sign_in(&mut second, None).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNAUTHORIZED, "passkey_refused"),
        "a removed passkey signs nobody in: {body}"
    );

    // An account with a password may remove its only passkey.
    let mut cy = Page::new(&api.base);
    let (status, _) = cy
        .call(
            "POST",
            "/api/account",
            Some(json!({ "username": "Cy", "password": "tambor-lluvia-semilla-42" })),
        )
        .await;
    assert_eq!(status, 201);
    let mut cy_key = SoftKey::new();
    let (_, start) = cy
        .call("POST", "/api/passkeys/register/start", Some(json!({})))
        .await;
    let credential = cy_key.register(&start["options"], &cy.origin);
    let (status, added) = cy
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(
        (status, added["account"]["password"].clone()),
        (StatusCode::CREATED, json!(true))
    );
    let id = added["passkey"]["id"].as_str().unwrap();
    let (status, body) = cy
        .call("DELETE", &format!("/api/account/passkeys/{id}"), None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["account"]["passkeys"], 0);

    // Deleting a passkey-only account: a passkey answers for it.
    let (status, body) = page
        .call("DELETE", "/api/account", Some(json!({ "password": "" })))
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNAUTHORIZED, "bad_credentials")
    );
    let (_, start) = page
        .call(
            "POST",
            "/api/session/passkey/start",
            Some(json!({ "username": "Ana" })),
        )
        .await;
    let credential = key.sign_in(&start["options"], &page.origin);
    let (status, body) = page
        .call(
            "DELETE",
            "/api/account",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(page.cookie, None);
    let (status, body) = Page::new(&api.base).sign_in(&mut key, None).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNAUTHORIZED, "passkey_refused"),
        "the account's passkeys went with it: {body}"
    );
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ceremonies_that_are_unknown_used_expired_or_for_another_origin_are_refused() {
    let expired = |body: &Value| (error_code(body) == "challenge_expired").then_some(());
    let mut key = SoftKey::new();

    // Expired: the answer comes after the ceremony's time.
    let (quick, mut page) = site(ServerLimits {
        passkey_timeout: Duration::from_millis(200),
        ..unlimited()
    })
    .await;
    let (_, start) = page
        .call(
            "POST",
            "/api/passkeys/register/start",
            Some(json!({ "username": "Ana" })),
        )
        .await;
    let late = key.register(&start["options"], &page.origin);
    // Sent once the ceremony's own deadline has passed on this machine's clock.
    let expires_ms = start["expires_ms"].as_i64().expect("the ceremony's deadline");
    while hoyito_server::store::now() <= expires_ms {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (status, body) = page
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": late })),
        )
        .await;
    assert_eq!(
        (status, expired(&body)),
        (StatusCode::BAD_REQUEST, Some(())),
        "{body}"
    );
    assert_eq!(page.cookie, None, "no account was made");
    quick.stop().await;

    let limits = ServerLimits {
        allowed_origins: vec!["http://friends.localhost:9".into()],
        ..unlimited()
    };
    let (api, mut page) = site(limits).await;

    // Unknown.
    let credential = json!({
        "id": "AA", "rawId": "AA", "type": "public-key",
        "response": { "authenticatorData": "AA", "clientDataJSON": "AA", "signature": "AA" },
    });
    let (status, body) = page
        .call(
            "POST",
            "/api/session/passkey/finish",
            Some(json!({ "ceremony": "ab".repeat(32), "credential": credential })),
        )
        .await;
    assert_eq!(
        (status, expired(&body)),
        (StatusCode::BAD_REQUEST, Some(())),
        "{body}"
    );

    // Signed for another origin (a look-alike site relaying the challenge):
    // refused, and the ceremony is used up.
    let (_, start) = page
        .call(
            "POST",
            "/api/passkeys/register/start",
            Some(json!({ "username": "Ana" })),
        )
        .await;
    let port = page.host.rsplit(':').next().unwrap().to_string();
    let phished = key.register(&start["options"], &format!("http://evil.localhost:{port}"));
    let (status, body) = page
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": phished })),
        )
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "passkey_refused"),
        "{body}"
    );
    let honest = key.register(&start["options"], &page.origin);
    let (status, body) = page
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": honest })),
        )
        .await;
    assert_eq!(
        (status, expired(&body)),
        (StatusCode::BAD_REQUEST, Some(())),
        "used once: {body}"
    );

    // The account, made properly; then a sign-in signed for another origin,
    // and one for another RP id, are refused.
    page.sign_up(&mut key, "Ana").await;
    for (origin, rp_id) in [
        (format!("http://evil.localhost:{port}"), "localhost"),
        (page.origin.clone(), "evil.localhost"),
    ] {
        let (_, start) = page
            .call("POST", "/api/session/passkey/start", Some(json!({})))
            .await;
        let mut options = start["options"].clone();
        options["publicKey"]["rpId"] = json!(rp_id);
        let credential = key.sign_in(&options, &origin);
        let (status, body) = page
            .call(
                "POST",
                "/api/session/passkey/finish",
                Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
            )
            .await;
        assert_eq!(
            (status, error_code(&body)),
            (StatusCode::UNAUTHORIZED, "passkey_refused"),
            "{origin} {rp_id}: {body}"
        );
    }
    // A sign-in ceremony does not register, nor a registration sign in.
    let (_, start) = page
        .call("POST", "/api/session/passkey/start", Some(json!({})))
        .await;
    let credential = SoftKey::new().register(
        &json!({ "publicKey": {
            "rp": { "id": "localhost" }, "user": { "id": "AA" },
            "challenge": start["options"]["publicKey"]["challenge"],
        } }),
        &page.origin,
    );
    let (status, body) = page
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(
        (status, expired(&body)),
        (StatusCode::BAD_REQUEST, Some(())),
        "{body}"
    );

    // Pages of other sites: refused before anything starts, even one of an
    // origin allowed to open the game's WebSockets (passkeys are bound to
    // this site's own).
    let mut evil = Page::new(&api.base);
    evil.origin = "http://evil.example".into();
    let (status, body) = evil
        .call("POST", "/api/session/passkey/start", Some(json!({})))
        .await;
    assert_eq!((status, error_code(&body)), (StatusCode::FORBIDDEN, "cross_site"));
    let mut friend = Page::new(&api.base);
    friend.origin = "http://friends.localhost:9".into();
    let (status, body) = friend
        .call("POST", "/api/session/passkey/start", Some(json!({})))
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::FORBIDDEN, "wrong_origin")
    );
    // An IP address has no passkeys.
    let mut ip = Page::at(&api.base, api.base.trim_start_matches("http://"));
    let (status, body) = ip
        .call("POST", "/api/session/passkey/start", Some(json!({})))
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, "passkeys_unavailable"),
        "{body}"
    );
    // Adding a passkey needs a session.
    let (status, body) = Page::new(&api.base)
        .call("POST", "/api/passkeys/register/start", Some(json!({})))
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::UNAUTHORIZED, "signed_out")
    );
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passkey_sign_ins_are_limited_per_username_and_address() {
    let limits = ServerLimits {
        account_sign_in_rate: Rate::per_minute(3, 4),
        sign_in_rate: Rate::per_minute(20, 12),
        ..ServerLimits::default()
    };
    let (api, mut page) = site(limits).await;
    let mut key = SoftKey::new();
    page.sign_up(&mut key, "Ana").await; // 2 requests of the address's 12
    let start = |name: &str| json!({ "username": name });
    for _ in 0..4 {
        let (status, _) = page
            .call("POST", "/api/session/passkey/start", Some(start("ana")))
            .await;
        assert_eq!(status, 200);
    }
    let (status, body) = page
        .call("POST", "/api/session/passkey/start", Some(start("ANA")))
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "per username: {body}");
    // Other names go on, until the address's own limit.
    let mut codes = Vec::new();
    for i in 0..6 {
        let (status, _) = page
            .call(
                "POST",
                "/api/session/passkey/start",
                Some(start(&format!("Bea{i}"))),
            )
            .await;
        codes.push(status.as_u16());
    }
    assert_eq!(codes, [401, 401, 401, 401, 401, 429], "per address: {codes:?}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_the_public_origin_is_the_relying_party() {
    let limits = ServerLimits {
        public_origin: Some(hoyito_server::passkeys::parse_public_origin("https://hoyito.example/").unwrap()),
        secure_cookies: true,
        ..unlimited()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    // The proxy passes the site's Host on; the page is https://hoyito.example.
    let mut page = Page::at(&api.base, "hoyito.example");
    page.origin = "https://hoyito.example".into();
    let mut key = SoftKey::new();
    let up = page.sign_up(&mut key, "Ana").await;
    assert_eq!(up["account"]["passkeys"], 1);
    assert_eq!(key.rp_id.as_deref(), Some("hoyito.example"));
    let (status, body) = page.sign_in(&mut key, None).await;
    assert_eq!(status, 200, "{body}");
    // A page of another origin, though the proxy gives it the same Host.
    let mut other = Page::at(&api.base, "hoyito.example");
    other.origin = "http://hoyito.example".into();
    let (status, body) = other
        .call("POST", "/api/session/passkey/start", Some(json!({})))
        .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::FORBIDDEN, "wrong_origin"),
        "{body}"
    );
    api.stop().await;
}
