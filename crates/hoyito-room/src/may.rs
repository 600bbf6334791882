//! What each seat may do now ([`SeatActions`], in the view as
//! [`MayView`], both in [`crate::view`]), decided by the very checks the room's steps, undo, offers
//! and claims go through, given what only the room's host knows
//! ([`Host`]: who is seated, the offers, who is away, whether the engine is
//! thinking). A page shows an action exactly when the room would take it.

use hoyito_core::Side;

use crate::absence::{Absence, Claim};
use crate::mode::Mode;
use crate::offer::{OfferAction, OfferKind, OfferStep, Offers};
use crate::room::{Room, Seat};
use crate::stop::Stop;
use crate::view::{MayView, SeatActions};
use crate::RoomError;

/// What the host of a room (the server, or the page for a game on the
/// device) knows beside the room's steps.
#[derive(Debug, Clone, Copy)]
pub struct Host<'a> {
    /// Whether each seat is taken, `[south, north]` (in an online game a
    /// seat is free until its player joins; elsewhere both are taken).
    pub seated: [bool; 2],
    /// The offers of the game, where the host takes offers (the server);
    /// `None` where it takes none (a game on the device).
    pub offers: Option<&'a Offers>,
    /// Who is away and for how long, where the host can tell (a server on
    /// one node); `None` where it cannot: then nobody may claim.
    pub absence: Option<Absence>,
    /// The engine is searching (its move, or until an undo stops it).
    pub thinking: bool,
    /// The game has a clock: it starts once both seats are taken.
    pub timed: bool,
}

impl Host<'_> {
    /// A host that adds nothing to the room: both seats taken, no offers,
    /// nobody away, the engine idle, no clock.
    pub const ALONE: Host<'static> = Host {
        seated: [true, true],
        offers: None,
        absence: None,
        thinking: false,
        timed: false,
    };

    fn seated(&self, side: Side) -> bool {
        self.seated[match side {
            Side::South => 0,
            Side::North => 1,
        }]
    }
}

impl Room {
    /// Checks that `seat` may play a move now: its turn in a game that goes
    /// on, the engine not searching, a timed game's seats both taken.
    ///
    /// # Errors
    /// As [`Room::check_turn`]; [`RoomError::EngineThinking`];
    /// [`RoomError::NotStarted`] for a timed game with a free seat.
    pub fn check_move(&self, seat: Seat, host: &Host) -> Result<(), RoomError> {
        self.check_turn(seat)?;
        if host.thinking {
            return Err(RoomError::EngineThinking);
        }
        if host.timed && host.seated != [true, true] {
            return Err(RoomError::NotStarted);
        }
        Ok(())
    }

    /// Checks that `seat` may ask for a hint now: as for a move, in a game
    /// that is not online.
    ///
    /// # Errors
    /// [`RoomError::HintUnavailable`] in online games; as [`Room::check_move`].
    pub fn check_hint(&self, seat: Seat, host: &Host) -> Result<(), RoomError> {
        if self.setup().mode == Mode::Online {
            return Err(RoomError::HintUnavailable);
        }
        self.check_move(seat, host)
    }

    /// The step by which `seat` resigns (see [`Room::resignation`]), with
    /// what the host knows: not before the other player has joined (there
    /// is nobody to win; abort the game instead).
    ///
    /// # Errors
    /// [`RoomError::WaitingForOpponent`] before the other player joined;
    /// as [`Room::resignation`].
    pub fn resignation_by(&self, seat: Seat, round: bool, host: &Host) -> Result<String, RoomError> {
        if let Seat::One(side) = seat {
            if !host.seated(side.other()) {
                return Err(RoomError::WaitingForOpponent);
            }
        }
        self.resignation(seat, round)
    }

