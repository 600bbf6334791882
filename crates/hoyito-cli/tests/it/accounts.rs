//! Accounts and sessions against `hoyito serve` as a real process on
//! loopback: the session cookie's flags, no session fixation, writes from
//! other sites refused, brute force against one account and from one
//! address limited, the same answer for a wrong password and an unknown
//! name, a deleted account's sessions gone (its games kept, anonymous), a
//! seat handed to the account's other device, and no password, recovery
//! code or session token in the database or the log; the ratings API of
//! a new player, and its errors for unknown players and pools.

mod ratings;

use std::process::Stdio;

use crate::process::{request_with, serve, serve_to, Answer, TempDir};
use serde_json::{json, Value};

const PASSWORD: &str = "tambor-lluvia-semilla-42";

/// The session token a `Set-Cookie` answer gives, and the whole header.
fn session_cookie(a: &Answer) -> (String, String) {
    let set = a
        .header("set-cookie")
        .unwrap_or_else(|| panic!("no Set-Cookie in {a:?}"))
        .to_string();
    let token = set
        .strip_prefix("hoyito_session=")
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no session cookie in {set:?}"))
        .to_string();
    (token, set)
}

/// The headers of a request from the server's own page with session `token`.
fn own_page(cookie: &str) -> Vec<(&str, &str)> {
    vec![("Cookie", cookie), ("Sec-Fetch-Site", "same-origin")]
}

/// The username `GET /api/account` answers for `cookie` (`None`: signed out).
fn who(addr: &str, cookie: &str) -> Option<String> {
    let a = request_with(addr, "GET", "/api/account", &[("Cookie", cookie)], None);
    assert_eq!(a.status, 200, "{a:?}");
    a.json()["account"]["username"].as_str().map(str::to_string)
}

fn credentials(username: &str, password: &str) -> Value {
    json!({ "username": username, "password": password })
}

