//! The board and options the environment asks for (`HOYITO_HOLES`,
//! `HOYITO_SEEDS`, `HOYITO_CAPTURE_SIDE`).

/// `HOYITO_CAPTURE_SIDE` (`any` by default).
pub(crate) fn capture_side_from_env() -> hoyito_core::CaptureSide {
    std::env::var("HOYITO_CAPTURE_SIDE")
        .ok()
        .map(|v| v.parse().expect("HOYITO_CAPTURE_SIDE is any or opponent"))
        .unwrap_or_default()
}

/// Holes per row (`HOYITO_HOLES`, default 6) and seeds per hole
/// (`HOYITO_SEEDS`, default 4).
pub(crate) fn board_from_env() -> (u8, u8) {
    let var = |name: &str, default: u8| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    (var("HOYITO_HOLES", 6), var("HOYITO_SEEDS", 4))
}
