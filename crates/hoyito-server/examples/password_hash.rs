//! How long the server's argon2id password hash takes
//! (`hoyito_server::passwords::PARAMS`), and how many sign-ins a second two
//! threads check: the data behind the server's parameters
//! (docs/PERFORMANCE.md).
//!
//! ```text
//! cargo run --release -p hoyito-server --example password_hash -- [HASHES]
//! ```
//!
//! Hashes `HASHES` (default 50) passwords on one thread and prints the
//! median and slowest time of one hash; then checks `HASHES` passwords on
//! two threads at once and prints the hashes a second.

use std::time::{Duration, Instant};

use hoyito_server::passwords::{hash_password, verify_password, PARAMS};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let (m, t, p) = PARAMS;
    println!("argon2id m={m} KiB t={t} p={p}");
    let mut times: Vec<Duration> = (0..n)
        .map(|i| {
            let start = Instant::now();
            hash_password(&format!("password number {i}")).expect("a hash");
            start.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "one thread: median {:.1} ms, slowest {:.1} ms",
        times[n / 2].as_secs_f64() * 1e3,
        times[n - 1].as_secs_f64() * 1e3
    );
    let hash = hash_password("the password").expect("a hash");
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                for _ in 0..n / 2 {
                    assert!(!verify_password("not the password", &hash));
                }
            });
        }
    });
    let each = start.elapsed().as_secs_f64() / (2 * (n / 2)) as f64;
    println!("two threads: {:.0} checks a second", 1.0 / each);
}
