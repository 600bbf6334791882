//! A rated game between two accounts against the real server: who may
//! create and join one, its rating changes as Glickman's paper computes
//! them (the formulas written out again here, apart from the server's
//! `skillratings`), kept across a restart, and games that are not rated
//! (aborted; stopped before each side moved).

use serde_json::{json, Value};

use super::{credentials, own_page, session_cookie, PASSWORD};
use crate::process::{request_with, serve, Answer, TempDir};

/// Glicko-2 for one game, step by step as in "Example of the Glicko-2
/// system" (Glickman, 2013), with τ = 0.5: the rating and deviation of a
/// player `(r, rd, σ)` after scoring `s` against `(rj, rdj)`.
fn glicko2(r: f64, rd: f64, sigma: f64, rj: f64, rdj: f64, s: f64) -> (f64, f64) {
    const SCALE: f64 = 173.7178;
    const TAU: f64 = 0.5;
    let (mu, phi) = ((r - 1500.0) / SCALE, rd / SCALE);
    let (muj, phij) = ((rj - 1500.0) / SCALE, rdj / SCALE);
    let g = 1.0 / (1.0 + 3.0 * phij * phij / std::f64::consts::PI.powi(2)).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - muj)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let delta = v * g * (s - e);
    // Step 5: the new volatility (the Illinois algorithm).
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma2 = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * g * (s - e);
    (SCALE * mu2 + 1500.0, SCALE * phi2)
}

/// No limit on joins (`serve` sets none on creating and moving): the test
/// joins games as fast as it can.
const NO_LIMITS: &[&str] = &["--join-rate", "0"];

/// A new account's session cookie.
fn sign_up(addr: &str, name: &str) -> String {
    let up = request_with(
        addr,
        "POST",
        "/api/account",
        &[],
        Some(&credentials(name, PASSWORD)),
    );
    assert_eq!(up.status, 201, "{up:?}");
    format!("hoyito_session={}", session_cookie(&up).0)
}

/// A request with a seat's token and, if given, a session cookie from the
/// server's own page.
fn call(
    addr: &str,
    method: &str,
    path: &str,
    token: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let bearer = format!("Bearer {token}");
    let mut headers = vec![("Authorization", bearer.as_str())];
    if let Some(c) = cookie {
        headers.extend(own_page(c));
    }
    request_with(addr, method, path, &headers, body)
}

/// The body creating a rated online game of variant II with a blitz clock.
fn rated_game() -> Value {
    json!({ "mode": "online", "rated": true, "rules": { "variant": "II" },
            "clock": { "initial": 300, "increment": 3 } })
}

