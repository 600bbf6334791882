//! The HTTP handlers, by concern.

pub(crate) mod analysis;
pub(crate) mod games;
pub(crate) mod play;