#[test]
fn sessions_resist_fixation_cross_site_writes_guessing_and_outlive_nothing() {
    let dir = TempDir::new("accounts");
    let log_path = dir.0.join("serve.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let db = dir.0.join("hoyito.db");
    let server = serve_to(
        &dir.0,
        db.as_os_str(),
        &[
            "--behind-tls",
            "--account-sign-in-rate",
            "0",
            "--sign-in-rate",
            "0",
        ],
        &[("HOYITO_LOG", "debug")],
        Stdio::from(log),
    );
    let addr = server.addr.as_str();

    // Sign up: a weak password is refused, nothing stored.
    let weak = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("Ana", "password1")),
    );
    assert_eq!(
        (weak.status, weak.json()["code"].as_str()),
        (422, Some("weak_password")),
        "{weak:?}"
    );
    let up = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("Ana", PASSWORD)),
    );
    assert_eq!(up.status, 201, "{up:?}");
    let codes: Vec<String> = serde_json::from_value(up.json()["recovery_codes"].clone()).unwrap();
    assert_eq!(codes.len(), 8);
    // The cookie: HttpOnly, SameSite, the whole site, Secure behind TLS.
    let (first, set) = session_cookie(&up);
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/", "Secure"] {
        assert!(set.split("; ").any(|f| f == flag), "{flag} missing from {set:?}");
    }
    let first_cookie = format!("hoyito_session={first}");
    assert_eq!(who(addr, &first_cookie).as_deref(), Some("Ana"));
    // A look-alike of the name is taken (in full-width letters), and a name
    // mixing look-alike scripts is no name ("Аna" with a Cyrillic А).
    let mixed = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("\u{410}na", PASSWORD)),
    );
    assert_eq!(
        (mixed.status, mixed.json()["code"].as_str()),
        (422, Some("invalid_name"))
    );
    let alike = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("\u{ff21}\u{ff4e}\u{ff41}", PASSWORD)),
    );
    assert_eq!(
        (alike.status, alike.json()["code"].as_str()),
        (409, Some("username_taken"))
    );

    // Fixation: a session id planted before sign-in is never the one used,
    // and the session the browser had ends.
    let planted = format!("hoyito_session={}", "ab".repeat(32));
    let a = request_with(
        addr,
        "POST",
        "/api/session",
        &[("Cookie", &planted)],
        Some(&credentials("ana", PASSWORD)),
    );
    assert_eq!(a.status, 200, "{a:?}");
    let (second, _) = session_cookie(&a);
    assert_ne!(second, "ab".repeat(32));
    assert_eq!(who(addr, &planted), None);
    let b = request_with(
        addr,
        "POST",
        "/api/session",
        &[("Cookie", &first_cookie)],
        Some(&credentials("ANA", PASSWORD)),
    );
    let (third, _) = session_cookie(&b);
    assert_ne!(third, first);
    assert_eq!(who(addr, &first_cookie), None, "the session signed in over ended");
    let cookie = format!("hoyito_session={third}");
    let second_cookie = format!("hoyito_session={second}");
    assert_eq!(who(addr, &cookie).as_deref(), Some("Ana"));

    // Writes a cookie authorises are refused from other sites, and change nothing.
    for (method, path, body) in [
        ("DELETE", "/api/sessions", None),
        ("DELETE", "/api/session", None),
        ("DELETE", "/api/account", Some(json!({ "password": PASSWORD }))),
        ("POST", "/api/games", Some(json!({ "mode": "online" }))),
    ] {
        for from in [
            vec![("Cookie", cookie.as_str()), ("Origin", "https://evil.example")],
            vec![("Cookie", cookie.as_str()), ("Sec-Fetch-Site", "cross-site")],
        ] {
            let a = request_with(addr, method, path, &from, body.as_ref());
            assert_eq!(
                (a.status, a.json()["code"].as_str()),
                (403, Some("cross_site")),
                "{method} {path}: {a:?}"
            );
        }
    }
    let a = request_with(
        addr,
        "POST",
        "/api/session",
        &[("Origin", "https://evil.example")],
        Some(&credentials("Ana", PASSWORD)),
    );
    assert_eq!(a.status, 403, "a sign-in from another site: {a:?}");
    assert_eq!(who(addr, &cookie).as_deref(), Some("Ana"));
    let games = request_with(addr, "GET", "/api/account/games", &[("Cookie", &cookie)], None);
    assert_eq!(games.json()["games"], json!([]), "no game was made: {games:?}");

    // A signed-in player's game is the account's, named after it, and its
    // seat is handed to the account's other device with a new token.
    let made = request_with(
        addr,
        "POST",
        "/api/games",
        &own_page(&cookie),
        Some(&json!({ "mode": "online" })),
    );
    assert_eq!(made.status, 201, "{made:?}");
    let id = made.json()["id"].as_str().unwrap().to_string();
    let old_token = made.json()["token"].as_str().unwrap().to_string();
    assert_eq!(made.json()["game"]["names"]["south"], "Ana");
    let listed = request_with(
        addr,
        "GET",
        "/api/account/games",
        &[("Cookie", &second_cookie)],
        None,
    );
    assert_eq!(listed.json()["games"][0]["id"], id.as_str(), "{listed:?}");
    assert_eq!(listed.json()["games"][0]["seat"], "south");
    let seat_path = format!("/api/games/{id}/seat");
    let taken = request_with(addr, "POST", &seat_path, &own_page(&second_cookie), None);
    assert_eq!(
        (taken.status, taken.json()["seat"].as_str()),
        (200, Some("south")),
        "{taken:?}"
    );
    let new_token = taken.json()["token"].as_str().unwrap().to_string();
    let resign = format!("/api/games/{id}/resign");
    let bearer = |t: &str| format!("Bearer {t}");
    let old = request_with(
        addr,
        "POST",
        &resign,
        &[("Authorization", &bearer(&old_token))],
        Some(&json!({})),
    );
    assert_eq!(
        old.status, 403,
        "the former token holds the seat no more: {old:?}"
    );
    // Another account holds no seat there.
    let other = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("Bea", "marea-cometa-violin-77")),
    );
    let (bea, _) = session_cookie(&other);
    let bea = format!("hoyito_session={bea}");
    let refused = request_with(addr, "POST", &seat_path, &own_page(&bea), None);
    assert_eq!(refused.status, 403, "{refused:?}");
    // A game on one device and an imported record are the account's too.
    let hotseat = request_with(
        addr,
        "POST",
        "/api/games",
        &own_page(&bea),
        Some(&json!({ "mode": "hotseat" })),
    );
    let hotseat_id = hotseat.json()["id"].as_str().unwrap().to_string();
    let record = request_with(addr, "GET", &format!("/api/games/{hotseat_id}/record"), &[], None).body;
    let imported = request_with(
        addr,
        "POST",
        "/api/games/import",
        &own_page(&bea),
        Some(&json!({ "record": record })),
    );
    assert_eq!(imported.status, 201, "{imported:?}");
    let listed = request_with(addr, "GET", "/api/account/games", &[("Cookie", &bea)], None).json();
    let mut seats: Vec<(String, String)> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["seat"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    seats.sort();
    let mut expected = vec![
        (hotseat_id, "both".to_string()),
        (
            imported.json()["id"].as_str().unwrap().to_string(),
            "both".to_string(),
        ),
    ];
    expected.sort();
    assert_eq!(seats, expected);

    // The same answer for a wrong password and an unknown name.
    let wrong = request_with(
        addr,
        "POST",
        "/api/session",
        &[],
        Some(&credentials("Bea", "not-the-password-1")),
    );
    let unknown = request_with(
        addr,
        "POST",
        "/api/session",
        &[],
        Some(&credentials("Nobody", "not-the-password-1")),
    );
    assert_eq!(wrong.status, 401);
    assert_eq!((wrong.status, &wrong.body), (unknown.status, &unknown.body));
    let still = request_with(
        addr,
        "POST",
        "/api/session",
        &[],
        Some(&credentials("Ana", PASSWORD)),
    );
    assert_eq!(still.status, 200, "{still:?}");
    let (fourth, _) = session_cookie(&still);

    // A recovery code sets a new password once, and ends every session.
    let new_password = "nube-lechuza-papel-58";
    let recover = json!({ "username": "Ana", "code": codes[0].to_uppercase(), "password": new_password });
    let r = request_with(addr, "POST", "/api/account/recover", &[], Some(&recover));
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.json()["account"]["recovery_codes_left"], 7);
    let (fifth, _) = session_cookie(&r);
    assert_eq!(who(addr, &cookie), None, "recovery ends the other sessions");
    let again = request_with(addr, "POST", "/api/account/recover", &[], Some(&recover));
    assert_eq!(again.status, 401, "a code is used once: {again:?}");
    let fifth_cookie = format!("hoyito_session={fifth}");

    // Deleting the account (its password asked again) ends its sessions;
    // its game stays, the name gone.
    let wrong = request_with(
        addr,
        "DELETE",
        "/api/account",
        &own_page(&fifth_cookie),
        Some(&json!({ "password": PASSWORD })),
    );
    assert_eq!(wrong.status, 401, "{wrong:?}");
    let second_session = request_with(
        addr,
        "POST",
        "/api/session",
        &[],
        Some(&credentials("Ana", new_password)),
    );
    let (sixth, _) = session_cookie(&second_session);
    let sixth_cookie = format!("hoyito_session={sixth}");
    let gone = request_with(
        addr,
        "DELETE",
        "/api/account",
        &own_page(&fifth_cookie),
        Some(&json!({ "password": new_password })),
    );
    assert_eq!(gone.status, 200, "{gone:?}");
    assert!(gone.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(who(addr, &fifth_cookie), None);
    assert_eq!(who(addr, &sixth_cookie), None);
    let game = request_with(addr, "GET", &format!("/api/games/{id}"), &[], None);
    assert_eq!(game.status, 200);
    assert_eq!(game.json()["names"]["south"], Value::Null, "{game:?}");
    let a = request_with(
        addr,
        "POST",
        "/api/session",
        &[],
        Some(&credentials("Ana", new_password)),
    );
    assert_eq!(a.status, 401);

    // No password, recovery code or session token in the database or the log.
    drop(server);
    let mut stored = Vec::new();
    for entry in std::fs::read_dir(&dir.0).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("hoyito.db")
        {
            stored.extend(std::fs::read(&path).unwrap());
        }
    }
    let stored = String::from_utf8_lossy(&stored);
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(log.contains("/api/session"), "the log has the requests: {log}");
    let code = codes[1].clone();
    for secret in [
        PASSWORD,
        new_password,
        "marea-cometa-violin-77",
        &code,
        &code.replace('-', ""),
        &first,
        &second,
        &third,
        &fourth,
        &fifth,
        &new_token,
    ] {
        assert!(!stored.contains(secret), "{secret:?} is in the database");
        assert!(!log.contains(secret), "{secret:?} is in the log");
    }
}

