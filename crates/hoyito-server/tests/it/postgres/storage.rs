//! The storage calls on PostgreSQL: they answer as SQLite's do, and a step
//! that does not follow the last stored one is refused.

use hoyito_core::Side;
use hoyito_core::{Rules, Variant};
use hoyito_server::ratings::Score;
use hoyito_server::store::{
    Account, Ceremony, LobbyKind, Mode, PlayerGamesFilter, PlayerResult, RatedResult, StoreError,
    StoredPasskey,
};
use hoyito_server::Store;

use super::{fresh_db, meta, open, summary};

/// Every storage call, in turn, on `store`: what each answered, with the
/// times that depend on the clock left out.
fn exercise(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    let mut log = |what: &str, v: String| out.push(format!("{what}: {v}"));
    store
        .insert_game(&meta("g1", Mode::Online, true), &summary("waiting", 0))
        .unwrap();
    store
        .insert_game(&meta("g2", Mode::Hotseat, false), &summary("playing", 0))
        .unwrap();
    log(
        "duplicate id refused",
        store
            .insert_game(&meta("g1", Mode::Online, true), &summary("waiting", 0))
            .is_err()
            .to_string(),
    );
    store
        .insert_game_with_steps(
            &meta("g3", Mode::Hotseat, false),
            &["a".into(), "b".into()],
            &summary("over", 2),
        )
        .unwrap();
    store
        .append_at("g2", 1, "c", 1_000, &summary("playing", 1))
        .unwrap();
    store.append("g2", 2, "d", &summary("playing", 2)).unwrap();
    store
        .append_at("g2", 3, "e", 3_000, &summary("playing", 3))
        .unwrap();
    // A draw offer at step 3, cleared by the undo.
    log(
        "draw offer stored",
        format!("{:?}", store.set_draw_offer("g2", 3, Some(Side::South))),
    );
    log(
        "takeback request stored",
        format!("{:?}", store.set_takeback_offer("g2", 3, Some(Side::North))),
    );
    store.truncate("g2", 2, &summary("playing", 2)).unwrap();
    log(
        "takeback request after the undo",
        format!("{:?}", store.load("g2").unwrap().unwrap().takeback_offer),
    );
    log(
        "takeback request at another step refused",
        format!(
            "{:?}",
            store
                .set_takeback_offer("g2", 3, Some(Side::South))
                .map_err(|e| e.to_string())
        ),
    );
    log(
        "takeback request stored again",
        format!("{:?}", store.set_takeback_offer("g2", 2, Some(Side::South))),
    );
    log(
        "takeback request loaded",
        format!("{:?}", store.load("g2").unwrap().unwrap().takeback_offer),
    );
    log(
        "takeback request cleared",
        format!("{:?}", store.set_takeback_offer("g2", 2, None)),
    );
    store
        .bind_seat("g1", Side::North, "hash-n", Some("Jean"), &summary("playing", 0))
        .unwrap();
    let g = store.load("g2").unwrap().unwrap();
    log(
        "load g2",
        format!(
            "{} {:?} {} {:?} {:?} {}",
            g.meta.id, g.meta.mode, g.undos, g.steps, g.draw_offer, g.draw_rev
        ),
    );
    // An offer is stored only at the game's stored step count.
    log(
        "draw offer at another step refused",
        format!(
            "{:?}",
            store
                .set_draw_offer("g2", 3, Some(Side::North))
                .map_err(|e| e.to_string())
        ),
    );
    log(
        "draw offer stored again",
        format!("{:?}", store.set_draw_offer("g2", 2, Some(Side::North))),
    );
    log(
        "draw offer loaded",
        format!("{:?}", store.load("g2").unwrap().unwrap().draw_offer),
    );
    log(
        "draw offer of no game refused",
        store
            .set_draw_offer("nope", 0, Some(Side::North))
            .is_err()
            .to_string(),
    );
    log(
        "draw offer cleared",
        format!("{:?}", store.set_draw_offer("g2", 2, None)),
    );
    let g = store.load("g2").unwrap().unwrap();
    log(
        "draw offer after clearing",
        format!("{:?} {}", g.draw_offer, g.draw_rev),
    );
    let m = store.load("g1").unwrap().unwrap().meta;
    log(
        "load g1",
        format!("{:?} {:?} {:?} {}", m.tokens, m.names, m.invite, m.public),
    );
    log(
        "load missing",
        format!("{:?}", store.load("nope").unwrap().map(|x| x.undos)),
    );
    let times = store.step_times("g2").unwrap();
    log("step times", format!("{} {:?}", times.len(), times[0]));
    let listed = |l: Vec<hoyito_server::store::ListedGame>| {
        l.iter()
            .map(|g| format!("{}/{}/{}/{:?}/{:?}", g.id, g.status, g.seq, g.score, g.names))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut all = store.list(10, None).unwrap();
    all.sort_by(|a, b| a.id.cmp(&b.id));
    log("list", listed(all));
    log("list over", listed(store.list(10, Some("over")).unwrap()));
    log("lobby playing", {
        let mut l = store.lobby(LobbyKind::Playing, Some("I"), 10, 0).unwrap();
        l.sort_by(|a, b| a.id.cmp(&b.id));
        listed(l)
    });
    log(
        "lobby open",
        listed(store.lobby(LobbyKind::Open, None, 10, 0).unwrap()),
    );
    log(
        "lobby other variant",
        listed(store.lobby(LobbyKind::Playing, Some("III"), 10, 0).unwrap()),
    );
    let mut by_id = store
        .games_by_id(&["g3".into(), "x".into(), "g1".into()])
        .unwrap();
    by_id.sort_by(|a, b| a.id.cmp(&b.id));
    log("by id", listed(by_id));
    for (side, text) in [
        (Side::South, "hola"),
        (Side::North, "bonjou"),
        (Side::South, "adiós"),
    ] {
        let m = store.add_chat("g1", side, text, 5).unwrap();
        log("chat added", format!("{} {:?}", m.seq, m.side));
    }
    log("chat last 2", format!("{:?}", store.chat("g1", 2).unwrap()));
    store.save_analysis("g3", 0, 2, "{\"a\":1}").unwrap();
    store.save_analysis("g3", 1, 2, "{\"a\":2}").unwrap();
    log("analysis", format!("{:?}", store.load_analysis("g3").unwrap()));
    log(
        "analysis of no game refused",
        store.save_analysis("nope", 0, 1, "{}").is_err().to_string(),
    );
    log("count", store.count().unwrap().to_string());
    log("timed", format!("{:?}", store.timed_games().unwrap()));
    store.check_writable().unwrap();
    exercise_player_games(store, &mut log);
    exercise_accounts(store, &mut log);
    exercise_ratings(store, &mut log);
    exercise_passkeys(store, &mut log);
    out
}

/// The passkey calls, in turn, on `store`: ceremonies taken once and
/// expiring, an account made with its passkey (all or nothing), passkeys
/// added, found, used and removed (never the last way to sign in), and
/// the account's deletion taking them.
fn exercise_passkeys(store: &Store, log: &mut impl FnMut(&str, String)) {
    let passkeys = store.passkeys();
    let ceremony = |id: &str, expires_ms: i64| Ceremony {
        id_hash: id.into(),
        kind: "sign_up".into(),
        account_id: Some("pk1".into()),
        username: Some("Pia".into()),
        origin: "http://localhost:8080".into(),
        state: "{\"rs\":1}".into(),
        expires_ms,
    };
    passkeys.insert_ceremony(&ceremony("c1", 1_000), 100).unwrap();
    passkeys.insert_ceremony(&ceremony("c2", 2_000), 100).unwrap();
    passkeys.insert_ceremony(&ceremony("c3", 500), 100).unwrap();
    log(
        "duplicate ceremony refused",
        passkeys
            .insert_ceremony(&ceremony("c1", 1_000), 100)
            .is_err()
            .to_string(),
    );
    log(
        "ceremony taken",
        format!("{:?}", passkeys.take_ceremony("c1", 900)),
    );
    log(
        "ceremony taken once",
        format!("{:?}", passkeys.take_ceremony("c1", 900)),
    );
    log(
        "ceremony expired",
        format!("{:?}", passkeys.take_ceremony("c2", 2_000)),
    );
    // A new ceremony deletes the expired ones.
    passkeys.insert_ceremony(&ceremony("c4", 9_000), 600).unwrap();
    log(
        "expired deleted",
        format!("{:?}", passkeys.take_ceremony("c3", 0)),
    );
    let key = |id: &str, account: &str, credential: &str| StoredPasskey {
        id: id.into(),
        account_id: account.into(),
        credential_id: credential.into(),
        passkey: format!("{{\"cred\":\"{credential}\"}}"),
        created_ms: 10,
        last_used_ms: None,
    };
    let pia = Account {
        id: "pk1".into(),
        username: "Pia".into(),
        skeleton: "pia".into(),
        password_hash: String::new(),
        created_ms: 10,
    };
    let codes = ["r1".to_string()];
    log(
        "account with passkey",
        format!(
            "{:?}",
            passkeys.insert_account_with_passkey(&pia, &codes, &key("k1", "pk1", "cred1"))
        ),
    );
    let rui = Account {
        id: "pk2".into(),
        username: "Rui".into(),
        skeleton: "rui".into(),
        password_hash: "$argon2id$stub".into(),
        created_ms: 11,
    };
    log(
        "taken passkey refused",
        format!(
            "{:?}",
            passkeys.insert_account_with_passkey(&rui, &codes, &key("k2", "pk2", "cred1"))
        ),
    );
    log(
        "nothing of it stored",
        format!("{:?}", store.accounts().account_by_skeleton("rui").unwrap()),
    );
    log(
        "taken username refused",
        format!(
            "{:?}",
            passkeys.insert_account_with_passkey(
                &Account {
                    id: "pk3".into(),
                    ..pia.clone()
                },
                &codes,
                &key("k3", "pk3", "cred3")
            )
        ),
    );
    assert!(store.accounts().insert_account(&rui, &[]).unwrap());
    log(
        "passkey added",
        format!("{:?}", passkeys.insert_passkey(&key("k4", "pk2", "cred4"))),
    );
    log(
        "passkey added twice",
        format!("{:?}", passkeys.insert_passkey(&key("k5", "pk2", "cred4"))),
    );
    log(
        "passkey of no account refused",
        passkeys
            .insert_passkey(&key("k6", "nobody", "cred6"))
            .is_err()
            .to_string(),
    );
    passkeys.insert_passkey(&key("k7", "pk1", "cred7")).unwrap();
    log(
        "by credential",
        format!("{:?}", passkeys.passkey_by_credential("cred7")),
    );
    log(
        "unknown credential",
        format!("{:?}", passkeys.passkey_by_credential("nope")),
    );
    passkeys.passkey_used("k1", None, 50).unwrap();
    passkeys
        .passkey_used("k7", Some("{\"cred\":\"new\"}"), 60)
        .unwrap();
    log(
        "account passkeys",
        format!("{:?}", passkeys.account_passkeys("pk1")),
    );
    log(
        "codes of a passkey account",
        format!("{:?}", store.accounts().recovery_codes_left("pk1")),
    );
    log("removed", format!("{:?}", passkeys.remove_passkey("pk1", "k7")));
    log(
        "removed again",
        format!("{:?}", passkeys.remove_passkey("pk1", "k7")),
    );
    log("another's", format!("{:?}", passkeys.remove_passkey("pk1", "k4")));
    log("last kept", format!("{:?}", passkeys.remove_passkey("pk1", "k1")));
    log(
        "with a password",
        format!("{:?}", passkeys.remove_passkey("pk2", "k4")),
    );
    store.accounts().delete_account("pk1").unwrap();
    log(
        "deleted with its account",
        format!(
            "{:?} {:?}",
            passkeys.passkey_by_credential("cred1"),
            passkeys.account_passkeys("pk1")
        ),
    );
}

/// A player's games, filtered: online games over only, by variant, result,
/// rated and opponent, a page at a time, with the tally.
fn exercise_player_games(store: &Store, log: &mut impl FnMut(&str, String)) {
    let accounts = store.accounts();
    for (id, name) in [("pa", "Pia"), ("pb", "Paco"), ("pc", "Pol")] {
        let account = Account {
            id: id.into(),
            username: name.into(),
            skeleton: name.to_lowercase(),
            password_hash: "$argon2id$stub".into(),
            created_ms: 7,
        };
        accounts.insert_account(&account, &[]).unwrap();
    }
    // (game, variant, rated, status, result, south's account, north's account)
    type Row<'a> = (
        &'a str,
        Variant,
        bool,
        &'a str,
        Option<&'static str>,
        &'a str,
        Option<&'a str>,
    );
    let games: [Row; 7] = [
        ("h1", Variant::II, true, "over", Some("north"), "pa", Some("pb")),
        ("h2", Variant::I, false, "over", Some("north"), "pb", Some("pa")),
        ("h3", Variant::I, false, "over", Some("draw"), "pa", Some("pc")),
        (
            "h4",
            Variant::II,
            false,
            "over",
            Some("aborted"),
            "pa",
            Some("pb"),
        ),
        ("h5", Variant::I, false, "playing", None, "pa", Some("pb")),
        ("h6", Variant::III, false, "over", Some("south"), "pa", None),
        ("h7", Variant::I, false, "over", Some("south"), "pc", Some("pb")),
    ];
    for (k, (id, variant, rated, status, result, south, north)) in games.into_iter().enumerate() {
        let mut m = meta(id, Mode::Online, false);
        m.rules = Rules::standard(variant);
        m.rated = rated;
        store.insert_game(&m, &summary("playing", 0)).unwrap();
        let mut sum = summary(if status == "over" { "over" } else { "playing" }, 1);
        sum.result = result;
        // A later game changed later: the lists are newest first.
        store.append_at(id, 1, "x", 10_000 + k as i64, &sum).unwrap();
        accounts.link_seat(id, "south", south).unwrap();
        if let Some(n) = north {
            accounts.link_seat(id, "north", n).unwrap();
        }
    }
    // A hot-seat game over of the account's is not listed.
    store
        .insert_game(&meta("h8", Mode::Hotseat, false), &summary("over", 0))
        .unwrap();
    accounts.link_seat("h8", "both", "pa").unwrap();
    let ask = |what: &str, filter: PlayerGamesFilter, limit: u32, offset: u32| {
        let p = accounts.player_games("pa", &filter, limit, offset).unwrap();
        let games: Vec<String> = p
            .games
            .iter()
            .map(|g| format!("{}:{}:{:?}", g.game.id, g.seat, g.opponent))
            .collect();
        format!(
            "{what}: {} total {} +{}={}-{}",
            games.join(","),
            p.total,
            p.wins,
            p.draws,
            p.losses
        )
    };
    let all = PlayerGamesFilter::default;
    log("player games", ask("all", all(), 10, 0));
    log("player games paged", ask("page 2", all(), 2, 2));
    log(
        "player games won",
        ask(
            "won",
            PlayerGamesFilter {
                result: Some(PlayerResult::Won),
                ..all()
            },
            10,
            0,
        ),
    );
    log(
        "player games lost",
        ask(
            "lost",
            PlayerGamesFilter {
                result: Some(PlayerResult::Lost),
                ..all()
            },
            10,
            0,
        ),
    );
    log(
        "player games of variant I",
        ask(
            "I",
            PlayerGamesFilter {
                variant: Some("I".into()),
                ..all()
            },
            10,
            0,
        ),
    );
    log(
        "player games rated",
        ask(
            "rated",
            PlayerGamesFilter {
                rated: Some(true),
                ..all()
            },
            10,
            0,
        ),
    );
    log(
        "player games unrated drawn",
        ask(
            "unrated drawn",
            PlayerGamesFilter {
                rated: Some(false),
                result: Some(PlayerResult::Drawn),
                ..all()
            },
            10,
            0,
        ),
    );
    log(
        "head to head",
        ask(
            "against pb",
            PlayerGamesFilter {
                opponent: Some("pb".into()),
                ..all()
            },
            10,
            0,
        ),
    );
}