    /// Checks a claim by `seat` against a player who left, with what the
    /// host knows, and returns the stop it ends the game with.
    ///
    /// # Errors
    /// [`RoomError::ClaimUnavailable`] for a seat that is not one side of
    /// an online game, or where the host cannot tell who is away;
    /// [`RoomError::WaitingForOpponent`] before the second player joined;
    /// as [`Room::check_claim`].
    pub fn check_claim_by(&self, seat: Seat, claim: Claim, host: &Host) -> Result<Stop, RoomError> {
        let me =
            match (self.setup().mode, seat) {
                (Mode::Online, Seat::One(side)) => side,
                _ => return Err(RoomError::ClaimUnavailable(
                    "only in an online game with a clock of minutes can a player claim against one who left",
                )),
            };
        if host.seated != [true, true] {
            return Err(RoomError::WaitingForOpponent);
        }
        let Some(absence) = host.absence else {
            return Err(RoomError::ClaimUnavailable(
                "this server runs on several nodes and cannot tell who left: play on, or let the clock decide",
            ));
        };
        self.check_claim(me, claim, &absence)
    }

    /// What `seat` may do now, with what `host` knows.
    pub fn may(&self, seat: Seat, host: &Host) -> SeatActions {
        let offer = |kind, action| {
            let offers = host.offers?;
            let opponent = match seat {
                Seat::One(side) => host.seated(side.other()),
                Seat::Both => true,
            };
            offers.decide(self, kind, seat, action, opponent).ok()
        };
        let mode = self.setup().mode;
        SeatActions {
            play: self.check_move(seat, host).is_ok(),
            hint: self.check_hint(seat, host).is_ok(),
            undo: mode != Mode::Online && self.undo_target().is_ok(),
            abort: self.check_stop(Stop::Abort(self.resigner(seat))).is_ok(),
            resign: self.resignation_by(seat, false, host).is_ok(),
            resign_round: self.resignation_by(seat, true, host).is_ok(),
            next_round: self.check_next_round().is_ok(),
            // Offering a draw to a player who offered one agrees it.
            offer_draw: match offer(OfferKind::Draw, OfferAction::Offer) {
                Some(OfferStep::AskEngine) => !host.thinking,
                Some(_) => true,
                None => false,
            },
            accept_draw: offer(OfferKind::Draw, OfferAction::Accept) == Some(OfferStep::Draw),
            decline_draw: offer(OfferKind::Draw, OfferAction::Decline).is_some(),
            ask_takeback: offer(OfferKind::Takeback, OfferAction::Offer).is_some(),
            accept_takeback: matches!(
                offer(OfferKind::Takeback, OfferAction::Accept),
                Some(OfferStep::TakeBack { .. })
            ),
            decline_takeback: offer(OfferKind::Takeback, OfferAction::Decline).is_some(),
            claim: self.check_claim_by(seat, Claim::Win, host).is_ok(),
        }
    }