#[test]
fn guessing_one_account_and_from_one_address_is_limited() {
    let dir = TempDir::new("accounts-limits");
    let db = dir.0.join("hoyito.db");
    let server = serve(
        &dir.0,
        db.as_os_str(),
        &["--account-sign-in-rate", "1,3", "--sign-in-rate", "1,8"],
        &[],
    );
    let addr = server.addr.as_str();
    let up = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("Bea", PASSWORD)),
    );
    assert_eq!(up.status, 201, "{up:?}");
    // Guessing one account's password: after 3 tries, refused even with
    // the right one, until the limit refills; other names go on.
    for _ in 0..3 {
        let a = request_with(
            addr,
            "POST",
            "/api/session",
            &[],
            Some(&credentials("bea", "guess-guess-guess")),
        );
        assert_eq!(a.status, 401, "{a:?}");
    }
    let limited = request_with(
        addr,
        "POST",
        "/api/session",
        &[],
        Some(&credentials("Bea", PASSWORD)),
    );
    assert_eq!(
        (limited.status, limited.json()["code"].as_str()),
        (429, Some("rate_limited")),
        "{limited:?}"
    );
    assert!(
        limited.json()["error"]
            .as_str()
            .unwrap()
            .contains("for this username"),
        "{limited:?}"
    );
    assert!(limited.header("retry-after").is_some());
    // From one address: 8 tries at once (each naming another account),
    // then every sign-in, sign-up and recovery is refused.
    for name in ["Uno", "Dos", "Tres"] {
        let a = request_with(
            addr,
            "POST",
            "/api/session",
            &[],
            Some(&credentials(name, PASSWORD)),
        );
        assert_eq!(a.status, 401, "{a:?}");
    }
    for path in ["/api/session", "/api/account", "/api/account/recover"] {
        let body = if path == "/api/account/recover" {
            json!({ "username": "Cuatro", "password": PASSWORD, "code": "x" })
        } else {
            credentials("Cuatro", PASSWORD)
        };
        let a = request_with(addr, "POST", path, &[], Some(&body));
        assert_eq!(
            (a.status, a.json()["code"].as_str()),
            (429, Some("rate_limited")),
            "{path}: {a:?}"
        );
        assert!(
            a.json()["error"].as_str().unwrap().contains("from your address"),
            "{a:?}"
        );
    }
}

