//! The kinds of step ([`StepKind`]) and how a game ended ([`End`]), each
//! with one spelling: the name stored in a step's token (`resign:south`),
//! sent in the views' JSON and read back, the same everywhere.

use serde::{Deserialize, Serialize};

/// Declares a kind enum whose every variant has one name, used by its
/// `name()`, `parse()` and serde alike.
macro_rules! named {
    ($(#[$meta:meta])* $vis:vis enum $ty:ident { $($(#[$vmeta:meta])* $var:ident = $name:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        $vis enum $ty {
            $($(#[$vmeta])* #[serde(rename = $name)] $var,)*
        }

        impl $ty {
            /// Every kind, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$var),*];

            /// The one name of this kind: stored, sent and read back.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$var => $name,)*
                }
            }

            /// The kind a name names (exactly as [`Self::name`] spells it).
            pub fn parse(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$var),)*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named! {
    /// What a step of a room did.
    pub enum StepKind {
        /// A move was played.
        Move = "move",
        /// The next round of a match started (stored as `next`).
        Round = "round",
        /// A round of a match was resigned (`concede:<side>`): the seeds in
        /// play went to the other side and the match went on.
        Concede = "concede",
        /// A player resigned the game or the whole match (`resign:<side>`).
        Resign = "resign",
        /// A player aborted the game before both had moved (`abort:<side>`).
        Abort = "abort",
        /// The players agreed a draw (`draw`).
        Draw = "draw",
        /// A player's clock ran out (`flag:<side>`).
        Flag = "flag",
        /// A player left and the other claimed the win (`left:<side>`).
        Left = "left",
        /// A player left and the other called it a draw (`left-draw:<side>`).
        LeftDraw = "left-draw",
    }
}

named! {
    /// How a game (or a whole match) ended: played to its end, or by the
    /// step that stopped it (the same names as [`StepKind`]).
    pub enum End {
        /// Played to its end.
        Play = "play",
        /// A player resigned.
        Resign = "resign",
        /// A player aborted it before both had moved: nobody won.
        Abort = "abort",
        /// The players agreed a draw.
        Draw = "draw",
        /// A player's clock ran out.
        Flag = "flag",
        /// A player left and the other claimed the win.
        Left = "left",
        /// A player left and the other called it a draw.
        LeftDraw = "left-draw",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_spelling_in_names_and_json() {
        for &k in StepKind::ALL {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
            assert_eq!(serde_json::from_value::<StepKind>(k.name().into()).unwrap(), k);
            assert_eq!(StepKind::parse(k.name()), Some(k));
        }
        for &e in End::ALL {
            assert_eq!(serde_json::to_value(e).unwrap(), e.name());
            assert_eq!(End::parse(e.name()), Some(e));
            // An ending other than play is named as the step that made it.
            if e != End::Play {
                assert!(StepKind::parse(e.name()).is_some(), "{e}");
            }
        }
        assert_eq!(StepKind::parse("left_draw"), None);
    }
}
