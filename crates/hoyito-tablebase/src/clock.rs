//! The clock the exact search reads its deadline from: `std::time::Instant`,
//! except on `wasm32-unknown-unknown`, where it panics and `web-time`'s
//! `Instant` (the browser's `performance.now()`) stands in, as in the
//! engine, which hands its deadlines to the search.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;
