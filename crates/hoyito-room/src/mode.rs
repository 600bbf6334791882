//! How a game is played: against the engine, two on one device, or online.

use serde::{Deserialize, Serialize};

/// How a game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people on one device: one seat moves for both sides.
    Hotseat,
    /// Two people on two devices.
    Online,
}

impl Mode {
    /// The name stored and sent: `engine`, `hotseat`, `online`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Hotseat => "hotseat",
            Mode::Online => "online",
        }
    }

    /// The mode a name names.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "engine" => Some(Mode::Engine),
            "hotseat" => Some(Mode::Hotseat),
            "online" => Some(Mode::Online),
            _ => None,
        }
    }
}
