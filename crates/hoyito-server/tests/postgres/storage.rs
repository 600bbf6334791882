//! The storage calls on PostgreSQL: they answer as SQLite's do, and a step
//! that does not follow the last stored one is refused.

use hoyito_core::Side;
use hoyito_server::store::{LobbyKind, Mode, StoreError};
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
    out
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
    assert_eq!(count, 3);
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
