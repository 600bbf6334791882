//! Tests of the SQLite store: one store per database, migrations, draw
//! offers and takeback requests.

use super::*;
use crate::store::SCHEMA_VERSION;
use crate::store::{Mode, Offer};
use hoyito_core::{ByPlayer, Rules};

#[test]
fn a_database_is_opened_by_one_store_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let first = Sqlite::open(&db).unwrap();
    let err = Sqlite::open(&db).unwrap_err();
    assert!(matches!(err, OpenError::InUse { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "database {} is in use by another hoyito serve",
            db.display()
        )),
        "{text}"
    );
    drop(first);
    let again = Sqlite::open(&db).unwrap();
    // Another database beside it is not affected.
    let _other = Sqlite::open(&dir.path().join("other.db")).unwrap();
    drop(again);
}

/// A version-2 database gets the `analyses` table, whose rows follow
/// their game.
#[test]
fn version_2_databases_get_the_analyses_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    drop(Sqlite::open(&db).unwrap());
    {
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch("DROP TABLE analyses; PRAGMA user_version = 2;")
            .unwrap();
    }
    let store = Sqlite::open(&db).unwrap();
    let version: i64 = store
        .conn()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    // No game, no analysis (the foreign key holds).
    assert!(store.save_analysis("nogame", 0, 1, "{}").is_err());
    assert_eq!(store.load_analysis("nogame").unwrap(), None);
}

fn game(id: &str) -> (Meta, Summary) {
    let meta = Meta {
        id: id.to_string(),
        created_ms: 1,
        mode: Mode::Online,
        rules: Rules::default(),
        is_match: false,
        level: 3,
        engine_side: None,
        start: None,
        tokens: ByPlayer::new(Some("s".into()), Some("n".into())),
        invite: None,
        names: ByPlayer::new(None, None),
        clock: None,
        public: false,
        rated: false,
        rating_range: None,
    };
    let summary = Summary {
        status: "playing",
        seq: 0,
        result: None,
        score: [0, 0],
        to_move: Some("south"),
    };
    (meta, summary)
}

/// A version-4 database gets the draw offer columns; an offer is
/// stored at the game's step count only, and an undo clears it.
#[test]
fn draw_offers_are_stored_at_the_current_step_and_cleared_by_undo() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (meta, summary) = game("g");
    {
        let store = Sqlite::open(&db).unwrap();
        store.insert_game(&meta, &summary).unwrap();
        store
            .append(
                "g",
                1,
                "1",
                &Summary {
                    seq: 1,
                    ..summary.clone()
                },
            )
            .unwrap();
        let conn = store.conn();
        conn.execute_batch(
            "ALTER TABLE games DROP COLUMN draw_offer; ALTER TABLE games DROP COLUMN draw_offer_seq;
             ALTER TABLE games DROP COLUMN draw_rev; PRAGMA user_version = 4;",
        )
        .unwrap();
    }
    let store = Sqlite::open(&db).unwrap();
    let loaded = store.load("g").unwrap().unwrap();
    assert_eq!(
        (loaded.draw_offer, loaded.draw_rev, loaded.steps.len()),
        (None, 0, 1)
    );
    // Not at an old step, nor in a game that does not exist.
    let err = store.set_draw_offer("g", 0, Some(Side::South)).unwrap_err();
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
    assert!(matches!(
        store.set_draw_offer("nope", 0, Some(Side::South)),
        Err(StoreError::Corrupt(_))
    ));
    assert_eq!(store.set_draw_offer("g", 1, Some(Side::North)).unwrap(), 1);
    let loaded = store.load("g").unwrap().unwrap();
    assert_eq!(
        (loaded.draw_offer, loaded.draw_rev),
        (
            Some(Offer {
                side: Side::North,
                seq: 1
            }),
            1
        )
    );
    assert_eq!(store.set_draw_offer("g", 1, None).unwrap(), 2);
    assert_eq!(store.load("g").unwrap().unwrap().draw_offer, None);
    store.set_draw_offer("g", 1, Some(Side::South)).unwrap();
    store.truncate("g", 0, &summary).unwrap();
    let loaded = store.load("g").unwrap().unwrap();
    assert_eq!((loaded.draw_offer, loaded.draw_rev, loaded.undos), (None, 3, 1));
}