/// Creates a rated game as `cookie` and joins it as `other`: the game's
/// id, the creator's (south's) token and the joiner's (north's).
fn start(addr: &str, cookie: &str, other: &str) -> (String, String, String) {
    let made = request_with(addr, "POST", "/api/games", &own_page(cookie), Some(&rated_game()));
    assert_eq!(made.status, 201, "{made:?}");
    let v = made.json();
    assert_eq!(
        (v["seat"].as_str(), v["game"]["rated"].as_bool()),
        (Some("south"), Some(true))
    );
    let id = v["id"].as_str().unwrap().to_string();
    let invite = v["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let joined = request_with(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        &own_page(other),
        Some(&json!({ "invite": invite })),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    let south = v["token"].as_str().unwrap().to_string();
    (id, south, joined.json()["token"].as_str().unwrap().to_string())
}

/// Plays the first legal move of the side to move with `token`.
fn play_first(addr: &str, id: &str, token: &str) -> Value {
    let game = request_with(addr, "GET", &format!("/api/games/{id}"), &[], None).json();
    let mv = game["legal"][0].as_str().unwrap().to_string();
    let a = call(
        addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        token,
        None,
        Some(&json!({ "move": mv })),
    );
    assert_eq!(a.status, 200, "{a:?}");
    a.json()
}

#[test]
fn a_rated_game_changes_both_ratings_as_glicko2_says_once() {
    let dir = TempDir::new("accounts-rated");
    let db = dir.0.join("hoyito.db");
    let server = serve(&dir.0, db.as_os_str(), NO_LIMITS, &[]);
    let addr = server.addr.clone();
    let addr = addr.as_str();
    let (ana, beto) = (sign_up(addr, "Ana"), sign_up(addr, "Beto"));

    // Who may create a rated game, and which.
    let bad = |body: Value, headers: &[(&str, &str)], status: u16, code: &str| {
        let a = request_with(addr, "POST", "/api/games", headers, Some(&body));
        assert_eq!(
            (a.status, a.json()["code"].as_str()),
            (status, Some(code)),
            "{body}: {a:?}"
        );
    };
    bad(rated_game(), &[], 401, "signed_out");
    let mut hotseat = rated_game();
    hotseat["mode"] = json!("hotseat");
    hotseat.as_object_mut().unwrap().remove("clock");
    bad(hotseat, &own_page(&ana), 422, "invalid_rated");
    let mut small = rated_game();
    small["rules"]["holes"] = json!(4);
    bad(small, &own_page(&ana), 422, "invalid_rated");
    let mut seeds = rated_game();
    seeds["rules"]["seeds"] = json!(5);
    bad(seeds, &own_page(&ana), 422, "invalid_rated");
    let mut a_match = rated_game();
    a_match["match"] = json!(true);
    bad(a_match, &own_page(&ana), 422, "invalid_rated");

    // Its free seat: not signed out, not the creator's account.
    let made = request_with(addr, "POST", "/api/games", &own_page(&ana), Some(&rated_game()));
    let v = made.json();
    let (id, invite) = (
        v["id"].as_str().unwrap().to_string(),
        v["invite"]
            .as_str()
            .unwrap()
            .split("invite=")
            .nth(1)
            .unwrap()
            .to_string(),
    );
    let join = |headers: &[(&str, &str)]| {
        request_with(
            addr,
            "POST",
            &format!("/api/games/{id}/join"),
            headers,
            Some(&json!({ "invite": invite })),
        )
    };
    let out = join(&[]);
    assert_eq!(
        (out.status, out.json()["code"].as_str()),
        (401, Some("signed_out")),
        "{out:?}"
    );
    let own = join(&own_page(&ana));
    assert_eq!(
        (own.status, own.json()["code"].as_str()),
        (409, Some("same_account")),
        "{own:?}"
    );
    assert_eq!(join(&own_page(&beto)).status, 200);
    // An abort before both sides moved: not rated.
    let south = v["token"].as_str().unwrap();
    let aborted = call(addr, "POST", &format!("/api/games/{id}/abort"), south, None, None);
    assert_eq!(aborted.status, 200, "{aborted:?}");
    assert_eq!(
        (aborted.json()["result"].as_str(), aborted.json().get("rating")),
        (Some("aborted"), None)
    );

    // A rated game: each side moves, then South (Ana) resigns.
    let (id, south, north) = start(addr, &ana, &beto);
    play_first(addr, &id, &south);
    play_first(addr, &id, &north);
    let over = call(
        addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        &south,
        None,
        Some(&json!({})),
    );
    assert_eq!(over.status, 200, "{over:?}");
    let rating = over.json()["rating"].clone();
    let (loser, winner) = (
        glicko2(1500.0, 350.0, 0.06, 1500.0, 350.0, 0.0),
        glicko2(1500.0, 350.0, 0.06, 1500.0, 350.0, 1.0),
    );
    let close = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 0.01;
    assert!(close(&rating["south"]["before"], 1500.0), "{rating}");
    assert!(
        close(&rating["south"]["after"], loser.0),
        "{rating} against {loser:?}"
    );
    assert!(
        close(&rating["south"]["deviation_after"], loser.1),
        "{rating} against {loser:?}"
    );
    assert!(
        close(&rating["north"]["after"], winner.0),
        "{rating} against {winner:?}"
    );
    assert!(
        close(&rating["north"]["deviation_after"], winner.1),
        "{rating} against {winner:?}"
    );

    // The players' pages and history; a provisional rating is on no leaderboard.
    let ana_page = request_with(addr, "GET", "/api/players/ana", &[], None).json();
    let pool = &ana_page["ratings"][0];
    assert_eq!(
        (
            pool["pool"].as_str(),
            pool["games"].as_i64(),
            pool["losses"].as_i64()
        ),
        (Some("II-blitz"), Some(1), Some(1)),
        "{ana_page}"
    );
    assert!(close(&pool["rating"], loser.0), "{ana_page}");
    let history = request_with(addr, "GET", "/api/players/Beto/history?pool=II-blitz", &[], None).json();
    assert_eq!(history["points"].as_array().map(Vec::len), Some(1), "{history}");
    let board = request_with(addr, "GET", "/api/leaderboard?pool=II-blitz", &[], None).json();
    assert_eq!(board["players"], json!([]), "{board}");

    // A rated seek in the lobby open to ratings near its creator's only.
    let mut near = rated_game();
    near["rating_range"] = json!(50);
    bad(near.clone(), &own_page(&ana), 422, "invalid_rating_range");
    near["public"] = json!(true);
    near["rating_range"] = json!(10);
    bad(near.clone(), &own_page(&ana), 422, "invalid_rating_range");
    near["rating_range"] = json!(50);
    let seek = request_with(addr, "POST", "/api/games", &own_page(&ana), Some(&near));
    assert_eq!(seek.status, 201, "{seek:?}");
    let seek_id = seek.json()["id"].as_str().unwrap().to_string();
    let own = loser.0.round() as i64;
    let lobby = request_with(addr, "GET", "/api/lobby", &[], None).json();
    let listed = lobby["open"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == seek_id.as_str())
        .cloned();
    assert_eq!(
        listed.map(|g| (g["rated"].clone(), g["rating_range"].clone())),
        Some((json!(true), json!([own - 50, own + 50]))),
        "{lobby}"
    );
    let far = request_with(
        addr,
        "POST",
        &format!("/api/games/{seek_id}/join"),
        &own_page(&beto),
        Some(&json!({})),
    );
    assert_eq!(
        (far.status, far.json()["code"].as_str()),
        (409, Some("out_of_rating_range")),
        "{far:?}"
    );
    let seek_now = request_with(addr, "GET", &format!("/api/games/{seek_id}"), &[], None).json();
    assert_eq!(seek_now["status"].as_str(), Some("waiting"), "{seek_now}");

    // A second game: each rated from the ratings after the first.
    let (id2, south2, north2) = start(addr, &ana, &beto);
    play_first(addr, &id2, &south2);
    play_first(addr, &id2, &north2);
    let over2 = call(
        addr,
        "POST",
        &format!("/api/games/{id2}/resign"),
        &north2,
        None,
        Some(&json!({})),
    );
    let r2 = over2.json()["rating"].clone();
    assert!(
        close(&r2["south"]["before"], loser.0) && close(&r2["north"]["before"], winner.0),
        "{r2}"
    );

    // After a restart the game is read back rated once: the same changes.
    drop(server);
    let server = serve(&dir.0, db.as_os_str(), NO_LIMITS, &[]);
    let again = request_with(&server.addr, "GET", &format!("/api/games/{id}"), &[], None).json();
    assert_eq!(again["rating"], rating);
    let beto_page = request_with(&server.addr, "GET", "/api/players/Beto", &[], None).json();
    assert_eq!(beto_page["ratings"][0]["games"].as_i64(), Some(2), "{beto_page}");

    // Ana's games over (the aborted one, one lost, one won; not the open
    // seek), and head to head against Beto, the games she won.
    let get = |path: &str| request_with(&server.addr, "GET", path, &[], None);
    let mine = get("/api/players/ana/games").json();
    assert_eq!(
        (
            mine["username"].as_str(),
            mine["total"].as_u64(),
            mine["wins"].as_u64(),
            mine["draws"].as_u64(),
            mine["losses"].as_u64()
        ),
        (Some("Ana"), Some(3), Some(1), Some(0), Some(1)),
        "{mine}"
    );
    // Newest first (games that changed in the same millisecond in either order).
    let listed = mine["games"].as_array().unwrap();
    let changed: Vec<i64> = listed.iter().map(|g| g["updated_ms"].as_i64().unwrap()).collect();
    assert!(changed.windows(2).all(|w| w[0] >= w[1]), "{mine}");
    let ids: Vec<&str> = listed.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert!(
        ids.contains(&id.as_str()) && ids.contains(&id2.as_str()),
        "{mine}"
    );
    assert!(
        !ids.contains(&seek_id.as_str()),
        "an open seek is not over: {mine}"
    );
    let won = get("/api/players/Ana/games?opponent=BETO&result=won&rated=true&variant=II").json();
    assert_eq!(
        (
            won["opponent"].as_str(),
            won["total"].as_u64(),
            won["games"][0]["id"].as_str()
        ),
        (Some("Beto"), Some(1), Some(id2.as_str())),
        "{won}"
    );
    assert_eq!(
        (
            won["games"][0]["seat"].as_str(),
            won["games"][0]["opponent"].as_str()
        ),
        (Some("south"), Some("Beto")),
        "{won}"
    );
    for (path, status, code) in [
        ("/api/players/Ana/games?opponent=Nadie", 404, "unknown_player"),
        ("/api/players/Nadie/games", 404, "unknown_player"),
        ("/api/players/Ana/games?variant=IV", 400, "bad_request"),
        ("/api/players/Ana/games?result=maybe", 400, "bad_request"),
        ("/api/players/Ana/games?limit=0", 400, "bad_request"),
        ("/api/players/Ana/games?colour=red", 400, "bad_request"),
    ] {
        let a = get(path);
        assert_eq!(
            (a.status, a.json()["code"].as_str()),
            (status, Some(code)),
            "{path}: {a:?}"
        );
    }
}
