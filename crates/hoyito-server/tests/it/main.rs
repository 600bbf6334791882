//! The server's integration tests, one test binary: each module was a test
//! binary of its own (`tests/<name>.rs`); one binary links once.
//! `cargo test -p hoyito-server --test it <module>::` runs one module's tests,
//! e.g. `cargo test -p hoyito-server --test it -- --ignored postgres::` the
//! PostgreSQL ones against `HOYITO_TEST_POSTGRES` (scripts/postgres.sh).

mod common;

mod analysis;
mod api;
mod bounds;
mod client_limits;
mod consistency;
mod endings;
mod expiry;
mod impersonation;
mod invisible;
mod limits;
mod metrics;
mod passkeys;
mod postgres;
mod presence;
mod privacy;
mod puzzles;
mod quota;
mod rematch;
mod resign;
mod rules_text;
mod secrets;
mod serving;
mod storage_faults;
mod store_pool;
mod tablebase;
mod tables_download;
mod takeback;
