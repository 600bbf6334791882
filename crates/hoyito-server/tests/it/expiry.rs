//! Abandoned games expire: `Storage::delete_abandoned` deletes the online
//! games still waiting for their second player that have not changed since
//! the time it is given (the clock is passed in), with their moves and
//! chat, and nothing else; in SQLite and in PostgreSQL.
//!
//! The PostgreSQL test needs `HOYITO_TEST_POSTGRES` (see tests/postgres.rs)
//! and runs with `-- --ignored`.

use std::sync::atomic::{AtomicU32, Ordering};

use hoyito_core::{ByPlayer, Rules, Side};
use hoyito_server::store::{Meta, Mode, Summary};
use hoyito_server::Store;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// When the old games were created.
const T0: i64 = 1_700_000_000_000;

fn meta(id: &str, mode: Mode, created_ms: i64) -> Meta {
    Meta {
        id: id.to_string(),
        created_ms,
        mode,
        rules: Rules::default(),
        is_match: false,
        level: 3,
        engine_side: (mode == Mode::Engine).then_some(Side::North),
        start: None,
        tokens: ByPlayer::new(Some("hash-s".into()), None),
        invite: (mode == Mode::Online).then(|| "hash-i".into()),
        names: ByPlayer::new(None, None),
        clock: None,
        public: false,
        rated: false,
        rating_range: None,
    }
}

fn summary(status: &'static str, seq: u64) -> Summary {
    Summary {
        status,
        seq,
        result: None,
        score: [0, 0],
        to_move: Some("south"),
    }
}

fn check_expiry(store: &Store) {
    let insert = |id: &str, mode: Mode, created_ms: i64, status: &'static str| {
        store
            .insert_game(&meta(id, mode, created_ms), &summary(status, 0))
            .unwrap();
    };
    insert("old1", Mode::Online, T0, "waiting");
    insert("old2", Mode::Online, T0 + DAY_MS, "waiting");
    let mut public = meta("old3", Mode::Online, T0);
    public.public = true;
    store.insert_game(&public, &summary("waiting", 0)).unwrap();
    store.add_chat("old1", Side::South, "anyone?", T0 + 1).unwrap();
    // Not abandoned: created at the limit, joined, played alone lately, not online.
    let limit = T0 + 7 * DAY_MS;
    insert("fresh", Mode::Online, limit, "waiting");
    insert("joined", Mode::Online, T0, "waiting");
    store
        .bind_seat("joined", Side::North, "hash-n", None, &summary("playing", 0))
        .unwrap();
    insert("moved", Mode::Online, T0, "waiting");
    store.append("moved", 1, "3", &summary("waiting", 1)).unwrap();
    insert("hotseat", Mode::Hotseat, T0, "playing");
    insert("engine", Mode::Engine, T0, "playing");

    // In batches of at most `limit`.
    let mut first = store.delete_abandoned(limit, 2).unwrap();
    assert_eq!(first.len(), 2, "{first:?}");
    let rest = store.delete_abandoned(limit, 2).unwrap();
    assert_eq!(rest.len(), 1, "{rest:?}");
    first.extend(rest);
    first.sort();
    assert_eq!(first, ["old1", "old2", "old3"]);
    assert_eq!(store.delete_abandoned(limit, 2).unwrap(), Vec::<String>::new());

    for id in ["old1", "old2", "old3"] {
        assert!(store.load(id).unwrap().is_none(), "{id} is deleted");
    }
    assert!(store.chat("old1", 100).unwrap().is_empty(), "its chat too");
    for id in ["fresh", "joined", "moved", "hotseat", "engine"] {
        assert!(store.load(id).unwrap().is_some(), "{id} is kept");
    }
    assert_eq!(store.count().unwrap(), 5);
    // A day later, the game created at the old limit is abandoned too.
    assert_eq!(store.delete_abandoned(limit + DAY_MS, 100).unwrap(), ["fresh"]);
}

#[test]
fn abandoned_games_expire_in_sqlite() {
    check_expiry(&Store::in_memory().unwrap());
    let dir = tempfile::tempdir().unwrap();
    check_expiry(&Store::open(&dir.path().join("expiry.db")).unwrap());
}

#[test]
#[ignore = "needs HOYITO_TEST_POSTGRES (scripts/postgres.sh)"]
fn abandoned_games_expire_in_postgres() {
    static N: AtomicU32 = AtomicU32::new(0);
    let admin = std::env::var("HOYITO_TEST_POSTGRES")
        .expect("HOYITO_TEST_POSTGRES: the URL of a PostgreSQL server whose user may create databases");
    let name = format!(
        "hoyito_expiry_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let mut client = postgres::Client::connect(&admin, postgres::NoTls).expect("connect");
    client
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
        .expect("drop an old test database");
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create a test database");
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    let url = format!("{base}/{name}");
    let store = Store::open(std::path::Path::new(&url)).expect("open PostgreSQL");
    check_expiry(&store);
}
