//! The PostgreSQL schema: databases of older versions are migrated when
//! opened, and nodes of schema version 3, which count a game's stored steps
//! in the column `plies`, share a migrated database with the nodes of this
//! version, which count them in `steps`.

use hoyito_core::{Rules, Side};
use hoyito_server::store::{Mode, Offer, StoreError, PG_OLDEST_SHARING, PG_SCHEMA_VERSION};
use hoyito_server::Store;
use postgres::Client;

use super::{fresh_db, meta, open, summary};

fn client(url: &str) -> Client {
    Client::connect(url, postgres::NoTls).expect("connect to the test database")
}

/// Takes a database made by this version back to what a node of schema
/// version 3 made: `plies` alone counts the steps (the trigger kept it
/// equal to `steps`), and `hoyito_schema` holds one number.
fn back_to_version_3(client: &mut Client) {
    client
        .batch_execute(
            "DROP TRIGGER games_steps_plies ON games;
             DROP FUNCTION games_steps_plies();
             ALTER TABLE games DROP COLUMN steps;
             ALTER TABLE hoyito_schema DROP COLUMN applied;
             UPDATE hoyito_schema SET version = 3;",
        )
        .unwrap();
}

/// `hoyito_schema`'s two numbers: the oldest version whose nodes may use
/// the database, and the migrations applied.
fn schema_numbers(client: &mut Client) -> (i32, i32) {
    let row = client
        .query_one("SELECT version, applied FROM hoyito_schema", &[])
        .unwrap();
    (row.get(0), row.get(1))
}

/// Each game's `(id, steps, plies)`, by id.
fn counts(client: &mut Client) -> Vec<(String, i64, i64)> {
    client
        .query("SELECT id, steps, plies FROM games ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

/// The listed step count of game `id` (the game view's `seq`).
fn listed_seq(store: &Store, id: &str) -> u64 {
    store.games_by_id(&[id.to_string()]).unwrap()[0].seq
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_version_2_database_gets_the_takeback_columns() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let first = open(&url).await;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        first
            .insert_game(&meta("g", Mode::Online, false), &summary("playing", 0))
            .unwrap();
        drop(first);
        let mut client = client(&u);
        back_to_version_3(&mut client);
        client
            .batch_execute(
                "ALTER TABLE games DROP COLUMN takeback_offer, DROP COLUMN takeback_offer_seq;
                 UPDATE hoyito_schema SET version = 2;",
            )
            .unwrap();
    })
    .await
    .unwrap();
    let again = open(&url).await;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        assert_eq!(again.set_takeback_offer("g", 0, Some(Side::South)).unwrap(), 1);
        let g = again.load("g").unwrap().unwrap();
        assert_eq!(
            (g.takeback_offer, g.draw_offer),
            (
                Some(Offer {
                    side: Side::South,
                    seq: 0
                }),
                None
            )
        );
        assert_eq!(
            schema_numbers(&mut client(&u)),
            (PG_OLDEST_SHARING, PG_SCHEMA_VERSION)
        );
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_version_1_database_gets_the_draw_offer_columns() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let first = open(&url).await;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        first
            .insert_game(&meta("g", Mode::Online, false), &summary("playing", 0))
            .unwrap();
        drop(first);
        let mut client = client(&u);
        back_to_version_3(&mut client);
        client
            .batch_execute(
                "ALTER TABLE games DROP COLUMN draw_offer, DROP COLUMN draw_offer_seq, DROP COLUMN draw_rev;
                 UPDATE hoyito_schema SET version = 1;",
            )
            .unwrap();
    })
    .await
    .unwrap();
    let again = open(&url).await;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        assert_eq!(again.set_draw_offer("g", 0, Some(Side::North)).unwrap(), 1);
        let g = again.load("g").unwrap().unwrap();
        assert_eq!(
            g.draw_offer,
            Some(Offer {
                side: Side::North,
                seq: 0
            })
        );
        assert_eq!(
            schema_numbers(&mut client(&u)),
            (PG_OLDEST_SHARING, PG_SCHEMA_VERSION)
        );
    })
    .await
    .unwrap();
}

