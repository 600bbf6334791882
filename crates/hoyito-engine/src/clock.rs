//! The clock searches read their time limits from: `std::time::Instant`,
//! except on `wasm32-unknown-unknown`, where it panics and `web-time`'s
//! `Instant` (the browser's `performance.now()`) stands in.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;