    /// What each seat of the room may do now (see [`MayView`]).
    pub fn may_view(&self, host: &Host) -> MayView {
        let setup = self.setup();
        let one = |side: Side| Some(self.may(Seat::One(side), host));
        match setup.mode {
            Mode::Hotseat => MayView {
                both: Some(self.may(Seat::Both, host)),
                ..MayView::default()
            },
            Mode::Engine => {
                let human = setup.engine_side.map_or(Side::South, Side::other);
                MayView {
                    south: (human == Side::South).then(|| one(Side::South)).flatten(),
                    north: (human == Side::North).then(|| one(Side::North)).flatten(),
                    both: None,
                }
            }
            Mode::Online => MayView {
                south: host.seated(Side::South).then(|| one(Side::South)).flatten(),
                north: host.seated(Side::North).then(|| one(Side::North)).flatten(),
                both: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use hoyito_core::Rules;

    use super::*;
    use crate::{OfferKind, Setup};

    fn room(mode: Mode, is_match: bool) -> Room {
        let setup = Setup {
            mode,
            rules: Rules::default(),
            is_match,
            engine_side: (mode == Mode::Engine).then_some(Side::North),
            start: None,
        };
        Room::new(setup, 0).unwrap()
    }

    /// Whether `room` takes step `token` (on a copy).
    fn takes(room: &Room, token: &str) -> bool {
        room.clone().step(token, 0).is_ok()
    }

    /// At every step of games of each kind, what the view says a seat may
    /// do is what the room then takes from it.
    #[test]
    fn a_seat_may_do_what_the_room_then_takes() {
        for mode in [Mode::Engine, Mode::Hotseat, Mode::Online] {
            for is_match in [false, true] {
                let mut r = room(mode, is_match);
                let offers = Offers::default();
                let host = Host {
                    offers: Some(&offers),
                    ..Host::ALONE
                };
                for k in 0..60 {
                    let seats: &[Seat] = match mode {
                        Mode::Hotseat => &[Seat::Both],
                        Mode::Engine => &[Seat::One(Side::South)],
                        Mode::Online => &[Seat::One(Side::South), Seat::One(Side::North)],
                    };
                    for &seat in seats {
                        let may = r.may(seat, &host);
                        let side = r.resigner(seat);
                        let play = r
                            .legal_tokens()
                            .first()
                            .is_some_and(|t| r.check_move(seat, &host).is_ok() && takes(&r, t));
                        assert_eq!(may.play, play, "{mode:?} step {k}: move");
                        assert_eq!(
                            may.abort,
                            takes(&r, &Stop::Abort(side).token()),
                            "{mode:?} step {k}: abort"
                        );
                        assert_eq!(
                            may.resign,
                            takes(&r, &Stop::Resign(side).token()),
                            "{mode:?} step {k}: resign"
                        );
                        assert_eq!(
                            may.resign_round,
                            is_match && takes(&r, &hoyito_core::concession_token(side)),
                            "{mode:?} step {k}: resign the round"
                        );
                        assert_eq!(may.next_round, takes(&r, crate::NEXT_ROUND), "{mode:?} step {k}");
                        if may.undo {
                            assert!(r.undone(r.undo_target().unwrap()).seq() < r.seq());
                        }
                        assert_eq!(
                            may.ask_takeback,
                            offers
                                .decide(&r, OfferKind::Takeback, seat, crate::OfferAction::Offer, true)
                                .is_ok(),
                        );
                        assert!(!may.claim && !may.accept_draw && !may.decline_takeback);
                        assert_eq!(may.hint, may.play && mode != Mode::Online);
                    }
                    // The game goes on: a move, the next round, or it is over.
                    if let Some(t) = r.legal_tokens().first().cloned() {
                        r.step(&t, 0).unwrap();
                    } else if r.can_next_round() {
                        r.step(crate::NEXT_ROUND, 0).unwrap();
                    } else {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn the_host_decides_what_it_alone_knows() {
        let r = room(Mode::Online, false);
        let offers = Offers::default();
        let waiting = Host {
            seated: [true, false],
            offers: Some(&offers),
            timed: true,
            ..Host::ALONE
        };
        let south = r.may(Seat::One(Side::South), &waiting);
        // A timed game starts once both are there; until then nobody resigns
        // or offers anything, but the game may be aborted.
        assert!(!south.play && !south.resign && !south.offer_draw && south.abort);
        assert_eq!(
            r.check_move(Seat::One(Side::South), &waiting),
            Err(RoomError::NotStarted)
        );
        let view = r.may_view(&waiting);
        assert!(view.south.is_some() && view.north.is_none() && view.both.is_none());
        let thinking = Host {
            thinking: true,
            ..Host::ALONE
        };
        let engine = room(Mode::Engine, false);
        assert_eq!(
            engine.check_move(Seat::One(Side::South), &thinking),
            Err(RoomError::EngineThinking)
        );
        assert!(!engine.may(Seat::One(Side::South), &thinking).hint);
        // A host without offers (a game on the device) offers no draw.
        assert!(!engine.may(Seat::One(Side::South), &Host::ALONE).offer_draw);
        let with = Host {
            offers: Some(&offers),
            ..Host::ALONE
        };
        assert!(engine.may(Seat::One(Side::South), &with).offer_draw);
    }
}
