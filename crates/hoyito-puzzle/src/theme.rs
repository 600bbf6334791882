//! The themes of a puzzle, read from the traced moves of its solution
//! ([`TracedMove`]): only what a sowing's trace says, never a guess.

use hoyito_core::{CaptureKind, EndReason, TracedMove};

/// Laps from which a sowing counts as long ([`Theme::LongSowing`]).
pub const LONG_SOWING_LAPS: u32 = 6;

/// What a solver's move of a puzzle does (RULES.md §2–§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The last seed of a lap made a casa, which was captured.
    Casa,
    /// Hoyito II's backward chain: casas behind the last seed's casa captured too.
    Chain,
    /// Hoyito I: a casa captured in the middle of a lap, the sowing going on.
    EnPassant,
    /// The sowing went on in a second lap (relay) or more.
    Relay,
    /// A sowing of [`LONG_SOWING_LAPS`] laps or more.
    LongSowing,
    /// A capture gave the mover another turn (Hoyito II, III).
    ExtraTurn,
    /// The opponent had no legal move after it and passed.
    Pass,
    /// A capture left the last four seeds in play, which went to the captor.
    LastFour,
    /// The move repeated a position for the third time: the game ended and
    /// the seeds in play were shared.
    Repetition,
}

impl Theme {
    /// Every theme, in the order they are listed.
    pub const ALL: [Theme; 9] = [
        Theme::Casa,
        Theme::Chain,
        Theme::EnPassant,
        Theme::Relay,
        Theme::LongSowing,
        Theme::ExtraTurn,
        Theme::Pass,
        Theme::LastFour,
        Theme::Repetition,
    ];

    /// The theme's name in the puzzles' JSON (`casa`, `chain`, `en_passant`,
    /// `relay`, `long_sowing`, `extra_turn`, `pass`, `last_four`, `repetition`).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Casa => "casa",
            Theme::Chain => "chain",
            Theme::EnPassant => "en_passant",
            Theme::Relay => "relay",
            Theme::LongSowing => "long_sowing",
            Theme::ExtraTurn => "extra_turn",
            Theme::Pass => "pass",
            Theme::LastFour => "last_four",
            Theme::Repetition => "repetition",
        }
    }

    /// The theme named `name` ([`Theme::name`]).
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The themes of one move, committed to a game (so that the repetition
    /// rule has been applied), in [`Theme::ALL`]'s order.
    pub fn of_move(t: &TracedMove) -> Vec<Theme> {
        let kinds = |k: CaptureKind| t.captures().iter().any(|c| c.kind == k);
        let end = t.round_over().map(|o| o.reason);
        let has = [
            kinds(CaptureKind::Casa),
            kinds(CaptureKind::Chain),
            kinds(CaptureKind::EnPassant),
            t.laps() >= 2,
            t.laps() >= LONG_SOWING_LAPS,
            t.extra_turn(),
            t.passed().is_some(),
            end == Some(EndReason::LastFour),
            end == Some(EndReason::Repetition),
        ];
        Theme::ALL
            .into_iter()
            .zip(has)
            .filter_map(|(theme, yes)| yes.then_some(theme))
            .collect()
    }
}

impl std::fmt::Display for Theme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{Game, Position, Rules, Variant, MAX_TRACE_EVENTS};

    #[test]
    fn names_round_trip() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_name(t.name()), Some(t));
        }
        assert_eq!(Theme::from_name("fork"), None);
    }

    #[test]
    fn a_final_casa_with_an_extra_turn() {
        // Hoyito II, South's hole 1 (3 seeds) lands its last seed in hole 4,
        // which then holds 4: a casa, and another turn.
        let rules = Rules::new(Variant::II, 4).unwrap();
        let pos = Position::from_notation(rules, "3,0,0,3/1,1,1,7 s 4-12").unwrap();
        let mut game = Game::from_position(pos);
        let t = game.play_traced("1", MAX_TRACE_EVENTS).unwrap();
        assert_eq!(Theme::of_move(&t), vec![Theme::Casa, Theme::ExtraTurn]);
    }

    #[test]
    fn a_quiet_move_has_no_theme() {
        // South's single seed falls into an empty hole.
        let rules = Rules::new(Variant::III, 4).unwrap();
        let pos = Position::from_notation(rules, "1,0,0,3/1,1,1,9 s 4-12").unwrap();
        let t = Game::from_position(pos)
            .play_traced("1", MAX_TRACE_EVENTS)
            .unwrap();
        assert!(t.captures().is_empty() && t.laps() == 1, "{t:?}");
        assert!(Theme::of_move(&t).is_empty());
    }
}