/// The ratings API on a fresh account: no ratings yet, and clear errors
/// for an unknown player and an unknown or missing pool.
#[test]
fn a_new_player_has_no_ratings_and_bad_names_are_clear_errors() {
    let dir = TempDir::new("accounts-ratings");
    let db = dir.0.join("hoyito.db");
    let server = serve(&dir.0, db.as_os_str(), &[], &[]);
    let addr = server.addr.as_str();
    let up = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials("Caro", PASSWORD)),
    );
    assert_eq!(up.status, 201, "{up:?}");
    assert_eq!(up.json()["account"]["ratings"], json!([]));
    let get = |path: &str| request_with(addr, "GET", path, &[], None);
    let caro = get("/api/players/caro");
    assert_eq!(caro.status, 200, "{caro:?}");
    let v = caro.json();
    assert_eq!(
        (
            v["username"].as_str(),
            v["ratings"].clone(),
            v["wins"].as_i64(),
            v["recent"].clone()
        ),
        (Some("Caro"), json!([]), Some(0), json!([]))
    );
    let history = get("/api/players/Caro/history?pool=II-blitz");
    assert_eq!(history.status, 200, "{history:?}");
    assert_eq!(history.json(), json!({ "pool": "II-blitz", "points": [] }));
    let board = get("/api/leaderboard?pool=I-correspondence");
    assert_eq!(board.json(), json!({ "pool": "I-correspondence", "players": [] }));
    for (path, status, code) in [
        ("/api/players/Nadie", 404, "unknown_player"),
        ("/api/players/Nadie/history?pool=II-blitz", 404, "unknown_player"),
        ("/api/players/Caro/history", 400, "unknown_pool"),
        ("/api/players/Caro/history?pool=II-hyper", 400, "unknown_pool"),
        ("/api/leaderboard?pool=V-blitz", 400, "unknown_pool"),
        ("/api/leaderboard", 400, "unknown_pool"),
    ] {
        let a = get(path);
        assert_eq!(
            (a.status, a.json()["code"].as_str()),
            (status, Some(code)),
            "{path}: {a:?}"
        );
    }
}
