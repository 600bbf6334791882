//! The HTTP handlers, by concern.

pub(crate) mod analysis;
pub(crate) mod chat;
pub(crate) mod draw;
pub(crate) mod games;
pub(crate) mod lobby;
pub(crate) mod play;
