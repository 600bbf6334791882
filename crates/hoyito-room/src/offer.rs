//! [`Offers`]: what a player asks of the other and waits for an answer
//! to — a draw, or to take back their last move ([`OfferKind`]) — and
//! [`Offers::decide`], which says what a player's [`OfferAction`] does.
//!
//! An offer is made at a step ([`Offer::seq`]) and waits for an answer only
//! while the game still has that many steps and goes on, so any step (a
//! move, a round start, a resignation…) withdraws it without being written
//! again. Draw offers are made in online games and to the engine (which
//! answers at once); takeback requests only in online games (elsewhere
//! there is undo). The room decides, the caller stores what it decided and
//! then takes it in ([`Offers::set`]), so nothing changes unless it was
//! stored.

use hoyito_core::Side;
use serde::Deserialize;

use crate::{Mode, Room, RoomError, Seat, Stop};

/// What a player offers the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// A draw (or, to the engine, a draw it answers at once).
    Draw,
    /// To take back the asker's last move (online games).
    Takeback,
}

impl OfferKind {
    /// `draw offer` or `takeback request`.
    pub fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw offer",
            OfferKind::Takeback => "takeback request",
        }
    }
}

/// An offer as made: `side` made it when the game had `seq` steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// The side that offered.
    pub side: Side,
    /// The game's step count when it was made.
    pub seq: u64,
}

/// What a player does about an offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferAction {
    /// Makes the offer (for a draw: accepts the other's, if there is one).
    Offer,
    /// Accepts the other's offer.
    Accept,
    /// Declines the other's offer.
    Decline,
}

/// What an [`OfferAction`] does, as [`Offers::decide`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferStep {
    /// The offer of its kind becomes `side`'s, made at the current step
    /// (`None`: declined, none waits).
    Set(Option<Side>),
    /// The other's draw offer is accepted: the game ends with
    /// [`Stop::Draw`].
    Draw,
    /// The other's takeback request is accepted: the game goes back to its
    /// first `keep` steps, as an undo does.
    TakeBack {
        /// The steps to keep.
        keep: u64,
    },
    /// A draw offered to the engine, which answers it by its evaluation.
    AskEngine,
}

/// The offers of a game: the draw offer and the takeback request made
/// last, and the count of their changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offers {
    /// The draw offer made last, if any.
    pub draw: Option<Offer>,
    /// The takeback request made last, if any.
    pub takeback: Option<Offer>,
    /// How many times an offer was made or cleared (a copy of the game
    /// with the larger count at the same step is newer).
    pub rev: u64,
    /// The step count at each side's last draw offer (south, north): one
    /// draw offer a side and a move.
    draw_offered_at: [Option<u64>; 2],
}

fn index(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 1,
    }
}

impl Offers {
    /// The offers as stored for `room`'s game.
    pub fn stored(draw: Option<Offer>, takeback: Option<Offer>, rev: u64, room: &Room) -> Offers {
        let mut offers = Offers {
            draw,
            takeback,
            rev,
            draw_offered_at: [None, None],
        };
        offers.note_pending_draw(room);
        offers
    }

    fn note_pending_draw(&mut self, room: &Room) {
        if let Some(side) = self.pending(OfferKind::Draw, room) {
            self.draw_offered_at[index(side)] = Some(room.seq());
        }
    }

    fn get(&self, kind: OfferKind) -> Option<Offer> {
        match kind {
            OfferKind::Draw => self.draw,
            OfferKind::Takeback => self.takeback,
        }
    }

    /// The side whose offer of `kind` waits for an answer: made at the
    /// current step of a game that goes on.
    pub fn pending(&self, kind: OfferKind, room: &Room) -> Option<Side> {
        self.get(kind)
            .filter(|o| o.seq == room.seq() && room.stop().is_none())
            .map(|o| o.side)
    }