/// A version-5 database gets the takeback columns; a takeback request is
/// stored beside the draw offer at the game's step count only, and an undo
/// clears both.
#[test]
fn takeback_requests_are_stored_beside_draw_offers_and_cleared_by_undo() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (meta, summary) = game("g");
    {
        let store = Sqlite::open(&db).unwrap();
        store.insert_game(&meta, &summary).unwrap();
        let one = Summary {
            seq: 1,
            ..summary.clone()
        };
        store.append("g", 1, "1", &one).unwrap();
        store
            .conn()
            .execute_batch(
                "ALTER TABLE games DROP COLUMN takeback_offer;
                 ALTER TABLE games DROP COLUMN takeback_offer_seq; PRAGMA user_version = 5;",
            )
            .unwrap();
    }
    let store = Sqlite::open(&db).unwrap();
    let version: i64 = store
        .conn()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    assert_eq!(store.load("g").unwrap().unwrap().takeback_offer, None);
    assert!(matches!(
        store.set_takeback_offer("g", 0, Some(Side::South)),
        Err(StoreError::Conflict { .. })
    ));
    assert_eq!(store.set_takeback_offer("g", 1, Some(Side::South)).unwrap(), 1);
    assert_eq!(store.set_draw_offer("g", 1, Some(Side::North)).unwrap(), 2);
    let loaded = store.load("g").unwrap().unwrap();
    let at = |side| Some(Offer { side, seq: 1 });
    assert_eq!(
        (loaded.takeback_offer, loaded.draw_offer, loaded.draw_rev),
        (at(Side::South), at(Side::North), 2)
    );
    // Clearing one leaves the other.
    assert_eq!(store.set_takeback_offer("g", 1, None).unwrap(), 3);
    let loaded = store.load("g").unwrap().unwrap();
    assert_eq!(
        (loaded.takeback_offer, loaded.draw_offer),
        (None, at(Side::North))
    );
    store.set_takeback_offer("g", 1, Some(Side::South)).unwrap();
    store.truncate("g", 0, &summary).unwrap();
    let loaded = store.load("g").unwrap().unwrap();
    assert_eq!(
        (loaded.takeback_offer, loaded.draw_offer, loaded.undos),
        (None, None, 1)
    );
}

/// A version-6 database, whose games count their stored steps in the
/// column `plies`, opens with the column renamed `steps` and every count
/// kept: listed, and checked when a step or an offer is stored.
#[test]
fn version_6_databases_keep_their_step_counts_as_steps() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let counts = [("a", 0), ("b", 2), ("c", 3)];
    {
        let store = Sqlite::open(&db).unwrap();
        for (id, count) in counts {
            let (meta, summary) = game(id);
            let steps: Vec<String> = (1..=count).map(|i| i.to_string()).collect();
            let summary = Summary {
                seq: count,
                ..summary
            };
            store.insert_game_with_steps(&meta, &steps, &summary).unwrap();
        }
        store
            .conn()
            .execute_batch("ALTER TABLE games RENAME COLUMN steps TO plies; PRAGMA user_version = 6;")
            .unwrap();
    }
    let store = Sqlite::open(&db).unwrap();
    let columns: Vec<String> = {
        let conn = store.conn();
        let mut st = conn
            .prepare("SELECT name FROM pragma_table_info('games') WHERE name IN ('plies', 'steps')")
            .unwrap();
        let names = st.query_map([], |r| r.get(0)).unwrap();
        names.collect::<SqlResult<_>>().unwrap()
    };
    assert_eq!(columns, ["steps"]);
    let ids: Vec<String> = counts.iter().map(|(id, _)| id.to_string()).collect();
    let mut listed: Vec<(String, u64)> = store
        .games_by_id(&ids)
        .unwrap()
        .into_iter()
        .map(|g| (g.id, g.seq))
        .collect();
    listed.sort();
    assert_eq!(listed, [("a".into(), 0), ("b".into(), 2), ("c".into(), 3)]);
    // The counts are the ones an offer is checked against, and a new step
    // counts on from them.
    assert!(matches!(
        store.set_draw_offer("b", 3, Some(Side::South)),
        Err(StoreError::Conflict { stored: 2, .. })
    ));
    assert_eq!(store.set_draw_offer("c", 3, Some(Side::South)).unwrap(), 1);
    let (_, summary) = game("b");
    store.append("b", 3, "3", &Summary { seq: 3, ..summary }).unwrap();
    assert_eq!(store.games_by_id(&["b".into()]).unwrap()[0].seq, 3);
    assert_eq!(store.set_draw_offer("b", 3, Some(Side::North)).unwrap(), 1);
}