/// The account calls, in turn, on `store` (whose games `g1`, `g2` exist).
fn exercise_accounts(store: &Store, log: &mut impl FnMut(&str, String)) {
    let accounts = store.accounts();
    let ana = Account {
        id: "acc1".into(),
        username: "Ana".into(),
        skeleton: "ana".into(),
        password_hash: "$argon2id$stub".into(),
        created_ms: 7,
    };
    let codes = ["c1".to_string(), "c2".to_string()];
    log(
        "account stored",
        format!("{:?}", accounts.insert_account(&ana, &codes)),
    );
    let alike = Account {
        id: "acc2".into(),
        username: "ANA".into(),
        ..ana.clone()
    };
    log(
        "look-alike refused",
        format!("{:?}", accounts.insert_account(&alike, &[])),
    );
    log(
        "by skeleton",
        format!(
            "{:?}",
            accounts.account_by_skeleton("ana").unwrap().map(|a| a.username)
        ),
    );
    accounts.insert_session("s1", "acc1", 100, 1_000).unwrap();
    accounts.insert_session("s2", "acc1", 100, 2_000).unwrap();
    log(
        "session",
        format!("{:?}", accounts.session_account("s1", 500).unwrap().map(|a| a.id)),
    );
    log(
        "session expired",
        format!("{:?}", accounts.session_account("s1", 1_000).unwrap()),
    );
    log(
        "unknown session",
        format!("{:?}", accounts.session_account("nope", 0).unwrap()),
    );
    // A new session deletes the account's expired ones.
    accounts.insert_session("s3", "acc1", 1_500, 9_000).unwrap();
    log("expired deleted", format!("{:?}", accounts.delete_session("s1")));
    log("session ended", format!("{:?}", accounts.delete_session("s2")));
    accounts.link_seat("g1", "south", "acc1").unwrap();
    accounts.link_seat("g2", "both", "acc1").unwrap();
    log("seat", format!("{:?}", accounts.account_seat("acc1", "g1")));
    log("no seat", format!("{:?}", accounts.account_seat("acc1", "g3")));
    let games = accounts.account_games("acc1", 10, 0).unwrap();
    let mut listed: Vec<String> = games
        .iter()
        .map(|g| format!("{}:{}", g.game.id, g.seat))
        .collect();
    listed.sort();
    log("account games", listed.join(","));
    log(
        "account games paged",
        accounts.account_games("acc1", 1, 5).unwrap().len().to_string(),
    );
    accounts.set_seat_token("g2", "both", "hash-new").unwrap();
    log(
        "seat token set",
        format!("{:?}", store.load("g2").unwrap().unwrap().meta.tokens),
    );
    log(
        "seat token of no game refused",
        accounts.set_seat_token("nope", "south", "h").is_err().to_string(),
    );
    log(
        "codes left",
        format!("{:?}", accounts.recovery_codes_left("acc1")),
    );
    log(
        "wrong code",
        format!("{:?}", accounts.recover("acc1", "c9", "$argon2id$new")),
    );
    log(
        "recovered",
        format!("{:?}", accounts.recover("acc1", "c1", "$argon2id$new")),
    );
    log(
        "code used once",
        format!("{:?}", accounts.recover("acc1", "c1", "$argon2id$x")),
    );
    log(
        "after recovery",
        format!(
            "{:?} {:?} {:?}",
            accounts
                .account_by_skeleton("ana")
                .unwrap()
                .map(|a| a.password_hash),
            accounts.session_account("s3", 2_000).unwrap(),
            accounts.recovery_codes_left("acc1")
        ),
    );
    accounts.insert_session("s4", "acc1", 3_000, 9_000).unwrap();
    log(
        "sessions ended",
        format!("{:?}", accounts.delete_sessions("acc1")),
    );
    accounts.insert_session("s5", "acc1", 3_000, 9_000).unwrap();
    let mut cleared: Vec<String> = accounts
        .delete_account("acc1")
        .unwrap()
        .into_iter()
        .map(|c| format!("{}:{}", c.game, c.seat))
        .collect();
    cleared.sort();
    log("deleted", cleared.join(","));
    log(
        "after deletion",
        format!(
            "{:?} {:?} {:?} {:?}",
            accounts.account_by_skeleton("ana").unwrap(),
            accounts.session_account("s5", 3_000).unwrap(),
            accounts.account_seat("acc1", "g1").unwrap(),
            store.load("g1").unwrap().unwrap().meta.names
        ),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn storage_answers_on_postgres_as_on_sqlite() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let pg = open(&url).await;
    let (pg_out, sqlite_out) = tokio::task::spawn_blocking(move || {
        let sqlite = Store::in_memory().unwrap();
        (exercise(&pg), exercise(&sqlite))
    })
    .await
    .unwrap();
    assert_eq!(pg_out.len(), sqlite_out.len());
    for (p, s) in pg_out.iter().zip(&sqlite_out) {
        assert_eq!(p, s);
    }
    // Opening the same database again (a second node) finds the tables.
    let again = open(&url).await;
    let count = tokio::task::spawn_blocking(move || again.count().unwrap())
        .await
        .unwrap();
    assert_eq!(count, 11);
}

/// A player's games on SQLite, as they must be (PostgreSQL answers the
/// same in `storage_answers_on_postgres_as_on_sqlite`).
#[test]
fn a_players_games_are_the_online_games_over_the_filter_matches() {
    let store = Store::in_memory().unwrap();
    let mut out = Vec::new();
    exercise_player_games(&store, &mut |_: &str, v: String| out.push(v));
    let paco = "Some(\"Paco\")";
    assert_eq!(
        out,
        [
            format!("all: h6:south:None,h4:south:{paco},h3:south:Some(\"Pol\"),h2:north:{paco},h1:south:{paco} total 5 +2=1-1"),
            format!("page 2: h3:south:Some(\"Pol\"),h2:north:{paco} total 5 +2=1-1"),
            format!("won: h6:south:None,h2:north:{paco} total 2 +2=1-1"),
            format!("lost: h1:south:{paco} total 1 +2=1-1"),
            format!("I: h3:south:Some(\"Pol\"),h2:north:{paco} total 2 +1=1-0"),
            format!("rated: h1:south:{paco} total 1 +0=0-1"),
            "unrated drawn: h3:south:Some(\"Pol\") total 1 +2=1-0".to_string(),
            format!("against pb: h4:south:{paco},h2:north:{paco},h1:south:{paco} total 3 +1=0-1"),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_step_that_does_not_follow_the_last_is_refused() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = open(&url).await;
    let b = open(&url).await;
    tokio::task::spawn_blocking(move || {
        a.insert_game(&meta("g", Mode::Hotseat, false), &summary("playing", 0))
            .unwrap();
        a.append("g", 1, "a", &summary("playing", 1)).unwrap();
        // Node b, not knowing of step 1, stores its own step 1: refused.
        let err = b.append("g", 1, "b", &summary("playing", 1)).unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Conflict {
                    expected: 0,
                    stored: 1,
                    ..
                }
            ),
            "{err:?}"
        );
        // A gap is refused too.
        assert!(matches!(
            b.append("g", 3, "c", &summary("playing", 3)).unwrap_err(),
            StoreError::Conflict { .. }
        ));
        b.append("g", 2, "b", &summary("playing", 2)).unwrap();
        let steps = a.load("g").unwrap().unwrap().steps;
        assert_eq!(steps, ["a", "b"]);
    })
    .await
    .unwrap();
}

/// The rating calls, in turn, on `store`: two accounts play three rated
/// games, one of them ended twice, and one account is deleted.
fn exercise_ratings(store: &Store, log: &mut impl FnMut(&str, String)) {
    let ratings = store.ratings();
    for (id, name) in [("r1", "Rosa"), ("r2", "Raul")] {
        let account = Account {
            id: id.into(),
            username: name.into(),
            skeleton: name.to_lowercase(),
            password_hash: "$argon2id$stub".into(),
            created_ms: 1,
        };
        store.accounts().insert_account(&account, &[]).unwrap();
    }
    let game = |game: &str, south_score, ended_ms| RatedResult {
        game: game.into(),
        pool: "II-blitz".into(),
        south: "r1".into(),
        north: "r2".into(),
        south_score,
        ended_ms,
    };
    let round = |x: f64| (x * 1e6).round() / 1e6;
    for (g, score, at) in [
        ("rg1", Score::Win, 10),
        ("rg2", Score::Draw, 20),
        ("rg1", Score::Loss, 30),
    ] {
        let (c, fresh) = ratings.rate_game(&game(g, score, at)).unwrap();
        log(
            &format!("rated {g}"),
            format!(
                "{fresh} {} {} {} {}",
                round(c.south.before),
                round(c.south.after),
                round(c.north.after),
                round(c.north.deviation_after)
            ),
        );
    }
    log(
        "rating of no account refused",
        ratings
            .rate_game(&RatedResult {
                north: "nobody".into(),
                ..game("rg3", Score::Win, 40)
            })
            .is_err()
            .to_string(),
    );
    log(
        "game changes",
        format!("{:?}", ratings.game_changes("rg2").unwrap().is_some()),
    );
    log(
        "no game changes",
        format!("{:?}", ratings.game_changes("rg3").unwrap()),
    );
    let listed = |v: Vec<hoyito_server::store::PoolRating>| {
        v.iter()
            .map(|r| {
                format!(
                    "{} {} {} {}/{}/{} {}",
                    r.pool,
                    round(r.rating),
                    r.games,
                    r.wins,
                    r.draws,
                    r.losses,
                    r.last_ms
                )
            })
            .collect::<Vec<_>>()
            .join(";")
    };
    log("ratings", listed(ratings.account_ratings("r1").unwrap()));
    let history = |pool| {
        ratings
            .history("r2", pool, 10)
            .unwrap()
            .iter()
            .map(|h| {
                format!(
                    "{} {:?} {} {}",
                    h.game,
                    h.opponent,
                    h.score,
                    round(h.change.after)
                )
            })
            .collect::<Vec<_>>()
            .join(";")
    };
    log("history", history(None));
    log("history of a pool", history(Some("II-blitz")));
    log("history of another pool", history(Some("I-rapid")));
    log(
        "leaderboard",
        format!("{:?}", ratings.leaderboard("II-blitz", 10).unwrap()),
    );
    store.accounts().delete_account("r1").unwrap();
    log("opponent deleted", history(None));
    log("deleted ratings", listed(ratings.account_ratings("r1").unwrap()));
}