    /// What `action` by `seat` about an offer of `kind` does in `room`;
    /// `opponent_seated`: the other player has joined. Changes nothing.
    ///
    /// # Errors
    /// [`RoomError::DrawUnavailable`] or [`RoomError::TakebackUnavailable`]
    /// where there is nobody to offer it to (hot-seat; for takebacks, any
    /// game that is not online); the game is over; [`RoomError::OfferRoundOver`]
    /// between rounds; [`RoomError::WaitingForOpponent`] before the other
    /// player joined; [`RoomError::NoOffer`] to answer an offer that does
    /// not wait; [`RoomError::Offered`] to offer again while an offer
    /// waits (or a draw again at the same move);
    /// [`RoomError::OfferOnYourMove`] to offer the engine a draw on its
    /// move; [`RoomError::NothingToUndo`] to ask to take back with no move
    /// of one's own in the round.
    pub fn decide(
        &self,
        room: &Room,
        kind: OfferKind,
        seat: Seat,
        action: OfferAction,
        opponent_seated: bool,
    ) -> Result<OfferStep, RoomError> {
        let mode = room.setup().mode;
        let me = match (kind, mode, seat) {
            (OfferKind::Draw, Mode::Hotseat, _) | (OfferKind::Draw, _, Seat::Both) => {
                return Err(RoomError::DrawUnavailable)
            }
            (OfferKind::Takeback, Mode::Online, Seat::One(side)) => side,
            (OfferKind::Takeback, ..) => return Err(RoomError::TakebackUnavailable),
            (OfferKind::Draw, _, Seat::One(side)) => side,
        };
        room.check_resign()?;
        if room.position().is_over() {
            return Err(RoomError::OfferRoundOver(kind));
        }
        if mode == Mode::Online && !opponent_seated {
            return Err(RoomError::WaitingForOpponent);
        }
        let pending = self.pending(kind, room);
        let to_me = pending == Some(me.other());
        match (kind, action) {
            (OfferKind::Draw, OfferAction::Accept | OfferAction::Offer) if to_me => {
                room.check_stop(Stop::Draw)?;
                Ok(OfferStep::Draw)
            }
            (OfferKind::Takeback, OfferAction::Accept) if to_me => Ok(OfferStep::TakeBack {
                keep: room.takeback_target(me.other())?,
            }),
            (_, OfferAction::Decline) if to_me => Ok(OfferStep::Set(None)),
            (_, OfferAction::Accept | OfferAction::Decline) => Err(RoomError::NoOffer(kind)),
            (_, OfferAction::Offer) if pending.is_some() => Err(RoomError::Offered {
                kind,
                mine: pending == Some(me),
            }),
            (OfferKind::Draw, OfferAction::Offer) => {
                if self.draw_offered_at[index(me)] == Some(room.seq()) {
                    return Err(RoomError::Offered { kind, mine: true });
                }
                if mode == Mode::Engine {
                    if room.position().to_move() != me {
                        return Err(RoomError::OfferOnYourMove);
                    }
                    return Ok(OfferStep::AskEngine);
                }
                Ok(OfferStep::Set(Some(me)))
            }
            (OfferKind::Takeback, OfferAction::Offer) => {
                room.takeback_target(me)?;
                Ok(OfferStep::Set(Some(me)))
            }
        }
    }

    /// Takes in what was stored for an [`OfferStep::Set`]: `side`'s offer
    /// of `kind` at `room`'s current step (or none), and the stored count
    /// of changes `rev`.
    pub fn set(&mut self, kind: OfferKind, side: Option<Side>, room: &Room, rev: u64) {
        let offer = side.map(|side| Offer {
            side,
            seq: room.seq(),
        });
        match kind {
            OfferKind::Draw => self.draw = offer,
            OfferKind::Takeback => self.takeback = offer,
        }
        if kind == OfferKind::Draw {
            if let Some(side) = side {
                self.draw_offered_at[index(side)] = Some(room.seq());
            }
        }
        self.rev = self.rev.max(rev);
    }

    /// Notes a draw offered to the engine at `room`'s current step (it
    /// answers at once and nothing is stored): one offer a move.
    pub fn offered_to_engine(&mut self, side: Side, room: &Room) {
        self.draw_offered_at[index(side)] = Some(room.seq());
    }

    /// The offers after an undo or an accepted takeback, which withdraw
    /// every offer (the count of changes goes on).
    pub fn withdrawn(&self) -> Offers {
        Offers {
            rev: self.rev,
            ..Offers::default()
        }
    }

    /// Takes the offers of a copy of the game reloaded from storage, whose
    /// room `room` this game now holds: the copy's offers if it is `ahead`
    /// (further on) or has at least as many changes; the larger count.
    pub fn refresh(&mut self, fresh: &Offers, ahead: bool, room: &Room) {
        if ahead || fresh.rev >= self.rev {
            self.draw = fresh.draw;
            self.takeback = fresh.takeback;
        }
        self.rev = self.rev.max(fresh.rev);
        self.note_pending_draw(room);
    }
}
