//! A player who left: in an online game with a clock of minutes and
//! seconds, once one player has been disconnected for a while
//! ([`CLAIM_AFTER_MS`] by default) while the other is connected, the other
//! may claim the win or call it a draw ([`Room::check_claim`]). The room
//! knows no sockets and no time: the caller (the server, which tracks the
//! connections) says who is away and for how long ([`Absence`]).

use hoyito_core::Side;

use crate::mode::Mode;
use crate::room::Room;
use crate::stop::Stop;
use crate::RoomError;

/// How long a player must have been disconnected before the other may
/// claim, by default: 60 seconds.
pub const CLAIM_AFTER_MS: u64 = 60_000;

/// What the player who stayed asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The win: the player who left loses ([`Stop::Left`]).
    Win,
    /// A draw ([`Stop::LeftDraw`]).
    Draw,
}

/// Who is connected to a game, as the caller knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Absence {
    /// The game has a clock of minutes and seconds (not days per move: a
    /// correspondence player is away most of the time, and their clock
    /// decides).
    pub realtime_clock: bool,
    /// How long each side has been disconnected, `[south, north]`; `None`
    /// while connected.
    pub away_ms: [Option<u64>; 2],
    /// How long a player must be away before the other may claim.
    pub claim_after_ms: u64,
}

fn idx(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 1,
    }
}

impl Room {
    /// Whether claims against a player who left can apply to this room at
    /// all: an online game with a clock of minutes that goes on.
    fn claims_apply(&self, a: &Absence) -> Result<(), RoomError> {
        if self.setup().mode != Mode::Online || !a.realtime_clock {
            return Err(RoomError::ClaimUnavailable(
                "only in an online game with a clock of minutes can a player claim against one who left",
            ));
        }
        self.check_resign()
    }

    /// The side that may claim against a disconnected opponent, and in how
    /// many milliseconds from now it may (0: now); `None` unless exactly one
    /// player is away in a game where claims apply.
    pub fn claim_window(&self, a: &Absence) -> Option<(Side, u64)> {
        self.claims_apply(a).ok()?;
        let (claimant, away) = match a.away_ms {
            [None, Some(ms)] => (Side::South, ms),
            [Some(ms), None] => (Side::North, ms),
            _ => return None,
        };
        Some((claimant, a.claim_after_ms.saturating_sub(away)))
    }

    /// Checks that `claimant` may end the game now because the other player
    /// left, and returns the stop it ends with: [`Stop::Left`] for the win,
    /// [`Stop::LeftDraw`] for a draw. Changes nothing.
    ///
    /// # Errors
    /// [`RoomError::ClaimUnavailable`] outside an online game with a clock
    /// of minutes, or while the claimant is not connected;
    /// [`RoomError::Stopped`] or [`RoomError::Over`] once it is over;
    /// [`RoomError::OpponentConnected`] while the other player is
    /// connected; [`RoomError::TooEarlyToClaim`] before they have been
    /// away for [`Absence::claim_after_ms`].
    pub fn check_claim(&self, claimant: Side, claim: Claim, a: &Absence) -> Result<Stop, RoomError> {
        self.claims_apply(a)?;
        if a.away_ms[idx(claimant)].is_some() {
            return Err(RoomError::ClaimUnavailable(
                "you are not connected to the game: open it to claim",
            ));
        }
        let other = claimant.other();
        let Some(away) = a.away_ms[idx(other)] else {
            return Err(RoomError::OpponentConnected);
        };
        if away < a.claim_after_ms {
            return Err(RoomError::TooEarlyToClaim {
                seconds: (a.claim_after_ms - away).div_ceil(1000),
            });
        }
        let stop = match claim {
            Claim::Win => Stop::Left(other),
            Claim::Draw => Stop::LeftDraw(other),
        };
        self.check_stop(stop)?;
        Ok(stop)
    }
}

#[cfg(test)]
mod tests {
    use hoyito_core::Rules;

    use super::*;
    use crate::Setup;

    fn room(mode: Mode) -> Room {
        Room::new(
            Setup {
                mode,
                rules: Rules::default(),
                is_match: false,
                engine_side: None,
                start: None,
            },
            0,
        )
        .unwrap()
    }

    fn away(south: Option<u64>, north: Option<u64>) -> Absence {
        Absence {
            realtime_clock: true,
            away_ms: [south, north],
            claim_after_ms: CLAIM_AFTER_MS,
        }
    }

    #[test]
    fn the_player_who_stayed_claims_once_the_other_was_away_long_enough() {
        let mut r = room(Mode::Online);
        let gone = away(None, Some(CLAIM_AFTER_MS));
        assert_eq!(r.claim_window(&gone), Some((Side::South, 0)));
        assert_eq!(
            r.claim_window(&away(None, Some(15_000))),
            Some((Side::South, 45_000))
        );
        assert_eq!(
            r.check_claim(Side::South, Claim::Win, &gone),
            Ok(Stop::Left(Side::North))
        );
        assert_eq!(
            r.check_claim(Side::South, Claim::Draw, &gone),
            Ok(Stop::LeftDraw(Side::North))
        );
        // The one who left cannot claim, nor anyone too early or against a present player.
        let e = r.check_claim(Side::North, Claim::Win, &gone).unwrap_err();
        assert_eq!(e.code(), "claim_unavailable");
        let e = r
            .check_claim(Side::South, Claim::Win, &away(None, Some(59_001)))
            .unwrap_err();
        assert_eq!(e, RoomError::TooEarlyToClaim { seconds: 1 });
        assert!(e.is_conflict());
        let e = r
            .check_claim(Side::South, Claim::Win, &away(None, None))
            .unwrap_err();
        assert_eq!(e.code(), "opponent_connected");
        assert_eq!(r.claim_window(&away(Some(1), Some(CLAIM_AFTER_MS))), None);

        // The claim ends the game for good: the other side won, or nobody.
        let stop = r.check_claim(Side::South, Claim::Win, &gone).unwrap();
        r.commit_stop(stop);
        assert_eq!(r.result(), Some("south"));
        assert_eq!(r.view().end, Some(crate::End::Left));
        assert_eq!(r.steps().last().unwrap().kind, crate::StepKind::Left);
        let again = Room::replay(r.setup().clone(), 0, &r.tokens()).unwrap();
        assert_eq!(again.result(), Some("south"));
        assert_eq!(
            r.check_claim(Side::South, Claim::Win, &gone).unwrap_err().code(),
            "game_over"
        );
        assert_eq!(r.claim_window(&gone), None);
    }

    #[test]
    fn claims_are_for_online_games_with_a_clock_of_minutes() {
        let gone = away(None, Some(CLAIM_AFTER_MS));
        for mode in [Mode::Hotseat, Mode::Engine] {
            let e = room(mode)
                .check_claim(Side::South, Claim::Win, &gone)
                .unwrap_err();
            assert_eq!(e.code(), "claim_unavailable");
        }
        let untimed = Absence {
            realtime_clock: false,
            ..gone
        };
        let r = room(Mode::Online);
        assert_eq!(r.claim_window(&untimed), None);
        assert_eq!(
            r.check_claim(Side::South, Claim::Draw, &untimed)
                .unwrap_err()
                .code(),
            "claim_unavailable"
        );
        let mut drawn = room(Mode::Online);
        drawn.commit_stop(Stop::LeftDraw(Side::South));
        assert_eq!(drawn.result(), Some("draw"));
        assert_eq!(drawn.view().end, Some(crate::End::LeftDraw));
    }
}