/// Steps appended at once by many threads are all stored, each game's in
/// order, with each game's last summary.
#[test]
fn steps_appended_at_once_by_many_threads_are_all_stored() {
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(Sqlite::open(&dir.path().join("games.db")).unwrap());
    let games: Vec<String> = (0..8).map(|g| format!("g{g}")).collect();
    for id in &games {
        let (meta, summary) = game(id);
        store.insert_game(&meta, &summary).unwrap();
    }
    let threads: Vec<_> = games
        .iter()
        .map(|id| {
            let (store, id) = (store.clone(), id.clone());
            std::thread::spawn(move || {
                let summary = game(&id).1;
                for seq in 1..=40u64 {
                    let summary = Summary {
                        seq,
                        ..summary.clone()
                    };
                    store
                        .append(&id, seq, &format!("{}", seq % 6 + 1), &summary)
                        .unwrap();
                }
                // The same step again: refused, nothing else changes.
                assert!(store
                    .append(&id, 40, "1", &Summary { seq: 40, ..summary })
                    .is_err());
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for id in &games {
        let loaded = store.load(id).unwrap().unwrap();
        let expected: Vec<String> = (1..=40u64).map(|seq| format!("{}", seq % 6 + 1)).collect();
        assert_eq!(loaded.steps, expected, "{id}");
        let steps: u64 = store
            .conn()
            .query_row("SELECT steps FROM games WHERE id = ?1", [id], |r| r.get(0))
            .unwrap();
        assert_eq!(steps, 40, "{id}");
    }
}

/// A step that fails inside a batch (here: a step already stored) is
/// refused alone; the steps before and after it in the batch are stored.
#[test]
fn a_failing_step_in_a_batch_leaves_the_others_stored() {
    let store = Sqlite::in_memory().unwrap();
    for id in ["a", "b"] {
        let (meta, summary) = game(id);
        store.insert_game(&meta, &summary).unwrap();
    }
    let summary = |seq| Summary { seq, ..game("a").1 };
    store.append("a", 1, "1", &summary(1)).unwrap();
    let (first, first_answer) = appends::Append::new("b", 1, "2", 5, &summary(1));
    let (duplicate, duplicate_answer) = appends::Append::new("a", 1, "3", 5, &summary(1));
    let (last, last_answer) = appends::Append::new("a", 2, "4", 5, &summary(2));
    appends::write(&mut store.conn(), vec![first, duplicate, last]);
    assert!(first_answer.blocking_recv().unwrap().is_ok());
    let err = duplicate_answer.blocking_recv().unwrap().unwrap_err();
    assert!(err.to_string().contains("UNIQUE"), "{err}");
    assert!(last_answer.blocking_recv().unwrap().is_ok());
    assert_eq!(store.load("a").unwrap().unwrap().steps, ["1", "4"]);
    assert_eq!(store.load("b").unwrap().unwrap().steps, ["2"]);
}

/// A version-7 database gets the accounts' tables; a seat link follows its
/// game, and sessions and links follow their account.
#[test]
fn version_7_databases_get_the_accounts_tables() {
    use crate::store::{Account, AccountStorage};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    {
        let store = Sqlite::open(&db).unwrap();
        let (meta, summary) = game("g");
        store.insert_game(&meta, &summary).unwrap();
        store
            .conn()
            .execute_batch(
                "DROP TABLE account_seats; DROP TABLE sessions; DROP TABLE recovery_codes;
                 DROP TABLE accounts; PRAGMA user_version = 7;",
            )
            .unwrap();
    }
    let store = Sqlite::open(&db).unwrap();
    let version: i64 = store
        .conn()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let account = Account {
        id: "a".into(),
        username: "Ana".into(),
        skeleton: "ana".into(),
        password_hash: "h".into(),
        created_ms: 1,
    };
    assert!(store.insert_account(&account, &["c".into()]).unwrap());
    store.insert_session("s", "a", 1, 100).unwrap();
    store.link_seat("g", "south", "a").unwrap();
    // No link to a game or an account that does not exist.
    assert!(store.link_seat("nogame", "south", "a").is_err());
    assert!(store.link_seat("g", "north", "noaccount").is_err());
    assert!(store.insert_session("t", "noaccount", 1, 100).is_err());
    assert_eq!(store.account_seat("a", "g").unwrap().as_deref(), Some("south"));
    // The account's games, each with its seat (the column after the listed game's).
    let games = store.account_games("a", 10, 0).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].game.id.as_str(), games[0].seat.as_str()),
        ("g", "south")
    );
    store
        .conn()
        .execute("DELETE FROM games WHERE id = 'g'", [])
        .unwrap();
    assert_eq!(store.account_seat("a", "g").unwrap(), None);
    store.delete_account("a").unwrap();
    assert_eq!(store.session_account("s", 2).unwrap(), None);
    assert_eq!(store.recovery_codes_left("a").unwrap(), 0);
}

/// A rated game updates both ratings as Glicko-2 says, once however often
/// it ends; its history and the leaderboard follow.
#[test]
fn a_rated_game_is_rated_once() {
    use crate::ratings::{after_game, Rating, Score};
    use crate::store::{Account, AccountStorage, RatedResult, RatingStorage};
    let dir = tempfile::tempdir().unwrap();
    let store = Sqlite::open(&dir.path().join("games.db")).unwrap();
    for (id, name) in [("a", "Ana"), ("b", "Beto")] {
        let account = Account {
            id: id.into(),
            username: name.into(),
            skeleton: name.to_lowercase(),
            password_hash: "h".into(),
            created_ms: 1,
        };
        assert!(store.insert_account(&account, &[]).unwrap());
    }
    let result = RatedResult {
        game: "g".into(),
        pool: "I-rapid".into(),
        south: "a".into(),
        north: "b".into(),
        south_score: Score::Win,
        ended_ms: 5,
    };
    let (first, fresh) = store.rate_game(&result).unwrap();
    assert!(fresh);
    let (south, north) = after_game(Rating::default(), Rating::default(), Score::Win);
    assert_eq!((first.south.before, first.south.after), (1500.0, south.rating));
    assert_eq!(
        (first.north.after, first.north.deviation_after),
        (north.rating, north.deviation)
    );
    // Ended again (another node, another path): the same changes, nothing counted twice.
    let (again, fresh) = store
        .rate_game(&RatedResult {
            south_score: Score::Loss,
            ..result.clone()
        })
        .unwrap();
    assert!(!fresh);
    assert_eq!(again, first);
    let ratings = store.account_ratings("a").unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!((ratings[0].games, ratings[0].wins, ratings[0].losses), (1, 1, 0));
    assert_eq!(ratings[0].rating, south.rating);
    assert_eq!(store.game_changes("g").unwrap(), Some(first));
    let history = store.history("b", Some("I-rapid"), 10).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].opponent.as_deref(), history[0].score),
        (Some("Ana"), 0.0)
    );
    assert!(store.history("b", Some("II-rapid"), 10).unwrap().is_empty());
    // Provisional ratings stay off the leaderboard.
    assert!(store.leaderboard("I-rapid", 10).unwrap().is_empty());
    store
        .conn()
        .execute("UPDATE ratings SET deviation = 100 WHERE account_id = 'a'", [])
        .unwrap();
    let leaders = store.leaderboard("I-rapid", 10).unwrap();
    assert_eq!(
        leaders.iter().map(|l| l.username.as_str()).collect::<Vec<_>>(),
        ["Ana"]
    );
    // A second game starts from the stored ratings.
    let (second, _) = store
        .rate_game(&RatedResult {
            game: "g2".into(),
            south_score: Score::Draw,
            ..result
        })
        .unwrap();
    assert_eq!(second.south.before, south.rating);
    assert_eq!(second.south.deviation_before, 100.0);
    // A deleted account takes its ratings; its opponent's history stays.
    store.delete_account("a").unwrap();
    assert!(store.account_ratings("a").unwrap().is_empty());
    assert_eq!(store.history("b", None, 10).unwrap()[0].opponent, None);
}