/// A version-3 database with games opens with each game's count of stored
/// steps in `steps`, and steps are stored on from those counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_version_3_database_keeps_its_step_counts_in_steps() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let first = open(&url).await;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        first
            .insert_game(&meta("a", Mode::Hotseat, false), &summary("playing", 0))
            .unwrap();
        first
            .insert_game_with_steps(
                &meta("b", Mode::Hotseat, false),
                &["1".into(), "2".into()],
                &summary("playing", 2),
            )
            .unwrap();
        first
            .insert_game(&meta("c", Mode::Hotseat, false), &summary("playing", 0))
            .unwrap();
        for seq in 1..=3 {
            first
                .append("c", seq, &seq.to_string(), &summary("playing", seq))
                .unwrap();
        }
        drop(first);
        let mut client = client(&u);
        back_to_version_3(&mut client);
        let plies: Vec<(String, i64)> = client
            .query("SELECT id, plies FROM games ORDER BY id", &[])
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        assert_eq!(plies, [("a".into(), 0), ("b".into(), 2), ("c".into(), 3)]);
    })
    .await
    .unwrap();
    let store = open(&url).await;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        let mut client = client(&u);
        assert_eq!(
            counts(&mut client),
            [("a".into(), 0, 0), ("b".into(), 2, 2), ("c".into(), 3, 3)]
        );
        assert_eq!(schema_numbers(&mut client), (3, PG_SCHEMA_VERSION));
        assert_eq!(["a", "b", "c"].map(|id| listed_seq(&store, id)), [0, 2, 3]);
        let err = store.append("b", 2, "x", &summary("playing", 2)).unwrap_err();
        assert!(matches!(err, StoreError::Conflict { stored: 2, .. }), "{err:?}");
        store.append("b", 3, "3", &summary("playing", 3)).unwrap();
        assert_eq!(store.load("b").unwrap().unwrap().steps, ["1", "2", "3"]);
        assert_eq!(counts(&mut client)[1], ("b".into(), 3, 3));
    })
    .await
    .unwrap();
}

/// A node of schema version 3 writes `plies` only and reads `plies`; a node
/// of this version writes `steps` only and reads `steps`. On a migrated
/// database each sees the counts the other stores, and the older node
/// still accepts the database (its schema check reads `version`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn nodes_of_version_3_and_of_this_version_share_the_step_counts() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let store = open(&url).await;
    tokio::task::spawn_blocking(move || {
        let mut old = client(&url);
        // What a version-3 node checks when it connects.
        let version: i32 = old
            .query_one("SELECT version FROM hoyito_schema", &[])
            .unwrap()
            .get(0);
        assert!(version <= 3, "a version-3 node refuses schema version {version}");
        // The version-3 node's statements: a new game, a step stored after
        // locking the row and reading its count, as that version does.
        let old_plies = |old: &mut Client, id: &str| -> i64 {
            old.query_one("SELECT plies FROM games WHERE id = $1", &[&id])
                .unwrap()
                .get(0)
        };
        let old_append = |old: &mut Client, id: &str, token: &str| {
            let mut tx = old.transaction().unwrap();
            let stored: i64 = tx
                .query_one("SELECT plies FROM games WHERE id = $1 FOR UPDATE", &[&id])
                .unwrap()
                .get(0);
            tx.execute(
                "INSERT INTO moves (game_id, seq, token, at_ms) VALUES ($1, $2, $3, 0)",
                &[&id, &(stored + 1), &token],
            )
            .unwrap();
            tx.execute(
                "UPDATE games SET updated_ms = 1, status = 'playing', plies = $2, result = NULL,
                    score_south = 0, score_north = 0, to_move = 'south' WHERE id = $1",
                &[&id, &(stored + 1)],
            )
            .unwrap();
            tx.commit().unwrap();
        };
        let rules = serde_json::to_string(&Rules::default().spec()).unwrap();
        old.execute(
            "INSERT INTO games (id, created_ms, updated_ms, mode, rules, is_match, level, engine_side,
                start, south_token, north_token, invite, status, plies, result, score_south, score_north,
                south_name, north_name, clock, public, to_move)
             VALUES ('old', 1, 1, 'hotseat', $1, FALSE, 3, NULL, NULL, 'hash-s', NULL, NULL,
                'playing', 0, NULL, 0, 0, NULL, NULL, NULL, FALSE, 'south')",
            &[&rules],
        )
        .unwrap();

        // Written through `plies`, read through `steps`.
        old_append(&mut old, "old", "1");
        old_append(&mut old, "old", "2");
        assert_eq!(listed_seq(&store, "old"), 2);
        let err = store.append("old", 2, "x", &summary("playing", 2)).unwrap_err();
        assert!(matches!(err, StoreError::Conflict { stored: 2, .. }), "{err:?}");
        // Written through `steps`, read through `plies`.
        store.append("old", 3, "3", &summary("playing", 3)).unwrap();
        assert_eq!(old_plies(&mut old, "old"), 3);
        old_append(&mut old, "old", "4");
        assert_eq!(listed_seq(&store, "old"), 4);
        assert_eq!(store.load("old").unwrap().unwrap().steps, ["1", "2", "3", "4"]);

        // A game this version makes, and its undo, as the old node sees them.
        store
            .insert_game_with_steps(
                &meta("new", Mode::Hotseat, false),
                &["1".into(), "2".into()],
                &summary("playing", 2),
            )
            .unwrap();
        assert_eq!(old_plies(&mut old, "new"), 2);
        store.truncate("new", 1, &summary("playing", 1)).unwrap();
        assert_eq!(old_plies(&mut old, "new"), 1);
        old_append(&mut old, "new", "2");
        assert_eq!(listed_seq(&store, "new"), 2);
        assert_eq!(counts(&mut old), [("new".into(), 2, 2), ("old".into(), 4, 4)]);
    })
    .await
    .unwrap();
}