/// A version-9 database gets the passkeys' tables; a passkey follows its
/// account, a ceremony is taken once, and the last way to sign in stays.
#[test]
fn version_9_databases_get_the_passkeys_tables() {
    use crate::store::{
        Account, AccountStorage, Ceremony, NewAccount, PasskeyStorage, Removal, StoredPasskey,
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    {
        let store = Sqlite::open(&db).unwrap();
        store
            .conn()
            .execute_batch("DROP TABLE passkeys; DROP TABLE passkey_ceremonies; PRAGMA user_version = 9;")
            .unwrap();
    }
    let store = Sqlite::open(&db).unwrap();
    let version: i64 = store
        .conn()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let ceremony = Ceremony {
        id_hash: "c".into(),
        kind: "sign_up".into(),
        account_id: Some("a".into()),
        username: Some("Ana".into()),
        origin: "http://localhost:8080".into(),
        state: "{}".into(),
        expires_ms: 100,
    };
    store.insert_ceremony(&ceremony, 1).unwrap();
    assert_eq!(store.take_ceremony("c", 99).unwrap(), Some(ceremony.clone()));
    assert_eq!(store.take_ceremony("c", 99).unwrap(), None);
    store.insert_ceremony(&ceremony, 1).unwrap();
    assert_eq!(store.take_ceremony("c", 100).unwrap(), None, "expired");
    let account = Account {
        id: "a".into(),
        username: "Ana".into(),
        skeleton: "ana".into(),
        password_hash: String::new(),
        created_ms: 1,
    };
    let key = |id: &str, credential: &str| StoredPasskey {
        id: id.into(),
        account_id: "a".into(),
        credential_id: credential.into(),
        passkey: "{}".into(),
        created_ms: 1,
        last_used_ms: None,
    };
    assert_eq!(
        store
            .insert_account_with_passkey(&account, &["r".into()], &key("k1", "c1"))
            .unwrap(),
        NewAccount::Created
    );
    assert!(store.insert_passkey(&key("k2", "c2")).unwrap());
    assert!(
        !store.insert_passkey(&key("k3", "c2")).unwrap(),
        "a credential once"
    );
    assert_eq!(store.remove_passkey("a", "k2").unwrap(), Removal::Removed);
    assert_eq!(store.remove_passkey("a", "k1").unwrap(), Removal::LastSignIn);
    assert_eq!(store.remove_passkey("a", "k9").unwrap(), Removal::NotFound);
    store.passkey_used("k1", Some("{\"n\":1}"), 7).unwrap();
    let (found, owner) = store.passkey_by_credential("c1").unwrap().unwrap();
    assert_eq!(
        (found.last_used_ms, found.passkey.as_str(), owner.id.as_str()),
        (Some(7), "{\"n\":1}", "a")
    );
    store.delete_account("a").unwrap();
    assert_eq!(store.passkey_by_credential("c1").unwrap(), None);
    assert_eq!(store.account_passkeys("a").unwrap(), []);
}

#[test]
fn a_puzzle_rating_is_stored_once_per_attempt_and_goes_with_its_account() {
    use crate::store::{Account, AccountStorage, PuzzleRating, RatingStorage};
    let store = Sqlite::in_memory().unwrap();
    let account = Account {
        id: "a".into(),
        username: "Ana".into(),
        skeleton: "ana".into(),
        password_hash: "h".into(),
        created_ms: 1,
    };
    assert!(store.insert_account(&account, &[]).unwrap());
    let kept = |rating: f64, attempts: i64| PuzzleRating {
        rating,
        deviation: 200.0,
        volatility: 0.06,
        attempts,
        updated_ms: 9,
    };
    assert_eq!(store.puzzle_rating("a").unwrap(), None);
    assert!(store.store_puzzle_rating("a", &kept(1550.0, 1)).unwrap());
    // A second first attempt (another request at the same time) is not stored over it.
    assert!(!store.store_puzzle_rating("a", &kept(1560.0, 1)).unwrap());
    assert!(!store.store_puzzle_rating("a", &kept(1560.0, 3)).unwrap());
    assert!(store.store_puzzle_rating("a", &kept(1540.0, 2)).unwrap());
    assert_eq!(store.puzzle_rating("a").unwrap(), Some(kept(1540.0, 2)));
    assert!(store.store_puzzle_rating("nobody", &kept(1500.0, 1)).is_err());
    store.delete_account("a").unwrap();
    assert_eq!(store.puzzle_rating("a").unwrap(), None);
}