/// A database only nodes newer than this one may use is refused; one that
/// a newer node migrated but that nodes of this version may still use
/// opens as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_database_for_newer_nodes_only_is_refused() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    drop(open(&url).await);
    let newer = PG_SCHEMA_VERSION + 1;
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        let mut client = client(&u);
        client
            .execute(
                "UPDATE hoyito_schema SET version = $1, applied = $2",
                &[&PG_SCHEMA_VERSION, &newer],
            )
            .unwrap();
        let store = Store::open(std::path::Path::new(&u)).expect("usable by this version");
        drop(store);
        assert_eq!(schema_numbers(&mut client), (PG_SCHEMA_VERSION, newer));
        client
            .execute("UPDATE hoyito_schema SET version = $1", &[&newer])
            .unwrap();
        let err = Store::open(std::path::Path::new(&u)).unwrap_err();
        // The whole chain, as the command prints it: where, then why.
        let err = std::iter::successors(Some(&err as &dyn std::error::Error), |e| e.source())
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(": ");
        assert!(
            err.contains(&format!(
                "for nodes of version {newer} or later; this hoyito has version {PG_SCHEMA_VERSION}"
            )),
            "{err}"
        );
    })
    .await
    .unwrap();
}

/// A version-6 database (accounts and ratings, no passkeys) gets the
/// passkeys' tables and nothing else: `version` stays what nodes of
/// version 3 accept, and a node of version 6 deleting an account takes
/// its passkeys with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_version_6_database_gets_the_passkeys_tables() {
    use hoyito_server::store::{Account, NewAccount, StoredPasskey};
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    drop(open(&url).await);
    let u = url.clone();
    tokio::task::spawn_blocking(move || {
        let mut client = client(&u);
        client
            .batch_execute(
                "DROP TABLE passkeys; DROP TABLE passkey_ceremonies;
                 UPDATE hoyito_schema SET applied = 6;",
            )
            .unwrap();
        let store = Store::open(std::path::Path::new(&u)).expect("migrated");
        assert_eq!(
            schema_numbers(&mut client),
            (PG_OLDEST_SHARING, PG_SCHEMA_VERSION)
        );
        let account = Account {
            id: "a".into(),
            username: "Ana".into(),
            skeleton: "ana".into(),
            password_hash: String::new(),
            created_ms: 1,
        };
        let key = StoredPasskey {
            id: "k".into(),
            account_id: "a".into(),
            credential_id: "c".into(),
            passkey: "{}".into(),
            created_ms: 1,
            last_used_ms: None,
        };
        assert_eq!(
            store
                .passkeys()
                .insert_account_with_passkey(&account, &[], &key)
                .unwrap(),
            NewAccount::Created
        );
        // What a node of version 6 does to delete an account.
        client
            .execute("DELETE FROM accounts WHERE id = 'a'", &[])
            .unwrap();
        assert_eq!(store.passkeys().passkey_by_credential("c").unwrap(), None);
        let left: i64 = client
            .query_one("SELECT COUNT(*) FROM passkeys", &[])
            .unwrap()
            .get(0);
        assert_eq!(left, 0);
    })
    .await
    .unwrap();
}
